/*
 * xml.c - the XML archive format of vchess-xml(5): the writer (libxml2's
 * xmlTextWriter, streamed into a vc_sink), the reader (libxml2's
 * xmlTextReader, streamed from a vc_input, so gzip comes for free), the
 * escape for bytes that XML cannot hold, and the sniffing of an input's
 * format by its first bytes.
 *
 * Model.  The writer writes the canonical form of each game (see
 * write_text.c): one <game> per game, its moves as a tree of <move>,
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

#include "vc_base.h"

/* ---- the writer interface of write_text.c (keep identical there) ---- */
struct vc_xml_out;
struct vc_xml_out *vc_xml_out_open(struct vc_ctx *ctx, struct vc_sink *sink,
				   const struct vc_write_opts *o);
int vc_xml_out_game(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		    const struct vc_canon *c);
int vc_xml_out_close(struct vc_xml_out *x);
void vc_xml_out_pure(struct vc_xml_out *x, int on);
/* ---- end of the writer interface ---- */

/* ---- the byte escape (json.c uses it; keep identical there) ---- */
int vc_esc_needed(const char *s, size_t n);
void vc_esc_encode(struct vc_buf *b, const char *s, size_t n);
/* ---- end of the byte escape ---- */

/* ---- reader interface of game.c (keep identical to the copy there) ---- */
void vc_game_build_start(struct vc_game *g, const char *file, long number, long line);
int vc_game_build_tag(struct vc_game *g, const char *name, size_t nlen, const char *value,
		      size_t vlen, int unescape, long line, long col);
void vc_game_build_result(struct vc_game *g, const char *result, long line, long col);
int vc_game_build_finish(struct vc_game *g, const char *raw, size_t len, int garbage);
int vc_game_build_oom(const struct vc_game *g);
/* ---- end of the reader interface ---- */

/* ---- reading XML from memory: not public (the text reader's
 * vc_reader_mem has no XML twin in vchess.h); for tests and the fuzz
 * target tests/fuzz/fuzz_xml.c, which declares it the same way.  data
 * (len bytes, plain or gzip) stays the caller's and must outlive the
 * reader; name is used in diagnostics. ---- */
struct vc_xml_reader *vc_xml_reader_mem(struct vc_ctx *ctx, const char *name, const void *data,
					size_t len, const struct vc_reader_opts *opts);
/* ---- end of reading XML from memory ---- */

#define XML_VERSION "1"
#define SNIFF_BYTES 4096

/* ==== the byte escape =================================================== */

/* Length of the XML character (UTF-8) at s, or 0 when the byte at s cannot
 * stand in XML: a control other than tab and line ends, a byte of a
 * malformed, overlong or surrogate sequence, or U+FFFE and U+FFFF. */
static size_t xml_char(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
	size_t k;
	unsigned cp;
	if (c >= 0xC2 && c <= 0xDF) {
		k = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		k = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		k = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return k;
}

/* Nonzero when s[0, n) cannot be written as it is. */
int vc_esc_needed(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] >= 0x20 && p[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = xml_char(p + i, n - i);
		if (!k)
			return 1;
		i += k;
	}
	return 0;
}

void vc_esc_encode(struct vc_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] == '\\') {
			vc_buf_add(b, "\\\\", 2);
			i++;
			continue;
		}
		size_t k = xml_char(p + i, n - i);
		if (!k) {
			vc_buf_printf(b, "\\x%02X", p[i]);
			i++;
		} else {
			vc_buf_add(b, s + i, k);
			i += k;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The inverse of vc_esc_encode; a backslash before anything else is kept,
 * and so is "\x00": no reader gives a game a NUL byte (the text reader
 * stops at one), values are C strings to some of the library, and the
 * text writer would write it as it is.  Returns the number of "\x00" kept. */
static int esc_decode(struct vc_buf *b, const char *s, size_t n)
{
	int nul = 0;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
			vc_buf_addc(b, '\\');
			i++;
		} else if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
			   (hi = hexval(s[i + 2])) >= 0 && (lo = hexval(s[i + 3])) >= 0 &&
			   (hi | lo)) {
			vc_buf_addc(b, (char)(hi << 4 | lo));
			i += 3;
		} else {
			nul += s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && s[i + 2] == '0' &&
			       s[i + 3] == '0';
			vc_buf_addc(b, s[i]);
		}
	}
	return nul;
}

