/*
 * draw/svg.c - diagrams as self-contained SVG pictures: a position, a
 * piece's moves, or a sheet of positions.
 *
 * Model.  A diagram is laid out first (struct layout: every box in user
 * units of 45 a square, so the picture scales to any --size through the
 * viewBox), then written top to bottom as one stream to a sink:
 *
 *     title line
 *     reserve areas of the side drawn at the top, one framed strip each
 *     board: squares, last-move highlights, check, pieces, seam, marks
 *     file letters (rank numbers run down the left; with shogi's
 *     coordinates, file numbers above the board, rank letters on the right)
 *     reserve areas of the side drawn at the bottom
 *     info line: plies to the next swap of the halves
 *
 * Everything is data of the variant and the position: the board size (1x1
 * to 26x26), the pieces' glyphs (glyphs.c), the reserve areas and
 * their names and whose pieces they hold, two-square pieces (vc_render_partner), dead and promoted
 * flags, the swap schedule.  Every element carries CSS classes and no
 * colour of its own (but the check gradient), so the embedded <style> is
 * the only palette and a page may replace it.
 *
 * Invariants: the output is well-formed XML whatever the input (all text is
 * escaped, invalid UTF-8 and control bytes become '?'); it references
 * nothing outside itself; text uses only the generic family sans-serif.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/vc_draw.h"

#define SQ VC_SVG_SQ
#define PAD VC_SVG_PAD
#define TITLE_FS 16.0

/* The palette: every colour of a diagram, by class. */
static const char default_css[] =
	".vchess text{font-family:sans-serif}\n"
	".background{fill:#ffffff}\n"
	".square.light{fill:#eed8b4}\n"
	".square.dark{fill:#b48a62}\n"
	".frame{fill:none;stroke:#6b5238;stroke-width:1.5}\n"
	".coord{font-size:13px;fill:#555555;text-anchor:middle}\n"
	".title{fill:#222222;font-weight:bold}\n"
	".caption{fill:#222222;font-size:14px}\n"
	".info{font-size:13px;fill:#333333}\n"
	".highlight{fill:#f2e34c;opacity:.55}\n"
	".target{fill:#2e6b2e;opacity:.6}\n"
	".arrow{opacity:.78}\n"
	".arrow.green{fill:#15781b}.arrow.red{fill:#b3261e}"
	".arrow.yellow{fill:#e0a000}.arrow.blue{fill:#1f5fbf}\n"
	".mark{fill:none;stroke-width:3.5;opacity:.85}\n"
	".mark.green{stroke:#15781b}.mark.red{stroke:#b3261e}"
	".mark.yellow{stroke:#e0a000}.mark.blue{stroke:#1f5fbf}\n"
	".seam{stroke:#c0392b;stroke-width:3;stroke-dasharray:7 4}\n"
	".reserve-frame{fill:#f4efe6;stroke:#c9bca6;stroke-width:1}\n"
	".reserve-label{font-size:12px;fill:#444444}\n"
	".count{fill:#333333;stroke:#ffffff;stroke-width:1}\n"
	".count-text{font-size:11px;fill:#ffffff;text-anchor:middle;font-weight:bold}\n"
	".to-move{stroke:#000000;stroke-width:1.5}\n"
	".to-move.white{fill:#ffffff}.to-move.black{fill:#222222}\n"
	".piece .body{stroke:#000000;stroke-width:3;stroke-linejoin:round}\n"
	".piece.white .body{fill:#ffffff}\n"
	".piece.black .body{fill:#2a2a2a}\n"
	".piece.neutral .body{fill:#9c9c9c}\n"
	".piece .line{fill:none;stroke:#000000;stroke-width:3;stroke-linecap:round}\n"
	".piece.black .line{stroke:#e6e6e6}\n"
	".piece .eye{fill:#000000}.piece.black .eye{fill:#e6e6e6}\n"
	".piece .badge{fill:#ffffff;stroke:#000000;stroke-width:2.5}\n"
	".piece.black .badge{fill:#2a2a2a;stroke:#e6e6e6}\n"
	".piece .label{font-weight:bold;text-anchor:middle;fill:#000000}\n"
	".piece.black .label{fill:#ffffff}\n"
	".dead{opacity:.45}\n"
	".dead-mark{fill:none;stroke:#b00000;stroke-width:3;stroke-linecap:round}\n"
	".promoted{fill:#2a9d6a;stroke:#000000;stroke-width:1}\n";

const char *vc_svg_css(void)
{
	return default_css;
}

/* ---- text ------------------------------------------------------------------------- */

/* characters (not bytes) of a UTF-8 string, invalid bytes counted one each */
static size_t text_chars(const char *text)
{
	size_t n = 0;
	for (const unsigned char *s = (const unsigned char *)text; s && *s; n++) {
		int k = vc_utf8_len(s);
		s += k ? k : 1;
	}
	return n;
}

