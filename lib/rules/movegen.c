/*
 * rules/movegen.c - move generation, legality and perft over the
 * compiled paths and tries of a variant (see vc_rules.h).
 *
 * Pseudo-legal moves come from walking each piece's paths.  A move is legal
 * when the mover's royal piece is not attacked after it.  Making and testing
 * every move is exact but slow, so a move is tested only when it can change
 * that answer: when the side is in check, when the royal piece moves, for
 * en passant, castling and the mechanics that move more than one piece, and
 * when the mover is the first piece on some branch of the capture trie of
 * its king behind which an enemy attacker waits (a possible pin).  Every
 * other move cannot uncover an attack on the king, since any attack
 * uncovered runs through a trie branch whose first piece would have to be
 * the mover.
 *
 * Two-square pieces (walls) are not in the paths and tries: vc_gen_two
 * (attack.c) moves them as bodies, and vc_attacked asks it whether one of
 * their moves lands on the square.  A wall can attack a king only along the lines of
 * its squares; when an enemy wall's lines meet the king, every move is
 * tested, and so are every wall move and every capture of a wall (its other
 * square empties too).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "rules/vc_rules.h"

/* Do royal pieces on a and b face each other on an open file? */
static int faces(const struct vc_position *p, int a, int b);

/* out[0..n) sorted (a few squares, most often one); n */
static int in_square_order(int16_t *out, int n)
{
	for (int i = 1; i < n; i++) {
		int16_t x = out[i];
		int j = i;
		for (; j > 0 && out[j - 1] > x; j--)
			out[j] = out[j - 1];
		out[j] = x;
	}
	return n;
}

int vc_reach_origins(const struct vc_position *p, int side, uint64_t mask, int target,
		     int capture, int16_t *out, int cap)
{
	const struct vc_variant *v = p->v;
	if (v->bbm && !vc_bb_holds(p, side, mask & v->bbout))
		return vc_bb_reach(p, side, mask, target, capture, out, cap);
	const struct vc_tnode *t = v->trie;
	int k = capture ? 0 : 1;
	int32_t i = v->trieoff[k][side][target], end = v->trieend[k][side][target];
	int n = 0;
	if (mask && !(mask & (mask - 1)) && !(mask & v->walk_types)) {
		/* one type: its shapes, else its own trie */
		int type = __builtin_ctzll(mask);
		if (v->shapes && v->shapes->run[k][side][type])
			return vc_shape_origins(p, v->shapes->run[k][side][type], side, type, target, 1,
						out, cap);
		size_t idx = (size_t)type * (size_t)v->nsq + (size_t)target;
		const struct vc_tnode1 *t1 = v->ttrie;
		uint8_t want = vc_code(type, side);
		i = v->ttoff[k][side][idx];
		end = v->ttend[k][side][idx];
		while (i < end) {
			int sq = t1[i].sq & VC_PS_SQMASK;
			uint8_t occ = p->board[sq];
			if (!occ) {
				i++;
				continue;
			}
			if (occ == want && (t1[i].sq & VC_TN1_REACH) && !(p->sqf[sq] & VC_SQF_DEAD)) {
				int dup = 0;
				for (int j = 0; j < n; j++)
					dup |= out[j] == sq;
				if (!dup && n < cap)
					out[n++] = (int16_t)sq;
			}
			i += t1[i].skip;
		}
		return in_square_order(out, n);
	}
	if (!(mask & ~v->walk_types))
		i = end; /* the tries hold none of the walked types */
	while (i < end) {
		if (!(t[i].sub & mask)) {
			i += t[i].skip;
			continue;
		}
		uint8_t occ = p->board[t[i].sq];
		if (!occ) {
			i++;
			continue;
		}
		if (vc_code_color(occ) == side && ((t[i].mask & mask) >> vc_code_type(occ) & 1) &&
		    !(p->sqf[t[i].sq] & VC_SQF_DEAD)) {
			int dup = 0;
			for (int j = 0; j < n; j++)
				if (out[j] == t[i].sq)
					dup = 1;
			if (!dup && n < cap)
				out[n++] = t[i].sq;
		}
		i += t[i].skip;
	}
	if (mask & v->walk_types) {
		/* not in the tries: every piece of those types whose paths hold
		 * the target at all is a candidate */
		size_t words = (size_t)(v->nsq + 63) / 64;
		for (int j = 0; j < p->npl[side] && n < cap; j++) {
			int from = p->plist[side][j], ty = vc_code_type(p->board[from]);
			const uint64_t *r = capture ? v->walk_reach[side][ty] : v->walk_move_reach[side][ty];
			if (((mask & v->walk_types) >> ty & 1) &&
			    vc_bit_test(r + (size_t)from * words, target)) {
				int dup = 0;
				for (int d = 0; d < n; d++)
					dup |= out[d] == from;
				if (!dup)
					out[n++] = (int16_t)from;
			}
		}
	}
	return in_square_order(out, n);
}

/* A square's piece is 'now', on the board and its mirror: for the tests
 * that set a move on the board alone, and take it back. */
static inline void lift_or_put(struct vc_position *p, int sq, uint8_t now)
{
	uint8_t was = p->board[sq];
	p->board[sq] = now;
	if (p->v->bbm) {
		if (was)
			vc_bb_flip(p, sq, was);
		if (now)
			vc_bb_flip(p, sq, now);
	}
}

/* ---- generation ---- */

struct gen {
	const struct vc_position *p;
	vc_move *out;
	int n;
};

static inline void push(struct gen *g, int from, int to, int piece, int flags, int promo)
{
	vc_move *m = &g->out[g->n++];
	m->from = (int16_t)from;
	m->to = (int16_t)to;
	m->from2 = m->to2 = -1;
	m->aux = -1;
	m->piece = (uint8_t)piece;
	m->promo = (uint8_t)promo;
	m->flags = (uint16_t)flags;
	m->extra = 0;
	m->gate = 0;
}

/* promotion by exchange: one move per piece the pawn may trade places
 * with: each on the board (not pawn, not royal, not in the zone), each kind
 * in the own airfield, each kind of own piece in the enemy's prison.  None:
 * the pawn may not go there at all. */
static void add_xpromo(struct gen *g, int from, int to, int t, int flags)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	int side = p->side;
	for (int i = 0; i < p->npl[side]; i++) {
		int sq = p->plist[side][i];
		int st = vc_code_type(p->board[sq]);
		if ((v->types[st].props & (VC_P_PAWN | VC_P_ROYAL)) ||
		    vc_bit_test(v->promo_zone[side][t], sq) || sq == to)
			continue;
		push(g, from, to, t, flags | VC_MF_PROMO | VC_MF_XPROMO, st + 1);
		g->out[g->n - 1].aux = (int16_t)sq;
	}
	/* a piece the pawn self-captures on the last rank is in the airfield by
	 * the time the pawn trades places (the rule text, word for word) */
	int selfcap = -1;
	if ((flags & VC_MF_SELF) && p->board[to])
		selfcap = vc_code_type(p->board[to]);
	for (int st = 0; st < v->ntypes; st++) {
		if (v->types[st].props & (VC_P_PAWN | VC_P_ROYAL))
			continue;
		if (p->res[side][0][st] || st == selfcap) {
			push(g, from, to, t, flags | VC_MF_PROMO | VC_MF_XPROMO, st + 1);
			g->out[g->n - 1].aux = -2;
		}
		if (v->nreserve > 1 && p->res[side ^ 1][1][st]) {
			push(g, from, to, t, flags | VC_MF_PROMO | VC_MF_XPROMO, st + 1);
			g->out[g->n - 1].aux = -3;
		}
	}
}

/* promotion-limit: has side fewer pieces of type c than its limit? */
static int below_limit(const struct vc_position *p, int side, int c)
{
	int n = 0;
	for (int i = 0; i < p->npl[side]; i++)
		n += vc_code_type(p->board[p->plist[side][i]]) == c;
	return n < p->v->types[c].promo_limit;
}

/* adds a move, expanding promotions */
static inline void add(struct gen *g, int from, int to, int t, int flags)
{
	const struct vc_variant *v = g->p->v;
	const struct vc_ptype *pt = &v->types[t];
	int side = g->p->side;
	if ((pt->props & VC_P_BECOMES_VICTIM) && (flags & VC_MF_CAPTURE) && !(flags & VC_MF_SELF)) {
		/* a vampire becomes what it captures; on its zone it promotes only
		 * if that leaves a piece that promotes there (a pawn, a vampire) */
		int vt = vc_code_type(g->p->board[(flags & VC_MF_EP) ? g->p->epvictim : to]);
		const struct vc_ptype *vp = &v->types[vt];
		if (vp->promo_ranks && vp->promo_choices && vc_bit_test(v->promo_zone[side][vt], to)) {
			uint64_t ch = pt->promo_choices ? pt->promo_choices : vp->promo_choices;
			while (ch) {
				int c = __builtin_ctzll(ch);
				ch &= ch - 1;
				push(g, from, to, t, flags | VC_MF_PROMO | VC_MF_MORPH, c + 1);
			}
			return;
		}
		push(g, from, to, t, flags | (vt != t ? VC_MF_MORPH : 0), vt != t ? vt + 1 : 0);
		return;
	}
	if (pt->flip_to >= 0 && ((v->rules & VC_R_FLIP_MOVES) ||
				 ((v->rules & VC_R_FLIP_CAPTURES) && (flags & VC_MF_CAPTURE)))) {
		/* a two-faced piece turns over (kyoto and micro shogi) */
		push(g, from, to, t, flags | VC_MF_PROMO, pt->flip_to + 1);
		return;
	}
	if (pt->promo_ranks && (v->rules & VC_R_XPROMO) && vc_bit_test(v->promo_zone[side][t], to)) {
		add_xpromo(g, from, to, t, flags);
		return;
	}
	if (pt->promo_choices && vc_promo_zone_move(v, side, t, from, to)) {
		uint64_t ch = pt->promo_choices;
		while (ch) {
			int c = __builtin_ctzll(ch);
			ch &= ch - 1;
			if (!v->types[c].promo_limit || below_limit(g->p, side, c))
				push(g, from, to, t, flags | VC_MF_PROMO, c + 1);
		}
		if (!pt->promo_mandatory &&
		    !(pt->promo_must_ranks >> (vc_rel_rank(v, side, to) - 1) & 1))
			push(g, from, to, t, flags, 0);
		return;
	}
	if (pt->auto_to >= 0 && vc_bit_test(v->auto_zone[side][t], to)) {
		push(g, from, to, t, flags | VC_MF_PROMO, pt->auto_to + 1);
		return;
	}
	push(g, from, to, t, flags, 0);
}

