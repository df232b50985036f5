/*
 * draw/glyphs.c - the drawings of the pieces, as SVG, and their Unicode
 * figurines.
 *
 * Model.  A piece's glyph (the "glyph" of its variant file) names a base
 * drawing and an optional label: "knight", "hexagon:GN", "bishop+knight",
 * "wall".  The orthodox bases are silhouettes of our own, drawn with paths
 * on a 100x100 grid; the shapes carry their label (by default the piece's
 * symbol) in the generic sans-serif family, so nothing needs installing.  A
 * drawing is one group "piece COLOUR piece-NAME" whose parts have the
 * classes body (filled with the side's colour), line (inner strokes), eye
 * (dots in the contrasting colour), badge and label; the renderer's
 * <style> colours them, so a page may restyle every piece at once.
 *
 * Invariants: every glyph string maps to exactly one drawing (unknown ones
 * to the symbol on a circle, reported by the return value); the output is
 * well-formed XML for any variant data (labels and names are escaped, and
 * only printable ASCII is taken from a glyph).
 */
#include <stdio.h>
#include <string.h>

#include "draw/vc_draw.h"

enum base {
	B_KING,
	B_QUEEN,
	B_ROOK,
	B_BISHOP,
	B_KNIGHT,
	B_PAWN,
	B_NORTHO, /* the orthodox drawings come before this */
	B_CIRCLE = B_NORTHO,
	B_SQUARE,
	B_DIAMOND,
	B_HEXAGON,
	B_OCTAGON,
	B_TRIANGLE,
	B_SHIELD,
	B_STAR,
	B_WALL,
	B_NBASE
};

static const char *const base_names[B_NBASE] = { "king",    "queen",   "rook",    "bishop",
						 "knight",  "pawn",    "circle",  "square",
						 "diamond", "hexagon", "octagon", "triangle",
						 "shield",  "star",    "wall" };

struct glyph {
	int base, base2; /* base2: the second drawing of a compound, or -1 */
	char label[4];
	int has_label; /* a label was written (may be empty: "wall:") */
};

static int base_find(const char *s, size_t n)
{
	for (int i = 0; i < B_NBASE; i++)
		if (strlen(base_names[i]) == n && !strncmp(base_names[i], s, n))
			return i;
	return -1;
}

static int printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return 1;
}

/* Reads a glyph string; returns 0, or -1 (g then holds the fallback). */
static int glyph_parse(const char *s, struct glyph *g)
{
	g->base = B_CIRCLE;
	g->base2 = -1;
	g->label[0] = 0;
	g->has_label = 0;
	if (!s || !*s)
		return 0;
	size_t n = strlen(s);
	const char *colon = strchr(s, ':');
	size_t bn = colon ? (size_t)(colon - s) : n;
	if (colon) {
		size_t ln = n - bn - 1;
		if (ln > 3 || !printable(colon + 1, ln))
			return -1;
		memcpy(g->label, colon + 1, ln);
		g->label[ln] = 0;
		g->has_label = 1;
	}
	const char *plus = memchr(s, '+', bn);
	if (plus) {
		int a = base_find(s, (size_t)(plus - s));
		int b = base_find(plus + 1, bn - (size_t)(plus - s) - 1);
		if (a < 0 || b < 0 || a >= B_NORTHO || b >= B_NORTHO)
			goto bad;
		g->base = a;
		g->base2 = b;
		return 0;
	}
	int b = base_find(s, bn);
	if (b >= 0) {
		g->base = b;
		return 0;
	}
	if (!colon && bn <= 3 && printable(s, bn)) {
		memcpy(g->label, s, bn);
		g->label[bn] = 0;
		g->has_label = 1;
		return 0;
	}
bad:
	g->base = B_CIRCLE;
	g->base2 = -1;
	g->label[0] = 0;
	g->has_label = 0;
	return -1;
}