/* a font size at which text fits width (about 0.56 em a character) */
static double fit_font(const char *text, double fs, double width)
{
	double need = (double)text_chars(text) * 0.56 * fs;
	if (need > width && need > 0)
		fs *= width / need;
	return fs < 6 ? 6 : fs;
}

/* ---- layout ----------------------------------------------------------------------- */

struct layout {
	double w, h;    /* the whole diagram */
	double bx, by;  /* the board's top-left corner */
	double title_y; /* baseline of the title, 0 none */
	double title_fs;
	double res_y[2]; /* top of each side's reserve block */
	int res_rows[2][VC_MAXRES];
	double info_y; /* baseline of the info line, 0 none */
	int per_row;   /* reserve slots a row */
};

#define RES_LABEL VC_SVG_RES_LABEL
#define RES_SLOT VC_SVG_RES_SLOT
#define RES_STEP VC_SVG_RES_STEP
#define RES_GAP VC_SVG_RES_GAP

struct view {
	const struct vc_variant *v;
	const struct vc_position *p; /* NULL for piece diagrams */
	const struct vc_render_opts *o;
	int flip;
	int top_side; /* the side whose reserves and first rank are drawn at the top */
};

static int types_in(const struct vc_position *p, int side, int area)
{
	int n = 0;
	for (int t = 0; t < p->v->ntypes; t++)
		n += p->res[side][area][t] != 0;
	return n;
}

static double res_block_h(const struct layout *L, const struct vc_variant *v, int side)
{
	double h = 0;
	for (int a = 0; a < v->nreserve; a++)
		h += RES_LABEL + L->res_rows[side][a] * RES_SLOT + RES_GAP;
	return h;
}

/* reserve slots a row: as many as the board's width holds */
static int per_row_of(const struct vc_variant *v)
{
	int n = (int)((v->files * SQ - 0.2 * SQ) / RES_STEP);
	return n < 1 ? 1 : n;
}

static void layout(struct layout *L, const struct view *w, const int rows_min[2][VC_MAXRES])
{
	const struct vc_variant *v = w->v;
	const struct vc_position *p = w->p;
	memset(L, 0, sizeof *L);
	/* shogi's coordinates: the files' numbers above the board, the ranks'
	 * letters on the right, beyond the side-to-move mark */
	int shogi = vc_draw_shogi_coords(v);
	double coordw = shogi ? 0.1 * SQ : v->ranks >= 10 ? 0.55 * SQ : 0.42 * SQ;
	double bw = v->files * SQ;
	L->bx = PAD + coordw;
	L->w = L->bx + bw + (shogi ? 0.85 : 0.5) * SQ + PAD;
	double y = PAD;
	const char *title = w->o ? w->o->title : NULL;
	if (title) {
		/* an empty title keeps its line: the boards of a sheet line up */
		L->title_fs = fit_font(title, TITLE_FS, L->w - 2 * PAD);
		L->title_y = y + TITLE_FS;
		y += TITLE_FS * 1.5;
	}
	L->per_row = per_row_of(v);
	if (p)
		for (int s = 0; s < 2; s++)
			for (int a = 0; a < v->nreserve; a++) {
				int n = types_in(p, s, a);
				int rows = n ? (n + L->per_row - 1) / L->per_row : 1;
				if (rows_min && rows_min[s][a] > rows)
					rows = rows_min[s][a];
				L->res_rows[s][a] = rows;
			}
	if (p && v->nreserve) {
		L->res_y[w->top_side] = y;
		y += res_block_h(L, v, w->top_side);
	}
	L->by = y + (title || (p && v->nreserve) ? 0 : 0.1 * SQ) + (shogi ? 0.4 * SQ : 0);
	y = L->by + v->ranks * SQ + (shogi ? 0.12 : 0.48) * SQ;
	if (p && v->nreserve) {
		y += RES_GAP;
		L->res_y[!w->top_side] = y;
		y += res_block_h(L, v, !w->top_side);
	}
	if (p && (vc_position_plies_to_transform(p) >= 0 || v->end.checks)) {
		L->info_y = y + 0.38 * SQ;
		y += 0.55 * SQ;
	}
	L->h = y + PAD;
}

/* the top-left corner of a square on the picture */
static void square_xy(const struct view *w, const struct layout *L, int sq, double *x, double *y)
{
	const struct vc_variant *v = w->v;
	int f = sq % v->files, r = sq / v->files;
	int dc = w->flip ? v->files - 1 - f : f;
	int dr = w->flip ? r : v->ranks - 1 - r;
	*x = L->bx + dc * SQ;
	*y = L->by + dr * SQ;
}

/* ---- the parts of a diagram --------------------------------------------------------- */

/* the line between the centres of two squares */
static void put_line(struct vc_sink *out, const struct view *w, const struct layout *L,
		     const char *cls, int a, int b)
{
	double x1, y1, x2, y2;
	square_xy(w, L, a, &x1, &y1);
	square_xy(w, L, b, &x2, &y2);
	vc_sink_printf(out,
		       "<line class=\"%s\" x1=\"%.5g\" y1=\"%.5g\" x2=\"%.5g\" y2=\"%.5g\"/>\n",
		       cls, x1 + SQ / 2, y1 + SQ / 2, x2 + SQ / 2, y2 + SQ / 2);
}