static int is_ep_target(const struct vc_position *p, int sq)
{
	for (int i = 0; i < p->nep; i++)
		if (p->ep[i] == sq)
			return 1;
	return 0;
}

/* A hop: the squares up to the first piece (the screen) are crossed, the
 * screen is jumped, and the squares after it are destinations up to the
 * next piece, which it may capture.  The piece's hop-immune types are
 * neither screens nor victims. */
static void gen_hop(struct gen *g, int from, int t, int modes, const int16_t *s, int len)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	uint64_t immune = v->types[t].hop_immune;
	int j = 0;
	while (j < len && !p->board[s[j] & VC_PS_SQMASK])
		j++;
	if (j == len || (immune >> vc_code_type(p->board[s[j] & VC_PS_SQMASK]) & 1))
		return;
	for (j++; j < len; j++) {
		int e = s[j], sq = e & VC_PS_SQMASK;
		uint8_t occ = p->board[sq];
		if (!occ) {
			if (!(e & VC_PS_TRANSIT) && (modes & VC_MODE_MOVE))
				add(g, from, sq, t, 0);
			continue;
		}
		int ot = vc_code_type(occ);
		if (!(e & VC_PS_TRANSIT) && (modes & VC_MODE_CAPTURE) && vc_code_color(occ) != p->side &&
		    !(immune >> ot & 1) && !(v->types[ot].props & VC_P_UNCAPTURABLE))
			add(g, from, sq, t, VC_MF_CAPTURE);
		break;
	}
}

/* May a path with the modes first-move or not-in-check be taken now: the
 * piece on from holds its first-move right, its side is not in check
 * (*checked caches that answer, -1 while not known)? */
static int path_open(const struct vc_position *p, int from, int modes, int *checked)
{
	if ((modes & VC_MODE_FIRST) && !(p->sqf[from] & VC_SQF_FIRST))
		return 0;
	if (!(modes & VC_MODE_UNCHECKED))
		return 1;
	if (*checked < 0)
		*checked = vc_in_check(p, p->side);
	return !*checked;
}

/* Gating: each move of out[lo..hi) once more for each kind of piece in the
 * side's hand (the first reserve area) but pawns, that piece entering on sq
 * once the move is made, when sq has its gating right (flag
 * VC_MF_GATE_PARTNER: castling's gate on the partner's square). */
static void add_gates(struct gen *g, int lo, int hi, int sq, int flag)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	int side = p->side, row = side == VC_WHITE ? 0 : v->ranks - 1;
	if (sq < 0 || sq / v->files != row || !(p->gates[side] >> (sq % v->files) & 1))
		return;
	for (int t = 0; t < v->ntypes; t++) {
		if (!p->res[side][0][t] || (v->types[t].props & VC_P_PAWN))
			continue;
		for (int i = lo; i < hi && g->n < VC_MAX_MOVES; i++) {
			vc_move *m = &g->out[g->n++];
			*m = g->out[i];
			m->flags = (uint16_t)(m->flags | VC_MF_GATE | flag);
			m->gate = (uint8_t)t;
		}
	}
}

/* The capturing paths of a piece of type c of side standing on at, the
 * square empty taken as empty: with to >= 0, does one reach the empty
 * square to?  With to < 0, does one end on a piece of the other side (would
 * the piece attack it)? */
static int step_walk(const struct vc_position *p, int c, int side, int at, int empty, int to)
{
	const struct vc_variant *v = p->v;
	int32_t off = v->pathoff[side][c][at];
	if (!off)
		return 0;
	const int16_t *q = v->paths + off;
	int np = *q++;
	for (int i = 0; i < np; i++) {
		int len = q[0], modes = q[1];
		const int16_t *s = q + 2;
		q += 2 + len;
		if (!(modes & VC_MODE_CAPTURE) || (modes & (VC_MODE_HOP | VC_MODE_FIRST)))
			continue;
		for (int j = 0; j < len; j++) {
			int sq = s[j] & VC_PS_SQMASK, dest = !(s[j] & (VC_PS_TRANSIT | VC_PS_SELF));
			uint8_t occ = sq == empty ? VC_EMPTY : p->board[sq];
			if (s[j] & VC_PS_SELF)
				continue;
			if (!occ) {
				if (sq == to && dest)
					return 1;
				continue;
			}
			if (to < 0 && dest && vc_code_color(occ) == (side ^ 1))
				return 1;
			break;
		}
	}
	return 0;
}

static inline int attacks_enemy(const struct vc_position *p, int c, int side, int at, int empty)
{
	return step_walk(p, c, side, at, empty, -1);
}

static inline int step_reaches(const struct vc_position *p, int c, int side, int from, int to)
{
	return !p->board[to] && step_walk(p, c, side, from, -1, to);
}

int vc_step_promo_why(const struct vc_position *p, int from, int to, int c)
{
	const struct vc_variant *v = p->v;
	int side = p->side, t = vc_code_type(p->board[from]), own = 0;
	const struct vc_ptype *pt = &v->types[t];
	if (!pt->promo_step || !(pt->promo_choices >> c & 1))
		return VC_STEP_NO_CHOICE;
	if (v->types[c].promo_limit && !below_limit(p, side, c))
		return VC_STEP_LIMIT;
	uint8_t code = vc_code(t, side);
	for (int i = 0; i < p->npl[side] && own < 2; i++)
		own += p->board[p->plist[side][i]] == code;
	if (own > 1 && !vc_bit_test(v->promo_zone[side][t], from))
		return VC_STEP_ZONE;
	if (to != from && !step_reaches(p, c, side, from, to))
		return VC_STEP_NO_STEP;
	if (attacks_enemy(p, c, side, to, from))
		return VC_STEP_ATTACKS;
	return 0;
}

/* Promotion as a move (promotion: as-move): the piece of type t on from,
 * standing on its zone or the last of its type its side has, becomes a
 * choice where it stands or by one of the choice's capturing paths to an
 * empty square; the new piece may attack no piece of the other side
 * there. */
static void gen_step_promos(struct gen *g, int from, int t)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	for (uint64_t ch = v->types[t].promo_choices; ch; ch &= ch - 1) {
		int c = __builtin_ctzll(ch);
		int why = vc_step_promo_why(p, from, from, c);
		if (why && why != VC_STEP_ATTACKS)
			continue; /* the same for every destination */
		if (!why)
			push(g, from, from, t, VC_MF_PROMO, c + 1);
		for (int sq = 0; sq < v->nsq; sq++)
			if (sq != from && !p->board[sq] && step_reaches(p, c, p->side, from, sq) &&
			    !attacks_enemy(p, c, p->side, sq, from))
				push(g, from, sq, t, VC_MF_PROMO, c + 1);
	}
}

static void gen_piece(struct gen *g, int from)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	int side = p->side;
	uint8_t code = p->board[from];
	int t = vc_code_type(code);
	if (p->sqf[from] & VC_SQF_DEAD)
		return;
	int32_t off = v->pathoff[side][t][from];
	if (!off) {
		/* two-square pieces have no paths; they move from their anchor
		 * only, the other square being in the lists too */
		if ((v->two_types >> t & 1) && vc_link_is_anchor(p->sqf[from]))
			g->n += vc_gen_two(p, from, side, -1, g->out + g->n);
		if (v->types[t].promo_step) /* a pawn on its last rank */
			gen_step_promos(g, from, t);
		return;
	}
	const int16_t *q = v->paths + off;
	int np = *q++;
	static __thread uint32_t seen[VC_MAXSQ];
	static __thread uint32_t stamp;
	int dedupe = v->dedupe[t];
	int start_n = g->n;
	if (dedupe && ++stamp == 0) {
		memset(seen, 0, sizeof seen);
		stamp = 1;
	}
	int checked = -1; /* is the side in check?  asked once, when a path needs it */
	for (int i = 0; i < np; i++) {
		int len = q[0], modes = q[1];
		const int16_t *s = q + 2;
		q += 2 + len;
		if ((modes & (VC_MODE_FIRST | VC_MODE_UNCHECKED)) && !path_open(p, from, modes, &checked))
			continue;
		if (modes & VC_MODE_HOP) {
			gen_hop(g, from, t, modes, s, len);
			continue;
		}
		for (int j = 0; j < len; j++) {
			int e = s[j];
			int sq = e & VC_PS_SQMASK;
			uint8_t occ = p->board[sq];
			if (e & VC_PS_SELF)
				continue;
			if (!occ) {
				if (e & VC_PS_TRANSIT)
					continue;
				if (modes & VC_MODE_MOVE) {
					if (dedupe) {
						if (seen[sq] == stamp)
							continue;
						seen[sq] = stamp;
					}
					add(g, from, sq, t, (modes & VC_MODE_EPMAKE) && j > 0 ? VC_MF_DOUBLE : 0);
				} else if ((modes & VC_MODE_EPTAKE) && p->nep && is_ep_target(p, sq) &&
					   p->epvictim >= 0 && p->board[p->epvictim] &&
					   vc_code_color(p->board[p->epvictim]) == (side ^ 1)) {
					add(g, from, sq, t, VC_MF_CAPTURE | VC_MF_EP);
				}
				continue;
			}
			if (!(e & VC_PS_TRANSIT)) {
				int oc = vc_code_color(occ);
				int ot = vc_code_type(occ);
				if (!(v->types[ot].props & VC_P_UNCAPTURABLE)) {
					if (oc != side && (modes & VC_MODE_CAPTURE)) {
						if (!dedupe || seen[sq] != stamp) {
							if (dedupe)
								seen[sq] = stamp;
							add(g, from, sq, t, VC_MF_CAPTURE);
						}
					} else if (oc == side && (modes & VC_MODE_SELF) &&
						   !(v->types[ot].props & VC_P_ROYAL)) {
						if (!dedupe || seen[sq] != stamp) {
							if (dedupe)
								seen[sq] = stamp;
							add(g, from, sq, t, VC_MF_CAPTURE | VC_MF_SELF);
						}
					}
				}
			}
			break;
		}
	}
	if (v->rules & VC_R_GATING)
		add_gates(g, start_n, g->n, from, 0);
	if (v->types[t].promo_step)
		gen_step_promos(g, from, t);
}

