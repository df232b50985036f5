/*
 * t_core.c - unit tests of the rules core: squares, position strings,
 * make/unmake, hashing, and move text read and written.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static struct vc_variant *chess(void)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "chess");
	vc_ctx_free(ctx);
	return v;
}

static struct vc_variant *fairy(void)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "tests/data/fairy.yaml");
	vc_ctx_free(ctx);
	return v;
}

VT_TEST(squares)
{
	struct vc_variant *v = fairy();
	char buf[8];
	int used = 0;
	VT_CHECK(v != NULL);
	if (!v)
		return;
	VT_EQ_INT(vc_square_parse(v, "a1", &used), 0);
	VT_EQ_INT(used, 2);
	VT_EQ_INT(vc_square_parse(v, "j10", &used), 99);
	VT_EQ_INT(used, 3);
	VT_EQ_INT(vc_square_parse(v, "k1", &used), -1);  /* off a 10-file board */
	VT_EQ_INT(vc_square_parse(v, "a11", &used), 0); /* a1, then "1" left over */
	VT_EQ_INT(used, 2);
	vc_square_name(v, 99, buf);
	VT_EQ_STR(buf, "j10");
	vc_variant_free(v);
}

static const char *roundtrip[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
	"8/8/8/8/8/8/8/K6k b - - 12 40",
	"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ply 77",
};

