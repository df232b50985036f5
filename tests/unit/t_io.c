/*
 * t_io.c - Io Chess (formats/variants/io.yaml): position strings with walls,
 * make and unmake, notation, the sample game, and the library's moves
 * against a deliberately simple generator written here for the tests only.
 *
 * The simple generator knows nothing of the library's compiled paths and
 * tries: it works on a plain 16x16 array, copies the board for every move,
 * walks every movement square by square from the rule text's words (a
 * griffin is one diagonal step and then a rook's ride outwards, ...), and
 * decides legality by generating every move of the other side on the board
 * after the move and looking for one that lands on the king.  Only the
 * piece codes, the en passant targets and the castling rights of the
 * starting position are taken from the library.  Both must give the same
 * legal moves in every position of many random games, and the same perft
 * counts.
 *
 * Run with arguments, the binary is also the seeded random game writer of
 * the benchmarks:  t_io --games N [--plies P] [--seed S]  writes N games of
 * at most P plies (default 100) to standard output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static struct vc_variant *io(void)
{
	static struct vc_variant *v;
	if (!v) {
		struct vc_ctx *ctx = vc_ctx_new();
		v = vc_variant_load(ctx, "io-chess");
		vc_ctx_free(ctx);
	}
	return v;
}

static uint64_t rng_state = 0x10c4e55ULL;
static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static int sq_of(const char *name)
{
	int used = 0;
	return vc_square_parse(io(), name, &used);
}

/* ---- the simple generator -------------------------------------------------------- */

#define NF 16
#define NSQ 256

/* movement bits, from the rule text's descriptions */
enum {
	M_KING = 1 << 0,
	M_ROOK = 1 << 1,
	M_BISHOP = 1 << 2,
	M_KNIGHT = 1 << 3,
	M_GRIFFIN = 1 << 4,
	M_SPIDER = 1 << 5,
	M_CROOKED = 1 << 6,
	M_NIGHTRIDER = 1 << 7,
	M_J30 = 1 << 8,
	M_J22 = 1 << 9,
	M_J31 = 1 << 10,
	M_J33 = 1 << 11,
	M_J32 = 1 << 12,
	M_PAWN = 1 << 13,
	M_WALL = 1 << 14,
	M_GREAT = 1 << 15 /* a great wall: diagonal stance, eighth turns, diagonal step */
};

static const struct nkind {
	const char *sym;
	unsigned moves;
	const char *auto_to; /* automatic promotion */
	int zone1, zone2;    /* its relative ranks */
} kinds[] = {
	{ "K", M_KING, NULL, 0, 0 },
	{ "Q", M_ROOK | M_BISHOP, "E", 16, 16 },
	{ "R", M_ROOK, "F", 16, 16 },
	{ "B", M_BISHOP, "A", 14, 14 },
	{ "N", M_KNIGHT, "GN", 8, 9 },
	{ "G", M_GRIFFIN, "H", 16, 16 },
	{ "S", M_SPIDER, "T", 16, 16 },
	{ "CN", M_CROOKED, "CP", 14, 14 },
	{ "SC", M_J30 | M_J22 | M_J31, "QC", 14, 14 },
	{ "NN", M_NIGHTRIDER, "MN", 14, 14 },
	{ "W", M_WALL, "GW", 8, 9 },
	{ "P", M_PAWN, NULL, 0, 0 },
	{ "H", M_GRIFFIN | M_ROOK, NULL, 0, 0 },
	{ "T", M_SPIDER | M_BISHOP, NULL, 0, 0 },
	{ "C", M_ROOK | M_J22 | M_J33, "F", 16, 16 },
	{ "F", M_ROOK | M_KNIGHT | M_J22, NULL, 0, 0 },
	{ "CP", M_CROOKED | M_J31, NULL, 0, 0 },
	{ "GN", M_KNIGHT | M_J31, NULL, 0, 0 },
	{ "QC", M_J30 | M_J22 | M_J31 | M_KING | M_KNIGHT, NULL, 0, 0 },
	{ "A", M_BISHOP | M_KNIGHT, NULL, 0, 0 },
	{ "E", M_ROOK | M_BISHOP | M_KNIGHT | M_J32, NULL, 0, 0 },
	{ "GW", M_WALL | M_GREAT, NULL, 0, 0 },
	{ "MN", M_NIGHTRIDER | M_J32, NULL, 0, 0 },
	{ "O", M_GRIFFIN | M_SPIDER, NULL, 0, 0 },
};
static const char *const pawn_choices[] = { "G", "R", "S", "CN", "N",  "SC", "B", "Q", "NN", "H",
					    "C", "F", "T", "CP", "GN", "QC", "A", "E", "MN", "O" };

/* per library type index: its kind, the type it promotes to */
static int kind_of[VC_MAXT], auto_type[VC_MAXT], king_t, rook_t, castle_t;

static int type_of(const char *sym)
{
	return vc_variant_piece_find(io(), sym);
}

static void kinds_init(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	for (int t = 0; t < VC_MAXT; t++)
		kind_of[t] = auto_type[t] = -1;
	for (size_t k = 0; k < VC_NELEM(kinds); k++) {
		int t = type_of(kinds[k].sym);
		if (t < 0)
			continue;
		kind_of[t] = (int)k;
		auto_type[t] = kinds[k].auto_to ? type_of(kinds[k].auto_to) : -1;
	}
	king_t = type_of("K");
	rook_t = type_of("R");
	castle_t = type_of("C");
}

struct nb {
	int8_t t[NSQ], c[NSQ]; /* type and colour, -1 empty */
	int16_t link[NSQ];     /* a wall's other square, -1 */
	int side;
	int16_t ep[8]; /* en passant targets */
	int nep, epvictim;
	int rights[2][2]; /* [side][0 short (o-file rook), 1 long (b-file rook)] */
};

struct nm {
	int from, from2, to, to2; /* from2/to2: walls */
	int promo;                /* type, -1 */
	int castle;               /* 1 short, 2 long */
	int ep;                   /* en passant capture */
	int multi;                /* a pawn's step of several squares */
};

struct nlist {
	struct nm m[1200];
	int n;
};

static int fl(int sq)
{
	return sq % NF;
}
static int rk(int sq)
{
	return sq / NF;
}
static int on(int f, int r)
{
	return f >= 0 && f < NF && r >= 0 && r < NF;
}
static int at(int f, int r)
{
	return r * NF + f;
}
static int rel(int side, int sq)
{
	return side ? NF - rk(sq) : rk(sq) + 1;
}

static void nb_from(struct nb *b, const struct vc_position *p)
{
	kinds_init();
	memset(b, 0, sizeof *b);
	for (int sq = 0; sq < NSQ; sq++) {
		b->t[sq] = b->c[sq] = -1;
		b->link[sq] = -1;
		if (p->board[sq]) {
			b->t[sq] = (int8_t)vc_code_type(p->board[sq]);
			b->c[sq] = (int8_t)vc_code_color(p->board[sq]);
			if (p->sqf[sq] & VC_SQF_LINKMASK)
				b->link[sq] = (int16_t)vc_partner(p, sq);
		}
	}
	b->side = p->side;
	b->nep = p->nep;
	for (int i = 0; i < p->nep; i++)
		b->ep[i] = p->ep[i];
	b->epvictim = p->epvictim;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 2; i++)
			b->rights[s][i] = p->castle[s][i] >= 0;
}

static void push(struct nlist *l, int from, int to, int promo)
{
	struct nm *m = &l->m[l->n++];
	memset(m, 0, sizeof *m);
	m->from = from;
	m->to = to;
	m->from2 = m->to2 = -1;
	m->promo = promo;
}

