/*
 * write_text.c - writing archives (layer 7): what replaying a game gives
 * (vc_replay), the canonical form of a game (vc_canon), the canonical text
 * and FEN writers, and the writer object that also drives the XML (xml.c)
 * and JSON (json.c) writers.
 *
 * Model.  Every output format writes the same canonical form, built once
 * per game from its record and its replay, so that text, XML and JSON say
 * the same thing and converting between them is stable:
 *  - tags: the Seven Tag Roster first (each name with all its duplicates,
 *    in the order read), then the rest in the order read;
 *  - escape lines that open the game stand before the tags;
 *  - moves in the variant's canonical SAN when they were replayed, as
 *    written when not (a line is dead after its first error);
 *  - comments with each run of blanks made one space (so that folding a
 *    line inside a comment, or reading it back, changes nothing);
 *  - comments the writer adds itself: the errors of an invalid game at the
 *    start of its movetext, the text the reader could not read at its end,
 *    and on request a position or transformation mark after a move.  Each
 *    is added only when the same comment is not already in that place, so
 *    converting canonical output again reproduces it byte for byte;
 *  - variations left open are closed; the result is the movetext's result,
 *    else the Result tag's when it is a result, else '*'.
 *
 * Invariants: a vc_replay describes exactly the game of its last
 * vc_replay_run (rec[] has one slot per item, zero for items not
 * replayed); canon events point into the game, the replay or the canon's
 * own pool, and stay valid until any of the three changes.  Memory grows
 * to the biggest game seen and is kept for the next one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vc_int.h"

/* ---- the XML and JSON writers (xml.c, json.c; keep identical there) ---- */
struct vc_xml_out;
struct vc_xml_out *vc_xml_out_open(struct vc_ctx *ctx, struct vc_sink *sink,
				   const struct vc_write_opts *o);
int vc_xml_out_game(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		    const struct vc_canon *c);
int vc_xml_out_close(struct vc_xml_out *x);
void vc_xml_out_pure(struct vc_xml_out *x, int on);
void vc_xml_global_init(void);
int vc_json_game(struct vc_buf *out, const struct vc_game *g, const struct vc_replay *rp,
		 const struct vc_canon *c, const struct vc_write_opts *o);
/* ---- end of the XML and JSON writers ---- */

#define NONE ((size_t)-1)
#define DEFAULT_WIDTH 80

/* ==== step 1: replay =================================================== */

/* What replaying one item gave; strings are offsets + 1 into the pool
 * (0: none). */
struct rec {
	vc_move m;
	uint32_t san, lsan, fen;
	int32_t num;
	uint8_t side, played, transform;
};

struct vc_replay {
	struct vc_write_opts o;
	int need_long, need_fen, need_transform, need_final;
	struct rec *rec;
	size_t nrec, caprec;
	struct vc_buf pool;
	const struct vc_variant *v;
	uint32_t vname; /* pool offset + 1 */
	/* the main line, for the FEN writer */
	vc_move *main;
	size_t nmain, capmain;
	struct vc_position *scratch;
	int have_start;
	uint32_t *fens; /* pool offsets + 1 */
	size_t nfens, capfens;
	int oom;
};

struct vc_replay *vc_replay_new(const struct vc_write_opts *opts, enum vc_format fmt)
{
	struct vc_replay *rp = vc_calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	if (opts)
		rp->o = *opts;
	vc_buf_init(&rp->pool);
	rp->need_long = rp->o.long_algebraic && fmt == VC_FORMAT_TEXT;
	rp->need_fen = rp->o.fen_after && fmt != VC_FORMAT_FEN;
	rp->need_transform = rp->o.mark_transforms && fmt != VC_FORMAT_FEN;
	rp->need_final = fmt == VC_FORMAT_FEN;
	return rp;
}

void vc_replay_free(struct vc_replay *rp)
{
	if (!rp)
		return;
	free(rp->rec);
	free(rp->main);
	free(rp->fens);
	vc_buf_free(&rp->pool);
	vc_position_free(rp->scratch);
	free(rp);
}

/* Stores n bytes and a NUL in the pool; returns offset + 1, or 0. */
static uint32_t pool_add(struct vc_replay *rp, const char *s, size_t n)
{
	size_t off = rp->pool.len;
	if (off >= UINT32_MAX - n - 2 || vc_buf_add(&rp->pool, s, n) < 0 ||
	    vc_buf_addc(&rp->pool, '\0') < 0) {
		rp->oom = 1;
		return 0;
	}
	return (uint32_t)off + 1;
}

static uint32_t pool_fen(struct vc_replay *rp, const struct vc_position *p)
{
	char small[1024];
	size_t need = vc_position_fen(p, small, sizeof small);
	if (need < sizeof small)
		return pool_add(rp, small, need);
	char *big = malloc(need + 1);
	if (!big) {
		rp->oom = 1;
		return 0;
	}
	vc_position_fen(p, big, need + 1);
	uint32_t off = pool_add(rp, big, need);
	free(big);
	return off;
}

static const char *pool_str(const struct vc_replay *rp, uint32_t off)
{
	return off ? rp->pool.p + off - 1 : NULL;
}

static int push_move(struct vc_replay *rp, const vc_move *m)
{
	if (rp->nmain == rp->capmain) {
		size_t nc = rp->capmain ? rp->capmain * 2 : 256;
		vc_move *nm = realloc(rp->main, nc * sizeof *nm);
		if (!nm)
			return -1;
		rp->main = nm;
		rp->capmain = nc;
	}
	rp->main[rp->nmain++] = *m;
	return 0;
}

static void push_fen(struct vc_replay *rp, const struct vc_position *p)
{
	if (rp->nfens == rp->capfens) {
		size_t nc = rp->capfens ? rp->capfens * 2 : 64;
		uint32_t *nf = realloc(rp->fens, nc * sizeof *nf);
		if (!nf) {
			rp->oom = 1;
			return;
		}
		rp->fens = nf;
		rp->capfens = nc;
	}
	uint32_t off = pool_fen(rp, p);
	if (off)
		rp->fens[rp->nfens++] = off;
}

/* The validator's move callback: everything the writers want from the
 * position before the move is taken here, while it exists. */