/* ==== keeping libxml2 quiet ============================================= */

/* libxml2 reports some errors through its global (per-thread) handlers,
 * which print by default; the library must not print, so they are made
 * silent while libxml2 works for us, and restored afterwards. */
struct quiet {
	xmlGenericErrorFunc gen;
	void *genctx;
	xmlStructuredErrorFunc st;
	void *stctx;
};

static void silent_generic(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void silent_structured(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

static void quiet_on(struct quiet *q)
{
	q->gen = xmlGenericError;
	q->genctx = xmlGenericErrorContext;
	q->st = xmlStructuredError;
	q->stctx = xmlStructuredErrorContext;
	xmlSetGenericErrorFunc(NULL, silent_generic);
	xmlSetStructuredErrorFunc(NULL, silent_structured);
}

static void quiet_off(const struct quiet *q)
{
	xmlSetGenericErrorFunc(q->genctx, q->gen);
	xmlSetStructuredErrorFunc(q->stctx, q->st);
}

/* ==== the writer ======================================================== */

/* Elements go out through a small emitter with two back ends: libxml2's
 * xmlTextWriter, and a serialiser of our own that writes the very bytes
 * the xmlTextWriter writes (indentation, escapes and character references
 * included; tests/unit/t_convert.c compares the two).  The document itself
 * (declaration, archive) goes through the xmlTextWriter; each game is
 * serialised and handed on in one piece, as xmlTextWriterWriteRaw would,
 * because the xmlTextWriter makes half a dozen buffer calls per attribute
 * and took as long as the whole replay.  A game nested deeper than the
 * serialiser's stack, and every game after vc_xml_out_pure, goes through
 * the xmlTextWriter. */

struct frame {
	const char *name;
	int open; /* start tag not yet closed */
	int text; /* holds text: its end tag follows the text */
};

struct vc_xml_out {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	xmlTextWriterPtr w;
	struct vc_write_opts o;
	int pure;
	int raw;           /* the emitter writes into buf (the serialiser) */
	struct vc_buf buf; /* serialised elements */
	struct frame st[64];
	int depth;         /* frames in st; deeper ones are counted only */
	int base;          /* xmlTextWriter elements open around the serialised ones */
	long ngames;       /* games written */
	struct vc_buf val; /* a value made NUL-terminated or escaped */
	struct vc_buf esc; /* names of the escaped values of the open element */
	int failed;
};

/* For tests: everything through libxml2 (see vc_writer_xml_pure). */
void vc_xml_out_pure(struct vc_xml_out *x, int on)
{
	x->pure = on;
}

static int out_write(void *user, const char *buf, int len)
{
	struct vc_xml_out *x = user;
	if (len <= 0)
		return 0;
	if (vc_sink_write(x->sink, buf, (size_t)len) < 0) {
		x->failed = 1;
		return -1;
	}
	return len;
}

static int out_close(void *user)
{
	(void)user;
	return 0;
}

#define X(call)                        \
	do {                           \
		if ((call) < 0)        \
			x->failed = 1; \
	} while (0)

/* ---- the serialiser: what xmlTextWriter writes with indentation " " ---- */

/* Appends to a buffer, inline while it has room: the serialiser appends a
 * few bytes at a time, millions of times an archive. */
static inline void bput(struct vc_buf *b, const void *s, size_t n)
{
	if (b->cap - b->len > n) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
		b->p[b->len] = '\0';
	} else {
		vc_buf_add(b, s, n);
	}
}

static inline void bputc(struct vc_buf *b, char c)
{
	if (b->cap - b->len > 1) {
		b->p[b->len++] = c;
		b->p[b->len] = '\0';
	} else {
		vc_buf_addc(b, c);
	}
}

static inline void bputs(struct vc_buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

static void s_indent(struct vc_xml_out *x)
{
	static const char spaces[] =
		"                                                                "
		"                ";
	size_t n = (size_t)(x->base + x->depth - 1);
	bput(&x->buf, spaces, n < sizeof spaces - 1 ? n : sizeof spaces - 1);
}

static void s_close_start(struct vc_xml_out *x, int newline)
{
	if (x->depth > 0 && x->depth <= (int)VC_NELEM(x->st) && x->st[x->depth - 1].open) {
		bputc(&x->buf, '>');
		if (newline)
			bputc(&x->buf, '\n');
		x->st[x->depth - 1].open = 0;
	}
}

/* As xmlBufAttrSerializeTxtContent without a document: markup and blanks
 * as references, characters past ASCII as hexadecimal references. */
static void s_attr_text(struct vc_buf *b, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;
	for (size_t i = 0; i < n;) {
		unsigned char ch = s[i];
		const char *rep = NULL;
		if (ch >= 0x20 && ch < 0x80 && ch != '"' && ch != '<' && ch != '>' && ch != '&') {
			i++;
			continue;
		}
		bput(b, s + run, i - run);
		switch (ch) {
		case '"':
			rep = "&quot;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '&':
			rep = "&amp;";
			break;
		case '\n':
			rep = "&#10;";
			break;
		case '\r':
			rep = "&#13;";
			break;
		case '\t':
			rep = "&#9;";
			break;
		default:
			break;
		}
		if (rep) {
			bputs(b, rep);
			i++;
		} else if (ch < 0x80) {
			/* cannot happen: values are escaped before */
			i++;
		} else {
			size_t k = xml_char(s + i, n - i);
			unsigned cp = ch & (k == 2 ? 0x1F : k == 3 ? 0x0F : 0x07);
			for (size_t j = 1; j < k; j++)
				cp = cp << 6 | (s[i + j] & 0x3F);
			char r[16];
			int m = 0;
			r[m++] = '&';
			r[m++] = '#';
			r[m++] = 'x';
			int started = 0;
			for (int sh = 20; sh >= 0; sh -= 4) {
				unsigned d = cp >> sh & 15;
				if (d || started || sh == 0) {
					r[m++] = hex[d];
					started = 1;
				}
			}
			r[m++] = ';';
			bput(b, r, (size_t)m);
			i += k ? k : 1;
		}
		run = i;
	}
	bput(b, s + run, n - run);
}

/* As xmlEncodeSpecialChars: markup and CR as references. */
static void s_content_text(struct vc_buf *b, const unsigned char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		const char *rep;
		switch (s[i]) {
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '&':
			rep = "&amp;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\r':
			rep = "&#13;";
			break;
		default:
			continue;
		}
		bput(b, s + run, i - run);
		bputs(b, rep);
		run = i + 1;
	}
	bput(b, s + run, n - run);
}

/* ---- the emitter ---- */

static void em_start(struct vc_xml_out *x, const char *name)
{
	vc_buf_reset(&x->esc);
	if (!x->raw) {
		X(xmlTextWriterStartElement(x->w, BAD_CAST name));
		return;
	}
	s_close_start(x, 1);
	if (x->depth < (int)VC_NELEM(x->st)) {
		struct frame *f = &x->st[x->depth];
		f->name = name;
		f->open = 1;
		f->text = 0;
	}
	x->depth++;
	s_indent(x);
	bputc(&x->buf, '<');
	bputs(&x->buf, name);
}

/* Writes an attribute of the element just started; value already free of
 * what XML cannot hold. */
static void em_attr_raw(struct vc_xml_out *x, const char *name, const char *v, size_t n)
{
	if (!x->raw) {
		vc_buf_reset(&x->val);
		vc_buf_add(&x->val, v, n);
		vc_buf_addc(&x->val, '\0');
		if (x->val.oom)
			x->failed = 1;
		else
			X(xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST x->val.p));
		return;
	}
	size_t nl = strlen(name);
	/* room for the worst case, then plain stores */
	if (vc_buf_reserve(&x->buf, nl + 8 * n + 5) < 0) {
		x->failed = 1;
		return;
	}
	char *o = x->buf.p + x->buf.len;
	*o++ = ' ';
	memcpy(o, name, nl);
	o += nl;
	*o++ = '=';
	*o++ = '"';
	size_t i = 0;
	while (i < n && (unsigned char)v[i] >= 0x20 && (unsigned char)v[i] < 0x80 && v[i] != '"' &&
	       v[i] != '<' && v[i] != '>' && v[i] != '&')
		*o++ = v[i++];
	x->buf.len = (size_t)(o - x->buf.p);
	if (i < n)
		s_attr_text(&x->buf, (const unsigned char *)v + i, n - i);
	bputc(&x->buf, '"');
}