/* a move of a one-square piece to 'to', with its promotions */
static void add(const struct nb *b, struct nlist *l, int side, int t, int from, int to)
{
	const struct nkind *k = &kinds[kind_of[t]];
	if (k->moves & M_PAWN) {
		if (rel(side, to) == 16) {
			for (size_t i = 0; i < VC_NELEM(pawn_choices); i++)
				push(l, from, to, type_of(pawn_choices[i]));
			return;
		}
		push(l, from, to, -1);
		return;
	}
	(void)b;
	if (k->auto_to && (rel(side, to) == k->zone1 || rel(side, to) == k->zone2))
		push(l, from, to, auto_type[t]);
	else
		push(l, from, to, -1);
}

/* one square of a movement: returns 1 when the way goes on past it */
static int land(const struct nb *b, struct nlist *l, int side, int t, int from, int f, int r)
{
	if (!on(f, r))
		return 0;
	int s = at(f, r);
	if (b->c[s] < 0) {
		add(b, l, side, t, from, s);
		return 1;
	}
	if (b->c[s] != side)
		add(b, l, side, t, from, s);
	return 0;
}

static void ride(const struct nb *b, struct nlist *l, int side, int t, int from, int f, int r,
		 int dx, int dy, int max)
{
	for (int k = 1; k <= max; k++)
		if (!land(b, l, side, t, from, f + k * dx, r + k * dy))
			return;
}

/* the images of (x, y) under the board's symmetries */
static int images(int x, int y, int out[8][2])
{
	int c[8][2] = { { x, y }, { -x, y }, { x, -y }, { -x, -y },
			{ y, x }, { -y, x }, { y, -x }, { -y, -x } };
	int n = 0;
	for (int i = 0; i < 8; i++) {
		int dup = 0;
		for (int j = 0; j < n; j++)
			dup |= out[j][0] == c[i][0] && out[j][1] == c[i][1];
		if (!dup) {
			out[n][0] = c[i][0];
			out[n][1] = c[i][1];
			n++;
		}
	}
	return n;
}

static void leaps(const struct nb *b, struct nlist *l, int side, int t, int from, int x, int y)
{
	int v[8][2], n = images(x, y, v);
	for (int i = 0; i < n; i++)
		land(b, l, side, t, from, fl(from) + v[i][0], rk(from) + v[i][1]);
}

static void rides(const struct nb *b, struct nlist *l, int side, int t, int from, int x, int y)
{
	int v[8][2], n = images(x, y, v);
	for (int i = 0; i < n; i++)
		ride(b, l, side, t, from, fl(from), rk(from), v[i][0], v[i][1], NF);
}

static int sgn(int x)
{
	return (x > 0) - (x < 0);
}

/* the landing of a wall on (na, nb) from (a, c): -1 impossible, else the
 * number of enemy pieces' squares it lands on */
static int wall_land(const struct nb *b, int side, int a, int c, int na, int nbq)
{
	int caps = 0, s2[2] = { na, nbq };
	for (int k = 0; k < 2; k++) {
		int s = s2[k];
		if (s == a || s == c || b->c[s] < 0)
			continue;
		if (b->c[s] == side)
			return -1;
		caps++;
	}
	return caps;
}

static void wall_push(struct nlist *l, int side, int t, int a, int c, int na, int nbq)
{
	struct nm *m = &l->m[l->n++];
	memset(m, 0, sizeof *m);
	m->from = a;
	m->from2 = c;
	m->to = na;
	m->to2 = nbq;
	m->promo = -1;
	const struct nkind *k = &kinds[kind_of[t]];
	if (k->auto_to) {
		int r1 = rel(side, na), r2 = rel(side, nbq);
		if (r1 == k->zone1 || r1 == k->zone2 || r2 == k->zone1 || r2 == k->zone2)
			m->promo = auto_type[t];
	}
}

