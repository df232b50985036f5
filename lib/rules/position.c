/*
 * rules/position.c - positions: the board with its piece lists, reserves,
 * castling rights, en-passant targets, counters and a Zobrist hash; make
 * and unmake with a full undo record.  Position strings are read and
 * written in fen.c, above move generation.
 *
 * Two-square pieces (walls) stand on both their squares, linked by the
 * squares' link bits (vc_rules.h); a capture on either square takes both.
 *
 * Invariants: plist[c][pidx[sq]] == sq for every occupied square of colour
 * c; two[c] holds the anchor of each of c's two-square pieces, whose two
 * squares point at each other; king[c] is the square of c's royal piece or
 * -1; hash equals
 * vc_pos_compute_hash(); every make is undone by exactly one unmake, in
 * reverse order, restoring the position byte for byte in the fields above.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

static inline uint64_t zkey(const struct vc_variant *v, uint8_t code, int sq)
{
	return v->zobrist[(size_t)code * (size_t)v->nsq + (size_t)sq];
}

/* The link bits of a square of a two-square piece: their hash key, and
 * the anchors' list (see vc_rules.h). */
static void link_note(struct vc_position *p, int sq, int c, uint8_t flags, int add)
{
	int d = vc_link_of(flags);
	p->hash ^= p->v->zob_link[(size_t)sq * 8 + (size_t)(d - 1)];
	if (c > 1 || !vc_link_is_anchor(flags))
		return;
	if (add) {
		if (p->ntwo[c] < VC_MAXTWO)
			p->two[c][p->ntwo[c]++] = (int16_t)sq;
		return;
	}
	for (int i = 0; i < p->ntwo[c]; i++)
		if (p->two[c][i] == sq) {
			p->two[c][i] = p->two[c][--p->ntwo[c]];
			break;
		}
}

void vc_pos_put(struct vc_position *p, int sq, uint8_t code, uint8_t flags)
{
	int c = vc_code_color(code);
	p->board[sq] = code;
	p->sqf[sq] = flags;
	if (p->v->bbm)
		vc_bb_flip(p, sq, code);
	p->pidx[sq] = p->npl[c];
	p->plist[c][p->npl[c]++] = (int16_t)sq;
	p->hash ^= zkey(p->v, code, sq);
	if (flags & VC_SQF_FIRST)
		p->hash ^= vc_first_key(p->v, sq);
	if (flags & VC_SQF_LINKMASK)
		link_note(p, sq, c, flags, 1);
	if (c < 2 && (p->v->types[vc_code_type(code)].props & VC_P_ROYAL) && p->king[c] < 0)
		p->king[c] = (int16_t)sq;
}

void vc_pos_remove(struct vc_position *p, int sq)
{
	uint8_t code = p->board[sq];
	int c = vc_code_color(code);
	int i = p->pidx[sq];
	int last = p->plist[c][--p->npl[c]];
	p->plist[c][i] = (int16_t)last;
	p->pidx[last] = (int16_t)i;
	if (p->sqf[sq] & VC_SQF_LINKMASK)
		link_note(p, sq, c, p->sqf[sq], 0);
	if (p->sqf[sq] & VC_SQF_FIRST)
		p->hash ^= vc_first_key(p->v, sq);
	p->board[sq] = VC_EMPTY;
	p->sqf[sq] = 0;
	p->hash ^= zkey(p->v, code, sq);
	if (p->v->bbm)
		vc_bb_flip(p, sq, code);
	if (c < 2 && p->king[c] == sq)
		p->king[c] = -1;
}

/* the other square of a two-square piece on sq with flags fl */
static inline int linked_square(const struct vc_variant *v, int sq, uint8_t fl)
{
	int d = vc_link_of(fl);
	return sq + vc_link_dx(d) + vc_link_dy(d) * v->files;
}


/* moves a piece without touching the hash of anything but the piece */
static inline void move_piece(struct vc_position *p, int from, int to)
{
	uint8_t code = p->board[from];
	int c = vc_code_color(code);
	int i = p->pidx[from];
	p->plist[c][i] = (int16_t)to;
	p->pidx[to] = (int16_t)i;
	p->board[to] = code;
	p->sqf[to] = p->sqf[from] & (uint8_t)~VC_SQF_FIRST; /* a piece that moves loses its right */
	if (p->sqf[from] & VC_SQF_FIRST)
		p->hash ^= vc_first_key(p->v, from);
	p->board[from] = VC_EMPTY;
	p->sqf[from] = 0;
	p->hash ^= zkey(p->v, code, from) ^ zkey(p->v, code, to);
	if (p->v->bbm) {
		vc_bb_flip(p, from, code);
		vc_bb_flip(p, to, code);
	}
	if (c < 2 && p->king[c] == from)
		p->king[c] = (int16_t)to;
}

