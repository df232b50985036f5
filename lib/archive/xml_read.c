/*
 * archive/xml_read.c - the XML archive format of vchess-xml(5), read:
 * libxml2's xmlTextReader, streamed from a vc_input (so gzip comes for
 * free); and the sniffing of an input's format by its first bytes.  The
 * writer is write_xml.c.
 *
 * Model.  The writer writes the canonical form of each game (see
 * canon.c): one <game> per game, its moves as a tree of <move>,
 * <comment>, <nag>, <escape> and <variation> elements in the order of the
 * movetext, where the annotations that follow a move are children of its
 * <move>.  The reader turns that tree back into the flat item list of a
 * game record, exactly the items the text reader would give for the
 * canonical text of the game, so text -> XML -> text is the identity on
 * canonical text.  Derived data (canonical SAN, squares, positions,
 * diagnostics) is written for other programs and ignored on reading.
 *
 * Bytes: XML holds only Unicode characters, and games hold bytes.  A value
 * that is not all XML characters in UTF-8 is written in an escaped form
 * (a backslash as "\\", each byte that cannot stand as "\xNN") and named
 * in the element's esc attribute, so that reading restores the exact
 * bytes.
 *
 * Writing goes through the xmlTextWriter for the document; the games are
 * serialised here into the very bytes the xmlTextWriter would write (see
 * "the writer" below), since its per-attribute cost made the writer as
 * slow as the whole replay.
 *
 * Invariants: the reader holds one game's items and only the current XML
 * node (no tree is built; subtrees that are skipped are skipped by the
 * streaming reader); the serialiser's output equals the xmlTextWriter's
 * byte for byte (tests/unit/t_convert.c); libxml2 never prints: its global
 * handlers are made silent while it runs on our behalf, and parse errors go
 * to the context.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

#include "archive/vc_archive.h"

#define XML_VERSION "1"
#define SNIFF_BYTES 4096

/* ==== the reader ======================================================== */

/* Where a scan of the prolog stands (see prolog_scan). */
struct prolog {
	enum { PRO_TEXT, PRO_LT, PRO_BANG, PRO_PI, PRO_COMMENT, PRO_DONE } state;
	int k;        /* PRO_PI: the last byte was '?'; PRO_COMMENT: dashes in a row */
	int cr;       /* the last byte was a CR */
	long line;    /* the line of the byte being scanned */
	long doctype; /* the line of "<!D", 0 when none was seen */
};

struct vc_xml_reader {
	struct vc_ctx *ctx;
	struct vc_input *in;
	xmlTextReaderPtr r;
	char *name;
	long number;
	int started, done, failed;
	struct vc_buf text, val, tmp;
	struct vc_game *g;
	struct prolog pro;
};

/* The bytes of the prolog (before the root element) pass through here, so
 * that a DOCTYPE can be reported at its own line: libxml2 tells of it only
 * once it has parsed on to the root element.  Comments and processing
 * instructions are stepped over; anything unexpected (UTF-16, say) ends
 * the scan, and the parser's line is used instead. */
static void prolog_scan(struct prolog *p, const char *buf, size_t n)
{
	for (size_t i = 0; i < n && p->state != PRO_DONE; i++) {
		char c = buf[i];
		if (c == '\r' || (c == '\n' && !p->cr)) /* CR LF, CR and LF end a line */
			p->line++;
		p->cr = c == '\r';
		switch (p->state) {
		case PRO_TEXT:
			if (c == '<')
				p->state = PRO_LT;
			break;
		case PRO_LT:
			p->state = c == '?' ? PRO_PI : c == '!' ? PRO_BANG : PRO_DONE;
			p->k = 0;
			break;
		case PRO_BANG:
			if (c == '-') {
				p->state = PRO_COMMENT;
			} else {
				if (c == 'D')
					p->doctype = p->line;
				p->state = PRO_DONE;
			}
			break;
		case PRO_PI: /* up to "?>" */
			if (c == '>' && p->k)
				p->state = PRO_TEXT;
			p->k = c == '?';
			break;
		case PRO_COMMENT: /* "<!-" seen; up to "-->" (k: dashes just before) */
			if (c == '>' && p->k >= 2)
				p->state = PRO_TEXT;
			p->k = c == '-' ? p->k + 1 : 0;
			break;
		default:
			break;
		}
	}
}