static void gen_wall(const struct nb *b, struct nlist *l, int side, int t, int a)
{
	int c = b->link[a];
	if (c < a)
		return; /* once, from the lower square */
	unsigned mv = kinds[kind_of[t]].moves;
	/* slides: rook directions without limit; the great wall's diagonal step */
	int dirs[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },  { 0, -1 },
			   { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
	for (int d = 0; d < ((mv & M_GREAT) ? 8 : 4); d++) {
		int max = d < 4 ? NF : 1;
		for (int k = 1; k <= max; k++) {
			int fa = fl(a) + k * dirs[d][0], ra = rk(a) + k * dirs[d][1];
			int fc = fl(c) + k * dirs[d][0], rc = rk(c) + k * dirs[d][1];
			if (!on(fa, ra) || !on(fc, rc))
				break;
			int caps = wall_land(b, side, a, c, at(fa, ra), at(fc, rc));
			if (caps < 0)
				break;
			wall_push(l, side, t, a, c, at(fa, ra), at(fc, rc));
			if (caps)
				break;
		}
	}
	/* turns about either square: by a quarter; a great wall by an eighth too */
	for (int pv = 0; pv < 2; pv++) {
		int piv = pv ? c : a, mov = pv ? a : c;
		int dx = fl(mov) - fl(piv), dy = rk(mov) - rk(piv);
		int rot[4][2] = { { -dy, dx },
				  { dy, -dx },
				  { sgn(dx - dy), sgn(dx + dy) },
				  { sgn(dx + dy), sgn(dy - dx) } };
		for (int j = 0; j < ((mv & M_GREAT) ? 4 : 2); j++) {
			int f = fl(piv) + rot[j][0], r = rk(piv) + rot[j][1];
			if (!on(f, r))
				continue;
			int s = at(f, r);
			if (b->c[s] == side)
				continue;
			if (pv)
				wall_push(l, side, t, a, c, s, c);
			else
				wall_push(l, side, t, a, c, a, s);
		}
	}
}

static void gen_piece(const struct nb *b, struct nlist *l, int side, int from)
{
	int t = b->t[from];
	unsigned mv = kinds[kind_of[t]].moves;
	int f = fl(from), r = rk(from);
	if (mv & M_WALL) {
		gen_wall(b, l, side, t, from);
		return;
	}
	if (mv & M_KING) {
		leaps(b, l, side, t, from, 1, 0);
		leaps(b, l, side, t, from, 1, 1);
	}
	if (mv & M_ROOK)
		rides(b, l, side, t, from, 1, 0);
	if (mv & M_BISHOP)
		rides(b, l, side, t, from, 1, 1);
	if (mv & M_KNIGHT)
		leaps(b, l, side, t, from, 1, 2);
	if (mv & M_J30)
		leaps(b, l, side, t, from, 3, 0);
	if (mv & M_J22)
		leaps(b, l, side, t, from, 2, 2);
	if (mv & M_J31)
		leaps(b, l, side, t, from, 3, 1);
	if (mv & M_J33)
		leaps(b, l, side, t, from, 3, 3);
	if (mv & M_J32)
		leaps(b, l, side, t, from, 3, 2);
	if (mv & M_NIGHTRIDER)
		rides(b, l, side, t, from, 1, 2);
	if (mv & M_GRIFFIN)
		/* one diagonal step, then a rook's ride outwards from there */
		for (int sx = -1; sx <= 1; sx += 2)
			for (int sy = -1; sy <= 1; sy += 2)
				if (land(b, l, side, t, from, f + sx, r + sy)) {
					ride(b, l, side, t, from, f + sx, r + sy, sx, 0, NF);
					ride(b, l, side, t, from, f + sx, r + sy, 0, sy, NF);
				}
	if (mv & M_SPIDER) {
		/* one orthogonal step, then a bishop's ride outwards */
		int o[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
		for (int i = 0; i < 4; i++)
			if (land(b, l, side, t, from, f + o[i][0], r + o[i][1])) {
				int ox = o[i][0], oy = o[i][1];
				int f1 = f + ox, r1 = r + oy;
				if (ox) {
					ride(b, l, side, t, from, f1, r1, ox, 1, NF);
					ride(b, l, side, t, from, f1, r1, ox, -1, NF);
				} else {
					ride(b, l, side, t, from, f1, r1, 1, oy, NF);
					ride(b, l, side, t, from, f1, r1, -1, oy, NF);
				}
			}
	}
	if (mv & M_CROOKED) {
		/* knight leaps, the smaller component changing sign at each */
		int v[8][2], n = images(1, 2, v);
		for (int i = 0; i < n; i++) {
			int x = v[i][0], y = v[i][1], cf = f, cr = r;
			for (;;) {
				cf += x;
				cr += y;
				if (!land(b, l, side, t, from, cf, cr))
					break;
				if (abs(x) < abs(y))
					x = -x;
				else
					y = -y;
			}
		}
	}
	if (mv & M_PAWN) {
		int dy = side ? -1 : 1;
		if (on(f, r + dy) && b->c[at(f, r + dy)] < 0) {
			add(b, l, side, t, from, at(f, r + dy));
			if (rel(side, from) == 3)
				for (int k = 2;
				     k <= 5 && on(f, r + k * dy) && b->c[at(f, r + k * dy)] < 0;
				     k++) {
					push(l, from, at(f, r + k * dy), -1);
					l->m[l->n - 1].multi = 1;
				}
		}
		for (int sx = -1; sx <= 1; sx += 2) {
			if (!on(f + sx, r + dy))
				continue;
			int s = at(f + sx, r + dy);
			if (b->c[s] >= 0 && b->c[s] != side)
				add(b, l, side, t, from, s);
			else if (b->c[s] < 0)
				for (int i = 0; i < b->nep; i++)
					if (b->ep[i] == s && b->epvictim >= 0 &&
					    b->c[b->epvictim] == !side) {
						push(l, from, s, -1);
						l->m[l->n - 1].ep = 1;
					}
		}
	}
}

static void gen_pseudo(const struct nb *b, struct nlist *l, int side)
{
	l->n = 0;
	for (int sq = 0; sq < NSQ; sq++)
		if (b->c[sq] == side) {
			/* one move, even when two movements of the piece make it */
			int start = l->n;
			gen_piece(b, l, side, sq);
			int k = start;
			for (int i = start; i < l->n; i++) {
				int dup = 0;
				for (int j = start; j < k && !dup; j++)
					dup = !memcmp(&l->m[i], &l->m[j], sizeof l->m[i]);
				if (!dup)
					l->m[k++] = l->m[i];
			}
			l->n = k;
		}
}

static int king_sq(const struct nb *b, int side)
{
	for (int sq = 0; sq < NSQ; sq++)
		if (b->c[sq] == side && b->t[sq] == king_t)
			return sq;
	return -1;
}

/* Is the piece on sq attacked by side 'by': does some move of 'by' land
 * on it? */
static int attacked(const struct nb *b, int sq, int by)
{
	static struct nlist l;
	gen_pseudo(b, &l, by);
	for (int i = 0; i < l.n; i++)
		if (!l.m[i].ep && (l.m[i].to == sq || l.m[i].to2 == sq))
			return 1;
	return 0;
}

static void take(struct nb *b, int s)
{
	if (b->c[s] < 0)
		return;
	int o = b->link[s];
	b->t[s] = b->c[s] = -1;
	b->link[s] = -1;
	if (o >= 0) {
		b->t[o] = b->c[o] = -1;
		b->link[o] = -1;
	}
}

static void lose_rights(struct nb *b, int s)
{
	static const char *home[2][2] = { { "o1", "b1" }, { "o16", "b16" } };
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < 2; i++)
			if (s == sq_of(home[c][i]))
				b->rights[c][i] = 0;
}

static void apply(struct nb *b, const struct nm *m)
{
	int side = b->side;
	int ep_targets[8], nep = 0, victim = -1;
	if (m->castle) {
		int home = side ? 15 : 0;
		int k = at(8, home), rf = m->castle == 1 ? 14 : 1;
		int kt = at(m->castle == 1 ? 13 : 2, home), rt = at(m->castle == 1 ? 12 : 3, home);
		take(b, k);
		take(b, at(rf, home));
		b->t[kt] = (int8_t)king_t;
		b->c[kt] = (int8_t)side;
		b->t[rt] = (int8_t)castle_t;
		b->c[rt] = (int8_t)side;
		b->rights[side][0] = b->rights[side][1] = 0;
	} else if (m->from2 >= 0) {
		int t = b->t[m->from];
		take(b, m->from);
		take(b, m->to);
		take(b, m->to2);
		int nt = m->promo >= 0 ? m->promo : t;
		b->t[m->to] = b->t[m->to2] = (int8_t)nt;
		b->c[m->to] = b->c[m->to2] = (int8_t)side;
		b->link[m->to] = (int16_t)m->to2;
		b->link[m->to2] = (int16_t)m->to;
		lose_rights(b, m->to);
		lose_rights(b, m->to2);
	} else {
		int t = b->t[m->from];
		if (m->ep)
			take(b, b->epvictim);
		take(b, m->to);
		b->t[m->from] = b->c[m->from] = -1;
		b->t[m->to] = (int8_t)(m->promo >= 0 ? m->promo : t);
		b->c[m->to] = (int8_t)side;
		if (t == king_t)
			b->rights[side][0] = b->rights[side][1] = 0;
		lose_rights(b, m->from);
		lose_rights(b, m->to);
		if (m->multi) {
			int dy = side ? -NF : NF;
			for (int s = m->from + dy; s != m->to; s += dy)
				ep_targets[nep++] = s;
			victim = m->to;
		}
	}
	b->nep = nep;
	for (int i = 0; i < nep; i++)
		b->ep[i] = (int16_t)ep_targets[i];
	b->epvictim = victim;
	b->side = !side;
}

/* castling: king on i1 and its rook unmoved, every square between empty,
 * the king not in check nor passing or landing on an attacked square, nor
 * in check once castled (the rook gone from its square may open a line) */
static void gen_castling(const struct nb *b, struct nlist *l)
{
	int side = b->side, home = side ? 15 : 0;
	int k = at(8, home);
	if (b->t[k] != king_t || b->c[k] != side)
		return;
	for (int i = 0; i < 2; i++) {
		int rf = i == 0 ? 14 : 1, kf = i == 0 ? 13 : 2;
		int rs = at(rf, home);
		if (!b->rights[side][i] || b->t[rs] != rook_t || b->c[rs] != side)
			continue;
		int lo = rf < 8 ? rf + 1 : 9, hi = rf < 8 ? 7 : rf - 1, ok = 1;
		for (int f = lo; f <= hi; f++)
			ok &= b->c[at(f, home)] < 0;
		if (!ok || attacked(b, k, !side))
			continue;
		int d = kf > 8 ? 1 : -1;
		for (int f = 8 + d; ok; f += d) {
			struct nb c = *b;
			c.t[at(f, home)] = (int8_t)king_t;
			c.c[at(f, home)] = (int8_t)side;
			c.t[k] = c.c[k] = -1;
			if (attacked(&c, at(f, home), !side))
				ok = 0;
			if (f == kf)
				break;
		}
		if (!ok)
			continue;
		struct nm *m = &l->m[l->n];
		memset(m, 0, sizeof *m);
		m->from = k;
		m->from2 = m->to2 = -1;
		m->to = at(kf, home);
		m->promo = -1;
		m->castle = i + 1;
		struct nb c = *b;
		apply(&c, m);
		if (!attacked(&c, at(kf, home), !side))
			l->n++;
	}
}

static void gen_legal(const struct nb *b, struct nlist *out)
{
	static struct nlist l;
	gen_pseudo(b, &l, b->side);
	out->n = 0;
	for (int i = 0; i < l.n; i++) {
		struct nb c = *b;
		apply(&c, &l.m[i]);
		int k = king_sq(&c, b->side);
		if (k >= 0 && attacked(&c, k, !b->side))
			continue;
		out->m[out->n++] = l.m[i];
	}
	gen_castling(b, out);
}

/* ---- moves as comparable text ---- */

static void sqname(int sq, char *buf)
{
	vc_square_name(io(), sq, buf);
}

static void id_text(int from, int from2, int to, int to2, int promo, int castle, char *buf)
{
	char a[8], b[8], c[8], d[8];
	if (castle) {
		strcpy(buf, castle == 1 ? "O-O" : "O-O-O");
		return;
	}
	if (from2 >= 0) {
		int x = from < from2 ? from : from2, y = from < from2 ? from2 : from;
		int z = to < to2 ? to : to2, w = to < to2 ? to2 : to;
		sqname(x, a);
		sqname(y, b);
		sqname(z, c);
		sqname(w, d);
		sprintf(buf, "%s%s-%s%s", a, b, c, d);
	} else {
		sqname(from, a);
		sqname(to, c);
		sprintf(buf, "%s-%s", a, c);
	}
	if (promo >= 0)
		sprintf(buf + strlen(buf), "=%s", io()->types[promo].symbol);
}

static void lib_id(const vc_move *m, char *buf)
{
	int castle = (m->flags & VC_MF_CASTLE) ? (io()->castle[m->extra].long_side ? 2 : 1) : 0;
	id_text(m->from, (m->flags & VC_MF_WALL) ? m->from2 : -1, m->to,
		(m->flags & VC_MF_WALL) ? m->to2 : -1, m->promo ? m->promo - 1 : -1, castle, buf);
}

static void n_id(const struct nm *m, char *buf)
{
	id_text(m->from, m->from2, m->to, m->to2, m->promo, m->castle, buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

typedef char idbuf[24];

/* What the compared moves exercised, so that a test can say the random
 * games met every mechanic. */
enum {
	C_SLIDE_ALONG,
	C_SLIDE_ACROSS,
	C_TURN_QUARTER,
	C_TURN_EIGHTH,
	C_GREAT_DIAGONAL,
	C_WALL_CAPTURE,
	C_WALL_TWO,
	C_WALL_TAKEN,
	C_WALL_TAKEN_BY_PAWN,
	C_CASTLE_SHORT,
	C_CASTLE_LONG,
	C_EP,
	C_EP_FAR, /* en passant on a square two or more squares from the victim */
	C_FIVE,
	C_PROMO_O,
	C_AUTO, /* + type promoted to */
	C_N = C_AUTO + VC_MAXT
};
static long coverage[C_N];

static void cover(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	int F = v->files;
	if (m->flags & VC_MF_WALL) {
		int stay = m->to == m->from || m->to == m->from2 || m->to2 == m->from ||
			   m->to2 == m->from2;
		int ox = m->from2 % F - m->from % F, oy = m->from2 / F - m->from / F;
		int nx = m->to2 % F - m->to % F, ny = m->to2 / F - m->to / F;
		int tx = m->to % F - m->from % F, ty = m->to / F - m->from / F;
		if (ox == nx && oy == ny) {
			if (tx && ty)
				coverage[C_GREAT_DIAGONAL]++;
			else if ((tx != 0) == (ox != 0) && (ty != 0) == (oy != 0))
				coverage[C_SLIDE_ALONG]++;
			else
				coverage[C_SLIDE_ACROSS]++;
		} else if (stay)
			coverage[(ox && oy) != (nx && ny) ? C_TURN_EIGHTH : C_TURN_QUARTER]++;
		if (m->flags & VC_MF_CAPTURE)
			coverage[C_WALL_CAPTURE]++;
		if (m->flags & VC_MF_TWOCAP)
			coverage[C_WALL_TWO]++;
	} else if ((m->flags & VC_MF_CAPTURE) && m->to >= 0 && (p->sqf[m->to] & VC_SQF_LINKMASK)) {
		coverage[C_WALL_TAKEN]++;
		if (v->types[m->piece].props & VC_P_PAWN)
			coverage[C_WALL_TAKEN_BY_PAWN]++;
	}
	if (m->flags & VC_MF_CASTLE)
		coverage[v->castle[m->extra].long_side ? C_CASTLE_LONG : C_CASTLE_SHORT]++;
	if (m->flags & VC_MF_EP) {
		coverage[C_EP]++;
		if (abs(m->to / F - p->epvictim / F) >= 2)
			coverage[C_EP_FAR]++;
	}
	if ((m->flags & VC_MF_DOUBLE) && abs(m->to / F - m->from / F) == 5)
		coverage[C_FIVE]++;
	if ((m->flags & VC_MF_PROMO) && (v->types[m->piece].props & VC_P_PAWN) &&
	    !strcmp(v->types[m->promo - 1].symbol, "O"))
		coverage[C_PROMO_O]++;
	if ((m->flags & VC_MF_PROMO) && !(v->types[m->piece].props & VC_P_PAWN))
		coverage[C_AUTO + m->promo - 1]++;
}

/* Compares the library's legal moves with the simple generator's; prints
 * the first differences.  Returns 1 when they agree. */
static int same_moves(struct vc_position *p, const struct nb *b, const char *where)
{
	static vc_move lm[VC_MAX_MOVES];
	static struct nlist nl;
	static idbuf x[VC_MAX_MOVES], y[1200];
	int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
	gen_legal(b, &nl);
	for (int i = 0; i < n; i++) {
		lib_id(&lm[i], x[i]);
		cover(p, &lm[i]);
	}
	for (int i = 0; i < nl.n; i++)
		n_id(&nl.m[i], y[i]);
	qsort(x, (size_t)n, sizeof x[0], cmp_str);
	qsort(y, (size_t)nl.n, sizeof y[0], cmp_str);
	int i = 0, j = 0, bad = 0;
	while ((i < n || j < nl.n) && bad < 6) {
		int c = i == n ? 1 : j == nl.n ? -1 : strcmp(x[i], y[j]);
		if (c == 0) {
			i++, j++;
			continue;
		}
		char fen[700];
		vc_position_fen(p, fen, sizeof fen);
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: only the %s has %s", where, fen,
			   c < 0 ? "library" : "simple generator", c < 0 ? x[i] : y[j]);
		if (c < 0)
			i++;
		else
			j++;
		bad++;
	}
	return bad == 0;
}

static uint64_t naive_perft(const struct nb *b, int depth)
{
	struct nlist *l = malloc(sizeof *l);
	uint64_t n = 0;
	gen_legal(b, l);
	if (depth == 1) {
		n = (uint64_t)l->n;
		free(l);
		return n;
	}
	for (int i = 0; i < l->n; i++) {
		struct nb c = *b;
		apply(&c, &l->m[i]);
		n += naive_perft(&c, depth - 1);
	}
	free(l);
	return n;
}

static void nb_load(struct nb *b, const struct vc_position *p)
{
	nb_from(b, p);
}

/* ---- helpers ---- */

static struct vc_position *pos(const char *fen)
{
	struct vc_position *p = vc_position_new(io());
	if (fen && vc_position_set_fen(p, NULL, fen) != VC_OK) {
		vc_position_free(p);
		return NULL;
	}
	return p;
}

/* Plays text moves; returns the number played. */
static int play(struct vc_position *p, const char *moves)
{
	const char *s = moves;
	int n = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		/* a wall move is "W a2b2-a3b3": two words */
		const char *e = strchr(s, ' ');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len <= 2 && s[0] >= 'A' && s[0] <= 'Z' && e && e[1] >= 'a' && e[1] <= 'z' &&
		    e[2] >= '0' && e[2] <= '9') {
			const char *e2 = strchr(e + 1, ' ');
			len = e2 ? (size_t)(e2 - s) : strlen(s);
		}
		struct vc_san san;
		vc_move m;
		const char *code;
		char msg[300];
		if (vc_san_parse(p->v, s, len, &san, &code, msg, sizeof msg) != 0 ||
		    vc_san_resolve(p, &san, s, len, &m, NULL, &code, msg, sizeof msg) != 0) {
			VT_FAIL_AT(__FILE__, __LINE__, "'%.*s': %s", (int)len, s, msg);
			return n;
		}
		vc_pos_make(p, &m);
		n++;
		s += len;
	}
	return n;
}