/* An attribute whose value may need the byte escape (noted for esc). */
static void em_attr(struct vc_xml_out *x, const char *name, const char *s, size_t n)
{
	if (!vc_esc_needed(s, n)) {
		em_attr_raw(x, name, s, n);
		return;
	}
	struct vc_buf e;
	vc_buf_init(&e);
	vc_esc_encode(&e, s, n);
	em_attr_raw(x, name, e.p ? e.p : "", e.len);
	if (e.oom)
		x->failed = 1;
	vc_buf_free(&e);
	if (x->esc.len)
		vc_buf_addc(&x->esc, ' ');
	vc_buf_adds(&x->esc, name);
}

static void em_attr_s(struct vc_xml_out *x, const char *name, const char *s)
{
	em_attr(x, name, s, strlen(s));
}

static void em_attr_l(struct vc_xml_out *x, const char *name, long v)
{
	char b[32];
	int k = snprintf(b, sizeof b, "%ld", v);
	em_attr_raw(x, name, b, (size_t)k);
}

/* Ends the attributes: the esc attribute, if any value needed it. */
static void em_esc(struct vc_xml_out *x)
{
	if (x->esc.len)
		em_attr_raw(x, "esc", x->esc.p, x->esc.len);
	vc_buf_reset(&x->esc);
}

