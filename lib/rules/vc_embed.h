/*
 * vc_embed.h - (internal) the built-in variant files, and the web page's
 * script and style, embedded at build time.
 *
 * The Makefile runs build-aux/embed over every formats/variants/NAME.yaml and
 * compiles the generated $(BUILD)/gen/vc_embedded.c into the library, so the
 * tools know every built-in variant without finding formats/ at run time.
 *
 * Invariants of the generated table:
 *  - entries are sorted by file name, and file names are unique;
 *  - text[len] == '\0' (the text may still hold NUL bytes before len);
 *  - vc_embedded_variants[vc_embedded_variant_count] is a terminating entry
 *    whose pointers are NULL and len 0, so the array is never empty.
 */
#ifndef VC_EMBED_H
#define VC_EMBED_H

#include <stddef.h>

struct vc_embedded {
	const char *file; /* base name, e.g. "chess.yaml" */
	const char *text; /* the file's bytes, NUL-terminated */
	size_t len;       /* number of bytes, without the final NUL */
};

extern const struct vc_embedded vc_embedded_variants[];
extern const size_t vc_embedded_variant_count;

/* The same for the .js and .css files of formats/html: the script and
 * the style of the web page that draw/html.c writes ("viewer.js",
 * "viewer.css"). */
extern const struct vc_embedded vc_embedded_html[];
extern const size_t vc_embedded_html_count;

/* The same for formats/openings/NAME.tsv: the opening lists that variant files
 * name (key openings), read by archive/eco.c ("a.tsv" .. "e.tsv"). */
extern const struct vc_embedded vc_embedded_openings[];
extern const size_t vc_embedded_opening_count;

#endif
