/*
 * naive.c - a deliberately simple legal-move generator for the tests: the
 * second opinion against which the library's generator (paths, tries, pins
 * in lib/rules/variant.c and lib/rules/movegen.c) is checked.  Nothing here is shared
 * with that code except the loaded variant data (board size, piece types
 * with their atoms, properties and promotion fields, castling specs, rule
 * switches) and the library's position-string reader, whose result is
 * copied at once into a plain [rank][file] array of (type, colour).
 *
 * Model:
 *  - A piece's moves are found by walking each movement atom from its
 *    definition, one step at a time, at generation time: no tables.  A walk
 *    visits candidate destinations in order and stops at the first occupied
 *    square, which is visited too (it may be a capture); squares before a
 *    ride's 'min' step are crossed but never destinations.  The piece's own
 *    start square counts as empty (it has left it) and is never a
 *    destination: only a reflecting ray can come back to it.
 *  - The vectors of an atom are the distinct images of (x, y) under the
 *    eight symmetries of the square (or its explicit 'vectors'), kept when
 *    their direction seen by the side is in 'dirs' (forward: towards the
 *    enemy); Black sees (x, y) as (x, -y).
 *  - Legality by copy-make: play the move on a copy, then generate every
 *    enemy move and see whether one captures a royal piece of the mover.
 *    A side with several royal pieces may leave none of them attacked.
 *  - A destination reached by two routes (an octospider on a knight square,
 *    a crooked knight whose two zigzags meet) is one move.
 *  - Castling (fixed squares as in Chess960, or the king two squares towards
 *    the partner) needs the side's single royal piece, the partner still
 *    holding its right, everything between empty, and, unless the variant
 *    castles through check, the king neither attacked nor crossing an
 *    attacked square.  Drops come from reserve area 0.
 *  - SC-Chess, as its rule text gives it ("SC - Chess", Kazuto Asai,
 *    The Chess Variant Pages, 2004), when the variant
 *    switches on prisons and promotion by exchange: reserve area
 *    0 is the airfield, area 1 the prison.  A captured enemy piece goes to
 *    the captor's prison, a self-captured one to its owner's airfield; after
 *    the move, while both prisons hold a piece of one kind, one of each goes
 *    back to its owner's airfield.  A pawn that lands on its last rank must
 *    trade places with one of its side's pieces other than a pawn or king:
 *    one on the board not on that rank (one move per square), or a kind in
 *    its airfield or in the enemy's prison (one move per kind); it goes
 *    where that piece was (a board square, the airfield, the enemy's
 *    prison).  With none, the pawn may not go there.  The pieces are looked
 *    for once the move's capture is done (see NAIVE_READ_XSRC_BEFORE).  A
 *    board piece that trades places has moved: a castling right on its
 *    square is lost.
 *  - Not modelled (the tests that use this file do not need them): two-square
 *    pieces, board swaps, Kirby death (dead pieces are read and stay
 *    frozen), vampires, castling with any partner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive.h"
#include "rules/vc_rules.h"

/* the longest walk: a reflecting ray visits each (square, direction) once */
#define MAXPATH (NAIVE_MAXF * NAIVE_MAXR * 4 + 8)

static int on_board(const struct naive_pos *p, int f, int r)
{
	return f >= 0 && r >= 0 && f < p->files && r < p->ranks;
}

/* relative rank (1-based) of rank r for a side */
static int rel_rank(const struct naive_pos *p, int side, int r)
{
	return side == VC_WHITE ? r + 1 : p->ranks - r;
}

static int rank_in(uint32_t mask, int relrank)
{
	return relrank >= 1 && relrank <= 32 && ((mask >> (relrank - 1)) & 1);
}

/* The distinct images of (x, y) under the eight symmetries of the square. */
static int images(int x, int y, int out[8][2])
{
	int cand[8][2] = { { x, y }, { -x, y }, { x, -y }, { -x, -y },
			   { y, x }, { -y, x }, { y, -x }, { -y, -x } };
	int n = 0;
	for (int i = 0; i < 8; i++) {
		int dup = 0;
		for (int j = 0; j < n; j++)
			if (out[j][0] == cand[i][0] && out[j][1] == cand[i][1])
				dup = 1;
		if (!dup) {
			out[n][0] = cand[i][0];
			out[n][1] = cand[i][1];
			n++;
		}
	}
	return n;
}

/* The vectors of an atom as the side plays them, in board coordinates. */
static int atom_vectors(const struct vc_atom *a, int side, int out[8][2])
{
	int all[8][2], n, k = 0;
	if (a->nvec) {
		n = a->nvec;
		for (int i = 0; i < n; i++) {
			all[i][0] = a->vec[i][0];
			all[i][1] = a->vec[i][1];
		}
	} else {
		n = images(a->x, a->y, all);
	}
	for (int i = 0; i < n; i++) {
		/* the direction as the side sees it, before turning it to the board */
		int dir = all[i][1] > 0   ? VC_DIR_FORWARD
			  : all[i][1] < 0 ? VC_DIR_BACKWARD
					  : VC_DIR_SIDEWAYS;
		if (!(a->dirs & dir))
			continue;
		out[k][0] = all[i][0];
		out[k][1] = side == VC_BLACK ? -all[i][1] : all[i][1];
		k++;
	}
	return k;
}

