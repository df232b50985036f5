/*
 * diagram.c - a piece's moves drawn on an empty board, in the style of the
 * Io Chess rule text: rows from the top rank down, squares separated by one
 * space, '.' for a square it cannot reach, '+' for one it can move or
 * capture to, and its one-letter symbol on its own square.
 *
 * A two-square piece is drawn on the square asked for and the one to its
 * right (its left on the last file), with '+' on every square one of its
 * moves lands on.
 *
 * The board may differ from the variant's, so the piece is compiled again,
 * alone, on a board of the size asked for; the tables are the same ones
 * move generation uses, so a diagram shows exactly what the generator does.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

char *vc_piece_diagram(struct vc_ctx *ctx, const struct vc_variant *v, int type, int files,
		       int ranks, int sq)
{
	if (type < 0 || type >= v->ntypes) {
		vc_emit(ctx, VC_SEV_ERROR, "piece-unknown", NULL, 0, 0, NULL, "no such piece");
		return NULL;
	}
	if (files <= 0)
		files = v->files;
	if (ranks <= 0)
		ranks = v->ranks;
	if (files > VC_MAXF || ranks > VC_MAXR) {
		vc_emit(ctx, VC_SEV_ERROR, "board-size", NULL, 0, 0, NULL,
			"a board is at most %dx%d", VC_MAXF, VC_MAXR);
		return NULL;
	}
	if (sq < 0 || sq >= files * ranks) {
		vc_emit(ctx, VC_SEV_ERROR, "square-off-board", NULL, 0, 0, NULL,
			"the square is off the %dx%d board", files, ranks);
		return NULL;
	}
	struct vc_variant *w = vc_variant_alloc();
	char *out = NULL;
	if (!w)
		return NULL;
	w->files = files;
	w->ranks = ranks;
	w->ntypes = 1;
	w->types[0] = v->types[type];
	w->types[0].auto_to = -1;
	w->types[0].promo_choices = 0;
	w->types[0].atoms = malloc((size_t)(v->types[type].natoms ? v->types[type].natoms : 1) *
				   sizeof(struct vc_atom));
	if (!w->types[0].atoms)
		goto done;
	if (v->types[type].natoms) /* a piece without moves has no list to copy */
		memcpy(w->types[0].atoms, v->types[type].atoms,
		       (size_t)v->types[type].natoms * sizeof(struct vc_atom));
	/* regions hold the variant's squares: on its own board they count, on
	 * another the piece goes as if it had none */
	if (files == v->files && ranks == v->ranks) {
		w->nregions = v->nregions;
		memcpy(w->region, v->region, sizeof w->region);
	} else {
		w->types[0].region = 0;
		for (int a = 0; a < w->types[0].natoms; a++)
			w->types[0].atoms[a].within = 0;
	}
	w->rules = v->rules & ~VC_R_SELF_CAPTURE;
	if (vc_variant_compile(ctx, w) != 0)
		goto done;
	char *mark = calloc((size_t)(files * ranks), 1);
	if (!mark)
		goto done;
	int32_t off = w->pathoff[VC_WHITE][0][sq];
	int other = -1;
	if (w->types[0].props & VC_P_TWOSQUARE) {
		/* a two-square piece lies along the rank, on sq and the square to
		 * its right (to its left on the last file); '+' marks every square
		 * that one of its moves lands on */
		other = sq % files + 1 < files ? sq + 1 : sq - 1;
		struct vc_position *p = files > 1 ? vc_position_new(w) : NULL;
		vc_move *mv = malloc(VC_MAX_MOVES * sizeof *mv);
		if (p && mv) {
			int a = sq < other ? sq : other, b = sq < other ? other : sq;
			vc_pos_put(p, a, vc_code(0, VC_WHITE), vc_link_flags(3));
			vc_pos_put(p, b, vc_code(0, VC_WHITE), vc_link_flags(7));
			int n = vc_gen_two(p, a, VC_WHITE, -1, mv);
			for (int i = 0; i < n; i++) {
				mark[mv[i].to] = 1;
				mark[mv[i].to2] = 1;
			}
		} else
			other = -1;
		free(mv);
		vc_position_free(p);
		off = 0;
	}
	if (off) {
		const int16_t *q = w->paths + off;
		int np = *q++;
		for (int i = 0; i < np; i++) {
			int len = q[0];
			for (int j = 0; j < len; j++)
				if (!(q[2 + j] & VC_PS_TRANSIT))
					mark[q[2 + j] & VC_PS_SQMASK] = 1;
			q += 2 + len;
		}
	}
	struct vc_buf b;
	vc_buf_init(&b);
	for (int r = ranks - 1; r >= 0; r--) {
		for (int f = 0; f < files; f++) {
			int s = r * files + f;
			if (f)
				vc_buf_addc(&b, ' ');
			vc_buf_addc(&b, s == sq || s == other ? v->types[type].letter
					: mark[s]		 ? '+'
								 : '.');
		}
		vc_buf_addc(&b, '\n');
	}
	free(mark);
	out = b.oom ? NULL : vc_buf_take(&b);
	vc_buf_free(&b);
done:
	vc_variant_free(w);
	return out;
}