static int in_read(void *user, char *buf, int len)
{
	struct vc_xml_reader *x = user;
	long n = vc_input_read(x->in, buf, (size_t)len);
	if (n < 0) {
		x->failed = 1;
		return -1;
	}
	prolog_scan(&x->pro, buf, (size_t)n);
	return (int)n;
}

static int in_close(void *user)
{
	(void)user;
	return 0;
}

static void on_xml_error(void *user, xmlErrorPtr e)
{
	struct vc_xml_reader *x = user;
	if (!e || e->level < XML_ERR_ERROR || x->failed)
		return;
	x->failed = 1;
	char msg[512];
	snprintf(msg, sizeof msg, "%s", e->message ? e->message : "malformed XML");
	size_t k = strlen(msg);
	while (k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
		msg[--k] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, e->line, e->int2 > 0 ? e->int2 : 0,
		NULL, "not well-formed XML: %s", msg);
}

/* Makes a reader of the input in (taken over: closed on failure too). */
static struct vc_xml_reader *reader_new(struct vc_ctx *ctx, struct vc_input *in,
					const struct vc_reader_opts *opts)
{
	vc_xml_global_init(); /* here, in the thread that opens readers */
	struct vc_xml_quiet q;
	if (!in)
		return NULL;
	struct vc_xml_reader *x = vc_calloc(1, sizeof *x);
	if (!x) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_input_close(in);
		return NULL;
	}
	x->ctx = ctx;
	x->number = opts && opts->first_game ? opts->first_game : 1;
	vc_buf_init(&x->text);
	vc_buf_init(&x->val);
	vc_buf_init(&x->tmp);
	x->in = in;
	x->pro.line = 1;
	x->name = vc_strdup(vc_input_name(x->in));
	vc_xml_quiet_on(&q);
	if (x->name)
		x->r = xmlReaderForIO(in_read, in_close, x, x->name, NULL,
				      XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	if (x->r)
		xmlTextReaderSetStructuredErrorHandler(x->r, on_xml_error, x);
	vc_xml_quiet_off(&q);
	if (!x->r) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_xml_reader_close(x);
		return NULL;
	}
	return x;
}

struct vc_xml_reader *vc_xml_reader_open(struct vc_ctx *ctx, const char *path,
					 const struct vc_reader_opts *opts)
{
	return reader_new(ctx, vc_input_open(ctx, path, opts ? opts->max_gzip_ratio : 0), opts);
}

struct vc_xml_reader *vc_xml_reader_mem(struct vc_ctx *ctx, const char *name, const void *data,
					size_t len, const struct vc_reader_opts *opts)
{
	return reader_new(ctx, vc_input_mem(ctx, name, data, len, opts ? opts->max_gzip_ratio : 0),
			  opts);
}

void vc_xml_reader_close(struct vc_xml_reader *x)
{
	struct vc_xml_quiet q;
	if (!x)
		return;
	vc_xml_quiet_on(&q);
	if (x->r)
		xmlFreeTextReader(x->r);
	vc_xml_quiet_off(&q);
	vc_input_close(x->in);
	free(x->name);
	vc_buf_free(&x->text);
	vc_buf_free(&x->val);
	vc_buf_free(&x->tmp);
	free(x);
}

/* Reads one node: 1, 0 at the end, -1 on an error (reported). */
static int rd(struct vc_xml_reader *x)
{
	int rc = xmlTextReaderRead(x->r);
	if (rc < 0 && !x->failed) {
		x->failed = 1;
		vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name,
			xmlTextReaderGetParserLineNumber(x->r), 0, NULL, "cannot read the XML");
	}
	return x->failed ? -1 : rc;
}

/* The line of the current node.  libxml2 keeps it in the node, up to
 * 65535 for elements; past that, the parser's line, which may run ahead of
 * the node by the parser's look-ahead, is the best there is. */
