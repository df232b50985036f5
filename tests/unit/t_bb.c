/*
 * t_bb.c - the bitboard core (lib/rules/bitboard.c) against the general
 * generator (lib/rules/movegen.c): for every built-in variant whose tables
 * the core builds, positions reached by seeded random play from its setup
 * are counted both ways (vc_perft_ex with and without VC_PERFT_GENERAL) to
 * depth 3, some to depth 4, and hand-made chess positions that test
 * legality at its edges (pins, double check, en passant uncovering a check
 * along the rank, castling through attacks, promotion with capture).  The
 * general generator is itself checked against a naive one and published
 * counts (t_diff.c, tests/perft).  FULL=1 plays more and counts deeper.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int full(void)
{
	const char *f = getenv("FULL");
	return f && *f && strcmp(f, "0") != 0;
}

/* a bitboard core's perft: vc_bb_perft or vc_bbw_perft */
typedef int bb_perft_fn(const struct vc_position *p, int depth, uint64_t *count);

/* Both counts of p to depth 1..depth, by the core's perft bbp and the
 * general way; 0 when they agree. */
static int compare(const char *file, int line, const char *variant, struct vc_position *p,
		   int depth, const char *how, bb_perft_fn *bbp)
{
	char fen[512];
	for (int d = 1; d <= depth; d++) {
		uint64_t bb = 0, gen = vc_perft_ex(p, d, VC_PERFT_GENERAL);
		if (!bbp(p, d, &bb)) {
			vc_position_fen(p, fen, sizeof fen);
			VT_FAIL_AT(file, line, "%s %s: %s: the bitboard core does not count it",
				   variant, how, fen);
			return 1;
		}
		if (bb != gen) {
			vc_position_fen(p, fen, sizeof fen);
			VT_FAIL_AT(file, line, "%s %s: %s: perft %d: bitboards %llu, general %llu",
				   variant, how, fen, d, (unsigned long long)bb,
				   (unsigned long long)gen);
			return 1;
		}
	}
	return 0;
}

/* vc_perft_ex's own way against the general one alone, p to depth
 * 1..depth: 0 when they agree. */
static int compare_ways(const char *variant, struct vc_position *p, int depth)
{
	char fen[512];
	for (int d = 1; d <= depth; d++) {
		uint64_t a = vc_perft_ex(p, d, 0), g = vc_perft_ex(p, d, VC_PERFT_GENERAL);
		if (a != g) {
			vc_position_fen(p, fen, sizeof fen);
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: perft %d: %llu, general %llu", variant,
				   fen, d, (unsigned long long)a, (unsigned long long)g);
			return 1;
		}
	}
	return 0;
}

/* Random games from v's setup: every 'every' plies a count to depth, one
 * game in four to depth + 1 once, by the core's perft bbp. */
static void random_games(const struct vc_variant *v, uint64_t seed, int games, int plies, int every,
			 int depth, bb_perft_fn *bbp)
{
	vc_move *ms = malloc(VC_MAX_MOVES * sizeof *ms);
	struct vc_position *p = vc_position_new(v);
	VT_CHECK(ms && p);
	for (int g = 0; g < games && ms && p; g++) {
		vc_position_start(p);
		for (int ply = 1; ply <= plies; ply++) {
			int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
			if (n == 0)
				break;
			vc_position_make(p, &ms[next_rand(&seed) % (uint64_t)n]);
			if (ply % every)
				continue;
			int deep = g % 4 == 0 && ply == every * 2;
			if (compare(__FILE__, __LINE__, v->name, p, depth + deep, "random", bbp))
				goto done;
		}
	}
done:
	vc_position_free(p);
	free(ms);
}

VT_TEST(every_eligible_variant)
{
	struct vc_ctx *ctx = vc_ctx_new();
	int n = vc_builtin_count(), eligible = 0, chess = 0, capablanca = 0, lines = 0, nlines = 0;
	char names[2048] = "";
	for (int i = 0; i < n; i++) {
		struct vc_variant *v = vc_variant_load(ctx, vc_builtin_name(i));
		VT_CHECK(v != NULL);
		int wide = v && vc_bbw_serves_perft(v->bbw);
		if (!v || (!vc_bb_serves_perft(v->bb) && !wide)) {
			vc_variant_free(v);
			continue;
		}
		eligible++;
		chess |= !strcmp(v->name, "chess");
		int all, tabled = vc_bb_lines(v->bb, &all);
		lines += tabled;
		nlines += all;
		if (!strcmp(v->name, "chess"))
			VT_CHECK(tabled == 4 && all == 4); /* ranks, files, both diagonals */
		capablanca |= wide && !strcmp(v->name, "capablanca");
		size_t k = strlen(names);
		snprintf(names + k, sizeof names - k, " %s%s", v->name, wide ? " (128)" : "");
		bb_perft_fn *bbp = wide ? vc_bbw_perft : vc_bb_perft;
		if (full())
			random_games(v, 1000u + (unsigned)i, 12, 160, 6, 3, bbp);
		else
			random_games(v, 1000u + (unsigned)i, 2, 120, 20, 3, bbp);
		vc_variant_free(v);
	}
	printf("# t_bb: %d of %d built-in variants fit the bitboard core:%s\n", eligible, n, names);
	printf("# t_bb: %d of their %d lines of 64-bit tables are looked up\n", lines, nlines);
	VT_CHECK(lines > 0 && lines == nlines);
	VT_CHECK(chess);
	VT_CHECK(capablanca); /* 80 squares: over 128-bit sets */
	vc_ctx_free(ctx);
}

/* The 128-bit build of the core (bitboard_wide.c) on the boards the
 * 64-bit one takes: built for each such built-in beside its own tables,
 * it must count as they do, from the positions of seeded random games,
 * and give the same mate test and number of legal moves on the board. */
