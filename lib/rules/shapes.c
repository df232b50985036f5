/*
 * rules/shapes.c - the moves of a piece type told by their step alone.
 *
 * Most pieces move alike from every square, the board's edges aside: a
 * rider, a leaper, a bent rider.  For such a type, whether its piece on one
 * square reaches another depends only on the step between them (so many
 * files, so many ranks) and on the squares that step must find empty, the
 * same squares translated.  A shape is one such set of squares; a table
 * indexed by the step lists a type's shapes for it, each with the box that
 * its squares span, which tells whether the shape fits on the board from
 * a given origin.
 *
 * Which pieces of a type reach a square (the question every written move
 * asks) is then a look at each such piece (a handful) instead of a walk of
 * the square's trie, whose branches run until the first piece on each
 * (tens of nodes on a 16 x 16 board, most of them empty squares).
 *
 * A type is taken only when its shapes say exactly what its compiled paths
 * say, from every origin: every (origin, shape) pair the paths make is one
 * that fits, so when the paths make as many distinct pairs as there are
 * fitting ones, the two sets are the same.  Types whose moves depend on the
 * square (zones, a palace, a river, reflection at the edge) fail that count
 * and keep the tries; so do walked types (hops, first moves, long paths),
 * which the tries do not hold either.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

/* The shapes of one kind, side and type while they are gathered: each
 * stored as its step's index, its length n, then n steps (packed as step
 * indexes too), in keys; found again by an open-addressed hash. */
struct gather {
	int16_t *keys;
	size_t nkeys, capkeys;
	int32_t *at; /* shape -> its offset in keys */
	int32_t *last; /* shape -> the last origin (+ 1) that made it */
	size_t nshapes, capshapes;
	int32_t *hash; /* shape + 1, or 0 */
	size_t hcap;
	long pairs; /* distinct (origin, shape) pairs the paths make */
	int oom;
};

static void g_reset(struct gather *g)
{
	g->nkeys = g->nshapes = 0;
	g->pairs = 0;
	if (g->hash)
		memset(g->hash, 0, g->hcap * sizeof *g->hash);
}

static void g_free(struct gather *g)
{
	free(g->keys);
	free(g->at);
	free(g->last);
	free(g->hash);
}

static uint32_t key_hash(const int16_t *k, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (uint16_t)k[i]) * 16777619u;
	return h;
}

static int g_grow_hash(struct gather *g)
{
	size_t nc = g->hcap ? 2 * g->hcap : 1024;
	int32_t *nh = calloc(nc, sizeof *nh);
	if (!nh)
		return -1;
	for (size_t s = 0; s < g->nshapes; s++) {
		const int16_t *k = g->keys + g->at[s];
		size_t h = key_hash(k, 2 + k[1]) & (nc - 1);
		while (nh[h])
			h = (h + 1) & (nc - 1);
		nh[h] = (int32_t)s + 1;
	}
	free(g->hash);
	g->hash = nh;
	g->hcap = nc;
	return 0;
}

/* Notes that origin o makes the shape k (its step, its length, its
 * squares); counts the pair when o had not made it yet. */
static void g_add(struct gather *g, const int16_t *k, int o)
{
	int len = 2 + k[1];
	if (g->oom)
		return;
	if (2 * (g->nshapes + 1) > g->hcap && g_grow_hash(g)) {
		g->oom = 1;
		return;
	}
	size_t h = key_hash(k, len) & (g->hcap - 1);
	while (g->hash[h]) {
		size_t s = (size_t)g->hash[h] - 1;
		if (!memcmp(g->keys + g->at[s], k, (size_t)len * sizeof *k)) {
			if (g->last[s] != o + 1) {
				g->last[s] = o + 1;
				g->pairs++;
			}
			return;
		}
		h = (h + 1) & (g->hcap - 1);
	}
	if (g->nkeys + (size_t)len > g->capkeys) {
		size_t nc = g->capkeys ? 2 * g->capkeys : 4096;
		while (nc < g->nkeys + (size_t)len)
			nc *= 2;
		int16_t *nk = realloc(g->keys, nc * sizeof *nk);
		if (!nk) {
			g->oom = 1;
			return;
		}
		g->keys = nk;
		g->capkeys = nc;
	}
	if (g->nshapes == g->capshapes) {
		size_t nc = g->capshapes ? 2 * g->capshapes : 256;
		int32_t *na = realloc(g->at, nc * sizeof *na), *nl;
		if (na)
			g->at = na;
		nl = na ? realloc(g->last, nc * sizeof *nl) : NULL;
		if (!nl) {
			g->oom = 1;
			return;
		}
		g->last = nl;
		g->capshapes = nc;
	}
	g->at[g->nshapes] = (int32_t)g->nkeys;
	g->last[g->nshapes] = o + 1;
	memcpy(g->keys + g->nkeys, k, (size_t)len * sizeof *k);
	g->nkeys += (size_t)len;
	g->hash[h] = (int32_t)++g->nshapes;
	g->pairs++;
}