static void gen_castling(struct gen *g);

int vc_gen_castling(const struct vc_position *p, vc_move *out)
{
	struct gen g = { p, out, 0 };
	gen_castling(&g);
	return g.n;
}

static void gen_castling(struct gen *g)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	int side = p->side;
	if (!v->ncastle)
		return;
	int ksq = vc_castler(p, side);
	if (ksq < 0)
		return;
	/* attacks matter only to a royal piece: one that is not (giveaway)
	 * castles out of, through and into them */
	int through = (v->rules & VC_R_CASTLE_THROUGH_CHECK) || ksq != p->king[side];
	int checked = -1;
	for (int i = 0; i < v->ncastle; i++) {
		int psq = p->castle[side][i];
		if (psq < 0)
			continue;
		uint8_t pc = p->board[psq];
		if (!pc || vc_code_color(pc) != side || (p->sqf[psq] & VC_SQF_DEAD))
			continue; /* a dead piece never moves, castling included */
		if (v->castle_partners && !((v->castle_partners >> vc_code_type(pc)) & 1))
			continue;
		int kto, pto;
		int kr = ksq / v->files;
		if (v->castle_style == VC_CASTLE_FIXED) {
			const struct vc_castle_spec *c = &v->castle[i];
			kto = c->king_to;
			pto = c->partner_to;
			if (side == VC_BLACK) {
				kto = vc_sq_mirror(v, kto);
				pto = vc_sq_mirror(v, pto);
			}
		} else {
			if (psq / v->files != kr)
				continue;
			int d = psq > ksq ? 1 : -1;
			int dist = (psq - ksq) * d;
			if (dist < 3)
				continue;
			kto = ksq + 2 * d;
			pto = ksq + d;
		}
		int lo = ksq, hi = ksq;
		int sqs[4] = { psq, kto, pto, ksq };
		for (int k = 0; k < 4; k++) {
			if (sqs[k] < lo)
				lo = sqs[k];
			if (sqs[k] > hi)
				hi = sqs[k];
		}
		if (lo / v->files != hi / v->files)
			continue;
		int ok = 1;
		for (int sq = lo; sq <= hi && ok; sq++)
			if (sq != ksq && sq != psq && p->board[sq])
				ok = 0;
		if (!ok)
			continue;
		if (!through) {
			if (checked < 0)
				checked = vc_attacked(p, ksq, side ^ 1);
			if (checked)
				continue;
			/* the squares the king crosses, with the king lifted off its
			 * own: a line through its square reaches them once it has
			 * left (which matters where a king next to the enemy king
			 * is in no check, as in atomic).  Its destination is judged
			 * on the board after castling, as every move's is. */
			int d = kto > ksq ? 1 : -1;
			struct vc_position *w = (struct vc_position *)p; /* put back below */
			uint8_t kc = w->board[ksq];
			lift_or_put(w, ksq, VC_EMPTY);
			for (int sq = ksq + d; kto != ksq && sq != kto && ok; sq += d)
				if (vc_attacked(p, sq, side ^ 1))
					ok = 0;
			lift_or_put(w, ksq, kc);
			if (!ok)
				continue;
		}
		vc_move *m = &g->out[g->n++];
		m->from = (int16_t)ksq;
		m->to = (int16_t)kto;
		m->from2 = -1;
		m->to2 = (int16_t)pto;
		m->aux = (int16_t)psq;
		m->piece = (uint8_t)vc_code_type(p->board[ksq]);
		m->promo = 0;
		m->flags = VC_MF_CASTLE;
		m->extra = (uint8_t)i;
		m->gate = 0;
		if (v->rules & VC_R_GATING) {
			int at = g->n - 1;
			add_gates(g, at, at + 1, ksq, 0);
			add_gates(g, at, at + 1, psq, VC_MF_GATE_PARTNER);
		}
	}
}

/* drop-one-per-file: the files (bit per file) holding a piece of side's
 * of type t */
static uint32_t files_held(const struct vc_position *p, int side, int t)
{
	uint32_t f = 0;
	uint8_t code = vc_code(t, side);
	for (int i = 0; i < p->npl[side]; i++)
		if (p->board[p->plist[side][i]] == code)
			f |= 1u << (p->plist[side][i] % p->v->files);
	return f;
}

int vc_drop_file_taken(const struct vc_position *p, int t, int sq)
{
	return p->v->types[t].drop_file_once &&
	       (files_held(p, p->side, t) >> (sq % p->v->files) & 1);
}

/* The colour of a square: 0 dark (a1's), 1 light. */
static inline int sq_colour(const struct vc_variant *v, int sq)
{
	return (sq % v->files + sq / v->files) & 1;
}

/* What the drop-opposite-colours rule reads of a position, once for all
 * its drops: for each type under the rule, the colours its pieces on the
 * board stand on, and the empty squares of each colour where it may be
 * dropped. */
struct drop_colours {
	unsigned taken[VC_MAXT];
	int free[VC_MAXT][2];
};

static void drop_colours_of(const struct vc_position *p, struct drop_colours *dc)
{
	const struct vc_variant *v = p->v;
	int side = p->side;
	for (int c = 0; c < v->ntypes; c++) {
		dc->taken[c] = 0;
		dc->free[c][0] = dc->free[c][1] = 0;
		if (!v->types[c].drop_colours)
			continue;
		uint8_t code = vc_code(c, side);
		for (int i = 0; i < p->npl[side]; i++)
			if (p->board[p->plist[side][i]] == code)
				dc->taken[c] |= 1u << sq_colour(v, p->plist[side][i]);
		for (int s = 0; s < v->nsq; s++)
			if (!p->board[s] && vc_drop_rank_ok(v, c, vc_rel_rank(v, side, s)) &&
			    vc_drop_region_ok(v, c, side, s))
				dc->free[c][sq_colour(v, s)]++;
	}
}

/* vc_drop_colour_bad over what drop_colours_of read */
static int drop_colour_bad(const struct vc_position *p, const struct drop_colours *dc, int t,
			   int sq, int *need)
{
	const struct vc_variant *v = p->v;
	int side = p->side, col = sq_colour(v, sq);
	for (int c = 0; c < v->ntypes; c++) {
		if (!v->types[c].drop_colours || (c != t && !p->res[side][0][c]))
			continue;
		if (c == t) {
			if (dc->taken[c] >> col & 1)
				return 1;
			continue;
		}
		/* another piece dropped on sq: the colours still free for the
		 * pieces of c in hand, each where c may be dropped */
		int on_sq = !p->board[sq] && vc_drop_rank_ok(v, c, vc_rel_rank(v, side, sq)) &&
			    vc_drop_region_ok(v, c, side, sq);
		unsigned left = 0;
		for (int k = 0; k < 2; k++)
			if (dc->free[c][k] - (on_sq && k == col) > 0)
				left |= 1u << k;
		left &= ~dc->taken[c];
		if ((int)(left & 1) + (int)(left >> 1 & 1) < p->res[side][0][c]) {
			if (need)
				*need = c;
			return 2;
		}
	}
	return 0;
}

int vc_drop_colour_bad(const struct vc_position *p, int t, int sq, int *need)
{
	struct drop_colours dc;
	drop_colours_of(p, &dc);
	return drop_colour_bad(p, &dc, t, sq, need);
}

