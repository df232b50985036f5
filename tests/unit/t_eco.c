/*
 * t_eco.c - openings (archive/eco.c): the built-in lists play whole, a game
 * is named by its last named position, transpositions and en-passant
 * targets no capture uses included, and what is left alone says why.
 */
#include <stdlib.h>
#include <string.h>

#include "vchess.h"
#include "vt.h"

/* Replays the one game of text as variant (NULL: its tags say) and
 * classifies it: the outcome, and the ECO code into eco. */
static enum vc_eco_outcome classify(struct vc_eco *e, const char *text, char *eco, long *ply)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_reader *r = vc_reader_mem(ctx, "t", text, strlen(text), NULL);
	struct vc_validator *val = vc_validator_new(ctx, NULL);
	struct vc_replay *rp = vc_replay_new(NULL, VC_FORMAT_TEXT);
	struct vc_game *g = vc_game_new();
	struct vc_game_stats st;
	struct vc_eco_match m;
	enum vc_eco_outcome o = VC_ECO_FAILED;
	eco[0] = '\0';
	if (vc_reader_next(r, g) == VC_OK && vc_replay_run(rp, val, g, &st) != VC_FATAL) {
		o = vc_eco_classify(e, ctx, g, rp, &m);
		if (o == VC_ECO_ADDED) {
			strcpy(eco, m.eco);
			*ply = m.ply;
		}
	}
	vc_game_free(g);
	vc_replay_free(rp);
	vc_validator_free(val);
	vc_reader_close(r);
	vc_ctx_free(ctx);
	return o;
}

VT_TEST(lists_play_whole)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_eco *e = vc_eco_new();
	struct vc_variant *chess = vc_variant_load(ctx, "chess");
	struct vc_variant *c960 = vc_variant_load(ctx, "chess960");
	struct vc_variant *atomic = vc_variant_load(ctx, "atomic");
	/* 3,807 rows, each its own position, and no problem reported */
	VT_EQ_INT(vc_eco_list_size(e, ctx, chess), 3807);
	VT_EQ_INT(vc_eco_list_size(e, ctx, c960), 3807);
	VT_EQ_INT(vc_eco_list_size(e, ctx, atomic), -1); /* not inherited from chess */
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), 0);
	vc_variant_free(chess);
	vc_variant_free(c960);
	vc_variant_free(atomic);
	vc_eco_free(e);
	vc_ctx_free(ctx);
}

VT_TEST(last_named_position)
{
	struct vc_eco *e = vc_eco_new();
	char eco[8];
	long ply = 0;
	/* the row's own order, and a transposition into the same position */
	VT_EQ_INT(classify(e, "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *", eco, &ply),
		  VC_ECO_ADDED);
	VT_EQ_STR(eco, "B90");
	VT_EQ_INT(ply, 10);
	VT_EQ_INT(classify(e, "1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3 Be7 5. Bg5 *", eco, &ply),
		  VC_ECO_ADDED);
	VT_EQ_STR(eco, "D53");
	/* moves past the last named position keep its name; a variation does not count */
	VT_EQ_INT(classify(e, "1. h4 (1. e4 c5) h5 2. a4 a5 *", eco, &ply), VC_ECO_ADDED);
	VT_EQ_STR(eco, "A00");
	VT_EQ_INT(ply, 1);
	/* 1. d4 e6 2. e4 leaves e3, the row 1. e4 e6 2. d4 leaves d3: no capture uses either */
	VT_EQ_INT(classify(e, "1. d4 e6 2. e4 *", eco, &ply), VC_ECO_ADDED);
	VT_EQ_STR(eco, "C00");
	/* one board, side and castling rights, told apart by a target f4xe3 can use */
	VT_EQ_INT(classify(e, "1. e4 e5 2. f4 exf4 3. Nc3 *", eco, &ply), VC_ECO_ADDED);
	VT_EQ_STR(eco, "C33");
	VT_EQ_INT(classify(e, "1. Nc3 e5 2. f4 exf4 3. e4 *", eco, &ply), VC_ECO_ADDED);
	VT_EQ_STR(eco, "A00");
	vc_eco_free(e);
}

VT_TEST(left_alone)
{
	struct vc_eco *e = vc_eco_new();
	char eco[8];
	long ply;
	VT_EQ_INT(classify(e, "*", eco, &ply), VC_ECO_UNNAMED);
	VT_EQ_INT(classify(e, "[Variant \"Atomic\"]\n\n1. e4 e5 *", eco, &ply), VC_ECO_NO_LIST);
	VT_EQ_INT(classify(e, "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *", eco, &ply),
		  VC_ECO_OTHER_START);
	VT_EQ_INT(classify(e,
			   "[Variant \"Chess960\"]\n[FEN \"rnnbbqkr/pppppppp/8/8/8/8/PPPPPPPP/"
			   "RNNBBQKR w HAha - 0 1\"]\n\n1. e4 *",
			   eco, &ply),
		  VC_ECO_OTHER_START);
	VT_EQ_INT(classify(e,
			   "[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
			   "RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *",
			   eco, &ply),
		  VC_ECO_ADDED);
	VT_EQ_STR(eco, "C60");
	vc_eco_free(e);
}

VT_MAIN(VT_ENTRY(lists_play_whole), VT_ENTRY(last_named_position), VT_ENTRY(left_alone))
