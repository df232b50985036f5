/*
 * draw/ascii.c - diagrams as text.
 *
 * vc_position_ascii is the plain text board of vchess-validate -v: one row
 * a rank from the top, the rank number right-aligned on the left, squares
 * separated by a space, '.' for an empty square, each piece by its one-letter
 * diagram symbol (upper case White, lower case Black), the file letters
 * beneath; then the reserves and the side to move.  Its output is pinned by
 * golden tests and does not change.
 *
 * vc_render_text draws the same board in two styles, in letters or in
 * Unicode figurines, turned or not:
 *  - plain: vc_position_ascii's layout, where the one-character gap after a
 *    square carries a mark about its piece ('~' promoted, '!' dead) and the
 *    gap before it '*' for a neutral piece, '+' for a piece written '+X'
 *    (shogi's promoted pieces), whose cell then holds X's letter; with
 *    shogi's coordinates (vc_draw_shogi_coords) the files' numbers, from
 *    the right, go above the board and the ranks' letters, from the top,
 *    after each row;
 *  - dots: the diagrams of the Io Chess rule text, letters only, the rank
 *    number two spaces after the row, a blank line, the file letters; a
 *    two-square piece lying along a rank writes its letter in the gap
 *    between its squares too ("WWW").
 * Model: a row is a sequence of cells (one character or one figurine) and
 * gaps; the gap between the two halves of a board whose halves swap is the
 * three characters "X|Y" (a seam), so columns stay aligned with the file
 * letters beneath in every row.  Nothing here depends on a particular
 * variant: letters, glyphs, reserve names and square flags are all data.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/vc_draw.h"

char *vc_position_ascii(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	struct vc_buf b;
	vc_buf_init(&b);
	int w = v->ranks >= 10 ? 2 : 1;
	for (int r = v->ranks - 1; r >= 0; r--) {
		vc_buf_printf(&b, "%*d ", w, r + 1);
		for (int f = 0; f < v->files; f++) {
			uint8_t c = p->board[vc_sq(v->files, f, r)];
			char ch = '.';
			if (c) {
				int t = vc_code_type(c), col = vc_code_color(c);
				ch = v->types[t].letter;
				if (col == VC_BLACK)
					ch = (char)tolower((unsigned char)ch);
			}
			if (f)
				vc_buf_addc(&b, ' ');
			vc_buf_addc(&b, ch);
		}
		vc_buf_addc(&b, '\n');
	}
	vc_buf_printf(&b, "%*s ", w, "");
	for (int f = 0; f < v->files; f++)
		vc_buf_printf(&b, f ? " %c" : "%c", 'a' + f);
	vc_buf_addc(&b, '\n');
	for (int c = 0; c < 2; c++)
		for (int a = 0; a < v->nreserve; a++) {
			vc_buf_printf(&b, "%s %s:", c ? "Black" : "White", v->reserve[a].name);
			int any = 0;
			for (int t = 0; t < v->ntypes; t++)
				if (p->res[c][a][t]) {
					vc_buf_printf(&b, " %s", v->types[t].symbol);
					if (p->res[c][a][t] > 1)
						vc_buf_printf(&b, "x%d", p->res[c][a][t]);
					any = 1;
				}
			vc_buf_adds(&b, any ? "\n" : " -\n");
		}
	vc_buf_printf(&b, "%s to move", p->side ? "Black" : "White");
	int left = vc_position_plies_to_transform(p);
	if (left > 0)
		vc_buf_printf(&b, ", %d %s to the next swap", left, left == 1 ? "ply" : "plies");
	vc_buf_addc(&b, '\n');
	vc_draw_end_notes(p, &b);
	if (b.oom) {
		vc_buf_free(&b);
		return NULL;
	}
	return vc_buf_take(&b);
}

/* ---- two-square pieces ----------------------------------------------------------- */

/* ---- text diagrams ---------------------------------------------------------------- */

struct textdia {
	const struct vc_variant *v;
	int files, ranks, flip, unicode;
	int shogi; /* shogi's coordinates (vc_draw_shogi_coords) */
	int plus;  /* promoted pieces drawn '+' and the letter of what they were */
	int seam; /* files/2 when the halves swap, else 0 */
	struct vc_buf b;
};