/* A board of points (xiangqi, janggi): the pieces stand where lines cross;
 * the files stop at the river but on the edges; the crosses (palaces) have
 * their diagonals drawn. */
static void put_points(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_variant *v = w->v;
	int F = v->files, R = v->ranks;
	vc_sink_printf(out,
		       "<rect class=\"points\" x=\"%.5g\" y=\"%.5g\" width=\"%.5g\" "
		       "height=\"%.5g\"/>\n",
		       L->bx, L->by, F * SQ, R * SQ);
	for (int r = 0; r < R; r++)
		put_line(out, w, L, "grid", vc_sq(F, 0, r), vc_sq(F, F - 1, r));
	for (int f = 0; f < F; f++) {
		if (v->river && f > 0 && f < F - 1) {
			put_line(out, w, L, "grid", vc_sq(F, f, 0), vc_sq(F, f, v->river - 1));
			put_line(out, w, L, "grid", vc_sq(F, f, v->river), vc_sq(F, f, R - 1));
		} else
			put_line(out, w, L, "grid", vc_sq(F, f, 0), vc_sq(F, f, R - 1));
	}
	for (int i = 0; i < v->ncross; i++) {
		int a = v->cross[i][0], b = v->cross[i][1];
		put_line(out, w, L, "grid", a, b);
		put_line(out, w, L, "grid", vc_sq(F, a % F, b / F), vc_sq(F, b % F, a / F));
	}
}

static void put_squares(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_variant *v = w->v;
	vc_sink_puts(out, "<g class=\"squares\">\n");
	if (v->points)
		put_points(out, w, L);
	for (int sq = 0; sq < v->nsq && !v->points; sq++) {
		double x, y;
		square_xy(w, L, sq, &x, &y);
		int dark = (sq % v->files + sq / v->files) % 2 == 0;
		vc_sink_printf(out,
			       "<rect class=\"square %s\" x=\"%.5g\" y=\"%.5g\" width=\"%.5g\" "
			       "height=\"%.5g\"/>\n",
			       dark ? "dark" : "light", x, y, SQ, SQ);
	}
	/* the squares a piece wins by reaching (the hill, the last rank) */
	for (int sq = 0; sq < v->nsq; sq++)
		if (vc_draw_in_region(v, sq)) {
			double x, y;
			square_xy(w, L, sq, &x, &y);
			vc_sink_printf(out,
				       "<rect class=\"region\" x=\"%.5g\" y=\"%.5g\" width=\"%.5g\" "
				       "height=\"%.5g\"/>\n",
				       x + 2, y + 2, SQ - 4, SQ - 4);
		}
	vc_sink_printf(
		out,
		"<rect class=\"frame\" x=\"%.5g\" y=\"%.5g\" width=\"%.5g\" height=\"%.5g\"/>\n",
		L->bx, L->by, v->files * SQ, v->ranks * SQ);
	vc_sink_puts(out, "</g>\n");
}

static void put_coords(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_variant *v = w->v;
	vc_sink_puts(out, "<g class=\"coord\">");
	if (vc_draw_shogi_coords(v)) {
		for (int dr = 0; dr < v->ranks; dr++) {
			int r = w->flip ? dr : v->ranks - 1 - dr;
			vc_sink_printf(out, "<text x=\"%.5g\" y=\"%.5g\">%c</text>",
				       L->bx + v->files * SQ + 0.62 * SQ,
				       L->by + (dr + 0.5) * SQ + 4.5, 'a' + v->ranks - 1 - r);
		}
		for (int dc = 0; dc < v->files; dc++) {
			int f = w->flip ? v->files - 1 - dc : dc;
			vc_sink_printf(out, "<text x=\"%.5g\" y=\"%.5g\">%d</text>",
				       L->bx + (dc + 0.5) * SQ, L->by - 0.12 * SQ, v->files - f);
		}
		vc_sink_puts(out, "</g>\n");
		return;
	}
	for (int dr = 0; dr < v->ranks; dr++) {
		int r = w->flip ? dr : v->ranks - 1 - dr;
		vc_sink_printf(out, "<text x=\"%.5g\" y=\"%.5g\">%d</text>",
			       L->bx - (v->ranks >= 10 ? 0.28 : 0.22) * SQ,
			       L->by + (dr + 0.5) * SQ + 4.5, r + 1);
	}
	for (int dc = 0; dc < v->files; dc++) {
		int f = w->flip ? v->files - 1 - dc : dc;
		vc_sink_printf(out, "<text x=\"%.5g\" y=\"%.5g\">%c</text>",
			       L->bx + (dc + 0.5) * SQ, L->by + v->ranks * SQ + 0.36 * SQ, 'a' + f);
	}
	vc_sink_puts(out, "</g>\n");
}