VT_TEST(wide_core_on_small_boards)
{
	struct vc_ctx *ctx = vc_ctx_new();
	int n = vc_builtin_count(), used = 0;
	vc_move *ms = malloc(VC_MAX_MOVES * sizeof *ms);
	VT_CHECK(ms != NULL);
	for (int i = 0; i < n && ms; i++) {
		struct vc_variant *v = vc_variant_load(ctx, vc_builtin_name(i));
		if (!v || (!v->bbm && !v->bb) || v->bbw) {
			vc_variant_free(v);
			continue;
		}
		v->bbw = vc_bbw_build(v); /* freed with v */
		VT_CHECK(v->bbw || !vc_bb_serves_perft(v->bb));
		struct vc_position *p = v->bbw ? vc_position_new(v) : NULL;
		uint64_t seed = 3000u + (unsigned)i;
		used += p != NULL;
		for (int g = 0; p && g < (full() ? 8 : 2); g++) {
			vc_position_start(p);
			for (int ply = 1; ply <= 100; ply++) {
				int nm = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
				if (nm == 0 || vc_position_end(p, NULL))
					break;
				vc_position_make(p, &ms[next_rand(&seed) % (uint64_t)nm]);
				if (ply % 10)
					continue;
				uint64_t a = 0, b = 0;
				int pa = vc_bb_perft(p, 3, &a), pb = vc_bbw_perft(p, 3, &b);
				int ha = vc_bb_has_legal(p), hb = vc_bbw_has_legal(p);
				int ca = vc_bb_count_board(p), cb = vc_bbw_count_board(p);
				if (pa != pb || a != b || ha != hb || ca != cb) {
					char fen[512];
					vc_position_fen(p, fen, sizeof fen);
					VT_FAIL_AT(__FILE__, __LINE__,
						   "%s: %s: 64 and 128 bits: perft 3 %d:%llu and %d:%llu, mate test %d and %d, board moves %d and %d",
						   v->name, fen, pa, (unsigned long long)a, pb,
						   (unsigned long long)b, ha, hb, ca, cb);
					g = 99;
					break;
				}
			}
		}
		vc_position_free(p);
		vc_variant_free(v);
	}
	printf("# t_bb: %d built-ins counted over 128-bit sets too\n", used);
	VT_CHECK(used > 0); /* each that perft takes was checked above */
	free(ms);
	vc_ctx_free(ctx);
}

/* Variants with drops whose moves on the board fit the core: perft counts
 * over it all the way where the hand fits it too (crazyhouse, dobutsu),
 * else its last ply counts the board's moves there and the drops in
 * movegen.c (the shogis).  Seeded random games (pieces come into the
 * hands as they go) are counted both ways. */
VT_TEST(drops_at_the_last_ply)
{
	struct vc_ctx *ctx = vc_ctx_new();
	int n = vc_builtin_count(), used = 0;
	char names[1024] = "";
	vc_move *ms = malloc(VC_MAX_MOVES * sizeof *ms);
	VT_CHECK(ms != NULL);
	for (int i = 0; i < n && ms; i++) {
		struct vc_variant *v = vc_variant_load(ctx, vc_builtin_name(i));
		struct vc_position *p = v && v->nreserve ? vc_position_new(v) : NULL;
		if (p && (vc_bb_count_board(p) >= 0 || vc_bbw_count_board(p) >= 0)) {
			used++;
			size_t k = strlen(names);
			snprintf(names + k, sizeof names - k, " %s", v->name);
			uint64_t seed = 2000u + (unsigned)i;
			for (int g = 0; g < (full() ? 12 : 3); g++) {
				vc_position_start(p);
				for (int ply = 1; ply <= 80; ply++) {
					int nm = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
					if (nm == 0)
						break;
					vc_position_make(p, &ms[next_rand(&seed) % (uint64_t)nm]);
					if (ply % 10 == 0 && compare_ways(v->name, p, 2 + full()))
						break;
				}
			}
		}
		vc_position_free(p);
		vc_variant_free(v);
	}
	printf("# t_bb: %d variants with drops count over the core, their last ply at least:%s\n",
	       used, names);
	VT_CHECK(used > 0);
	free(ms);
	vc_ctx_free(ctx);
}

/* ---- the mirror: attack tests and origins against the tries ---- */

static int cmp16(const void *a, const void *b)
{
	return *(const int16_t *)a - *(const int16_t *)b;
}

/* The origins of side's pieces of mask reaching to, in square order. */
static int origins(struct vc_position *p, int side, uint64_t mask, int to, int cap, int16_t *o)
{
	int n = vc_reach_origins(p, side, mask, to, cap, o, 64);
	qsort(o, (size_t)n, sizeof *o, cmp16);
	return n;
}

/* p (the mirror) and q (the tries alone), one position: 0 when every
 * attack test, origin, move's legality, the number of legal moves and the
 * mate test agree. */
static int same_answers(const char *name, struct vc_position *p, struct vc_position *q,
			vc_move *ms)
{
	const struct vc_variant *v = p->v;
	char fen[512];
	int bad = 0;
	for (int sq = 0; sq < v->nsq && !bad; sq++)
		for (int by = 0; by < 2 && !bad; by++)
			if (vc_attacked(p, sq, by) != vc_attacked(q, sq, by)) {
				vc_position_fen(p, fen, sizeof fen);
				VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: square %d attacked by %d: the mirror says %d", name,
					fen, sq, by, vc_attacked(p, sq, by));
				bad = 1;
			}
	for (int to = 0; to < v->nsq && !bad; to++)
		for (int t = -1; t < v->ntypes && !bad; t++)
			for (int cap = 0; cap < 2 && !bad; cap++) {
				uint64_t mask = t < 0 ? ~0ULL : v->san_group[t];
				int16_t a[64], b[64];
				int na = origins(p, p->side, mask, to, cap, a);
				int nb = origins(q, p->side, mask, to, cap, b);
				if (na != nb || memcmp(a, b, (size_t)na * sizeof *a)) {
					vc_position_fen(p, fen, sizeof fen);
					VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: origins of type %d to %d (capture %d): %d and %d",
						name, fen, t, to, cap, na, nb);
					bad = 1;
				}
			}
	int n = vc_gen_pseudo(q, ms);
	for (int i = 0; i < n && !bad; i++)
		if (vc_move_legal(p, &ms[i]) != vc_move_legal(q, &ms[i]) ||
		    (!vc_in_check(q, q->side) &&
		     vc_move_exposes(p, &ms[i]) != vc_move_exposes(q, &ms[i]))) {
			vc_position_fen(p, fen, sizeof fen);
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: move %d-%d: legality differs", name, fen, ms[i].from, ms[i].to);
			bad = 1;
		}
	int lp = vc_position_legal_moves(p, ms, VC_MAX_MOVES * 4);
	if (!bad && lp != vc_position_legal_moves(q, ms, VC_MAX_MOVES * 4)) {
		vc_position_fen(p, fen, sizeof fen);
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: %d legal moves with the mirror, %d without",
			   name, fen, lp, vc_position_legal_moves(q, ms, VC_MAX_MOVES * 4));
		bad = 1;
	}
	vc_move cm;
	int hc = vc_bb_has_capture(p); /* where the game goes on */
	if (!bad && hc >= 0 && !(v->has_end && vc_end_by_rule(q, NULL, NULL)) &&
	    hc != (vc_legal_capture(q, &cm) != 0)) {
		vc_position_fen(p, fen, sizeof fen);
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: a capture: the mirror says %d", name, fen, hc);
		bad = 1;
	}
	if (!bad && vc_has_legal_move(p) != vc_has_legal_move(q)) {
		vc_position_fen(p, fen, sizeof fen);
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: the mate test differs", name, fen);
		bad = 1;
	}
	return bad;
}

/* p and q, one position: 0 when their answers agree (same_answers...) */
typedef int answers_fn(const char *name, struct vc_position *p, struct vc_position *q,
		       vc_move *ms);

/* Random games of v (bitboards) and g (the same variant without them) in
 * step, same() asked at every position; after each move the check test
 * too. */