/* ---- walking one piece's atoms ---- */

struct walk;
/* Called at each candidate destination; returns nonzero to stop all walking. */
typedef int visit_fn(struct walk *w, int tf, int tr);

struct walk {
	const struct naive_pos *p;
	int side, type;
	int of, orank;        /* the walking piece's square */
	int modes;            /* of the atom being walked, with the piece's adjustments */
	int path[MAXPATH][2]; /* squares crossed before the current one */
	int npath;
	visit_fn *visit;
	void *user;
};

enum { GO_ON, RAY_ENDS, STOP_ALL };

static int is_origin(const struct walk *w, int f, int r)
{
	return f == w->of && r == w->orank;
}

/* One step of a walk onto (f, r), on the board.  dest: the square may be a
 * destination (else it must merely be empty to go on). */
static int step(struct walk *w, int f, int r, int dest)
{
	if (is_origin(w, f, r)) {
		/* empty once the piece left; never a destination */
	} else if (w->p->sq[r][f].type >= 0) {
		if (dest && w->visit(w, f, r))
			return STOP_ALL;
		return RAY_ENDS;
	} else if (dest && w->visit(w, f, r)) {
		return STOP_ALL;
	}
	if (w->npath < MAXPATH) {
		w->path[w->npath][0] = f;
		w->path[w->npath][1] = r;
		w->npath++;
	}
	return GO_ON;
}

/* a ride from (f, r) along (dx, dy): at most range steps (0: no limit) */
static int ride(struct walk *w, int f, int r, int dx, int dy, int range, int min)
{
	for (int s = 1; range == 0 || s <= range; s++) {
		f += dx;
		r += dy;
		if (!on_board(w->p, f, r))
			return GO_ON;
		int st = step(w, f, r, s >= min);
		if (st != GO_ON)
			return st;
	}
	return GO_ON;
}

static int walk_atom(struct walk *w, const struct vc_atom *a)
{
	const struct naive_pos *p = w->p;
	int vec[8][2];
	int nv = atom_vectors(a, w->side, vec);
	int min = a->min ? a->min : 1;
	for (int i = 0; i < nv; i++) {
		int dx = vec[i][0], dy = vec[i][1];
		int f = w->of, r = w->orank, st = GO_ON;
		w->npath = 0;
		switch (a->kind) {
		case VC_A_LEAP:
			if (on_board(p, f + dx, r + dy))
				st = step(w, f + dx, r + dy, 1);
			break;
		case VC_A_RIDE:
			st = ride(w, f, r, dx, dy, a->range, min);
			break;
		case VC_A_BENT: {
			/* one step of v, a destination itself, then a ride along every
			 * image of the second leg that points away: dot(v, w) > 0 */
			f += dx;
			r += dy;
			if (!on_board(p, f, r))
				break;
			st = step(w, f, r, 1);
			if (st != GO_ON)
				break;
			int leg[8][2];
			int nl = images(a->x2, a->y2, leg);
			for (int j = 0; j < nl && st != STOP_ALL; j++) {
				if (leg[j][0] * dx + leg[j][1] * dy <= 0)
					continue;
				w->npath = 1;
				st = ride(w, f, r, leg[j][0], leg[j][1], a->range, 1);
			}
			break;
		}
		case VC_A_ZIGZAG: {
			/* the component of smaller magnitude changes sign after every
			 * step; with equal magnitudes, x does */
			int flipx = abs(dx) <= abs(dy);
			for (int s = 1; a->range == 0 || s <= a->range; s++) {
				f += dx;
				r += dy;
				if (!on_board(p, f, r))
					break;
				st = step(w, f, r, s >= min);
				if (st != GO_ON)
					break;
				if (flipx)
					dx = -dx;
				else
					dy = -dy;
			}
			break;
		}
		case VC_A_REFLECT: {
			/* a ray that mirrors the component that would leave the board
			 * (both in a corner); it ends when a (square, direction) state
			 * comes again */
			static unsigned char seen[NAIVE_MAXR][NAIVE_MAXF][3][3];
			memset(seen, 0, sizeof seen);
			for (int s = 1; a->range == 0 || s <= a->range; s++) {
				if (f + dx < 0 || f + dx >= p->files)
					dx = -dx;
				if (r + dy < 0 || r + dy >= p->ranks)
					dy = -dy;
				f += dx;
				r += dy;
				if (!on_board(p, f, r))
					break; /* a board one square wide or high */
				unsigned char *state = &seen[r][f][dx + 1][dy + 1];
				if (*state)
					break;
				*state = 1;
				st = step(w, f, r, s >= min);
				if (st != GO_ON)
					break;
			}
			break;
		}
		}
		if (st == STOP_ALL)
			return STOP_ALL;
	}
	return GO_ON;
}