static long line_of(struct vc_xml_reader *x)
{
	xmlNodePtr n = xmlTextReaderCurrentNode(x->r);
	long l = n ? xmlGetLineNo(n) : -1;
	if (l > 0 && l < 65535)
		return l;
	return xmlTextReaderGetParserLineNumber(x->r);
}

static const char *name_of(struct vc_xml_reader *x)
{
	const xmlChar *n = xmlTextReaderConstLocalName(x->r);
	return n ? (const char *)n : "";
}

static int is_space_node(int type)
{
	return type == XML_READER_TYPE_WHITESPACE ||
	       type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE || type == XML_READER_TYPE_COMMENT ||
	       type == XML_READER_TYPE_PROCESSING_INSTRUCTION ||
	       type == XML_READER_TYPE_XML_DECLARATION || type == XML_READER_TYPE_DOCUMENT_TYPE;
}

static void warn(struct vc_xml_reader *x, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A problem of the game being read, stored in it (a warning: the game is
 * read all the same). */
static void warn(struct vc_xml_reader *x, const char *code, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	vc_game_add_diag(x->g, VC_SEV_WARNING, code, line_of(x), 0, 0, NULL, "%s", msg);
}

/* Skips the element the reader is on, with its subtree: 0, or -1 when the
 * XML cannot be read.  *again says whether the reader already stands on the
 * node after it (the caller must then not read again before looking). */
static int skip_element(struct vc_xml_reader *x, int *again)
{
	*again = 0;
	if (xmlTextReaderIsEmptyElement(x->r))
		return 0;
	int rc = xmlTextReaderNext(x->r);
	if (rc < 0) {
		if (!x->failed) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, line_of(x), 0, NULL,
				"cannot read the XML");
		}
		return -1;
	}
	*again = 1;
	return 0;
}

/* Does the esc attribute's list (NULL: none) hold name? */
static int esc_has(const char *esc, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = esc; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		const char *q = p;
		while (*q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r')
			q++;
		if ((size_t)(q - p) == nl && !memcmp(p, name, nl))
			return 1;
		p = q;
	}
	return 0;
}

#define NUL_KEPT "kept as it is: no value may hold a NUL byte"

/* The value of attribute name of the current element, decoded when esc
 * names it, into x->val (NUL-terminated); NULL when absent. */
static const char *attr_get(struct vc_xml_reader *x, const char *name, const char *esc, size_t *len)
{
	xmlChar *v = xmlTextReaderGetAttribute(x->r, BAD_CAST name);
	if (!v)
		return NULL;
	vc_buf_reset(&x->val);
	size_t n = strlen((const char *)v);
	int escaped = esc_has(esc, name);
	if (escaped && vc_esc_decode(&x->val, (const char *)v, n))
		warn(x, "xml-value", "'\\x00' in attribute '%s' " NUL_KEPT, name);
	else if (!escaped)
		vc_buf_add(&x->val, v, n);
	vc_buf_addc(&x->val, '\0');
	xmlFree(v);
	if (len)
		*len = x->val.len - 1;
	return x->val.p;
}

/* The esc attribute of the current element, copied into x->tmp, or NULL. */
static const char *esc_get(struct vc_xml_reader *x)
{
	xmlChar *v = xmlTextReaderGetAttribute(x->r, BAD_CAST "esc");
	if (!v)
		return NULL;
	vc_buf_reset(&x->tmp);
	vc_buf_adds(&x->tmp, (const char *)v);
	vc_buf_addc(&x->tmp, '\0');
	xmlFree(v);
	return x->tmp.p;
}

/* The text content of the current element into x->text (decoded when its
 * esc says "text"); leaves the reader on its end.  0 ok, -1 error. */