static void lockstep_games(const struct vc_variant *v, const struct vc_variant *g, uint64_t seed,
			   int games, int plies, answers_fn *same)
{
	vc_move *ms = malloc(VC_MAX_MOVES * 4 * sizeof *ms);
	struct vc_position *p = vc_position_new(v), *q = vc_position_new(g);
	VT_CHECK(ms && p && q);
	for (int k = 0; k < games && ms && p && q; k++) {
		vc_position_start(p);
		vc_position_start(q);
		for (int ply = 0; ply < plies; ply++) {
			if (same(v->name, p, q, ms))
				goto done;
			int n = vc_position_legal_moves(q, ms, VC_MAX_MOVES);
			if (n == 0 || vc_position_end(q, NULL))
				break;
			vc_move m = ms[next_rand(&seed) % (uint64_t)n];
			vc_position_make(p, &m);
			vc_position_make(q, &m);
			if (vc_check_after(p, &m) != vc_check_after(q, &m)) {
				VT_FAIL_AT(__FILE__, __LINE__, "%s: the check after move %d-%d differs", v->name, m.from, m.to);
				goto done;
			}
		}
	}
done:
	vc_position_free(p);
	vc_position_free(q);
	free(ms);
}

/* Every built-in that takes(), with and without bitboards, in
 * lockstep_games (seeds from seed0); how many it took. */
static int lockstep_builtins(int (*takes)(const struct vc_variant *v), answers_fn *same,
			     unsigned seed0, int games, int plies)
{
	struct vc_ctx *ctx = vc_ctx_new(), *plain = vc_ctx_new();
	vc_ctx_set_bitboards(plain, 0);
	int n = vc_builtin_count(), used = 0;
	for (int i = 0; i < n; i++) {
		struct vc_variant *v = vc_variant_load(ctx, vc_builtin_name(i));
		struct vc_variant *g = vc_variant_load(plain, vc_builtin_name(i));
		VT_CHECK(v && g && !g->bbm && !g->bb && !g->bbw);
		if (v && g && takes(v)) {
			used++;
			lockstep_games(v, g, seed0 + (unsigned)i, games, plies, same);
		}
		vc_variant_free(v);
		vc_variant_free(g);
	}
	vc_ctx_free(ctx);
	vc_ctx_free(plain);
	return used;
}

static int keeps_mirror(const struct vc_variant *v)
{
	return v->bbm != NULL;
}

VT_TEST(mirror_against_tries)
{
	int with = lockstep_builtins(keeps_mirror, same_answers, 77, full() ? 8 : 2,
				     full() ? 200 : 80);
	printf("# t_bb: %d of %d built-in variants keep a mirror\n", with, vc_builtin_count());
	VT_CHECK(with > 0);
	/* SICO's keeps one with a type left out that takes (the bounceshop,
	 * on the board from the start in variation 15, so its random games
	 * above tested both ways) and one that does not (the Kirby) */
	struct vc_variant *s = vc_variant_load(NULL, "sico-15");
	VT_CHECK(s && s->bbm && s->bboutcap && (s->bbout & ~s->bboutcap));
	vc_variant_free(s);
}

/* The mate test and the number of moves on the board by the tables of p
 * where no mirror is kept, against the general way's legal moves in q,
 * where the game goes on (the drops are the caller's, so that number only
 * without a hand). */
static int same_mate_test(const char *name, struct vc_position *p, struct vc_position *q,
			  vc_move *ms)
{
	const struct vc_variant *v = p->v;
	int nm = vc_position_legal_moves(q, ms, VC_MAX_MOVES * 4);
	int h = v->bbw ? vc_bbw_has_legal(p) : vc_bb_has_legal(p);
	int c = v->bbw ? vc_bbw_count_board(p) : vc_bb_count_board(p);
	if ((v->has_end && vc_end_by_rule(q, NULL, NULL)) ||
	    ((h < 0 || h == (nm > 0)) && (c < 0 || v->nreserve || c == nm)))
		return 0;
	char fen[512];
	vc_position_fen(q, fen, sizeof fen);
	VT_FAIL_AT(__FILE__, __LINE__,
		   "%s: %s: no mirror: mate test %d, %d moves on the board; %d legal moves", name,
		   fen, h, c, nm);
	return 1;
}

/* tables no mirror reads: over 128-bit sets (65 to 128 squares), or with
 * first-move leaps (cambodian) */
static int tables_without_mirror(const struct vc_variant *v)
{
	return v->bbw || (v->bb && !v->bbm);
}

/* The mate test and the moves on the board where no mirror is kept,
 * against the general way in seeded random games.  Where a mirror is kept,
 * mirror_against_tries tests them. */
VT_TEST(mate_test_without_mirror)
{
	int used = lockstep_builtins(tables_without_mirror, same_mate_test, 4000,
				     full() ? 8 : 3, 150);
	printf("# t_bb: %d built-ins take the mate test over tables without a mirror\n", used);
	VT_CHECK(used >= 8);
}

/* p (shapes) and q (the tries alone), one position: 0 when, for every
 * type with shapes, side, kind and target, the pieces they find reaching
 * it are those the tries find, and each piece's own test agrees. */
static int same_shape_origins(const char *name, struct vc_position *p, struct vc_position *q,
			      vc_move *ms)
{
	const struct vc_variant *v = p->v;
	(void)ms;
	for (int t = 0; t < v->ntypes; t++)
		for (int k = 0; k < 2; k++)
			for (int side = 0; side < 2; side++) {
				const int32_t *run = v->shapes->run[k][side][t];
				for (int to = 0; run && to < v->nsq; to++) {
					int16_t a[64], b[64];
					int na = vc_shape_origins(p, run, side, t, to, 1, a, 64);
					int nb = origins(q, side, 1ULL << t, to, !k, b);
					if (na != nb || memcmp(a, b, (size_t)na * sizeof *a)) {
						char fen[512];
						vc_position_fen(p, fen, sizeof fen);
						VT_FAIL_AT(__FILE__, __LINE__,
							   "%s: %s: %s's %ss reaching %d (kind %d): shapes %d, tries %d",
							   name, fen, side ? "black" : "white", v->types[t].name, to,
							   k, na, nb);
						return 1;
					}
					/* and each piece alone, as the check after a move asks */
					for (int j = 0; j < p->npl[side]; j++) {
						int from = p->plist[side][j], in = 0;
						if (p->board[from] != vc_code(t, side) ||
						    (p->sqf[from] & VC_SQF_DEAD))
							continue;
						for (int i = 0; i < nb; i++)
							in |= b[i] == from;
						if (vc_shape_reaches(p, run, from, to) != in) {
							VT_FAIL_AT(__FILE__, __LINE__,
								   "%s: the %s on %d reaching %d (kind %d): shapes say %d",
								   name, v->types[t].name, from, to, k, !in);
							return 1;
						}
					}
				}
			}
	return 0;
}