/* Text content (free of what XML cannot hold). */
static void em_text(struct vc_xml_out *x, const char *s, size_t n)
{
	if (!n)
		return;
	if (!x->raw) {
		vc_buf_reset(&x->val);
		vc_buf_add(&x->val, s, n);
		vc_buf_addc(&x->val, '\0');
		if (x->val.oom)
			x->failed = 1;
		else
			X(xmlTextWriterWriteString(x->w, BAD_CAST x->val.p));
		return;
	}
	s_close_start(x, 0);
	if (x->depth > 0 && x->depth <= (int)VC_NELEM(x->st))
		x->st[x->depth - 1].text = 1;
	s_content_text(&x->buf, (const unsigned char *)s, n);
}

static void em_end(struct vc_xml_out *x)
{
	if (!x->raw) {
		X(xmlTextWriterEndElement(x->w));
		return;
	}
	if (x->depth <= 0)
		return;
	struct frame *f = x->depth <= (int)VC_NELEM(x->st) ? &x->st[x->depth - 1] : NULL;
	if (!f) {
		x->failed = 1; /* deeper than the serialiser goes: see em_moves */
	} else if (f->open) {
		bput(&x->buf, "/>", 2);
	} else {
		if (!f->text)
			s_indent(x);
		bput(&x->buf, "</", 2);
		bputs(&x->buf, f->name);
		bputc(&x->buf, '>');
	}
	bputc(&x->buf, '\n');
	x->depth--;
}

/* <name>text</name>, with esc="text" when the text needs the escape. */
static void em_text_element(struct vc_xml_out *x, const char *name, const char *s, size_t n)
{
	em_start(x, name);
	if (vc_esc_needed(s, n)) {
		struct vc_buf e;
		vc_buf_init(&e);
		vc_esc_encode(&e, s, n);
		em_attr_raw(x, "esc", "text", 4);
		em_text(x, e.p ? e.p : "", e.len);
		if (e.oom)
			x->failed = 1;
		vc_buf_free(&e);
	} else {
		em_text(x, s, n);
	}
	em_end(x);
}

