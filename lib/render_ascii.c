/*
 * render_ascii.c - the plain text board: one row a rank from the top, the
 * rank number right-aligned on the left, squares separated by a space,
 * '.' for an empty square, each piece by its symbol (upper case White,
 * lower case Black, '*' before a neutral one; a multi-letter symbol is
 * shortened to its diagram letter so that columns stay aligned), the file
 * letters beneath; then the reserves and the side to move.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vc_int.h"

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
	if (b.oom) {
		vc_buf_free(&b);
		return NULL;
	}
	return vc_buf_take(&b);
}