static int file_at(const struct textdia *t, int dc)
{
	return t->flip ? t->files - 1 - dc : dc;
}
static int rank_at(const struct textdia *t, int dr)
{
	return t->flip ? dr : t->ranks - 1 - dr;
}

/* is the seam between display columns dc - 1 and dc? */
static int seam_before(const struct textdia *t, int dc)
{
	if (!t->seam || dc <= 0)
		return 0;
	int a = file_at(t, dc - 1), b = file_at(t, dc);
	return (a == t->seam - 1 && b == t->seam) || (b == t->seam - 1 && a == t->seam);
}

/* the cell of a piece: its figurine, or its letter in its side's case;
 * a promoted piece written '+X' (plain style) the letter of X, the '+'
 * going into the gap before it (text_plain) */
static void put_piece(struct textdia *t, int type, int color)
{
	const char *fig = t->unicode ? vc_render_figurine(t->v, type, color) : NULL;
	if (fig) {
		vc_buf_adds(&t->b, fig);
		return;
	}
	const struct vc_ptype *pt = &t->v->types[type];
	char ch = t->plus && pt->demote_to >= 0 ? t->v->types[pt->demote_to].letter : pt->letter;
	vc_buf_addc(&t->b, color == VC_BLACK ? tolower((unsigned char)ch) : ch);
}

/* Is sq inside one of the rectangles whose diagonals the board draws (a
 * palace)? */
static int in_cross(const struct vc_variant *v, int sq)
{
	int f = sq % v->files, r = sq / v->files;
	for (int i = 0; i < v->ncross; i++) {
		int a = v->cross[i][0], b = v->cross[i][1];
		int f0 = a % v->files, f1 = b % v->files, r0 = a / v->files, r1 = b / v->files;
		if (f >= (f0 < f1 ? f0 : f1) && f <= (f0 < f1 ? f1 : f0) && r >= (r0 < r1 ? r0 : r1) &&
		    r <= (r0 < r1 ? r1 : r0))
			return 1;
	}
	return 0;
}

/* A river after rank river: between display rows dr and dr + 1? */
static int river_after(const struct textdia *t, int dr)
{
	int r = t->v->river;
	if (!r || dr + 1 >= t->ranks)
		return 0;
	int a = rank_at(t, dr), b = rank_at(t, dr + 1);
	return (a == r - 1 && b == r) || (a == r && b == r - 1);
}

static void put_cell(struct textdia *t, const struct vc_position *p, int sq)
{
	uint8_t c = p->board[sq];
	if (!c)
		vc_buf_addc(&t->b, t->v->ncross && in_cross(t->v, sq) ? ':' : '.');
	else
		put_piece(t, vc_code_type(c), vc_code_color(c));
}

/* a gap: the seam, or one character */
static void put_gap(struct textdia *t, int dc, char after, char before)
{
	if (seam_before(t, dc)) {
		vc_buf_addc(&t->b, after);
		vc_buf_addc(&t->b, '|');
		vc_buf_addc(&t->b, before);
	} else
		vc_buf_addc(&t->b, after != ' ' ? after : before);
}

static void trim_line(struct vc_buf *b)
{
	while (b->len && b->p[b->len - 1] == ' ')
		b->p[--b->len] = 0;
}

/* the files' names: letters from the left, or shogi's numbers from the
 * right */
static void put_files(struct textdia *t)
{
	for (int dc = 0; dc < t->files; dc++) {
		if (seam_before(t, dc))
			vc_buf_adds(&t->b, "   ");
		else if (dc)
			vc_buf_addc(&t->b, ' ');
		int f = file_at(t, dc);
		vc_buf_addc(&t->b, t->shogi ? '0' + t->files - f : 'a' + f);
	}
	vc_buf_addc(&t->b, '\n');
}

/* shogi's name of rank r: a letter from the top */
static char shogi_rank(const struct textdia *t, int r)
{
	return (char)('a' + t->ranks - 1 - r);
}

