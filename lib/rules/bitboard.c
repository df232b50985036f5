/*
 * rules/bitboard.c - perft over 64-bit bitboards, for the variants whose
 * board and pieces fit them (see doc/DESIGN.md, "The bitboard core").
 *
 * The tables come from the variant's compiled paths (vc_rules.h), not from
 * knowing any game: each path of each side, type and origin is a leap (one
 * square: a table per origin), a ride (the squares of one step vector up to
 * the board's edge: a direction, its squares one ray mask per origin, the
 * first piece on it found by a bit scan), or a short path that only moves
 * (a pawn's step of two, its crossed square in transit, maybe a first move
 * only), walked square by square.  A variant whose paths have other shapes,
 * or whose mechanics need more than moving, taking (en passant too),
 * promoting, castling and the end rules that read the board and the checks
 * given, gets no tables (v->bb stays NULL) and perft keeps to movegen.c's
 * general way.  The mirror's tables (v->bbm, the attack
 * tests and origins) may leave out types of other shapes that are not
 * royal (vc_bb_outside): while such a piece stands on the board, the tests
 * it could change go the general way (vc_bb_holds).
 *
 * Generation is legal (a side without a royal piece has every move legal):
 * the checkers and the pieces pinned to the royal piece are found from it
 * outwards along the enemy's ride directions; a pinned piece moves only on
 * its pin line, in check only to take the one checker or to stand between;
 * the royal piece only to squares not attacked with it lifted off the
 * board.  En passant and castling are made on a copy and tested there.
 * Types left out of the tables whose paths only move, take or hop are
 * walked square by square (the xiangqi family's horses, elephants and
 * cannons); with them, or with royal pieces that may not face each
 * other, the pins no longer tell which moves are legal, and every move
 * that empties or fills a square that might expose the royal piece is
 * tested (gen_tested).  Positions are copied, not unmade.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

/* A square set: 64 bits, or 128 where bitboard_wide.c compiles this file
 * again for boards of 65 to 128 squares (perft and the mate test only: no
 * mirror is kept on such boards).  That build's struct and entry points
 * are named vc_bbw. */
#ifdef VC_BB_WIDE
typedef unsigned __int128 bbs;
#define BB_NSQ 128
#define vc_bb vc_bbw
#define vc_bb_build vc_bbw_build
#define vc_bb_free vc_bbw_free
#define vc_bb_perft vc_bbw_perft
#define vc_bb_has_legal vc_bbw_has_legal
#define vc_bb_count_board vc_bbw_count_board
#define vc_bb_serves_perft vc_bbw_serves_perft
static inline int bb_ctz(bbs x)
{
	uint64_t lo = (uint64_t)x;
	return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
/* the highest square of x (not empty) */
static inline int bb_msb(bbs x)
{
	uint64_t hi = (uint64_t)(x >> 64);
	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}
static inline int bb_pop(bbs x)
{
	return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
/* the set of the squares in w[] (VC_SQWORDS words) */
static inline bbs bb_words(const uint64_t *w)
{
	return (bbs)w[0] | (bbs)w[1] << 64;
}
#else
typedef uint64_t bbs;
#define BB_NSQ 64
static inline int bb_ctz(bbs x)
{
	return __builtin_ctzll(x);
}
static inline int bb_msb(bbs x)
{
	return 63 - __builtin_clzll(x);
}
static inline int bb_pop(bbs x)
{
	return __builtin_popcountll(x);
}
static inline bbs bb_words(const uint64_t *w)
{
	return w[0];
}
#endif
#define BB_ALL (~(bbs)0)

#define BB_MAXT VC_BB_MAXT /* piece types */
#define BB_MAXD 16 /* ride directions (with their opposites) */
#define BB_MAXSP 8 /* squares of a short path */
#define BB_SETV 4  /* leap vectors of a type counted set-wise */

#define BM_CAP 1
#define BM_EP 2
#define BM_DOUBLE 4
#define BM_CASTLE 8
#define BM_DROP 16 /* from: the type dropped; promo: the face it shows (type + 1), or 0 */
#define BM_PASS 32 /* a pass (from and to: the royal piece's square) */

#ifdef VC_BB_WIDE
/* a 128-bit shift by a variable count takes several instructions: a
 * square's bit from a table instead */
#define BIT1(n) ((bbs)1 << (n))
#define BIT4(n) BIT1(n), BIT1(n + 1), BIT1(n + 2), BIT1(n + 3)
#define BIT16(n) BIT4(n), BIT4(n + 4), BIT4(n + 8), BIT4(n + 12)
#define BIT64(n) BIT16(n), BIT16(n + 16), BIT16(n + 32), BIT16(n + 48)
static const bbs sqbit[BB_NSQ] = { BIT64(0), BIT64(64) };

static inline bbs bit(int sq)
{
	return sqbit[sq];
}
#else
static inline bbs bit(int sq)
{
	return (bbs)1 << sq;
}
#endif

/* a destination of a path that only moves: the squares that must be
 * empty for it (its own and those before it on the path) */
struct bb_step {
	bbs need;
	uint8_t to, first, dbl; /* first: only with the first-move right; dbl: a step
				   of several squares that leaves en-passant targets */
};

/* a short path's shape, its squares as differences from its origin */
struct bb_shape {
	int8_t to, nneed;
	int8_t need[BB_MAXSP];
	uint8_t first, dbl;
};

/* a short path read backwards: the origin it starts from, its type, the
 * squares that must be empty (vc_bb_reach) */
struct bb_back {
	bbs need;
	uint8_t from, type;
};

struct vc_bb {
	int nsq, files, ranks, ntypes, ndir, king;
	int perft; /* the variant's mechanics fit too */
	int nocheck; /* no move may give check (racing kings) */
	int moves; /* those of its moves on the board do (the mate test) */
	uint64_t out, outcap; /* the types left out (vc_bb_outside) */
	int exceptions; /* some type has properties besides royal and pawn (uncapturable...) */
	int8_t dx[BB_MAXD], dy[BB_MAXD];
	uint8_t up[BB_MAXD];  /* 1: the direction goes to higher square numbers */
	uint8_t opp[BB_MAXD]; /* the opposite direction */
	bbs ray[BB_MAXD][BB_NSQ];
	uint16_t dirto[BB_NSQ][BB_NSQ]; /* the directions whose ray from a square holds another */
	uint16_t rmodes[2][BB_MAXT][BB_MAXD];    /* modes of the type's ride that way, 0 none */
	uint16_t rq[2][BB_MAXT], rc[2][BB_MAXT]; /* directions it rides moving, taking */
	uint16_t cdir[2][BB_MAXD];               /* types that take riding that way */
	uint16_t capdirs[2];                     /* directions some type takes along */
	/* the distinct sets cdir[s][d] (groups), and each direction's */
	uint16_t grp[2][BB_MAXD];
	uint8_t ngrp[2], dgrp[2][BB_MAXD];
	/* each group's directions turned about (an attack on sq comes from
	 * there), and the squares of their rays from each square */
	uint16_t gback[2][BB_MAXD];
	bbs gline[2][BB_MAXD][BB_NSQ];
	/* some origin of the type has short paths, takes en passant */
	uint8_t hasshort[2][BB_MAXT], haslep[2][BB_MAXT];
	uint32_t leapcap[2]; /* types that take by a leap */
	/* leaps of one square made only with the first-move right (cambodian's
	 * king and met): moving, taking, and their inverse for the attack
	 * tests; the types that have any, that take by one, and those whose
	 * first leaps are barred while their side is in check */
	bbs fq[2][BB_MAXT][BB_NSQ], fc[2][BB_MAXT][BB_NSQ], finv[2][BB_MAXT][BB_NSQ];
	uint32_t hasfirst[2], fleapcap[2], funchecked[2];
	int nomirror; /* first leaps: positions' mirrors cannot serve */
	bbs lq[2][BB_MAXT][BB_NSQ], lc[2][BB_MAXT][BB_NSQ], lep[2][BB_MAXT][BB_NSQ];
	bbs inv[2][BB_MAXT][BB_NSQ]; /* origins of the type's leaps that take on sq */
	bbs invq[2][BB_MAXT][BB_NSQ]; /* origins of the type's leaps that move to sq */
	uint32_t leapmove[2]; /* types that move by a leap (leapcap: that take by one) */
	uint32_t boff[2][BB_NSQ + 1];      /* the short paths ending on each square, in back */
	struct bb_back *back;
	uint32_t *soff[2][BB_MAXT];   /* [BB_NSQ + 1] the steps of each origin in sp */
	struct bb_step *sp;
	int nsp, capsp;
	/* promotion: the zones */
	bbs pzone[2][BB_MAXT], azone[2][BB_MAXT];
	bbs special[2][BB_MAXT]; /* destinations where a move may promote */
	bbs fromzone[2][BB_MAXT]; /* origins from which every move may (shogi) */
	/* fixed castling: where the royal piece and the partner go */
	int8_t kto[2][VC_MAXCASTLE], pto[2][VC_MAXCASTLE];
	/* and from the start squares (the castling piece's home, the
	 * partner's): the squares between that must be empty, 0 unknown */
	int8_t khome[2], phome[2][VC_MAXCASTLE];
	bbs cblock[2][VC_MAXCASTLE];
	/* types whose leaps go by few square differences (a pawn's step and
	 * captures, not a knight's eight): perft's last ply counts them for all
	 * the type's unpinned pieces at once, by shifts.  [kind]: 0 moving, 1
	 * taking; each difference and the origins that leap by it.  The same
	 * for the short paths, by their shape (shp, shsrc); shset: they fit. */
	uint8_t setw[2][BB_MAXT], nsv[2][BB_MAXT][2];
	/* types whose every move is a leap or ride that moves and takes alike,
	 * with no promotion, short path or en passant: perft's last ply counts
	 * a piece's moves by one popcount (gen_type) */
	uint8_t plain[2][BB_MAXT];
	int8_t sdelta[2][BB_MAXT][2][BB_SETV];
	bbs ssrc[2][BB_MAXT][2][BB_SETV];
	uint8_t shset[2][BB_MAXT], nshp[2][BB_MAXT];
	struct bb_shape shp[2][BB_MAXT][BB_SETV];
	bbs shsrc[2][BB_MAXT][BB_SETV];
	/* the end rules' region (end: region), each side's squares and the
	 * types that count there */
	bbs region[2];
	uint64_t regtypes;
	/* perft with a hand (hands_fit): where each type may be dropped, the
	 * types also dropped face up as another (their type + 1), and
	 * whether promoted pieces are marked (captured-promoted: pawn) */
	int hands, marks;
	bbs dropzone[2][BB_MAXT];
	uint8_t faceup[BB_MAXT];
	/* perft with walked types (walk, a subset of out): types the tables
	 * cannot hold whose paths it walks square by square over the board
	 * (gen_walk: a lame leap, a hop); with them, with royal pieces that
	 * may not face each other (facing) or must part (bikjang), or with
	 * passes, every move that might expose the royal piece is tested
	 * (tested, gen_tested).  winv: the origins from which a taking path
	 * of the type ends on a square, whatever stands between: attacked()
	 * walks the paths of those alone (walk_hits).  var: the paths. */
	uint64_t walk;
	uint32_t walkcap[2];
	int tested, facing, immune; /* immune: some walked type has hop-immune types */
	int bikjang, pass;          /* VC_R_BIKJANG, VC_R_PASS */
	const struct vc_variant *var;
	bbs winv[2][BB_MAXT][BB_NSQ];
#ifndef VC_BB_WIDE
	/* each line (direction 2k with its opposite 2k + 1) through each
	 * square, for the lines in lpairs (bit 2k): the squares whose pieces
	 * may stop a ride along it (line_inner), and a multiplier that packs
	 * their occupancy into the index of the line's reach in ltab
	 * (line_tables) */
	struct bb_line {
		uint64_t mask, magic;
		uint32_t off;
		uint8_t shift;
	} line[BB_MAXD / 2][BB_NSQ];
	uint32_t lpairs;
	uint64_t *ltab;
#endif
};

/* a position */
struct bpos {
	bbs occ[2];
	bbs first; /* pieces holding their first-move right */
	bbs ep;    /* en-passant targets */
	int8_t epvictim, side;
	int8_t king[2];
	int8_t castle[2][VC_MAXCASTLE]; /* partners' squares, -1 lost */
	uint8_t checks[2];              /* checks given (end: checks) */
	uint8_t passes;                 /* passes made in a row, up to 2 (end: passes) */
	uint8_t board[BB_NSQ];          /* type + 1, 0 empty */
	/* each type's pieces, by type first: where a variant has at most
	 * eight types, a make copies the position up to the eighth (bb_make) */
	bbs pc[BB_MAXT][2];
	/* last, so that a make copies them only where they are read */
	uint8_t hand[2][BB_MAXT]; /* pieces in hand (perft with a hand only) */
	bbs promoted;             /* pieces marked promoted (b->marks only) */
};

struct bmove {
	uint8_t from, to, promo, flags; /* promo: type + 1; castling: the right */
};

void vc_bb_free(struct vc_bb *b)
{
	if (!b)
		return;
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < BB_MAXT; t++)
			free(b->soff[s][t]);
	free(b->sp);
	free(b->back);
#ifndef VC_BB_WIDE
	free(b->ltab);
#endif
	free(b);
}

/* the squares a direction d and its opposite (added as d and d + 1)
 * reach from 'from' at once, as one line, by the obstruction difference:
 * the lowest piece above from, less the highest one below it, masked by
 * the line */
static inline bbs line_reach(const struct vc_bb *b, int d, int from, bbs occ)
{
	int u = d + !b->up[d], l = u ^ 1;
	bbs up = b->ray[u][from], down = b->ray[l][from];
	bbs hi = up & occ, lo = down & occ;
	bbs below = BB_ALL << bb_msb(lo | 1);
	return (up | down) & (2 * (hi & (0 - hi)) + below);
}

/* ---- tables from the paths ---- */

static int dir_index(struct vc_bb *b, int dx, int dy)
{
	for (int d = 0; d < b->ndir; d++)
		if (b->dx[d] == dx && b->dy[d] == dy)
			return d;
	if (b->ndir + 2 > BB_MAXD)
		return -1;
	for (int k = 0; k < 2; k++) {
		int d = b->ndir++, sx = k ? -dx : dx, sy = k ? -dy : dy;
		b->dx[d] = (int8_t)sx;
		b->dy[d] = (int8_t)sy;
		b->up[d] = sy > 0 || (sy == 0 && sx > 0);
		b->opp[d] = (uint8_t)(k ? d - 1 : d + 1);
		for (int o = 0; o < b->nsq; o++) {
			int f = o % b->files + sx, r = o / b->files + sy;
			for (; f >= 0 && r >= 0 && f < b->files && r < b->ranks; f += sx, r += sy)
				b->ray[d][o] |= bit(r * b->files + f);
		}
	}
	return b->ndir - 2;
}

/* Is the path s (len squares, from o) a ride to the board's edge?  Its
 * direction, or -1; -2 when there is no room for it in the tables. */
static int ride_dir(struct vc_bb *b, int o, const int16_t *s, int len)
{
	if (len < 2)
		return -1;
	int f0 = o % b->files, r0 = o / b->files;
	int dx = (s[0] & VC_PS_SQMASK) % b->files - f0, dy = (s[0] & VC_PS_SQMASK) / b->files - r0;
	for (int j = 0; j < len; j++) {
		int f = f0 + (j + 1) * dx, r = r0 + (j + 1) * dy;
		if ((s[j] & (VC_PS_TRANSIT | VC_PS_SELF)) || f < 0 || r < 0 || f >= b->files ||
		    r >= b->ranks || (s[j] & VC_PS_SQMASK) != r * b->files + f)
			return -1;
	}
	int f = f0 + (len + 1) * dx, r = r0 + (len + 1) * dy;
	if (f >= 0 && r >= 0 && f < b->files && r < b->ranks)
		return -1; /* stops short of the edge */
	int d = dir_index(b, dx, dy);
	return d < 0 ? -2 : d;
}

#define RIDE_MODES (VC_MODE_MOVE | VC_MODE_CAPTURE)

/* First pass: the ride directions of each side and type, with their
 * modes, which must be the same from every origin. */
static int find_rides(struct vc_bb *b, const struct vc_variant *v)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++)
			for (int o = 0; o < v->nsq && !(b->out >> t & 1); o++) {
				int32_t off = v->pathoff[s][t][o];
				if (!off)
					continue;
				const int16_t *q = v->paths + off;
				int np = *q++;
				for (int i = 0; i < np; i++, q += 2 + q[0]) {
					int modes = q[1] & ~VC_MODE_SELF; /* see origin_tables */
					if ((modes & ~RIDE_MODES) || !(modes & RIDE_MODES))
						continue;
					int d = ride_dir(b, o, q + 2, q[0]);
					if (d == -2)
						return -1;
					if (d < 0)
						continue;
					if (b->rmodes[s][t][d] && b->rmodes[s][t][d] != modes)
						return -1;
					b->rmodes[s][t][d] = (uint16_t)modes;
				}
			}
	return 0;
}