/* the type of v named so (0 and a failure when there is none) */
static int named(const struct vc_variant *v, const char *name)
{
	int t = vc_variant_piece_find(v, name);
	VT_CHECK(t >= 0);
	return t < 0 ? 0 : t;
}

static int has_shapes(const struct vc_variant *v)
{
	return v->shapes != NULL;
}

/* Shapes against the tries in seeded random games of every built-in that
 * has them (the check after each move too, which takes them); and which
 * types have them: those whose moves are the same from every square. */
VT_TEST(shapes_against_tries)
{
	int used = lockstep_builtins(has_shapes, same_shape_origins, 900, full() ? 6 : 2,
				     full() ? 200 : 60);
	printf("# t_bb: %d of %d built-in variants have shapes\n", used, vc_builtin_count());
	VT_CHECK(used > 0);
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *x = vc_variant_load(ctx, "xiangqi"), *io = vc_variant_load(ctx, "io");
	VT_CHECK(x && io && x->shapes && io->shapes);
	for (int k = 0; x && io && x->shapes && io->shapes && k < 2; k++)
		for (int s = 0; s < 2; s++) {
			/* the palace, the river: the advisor's, the elephant's and
			 * the soldier's moves depend on the square; the chariot's
			 * and the horse's do not (the horse's leg is a square to
			 * be empty); Io Chess's bent and crooked riders have them */
			const char *no[] = { "king", "advisor", "elephant", "soldier" };
			const char *yes[] = { "chariot", "horse" };
			for (size_t i = 0; i < 4; i++)
				VT_CHECK(!x->shapes->run[k][s][named(x, no[i])]);
			for (size_t i = 0; i < 2; i++)
				VT_CHECK(x->shapes->run[k][s][named(x, yes[i])] != NULL);
			VT_CHECK(io->shapes->run[k][s][named(io, "griffin")] != NULL);
			VT_CHECK(io->shapes->run[k][s][named(io, "crooked-knight")] != NULL);
		}
	vc_variant_free(x);
	vc_variant_free(io);
	/* without bitboards, none */
	vc_ctx_set_bitboards(ctx, 0);
	io = vc_variant_load(ctx, "io");
	VT_CHECK(io && !io->shapes);
	vc_variant_free(io);
	vc_ctx_free(ctx);
}

/* The validator loads its variants by its context's setting: without
 * bitboards (vchess-validate --no-bitboards) they keep no mirror. */
VT_TEST(validator_follows_the_context)
{
	for (int on = 0; on < 2; on++) {
		struct vc_ctx *ctx = vc_ctx_new();
		vc_ctx_set_bitboards(ctx, on);
		struct vc_validate_opts o = { 0 };
		struct vc_validator *val = vc_validator_new(ctx, &o);
		const char *names[] = { "chess", "sico-15" };
		for (size_t i = 0; i < 2; i++) {
			const struct vc_variant *v = vc_validator_get_variant(val, names[i]);
			VT_CHECK(v && (v->bbm != NULL) == on);
		}
		vc_validator_free(val);
		vc_ctx_free(ctx);
	}
}

/* the made variants' king and rook */
#define MADE_KING "  - {name: king, symbol: K, royal: true, moves: [leap: [1, 0], leap: [1, 1]]}\n"
#define MADE_ROOK "  - {name: rook, symbol: R, moves: [ride: [1, 0]]}\n"

/* pieces of the made variants below: a hopper (moves as a knight, takes
 * as a rook) and a pawn that steps two or three squares at first (two
 * en-passant targets); each variant gives the pawn its promotion */
#define MADE_HOPPER_AND_PAWN \
	"  - name: hopper\n" \
	"    symbol: H\n" \
	"    moves: [{leap: [1, 2], mode: move}, {ride: [1, 0], mode: capture}]\n" \
	"  - name: pawn\n" \
	"    symbol: P\n" \
	"    pawn: true\n" \
	"    moves:\n" \
	"      - {leap: [0, 1], dirs: forward, mode: move}\n" \
	"      - {ride: [0, 1], dirs: forward, mode: move, range: 3, min: 2, from-rank: 2,\n" \
	"         en-passant: true}\n" \
	"      - {leap: [1, 1], dirs: forward, mode: capture, en-passant: true}\n"

/* A variant made for the shapes no built-in that fits has: a nightrider
 * (a ride whose step is no compass direction), a lance (one direction
 * alone), a piece that moves as a knight and takes as a rook, pawns that
 * step three squares at first (two en-passant targets) and may promote or
 * not on the sixth rank, once to a nightrider (a limit), castling of the
 * relative style, through check. */
static const char shapes_yaml[] =
	"name: shapes\n"
	"board: {files: 8, ranks: 8}\n"
	"pieces:\n"
	MADE_KING
	"  - name: nightrider\n"
	"    symbol: N\n"
	"    promotion-limit: 1\n"
	"    moves: [ride: [1, 2]]\n"
	"  - name: lance\n"
	"    symbol: L\n"
	"    moves: [{ride: [0, 1], dirs: forward}]\n"
	"  - name: rook\n"
	"    symbol: R\n"
	"    moves: [ride: [1, 0]]\n"
	MADE_HOPPER_AND_PAWN
	"    promotion: {ranks: [6, 7, 8], choices: [N, L, H], mandatory: [8]}\n"
	"setup: \"rnlhkhlr/pppppppp/8/8/8/8/PPPPPPPP/RNLHKHLR w KQkq - 0 1\"\n"
	"castling:\n"
	"  style: relative\n"
	"  king: e1\n"
	"  through-check: true\n"
	"  sides:\n"
	"    - {right: K, partner: h1}\n"
	"    - {right: Q, partner: a1, long: true}\n"
	"rules: {en-passant: true}\n";

/* a variant made for a test from its YAML, or NULL (the reason printed) */
static struct vc_variant *made(struct vc_ctx *ctx, const char *name, const char *yaml)
{
	struct vc_variant *v = vc_variant_load_mem(ctx, name, yaml, strlen(yaml));
	if (!v)
		printf("# t_bb: %s\n", vc_ctx_last_message(ctx));
	return v;
}

/* Promotion counted from the zone (as in shogi: a move that starts there
 * may promote wherever it goes) by a piece counted set-wise at the last
 * ply: the retreater, which starts in its zone, steps back out of it and
 * may promote doing so. */
static const char zone_yaml[] =
	"name: zones\n"
	"board: {files: 6, ranks: 8}\n"
	"pieces:\n"
	MADE_KING
	"  - name: retreater\n"
	"    symbol: B\n"
	"    moves: [{leap: [0, 1], dirs: backward}, {leap: [1, 1], dirs: forward, mode: capture}]\n"
	"    promotion: {ranks: [7, 8], from-zone: true, choices: [+B]}\n"
	"  - {name: general, symbol: +B, letter: G, moves: [leap: [1, 0]]}\n"
	"setup: \"k5/2BBBB/6/6/6/6/bbbb2/5K w - - 0 1\"\n";

/* A made variant counted by the core's perft bbp (which must take it)
 * and the general way: seeded random games (a count every 'every' plies),
 * then the positions fens[] to depth 4. */