static const char *fen_of(const struct vc_position *p)
{
	static char buf[800];
	vc_position_fen(p, buf, sizeof buf);
	return buf;
}

/* the error a move gets, or "" */
static const char *move_error(struct vc_position *p, const char *text)
{
	static char msg[300];
	struct vc_san san;
	vc_move m;
	const char *code;
	msg[0] = 0;
	if (vc_san_parse(p->v, text, strlen(text), &san, &code, msg, sizeof msg) == 0 &&
	    vc_san_resolve(p, &san, text, strlen(text), &m, NULL, &code, msg, sizeof msg) == 0)
		msg[0] = 0;
	return msg;
}

/* ---- tests ---- */

static const char *start_fen =
	"grs(cn)n(sc)bqkb(sc)n(cn)srg/w>=2(nn)6(nn)2w>=/pppppppppppppppp/16/16/16/16/16/16/16/16/"
	"16/16/PPPPPPPPPPPPPPPP/W>=2(NN)6(NN)2W>=/GRS(CN)N(SC)BQKB(SC)N(CN)SRG w KQkq - 0 1";

VT_TEST(setup)
{
	struct vc_variant *v = io();
	VT_CHECK(v != NULL);
	if (!v)
		return;
	struct vc_position *p = pos(NULL);
	VT_EQ_STR(fen_of(p), start_fen);
	VT_EQ_INT(vc_variant_piece_count(v), 24);
	VT_EQ_INT(p->ntwo[0], 2);
	VT_EQ_INT(p->ntwo[1], 2);
	/* each wall: exactly two moves, one and two squares towards the centre */
	vc_move m[64];
	char t[40];
	const char *want[2][2] = { { "W a2b2-b2c2", "W a2b2-c2d2" },
				   { "W o2p2-n2o2", "W o2p2-m2n2" } };
	int a[2] = { sq_of("a2"), sq_of("o2") };
	for (int k = 0; k < 2; k++) {
		int n = vc_gen_from(p, a[k], m);
		VT_EQ_INT(n, 2);
		for (int i = 0; i < n && i < 2; i++) {
			vc_move_san(p, &m[i], 0, t, sizeof t);
			VT_CHECK(!strcmp(t, want[k][0]) || !strcmp(t, want[k][1]));
		}
	}
	/* the partner square generates nothing of its own */
	VT_EQ_INT(vc_gen_from(p, sq_of("b2"), m), 0);
	VT_EQ_INT(vc_perft(p, 1), 132);
	/* black's walls too */
	play(p, "m6");
	VT_EQ_INT(vc_gen_from(p, sq_of("a15"), m), 2);
	VT_EQ_INT(vc_gen_from(p, sq_of("o15"), m), 2);
	vc_position_free(p);
}