uint64_t vc_pos_compute_hash(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	uint64_t h = 0;
	/* every occupied square is in its colour's piece list (vc_pos_put) */
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = p->plist[c][i];
			h ^= zkey(v, p->board[sq], sq);
			if (p->sqf[sq] & VC_SQF_LINKMASK)
				h ^= v->zob_link[(size_t)sq * 8 + (size_t)(vc_link_of(p->sqf[sq]) - 1)];
			if (p->sqf[sq] & VC_SQF_FIRST)
				h ^= vc_first_key(v, sq);
		}
	if (p->side)
		h ^= v->zob_side;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[s][i] >= 0)
				h ^= v->zob_castle[s][i];
	for (int i = 0; i < p->nep; i++)
		h ^= v->zob_ep[p->ep[i]];
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < v->nreserve; r++)
			for (int t = 0; t < v->ntypes; t++)
				h ^= v->zob_res[s][r][t] * p->res[s][r][t];
	for (int s = 0; s < 2; s++) {
		h ^= v->zob_checks[s] * p->checks[s];
		for (int f = 0; f < v->files; f++)
			if (p->gates[s] >> f & 1)
				h ^= v->zob_gate[s][f];
	}
	return h;
}

void vc_pos_clear(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	struct vc_undo *u = p->undo;
	int cap = p->capundo;
	memset(p, 0, sizeof *p);
	p->v = v;
	p->undo = u;
	p->capundo = cap;
	p->king[0] = p->king[1] = -1;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < VC_MAXCASTLE; i++)
			p->castle[s][i] = -1;
	p->epvictim = -1;
	p->fullmove = 1;
}

struct vc_position *vc_position_new(const struct vc_variant *v)
{
	struct vc_position *p = vc_calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->v = v;
	vc_pos_clear(p);
	vc_position_start(p);
	return p;
}

void vc_position_start(struct vc_position *p)
{
	if (p->v->start_pos)
		vc_position_copy(p, p->v->start_pos);
	else
		vc_pos_clear(p);
}

void vc_position_free(struct vc_position *p)
{
	if (!p)
		return;
	free(p->undo);
	free(p);
}

void vc_position_copy(struct vc_position *dst, const struct vc_position *src)
{
	struct vc_undo *u = dst->undo;
	int cap = dst->capundo;
	memcpy(dst, src, sizeof *dst);
	dst->undo = u;
	dst->capundo = cap;
	dst->nundo = 0;
}

const struct vc_variant *vc_position_variant(const struct vc_position *p) { return p->v; }
int vc_position_side(const struct vc_position *p) { return p->side; }
uint64_t vc_position_hash(const struct vc_position *p) { return p->hash; }
long vc_position_ply(const struct vc_position *p) { return p->ply; }
int vc_position_depth(const struct vc_position *p) { return p->nundo; }

int vc_position_piece_at(const struct vc_position *p, int sq, int *color)
{
	if (sq < 0 || sq >= p->v->nsq || !p->board[sq])
		return -1;
	if (color)
		*color = vc_code_color(p->board[sq]);
	return vc_code_type(p->board[sq]);
}

int vc_position_plies_to_transform(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	if (!(v->rules & VC_R_SWAP_HALVES) || v->swap_period <= 0)
		return -1;
	int per = v->swap_period;
	int r = (int)((p->ply - v->swap_offset) % per);
	if (r < 0)
		r += per;
	return per - r;
}

/* ---- make and unmake ---- */

/* Changes a reserve count, keeping the hash and the undo record. */
static void res_add(struct vc_position *p, struct vc_undo *u, int side, int area, int t, int d)
{
	uint64_t z = p->v->zob_res[side][area][t];
	p->hash ^= z * p->res[side][area][t];
	p->res[side][area][t] = (uint8_t)(p->res[side][area][t] + d);
	p->hash ^= z * p->res[side][area][t];
	if (u->nreschg < VC_NELEM(u->reschg)) {
		u->reschg[u->nreschg][0] = (int8_t)side;
		u->reschg[u->nreschg][1] = (int8_t)area;
		u->reschg[u->nreschg][2] = (int8_t)t;
		u->reschg[u->nreschg][3] = (int8_t)d;
		u->nreschg++;
	}
}

/* Do both prisons (area 1) hold a piece of one kind?  Eight kinds at a
 * time: the top bit of each byte of a word set where the byte is not 0. */
static inline int prisoners_pair(const struct vc_position *p)
{
	const uint64_t hi = 0x8080808080808080ULL, lo = 0x7f7f7f7f7f7f7f7fULL;
	for (int t = 0; t < p->v->ntypes; t += 8) {
		uint64_t a = 0, b = 0;
		size_t n = t + 8 <= VC_MAXT ? 8 : (size_t)(VC_MAXT - t);
		memcpy(&a, &p->res[VC_WHITE][1][t], n);
		memcpy(&b, &p->res[VC_BLACK][1][t], n);
		if ((((a & lo) + lo) | a) & (((b & lo) + lo) | b) & hi)
			return 1;
	}
	return 0;
}

/* SC-Chess exchange: while both prisons hold a piece of one kind, each goes
 * to its owner's airfield (area 0; the prison is area 1).  One pass: an
 * exchange fills airfields, never a prison. */
