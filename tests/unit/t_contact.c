/*
 * t_contact.c - unit tests of what a newcomer meets first: names of
 * variants that are almost right, position strings as other programs
 * write and read them, and move text as real files write it (lenient, and
 * what --strict says of it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static const char *first_suggestion(const char *name, int *count)
{
	int near[8];
	*count = vc_builtin_suggest(name, near, 8);
	return *count > 0 ? vc_builtin_name(near[0]) : NULL;
}

VT_TEST(variant_suggestions)
{
	int n;
	VT_EQ_STR(first_suggestion("crazyhose", &n), "crazyhouse");
	VT_EQ_STR(first_suggestion("Standart", &n), "chess"); /* through an alias */
	VT_EQ_STR(first_suggestion("SCHIZO", &n), "schizochess"); /* the start of a name */
	VT_EQ_STR(first_suggestion("sc-chses", &n), "sc-chess"); /* two letters swapped */
	VT_CHECK(first_suggestion("tic-tac-toe", &n) == NULL);
	VT_EQ_INT(n, 0);
	VT_CHECK(first_suggestion("", &n) == NULL);
	VT_CHECK(first_suggestion(NULL, &n) == NULL);
	/* nearest first, then in the built-ins' order; cap respected */
	int near[2];
	VT_EQ_INT(vc_builtin_suggest("sico-16", near, 2), 2);
	VT_EQ_STR(vc_builtin_name(near[0]), "sico-1");
	/* the message says them and where every name is */
	struct vc_ctx *ctx = vc_ctx_new();
	VT_CHECK(vc_variant_load(ctx, "crazyhose") == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx),
		  "unknown variant 'crazyhose' (nearest: crazyhouse; 'vchess-variant list' names "
		  "them all)");
	VT_CHECK(vc_variant_load(ctx, "tic-tac-toe") == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx),
		  "unknown variant 'tic-tac-toe' ('vchess-variant list' names them all)");
	vc_ctx_free(ctx);
}

/* Reads text in the position fen (chess): 0 and the move, or -1 and the
 * message in msg. */
static int read_move(const char *fen, const char *text, vc_move *m, char *msg, size_t n)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "chess");
	struct vc_position *p = vc_position_new(v);
	struct vc_san san;
	const char *code = NULL;
	int rc = vc_position_set_fen(p, ctx, fen) == VC_OK ? 0 : -1;
	if (rc == 0)
		rc = vc_san_parse(v, text, strlen(text), &san, &code, msg, n);
	if (rc == 0)
		rc = vc_san_resolve(p, &san, text, strlen(text), m, NULL, &code, msg, n);
	if (rc == 0 && vc_san_strict(p, m, text, strlen(text), msg, n) == 0)
		snprintf(msg, n, "SAN");
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
	return rc;
}

#define PROMO "rn2k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
#define EP "4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 1"
#define BISHOP "4k3/8/2p5/8/4B3/8/8/4K3 w - - 0 1"
#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KNIGHTS "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"

VT_TEST(move_readings)
{
	static const struct {
		const char *fen, *text, *said;
	} t[] = {
		/* lenient: each reads, and strict mode says what SAN writes */
		{ PROMO, "bxa8=Q+", "SAN" },
		{ PROMO, "bxa8Q", "'bxa8Q' is not SAN: a promotion is written with '=' and a capital ('bxa8=Q')" },
		{ PROMO, "bxa8/Q", "'bxa8/Q' is not SAN: a promotion is written with '=' and a capital ('bxa8=Q')" },
		{ PROMO, "bxa8(Q)", "'bxa8(Q)' is not SAN: a promotion is written with '=' and a capital ('bxa8=Q')" },
		{ PROMO, "bxa8=q", "'bxa8=q' is not SAN: a promotion is written with '=' and a capital ('bxa8=Q')" },
		{ PROMO, "b7a8=Q", "'b7a8=Q' is not SAN: coordinates ('bxa8=Q')" },
		{ START, "e2e4", "'e2e4' is not SAN: coordinates ('e4')" },
		{ START, "e2-e4", "'e2-e4' is not SAN: long algebraic notation ('e4')" },
		{ START, "Ng1-f3", "'Ng1-f3' is not SAN: long algebraic notation ('Nf3')" },
		{ START, "Pe4", "'Pe4' is not SAN: a pawn's move has no piece letter ('e4')" },
		{ START, "Nf3", "SAN" },
		{ BISHOP, "B:c6", "'B:c6' is not SAN: a capture is written with 'x' ('Bxc6')" },
		{ BISHOP, "Bexc6", "'Bexc6' is not SAN: more than SAN needs to tell the piece ('Bxc6')" },
		{ BISHOP, "Be4xc6", "'Be4xc6' is not SAN: long algebraic notation ('Bxc6')" },
		{ EP, "exf6ep", "'exf6ep' is not SAN: an en-passant capture has no mark ('exf6')" },
		{ EP, "exf6", "SAN" },
		{ KNIGHTS, "Nbd2", "SAN" },
		{ KNIGHTS, "Nb1d2", "'Nb1d2' is not SAN: long algebraic notation ('Nbd2')" },
		{ "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "Nbd2",
		  "'Nbd2' is not SAN: more than SAN needs to tell the piece ('Nd2')" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char msg[256] = "";
		vc_move m;
		if (read_move(t[i].fen, t[i].text, &m, msg, sizeof msg) != 0)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' does not read: %s", t[i].text, msg);
		else
			VT_EQ_STR(msg, t[i].said);
	}
}

VT_TEST(move_messages)
{
	static const struct {
		const char *text, *said;
	} t[] = {
		{ "-+", "'-+' is an evaluation (Black is winning), not a move: write the NAG $19" },
		{ "+-", "'+-' is an evaluation (White is winning), not a move: write the NAG $18" },
		{ "=", "'=' is an evaluation (the position is equal), not a move: write the NAG $10" },
		{ "###", "'###' is not a move" },
		{ "+=+", "'+=+' is not a move" },
		/* a rank of many digits: bounded, no overflow */
		{ "99999999999d3", "'99999999999d3' is not a move" },
		{ "N99999999999999999999d3", "'N99999999999999999999d3' is not a move" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char msg[256] = "";
		vc_move m;
		VT_EQ_INT(read_move(START, t[i].text, &m, msg, sizeof msg), -1);
		VT_EQ_STR(msg, t[i].said);
	}
}

VT_MAIN(VT_ENTRY(variant_suggestions), VT_ENTRY(move_readings), VT_ENTRY(move_messages))