static void gen_drops(struct gen *g)
{
	const struct vc_position *p = g->p;
	const struct vc_variant *v = p->v;
	int side = p->side;
	int colours = 0;
	struct drop_colours dc;
	for (int t = 0; t < v->ntypes; t++)
		colours |= v->types[t].drop_colours;
	if (colours)
		drop_colours_of(p, &dc);
	/* drops come from the first reserve area: the hand, or the airfield */
	for (int t = 0; t < v->ntypes; t++) {
		if (!p->res[side][0][t])
			continue;
		uint32_t held = v->types[t].drop_file_once ? files_held(p, side, t) : 0;
		int up = vc_drop_face_up(v, t);
		for (int sq = 0; sq < v->nsq; sq++) {
			if (p->board[sq])
				continue;
			if (!vc_drop_rank_ok(v, t, vc_rel_rank(v, side, sq)) ||
			    (held >> (sq % v->files) & 1) || !vc_drop_region_ok(v, t, side, sq) ||
			    (colours && drop_colour_bad(p, &dc, t, sq, NULL)))
				continue;
			vc_move *m = &g->out[g->n++];
			m->from = -1;
			m->to = (int16_t)sq;
			m->from2 = m->to2 = -1;
			m->aux = -1;
			m->piece = (uint8_t)t;
			m->promo = 0;
			m->flags = VC_MF_DROP;
			m->extra = 0;
			m->gate = 0;
			if (up >= 0) { /* and the same drop '+' face up */
				g->out[g->n] = *m;
				g->out[g->n].promo = (uint8_t)(up + 1);
				g->out[g->n++].flags = VC_MF_DROP | VC_MF_PROMO;
			}
		}
	}
}

int vc_gen_from(const struct vc_position *p, int from, vc_move *out)
{
	struct gen g = { p, out, 0 };
	if (p->board[from] && vc_code_color(p->board[from]) == p->side)
		gen_piece(&g, from);
	return g.n;
}

/* A pass (rule pass): the royal piece "moves" to its own square, as
 * Fairy-Stockfish writes it, and nothing changes but the side to move. */
static void gen_pass(struct gen *g)
{
	const struct vc_position *p = g->p;
	int k = p->king[p->side];
	if ((p->v->rules & VC_R_PASS) && k >= 0)
		push(g, k, k, vc_code_type(p->board[k]), VC_MF_NULL, 0);
}

int vc_pass_move(struct vc_position *p, vc_move *out)
{
	struct gen g = { p, out, 0 };
	gen_pass(&g);
	return g.n == 1 && vc_move_legal(p, out);
}

int vc_kings_face(const struct vc_position *p)
{
	return faces(p, p->king[VC_WHITE], p->king[VC_BLACK]);
}

static int faces(const struct vc_position *p, int a, int b)
{
	const struct vc_variant *v = p->v;
	if (a < 0 || b < 0 || v->sqfile[a] != v->sqfile[b])
		return 0;
	int lo = a < b ? a : b, hi = a < b ? b : a;
	for (int sq = lo + v->files; sq < hi; sq += v->files)
		if (p->board[sq])
			return 0;
	return 1;
}

int vc_gen_pseudo(const struct vc_position *p, vc_move *out)
{
	struct gen g = { p, out, 0 };
	int side = p->side;
	for (int i = 0; i < p->npl[side]; i++)
		gen_piece(&g, p->plist[side][i]);
	gen_castling(&g);
	if (p->v->rules & VC_R_DROPS)
		gen_drops(&g);
	gen_pass(&g);
	return g.n;
}

/* ---- legality ---- */

struct pins {
	int check; /* in check, or every move is to be tested (complex mechanics, an
		    * enemy two-square piece whose lines meet the king) */
	int twocap; /* captures of two-square pieces are tested */
	int lines;  /* test_lines: moves from a square of set or to one of to are tested */
	int any;
	uint64_t set[VC_SQWORDS];
	uint64_t to[VC_SQWORDS];
};

/* The squares of the first j of path q (from its origin towards k) whose
 * change could let the piece at the origin reach k: with one piece between
 * (two for a hop) only that one, or those two, leaving; with none between
 * (a hop's screen missing, or a path that does not attack for another
 * reason), every square, either way; with more, none. */
static void path_lines(const struct vc_position *p, const int16_t *q, int j, uint64_t *from,
		       uint64_t *to)
{
	int hop = (q[1] & VC_MODE_HOP) != 0, n = 0, occ[2] = { -1, -1 };
	for (int b = 0; b < j; b++) {
		int sq = q[2 + b] & VC_PS_SQMASK;
		if (!(q[2 + b] & VC_PS_SELF) && p->board[sq] && n++ < 2)
			occ[n - 1] = sq;
	}
	if (n > 1 + hop)
		return;
	if (n == 1 + hop) {
		vc_bit_set(from, occ[0]);
		if (hop)
			vc_bit_set(from, occ[1]);
		return;
	}
	for (int b = 0; b < j; b++) {
		vc_bit_set(from, q[2 + b] & VC_PS_SQMASK);
		vc_bit_set(to, q[2 + b] & VC_PS_SQMASK);
	}
}

/* test_lines: for each enemy piece lined up with k (a capture path of its
 * holds k, whatever stands between), the squares path_lines names, and
 * the one piece between the royal pieces on a file where they may not face
 * each other.  Only a move from a square of 'from' or to one of 'to' (or
 * the king's) can uncover an attack: the others change no path to k. */
static void line_set(const struct vc_position *p, int k, uint64_t *from, uint64_t *to)
{
	const struct vc_variant *v = p->v;
	int them = p->side ^ 1;
	size_t words = (size_t)(v->nsq + 63) / 64;
	memset(from, 0, sizeof(uint64_t) * words);
	memset(to, 0, sizeof(uint64_t) * words);
	for (int i = 0; i < p->npl[them]; i++) {
		int o = p->plist[them][i];
		uint8_t c = p->board[o];
		int t = vc_code_type(c);
		if (!c || vc_code_color(c) != them || !vc_bit_test(v->walk_reach[them][t] + (size_t)o * words, k))
			continue;
		const int16_t *q = v->paths + v->pathoff[them][t][o];
		int np = *q++;
		for (int n = 0; n < np; n++, q += 2 + q[0]) {
			int j = 0;
			while (j < q[0] && (q[2 + j] & VC_PS_SQMASK) != k)
				j++;
			if (j < q[0] && (q[1] & VC_MODE_CAPTURE))
				path_lines(p, q, j, from, to);
		}
	}
	int ok = p->king[them], lo = ok < k ? ok : k, hi = ok < k ? k : ok, n = 0, last = -1;
	if (!(v->rules & (VC_R_NO_FACING | VC_R_BIKJANG)) || ok < 0 || v->sqfile[ok] != v->sqfile[k])
		return;
	for (int sq = lo + v->files; sq < hi; sq += v->files)
		if (p->board[sq]) {
			n++;
			last = sq;
		}
	if (n == 1)
		vc_bit_set(from, last);
}

static void find_pins(const struct vc_position *p, struct pins *pi)
{
	const struct vc_variant *v = p->v;
	int side = p->side, them = side ^ 1, k = p->king[side];
	pi->check = v->test_all || vc_swap_ply(p);
	pi->twocap = 0;
	pi->lines = 0;
	pi->any = 0;
	if (k < 0)
		return;
	if (v->test_lines) {
		/* royal pieces facing now (bikjang, or a position set up so)
		 * may not stay so, whatever moves */
		pi->check = vc_attacked(p, k, them) ||
			    ((v->rules & (VC_R_BIKJANG | VC_R_NO_FACING)) && vc_kings_face(p));
		pi->lines = 1;
		if (!pi->check)
			line_set(p, k, pi->set, pi->to);
		return;
	}
	/* the attacks of two-square pieces are not in the tries; one whose
	 * lines do not meet the king cannot attack it whatever else moves */
	if (v->two_types) {
		pi->twocap = 1;
		for (int j = 0; j < p->ntwo[them] && !pi->check; j++) {
			int a = p->two[them][j];
			pi->check = vc_two_near(v, a, vc_partner(p, a), k,
					     (int)(v->two_odd >> vc_code_type(p->board[a]) & 1));
		}
	}
	memset(pi->set, 0, sizeof(uint64_t) * (size_t)((v->nsq + 63) / 64));
	if (v->bbm && !vc_bb_holds(p, them, v->bboutcap)) { /* over the mirror */
		pi->check = pi->check || vc_bb_attacked(p, k, them);
		pi->set[0] = vc_bb_pinned(p, k, side);
		pi->any = pi->set[0] != 0;
		return;
	}
	const struct vc_tnode *t = v->trie;
	int32_t i = v->trieoff[0][them][k], end = v->trieend[0][them][k];
	while (i < end) {
		uint8_t occ = p->board[t[i].sq];
		if (!occ) {
			i++;
			continue;
		}
		int c = vc_code_color(occ);
		if (c == them && (t[i].mask >> vc_code_type(occ) & 1) && !(p->sqf[t[i].sq] & VC_SQF_DEAD))
			pi->check = 1;
		else if (c == side && t[i].skip > 1 && vc_trie_walk(p, t, i + 1, i + t[i].skip, them)) {
			vc_bit_set(pi->set, t[i].sq);
			pi->any = 1;
		}
		i += t[i].skip;
	}
}

static inline int board_testable(const struct vc_position *p, const vc_move *m);

/* With test_lines and not in check: a move that changes only its from- and
 * to-squares, neither of them one that line_set names, keeps the king
 * safe. */
static inline int lines_test(const struct vc_position *p, const struct pins *pi, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	if (m->flags & VC_MF_NULL)
		return 0; /* a pass changes no square */
	if (m->from == p->king[p->side] || !board_testable(p, m) || (m->flags & VC_MF_GATE) ||
	    ((m->flags & VC_MF_DROP) &&
	     ((v->drop_rule_types >> m->piece & 1) || (v->rules & VC_R_DROP_NO_CHECK))))
		return 1;
	return vc_bit_test(pi->to, m->to) || (m->from >= 0 && vc_bit_test(pi->set, m->from));
}

