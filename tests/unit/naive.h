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
	int hand[2][NAIVE_MAXT]; /* reserve area 0 */
};

enum naive_kind { NAIVE_NORMAL, NAIVE_EP, NAIVE_CASTLE, NAIVE_DROP };

struct naive_move {
	int kind;
	int piece;            /* moving or dropped type */
	int promo;            /* type it becomes, -1 none */
	int ff, fr, tf, tr;   /* from (not for drops) and to */
	int pf, pr, ptf, ptr; /* castling: the partner's from and to */
	int right;            /* castling right index */
	int ncross;           /* squares crossed by a move that leaves en-passant targets */
	signed char cross[NAIVE_MAXEP][2];
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
/* The move in coordinates: "e2e4", "e7e8=Q", "Q@e4", "O:e1g1/h1f1"; returns the length. */
int naive_move_text(const struct naive_pos *p, const struct naive_move *m, char *buf, size_t n);

#endif