struct vc_xml_out *vc_xml_out_open(struct vc_ctx *ctx, struct vc_sink *sink,
				   const struct vc_write_opts *o)
{
	struct quiet q;
	struct vc_xml_out *x = vc_calloc(1, sizeof *x);
	if (!x) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	x->ctx = ctx;
	x->sink = sink;
	if (o)
		x->o = *o;
	vc_buf_init(&x->buf);
	vc_buf_init(&x->val);
	vc_buf_init(&x->esc);
	quiet_on(&q);
	xmlOutputBufferPtr ob = xmlOutputBufferCreateIO(out_write, out_close, x, NULL);
	if (ob)
		x->w = xmlNewTextWriter(ob); /* owns ob from here, even on failure */
	if (!x->w) {
		quiet_off(&q);
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		free(x);
		return NULL;
	}
	X(xmlTextWriterSetIndent(x->w, 1));
	X(xmlTextWriterSetIndentString(x->w, BAD_CAST " "));
	X(xmlTextWriterStartDocument(x->w, "1.0", "UTF-8", NULL));
	em_start(x, "archive");
	em_attr_s(x, "version", XML_VERSION);
	quiet_off(&q);
	return x;
}

/* Printable ASCII that an attribute takes as it is. */
static int plain_attr(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '<' || ch == '>' || ch == '&' ||
		    ch == '\\')
			return 0;
	}
	return 1;
}

static char *put_attr(char *o, const char *name, size_t nl, const char *v, size_t n)
{
	*o++ = ' ';
	memcpy(o, name, nl);
	o += nl;
	*o++ = '=';
	*o++ = '"';
	memcpy(o, v, n);
	o += n;
	*o++ = '"';
	return o;
}

static char *put_square(char *o, const struct vc_variant *v, const char *name, size_t nl, int sq)
{
	char b[8];
	int k = vc_square_name(v, sq, b);
	return put_attr(o, name, nl, b, (size_t)k);
}

#define PUT_ATTR(o, lit, v, n) put_attr(o, lit, sizeof lit - 1, v, n)

/* The serialiser's <move> when every value is plain, as it nearly always
 * is: written in one go.  Returns 0 when the general path must do it. */
static int s_move(struct vc_xml_out *x, const struct vc_item *it, const struct vc_replay *rp,
		  size_t item)
{
	vc_move m;
	const char *san = it->text ? it->text : "";
	const char *can = NULL, *fen = NULL;
	size_t cl = 0, fl = 0;
	int played = vc_replay_move(rp, item, &m);
	const struct vc_variant *v = vc_replay_variant(rp);
	if (!it->len || !plain_attr(san, it->len))
		return 0;
	if (played) {
		can = vc_replay_san(rp, item, 0);
		cl = strlen(can);
		if (!plain_attr(can, cl))
			return 0;
	}
	if (x->o.fen_after && (fen = vc_replay_fen(rp, item)) != NULL) {
		fl = strlen(fen);
		if (!plain_attr(fen, fl))
			return 0;
	}
	if (x->depth >= (int)VC_NELEM(x->st))
		return 0;
	s_close_start(x, 1);
	struct frame *f = &x->st[x->depth++];
	f->name = "move";
	f->open = 1;
	f->text = 0;
	s_indent(x);
	if (vc_buf_reserve(&x->buf, it->len + cl + fl + 160) < 0) {
		x->failed = 1;
		return 1;
	}
	char *o = x->buf.p + x->buf.len;
	memcpy(o, "<move", 5);
	o += 5;
	o = PUT_ATTR(o, "san", san, it->len);
	if (played) {
		o = PUT_ATTR(o, "canonical", can, cl);
		if (v && !(m.flags & VC_MF_NULL)) {
			if (m.from >= 0)
				o = put_square(o, v, "from", 4, m.from);
			if (m.to >= 0)
				o = put_square(o, v, "to", 2, m.to);
			if ((m.flags & VC_MF_WALL) && m.from2 >= 0 && m.to2 >= 0) {
				o = put_square(o, v, "from2", 5, m.from2);
				o = put_square(o, v, "to2", 3, m.to2);
			}
		}
	}
	if (it->suffix)
		o = PUT_ATTR(o, "suffix", it->suffix, it->suffix_len < 3 ? it->suffix_len : 2);
	if (it->flags & VC_IF_EP_MARK)
		o = PUT_ATTR(o, "ep", "1", 1);
	if (fen)
		o = PUT_ATTR(o, "fen", fen, fl);
	if (x->o.mark_transforms && vc_replay_transforms(rp, item))
		o = PUT_ATTR(o, "transform", "1", 1);
	x->buf.len = (size_t)(o - x->buf.p);
	x->buf.p[x->buf.len] = '\0';
	return 1;
}

