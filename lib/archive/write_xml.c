/*
 * archive/write_xml.c - the XML archive format of vchess-xml(5), written:
 * libxml2's xmlTextWriter, streamed into a vc_sink, and a serialiser of
 * our own for the games (the reader is xml_read.c).
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
			size_t k = vc_xml_char(s + i, n - i);
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
	struct vc_xml_quiet q;
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
	vc_xml_quiet_on(&q);
	xmlOutputBufferPtr ob = xmlOutputBufferCreateIO(out_write, out_close, x, NULL);
	if (ob)
		x->w = xmlNewTextWriter(ob); /* owns ob from here, even on failure */
	if (!x->w) {
		vc_xml_quiet_off(&q);
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		free(x);
		return NULL;
	}
	X(xmlTextWriterSetIndent(x->w, 1));
	X(xmlTextWriterSetIndentString(x->w, BAD_CAST " "));
	X(xmlTextWriterStartDocument(x->w, "1.0", "UTF-8", NULL));
	em_start(x, "archive");
	em_attr_s(x, "version", XML_VERSION);
	vc_xml_quiet_off(&q);
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

/* The attributes of a move's annotations as data (see vc_canon_data): all
 * plain ASCII, at most 5 values of fewer than 24 bytes. */
static char *put_data(char *o, const struct vc_move_data *d)
{
	if (d->clk[0])
		o = PUT_ATTR(o, "clk", d->clk, strlen(d->clk));
	if (d->emt[0])
		o = PUT_ATTR(o, "emt", d->emt, strlen(d->emt));
	if (d->eval[0])
		o = PUT_ATTR(o, "eval", d->eval, strlen(d->eval));
	if (d->mate[0])
		o = PUT_ATTR(o, "mate", d->mate, strlen(d->mate));
	if (d->depth[0])
		o = PUT_ATTR(o, "depth", d->depth, strlen(d->depth));
	return o;
}

/* The serialiser's <move> when every value is plain, as it nearly always
 * is: written in one go.  Returns 0 when the general path must do it. */
static int s_move(struct vc_xml_out *x, const struct vc_item *it, const struct vc_replay *rp,
		  size_t item, const struct vc_move_data *d)
{
	vc_move m = { 0 }; /* set when played */
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
	if (vc_buf_reserve(&x->buf, it->len + cl + fl + 160 + (d ? 128 : 0)) < 0) {
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
	if (it->suffix && !x->o.no_nags)
		o = PUT_ATTR(o, "suffix", it->suffix, it->suffix_len < 3 ? it->suffix_len : 2);
	if (it->flags & VC_IF_EP_MARK)
		o = PUT_ATTR(o, "ep", "1", 1);
	if (fen)
		o = PUT_ATTR(o, "fen", fen, fl);
	if (x->o.mark_transforms && vc_replay_transforms(rp, item))
		o = PUT_ATTR(o, "transform", "1", 1);
	if (d)
		o = put_data(o, d);
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
		    const struct vc_cev *e, const struct vc_move_data *d)
{
	const struct vc_item *it = vc_game_item(g, (size_t)e->item);
	vc_move m;
	char sq[8];
	if (x->raw && s_move(x, it, rp, (size_t)e->item, d))
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
	if (it->suffix && !x->o.no_nags)
		em_attr(x, "suffix", it->suffix, it->suffix_len);
	if (it->flags & VC_IF_EP_MARK)
		em_attr_raw(x, "ep", "1", 1);
	const char *fen = x->o.fen_after ? vc_replay_fen(rp, (size_t)e->item) : NULL;
	if (fen)
		em_attr_s(x, "fen", fen);
	if (x->o.mark_transforms && vc_replay_transforms(rp, (size_t)e->item))
		em_attr_raw(x, "transform", "1", 1);
	if (d) {
		const char *const names[] = { "clk", "emt", "eval", "mate", "depth" };
		const char *const vals[] = { d->clk, d->emt, d->eval, d->mate, d->depth };
		for (size_t k = 0; k < VC_NELEM(names); k++)
			if (vals[k][0])
				em_attr_raw(x, names[k], vals[k], strlen(vals[k]));
	}
	em_esc(x);
}

/* A move's arrows and squares, its first children. */
static void em_marks(struct vc_xml_out *x, const struct vc_canon *c, const struct vc_move_data *d)
{
	for (size_t k = 0; k < d->nmark; k++) {
		const struct vc_mark *m = vc_canon_mark(c, d->mark0 + k);
		if (!m)
			break;
		em_start(x, m->to[0] ? "arrow" : "square");
		em_attr_raw(x, "color", &m->color, 1);
		if (m->to[0]) {
			em_attr_raw(x, "from", m->from, strlen(m->from));
			em_attr_raw(x, "to", m->to, strlen(m->to));
		} else {
			em_attr_raw(x, "at", m->from, strlen(m->from));
		}
		em_end(x);
	}
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
			const struct vc_move_data *d = vc_canon_data(c, i);
			em_move(x, g, rp, e, d);
			if (d && d->nmark)
				em_marks(x, c, d);
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
	struct vc_xml_quiet q;
	size_t n = vc_canon_count(c), i;
	int depth = 0, maxdepth = 0;
	for (i = 0; i < n; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		if (e->type == VC_CE_VAR_START && ++depth > maxdepth)
			maxdepth = depth;
		else if (e->type == VC_CE_VAR_END)
			depth--;
	}
	vc_xml_quiet_on(&q);
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
	vc_xml_quiet_off(&q);
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
	struct vc_xml_quiet q;
	if (!x)
		return 0;
	vc_xml_quiet_on(&q);
	X(xmlTextWriterEndDocument(x->w)); /* closes the archive */
	X(xmlTextWriterFlush(x->w));
	xmlFreeTextWriter(x->w);
	vc_xml_quiet_off(&q);
	int bad = x->failed;
	vc_buf_free(&x->buf);
	vc_buf_free(&x->val);
	vc_buf_free(&x->esc);
	free(x);
	return bad ? -1 : 0;
}

#undef X

