/*
 * draw/plies.c - a game's main line as a diagram needs it: the position
 * after each ply, the move that led to it, its SAN and move number, whether
 * the side to move is in check, and the [%cal]/[%csl] marks of the
 * comments written after it.  vchess-render draws from it; a viewer that
 * steps through a game uses it the same way.
 *
 * Model: one validation (vc_validate, through its move callback) records
 * the start position and the main-line moves; a position is not kept for
 * every ply but reached by a cursor, one position that makes or unmakes
 * moves from where it stands, so that stepping forwards or backwards costs
 * one move and memory grows with the moves, not the boards.  A game whose
 * first move does not replay still has its start: the FEN tag's, or the
 * variant's.  The marks are read once, when the game is run, since they
 * need the variant to name squares.  Variations are not recorded (yet).
 *
 * Invariants: step[0] is the start (no move), step[k] the k-th ply; cur
 * stands at ply at, reached from start by making step[1..at].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"
#include "draw/vc_draw.h"

struct step {
	vc_move m;
	size_t item;
	long movenum;
	int side, check;
	size_t san;          /* offset in pool */
	size_t mark0, nmark; /* marks[mark0 .. mark0 + nmark) */
};

struct vc_plies {
	struct step *step;
	long n, cap; /* steps, the start included; 0: no start */
	struct vc_position *start, *cur;
	long at;
	struct vc_buf pool;  /* SAN texts, then the players' names */
	size_t white, black; /* offsets in pool */
	struct vc_render_mark *marks;
	size_t nmarks, capmarks;
	int failed;
};

struct vc_plies *vc_plies_new(void)
{
	struct vc_plies *pl = vc_calloc(1, sizeof *pl);
	if (pl)
		vc_buf_init(&pl->pool);
	return pl;
}

static void drop_positions(struct vc_plies *pl)
{
	vc_position_free(pl->start);
	vc_position_free(pl->cur);
	pl->start = pl->cur = NULL;
}

void vc_plies_free(struct vc_plies *pl)
{
	if (!pl)
		return;
	drop_positions(pl);
	free(pl->step);
	free(pl->marks);
	vc_buf_free(&pl->pool);
	free(pl);
}

/* A new step at the end; NULL when out of memory. */
static struct step *add_step(struct vc_plies *pl)
{
	if (pl->n == pl->cap) {
		long nc = pl->cap ? pl->cap * 2 : 64;
		struct step *ns = realloc(pl->step, (size_t)nc * sizeof *ns);
		if (!ns)
			return NULL;
		pl->step = ns;
		pl->cap = nc;
	}
	struct step *s = &pl->step[pl->n++];
	memset(s, 0, sizeof *s);
	return s;
}

/* The start, as a copy of p; 0, or -1 when out of memory. */
static int set_start(struct vc_plies *pl, const struct vc_position *p)
{
	const struct vc_variant *v = vc_position_variant(p);
	pl->start = vc_position_new(v);
	pl->cur = vc_position_new(v);
	if (!pl->start || !pl->cur || !add_step(pl))
		return -1;
	vc_position_copy(pl->start, p);
	return 0;
}

static void on_move(void *user, const struct vc_game *g, size_t item,
		    const struct vc_position *before, const vc_move *m, const char *san, int depth)
{
	struct vc_plies *pl = user;
	(void)g;
	if (depth != 0 || pl->failed)
		return;
	if (pl->n == 0 && set_start(pl, before) < 0) {
		pl->failed = 1;
		return;
	}
	struct step *s = add_step(pl);
	if (!s) {
		pl->failed = 1;
		return;
	}
	s->m = *m;
	s->item = item;
	s->movenum = before->fullmove;
	s->side = vc_position_side(before);
	s->san = pl->pool.len;
	vc_buf_add(&pl->pool, san, strlen(san) + 1);
}

/* No move replayed: the start is the game's own, from its FEN tag or its
 * variant.  0, 1 when there is none, -1 when out of memory. */
static int own_start(struct vc_plies *pl, const struct vc_validator *val, const struct vc_game *g)
{
	const struct vc_variant *v = vc_validator_variant(val);
	if (!v)
		return 1;
	struct vc_position *p = vc_position_new(v);
	if (!p)
		return -1;
	const char *fen = vc_game_tag(g, "FEN");
	int rc = 0;
	if (!fen)
		vc_position_start(p);
	else if (vc_position_set_fen(p, NULL, fen) != VC_OK)
		rc = 1;
	if (rc == 0 && set_start(pl, p) < 0)
		rc = -1;
	vc_position_free(p);
	return rc;
}

/* The marks of the comments (and NAGs) from item on, up to anything else. */
static int read_marks(struct vc_plies *pl, const struct vc_game *g, const struct vc_variant *v,
		      struct step *s, size_t from)
{
	size_t count = vc_game_item_count(g);
	s->mark0 = pl->nmarks;
	for (size_t i = from; i < count; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		if (it->type == VC_IT_NAG)
			continue;
		if (it->type != VC_IT_COMMENT)
			break;
		for (;;) {
			size_t room = pl->capmarks - pl->nmarks;
			int k = room ? vc_render_parse_marks(v, it->text, it->len,
							     pl->marks + pl->nmarks, (int)room)
				     : 0;
			if ((size_t)k < room) {
				pl->nmarks += (size_t)k;
				break;
			}
			/* it may have been cut short: read it again with more room */
			size_t nc = pl->capmarks ? pl->capmarks * 2 : 64;
			struct vc_render_mark *nm = realloc(pl->marks, nc * sizeof *nm);
			if (!nm)
				return -1;
			pl->marks = nm;
			pl->capmarks = nc;
		}
	}
	s->nmark = pl->nmarks - s->mark0;
	return 0;
}

