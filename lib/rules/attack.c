/*
 * rules/attack.c - which squares a side attacks, over the compiled tries of
 * a variant (see vc_rules.h), and the moves of two-square pieces, which
 * the tries do not hold: a wall attacks every square one of its moves could
 * land on.  Below make and unmake (position.c), which asks whether a move
 * gave check, and below generation (movegen.c).
 */
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

/* Does a hop along the path s reach target: past one screen, with
 * nothing between the screen and target, neither of the immune types? */
static int hop_reaches(const struct vc_position *p, uint64_t immune, const int16_t *s, int len,
		       int target)
{
	int j = 0;
	while (j < len && !p->board[s[j] & VC_PS_SQMASK]) {
		if ((s[j] & VC_PS_SQMASK) == target)
			return 0; /* before the screen */
		j++;
	}
	if (j == len || (s[j] & VC_PS_SQMASK) == target ||
	    (immune >> vc_code_type(p->board[s[j] & VC_PS_SQMASK]) & 1))
		return 0;
	for (j++; j < len; j++) {
		int e = s[j], sq = e & VC_PS_SQMASK;
		uint8_t occ = p->board[sq];
		if (sq == target)
			return !(e & VC_PS_TRANSIT) && !(occ && (immune >> vc_code_type(occ) & 1));
		if (occ)
			return 0;
	}
	return 0;
}

static int walk_reaches(const struct vc_position *p, int from, int target)
{
	const struct vc_variant *v = p->v;
	int side = vc_code_color(p->board[from]), t = vc_code_type(p->board[from]);
	int32_t off = v->pathoff[side][t][from];
	if (!off || (p->sqf[from] & VC_SQF_DEAD))
		return 0;
	const int16_t *q = v->paths + off;
	int np = *q++;
	for (int i = 0; i < np; i++) {
		int len = q[0], modes = q[1];
		const int16_t *s = q + 2;
		q += 2 + len;
		if (!(modes & VC_MODE_CAPTURE) ||
		    ((modes & VC_MODE_FIRST) && !(p->sqf[from] & VC_SQF_FIRST)))
			continue;
		if (modes & VC_MODE_HOP) {
			if (hop_reaches(p, v->types[t].hop_immune, s, len, target))
				return 1;
			continue;
		}
		for (int j = 0; j < len; j++) {
			int e = s[j], sq = e & VC_PS_SQMASK;
			if (e & VC_PS_SELF)
				continue;
			if (sq == target && !(e & VC_PS_TRANSIT))
				return 1;
			if (p->board[sq])
				break;
		}
	}
	return 0;
}

/* a two-square piece attacks every square one of its moves could land on */
int vc_two_attacked(const struct vc_position *p, int sq, int by)
{
	const struct vc_variant *v = p->v;
	for (int i = 0; i < p->ntwo[by]; i++) {
		int a = p->two[by][i];
		if (vc_two_near(v, a, vc_partner(p, a), sq,
				(int)(v->two_odd >> vc_code_type(p->board[a]) & 1)) &&
		    vc_gen_two(p, a, by, sq, NULL))
			return 1;
	}
	return 0;
}

/* Is sq attacked by side by (0 or 1)? */
int vc_attacked(const struct vc_position *p, int sq, int by)
{
	const struct vc_variant *v = p->v;
	if ((v->rules & VC_R_EXPLOSION) && v->king_type >= 0) {
		/* a capture explodes around its square: one next to the
		 * attacker's own royal piece would blow it away, and a side
		 * whose royal piece is gone has lost (nothing it attacks counts) */
		int kb = p->king[by];
		if (kb < 0 || vc_next_to(v, kb, sq))
			return 0;
	}
	/* the mirror, unless a piece it leaves out could attack */
	if (v->bbm && !vc_bb_holds(p, by, v->bboutcap))
		return vc_bb_attacked(p, sq, by);
	if (vc_trie_walk(p, v->trie, v->trieoff[0][by][sq], v->trieend[0][by][sq], by))
		return 1;
	if (!v->attacks_off_tries)
		return 0;
	if (v->two_types && vc_two_attacked(p, sq, by))
		return 1;
	if (v->walk_types) {
		size_t words = (size_t)(v->nsq + 63) / 64;
		for (int i = 0; i < p->npl[by]; i++) {
			int from = p->plist[by][i];
			/* a square of the list may hold another piece while a move
			 * is tested on the board alone (board_leaves_check) */
			uint8_t c = p->board[from];
			int t = vc_code_type(c);
			if (c && vc_code_color(c) == by && (v->walk_types >> t & 1) &&
			    vc_bit_test(v->walk_reach[by][t] + (size_t)from * words, sq) &&
			    walk_reaches(p, from, sq))
				return 1;
		}
	}
	return 0;
}