static void exchange_prisoners(struct vc_position *p, struct vc_undo *u)
{
	const struct vc_variant *v = p->v;
	for (int t = 0; t < v->ntypes; t++)
		while (p->res[VC_WHITE][1][t] && p->res[VC_BLACK][1][t]) {
			res_add(p, u, VC_WHITE, 1, t, -1); /* a black piece leaves White's prison */
			res_add(p, u, VC_BLACK, 0, t, 1);
			res_add(p, u, VC_BLACK, 1, t, -1);
			res_add(p, u, VC_WHITE, 0, t, 1);
		}
}

/* The Kirby death rule: a side with nothing left but royal pieces, pieces
 * that die alone (Kirbies) and walls (immobile and uncapturable) loses its
 * Kirbies for good: they stay as obstacles, flagged dead.  u may be NULL
 * (a position being set up). */
void vc_pos_kirby_death(struct vc_position *p, struct vc_undo *u)
{
	const struct vc_variant *v = p->v;
	for (int c = 0; c < 2; c++) {
		int others = 0, kirbies = 0;
		for (int i = 0; i < p->npl[c] && !others; i++) {
			int sq = p->plist[c][i];
			unsigned props = v->types[vc_code_type(p->board[sq])].props;
			if (props & VC_P_DIES_ALONE)
				kirbies += !(p->sqf[sq] & VC_SQF_DEAD);
			else
				others = !(props & VC_P_ROYAL) &&
					 (props & (VC_P_IMMOBILE | VC_P_UNCAPTURABLE)) !=
						 (VC_P_IMMOBILE | VC_P_UNCAPTURABLE);
		}
		if (others || !kirbies) /* the first other piece settles it */
			continue;
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = p->plist[c][i];
			if (!(v->types[vc_code_type(p->board[sq])].props & VC_P_DIES_ALONE) ||
			    (p->sqf[sq] & VC_SQF_DEAD))
				continue;
			if (u && u->nchg < VC_NELEM(u->chgsq)) {
				u->chgsq[u->nchg] = (int16_t)sq;
				u->chgold[u->nchg][0] = p->board[sq];
				u->chgold[u->nchg][1] = p->sqf[sq];
				u->nchg++;
			}
			p->sqf[sq] |= VC_SQF_DEAD;
		}
	}
}

/* Takes the piece on sq off the board, both squares of a two-square one,
 * keeping them in the undo record. */
static void capture_two(struct vc_position *p, struct vc_undo *u, int sq)
{
	int sqs[2] = { sq, -1 };
	if (p->sqf[sq] & VC_SQF_LINKMASK)
		sqs[1] = linked_square(p->v, sq, p->sqf[sq]);
	for (int k = 0; k < 2 && sqs[k] >= 0; k++) {
		if (u->nx < VC_NELEM(u->xsq)) {
			u->xsq[u->nx] = (int16_t)sqs[k];
			u->xold[u->nx][0] = p->board[sqs[k]];
			u->xold[u->nx][1] = p->sqf[sqs[k]];
			u->nx++;
		}
		vc_pos_remove(p, sqs[k]);
	}
}

static int grow_undo(struct vc_position *p)
{
	int nc = p->capundo ? p->capundo * 2 : 64;
	struct vc_undo *nu = realloc(p->undo, (size_t)nc * sizeof *nu);
	if (!nu)
		return -1;
	p->undo = nu;
	p->capundo = nc;
	return 0;
}

static void swap_halves(struct vc_position *p, int undo);

/* The undo record of m: what make changes and unmake puts back. */
static inline void save_undo(struct vc_undo *u, const struct vc_position *p, const vc_move *m)
{
	u->m = *m;
	u->captured = 0;
	u->capflags = 0;
	u->capsq = -1;
	u->king[0] = p->king[0];
	u->king[1] = p->king[1];
	memcpy(u->castle, p->castle, sizeof u->castle);
	memcpy(u->ep, p->ep, sizeof u->ep);
	u->nep = p->nep;
	u->epvictim = p->epvictim;
	u->halfmove = p->halfmove;
	u->count_limit = p->count_limit;
	u->count_ply = p->count_ply;
	u->hash = p->hash;
	u->nreschg = 0;
	u->nchg = 0;
	u->nx = 0;
	u->xsrc_flags = 0;
	u->swapped = 0;
	u->nblast = 0;
	u->checks[0] = p->checks[0];
	u->checks[1] = p->checks[1];
	u->gates[0] = p->gates[0];
	u->gates[1] = p->gates[1];
}

/* castling-from-drops: a royal piece dropped on its castling square gets
 * the right of each side whose partner stands on the partner's square, and
 * a partner dropped there gets its side's right when the royal piece
 * stands on its square (fixed-style castling; Black's squares mirrored). */
static void drop_rights(struct vc_position *p, int side, int t, int to)
{
	const struct vc_variant *v = p->v;
	int mirror = side == VC_BLACK;
	int ksq = v->castle_king;
	if (ksq < 0 || v->castle_style != VC_CASTLE_FIXED)
		return;
	if (mirror)
		ksq = vc_sq_mirror(v, ksq);
	if (p->board[ksq] != vc_code(v->castle_type, side))
		return;
	for (int i = 0; i < v->ncastle; i++) {
		int psq = v->castle[i].partner;
		if (mirror)
			psq = vc_sq_mirror(v, psq);
		uint8_t c = p->board[psq];
		if ((to == ksq || to == psq) && c && vc_code_color(c) == side &&
		    (!v->castle_partners || (v->castle_partners >> vc_code_type(c) & 1)) &&
		    (to == ksq ? t == v->castle_type : t == vc_code_type(c)))
			p->castle[side][i] = (int16_t)psq;
	}
}