static void on_move(void *user, const struct vc_game *g, size_t item,
		    const struct vc_position *before, const vc_move *m, const char *san, int depth)
{
	struct vc_replay *rp = user;
	VC_UNUSED(g);
	if (item >= rp->nrec)
		return;
	struct rec *r = &rp->rec[item];
	r->m = *m;
	r->played = 1;
	r->side = (uint8_t)before->side;
	r->num = before->fullmove;
	r->san = pool_add(rp, san, strlen(san));
	if (rp->need_long) {
		char lb[96];
		int n = vc_move_san(before, m, 1, lb, sizeof lb);
		r->lsan = pool_add(rp, lb, n < (int)sizeof lb ? (size_t)n : sizeof lb - 1);
	}
	/* The board transforms in the make that leaves
	 * vc_position_plies_to_transform at its period; that is the move made
	 * when the position before it has exactly one ply to go. */
	if (rp->need_transform)
		r->transform = vc_position_plies_to_transform(before) == 1;
	if (rp->need_fen) {
		/* made and unmade, as vc_move_san does: unchanged afterwards */
		struct vc_position *p = (struct vc_position *)before;
		if (vc_pos_make(p, m) == 0) {
			r->fen = pool_fen(rp, p);
			vc_pos_unmake(p);
		}
	}
	if (depth == 0 && rp->need_final) {
		if (!rp->have_start) {
			if (!rp->scratch)
				rp->scratch = vc_position_new(before->v);
			if (rp->scratch) {
				vc_position_copy(rp->scratch, before);
				rp->have_start = 1;
			}
		}
		if (rp->have_start && push_move(rp, m) < 0)
			rp->oom = 1;
	}
}

/* The FEN writer's positions: the main line replayed again on a copy of
 * its start, which is cheaper than a copy of the position at every ply. */
static void final_positions(struct vc_replay *rp, const struct vc_game *g, struct vc_validator *val)
{
	if (!rp->have_start) {
		const struct vc_variant *v = vc_validator_variant(val);
		if (!v)
			return;
		if (rp->scratch && rp->scratch->v != v) {
			vc_position_free(rp->scratch);
			rp->scratch = NULL;
		}
		if (!rp->scratch)
			rp->scratch = vc_position_new(v);
		if (!rp->scratch) {
			rp->oom = 1;
			return;
		}
		const char *fen = vc_game_tag(g, "FEN");
		if (fen) {
			if (vc_position_set_fen(rp->scratch, NULL, fen) != VC_OK)
				return;
		} else {
			vc_position_start(rp->scratch);
		}
		push_fen(rp, rp->scratch);
		return;
	}
	if (rp->o.fen_plies)
		push_fen(rp, rp->scratch);
	for (size_t i = 0; i < rp->nmain; i++) {
		if (vc_pos_make(rp->scratch, &rp->main[i]) != 0) {
			rp->oom = 1;
			return;
		}
		if (rp->o.fen_plies)
			push_fen(rp, rp->scratch);
	}
	if (!rp->o.fen_plies)
		push_fen(rp, rp->scratch);
}

vc_status vc_replay_run(struct vc_replay *rp, struct vc_validator *val, struct vc_game *g,
			struct vc_game_stats *st)
{
	struct vc_game_stats dummy;
	if (!st)
		st = &dummy;
	size_t n = vc_game_item_count(g);
	vc_buf_reset(&rp->pool);
	rp->nrec = 0;
	rp->nmain = 0;
	rp->nfens = 0;
	rp->have_start = 0;
	rp->v = NULL;
	rp->vname = 0;
	rp->oom = 0;
	if (n > rp->caprec) {
		size_t nc = rp->caprec ? rp->caprec : 256;
		while (nc < n)
			nc *= 2;
		struct rec *nr = realloc(rp->rec, nc * sizeof *nr);
		if (!nr)
			return VC_FATAL;
		rp->rec = nr;
		rp->caprec = nc;
	}
	if (n)
		memset(rp->rec, 0, n * sizeof *rp->rec);
	rp->nrec = n;
	vc_validator_set_move_fn(val, on_move, rp);
	vc_status s = vc_validate(val, g, st);
	vc_validator_set_move_fn(val, NULL, NULL);
	if (s == VC_FATAL)
		return s;
	if (st->variant) {
		rp->v = vc_validator_variant(val);
		rp->vname = pool_add(rp, st->variant, strlen(st->variant));
	} else if (!vc_game_is_garbage(g)) {
		const char *t = vc_game_tag(g, "Variant");
		if (t && *t)
			rp->vname = pool_add(rp, t, strlen(t));
	}
	if (rp->need_final && !vc_game_is_garbage(g))
		final_positions(rp, g, val);
	if (rp->oom || rp->pool.oom)
		return VC_FATAL;
	return s;
}

const char *vc_replay_san(const struct vc_replay *rp, size_t item, int long_form)
{
	if (!rp || item >= rp->nrec || !rp->rec[item].played)
		return NULL;
	const struct rec *r = &rp->rec[item];
	return pool_str(rp, long_form && r->lsan ? r->lsan : r->san);
}

int vc_replay_move(const struct vc_replay *rp, size_t item, vc_move *m)
{
	if (!rp || item >= rp->nrec || !rp->rec[item].played)
		return 0;
	if (m)
		*m = rp->rec[item].m;
	return 1;
}

const char *vc_replay_fen(const struct vc_replay *rp, size_t item)
{
	if (!rp || item >= rp->nrec)
		return NULL;
	return pool_str(rp, rp->rec[item].fen);
}

int vc_replay_transforms(const struct vc_replay *rp, size_t item)
{
	return rp && item < rp->nrec && rp->rec[item].transform;
}

const char *vc_replay_variant_name(const struct vc_replay *rp)
{
	return rp ? pool_str(rp, rp->vname) : NULL;
}

const struct vc_variant *vc_replay_variant(const struct vc_replay *rp)
{
	return rp ? rp->v : NULL;
}

size_t vc_replay_fen_count(const struct vc_replay *rp)
{
	return rp ? rp->nfens : 0;
}

const char *vc_replay_fen_at(const struct vc_replay *rp, size_t k)
{
	return rp && k < rp->nfens ? pool_str(rp, rp->fens[k]) : NULL;
}

/* ==== step 2: the canonical form ======================================= */

struct numfr {
	int side, last_side, has_last, interrupted;
	long num, last_num;
};

struct vc_canon {
	struct vc_cev *ev;
	size_t n, cap;
	size_t *poff; /* per event: offset of its text in pool, or NONE */
	struct vc_buf pool;
	struct vc_buf tmp;
	struct numfr *fr;
	size_t nfr, capfr;
	unsigned char *mark; /* leading comments that are ours (see the build) */
	size_t capmark;
	int oom;
};