/* Is the one-square path to sq (modes) the whole ray of one of the type's
 * rides from o?  Its direction, or -1. */
static int ride_edge(const struct vc_bb *b, int s, int t, int o, int sq, int modes)
{
	for (int d = 0; d < b->ndir; d++)
		if (b->rmodes[s][t][d] == modes && b->ray[d][o] == bit(sq))
			return d;
	return -1;
}

/* a path that only moves, as its destinations */
static int add_short(struct vc_bb *b, int modes, const int16_t *s, int len)
{
	if (len > BB_MAXSP || (modes & (VC_MODE_CAPTURE | VC_MODE_EPTAKE)) ||
	    !(modes & VC_MODE_MOVE))
		return -1;
	bbs need = 0;
	for (int j = 0; j < len; j++) {
		if (s[j] & VC_PS_SELF)
			return -1;
		need |= bit(s[j] & VC_PS_SQMASK);
		if (s[j] & VC_PS_TRANSIT)
			continue;
		if (b->nsp == b->capsp) {
			int cap = b->capsp ? 2 * b->capsp : 64;
			struct bb_step *n = realloc(b->sp, (size_t)cap * sizeof *n);
			if (!n)
				return -1;
			b->sp = n;
			b->capsp = cap;
		}
		struct bb_step *p = &b->sp[b->nsp++];
		p->need = need;
		p->to = (uint8_t)(s[j] & VC_PS_SQMASK);
		p->first = (modes & VC_MODE_FIRST) != 0;
		p->dbl = (modes & VC_MODE_EPMAKE) && j > 0;
	}
	return 0;
}

/* A leap from o to sq made only with the first-move right (modes), into
 * fq and fc: 0, or -1 when the tables cannot hold it (another mode, or
 * some of the type's first leaps barred in check and some not). */
static int first_leap(struct vc_bb *b, int s, int t, int modes, int sq, int o)
{
	unsigned u = 1u << t, unchecked = (modes & VC_MODE_UNCHECKED) ? u : 0;
	if ((modes & ~(RIDE_MODES | VC_MODE_FIRST | VC_MODE_UNCHECKED)) || !(modes & RIDE_MODES) ||
	    ((b->hasfirst[s] & u) && (b->funchecked[s] & u) != unchecked) ||
	    ((b->fq[s][t][o] | b->fc[s][t][o]) & bit(sq)))
		return -1;
	b->hasfirst[s] |= u;
	b->funchecked[s] |= unchecked;
	if (modes & VC_MODE_MOVE)
		b->fq[s][t][o] |= bit(sq);
	if (modes & VC_MODE_CAPTURE)
		b->fc[s][t][o] |= bit(sq);
	b->nomirror = 1;
	return 0;
}

/* Second pass, one origin: leaps into the tables, short paths into sp;
 * every ride of the type must be there in full, and no square may be
 * reached both by a short path and another way (the general generator
 * would count it once, in the order of the paths). */
static int origin_tables(struct vc_bb *b, const struct vc_variant *v, int s, int t, int o)
{
	uint32_t covered = 0;
	bbs other = 0, shortdest = 0;
	b->soff[s][t][o] = (uint32_t)b->nsp;
	int32_t off = v->pathoff[s][t][o];
	const int16_t *q = off ? v->paths + off : NULL;
	int np = q ? *q++ : 0;
	for (int i = 0; i < np; i++, q += 2 + q[0]) {
		/* taking one's own pieces (self-capture) changes no square a path
		 * reaches: the mirror takes such a variant, perft never does (its
		 * mechanics do not fit) */
		int len = q[0], modes = q[1] & ~VC_MODE_SELF, d;
		const int16_t *sq = q + 2;
		int dest = 0;
		for (int j = 0; j < len; j++)
			dest |= !(sq[j] & VC_PS_TRANSIT);
		if (!dest)
			continue; /* no destination: all of it outside the type's region */
		if (modes & VC_MODE_HOP)
			return -1;
		if (modes & VC_MODE_FIRST && len == 1 && !(sq[0] & (VC_PS_TRANSIT | VC_PS_SELF))) {
			if (first_leap(b, s, t, modes, sq[0] & VC_PS_SQMASK, o))
				return -1;
			continue;
		}
		if (modes & VC_MODE_UNCHECKED)
			return -1;
		if (!(modes & ~RIDE_MODES) && (d = ride_dir(b, o, sq, len)) >= 0) {
			covered |= 1u << d;
			continue;
		}
		int e = sq[0], to = e & VC_PS_SQMASK;
		if (len == 1 && !(e & (VC_PS_TRANSIT | VC_PS_SELF)) && !(modes & VC_MODE_FIRST)) {
			if (modes & ~(RIDE_MODES | VC_MODE_EPTAKE | VC_MODE_EPMAKE))
				return -1;
			if (!(modes & VC_MODE_EPTAKE) &&
			    (d = ride_edge(b, s, t, o, to, modes)) >= 0) {
				covered |= 1u << d;
				continue;
			}
			if (modes & VC_MODE_MOVE)
				b->lq[s][t][o] |= bit(to);
			if (modes & VC_MODE_CAPTURE)
				b->lc[s][t][o] |= bit(to);
			if (modes & VC_MODE_EPTAKE) {
				if (b->lep[s][t][o] & bit(to))
					return -1;
				b->lep[s][t][o] |= bit(to);
			}
			other |= bit(to);
			continue;
		}
		if (add_short(b, modes, sq, len))
			return -1;
		for (int j = 0; j < len; j++)
			if (!(sq[j] & VC_PS_TRANSIT)) {
				bbs m = bit(sq[j] & VC_PS_SQMASK);
				if ((shortdest | other) & m)
					return -1;
				shortdest |= m;
			}
	}
	for (int d = 0; d < b->ndir; d++)
		if (b->rmodes[s][t][d]) {
			if (b->ray[d][o] && !(covered >> d & 1))
				return -1;
			other |= b->ray[d][o];
		}
	/* a first leap to a square reached another way too: the general
	 * generator might count it twice */
	bbs firstdest = b->fq[s][t][o] | b->fc[s][t][o];
	return ((shortdest & other) || (firstdest & (shortdest | other))) ? -1 : 0;
}

/* A type whose moves the tables cannot hold: a walked one (a hop, a path
 * too long for the tries; a first move but a leap), a bent, zigzag or
 * reflecting one, a ride kept within a region, or one that dies alone (a
 * dead piece moves and attacks nothing).  First-move leaps, and leaps
 * kept within a region (janggi's palace diagonals), are held, but then no
 * mirror is kept (nomirror). */
static int type_outside(const struct vc_variant *v, int t)
{
	const struct vc_ptype *pt = &v->types[t];
	if ((pt->props & VC_P_DIES_ALONE) || ((v->walk_types & ~v->first_types) >> t & 1))
		return 1;
	for (int a = 0; a < pt->natoms; a++) {
		const struct vc_atom *at = &pt->atoms[a];
		if ((at->kind != VC_A_LEAP && at->kind != VC_A_RIDE) ||
		    (at->within && at->kind != VC_A_LEAP) ||
		    ((at->modes & VC_MODE_FIRST) && (at->kind != VC_A_LEAP || (at->modes & VC_MODE_HOP))))
			return 1;
	}
	return 0;
}

/* 0 when the board and the pieces fit the tables, with the types left out
 * of them in b->out and, of those, the ones that take in b->outcap.  No
 * royal type may be left out (one always stands on the board, and the
 * mirror would never serve), and no two-square piece fits. */
static int pieces_fit(struct vc_bb *b, const struct vc_variant *v)
{
	if (v->nsq > BB_NSQ || v->ntypes > BB_MAXT || v->two_types)
		return -1;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		if (!type_outside(v, t))
			continue;
		if ((pt->props & (VC_P_ROYAL | VC_P_TWOSQUARE)) || t == v->king_type)
			return -1;
		b->out |= 1ULL << t;
		if (pt->natoms && !(pt->props & (VC_P_NOCAPTURE | VC_P_IMMOBILE)))
			b->outcap |= 1ULL << t;
	}
	return 0;
}

/* Type t's paths, each side's from each origin.  With fill 0: can perft
 * walk them square by square, paths that move, take, or hop to take, and
 * nothing more (no first move, en passant or self-capture)?  With fill 1:
 * the origins from which each taking path ends on each square, into winv
 * (and walkcap). */
static int walk_paths(struct vc_bb *b, const struct vc_variant *v, int t, int fill)
{
	for (int s = 0; s < 2; s++)
		for (int o = 0; o < v->nsq; o++) {
			int32_t off = v->pathoff[s][t][o];
			const int16_t *q = off ? v->paths + off : NULL;
			int np = q ? *q++ : 0;
			for (int i = 0; i < np; i++, q += 2 + q[0]) {
				if (!fill && (q[1] & ~(RIDE_MODES | VC_MODE_HOP)))
					return 0;
				if (fill && (q[1] & VC_MODE_CAPTURE))
					b->walkcap[s] |= 1u << t;
				for (int j = 0; j < q[0]; j++) {
					int e = q[2 + j];
					if (!fill && (e & VC_PS_SELF))
						return 0;
					if (fill && (q[1] & VC_MODE_CAPTURE) && !(e & VC_PS_TRANSIT))
						b->winv[s][t][e & VC_PS_SQMASK] |= bit(o);
				}
			}
		}
	return 1;
}

/* The walked types (b->walk): left out of the tables, with no property
 * and no promotion, their paths walkable (walk_paths). */
static void walk_tables(struct vc_bb *b, const struct vc_variant *v)
{
	b->var = v;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		if (!(b->out >> t & 1) || pt->props || pt->promo_choices || pt->auto_to >= 0 ||
		    pt->flip_to >= 0 || pt->promo_step || (v->two_types >> t & 1) ||
		    !walk_paths(b, v, t, 0))
			continue;
		b->walk |= 1ULL << t;
		b->immune |= pt->hop_immune != 0;
		walk_paths(b, v, t, 1);
	}
}

/* Can perft make and test every move (b->tested)?  Not with castling
 * (its attack tests do not walk), a hand, first-move leaps, no-check or a
 * royal piece that may only take when in check. */