static inline int needs_test(const struct vc_position *p, const struct pins *pi, const vc_move *m)
{
	if (pi->check)
		return 1;
	if (m->flags & (VC_MF_EP | VC_MF_CASTLE | VC_MF_WALL | VC_MF_XPROMO))
		return 1;
	if (pi->lines)
		return lines_test(p, pi, m);
	/* taking a two-square piece empties its other square too */
	if (pi->twocap && (m->flags & VC_MF_CAPTURE) && m->to >= 0 &&
	    (p->sqf[m->to] & VC_SQF_LINKMASK))
		return 1;
	if (m->flags & VC_MF_DROP)
		return (int)(p->v->drop_rule_types >> m->piece & 1);
	if (m->from == p->king[p->side] || (m->promo && p->v->types[m->piece].promo_step))
		return 1;
	return pi->any && vc_bit_test(pi->set, m->from);
}

/* Did the last move take a two-square piece (its other square emptied)? */
static int took_two(const struct vc_position *p)
{
	if (p->nundo > 0) {
		const struct vc_undo *u = &p->undo[p->nundo - 1];
		if (u->nx || (u->capflags & VC_SQF_LINKMASK))
			return 1;
	}
	return 0;
}

/* Could a two-square piece of side 'by' attack k, now or once other pieces
 * moved? */
static int two_near(const struct vc_position *p, int by, int k)
{
	const struct vc_variant *v = p->v;
	for (int j = 0; j < p->ntwo[by]; j++) {
		int a = p->two[by][j];
		if (vc_two_near(v, a, vc_partner(p, a), k, (int)(v->two_odd >> vc_code_type(p->board[a]) & 1)))
			return 1;
	}
	return 0;
}

/* The trie nodes behind the squares a two-square piece's move m leaves, on
 * lines to side's royal piece on k (v->pins: -1 none, -2 more than one);
 * an old square it keeps stays shut (-1). */
static void wall_lines(const struct vc_variant *v, int side, int k, const vc_move *m,
		       int32_t lines[2])
{
	const int32_t *pk = v->pins[side] + (size_t)k * (size_t)v->nsq;
	int left[2] = { m->from, m->from2 };
	for (int j = 0; j < 2; j++)
		lines[j] = left[j] == m->to || left[j] == m->to2 ? -1 : pk[left[j]];
}

/* After the move m of a two-square piece that took none: is the side to
 * move in check?  By a two-square piece (the one moved among them) near
 * the king, or along a line behind a square it left. */
static int wall_check_after(const struct vc_position *p, const vc_move *m)
{
	int side = p->side, them = side ^ 1, k = p->king[side];
	int32_t lines[2];
	wall_lines(p->v, side, k, m, lines);
	if (lines[0] == -2 || lines[1] == -2)
		return vc_attacked(p, k, them);
	return (two_near(p, them, k) && vc_two_attacked(p, k, them)) ||
	       vc_line_attacks(p, lines[0], them) || vc_line_attacks(p, lines[1], them);
}

/* After m was made: is the side to move in check?  Only the moved piece
 * can give a direct check, and a discovered one needs the from-square on a
 * line towards the king; everything else gets the full test. */
int vc_check_after(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	int side = p->side, them = side ^ 1, k = p->king[side];
	if (k < 0)
		return 0;
	/* a move after which the mover is the only piece that moved */
	int plain = !v->test_all && !vc_swapped_last(p) &&
		    !(m->flags & (VC_MF_EP | VC_MF_CASTLE | VC_MF_NULL | VC_MF_WALL | VC_MF_GATE |
				  VC_MF_XPROMO)) &&
		    m->to >= 0 && p->board[m->to];
	if (v->bbm && !vc_bb_holds(p, them, v->bboutcap)) /* over the mirror */
		return plain && vc_code_color(p->board[m->to]) == them
			       ? vc_bb_check_after(p, m->from == m->to ? -1 : m->from, m->to, k, them)
			       : vc_attacked(p, k, them);
	if ((m->flags & VC_MF_WALL) && !v->test_all && !vc_swapped_last(p) && v->pins[side] &&
	    !(m->flags & (VC_MF_TWOCAP | VC_MF_GATE)) && !took_two(p))
		return wall_check_after(p, m);
	if (!plain || (v->two_types && took_two(p)))
		return vc_attacked(p, k, them);
	/* the tries' part below, the two-square pieces' here */
	if (v->two_types && two_near(p, them, k) && vc_two_attacked(p, k, them))
		return 1;
	if (m->from == m->to) {
		/* a promotion in place: no square left, nothing uncovered */
	} else if (m->from >= 0 && v->pins[side]) {
		/* a discovered check comes from behind the square left */
		int32_t i = v->pins[side][(size_t)k * (size_t)v->nsq + (size_t)m->from];
		if (i == -2)
			return vc_attacked(p, k, them);
		if (vc_line_attacks(p, i, them))
			return 1;
	} else if (m->from >= 0) {
		size_t words = (size_t)(v->nsq + 63) / 64;
		if (vc_bit_test(v->lines[side] + (size_t)k * words, m->from))
			return vc_attacked(p, k, them);
	}
	uint8_t mover = p->board[m->to];
	int type = vc_code_type(mover);
	if (v->shapes && v->shapes->run[0][them][type]) /* the mover alone, by its step */
		return vc_shape_reaches(p, v->shapes->run[0][them][type], m->to, k);
	const struct vc_tnode1 *t = v->ttrie;
	size_t idx = (size_t)type * (size_t)v->nsq + (size_t)k;
	int32_t i = v->ttoff[0][them][idx], end = v->ttend[0][them][idx];
	while (i < end) {
		int sq = t[i].sq & VC_PS_SQMASK;
		uint8_t occ = p->board[sq];
		if (!occ) {
			i++;
			continue;
		}
		if (occ == mover && (t[i].sq & VC_TN1_REACH))
			return 1;
		i += t[i].skip;
	}
	return 0;
}

int vc_move_may_expose(const struct vc_position *p, const vc_move *m, int in_check)
{
	const struct vc_variant *v = p->v;
	int k = p->king[p->side];
	if (k < 0)
		return 0;
	if (in_check || v->test_all || vc_swap_ply(p) ||
	    (m->flags & (VC_MF_EP | VC_MF_CASTLE | VC_MF_WALL | VC_MF_XPROMO)) || m->from == k)
		return 1;
	if (v->two_types && (((m->flags & VC_MF_CAPTURE) && m->to >= 0 &&
			      (p->sqf[m->to] & VC_SQF_LINKMASK)) ||
			     took_two(p) || two_near(p, p->side ^ 1, k)))
		return 1;
	if (m->flags & VC_MF_DROP)
		return (int)(v->drop_rule_types >> m->piece & 1) || (v->rules & VC_R_DROP_NO_CHECK);
	if (m->flags & VC_MF_NULL)
		return 0;
	if (m->promo && v->types[m->piece].promo_step)
		return 1;
	size_t words = (size_t)(v->nsq + 63) / 64;
	return vc_bit_test(v->lines[p->side] + (size_t)k * words, m->from);
}

/* Can a move's legality be judged on the board alone?  When nothing but
 * the mover and its victim changes (no swap, no exchange, no second piece
 * moving, no piece dying or changing side), the squares after the move are
 * the squares before it with 'from' emptied and 'to' holding one of the
 * mover's pieces: the type standing on 'to' does not matter, since the
 * mover's own pieces only block.  Two-square pieces may stand on the board
 * (the full test walks their moves on it as set) while neither the mover
 * nor its victim is one and no promotion changes what stands on 'to'. */
static inline int squares_only(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	return !(v->rules & VC_R_KIRBY_DEATH) &&
	       !(m->flags & (VC_MF_EP | VC_MF_CASTLE | VC_MF_WALL | VC_MF_NULL | VC_MF_XPROMO |
			     VC_MF_MORPH | VC_MF_TWOCAP)) &&
	       m->to >= 0 &&
	       !(v->two_types && (m->promo || (p->sqf[m->to] & VC_SQF_LINKMASK)));
}

/* The same where no mechanic of the variant's tests every move. */
static inline int plain_move(const struct vc_position *p, const vc_move *m)
{
	return !p->v->complex_always && squares_only(p, m);
}

static inline int board_testable(const struct vc_position *p, const vc_move *m)
{
	return !vc_swap_ply(p) && plain_move(p, m);
}

/* The same for a move that swaps the halves, over the mirror: the squares
 * after it are those turned half the board along.  Not where the mirror
 * cannot say what the enemy attacks, nor where royal pieces may not face. */
static inline int swap_testable(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	return v->bbm && vc_swap_ply(p) && plain_move(p, m) &&
	       !(v->rules & (VC_R_NO_FACING | VC_R_BIKJANG)) &&
	       !vc_bb_holds(p, p->side ^ 1, v->bboutcap);
}

/* An explosion variant's move that takes nothing (atomic) and changes only
 * its two squares (squares_only, no swap), with both royal pieces on the
 * board and the mirror able to say what the enemy attacks, under no other
 * rule about checks or facing royal pieces. */
static inline int quiet_atomic(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	int side = p->side;
	return (v->rules & VC_R_EXPLOSION) && v->bbm &&
	       !(v->rules & (VC_R_NO_CHECK | VC_R_NO_FACING | VC_R_BIKJANG)) && !vc_swap_ply(p) &&
	       squares_only(p, m) && !(m->flags & VC_MF_CAPTURE) && !p->board[m->to] &&
	       p->king[side] >= 0 && p->king[side ^ 1] >= 0 && !vc_bb_holds(p, side ^ 1, v->bboutcap);
}