static void made_games(const char *name, const char *yaml, bb_perft_fn *bbp, uint64_t seed,
		       int plies, int every, const char *const *fens, size_t nfens)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = made(ctx, name, yaml);
	int fits = v && (bbp == vc_bbw_perft ? vc_bbw_serves_perft(v->bbw)
					     : vc_bb_serves_perft(v->bb));
	VT_CHECK(fits);
	if (fits)
		random_games(v, seed, full() ? 24 : 8, plies, every, 3, bbp);
	struct vc_position *p = fits ? vc_position_new(v) : NULL;
	for (size_t i = 0; p && i < nfens; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, fens[i]) == VC_OK);
		compare(__FILE__, __LINE__, name, p, 4, "edge", bbp);
	}
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(made_zones)
{
	static const char *const fens[] = { "k5/2BBBB/6/6/6/6/bbbb2/5K w - - 0 1" }; /* the start */
	made_games("zones", zone_yaml, vc_bb_perft, 80, 60, 4, fens, 1);
}

/* A board much taller than wide: its files' squares lie three apart,
 * seven between the ends, too close for the look-up's multiplier, so
 * those lines keep the obstruction difference beside the others' tables
 * (ride_reach takes both kinds in one call for the queen's and rook's). */
static const char tall_yaml[] =
	"name: tall\n"
	"board: {files: 3, ranks: 9}\n"
	"pieces:\n"
	MADE_KING
	"  - {name: queen, symbol: Q, moves: [ride: [1, 0], ride: [1, 1]]}\n"
	MADE_ROOK
	"  - {name: bishop, symbol: B, moves: [ride: [1, 1]]}\n"
	"  - name: pawn\n"
	"    symbol: P\n"
	"    pawn: true\n"
	"    moves:\n"
	"      - {leap: [0, 1], dirs: forward, mode: move}\n"
	"      - {leap: [1, 1], dirs: forward, mode: capture}\n"
	"    promotion: {ranks: [9], choices: [Q, R, B]}\n"
	"setup: \"rkq/ppp/3/3/3/3/3/PPP/BKR w - - 0 1\"\n";

VT_TEST(made_tall)
{
	static const char *const fens[] = {
		/* a queen checking up a file, a bishop to block it */
		"b1k/3/3/3/3/3/B2/3/1KQ b - - 0 1",
	};
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = made(ctx, "tall", tall_yaml);
	int all = 0, tabled = v ? vc_bb_lines(v->bb, &all) : -1;
	VT_CHECK(tabled == 3 && all == 4); /* the files keep the difference */
	vc_variant_free(v);
	vc_ctx_free(ctx);
	made_games("tall", tall_yaml, vc_bb_perft, 83, 80, 4, fens, 1);
}

/* Pieces counted at perft's last ply one by one, not by one popcount
 * (gen_type's plain types): the crab moves one way and takes another, the
 * stepper's two-square step is a short path. */
static const char odd_yaml[] =
	"name: odd\n"
	"board: {files: 6, ranks: 6}\n"
	"pieces:\n"
	MADE_KING
	"  - name: crab\n"
	"    symbol: C\n"
	"    moves: [leap: [1, 2], {leap: [1, 0], mode: move}, {leap: [1, 1], mode: capture}]\n"
	"  - name: stepper\n"
	"    symbol: S\n"
	"    moves: [leap: [1, 2], leap: [1, 0], {ride: [1, 0], range: 2, min: 2, mode: move}]\n"
	MADE_ROOK
	"setup: \"rcksc1/6/6/6/6/1CSKCR w - - 0 1\"\n";

VT_TEST(made_odd)
{
	static const char *const fens[] = { "rcksc1/6/6/6/6/1CSKCR w - - 0 1" };
	made_games("odd", odd_yaml, vc_bb_perft, 84, 60, 4, fens, 1);
}

/* Hands counted by the core's perft, where no built-in that fits has
 * them: pieces dropped face up (drop-promoted), a drop rank, and pieces
 * taken going back to the hand unpromoted; then promoted pieces marked
 * and taken as pawns (captured-promoted: pawn), the pawn dropped anywhere
 * but its last rank. */
static const char faceup_yaml[] =
	"name: faceup\n"
	"board: {files: 5, ranks: 6}\n"
	"pieces:\n"
	MADE_KING
	MADE_ROOK
	"  - name: silver\n"
	"    symbol: S\n"
	"    drop-ranks: [1, 2, 3, 4, 5]\n"
	"    moves: [leap: [1, 1], {leap: [0, 1], dirs: forward}]\n"
	"    promotion: {ranks: [5, 6], choices: [+S]}\n"
	"  - {name: dragon, symbol: +S, letter: D, moves: [ride: [1, 1]]}\n"
	"setup: \"rsks1/5/5/5/5/1SKSR[] w - - 0 1\"\n"
	"reserves: [hand]\n"
	"rules: {drops: true, capture-to-hand: true, captured-promoted: unpromoted,\n"
	"        drop-promoted: true}\n";

static const char marked_yaml[] =
	"name: marked\n"
	"board: {files: 6, ranks: 6}\n"
	"pieces:\n"
	MADE_KING
	MADE_ROOK
	"  - {name: knight, symbol: N, moves: [leap: [1, 2]]}\n"
	"  - name: pawn\n"
	"    symbol: P\n"
	"    pawn: true\n"
	"    moves:\n"
	"      - {leap: [0, 1], dirs: forward, mode: move}\n"
	"      - {leap: [1, 1], dirs: forward, mode: capture}\n"
	"    promotion: {ranks: [6], choices: [R, N]}\n"
	"setup: \"rnkpnr/pppppp/6/6/PPPPPP/RNKPNR[] w - - 0 1\"\n"
	"reserves: [hand]\n"
	"rules: {drops: true, capture-to-hand: true, captured-promoted: pawn,\n"
	"        drop-pawn-forbidden-ranks: [6]}\n";

VT_TEST(made_hands)
{
	static const char *const up[] = {
		/* silvers in hand, one promoting, a dragon to take */
		"k4/5/1+s3/5/2S2/4K[SSs] w - - 0 1",
		/* in check from a rook: drops block it */
		"k3r/5/5/5/5/4K[SRs] w - - 0 1",
	};
	made_games("faceup", faceup_yaml, vc_bb_perft, 81, 60, 4, up, 2);
	static const char *const marked[] = {
		/* a promoted rook and knight (marked) to take, pawns to promote */
		"4kr/1P4/2R~3/3N~2/p5/5K[Pp] w - - 0 1",
		/* in check by a knight: no drop helps */
		"k5/6/6/3n2/6/2K3[RN] w - - 0 1",
		/* a pawn promotes where the rook takes it back */
		"r3k1/1P4/6/6/6/5K[] w - - 0 1",
		/* a marked knight taken by a rook that is taken in turn */
		"1p2k1/2n~3/6/6/6/2R2K[] w - - 0 1",
	};
	made_games("marked", marked_yaml, vc_bb_perft, 82, 60, 4, marked, 4);
}