static void put_square_rect(struct vc_sink *out, const struct view *w, const struct layout *L,
			    int sq, const char *cls, const char *extra)
{
	double x, y;
	square_xy(w, L, sq, &x, &y);
	vc_sink_printf(
		out,
		"<rect class=\"%s\" x=\"%.5g\" y=\"%.5g\" width=\"%.5g\" height=\"%.5g\"%s/>\n",
		cls, x, y, SQ, SQ, extra ? extra : "");
}

/* Squares of the last move.  When the move was followed by a swap of the
 * halves, its squares travelled with the pieces. */
int vc_svg_last_squares(const struct vc_position *p, const vc_move *m, int sq[4])
{
	const struct vc_variant *v = p->v;
	int n = 0;
	if (!m || (m->flags & VC_MF_NULL))
		return 0;
	int swapped = vc_position_plies_to_transform(p) == v->swap_period &&
		      (v->rules & VC_R_SWAP_HALVES);
	int sqs[4] = { m->from, m->to, m->from2, m->to2 };
	if (m->flags & VC_MF_CASTLE)
		sqs[3] = -1; /* the partner's move is part of the king's */
	for (int i = 0; i < 4; i++) {
		int s = sqs[i];
		if (s < 0 || s >= v->nsq)
			continue;
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= sqs[j] == s;
		if (dup)
			continue;
		if (swapped)
			s = vc_sq(v->files, (s % v->files + v->files / 2) % v->files, s / v->files);
		sq[n++] = s;
	}
	return n;
}

static void put_last_move(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	int sq[4];
	int n = w->p ? vc_svg_last_squares(w->p, w->o ? w->o->last : NULL, sq) : 0;
	for (int i = 0; i < n; i++)
		put_square_rect(out, w, L, sq[i], "highlight", NULL);
}

/* royal pieces of the side to move that stand attacked */
int vc_svg_check_squares(const struct vc_position *p, int *sq, int cap)
{
	const struct vc_variant *v = p->v;
	int n = 0;
	for (int s = 0; s < v->nsq && n < cap; s++) {
		uint8_t c = p->board[s];
		if (!c || vc_code_color(c) != p->side ||
		    !(v->types[vc_code_type(c)].props & VC_P_ROYAL))
			continue;
		if (vc_attacked(p, s, !p->side))
			sq[n++] = s;
	}
	return n;
}

static void put_check(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	int sq[VC_MAXSQ];
	int n = w->p ? vc_svg_check_squares(w->p, sq, VC_MAXSQ) : 0;
	for (int i = 0; i < n; i++)
		put_square_rect(out, w, L, sq[i], "check", " fill=\"url(#vc-check)\"");
}

static void put_piece_at(struct vc_sink *out, const struct view *w, const struct layout *L, int sq)
{
	const struct vc_position *p = w->p;
	const struct vc_variant *v = w->v;
	uint8_t c = p->board[sq];
	int type = vc_code_type(c), color = vc_code_color(c);
	uint8_t fl = p->sqf[sq];
	double x, y;
	square_xy(w, L, sq, &x, &y);
	int other = vc_render_partner(p, sq);
	if (other >= 0 && vc_render_partner(p, other) == sq && other < sq)
		return; /* drawn with its first square */
	if (fl & VC_SQF_DEAD)
		vc_sink_puts(out, "<g class=\"dead\">");
	if (other >= 0) {
		double x2, y2;
		square_xy(w, L, other, &x2, &y2);
		if (y2 == y) {
			vc_render_glyph(out, v, type, color, x < x2 ? x : x2, y, 2 * SQ, SQ);
		} else if (x2 == x) {
			vc_render_glyph(out, v, type, color, x, y < y2 ? y : y2, SQ, 2 * SQ);
		} else {
			/* a diagonal stance: the long box turned along the diagonal */
			double cx = (x + x2) / 2 + SQ / 2, cy = (y + y2) / 2 + SQ / 2;
			double ang = atan2(y2 - y, x2 - x) * 180 / M_PI;
			double len = SQ * (M_SQRT2 + 0.72), th = 0.72 * SQ;
			vc_sink_printf(out, "<g transform=\"rotate(%.5g %.5g %.5g)\">", ang, cx,
				       cy);
			vc_render_glyph(out, v, type, color, cx - len / 2, cy - th / 2, len, th);
			vc_sink_puts(out, "</g>");
		}
	} else
		vc_render_glyph(out, v, type, color, x, y, SQ, SQ);
	if (fl & VC_SQF_DEAD) {
		vc_sink_puts(out, "</g>");
		vc_sink_printf(out,
			       "<path class=\"dead-mark\" d=\"M%.5g %.5gL%.5g %.5gM%.5g %.5gL%.5g "
			       "%.5g\"/>",
			       x + 9, y + 9, x + SQ - 9, y + SQ - 9, x + SQ - 9, y + 9, x + 9,
			       y + SQ - 9);
	}
	if (fl & VC_SQF_PROMOTED)
		vc_sink_printf(out,
			       "<circle class=\"promoted\" cx=\"%.5g\" cy=\"%.5g\" r=\"4.5\"/>",
			       x + SQ - 7, y + 7);
	vc_sink_puts(out, "\n");
}