static int tested_fits(const struct vc_bb *b, const struct vc_variant *v)
{
	return !v->ncastle && !v->nreserve && !b->hasfirst[0] && !b->hasfirst[1] &&
	       !(v->rules & (VC_R_NO_CHECK | VC_R_KING_CHECK_CAPTURES));
}

#ifndef VC_BB_WIDE
uint64_t vc_bb_outside(const struct vc_bb *b, int capture)
{
	return b ? (capture ? b->outcap : b->out) : 0;
}
#endif

/* Perft over bitboards with a hand knows one reserve, the hand, filled by
 * captures or from the start, its pieces dropped on the empty squares
 * their drop ranks and regions allow (face up too, drop-promoted); not the
 * drop rules that look at the position (one per file, no mate by a drop,
 * squares of other colours), dropping first (must-drop), castling rights
 * given by drops, nor no-check. */
static int hands_fit(const struct vc_variant *v)
{
	if (v->nreserve != 1 || !(v->rules & VC_R_DROPS) || v->drop_rule_types ||
	    (v->rules & (VC_R_MUST_DROP | VC_R_CASTLE_DROPS | VC_R_NO_CHECK)))
		return 0;
	for (int t = 0; t < v->ntypes; t++)
		if (v->types[t].drop_colours)
			return 0;
	return 1;
}

/* The mechanics the generator over bitboards knows: moving, taking (en
 * passant too), promoting and castling, a royal piece in check that may
 * only take (makpong), every end rule (bb_over), sides without a royal
 * piece (every move legal: extinction, horde), a hand (hands_fit), and
 * in tested mode passes and royal pieces that may not face each other
 * (flying-general, bikjang).  With
 * moves, those of the moves on the board alone for the mate test (a legal
 * move on the board is one whatever else the variant has): any end rule,
 * regions (the paths keep to them already) and drops from a hand may be
 * there too, but a royal type must be. */
static int mechanics_fit(const struct vc_variant *v, int moves)
{
	unsigned known = VC_R_EP | VC_R_CASTLE_THROUGH_CHECK | VC_R_CASTLE_ANY_PARTNER |
			 VC_R_KING_CHECK_CAPTURES;
	int k = v->king_type;
	if (moves || hands_fit(v))
		known |= VC_R_DROPS | VC_R_CAPTURE_TO_HAND | VC_R_DROP_PROMOTED;
	/* perft tests every move for the check it gives under no-check, the
	 * one complex mechanic it knows */
	unsigned complex_known = moves ? 0 : VC_R_NO_CHECK;
	known |= complex_known;
	/* royal pieces that may not face each other or, facing, must part or
	 * pass, and passes: perft tests every move (b->tested) */
	if (!moves)
		known |= VC_R_NO_FACING | VC_R_BIKJANG | VC_R_PASS;
	if ((v->has_complex && !(v->rules & complex_known)) || (v->rules & ~known) ||
	    (moves && k < 0) || (!moves && v->nreserve && !hands_fit(v)))
		return 0;
	if (k >= 0 && v->ncastle && v->castle_type != k)
		return 0;
	for (int i = 0; k >= 0 && i < v->ncastle; i++)
		if (v->castle[i].becomes == k)
			return 0;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		if ((pt->props & ~(unsigned)(VC_P_ROYAL | VC_P_PAWN)) || pt->promo_step)
			return 0;
		if (k >= 0 && (((pt->props & VC_P_ROYAL) && t != k) || (pt->promo_choices >> k & 1) ||
			       pt->auto_to == k || (t == k && (pt->promo_choices || pt->auto_to >= 0))))
			return 0;
	}
	return 1;
}

int vc_bb_serves_perft(const struct vc_bb *b)
{
	return b && b->perft;
}

#ifndef VC_BB_WIDE
int vc_bb_mirrors(const struct vc_bb *b)
{
	return b && !b->nomirror;
}
#endif

#ifndef VC_BB_WIDE
int vc_bb_lines(const struct vc_bb *b, int *total)
{
	*total = b ? b->ndir / 2 : 0;
	return b ? __builtin_popcount(b->lpairs) : 0;
}
#endif

static void promo_tables(struct vc_bb *b, const struct vc_variant *v)
{
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		for (int s = 0; s < 2; s++)
			for (int sq = 0; sq < v->nsq; sq++) {
				if (vc_bit_test(v->promo_zone[s][t], sq))
					b->pzone[s][t] |= bit(sq);
				if (vc_bit_test(v->auto_zone[s][t], sq))
					b->azone[s][t] |= bit(sq);
			}
		for (int s = 0; s < 2; s++) {
			b->special[s][t] = b->fromzone[s][t] = 0;
			if (pt->promo_choices && pt->promo_ranks) {
				b->special[s][t] = b->pzone[s][t];
				if (pt->promo_from_zone)
					b->fromzone[s][t] = b->pzone[s][t];
			}
			if (pt->auto_to >= 0)
				b->special[s][t] |= b->azone[s][t];
		}
	}
}

/* The inverse tables and summaries the attack tests read. */
static void attack_tables(struct vc_bb *b)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < b->ntypes; t++) {
			for (int o = 0; o < b->nsq; o++)
				for (bbs m = b->lc[s][t][o]; m; m &= m - 1) {
					b->inv[s][t][bb_ctz(m)] |= bit(o);
					b->leapcap[s] |= 1u << t;
				}
			for (int o = 0; o < b->nsq; o++)
				for (bbs m = b->fc[s][t][o]; m; m &= m - 1) {
					b->finv[s][t][bb_ctz(m)] |= bit(o);
					b->fleapcap[s] |= 1u << t;
				}
			for (int d = 0; d < b->ndir; d++) {
				if (b->rmodes[s][t][d] & VC_MODE_MOVE)
					b->rq[s][t] |= (uint16_t)(1u << d);
				if (b->rmodes[s][t][d] & VC_MODE_CAPTURE) {
					b->rc[s][t] |= (uint16_t)(1u << d);
					b->cdir[s][d] |= (uint16_t)(1u << t);
					b->capdirs[s] |= (uint16_t)(1u << d);
				}
			}
			for (int o = 0; o < b->nsq; o++) {
				b->hasshort[s][t] |= b->soff[s][t][o] != b->soff[s][t][o + 1];
				b->haslep[s][t] |= b->lep[s][t][o] != 0;
			}
		}
	for (int d = 0; d < b->ndir; d++)
		for (int o = 0; o < b->nsq; o++)
			for (bbs m = b->ray[d][o]; m; m &= m - 1)
				b->dirto[o][bb_ctz(m)] |= (uint16_t)(1u << d);
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < b->ndir; d++) {
			int i = 0;
			while (i < b->ngrp[s] && b->grp[s][i] != b->cdir[s][d])
				i++;
			if (i == b->ngrp[s])
				b->grp[s][b->ngrp[s]++] = b->cdir[s][d];
			b->dgrp[s][d] = (uint8_t)i;
			if (!b->cdir[s][d])
				continue;
			b->gback[s][i] |= (uint16_t)(1u << b->opp[d]);
			for (int sq = 0; sq < b->nsq; sq++)
				b->gline[s][i][sq] |= b->ray[b->opp[d]][sq];
		}
}

/* The leaps in tab[] (one kind of one type) grouped by their square
 * difference, into nsv, sdelta and ssrc (the origins that leap by each):
 * 1 when there are at most BB_SETV differences, else 0.  A piece leaps
 * from o to o + d exactly when o is in the difference d's origins, so
 * shifting the pieces on those origins by d finds every leap once. */
static int set_vectors(struct vc_bb *b, int s, int t, int k, const bbs *tab)
{
	int n = 0;
	for (int o = 0; o < b->nsq; o++)
		for (bbs m = tab[o]; m; m &= m - 1) {
			int d = bb_ctz(m) - o, i = 0;
			while (i < n && b->sdelta[s][t][k][i] != d)
				i++;
			if (i == BB_SETV)
				return 0;
			if (i == n) {
				b->sdelta[s][t][k][n++] = (int8_t)d;
				b->ssrc[s][t][k][i] = 0;
			}
			b->ssrc[s][t][k][i] |= bit(o);
		}
	b->nsv[s][t][k] = (uint8_t)n;
	return 1;
}

/* The short paths of type t grouped by shape, the same way: 1 when there
 * are at most BB_SETV shapes. */
static int set_shapes(struct vc_bb *b, int s, int t)
{
	int n = 0;
	for (int o = 0; o < b->nsq; o++)
		for (uint32_t j = b->soff[s][t][o]; j < b->soff[s][t][o + 1]; j++) {
			const struct bb_step *p = &b->sp[j];
			struct bb_shape h;
			memset(&h, 0, sizeof h);
			h.to = (int8_t)(p->to - o);
			h.first = p->first;
			h.dbl = p->dbl;
			for (bbs m = p->need; m; m &= m - 1)
				h.need[h.nneed++] = (int8_t)(bb_ctz(m) - o);
			int i = 0;
			while (i < n && memcmp(&b->shp[s][t][i], &h, sizeof h))
				i++;
			if (i == BB_SETV)
				return 0;
			if (i == n) {
				b->shp[s][t][n++] = h;
				b->shsrc[s][t][i] = 0;
			}
			b->shsrc[s][t][i] |= bit(o);
		}
	b->nshp[s][t] = (uint8_t)n;
	return 1;
}

/* Which types perft's last ply counts set-wise: those without rides whose
 * leaps of both kinds fit; their short paths too where those fit. */
static void set_tables(struct vc_bb *b)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < b->ntypes; t++) {
			int same = b->rq[s][t] == b->rc[s][t] && !b->special[s][t] &&
				   !b->fromzone[s][t] && !b->hasshort[s][t] && !b->haslep[s][t];
			for (int o = 0; o < b->nsq && same; o++)
				same = b->lq[s][t][o] == b->lc[s][t][o];
			b->plain[s][t] = (uint8_t)same;
			b->setw[s][t] = !(b->rq[s][t] | b->rc[s][t]) && !(b->hasfirst[s] >> t & 1) &&
					set_vectors(b, s, t, 0, b->lq[s][t]) &&
					set_vectors(b, s, t, 1, b->lc[s][t]);
			b->shset[s][t] = b->setw[s][t] && set_shapes(b, s, t);
		}
}

/* The short paths read backwards, by the square they end on, for the
 * origins of a written move (vc_bb_reach), and the leaps' inverse. */
static int back_tables(struct vc_bb *b)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < b->ntypes; t++)
			for (int o = 0; o < b->nsq; o++)
				for (bbs m = b->lq[s][t][o]; m; m &= m - 1) {
					b->invq[s][t][bb_ctz(m)] |= bit(o);
					b->leapmove[s] |= 1u << t;
				}
	size_t n = 0;
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < b->ntypes; t++)
			n += b->soff[s][t][b->nsq] - b->soff[s][t][0];
	b->back = malloc((n ? n : 1) * sizeof *b->back);
	if (!b->back)
		return -1;
	n = 0;
	for (int s = 0; s < 2; s++) {
		for (int to = 0; to < b->nsq; to++) {
			b->boff[s][to] = (uint32_t)n;
			for (int t = 0; t < b->ntypes; t++)
				for (int o = 0; o < b->nsq; o++)
					for (uint32_t i = b->soff[s][t][o]; i < b->soff[s][t][o + 1]; i++)
						if (b->sp[i].to == to)
							b->back[n++] = (struct bb_back){
								b->sp[i].need & ~bit(to), (uint8_t)o,
								(uint8_t)t
							};
		}
		for (int to = b->nsq; to <= BB_NSQ; to++)
			b->boff[s][to] = (uint32_t)n;
	}
	return 0;
}

#ifndef VC_BB_WIDE
#define LINE_BITS 10 /* a line with more squares between its ends keeps the difference */

/* the squares of line k (directions 2k and 2k + 1) through sq, sq among
 * them, but the line's two ends: those whose pieces may stop a ride along
 * it, evenly spaced (sq's own piece changes nothing, but leaving it out
 * would break the spacing) */
static uint64_t line_inner(const struct vc_bb *b, int k, int sq)
{
	uint64_t l = b->ray[2 * k][sq] | b->ray[2 * k + 1][sq] | bit(sq);
	return l & ~bit(bb_ctz(l)) & ~bit(bb_msb(l));
}

/* Is magic a multiplier for L: does it send every occupancy of L's mask
 * whose reaches differ (occs, reach: the n occupancies and their reaches)
 * to different indices?  seen, stamp, now: scratch of 1 << bits. */
static int magic_works(const struct bb_line *L, uint64_t magic, const uint64_t *occs,
		       const uint64_t *reach, int n, uint64_t *seen, uint32_t *stamp, uint32_t *now)
{
	(*now)++;
	for (int i = 0; i < n; i++) {
		uint64_t idx = (occs[i] * magic) >> L->shift;
		if (stamp[idx] != *now) {
			stamp[idx] = *now;
			seen[idx] = reach[i];
		} else if (seen[idx] != reach[i]) {
			return 0;
		}
	}
	return 1;
}

/* A multiplier for L into L->magic, 1, or 0 when the line keeps the
 * obstruction difference: the one that shifts each square of the mask to
 * its own bit of the index (the i-th lowest to bit 64 - bits + i), if it
 * works.  The mask's squares lie a stride apart, and the products of two
 * different squares fall below the index or beyond bit 63 when the stride
 * is 1 (a rank) or exceeds their count (files, diagonals, a nightrider's
 * lines; not the files of a board much taller than wide). */
static int find_magic(struct bb_line *L, const uint64_t *occs, const uint64_t *reach, int n,
		      uint64_t *seen, uint32_t *stamp, uint32_t *now)
{
	int bits = 64 - L->shift, i = 0;
	uint64_t magic = 0;
	for (uint64_t m = L->mask; m; m &= m - 1, i++)
		magic |= 1ULL << (64 - bits + i - bb_ctz(m));
	if (!magic_works(L, magic, occs, reach, n, seen, stamp, now))
		return 0;
	L->magic = magic;
	return 1;
}