static int text_get(struct vc_xml_reader *x)
{
	const char *esc = esc_get(x);
	int escaped = esc_has(esc, "text");
	vc_buf_reset(&x->val);
	if (!xmlTextReaderIsEmptyElement(x->r)) {
		for (int again = 0;;) {
			if (!again && rd(x) <= 0)
				return -1;
			again = 0;
			int t = xmlTextReaderNodeType(x->r);
			if (t == XML_READER_TYPE_END_ELEMENT)
				break;
			if (t == XML_READER_TYPE_TEXT || t == XML_READER_TYPE_CDATA ||
			    t == XML_READER_TYPE_WHITESPACE ||
			    t == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
				const xmlChar *v = xmlTextReaderConstValue(x->r);
				if (v)
					vc_buf_adds(&x->val, (const char *)v);
			} else if (t == XML_READER_TYPE_ELEMENT) {
				warn(x, "xml-unexpected", "element '%.40s' inside text ignored",
				     name_of(x));
				/* the reader may stand on what follows the element
				 * (more text, or the end of this one): not read past */
				if (skip_element(x, &again) < 0)
					return -1;
			}
		}
	}
	vc_buf_reset(&x->text);
	if (escaped && vc_esc_decode(&x->text, x->val.p ? x->val.p : "", x->val.len))
		warn(x, "xml-value", "'\\x00' in the text of '%.40s' " NUL_KEPT, name_of(x));
	else if (!escaped)
		vc_buf_add(&x->text, x->val.p ? x->val.p : "", x->val.len);
	vc_buf_addc(&x->text, '\0');
	x->text.len--;
	return x->text.oom || x->val.oom ? -1 : 0;
}

static int add_item(struct vc_xml_reader *x, enum vc_item_type type, const char *text, size_t len,
		    unsigned flags, const char *suffix, size_t suffix_len, int nag)
{
	struct vc_item it;
	memset(&it, 0, sizeof it);
	it.type = type;
	it.flags = flags;
	it.line = line_of(x);
	it.text = text;
	it.len = len;
	it.suffix = suffix;
	it.suffix_len = suffix_len;
	it.nag = nag;
	return vc_game_add_item(x->g, &it);
}

static const char *const suffixes[] = { "!", "?", "!!", "??", "!?", "?!" };

/* A <move>: its item; its children are read by the line loop. */
static int read_move(struct vc_xml_reader *x)
{
	const char *esc = esc_get(x);
	size_t n;
	const char *suf = NULL;
	size_t sl = 0;
	const char *s = attr_get(x, "suffix", esc, &n);
	if (s) {
		for (size_t i = 0; i < VC_NELEM(suffixes); i++)
			if (!strcmp(s, suffixes[i]))
				suf = suffixes[i];
		if (suf)
			sl = strlen(suf);
		else
			warn(x, "xml-value", "suffix '%.20s' is not a suffix: ignored", s);
	}
	unsigned flags = 0;
	s = attr_get(x, "ep", esc, &n);
	if (s && !strcmp(s, "1"))
		flags |= VC_IF_EP_MARK;
	s = attr_get(x, "san", esc, &n);
	if (!s || !n) {
		warn(x, "xml-value", "a move without a san attribute: read as '--'");
		s = "--";
		n = 2;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || strchr("{}();[]\"", s[i])) {
			warn(x, "xml-value", "move '%.20s' holds a byte no move may hold", s);
			break;
		}
	if ((n == 2 && s[0] == '-' && s[1] == '-') || (n == 2 && s[0] == 'Z' && s[1] == '0') ||
	    (n == 4 && !memcmp(s, "0000", 4)))
		flags |= VC_IF_NULL;
	return add_item(x, VC_IT_MOVE, s, n, flags, suf, sl, 0);
}

/* The content of <moves> or <variation>, up to its end.  Variations nest
 * without recursion: the depth is only counted. */