static void put_reserves(struct textdia *t, const struct vc_position *p)
{
	const struct vc_variant *v = t->v;
	for (int c = 0; c < 2; c++)
		for (int a = 0; a < v->nreserve; a++) {
			vc_buf_printf(&t->b, "%s %s:", c ? "Black" : "White", v->reserve[a].name);
			int any = 0;
			for (int ty = 0; ty < v->ntypes; ty++)
				if (p->res[c][a][ty]) {
					int pc = v->reserve[a].enemy ? !c : c;
					const char *fig =
						t->unicode ? vc_render_figurine(v, ty, pc) : NULL;
					vc_buf_printf(&t->b, " %s",
						      fig ? fig : v->types[ty].symbol);
					if (p->res[c][a][ty] > 1)
						vc_buf_printf(&t->b, "x%d", p->res[c][a][ty]);
					any = 1;
				}
			vc_buf_adds(&t->b, any ? "\n" : " -\n");
		}
}

static void text_plain(struct textdia *t, const struct vc_position *p)
{
	const struct vc_variant *v = t->v;
	/* shogi's coordinates: no rank numbers on the left, the files above */
	int w = t->shogi ? 0 : v->ranks >= 10 ? 2 : 1;
	if (t->shogi) {
		vc_buf_addc(&t->b, ' ');
		put_files(t);
	}
	for (int dr = 0; dr < t->ranks; dr++) {
		int r = rank_at(t, dr);
		if (!t->shogi)
			vc_buf_printf(&t->b, "%*d", w, r + 1);
		char after = ' ';
		for (int dc = 0; dc < t->files; dc++) {
			int sq = vc_sq(v->files, file_at(t, dc), r);
			uint8_t c = p->board[sq];
			char before = !c					? ' '
				      : vc_code_color(c) == VC_NEUTRAL		? '*'
				      : v->types[vc_code_type(c)].demote_to >= 0 ? '+'
										 : ' ';
			if (dc)
				put_gap(t, dc, after, before);
			else
				vc_buf_addc(&t->b, before);
			put_cell(t, p, sq);
			after = !c                               ? ' '
				: (p->sqf[sq] & VC_SQF_DEAD)     ? '!'
				: (p->sqf[sq] & VC_SQF_PROMOTED) ? '~'
								 : ' ';
		}
		vc_buf_addc(&t->b, after);
		if (t->shogi)
			vc_buf_printf(&t->b, " %c", shogi_rank(t, r));
		trim_line(&t->b);
		vc_buf_addc(&t->b, '\n');
		if (river_after(t, dr)) {
			vc_buf_printf(&t->b, "%*s ", w, "");
			for (int dc = 0; dc < 2 * t->files - 1; dc++)
				vc_buf_addc(&t->b, '~');
			vc_buf_addc(&t->b, '\n');
		}
	}
	if (!t->shogi) {
		vc_buf_printf(&t->b, "%*s ", w, "");
		put_files(t);
	}
	put_reserves(t, p);
	vc_buf_printf(&t->b, "%s to move", p->side ? "Black" : "White");
	int left = vc_position_plies_to_transform(p);
	if (left > 0)
		vc_buf_printf(&t->b, ", %d %s to the next swap", left, left == 1 ? "ply" : "plies");
	vc_buf_addc(&t->b, '\n');
	vc_draw_end_notes(p, &t->b);
}

static void text_dots(struct textdia *t, const struct vc_position *p)
{
	const struct vc_variant *v = t->v;
	for (int dr = 0; dr < t->ranks; dr++) {
		int r = rank_at(t, dr);
		int prev = -1;
		for (int dc = 0; dc < t->files; dc++) {
			int sq = vc_sq(v->files, file_at(t, dc), r);
			if (dc) {
				/* a two-square piece along the rank fills the gap between its
				 * squares with its letter */
				char fill = ' ';
				if (p->board[sq] && vc_render_partner(p, sq) == prev &&
				    !seam_before(t, dc)) {
					uint8_t c = p->board[sq];
					char ch = v->types[vc_code_type(c)].letter;
					fill = vc_code_color(c) == VC_BLACK
						       ? (char)tolower((unsigned char)ch)
						       : ch;
				}
				put_gap(t, dc, fill, ' ');
			}
			uint8_t c = p->board[sq];
			if (c && vc_render_partner(p, sq) >= 0) {
				/* the letter, never a figurine: "WWW" stays one piece */
				char ch = v->types[vc_code_type(c)].letter;
				vc_buf_addc(&t->b, vc_code_color(c) == VC_BLACK
							   ? tolower((unsigned char)ch)
							   : ch);
			} else
				put_cell(t, p, sq);
			prev = sq;
		}
		vc_buf_printf(&t->b, "  %d\n", r + 1);
		if (river_after(t, dr)) {
			for (int dc = 0; dc < 2 * t->files - 1; dc++)
				vc_buf_addc(&t->b, '~');
			vc_buf_addc(&t->b, '\n');
		}
	}
	vc_buf_addc(&t->b, '\n');
	put_files(t);
	if (v->nreserve) {
		vc_buf_addc(&t->b, '\n');
		put_reserves(t, p);
	}
}