struct vc_canon *vc_canon_new(void)
{
	struct vc_canon *c = vc_calloc(1, sizeof *c);
	if (c) {
		vc_buf_init(&c->pool);
		vc_buf_init(&c->tmp);
	}
	return c;
}

void vc_canon_free(struct vc_canon *c)
{
	if (!c)
		return;
	free(c->ev);
	free(c->poff);
	free(c->fr);
	free(c->mark);
	vc_buf_free(&c->pool);
	vc_buf_free(&c->tmp);
	free(c);
}

size_t vc_canon_count(const struct vc_canon *c)
{
	return c->n;
}

const struct vc_cev *vc_canon_at(const struct vc_canon *c, size_t i)
{
	return i < c->n ? &c->ev[i] : NULL;
}

static struct vc_cev *add_ev(struct vc_canon *c, enum vc_cev_type type, long item, const char *text,
			     size_t len)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 256;
		struct vc_cev *ne = realloc(c->ev, nc * sizeof *ne);
		if (!ne) {
			c->oom = 1;
			return NULL;
		}
		c->ev = ne;
		size_t *np = realloc(c->poff, nc * sizeof *np);
		if (!np) {
			c->oom = 1;
			return NULL;
		}
		c->poff = np;
		c->cap = nc;
	}
	struct vc_cev *e = &c->ev[c->n];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->item = item;
	e->text = text;
	e->len = len;
	c->poff[c->n] = NONE;
	c->n++;
	return e;
}

/* An event whose text is copied into the pool (pointed at after the build,
 * since the pool may move while it grows). */
static struct vc_cev *add_pooled(struct vc_canon *c, enum vc_cev_type type, long item,
				 const char *text, size_t len)
{
	size_t off = c->pool.len;
	if (vc_buf_add(&c->pool, text, len) < 0) {
		c->oom = 1;
		return NULL;
	}
	struct vc_cev *e = add_ev(c, type, item, NULL, len);
	if (e)
		c->poff[c->n - 1] = off;
	return e;
}

static int is_blank(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* What a comment's text needs: CK_NORM when it is normalised already (no
 * blank but single spaces), CK_BRACE when it holds '}', CK_PLAIN when it is
 * printable ASCII free of markup and backslashes; one pass, since most
 * bytes of annotated archives are comments. */
#define CK_NORM 1
#define CK_BRACE 2
#define CK_PLAIN 4

static unsigned classify(const char *s, size_t n)
{
	unsigned r = CK_NORM | CK_PLAIN;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch > ' ' && ch < 0x7f) {
			if (ch == '}')
				r |= CK_BRACE;
			else if (ch == '<' || ch == '>' || ch == '&' || ch == '"' || ch == '\\')
				r &= ~(unsigned)CK_PLAIN;
			continue;
		}
		if (ch == ' ') {
			if (i + 1 < n && is_blank((unsigned char)s[i + 1]))
				r &= ~(unsigned)CK_NORM;
			continue;
		}
		if (is_blank(ch))
			r &= ~(unsigned)CK_NORM;
		r &= ~(unsigned)CK_PLAIN;
	}
	return r;
}

/* Appends s normalised to b. */
static void norm_into(struct vc_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (is_blank((unsigned char)s[i])) {
			vc_buf_addc(b, ' ');
			while (i < n && is_blank((unsigned char)s[i]))
				i++;
		} else {
			size_t j = i;
			while (j < n && !is_blank((unsigned char)s[j]))
				j++;
			vc_buf_add(b, s + i, j - i);
			i = j;
		}
	}
}

/* Does s[0, n), normalised, equal t[0, tn) (normalised already)? */
static int norm_eq(const char *s, size_t n, const char *t, size_t tn)
{
	size_t i = 0, k = 0;
	while (i < n) {
		if (is_blank((unsigned char)s[i])) {
			while (i < n && is_blank((unsigned char)s[i]))
				i++;
			if (k >= tn || t[k] != ' ')
				return 0;
			k++;
		} else {
			if (k >= tn || t[k] != s[i])
				return 0;
			i++;
			k++;
		}
	}
	return k == tn;
}

/* A comment event with text normalised; no copy when it already is. */
static struct vc_cev *add_comment(struct vc_canon *c, long item, const char *s, size_t n,
				  unsigned flags)
{
	struct vc_cev *e;
	if (!s)
		s = "";
	unsigned k = classify(s, n);
	if (k & CK_NORM) {
		e = add_ev(c, VC_CE_COMMENT, item, s, n);
	} else {
		vc_buf_reset(&c->tmp);
		norm_into(&c->tmp, s, n);
		if (c->tmp.oom) {
			c->oom = 1;
			return NULL;
		}
		e = add_pooled(c, VC_CE_COMMENT, item, c->tmp.p, c->tmp.len);
		/* blanks other than spaces made it not plain; normalised it may be */
		if (e && (classify(c->tmp.p, c->tmp.len) & CK_PLAIN))
			k |= CK_PLAIN;
	}
	if (!e)
		return NULL;
	e->flags = flags | (k & CK_BRACE ? VC_CEF_SEMI : 0) | (k & CK_PLAIN ? VC_CEF_PLAIN : 0);
	return e;
}

/* A comment the writer makes (its text normalised already). */
static void gen_comment(struct vc_canon *c, const char *s, size_t n, unsigned flags)
{
	unsigned k = classify(s, n);
	struct vc_cev *e = add_pooled(c, VC_CE_COMMENT, -1, s, n);
	if (e)
		e->flags = flags | (k & CK_BRACE ? VC_CEF_SEMI : 0) |
			   (k & CK_PLAIN ? VC_CEF_PLAIN : 0);
}

static int item_is_comment(const struct vc_item *it)
{
	return it && it->type == VC_IT_COMMENT;
}

/* ---- comments the writer makes ---- */

/* Reading errors after which the reader skipped the rest of the game: the
 * bytes from the error on are in the game's raw text only. */
static int breaks_stream(const char *code)
{
	static const char *const codes[] = { "nul-byte",    "char-unexpected", "limit-line",
					     "limit-depth", "limit-diags",     "limit-game-size" };
	if (!code)
		return 0;
	for (size_t i = 0; i < VC_NELEM(codes); i++)
		if (!strcmp(code, codes[i]))
			return 1;
	return 0;
}

/* The offset in raw of line:col of the game, or NONE.  The game's first
 * byte is taken to stand in column 1 of its first line, which it does
 * unless the game shares its first line with the end of the one before. */