/* ---- the drawings, on a 100x100 grid ---------------------------------------- */

#define BODY "<path class=\"body\" d=\""
#define LINE "<path class=\"line\" d=\""
#define END "\"/>"

static const char *const ortho[B_NORTHO] = {
	/* king: a cross over two rounded lobes, a band and a foot */
	BODY "M46 8H54V17H62V25H54V38H46V25H38V17H46Z" END BODY
	     "M31 84L27 66C17 60 14 47 22 41C31 34 42 39 50 49C58 39 69 34 78 41C86 47 83 60 73 66"
	     "L69 84Z" END BODY "M22 82H78V93H22Z" END LINE "M29 69C42 64 58 64 71 69" END LINE
	     "M50 49V64" END,
	/* queen: a crown of five balls and points */
	BODY "M29 83L17 38L35 60L36 30L46 57L50 24L54 57L64 30L65 60L83 38L71 83Z" END
	     "<circle class=\"body\" cx=\"17\" cy=\"35\" r=\"6\"/>"
	     "<circle class=\"body\" cx=\"36\" cy=\"26\" r=\"6\"/>"
	     "<circle class=\"body\" cx=\"50\" cy=\"19\" r=\"6\"/>"
	     "<circle class=\"body\" cx=\"64\" cy=\"26\" r=\"6\"/>"
	     "<circle class=\"body\" cx=\"83\" cy=\"35\" r=\"6\"/>" BODY "M22 82H78V93H22Z" END LINE
	     "M31 72C44 67 56 67 69 72" END,
	/* rook: a tower with three merlons */
	BODY "M24 16H37V26H44V16H56V26H63V16H76V38L68 45L70 80H30L32 45L24 38Z" END BODY
	     "M21 79H79V93H21Z" END LINE "M32 45H68" END LINE "M31 72H69" END,
	/* bishop: a mitre with its slit, a collar and a foot */
	"<circle class=\"body\" cx=\"50\" cy=\"13\" r=\"6\"/>" BODY
	"M50 19C65 29 70 46 62 60H38C30 46 35 29 50 19Z" END BODY "M36 60H64V68H36Z" END BODY
	"M40 68H60L67 82H33Z" END BODY "M22 82H78V93H22Z" END LINE "M56 31L45 46" END,
	/* knight: a horse's head looking left */
	BODY "M35 84L35 73C35 62 45 56 48 48C41 52 33 56 27 59C23 61 18 58 17 54C16 50 18 46 22 43"
	     "C30 35 37 27 43 22L43 10L51 18L57 9L60 21C73 28 81 44 79 62L77 84Z" END BODY
	     "M25 82H81V93H25Z" END "<circle class=\"eye\" cx=\"40\" cy=\"32\" r=\"3.5\"/>"
	     "<circle class=\"eye\" cx=\"22\" cy=\"51\" r=\"2\"/>" LINE
	     "M64 27C73 37 75 51 72 64" END,
	/* pawn: a ball on a cone */
	"<circle class=\"body\" cx=\"50\" cy=\"29\" r=\"14\"/>" BODY
	"M34 83C34 66 42 57 44 46H56C58 57 66 66 66 83Z" END BODY "M38 43H62V49H38Z" END BODY
	"M25 82H75V93H25Z" END,
};

static const char *const shapes[B_WALL - B_NORTHO] = {
	"<circle class=\"body\" cx=\"50\" cy=\"50\" r=\"41\"/>",
	"<rect class=\"body\" x=\"11\" y=\"11\" width=\"78\" height=\"78\" rx=\"9\"/>",
	BODY "M50 6L94 50L50 94L6 50Z" END,
	BODY "M28 11H72L94 50L72 89H28L6 50Z" END,
	BODY "M33 8H67L92 33V67L67 92H33L8 67V33Z" END,
	BODY "M50 7L95 89H5Z" END,
	BODY "M12 10H88V47C88 71 71 85 50 94C29 85 12 71 12 47Z" END,
	BODY "M50 4L59 28L83 17L72 41L96 50L72 59L83 83L59 72L50 96L41 72L17 83L28 59L4 50"
	     "L28 41L17 17L41 28Z" END,
};