/* The same shapes on 12x10 (120 squares, over 128-bit sets), with a hill
 * above square 63 whose reaching by a king ends the game. */
static const char wide_yaml[] =
	"name: wide-shapes\n"
	"board: {files: 12, ranks: 10}\n"
	"pieces:\n"
	MADE_KING
	"  - {name: nightrider, symbol: N, moves: [ride: [1, 2]]}\n"
	"  - {name: lance, symbol: L, moves: [{ride: [0, 1], dirs: forward}]}\n"
	MADE_ROOK
	"  - {name: bishop, symbol: B, moves: [ride: [1, 1]]}\n"
	MADE_HOPPER_AND_PAWN
	"    promotion: {ranks: [9, 10], choices: [N, R, B], mandatory: [10]}\n"
	"setup: \"rnlbhkhblnr1/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/RNLBHKHBLNR1 w KQkq - 0 1\"\n"
	"castling:\n"
	"  style: relative\n"
	"  king: f1\n"
	"  sides:\n"
	"    - {right: K, partner: k1}\n"
	"    - {right: Q, partner: a1, long: true}\n"
	"end:\n"
	"  region: {name: the hill, pieces: [king], squares: [f8, g8, f3, g3], result: win}\n"
	"rules: {en-passant: true}\n";

VT_TEST(made_wide_shapes)
{
	static const char *const fens[] = {
		/* a king a step from the hill (f8, square 89), and en passant */
		"5k6/12/4K7/12/1p10/12/P11/12/12/12 w - - 0 1",
		"r4k4r1/12/12/12/12/12/12/12/12/R4K4R1 w KQkq - 0 1",
	};
	made_games("wide-shapes", wide_yaml, vc_bbw_perft, 79, 120, 8, fens, 2);
}

VT_TEST(made_shapes)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = made(ctx, "shapes", shapes_yaml);
	VT_CHECK(v && v->bb);
	if (v && v->bb) {
		int all, tabled = vc_bb_lines(v->bb, &all); /* the nightrider's too */
		VT_CHECK(tabled == all && all >= 4);
		random_games(v, 77, full() ? 24 : 6, 100, 10, 3, vc_bb_perft);
		v->bbw = vc_bbw_build(v); /* the 128-bit build too (freed with v) */
		VT_CHECK(v->bbw != NULL);
		if (v->bbw)
			random_games(v, 78, full() ? 24 : 6, 100, 10, 3, vc_bbw_perft);
	}
	/* castling both ways, pawns that step two and three squares, taken
	 * en passant on either target, promotions */
	static const char *fens[] = {
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/4n3/8/R3K2R w KQkq - 0 1",
		"4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1",     "4k3/2P5/8/8/1p6/8/P7/4K3 w - - 0 1",
		"4k3/8/p7/8/8/1P6/2p5/4K3 b - - 0 1",
	};
	struct vc_position *p = v && v->bb ? vc_position_new(v) : NULL;
	for (size_t i = 0; p && i < sizeof fens / sizeof fens[0]; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, fens[i]) == VC_OK);
		compare(__FILE__, __LINE__, "shapes", p, 4, "edge", vc_bb_perft);
		if (v->bbw)
			compare(__FILE__, __LINE__, "shapes (128)", p, 4, "edge", vc_bbw_perft);
	}
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