/* The lines' look-up tables (ride_reach): for each line whose every
 * square has at most LINE_BITS squares between the ends, a multiplier
 * per square and the reach of every occupancy.  The lines left without
 * (a multiplier that fails, no memory) keep the obstruction difference. */
static void line_tables(struct vc_bb *b)
{
	enum { N = 1 << LINE_BITS };
	uint64_t *occs = malloc(3 * N * sizeof *occs);
	uint32_t *stamp = calloc(N, sizeof *stamp), now = 0;
	size_t total = 0, cap = 0;
	int oom = 0; /* no more memory: the lines left keep the difference */
	if (!occs || !stamp)
		goto out;
	uint64_t *reach = occs + N, *seen = occs + 2 * N;
	for (int k = 0; 2 * k < b->ndir && !oom; k++) {
		int fits = 1;
		for (int sq = 0; sq < b->nsq && fits; sq++) {
			struct bb_line *L = &b->line[k][sq];
			L->mask = line_inner(b, k, sq);
			fits = bb_pop(L->mask) <= LINE_BITS;
		}
		size_t first = total;
		for (int sq = 0; sq < b->nsq && fits; sq++) {
			struct bb_line *L = &b->line[k][sq];
			int bits = bb_pop(L->mask), n = 0;
			if (bits == 0)
				bits = 1; /* one index, 0, for the empty mask */
			L->shift = (uint8_t)(64 - bits);
			uint64_t o = 0;
			do { /* every subset of the mask */
				occs[n] = o;
				reach[n++] = line_reach(b, 2 * k, sq, o);
				o = (o - L->mask) & L->mask;
			} while (o);
			if (!find_magic(L, occs, reach, n, seen, stamp, &now)) {
				fits = 0;
				break;
			}
			size_t size = (size_t)1 << bits;
			if (total + size > cap) {
				size_t nc = cap ? 2 * cap : 4096;
				while (nc < total + size)
					nc *= 2;
				uint64_t *t = realloc(b->ltab, nc * sizeof *t);
				if (!t) {
					oom = 1;
					break;
				}
				b->ltab = t;
				cap = nc;
			}
			L->off = (uint32_t)total;
			for (int i = 0; i < n; i++)
				b->ltab[total + ((occs[i] * L->magic) >> L->shift)] = reach[i];
			total += size;
		}
		if (fits && !oom)
			b->lpairs |= 1u << (2 * k);
		else
			total = first; /* the line keeps the difference */
	}
out:
	free(occs);
	free(stamp);
}
#endif

/* Perft with a hand: where each type may be dropped, as gen_drops in
 * movegen.c allows it, and the face it may show. */
static void hand_tables(struct vc_bb *b, const struct vc_variant *v)
{
	b->hands = 1;
	b->marks = (v->rules & VC_R_CAPTURE_TO_HAND) && v->captured_promoted == VC_HAND_PAWN;
	for (int t = 0; t < v->ntypes; t++) {
		int up = vc_drop_face_up(v, t);
		b->faceup[t] = (uint8_t)(up >= 0 ? up + 1 : 0);
		for (int s = 0; s < 2; s++)
			for (int sq = 0; sq < v->nsq; sq++)
				if (vc_drop_rank_ok(v, t, vc_rel_rank(v, s, sq)) &&
				    vc_drop_region_ok(v, t, s, sq))
					b->dropzone[s][t] |= bit(sq);
	}
}

/* Fixed castling from the start squares: the squares between (those of
 * the rank from the lowest of the four squares to the highest, but the
 * castling piece's and the partner's) that gen_castling finds occupied
 * in most positions, known here once. */
static void castle_blocks(struct vc_bb *b, const struct vc_variant *v)
{
	for (int s = 0; s < 2; s++) {
		int k = vc_castle_home(v, s);
		b->khome[s] = (int8_t)k;
		for (int i = 0; i < v->ncastle; i++) {
			int p = v->castle[i].partner;
			if (s == VC_BLACK)
				p = vc_sq_mirror(v, p);
			b->phome[s][i] = (int8_t)p;
			b->cblock[s][i] = 0;
			if (v->castle_style != VC_CASTLE_FIXED || k < 0)
				continue;
			int sq[4] = { k, p, b->kto[s][i], b->pto[s][i] }, lo = k, hi = k;
			for (int j = 1; j < 4; j++) {
				lo = sq[j] < lo ? sq[j] : lo;
				hi = sq[j] > hi ? sq[j] : hi;
			}
			if (lo / v->files == hi / v->files)
				b->cblock[s][i] = ((bit(hi) - bit(lo)) | bit(hi)) & ~bit(k) & ~bit(p);
		}
	}
}

struct vc_bb *vc_bb_build(const struct vc_variant *v)
{
	struct vc_bb *b = calloc(1, sizeof *b);
	if (!b || pieces_fit(b, v))
		goto no;
	b->nsq = v->nsq;
	b->files = v->files;
	b->ranks = v->ranks;
	b->ntypes = v->ntypes;
	b->king = v->king_type;
	if (find_rides(b, v))
		goto no;
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			b->soff[s][t] = calloc(BB_NSQ + 1, sizeof(uint32_t));
			if (!b->soff[s][t])
				goto no;
			int out = b->out >> t & 1; /* no paths in the tables */
			for (int o = 0; o < v->nsq && !out; o++)
				if (origin_tables(b, v, s, t, o))
					goto no;
			for (int o = out ? 0 : v->nsq; o <= BB_NSQ; o++)
				b->soff[s][t][o] = (uint32_t)b->nsp;
		}
	promo_tables(b, v);
	attack_tables(b);
	if (back_tables(b))
		goto no;
#ifndef VC_BB_WIDE
	line_tables(b);
#endif
	set_tables(b);
	/* the generator over bitboards knows every piece (the walked ones
	 * too) or none */
	walk_tables(b, v);
	b->facing = (v->rules & VC_R_NO_FACING) != 0;
	b->bikjang = (v->rules & VC_R_BIKJANG) != 0;
	b->pass = (v->rules & VC_R_PASS) != 0;
	b->tested = b->walk || b->facing || b->bikjang || b->pass;
	b->perft = !(b->out & ~b->walk) && mechanics_fit(v, 0) && (!b->tested || tested_fits(b, v));
	b->nocheck = (v->rules & VC_R_NO_CHECK) != 0;
	for (int t = 0; t < v->ntypes; t++)
		b->exceptions |= (v->types[t].props & ~(unsigned)(VC_P_ROYAL | VC_P_PAWN)) != 0;
	for (int s = 0; s < 2; s++)
		b->region[s] = bb_words(v->end.region_sq[s]);
	b->regtypes = v->end.region_types;
	b->moves = !b->out && mechanics_fit(v, 1);
	if (b->perft && v->nreserve)
		hand_tables(b, v);
#ifdef VC_BB_WIDE
	b->nomirror = 1; /* no mirror on such boards */
#endif
	for (int t = 0; t < v->ntypes; t++)
		for (int a = 0; a < v->types[t].natoms; a++)
			b->nomirror |= v->types[t].atoms[a].within != 0; /* left to the tries */
	if (b->nomirror && !b->perft && !b->moves)
		goto no; /* the tables would serve nothing */
	for (int i = 0; i < v->ncastle; i++) {
		const struct vc_castle_spec *c = &v->castle[i];
		int mk = vc_sq_mirror(v, c->king_to), mp = vc_sq_mirror(v, c->partner_to);
		b->kto[0][i] = (int8_t)c->king_to;
		b->pto[0][i] = (int8_t)c->partner_to;
		b->kto[1][i] = (int8_t)mk;
		b->pto[1][i] = (int8_t)mp;
	}
	castle_blocks(b, v);
	return b;
no:
	vc_bb_free(b);
	return NULL;
}

/* ---- attacks ---- */

/* the first piece of occ along direction d's ray r (not empty) */
static inline int first_on(const struct vc_bb *b, int d, bbs r)
{
	return b->up[d] ? bb_ctz(r) : bb_msb(r);
}

/* by's pieces that take on sq by a first-move leap, their right held */
static inline bbs first_attacks(const struct vc_bb *b, const struct bpos *x, int sq, int by)
{
	bbs a = 0;
	for (uint32_t m = b->fleapcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		a |= b->finv[by][t][sq] & x->pc[t][by];
	}
	return a & x->first;
}

/* A hop's path s (len squares): the index past its screen, the first
 * piece of occ on it, or -1 when there is none or it is of one of the
 * immune types (a hop neither jumps nor takes them). */
static inline int past_screen(const struct bpos *x, bbs occ, uint64_t immune, const int16_t *s,
			      int len)
{
	int j = 0;
	while (j < len && !(occ & bit(s[j] & VC_PS_SQMASK)))
		j++;
	/* immune types send every move to a copy first (b->immune): only
	 * then does occ match the board's types */
	if (j == len || (immune && (immune >> (x->board[s[j] & VC_PS_SQMASK] - 1) & 1)))
		return -1;
	return j + 1;
}

/* Does the piece of walked type t of side by on o take on sq by one of
 * its paths, the board's pieces being occ?  A hop's screen and victim may
 * be of none of the type's hop-immune types (movegen.c's gen_hop). */
static int walk_hits(const struct vc_bb *b, const struct bpos *x, int t, int by, int o, int sq,
		     bbs occ)
{
	const struct vc_variant *v = b->var;
	const int16_t *q = v->paths + v->pathoff[by][t][o];
	uint64_t immune = v->types[t].hop_immune;
	int np = *q++;
	for (int i = 0; i < np; i++, q += 2 + q[0]) {
		int len = q[0], modes = q[1], j = 0;
		const int16_t *s = q + 2;
		if (!(modes & VC_MODE_CAPTURE) ||
		    ((modes & VC_MODE_HOP) && (j = past_screen(x, occ, immune, s, len)) < 0))
			continue;
		for (; j < len; j++) {
			int e = s[j], to = e & VC_PS_SQMASK;
			if (to == sq) {
				if (!(e & VC_PS_TRANSIT) &&
				    !((modes & VC_MODE_HOP) && x->board[sq] &&
				      (immune >> (x->board[sq] - 1) & 1)))
					return 1;
				break;
			}
			if (occ & bit(to))
				break;
		}
	}
	return 0;
}

/* Is sq attacked by side 'by', the board's pieces being occ and only by's
 * pieces in keep counting? */
static inline __attribute__((always_inline)) int
attacked_keep(const struct vc_bb *b, const struct bpos *x, int sq, int by, bbs occ, bbs keep)
{
	for (uint32_t m = b->leapcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		if (b->inv[by][t][sq] & x->pc[t][by] & keep)
			return 1;
	}
	if (first_attacks(b, x, sq, by) & keep)
		return 1;
	for (uint32_t m = b->capdirs[by]; m; m &= m - 1) {
		int d = __builtin_ctz(m), od = b->opp[d];
		bbs r = b->ray[od][sq] & occ;
		if (!r)
			continue;
		int s = first_on(b, od, r);
		if ((x->occ[by] & keep & bit(s)) && (b->cdir[by][d] >> (x->board[s] - 1) & 1))
			return 1;
	}
	for (uint32_t m = b->walkcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		for (bbs c = b->winv[by][t][sq] & x->pc[t][by] & keep; c; c &= c - 1)
			if (walk_hits(b, x, t, by, bb_ctz(c), sq, occ))
				return 1;
	}
	return 0;
}

/* Is sq attacked by side 'by', the board's pieces being occ? */
static int attacked(const struct vc_bb *b, const struct bpos *x, int sq, int by, bbs occ)
{
	return attacked_keep(b, x, sq, by, occ, BB_ALL);
}

/* ---- making moves ---- */

/* Castling right i of side from its royal piece on ksq, the partner on
 * psq: where both go (as movegen.c's gen_castling), 0 when they cannot. */
static int castle_squares(const struct vc_bb *b, const struct vc_variant *v, int side, int i,
			  int ksq, int psq, int *kto, int *pto)
{
	if (v->castle_style == VC_CASTLE_FIXED) {
		*kto = b->kto[side][i];
		*pto = b->pto[side][i];
		return 1;
	}
	if (psq / v->files != ksq / v->files)
		return 0;
	int d = psq > ksq ? 1 : -1;
	if ((psq - ksq) * d < 3)
		return 0;
	*kto = ksq + 2 * d;
	*pto = ksq + d;
	return 1;
}

static inline void lift(struct bpos *c, int side, int t, int sq)
{
	c->pc[t][side] &= ~bit(sq);
	c->occ[side] &= ~bit(sq);
	c->board[sq] = 0;
}

static inline void put(struct bpos *c, int side, int t, int sq)
{
	c->pc[t][side] |= bit(sq);
	c->occ[side] |= bit(sq);
	c->board[sq] = (uint8_t)(t + 1);
}

static void make_castle(const struct vc_bb *b, const struct vc_variant *v, struct bpos *c,
			const struct bmove *m)
{
	int us = c->side, i = m->promo, ksq = m->from, psq = c->castle[us][i], kto = ksq, pto = psq;
	(void)castle_squares(b, v, us, i, ksq, psq, &kto, &pto);
	int kt = c->board[ksq] - 1, pt = c->board[psq] - 1;
	int nt = v->castle[i].becomes >= 0 ? v->castle[i].becomes : pt;
	lift(c, us, kt, ksq);
	lift(c, us, pt, psq);
	put(c, us, kt, kto);
	put(c, us, nt, pto);
	c->first &= ~(bit(ksq) | bit(psq) | bit(kto) | bit(pto));
	if (kt == b->king)
		c->king[us] = (int8_t)kto;
	for (int k = 0; k < VC_MAXCASTLE; k++)
		c->castle[us][k] = -1;
}