/* where a shape's label sits: the baseline's y for a font of size fs */
static double label_y(int base, double fs)
{
	double cy = base == B_TRIANGLE ? 63 : base == B_SHIELD ? 49 : 50;
	return cy + fs * 0.36;
}

static void put_label(struct vc_sink *out, const char *label, double cx, double y, double fs)
{
	vc_sink_printf(out, "<text class=\"label\" x=\"%.5g\" y=\"%.5g\" font-size=\"%.5g\">", cx,
		       y, fs);
	vc_svg_put_text(out, label);
	vc_sink_puts(out, "</text>");
}

static double label_size(size_t n)
{
	return n <= 1 ? 50 : n == 2 ? 38 : 29;
}

/* bricks over a W x H box: courses about 24 high, bricks about 48 long,
 * every other course shifted by half a brick */
static void draw_wall(struct vc_sink *out, double W, double H)
{
	vc_sink_printf(out,
		       "<rect class=\"body\" x=\"3\" y=\"3\" width=\"%.5g\" height=\"%.5g\" "
		       "rx=\"3\"/>",
		       W - 6, H - 6);
	int courses = (int)((H - 6) / 24 + 0.5), bricks = (int)((W - 6) / 48 + 0.5);
	if (courses < 1)
		courses = 1;
	if (bricks < 1)
		bricks = 1;
	double ch = (H - 6) / courses, bw = (W - 6) / bricks;
	vc_sink_puts(out, "<path class=\"line\" d=\"");
	for (int c = 1; c < courses; c++)
		vc_sink_printf(out, "M4 %.5gH%.5g", 3 + c * ch, W - 4);
	for (int c = 0; c < courses; c++) {
		double y0 = 3 + c * ch + (c ? 0 : 1),
		       y1 = 3 + (c + 1) * ch - (c == courses - 1 ? 1 : 0);
		for (double x = 3 + (c % 2 ? bw / 2 : bw); x < W - 3 - bw / 4; x += bw)
			vc_sink_printf(out, "M%.5g %.5gV%.5g", x, y0, y1);
	}
	vc_sink_puts(out, END);
}

/* one drawing on the 100x100 grid */
static void draw_base(struct vc_sink *out, int base, const char *label)
{
	if (base < B_NORTHO) {
		vc_sink_puts(out, ortho[base]);
		if (label && *label) {
			size_t n = strlen(label);
			double bw = 14 + 13 * (double)n;
			vc_sink_printf(out,
				       "<rect class=\"badge\" x=\"%.5g\" y=\"62\" width=\"%.5g\" "
				       "height=\"30\" "
				       "rx=\"8\"/>",
				       98 - bw, bw);
			put_label(out, label, 98 - bw / 2, 84, 24);
		}
		return;
	}
	if (base == B_WALL) {
		draw_wall(out, 100, 100);
		if (label && *label)
			put_label(out, label, 50, 50 + 0.36 * 40, 40);
		return;
	}
	vc_sink_puts(out, shapes[base - B_NORTHO]);
	if (label && *label) {
		double fs = label_size(strlen(label));
		if (base == B_TRIANGLE)
			fs *= 0.8;
		put_label(out, label, 50, label_y(base, fs), fs);
	}
}