/* The serialiser's leaf <name>text</name> for text that is plain. */
static void s_leaf(struct vc_xml_out *x, const char *name, size_t nl, const char *s, size_t n)
{
	s_close_start(x, 1);
	x->depth++;
	s_indent(x);
	x->depth--;
	if (vc_buf_reserve(&x->buf, 2 * nl + n + 8) < 0) {
		x->failed = 1;
		return;
	}
	char *o = x->buf.p + x->buf.len;
	*o++ = '<';
	memcpy(o, name, nl);
	o += nl;
	if (n == 0) {
		memcpy(o, "/>\n", 3);
		o += 3;
	} else {
		*o++ = '>';
		memcpy(o, s, n);
		o += n;
		*o++ = '<';
		*o++ = '/';
		memcpy(o, name, nl);
		o += nl;
		*o++ = '>';
		*o++ = '\n';
	}
	x->buf.len = (size_t)(o - x->buf.p);
	x->buf.p[x->buf.len] = '\0';
}

/* A <move>, left open: the annotations that follow it are its children. */
static void em_move(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		    const struct vc_cev *e)
{
	const struct vc_item *it = vc_game_item(g, (size_t)e->item);
	vc_move m;
	char sq[8];
	if (x->raw && s_move(x, it, rp, (size_t)e->item))
		return;
	em_start(x, "move");

	em_attr(x, "san", it->text ? it->text : "", it->len);
	if (vc_replay_move(rp, (size_t)e->item, &m)) {
		const struct vc_variant *v = vc_replay_variant(rp);
		em_attr_s(x, "canonical", vc_replay_san(rp, (size_t)e->item, 0));
		if (v && !(m.flags & VC_MF_NULL)) {
			if (m.from >= 0) {
				int k = vc_square_name(v, m.from, sq);
				em_attr_raw(x, "from", sq, (size_t)k);
			}
			if (m.to >= 0) {
				int k = vc_square_name(v, m.to, sq);
				em_attr_raw(x, "to", sq, (size_t)k);
			}
			if ((m.flags & VC_MF_WALL) && m.from2 >= 0 && m.to2 >= 0) {
				int k = vc_square_name(v, m.from2, sq);
				em_attr_raw(x, "from2", sq, (size_t)k);
				k = vc_square_name(v, m.to2, sq);
				em_attr_raw(x, "to2", sq, (size_t)k);
			}
		}
	}
	if (it->suffix)
		em_attr(x, "suffix", it->suffix, it->suffix_len);
	if (it->flags & VC_IF_EP_MARK)
		em_attr_raw(x, "ep", "1", 1);
	const char *fen = x->o.fen_after ? vc_replay_fen(rp, (size_t)e->item) : NULL;
	if (fen)
		em_attr_s(x, "fen", fen);
	if (x->o.mark_transforms && vc_replay_transforms(rp, (size_t)e->item))
		em_attr_raw(x, "transform", "1", 1);
	em_esc(x);
}

/* The content of <moves>: the movetext as a tree.  Variations nested
 * deeper than the serialiser's stack go through the xmlTextWriter. */