static const char *wall_fens[] = {
	/* every stance: a wall along a rank, one along a file, great walls on
	 * both diagonals, promoted flags */
	"8k7/16/3W|12/3=12/16/5(GW)\\10/6=9/16/16/8(gw)<7/7=8/16/w>=14/16/16/8K7 w - - 0 1",
	"8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/14W>=/8K7 b - - 3 40",
	"8k7/15(GW)|~/15=/16/16/16/16/16/16/16/16/16/16/16/(GW)\\~6K8/1=14 w - - 0 1",
	/* walls touching, stacked: the links tell them apart */
	"8k7/16/16/16/16/16/16/W>=14/W>=14/16/16/16/16/16/16/8K7 w - - 0 1",
	"8k7/16/16/16/16/16/16/W|W|14/==14/16/16/16/16/16/16/8K7 w - - 0 1",
};

VT_TEST(fen_walls)
{
	for (size_t i = 0; i < VC_NELEM(wall_fens); i++) {
		struct vc_position *p = pos(wall_fens[i]);
		VT_CHECK(p != NULL);
		if (!p)
			continue;
		/* '~' is read, but written only where captures go to a hand */
		char plain[160];
		size_t k = 0;
		for (const char *c = wall_fens[i]; *c && k + 1 < sizeof plain; c++)
			if (*c != '~')
				plain[k++] = *c;
		plain[k] = 0;
		VT_EQ_STR(fen_of(p), plain);
		VT_EQ_INT(p->hash, vc_pos_compute_hash(p));
		vc_position_free(p);
	}
	/* the same squares, linked otherwise, are another position */
	struct vc_position *a = pos(wall_fens[3]), *b = pos(wall_fens[4]);
	VT_CHECK(a && b && a->hash != b->hash);
	vc_position_free(a);
	vc_position_free(b);
	/* what does not read */
	static const struct {
		const char *fen, *msg;
	} bad[] = {
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/W14/8K7",
		  "'W' is a two-square piece: a mark (>|\\<) must say where its other square is" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/W>15/8K7",
		  "the two-square piece on a2 needs '=' on its other square, b2" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/=15/8K7",
		  "'=' on a2 is not the other square of a two-square piece" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/K>=14/8K7",
		  "'>' after 'K': only a two-square piece has a mark" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/W\\15/1=14/8K7",
		  "the piece on a3 stands on two orthogonally adjacent squares, not diagonally" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/15W>/8K7",
		  "the other square of the piece on p2 is off the board" },
		{ "8k7/16/16/16/16/16/16/16/16/16/16/16/16/16/W|15/8K7",
		  "the two-square piece on a2 needs '=' on its other square, a1" },
	};
	for (size_t i = 0; i < VC_NELEM(bad); i++) {
		struct vc_ctx *ctx = vc_ctx_new();
		struct vc_position *p = pos(NULL);
		VT_EQ_INT(vc_position_set_fen(p, ctx, bad[i].fen), VC_FAILED);
		VT_EQ_STR(vc_ctx_last_message(ctx), bad[i].msg);
		vc_position_free(p);
		vc_ctx_free(ctx);
	}
}

/* The rule text's diagram after 3. h6 NN-g11, transcribed square by square:
 *   g r s c n u b q k b . n c s r g  16
 *   www . . . . . . . . . i . . www  15
 *   p p p p p p p p p p p p p p p p  14
 *   . . . . . . . . . u . . . . . .  13
 *   . . . . . . i . . . . . . . . .  11
 *   . . . . . . . P . S . . P . . .   6
 *   P P P P P P P . P P P P . P P P   3
 *   WWW . . I . . . . . . I . . WWW   2
 *   G R S C N U B Q K B U N C . R G   1
 * (the other ranks empty), White to move at move 4. */
static const char *diagram_after_3 =
	"grs(cn)n(sc)bqkb1n(cn)srg/w>=9(nn)2w>=/pppppppppppppppp/9(sc)6/16/6(nn)9/16/16/16/16/"
	"7P1S2P3/16/16/PPPPPPP1PPPP1PPP/W>=2(NN)6(NN)2W>=/GRS(CN)N(SC)BQKB(SC)N(CN)1RG w KQkq - 0 "
	"4";