/* The modes of an atom of type t, after the piece's properties and the
 * variant's self-capture switch. */
static int atom_modes(const struct vc_variant *v, int t, const struct vc_atom *a)
{
	int modes = a->modes;
	unsigned props = v->types[t].props;
	if ((v->rules & VC_R_SELF_CAPTURE) && !(props & VC_P_ROYAL) && (modes & VC_MODE_CAPTURE))
		modes |= VC_MODE_SELF;
	if (props & VC_P_NOCAPTURE)
		modes &= ~(VC_MODE_CAPTURE | VC_MODE_SELF | VC_MODE_EPTAKE);
	return modes;
}

/* Walks every atom of the piece on (f, r); returns STOP_ALL if the visitor
 * stopped. */
static int walk_piece(const struct naive_pos *p, int f, int r, visit_fn *visit, void *user)
{
	/* static for its size (the crossed squares); no visitor starts a walk */
	static struct walk w;
	const struct vc_variant *v = p->v;
	const struct naive_sq *s = &p->sq[r][f];
	if (s->type < 0 || s->color > 1 || s->dead)
		return GO_ON; /* neutral and dead pieces neither move nor attack */
	const struct vc_ptype *pt = &v->types[s->type];
	if (pt->props & VC_P_IMMOBILE)
		return GO_ON;
	w.p = p;
	w.side = s->color;
	w.type = s->type;
	w.of = f;
	w.orank = r;
	w.visit = visit;
	w.user = user;
	for (int i = 0; i < pt->natoms; i++) {
		const struct vc_atom *a = &pt->atoms[i];
		if (a->from_ranks && !rank_in(a->from_ranks, rel_rank(p, s->color, r)))
			continue;
		w.modes = atom_modes(v, s->type, a);
		if (walk_atom(&w, a) == STOP_ALL)
			return STOP_ALL;
	}
	return GO_ON;
}

/* ---- attacks ---- */

struct target {
	int f, r;
};

static int visit_attack(struct walk *w, int tf, int tr)
{
	const struct target *t = w->user;
	return tf == t->f && tr == t->r && (w->modes & VC_MODE_CAPTURE);
}

/* Does some piece of side 'by' capture on (f, r) if it could? */
static int attacked(const struct naive_pos *p, int f, int r, int by)
{
	struct target t = { f, r };
	for (int rr = 0; rr < p->ranks; rr++)
		for (int ff = 0; ff < p->files; ff++)
			if (p->sq[rr][ff].type >= 0 && p->sq[rr][ff].color == by &&
			    walk_piece(p, ff, rr, visit_attack, &t) == STOP_ALL)
				return 1;
	return 0;
}

static int is_royal(const struct naive_pos *p, int f, int r)
{
	const struct naive_sq *s = &p->sq[r][f];
	return s->type >= 0 && (p->v->types[s->type].props & VC_P_ROYAL);
}

int naive_in_check(const struct naive_pos *p, int side)
{
	for (int r = 0; r < p->ranks; r++)
		for (int f = 0; f < p->files; f++)
			if (p->sq[r][f].color == side && is_royal(p, f, r) &&
			    attacked(p, f, r, side ^ 1))
				return 1;
	return 0;
}

/* ---- pseudo-legal moves ---- */

struct list {
	struct naive_move *m;
	int n;
	int first; /* first move of the piece being generated, for duplicates */
};

static int same_move(const struct naive_move *a, const struct naive_move *b)
{
	return a->kind == b->kind && a->piece == b->piece && a->promo == b->promo &&
	       a->ff == b->ff && a->fr == b->fr && a->tf == b->tf && a->tr == b->tr &&
	       a->xsrc == b->xsrc &&
	       (a->xsrc != NAIVE_X_BOARD || (a->xf == b->xf && a->xr == b->xr));
}

static void push(struct list *l, const struct naive_move *m)
{
	for (int i = l->first; i < l->n; i++)
		if (same_move(&l->m[i], m))
			return; /* one move, however many routes lead there */
	if (l->n >= NAIVE_MAXMOVES) {
		fprintf(stderr, "naive: more than %d moves\n", NAIVE_MAXMOVES);
		abort();
	}
	l->m[l->n++] = *m;
}

/* SC-Chess: the moves of a pawn landing on its last rank, one per piece it
 * may trade places with; none when there is no such piece. */