/* A step's index and back: files and ranks from -(files - 1) and
 * -(ranks - 1) up. */
static int16_t step_index(const struct vc_variant *v, int df, int dr)
{
	return (int16_t)((dr + v->ranks - 1) * (2 * v->files - 1) + df + v->files - 1);
}

static void step_of(const struct vc_variant *v, int d, int *df, int *dr)
{
	*df = d % (2 * v->files - 1) - (v->files - 1);
	*dr = d / (2 * v->files - 1) - (v->ranks - 1);
}

/* The box a shape spans from its origin, its destination and its squares
 * included: box[0..1] the files' steps, box[2..3] the ranks'. */
static void shape_box(const struct vc_variant *v, const int16_t *k, int box[4])
{
	int df, dr;
	step_of(v, k[0], &df, &dr);
	box[0] = df < 0 ? df : 0;
	box[1] = df > 0 ? df : 0;
	box[2] = dr < 0 ? dr : 0;
	box[3] = dr > 0 ? dr : 0;
	for (int i = 0; i < k[1]; i++) {
		step_of(v, k[2 + i], &df, &dr);
		box[0] = df < box[0] ? df : box[0];
		box[1] = df > box[1] ? df : box[1];
		box[2] = dr < box[2] ? dr : box[2];
		box[3] = dr > box[3] ? dr : box[3];
	}
}

/* The shapes every path of side s's type t makes, from every origin, into
 * g[0] (capture) and g[1] (move): a destination's squares to be empty are
 * those before it on its path but the origin and itself, each once, as
 * the tries take them (variant.c's ins_apply). */
static void gather_type(const struct vc_variant *v, int s, int t, struct gather g[2])
{
	static const int kmode[2] = { VC_MODE_CAPTURE, VC_MODE_MOVE };
	uint16_t mark[VC_MAXSQ] = { 0 }, stamp = 0;
	int16_t key[VC_TRIE_MAXLEN + 2];
	for (int o = 0; o < v->nsq; o++) {
		int32_t off = v->pathoff[s][t] ? v->pathoff[s][t][o] : 0;
		if (!off)
			continue;
		const int16_t *q = v->paths + off + 1;
		int fo = v->sqfile[o], ro = v->sqrank[o];
		for (int i = 0; i < v->paths[off]; i++, q += 2 + q[0]) {
			int len = q[0], modes = q[1];
			const int16_t *sqs = q + 2;
			if ((modes & VC_MODE_HOP) || len > VC_TRIE_MAXLEN)
				continue;
			for (int j = 0; j < len; j++) {
				int dest = sqs[j] & VC_PS_SQMASK, n = 0;
				if ((sqs[j] & VC_PS_TRANSIT) || !(modes & (VC_MODE_CAPTURE | VC_MODE_MOVE)))
					continue;
				if (++stamp == 0) {
					memset(mark, 0, sizeof mark);
					stamp = 1;
				}
				mark[o] = mark[dest] = stamp;
				for (int b = j - 1; b >= 0; b--) {
					int e = sqs[b] & VC_PS_SQMASK;
					if (mark[e] != stamp) {
						mark[e] = stamp;
						key[2 + n++] = step_index(v, v->sqfile[e] - fo, v->sqrank[e] - ro);
					}
				}
				key[0] = step_index(v, v->sqfile[dest] - fo, v->sqrank[dest] - ro);
				key[1] = (int16_t)n;
				for (int k = 0; k < 2; k++)
					if (modes & kmode[k])
						g_add(&g[k], key, o);
			}
		}
	}
}

/* The table of what g gathered, appended to the pool (*pool, *npool,
 * *cap): the starts of each step's shapes, ndelta + 1 of them, or NULL
 * when the shapes do not say what the paths say (or memory ran out). */