/* The players' names, kept for the titles. */
static void keep_players(struct vc_plies *pl, const struct vc_game *g)
{
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	pl->white = pl->pool.len;
	vc_buf_add(&pl->pool, w ? w : "?", strlen(w ? w : "?") + 1);
	pl->black = pl->pool.len;
	vc_buf_add(&pl->pool, b ? b : "?", strlen(b ? b : "?") + 1);
}

/* Walks the main line once: check after each ply, and the marks. */
static int annotate(struct vc_plies *pl, const struct vc_game *g)
{
	const struct vc_variant *v = vc_position_variant(pl->start);
	vc_position_copy(pl->cur, pl->start);
	pl->at = 0;
	for (long k = 0; k < pl->n; k++) {
		struct step *s = &pl->step[k];
		if (k > 0) {
			vc_position_make(pl->cur, &s->m);
			pl->at = k;
		}
		s->check = vc_position_in_check(pl->cur);
		if (read_marks(pl, g, v, s, k > 0 ? s->item + 1 : 0) < 0)
			return -1;
	}
	return 0;
}

vc_status vc_plies_run(struct vc_plies *pl, struct vc_validator *val, struct vc_game *g,
		       struct vc_game_stats *st)
{
	drop_positions(pl);
	pl->n = 0;
	pl->at = 0;
	pl->nmarks = 0;
	pl->failed = 0;
	vc_buf_reset(&pl->pool);
	keep_players(pl, g);
	vc_validator_set_move_fn(val, on_move, pl);
	vc_status s = vc_validate(val, g, st);
	vc_validator_set_move_fn(val, NULL, NULL);
	if (s != VC_FATAL && pl->n == 0 && !pl->failed && own_start(pl, val, g) < 0)
		pl->failed = 1;
	if (s != VC_FATAL && !pl->failed && pl->n > 0 && annotate(pl, g) < 0)
		pl->failed = 1;
	if (s == VC_FATAL || pl->failed || pl->pool.oom) {
		drop_positions(pl);
		pl->n = 0;
		return VC_FATAL;
	}
	return s;
}

long vc_plies_count(const struct vc_plies *pl)
{
	return pl->n - 1;
}

const struct vc_position *vc_plies_position(struct vc_plies *pl, long k)
{
	if (k < 0 || k >= pl->n)
		return NULL;
	while (pl->at < k)
		vc_position_make(pl->cur, &pl->step[++pl->at].m);
	while (pl->at > k) {
		vc_position_unmake(pl->cur);
		pl->at--;
	}
	return pl->cur;
}

int vc_plies_at(const struct vc_plies *pl, long k, struct vc_ply *out)
{
	if (k < 0 || k >= pl->n)
		return -1;
	const struct step *s = &pl->step[k];
	memset(out, 0, sizeof *out);
	out->move = k > 0 ? &s->m : NULL;
	out->san = k > 0 ? pl->pool.p + s->san : "";
	out->movenum = s->movenum;
	out->side = s->side;
	out->item = s->item;
	out->check = s->check;
	out->marks = s->nmark ? pl->marks + s->mark0 : NULL;
	out->nmarks = (int)s->nmark;
	return 0;
}

size_t vc_plies_title(const struct vc_plies *pl, long k, int players, char *buf, size_t n)
{
	const char *w = pl->pool.len ? pl->pool.p + pl->white : "?";
	const char *b = pl->pool.len ? pl->pool.p + pl->black : "?";
	char mv[160];
	int len;
	if (k < 0)
		len = snprintf(buf, n, "%s - %s", w, b);
	else if (k > 0 && k >= pl->n)
		len = snprintf(buf, n, "%s", "");
	else {
		if (k == 0)
			snprintf(mv, sizeof mv, "start");
		else
			snprintf(mv, sizeof mv, "%ld.%s %s", pl->step[k].movenum,
				 pl->step[k].side ? ".." : "", pl->pool.p + pl->step[k].san);
		len = players ? snprintf(buf, n, "%s - %s, %s", w, b, mv)
			      : snprintf(buf, n, "%s", mv);
	}
	return len < 0 ? 0 : (size_t)len;
}

int vc_plies_render_opts(const struct vc_plies *pl, long k, const struct vc_render_opts *base,
			 struct vc_render_opts *o, struct vc_render_mark *marks, int cap)
{
	struct vc_ply p;
	if (vc_plies_at(pl, k, &p) < 0)
		return -1;
	*o = *base;
	o->last = p.move;
	int n = p.nmarks < cap ? p.nmarks : cap;
	if (n > 0)
		memcpy(marks, p.marks, (size_t)n * sizeof *marks);
	for (int i = 0; i < base->nmarks && n < cap; i++)
		marks[n++] = base->marks[i];
	o->marks = marks;
	o->nmarks = n;
	return 0;
}