/* the squares a step of several squares crosses, as position.c leaves them */
static bbs ep_targets(const struct vc_variant *v, int from, int to)
{
	int ff = from % v->files, fr = from / v->files, tf = to % v->files, tr = to / v->files;
	int dx = (tf > ff) - (tf < ff), dy = (tr > fr) - (tr < fr), n = 0;
	bbs e = 0;
	for (int f = ff + dx, r = fr + dy; (f != tf || r != tr) && n < VC_MAXEP;
	     f += dx, r += dy, n++)
		e |= bit(vc_sq(v->files, f, r));
	return e;
}

/* The type a piece of type ct goes into the hand as, marked promoted or
 * not (position.c's take_victim). */
static int hand_type(const struct vc_variant *v, int ct, int marked)
{
	if (v->captured_promoted == VC_HAND_UNPROMOTED && v->types[ct].demote_to >= 0)
		return v->types[ct].demote_to;
	if (v->captured_promoted == VC_HAND_PAWN && marked && v->pawn_type >= 0)
		return v->pawn_type;
	return ct;
}

/* A piece of side us moved from 'from' to 'to' (t its type, promo the
 * move's): the promoted mark goes with it, comes with a promotion, and
 * goes when the piece turns back over (position.c's make_ordinary). */
static void move_mark(const struct vc_variant *v, struct bpos *c, int from, int to, int t,
		      int promo)
{
	bbs on = c->promoted & bit(from) ? bit(to) : 0;
	if (promo)
		on = v->types[t].demote_to == promo - 1 ? 0 : bit(to);
	c->promoted = (c->promoted & ~bit(from)) | on;
}

static void bb_make(const struct vc_bb *b, const struct vc_variant *v, struct bpos *c,
		    const struct bpos *x, const struct bmove *m)
{
	if (b->hands)
		*c = *x;
	else if (b->ntypes <= 8) /* the common case, by a copy of known size */
		memcpy(c, x, offsetof(struct bpos, pc) + 8 * sizeof x->pc[0]);
	else
		memcpy(c, x, offsetof(struct bpos, hand));
	int us = x->side, them = us ^ 1, from = m->from, to = m->to;
	c->ep = 0;
	c->epvictim = -1;
	c->passes = 0;
	if (m->flags & BM_PASS) {
		c->passes = (uint8_t)(x->passes < 2 ? x->passes + 1 : 2);
		goto done;
	}
	if (m->flags & BM_CASTLE) {
		make_castle(b, v, c, m);
		goto done;
	}
	if (m->flags & BM_DROP) { /* from: the type; face up as promo says */
		c->hand[us][from]--;
		put(c, us, m->promo ? m->promo - 1 : from, to);
		goto done;
	}
	int t = x->board[from] - 1;
	if (m->flags & BM_CAP) {
		int cs = (m->flags & BM_EP) ? x->epvictim : to, ct = x->board[cs] - 1;
		lift(c, them, ct, cs);
		c->first &= ~bit(cs);
		if (b->hands && (v->rules & VC_R_CAPTURE_TO_HAND))
			c->hand[us][hand_type(v, ct, (x->promoted & bit(cs)) != 0)]++;
		c->promoted &= ~bit(cs);
	}
	lift(c, us, t, from);
	put(c, us, m->promo ? m->promo - 1 : t, to);
	if (b->marks)
		move_mark(v, c, from, to, t, m->promo);
	c->first &= ~(bit(from) | bit(to));
	if (t == b->king)
		c->king[us] = (int8_t)to;
	if (t == v->castle_type)
		for (int k = 0; k < VC_MAXCASTLE; k++)
			c->castle[us][k] = -1;
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < v->ncastle; k++)
			if (c->castle[s][k] == from || c->castle[s][k] == to)
				c->castle[s][k] = -1;
	if ((m->flags & BM_DOUBLE) && (v->rules & VC_R_EP)) {
		c->ep = ep_targets(v, from, to);
		c->epvictim = (int8_t)to;
	}
done:
	c->side = (int8_t)them;
	/* a check given counts (position.c's end of a ply) */
	if (v->end.checks && c->king[them] >= 0 &&
	    attacked(b, c, c->king[them], us, c->occ[0] | c->occ[1]) && c->checks[us] < 255)
		c->checks[us]++;
}

/* ---- legal generation ---- */

struct gen {
	const struct vc_bb *b;
	const struct vc_variant *v;
	const struct bpos *x;
	struct bmove *out;
	int n, us, them;
	int count; /* 1: plain moves are counted, not written (perft's last ply) */
	int inchk; /* the side's royal piece is in check */
	int facenow; /* bikjang: the royal pieces face each other */
	bbs occ;
	bbs grp[BB_MAXD]; /* the enemy's pieces of each rider group (vc_bb's grp) */
};

/* attacked() with the enemy's riders known */
static int attacked_g(const struct gen *g, int sq, bbs occ)
{
	const struct vc_bb *b = g->b;
	int by = g->them;
	for (uint32_t m = b->leapcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		if (b->inv[by][t][sq] & g->x->pc[t][by])
			return 1;
	}
	if (first_attacks(b, g->x, sq, by))
		return 1;
	for (uint32_t m = b->capdirs[by]; m; m &= m - 1) {
		int d = __builtin_ctz(m), od = b->opp[d];
		bbs ray = b->ray[od][sq];
		if (!(ray & g->grp[g->b->dgrp[g->them][d]]) || !(ray & occ))
			continue;
		if (g->grp[g->b->dgrp[g->them][d]] & bit(first_on(b, od, ray & occ)))
			return 1;
	}
	return 0;
}

static inline void push(struct gen *g, int from, int to, int promo, int flags)
{
	struct bmove *m = &g->out[g->n++];
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	m->promo = (uint8_t)promo;
	m->flags = (uint8_t)flags;
}

/* Would the mover's royal piece be attacked after m?  (made on a copy;
 * 0 for a side without one) */
static int leaves_check(struct gen *g, const struct bmove *m)
{
	struct bpos c;
	if (g->x->king[g->us] < 0)
		return 0;
	bb_make(g->b, g->v, &c, g->x, m);
	return attacked(g->b, &c, c.king[g->us], g->them, c.occ[0] | c.occ[1]);
}

/* Would royal pieces on k1 and k2 face each other on a file with nothing
 * of occ between?  Those squares into *between when not NULL. */
static int kings_face(const struct vc_bb *b, int k1, int k2, bbs occ, bbs *between)
{
	if (k1 < 0 || k2 < 0 || k1 % b->files != k2 % b->files)
		return 0;
	int lo = k1 < k2 ? k1 : k2, hi = k1 ^ k2 ^ lo;
	bbs span = 0;
	for (int sq = lo + b->files; sq < hi; sq += b->files)
		span |= bit(sq);
	if (between)
		*between = span;
	return !(occ & span);
}

/* After m, would the mover's royal piece be attacked, or face the other
 * where they may not (facing)?  (tested mode) Made on a copy where it
 * must be (en passant, castling, a drop, hop-immune types, whose tests
 * read the board's types); else the squares m empties and fills are
 * enough. */
static int leaves_exposed(struct gen *g, const struct bmove *m)
{
	const struct vc_bb *b = g->b;
	const struct bpos *x = g->x;
	int k = x->king[g->us];
	int face = b->facing || g->facenow; /* may they face each other after m? */
	if (k < 0)
		return 0;
	if ((m->flags & BM_PASS) && g->facenow)
		return 0; /* bikjang: a pass is legal, in check too */
	if ((m->flags & (BM_EP | BM_CASTLE | BM_DROP | BM_PASS)) || b->immune) {
		struct bpos c;
		bb_make(b, g->v, &c, x, m);
		bbs occ = c.occ[0] | c.occ[1];
		return attacked(b, &c, c.king[g->us], g->them, occ) ||
		       (face && kings_face(b, c.king[0], c.king[1], occ, NULL));
	}
	bbs occ = (g->occ & ~bit(m->from)) | bit(m->to);
	k = k == m->from ? m->to : k;
	return attacked_keep(b, x, k, g->them, occ, ~bit(m->to)) ||
	       (face && kings_face(b, k, x->king[g->them], occ, NULL));
}

/* Tested mode, the side's royal piece on k not in check: the squares
 * from which a move of another piece may expose it, and (*fill) those onto
 * which one may.  Emptying: a piece pinned along an enemy ride, a square
 * of an enemy walked piece's taking path to k (a leg, a screen), one
 * between the royal pieces (facing).  Filling: a square between an enemy
 * hopper and k (a new screen). */
static bbs danger(const struct gen *g, int k, bbs *fill)
{
	const struct vc_bb *b = g->b;
	const struct vc_variant *v = g->v;
	const struct bpos *x = g->x;
	int by = g->them;
	bbs d = 0, f = 0, span;
	for (uint32_t m = b->capdirs[by]; m; m &= m - 1) {
		int dir = __builtin_ctz(m), od = b->opp[dir];
		bbs ray = b->ray[od][k], r = ray & g->occ, riders = 0;
		if (!r)
			continue;
		for (uint32_t tm = b->cdir[by][dir]; tm; tm &= tm - 1)
			riders |= x->pc[__builtin_ctz(tm)][by];
		int s1 = first_on(b, od, r);
		bbs r2 = b->ray[od][s1] & g->occ;
		if ((x->occ[g->us] & bit(s1)) && r2 && (riders & bit(first_on(b, od, r2))))
			d |= bit(s1);
	}
	for (uint32_t m = b->walkcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		for (bbs c = b->winv[by][t][k] & x->pc[t][by]; c; c &= c - 1) {
			const int16_t *q = v->paths + v->pathoff[by][t][bb_ctz(c)];
			int np = *q++;
			for (int i = 0; i < np; i++, q += 2 + q[0]) {
				bbs path = 0;
				int j = 0;
				for (; j < q[0] && (q[2 + j] & VC_PS_SQMASK) != k; j++)
					path |= bit(q[2 + j] & VC_PS_SQMASK);
				if (j == q[0] || !(q[1] & VC_MODE_CAPTURE))
					continue;
				d |= path;
				f |= (q[1] & VC_MODE_HOP) ? path : 0;
			}
		}
	}
	if (b->facing && kings_face(b, k, x->king[by], 0, &span))
		d |= span;
	*fill = f;
	return d;
}

/* The moves of the walked piece of type t on from, by its paths as
 * movegen.c's gen_piece and gen_hop walk them: a square reached twice
 * counts once where the variant says so (dedupe), hops aside. */
static void gen_walk(struct gen *g, int t, int from)
{
	const struct vc_variant *v = g->v;
	const struct bpos *x = g->x;
	int32_t off = v->pathoff[g->us][t][from];
	if (!off)
		return;
	const int16_t *q = v->paths + off;
	uint64_t immune = v->types[t].hop_immune;
	bbs seen = 0, enemy = x->occ[g->them];
	int dedupe = v->dedupe[t], np = *q++;
	for (int i = 0; i < np; i++, q += 2 + q[0]) {
		int len = q[0], modes = q[1], j = 0, hop = modes & VC_MODE_HOP;
		const int16_t *s = q + 2;
		if (hop && (j = past_screen(x, g->occ, immune, s, len)) < 0)
			continue;
		for (; j < len; j++) {
			int e = s[j], to = e & VC_PS_SQMASK;
			bbs m = bit(to);
			if (!(g->occ & m)) {
				if (!(e & VC_PS_TRANSIT) && (modes & VC_MODE_MOVE) && !(seen & m)) {
					push(g, from, to, 0, 0);
					seen |= dedupe && !hop ? m : 0;
				}
				continue;
			}
			if (!(e & VC_PS_TRANSIT) && (modes & VC_MODE_CAPTURE) && (enemy & m) &&
			    !(seen & m) && !(hop && (immune >> (x->board[to] - 1) & 1))) {
				push(g, from, to, 0, BM_CAP);
				seen |= dedupe && !hop ? m : 0;
			}
			break;
		}
	}
}

/* A move of type t to 'to', expanded as movegen.c's add() expands it. */
static void add_promo(struct gen *g, int from, int to, int t, int flags)
{
	const struct vc_ptype *pt = &g->v->types[t];
	const struct vc_bb *b = g->b;
	int us = g->us;
	if (pt->promo_choices && pt->promo_ranks &&
	    ((b->pzone[us][t] & bit(to)) ||
	     (pt->promo_from_zone && (b->pzone[us][t] & bit(from))))) {
		for (uint64_t ch = pt->promo_choices; ch; ch &= ch - 1) {
			int c = __builtin_ctzll(ch), lim = g->v->types[c].promo_limit;
			if (!lim || bb_pop(g->x->pc[c][us]) < lim)
				push(g, from, to, c + 1, flags);
		}
		if (!pt->promo_mandatory &&
		    !(pt->promo_must_ranks >> (vc_rel_rank(g->v, us, to) - 1) & 1))
			push(g, from, to, 0, flags);
		return;
	}
	if (pt->auto_to >= 0 && (b->azone[us][t] & bit(to))) {
		push(g, from, to, pt->auto_to + 1, flags);
		return;
	}
	push(g, from, to, 0, flags);
}

static inline void add_set(struct gen *g, int from, bbs set, int t, int flags)
{
	const struct vc_bb *b = g->b;
	bbs sp = (b->fromzone[g->us][t] & bit(from)) ? BB_ALL : b->special[g->us][t];
	bbs plain = set & ~sp;
	if (g->count)
		g->n += bb_pop(plain);
	else
		for (; plain; plain &= plain - 1)
			push(g, from, bb_ctz(plain), 0, flags);
	for (set &= sp; set; set &= set - 1)
		add_promo(g, from, bb_ctz(set), t, flags);
}