/* Is the side to move's royal piece attacked once m is played?  With
 * node < 0 and no twos every attack is looked for; otherwise only one
 * coming from behind trie node 'node' through a clear line (what leaving
 * its square uncovers), and with twos those of two-square pieces too
 * (node -1: those alone).  facing: under bikjang, whether the royal
 * pieces face each other now, when the caller knows (else -1).  The board is changed and
 * put back; the position is otherwise untouched. */
static int board_leaves_check(struct vc_position *p, const vc_move *m, int32_t node, int twos,
			      int facing)
{
	const struct vc_variant *v = p->v;
	int side = p->side, k = p->king[side];
	uint8_t *b = p->board;
	int face = v->rules & (VC_R_NO_FACING | VC_R_BIKJANG);
	if (v->bbm && !face && !(v->rules & VC_R_EXPLOSION) &&
	    !vc_bb_holds(p, side ^ 1, v->bboutcap)) { /* over the mirror */
		if (node >= 0 && !twos && m->from >= 0 && m->from != k)
			return vc_bb_exposed(p, k, m->from, m->to, side ^ 1);
		return vc_bb_attacked_after(p, m->from, m->to, m->from == k ? m->to : k, side ^ 1);
	}
	uint8_t mover = m->from >= 0 ? b[m->from] : vc_code(m->piece, side);
	uint8_t old_to = b[m->to];
	if (face && !(v->rules & VC_R_NO_FACING)) /* bikjang: facing now, they may not stay so */
		face = facing >= 0 ? facing : vc_kings_face(p);
	if (m->from >= 0)
		lift_or_put(p, m->from, VC_EMPTY);
	lift_or_put(p, m->to, mover);
	if (m->from == k)
		k = m->to;
	int attacked = node < 0 && !twos
			       ? vc_attacked(p, k, side ^ 1)
			       : vc_line_attacks(p, node, side ^ 1) ||
				 (twos && vc_two_attacked(p, k, side ^ 1));
	if (!attacked && face)
		attacked = faces(p, k, p->king[side ^ 1]);
	lift_or_put(p, m->to, old_to);
	if (m->from >= 0)
		lift_or_put(p, m->from, mover);
	return attacked;
}

/* Does the two-square piece's move m take a two-square piece on sq (one not
 * its own old square)? */
static inline int takes_two(const struct vc_position *p, const vc_move *m, int sq)
{
	return p->board[sq] && (p->sqf[sq] & VC_SQF_LINKMASK) && sq != m->from && sq != m->from2;
}

/* A two-square piece's move that takes no two-square piece: the squares
 * after it are those before it with its old squares emptied and its new
 * ones holding it (what stood there taken), so the board alone judges it
 * where nothing else changes (no royal pieces that may not face). */
static inline int wall_testable(const struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	return (m->flags & VC_MF_WALL) && !(m->flags & (VC_MF_TWOCAP | VC_MF_GATE)) &&
	       !v->complex_always && !vc_swap_ply(p) &&
	       !(v->rules & (VC_R_KIRBY_DEATH | VC_R_NO_FACING | VC_R_BIKJANG)) && m->to >= 0 &&
	       m->to2 >= 0 && !takes_two(p, m, m->to) && !takes_two(p, m, m->to2);
}

/* Is the side to move's royal piece attacked once the two-square move m
 * (wall_testable) is set on the board?  With lines, only along the lines
 * behind its two old squares (trie nodes lines[0] and lines[1], -1 none)
 * and, with twos, by two-square pieces: what leaving them uncovers, out of
 * check.  The board is put back. */
static int wall_leaves_check(struct vc_position *p, const vc_move *m, const int32_t *lines,
			     int twos)
{
	int side = p->side, them = side ^ 1, k = p->king[side];
	uint8_t code = p->board[m->from];
	if (m->promo)
		code = vc_code(m->promo - 1, side);
	int sq[4] = { m->from, m->from2, m->to, m->to2 };
	uint8_t now[4] = { VC_EMPTY, VC_EMPTY, code, code }, was[4];
	for (int i = 0; i < 4; i++) {
		was[i] = p->board[sq[i]];
		lift_or_put(p, sq[i], now[i]);
	}
	int attacked = !lines ? k >= 0 && vc_attacked(p, k, them)
			      : vc_line_attacks(p, lines[0], them) || vc_line_attacks(p, lines[1], them) ||
					(twos && vc_two_attacked(p, k, them));
	for (int i = 3; i >= 0; i--)
		lift_or_put(p, sq[i], was[i]);
	return attacked;
}

/* king-in-check-captures: is m a move of the royal piece, in check, that
 * does not take the one piece giving check? */
static int king_stays(const struct vc_position *p, const vc_move *m)
{
	int k = p->king[p->side];
	int16_t by[2];
	if (!(p->v->rules & VC_R_KING_CHECK_CAPTURES) || k < 0 || m->from != k)
		return 0;
	int n = vc_reach_origins(p, p->side ^ 1, ~0ull, k, 1, by, 2);
	return n > 0 && (n > 1 || by[0] != m->to || !(m->flags & VC_MF_CAPTURE));
}

/* Gating: a move that gates is legal when the same move without its gate
 * is: the piece entering does not shield the king (the rule of S-chess).
 * The move without it, into *plain; m itself for another move. */
static inline const vc_move *ungated(const vc_move *m, vc_move *plain)
{
	if (!(m->flags & VC_MF_GATE))
		return m;
	*plain = *m;
	plain->flags = (uint16_t)(plain->flags & ~(VC_MF_GATE | VC_MF_GATE_PARTNER));
	plain->gate = 0;
	return plain;
}

/* A drop of a type with drop rules: 1 when it leaves its own royal piece
 * attacked, or (drop-no-mate) checkmates, 0 when neither, -1 out of memory.
 * The answers to such a drop are judged without looking whether they are
 * themselves drops that mate: a drop never answers a check given by a piece
 * next to the royal piece (a pawn's), and so the answer is the same there,
 * and the search stays one level deep. */
static __thread int mate_nested;
static int drop_mates(struct vc_position *p, const vc_move *m)
{
	int side = p->side;
	if (vc_pos_make(p, m) != 0)
		return -1;
	int bad = vc_in_check(p, side);
	if (!bad && !mate_nested && p->v->types[m->piece].drop_no_mate && vc_check_after(p, m)) {
		mate_nested = 1;
		bad = !vc_has_legal_move(p);
		mate_nested = 0;
	}
	vc_pos_unmake(p);
	return bad;
}

int vc_move_leaves_check(struct vc_position *p, const vc_move *gm)
{
	const struct vc_variant *v = p->v;
	vc_move plain;
	const vc_move *m = ungated(gm, &plain);
	int side = p->side, had = p->king[side] >= 0;
	if (!had && !(v->rules & VC_R_NO_CHECK))
		return 0;
	/* bikjang: royal pieces that face each other stay so only by a pass,
	 * which ends the game and is legal even in check */
	int facing = (v->rules & VC_R_BIKJANG) && vc_kings_face(p);
	if (facing && (m->flags & VC_MF_NULL))
		return 0;
	if (king_stays(p, m))
		return 1;
	if ((m->flags & VC_MF_DROP) && (v->drop_rule_types >> m->piece & 1))
		return drop_mates(p, m);
	int no_check = ((m->flags & VC_MF_DROP) && (v->rules & VC_R_DROP_NO_CHECK)) ||
		       (m->promo && v->types[m->piece].promo_step);
	if (board_testable(p, m) && !no_check)
		return board_leaves_check(p, m, -1, 0, facing);
	if (swap_testable(p, m) && !no_check) {
		int k = p->king[side];
		return vc_bb_attacked_after_swap(p, m->from, m->to, m->from == k ? m->to : k, side ^ 1);
	}
	if (wall_testable(p, m) && !no_check)
		return wall_leaves_check(p, m, NULL, 0);
	if (quiet_atomic(p, m)) {
		/* nothing explodes: the squares after it are those before it
		 * with 'from' emptied and 'to' filled, and an enemy royal piece
		 * next to ours keeps it from being taken (vc_attacked) */
		int k = m->from == p->king[side] ? m->to : p->king[side];
		return !vc_next_to(v, k, p->king[side ^ 1]) &&
		       vc_bb_attacked_after(p, m->from, m->to, k, side ^ 1);
	}
	if (vc_pos_make(p, m) != 0)
		return -1;
	/* attacked, or gone (an explosion), the royal piece makes the move
	 * illegal; and under no-check, so does a check given; and so do royal
	 * pieces left facing each other under flying-general or bikjang */
	int bad = vc_in_check(p, side) || (had && p->king[side] < 0) ||
		  (((v->rules & VC_R_NO_CHECK) || no_check) && vc_in_check(p, side ^ 1)) ||
		  (((v->rules & VC_R_NO_FACING) || facing) && vc_kings_face(p));
	vc_pos_unmake(p);
	return bad;
}

int vc_move_exposes(struct vc_position *p, const vc_move *gm)
{
	const struct vc_variant *v = p->v;
	vc_move plain;
	const vc_move *m = ungated(gm, &plain);
	int side = p->side, k = p->king[side];
	if (k < 0)
		return 0;
	if (wall_testable(p, m) && v->pins[side] && !v->test_all && !took_two(p)) {
		/* a two-square piece's move: the lines behind both its old squares */
		int32_t lines[2];
		wall_lines(v, side, k, m, lines);
		if (lines[0] != -2 && lines[1] != -2)
			return wall_leaves_check(p, m, lines, v->two_types && two_near(p, side ^ 1, k));
	}
	if (!v->pins[side] || m->from < 0 || m->from == k || !board_testable(p, m) || v->test_all ||
	    (m->promo && v->types[m->piece].promo_step) || (v->two_types && took_two(p)))
		return vc_move_leaves_check(p, m);
	/* two-square pieces near k: their attacks too, on the board after m */
	int twos = v->two_types && two_near(p, side ^ 1, k);
	int32_t i = v->pins[side][(size_t)k * (size_t)v->nsq + (size_t)m->from];
	if (i == -1 && !twos)
		return 0; /* nothing stands behind it */
	if (i == -2)
		return vc_move_leaves_check(p, m);
	return board_leaves_check(p, m, i, twos, -1);
}