static void put_pieces(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_position *p = w->p;
	vc_sink_puts(out, "<g class=\"pieces\">\n");
	for (int sq = 0; sq < w->v->nsq; sq++)
		if (p->board[sq])
			put_piece_at(out, w, L, sq);
	vc_sink_puts(out, "</g>\n");
}

static void put_seam(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_variant *v = w->v;
	if (!w->p || vc_position_plies_to_transform(w->p) < 0 || v->files < 2)
		return;
	/* between files half - 1 and half, wherever they are drawn */
	int half = v->files / 2;
	double x = L->bx + (w->flip ? v->files - half : half) * SQ;
	vc_sink_printf(out,
		       "<line class=\"seam\" x1=\"%.5g\" y1=\"%.5g\" x2=\"%.5g\" y2=\"%.5g\"/>\n",
		       x, L->by - 3, x, L->by + v->ranks * SQ + 3);
}

static const char *mark_color(char c)
{
	switch (c) {
	case 'R':
		return "red";
	case 'Y':
		return "yellow";
	case 'B':
		return "blue";
	default:
		return "green";
	}
}

static void put_marks(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_render_opts *o = w->o;
	if (!o || !o->marks)
		return;
	for (int i = 0; i < o->nmarks; i++) {
		const struct vc_render_mark *m = &o->marks[i];
		if (m->from < 0 || m->to < 0 || m->from >= w->v->nsq || m->to >= w->v->nsq)
			continue;
		double x1, y1, x2, y2;
		square_xy(w, L, m->from, &x1, &y1);
		square_xy(w, L, m->to, &x2, &y2);
		x1 += SQ / 2, y1 += SQ / 2, x2 += SQ / 2, y2 += SQ / 2;
		if (m->from == m->to) {
			vc_sink_printf(
				out,
				"<circle class=\"mark %s\" cx=\"%.5g\" cy=\"%.5g\" r=\"%.5g\"/>\n",
				mark_color(m->color), x1, y1, 0.44 * SQ);
			continue;
		}
		double dx = x2 - x1, dy = y2 - y1, len = sqrt(dx * dx + dy * dy);
		double ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
		double sw = 0.16 * SQ / 2, hw = 0.46 * SQ / 2, hl = 0.42 * SQ;
		double tx = x2 - ux * 0.1 * SQ, ty = y2 - uy * 0.1 * SQ;
		double bx = tx - ux * hl, by = ty - uy * hl;
		double pts[7][2] = {
			{ x1 + nx * sw, y1 + ny * sw }, { bx + nx * sw, by + ny * sw },
			{ bx + nx * hw, by + ny * hw }, { tx, ty },
			{ bx - nx * hw, by - ny * hw }, { bx - nx * sw, by - ny * sw },
			{ x1 - nx * sw, y1 - ny * sw },
		};
		vc_sink_printf(out, "<polygon class=\"arrow %s\" points=\"", mark_color(m->color));
		for (int k = 0; k < 7; k++)
			vc_sink_printf(out, "%s%.1f,%.1f", k ? " " : "", pts[k][0], pts[k][1]);
		vc_sink_puts(out, "\"/>\n");
	}
}

static void put_reserves(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_position *p = w->p;
	const struct vc_variant *v = w->v;
	if (!p || !v->nreserve)
		return;
	double bw = v->files * SQ;
	for (int s = 0; s < 2; s++) {
		double y = L->res_y[s];
		for (int a = 0; a < v->nreserve; a++) {
			double h = RES_LABEL + L->res_rows[s][a] * RES_SLOT;
			/* a prison holds the other side's pieces */
			int pc = v->reserve[a].enemy ? !s : s;
			char cls[sizeof v->reserve[a].name];
			vc_svg_class(v->reserve[a].name, cls, sizeof cls);
			vc_sink_printf(out, "<g class=\"reserve %s reserve-%s\">",
				       s ? "black" : "white", cls);
			vc_sink_printf(out,
				       "<rect class=\"reserve-frame\" x=\"%.5g\" y=\"%.5g\" "
				       "width=\"%.5g\" "
				       "height=\"%.5g\" rx=\"4\"/>",
				       L->bx, y, bw, h);
			vc_sink_printf(out,
				       "<text class=\"reserve-label\" x=\"%.5g\" y=\"%.5g\">%s ",
				       L->bx + 5, y + RES_LABEL - 5, s ? "Black" : "White");
			vc_svg_put_text(out, v->reserve[a].name);
			if (!types_in(p, s, a))
				vc_sink_puts(out, ": empty");
			vc_sink_puts(out, "</text>\n");
			int k = 0;
			for (int t = 0; t < v->ntypes; t++) {
				int n = p->res[s][a][t];
				if (!n)
					continue;
				double sx = L->bx + 4 + (k % L->per_row) * RES_STEP;
				double sy = y + RES_LABEL + (k / L->per_row) * RES_SLOT;
				double ps = RES_SLOT - 4;
				k++;
				vc_render_glyph(out, v, t, pc, sx, sy, ps, ps);
				vc_sink_printf(out,
					       "<circle class=\"count\" cx=\"%.5g\" cy=\"%.5g\" "
					       "r=\"7.5\"/>"
					       "<text class=\"count-text\" x=\"%.5g\" "
					       "y=\"%.5g\">%d</text>\n",
					       sx + ps + 2, sy + ps - 8, sx + ps + 2, sy + ps - 4,
					       n);
			}
			vc_sink_puts(out, "</g>\n");
			y += h + RES_GAP;
		}
	}
}

