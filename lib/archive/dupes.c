/*
 * archive/dupes.c - repeated games (vchess-convert --no-duplicates,
 * --duplicates=FILE): a key for each valid game, and the table of the keys
 * seen, which says of a game whether an earlier one had its key.
 *
 * Model: a key is 128 bits, two 64-bit lanes folded from the same words
 * with different multipliers.  By moves, the words are the variant's name,
 * the Zobrist hash of the start position (the variant's, or the FEN tag's),
 * the number of plies and every move of the main line as the replay
 * resolved it (squares, piece, promotion, flags: the same move from the
 * same position is always the same vc_move); tags, comments, NAGs and
 * variations do not count.  By the final position, the words are the
 * variant's name, the final position's Zobrist hash (side to move, castling,
 * en passant, reserves and check counts included) and every square's piece.
 *
 * The table holds the keys of the first games only: open addressing, a
 * power of two of 16-byte slots at most three quarters full, so memory
 * grows with the distinct games and not with the repeats; for -v, a second
 * array of 16-byte slots remembers each first game's number, file and line.  It is used in the caller's thread, in input order (with -j N
 * the workers make the keys, the ordered stage looks them up), so -j N
 * decides exactly as -j 1.
 */
#include <stdlib.h>
#include <string.h>

#include "archive/convert.h"

/* ---- keys ---- */

#define M1 0x9e3779b97f4a7c15ULL
#define M2 0xc2b2ae3d27d4eb4fULL

static void fold(struct vc_dup_key *k, uint64_t x)
{
	k->a = (k->a ^ x) * M1;
	k->a ^= k->a >> 31;
	k->b = (k->b ^ ((x << 29) | (x >> 35))) * M2;
	k->b ^= k->b >> 29;
}

static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void fold_move(struct vc_dup_key *k, const vc_move *m)
{
	fold(k, (uint64_t)(uint16_t)m->from | (uint64_t)(uint16_t)m->to << 16 |
			(uint64_t)(uint16_t)m->from2 << 32 | (uint64_t)(uint16_t)m->to2 << 48);
	fold(k, (uint64_t)(uint16_t)m->aux | (uint64_t)m->piece << 16 | (uint64_t)m->promo << 24 |
			(uint64_t)m->flags << 32 | (uint64_t)m->extra << 48);
}

void vc_dup_keyer_free(struct vc_dup_keyer *k)
{
	vc_position_free(k->pos);
	memset(k, 0, sizeof *k);
}

/* The Zobrist hash of the game's start: its FEN tag, or the variant's
 * start (kept per variant).  -1 when it cannot be set up. */
static int start_hash(struct vc_dup_keyer *k, const struct vc_variant *v, const char *fen,
		      uint64_t *h)
{
	if (k->pos && k->v != v) {
		vc_position_free(k->pos);
		k->pos = NULL;
	}
	if (!k->pos) {
		k->pos = vc_position_new(v);
		if (!k->pos)
			return -1;
		k->v = v;
		k->have_start = 0;
	}
	if (fen) {
		if (vc_position_set_fen(k->pos, NULL, fen) != VC_OK)
			return -1;
		*h = vc_position_hash(k->pos);
		return 0;
	}
	if (!k->have_start) {
		vc_position_start(k->pos);
		k->start = vc_position_hash(k->pos);
		k->have_start = 1;
	}
	*h = k->start;
	return 0;
}

int vc_dup_key_of(struct vc_dup_keyer *k, enum vc_dup_by by, const struct vc_game *g,
		  const struct vc_replay *rp, const struct vc_validator *val, struct vc_dup_key *key)
{
	const struct vc_variant *v = vc_replay_variant(rp);
	const struct vc_position *fin = vc_validator_final(val);
	if (!v || !fin)
		return -1;
	key->a = M2;
	key->b = M1;
	fold(key, text_hash(vc_variant_name(v)));
	fold(key, (uint64_t)by);
	if (by == VC_DUP_FINAL) {
		fold(key, vc_position_hash(fin));
		int n = vc_variant_files(v) * vc_variant_ranks(v);
		for (int sq = 0; sq < n; sq++) {
			int color = 0, t = vc_position_piece_at(fin, sq, &color);
			fold(key, t < 0 ? 0 : (uint64_t)(t + 1) << 8 | (uint64_t)color);
		}
		return 0;
	}
	uint64_t h;
	if (start_hash(k, v, vc_game_tag(g, "FEN"), &h) < 0)
		return -1;
	fold(key, h);
	size_t n = vc_game_item_count(g);
	long depth = 0, plies = 0;
	for (size_t i = 0; i < n; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		vc_move m;
		if (it->type == VC_IT_VAR_START)
			depth++;
		else if (it->type == VC_IT_VAR_END && depth > 0)
			depth--;
		else if (it->type == VC_IT_MOVE && depth == 0 && vc_replay_move(rp, i, &m))
			fold_move(key, &m), plies++;
	}
	fold(key, (uint64_t)plies);
	return 0;
}

