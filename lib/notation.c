/*
 * notation.c - writing and reading moves in each variant's dialect of
 * algebraic notation.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "vc_int.h"

int vc_move_coord(const struct vc_variant *v, const vc_move *m, char *buf, size_t n)
{
	char a[8], b[8], promo[8] = "";
	if (m->flags & VC_MF_NULL)
		return snprintf(buf, n, "0000");
	vc_square_name(v, m->to, b);
	if (m->flags & VC_MF_DROP)
		return snprintf(buf, n, "%s@%s", v->types[m->piece].symbol, b);
	vc_square_name(v, m->from, a);
	if (m->promo) {
		size_t k = 0;
		for (const char *s = v->types[m->promo - 1].symbol; *s && k < 7; s++)
			promo[k++] = (char)tolower((unsigned char)*s);
		promo[k] = 0;
	}
	return snprintf(buf, n, "%s%s%s", a, b, promo);
}