/* A drop: a piece from the reserve area m->extra onto the board. */
static inline void make_drop(struct vc_position *p, struct vc_undo *u, const vc_move *m, int side)
{
	res_add(p, u, side, m->extra, m->piece, -1);
	/* dropped '+' face up (drop-promoted): its symbol says it all */
	vc_pos_put(p, m->to, vc_code(m->promo ? m->promo - 1 : m->piece, side), 0);
	if (p->v->types[m->piece].props & VC_P_PAWN)
		p->halfmove = 0;
	if (p->v->rules & VC_R_CASTLE_DROPS)
		drop_rights(p, side, m->piece, m->to);
}

/* A two-square piece: lifted off both squares, its new squares emptied
 * (each capture takes a whole two-square victim), then put down, promoted
 * if either new square is in its zone. */
static void make_wall(struct vc_position *p, struct vc_undo *u, const vc_move *m, int side,
		      int live)
{
	const struct vc_variant *v = p->v;
	int a = m->from, b = m->from2, dest[2] = { m->to, m->to2 };
	uint8_t code = p->board[a];
	uint8_t keep = p->sqf[a] & (uint8_t)~VC_SQF_LINKMASK;
	u->twoflags[0] = p->sqf[a];
	u->twoflags[1] = p->sqf[b];
	vc_pos_remove(p, a);
	vc_pos_remove(p, b);
	for (int k = 0; k < 2; k++)
		if (p->board[dest[k]]) {
			capture_two(p, u, dest[k]);
			p->halfmove = 0;
		}
	if (m->promo) {
		code = vc_code(m->promo - 1, side);
		keep |= VC_SQF_PROMOTED;
	}
	int d = vc_link_dir(m->to2 % v->files - m->to % v->files,
			    m->to2 / v->files - m->to / v->files);
	vc_pos_put(p, m->to, code, (uint8_t)(keep | vc_link_flags(d)));
	vc_pos_put(p, m->to2, code, (uint8_t)(keep | vc_link_flags(vc_link_opposite(d))));
	if (live)
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < v->ncastle; i++)
				if (p->castle[c][i] == m->to || p->castle[c][i] == m->to2)
					p->castle[c][i] = -1;
}

/* Castling: king and partner to their squares, the partner maybe turned
 * into another type; the side's rights are gone. */
static inline void make_castle(struct vc_position *p, struct vc_undo *u, const vc_move *m,
			       int side)
{
	const struct vc_variant *v = p->v;
	int ksq = m->from, rsq = m->aux;
	uint8_t kc = p->board[ksq], rc = p->board[rsq];
	uint8_t kf = p->sqf[ksq], rf = p->sqf[rsq];
	u->captured = rc; /* the partner as it was, for unmake */
	u->capflags = rf;
	u->movedflags = kf;
	vc_pos_remove(p, ksq);
	vc_pos_remove(p, rsq);
	/* both have moved: first-move rights go */
	kf &= (uint8_t)~VC_SQF_FIRST;
	rf &= (uint8_t)~VC_SQF_FIRST;
	vc_pos_put(p, m->to, kc, kf);
	int rt = vc_code_type(rc);
	int becomes = v->castle[m->extra].becomes;
	if (becomes >= 0)
		rt = becomes;
	vc_pos_put(p, m->to2, vc_code(rt, side), rf);
	for (int i = 0; i < v->ncastle; i++)
		p->castle[side][i] = -1;
}

/* The piece on capsq taken (both squares of a two-square one), kept in the
 * undo record; where the rules say so, into a reserve. */
static inline void take_victim(struct vc_position *p, struct vc_undo *u, int side, int capsq)
{
	const struct vc_variant *v = p->v;
	u->captured = p->board[capsq];
	u->capflags = p->sqf[capsq];
	u->capsq = (int16_t)capsq;
	vc_pos_remove(p, capsq);
	if (u->capflags & VC_SQF_LINKMASK) {
		/* a two-square piece taken through one square: the other too */
		int o = linked_square(v, capsq, u->capflags);
		u->xsq[0] = (int16_t)o;
		u->xold[0][0] = p->board[o];
		u->xold[0][1] = p->sqf[o];
		u->nx = 1;
		vc_pos_remove(p, o);
	}
	p->halfmove = 0;
	int ct = vc_code_type(u->captured);
	if (v->rules & VC_R_CAPTURE_TO_HAND) {
		/* a promoted piece: as the pawn, its unpromoted kind, or kept */
		if (v->captured_promoted == VC_HAND_UNPROMOTED && v->types[ct].demote_to >= 0)
			ct = v->types[ct].demote_to;
		else if (v->captured_promoted == VC_HAND_PAWN && (u->capflags & VC_SQF_PROMOTED) &&
			 v->pawn_type >= 0)
			ct = v->pawn_type;
		res_add(p, u, side, 0, ct, 1);
	} else if (v->rules & VC_R_PRISON) {
		/* an enemy to the captor's prison, an own piece to the owner's
		 * airfield */
		if (vc_code_color(u->captured) == side)
			res_add(p, u, side, 0, ct, 1);
		else
			res_add(p, u, side, 1, ct, 1);
	}
}