static size_t raw_offset(const struct vc_game *g, long line, long col)
{
	size_t len;
	const char *raw = vc_game_raw(g, &len);
	long l = vc_game_line(g);
	size_t i = 0;
	if (line < l || col < 1 || len == 0)
		return NONE;
	while (l < line && i < len) {
		if (raw[i] == '\r' || raw[i] == '\n') {
			if (raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n')
				i++;
			l++;
		}
		i++;
	}
	if (l < line)
		return NONE;
	size_t off = i + (size_t)(col - 1);
	return off <= len ? off : len;
}

/* Appends raw bytes for a comment: control bytes other than blanks as
 * \xNN, so that a NUL or a stray byte cannot break the text again. */
static void add_shown(struct vc_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if ((ch < 0x20 && !is_blank(ch)) || ch == 0x7f)
			vc_buf_printf(b, "\\x%02X", ch);
		else
			vc_buf_addc(b, ch);
	}
}

/* The text of the error comment for diagnostic d into b (normalised). */
static void error_text(struct vc_buf *raw_b, struct vc_buf *b, const struct vc_game *g,
		       const struct vc_game_diag *d)
{
	vc_buf_reset(raw_b);
	vc_buf_adds(raw_b, "vchess: error: ");
	if (d->context && *d->context) {
		vc_buf_adds(raw_b, d->context);
		vc_buf_adds(raw_b, ": ");
	}
	vc_buf_adds(raw_b, d->message ? d->message : "");
	if (d->code && !strcmp(d->code, "tag-syntax")) {
		/* the broken tag line is dropped by the reader: keep it here */
		size_t len, a = raw_offset(g, d->line, 1);
		const char *raw = vc_game_raw(g, &len);
		if (a != NONE) {
			size_t e = a;
			while (e < len && raw[e] != '\n' && raw[e] != '\r')
				e++;
			vc_buf_adds(raw_b, " in '");
			add_shown(raw_b, raw + a, e - a);
			vc_buf_addc(raw_b, '\'');
		}
	}
	vc_buf_reset(b);
	norm_into(b, raw_b->p ? raw_b->p : "", raw_b->len);
}

/* The comment keeping the text the reader skipped, into b, or 0. */
static int unread_text(struct vc_buf *raw_b, struct vc_buf *b, const struct vc_game *g)
{
	size_t nd = vc_game_diag_count(g);
	for (size_t i = 0; i < nd; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (!breaks_stream(d->code))
			continue;
		size_t len, off = raw_offset(g, d->line, d->col);
		const char *raw = vc_game_raw(g, &len);
		if (off == NONE)
			return 0;
		while (len > off && is_blank((unsigned char)raw[len - 1]))
			len--;
		if (len <= off)
			return 0;
		vc_buf_reset(raw_b);
		vc_buf_adds(raw_b, "vchess: unread: ");
		add_shown(raw_b, raw + off, len - off);
		vc_buf_reset(b);
		norm_into(b, raw_b->p, raw_b->len);
		return 1;
	}
	return 0;
}

/* ---- numbering ---- */

static struct numfr *push_fr(struct vc_canon *c)
{
	if (c->nfr == c->capfr) {
		size_t nc = c->capfr ? c->capfr * 2 : 16;
		struct numfr *nf = realloc(c->fr, nc * sizeof *nf);
		if (!nf) {
			c->oom = 1;
			return NULL;
		}
		c->fr = nf;
		c->capfr = nc;
	}
	struct numfr *f = &c->fr[c->nfr++];
	memset(f, 0, sizeof *f);
	f->interrupted = 1;
	return f;
}

/* Side and move number of the game's start, from its FEN tag as far as
 * it reads (used only when the first move was not replayed). */
static void start_of(const struct vc_game *g, int *side, long *num)
{
	*side = 0;
	*num = 1;
	const char *fen = vc_game_tag(g, "FEN");
	if (!fen)
		return;
	const char *f[6];
	int nf = 0;
	for (const char *s = fen; *s && nf < 6;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		f[nf++] = s;
		while (*s && *s != ' ')
			s++;
	}
	if (nf >= 2 && f[1][0] == 'b' && (f[1][1] == ' ' || !f[1][1]))
		*side = 1;
	if (nf >= 6) {
		char *end;
		long n = strtol(f[5], &end, 10);
		if (end != f[5] && (*end == ' ' || !*end) && n >= 1)
			*num = n;
	}
}

/* ---- the build ---- */

static const char *const roster[] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result"
};

static int in_roster(const char *name)
{
	for (size_t i = 0; i < VC_NELEM(roster); i++)
		if (!strcmp(name, roster[i]))
			return 1;
	return 0;
}

