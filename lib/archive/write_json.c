/*
 * archive/write_json.c - the JSON-lines writer: one JSON object per game, on one line,
 * with the content of the XML of vchess-xml(5) (see vchess-convert(1) for
 * the keys).  Hand-written: the output is small and regular, and a JSON
 * library would only add a dependency.
 *
 * Model: the object mirrors the XML element for element, so the same
 * canonical form (canon.c) gives both; a move object stays open while
 * the annotations that follow it are written into its "after" array.
 * Strings are UTF-8; a value that is not (or holds a byte XML cannot
 * hold) is written in the escaped form of the XML and named in the
 * object's "esc" array, so both formats carry the same bytes the same way.
 *
 * Invariant: one call writes one whole line into the caller's buffer.
 */
#include <stdio.h>
#include <string.h>

#include "archive/vc_archive.h"

/* A JSON string of bytes that are valid (see vc_esc_needed). */
static void jstr_raw(struct vc_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	vc_buf_addc(b, '"');
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		vc_buf_add(b, s + run, i - run);
		run = i + 1;
		switch (ch) {
		case '"':
			vc_buf_add(b, "\\\"", 2);
			break;
		case '\\':
			vc_buf_add(b, "\\\\", 2);
			break;
		case '\n':
			vc_buf_add(b, "\\n", 2);
			break;
		case '\r':
			vc_buf_add(b, "\\r", 2);
			break;
		case '\t':
			vc_buf_add(b, "\\t", 2);
			break;
		default: {
			char u[6] = { '\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15] };
			vc_buf_add(b, u, 6);
		}
		}
	}
	vc_buf_add(b, s + run, n - run);
	vc_buf_addc(b, '"');
}

struct jw {
	struct vc_buf *b;
	struct vc_buf tmp;
	char esc[128]; /* keys of the escaped values of the open object */
	size_t nesc;
};

/* "key":"value", escaping the value when it must be (and noting the key). */
static void jkv(struct jw *j, int comma, const char *key, const char *s, size_t n)
{
	if (comma)
		vc_buf_addc(j->b, ',');
	vc_buf_addc(j->b, '"');
	vc_buf_adds(j->b, key);
	vc_buf_add(j->b, "\":", 2);
	if (vc_esc_needed(s, n)) {
		vc_buf_reset(&j->tmp);
		vc_esc_encode(&j->tmp, s, n);
		jstr_raw(j->b, j->tmp.p ? j->tmp.p : "", j->tmp.len);
		size_t k = strlen(key);
		if (j->nesc + k + 4 < sizeof j->esc) {
			char sep = j->nesc ? ',' : '[';
			j->esc[j->nesc++] = sep;
			j->esc[j->nesc++] = '"';
			memcpy(j->esc + j->nesc, key, k);
			j->nesc += k;
			j->esc[j->nesc++] = '"';
		}
	} else {
		jstr_raw(j->b, s, n);
	}
}

static void jkv_s(struct jw *j, int comma, const char *key, const char *s)
{
	jkv(j, comma, key, s, strlen(s));
}

/* Ends the open object's "esc" list: ,"esc":[...] when anything was. */
static void jesc(struct jw *j)
{
	if (j->nesc) {
		vc_buf_add(j->b, ",\"esc\":", 7);
		vc_buf_add(j->b, j->esc, j->nesc);
		vc_buf_addc(j->b, ']');
	}
	j->nesc = 0;
}

/* The annotations of a move as data (see vc_canon_data): its clocks and
 * evaluation, its arrows and its squares. */