VT_TEST(sample_game_diagrams)
{
	struct vc_position *p = pos(NULL);
	VT_EQ_INT(play(p, "m6 SC-j13"), 2);
	VT_EQ_STR(fen_of(p), "grs(cn)n(sc)bqkb1n(cn)srg/w>=2(nn)6(nn)2w>=/pppppppppppppppp/9(sc)6/"
			     "16/16/16/16/16/"
			     "16/12P3/16/16/PPPPPPPPPPPP1PPP/W>=2(NN)6(NN)2W>=/"
			     "GRS(CN)N(SC)BQKB(SC)N(CN)SRG w KQkq - "
			     "1 2");
	VT_EQ_INT(play(p, "S-j6 NN-i7 h6 NN-g11"), 4);
	/* square for square, but for the counters (the diagram has none) */
	char board[800];
	snprintf(board, sizeof board, "%s", fen_of(p));
	*strchr(board, ' ') = 0;
	char want[800];
	snprintf(want, sizeof want, "%s", diagram_after_3);
	*strchr(want, ' ') = 0;
	VT_EQ_STR(board, want);
	VT_EQ_STR(fen_of(p), "grs(cn)n(sc)bqkb1n(cn)srg/w>=9(nn)2w>=/pppppppppppppppp/9(sc)6/16/"
			     "6(nn)9/16/16/16/16/7P1S2P3/16/16/PPPPPPP1PPPP1PPP/W>=2(NN)6(NN)2W>=/"
			     "GRS(CN)N(SC)BQKB(SC)N(CN)1RG w KQkq - 1 4");
	/* the printed 7. S-i8 is ambiguous; the diagram after move 9 says c1 */
	VT_EQ_INT(play(p, "B-c8 e12 N-m3 B-b11 d7 h12"), 6);
	VT_EQ_STR(move_error(p, "S-i8"), "two spiders can reach i8: Sc-i8 or Sj-i8");
	VT_EQ_INT(play(p, "Sc-i8 B-d10 SC-f4 d11 CN-k2 S-f12 Sxg11 hxg11 SC-j4 NN-i9 0-0 CN-e10 "
			  "Bxe10 dxe10"),
		  14);
	VT_EQ_STR(fen_of(p), "gr2n(sc)1qk2n(cn)srg/w>=12w>=/ppp2pp1pppppppp/9(sc)6/4ps10/1b4p9/"
			     "3bp11/8(nn)7/16/3P12/7P1S2P3/16/5(SC)3(SC)6/PPP1PPP1PPPPNPPP/"
			     "W>=2(NN)5(CN)(NN)2W>=/GR1(CN)N1BQ4CK1G w kq - 0 14");
	vc_position_free(p);
}

/* the canonical text of the move that text means, or the error */
static const char *canon(struct vc_position *p, const char *text)
{
	static char out[320];
	struct vc_san san;
	vc_move m;
	const char *code;
	char msg[300];
	if (vc_san_parse(p->v, text, strlen(text), &san, &code, msg, sizeof msg) != 0 ||
	    vc_san_resolve(p, &san, text, strlen(text), &m, NULL, &code, msg, sizeof msg) != 0) {
		snprintf(out, sizeof out, "error: %s", msg);
		return out;
	}
	vc_move_san(p, &m, 0, out, sizeof out);
	return out;
}

VT_TEST(notation)
{
	struct vc_position *p = pos(NULL);
	/* the L file; two-square moves in every form */
	VT_EQ_STR(canon(p, "L5"), "l5");
	VT_EQ_STR(canon(p, "l3l6"), "l6");
	VT_EQ_STR(canon(p, "N-m3"),
		  "error: no knight can reach m3: it holds a piece of White's own");
	VT_EQ_STR(canon(p, "W a2b2-b2c2"), "W a2b2-b2c2");
	VT_EQ_STR(canon(p, "W b2a2-c2b2"), "W a2b2-b2c2");
	VT_EQ_STR(canon(p, "Wa2b2-c2d2"), "W a2b2-c2d2");
	VT_EQ_STR(canon(p, "a2b2c2d2"), "W a2b2-c2d2");
	VT_EQ_STR(canon(p, "W a2b2c2d2"), "W a2b2-c2d2");
	VT_EQ_STR(canon(p, "W p2o2-n2o2"), "W o2p2-n2o2");
	VT_EQ_STR(canon(p, "W a2b2-d2e2"),
		  "error: the wall cannot land on e2: it holds a piece of White's own");
	VT_EQ_STR(canon(p, "W a2b2-a3b3"),
		  "error: the wall cannot land on a3: it holds a piece of White's own");
	VT_EQ_STR(canon(p, "W a2c2-a3b3"), "error: the wall on a2 stands on a2b2");
	VT_EQ_STR(canon(p, "W c3d3-c4d4"), "error: the pawn on c3 stands on one square: "
					   "'W c3d3-c4d4' is a two-square move");
	VT_EQ_STR(canon(p, "GW a2b2-b2c2"), "error: the piece on a2 is a wall, not a great wall");
	VT_EQ_STR(canon(p, "W a2b2-c2e2"),
		  "error: a wall covers two adjacent squares, which c2e2 are not");
	VT_EQ_STR(canon(p, "W-c2"),
		  "error: a two-square move is written 'W a2b2-a3b3', not 'W-c2'");
	vc_position_free(p);
	/* multi-letter symbols disambiguated by file and by rank; automatic
	 * promotion read with and without its '=' */
	p = pos("8k7/16/16/16/16/16/16/2(SC)4Q8/16/16/5(SC)10/16/16/2(SC)5(SC)7/16/8K7 w - - 0 1");
	VT_EQ_STR(canon(p, "SCc-f3"), "SCc-f3");
	VT_EQ_STR(canon(p, "SCcf3"), "SCc-f3");
	VT_EQ_STR(canon(p, "SC3-c6"), "SC3-c6");
	VT_EQ_STR(canon(p, "SCc3-c6"), "SC3-c6");
	VT_EQ_STR(canon(p, "SC-f3"),
		  "error: three supercomputers can reach f3: SCc-f3, SCi-f3 or SCf-f3");
	VT_EQ_STR(canon(p, "Q-h16"), "Q-h16+");
	VT_EQ_STR(canon(p, "Q-h16=E"), "Q-h16+");
	VT_EQ_STR(canon(p, "Qh16"), "Q-h16+");
	VT_EQ_STR(canon(p, "Q-h16=H"), "error: a queen cannot promote to a hippogriff here");
	vc_position_free(p);
	/* castling read with O or 0, written with 0; the rook becomes a castle */
	p = pos("1r6k5r1/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1R6K5R1 w KQkq - 0 1");
	VT_EQ_STR(canon(p, "O-O"), "0-0");
	VT_EQ_STR(canon(p, "0-0-0"), "0-0-0");
	VT_EQ_INT(play(p, "0-0 0-0-0"), 2);
	VT_EQ_STR(fen_of(p), "2kc10r1/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1R10CK2 w - - 2 2");
	vc_position_free(p);
	/* the pawn's twenty choices */
	p = pos("8k7/1P14/16/16/16/16/16/16/16/16/16/16/16/16/16/8K7 w - - 0 1");
	static vc_move m[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, m, VC_MAX_MOVES), promo = 0;
	for (int i = 0; i < n; i++)
		promo += m[i].piece == vc_variant_piece_find(p->v, "P");
	VT_EQ_INT(promo, 20);
	VT_EQ_STR(canon(p, "b16=O"), "b16=O");
	VT_EQ_STR(canon(p, "b16=R"), "b16=R+");
	VT_EQ_STR(canon(p, "b16=W"), "error: a pawn cannot promote to a wall here");
	VT_EQ_STR(canon(p, "b16=K"), "error: a pawn cannot promote to a king here");
	VT_EQ_INT(play(p, "b16=R"), 1);
	VT_EQ_INT(vc_position_piece_at(p, sq_of("b16"), NULL), vc_variant_piece_find(p->v, "R"));
	vc_position_free(p);
}