static int read_line(struct vc_xml_reader *x)
{
	int depth = 0, again = 0;
	if (xmlTextReaderIsEmptyElement(x->r))
		return 0;
	for (;;) {
		if (!again) {
			int rc = rd(x);
			if (rc <= 0)
				return -1;
		}
		again = 0;
		int t = xmlTextReaderNodeType(x->r);
		if (t == XML_READER_TYPE_END_ELEMENT) {
			const char *nm = name_of(x);
			if (!strcmp(nm, "variation")) {
				depth--;
				if (add_item(x, VC_IT_VAR_END, ")", 1, 0, NULL, 0, 0) < 0)
					return -1;
			} else if (!strcmp(nm, "moves")) {
				return 0;
			}
			continue;
		}
		if (t == XML_READER_TYPE_TEXT || t == XML_READER_TYPE_CDATA) {
			warn(x, "xml-unexpected", "text between moves ignored");
			continue;
		}
		if (t != XML_READER_TYPE_ELEMENT)
			continue;
		const char *nm = name_of(x);
		int rc = 0;
		if (!strcmp(nm, "move")) {
			rc = read_move(x);
		} else if (!strcmp(nm, "comment")) {
			rc = text_get(x);
			if (rc == 0)
				rc = add_item(x, VC_IT_COMMENT, x->text.p, x->text.len, 0, NULL, 0,
					      0);
		} else if (!strcmp(nm, "escape")) {
			rc = text_get(x);
			if (rc == 0)
				rc = add_item(x, VC_IT_ESCAPE, x->text.p, x->text.len, 0, NULL, 0,
					      0);
		} else if (!strcmp(nm, "nag")) {
			rc = text_get(x);
			if (rc == 0) {
				char *end;
				long v = strtol(x->text.p, &end, 10);
				if (end == x->text.p || *end || v < 0 || v > 999999999) {
					warn(x, "xml-value", "NAG '%.20s' is not a number: ignored",
					     x->text.p);
				} else {
					char b[16];
					int k = snprintf(b, sizeof b, "$%ld", v);
					rc = add_item(x, VC_IT_NAG, b, (size_t)k, 0, NULL, 0,
						      (int)v);
				}
			}
		} else if (!strcmp(nm, "variation")) {
			rc = add_item(x, VC_IT_VAR_START, "(", 1, 0, NULL, 0, 0);
			if (rc == 0 && xmlTextReaderIsEmptyElement(x->r))
				rc = add_item(x, VC_IT_VAR_END, ")", 1, 0, NULL, 0, 0);
			else
				depth++;
		} else if (!strcmp(nm, "arrow") || !strcmp(nm, "square")) {
			/* a move's annotations as data: its comments say them */
			rc = skip_element(x, &again);
		} else {
			warn(x, "xml-unexpected", "unknown element '%.40s' in moves ignored", nm);
			rc = skip_element(x, &again);
		}
		if (rc < 0)
			return -1;
	}
}

/* A name the text format can write: letters, digits and _+#=:- */
static int tag_name_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_+#=:-", c)) ||
		    c == '\0')
			return 0;
	}
	return 1;
}

static const char *result_token(const char *s)
{
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
	for (size_t i = 0; i < VC_NELEM(results); i++)
		if (!strcmp(s, results[i]))
			return results[i];
	return NULL;
}