static void move_data(struct jw *j, const struct vc_canon *c, const struct vc_move_data *d)
{
	if (d->clk[0])
		jkv_s(j, 1, "clk", d->clk);
	if (d->emt[0])
		jkv_s(j, 1, "emt", d->emt);
	if (d->eval[0])
		vc_buf_printf(j->b, ",\"eval\":%s", d->eval);
	if (d->mate[0])
		vc_buf_printf(j->b, ",\"mate\":%s", d->mate);
	if (d->depth[0])
		vc_buf_printf(j->b, ",\"depth\":%s", d->depth);
	for (int arrows = 1; arrows >= 0; arrows--) {
		int n = 0;
		for (size_t k = 0; k < d->nmark; k++) {
			const struct vc_mark *m = vc_canon_mark(c, d->mark0 + k);
			if (!m || (m->to[0] != 0) != arrows)
				continue;
			if (!n++)
				vc_buf_adds(j->b, arrows ? ",\"arrows\":[" : ",\"squares\":[");
			else
				vc_buf_addc(j->b, ',');
			if (arrows)
				vc_buf_printf(j->b, "{\"color\":\"%c\",\"from\":\"%s\",\"to\":\"%s\"}",
					      m->color, m->from, m->to);
			else
				vc_buf_printf(j->b, "{\"color\":\"%c\",\"square\":\"%s\"}", m->color,
					      m->from);
		}
		if (n)
			vc_buf_addc(j->b, ']');
	}
}

static void move_obj(struct jw *j, const struct vc_game *g, const struct vc_replay *rp,
		     const struct vc_cev *e, const struct vc_write_opts *o,
		     const struct vc_canon *c, const struct vc_move_data *d)
{
	const struct vc_item *it = vc_game_item(g, (size_t)e->item);
	vc_move m;
	char sq[8];
	vc_buf_addc(j->b, '{');
	j->nesc = 0;
	jkv(j, 0, "san", it->text ? it->text : "", it->len);
	if (vc_replay_move(rp, (size_t)e->item, &m)) {
		const struct vc_variant *v = vc_replay_variant(rp);
		jkv_s(j, 1, "canonical", vc_replay_san(rp, (size_t)e->item, 0));
		if (v && !(m.flags & VC_MF_NULL)) {
			if (m.from >= 0) {
				vc_square_name(v, m.from, sq);
				jkv_s(j, 1, "from", sq);
			}
			if (m.to >= 0) {
				vc_square_name(v, m.to, sq);
				jkv_s(j, 1, "to", sq);
			}
			if ((m.flags & VC_MF_WALL) && m.from2 >= 0 && m.to2 >= 0) {
				vc_square_name(v, m.from2, sq);
				jkv_s(j, 1, "from2", sq);
				vc_square_name(v, m.to2, sq);
				jkv_s(j, 1, "to2", sq);
			}
		}
	}
	if (it->suffix && !o->no_nags)
		jkv(j, 1, "suffix", it->suffix, it->suffix_len);
	if (it->flags & VC_IF_EP_MARK)
		vc_buf_adds(j->b, ",\"ep\":true");
	const char *fen = o->fen_after ? vc_replay_fen(rp, (size_t)e->item) : NULL;
	if (fen)
		jkv_s(j, 1, "fen", fen);
	if (o->mark_transforms && vc_replay_transforms(rp, (size_t)e->item))
		vc_buf_adds(j->b, ",\"transform\":true");
	if (d)
		move_data(j, c, d);
	jesc(j);
	/* the object stays open for "after" */
}

/* {"comment":"text"} and the like */
static void text_obj(struct jw *j, const char *key, const char *s, size_t n)
{
	vc_buf_addc(j->b, '{');
	j->nesc = 0;
	jkv(j, 0, key, s, n);
	jesc(j);
	vc_buf_addc(j->b, '}');
}