static void em_moves(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		     const struct vc_canon *c)
{
	size_t n = vc_canon_count(c);
	int in_move = 0;
	for (size_t i = 0; i < n; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		switch (e->type) {
		case VC_CE_TAG:
		case VC_CE_RESULT:
			break;
		case VC_CE_MOVE:
			if (in_move)
				em_end(x);
			em_move(x, g, rp, e);
			in_move = 1;
			break;
		case VC_CE_COMMENT:
			if (e->flags & VC_CEF_DERIVED)
				break;
			if (x->raw && (e->flags & VC_CEF_PLAIN) && x->depth < (int)VC_NELEM(x->st))
				s_leaf(x, "comment", 7, e->text, e->len);
			else
				em_text_element(x, "comment", e->text, e->len);
			break;
		case VC_CE_ESCAPE:
			em_text_element(x, "escape", e->text, e->len);
			break;
		case VC_CE_NAG: {
			char b[16];
			int k = snprintf(b, sizeof b, "%d", e->nag);
			if (x->raw && x->depth < (int)VC_NELEM(x->st))
				s_leaf(x, "nag", 3, b, (size_t)k);
			else
				em_text_element(x, "nag", b, (size_t)k);
			break;
		}
		case VC_CE_VAR_START:
			if (in_move)
				em_end(x);
			in_move = 0;
			em_start(x, "variation");
			break;
		case VC_CE_VAR_END:
			if (in_move)
				em_end(x);
			in_move = 0;
			em_end(x);
			break;
		}
	}
	if (in_move)
		em_end(x);
}

int vc_xml_out_game(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		    const struct vc_canon *c)
{
	struct quiet q;
	size_t n = vc_canon_count(c), i;
	int depth = 0, maxdepth = 0;
	for (i = 0; i < n; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		if (e->type == VC_CE_VAR_START && ++depth > maxdepth)
			maxdepth = depth;
		else if (e->type == VC_CE_VAR_END)
			depth--;
	}
	quiet_on(&q);
	/* Serialised unless nested deeper than the serialiser's stack (the
	 * archive, the game, moves, variations, a move and its child). */
	x->raw = !x->pure && maxdepth + 5 < (int)VC_NELEM(x->st);
	if (x->raw) {
		vc_buf_reset(&x->buf);
		x->depth = 0;
		x->base = 1; /* inside the archive */
		/* what the xmlTextWriter writes before the first <game>: the line
		 * end after <archive ...> (its '>' is written by WriteRawLen) */
		if (x->ngames == 0)
			bputc(&x->buf, '\n');
	}
	x->ngames++;
	em_start(x, "game");
	const char *vn = vc_replay_variant_name(rp);
	if (vn)
		em_attr_s(x, "variant", vn);
	em_esc(x);

	int tags = 0;
	for (i = 0; i < n; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		if (e->type != VC_CE_TAG)
			continue;
		if (!tags++)
			em_start(x, "tags");
		em_start(x, "tag");
		em_attr_s(x, "name", vc_game_tag_name(g, (size_t)e->item));
		if (vc_esc_needed(e->text, e->len)) {
			struct vc_buf eb;
			vc_buf_init(&eb);
			vc_esc_encode(&eb, e->text, e->len);
			vc_buf_adds(&x->esc, x->esc.len ? " text" : "text");
			em_esc(x);
			em_text(x, eb.p ? eb.p : "", eb.len);
			if (eb.oom)
				x->failed = 1;
			vc_buf_free(&eb);
		} else {
			em_esc(x);
			em_text(x, e->text, e->len);
		}
		em_end(x);
	}
	if (tags)
		em_end(x);
	const char *fen = vc_game_tag(g, "FEN");
	if (fen) {
		em_start(x, "start");
		em_attr_s(x, "fen", fen);
		em_esc(x);
		em_end(x);
	}

	em_start(x, "moves");
	em_moves(x, g, rp, c);
	em_end(x);
	const char *result = "*";
	for (i = n; i-- > 0;)
		if (vc_canon_at(c, i)->type == VC_CE_RESULT) {
			result = vc_canon_at(c, i)->text;
			break;
		}
	em_text_element(x, "result", result, strlen(result));

	size_t nd = vc_game_diag_count(g);
	if (nd) {
		em_start(x, "diagnostics");
		for (size_t d = 0; d < nd; d++) {
			const struct vc_game_diag *gd = vc_game_diag_at(g, d);
			em_start(x, "diagnostic");
			em_attr_s(x, "severity", vc_severity_name(gd->severity));
			if (gd->code)
				em_attr_s(x, "code", gd->code);
			if (gd->line > 0)
				em_attr_l(x, "line", gd->line);
			if (gd->col > 0)
				em_attr_l(x, "col", gd->col);
			if (gd->ply > 0)
				em_attr_l(x, "ply", gd->ply);
			if (gd->context && *gd->context)
				em_attr_s(x, "context", gd->context);
			em_attr_s(x, "message", gd->message ? gd->message : "");
			em_esc(x);
			em_end(x);
		}
		em_end(x);
	}
	em_end(x); /* game */
	if (x->raw) {
		x->raw = 0;
		if (x->buf.oom) {
			x->failed = 1;
		} else {
			/* The bytes WriteRawLen would pass on, without a copy through
			 * libxml2's buffer: it closes the start tag of <archive> if
			 * need be (and writes no indentation after raw content); the
			 * flush keeps the order; then the game goes to the sink. */
			X(xmlTextWriterWriteRawLen(x->w, BAD_CAST "", 0));
			X(xmlTextWriterFlush(x->w));
			if (vc_sink_write(x->sink, x->buf.p, x->buf.len) < 0)
				x->failed = 1;
		}
	}
	quiet_off(&q);
	if (x->failed || x->val.oom || x->esc.oom || x->buf.oom) {
		if (!vc_sink_failed(x->sink))
			vc_emit(x->ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL,
				"cannot write XML: out of memory");
		return -1;
	}
	return 0;
}