static void add_exchange_promotions(const struct naive_pos *p, struct list *l, struct naive_move *m)
{
	const struct vc_variant *v = p->v;
	const struct vc_ptype *pt = &v->types[m->piece];
	int side = p->side, them = side ^ 1;
	int air[NAIVE_MAXT];
	for (int t = 0; t < v->ntypes; t++)
		air[t] = p->hand[side][t];
	/* the square the move empties by capturing (en passant cannot land on
	 * the last rank, but costs nothing to follow) */
	int cf = m->tf, cr = m->tr;
	if (m->kind == NAIVE_EP) {
		cf = p->epvictim[0];
		cr = p->epvictim[1];
	}
	const struct naive_sq *cap = &p->sq[cr][cf];
	if (cap->type >= 0 && cap->color == side && !(p->reading & NAIVE_READ_XSRC_BEFORE))
		air[cap->type]++; /* self-captured: in the airfield by now */
	m->promo = -1;
	for (int r = 0; r < p->ranks; r++)
		for (int f = 0; f < p->files; f++) {
			const struct naive_sq *s = &p->sq[r][f];
			if (s->type < 0 || s->color != side || (f == cf && r == cr) ||
			    (f == m->ff && r == m->fr))
				continue;
			if (v->types[s->type].props & (VC_P_PAWN | VC_P_ROYAL))
				continue;
			if (rank_in(pt->promo_ranks, rel_rank(p, side, r)))
				continue; /* "except ... the pieces on the 8th rank" */
			m->promo = s->type;
			m->xsrc = NAIVE_X_BOARD;
			m->xf = f;
			m->xr = r;
			push(l, m);
		}
	m->xf = m->xr = -1;
	for (int t = 0; t < v->ntypes; t++) {
		if (v->types[t].props & (VC_P_PAWN | VC_P_ROYAL))
			continue;
		m->promo = t;
		if (air[t] > 0) {
			m->xsrc = NAIVE_X_AIRFIELD;
			push(l, m);
		}
		if (p->prison[them][t] > 0) {
			m->xsrc = NAIVE_X_PRISON;
			push(l, m);
		}
	}
	m->xsrc = NAIVE_X_NONE;
	m->promo = -1;
}

/* adds a move of a piece that lands on (tf, tr), with its promotions */
static void add_landing(const struct naive_pos *p, struct list *l, struct naive_move *m)
{
	const struct vc_ptype *pt = &p->v->types[m->piece];
	int rr = rel_rank(p, p->side, m->tr);
	if (pt->promo_ranks && rank_in(pt->promo_ranks, rr) && (p->v->rules & VC_R_XPROMO)) {
		add_exchange_promotions(p, l, m);
		return;
	}
	if (pt->promo_ranks && rank_in(pt->promo_ranks, rr) && pt->promo_choices) {
		for (int c = 0; c < 64; c++)
			if ((pt->promo_choices >> c) & 1) {
				m->promo = c;
				push(l, m);
			}
		if (!pt->promo_mandatory) {
			m->promo = -1;
			push(l, m);
		}
		return;
	}
	m->promo = pt->auto_to >= 0 && rank_in(pt->auto_ranks, rr) ? pt->auto_to : -1;
	push(l, m);
}

static int is_ep_target(const struct naive_pos *p, int f, int r)
{
	for (int i = 0; i < p->nep; i++)
		if (p->ep[i][0] == f && p->ep[i][1] == r)
			return 1;
	return 0;
}

static int visit_gen(struct walk *w, int tf, int tr)
{
	const struct naive_pos *p = w->p;
	const struct vc_variant *v = p->v;
	struct list *l = w->user;
	const struct naive_sq *s = &p->sq[tr][tf];
	struct naive_move m;
	memset(&m, 0, sizeof m);
	m.kind = NAIVE_NORMAL;
	m.piece = w->type;
	m.ff = w->of;
	m.fr = w->orank;
	m.tf = tf;
	m.tr = tr;
	m.pf = m.pr = m.ptf = m.ptr = m.right = -1;
	m.xsrc = NAIVE_X_NONE;
	m.xf = m.xr = -1;
	if (s->type < 0) {
		if (w->modes & VC_MODE_MOVE) {
			if ((w->modes & VC_MODE_EPMAKE) && w->npath > 0) {
				for (int i = 0; i < w->npath && i < NAIVE_MAXEP; i++) {
					m.cross[i][0] = (signed char)w->path[i][0];
					m.cross[i][1] = (signed char)w->path[i][1];
				}
				m.ncross = w->npath < NAIVE_MAXEP ? w->npath : NAIVE_MAXEP;
			}
			add_landing(p, l, &m);
		} else if ((w->modes & VC_MODE_EPTAKE) && is_ep_target(p, tf, tr) &&
			   p->epvictim[0] >= 0) {
			const struct naive_sq *vs = &p->sq[p->epvictim[1]][p->epvictim[0]];
			if (vs->type >= 0 && vs->color == (w->side ^ 1)) {
				m.kind = NAIVE_EP;
				add_landing(p, l, &m);
			}
		}
		return 0;
	}
	if (v->types[s->type].props & VC_P_UNCAPTURABLE)
		return 0;
	if (s->color != w->side) {
		if (w->modes & VC_MODE_CAPTURE)
			add_landing(p, l, &m);
	} else if ((w->modes & VC_MODE_SELF) && !(v->types[s->type].props & VC_P_ROYAL)) {
		add_landing(p, l, &m);
	}
	return 0;
}