int vc_move_legal(struct vc_position *p, const vc_move *m)
{
	return vc_move_leaves_check(p, m) == 0;
}

const char *vc_illegal_why(struct vc_position *p, const vc_move *gm)
{
	const struct vc_variant *v = p->v;
	vc_move plain;
	const vc_move *m = ungated(gm, &plain);
	int side = p->side, k = p->king[side];
	const char *why = "would leave the king in check";
	int facing = (v->rules & VC_R_BIKJANG) && !(m->flags & VC_MF_NULL) && vc_kings_face(p);
	if (king_stays(p, m))
		return "moves the king out of check, which only a capture of the checking piece may "
		       "do in this variant";
	if ((m->flags & VC_MF_DROP) && v->types[m->piece].drop_no_mate && vc_pos_make(p, m) == 0) {
		mate_nested = 1;
		int mate = !vc_in_check(p, side) && vc_check_after(p, m) && !vc_has_legal_move(p);
		mate_nested = 0;
		vc_pos_unmake(p);
		if (mate) {
			static __thread char why_mate[80];
			snprintf(why_mate, sizeof why_mate,
				 "would checkmate by a drop of a %s, which the rules forbid",
				 v->types[m->piece].name);
			return why_mate;
		}
	}
	int step = m->promo && v->types[m->piece].promo_step;
	if ((!(v->rules & (VC_R_NO_CHECK | VC_R_EXPLOSION | VC_R_NO_FACING | VC_R_BIKJANG |
			   VC_R_DROP_NO_CHECK)) &&
	     !step) ||
	    vc_pos_make(p, m) != 0)
		return why;
	if ((m->flags & VC_MF_DROP) && (v->rules & VC_R_DROP_NO_CHECK) && !vc_in_check(p, side) &&
	    vc_in_check(p, side ^ 1))
		why = "would give check, which no drop may do in this variant";
	if (step && !vc_in_check(p, side) && vc_in_check(p, side ^ 1))
		why = "would give check, which no promotion may do in this variant";
	if (!vc_in_check(p, side) && ((v->rules & VC_R_NO_FACING) || facing) && vc_kings_face(p))
		why = facing ? "would keep the royal pieces facing each other, which only a pass may do"
			     : "would leave the royal pieces facing each other on an open file";
	if (k >= 0 && p->king[side] < 0)
		why = m->from == k ? "would blow up the capturing king: a king may not capture"
				   : "would blow up its own side's king";
	else if (!vc_in_check(p, side) && (v->rules & VC_R_NO_CHECK) && vc_in_check(p, side ^ 1))
		why = "would give check, which no move may do in this variant";
	vc_pos_unmake(p);
	return why;
}

/* forced-capture: when some of the n moves capture, only those stay */
static int keep_captures(vc_move *out, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (out[i].flags & VC_MF_CAPTURE)
			out[k++] = out[i];
	return k ? k : n;
}

/* must-drop: when some of the n moves are drops, only those stay */
static int keep_drops(vc_move *out, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (out[i].flags & VC_MF_DROP)
			out[k++] = out[i];
	return k ? k : n;
}

int vc_gen_legal(struct vc_position *p, vc_move *out)
{
	const struct vc_variant *v = p->v;
	if (v->has_end && vc_end_by_rule(p, NULL, NULL))
		return 0; /* the game is over */
	int n = vc_gen_pseudo(p, out), k = n;
	if (p->king[p->side] >= 0 || (v->rules & VC_R_NO_CHECK)) {
		struct pins pi;
		find_pins(p, &pi);
		k = 0;
		for (int i = 0; i < n; i++)
			if (!needs_test(p, &pi, &out[i]) || vc_move_legal(p, &out[i]))
				out[k++] = out[i];
	}
	if (v->rules & VC_R_FORCED_CAPTURE)
		k = keep_captures(out, k);
	if (v->rules & VC_R_MUST_DROP)
		k = keep_drops(out, k);
	return k;
}

/* The first legal move (a capture with FL_CAPTURE, a drop with FL_DROP),
 * piece by piece and the royal piece first (the usual way out of a check),
 * into *out when not NULL: 1, or 0 when there is none.  Forced capture asks
 * for a capture before every move it reads, must-drop for a drop;
 * has_legal_move after every check. */
enum { FL_ANY, FL_CAPTURE, FL_DROP };
static int first_legal_in(struct vc_position *p, int kind, vc_move *out, vc_move *buf);
static int first_legal(struct vc_position *p, int kind, vc_move *out)
{
	/* one buffer a level: a drop's mate test (drop_mates) asks again,
	 * one level deep */
	enum { LEVEL = VC_MAX_MOVES * 2 };
	vc_move *bufs = vc_scratch(VC_SCRATCH_FIRST, 2 * LEVEL * sizeof *bufs);
	static __thread int depth;
	if (!bufs) /* out of memory: a move is assumed, and no capture or drop
		    * forced, so that no game is called over or illegal for it */
		return kind == FL_ANY;
	int d = depth > 0;
	depth++;
	int r = first_legal_in(p, kind, out, bufs + d * LEVEL);
	depth--;
	return r;
}

static int first_legal_in(struct vc_position *p, int kind, vc_move *out, vc_move *buf)
{
	const struct vc_variant *v = p->v;
	int side = p->side, k = p->king[side];
	if (v->has_end && vc_end_by_rule(p, NULL, NULL))
		return 0; /* the game is over */
	/* without a royal piece every move is legal */
	int test = k >= 0 || (v->rules & VC_R_NO_CHECK);
	struct pins pi;
	if (test)
		find_pins(p, &pi);
	struct gen g = { p, buf, 0 };
	/* The origins are copied first: testing a move makes and unmakes it,
	 * and a capture of one's own piece (self-capture, an explosion) puts
	 * that piece back at the end of the list, so walking the live list
	 * would visit one piece twice and skip another. */
	int16_t from_sq[VC_MAXPL];
	int nfrom = p->npl[side];
	memcpy(from_sq, p->plist[side], (size_t)nfrom * sizeof *from_sq);
	for (int i = kind == FL_DROP ? nfrom : -1; i <= nfrom; i++) {
		g.n = 0;
		if (i == nfrom) { /* castling and drops, which never capture */
			if (kind == FL_CAPTURE)
				break;
			if (kind == FL_ANY)
				gen_castling(&g);
			if (v->rules & VC_R_DROPS)
				gen_drops(&g);
			if (kind == FL_ANY)
				gen_pass(&g);
		} else {
			int from = i < 0 ? k : from_sq[i];
			if (from < 0 || (i >= 0 && from == k))
				continue; /* no royal piece; the royal piece done */
			gen_piece(&g, from);
		}
		for (int j = 0; j < g.n; j++)
			if ((kind != FL_CAPTURE || (buf[j].flags & VC_MF_CAPTURE)) &&
			    (!test || !needs_test(p, &pi, &buf[j]) || vc_move_legal(p, &buf[j]))) {
				if (out)
					*out = buf[j];
				return 1;
			}
	}
	return 0;
}

int vc_legal_capture(struct vc_position *p, vc_move *out)
{
	return first_legal(p, FL_CAPTURE, out);
}

int vc_legal_drop(struct vc_position *p, vc_move *out)
{
	return first_legal(p, FL_DROP, out);
}

int vc_has_legal_move(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	/* the bitboard core, when the position fits it; a game over by the
	 * variant's rules has none (as first_legal_in says) */
	if ((v->bbm || v->bb || v->bbw) && !(v->has_end && vc_end_by_rule(p, NULL, NULL))) {
		int r = v->bbw ? vc_bbw_has_legal(p) : vc_bb_has_legal(p);
		if (r >= 0)
			return r;
	}
	return first_legal(p, FL_ANY, NULL);
}

int vc_position_legal_moves(const struct vc_position *cp, vc_move *out, int cap)
{
	struct vc_position *p = (struct vc_position *)cp; /* made and unmade: unchanged */
	vc_move *buf = cap >= VC_MAX_MOVES * 4 ? out
						: vc_scratch(VC_SCRATCH_LEGAL, VC_MAX_MOVES * 4 * sizeof *buf);
	if (!buf)
		return -1;
	int n = vc_gen_legal(p, buf);
	if (buf == out)
		return n;
	if (n > cap)
		n = cap;
	memcpy(out, buf, (size_t)n * sizeof *out);
	return n;
}

/* ---- the end of the game by the variant's own rules ---- */

/* Is a piece of side s whose type is in the region rule on its region? */
static int in_region(const struct vc_position *p, int s)
{
	const struct vc_end_rules *e = &p->v->end;
	const struct vc_variant *v = p->v;
	if (v->king_type >= 0 && e->region_types == 1ull << v->king_type && p->king[s] >= 0 &&
	    (v->types[v->king_type].props & VC_P_ROYAL)) /* the usual: one royal piece */
		return vc_bit_test(e->region_sq[s], p->king[s]);
	for (int i = 0; i < p->npl[s]; i++) {
		int sq = p->plist[s][i];
		if ((e->region_types >> vc_code_type(p->board[sq]) & 1) &&
		    vc_bit_test(e->region_sq[s], sq))
			return 1;
	}
	return 0;
}