/* the squares the rides (directions dirs) of a piece on from reach: a
 * direction and its opposite (added as 2k and 2k + 1) at once, as one line,
 * by a look-up where the line has tables, else by line_reach; a direction
 * alone by a scan */
static inline bbs ride_reach(const struct vc_bb *b, int from, uint32_t dirs, bbs occ)
{
	bbs a = 0;
	uint32_t pairs = dirs & (dirs >> 1) & 0x5555u, other = pairs;
#ifndef VC_BB_WIDE
	/* the lines with tables: one look-up each */
	for (uint32_t m = pairs & b->lpairs; m; m &= m - 1) {
		const struct bb_line *L = &b->line[__builtin_ctz(m) >> 1][from];
		a |= b->ltab[L->off + (((occ & L->mask) * L->magic) >> L->shift)];
	}
	other &= ~b->lpairs;
#endif
	for (uint32_t m = other; m; m &= m - 1)
		a |= line_reach(b, __builtin_ctz(m), from, occ);
	for (dirs &= ~(pairs | pairs << 1); dirs; dirs &= dirs - 1) {
		int d = __builtin_ctz(dirs);
		bbs r = b->ray[d][from], bl = r & occ;
		/* with no piece on the ray, the scan stops on square 63 (up) or 0
		 * (down), whose ray that way is empty */
		int s = b->up[d] ? bb_ctz(bl | bit(BB_NSQ - 1)) : bb_msb(bl | 1);
		a |= r & ~b->ray[d][s];
	}
	return a;
}

/* The short paths of the piece of type t on from, destinations in mask. */
static void gen_short(struct gen *g, int from, int t, bbs mask)
{
	const struct vc_bb *b = g->b;
	uint32_t lo = b->soff[g->us][t][from], hi = b->soff[g->us][t][from + 1];
	for (uint32_t i = lo; i < hi; i++) {
		const struct bb_step *p = &b->sp[i];
		if ((g->occ & p->need) || !(mask & bit(p->to)) ||
		    (p->first && !(g->x->first & bit(from))))
			continue;
		if (g->count && !(b->special[g->us][t] & bit(p->to)) &&
		    !(b->fromzone[g->us][t] & bit(from)))
			g->n++;
		else
			add_promo(g, from, p->to, t, p->dbl ? BM_DOUBLE : 0);
	}
}

/* en passant by the piece of type t on from: made and tested */
static void gen_ep(struct gen *g, int from, int t)
{
	const struct bpos *x = g->x;
	bbs e = g->b->lep[g->us][t][from] & x->ep & ~g->occ;
	if (!e || x->epvictim < 0 || !(x->occ[g->them] & bit(x->epvictim)))
		return;
	for (; e; e &= e - 1) {
		int lo = g->n;
		add_promo(g, from, bb_ctz(e), t, BM_CAP | BM_EP);
		for (int k = lo; k < g->n; k++)
			if (leaves_check(g, &g->out[k]))
				g->out[k--] = g->out[--g->n];
	}
}

/* Perft's last ply: the leaps of fr, pieces of set-wise type t (none of
 * them pinned), destinations in mask, counted for all of them at once by
 * shifts; a promotion's moves are added one by one. */
static void count_set(struct gen *g, int t, bbs fr, bbs mask)
{
	const struct vc_bb *b = g->b;
	int us = g->us;
	bbs sp = b->special[us][t];
	for (int k = 0; k < 2; k++) {
		bbs target = (k ? g->x->occ[g->them] : ~g->occ) & mask;
		for (int i = 0; i < b->nsv[us][t][k]; i++) {
			int d = b->sdelta[us][t][k][i];
			bbs o = fr & b->ssrc[us][t][k][i];
			bbs to = (d >= 0 ? o << d : o >> -d) & target;
			g->n += bb_pop(to & ~sp);
			for (to &= sp; to; to &= to - 1) {
				int sq = bb_ctz(to);
				add_promo(g, sq - d, sq, t, k ? BM_CAP : 0);
			}
		}
	}
}

/* The same for the short paths of fr, by shape: a shape's origins whose
 * squares on the way are empty (each taken back to its origin by a shift). */
static void count_shapes(struct gen *g, int t, bbs fr, bbs mask)
{
	const struct vc_bb *b = g->b;
	int us = g->us;
	bbs sp = b->special[us][t], occ = g->occ;
	for (int i = 0; i < b->nshp[us][t]; i++) {
		const struct bb_shape *h = &b->shp[us][t][i];
		bbs o = fr & b->shsrc[us][t][i];
		if (h->first)
			o &= g->x->first;
		for (int j = 0; j < h->nneed && o; j++)
			o &= ~(h->need[j] >= 0 ? occ >> h->need[j] : occ << -h->need[j]);
		bbs to = (h->to >= 0 ? o << h->to : o >> -h->to) & mask;
		g->n += bb_pop(to & ~sp);
		for (to &= sp; to; to &= to - 1) {
			int sq = bb_ctz(to);
			add_promo(g, sq - h->to, sq, t, h->dbl ? BM_DOUBLE : 0);
		}
	}
}

/* The moves of the side's pieces of type t, their destinations in mask
 * (a pinned piece's also on its line). */
static void gen_type(struct gen *g, int t, bbs mask, bbs pinned, const bbs *line)
{
	const struct vc_bb *b = g->b;
	if (b->walk >> t & 1) { /* tested mode, or no royal piece: every move */
		for (bbs m = g->x->pc[t][g->us]; m; m &= m - 1)
			gen_walk(g, t, bb_ctz(m));
		return;
	}
	int us = g->us;
	const bbs *lq = b->lq[us][t], *lc = b->lc[us][t];
	uint32_t rq = b->rq[us][t], rc = b->rc[us][t];
	bbs sp = b->special[us][t], enemy = g->x->occ[g->them], empty = ~g->occ;
	bbs each = g->x->pc[t][us];
	/* the pieces whose first-move leaps are open now */
	bbs firsts = (b->hasfirst[us] >> t & 1) && !(g->inchk && (b->funchecked[us] >> t & 1))
			     ? g->x->first
			     : 0;
	if (g->count && b->setw[us][t]) { /* the pinned ones below, and those in fromzone */
		bbs fr = each & ~pinned & ~b->fromzone[us][t];
		count_set(g, t, fr, mask);
		if (b->shset[us][t])
			count_shapes(g, t, fr, mask);
		else
			for (bbs m = fr; b->hasshort[us][t] && m; m &= m - 1)
				gen_short(g, bb_ctz(m), t, mask);
		for (bbs m = b->haslep[us][t] && g->x->ep ? fr : 0; m; m &= m - 1)
			if (b->lep[us][t][bb_ctz(m)])
				gen_ep(g, bb_ctz(m), t);
		each &= ~fr;
	}
	if (g->count && b->plain[us][t]) { /* unpinned, no first leap open: one popcount */
		bbs fr = each & ~pinned & ~firsts, to = ~g->x->occ[us] & mask;
		for (bbs m = fr; m; m &= m - 1) {
			int from = bb_ctz(m);
			g->n += bb_pop((lq[from] | (rq ? ride_reach(b, from, rq, g->occ) : 0)) & to);
		}
		each &= ~fr;
	}
	for (bbs m = each; m; m &= m - 1) {
		int from = bb_ctz(m);
		bbs mk = (pinned & bit(from)) ? mask & line[from] : mask;
		bbs quiet = lq[from], cap = lc[from];
		if (firsts & bit(from)) {
			quiet |= b->fq[us][t][from];
			cap |= b->fc[us][t][from];
		}
		if (rq == rc && rq) {
			bbs r = ride_reach(b, from, rq, g->occ);
			quiet |= r;
			cap |= r;
		} else if (rq | rc) {
			quiet |= ride_reach(b, from, rq, g->occ);
			cap |= ride_reach(b, from, rc, g->occ);
		}
		quiet &= empty & mk;
		cap &= enemy & mk;
		if (g->count && !sp) {
			g->n += bb_pop(quiet) + bb_pop(cap);
		} else {
			add_set(g, from, quiet, t, 0);
			add_set(g, from, cap, t, BM_CAP);
		}
		if (b->hasshort[us][t])
			gen_short(g, from, t, mk);
		if (b->haslep[us][t] && b->lep[us][t][from])
			gen_ep(g, from, t);
	}
}

/* The enemy's pieces that attack the royal piece on k; *block: the
 * squares where a piece would stop every one of their attacks (between k
 * and a lone rider); *pinned: the side's pieces pinned to k, each one's
 * line (the squares it may go to) in line[]. */
static bbs king_lines(struct gen *g, int k, bbs *block, bbs *pinned, bbs *line)
{
	const struct vc_bb *b = g->b;
	const struct bpos *x = g->x;
	bbs att = 0, blk = BB_ALL, pin = 0;
	for (uint32_t m = b->leapcap[g->them]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		bbs a = b->inv[g->them][t][k] & x->pc[t][g->them];
		if (a) {
			att |= a;
			blk = 0;
		}
	}
	bbs fa = first_attacks(b, x, k, g->them);
	if (fa) {
		att |= fa;
		blk = 0;
	}
	for (uint32_t m = b->capdirs[g->them]; m; m &= m - 1) {
		int d = __builtin_ctz(m), od = b->opp[d];
		bbs ray = b->ray[od][k], r = ray & g->occ;
		if (!(ray & g->grp[g->b->dgrp[g->them][d]]) || !r)
			continue;
		int s1 = first_on(b, od, r);
		if (g->grp[g->b->dgrp[g->them][d]] & bit(s1)) {
			att |= bit(s1);
			blk &= ray & ~b->ray[od][s1] & ~bit(s1);
			continue;
		}
		bbs r2 = b->ray[od][s1] & g->occ;
		if (!(x->occ[g->us] & bit(s1)) || !r2 ||
		    !(g->grp[g->b->dgrp[g->them][d]] & bit(first_on(b, od, r2))))
			continue;
		bbs l = ray & ~b->ray[od][first_on(b, od, r2)];
		line[s1] = (pin & bit(s1)) ? line[s1] & l : l;
		pin |= bit(s1);
	}
	*block = att ? blk : 0;
	*pinned = pin;
	return att;
}

/* Castling by the piece on ksq; attacks matter only when it is royal (as
 * in movegen.c's gen_castling). */
static void gen_castling(struct gen *g, int ksq, int in_check)
{
	const struct vc_variant *v = g->v;
	const struct bpos *x = g->x;
	int us = g->us, royal = ksq == x->king[us];
	int through = (v->rules & VC_R_CASTLE_THROUGH_CHECK) || !royal;
	if (in_check && !through)
		return;
	for (int i = 0; i < v->ncastle; i++) {
		int psq = x->castle[us][i], kto, pto;
		if (psq < 0 || (psq == g->b->phome[us][i] && ksq == g->b->khome[us] &&
				(g->occ & g->b->cblock[us][i])))
			continue; /* no right, or the way is blocked */
		if (!(x->occ[us] & bit(psq)) ||
		    (v->castle_partners && !(v->castle_partners >> (x->board[psq] - 1) & 1)) ||
		    !castle_squares(g->b, v, us, i, ksq, psq, &kto, &pto))
			continue;
		int lo = ksq, hi = ksq, sqs[3] = { psq, kto, pto };
		for (int k = 0; k < 3; k++) {
			lo = sqs[k] < lo ? sqs[k] : lo;
			hi = sqs[k] > hi ? sqs[k] : hi;
		}
		if (lo / v->files != hi / v->files)
			continue;
		bbs span = (bit(hi) - bit(lo)) | bit(hi);
		if (span & g->occ & ~bit(ksq) & ~bit(psq))
			continue;
		int ok = 1, d = kto > ksq ? 1 : -1;
		for (int sq = ksq + d; !through && kto != ksq && sq != kto && ok; sq += d)
			ok = !attacked_g(g, sq, g->occ & ~bit(ksq));
		if (!ok)
			continue;
		struct bmove m = { (uint8_t)ksq, (uint8_t)kto, (uint8_t)i, BM_CASTLE };
		if (!royal || !leaves_check(g, &m))
			g->out[g->n++] = m;
	}
}

static void gen_king(struct gen *g, int k)
{
	const struct vc_bb *b = g->b;
	int lo = g->n, t = b->king, count = g->count;
	g->count = 0; /* each move is tested */
	gen_type(g, t, BB_ALL, 0, NULL);
	g->count = count;
	bbs occ = g->occ & ~bit(k);
	for (int i = lo; i < g->n; i++) {
		const struct bmove *m = &g->out[i];
		int bad = (m->flags & BM_EP) ? leaves_check(g, m) : attacked_g(g, m->to, occ);
		if (bad)
			g->out[i--] = g->out[--g->n];
	}
}

/* Drops from the hand onto targets (the empty squares, or those that
 * block a check): all of them legal, since no drop uncovers the side's
 * royal piece. */
static void gen_hand(struct gen *g, bbs targets)
{
	const struct vc_bb *b = g->b;
	int us = g->us;
	for (int t = 0; t < b->ntypes; t++) {
		if (!g->x->hand[us][t])
			continue;
		bbs to = targets & b->dropzone[us][t];
		if (g->count) {
			g->n += bb_pop(to) << (b->faceup[t] != 0);
			continue;
		}
		for (; to; to &= to - 1) {
			push(g, t, bb_ctz(to), 0, BM_DROP);
			if (b->faceup[t])
				push(g, t, bb_ctz(to), b->faceup[t], BM_DROP);
		}
	}
}