static void put_to_move(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_position *p = w->p;
	if (!p)
		return;
	int at_top = p->side == w->top_side;
	double x = L->bx + w->v->files * SQ + 0.27 * SQ;
	double y = at_top ? L->by + 0.27 * SQ : L->by + w->v->ranks * SQ - 0.27 * SQ;
	vc_sink_printf(
		out,
		"<circle class=\"to-move %s\" cx=\"%.5g\" cy=\"%.5g\" r=\"%.5g\"><title>%s to "
		"move</title></circle>\n",
		p->side ? "black" : "white", x, y, 0.15 * SQ, p->side ? "Black" : "White");
}

static void put_info(struct vc_sink *out, const struct view *w, const struct layout *L)
{
	const struct vc_position *p = w->p;
	if (!p || !L->info_y)
		return;
	int left = vc_position_plies_to_transform(p);
	const struct vc_variant *v = w->v;
	vc_sink_printf(out, "<text class=\"info\" x=\"%.5g\" y=\"%.5g\">", L->bx, L->info_y);
	if (left >= 0) {
		vc_sink_printf(out, "%d %s to the next swap", left, left == 1 ? "ply" : "plies");
		if (w->o && w->o->last && left == v->swap_period)
			vc_sink_puts(out, "; the halves have just swapped");
	}
	if (v->end.checks)
		vc_sink_printf(out, "%schecks to give: White %d, Black %d", left >= 0 ? "; " : "",
			       v->end.checks - p->checks[0], v->end.checks - p->checks[1]);
	vc_sink_puts(out, "</text>\n");
}

static void put_title(struct vc_sink *out, const struct layout *L, const char *title, double x)
{
	if (!L->title_y || !*title)
		return;
	vc_sink_printf(out, "<text class=\"title\" x=\"%.5g\" y=\"%.5g\" font-size=\"%.4g\">", x,
		       L->title_y, L->title_fs);
	vc_svg_put_text(out, title);
	vc_sink_puts(out, "</text>\n");
}

/* the whole diagram of a view, at (ox, oy) */
static void put_diagram(struct vc_sink *out, const struct view *w, const struct layout *L,
			double ox, double oy, const unsigned char *targets, int piece_sq, int piece)
{
	vc_sink_printf(out, "<g class=\"diagram\" transform=\"translate(%.5g %.5g)\">\n", ox, oy);
	if (w->o && w->o->title)
		put_title(out, L, w->o->title, PAD);
	put_reserves(out, w, L);
	vc_sink_puts(out, "<g class=\"board\">\n");
	put_squares(out, w, L);
	put_last_move(out, w, L);
	put_check(out, w, L);
	if (targets)
		for (int sq = 0; sq < w->v->nsq; sq++)
			if (targets[sq]) {
				double x, y;
				square_xy(w, L, sq, &x, &y);
				vc_sink_printf(out,
					       "<circle class=\"target\" cx=\"%.5g\" cy=\"%.5g\" "
					       "r=\"%.5g\"/>\n",
					       x + SQ / 2, y + SQ / 2, 0.17 * SQ);
			}
	if (w->p)
		put_pieces(out, w, L);
	if (piece >= 0) {
		double x, y;
		square_xy(w, L, piece_sq, &x, &y);
		vc_sink_puts(out, "<g class=\"pieces\">");
		vc_render_glyph(out, w->v, piece, VC_WHITE, x, y, SQ, SQ);
		vc_sink_puts(out, "</g>\n");
	}
	put_seam(out, w, L);
	put_marks(out, w, L);
	vc_sink_puts(out, "</g>\n");
	put_coords(out, w, L);
	put_to_move(out, w, L);
	put_info(out, w, L);
	vc_sink_puts(out, "</g>\n");
}

void vc_svg_put_gradient(struct vc_sink *out)
{
	vc_sink_puts(out, "<radialGradient id=\"vc-check\">"
			  "<stop offset=\"0\" stop-color=\"#ff0000\" stop-opacity=\"1\"/>"
			  "<stop offset=\".45\" stop-color=\"#e00000\" stop-opacity=\".85\"/>"
			  "<stop offset=\"1\" stop-color=\"#a00000\" stop-opacity=\"0\"/>"
			  "</radialGradient>");
}

/* The rules that only some variants need, added to the style by put_head. */
static const char region_css[] =
	".region{fill:none;stroke:#2b6cb0;stroke-width:3;stroke-dasharray:5 3}";