static void draw_glyph(struct vc_sink *out, const struct glyph *g, const char *label)
{
	if (g->base2 >= 0) {
		vc_sink_puts(out, "<g transform=\"translate(-4 10) scale(.78)\">");
		draw_base(out, g->base, NULL);
		vc_sink_puts(out, "</g><g transform=\"translate(26 10) scale(.78)\">");
		draw_base(out, g->base2, NULL);
		vc_sink_puts(out, "</g>");
		if (label && *label) {
			size_t n = strlen(label);
			double bw = 14 + 13 * (double)n;
			vc_sink_printf(out,
				       "<rect class=\"badge\" x=\"%.5g\" y=\"2\" width=\"%.5g\" "
				       "height=\"30\" "
				       "rx=\"8\"/>",
				       50 - bw / 2, bw);
			put_label(out, label, 50, 24, 24);
		}
		return;
	}
	draw_base(out, g->base, label);
}

static const char *color_class(int color)
{
	return color == VC_WHITE ? "white" : color == VC_BLACK ? "black" : "neutral";
}

int vc_render_glyph(struct vc_sink *out, const struct vc_variant *v, int type, int color, double x,
		    double y, double w, double h)
{
	if (type < 0 || type >= v->ntypes || w <= 0 || h <= 0)
		return -1;
	const struct vc_ptype *pt = &v->types[type];
	struct glyph g;
	int rc = glyph_parse(pt->glyph, &g);
	const char *label = g.has_label                             ? g.label
			    : g.base == B_WALL || g.base < B_NORTHO ? ""
								    : pt->symbol;
	/* piece names are lower-case letters, digits and hyphens, so a class;
	 * anything else becomes a hyphen all the same */
	char cls[sizeof pt->name];
	vc_svg_class(pt->name, cls, sizeof cls);
	vc_sink_printf(out, "<g class=\"piece %s piece-%s\" transform=\"translate(%.5g %.5g) ",
		       color_class(color), cls, x, y);
	if (w == h) {
		vc_sink_printf(out, "scale(%.5g)\">", w / 100);
		draw_glyph(out, &g, label);
		vc_sink_puts(out, "</g>");
		return rc;
	}
	/* a two-square piece: a capsule along the long side (or bricks over the
	 * whole box), the drawing upright at its middle */
	double k = (w < h ? w : h) / 100, W = w / k, H = h / k;
	vc_sink_printf(out, "scale(%.5g)\">", k);
	if (g.base == B_WALL && g.base2 < 0) {
		draw_wall(out, W, H);
		if (*label)
			put_label(out, label, W / 2, H / 2 + 0.36 * 40, 40);
	} else {
		double r = 44;
		vc_sink_printf(
			out,
			"<rect class=\"body\" x=\"6\" y=\"6\" width=\"%.5g\" height=\"%.5g\" "
			"rx=\"%.5g\"/>",
			W - 12, H - 12, r);
		vc_sink_printf(out, "<g transform=\"translate(%.5g %.5g) scale(.8)\">",
			       (W - 80) / 2, (H - 80) / 2);
		draw_glyph(out, &g, label);
		vc_sink_puts(out, "</g>");
	}
	vc_sink_puts(out, "</g>");
	return rc;
}

const char *vc_render_figurine(const struct vc_variant *v, int type, int color)
{
	static const char *const fig[2][B_NORTHO] = {
		/* U+2654 to U+2659, U+265A to U+265F, in UTF-8 */
		{ "\xe2\x99\x94", "\xe2\x99\x95", "\xe2\x99\x96", "\xe2\x99\x97", "\xe2\x99\x98",
		  "\xe2\x99\x99" },
		{ "\xe2\x99\x9a", "\xe2\x99\x9b", "\xe2\x99\x9c", "\xe2\x99\x9d", "\xe2\x99\x9e",
		  "\xe2\x99\x9f" },
	};
	if (type < 0 || type >= v->ntypes || color == VC_NEUTRAL)
		return NULL;
	struct glyph g;
	if (glyph_parse(v->types[type].glyph, &g) != 0 || g.base >= B_NORTHO || g.base2 >= 0 ||
	    (g.has_label && g.label[0]))
		return NULL;
	if (!v->types[type].glyph[0])
		return NULL;
	return fig[color == VC_BLACK][g.base];
}