/* the single royal piece of a side, or 0 when it has none or several */
static int find_king(const struct naive_pos *p, int side, int *kf, int *kr)
{
	int n = 0;
	for (int r = 0; r < p->ranks; r++)
		for (int f = 0; f < p->files; f++)
			if (p->sq[r][f].color == side && is_royal(p, f, r)) {
				*kf = f;
				*kr = r;
				n++;
			}
	return n == 1;
}

static void gen_castling(const struct naive_pos *p, struct list *l)
{
	const struct vc_variant *v = p->v;
	int side = p->side, kf = -1, kr = -1;
	if (!v->ncastle || !find_king(p, side, &kf, &kr))
		return;
	int through = (v->rules & VC_R_CASTLE_THROUGH_CHECK) != 0;
	for (int i = 0; i < v->ncastle; i++) {
		int pf = p->castle[side][i][0], pr = p->castle[side][i][1];
		if (pf < 0)
			continue;
		const struct naive_sq *ps = &p->sq[pr][pf];
		if (ps->type < 0 || ps->color != side || (pf == kf && pr == kr))
			continue;
		if (v->castle_partners && !((v->castle_partners >> ps->type) & 1))
			continue;
		if (pr != kr)
			continue;
		int ktf, ptf;
		if (v->castle_style == VC_CASTLE_FIXED) {
			/* the spec is White's; Black's squares are on its own first rank */
			const struct vc_castle_spec *c = &v->castle[i];
			int want = side == VC_WHITE ? c->king_to / v->files
						    : v->ranks - 1 - c->king_to / v->files;
			if (want != kr)
				continue;
			ktf = c->king_to % v->files;
			ptf = c->partner_to % v->files;
		} else {
			/* two squares towards the partner, which lands on the square crossed */
			int d = pf > kf ? 1 : -1;
			if ((pf - kf) * d < 3)
				continue;
			ktf = kf + 2 * d;
			ptf = kf + d;
		}
		/* everything from the leftmost to the rightmost of the four squares
		 * empty, except the king and the partner */
		int lo = kf, hi = kf;
		int fs[3] = { pf, ktf, ptf };
		for (int k = 0; k < 3; k++) {
			if (fs[k] < lo)
				lo = fs[k];
			if (fs[k] > hi)
				hi = fs[k];
		}
		int ok = 1;
		for (int f = lo; f <= hi; f++)
			if (f != kf && f != pf && p->sq[kr][f].type >= 0)
				ok = 0;
		if (!ok)
			continue;
		if (!through) {
			/* not out of check, not across an attacked square (the king's
			 * destination is judged again by the legality test) */
			if (attacked(p, kf, kr, side ^ 1))
				continue;
			int d = ktf > kf ? 1 : -1;
			for (int f = kf + d; ktf != kf && ok; f += d) {
				if (attacked(p, f, kr, side ^ 1))
					ok = 0;
				if (f == ktf)
					break;
			}
			if (!ok)
				continue;
		}
		struct naive_move m;
		memset(&m, 0, sizeof m);
		m.kind = NAIVE_CASTLE;
		m.piece = p->sq[kr][kf].type;
		m.promo = -1;
		m.ff = kf;
		m.fr = kr;
		m.tf = ktf;
		m.tr = kr;
		m.pf = pf;
		m.pr = pr;
		m.ptf = ptf;
		m.ptr = kr;
		m.right = i;
		m.xsrc = NAIVE_X_NONE;
		m.xf = m.xr = -1;
		l->first = l->n;
		push(l, &m);
	}
}

static void gen_drops(const struct naive_pos *p, struct list *l)
{
	const struct vc_variant *v = p->v;
	for (int t = 0; t < v->ntypes; t++) {
		if (p->hand[p->side][t] <= 0)
			continue;
		int pawn = (v->types[t].props & VC_P_PAWN) != 0;
		for (int r = 0; r < p->ranks; r++)
			for (int f = 0; f < p->files; f++) {
				if (p->sq[r][f].type >= 0)
					continue;
				if (pawn && rank_in((uint32_t)v->drop_pawn_forbid_ranks,
						    rel_rank(p, p->side, r)))
					continue;
				struct naive_move m;
				memset(&m, 0, sizeof m);
				m.kind = NAIVE_DROP;
				m.piece = t;
				m.promo = -1;
				m.ff = m.fr = -1;
				m.tf = f;
				m.tr = r;
				m.pf = m.pr = m.ptf = m.ptr = m.right = -1;
				m.xsrc = NAIVE_X_NONE;
				m.xf = m.xr = -1;
				l->first = l->n; /* one drop per square: nothing to merge */
				push(l, &m);
			}
	}
}