static void text_init(struct textdia *t, const struct vc_variant *v, const struct vc_render_opts *o,
		      int files, int ranks)
{
	memset(t, 0, sizeof *t);
	t->v = v;
	t->files = files;
	t->ranks = ranks;
	t->flip = o && o->flip;
	t->unicode = o && o->unicode;
	t->shogi = vc_draw_shogi_coords(v);
	vc_buf_init(&t->b);
}

static vc_status text_finish(struct vc_ctx *ctx, struct vc_sink *out, struct textdia *t)
{
	vc_status st = VC_OK;
	if (t->b.oom) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		st = VC_FAILED;
	} else if (vc_sink_write(out, t->b.p, t->b.len) != 0) {
		vc_emit(ctx, VC_SEV_ERROR, "write-failed", NULL, 0, 0, NULL,
			"cannot write the diagram");
		st = VC_FAILED;
	}
	vc_buf_free(&t->b);
	return st;
}

vc_status vc_render_text(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			 const struct vc_render_opts *o)
{
	struct textdia t;
	const struct vc_variant *v = p->v;
	text_init(&t, v, o, v->files, v->ranks);
	if (vc_position_plies_to_transform(p) >= 0 && v->files >= 2)
		t.seam = v->files / 2;
	if (o && o->style == VC_STYLE_DOTS) {
		t.shogi = 0; /* the Io Chess rules' layout, as it is */
		text_dots(&t, p);
	} else {
		t.plus = 1;
		text_plain(&t, p);
	}
	return text_finish(ctx, out, &t);
}

vc_status vc_render_text_piece(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_variant *v,
			       int type, int sq, const struct vc_render_opts *o)
{
	char *d = vc_piece_diagram(ctx, v, type, 0, 0, sq);
	if (!d)
		return VC_FAILED;
	/* the diagram: one row a rank from the top, cells two characters apart */
	struct textdia t;
	text_init(&t, v, o, v->files, v->ranks);
	int dots = o && o->style == VC_STYLE_DOTS;
	int w = v->ranks >= 10 ? 2 : 1;
	size_t rowlen = (size_t)(2 * v->files);
	if (dots)
		t.shogi = 0;
	if (t.shogi) {
		vc_buf_addc(&t.b, ' ');
		put_files(&t);
	}
	for (int dr = 0; dr < t.ranks; dr++) {
		int r = rank_at(&t, dr);
		const char *row = d + (size_t)(v->ranks - 1 - r) * rowlen;
		if (t.shogi)
			vc_buf_addc(&t.b, ' ');
		else if (!dots)
			vc_buf_printf(&t.b, "%*d ", w, r + 1);
		for (int dc = 0; dc < t.files; dc++) {
			int f = file_at(&t, dc);
			if (dc)
				vc_buf_addc(&t.b, ' ');
			if (vc_sq(v->files, f, r) == sq)
				put_piece(&t, type, VC_WHITE);
			else
				vc_buf_addc(&t.b, row[2 * f]);
		}
		if (t.shogi)
			vc_buf_printf(&t.b, "  %c", shogi_rank(&t, r));
		vc_buf_addc(&t.b, '\n');
	}
	if (!dots && !t.shogi) {
		vc_buf_printf(&t.b, "%*s ", w, "");
		put_files(&t);
	}
	free(d);
	return text_finish(ctx, out, &t);
}