int vc_in_check(const struct vc_position *p, int side)
{
	int k = p->king[side];
	return k >= 0 && vc_attacked(p, k, side ^ 1);
}

int vc_position_in_check(const struct vc_position *p) { return vc_in_check(p, p->side); }

/* ---- two-square pieces ---- */

/* The new squares a two-square piece lands on: what stands there decides
 * the move.  Returns -1 when it cannot land (a piece of its own side, an
 * uncapturable one), else the number of its new squares that hold enemy
 * pieces.  The piece's own squares a and b count as empty. */
static inline int two_landing(const struct vc_position *p, int side, int a, int b, int na, int nb)
{
	int caps = 0;
	int s2[2] = { na, nb };
	for (int k = 0; k < 2; k++) {
		int s = s2[k];
		if (s == a || s == b)
			continue;
		uint8_t occ = p->board[s];
		if (!occ)
			continue;
		if (vc_code_color(occ) == side ||
		    (p->v->types[vc_code_type(occ)].props & VC_P_UNCAPTURABLE))
			return -1;
		caps++;
	}
	return caps;
}

static inline int rot_dir(int d, int eighths) { return (d - 1 + eighths + 8) % 8 + 1; }

/* one move of a two-square piece: (na, nb) are the new squares of (a, b) */
static int two_push(const struct vc_position *p, int a, int b, int na, int nb, int caps, int side,
		    vc_move *out, int n, int t)
{
	const struct vc_variant *v = p->v;
	const struct vc_ptype *pt = &v->types[t];
	vc_move *m = &out[n];
	if (nb < na) {
		int x = na;
		na = nb;
		nb = x;
	}
	if (v->dedupe[t])
		for (int i = 0; i < n; i++)
			if (out[i].to == na && out[i].to2 == nb)
				return n;
	m->from = (int16_t)a;
	m->from2 = (int16_t)b;
	m->to = (int16_t)na;
	m->to2 = (int16_t)nb;
	m->aux = -1;
	m->piece = (uint8_t)t;
	m->promo = 0;
	m->flags = VC_MF_WALL;
	m->extra = 0;
	m->gate = 0;
	if (caps) {
		m->flags |= VC_MF_CAPTURE;
		/* two pieces, unless both squares are one two-square piece's */
		if (caps == 2 && !((p->sqf[na] & VC_SQF_LINKMASK) && vc_partner(p, na) == nb))
			m->flags |= VC_MF_TWOCAP;
	}
	if (pt->auto_to >= 0 &&
	    (vc_bit_test(v->auto_zone[side][t], na) || vc_bit_test(v->auto_zone[side][t], nb))) {
		m->promo = (uint8_t)(pt->auto_to + 1);
		m->flags |= VC_MF_PROMO;
	}
	return n + 1;
}

/* How many steps of (dx, dy) carry the squares (a, b) onto the pair
 * (x, y), either way round; 0 when no number does. */
static int two_steps(const struct vc_variant *v, int a, int b, int x, int y, int dx, int dy)
{
	const uint8_t *fl = v->sqfile, *rk = v->sqrank;
	for (int o = 0; o < 2; o++) {
		int na = o ? y : x, nb = o ? x : y;
		int DX = fl[na] - fl[a], DY = rk[na] - rk[a];
		if (fl[nb] - fl[b] != DX || rk[nb] - rk[b] != DY)
			continue;
		int k = dx ? DX / dx : DY / dy;
		if (k >= 1 && k * dx == DX && k * dy == DY)
			return k;
	}
	return 0;
}

/* The number of steps (dx, dy) that go (fx, fy) from a square, 0 when none
 * does. */
static inline int steps_to(int dx, int dy, int fx, int fy)
{
	int k = dx ? fx / dx : dy ? fy / dy : 0;
	return k > 0 && k * dx == fx && k * dy == fy ? k : 0;
}

