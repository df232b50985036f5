/*
 * shogi_notation.c - moves written in shogi's Western notation, as
 * Fairy-Stockfish (ffish's Notation.SHOGI_HODGES, SHOGI_HODGES_NUMBER and
 * SHOGI_HOSKING) writes them; notation.c reads them back.
 *
 * Model: a move is the piece ('+' and the unpromoted piece's symbol for a
 * promoted one, which is how such a piece's symbol is spelt), the origin
 * square when another piece of the same kind (a promoted piece is of its
 * own kind) can legally go there too, promoting as the move does or not
 * promoting as it does not, a separator ('*' a drop, "'" in
 * Hosking's; 'x' a capture; '-' otherwise, but in Hosking's only after an
 * origin), the destination, then '+' for a promotion to the mover's own
 * '+' form, '-' for a return from it, '=' when the move could have
 * promoted and did not.  Files are numbered from the right, 1 up; ranks
 * lettered from the top, a up (Hodges), or numbered from the top (the
 * others).  No check mark.  Nothing here names a variant: the promoted
 * forms are the '+' types of the variant file.
 */
#include <stdio.h>
#include <string.h>

#include "rules/vc_rules.h"

/* The square sq as the style writes it, into s (at least 4 bytes). */
static void shogi_name(const struct vc_variant *v, int sq, int style, char *s)
{
	int f = sq % v->files, r = sq / v->files;
	s[0] = (char)('0' + v->files - f);
	s[1] = (char)(style == VC_SHOGI_HODGES ? 'a' + (v->ranks - 1 - r) : '0' + (v->ranks - r));
	s[2] = 0;
}

/* Can another piece of the mover's kind and side legally go to m->to,
 * promoting as the move does (or not, as it does not)?  A promotion that
 * only the mover can make needs no origin, as Fairy-Stockfish has it. */
static int shogi_others(struct vc_position *p, const vc_move *m)
{
	vc_move *mb = vc_scratch(VC_SCRATCH_SHOGI_OTHERS, VC_MAX_MOVES * sizeof *mb);
	const struct vc_variant *v = p->v;
	if (!mb)
		return 1; /* out of memory: the origin written, never ambiguous */
	for (int sq = 0; sq < v->nsq; sq++) {
		uint8_t c = p->board[sq];
		if (sq == m->from || !c || vc_code_type(c) != m->piece ||
		    vc_code_color(c) != p->side)
			continue;
		int nm = vc_gen_from(p, sq, mb);
		for (int i = 0; i < nm; i++)
			if (mb[i].to == m->to && mb[i].promo == m->promo &&
			    ((mb[i].flags ^ m->flags) & VC_MF_PROMO) == 0 &&
			    vc_move_legal(p, &mb[i]))
				return 1;
	}
	return 0;
}

/* Could the move from m->from to m->to have promoted to the mover's '+'
 * form? */
static int shogi_could_promote(struct vc_position *p, const vc_move *m)
{
	vc_move *mb = vc_scratch(VC_SCRATCH_SHOGI_PROMO, VC_MAX_MOVES * sizeof *mb);
	const struct vc_variant *v = p->v;
	int nm = mb ? vc_gen_from(p, m->from, mb) : 0; /* out of memory: no '=' */
	for (int i = 0; i < nm; i++)
		if (mb[i].to == m->to && (mb[i].flags & VC_MF_PROMO) && mb[i].promo &&
		    v->types[mb[i].promo - 1].demote_to == m->piece)
			return 1;
	return 0;
}

int vc_move_shogi(const struct vc_position *cp, const vc_move *m, int style, char *buf, size_t n)
{
	struct vc_position *p = (struct vc_position *)cp; /* made and unmade: unchanged */
	const struct vc_variant *v = p->v;
	char out[48], from[4], to[4];
	int k = 0;
	if (style < VC_SHOGI_HODGES || style > VC_SHOGI_HOSKING ||
	    (m->flags & (VC_MF_NULL | VC_MF_CASTLE | VC_MF_WALL | VC_MF_GATE | VC_MF_XPROMO)) ||
	    v->files > 9 || v->ranks > (style == VC_SHOGI_HODGES ? 26 : 9))
		return -1;
	shogi_name(v, m->to, style, to);
	if (m->flags & VC_MF_DROP) {
		/* a drop face up (drop-promoted) names the face: "+L*5c" */
		int t = (m->flags & VC_MF_PROMO) && m->promo ? m->promo - 1 : m->piece;
		k = snprintf(out, sizeof out, "%s%c%s", v->types[t].symbol,
			     style == VC_SHOGI_HOSKING ? '\'' : '*', to);
	} else {
		int origin = shogi_others(p, m);
		const char *sep = (m->flags & VC_MF_CAPTURE)            ? "x"
				  : style != VC_SHOGI_HOSKING || origin ? "-"
									: "";
		if (origin)
			shogi_name(v, m->from, style, from);
		const char *suffix = "";
		char promo[8] = "";
		if ((m->flags & VC_MF_PROMO) && m->promo) {
			int t = m->promo - 1;
			if (v->types[t].demote_to == m->piece)
				suffix = "+";
			else if (v->types[m->piece].demote_to == t)
				suffix = "-";
			else {
				snprintf(promo, sizeof promo, "=%s", v->types[t].symbol);
				suffix = promo;
			}
		} else if (shogi_could_promote(p, m))
			suffix = "=";
		k = snprintf(out, sizeof out, "%s%s%s%s%s", v->types[m->piece].symbol,
			     origin ? from : "", sep, to, suffix);
	}
	if (k < 0 || (size_t)k >= sizeof out)
		return -1;
	if (n) {
		size_t c = (size_t)k < n - 1 ? (size_t)k : n - 1;
		memcpy(buf, out, c);
		buf[c] = 0;
	}
	return k;
}