/* Black to move, White on the region: can a region piece of Black's reach
 * its region with a legal move (the reply that draws)? */
static int can_reply_into_region(struct vc_position *p)
{
	vc_move *buf = vc_scratch(VC_SCRATCH_REGION, VC_MAX_MOVES * sizeof *buf);
	const struct vc_end_rules *e = &p->v->end;
	int side = p->side;
	int16_t from_sq[VC_MAXPL];
	if (!buf)
		return 1; /* out of memory: the game goes on */
	int nfrom = p->npl[side];
	memcpy(from_sq, p->plist[side], (size_t)nfrom * sizeof *from_sq);
	for (int i = 0; i < nfrom; i++) {
		if (!(e->region_types >> vc_code_type(p->board[from_sq[i]]) & 1))
			continue;
		struct gen g = { p, buf, 0 };
		gen_piece(&g, from_sq[i]);
		for (int j = 0; j < g.n; j++)
			if (vc_bit_test(e->region_sq[side], buf[j].to) && vc_move_legal(p, &buf[j]))
				return 1;
	}
	return 0;
}

/* The pieces of side s of type t, or of every type when t < 0. */
static int count_type(const struct vc_position *p, int s, int t)
{
	int n = 0;
	if (t < 0)
		return p->npl[s];
	for (int i = 0; i < p->npl[s]; i++)
		n += vc_code_type(p->board[p->plist[s][i]]) == t;
	return n;
}

/* extinction: the side (the side not to move first) left with too few
 * pieces of a kind, or -1 */
static int extinct_side(const struct vc_position *p)
{
	const struct vc_end_rules *e = &p->v->end;
	for (int k = 0; k < 2; k++) {
		int c = k == 0 ? p->side ^ 1 : p->side;
		int need = e->extinct_opp + (e->extinct_claim && c == p->side);
		for (int t = e->extinct_all ? -1 : 0; t < p->v->ntypes; t++) {
			if (t >= 0 && !(e->extinct_types >> t & 1))
				continue;
			if (count_type(p, c, t) <= e->extinct_count && count_type(p, c ^ 1, t) >= need)
				return c;
			if (t < 0)
				break;
		}
	}
	return -1;
}

int vc_end_by_rule(struct vc_position *p, int *side, int *res)
{
	const struct vc_variant *v = p->v;
	const struct vc_end_rules *e = &v->end;
	int s, r = VC_RES_NONE, rule = VC_END_NONE, who = 0;
	if (e->extinct && (s = extinct_side(p)) >= 0)
		rule = VC_END_EXTINCT, r = e->extinct, who = s;
	for (s = 0; s < 2 && !rule; s++) {
		if (e->royal_lost && v->king_type >= 0 && p->king[s] < 0)
			rule = VC_END_ROYAL_LOST, r = e->royal_lost, who = s;
		else if (e->no_pieces && p->npl[s] == 0)
			rule = VC_END_NO_PIECES, r = e->no_pieces, who = s;
		else if (e->checks && p->checks[s] >= e->checks)
			rule = VC_END_CHECKS, r = VC_RES_WIN, who = s;
	}
	if (!rule && (e->passes || e->facing_pass) && p->nundo > 0 &&
	    (p->undo[p->nundo - 1].m.flags & VC_MF_NULL)) {
		if (e->passes && p->nundo > 1 && (p->undo[p->nundo - 2].m.flags & VC_MF_NULL))
			rule = VC_END_PASSES, r = e->passes, who = p->side;
		else if (e->facing_pass && vc_kings_face(p))
			rule = VC_END_FACING, r = e->facing_pass, who = p->side ^ 1;
		if (rule && r == VC_RES_POINTS) {
			int pts[2] = { 0, v->end.points_bonus };
			for (int c = 0; c < 2; c++)
				for (int i = 0; i < p->npl[c]; i++)
					pts[c] += v->types[vc_code_type(p->board[p->plist[c][i]])].points;
			r = pts[who] > pts[who ^ 1] ? VC_RES_WIN
			    : pts[who] < pts[who ^ 1] ? VC_RES_LOSS
						      : VC_RES_DRAW;
		}
	}
	if (!rule && e->region && e->region_reply == 2) {
		if (in_region(p, p->side)) /* the other side's answer did not dislodge it */
			rule = VC_END_REGION, r = e->region, who = p->side;
	} else if (!rule && e->region) {
		int w = in_region(p, VC_WHITE), b = in_region(p, VC_BLACK);
		if (w && b)
			rule = VC_END_REGION, r = VC_RES_DRAW, who = VC_WHITE;
		else if (w || b) {
			who = w ? VC_WHITE : VC_BLACK;
			/* with a reply rule, White's arrival leaves Black one move */
			if (!(e->region_reply && w && p->side == VC_BLACK && can_reply_into_region(p)))
				rule = VC_END_REGION, r = e->region;
		}
	}
	if (side)
		*side = who;
	if (res)
		*res = r;
	return rule;
}

int vc_position_outcome(const struct vc_position *cp)
{
	struct vc_position *p = (struct vc_position *)cp;
	if (vc_has_legal_move(p))
		return 0;
	return vc_in_check(p, p->side) ? 1 : 2;
}

/* Perft where moves are not all legal or not all counted by themselves:
 * the end rules (the game may be over), forced capture (a move's legality
 * depends on the others), a side without a royal piece under no-check. */
static int leaf_over_bitboards(struct vc_position *p, vc_move *buf, uint64_t *n);
static uint64_t perft_general(struct vc_position *p, int depth, vc_move *buf, int bb)
{
	const struct vc_variant *v = p->v;
	uint64_t leaf;
	/* the last ply over bitboards, where the legal moves are the board's
	 * and the drops (no rule keeps only some of them) */
	if (depth == 1 && bb && !(v->rules & (VC_R_FORCED_CAPTURE | VC_R_NO_CHECK | VC_R_MUST_DROP))) {
		if (v->has_end && vc_end_by_rule(p, NULL, NULL))
			return 0; /* the game is over */
		if (leaf_over_bitboards(p, buf, &leaf))
			return leaf;
	}
	int n = vc_gen_legal(p, buf);
	if (depth == 1)
		return (uint64_t)n;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		if (vc_pos_make(p, &buf[i]) != 0)
			return total;
		total += perft_general(p, depth - 1, buf + n, bb);
		vc_pos_unmake(p);
	}
	return total;
}

/* Perft's last ply where the moves on the board fit the bitboard core
 * (vc_bb_count_board) but drops come too: the board's moves counted there,
 * the drops here, each tested where needs_test says.  1 with the count in
 * *n, or 0. */
static int leaf_over_bitboards(struct vc_position *p, vc_move *buf, uint64_t *n)
{
	int board = p->v->bbw ? vc_bbw_count_board(p) : vc_bb_count_board(p);
	if (board < 0)
		return 0;
	struct gen g = { p, buf, 0 };
	gen_drops(&g);
	struct pins pi;
	uint64_t drops = 0;
	int test = g.n && p->king[p->side] >= 0; /* as vc_gen_legal tests */
	if (test)
		find_pins(p, &pi);
	for (int i = 0; i < g.n; i++)
		drops += !test || !needs_test(p, &pi, &buf[i]) || vc_move_legal(p, &buf[i]);
	*n = (uint64_t)board + drops;
	return 1;
}

static uint64_t perft_rec(struct vc_position *p, int depth, vc_move *buf, int bb)
{
	uint64_t leaf;
	if (depth == 1 && bb && leaf_over_bitboards(p, buf, &leaf))
		return leaf;
	int n = vc_gen_pseudo(p, buf);
	struct pins pi;
	int royal = p->king[p->side] >= 0;
	if (royal)
		find_pins(p, &pi);
	uint64_t total = 0;
	if (depth == 1) {
		if (!royal)
			return (uint64_t)n;
		for (int i = 0; i < n; i++)
			if (!needs_test(p, &pi, &buf[i]) || vc_move_legal(p, &buf[i]))
				total++;
		return total;
	}
	vc_move *next = buf + n;
	for (int i = 0; i < n; i++) {
		if (royal && needs_test(p, &pi, &buf[i]) && !vc_move_legal(p, &buf[i]))
			continue;
		if (vc_pos_make(p, &buf[i]) != 0)
			return total;
		total += perft_rec(p, depth - 1, next, bb);
		vc_pos_unmake(p);
	}
	return total;
}

uint64_t vc_perft(struct vc_position *p, int depth) { return vc_perft_ex(p, depth, 0); }

/* The bitboard core counts where the variant and the position fit it
 * (bitboard.c); the rest is counted here, over the paths and tries. */
uint64_t vc_perft_ex(struct vc_position *p, int depth, unsigned flags)
{
	uint64_t count;
	if (depth <= 0)
		return 1;
	if (!(flags & VC_PERFT_GENERAL) &&
	    (vc_bb_perft(p, depth, &count) || vc_bbw_perft(p, depth, &count)))
		return count;
	vc_move *buf = vc_calloc((size_t)(depth + 1) * VC_MAX_MOVES, sizeof *buf);
	if (!buf)
		return 0;
	const struct vc_variant *v = p->v;
	/* the last ply of a variant with drops whose board moves fit the
	 * bitboard core is counted there (leaf_over_bitboards) */
	int bb = v->nreserve && !(flags & VC_PERFT_GENERAL);
	uint64_t n = v->has_end ||
				     (v->rules & (VC_R_FORCED_CAPTURE | VC_R_NO_CHECK | VC_R_MUST_DROP))
			     ? perft_general(p, depth, buf, bb)
			     : perft_rec(p, depth, buf, bb);
	free(buf);
	return n;
}
