/*
 * draw/vc_draw.h - the drawing layer of libvchess (internal): what the
 * text, glyph and SVG drawers share (draw/render.c).
 */
#ifndef VC_DRAW_H
#define VC_DRAW_H

#include "rules/vc_rules.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
int vc_utf8_len(const unsigned char *s);
/* Writes text escaped for XML (SVG); bytes XML cannot hold become '?'. */
void vc_svg_put_text(struct vc_sink *out, const char *text);

/* What a reader needs of the variant's own end rules beneath a diagram,
 * one note a line (appended to b, each ending in a line end): the checks
 * each side has still to give ("checks to give: White 3, Black 2"), the
 * region a piece wins by reaching ("goal: king on the hill: d4 e4 d5 e5").
 * Returns the number of notes. */
int vc_draw_end_notes(const struct vc_position *p, struct vc_buf *b);
/* Is square sq in the region of the variant's end rule (either side's)? */
int vc_draw_in_region(const struct vc_variant *v, int sq);

#endif