int vc_xml_out_close(struct vc_xml_out *x)
{
	struct quiet q;
	if (!x)
		return 0;
	quiet_on(&q);
	X(xmlTextWriterEndDocument(x->w)); /* closes the archive */
	X(xmlTextWriterFlush(x->w));
	xmlFreeTextWriter(x->w);
	quiet_off(&q);
	int bad = x->failed;
	vc_buf_free(&x->buf);
	vc_buf_free(&x->val);
	vc_buf_free(&x->esc);
	free(x);
	return bad ? -1 : 0;
}

#undef X

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
/* libxml2 sets up its globals on first use, which is not safe from several
 * threads at once; readers and writers are opened in the caller's thread
 * before any worker writes XML (vc_parallel_each), so they set it up. */
void vc_xml_global_init(void);
void vc_xml_global_init(void)
{
	xmlInitParser();
}

static struct vc_xml_reader *reader_new(struct vc_ctx *ctx, struct vc_input *in,
					const struct vc_reader_opts *opts)
{
	vc_xml_global_init(); /* here, in the thread that opens readers */
	struct quiet q;
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
	quiet_on(&q);
	if (x->name)
		x->r = xmlReaderForIO(in_read, in_close, x, x->name, NULL,
				      XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	if (x->r)
		xmlTextReaderSetStructuredErrorHandler(x->r, on_xml_error, x);
	quiet_off(&q);
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
	struct quiet q;
	if (!x)
		return;
	quiet_on(&q);
	if (x->r)
		xmlFreeTextReader(x->r);
	quiet_off(&q);
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
	if (escaped && esc_decode(&x->val, (const char *)v, n))
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
	if (escaped && esc_decode(&x->text, x->val.p ? x->val.p : "", x->val.len))
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
	if ((n == 2 && s[0] == '-' && s[1] == '-') || (n == 2 && s[0] == 'Z' && s[1] == '0'))
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
	struct quiet q;
	vc_status st = VC_END;
	vc_game_clear(g);
	if (x->failed)
		return VC_FATAL;
	if (x->done)
		return VC_END;
	x->g = g;
	quiet_on(&q);
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
	quiet_off(&q);
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