/* the canonical text of every legal move reads back as that move */
static void check_san_roundtrip(struct vc_position *p, const char *where)
{
	static vc_move lm[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
	for (int i = 0; i < n; i++) {
		char t[64], msg[300];
		struct vc_san san;
		vc_move m;
		const char *code;
		vc_move_san(p, &lm[i], 0, t, sizeof t);
		if (vc_san_parse(p->v, t, strlen(t), &san, &code, msg, sizeof msg) != 0 ||
		    vc_san_resolve(p, &san, t, strlen(t), &m, NULL, &code, msg, sizeof msg) != 0) {
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: '%s' does not read: %s", where,
				   fen_of(p), t, msg);
			return;
		}
		if (memcmp(&m, &lm[i], sizeof m)) {
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s: '%s' reads as another move", where,
				   fen_of(p), t);
			return;
		}
	}
}

struct snap {
	uint8_t board[VC_MAXSQ], sqf[VC_MAXSQ];
	uint64_t hash;
	int16_t castle[2][VC_MAXCASTLE], king[2];
	int16_t ep[VC_MAXEP], epvictim;
	int nep, npl[3], ntwo[2], side, halfmove;
};

static void take_snap(const struct vc_position *p, struct snap *s)
{
	memset(s, 0, sizeof *s);
	memcpy(s->board, p->board, sizeof s->board);
	memcpy(s->sqf, p->sqf, sizeof s->sqf);
	s->hash = p->hash;
	memcpy(s->castle, p->castle, sizeof s->castle);
	memcpy(s->king, p->king, sizeof s->king);
	memcpy(s->ep, p->ep, sizeof s->ep);
	s->epvictim = p->epvictim;
	s->nep = p->nep;
	for (int c = 0; c < 3; c++)
		s->npl[c] = p->npl[c];
	s->ntwo[0] = p->ntwo[0];
	s->ntwo[1] = p->ntwo[1];
	s->side = p->side;
	s->halfmove = p->halfmove;
}

/* the lists agree with the board */
static int lists_ok(const struct vc_position *p)
{
	int n[3] = { 0, 0, 0 }, two[2] = { 0, 0 };
	for (int sq = 0; sq < p->v->nsq; sq++) {
		if (!p->board[sq])
			continue;
		int c = vc_code_color(p->board[sq]);
		n[c]++;
		if (p->plist[c][p->pidx[sq]] != sq)
			return 0;
		if (p->sqf[sq] & VC_SQF_LINKMASK) {
			int o = vc_partner(p, sq);
			if (p->board[o] != p->board[sq] || vc_partner(p, o) != sq)
				return 0;
			if (vc_link_is_anchor(p->sqf[sq])) {
				int found = 0;
				for (int i = 0; i < p->ntwo[c]; i++)
					found |= p->two[c][i] == sq;
				if (!found || o < sq)
					return 0;
				two[c]++;
			}
		}
	}
	return n[0] == p->npl[0] && n[1] == p->npl[1] && two[0] == p->ntwo[0] &&
	       two[1] == p->ntwo[1];
}

/* random games from a position: at every ply the library's moves against
 * the simple generator's, make and unmake of every move, the hash, the
 * position string read back, and (every few plies) move text read back */
static void random_games(const char *fen, int games, int plies, const char *name)
{
	static vc_move lm[VC_MAX_MOVES];
	struct vc_position *p = pos(fen), *q = pos(NULL);
	if (!p) {
		VT_FAIL_AT(__FILE__, __LINE__, "%s: the position does not read", name);
		return;
	}
	struct vc_position *start = pos(fen);
	for (int g = 0; g < games; g++) {
		vc_position_copy(p, start);
		struct nb b;
		nb_load(&b, p);
		for (int ply = 0; ply < plies; ply++) {
			char where[80];
			snprintf(where, sizeof where, "%s game %d ply %d", name, g + 1, ply + 1);
			if (!same_moves(p, &b, where))
				goto next;
			if (!lists_ok(p)) {
				VT_FAIL_AT(__FILE__, __LINE__, "%s: piece lists: %s", where,
					   fen_of(p));
				goto next;
			}
			char f1[800];
			snprintf(f1, sizeof f1, "%s", fen_of(p));
			/* (targets no pawn can use are not written, so the hashes may differ) */
			if (vc_position_set_fen(q, NULL, f1) != VC_OK ||
			    strcmp(fen_of(q), f1) != 0 || (p->nep == 0 && q->hash != p->hash)) {
				VT_FAIL_AT(__FILE__, __LINE__, "%s: %s does not read back", where,
					   fen_of(p));
				goto next;
			}
			int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
			if (n == 0)
				break;
			struct snap s0, s1;
			take_snap(p, &s0);
			/* (a position set up with the side not to move in check has
			 * checks no move gave: the shortcuts assume none) */
			int legal_pos = !vc_in_check(p, p->side ^ 1);
			for (int i = 0; i < n; i++) {
				vc_pos_make(p, &lm[i]);
				if (p->hash != vc_pos_compute_hash(p) || !lists_ok(p)) {
					char t[64];
					vc_pos_unmake(p);
					vc_move_san(p, &lm[i], 0, t, sizeof t);
					VT_FAIL_AT(__FILE__, __LINE__,
						   "%s: after %s: hash or lists wrong: %s", where,
						   t, fen_of(p));
					goto next;
				}
				if (legal_pos && vc_check_after(p, &lm[i]) != vc_in_check(p, p->side)) {
					/* the check test after a move, by its shortcuts, against
					 * the whole board's */
					char t[64];
					vc_pos_unmake(p);
					vc_move_san(p, &lm[i], 0, t, sizeof t);
					VT_FAIL_AT(__FILE__, __LINE__, "%s: after %s: the check test differs: %s",
						   where, t, fen_of(p));
					goto next;
				}
				vc_pos_unmake(p);
				take_snap(p, &s1);
				if (memcmp(&s0, &s1, sizeof s0)) {
					char t[64];
					vc_move_san(p, &lm[i], 0, t, sizeof t);
					VT_FAIL_AT(__FILE__, __LINE__, "%s: %s is not undone",
						   where, t);
					goto next;
				}
			}
			if (ply % 7 == 0)
				check_san_roundtrip(p, where);
			/* prefer captures and wall moves now and then, so that they happen */
			int k = (int)(rnd() % (uint64_t)n);
			if (rnd() % 3 == 0)
				for (int i = 0; i < n; i++) {
					int j = (k + i) % n;
					if (lm[j].flags &
					    (VC_MF_CAPTURE | VC_MF_WALL | VC_MF_PROMO)) {
						k = j;
						break;
					}
				}
			char id[32];
			lib_id(&lm[k], id);
			static struct nlist nl;
			gen_legal(&b, &nl);
			int found = -1;
			for (int i = 0; i < nl.n && found < 0; i++) {
				char id2[32];
				n_id(&nl.m[i], id2);
				if (!strcmp(id, id2))
					found = i;
			}
			if (found < 0) {
				VT_FAIL_AT(__FILE__, __LINE__, "%s: %s not found", where, id);
				goto next;
			}
			apply(&b, &nl.m[found]);
			vc_pos_make(p, &lm[k]);
		}
next:;
	}
	vc_position_free(p);
	vc_position_free(q);
	vc_position_free(start);
}

/* middle-game positions: walls in every stance, promoted pieces, en
 * passant targets, castling rights, checks by walls */
