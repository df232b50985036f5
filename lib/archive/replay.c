/*
 * archive/replay.c - what replaying a game gives the writers (step 1 of
 * writing, see vchess.h): each move's canonical SAN (and long algebraic or
 * coordinates on request), its squares, the position after it on request, whether it
 * transformed the board, and for the FEN format the positions of the main
 * line.  vc_replay_run validates the game through a validator whose move
 * callback records each move.
 *
 * Invariants: a vc_replay describes exactly the game of its last
 * vc_replay_run (rec[] has one slot per item, zero for items not
 * replayed); strings live in one pool and are named by offset + 1.  Memory
 * grows to the biggest game seen and is kept for the next one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"

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
	/* the last move's text, waiting for its mark (on_mark) */
	char pend[96], pend_long[96];
	size_t npend, npend_long;
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
	rp->need_long = (rp->o.long_algebraic || rp->o.uci || rp->o.notation || rp->o.shogi) &&
			fmt == VC_FORMAT_TEXT;
	int positions = fmt == VC_FORMAT_FEN || fmt == VC_FORMAT_EPD;
	rp->need_fen = rp->o.fen_after && !positions;
	rp->need_transform = rp->o.mark_transforms && !positions;
	rp->need_final = positions;
	if (fmt == VC_FORMAT_EPD)
		rp->o.fen_plies = 1;
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