static const char points_css[] = ".points{fill:#eed8b4}.grid{stroke:#6b5238;stroke-width:1.5}";

const char *vc_svg_region_css(void)
{
	return region_css;
}

const char *vc_svg_points_css(void)
{
	return points_css;
}

static void put_head(struct vc_sink *out, double w, double h, int size, const char *title,
		     const char *desc, const struct vc_variant *v)
{
	double pw = size > 0 ? size : w, ph = size > 0 ? size * h / w : h;
	vc_sink_printf(out,
		       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"vchess\" "
		       "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.5g %.5g\">\n",
		       ceil(pw), ceil(ph), w, h);
	vc_sink_puts(out, "<title>");
	vc_svg_put_text(out, title);
	vc_sink_puts(out, "</title>\n");
	if (desc) {
		vc_sink_puts(out, "<desc>");
		vc_svg_put_text(out, desc);
		vc_sink_puts(out, "</desc>\n");
	}
	vc_sink_puts(out, "<style>\n");
	vc_sink_puts(out, default_css);
	vc_sink_puts(out, "</style>\n");
	if (v && v->end.region)
		vc_sink_printf(out, "<style>%s</style>\n", region_css);
	if (v && v->points)
		vc_sink_printf(out, "<style>%s</style>\n", points_css);
	vc_sink_puts(out, "<defs>");
	vc_svg_put_gradient(out);
	vc_sink_puts(out, "</defs>\n");
	vc_sink_printf(out, "<rect class=\"background\" width=\"%.5g\" height=\"%.5g\"/>\n", w, h);
}

static vc_status finish(struct vc_ctx *ctx, struct vc_sink *out)
{
	if (vc_sink_failed(out)) {
		vc_emit(ctx, VC_SEV_ERROR, "write-failed", NULL, 0, 0, NULL,
			"cannot write the picture");
		return VC_FAILED;
	}
	return VC_OK;
}

/* A glyph that is not understood is drawn as the symbol on a circle; say so
 * once a diagram. */
static void check_glyphs(struct vc_ctx *ctx, const struct vc_variant *v)
{
	struct vc_sink *scratch = vc_sink_mem(NULL);
	if (!scratch)
		return;
	for (int t = 0; t < v->ntypes; t++)
		if (vc_render_glyph(scratch, v, t, VC_WHITE, 0, 0, SQ, SQ) != 0)
			vc_emit(ctx, VC_SEV_WARNING, "glyph-unknown", NULL, 0, 0, NULL,
				"piece '%s' has the glyph '%s', which is no drawing: it is drawn "
				"as its symbol on a circle",
				v->types[t].name, v->types[t].glyph);
	vc_sink_abort(scratch);
}

static void view_init(struct view *w, const struct vc_variant *v, const struct vc_position *p,
		      const struct vc_render_opts *o)
{
	w->v = v;
	w->p = p;
	w->o = o;
	w->flip = o && o->flip;
	w->top_side = w->flip ? VC_WHITE : VC_BLACK;
}

vc_status vc_render_svg(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			const struct vc_render_opts *o)
{
	struct view w;
	struct layout L;
	check_glyphs(ctx, p->v);
	view_init(&w, p->v, p, o);
	layout(&L, &w, NULL);
	size_t need = vc_position_fen(p, NULL, 0) + 1;
	char *fen = malloc(need);
	if (fen)
		vc_position_fen(p, fen, need);
	char head[160];
	snprintf(head, sizeof head, "%s", p->v->title ? p->v->title : p->v->name);
	put_head(out, L.w, L.h, o ? o->size : 0, o && o->title ? o->title : head, fen, p->v);
	free(fen);
	put_diagram(out, &w, &L, 0, 0, NULL, -1, -1);
	vc_sink_puts(out, "</svg>\n");
	return finish(ctx, out);
}

vc_status vc_render_svg_piece(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_variant *v,
			      int type, int sq, const struct vc_render_opts *o)
{
	char *d = vc_piece_diagram(ctx, v, type, 0, 0, sq);
	if (!d)
		return VC_FAILED;
	unsigned char *targets = calloc((size_t)v->nsq, 1);
	if (!targets) {
		free(d);
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		return VC_FAILED;
	}
	for (int r = 0; r < v->ranks; r++)
		for (int f = 0; f < v->files; f++)
			targets[vc_sq(v->files, f, r)] =
				d[(size_t)(v->ranks - 1 - r) * (size_t)(2 * v->files) +
				  (size_t)(2 * f)] == '+';
	free(d);
	char name[8], title[96];
	vc_square_name(v, sq, name);
	snprintf(title, sizeof title, "%s (%s) on %s", v->types[type].name, v->types[type].symbol,
		 name);
	check_glyphs(ctx, v);
	struct vc_render_opts oo;
	if (o)
		oo = *o;
	else
		vc_render_opts_init(&oo);
	if (!oo.title)
		oo.title = title;
	oo.last = NULL;
	struct view w;
	struct layout L;
	view_init(&w, v, NULL, &oo);
	layout(&L, &w, NULL);
	put_head(out, L.w, L.h, oo.size, oo.title, NULL, v);
	put_diagram(out, &w, &L, 0, 0, targets, sq, type);
	vc_sink_puts(out, "</svg>\n");
	free(targets);
	return finish(ctx, out);
}