/* ---- the table ---- */

struct key {
	uint64_t a, b; /* both 0: empty */
};

/* The first game with a key (-v only), in the slot of the same index. */
struct first {
	int64_t number;
	uint32_t line, file; /* file: index into names */
};

struct vc_dupes {
	struct key *keys;
	struct first *firsts; /* NULL: not remembered */
	size_t cap, n;        /* cap a power of two */
	int remember;
	char **names;
	size_t nnames;
};

struct vc_dupes *vc_dupes_new(int remember)
{
	struct vc_dupes *d = vc_calloc(1, sizeof(struct vc_dupes));
	if (d)
		d->remember = remember;
	return d;
}

void vc_dupes_free(struct vc_dupes *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
	free(d->keys);
	free(d->firsts);
	free(d);
}

size_t vc_dupes_bytes(const struct vc_dupes *d)
{
	if (!d)
		return 0;
	return d->cap * (sizeof *d->keys + (d->remember ? sizeof *d->firsts : 0));
}

long vc_dupes_count(const struct vc_dupes *d)
{
	return d ? (long)d->n : 0;
}

static size_t find(const struct key *k, size_t cap, uint64_t a, uint64_t b)
{
	size_t i = (size_t)(a ^ (b >> 7)) & (cap - 1);
	while ((k[i].a | k[i].b) && (k[i].a != a || k[i].b != b))
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct vc_dupes *d)
{
	size_t cap = d->cap ? d->cap * 2 : 1024;
	struct key *k = vc_calloc(cap, sizeof *k);
	struct first *f = d->remember ? vc_calloc(cap, sizeof *f) : NULL;
	if (!k || (d->remember && !f)) {
		free(k);
		free(f);
		return -1;
	}
	for (size_t i = 0; i < d->cap; i++) {
		if (!(d->keys[i].a | d->keys[i].b))
			continue;
		size_t at = find(k, cap, d->keys[i].a, d->keys[i].b);
		k[at] = d->keys[i];
		if (f)
			f[at] = d->firsts[i];
	}
	free(d->keys);
	free(d->firsts);
	d->keys = k;
	d->firsts = f;
	d->cap = cap;
	return 0;
}

/* The index of file among the names kept (inputs come one after another:
 * the last one is the one asked for, but for the first game of an input). */
static long name_index(struct vc_dupes *d, const char *file)
{
	if (!file)
		file = "";
	if (d->nnames && !strcmp(d->names[d->nnames - 1], file))
		return (long)d->nnames - 1;
	char **nn = realloc(d->names, (d->nnames + 1) * sizeof *nn);
	if (!nn)
		return -1;
	d->names = nn;
	if (!(nn[d->nnames] = vc_strdup(file)))
		return -1;
	return (long)d->nnames++;
}

int vc_dupes_check(struct vc_dupes *d, const struct vc_dup_key *k, long number, long line,
		   const char *file, struct vc_dup_seen *seen)
{
	uint64_t a = k->a, b = k->b | !(k->a | k->b);
	if ((d->n + 1) * 4 > d->cap * 3 && grow(d) < 0)
		return -1;
	size_t i = find(d->keys, d->cap, a, b);
	if (d->keys[i].a | d->keys[i].b) {
		memset(seen, 0, sizeof *seen);
		if (d->firsts) {
			seen->number = (long)d->firsts[i].number;
			seen->line = (long)d->firsts[i].line;
			seen->file = d->names[d->firsts[i].file];
		}
		return 1;
	}
	if (d->firsts) {
		long f = name_index(d, file);
		if (f < 0)
			return -1;
		d->firsts[i].number = number;
		d->firsts[i].line = line > 0 && line <= (long)UINT32_MAX ? (uint32_t)line : 0;
		d->firsts[i].file = (uint32_t)f;
	}
	d->keys[i].a = a;
	d->keys[i].b = b;
	d->n++;
	return 0;
}

/* ---- the converter's side ---- */

int vc_cv_repeat(struct vc_convert *cv, const struct vc_game *g, const struct vc_dup_key *k)
{
	struct vc_dup_seen seen;
	const char *file = vc_cv_shown(cv, vc_game_file(g));
	int r = vc_dupes_check(cv->dupes, k, vc_game_number(g), vc_game_line(g), file, &seen);
	if (r < 0) {
		vc_emit(cv->ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return -1;
	}
	if (r == 0)
		return 0;
	cv->c.repeats++;
	if (cv->o.verbose) {
		if (seen.line)
			vc_emit(cv->ctx, VC_SEV_NOTE, "duplicate", file, vc_game_line(g), 0, NULL,
				"game %ld repeats game %ld (%s:%ld)", vc_game_number(g), seen.number,
				seen.file, seen.line);
		else
			vc_emit(cv->ctx, VC_SEV_NOTE, "duplicate", file, vc_game_line(g), 0, NULL,
				"game %ld repeats game %ld (%s)", vc_game_number(g), seen.number,
				seen.file);
	}
	return 1;
}
