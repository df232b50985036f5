/*
 * naive.h - a second, deliberately simple legal-move generator, used only by
 * the tests to cross-check the library's (differential testing).  It reads
 * a variant's loaded data and a position string through the library, copies
 * the position into its own plain board, and from then on uses only its own
 * code: every movement atom is walked step by step from its definition,
 * legality is copy-make followed by generating every enemy move.  Slow on
 * purpose; see naive.c for the model.
 */
#ifndef NAIVE_H
#define NAIVE_H

#include <stddef.h>
#include <stdint.h>

struct vc_variant;

#define NAIVE_MAXF 26
#define NAIVE_MAXR 26
#define NAIVE_MAXT 62
#define NAIVE_MAXCASTLE 4
#define NAIVE_MAXEP 32
#define NAIVE_MAXMOVES 8192

/* one square: type -1 when empty; colour 0 white, 1 black, 2 neutral */
struct naive_sq {
	signed char type;
	unsigned char color;
	unsigned char promoted; /* a promoted piece (back to a pawn when taken to hand) */
	unsigned char dead;     /* frozen: neither moves nor attacks */
};

struct naive_pos {
	const struct vc_variant *v;
	int files, ranks;
	int side;                                   /* to move */
	struct naive_sq sq[NAIVE_MAXR][NAIVE_MAXF]; /* [rank][file] */
	int castle[2][NAIVE_MAXCASTLE][2]; /* partner's (file, rank) per right, file -1: none */
	int nep;                           /* en-passant targets, valid for this ply */
	int ep[NAIVE_MAXEP][2];
	int epvictim[2];         /* the piece taken en passant, file -1: none */
	int hand[2][NAIVE_MAXT]; /* reserve area 0: the hand, or SC-Chess's airfield */
	/* reserve area 1, SC-Chess's prison: prison[s][t] counts the pieces of
	 * type t of s's opponent that s holds */
	int prison[2][NAIVE_MAXT];
	int reading; /* NAIVE_READ_* */
	long ply;    /* plies played since the start: for board swaps */
};

/* Readings where the rule text could leave a choice (SC-Chess).
 * NAIVE_READ_XSRC_BEFORE: the pieces a pawn may trade places with when it
 * promotes by exchange are looked for before its move, so a piece that the
 * pawn itself self-captured on the last rank is not one of them.  Without
 * it (the default, what the rule text says word for word and what the
 * library does: the captured piece "is stored in your airfield", and then
 * the pawn "goes to ... your airfield ... where the target piece lives")
 * they are looked for after the capture, so that piece, now in the
 * airfield, may be chosen. */
#define NAIVE_READ_XSRC_BEFORE 0x01

enum naive_kind { NAIVE_NORMAL, NAIVE_EP, NAIVE_CASTLE, NAIVE_DROP };

/* where the piece comes from that a pawn promoting by exchange trades
 * places with */
enum naive_xsrc { NAIVE_X_NONE, NAIVE_X_BOARD, NAIVE_X_AIRFIELD, NAIVE_X_PRISON };

struct naive_move {
	int kind;
	int piece;            /* moving or dropped type */
	int promo;            /* type it becomes, -1 none */
	int ff, fr, tf, tr;   /* from (not for drops) and to */
	int pf, pr, ptf, ptr; /* castling: the partner's from and to */
	int right;            /* castling right index */
	int ncross;           /* squares crossed by a move that leaves en-passant targets */
	signed char cross[NAIVE_MAXEP][2];
	int xsrc;   /* promotion by exchange: NAIVE_X_*, and the square */
	int xf, xr; /* ... of a NAIVE_X_BOARD source */
};

/* Reads fen (a position string of v) into p; 0, or -1 when it does not read. */
int naive_set_fen(struct naive_pos *p, const struct vc_variant *v, const char *fen);
/* Legal moves into out (room for NAIVE_MAXMOVES); returns the count. */
int naive_legal_moves(const struct naive_pos *p, struct naive_move *out);
/* Plays m on a copy: out = p after m. */
void naive_make(const struct naive_pos *p, const struct naive_move *m, struct naive_pos *out);
/* Is some royal piece of side attacked? */
int naive_in_check(const struct naive_pos *p, int side);
/* Leaf nodes of the legal move tree at depth. */
uint64_t naive_perft(const struct naive_pos *p, int depth);
/* naive_perft of a position string; UINT64_MAX when it does not read. */
uint64_t naive_perft_fen(const struct vc_variant *v, const char *fen, int depth);
/* The move in coordinates: "e2e4", "e7e8=Q", "Q@e4", "O:e1g1/h1f1", and for a
 * promotion by exchange "e7e8=R(a1)", "e7e8=R(air)", "e7e8=R(prison)";
 * returns the length. */
int naive_move_text(const struct naive_pos *p, const struct naive_move *m, char *buf, size_t n);
/* The whole state of p as one line, for comparing positions:
 *   BOARD A:w[..]b[..] P:w[..]b[..] side:w castle:w[S,S]b[S,S] ep:S,S victim:S
 * BOARD is the ranks from the top joined by '/', one symbol a square (upper
 * case White, lower case Black, '.' empty, multi-letter symbols in
 * parentheses, '~' after a promoted piece, '!' after a dead one); A: and P:
 * are reserve areas 0 and 1 (hand or airfield; prison) as symbol and count
 * ("R1n2", upper case for White's pieces) per owner; castle: the partner's
 * square of each right, '-' none; ep: the targets in the order made, '-';
 * victim: '-' or its square.  t_diff writes the library's position the
 * same way (lib_state_text). */
int naive_state_text(const struct naive_pos *p, char *buf, size_t n);

#endif