static int pseudo_moves(const struct naive_pos *p, struct naive_move *out)
{
	struct list l = { out, 0, 0 };
	for (int r = 0; r < p->ranks; r++)
		for (int f = 0; f < p->files; f++)
			if (p->sq[r][f].type >= 0 && p->sq[r][f].color == p->side) {
				l.first = l.n;
				walk_piece(p, f, r, visit_gen, &l);
			}
	gen_castling(p, &l);
	if (p->v->rules & VC_R_DROPS)
		gen_drops(p, &l);
	return l.n;
}

/* ---- making moves ---- */

static void put(struct naive_pos *p, int f, int r, int type, int color, int promoted)
{
	p->sq[r][f].type = (signed char)type;
	p->sq[r][f].color = (unsigned char)color;
	p->sq[r][f].promoted = (unsigned char)promoted;
	p->sq[r][f].dead = 0;
}

static void clear(struct naive_pos *p, int f, int r)
{
	memset(&p->sq[r][f], 0, sizeof p->sq[r][f]);
	p->sq[r][f].type = -1;
}

static void lose_rights_at(struct naive_pos *p, int f, int r)
{
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < NAIVE_MAXCASTLE; i++)
			if (p->castle[c][i][0] == f && p->castle[c][i][1] == r)
				p->castle[c][i][0] = p->castle[c][i][1] = -1;
}

static void lose_all_rights(struct naive_pos *p, int side)
{
	for (int i = 0; i < NAIVE_MAXCASTLE; i++)
		p->castle[side][i][0] = p->castle[side][i][1] = -1;
}

void naive_make(const struct naive_pos *p, const struct naive_move *m, struct naive_pos *out)
{
	const struct vc_variant *v = p->v;
	int side = p->side;
	*out = *p;
	out->nep = 0;
	out->epvictim[0] = out->epvictim[1] = -1;
	switch (m->kind) {
	case NAIVE_DROP:
		out->hand[side][m->piece]--;
		put(out, m->tf, m->tr, m->piece, side, 0);
		break;
	case NAIVE_CASTLE: {
		struct naive_sq k = p->sq[m->fr][m->ff], q = p->sq[m->pr][m->pf];
		clear(out, m->ff, m->fr);
		clear(out, m->pf, m->pr);
		int becomes = v->castle[m->right].becomes;
		put(out, m->tf, m->tr, k.type, side, k.promoted);
		put(out, m->ptf, m->ptr, becomes >= 0 ? becomes : q.type, side, q.promoted);
		lose_all_rights(out, side);
		break;
	}
	case NAIVE_NORMAL:
	case NAIVE_EP: {
		struct naive_sq mover = p->sq[m->fr][m->ff];
		int cf = m->tf, cr = m->tr;
		if (m->kind == NAIVE_EP) {
			cf = p->epvictim[0];
			cr = p->epvictim[1];
		}
		const struct naive_sq *cap = &p->sq[cr][cf];
		if (cap->type >= 0 && (v->rules & VC_R_CAPTURE_TO_HAND)) {
			/* into the captor's hand, a promoted piece as a pawn */
			int ct = cap->promoted && v->pawn_type >= 0 ? v->pawn_type : cap->type;
			out->hand[side][ct]++;
		}
		if (cap->type >= 0 && (v->rules & VC_R_PRISON)) {
			/* an enemy to the captor's prison; one's own to one's airfield */
			if (cap->color == side)
				out->hand[side][cap->type]++;
			else
				out->prison[side][cap->type]++;
		}
		clear(out, cf, cr);
		clear(out, m->ff, m->fr);
		if (m->xsrc != NAIVE_X_NONE) {
			/* the pawn and the chosen piece trade places */
			put(out, m->tf, m->tr, m->promo, side, 0);
			if (m->xsrc == NAIVE_X_BOARD) {
				put(out, m->xf, m->xr, mover.type, side, 0);
				lose_rights_at(out, m->xf, m->xr);
			} else if (m->xsrc == NAIVE_X_AIRFIELD) {
				out->hand[side][m->promo]--;
				out->hand[side][mover.type]++;
			} else {
				out->prison[side ^ 1][m->promo]--;
				out->prison[side ^ 1][mover.type]++;
			}
		} else if (m->promo >= 0)
			put(out, m->tf, m->tr, m->promo, side, 1);
		else
			put(out, m->tf, m->tr, mover.type, side, mover.promoted);
		if (v->rules & VC_R_PRISON) {
			/* prisoners of one kind on both sides go home, a pair at a time */
			for (int t = 0; t < v->ntypes; t++)
				while (out->prison[0][t] > 0 && out->prison[1][t] > 0) {
					out->prison[0][t]--;
					out->prison[1][t]--;
					out->hand[0][t]++;
					out->hand[1][t]++;
				}
		}
		if (v->types[mover.type].props & VC_P_ROYAL)
			lose_all_rights(out, side);
		lose_rights_at(out, m->ff, m->fr);
		lose_rights_at(out, m->tf, m->tr);
		if (m->ncross && (v->rules & VC_R_EP)) {
			for (int i = 0; i < m->ncross; i++) {
				out->ep[i][0] = m->cross[i][0];
				out->ep[i][1] = m->cross[i][1];
			}
			out->nep = m->ncross;
			out->epvictim[0] = m->tf;
			out->epvictim[1] = m->tr;
		}
		break;
	}
	}
	out->side = side ^ 1;
	out->ply = p->ply + 1;
	/* Schizochess: after every period-th ply the halves trade places,
	 * file k to file k + files/2 (mod files); rights and targets go along */
	if ((v->rules & VC_R_SWAP_HALVES) && out->ply > v->swap_offset &&
	    (out->ply - v->swap_offset) % v->swap_period == 0) {
		struct naive_pos tmp = *out;
		int half = v->files / 2;
		for (int r = 0; r < v->ranks; r++)
			for (int f = 0; f < v->files; f++)
				out->sq[r][(f + half) % v->files] = tmp.sq[r][f];
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < NAIVE_MAXCASTLE; i++)
				if (out->castle[c][i][0] >= 0)
					out->castle[c][i][0] = (out->castle[c][i][0] + half) % v->files;
		for (int i = 0; i < out->nep; i++)
			out->ep[i][0] = (out->ep[i][0] + half) % v->files;
		if (out->epvictim[0] >= 0)
			out->epvictim[0] = (out->epvictim[0] + half) % v->files;
	}
}

