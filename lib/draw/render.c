/*
 * draw/render.c - what every kind of diagram shares, below the text, glyph
 * and SVG drawers: the default options, the other square of a two-square
 * piece as a drawing finds it, text escaped for SVG, and the arrows and
 * circled squares of [%cal] and [%csl] comment commands.
 */
#include <string.h>

#include "draw/vc_draw.h"

void vc_render_opts_init(struct vc_render_opts *o)
{
	memset(o, 0, sizeof *o);
	o->style = VC_STYLE_PLAIN;
}

/* The link bits of a square give the direction (1 to 8) towards the other
 * square of its piece: north, then clockwise. */
static const int8_t link_dir[9][2] = { { 0, 0 },  { 0, 1 },   { 1, 1 },  { 1, 0 }, { 1, -1 },
				       { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 } };

static int neighbour(const struct vc_variant *v, int sq, int dx, int dy)
{
	int f = sq % v->files + dx, r = sq / v->files + dy;
	if (f < 0 || r < 0 || f >= v->files || r >= v->ranks)
		return -1;
	return vc_sq(v->files, f, r);
}

static int is_linked_twin(const struct vc_position *p, int sq, int other)
{
	return other >= 0 && p->board[other] == p->board[sq] &&
	       (p->sqf[other] & VC_SQF_LINKMASK) != 0;
}

int vc_render_partner(const struct vc_position *p, int sq)
{
	const struct vc_variant *v = p->v;
	if (sq < 0 || sq >= v->nsq || !p->board[sq])
		return -1;
	int d = (p->sqf[sq] & VC_SQF_LINKMASK) >> VC_SQF_LINKSHIFT;
	if (d < 1 || d > 8)
		return -1;
	int other = neighbour(v, sq, link_dir[d][0], link_dir[d][1]);
	if (is_linked_twin(p, sq, other))
		return other;
	/* the bits read another way: the one linked neighbour of the same piece */
	int found = -1;
	for (int k = 1; k <= 8; k++) {
		other = neighbour(v, sq, link_dir[k][0], link_dir[k][1]);
		if (is_linked_twin(p, sq, other)) {
			if (found >= 0)
				return -1;
			found = other;
		}
	}
	return found;
}

void vc_svg_class(const char *name, char *out, size_t n)
{
	size_t k = 0;
	for (const char *c = name; c && *c && k + 1 < n; c++)
		out[k++] = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c : '-';
	if (n)
		out[k] = 0;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
int vc_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	int n = c < 0x80             ? 1
		: (c & 0xe0) == 0xc0 ? 2
		: (c & 0xf0) == 0xe0 ? 3
		: (c & 0xf8) == 0xf0 ? 4
				     : 0;
	if (n == 0 || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3) {
		unsigned cp = ((c & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
		if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
			return 0;
	} else if (n == 4) {
		unsigned cp = ((c & 0x07u) << 18) | ((s[1] & 0x3fu) << 12);
		if (cp < 0x10000 || cp > 0x10ffff)
			return 0;
	}
	return n;
}

/* Writes text escaped for XML; bytes XML cannot hold become '?'. */
void vc_svg_put_text(struct vc_sink *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	while (*s) {
		int n = vc_utf8_len(s);
		if (n == 0 || (*s < 0x20 && *s != '\t')) {
			vc_sink_write(out, "?", 1);
			s += n ? n : 1;
			continue;
		}
		switch (*s) {
		case '<':
			vc_sink_puts(out, "&lt;");
			break;
		case '>':
			vc_sink_puts(out, "&gt;");
			break;
		case '&':
			vc_sink_puts(out, "&amp;");
			break;
		case '"':
			vc_sink_puts(out, "&quot;");
			break;
		default:
			vc_sink_write(out, s, (size_t)n);
		}
		s += n;
	}
}

/* ---- [%cal] and [%csl] --------------------------------------------------------------- */

int vc_render_parse_marks(const struct vc_variant *v, const char *text, size_t len,
			  struct vc_render_mark *out, int cap)
{
	int n = 0;
	for (size_t i = 0; i + 5 < len; i++) {
		if (text[i] != '[' || text[i + 1] != '%')
			continue;
		int arrows;
		if (!strncmp(text + i + 2, "cal", 3))
			arrows = 1;
		else if (!strncmp(text + i + 2, "csl", 3))
			arrows = 0;
		else
			continue;
		size_t j = i + 5;
		if (j >= len || (text[j] != ' ' && text[j] != '\t'))
			continue;
		/* entries separated by commas (and spaces) up to ']' */
		while (j < len && text[j] != ']') {
			while (j < len && (text[j] == ' ' || text[j] == ',' || text[j] == '\t'))
				j++;
			size_t start = j;
			while (j < len && text[j] != ',' && text[j] != ']' && text[j] != ' ')
				j++;
			size_t elen = j - start;
			if (elen == 0 || elen > 12)
				continue;
			char e[16];
			memcpy(e, text + start, elen);
			e[elen] = 0;
			char color = 'G';
			const char *s = e;
			if (*s >= 'A' && *s <= 'Z') {
				color = *s;
				s++;
			}
			int used1 = 0, used2 = 0;
			int a = vc_square_parse(v, s, &used1);
			if (a < 0)
				continue;
			int b = a;
			if (arrows) {
				b = vc_square_parse(v, s + used1, &used2);
				if (b < 0)
					continue;
			}
			if ((size_t)(s - e) + (size_t)used1 + (size_t)used2 != elen)
				continue;
			if (n < cap) {
				out[n].from = (int16_t)a;
				out[n].to = (int16_t)b;
				out[n].color = color;
			}
			n++;
		}
		i = j;
	}
	return n < cap ? n : cap;
}

/* ---- the end rules beneath a diagram ------------------------------------------------ */

int vc_draw_shogi_coords(const struct vc_variant *v)
{
	int on = v->coords ? v->coords == 2 : v->shogi_coords;
	return on && v->files <= 9;
}

int vc_draw_in_region(const struct vc_variant *v, int sq)
{
	return v->end.region &&
	       (vc_bit_test(v->end.region_sq[0], sq) || vc_bit_test(v->end.region_sq[1], sq));
}

int vc_draw_end_notes(const struct vc_position *p, struct vc_buf *b)
{
	const struct vc_variant *v = p->v;
	int n = 0;
	if (v->end.checks) {
		vc_buf_printf(b, "checks to give: White %d, Black %d\n",
			      v->end.checks - p->checks[0], v->end.checks - p->checks[1]);
		n++;
	}
	if (v->end.region) {
		char sq[8];
		int first = 1;
		vc_buf_adds(b, "goal:");
		for (int t = 0; t < v->ntypes; t++)
			if (v->end.region_types >> t & 1) {
				vc_buf_printf(b, "%s%s", first ? " " : ", ", v->types[t].name);
				first = 0;
			}
		if (v->end.region_name[0])
			vc_buf_printf(b, " on %s", v->end.region_name);
		vc_buf_addc(b, ':');
		for (int s = 0; s < v->nsq; s++)
			if (vc_draw_in_region(v, s)) {
				vc_square_name(v, s, sq);
				vc_buf_printf(b, " %s", sq);
			}
		vc_buf_addc(b, '\n');
		n++;
	}
	return n;
}