/* Promotion by exchange: the pawn (type pawn, now on m->to) and one of its
 * side's pieces trade places; m->aux: a square, -2 the airfield, -3 the
 * enemy prison. */
static void make_exchange(struct vc_position *p, struct vc_undo *u, const vc_move *m, int side,
			  int pawn)
{
	const struct vc_variant *v = p->v;
	int pt = m->promo - 1, to = m->to;
	vc_pos_remove(p, to);
	if (m->aux >= 0) {
		u->xsrc_flags = p->sqf[m->aux];
		vc_pos_remove(p, m->aux);
		vc_pos_put(p, m->aux, vc_code(pawn, side), 0);
		/* a castling partner that leaves its square loses its right */
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[side][i] == m->aux)
				p->castle[side][i] = -1;
	} else if (m->aux == -2) {
		res_add(p, u, side, 0, pt, -1);
		res_add(p, u, side, 0, pawn, 1);
	} else {
		res_add(p, u, side ^ 1, 1, pt, -1);
		res_add(p, u, side ^ 1, 1, pawn, 1);
	}
	vc_pos_put(p, to, vc_code(pt, side), 0);
}

/* Castling rights after an ordinary move of a piece of type mt: a king
 * move loses all, a partner's move or capture loses its own. */
static inline void lose_rights(struct vc_position *p, int side, int mt, int from, int to)
{
	const struct vc_variant *v = p->v;
	if (mt == v->castle_type) {
		for (int i = 0; i < v->ncastle; i++)
			p->castle[side][i] = -1;
	}
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[c][i] == from || p->castle[c][i] == to)
				p->castle[c][i] = -1;
}

/* A multi-square step that can be taken en passant leaves its crossed
 * squares as targets, and the piece that made it as their victim. */
static inline void leave_ep_targets(struct vc_position *p, int from, int to)
{
	const struct vc_variant *v = p->v;
	int ff = from % v->files, fr = from / v->files;
	int tf = to % v->files, tr = to / v->files;
	int dx = (tf > ff) - (tf < ff), dy = (tr > fr) - (tr < fr);
	int f = ff + dx, r = fr + dy;
	while ((f != tf || r != tr) && p->nep < VC_MAXEP) {
		int sq = vc_sq(v->files, f, r);
		p->ep[p->nep++] = (int16_t)sq;
		p->hash ^= v->zob_ep[sq];
		f += dx;
		r += dy;
	}
	p->epvictim = (int16_t)to;
}

/* An explosion (rule explosion): after a capture on 'to', the capturer and
 * every piece on the eight squares around it leave the board, but those
 * the variant spares (pawns in atomic) and uncapturable ones; castling
 * rights go with the partners and kings blown away. */
static void explode(struct vc_position *p, struct vc_undo *u, int to)
{
	const struct vc_variant *v = p->v;
	int f0 = to % v->files, r0 = to / v->files, n = 0;
	u->blastsq[n++] = (int16_t)to; /* the capturer, first */
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int f = f0 + dx, r = r0 + dy, sq = vc_sq(v->files, f, r);
			if ((!dx && !dy) || f < 0 || r < 0 || f >= v->files || r >= v->ranks ||
			    !p->board[sq])
				continue;
			int t = vc_code_type(p->board[sq]);
			if (!(v->explode_spare >> t & 1) && !(v->types[t].props & VC_P_UNCAPTURABLE))
				u->blastsq[n++] = (int16_t)sq;
		}
	for (int k = 0; k < n; k++) {
		int sq = u->blastsq[k];
		uint8_t c = p->board[sq];
		int col = vc_code_color(c);
		u->blastold[k][0] = c;
		u->blastold[k][1] = p->sqf[sq];
		if (col < 2 && vc_code_type(c) == v->castle_type)
			for (int i = 0; i < v->ncastle; i++)
				p->castle[col][i] = -1;
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < v->ncastle; i++)
				if (p->castle[s][i] == sq)
					p->castle[s][i] = -1;
		vc_pos_remove(p, sq);
	}
	u->nblast = (uint8_t)n;
}

/* An ordinary move: a capture (en passant too), the step, a promotion by
 * exchange, by choice or by itself (or a vampire's change of type), and
 * what follows from it: prisoners exchanged, rights lost, targets left. */