/* Positions at the edges of legality. */
VT_TEST(chess_edges)
{
	static const struct {
		const char *fen;
		int depth;
	} pos[] = {
		/* (a position string keeps no target that no legal capture uses, so
		 * these start a ply before the step of two) en passant that would
		 * uncover a rook's or queen's check along the rank */
		{ "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1", 3 },
		{ "8/8/8/8/k3p2Q/8/3P4/4K3 w - - 0 1", 3 },
		{ "8/8/8/8/1k2p2R/8/3P4/4K3 w - - 0 1", 3 },
		/* en passant that takes the checking pawn; by a pawn pinned along
		 * the diagonal it stays on, and by one pinned on its file */
		{ "8/8/8/2k5/4p3/8/3P4/4K3 w - - 0 1", 3 },
		{ "8/7k/8/8/4p3/8/3P4/KB6 w - - 0 1", 3 },
		{ "4k3/8/8/8/4p3/8/3P4/K3R3 w - - 0 1", 3 },
		/* double check, pinned pieces moving along their lines */
		{ "4k3/8/8/8/8/2b5/3N4/r3K3 w - - 0 1", 3 },
		{ "4k3/4r3/8/8/4R3/8/4B3/b3K3 w - - 0 1", 3 },
		{ "K7/1Q6/8/8/8/8/6q1/7k b - - 0 1", 3 },
		/* castling out of, through and into attacks, and a king along a
		 * checking slider's line */
		{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3 },
		{ "r3k2r/8/8/8/8/8/5b2/R3K2R w KQkq - 0 1", 3 },
		{ "r3k2r/8/8/8/8/8/3r4/R3K2R w KQkq - 0 1", 3 },
		{ "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 3 },
		{ "4k3/8/8/8/8/8/8/r3K2R w K - 0 1", 3 },
		/* promotions, with and without capture, out of check */
		{ "1r2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1", 3 },
		{ "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 3 },
		{ "8/2P5/8/8/8/8/8/k1K4r w - - 0 1", 3 },
	};
	const struct vc_variant *v = vc_variant_load(NULL, "chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	VT_CHECK(p && v->bb);
	for (size_t i = 0; p && i < sizeof pos / sizeof pos[0]; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, pos[i].fen) == VC_OK);
		compare(__FILE__, __LINE__, "chess", p, pos[i].depth + full(), "edge", vc_bb_perft);
	}
	vc_position_free(p);
	vc_variant_free((struct vc_variant *)v);
}

/* The xiangqi and janggi families, counted by the core with their walked
 * types (the horse's and elephant's lame leaps, the cannon's hop, janggi's
 * chariot and cannon on the palace diagonals) and every move tested: a
 * move that makes or removes a cannon's screen, leaves a horse's leg, or
 * leaves the file between the generals, in check and out of it, on 90
 * squares (128-bit sets) and on 49; janggi's generals facing (bikjang:
 * part them or pass, and under traditional rules a pass then ends the
 * game), cannons that neither jump nor take cannons, and two passes in a
 * row, which end the game. */
VT_TEST(xiangqi_family_edges)
{
	static const struct {
		const char *variant, *fen;
		int depth;
	} pos[] = {
		/* a rook that would become the cannon's screen; one of two
		 * screens that would leave */
		{ "xiangqi", "4k4/9/3c5/9/9/R8/9/9/9/3K5 w - - 0 1", 3 },
		{ "xiangqi", "4k4/9/3c5/9/9/3R5/9/3N5/9/3K5 w - - 0 1", 3 },
		/* an advisor on the horse's leg; a horse checking past an empty
		 * leg, its leg then blocked by a piece of its own side */
		{ "xiangqi", "4k4/9/9/9/9/9/9/4n4/4A4/3K5 w - - 0 1", 3 },
		{ "xiangqi", "4k4/9/9/9/9/9/9/4n4/9/3K5 w - - 0 1", 3 },
		/* the generals face each other but for a horse; a cannon's check
		 * that a rook may block by adding a screen */
		{ "xiangqi", "3k5/9/9/9/9/9/9/3N5/9/3K5 w - - 0 1", 3 },
		{ "xiangqi", "4k4/9/9/9/4c4/R8/9/4P4/9/4K4 w - - 0 1", 3 },
		{ "xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
		  3 },
		{ "minixiangqi", "3k3/7/3c3/7/R6/7/3K3 w - - 0 1", 4 },
		{ "minixiangqi", "4k2/7/7/7/7/4Nn1/3K3 w - - 0 1", 4 },
		{ "minixiangqi", "3k3/7/7/3N3/7/7/3K3 w - - 0 1", 4 },
		{ "minixiangqi", "3k3/7/3c3/7/3p3/7/3K3 w - - 0 1", 4 },
		{ "janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 3 },
		{ "janggitraditional", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 3 },
		{ "janggi", "3k5/4a4/4c4/9/9/9/9/4C4/4A4/3K5 w - - 0 1", 3 },
		{ "janggi", "4k4/9/9/9/9/9/9/9/3R5/4K3r w - - 0 1", 3 },
		{ "janggi", "5k3/9/9/9/9/9/9/5c3/4R4/3K5 w - - 0 1", 3 },
	};
	for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
		const struct vc_variant *v = vc_variant_load(NULL, pos[i].variant);
		struct vc_position *p = v ? vc_position_new(v) : NULL;
		int wide = v && vc_bbw_serves_perft(v->bbw);
		VT_CHECK(p && (wide || vc_bb_serves_perft(v->bb)));
		if (p) {
			VT_CHECK(vc_position_set_fen(p, NULL, pos[i].fen) == VC_OK);
			compare(__FILE__, __LINE__, v->name, p, pos[i].depth + full(), "edge",
				wide ? vc_bbw_perft : vc_bb_perft);
		}
		vc_position_free(p);
		vc_variant_free((struct vc_variant *)v);
	}
	/* a pass made: the next one ends the game */
	const char *passing[] = { "janggicasual", "janggitraditional" };
	for (size_t i = 0; i < sizeof passing / sizeof passing[0]; i++) {
		const struct vc_variant *v = vc_variant_load(NULL, passing[i]);
		struct vc_position *p = v ? vc_position_new(v) : NULL;
		vc_move m;
		int can = p && vc_pass_move(p, &m);
		VT_CHECK(can);
		if (can) {
			vc_position_make(p, &m);
			compare(__FILE__, __LINE__, v->name, p, 3 + full(), "after a pass",
				vc_bbw_perft);
		}
		vc_position_free(p);
		vc_variant_free((struct vc_variant *)v);
	}
}

/* End rules, sides without a royal piece and no-check, counted by the
 * core: the checks given, a region reached (with a reply or not), a kind
 * gone extinct, a side without pieces; a non-royal king that castles
 * through attacks, promotes to a king, or is one of three. */
VT_TEST(end_rules_edges)
{
	static const struct {
		const char *variant, *fen;
		int depth;
	} pos[] = {
		/* White one check from winning, Black three; castling gives check */
		{ "three-check", "r3k2r/ppp2ppp/8/3q4/8/8/PPP2PPP/R2QK2R w KQkq - 1+3 0 1", 3 },
		{ "three-check", "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 3+1 0 1", 3 },
		{ "five-check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 1+2 0 1",
		  3 },
		/* kings a step from the hill, one of them in check */
		{ "king-of-the-hill", "8/8/8/2k5/8/5K2/8/8 w - - 0 1", 3 },
		{ "king-of-the-hill", "8/8/2q5/8/8/3K4/8/7k b - - 0 1", 3 },
		/* the king is no royal piece: it castles through attacks, and a
		 * capture of the last of a kind ends the game */
		{ "extinction", "r3k2r/p1n5/1q6/8/2b5/1Q6/P1N1B3/R3K2R w KQkq - 0 1", 3 },
		{ "extinction", "4k3/p2q1r1b/8/3n4/8/4N3/P2Q1R1B/4K3 w - - 0 1", 3 },
		{ "kinglet", "8/1P5p/8/8/8/8/P5p1/8 w - - 0 1", 4 },
		{ "threekings", "k2k3k/8/8/3q4/8/8/8/K2K2K1 w - - 0 1", 3 },
		/* White has no king; Black can take its last pieces */
		{ "horde", "4k3/8/8/8/8/4p3/3P4/8 w - - 0 1", 4 },
		{ "horde", "4k3/8/8/8/3r4/2P5/8/8 w - - 0 1", 3 },
		{ "breakthrough", "8/pp6/8/2P5/5p2/8/6PP/8 w - - 0 1", 4 },
		{ "clobber", "PpPpP/pPpPp/5/5/5/5 w - - 0 1", 4 },
		/* no move may give check; White on the last rank leaves Black a
		 * reply when Black's king can get there too, and none otherwise */
		{ "racing-kings", "8/4K3/1k6/8/8/3r4/8/8 w - - 0 1", 4 },
		{ "racing-kings", "8/1k2K3/8/8/2R5/8/8/8 w - - 0 1", 4 },
		{ "racing-kings", "5K2/1k6/8/8/8/8/8/8 b - - 0 1", 3 },
		{ "racing-kings", "5K2/8/1k6/8/8/8/8/8 b - - 0 1", 3 },
		/* a knight that would uncover a rook's or a bishop's check */
		{ "racing-kings", "8/k7/8/8/N7/8/8/R6K w - - 0 1", 3 },
		{ "racing-kings", "8/6k1/8/8/3N4/8/1B6/K7 w - - 0 1", 3 },
	};
	for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
		const struct vc_variant *v = vc_variant_load(NULL, pos[i].variant);
		struct vc_position *p = v ? vc_position_new(v) : NULL;
		VT_CHECK(p && v->bb);
		if (p && v->bb) {
			VT_CHECK(vc_position_set_fen(p, NULL, pos[i].fen) == VC_OK);
			compare(__FILE__, __LINE__, pos[i].variant, p, pos[i].depth + full(), "edge", vc_bb_perft);
		}
		vc_position_free(p);
		vc_variant_free((struct vc_variant *)v);
	}
}

/* Atomic's quiet moves are judged over the mirror (movegen.c's
 * quiet_atomic): a royal piece next to the enemy's cannot be taken, a
 * pinned piece stays pinned.  Every move's legality, with the mirror and
 * without it, in positions made for those rules. */