int naive_legal_moves(const struct naive_pos *p, struct naive_move *out)
{
	struct naive_pos after;
	int n = pseudo_moves(p, out), k = 0;
	for (int i = 0; i < n; i++) {
		naive_make(p, &out[i], &after);
		if (!naive_in_check(&after, p->side))
			out[k++] = out[i];
	}
	return k;
}

/* moves: room for NAIVE_MAXMOVES per level of depth; next: one position per level */
static uint64_t perft(const struct naive_pos *p, int depth, struct naive_move *moves,
		      struct naive_pos *next)
{
	int n = naive_legal_moves(p, moves);
	if (depth == 1)
		return (uint64_t)n;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		naive_make(p, &moves[i], next);
		total += perft(next, depth - 1, moves + NAIVE_MAXMOVES, next + 1);
	}
	return total;
}

uint64_t naive_perft(const struct naive_pos *p, int depth)
{
	if (depth <= 0)
		return 1;
	struct naive_move *moves = malloc((size_t)depth * NAIVE_MAXMOVES * sizeof *moves);
	struct naive_pos *next = malloc((size_t)depth * sizeof *next);
	if (!moves || !next)
		abort();
	uint64_t n = perft(p, depth, moves, next);
	free(next);
	free(moves);
	return n;
}

/* ---- reading a position ---- */

int naive_set_fen(struct naive_pos *np, const struct vc_variant *v, const char *fen)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_position *p = vc_position_new(v);
	int rc = -1;
	if (!ctx || !p || vc_position_set_fen(p, ctx, fen) != VC_OK)
		goto out;
	memset(np, 0, sizeof *np);
	np->v = v;
	np->files = v->files;
	np->ranks = v->ranks;
	np->side = vc_position_side(p);
	np->ply = vc_position_ply(p);
	for (int r = 0; r < v->ranks; r++)
		for (int f = 0; f < v->files; f++) {
			int sq = r * v->files + f, color = 0;
			int t = vc_position_piece_at(p, sq, &color);
			clear(np, f, r);
			if (t < 0)
				continue;
			put(np, f, r, t, color, (p->sqf[sq] & VC_SQF_PROMOTED) != 0);
			np->sq[r][f].dead = (p->sqf[sq] & VC_SQF_DEAD) != 0;
		}
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < NAIVE_MAXCASTLE; i++) {
			int sq = i < v->ncastle ? p->castle[c][i] : -1;
			np->castle[c][i][0] = sq >= 0 ? sq % v->files : -1;
			np->castle[c][i][1] = sq >= 0 ? sq / v->files : -1;
		}
	for (int i = 0; i < p->nep && i < NAIVE_MAXEP; i++) {
		np->ep[i][0] = p->ep[i] % v->files;
		np->ep[i][1] = p->ep[i] / v->files;
	}
	np->nep = p->nep;
	np->epvictim[0] = p->epvictim >= 0 ? p->epvictim % v->files : -1;
	np->epvictim[1] = p->epvictim >= 0 ? p->epvictim / v->files : -1;
	for (int c = 0; c < 2; c++)
		for (int t = 0; t < v->ntypes && t < NAIVE_MAXT; t++) {
			np->hand[c][t] = v->nreserve > 0 ? p->res[c][0][t] : 0;
			np->prison[c][t] = v->nreserve > 1 ? p->res[c][1][t] : 0;
		}
	rc = 0;