static inline void make_ordinary(struct vc_position *p, struct vc_undo *u, const vc_move *m,
				 int side, int live)
{
	const struct vc_variant *v = p->v;
	int from = m->from, to = m->to;
	uint8_t mover = p->board[from];
	int mt = vc_code_type(mover);
	u->movedflags = p->sqf[from];
	int capsq = (m->flags & VC_MF_EP) ? u->epvictim : to;
	if (capsq >= 0 && p->board[capsq] && capsq != from)
		take_victim(p, u, side, capsq);
	if (from != to) /* a promotion in place (promotion as-move) stays */
		move_piece(p, from, to);
	if (v->types[mt].props & VC_P_PAWN)
		p->halfmove = 0;
	if (m->flags & VC_MF_XPROMO) {
		make_exchange(p, u, m, side, mt);
	} else if (m->promo) {
		int pt = m->promo - 1;
		/* a vampire's change of type is no promotion (nothing to undo
		 * when it is captured) */
		uint8_t fl = (m->flags & VC_MF_PROMO) ? p->sqf[to] | VC_SQF_PROMOTED : p->sqf[to];
		if (v->types[mt].demote_to == pt) /* turned back over (flip) */
			fl &= (uint8_t)~VC_SQF_PROMOTED;
		vc_pos_remove(p, to);
		vc_pos_put(p, to, vc_code(pt, side), fl);
	}
	if ((v->rules & VC_R_PRISON) && prisoners_pair(p))
		exchange_prisoners(p, u);
	if (live)
		lose_rights(p, side, mt, from, to);
	if ((v->rules & VC_R_EXPLOSION) && (m->flags & VC_MF_CAPTURE))
		explode(p, u, to);
	if ((m->flags & VC_MF_DOUBLE) && (v->rules & VC_R_EP))
		leave_ep_targets(p, from, to);
}

/* The square a gating move's piece enters: the one the mover left, or in
 * castling the partner's when the move says so. */
static inline int gate_square(const vc_move *m)
{
	return (m->flags & VC_MF_GATE_PARTNER) ? m->aux : m->from;
}

/* Gating, after the move of side: the piece from the hand onto the square
 * left, and the rights of the squares the move left or took on gone (a
 * right belongs to the piece that has not yet moved from its square).  A
 * side without a piece in hand has no right left, unless captures may
 * fill the hand again. */
static void make_gate(struct vc_position *p, struct vc_undo *u, const vc_move *m, int side)
{
	const struct vc_variant *v = p->v;
	if (m->flags & VC_MF_GATE) {
		res_add(p, u, side, 0, m->gate, -1);
		vc_pos_put(p, gate_square(m), vc_code(m->gate, side), 0);
	}
	int sqs[4] = { m->from, m->to, (m->flags & VC_MF_CASTLE) ? m->aux : -1, u->capsq };
	for (int c = 0; c < 2; c++) {
		uint32_t g = p->gates[c];
		int row = c == VC_WHITE ? 0 : v->ranks - 1;
		for (int k = 0; k < 4; k++)
			if (sqs[k] >= 0 && sqs[k] / v->files == row)
				g &= ~(1u << (sqs[k] % v->files));
		if (g && !(v->rules & VC_R_CAPTURE_TO_HAND)) {
			int any = 0;
			for (int t = 0; t < v->ntypes && !any; t++)
				any = p->res[c][0][t] != 0;
			if (!any)
				g = 0;
		}
		for (int f = 0; f < v->files; f++)
			if ((g ^ p->gates[c]) >> f & 1)
				p->hash ^= v->zob_gate[c][f];
		p->gates[c] = g;
	}
}

/* Pieces of type t that side c has on the board. */
static int count_type(const struct vc_position *p, int c, int t)
{
	int n = 0;
	for (int i = 0; i < p->npl[c]; i++)
		n += vc_code_type(p->board[p->plist[c][i]]) == t;
	return n;
}

/* Is a pawn on the board? */
static int pawn_on_board(const struct vc_position *p)
{
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < p->npl[c]; i++)
			if (p->v->types[vc_code_type(p->board[p->plist[c][i]])].props & VC_P_PAWN)
				return 1;
	return 0;
}

/* The count's limit in full moves for side s, the side to move (0: none):
 * none while the other side is bare or, where no-pawns says so, while a
 * pawn is on the board; the board's honour while s is not bare; else the
 * first row of the pieces' honour that the other side's pieces meet. */
static int count_moves(const struct vc_position *p, int s)
{
	const struct vc_end_rules *e = &p->v->end;
	if (p->npl[s ^ 1] == 1 || (p->npl[s] > 1 && !e->count_board))
		return 0;
	if (e->count_no_pawns && pawn_on_board(p))
		return 0;
	if (p->npl[s] > 1)
		return e->count_board;
	for (int r = 0; r < e->ncount_rows; r++) {
		const struct vc_count_row *row = &e->count_rows[r];
		int ok = 1;
		for (int i = 0; i < row->n && ok; i++)
			ok = count_type(p, s ^ 1, row->type[i]) >= row->need[i];
		if (ok)
			return row->moves;
	}
	return 0;
}

/* The count after a move (the side to move now p->side), as
 * Fairy-Stockfish 11.1 keeps it, limit and count in plies: a running count
 * goes on; one starts where none runs and the side to move may count, or
 * again when a capture leaves the side to move bare (a count found then
 * replaces the running one, none leaves it).  A bare king's count starts
 * at the number of pieces on the board where start: pieces says so. */