static const char *middle[] = {
	/* walls standing, lying, diagonal; a hippogriff, a quantum computer, a
	 * crooked paladin, a moonrider, an octospider, an empress */
	"g1s(cn)n(sc)bqk2n1sr1/w|1p2(nn)3p1p2w>=/=p2pp2pp4p1/2p3p(SC)6p1/3(cp)5(GW)>=5/16/"
	"4P2(QC)4p3/2H13/16/8(mn)7/5(O)4P5/3W|12/3=12/PP2PP1PP1P1PPP1/3(NN)6(NN)3W>=/"
	"GRS(CN)N1BQK1(SC)1E1RG w KQk - 0 20",
	/* castling both ways possible, the rooks' ways and the kings' squares
	 * watched by walls */
	"1r6k5r1/16/16/16/16/16/16/16/4w|11/4=11/16/16/16/16/16/1R6K5R1 w KQkq - 0 1",
	/* a pawn about to step five squares, to be taken en passant on any of
	 * the crossed squares */
	"8k7/16/2p13/16/1P14/3P12/1P14/3P12/16/16/16/16/16/16/16/8K7 b - - 0 1",
	/* a wall gives check; great walls in both stances near kings */
	"8k7/8W>=6/16/16/16/6(gw)\\9/7=8/16/16/16/3(GW)>=11/16/16/16/16/8K7 b - - 0 30",
	/* pawns one step from promotion, a knight and a wall about to promote */
	"8k2n4/1P14/16/16/16/16/16/2N13/6W>=8/16/16/16/16/16/14p1/8K7 w - - 0 40",
	/* a knight and a rook pinned by a wall (in the way of its slide) */
	"8k7/16/16/16/16/16/16/16/4w>=10/16/16/5R10/4N11/16/16/4K11 w - - 0 1",
};

VT_TEST(against_simple_generator)
{
	rng_state = 0x10c4e55ULL;
	random_games(NULL, 12, 120, "start");
	for (size_t i = 0; i < VC_NELEM(middle); i++) {
		char name[32];
		snprintf(name, sizeof name, "middle %zu", i + 1);
		random_games(middle[i], 6, 60, name);
	}
}

VT_TEST(coverage_of_the_comparison)
{
	static const char *names[] = { "a slide along",
				       "a slide across",
				       "a quarter turn",
				       "an eighth turn",
				       "a great wall's diagonal step",
				       "a wall's capture",
				       "a wall's double capture",
				       "a wall taken through one square",
				       "a wall taken by a pawn",
				       "castling short",
				       "castling long",
				       "en passant",
				       "en passant on a far crossed square",
				       "a five-square step",
				       "a promotion to the octospider" };
	for (int c = 0; c < C_AUTO; c++)
		if (getenv("IO_COVERAGE"))
			printf("# %s: %ld\n", names[c], coverage[c]);
	for (int c = 0; c < C_AUTO; c++)
		if (!coverage[c])
			VT_FAIL_AT(__FILE__, __LINE__, "the random games met no %s", names[c]);
	static const char *autos[] = { "H", "T", "E", "F", "CP", "QC", "A", "MN", "GN", "GW" };
	for (size_t i = 0; i < VC_NELEM(autos); i++)
		if (!coverage[C_AUTO + type_of(autos[i])])
			VT_FAIL_AT(__FILE__, __LINE__, "the random games met no promotion to %s",
				   autos[i]);
}

VT_TEST(perft_against_simple_generator)
{
	struct vc_position *p = pos(NULL);
	struct nb b;
	nb_load(&b, p);
	VT_EQ_INT(vc_perft(p, 1), 132);
	VT_EQ_INT(naive_perft(&b, 2), vc_perft(p, 2));
	vc_position_free(p);
	for (size_t i = 0; i < VC_NELEM(middle); i++) {
		p = pos(middle[i]);
		VT_CHECK(p != NULL);
		if (!p)
			continue;
		nb_load(&b, p);
		uint64_t a = naive_perft(&b, 2), l = vc_perft(p, 2);
		if (a != l)
			VT_FAIL_AT(__FILE__, __LINE__, "middle %zu: perft 2: %llu, simple %llu",
				   i + 1, (unsigned long long)l, (unsigned long long)a);
		vc_position_free(p);
	}
}

/* ---- the random game writer ---- */

/* Writes games of random legal moves, seeded, as the text format reads
 * them: a game ends at plies moves or at mate or stalemate, with its
 * result. */
static int write_games(long games, int plies, uint64_t seed)
{
	static vc_move lm[VC_MAX_MOVES];
	struct vc_position *p = pos(NULL);
	if (!p)
		return 2;
	rng_state = seed ? seed : 1;
	for (long g = 0; g < games; g++) {
		vc_position_start(p);
		printf("[Event \"Random game %ld\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
		       "[Round \"%ld\"]\n[White \"Random\"]\n[Black \"Random\"]\n",
		       g + 1, g + 1);
		char moves[65536];
		size_t k = 0, col = 0;
		const char *result = "*";
		for (int ply = 0; ply < plies; ply++) {
			int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
			if (n == 0) {
				result = vc_in_check(p, p->side) ? (p->side ? "1-0" : "0-1")
								 : "1/2-1/2";
				break;
			}
			const vc_move *m = &lm[rnd() % (uint64_t)n];
			char t[64], w[80];
			vc_move_san(p, m, 0, t, sizeof t);
			int len = p->side == VC_WHITE
					  ? snprintf(w, sizeof w, "%d. %s", p->fullmove, t)
					  : snprintf(w, sizeof w, "%s", t);
			if (col + (size_t)len + 1 > 79) {
				moves[k++] = '\n';
				col = 0;
			} else if (col) {
				moves[k++] = ' ';
				col++;
			}
			memcpy(moves + k, w, (size_t)len);
			k += (size_t)len;
			col += (size_t)len;
			vc_pos_make(p, m);
		}
		if (!strcmp(result, "*") && vc_position_outcome(p))
			result =
				vc_position_outcome(p) == 1 ? (p->side ? "1-0" : "0-1") : "1/2-1/2";
		moves[k] = 0;
		printf("[Result \"%s\"]\n[Variant \"Io Chess\"]\n\n%s%s%s\n\n", result, moves,
		       col + strlen(result) + 1 > 79 ? "\n"
		       : k                           ? " "
						     : "",
		       result);
	}
	vc_position_free(p);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: t_io\n"
			"       t_io --games N [--plies P] [--seed S]\n"
			"       t_io --perft DEPTH [FEN]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct vt_entry all[] = {
		VT_ENTRY(setup),
		VT_ENTRY(fen_walls),
		VT_ENTRY(sample_game_diagrams),
		VT_ENTRY(notation),
		VT_ENTRY(against_simple_generator),
		VT_ENTRY(coverage_of_the_comparison),
		VT_ENTRY(perft_against_simple_generator),
	};
	if (argc > 1 && !strcmp(argv[1], "--games")) {
		long games = argc > 2 ? atol(argv[2]) : 0;
		int plies = 100;
		uint64_t seed = 1;
		for (int i = 3; i + 1 < argc; i += 2) {
			if (!strcmp(argv[i], "--plies"))
				plies = atoi(argv[i + 1]);
			else if (!strcmp(argv[i], "--seed"))
				seed = strtoull(argv[i + 1], NULL, 10);
			else
				return usage();
		}
		if (games < 1 || plies < 0)
			return usage();
		return write_games(games, plies, seed);
	}
	if (argc > 2 && !strcmp(argv[1], "--perft")) {
		/* the library's count and the simple generator's */
		struct vc_position *p = pos(argc > 3 ? argv[3] : NULL);
		if (!p)
			return usage();
		struct nb b;
		nb_load(&b, p);
		int d = atoi(argv[2]);
		printf("library %llu\n", (unsigned long long)vc_perft(p, d));
		fflush(stdout);
		printf("simple  %llu\n", (unsigned long long)naive_perft(&b, d));
		vc_position_free(p);
		return 0;
	}
	if (argc > 1)
		return usage();
	return vt_run(all, VC_NELEM(all));
}