out:
	vc_position_free(p);
	vc_ctx_free(ctx);
	return rc;
}

uint64_t naive_perft_fen(const struct vc_variant *v, const char *fen, int depth)
{
	struct naive_pos *p = malloc(sizeof *p);
	uint64_t n = UINT64_MAX;
	if (p && naive_set_fen(p, v, fen) == 0)
		n = naive_perft(p, depth);
	free(p);
	return n;
}

/* ---- writing a move ---- */

static void sq_text(int f, int r, char buf[16])
{
	snprintf(buf, 16, "%c%d", 'a' + f, r + 1);
}

int naive_move_text(const struct naive_pos *p, const struct naive_move *m, char *buf, size_t n)
{
	const struct vc_variant *v = p->v;
	char a[16], b[16], c[16], d[16];
	sq_text(m->tf, m->tr, b);
	switch (m->kind) {
	case NAIVE_DROP:
		return snprintf(buf, n, "%s@%s", v->types[m->piece].symbol, b);
	case NAIVE_CASTLE:
		sq_text(m->ff, m->fr, a);
		sq_text(m->pf, m->pr, c);
		sq_text(m->ptf, m->ptr, d);
		return snprintf(buf, n, "O:%s%s/%s%s", a, b, c, d);
	default:
		sq_text(m->ff, m->fr, a);
		if (m->xsrc == NAIVE_X_BOARD)
			sq_text(m->xf, m->xr, c);
		if (m->xsrc != NAIVE_X_NONE)
			return snprintf(buf, n, "%s%s=%s(%s)", a, b, v->types[m->promo].symbol,
					m->xsrc == NAIVE_X_BOARD      ? c
					: m->xsrc == NAIVE_X_AIRFIELD ? "air"
								      : "prison");
		if (m->promo >= 0)
			return snprintf(buf, n, "%s%s=%s", a, b, v->types[m->promo].symbol);
		return snprintf(buf, n, "%s%s", a, b);
	}
}

/* ---- writing a state ---- */

static size_t symbol_text(const struct vc_variant *v, int t, int color, char *b, size_t n)
{
	char sym[8];
	size_t k = 0;
	for (const char *c = v->types[t].symbol; *c && k < 7; c++)
		sym[k++] = color == 1 ? (char)(*c | 0x20) : *c;
	sym[k] = 0;
	return (size_t)snprintf(b, n, k > 1 ? "(%s)" : "%s", sym);
}

int naive_state_text(const struct naive_pos *p, char *buf, size_t n)
{
	const struct vc_variant *v = p->v;
	char t[64];
	size_t k = 0;
#define ADD(...) (k += (size_t)snprintf(buf + k, k < n ? n - k : 0, __VA_ARGS__))
	for (int r = p->ranks - 1; r >= 0; r--) {
		for (int f = 0; f < p->files; f++) {
			const struct naive_sq *s = &p->sq[r][f];
			if (s->type < 0) {
				ADD(".");
				continue;
			}
			symbol_text(v, s->type, s->color, t, sizeof t);
			ADD("%s%s%s", t, s->promoted ? "~" : "", s->dead ? "!" : "");
		}
		if (r)
			ADD("/");
	}
	for (int area = 0; area < 2; area++) {
		ADD(area ? " P:" : " A:");
		for (int c = 0; c < 2; c++) {
			ADD(c ? "b[" : "w[");
			for (int ty = 0; ty < v->ntypes; ty++) {
				int cnt = area ? p->prison[c][ty] : p->hand[c][ty];
				if (cnt) {
					symbol_text(v, ty, c, t, sizeof t);
					ADD("%s%d", t, cnt);
				}
			}
			ADD("]");
		}
	}
	ADD(" side:%c castle:", p->side ? 'b' : 'w');
	for (int c = 0; c < 2; c++) {
		ADD(c ? "b[" : "w[");
		for (int i = 0; i < v->ncastle; i++) {
			if (p->castle[c][i][0] < 0)
				ADD("%s-", i ? "," : "");
			else {
				sq_text(p->castle[c][i][0], p->castle[c][i][1], t);
				ADD("%s%s", i ? "," : "", t);
			}
		}
		ADD("]");
	}
	ADD(" ep:");
	for (int i = 0; i < p->nep; i++) {
		sq_text(p->ep[i][0], p->ep[i][1], t);
		ADD("%s%s", i ? "," : "", t);
	}
	if (!p->nep)
		ADD("-");
	if (p->epvictim[0] >= 0) {
		sq_text(p->epvictim[0], p->epvictim[1], t);
		ADD(" victim:%s", t);
	} else
		ADD(" victim:-");
#undef ADD
	return (int)k;
}