/* vc_gen_two, and with lo >= 0 only the moves onto the squares lo < hi */
static int gen_two(const struct vc_position *p, int a, int side, int target, int lo, int hi,
		   vc_move *out)
{
	const struct vc_variant *v = p->v;
	int t = vc_code_type(p->board[a]);
	int b = vc_partner(p, a);
	const struct vc_ptype *pt = &v->types[t];
	int F = v->files, R = v->ranks;
	int af = v->sqfile[a], ar = v->sqrank[a], bf = v->sqfile[b], br = v->sqrank[b];
	int n = 0;
	/* translations: every square on the way empty, the landing squares
	 * empty or enemies (then the slide stops there) */
	const struct vc_twovec *tv = v->twovec[side][t];
	for (int i = 0; i < v->ntwovec[side][t]; i++) {
		int dx = tv[i].dx, dy = tv[i].dy;
		int max = tv[i].range ? tv[i].range : F + R, want = 0;
		if (lo >= 0) { /* the one number of steps that lands there */
			want = two_steps(v, a, b, lo, hi, dx, dy);
			if (!want || want > max || want < tv[i].min)
				continue;
			max = want;
		} else if (target >= 0) { /* no further than the step that lands on target */
			int tf = v->sqfile[target], tr = v->sqrank[target];
			int ka = steps_to(dx, dy, tf - af, tr - ar), kb = steps_to(dx, dy, tf - bf, tr - br);
			int reach = ka > kb ? ka : kb;
			if (!reach)
				continue;
			if (reach < max)
				max = reach;
		}
		for (int k = 1; k <= max; k++) {
			int naf = af + k * dx, nar = ar + k * dy, nbf = bf + k * dx, nbr = br + k * dy;
			if (naf < 0 || naf >= F || nar < 0 || nar >= R || nbf < 0 || nbf >= F || nbr < 0 ||
			    nbr >= R)
				break;
			int na = nar * F + naf, nb = nbr * F + nbf;
			int caps = two_landing(p, side, a, b, na, nb);
			if (caps < 0)
				break;
			if (k >= tv[i].min && (!want || k == want)) {
				if (target >= 0) {
					if (na == target || nb == target)
						return 1;
				} else if (caps ? (tv[i].modes & VC_MODE_CAPTURE) : (tv[i].modes & VC_MODE_MOVE))
					n = two_push(p, a, b, na, nb, caps, side, out, n, t);
			}
			if (caps)
				break;
		}
	}
	/* turns about either square: a quarter, and an eighth for a piece that
	 * may stand diagonally; only the square that moves is looked at */
	static const int quarter[] = { 2, -2 }, eighth[] = { 2, -2, 1, -1 };
	const int *turns = (pt->props & VC_P_DIAGSTANCE) ? eighth : quarter;
	int nturns = (pt->props & VC_P_DIAGSTANCE) ? 4 : 2;
	if (target >= 0 && !vc_next_to(v, a, target) && !vc_next_to(v, b, target))
		return 0; /* a turn lands next to the square it turns about */
	for (int pv = 0; pv < 2; pv++) {
		int piv = pv ? b : a, mov = pv ? a : b;
		int pf = v->sqfile[piv], pr = v->sqrank[piv];
		int d = vc_link_dir(v->sqfile[mov] - pf, v->sqrank[mov] - pr);
		for (int j = 0; j < nturns; j++) {
			int nd = rot_dir(d, turns[j]);
			int nf = pf + vc_link_dx(nd), nr = pr + vc_link_dy(nd);
			if (nf < 0 || nf >= F || nr < 0 || nr >= R)
				continue;
			int ns = nr * F + nf;
			int caps = two_landing(p, side, a, b, ns, ns);
			if (caps < 0)
				continue;
			if (target >= 0) {
				if (ns == target)
					return 1;
				continue;
			}
			int na = pv ? ns : a, nb = pv ? b : ns;
			if (lo >= 0 && ((na < nb ? na : nb) != lo || (na < nb ? nb : na) != hi))
				continue;
			/* a turn is a move and a capture alike */
			n = two_push(p, a, b, na, nb, caps ? 1 : 0, side, out, n, t);
		}
	}
	return target >= 0 ? 0 : n;
}

int vc_gen_two(const struct vc_position *p, int a, int side, int target, vc_move *out)
{
	return gen_two(p, a, side, target, -1, -1, out);
}

int vc_two_find(const struct vc_position *p, int a, int side, int x, int y, vc_move *out)
{
	return gen_two(p, a, side, -1, x < y ? x : y, x < y ? y : x, out);
}