/* Stores a then b and a NUL in the pool; returns offset + 1, or 0. */
static uint32_t pool_add2(struct vc_replay *rp, const char *a, size_t na, const char *b,
			  size_t nb)
{
	size_t off = rp->pool.len;
	if (off >= UINT32_MAX - na - nb - 2 || vc_buf_reserve(&rp->pool, na + nb + 1) < 0) {
		rp->oom = 1;
		return 0;
	}
	char *d = rp->pool.p + off;
	memcpy(d, a, na);
	memcpy(d + na, b, nb);
	d[na + nb] = '\0';
	rp->pool.len = off + na + nb + 1;
	d[na + nb + 1] = '\0'; /* the buffer's own terminator, as vc_buf_add leaves it */
	return (uint32_t)off + 1;
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

/* The move in the variant's own notation, where its file reads the one
 * asked for: WXF without a mark, as Fairy-Stockfish writes it; janggi's
 * waiting for its mark (on_mark).  Elsewhere, and for a move the notation
 * cannot tell, nothing: SAN stands. */
static void own_notation(struct vc_replay *rp, struct rec *r, const struct vc_position *before,
			 const vc_move *m)
{
	const struct vc_variant *v = before->v;
	/* written as vc_move_san writes, the position made and unmade */
	struct vc_position *p = (struct vc_position *)before;
	if (rp->o.notation == VC_NOTATION_WXF && v->wxf_read) {
		char lb[96];
		int n = vc_move_wxf(p, m, lb, sizeof lb);
		if (n > 0)
			r->lsan = pool_add(rp, lb, n < (int)sizeof lb ? (size_t)n : sizeof lb - 1);
	} else if (rp->o.notation == VC_NOTATION_JANGGI && v->janggi_read) {
		size_t room = sizeof rp->pend_long;
		int n = vc_move_janggi(p, m, rp->pend_long, room);
		rp->npend_long = n < (int)room ? (size_t)n : room - 1;
	}
}

/* The validator's move callback: everything the writers want from the
 * position before the move is taken here, while it exists.  The texts
 * come without their mark, which on_mark adds once the validator knows
 * it. */
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
	rp->npend = strlen(san);
	memcpy(rp->pend, san, rp->npend < sizeof rp->pend ? rp->npend + 1 : sizeof rp->pend);
	if (rp->npend >= sizeof rp->pend)
		rp->npend = sizeof rp->pend - 1;
	rp->npend_long = 0;
	if (rp->need_long && rp->o.notation) {
		own_notation(rp, r, before, m);
	} else if (rp->need_long && rp->o.shogi) {
		/* SAN, marks and all, where the variant does not read shogi's
		 * notation or the move has no shogi form */
		char lb[96];
		int n = before->v->shogi_coords ? vc_move_shogi(before, m, rp->o.shogi, lb, sizeof lb)
						: -1;
		if (n >= 0)
			r->lsan = pool_add(rp, lb, n < (int)sizeof lb ? (size_t)n : sizeof lb - 1);
	} else if (rp->need_long && rp->o.uci) {
		char lb[96];
		int n = vc_move_coord(before->v, m, lb, sizeof lb);
		r->lsan = pool_add(rp, lb, n < (int)sizeof lb ? (size_t)n : sizeof lb - 1);
	} else if (rp->need_long) {
		int n = vc_move_san_ex(before, m, VC_SAN_LONG | VC_SAN_NO_MARK, rp->pend_long,
				       sizeof rp->pend_long);
		rp->npend_long = n < (int)sizeof rp->pend_long ? (size_t)n : sizeof rp->pend_long - 1;
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

/* The validator's mark callback: the move of item, on_move's last, gets
 * its mark. */
static void on_mark(void *user, size_t item, const char *mark)
{
	struct vc_replay *rp = user;
	if (item >= rp->nrec)
		return;
	struct rec *r = &rp->rec[item];
	size_t nm = strlen(mark), room = sizeof rp->pend - 1; /* as vc_move_san cuts */
	r->san = pool_add2(rp, rp->pend, rp->npend, mark,
			   rp->npend + nm > room ? room - rp->npend : nm);
	if (rp->npend_long)
		r->lsan = pool_add2(rp, rp->pend_long, rp->npend_long, mark,
				    rp->npend_long + nm > room ? room - rp->npend_long : nm);
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
	vc_validator_set_mark_fn(val, on_mark);
	vc_status s = vc_validate(val, g, st);
	vc_validator_set_move_fn(val, NULL, NULL);
	vc_validator_set_mark_fn(val, NULL);
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

void vc_replay_numbering(const struct vc_replay *rp, size_t item, int *side, long *num)
{
	*side = rp->rec[item].side;
	*num = rp->rec[item].num;
}

const char *vc_replay_fen_at(const struct vc_replay *rp, size_t k)
{
	return rp && k < rp->nfens ? pool_str(rp, rp->fens[k]) : NULL;
}

/* ==== the main line's positions, for selections ========================= */

int vc_replay_walk(struct vc_replay *rp, const struct vc_game *g, vc_walk_fn *fn, void *user,
		   int *whole)
{
	*whole = 0;
	if (!rp->v || vc_game_is_garbage(g))
		return 1;
	if (rp->scratch && rp->scratch->v != rp->v) {
		vc_position_free(rp->scratch);
		rp->scratch = NULL;
	}
	if (!rp->scratch && !(rp->scratch = vc_position_new(rp->v)))
		return -1;
	struct vc_position *p = rp->scratch;
	const char *fen = vc_game_tag(g, "FEN");
	if (fen) {
		if (vc_position_set_fen(p, NULL, fen) != VC_OK)
			return 1;
	} else {
		vc_position_start(p);
	}
	/* each main-line move is handed over with the position before it,
	 * then made; the walk stops at the first that was not replayed */
	int depth = 0, stop = 0;
	size_t n = vc_game_item_count(g) < rp->nrec ? vc_game_item_count(g) : rp->nrec;
	for (size_t i = 0; i < n && !stop; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		depth += it->type == VC_IT_VAR_START ? 1 : it->type == VC_IT_VAR_END ? -1 : 0;
		if (it->type != VC_IT_MOVE || depth != 0)
			continue;
		if (!rp->rec[i].played)
			return fn(user, p, NULL) < 0 ? -1 : 0;
		vc_move m = rp->rec[i].m;
		if ((stop = fn(user, p, &m)) != 0)
			return stop < 0 ? -1 : 0;
		if (vc_pos_make(p, &m) != 0)
			return -1;
	}
	*whole = 1;
	return fn(user, p, NULL) < 0 ? -1 : 0;
}