/* Reads a <game> (the reader is on its start) into x->g. */
static int read_game(struct vc_xml_reader *x)
{
	struct vc_game *g = x->g;
	vc_game_build_start(g, x->name, x->number++, line_of(x));
	if (xmlTextReaderIsEmptyElement(x->r))
		return 0;
	int again = 0;
	for (;;) {
		if (!again && rd(x) <= 0)
			return -1;
		again = 0;
		int t = xmlTextReaderNodeType(x->r);
		if (t == XML_READER_TYPE_END_ELEMENT)
			return 0; /* </game>: the parser checks that it matches */
		if (t != XML_READER_TYPE_ELEMENT)
			continue;
		const char *nm = name_of(x);
		int rc = 0;
		if (!strcmp(nm, "tags")) {
			if (xmlTextReaderIsEmptyElement(x->r))
				continue;
			int tag_again = 0;
			for (;;) {
				if (!tag_again && rd(x) <= 0)
					return -1;
				tag_again = 0;
				t = xmlTextReaderNodeType(x->r);
				if (t == XML_READER_TYPE_END_ELEMENT)
					break;
				if (t != XML_READER_TYPE_ELEMENT)
					continue;
				if (strcmp(name_of(x), "tag")) {
					warn(x, "xml-unexpected",
					     "unknown element '%.40s' in tags ignored", name_of(x));
					if (skip_element(x, &tag_again) < 0)
						return -1;
					continue;
				}
				const char *esc = esc_get(x);
				size_t nn;
				long tl = line_of(x);
				const char *name = attr_get(x, "name", esc, &nn);
				char *name_copy = name ? vc_strndup(name, nn) : NULL;
				if (text_get(x) < 0) {
					free(name_copy);
					return -1;
				}
				if (!name_copy || !nn || !tag_name_ok(name_copy, nn)) {
					warn(x, "xml-value",
					     "a tag without a name, or with a name no tag may "
					     "have, ignored");
				} else if (vc_game_build_tag(g, name_copy, nn, x->text.p,
							     x->text.len, 0, tl, 0) < 0) {
					free(name_copy);
					return -1;
				}
				free(name_copy);
			}
		} else if (!strcmp(nm, "moves")) {
			rc = read_line(x);
		} else if (!strcmp(nm, "result")) {
			long l = line_of(x);
			rc = text_get(x);
			if (rc == 0) {
				const char *r = result_token(x->text.p);
				if (r)
					vc_game_build_result(g, r, l, 0);
				else
					warn(x, "xml-value",
					     "result '%.20s' is not a result: ignored", x->text.p);
			}
		} else if (!strcmp(nm, "start") || !strcmp(nm, "diagnostics")) {
			/* derived: the FEN tag and validation give them again */
			rc = skip_element(x, &again);
		} else {
			warn(x, "xml-unexpected", "unknown element '%.40s' in a game ignored", nm);
			rc = skip_element(x, &again);
		}
		if (rc < 0)
			return -1;
	}
}

vc_status vc_xml_reader_next(struct vc_xml_reader *x, struct vc_game *g)
{
	struct vc_xml_quiet q;
	vc_status st = VC_END;
	vc_game_clear(g);
	if (x->failed)
		return VC_FATAL;
	if (x->done)
		return VC_END;
	x->g = g;
	vc_xml_quiet_on(&q);
	if (!x->started) {
		/* to the root element, which must be <archive version="1"> */
		int rc;
		while ((rc = rd(x)) > 0 && xmlTextReaderNodeType(x->r) != XML_READER_TYPE_ELEMENT) {
			if (xmlTextReaderNodeType(x->r) == XML_READER_TYPE_DOCUMENT_TYPE) {
				/* An archive has no DTD: what one could add (entities,
				 * default attributes) is not read alike by every XML
				 * reader, and external entities must never be fetched;
				 * ignored, its entities would be text silently lost. */
				x->failed = 1;
				vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name,
					x->pro.doctype ? x->pro.doctype : line_of(x), 0, NULL,
					"a document type declaration (DTD) is not allowed in "
					"an archive");
				st = VC_FATAL;
				goto out;
			}
		}
		if (rc <= 0) {
			if (rc == 0 && !x->failed) {
				x->failed = 1;
				vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, line_of(x), 0,
					NULL, "no XML element");
			}
			st = VC_FATAL;
			goto out;
		}
		if (strcmp(name_of(x), "archive")) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name, line_of(x), 0, NULL,
				"the root element is '%.40s', not 'archive'", name_of(x));
			st = VC_FATAL;
			goto out;
		}
		xmlChar *v = xmlTextReaderGetAttribute(x->r, BAD_CAST "version");
		if (!v || strcmp((const char *)v, XML_VERSION)) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name, line_of(x), 0, NULL,
				"archive version '%.20s' is not known (this reader reads '%s')",
				v ? (const char *)v : "", XML_VERSION);
			xmlFree(v);
			st = VC_FATAL;
			goto out;
		}
		xmlFree(v);
		x->started = 1;
		if (xmlTextReaderIsEmptyElement(x->r)) {
			x->done = 1;
			goto out;
		}
	}
	for (int again = 0;;) {
		int rc = again ? 1 : rd(x);
		again = 0;
		if (rc < 0) {
			st = VC_FATAL;
			break;
		}
		if (rc == 0) {
			x->done = 1;
			break;
		}
		int t = xmlTextReaderNodeType(x->r);
		if (t == XML_READER_TYPE_END_ELEMENT && xmlTextReaderDepth(x->r) == 0) {
			x->done = 1; /* </archive>; what follows is only checked */
			while ((rc = rd(x)) > 0)
				;
			if (rc < 0)
				st = VC_FATAL;
			break;
		}
		if (t != XML_READER_TYPE_ELEMENT) {
			if (!is_space_node(t) && t != XML_READER_TYPE_END_ELEMENT) {
				vc_emit(x->ctx, VC_SEV_WARNING, "xml-unexpected", x->name,
					line_of(x), 0, NULL, "text between games ignored");
			}
			continue;
		}
		if (strcmp(name_of(x), "game")) {
			vc_emit(x->ctx, VC_SEV_WARNING, "xml-unexpected", x->name, line_of(x), 0,
				NULL, "unknown element '%.40s' in the archive ignored", name_of(x));
			if (skip_element(x, &again) < 0) {
				st = VC_FATAL;
				break;
			}
			continue;
		}
		if (read_game(x) < 0 || x->failed) {
			/* The parser reports what is wrong with the XML; anything
			 * else that stops a game is said here, so that no failure
			 * goes unexplained. */
			if (!x->failed) {
				x->failed = 1;
				if (vc_game_build_oom(g) || x->text.oom || x->val.oom || x->tmp.oom)
					vc_emit(x->ctx, VC_SEV_FATAL, "oom", x->name, 0, 0, NULL,
						"out of memory");
				else
					vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name,
						line_of(x), 0, NULL, "the XML ends inside a game");
			}
			st = VC_FATAL;
			break;
		}
		vc_game_build_finish(g, "", 0, 0);
		if (vc_game_build_oom(g) || x->text.oom || x->val.oom || x->tmp.oom) {
			vc_emit(x->ctx, VC_SEV_FATAL, "oom", x->name, 0, 0, NULL, "out of memory");
			x->failed = 1;
			st = VC_FATAL;
			break;
		}
		st = VC_OK;
		break;
	}