vc_status vc_render_svg_sheet(struct vc_ctx *ctx, struct vc_sink *out,
			      const struct vc_position *const *ps, const struct vc_render_opts *os,
			      int n, int columns, const char *title)
{
	if (n <= 0 || !ps || !os) {
		vc_emit(ctx, VC_SEV_ERROR, "render-empty", NULL, 0, 0, NULL,
			"no positions to draw");
		return VC_FAILED;
	}
	const struct vc_variant *v = ps[0]->v;
	for (int i = 1; i < n; i++)
		if (ps[i]->v != v) {
			vc_emit(ctx, VC_SEV_ERROR, "render-variants", NULL, 0, 0, NULL,
				"a sheet draws positions of one variant");
			return VC_FAILED;
		}
	check_glyphs(ctx, v);
	if (columns <= 0)
		columns = n < 4 ? n : 4;
	/* every cell as large as the largest: the most reserve rows of any */
	int rows[2][VC_MAXRES];
	memset(rows, 0, sizeof rows);
	struct layout L;
	struct view w;
	for (int i = 0; i < n; i++) {
		view_init(&w, v, ps[i], &os[i]);
		layout(&L, &w, rows);
		for (int s = 0; s < 2; s++)
			for (int a = 0; a < v->nreserve; a++)
				if (L.res_rows[s][a] > rows[s][a])
					rows[s][a] = L.res_rows[s][a];
	}
	/* every board has a caption line, empty or not, so that boards line up */
	struct vc_render_opts o0 = os[0];
	o0.title = "";
	view_init(&w, v, ps[0], &o0);
	layout(&L, &w, rows);
	double cw = L.w, ch = L.h, gap = 0.3 * SQ;
	int nrows = (n + columns - 1) / columns;
	double top = PAD;
	double tw = columns * cw + (columns - 1) * gap + 2 * PAD, tfs = 0;
	if (title && *title) {
		tfs = fit_font(title, 20, tw - 4 * PAD);
		top += tfs * 1.6;
	}
	double th = top + nrows * ch + (nrows - 1) * gap + PAD;
	put_head(out, tw, th, os[0].size,
		 title && *title ? title
		 : v->title      ? v->title
				 : v->name,
		 NULL, v);
	if (tfs > 0) {
		vc_sink_printf(out,
			       "<text class=\"title\" x=\"%.5g\" y=\"%.5g\" font-size=\"%.4g\">",
			       PAD * 2, PAD + tfs * 1.1, tfs);
		vc_svg_put_text(out, title);
		vc_sink_puts(out, "</text>\n");
	}
	for (int i = 0; i < n; i++) {
		struct vc_render_opts oi = os[i];
		if (!oi.title)
			oi.title = "";
		view_init(&w, v, ps[i], &oi);
		layout(&L, &w, rows);
		double ox = PAD + (i % columns) * (cw + gap), oy = top + (i / columns) * (ch + gap);
		put_diagram(out, &w, &L, ox, oy, NULL, -1, -1);
	}
	vc_sink_puts(out, "</svg>\n");
	return finish(ctx, out);
}


/* ---- for pages that draw diagrams themselves (html.c) ---------------------------------- */

void vc_svg_frame_of(const struct vc_position *p, int flip, const int most[2][VC_MAXRES],
		     struct vc_svg_frame *f)
{
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.flip = flip;
	struct view w;
	view_init(&w, p->v, p, &o);
	int rows[2][VC_MAXRES];
	memset(rows, 0, sizeof rows);
	int per = per_row_of(p->v);
	for (int s = 0; most && s < 2; s++)
		for (int a = 0; a < p->v->nreserve; a++)
			rows[s][a] = (most[s][a] + per - 1) / per;
	struct layout L;
	layout(&L, &w, rows);
	f->w = L.w;
	f->h = L.h;
	f->bx = L.bx;
	f->by = L.by;
	f->res_y[0] = L.res_y[0];
	f->res_y[1] = L.res_y[1];
	f->info_y = L.info_y;
	f->per_row = L.per_row;
	memcpy(f->rows, L.res_rows, sizeof f->rows);
}

void vc_svg_put_board(struct vc_sink *out, const struct vc_variant *v, int flip,
		      const char *squares_id, const char *coords_id)
{
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.flip = flip;
	struct view w;
	view_init(&w, v, NULL, &o);
	struct layout L;
	memset(&L, 0, sizeof L); /* the board's corner at the origin */
	vc_sink_printf(out, "<g id=\"%s\">\n", squares_id);
	put_squares(out, &w, &L);
	vc_sink_printf(out, "</g>\n<g id=\"%s\">", coords_id);
	put_coords(out, &w, &L);
	vc_sink_puts(out, "</g>\n");
}