static void count_after(struct vc_position *p, int captured)
{
	int s = p->side, bare = p->npl[s] == 1, moves;
	if (p->count_limit) {
		p->count_ply++;
		if (!(captured && bare))
			return;
	}
	if (!(moves = count_moves(p, s)))
		return;
	p->count_limit = (int16_t)(2 * moves);
	p->count_ply =
		(int16_t)(bare && p->v->end.count_from_pieces ? 2 * (p->npl[0] + p->npl[1]) : 0);
}

/* Has side c a piece of type t on the board? */
static int holds_type(const struct vc_position *p, int c, int t)
{
	for (int i = 0; i < p->npl[c]; i++)
		if (vc_code_type(p->board[p->plist[c][i]]) == t)
			return 1;
	return 0;
}

/* After the move of side: the castling rights' hash (the difference since
 * the undo record), the turn, the counters, and the mechanics that act
 * between plies. */
static inline void end_ply(struct vc_position *p, struct vc_undo *u, int side, int live)
{
	const struct vc_variant *v = p->v;
	if (live && v->castle_type == v->king_type)
		for (int c = 0; c < 2; c++)
			if (p->king[c] < 0 && !holds_type(p, c, v->castle_type))
				/* taken (in a position set up in check): no right
				 * is left to castle with it */
				for (int i = 0; i < v->ncastle; i++)
					p->castle[c][i] = -1;
	if (live)
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < v->ncastle; i++)
				if ((u->castle[c][i] >= 0) != (p->castle[c][i] >= 0))
					p->hash ^= v->zob_castle[c][i];
	p->side ^= 1;
	p->hash ^= v->zob_side;
	if (side == VC_BLACK)
		p->fullmove++;
	p->ply++;
	if ((v->rules & VC_R_SWAP_HALVES) && vc_position_plies_to_transform(p) == v->swap_period) {
		swap_halves(p, 0);
		u->swapped = 1;
	}
	if (v->rules & VC_R_KIRBY_DEATH)
		vc_pos_kirby_death(p, u);
	if (v->end.checks && vc_in_check(p, p->side)) {
		p->hash ^= v->zob_checks[side] * p->checks[side];
		p->checks[side]++;
		p->hash ^= v->zob_checks[side] * p->checks[side];
	}
	if (v->end.counting)
		count_after(p, u->captured != 0);
}

/* Returns 0, or -1 when out of memory (nothing changed). */
int vc_pos_make(struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	if (p->nundo == p->capundo && grow_undo(p) != 0)
		return -1;
	struct vc_undo *u = &p->undo[p->nundo++];
	int side = p->side;
	/* any castling right left?  (all -1 is all bits set) */
	uint64_t cw[2];
	_Static_assert(sizeof p->castle == sizeof cw, "castling rights are 16 bytes");
	memcpy(cw, p->castle, sizeof cw);
	int live = v->ncastle && ((cw[0] & cw[1]) != ~0ULL || (v->rules & VC_R_CASTLE_DROPS));
	save_undo(u, p, m);
	/* the last move's en-passant targets go */
	for (int i = 0; i < p->nep; i++)
		p->hash ^= v->zob_ep[p->ep[i]];
	p->nep = 0;
	p->epvictim = -1;
	p->halfmove++;
	if (m->flags & VC_MF_NULL) {
		/* a pass: nothing moves */
	} else if (m->flags & VC_MF_DROP) {
		make_drop(p, u, m, side);
	} else if (m->flags & VC_MF_WALL) {
		make_wall(p, u, m, side, live);
	} else if (m->flags & VC_MF_CASTLE) {
		make_castle(p, u, m, side);
	} else {
		make_ordinary(p, u, m, side, live);
	}
	if (v->rules & VC_R_GATING)
		make_gate(p, u, m, side);
	end_ply(p, u, side, live);
	return 0;
}