VT_TEST(atomic_quiet_moves)
{
	static const char *fen[] = {
		"8/8/8/3k4/r2K4/8/7P/8 w - - 0 1",      /* kings side by side, a rook on the rank */
		"4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1",     /* a pinned bishop */
		"4r3/8/8/8/8/8/4B3/3kK3 w - - 0 1",     /* the same beside the enemy king */
		"8/8/8/8/1b6/8/3K4/q3k3 w - - 0 1",      /* the king steps to the enemy's side */
		"rnb1kbnr/pppp1ppp/8/4p3/4P2q/5P2/PPPP2PP/RNBQKBNR w KQkq - 1 3",
	};
	struct vc_ctx *ctx = vc_ctx_new(), *plain = vc_ctx_new();
	vc_ctx_set_bitboards(plain, 0);
	struct vc_variant *v = vc_variant_load(ctx, "atomic"), *g = vc_variant_load(plain, "atomic");
	struct vc_position *p = v ? vc_position_new(v) : NULL, *q = g ? vc_position_new(g) : NULL;
	vc_move *ms = malloc(VC_MAX_MOVES * 4 * sizeof *ms);
	VT_CHECK(p && q && ms && v->bbm && !g->bbm);
	for (size_t i = 0; p && q && ms && i < sizeof fen / sizeof fen[0]; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, fen[i]) == VC_OK);
		VT_CHECK(vc_position_set_fen(q, NULL, fen[i]) == VC_OK);
		same_answers("atomic", p, q, ms);
	}
	free(ms);
	struct vc_position *ps[] = { p, q };
	struct vc_variant *vs[] = { v, g };
	struct vc_ctx *cs[] = { ctx, plain };
	for (int i = 0; i < 2; i++) {
		vc_position_free(ps[i]);
		vc_variant_free(vs[i]);
		vc_ctx_free(cs[i]);
	}
}

/* Two non-royal kings and a right to castle: the one on the start square
 * castles (vc_castler), whichever comes first in the piece list; with none
 * there, the one on the lowest square.  Both ways count alike. */
VT_TEST(castler_of_two)
{
	static const char *fen[] = {
		"r3k2r/p1n5/1q6/8/2b5/1Q6/P1N1B3/R1K1K2R w KQkq - 0 1",
		"r3k2r/p1n5/1q6/8/2b5/1Q6/P1N1B3/R3K1KR w KQkq - 0 1",
		"r2k3r/p1n5/1q6/8/2b5/1Q6/P1N1B3/R2K1K1R b KQkq - 0 1",
		"r2k1k1r/p1n5/1q6/8/2b5/1Q6/P1N1B3/R2K1K1R b KQkq - 0 1",
	};
	const struct vc_variant *v = vc_variant_load(NULL, "extinction");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	VT_CHECK(p && v->bb);
	for (size_t i = 0; p && v->bb && i < sizeof fen / sizeof fen[0]; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, fen[i]) == VC_OK);
		compare(__FILE__, __LINE__, "extinction", p, 3 + full(), "two kings", vc_bb_perft);
	}
	/* the king on e1 castles, though the one on c1 comes first */
	if (p && v->bb) {
		VT_CHECK(vc_position_set_fen(p, NULL, fen[0]) == VC_OK);
		VT_CHECK(vc_castler(p, VC_WHITE) == vc_sq(v->files, 4, 0));
	}
	vc_position_free(p);
	vc_variant_free((struct vc_variant *)v);
}

/* Cambodian chess's first-move leaps (the king's knight leap, only out of
 * check and onto an empty square; the met's two squares forward, which
 * takes and so gives check while its right holds) at the edges: a met's
 * leap that checks, that takes, that a pin forbids; a king in check that
 * may not leap, and one whose leap lands on an attacked square.  Counted
 * by the core (which must take them) and the general way. */
VT_TEST(first_move_leaps)
{
	struct vc_variant *v = vc_variant_load(NULL, "cambodian");
	struct vc_position *p = v && v->bb ? vc_position_new(v) : NULL;
	VT_CHECK(p && !v->bbm && vc_bb_serves_perft(v->bb));
	static const char *fens[] = {
		"4k3/8/8/8/8/8/8/3KM3 w DE - 0 1",  "8/8/8/8/8/4k3/8/3KM3 b DE - 0 1",
		"3rk3/8/8/8/8/8/8/3KM3 w DE - 0 1", "4k3/8/8/8/8/5r2/8/3KM3 w DE - 0 1",
		"4k3/8/8/8/8/8/8/3KM2r w DE - 0 1", "4k3/8/8/8/8/4p3/8/3KM3 w DE - 0 1",
		"4k3/8/8/8/8/8/8/3KM3 w - - 0 1",   "3mk3/8/3K4/8/8/8/8/8 w de - 0 1",
	};
	vc_move *ms = malloc(VC_MAX_MOVES * 4 * sizeof *ms);
	for (size_t i = 0; p && ms && i < sizeof fens / sizeof fens[0]; i++) {
		VT_CHECK(vc_position_set_fen(p, NULL, fens[i]) == VC_OK);
		compare(__FILE__, __LINE__, "cambodian", p, 3, "edge", vc_bb_perft);
		int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES * 4);
		VT_EQ_INT(vc_bb_has_legal(p), n > 0);
		VT_EQ_INT(vc_bb_count_board(p), n);
	}
	/* the met's leap checks: the king on e3 must step away */
	if (p && vc_position_set_fen(p, NULL, fens[1]) == VC_OK)
		VT_CHECK(vc_in_check(p, VC_BLACK));
	free(ms);
	vc_position_free(p);
	vc_variant_free(v);
}

/* The published counts, through the core (chess.perft checks more). */
VT_TEST(chess_published)
{
	const struct vc_variant *v = vc_variant_load(NULL, "chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	VT_CHECK(p != NULL);
	if (p) {
		VT_EQ_INT(vc_perft(p, 4), 197281);
		VT_CHECK(vc_position_set_fen(p, NULL,
					     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/"
					     "PPPBBPPP/R3K2R w KQkq - 0 1") == VC_OK);
		VT_EQ_INT(vc_perft(p, 3), 97862);
	}
	vc_position_free(p);
	vc_variant_free((struct vc_variant *)v);
}

VT_MAIN(VT_ENTRY(every_eligible_variant), VT_ENTRY(wide_core_on_small_boards), VT_ENTRY(mate_test_without_mirror), VT_ENTRY(first_move_leaps),
	VT_ENTRY(mirror_against_tries), VT_ENTRY(shapes_against_tries), VT_ENTRY(validator_follows_the_context),
	VT_ENTRY(made_shapes), VT_ENTRY(made_wide_shapes), VT_ENTRY(made_zones), VT_ENTRY(made_hands), VT_ENTRY(made_tall), VT_ENTRY(made_odd), VT_ENTRY(chess_edges), VT_ENTRY(xiangqi_family_edges), VT_ENTRY(end_rules_edges), VT_ENTRY(castler_of_two),
	VT_ENTRY(atomic_quiet_moves),
	VT_ENTRY(drops_at_the_last_ply),
	VT_ENTRY(chess_published))