VT_TEST(fen_roundtrip)
{
	struct vc_variant *v = chess();
	struct vc_position *p = vc_position_new(v);
	char buf[256];
	for (size_t i = 0; i < VC_NELEM(roundtrip); i++) {
		VT_EQ_INT(vc_position_set_fen(p, NULL, roundtrip[i]), VC_OK);
		vc_position_fen(p, buf, sizeof buf);
		VT_EQ_STR(buf, roundtrip[i]);
	}
	/* Shredder letters naming the outermost rooks are written as X-FEN letters,
	 * an inner rook by its file */
	VT_EQ_INT(vc_position_set_fen(p, NULL, "rk2r3/8/8/8/8/8/8/RK2R3 w EAe - 0 1"), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "rk2r3/8/8/8/8/8/8/RK2R3 w KQk - 0 1");
	VT_EQ_INT(vc_position_set_fen(p, NULL, "1k6/8/8/8/8/8/8/1K2R2R w E - 0 1"), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "1k6/8/8/8/8/8/8/1K2R2R w E - 0 1");
	/* an en-passant target no pawn can use is not written */
	VT_EQ_INT(vc_position_set_fen(p, NULL, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
	/* missing fields take their defaults */
	VT_EQ_INT(vc_position_set_fen(p, NULL, "4k3/8/8/8/8/8/8/4K3"), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(fen_errors)
{
	struct vc_variant *v = chess();
	struct vc_position *p = vc_position_new(v);
	struct vc_ctx *ctx = vc_ctx_new();
	VT_EQ_INT(vc_position_set_fen(p, ctx, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR"),
		  VC_FAILED);
	VT_EQ_STR(vc_ctx_last_message(ctx), "rank 6 is longer than 8 files");
	VT_EQ_INT(vc_position_set_fen(p, ctx, "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
		  VC_FAILED);
	VT_EQ_STR(vc_ctx_last_message(ctx), "unknown piece 'X' in the position string");
	VT_EQ_INT(vc_position_set_fen(p, ctx, "8/8/8/8/8/8/8/4K3 x"), VC_FAILED);
	VT_EQ_STR(vc_ctx_last_message(ctx), "side to move must be 'w' or 'b'");
	/* a failed read leaves the position as it was */
	char buf[128];
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	vc_ctx_free(ctx);
	vc_position_free(p);
	vc_variant_free(v);
}

/* Makruk's count: read and written where Fairy-Stockfish puts it (the
 * limit in the en-passant field, the plies counted in the half-move
 * clock's), kept by make and put back by unmake; refused where no count
 * exists. */
VT_TEST(counting_fen)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "makruk");
	struct vc_position *p = vc_position_new(v);
	char buf[128];
	VT_EQ_INT(vc_position_set_fen(p, ctx, "8/4k3/8/8/8/R7/8/4K3 b - 32 6 1"), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "8/4k3/8/8/8/R7/8/4K3 b - 32 6 1");
	static vc_move lm[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
	VT_CHECK(n > 0);
	vc_position_make(p, &lm[0]);
	vc_position_fen(p, buf, sizeof buf);
	VT_CHECK(strstr(buf, " w - 32 7 2") != NULL);
	vc_position_unmake(p);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, "8/4k3/8/8/8/R7/8/4K3 b - 32 6 1");
	/* no count yet: the move of the strong side starts one, from the
	 * pieces on the board (3, so 6 plies), 16 moves against a rook */
	VT_EQ_INT(vc_position_set_fen(p, ctx, "8/4k3/8/8/8/8/R7/4K3 w - - 0 1"), VC_OK);
	n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
	VT_CHECK(n > 0);
	vc_position_make(p, &lm[0]);
	vc_position_fen(p, buf, sizeof buf);
	VT_CHECK(strstr(buf, " b - 32 6 1") != NULL);
	VT_EQ_INT(vc_position_set_fen(p, ctx, "8/4k3/8/8/8/R7/8/4K3 b - 9999 6 1"), VC_FAILED);
	VT_EQ_STR(vc_ctx_last_message(ctx), "a count's limit must be a number of plies from 1 to 4000");
	vc_position_free(p);
	vc_variant_free(v);
	v = vc_variant_load(ctx, "chess");
	p = vc_position_new(v);
	VT_EQ_INT(vc_position_set_fen(p, ctx, "8/4k3/8/8/8/R7/8/4K3 b - 32 6 1"), VC_FAILED);
	VT_EQ_STR(vc_ctx_last_message(ctx), "bad en-passant square '32'");
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

/* The mirror of p is what its board says. */
static int mirror_true(const struct vc_position *p)
{
	if (!p->v->bbm)
		return 1;
	struct vc_position *q = malloc(sizeof *q);
	if (!q)
		return 0;
	memcpy(q, p, sizeof *q);
	vc_bb_sync(q);
	int same = q->bbocc == p->bbocc && !memcmp(q->bbt, p->bbt, sizeof q->bbt);
	free(q);
	return same;
}

/* Random plies across swaps of halves, made and unmade: the hash, the
 * mirror (where the board fits it) and the position come back, and the
 * number of legal moves is that of the same plies without the mirror (a
 * move that swaps is judged over it, turned). */
static void swap_walk(const char *file, int mirror, uint64_t seed, int plies, int depth)
{
	struct vc_ctx *ctx = vc_ctx_new(), *plain = vc_ctx_new();
	vc_ctx_set_bitboards(plain, 0);
	struct vc_variant *v = vc_variant_load(ctx, file), *g = vc_variant_load(plain, file);
	VT_CHECK(v != NULL && g != NULL && (v->bbm != NULL) == mirror);
	if (!v || !g) {
		vc_variant_free(v);
		vc_variant_free(g);
		vc_ctx_free(ctx);
		vc_ctx_free(plain);
		return;
	}
	struct vc_position *p = vc_position_new(v), *q = vc_position_new(g);
	static vc_move gm[VC_MAX_MOVES];
	char start[256], buf[256];
	vc_position_fen(p, start, sizeof start);
	static vc_move lm[VC_MAX_MOVES];
	uint64_t r = seed;
	int made = 0;
	for (int ply = 0; ply < plies; ply++) {
		int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
		VT_EQ_INT(n, vc_position_legal_moves(q, gm, VC_MAX_MOVES));
		if (!n)
			break;
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		vc_position_make(p, &lm[(r >> 33) % (uint64_t)n]);
		vc_position_make(q, &lm[(r >> 33) % (uint64_t)n]);
		made++;
		VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
		VT_CHECK(mirror_true(p));
	}
	VT_CHECK(made > 10);
	while (made--) {
		vc_position_unmake(p);
		VT_CHECK(mirror_true(p));
	}
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, start);
	VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
	VT_CHECK(depth == 0 || vc_perft(p, depth) > 0);
	vc_position_free(p);
	vc_position_free(q);
	vc_variant_free(v);
	vc_variant_free(g);
	vc_ctx_free(ctx);
	vc_ctx_free(plain);
}

/* Halves that swap on an odd number of files: a swap is undone by turning
 * the other way, so that unmake across swaps gives the position back; on
 * nine files (no mirror: 72 squares) and seven (a mirror). */
VT_TEST(swap_odd_files)
{
	swap_walk("tests/data/schizo-odd.yaml", 0, 7, 23, 6);
	for (uint64_t seed = 1; seed <= 12; seed++)
		swap_walk("tests/data/schizo-seven.yaml", 1, seed, 100, 0);
}

/* The reserves part of p's position string, into buf. */
static const char *reserves_of(const struct vc_position *p, char *buf, size_t n)
{
	char fen[256];
	vc_position_fen(p, fen, sizeof fen);
	const char *a = strchr(fen, '['), *e = strchr(fen, ' ');
	snprintf(buf, n, "%.*s", a && e > a ? (int)(e - a) : 0, a ? a : "");
	return buf;
}

/* Plays the move written mv in coordinates (vc_move_coord); 0 when none. */
static int play_coord(struct vc_position *p, const char *mv)
{
	static vc_move ms[VC_MAX_MOVES];
	char buf[32];
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	for (int i = 0; i < n; i++)
		if (vc_move_coord(vc_position_variant(p), &ms[i], buf, sizeof buf) > 0 &&
		    !strcmp(buf, mv)) {
			vc_position_make(p, &ms[i]);
			return 1;
		}
	return 0;
}

/* SC-Chess: prisoners that pair in a position string wait for the next move
 * that is neither a drop nor castling (vchess-sc-chess(7)); then every
 * pair goes home, and unmake brings them back. */
VT_TEST(pending_prisoners)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "sc-chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	VT_CHECK(p != NULL);
	if (p) {
		char buf[64];
		VT_EQ_INT(vc_position_set_fen(p, NULL, "4k3/8/8/8/3b4/8/8/B3K3[P][nNB] w - - 0 1"),
			  VC_OK);
		VT_EQ_STR(reserves_of(p, buf, sizeof buf), "[P][nBN]");
		VT_CHECK(play_coord(p, "P@e4"));
		VT_EQ_STR(reserves_of(p, buf, sizeof buf), "[][nBN]");
		VT_CHECK(play_coord(p, "e8d7"));
		VT_EQ_STR(reserves_of(p, buf, sizeof buf), "[Nn][B]");
		VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
		vc_position_unmake(p);
		VT_EQ_STR(reserves_of(p, buf, sizeof buf), "[][nBN]");
	}
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

/* A position set up with the side not to move in check: its king may be
 * taken, and its castling rights go with it, so that the position string
 * written after reads back; unmake gives them back. */
VT_TEST(rights_of_a_taken_king)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL, *q = v ? vc_position_new(v) : NULL;
	const char *f = "4k2r/8/8/8/8/8/8/4R1K1 w k - 0 1";
	char buf[256];
	VT_CHECK(p && q && vc_position_set_fen(p, NULL, f) == VC_OK);
	if (p && q && play_coord(p, "e1e8")) {
		vc_position_fen(p, buf, sizeof buf);
		VT_EQ_STR(buf, "4R2r/8/8/8/8/8/8/6K1 b - - 0 1");
		VT_EQ_INT(vc_position_set_fen(q, NULL, buf), VC_OK);
		VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
		vc_position_unmake(p);
		vc_position_fen(p, buf, sizeof buf);
		VT_EQ_STR(buf, f);
	} else {
		VT_FAIL_AT(__FILE__, __LINE__, "Rxe8 is not played");
	}
	vc_position_free(p);
	vc_position_free(q);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(fairy_fen)
{
	struct vc_variant *v = fairy();
	struct vc_position *p = vc_position_new(v);
	const char *f = "4k5/10/2(CN)7/10/10/3(nn)6/10/10/10/4K4Z w - - 0 1";
	char buf[256];
	VT_EQ_INT(vc_position_set_fen(p, NULL, f), VC_OK);
	vc_position_fen(p, buf, sizeof buf);
	VT_EQ_STR(buf, f);
	int color = -1;
	VT_EQ_INT(vc_position_piece_at(p, vc_square_parse(v, "c8", NULL), &color),
		  vc_variant_piece_find(v, "CN"));
	VT_EQ_INT(color, 0);
	vc_position_free(p);
	vc_variant_free(v);
}

/* every legal move, made and unmade, restores the position exactly; the
 * incremental hash equals the one computed from scratch */
static void walk(struct vc_position *p, int depth)
{
	vc_move ms[VC_MAX_MOVES];
	char before[256], after[256];
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	vc_position_fen(p, before, sizeof before);
	uint64_t h = vc_position_hash(p);
	for (int i = 0; i < n; i++) {
		vc_position_make(p, &ms[i]);
		VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
		if (depth > 1)
			walk(p, depth - 1);
		vc_position_unmake(p);
		vc_position_fen(p, after, sizeof after);
		if (strcmp(before, after)) {
			VT_EQ_STR(after, before);
			return;
		}
		VT_CHECK(vc_position_hash(p) == h);
	}
}

VT_TEST(make_unmake)
{
	struct vc_variant *v = chess();
	struct vc_position *p = vc_position_new(v);
	vc_position_set_fen(p, NULL, roundtrip[1]);
	walk(p, 3);
	vc_position_set_fen(p, NULL, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
	walk(p, 3);
	vc_position_free(p);
	struct vc_variant *f = fairy();
	p = vc_position_new(f);
	vc_position_set_fen(p, NULL, "4k5/10/2(CN)7/10/1G8/3(nn)6/6s3/10/8(O)1/4K4Z w - - 0 1");
	walk(p, 2);
	vc_position_free(p);
	vc_variant_free(f);
	vc_variant_free(v);
}

/* every legal move written in SAN reads back as the same move */
static void san_roundtrip(const struct vc_variant *v, const char *fen)
{
	struct vc_position *p = vc_position_new(v);
	vc_move ms[VC_MAX_MOVES];
	VT_EQ_INT(vc_position_set_fen(p, NULL, fen), VC_OK);
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	for (int i = 0; i < n; i++) {
		char san[64], msg[256];
		const char *code = NULL;
		struct vc_san s;
		vc_move back;
		for (int lf = 0; lf < 2; lf++) {
			vc_move_san(p, &ms[i], lf, san, sizeof san);
			if (vc_san_parse(v, san, strlen(san), &s, &code, msg, sizeof msg) ||
			    vc_san_resolve(p, &s, san, strlen(san), &back, NULL, &code, msg, sizeof msg)) {
				VT_FAIL_AT(__FILE__, __LINE__, "%s in %s: %s", san, fen, msg);
				continue;
			}
			VT_CHECK(back.from == ms[i].from && back.to == ms[i].to &&
				 back.promo == ms[i].promo && back.flags == ms[i].flags);
		}
	}
	vc_position_free(p);
}

VT_TEST(san_roundtrips)
{
	struct vc_variant *v = chess();
	san_roundtrip(v, roundtrip[1]);
	san_roundtrip(v, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
	san_roundtrip(v, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
	san_roundtrip(v, "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1");
	san_roundtrip(v, "7k/8/8/3N1N2/8/3N1N2/8/K7 w - - 0 1"); /* four knights: square disambiguation */
	san_roundtrip(v, "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
	vc_variant_free(v);
	struct vc_variant *f = fairy();
	san_roundtrip(f, "4k5/10/2(CN)7/10/1G8/3(nn)6/6s3/10/8(O)1/4K4Z w - - 0 1");
	san_roundtrip(f, "4k5/10/2(CN)7/10/1G8/3(nn)6/6s3/10/8(O)1/4K4Z b - - 0 1");
	vc_variant_free(f);
}

/* The move reader's fast path reads every text exactly as the general
 * reader does: random texts over the characters moves are made of, on an
 * 8x8 board with one-letter pieces, a 10x10 board with long symbols,
 * crazyhouse (drops) and Io Chess (16x16, long symbols, a file's alias 'L',
 * walls).  Both results are compared in full. */
static void san_fast_agrees(const struct vc_variant *v, unsigned seed)
{
	static const char alpha[] = "abcdefghijxyzKQRBNPOCGSWLq0123456789=+#!?x:-@* ()";
	char text[12], msg1[256], msg2[256];
	int bad = 0, fast_shapes = 0;
	for (int i = 0; i < 200000 && bad < 5; i++) {
		seed = seed * 1103515245u + 12345u;
		int len = 1 + (int)(seed >> 16) % 9;
		for (int k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 16;
			/* mostly the characters of common moves, and now and then
			 * two of a long symbol or of a rank past 9 */
			if (r % 16 == 0 && k + 1 < len) {
				static const char *const pairs[] = { "NN", "CN", "SC", "MN", "CP", "10",
								     "16", "12", "19", "01" };
				memcpy(text + k++, pairs[r / 16 % 10], 2);
				continue;
			}
			text[k] = r % 4 ? "abcdefgh12345678xNBRQK=+#"[r / 4 % 25] : alpha[r / 4 % (sizeof alpha - 1)];
		}
		text[len] = 0;
		struct vc_san a, b;
		const char *ca = NULL, *cb = NULL;
		msg1[0] = msg2[0] = 0;
		int ra = vc_san_parse(v, text, (size_t)len, &a, &ca, msg1, sizeof msg1);
		int rb = vc_san_parse_general(v, text, (size_t)len, &b, &cb, msg2, sizeof msg2);
		fast_shapes += ra == 0;
		if (ra != rb || (ra == 0 && memcmp(&a, &b, sizeof a)) || (ra && strcmp(msg1, msg2))) {
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' in %s: fast %d (%s), general %d (%s)", text,
				   vc_variant_name(v), ra, msg1, rb, msg2);
			bad++;
		}
	}
	VT_CHECK(fast_shapes > 1000); /* the comparison saw real moves */
}

VT_TEST(san_fast_path)
{
	struct vc_ctx *ctx = vc_ctx_new();
	static const char *names[] = { "chess", "crazyhouse", "sc-chess", "sico-3", "io" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct vc_variant *v = vc_variant_load(ctx, names[i]);
		VT_CHECK(v != NULL);
		if (v)
			san_fast_agrees(v, 7u + (unsigned)i);
		vc_variant_free(v);
	}
	struct vc_variant *f = fairy();
	san_fast_agrees(f, 99u);
	vc_variant_free(f);
	vc_ctx_free(ctx);
}

/* The shortcuts of the replay agree with making the move: whether a move
 * uncovers an attack on its own king (vc_move_exposes, only what stands
 * behind the square left), and whether it gives check (vc_check_after).
 * Random games in several variants, every pseudo-legal move of every
 * position. */
static void shortcuts_agree(const struct vc_variant *v, unsigned seed, int games)
{
	struct vc_position *p = vc_position_new(v);
	static vc_move ms[VC_MAX_MOVES * 4];
	int bad = 0;
	long compared = 0;
	for (int g = 0; g < games && bad < 5; g++) {
		vc_position_set_fen(p, NULL, v->start_fen);
		for (int ply = 0; ply < 120 && bad < 5; ply++) {
			int in_check = vc_in_check(p, p->side);
			int n = vc_gen_pseudo(p, ms);
			if (!in_check)
				for (int i = 0; i < n; i++) {
					int a = vc_move_exposes(p, &ms[i]), b = vc_move_leaves_check(p, &ms[i]);
					compared++;
					if (a != b && bad++ < 5) {
						char c[16];
						vc_move_coord(v, &ms[i], c, sizeof c);
						VT_FAIL_AT(__FILE__, __LINE__, "%s ply %d, %s: exposes %d, made %d",
							   vc_variant_name(v), ply, c, a, b);
					}
				}
			int legal = 0;
			for (int i = 0; i < n; i++)
				if (!vc_move_leaves_check(p, &ms[i]))
					ms[legal++] = ms[i];
			if (!legal)
				break;
			seed = seed * 1103515245u + 12345u;
			vc_move m = ms[(seed >> 16) % (unsigned)legal];
			if (vc_pos_make(p, &m) != 0)
				break;
			int a = vc_check_after(p, &m) != 0, b = vc_in_check(p, p->side);
			if (a != b && bad++ < 5) {
				char c[16];
				vc_move_coord(v, &m, c, sizeof c);
				VT_FAIL_AT(__FILE__, __LINE__, "%s ply %d, %s: check_after %d, in check %d",
					   vc_variant_name(v), ply, c, a, b);
			}
		}
	}
	VT_CHECK(compared > 10000);
	vc_position_free(p);
}

VT_TEST(legality_shortcuts)
{
	struct vc_ctx *ctx = vc_ctx_new();
	static const char *names[] = { "chess", "crazyhouse", "sc-chess", "schizochess", "sico-3", "sico-9" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct vc_variant *v = vc_variant_load(ctx, names[i]);
		VT_CHECK(v != NULL);
		if (v)
			shortcuts_agree(v, 11u + (unsigned)i, 60);
		vc_variant_free(v);
	}
	struct vc_variant *f = fairy();
	shortcuts_agree(f, 5u, 60);
	vc_variant_free(f);
	vc_ctx_free(ctx);
}

/* reads one move in a position: returns the error message or "" */
static const char *read_move(const struct vc_variant *v, const char *fen, const char *text,
			     char *coord)
{
	static char msg[256];
	struct vc_position *p = vc_position_new(v);
	struct vc_san s;
	vc_move m;
	const char *code = NULL;
	msg[0] = 0;
	vc_position_set_fen(p, NULL, fen);
	if (!vc_san_parse(v, text, strlen(text), &s, &code, msg, sizeof msg) &&
	    !vc_san_resolve(p, &s, text, strlen(text), &m, NULL, &code, msg, sizeof msg)) {
		vc_move_coord(v, &m, coord, 16);
		msg[0] = 0;
	}
	vc_position_free(p);
	return msg;
}

VT_TEST(move_forms)
{
	struct vc_variant *v = chess();
	const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
	const char *castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
	const char *promo = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
	char c[16];
	static const struct {
		const char *fen, *text, *coord;
	} ok[] = {
		{ "", "Nf3", "g1f3" },	 { "", "Ng1-f3", "g1f3" }, { "", "g1f3", "g1f3" },
		{ "", "e2e4", "e2e4" },	 { "", "e2-e4", "e2e4" },  { "", "e4", "e2e4" },
		{ "", "Nf3+!?", "g1f3" }, { "c", "O-O", "e1g1" },  { "c", "0-0-0", "e1c1" },
		{ "c", "e1g1", "e1g1" }, { "c", "e1h1", "e1g1" },  { "p", "e8=Q", "e7e8q" },
		{ "p", "e8Q", "e7e8q" }, { "p", "e7e8n", "e7e8n" }, { "p", "e8=N+", "e7e8n" },
	};
	for (size_t i = 0; i < VC_NELEM(ok); i++) {
		const char *fen = ok[i].fen[0] == 'c' ? castle : ok[i].fen[0] == 'p' ? promo : start;
		c[0] = 0;
		const char *err = read_move(v, fen, ok[i].text, c);
		if (*err)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s': %s", ok[i].text, err);
		else
			VT_EQ_STR(c, ok[i].coord);
	}
	VT_EQ_STR(read_move(v, start, "Nxe5", c), "no knight can reach e5");
	VT_EQ_STR(read_move(v, start, "Ng9", c), "'Ng9' is off the board");
	VT_EQ_STR(read_move(v, start, "Xe4", c), "unknown piece 'X' in 'Xe4'");
	VT_EQ_STR(read_move(v, start, "N@e4", c), "this variant has no drops");
	VT_EQ_STR(read_move(v, promo, "e8", c), "'e8' must say what the pawn promotes to");
	VT_EQ_STR(read_move(v, promo, "e8=K", c), "a pawn cannot promote to a king here");
	VT_EQ_STR(read_move(v, "7k/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", c),
		  "White cannot castle short: the king or that partner has moved");
	VT_EQ_STR(read_move(v, "7k/8/8/8/8/8/8/R3K1NR w K - 0 1", "O-O", c),
		  "White cannot castle short now: the squares between are not empty, or the king "
		  "is in check or would pass an attacked square");
	VT_EQ_STR(read_move(v, "6k1/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", c),
		  "two rooks can reach d1: Rad1 or Rhd1");
	VT_EQ_STR(read_move(v, "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nf4", c),
		  "'Nf4' would leave the king in check");
	vc_variant_free(v);
}

VT_TEST(san_writing)
{
	struct vc_variant *v = chess();
	struct vc_position *p = vc_position_new(v);
	vc_move ms[VC_MAX_MOVES];
	char san[64];
	/* mate is marked '#', check '+' */
	vc_position_set_fen(p, NULL, "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	int found = 0;
	for (int i = 0; i < n; i++) {
		vc_move_san(p, &ms[i], 0, san, sizeof san);
		if (!strcmp(san, "Qh4#"))
			found++;
		VT_CHECK(strcmp(san, "Qh4+") != 0);
	}
	VT_EQ_INT(found, 1);
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(variant_errors)
{
	struct vc_ctx *ctx = vc_ctx_new();
	static const char bad[] = "name: x\nboard: {files: 8, ranks: 8}\npieces:\n"
				  "  - {name: king, symbol: K, royal: true, moves: [{leap: [1, 0]}]}\n"
				  "setup: \"8/8/8/8/8/8/8/9 w - - 0 1\"\n";
	struct vc_variant *v = vc_variant_load_mem(ctx, "bad.yaml", bad, strlen(bad));
	VT_CHECK(v == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx), "setup: rank 1 is longer than 8 files");
	static const char syntax[] = "name: [unclosed\n";
	v = vc_variant_load_mem(ctx, "syntax.yaml", syntax, strlen(syntax));
	VT_CHECK(v == NULL);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), 2);
	v = vc_variant_load(ctx, "no-such-variant");
	VT_CHECK(v == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx),
		  "unknown variant 'no-such-variant' ('vchess-variant list' names them all)");
	/* aliases, any case */
	v = vc_variant_load(ctx, "STANDARD");
	VT_CHECK(v != NULL);
	if (v)
		VT_EQ_STR(vc_variant_name(v), "chess");
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(captures_own)
{
	/* a rook that may take its own pieces (never the king), beside one that
	 * may not */
	static const char y[] =
		"name: cannibals\nboard: {files: 4, ranks: 4}\npieces:\n"
		"  - {name: king, symbol: K, royal: true, moves: [{leap: [1, 0]}, {leap: [1, 1]}]}\n"
		"  - {name: cannibal, symbol: C, captures-own: true, moves: [{ride: [1, 0]}]}\n"
		"  - {name: rook, symbol: R, moves: [{ride: [1, 0]}]}\n"
		"setup: \"k3/4/R3/C2K w - - 0 1\"\n";
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load_mem(ctx, "cannibals.yaml", y, strlen(y));
	VT_CHECK(v != NULL);
	if (!v) {
		vc_ctx_free(ctx);
		return;
	}
	struct vc_position *p = vc_position_new(v);
	vc_move ms[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES), self = 0;
	for (int i = 0; i < n; i++)
		if (ms[i].flags & VC_MF_SELF) {
			self++;
			/* only the cannibal on a1 taking the rook on a2 */
			VT_EQ_INT(ms[i].from, 0);
			VT_EQ_INT(ms[i].to, 4);
		}
	VT_EQ_INT(self, 1);
	/* cannibal: b1 c1 and a2 (own rook); rook: a3 a4? a4 holds the black king:
	 * a3, then a4 captured; b2 c2 d2; king d1: c2 d2 (c1 is attacked? no) */
	VT_EQ_INT(n, 3 + 5 + 3);
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

/* the legal moves of the position fen in variant v whose coordinates are
 * want (each once), and the SAN of the first into san */
static int has_move(struct vc_variant *v, const char *fen, const char *want, char *san, size_t n)
{
	struct vc_position *p = vc_position_new(v);
	static vc_move ms[VC_MAX_MOVES];
	char c[32];
	int found = 0;
	if (vc_position_set_fen(p, NULL, fen) != VC_OK) {
		vc_position_free(p);
		return -1;
	}
	int nm = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	for (int i = 0; i < nm; i++) {
		vc_move_coord(v, &ms[i], c, sizeof c);
		if (!strcmp(c, want) && found++ == 0 && san)
			vc_move_san(p, &ms[i], 0, san, n);
	}
	vc_position_free(p);
	return found;
}

VT_TEST(gating)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "seirawan");
	VT_CHECK(v != NULL);
	if (!v) {
		vc_ctx_free(ctx);
		return;
	}
	struct vc_position *p = vc_position_new(v);
	char san[64], fen[256];
	/* castling gates on the king's square or the rook's, written as
	 * Fairy-Stockfish writes them */
	const char *castle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1";
	VT_EQ_INT(has_move(v, castle, "e1g1h", san, sizeof san), 1);
	VT_EQ_STR(san, "O-O/He1");
	VT_EQ_INT(has_move(v, castle, "h1e1e", san, sizeof san), 1);
	VT_EQ_STR(san, "O-O/Eh1");
	VT_EQ_INT(has_move(v, castle, "a1e1h", san, sizeof san), 1);
	VT_EQ_STR(san, "O-O-O/Ha1");
	/* no right without its letter, and none once the piece has moved */
	VT_EQ_INT(has_move(v, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w K - 0 1", "a1b1h",
			   NULL, 0), 0);
	VT_EQ_INT(has_move(v, castle, "a1b1h", san, sizeof san), 1);
	VT_EQ_STR(san, "Rb1/H");
	/* file letters are gates, not castling rights; the king's square with
	 * them gives castling back, as Fairy-Stockfish reads it */
	VT_EQ_INT(has_move(v, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w AH - 0 1", "e1g1",
			   NULL, 0), 0);
	VT_EQ_INT(has_move(v, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w AEH - 0 1", "e1g1",
			   NULL, 0), 1);
	vc_position_set_fen(p, NULL, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w AEH - 0 1");
	vc_position_fen(p, fen, sizeof fen);
	VT_EQ_STR(fen, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQAEH - 0 1");
	/* a side with an empty hand has no rights; a right needs its piece */
	vc_position_set_fen(p, NULL, "r3kb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[eh] w KQkqbf - 0 1");
	vc_position_fen(p, fen, sizeof fen);
	VT_EQ_STR(fen, "r3kb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[eh] w KQkqaefh - 0 1");
	/* the piece that enters does not shield the king: the pinned knight
	 * may not move, gating or not */
	VT_EQ_INT(has_move(v, "4k3/8/8/8/8/8/8/qN2K3[H] w B - 0 1", "b1c3h", NULL, 0), 0);
	VT_EQ_INT(has_move(v, "4k3/8/8/8/8/8/8/1N2K3[H] w B - 0 1", "b1c3h", san, sizeof san), 1);
	VT_EQ_STR(san, "Nc3/H");
	/* the hand and the rights after a gate; unmake gives them back */
	vc_position_set_fen(p, NULL, v->start_fen);
	uint64_t h0 = vc_position_hash(p);
	vc_move ms[VC_MAX_MOVES];
	int nm = vc_position_legal_moves(p, ms, VC_MAX_MOVES), k = -1;
	for (int i = 0; i < nm; i++) {
		vc_move_coord(v, &ms[i], san, sizeof san);
		if (!strcmp(san, "g1f3e"))
			k = i;
	}
	VT_CHECK(k >= 0);
	if (k >= 0) {
		vc_position_make(p, &ms[k]);
		vc_position_fen(p, fen, sizeof fen);
		VT_EQ_STR(fen, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBER[Heh] b "
			       "KQABCDEFHkqabcdefgh - 1 1");
		VT_CHECK(vc_position_hash(p) == vc_pos_compute_hash(p));
		vc_position_unmake(p);
		VT_CHECK(vc_position_hash(p) == h0);
		vc_position_fen(p, fen, sizeof fen);
		VT_EQ_STR(fen, v->start_fen);
	}
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(diagram_errors)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = chess();
	char *d = vc_piece_diagram(ctx, v, 0, 30, 8, 0);
	VT_CHECK(d == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx), "a board is at most 26x26");
	d = vc_piece_diagram(ctx, v, vc_variant_piece_find(v, "knight"), 3, 3, 4);
	VT_EQ_STR(d, ". . .\n. N .\n. . .\n");
	free(d);
	d = vc_piece_diagram(ctx, v, vc_variant_piece_find(v, "N"), 3, 3, 0);
	VT_EQ_STR(d, ". + .\n. . +\nN . .\n");
	free(d);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(drop_ranks)
{
	/* a knight that may be dropped on its side's first two ranks only,
	 * each side's counted from itself; pawns keep crazyhouse's rule */
	static const char y[] = "name: low-knights\nbase: crazyhouse\npieces:\n"
				"  - {name: knight, drop-ranks: [1, 2]}\n";
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load_mem(ctx, "low-knights.yaml", y, strlen(y));
	VT_CHECK(v != NULL);
	if (!v) {
		vc_ctx_free(ctx);
		return;
	}
	const char *w = "4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1";
	const char *b = "4k3/8/8/8/8/8/8/4K3[np] b - - 0 1";
	struct vc_position *p = vc_position_new(v);
	vc_move ms[VC_MAX_MOVES];
	int sides[2][2] = { { 0 } }; /* [side][knight, pawn] drops */
	for (int s = 0; s < 2; s++) {
		vc_position_set_fen(p, NULL, s ? b : w);
		int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
		for (int i = 0; i < n; i++) {
			if (!(ms[i].flags & VC_MF_DROP))
				continue;
			int knight = ms[i].piece != v->pawn_type;
			sides[s][knight ? 0 : 1]++;
			if (knight)
				VT_CHECK(vc_rel_rank(v, s, ms[i].to) <= 2);
		}
	}
	/* 16 squares less the king's own; pawns: ranks 2 to 7 */
	VT_EQ_INT(sides[0][0], 15);
	VT_EQ_INT(sides[1][0], 15);
	VT_EQ_INT(sides[0][1], 48);
	VT_EQ_INT(sides[1][1], 48);
	char c[16];
	VT_EQ_STR(read_move(v, w, "N@e4", c),
		  "knight may not be dropped on the 4th rank (counted from its side)");
	VT_EQ_STR(read_move(v, b, "N@e2", c),
		  "knight may not be dropped on the 7th rank (counted from its side)");
	VT_EQ_STR(read_move(v, b, "N@e7", c), "");
	VT_EQ_STR(c, "N@e7");
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

static struct vc_variant *builtin(const char *name)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, name);
	vc_ctx_free(ctx);
	return v;
}

/* the SAN of the move that coordinates name, or "" */
static const char *san_of(const struct vc_variant *v, const char *fen, const char *coord)
{
	static char san[64];
	char c[16];
	san[0] = 0;
	if (*read_move(v, fen, coord, c))
		return san;
	struct vc_position *p = vc_position_new(v);
	vc_move ms[VC_MAX_MOVES];
	vc_position_set_fen(p, NULL, fen);
	int n = vc_position_legal_moves(p, ms, VC_MAX_MOVES);
	for (int i = 0; i < n; i++) {
		char d[16];
		vc_move_coord(v, &ms[i], d, sizeof d);
		if (!strcmp(d, c))
			vc_move_san(p, &ms[i], 0, san, sizeof san);
	}
	vc_position_free(p);
	return san;
}

VT_TEST(flip)
{
	/* kyoto shogi: every move turns a piece over, written as the engine
	 * writes it; a piece in hand is dropped either face up */
	struct vc_variant *k = builtin("kyotoshogi");
	const char *start = "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1";
	const char *hand = "p1ks1/5/5/5/1SK1P[NLnl] w - - 0 1";
	char c[16];
	static const struct {
		const char *fen, *text, *coord;
	} ok[] = {
		{ "s", "Sa2=B", "b1a2+" }, { "s", "b1a2+", "b1a2+" },  { "s", "Ga2=L", "a1a2-" },
		{ "s", "a1a2-", "a1a2-" }, { "s", "Pe2=R", "e1e2+" },  { "s", "Kb2", "c1b2" },
		{ "s", "S-4d+", "b1b2+" }, { "s", "+L-5d-", "a1a2-" }, { "h", "+L@c3", "+L@c3" },
		{ "h", "L@c3", "L@c3" },   { "h", "+N*3c", "+N@c3" },  { "h", "N*3c", "N@c3" },
	};
	for (size_t i = 0; k && i < VC_NELEM(ok); i++) {
		c[0] = 0;
		const char *err = read_move(k, ok[i].fen[0] == 's' ? start : hand, ok[i].text, c);
		if (*err)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s': %s", ok[i].text, err);
		else
			VT_EQ_STR(c, ok[i].coord);
	}
	if (k) {
		VT_EQ_STR(read_move(k, hand, "G@c3", c),
			  "'G@c3' is ambiguous: pieces of White's hand of more than one kind are "
			  "written so");
		VT_EQ_STR(read_move(k, start, "a1a2+", c),
			  "'a1a2+': the lance gold cannot promote on this move");
		VT_EQ_STR(san_of(k, start, "b1a2+"), "Sa2=B");
		VT_EQ_STR(san_of(k, start, "a1a2-"), "Ga2=L");
		VT_EQ_STR(san_of(k, hand, "+L@c3"), "+L@c3");
	}
	vc_variant_free(k);
	/* micro shogi: only a capture turns a piece over */
	struct vc_variant *m = builtin("micro");
	const char *mid = "k3/3p/4/1B2/+R2K[] w - - 0 1";
	if (m) {
		VT_EQ_STR(read_move(m, mid, "Bxd4=G", c), "");
		VT_EQ_STR(c, "b2d4+");
		VT_EQ_STR(san_of(m, mid, "b2d4+"), "Bxd4=G");
		VT_EQ_STR(san_of(m, mid, "b2a3"), "Ba3");
		VT_EQ_STR(san_of(m, "k3/4/4/1p2/+R2K[] w - - 0 1", "a1b2-"), "Gxb2=R");
		VT_EQ_STR(read_move(m, mid, "b2a3+", c),
			  "'b2a3+': the bishop cannot promote on this move");
	}
	vc_variant_free(m);
	/* the rule's values */
	struct vc_ctx *ctx = vc_ctx_new();
	static const char bad[] = "name: x\nbase: kyotoshogi\nrules: {flip: sideways}\n";
	struct vc_variant *x = vc_variant_load_mem(ctx, "bad.yaml", bad, strlen(bad));
	VT_CHECK(x == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx), "'flip' must be moves or captures");
	vc_variant_free(x);
	vc_ctx_free(ctx);
}

VT_MAIN(VT_ENTRY(squares), VT_ENTRY(fen_roundtrip), VT_ENTRY(fen_errors), VT_ENTRY(fairy_fen),
	VT_ENTRY(counting_fen), VT_ENTRY(swap_odd_files), VT_ENTRY(pending_prisoners),
	VT_ENTRY(rights_of_a_taken_king),
	VT_ENTRY(make_unmake), VT_ENTRY(san_roundtrips), VT_ENTRY(san_fast_path), VT_ENTRY(legality_shortcuts), VT_ENTRY(move_forms),
	VT_ENTRY(san_writing), VT_ENTRY(variant_errors), VT_ENTRY(captures_own), VT_ENTRY(gating),
	VT_ENTRY(diagram_errors), VT_ENTRY(drop_ranks), VT_ENTRY(flip))