/* The moves of a side without a royal piece: all of them are legal.  It
 * castles with the piece vc_castler names: of the type that castles, the
 * one on its start square, else the one on the lowest square. */
static int gen_free(struct gen *g)
{
	const struct vc_bb *b = g->b;
	const struct vc_variant *v = g->v;
	const struct bpos *x = g->x;
	int us = g->us;
	for (int t = 0; t < b->ntypes; t++)
		if (x->pc[t][us])
			gen_type(g, t, BB_ALL, 0, NULL);
	if (b->hands)
		gen_hand(g, ~g->occ);
	if (!v->ncastle || v->castle_type < 0 || !x->pc[v->castle_type][us])
		return g->n;
	bbs c = x->pc[v->castle_type][us];
	int home = vc_castle_home(v, us);
	gen_castling(g, home >= 0 && (c & bit(home)) ? home : bb_ctz(c), 0);
	return g->n;
}

/* Tested mode: every move of the side, kept where it leaves the royal
 * piece safe (leaves_exposed): out of check, a move of another piece that
 * empties and fills no square of danger() needs no test. */
static int gen_tested(struct gen *g)
{
	const struct vc_bb *b = g->b;
	int n = 0, k = g->x->king[g->us];
	g->count = 0;
	for (int t = 0; t < b->ntypes; t++)
		if (g->x->pc[t][g->us])
			gen_type(g, t, BB_ALL, 0, NULL);
	if (b->pass)
		push(g, k, k, 0, BM_PASS);
	g->facenow = b->bikjang && kings_face(b, k, g->x->king[g->them], g->occ, NULL);
	bbs from = BB_ALL, to = 0; /* every move tested in check, or facing under bikjang */
	if (!g->facenow && !attacked(b, g->x, k, g->them, g->occ))
		from = danger(g, k, &to) | bit(k);
	for (int i = 0; i < g->n; i++) {
		const struct bmove *m = &g->out[i];
		if ((!(from & bit(m->from)) && !(to & bit(m->to)) && !(m->flags & BM_EP)) ||
		    !leaves_exposed(g, m))
			g->out[n++] = *m;
	}
	return g->n = n;
}

/* The moves legal on the board into out, or with count only their number;
 * with any, the generation stops once some type has one. */
static int gen_board(const struct vc_bb *b, const struct vc_variant *v, const struct bpos *x,
		     struct bmove *out, int count, int any)
{
	struct gen g; /* grp: set below for the groups read */
	g.b = b;
	g.v = v;
	g.x = x;
	g.out = out;
	g.n = 0;
	g.us = x->side;
	g.them = x->side ^ 1;
	g.count = count;
	g.inchk = 0;
	g.facenow = 0;
	g.occ = x->occ[0] | x->occ[1];
	int k = x->king[g.us];
	bbs block, pinned, line[BB_NSQ];
	if (k < 0)
		return gen_free(&g);
	if (b->tested)
		return gen_tested(&g);
	for (int i = 0; i < b->ngrp[g.them]; i++) {
		g.grp[i] = 0;
		for (uint32_t tm = b->grp[g.them][i]; tm; tm &= tm - 1)
			g.grp[i] |= x->pc[__builtin_ctz(tm)][g.them];
	}
	bbs chk = king_lines(&g, k, &block, &pinned, line);
	g.inchk = chk != 0;
	gen_king(&g, k);
	if (chk && (v->rules & VC_R_KING_CHECK_CAPTURES)) {
		/* makpong: the royal piece in check moves only to take its one
		 * checker (movegen.c's king_stays) */
		int kept = 0;
		for (int i = 0; i < g.n; i++)
			if (bit(out[i].to) == chk)
				out[kept++] = out[i];
		g.n = kept;
	}
	if ((chk & (chk - 1)) || (any && g.n))
		return g.n; /* double check: the royal piece moves */
	bbs mask = chk ? chk | block : BB_ALL;
	for (int t = 0; t < b->ntypes && !(any && g.n); t++)
		if (t != b->king && x->pc[t][g.us])
			gen_type(&g, t, mask, pinned, line);
	if (any && g.n)
		return g.n;
	if (v->ncastle)
		gen_castling(&g, k, chk != 0);
	if (b->hands && !(any && g.n))
		gen_hand(&g, ~g.occ & (chk ? block : BB_ALL));
	return g.n;
}

/* The side to move's pieces that stand alone between the enemy's royal
 * piece ek and one of the side's riders that takes along that line: a
 * move of one off its line (disc[], the squares from ek to the rider)
 * gives check. */
static bbs discoverers(const struct vc_bb *b, const struct bpos *x, int ek, bbs *disc)
{
	int us = x->side;
	bbs occ = x->occ[0] | x->occ[1], found = 0;
	for (uint32_t m = b->capdirs[us]; m; m &= m - 1) {
		int d = __builtin_ctz(m), od = b->opp[d];
		bbs riders = 0, r = b->ray[od][ek] & occ;
		for (uint32_t tm = b->cdir[us][d]; tm; tm &= tm - 1)
			riders |= x->pc[__builtin_ctz(tm)][us];
		if (!r || !(b->ray[od][ek] & riders))
			continue;
		int s1 = first_on(b, od, r);
		bbs r2 = b->ray[od][s1] & occ;
		if (!(x->occ[us] & bit(s1)) || !r2 || !(riders & bit(first_on(b, od, r2))))
			continue;
		disc[s1] = b->ray[od][ek] & ~b->ray[od][first_on(b, od, r2)];
		found |= bit(s1);
	}
	return found;
}

/* Does the plain move m (no castling, no en passant) give check to the
 * royal piece on ek?  found, disc: discoverers(). */
static int gives_check(const struct vc_bb *b, const struct bpos *x, const struct bmove *m,
		       int ek, bbs found, const bbs *disc)
{
	int us = x->side, t = m->promo ? m->promo - 1 : x->board[m->from] - 1;
	if ((found & bit(m->from)) && !(disc[m->from] & bit(m->to)))
		return 1;
	if (b->lc[us][t][m->to] & bit(ek))
		return 1;
	bbs occ = ((x->occ[0] | x->occ[1]) & ~bit(m->from)) | bit(m->to);
	for (uint32_t dm = b->rc[us][t]; dm; dm &= dm - 1) {
		int d = __builtin_ctz(dm);
		bbs r = b->ray[d][m->to];
		if ((r & bit(ek)) && !(r & ~b->ray[d][ek] & ~bit(ek) & occ))
			return 1;
	}
	return 0;
}

/* gen_board's moves, less those that give check where none may
 * (no-check: castling and en passant made on a copy, the rest by the lines
 * to the enemy's royal piece) */
static int gen_legal(const struct vc_bb *b, const struct vc_variant *v, const struct bpos *x,
		     struct bmove *out, int count, int any)
{
	if (!b->nocheck)
		return gen_board(b, v, x, out, count, any);
	int n = gen_board(b, v, x, out, 0, 0), k = 0, us = x->side, ek = x->king[us ^ 1];
	if (ek < 0)
		return n;
	bbs disc[BB_NSQ], found = discoverers(b, x, ek, disc);
	struct bpos c;
	for (int i = 0; i < n && !(any && k); i++) {
		int chk;
		if (out[i].flags & (BM_CASTLE | BM_EP)) {
			bb_make(b, v, &c, x, &out[i]);
			chk = attacked(b, &c, ek, us, c.occ[0] | c.occ[1]);
		} else
			chk = gives_check(b, x, &out[i], ek, found, disc);
		if (!chk)
			out[k++] = out[i];
	}
	return k;
}

/* ---- perft ---- */

/* extinction (movegen.c's extinct_side): a side, the side not to move
 * first, with at most extinct_count pieces of a kind the other side still
 * has (one more when the other is to move and may claim) */
static int extinct(const struct vc_bb *b, const struct vc_end_rules *e, const struct bpos *x)
{
	for (int k = 0; k < 2; k++) {
		int c = k == 0 ? x->side ^ 1 : x->side;
		int need = e->extinct_opp + (e->extinct_claim && c == x->side);
		if (e->extinct_all) {
			if (bb_pop(x->occ[c]) <= e->extinct_count &&
			    bb_pop(x->occ[c ^ 1]) >= need)
				return 1;
			continue;
		}
		for (int t = 0; t < b->ntypes; t++)
			if ((e->extinct_types >> t & 1) &&
			    bb_pop(x->pc[t][c]) <= e->extinct_count &&
			    bb_pop(x->pc[t][c ^ 1]) >= need)
				return 1;
	}
	return 0;
}

/* Does a piece of side s of the region's types stand on its region? */
static int in_region(const struct vc_bb *b, const struct bpos *x, int s)
{
	bbs on = 0;
	for (uint64_t m = b->regtypes; m; m &= m - 1)
		on |= x->pc[__builtin_ctzll(m)][s];
	return (on & b->region[s]) != 0;
}

/* Black to move, White on its region: can a region piece of Black's reach
 * Black's region with a legal move (movegen.c's can_reply_into_region)?
 * buf: room for the moves. */
static int can_reply(const struct vc_bb *b, const struct vc_variant *v, const struct bpos *x,
		     struct bmove *buf)
{
	int n = gen_legal(b, v, x, buf, 0, 0);
	for (int i = 0; i < n; i++)
		if (!(buf[i].flags & BM_DROP) && (b->region[VC_BLACK] & bit(buf[i].to)) &&
		    (b->regtypes >> (x->board[buf[i].from] - 1) & 1))
			return 1;
	return 0;
}

/* Has an end rule ended the game (movegen.c's vc_end_by_rule, for the
 * rules end_fits lets in; perft only asks whether)?  buf: room for moves.
 * kept: x came by a move that took, dropped and promoted nothing from a
 * position where the game went on, so each side has the pieces it had
 * there; where whose turn it is does not matter to it (no claim), no kind
 * has gone extinct then. */
static int bb_over(const struct vc_bb *b, const struct vc_variant *v, const struct bpos *x,
		   struct bmove *buf, int kept)
{
	const struct vc_end_rules *e = &v->end;
	if (e->extinct && !(kept && !e->extinct_claim) && extinct(b, e, x))
		return 1;
	for (int s = 0; s < 2; s++)
		if ((e->royal_lost && b->king >= 0 && x->king[s] < 0) ||
		    (e->no_pieces && !x->occ[s]) || (e->checks && x->checks[s] >= e->checks))
			return 1;
	if (x->passes && ((e->passes && x->passes > 1) ||
			  (e->facing_pass &&
			   kings_face(b, x->king[0], x->king[1], x->occ[0] | x->occ[1], NULL))))
		return 1; /* two passes in a row; a pass while the royal pieces face */
	if (!e->region)
		return 0;
	if (e->region_reply == 2) /* still there at its turn */
		return in_region(b, x, x->side);
	int w = in_region(b, x, VC_WHITE), bl = in_region(b, x, VC_BLACK);
	if (w && !bl && e->region_reply && x->side == VC_BLACK)
		return !can_reply(b, v, x, buf); /* Black may still draw */
	return w || bl;
}

/* Does m leave each side the pieces it had (bb_over's kept)?  Castling's
 * promo is its right, not a promotion. */
static inline int keeps_pieces(const struct bmove *m)
{
	return !(m->flags & (BM_CAP | BM_DROP)) && (!m->promo || (m->flags & BM_CASTLE));
}

/* kept: as bb_over's, of x and the move that made it */
static uint64_t perft(const struct vc_bb *b, const struct vc_variant *v, const struct bpos *x,
		      int depth, struct bmove *buf, int kept)
{
	if (v->has_end && bb_over(b, v, x, buf, kept))
		return 0; /* the game is over */
	int n = gen_legal(b, v, x, buf, depth == 1, 0);
	if (depth == 1)
		return (uint64_t)n;
	uint64_t total = 0;
	struct bpos c;
	for (int i = 0; i < n; i++) {
		bb_make(b, v, &c, x, &buf[i]);
		total += perft(b, v, &c, depth - 1, buf + n, keeps_pieces(&buf[i]));
	}
	return total;
}

/* The position as bitboards, from its mirror: 0, or -1 when it does not
 * fit (pieces of no side, more than one royal piece a side, dead pieces,
 * and with test the side not to move in check, whose royal piece perft
 * would take: the general way's count).  A side may have no royal piece:
 * every one in variants without (extinction), one in horde. */