int vc_json_game(struct vc_buf *out, const struct vc_game *g, const struct vc_replay *rp,
		 const struct vc_canon *c, const struct vc_write_opts *o)
{
	struct jw J, *j = &J;
	size_t n = vc_canon_count(c), i;
	j->b = out;
	j->nesc = 0;
	vc_buf_init(&j->tmp);
	/* per open array: does it hold an element yet (0/1); at [0] the moves */
	struct vc_buf first;
	vc_buf_init(&first);

	vc_buf_addc(out, '{');
	const char *vn = vc_replay_variant_name(rp);
	int comma = 0;
	int vesc = 0, sesc = 0;
	if (vn) {
		jkv_s(j, 0, "variant", vn);
		vesc = j->nesc > 0;
		j->nesc = 0;
		comma = 1;
	}
	vc_buf_adds(out, comma ? ",\"tags\":[" : "\"tags\":[");
	int nt = 0;
	for (i = 0; i < n; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		if (e->type != VC_CE_TAG)
			continue;
		vc_buf_adds(out, nt++ ? ",{" : "{");
		jkv_s(j, 0, "name", vc_game_tag_name(g, (size_t)e->item));
		jkv(j, 1, "value", e->text, e->len);
		jesc(j);
		vc_buf_addc(out, '}');
	}
	vc_buf_addc(out, ']');
	const char *fen = vc_game_tag(g, "FEN");
	if (fen) {
		jkv_s(j, 1, "start", fen);
		sesc = j->nesc > 0;
		j->nesc = 0;
	}
	if (vesc || sesc)
		vc_buf_printf(out, ",\"esc\":[%s%s%s]", vesc ? "\"variant\"" : "",
			      vesc && sesc ? "," : "", sesc ? "\"start\"" : "");

	vc_buf_adds(out, ",\"moves\":[");
	vc_buf_addc(&first, 0);
	int in_move = 0, after = 0;
	const char *result = "*";
#define SEP()                                      \
	do {                                       \
		char *f = &first.p[first.len - 1]; \
		if (*f)                            \
			vc_buf_addc(out, ',');     \
		*f = 1;                            \
	} while (0)
#define CLOSE_MOVE()                                          \
	do {                                                  \
		if (in_move)                                  \
			vc_buf_adds(out, after ? "]}" : "}"); \
		in_move = after = 0;                          \
	} while (0)
	for (i = 0; i < n && !first.oom; i++) {
		const struct vc_cev *e = vc_canon_at(c, i);
		switch (e->type) {
		case VC_CE_TAG:
			break;
		case VC_CE_MOVE:
			CLOSE_MOVE();
			SEP();
			move_obj(j, g, rp, e, o, c, vc_canon_data(c, i));
			in_move = 1;
			break;
		case VC_CE_COMMENT:
		case VC_CE_ESCAPE:
		case VC_CE_NAG:
			if (e->type == VC_CE_COMMENT && (e->flags & VC_CEF_DERIVED))
				break;
			if (in_move) {
				vc_buf_adds(out, after ? "," : ",\"after\":[");
				after = 1;
			} else {
				SEP();
			}
			if (e->type == VC_CE_NAG)
				vc_buf_printf(out, "{\"nag\":%d}", e->nag);
			else
				text_obj(j, e->type == VC_CE_COMMENT ? "comment" : "escape",
					 e->text, e->len);
			break;
		case VC_CE_VAR_START:
			CLOSE_MOVE();
			SEP();
			vc_buf_adds(out, "{\"variation\":[");
			vc_buf_addc(&first, 0);
			break;
		case VC_CE_VAR_END:
			CLOSE_MOVE();
			vc_buf_adds(out, "]}");
			if (first.len > 1)
				first.len--;
			break;
		case VC_CE_RESULT:
			result = e->text;
			break;
		}
	}
	CLOSE_MOVE();
#undef SEP
#undef CLOSE_MOVE
	vc_buf_addc(out, ']');
	jkv_s(j, 1, "result", result);

	size_t nd = vc_game_diag_count(g);
	if (nd) {
		vc_buf_adds(out, ",\"diagnostics\":[");
		for (size_t d = 0; d < nd; d++) {
			const struct vc_game_diag *gd = vc_game_diag_at(g, d);
			vc_buf_adds(out, d ? ",{" : "{");
			j->nesc = 0;
			jkv_s(j, 0, "severity", vc_severity_name(gd->severity));
			if (gd->code)
				jkv_s(j, 1, "code", gd->code);
			if (gd->line > 0)
				vc_buf_printf(out, ",\"line\":%ld", gd->line);
			if (gd->col > 0)
				vc_buf_printf(out, ",\"col\":%ld", gd->col);
			if (gd->ply > 0)
				vc_buf_printf(out, ",\"ply\":%ld", gd->ply);
			if (gd->context && *gd->context)
				jkv_s(j, 1, "context", gd->context);
			jkv_s(j, 1, "message", gd->message ? gd->message : "");
			jesc(j);
			vc_buf_addc(out, '}');
		}
		vc_buf_addc(out, ']');
	}
	vc_buf_add(out, "}\n", 2);
	int bad = first.oom || j->tmp.oom || out->oom;
	vc_buf_free(&first);
	vc_buf_free(&j->tmp);
	return bad ? -1 : 0;
}