static int32_t *emit(const struct vc_variant *v, const struct gather *g, int16_t **pool,
		     size_t *npool, size_t *cap)
{
	size_t nd = (size_t)(2 * v->files - 1) * (size_t)(2 * v->ranks - 1);
	long fitting = 0;
	for (size_t s = 0; s < g->nshapes; s++) {
		int box[4];
		shape_box(v, g->keys + g->at[s], box);
		long nf = v->files - (box[1] - box[0]), nr = v->ranks - (box[3] - box[2]);
		fitting += nf > 0 && nr > 0 ? nf * nr : 0;
	}
	if (g->oom || g->nshapes == 0 || fitting != g->pairs)
		return NULL;
	int32_t *run = calloc(nd + 1, sizeof *run);
	size_t need = *npool;
	if (!run)
		return NULL;
	for (size_t s = 0; s < g->nshapes; s++) {
		const int16_t *k = g->keys + g->at[s];
		run[k[0] + 1] += 5 + k[1];
		need += 5 + (size_t)k[1];
	}
	if (need > INT32_MAX) {
		free(run);
		return NULL;
	}
	if (need > *cap) {
		size_t nc = *cap ? *cap : 4096;
		while (nc < need)
			nc *= 2;
		int16_t *np = realloc(*pool, nc * sizeof *np);
		if (!np) {
			free(run);
			return NULL;
		}
		*pool = np;
		*cap = nc;
	}
	run[0] = (int32_t)*npool;
	for (size_t d = 0; d < nd; d++)
		run[d + 1] += run[d];
	/* each step's shapes in the order met; run[d] walks to d's end, and
	 * is set back after */
	for (size_t s = 0; s < g->nshapes; s++) {
		const int16_t *k = g->keys + g->at[s];
		int16_t *out = *pool + run[k[0]];
		int box[4];
		shape_box(v, k, box);
		out[0] = k[1];
		for (int b = 0; b < 4; b++)
			out[1 + b] = (int16_t)box[b];
		for (int i = 0; i < k[1]; i++) {
			int df, dr;
			step_of(v, k[2 + i], &df, &dr);
			out[5 + i] = (int16_t)(dr * v->files + df);
		}
		run[k[0]] += 5 + k[1];
	}
	memmove(run + 1, run, nd * sizeof *run);
	run[0] = (int32_t)*npool;
	*npool = need;
	return run;
}

struct vc_shapes *vc_shapes_build(const struct vc_variant *v)
{
	struct vc_shapes *sh = calloc(1, sizeof *sh);
	struct gather g[2];
	size_t npool = 0, cap = 0;
	int any = 0;
	if (!sh)
		return NULL;
	memset(g, 0, sizeof g);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			if (v->walk_types >> t & 1)
				continue;
			g_reset(&g[0]);
			g_reset(&g[1]);
			gather_type(v, s, t, g);
			for (int k = 0; k < 2; k++) {
				sh->run[k][s][t] = emit(v, &g[k], &sh->pool, &npool, &cap);
				any |= sh->run[k][s][t] != NULL;
			}
		}
	g_free(&g[0]);
	g_free(&g[1]);
	if (!any) {
		vc_shapes_free(sh);
		return NULL;
	}
	return sh;
}

void vc_shapes_free(struct vc_shapes *sh)
{
	if (!sh)
		return;
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++)
			for (int t = 0; t < VC_MAXT; t++)
				free(sh->run[k][s][t]);
	free(sh->pool);
	free(sh);
}

/* Does the piece on from (file ff, rank fr) reach the square d steps away
 * by one of run's shapes: one that fits on the board from there, with its
 * squares on the way empty? */
static inline int reaches(const struct vc_position *p, const int16_t *pool, const int32_t *run,
			  int from, int ff, int fr, int d)
{
	const struct vc_variant *v = p->v;
	for (int32_t i = run[d], end = run[d + 1]; i < end; i += 5 + pool[i]) {
		const int16_t *s = pool + i;
		int hit = ff + s[1] >= 0 && ff + s[2] < v->files && fr + s[3] >= 0 &&
			  fr + s[4] < v->ranks;
		for (int e = 0; e < s[0] && hit; e++)
			hit = !p->board[from + s[5 + e]];
		if (hit)
			return 1;
	}
	return 0;
}

/* the index of the step from (ff, fr) to (tf, tr) in a run */
static inline int step_at(const struct vc_variant *v, int ff, int fr, int tf, int tr)
{
	return (tr - fr + v->ranks - 1) * (2 * v->files - 1) + tf - ff + v->files - 1;
}

int vc_shape_reaches(const struct vc_position *p, const int32_t *run, int from, int target)
{
	const struct vc_variant *v = p->v;
	int ff = v->sqfile[from], fr = v->sqrank[from];
	return reaches(p, v->shapes->pool, run, from, ff, fr,
		       step_at(v, ff, fr, v->sqfile[target], v->sqrank[target]));
}

int vc_shape_origins(const struct vc_position *p, const int32_t *run, int side, int type,
		     int target, int dead, int16_t *out, int cap)
{
	const struct vc_variant *v = p->v;
	const int16_t *pool = p->v->shapes->pool;
	uint8_t want = vc_code(type, side);
	int n = 0, tf = v->sqfile[target], tr = v->sqrank[target];
	for (int j = 0; j < p->npl[side] && n < cap; j++) {
		int from = p->plist[side][j];
		if (p->board[from] != want || (dead && (p->sqf[from] & VC_SQF_DEAD)))
			continue;
		int ff = v->sqfile[from], fr = v->sqrank[from];
		if (!reaches(p, pool, run, from, ff, fr, step_at(v, ff, fr, tf, tr)))
			continue;
		/* in square order, as vc_reach_origins promises */
		int at = n++;
		while (at > 0 && out[at - 1] > from) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = (int16_t)from;
	}
	return n;
}