static int from_position(const struct vc_bb *b, const struct vc_position *p, struct bpos *x,
			 int test)
{
	const struct vc_variant *v = p->v;
	/* the board's entries are read only where a piece stands */
	memset(x, 0, offsetof(struct bpos, board));
	memset(x->board, 0, (size_t)v->nsq);
	memset(x->pc, 0, sizeof x->pc);
	memset(x->hand, 0, sizeof x->hand);
	x->promoted = 0;
	bbs on;
#ifndef VC_BB_WIDE
	if (v->bbm == b) { /* from the position's mirror */
		for (int s = 0; s < 2; s++)
			for (int t = 0; t < b->ntypes; t++) {
				x->pc[t][s] = p->bbt[s][t];
				x->occ[s] |= x->pc[t][s];
			}
		on = p->bbocc;
		if ((x->occ[0] | x->occ[1]) != on)
			return -1;
	} else
#endif
	{
		/* no mirror (a large board, first leaps): from the piece lists */
		if (p->npl[2])
			return -1; /* pieces of no side */
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < p->npl[s]; i++) {
				int sq = p->plist[s][i], t = vc_code_type(p->board[sq]);
				if (t >= b->ntypes)
					return -1;
				x->pc[t][s] |= bit(sq);
				x->occ[s] |= bit(sq);
			}
		on = x->occ[0] | x->occ[1];
	}
	for (; on; on &= on - 1) {
		int sq = bb_ctz(on);
		if (p->sqf[sq] & ~(VC_SQF_FIRST | VC_SQF_PROMOTED))
			return -1;
		x->board[sq] = (uint8_t)(vc_code_type(p->board[sq]) + 1);
		if (p->sqf[sq] & VC_SQF_FIRST)
			x->first |= bit(sq);
	}
	for (int s = 0; s < 2; s++) {
		x->king[s] = -1;
		if (b->king >= 0 &&
		    x->pc[b->king][s] != (p->king[s] >= 0 ? bit(p->king[s]) : 0))
			return -1;
		if (b->king >= 0)
			x->king[s] = (int8_t)p->king[s];
		x->checks[s] = (uint8_t)(p->checks[s] < 255 ? p->checks[s] : 255);
		for (int i = 0; i < VC_MAXCASTLE; i++)
			x->castle[s][i] = (int8_t)(i < v->ncastle ? p->castle[s][i] : -1);
	}
	for (int i = 0; i < p->nep; i++)
		x->ep |= bit(p->ep[i]);
	x->epvictim = (int8_t)(p->nep ? p->epvictim : -1);
	x->side = (int8_t)p->side;
	x->passes = 0;
	for (int i = p->nundo - 1; i >= 0 && x->passes < 2 && (p->undo[i].m.flags & VC_MF_NULL); i--)
		x->passes++;
	bbs occ = x->occ[0] | x->occ[1];
	int k = x->king[x->side ^ 1];
	return test && k >= 0 &&
			       (attacked(b, x, k, x->side, occ) ||
				(b->facing && kings_face(b, x->king[0], x->king[1], occ, NULL)))
		       ? -1
		       : 0;
}

#ifndef VC_BB_WIDE
/* Is sq attacked by side 'by', its squares of each type being bbt (a
 * mirror's), the board's pieces occ and only by's pieces in keep counting?
 * Each group of riders (the types that take along the same directions) at
 * once, by ride_reach. */
static inline int mirror_attacked(const struct vc_bb *b, const uint64_t *bbt, int sq, int by,
				  uint64_t occ, uint64_t keep)
{
	for (uint32_t m = b->leapcap[by]; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		if (b->inv[by][t][sq] & bbt[t] & keep)
			return 1;
	}
	for (int i = 0; i < b->ngrp[by]; i++) {
		uint64_t pcs = 0;
		for (uint32_t m = b->grp[by][i]; m; m &= m - 1)
			pcs |= bbt[__builtin_ctz(m)];
		pcs &= keep & b->gline[by][i][sq];
		if (pcs && (ride_reach(b, sq, b->gback[by][i], occ) & pcs))
			return 1;
	}
	return 0;
}

/* Has the side to move's royal piece on k a leap to a square where no
 * enemy piece takes it?  Such a move is legal where gen_board would find
 * it so (no rule that keeps a royal piece from moving, no check it might
 * give by moving off a line). */
static int royal_steps_out(const struct vc_bb *b, const struct vc_position *p, int k)
{
	int us = p->side, them = us ^ 1, t = b->king;
	uint64_t own = 0, occ = p->bbocc & ~bit(k);
	for (int i = 0; i < b->ntypes; i++)
		own |= p->bbt[us][i];
	uint64_t to = (b->lq[us][t][k] & ~p->bbocc) | (b->lc[us][t][k] & p->bbocc & ~own);
	for (; to; to &= to - 1) {
		int sq = __builtin_ctzll(to);
		if (p->sqf[sq] & ~(VC_SQF_FIRST | VC_SQF_PROMOTED))
			continue; /* a piece the copy would not take */
		if (!mirror_attacked(b, p->bbt[them], sq, them, occ | bit(sq), ~bit(sq)))
			return 1;
	}
	return 0;
}

#endif

/* the tables of p's variant for the mate test and the last ply (those of
 * the mirror), and for perft */
#ifdef VC_BB_WIDE
#define BB_MOVES_OF(v) ((v)->bbw)
#else
#define BB_MOVES_OF(v) ((v)->bbm ? (v)->bbm : (v)->bb)
#endif
#define BB_PERFT_OF(v) (BB_MOVES_OF(v) && BB_MOVES_OF(v)->perft ? BB_MOVES_OF(v) : NULL)

int vc_bb_has_legal(const struct vc_position *p)
{
	const struct vc_bb *b = BB_MOVES_OF(p->v);
	struct bpos x;
	if (!b || !b->moves)
		return -1;
#ifndef VC_BB_WIDE
	/* most checks leave the royal piece a square to go to: the mirror
	 * finds it without the copy below */
	int k = b->king >= 0 && b == p->v->bbm ? p->king[p->side] : -1;
	if (k >= 0 && !b->nocheck && !(p->v->rules & VC_R_KING_CHECK_CAPTURES) &&
	    p->bbt[p->side][b->king] == bit(k) && !(p->sqf[k] & ~(VC_SQF_FIRST | VC_SQF_PROMOTED)) &&
	    royal_steps_out(b, p, k))
		return 1;
#endif
	if (from_position(b, p, &x, 0))
		return -1;
	struct bmove *buf = vc_scratch(VC_SCRATCH_BB_MATE, VC_MAX_MOVES * sizeof *buf);
	if (!buf)
		return -1; /* out of memory: the general way tries */
	if (gen_legal(b, p->v, &x, buf, 1, 1) > 0)
		return 1;
	return p->v->nreserve ? -1 : 0; /* a drop may be legal: the general way says */
}

int vc_bb_count_board(const struct vc_position *p)
{
	const struct vc_bb *b = BB_MOVES_OF(p->v);
	struct bpos x;
	if (!b || !b->moves || from_position(b, p, &x, 1))
		return -1;
	struct bmove *buf = vc_scratch(VC_SCRATCH_BB_MATE, VC_MAX_MOVES * sizeof *buf);
	return buf ? gen_legal(b, p->v, &x, buf, 1, 0) : -1;
}

int vc_bb_perft(const struct vc_position *p, int depth, uint64_t *count)
{
	const struct vc_bb *b = BB_PERFT_OF(p->v);
	struct bpos x;
	if (!b || depth < 1 || from_position(b, p, &x, 1))
		return 0;
	for (int s = 0; b->hands && s < 2; s++)
		for (int t = 0; t < b->ntypes; t++)
			x.hand[s][t] = p->res[s][0][t];
	for (int sq = 0; b->marks && sq < b->nsq; sq++)
		if (x.board[sq] && (p->sqf[sq] & VC_SQF_PROMOTED))
			x.promoted |= bit(sq);
	struct bmove *buf = malloc((size_t)depth * VC_MAX_MOVES * sizeof *buf);
	if (!buf)
		return 0;
	*count = perft(b, p->v, &x, depth, buf, 0);
	free(buf);
	return 1;
}

/* ---- the mirror: attack tests and origins for the general way ---- */
#ifndef VC_BB_WIDE

void vc_bb_sync(struct vc_position *p)
{
	memset(p->bbt, 0, sizeof p->bbt);
	p->bbocc = 0;
	for (int sq = 0; sq < p->v->nsq; sq++)
		if (p->board[sq])
			vc_bb_flip(p, sq, p->board[sq]);
}

int vc_bb_has_capture(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	const struct vc_bb *b = v->bbm;
	int us = p->side, them = us ^ 1;
	if (!b || b->exceptions || p->king[us] >= 0 || p->nep || v->has_complex || v->two_types ||
	    (v->rules & (VC_R_SELF_CAPTURE | VC_R_KIRBY_DEATH)) || vc_bb_holds(p, us, v->bboutcap))
		return -1;
	uint64_t enemy = 0;
	for (int t = 0; t < b->ntypes; t++)
		enemy |= p->bbt[them][t];
	for (; enemy; enemy &= enemy - 1)
		if (mirror_attacked(b, p->bbt[us], __builtin_ctzll(enemy), us, p->bbocc, ~0ULL))
			return 1;
	return 0;
}

int vc_bb_attacked(const struct vc_position *p, int sq, int by)
{
	return mirror_attacked(p->v->bbm, p->bbt[by], sq, by, p->bbocc, ~0ULL);
}

int vc_bb_attacked_after(const struct vc_position *p, int from, int to, int sq, int by)
{
	uint64_t occ = p->bbocc | bit(to);
	if (from >= 0)
		occ &= ~bit(from);
	return mirror_attacked(p->v->bbm, p->bbt[by], sq, by, occ, ~bit(to));
}

int vc_bb_attacked_after_swap(const struct vc_position *p, int from, int to, int sq, int by)
{
	const struct vc_variant *v = p->v;
	const struct vc_bb *b = v->bbm;
	int shift = vc_swap_shift(v, 0);
	uint64_t low = v->swap_low[0], occ = p->bbocc | bit(to), bbt[BB_MAXT];
	if (from >= 0)
		occ &= ~bit(from);
	for (int t = 0; t < b->ntypes; t++)
		bbt[t] = vc_bb_turned(p->bbt[by][t] & ~bit(to), low, shift, v->files);
	return mirror_attacked(b, bbt, vc_swapped_square(v, sq, shift), by,
			       vc_bb_turned(occ, low, shift, v->files), ~0ULL);
}

/* Does the piece of side 'by' standing first on one of the rays from k
 * in directions dirs (occupancy occ) take riding back to k?  The square
 * 'skip' does not count (a piece of k's side stands there). */
static inline int ray_attacks(const struct vc_position *p, const struct vc_bb *b, int k,
			      uint32_t dirs, uint64_t occ, int skip, int by)
{
	for (; dirs; dirs &= dirs - 1) {
		int d = __builtin_ctz(dirs);
		uint64_t r = b->ray[d][k] & occ;
		if (!r)
			continue;
		int s = first_on(b, d, r);
		uint8_t c = p->board[s];
		if (s != skip && vc_code_color(c) == by &&
		    (b->cdir[by][b->opp[d]] >> vc_code_type(c) & 1))
			return 1;
	}
	return 0;
}

int vc_bb_check_after(const struct vc_position *p, int from, int to, int k, int by)
{
	const struct vc_bb *b = p->v->bbm;
	int t = vc_code_type(p->board[to]);
	if (b->inv[by][t][k] & bit(to))
		return 1;
	uint32_t d = b->dirto[to][k] & b->rc[by][t];
	for (; d; d &= d - 1) {
		int dir = __builtin_ctz(d);
		if (first_on(b, dir, b->ray[dir][to] & p->bbocc) == k)
			return 1;
	}
	return from >= 0 && ray_attacks(p, b, k, b->dirto[k][from], p->bbocc, to, by);
}

int vc_bb_exposed(const struct vc_position *p, int k, int from, int to, int by)
{
	const struct vc_bb *b = p->v->bbm;
	uint64_t occ = (p->bbocc & ~bit(from)) | bit(to);
	return ray_attacks(p, b, k, b->dirto[k][from], occ, to, by);
}

uint64_t vc_bb_pinned(const struct vc_position *p, int k, int side)
{
	const struct vc_bb *b = p->v->bbm;
	int them = side ^ 1;
	uint64_t pinned = 0;
	for (uint32_t m = b->capdirs[them]; m; m &= m - 1) {
		int d = __builtin_ctz(m), od = b->opp[d];
		uint64_t r = b->ray[od][k] & p->bbocc;
		if (!r)
			continue;
		int s1 = first_on(b, od, r);
		r &= ~bit(s1);
		if (vc_code_color(p->board[s1]) != side || !r)
			continue;
		uint8_t c = p->board[first_on(b, od, r)];
		if (vc_code_color(c) == them && (b->cdir[them][d] >> vc_code_type(c) & 1))
			pinned |= bit(s1);
	}
	return pinned;
}

/* Does a rider on s (directions dirs) reach target: along the one
 * direction from s that holds it, no piece standing between? */
static inline int rides_to(const struct vc_bb *b, int s, int target, uint32_t dirs, uint64_t occ)
{
	for (uint32_t dd = b->dirto[s][target] & dirs; dd; dd &= dd - 1) {
		int d = __builtin_ctz(dd);
		if (!(b->ray[d][s] & ~b->ray[d][target] & occ & ~bit(target)))
			return 1;
	}
	return 0;
}

int vc_bb_reach(const struct vc_position *p, int side, uint64_t mask, int target, int capture,
		int16_t *out, int cap)
{
	const struct vc_bb *b = p->v->bbm;
	uint64_t occ = p->bbocc, found = 0;
	mask &= b->ntypes < 64 ? (1ULL << b->ntypes) - 1 : ~0ULL;
	for (; mask; mask &= mask - 1) {
		int t = __builtin_ctzll(mask);
		uint64_t pcs = p->bbt[side][t];
		if (!pcs)
			continue;
		/* the inverse tables are large: read only a leaper's */
		if ((capture ? b->leapcap : b->leapmove)[side] >> t & 1)
			found |= (capture ? b->inv : b->invq)[side][t][target] & pcs;
		/* riders one by one: fewer loads than the target's lines read
		 * backwards */
		uint32_t dirs = capture ? b->rc[side][t] : b->rq[side][t];
		for (uint64_t r = dirs ? pcs : 0; r; r &= r - 1)
			if (rides_to(b, __builtin_ctzll(r), target, dirs, occ))
				found |= r & (0 - r);
		if (!capture && b->hasshort[side][t])
			for (uint32_t i = b->boff[side][target]; i < b->boff[side][target + 1]; i++) {
				const struct bb_back *k = &b->back[i];
				if (k->type == t && (pcs & bit(k->from)) && !(k->need & occ))
					found |= bit(k->from);
			}
	}
	int n = 0;
	for (; found && n < cap; found &= found - 1)
		out[n++] = (int16_t)__builtin_ctzll(found);
	return n;
}
#endif