void vc_pos_unmake(struct vc_position *p)
{
	struct vc_undo *u = &p->undo[--p->nundo];
	const vc_move *m = &u->m;
	for (int i = u->nchg - 1; i >= 0; i--)
		p->sqf[u->chgsq[i]] = u->chgold[i][1];
	if (u->swapped) /* the hash comes back from the undo record */
		swap_halves(p, 1);
	p->side ^= 1;
	p->ply--;
	int side = p->side;
	if (side == VC_BLACK)
		p->fullmove--;
	if (m->flags & VC_MF_GATE)
		vc_pos_remove(p, gate_square(m));
	p->gates[0] = u->gates[0];
	p->gates[1] = u->gates[1];
	if (m->flags & VC_MF_NULL) {
	} else if (m->flags & VC_MF_DROP) {
		vc_pos_remove(p, m->to);
	} else if (m->flags & VC_MF_WALL) {
		uint8_t code = vc_code(m->piece, side);
		vc_pos_remove(p, m->to);
		vc_pos_remove(p, m->to2);
		for (int i = u->nx - 1; i >= 0; i--)
			vc_pos_put(p, u->xsq[i], u->xold[i][0], u->xold[i][1]);
		vc_pos_put(p, m->from, code, u->twoflags[0]);
		vc_pos_put(p, m->from2, code, u->twoflags[1]);
	} else if (m->flags & VC_MF_CASTLE) {
		uint8_t kc = p->board[m->to];
		vc_pos_remove(p, m->to);
		vc_pos_remove(p, m->to2);
		vc_pos_put(p, m->from, kc, u->movedflags);
		vc_pos_put(p, m->aux, u->captured, u->capflags);
	} else {
		for (int i = u->nblast - 1; i >= 0; i--) /* the mover back last */
			vc_pos_put(p, u->blastsq[i], u->blastold[i][0], u->blastold[i][1]);
		if (m->promo) {
			if ((m->flags & VC_MF_XPROMO) && m->aux >= 0) {
				vc_pos_remove(p, m->aux);
				vc_pos_put(p, m->aux, vc_code(m->promo - 1, side), u->xsrc_flags);
			}
			vc_pos_remove(p, m->to);
			vc_pos_put(p, m->to, vc_code(m->piece, side), u->movedflags);
		}
		if (m->from != m->to)
			move_piece(p, m->to, m->from);
		p->sqf[m->from] = u->movedflags;
		if (u->captured) {
			vc_pos_put(p, u->capsq, u->captured, u->capflags);
			/* the other square of a two-square piece taken */
			for (int i = u->nx - 1; i >= 0; i--)
				vc_pos_put(p, u->xsq[i], u->xold[i][0], u->xold[i][1]);
		}
	}
	for (int i = u->nreschg - 1; i >= 0; i--)
		p->res[u->reschg[i][0]][u->reschg[i][1]][u->reschg[i][2]] =
			(uint8_t)(p->res[u->reschg[i][0]][u->reschg[i][1]][u->reschg[i][2]] -
				  u->reschg[i][3]);
	memcpy(p->castle, u->castle, sizeof u->castle);
	memcpy(p->ep, u->ep, sizeof u->ep);
	p->nep = u->nep;
	p->epvictim = u->epvictim;
	p->halfmove = u->halfmove;
	p->count_limit = u->count_limit;
	p->count_ply = u->count_ply;
	p->king[0] = u->king[0];
	p->king[1] = u->king[1];
	p->checks[0] = u->checks[0];
	p->checks[1] = u->checks[1];
	p->hash = u->hash;
}

/* The board halves swap places (rule swap-halves), or with undo swap
 * back: every square's piece and flags, the mirror, the piece lists, the
 * kings, the castling partners and the en-passant targets; the hash is
 * made anew (unmake takes it back from the undo record instead).  The
 * board turns from a copy of it. */
static void swap_halves(struct vc_position *p, int undo)
{
	const struct vc_variant *v = p->v;
	int shift = vc_swap_shift(v, undo);
	if (v->files == 8) {
		/* ranks of eight squares: each one word whose halves trade
		 * places, whatever the byte order */
		for (int a = 0; a < v->nsq; a += 8) {
			uint64_t wb, wf;
			memcpy(&wb, p->board + a, 8);
			memcpy(&wf, p->sqf + a, 8);
			wb = wb << 32 | wb >> 32;
			wf = wf << 32 | wf >> 32;
			memcpy(p->board + a, &wb, 8);
			memcpy(p->sqf + a, &wf, 8);
		}
	} else {
		uint8_t rb[VC_MAXSQ], rf[VC_MAXSQ];
		memcpy(rb, p->board, (size_t)v->nsq);
		memcpy(rf, p->sqf, (size_t)v->nsq);
		for (int a = 0; a < v->nsq; a += v->files)
			for (int f = 0, g = shift; f < v->files; f++, g = g + 1 < v->files ? g + 1 : 0) {
				p->board[a + g] = rb[a + f];
				p->sqf[a + g] = rf[a + f];
			}
	}
	if (v->bbm) {
		uint64_t low = v->swap_low[undo];
		p->bbocc = vc_bb_turned(p->bbocc, low, shift, v->files);
		for (int c = 0; c < 2; c++)
			for (int t = 0; t < VC_BB_MAXT; t++)
				p->bbt[c][t] = vc_bb_turned(p->bbt[c][t], low, shift, v->files);
	}
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < p->npl[c]; i++) {
			/* on eight files, file f + 4 mod 8 is f ^ 4 */
			int sq = v->files == 8 ? p->plist[c][i] ^ 4
					       : vc_swapped_square(v, p->plist[c][i], shift);
			p->plist[c][i] = (int16_t)sq;
			p->pidx[sq] = (int16_t)i;
		}
	for (int c = 0; c < 2; c++) {
		if (p->king[c] >= 0)
			p->king[c] = (int16_t)vc_swapped_square(v, p->king[c], shift);
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[c][i] >= 0)
				p->castle[c][i] = (int16_t)vc_swapped_square(v, p->castle[c][i], shift);
	}
	for (int i = 0; i < p->nep; i++)
		p->ep[i] = (int16_t)vc_swapped_square(v, p->ep[i], shift);
	if (p->epvictim >= 0)
		p->epvictim = (int16_t)vc_swapped_square(v, p->epvictim, shift);
	if (!undo)
		p->hash = vc_pos_compute_hash(p);
}

void vc_position_make(struct vc_position *p, const vc_move *m) { (void)vc_pos_make(p, m); }
void vc_position_unmake(struct vc_position *p)
{
	if (p->nundo > 0)
		vc_pos_unmake(p);
}