static const char *result_of(const struct vc_game *g)
{
	const char *r = vc_game_result(g);
	if (r)
		return r;
	r = vc_game_tag(g, "Result");
	if (r && (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2")))
		return r;
	return "*";
}

/* The derived comments of a replayed move, in the order written. */
static int derived_of(const struct vc_replay *rp, const struct vc_write_opts *o, size_t item,
		      struct vc_buf *b, size_t off[2], size_t len[2])
{
	int n = 0;
	vc_buf_reset(b);
	const char *fen = o->fen_after ? vc_replay_fen(rp, item) : NULL;
	if (fen) {
		off[n] = b->len;
		vc_buf_printf(b, "[%%fen %s]", fen);
		len[n] = b->len - off[n];
		n++;
	}
	if (o->mark_transforms && vc_replay_transforms(rp, item)) {
		off[n] = b->len;
		vc_buf_adds(b, "[%transform]");
		len[n] = b->len - off[n];
		n++;
	}
	return n;
}

int vc_canon_build(struct vc_canon *c, const struct vc_game *g, const struct vc_replay *rp,
		   const struct vc_write_opts *opts)
{
	struct vc_write_opts o0;
	const struct vc_write_opts *o = opts;
	if (!o) {
		memset(&o0, 0, sizeof o0);
		o = &o0;
	}
	c->n = 0;
	c->nfr = 0;
	c->oom = 0;
	vc_buf_reset(&c->pool);
	size_t n = vc_game_item_count(g), i = 0;
	struct vc_buf eb, raw_b;
	vc_buf_init(&eb);
	vc_buf_init(&raw_b);

	/* escape lines that open the game stand before its tags */
	for (; i < n; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		if (it->type != VC_IT_ESCAPE)
			break;
		if (!o->no_comments) {
			struct vc_cev *e = add_ev(c, VC_CE_ESCAPE, (long)i, it->text, it->len);
			if (e)
				e->flags = VC_CEF_PRE;
		}
	}

	if (!o->no_tags) {
		size_t nt = vc_game_tag_count(g);
		for (size_t r = 0; r < VC_NELEM(roster); r++)
			for (size_t t = 0; t < nt; t++)
				if (!strcmp(vc_game_tag_name(g, t), roster[r])) {
					const char *v = vc_game_tag_value(g, t);
					add_ev(c, VC_CE_TAG, (long)t, v, strlen(v));
				}
		for (size_t t = 0; t < nt; t++)
			if (!in_roster(vc_game_tag_name(g, t))) {
				const char *v = vc_game_tag_value(g, t);
				add_ev(c, VC_CE_TAG, (long)t, v, strlen(v));
			}
	}

	/* The errors of an invalid game open its movetext.  One that is
	 * already among the comments that open it (written there by an earlier
	 * conversion) is not written again, and that copy counts as ours; so
	 * converting the output again changes nothing, even when some errors
	 * went away with the first conversion (text it could not read, say). */
	size_t lead0 = i, lead = i;
	while (lead < n && vc_game_item(g, lead)->type == VC_IT_COMMENT)
		lead++;
	if (lead - lead0 > c->capmark) {
		unsigned char *nm = realloc(c->mark, lead - lead0);
		if (!nm) {
			c->oom = 1;
			lead = lead0;
		} else {
			c->mark = nm;
			c->capmark = lead - lead0;
		}
	}
	if (lead > lead0)
		memset(c->mark, 0, lead - lead0);
	if (vc_game_worst(g) >= VC_SEV_ERROR) {
		size_t nd = vc_game_diag_count(g);
		for (size_t d = 0; d < nd; d++) {
			const struct vc_game_diag *gd = vc_game_diag_at(g, d);
			if (gd->severity < VC_SEV_ERROR)
				continue;
			error_text(&raw_b, &eb, g, gd);
			int found = 0;
			for (size_t j = lead0; j < lead && !o->no_comments && !found; j++) {
				const struct vc_item *it = vc_game_item(g, j);
				if (!c->mark[j - lead0] && norm_eq(it->text, it->len, eb.p, eb.len))
					c->mark[j - lead0] = found = 1;
			}
			if (!found)
				gen_comment(c, eb.p, eb.len, VC_CEF_GENERATED);
		}
	}

	struct numfr *f = push_fr(c);
	if (f)
		start_of(g, &f->side, &f->num);
	int skip = 0; /* depth inside a variation being left out */
	int depth = 0;
	for (; i < n && !c->oom; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		f = &c->fr[c->nfr - 1];
		if (skip) {
			if (it->type == VC_IT_VAR_START)
				skip++;
			else if (it->type == VC_IT_VAR_END)
				skip--;
			continue;
		}
		switch (it->type) {
		case VC_IT_MOVE: {
			const char *san = vc_replay_san(rp, i, o->long_algebraic);
			struct vc_cev *e = san ? add_ev(c, VC_CE_MOVE, (long)i, san, strlen(san))
					       : add_ev(c, VC_CE_MOVE, (long)i, it->text, it->len);
			if (!e)
				break;
			int side = f->side;
			long num = f->num;
			if (san) {
				e->flags |= VC_CEF_REPLAYED;
				side = rp->rec[i].side;
				num = rp->rec[i].num;
			}
			e->side = side;
			e->movenum = num;
			if (side == 0 || f->interrupted)
				e->flags |= VC_CEF_NUMBER;
			f->interrupted = 0;
			f->has_last = 1;
			f->last_side = side;
			f->last_num = num;
			f->side = !side;
			f->num = side ? num + 1 : num;
			if (!san)
				break;
			size_t mi = i;
			/* its NAGs, then the comments derived from the replay */
			while (i + 1 < n && vc_game_item(g, i + 1)->type == VC_IT_NAG) {
				i++;
				e = add_ev(c, VC_CE_NAG, (long)i, NULL, 0);
				if (e)
					e->nag = vc_game_item(g, i)->nag;
				f->interrupted = 1;
			}
			size_t off[2], len[2];
			int nder = derived_of(rp, o, mi, &eb, off, len);
			for (int k = 0; k < nder; k++) {
				const struct vc_item *nx = vc_game_item(g, i + 1);
				if (!o->no_comments && item_is_comment(nx) &&
				    norm_eq(nx->text, nx->len, eb.p + off[k], len[k])) {
					i++;
					add_comment(c, (long)i, nx->text, nx->len, VC_CEF_DERIVED);
				} else {
					gen_comment(c, eb.p + off[k], len[k], VC_CEF_DERIVED);
				}
				f->interrupted = 1;
			}
			break;
		}
		case VC_IT_COMMENT:
			if (o->no_comments)
				break;
			add_comment(c, (long)i, it->text, it->len,
				    i < lead && c->mark[i - lead0] ? VC_CEF_GENERATED : 0);
			f->interrupted = 1;
			break;
		case VC_IT_ESCAPE:
			if (o->no_comments)
				break;
			add_ev(c, VC_CE_ESCAPE, (long)i, it->text, it->len);
			f->interrupted = 1;
			break;
		case VC_IT_NAG: {
			struct vc_cev *e = add_ev(c, VC_CE_NAG, (long)i, NULL, 0);
			if (e)
				e->nag = it->nag;
			f->interrupted = 1;
			break;
		}
		case VC_IT_VAR_START: {
			if (o->no_variations) {
				skip = 1;
				break;
			}
			add_ev(c, VC_CE_VAR_START, (long)i, NULL, 0);
			int s = f->has_last ? f->last_side : f->side;
			long num = f->has_last ? f->last_num : f->num;
			struct numfr *nf = push_fr(c);
			if (nf) {
				nf->side = s;
				nf->num = num;
			}
			depth++;
			break;
		}
		case VC_IT_VAR_END:
			if (depth == 0)
				break; /* the reader reported it */
			add_ev(c, VC_CE_VAR_END, (long)i, NULL, 0);
			depth--;
			c->nfr--;
			c->fr[c->nfr - 1].interrupted = 1;
			break;
		}
	}
	if (unread_text(&raw_b, &eb, g)) {
		gen_comment(c, eb.p, eb.len, VC_CEF_GENERATED);
	}
	for (; depth > 0; depth--)
		add_ev(c, VC_CE_VAR_END, -1, NULL, 0);
	const char *res = result_of(g);
	add_ev(c, VC_CE_RESULT, -1, res, strlen(res));

	if (eb.oom || raw_b.oom || c->pool.oom)
		c->oom = 1;
	vc_buf_free(&eb);
	vc_buf_free(&raw_b);
	for (size_t k = 0; k < c->n; k++)
		if (c->poff[k] != NONE)
			c->ev[k].text = c->pool.p + c->poff[k];
	return c->oom ? -1 : 0;
}

/* ==== step 3: the text writer ========================================== */

/* Folding: tokens are separated by one space, or by a line end when the
 * next one would pass the width; a token is never split, and one longer
 * than the width stands on a line of its own.  '(' is glued to the token
 * after it and ')' to the token before it; both are known when the token
 * is written (the canonical form is a list, so the writer looks ahead),
 * which lets each token be written once, straight into memory reserved
 * for the whole game. */
struct tw {
	char *o;
	size_t col, width;
	int opens; /* '(' waiting for the next token */
};

/* Starts a token of len bytes (its glued brackets included). */
static inline void tw_sep(struct tw *t, size_t len)
{
	if (t->col == 0) {
		t->col = len;
	} else if (t->col + 1 + len <= t->width) {
		*t->o++ = ' ';
		t->col += 1 + len;
	} else {
		*t->o++ = '\n';
		t->col = len;
	}
}

static inline void tw_put(struct tw *t, const char *s, size_t n)
{
	if (!n)
		return; /* also when s is NULL */
	memcpy(t->o, s, n);
	t->o += n;
}

static inline void tw_fill(struct tw *t, char c, int n)
{
	for (int i = 0; i < n; i++)
		*t->o++ = c;
}

/* A token: the waiting '(', s, s2, then closes ')'. */
static void tw_tok(struct tw *t, const char *s, size_t n, const char *s2, size_t n2, int closes)
{
	tw_sep(t, (size_t)t->opens + n + n2 + (size_t)closes);
	tw_fill(t, '(', t->opens);
	t->opens = 0;
	tw_put(t, s, n);
	if (n2)
		tw_put(t, s2, n2);
	tw_fill(t, ')', closes);
}

/* Ends the line, for what must stand at a line's start. */
static void tw_newline(struct tw *t)
{
	if (t->opens)
		tw_tok(t, "", 0, NULL, 0, 0);
	if (t->col > 0) {
		*t->o++ = '\n';
		t->col = 0;
	}
}

/* An escape line; a line end in it (a game from XML may hold one) cannot
 * stand there and becomes a space. */
static void tw_escape(struct tw *t, const struct vc_cev *e)
{
	*t->o++ = '%';
	for (size_t k = 0; k < e->len; k++)
		*t->o++ = e->text[k] == '\n' || e->text[k] == '\r' ? ' ' : e->text[k];
	*t->o++ = '\n';
}

/* Writes n in decimal at p; returns the length. */
static size_t put_num(char *p, long n)
{
	char b[24];
	size_t k = 0;
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
	do {
		b[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	size_t len = k + (n < 0);
	if (n < 0)
		*p++ = '-';
	while (k)
		*p++ = b[--k];
	return len;
}

/* The ')' that follow event i, to glue to its last token. */
static int closes_after(const struct vc_canon *c, size_t i)
{
	int k = 0;
	while (i + 1 + (size_t)k < c->n && c->ev[i + 1 + (size_t)k].type == VC_CE_VAR_END)
		k++;
	return k;
}

static void tw_comment(struct tw *t, const struct vc_cev *e, int closes)
{
	if (e->flags & VC_CEF_SEMI) {
		/* a ';' comment runs to the line end */
		tw_tok(t, ";", 1, e->text, e->len, 0);
		*t->o++ = '\n';
		t->col = 0;
		return;
	}
	/* "{" + text + "}", cut at its spaces */
	size_t i = 0;
	int first = 1;
	for (;;) {
		size_t j = i;
		while (j < e->len && e->text[j] != ' ')
			j++;
		int last = j >= e->len;
		size_t len = (size_t)t->opens + first + (j - i) + (size_t)(last ? 1 + closes : 0);
		tw_sep(t, len);
		tw_fill(t, '(', t->opens);
		t->opens = 0;
		if (first)
			*t->o++ = '{';
		tw_put(t, e->text + i, j - i);
		if (last) {
			*t->o++ = '}';
			tw_fill(t, ')', closes);
			return;
		}
		first = 0;
		i = j + 1;
	}
}

/* An upper bound of the bytes write_text writes for the game. */
static size_t text_bound(const struct vc_game *g, const struct vc_canon *c)
{
	size_t n = 64;
	for (size_t i = 0; i < c->n; i++) {
		const struct vc_cev *e = &c->ev[i];
		n += 2 * e->len + 48;
		if (e->type == VC_CE_TAG)
			n += strlen(vc_game_tag_name(g, (size_t)e->item));
	}
	return n;
}

static int write_text(struct vc_buf *b, const struct vc_game *g, const struct vc_canon *c,
		      size_t width)
{
	if (vc_buf_reserve(b, text_bound(g, c)) < 0)
		return -1;
	struct tw t = { b->p + b->len, 0, width, 0 };
	size_t i = 0, n = c->n;
	char num[32];
	for (; i < n && c->ev[i].type == VC_CE_ESCAPE && (c->ev[i].flags & VC_CEF_PRE); i++) {
		tw_escape(&t, &c->ev[i]);
	}
	int tags = 0;
	for (; i < n && c->ev[i].type == VC_CE_TAG; i++) {
		const struct vc_cev *e = &c->ev[i];
		const char *name = vc_game_tag_name(g, (size_t)e->item);
		*t.o++ = '[';
		tw_put(&t, name, strlen(name));
		tw_put(&t, " \"", 2);
		for (size_t k = 0; k < e->len; k++) {
			char ch = e->text[k];
			if (ch == '"' || ch == '\\')
				*t.o++ = '\\';
			/* a line end cannot stand in a tag (a game from XML may hold one) */
			*t.o++ = ch == '\n' || ch == '\r' ? ' ' : ch;
		}
		tw_put(&t, "\"]\n", 3);
		tags = 1;
	}
	if (tags)
		*t.o++ = '\n';
	for (; i < n; i++) {
		const struct vc_cev *e = &c->ev[i];
		int closes = 0;
		switch (e->type) {
		case VC_CE_MOVE: {
			if (e->flags & VC_CEF_NUMBER) {
				size_t k = put_num(num, e->movenum);
				if (e->side) {
					memcpy(num + k, "...", 3);
					k += 3;
				} else {
					num[k++] = '.';
				}
				tw_tok(&t, num, k, NULL, 0, 0);
			}
			const struct vc_item *it = vc_game_item(g, (size_t)e->item);
			int ep = !(e->flags & VC_CEF_REPLAYED) && (it->flags & VC_IF_EP_MARK);
			closes = closes_after(c, i);
			tw_tok(&t, e->text, e->len, it->suffix, it->suffix ? it->suffix_len : 0,
			       ep ? 0 : closes);
			if (ep)
				tw_tok(&t, "e.p.", 4, NULL, 0, closes);
			break;
		}
		case VC_CE_COMMENT:
			closes = e->flags & VC_CEF_SEMI ? 0 : closes_after(c, i);
			tw_comment(&t, e, closes);
			break;
		case VC_CE_NAG:
			num[0] = '$';
			closes = closes_after(c, i);
			tw_tok(&t, num, 1 + put_num(num + 1, e->nag), NULL, 0, closes);
			break;
		case VC_CE_VAR_START:
			t.opens++;
			break;
		case VC_CE_VAR_END:
			/* not glued to a token before it: ')' on its own, or "()" */
			closes = closes_after(c, i);
			tw_tok(&t, "", 0, NULL, 0, 1 + closes);
			break;
		case VC_CE_ESCAPE:
			tw_newline(&t);
			tw_escape(&t, e);
			break;
		case VC_CE_RESULT:
			tw_tok(&t, e->text, e->len, NULL, 0, 0);
			break;
		case VC_CE_TAG:
			break;
		}
		i += (size_t)closes;
	}
	if (t.opens)
		tw_tok(&t, "", 0, NULL, 0, 0);
	tw_put(&t, "\n\n", 2);
	b->len = (size_t)(t.o - b->p);
	b->p[b->len] = '\0';
	return 0;
}

/* ==== the writer ======================================================== */

/* A writer writes games with vc_writer_game, or adds pieces (see vchess.h)
 * with vc_writer_put; vc_writer_piece formats a game for another writer.
 *
 * Pieces do not depend on the games before them.  For text, JSON lines
 * and FEN a game's bytes are its piece: those formats have no state across
 * games.  An XML archive is H P1 P2 ... Pn F, H the XML declaration and the
 * <archive> start tag with its line end, F "</archive>\n", each Pi the
 * <game> element of game i and its line end, whichever way xml.c writes it
 * (its serialiser or the xmlTextWriter); an archive without a game is the
 * document E, whose <archive .../> is empty.  A writer that puts pieces
 * writes H before the first one and F (or E) at the end.  H and F come
 * from xml.c itself: H is E with its "/>" made ">".
 *
 * vc_writer_piece keeps an XML writer of xml.c of its own, writing into
 * memory: what it writes for a game is the piece (after H, the first
 * time), provided all of it has come out, which the piece's end,
 * "</game>\n", tells -- the serialiser always hands a whole game over,
 * the xmlTextWriter (for games nested too deep) when its buffer happens
 * to be flushed.  When it has not, that writer is dropped and the game is
 * written again as a one-game archive, whose middle, between H and F
 * (checked), is the piece.
 *
 * The XML writer of xml.c for the writer's own sink is opened only when a
 * game is written (or, for E, when no piece was put), so that a writer of
 * pieces writes nothing itself. */

struct vc_writer {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	enum vc_format fmt;
	struct vc_write_opts o;
	struct vc_canon *c;
	struct vc_buf out;
	struct vc_xml_out *xml;
	int xml_pure;
	long games, puts;        /* written by vc_writer_game, added by vc_writer_put */
	struct vc_buf head;      /* XML: H, once known */
	struct vc_sink *psink;   /* XML pieces: into out */
	struct vc_xml_out *pxml; /* XML pieces: the writer of xml.c that goes on */
	long pgames;             /* games pxml has written */
	int failed;
};

static const char xml_foot[] = "</archive>\n";
static const char game_end[] = "</game>\n";

struct vc_writer *vc_writer_open(struct vc_ctx *ctx, struct vc_sink *sink, enum vc_format fmt,
				 const struct vc_write_opts *opts)
{
	struct vc_writer *w = vc_calloc(1, sizeof *w);
	if (!w) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	w->ctx = ctx;
	w->sink = sink;
	w->fmt = fmt;
	if (opts)
		w->o = *opts;
	if (w->o.width <= 0)
		w->o.width = DEFAULT_WIDTH;
	vc_buf_init(&w->out);
	vc_buf_init(&w->head);
	w->c = vc_canon_new();
	if (!w->c) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		free(w);
		return NULL;
	}
	if (fmt == VC_FORMAT_XML)
		vc_xml_global_init();
	return w;
}

/* For tests (declared there): every XML element through libxml2's own
 * writer, to compare with the serialiser. */
void vc_writer_xml_pure(struct vc_writer *w, int on);
void vc_writer_xml_pure(struct vc_writer *w, int on)
{
	w->xml_pure = on;
	if (w->xml)
		vc_xml_out_pure(w->xml, on);
}

static vc_status oom(struct vc_writer *w)
{
	if (!w->failed)
		vc_emit(w->ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
	w->failed = 1;
	return VC_FATAL;
}

/* Opens the XML writer of xml.c on the writer's sink. */
static int xml_start(struct vc_writer *w)
{
	if (w->xml)
		return 0;
	w->xml = vc_xml_out_open(w->ctx, w->sink, &w->o);
	if (!w->xml) {
		w->failed = 1;
		return -1;
	}
	vc_xml_out_pure(w->xml, w->xml_pure);
	return 0;
}

static void write_fens(struct vc_buf *b, const struct vc_replay *rp, int plies)
{
	size_t n = vc_replay_fen_count(rp);
	for (size_t k = 0; k < n; k++) {
		vc_buf_adds(b, vc_replay_fen_at(rp, k));
		vc_buf_addc(b, '\n');
	}
	if (plies || n == 0)
		vc_buf_addc(b, '\n');
}

/* The bytes of g in a format without state across games, into w->out. */
static vc_status format_plain(struct vc_writer *w, const struct vc_game *g,
			      const struct vc_replay *rp)
{
	vc_buf_reset(&w->out);
	if (w->fmt == VC_FORMAT_FEN) {
		write_fens(&w->out, rp, w->o.fen_plies);
	} else {
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			return oom(w);
		if (w->fmt == VC_FORMAT_JSON) {
			if (vc_json_game(&w->out, g, rp, w->c, &w->o) < 0)
				return oom(w);
		} else if (write_text(&w->out, g, w->c, (size_t)w->o.width) < 0) {
			return oom(w);
		}
	}
	return w->out.oom ? oom(w) : VC_OK;
}

static vc_status mixed(struct vc_writer *w)
{
	if (!w->failed)
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-mixed", NULL, 0, 0, NULL,
			"a writer takes whole games or pieces, not both");
	w->failed = 1;
	return VC_FATAL;
}

vc_status vc_writer_game(struct vc_writer *w, const struct vc_game *g, const struct vc_replay *rp)
{
	if (w->failed)
		return VC_FATAL;
	if (w->puts)
		return mixed(w);
	w->games++;
	if (w->fmt == VC_FORMAT_XML) {
		if (xml_start(w) < 0)
			return VC_FATAL;
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			return oom(w);
		if (vc_xml_out_game(w->xml, g, rp, w->c) < 0) {
			w->failed = 1;
			return VC_FATAL;
		}
		return VC_OK;
	}
	if (format_plain(w, g, rp) != VC_OK)
		return VC_FATAL;
	if (vc_sink_write(w->sink, w->out.p, w->out.len) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

static int buf_write(void *user, const void *data, size_t len)
{
	return vc_buf_add(user, data, len);
}

/* The sink into w->out. */
static vc_status piece_sink(struct vc_writer *w)
{
	if (!w->psink) {
		w->psink = vc_sink_callback(w->ctx, buf_write, &w->out);
		if (!w->psink)
			return oom(w);
	}
	return vc_sink_failed(w->psink) ? oom(w) : VC_OK;
}

/* Writes a whole XML document, with g or without a game, into w->out. */
static vc_status xml_document(struct vc_writer *w, const struct vc_game *g,
			      const struct vc_replay *rp)
{
	vc_buf_reset(&w->out);
	if (piece_sink(w) != VC_OK)
		return VC_FATAL;
	struct vc_xml_out *x = vc_xml_out_open(w->ctx, w->psink, &w->o);
	if (!x) {
		w->failed = 1;
		return VC_FATAL;
	}
	vc_xml_out_pure(x, w->xml_pure);
	int bad = 0;
	if (g) {
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			bad = 1;
		else if (vc_xml_out_game(x, g, rp, w->c) < 0)
			bad = 2;
	}
	if (vc_xml_out_close(x) < 0 && !bad)
		bad = 2;
	if (bad == 1 || w->out.oom)
		return oom(w);
	if (bad) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

/* H: the empty archive E with its "/>" made ">". */
static vc_status xml_head(struct vc_writer *w)
{
	if (w->head.len)
		return VC_OK;
	if (xml_document(w, NULL, NULL) != VC_OK)
		return VC_FATAL;
	if (w->out.len < 3 || memcmp(w->out.p + w->out.len - 3, "/>\n", 3)) {
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-piece", NULL, 0, 0, NULL,
			"cannot tell the XML archive's header");
		w->failed = 1;
		return VC_FATAL;
	}
	vc_buf_add(&w->head, w->out.p, w->out.len - 3);
	vc_buf_adds(&w->head, ">\n");
	return w->head.oom ? oom(w) : VC_OK;
}

vc_status vc_writer_piece(struct vc_writer *w, struct vc_sink *out, const struct vc_game *g,
			  const struct vc_replay *rp)
{
	if (w->failed)
		return VC_FATAL;
	if (w->fmt != VC_FORMAT_XML) {
		if (format_plain(w, g, rp) != VC_OK)
			return VC_FATAL;
		return vc_sink_write(out, w->out.p, w->out.len) < 0 ? VC_FATAL : VC_OK;
	}
	if (xml_head(w) != VC_OK || piece_sink(w) != VC_OK)
		return VC_FATAL;
	size_t h = w->head.len, f = sizeof xml_foot - 1, e = sizeof game_end - 1, n;
	/* the writer that goes on */
	vc_buf_reset(&w->out);
	if (!w->pxml) {
		w->pxml = vc_xml_out_open(w->ctx, w->psink, &w->o);
		if (!w->pxml) {
			w->failed = 1;
			return VC_FATAL;
		}
		vc_xml_out_pure(w->pxml, w->xml_pure);
		w->pgames = 0;
	}
	if (vc_canon_build(w->c, g, rp, &w->o) < 0)
		return oom(w);
	if (vc_xml_out_game(w->pxml, g, rp, w->c) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	size_t skip = w->pgames++ ? 0 : h;
	n = w->out.len;
	if (w->out.oom)
		return oom(w);
	if (n >= skip + e && !memcmp(w->out.p + n - e, game_end, e) &&
	    (!skip || !memcmp(w->out.p, w->head.p, h)))
		return vc_sink_write(out, w->out.p + skip, n - skip) < 0 ? VC_FATAL : VC_OK;
	/* not all of it came out: a one-game archive instead */
	vc_xml_out_close(w->pxml);
	w->pxml = NULL;
	if (xml_document(w, g, rp) != VC_OK)
		return VC_FATAL;
	n = w->out.len;
	if (n < h + f || memcmp(w->out.p, w->head.p, h) || memcmp(w->out.p + n - f, xml_foot, f)) {
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-piece", NULL, 0, 0, NULL,
			"cannot cut the game out of its XML archive");
		w->failed = 1;
		return VC_FATAL;
	}
	return vc_sink_write(out, w->out.p + h, n - h - f) < 0 ? VC_FATAL : VC_OK;
}

vc_status vc_writer_put(struct vc_writer *w, const void *piece, size_t len)
{
	if (w->failed)
		return VC_FATAL;
	if (w->games)
		return mixed(w);
	if (w->fmt == VC_FORMAT_XML && w->puts == 0) {
		if (xml_head(w) != VC_OK)
			return VC_FATAL;
		if (vc_sink_write(w->sink, w->head.p, w->head.len) < 0) {
			w->failed = 1;
			return VC_FATAL;
		}
	}
	w->puts++;
	if (vc_sink_write(w->sink, piece, len) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

vc_status vc_writer_close(struct vc_writer *w)
{
	if (!w)
		return VC_OK;
	int bad = w->failed;
	if (w->fmt == VC_FORMAT_XML && !bad) {
		if (w->puts) {
			if (vc_sink_write(w->sink, xml_foot, sizeof xml_foot - 1) < 0)
				bad = 1;
		} else if (w->sink && xml_start(w) < 0) {
			bad = 1;
		}
	}
	if (w->xml && vc_xml_out_close(w->xml) < 0)
		bad = 1;
	vc_xml_out_close(w->pxml); /* its end goes into out, which is dropped */
	vc_sink_close(w->psink);
	vc_canon_free(w->c);
	vc_buf_free(&w->out);
	vc_buf_free(&w->head);
	free(w);
	return bad ? VC_FATAL : VC_OK;
}