out:
	vc_xml_quiet_off(&q);
	x->g = NULL;
	if (x->failed)
		st = VC_FATAL;
	return st;
}

/* ==== sniffing ========================================================== */

static enum vc_format sniff_plain(const unsigned char *p, size_t n)
{
	size_t i = 0;
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r' ||
			 p[i] == '\f' || p[i] == '\v'))
		i++;
	return i < n && p[i] == '<' ? VC_FORMAT_XML : VC_FORMAT_TEXT;
}

enum vc_format vc_format_sniff(const void *data, size_t len)
{
	const unsigned char *p = data;
	if (len < 2 || p[0] != 0x1f || p[1] != 0x8b)
		return sniff_plain(p, len);
	unsigned char out[SNIFF_BYTES];
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return VC_FORMAT_TEXT;
	zs.next_in = (unsigned char *)(uintptr_t)p;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	zs.next_out = out;
	zs.avail_out = sizeof out;
	inflate(&zs, Z_SYNC_FLUSH);
	size_t got = sizeof out - zs.avail_out;
	inflateEnd(&zs);
	return sniff_plain(out, got);
}

int vc_format_of_file(struct vc_ctx *ctx, const char *path)
{
	unsigned char buf[SNIFF_BYTES];
	struct vc_input *in = vc_input_open(ctx, path, 0);
	if (!in)
		return -1;
	size_t got = 0;
	int bad = 0;
	while (got < sizeof buf) {
		long n = vc_input_read(in, buf + got, sizeof buf - got);
		if (n < 0)
			bad = 1;
		if (n <= 0)
			break;
		got += (size_t)n;
		/* the first byte that is not blank decides */
		size_t i = got >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
		while (i < got &&
		       (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
			i++;
		if (i < got)
			break;
	}
	vc_input_close(in);
	return bad ? -1 : (int)sniff_plain(buf, got);
}
