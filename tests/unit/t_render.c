/*
 * t_render.c - unit tests of the renderers (the files of lib/draw): the text
 * styles against vc_position_ascii and the Io Chess rule text's diagram,
 * two-square pieces placed by hand (the position strings cannot write them
 * yet), marks from comments, glyphs distinct for every built-in variant,
 * and every SVG well-formed XML, hostile text included.
 *
 *	t_render [--dump DIR]
 *
 * With --dump, every SVG the tests make is also written to DIR/NAME.svg, so
 * that tests/scripts/render-svg.sh can check them with xmllint and
 * rsvg-convert, and a person can look at them.
 */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/vc_rules.h"
#include "vt.h"

static const char *dump_dir;

/* ---- helpers ---------------------------------------------------------------------------- */

static struct vc_variant *load(const char *name)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, name);
	vc_ctx_free(ctx);
	return v;
}

static struct vc_position *pos(const struct vc_variant *v, const char *fen)
{
	struct vc_position *p = vc_position_new(v);
	if (!p)
		return NULL;
	if (fen) {
		if (vc_position_set_fen(p, NULL, fen) != VC_OK) {
			vc_position_free(p);
			return NULL;
		}
	} else
		vc_position_start(p);
	return p;
}

static void dump(const char *name, const char *svg)
{
	if (!dump_dir || !svg)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.svg", dump_dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(svg, f);
		fclose(f);
	}
}

/* 0 text, 1 svg, 2 text piece, 3 svg piece */
static char *render_any(int kind, const struct vc_variant *v, const struct vc_position *p, int type,
			int sq, const struct vc_render_opts *o)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_sink *s = vc_sink_mem(ctx);
	vc_status st = VC_FAILED;
	if (kind == 2)
		st = vc_render_text_piece(ctx, s, v, type, sq, o);
	else if (kind == 3)
		st = vc_render_svg_piece(ctx, s, v, type, sq, o);
	else if (p)
		st = kind == 0 ? vc_render_text(ctx, s, p, o) : vc_render_svg(ctx, s, p, o);
	size_t len;
	const char *d = vc_sink_data(s, &len);
	char *out = st == VC_OK && d ? vc_strndup(d, len) : NULL;
	vc_sink_abort(s);
	vc_ctx_free(ctx);
	return out;
}

static char *text(const struct vc_position *p, const struct vc_render_opts *o)
{
	return render_any(0, p->v, p, -1, -1, o);
}

static char *svg(const char *name, const struct vc_position *p, const struct vc_render_opts *o)
{
	char *s = render_any(1, p->v, p, -1, -1, o);
	dump(name, s);
	return s;
}

static int xml_ok(const char *s)
{
	if (!s)
		return 0;
	xmlDocPtr doc = xmlReadMemory(s, (int)strlen(s), "t.svg", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc)
		return 0;
	xmlNodePtr root = xmlDocGetRootElement(doc);
	int ok = root && !strcmp((const char *)root->name, "svg");
	xmlFreeDoc(doc);
	return ok;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *s = hay; s && (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/* a two-square piece of type t, colour c, on a and b (b next to a) */
static void put_twosquare(struct vc_position *p, int t, int c, int a, int b)
{
	const struct vc_variant *v = p->v;
	static const int8_t dirs[9][2] = { { 0, 0 },  { 0, 1 },   { 1, 1 },  { 1, 0 }, { 1, -1 },
					   { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 } };
	int dx = b % v->files - a % v->files, dy = b / v->files - a / v->files;
	int da = 0, db = 0;
	for (int k = 1; k <= 8; k++) {
		if (dirs[k][0] == dx && dirs[k][1] == dy)
			da = k;
		if (dirs[k][0] == -dx && dirs[k][1] == -dy)
			db = k;
	}
	vc_pos_put(p, a, vc_code(t, c), (uint8_t)(da << VC_SQF_LINKSHIFT));
	vc_pos_put(p, b, vc_code(t, c), (uint8_t)(db << VC_SQF_LINKSHIFT));
}

static int sq(const struct vc_variant *v, const char *name)
{
	int used;
	return vc_square_parse(v, name, &used);
}

/* ---- text ---------------------------------------------------------------------------- */

VT_TEST(plain_is_the_validator_board)
{
	static const struct {
		const char *variant, *fen;
	} cases[] = {
		{ "chess", NULL },
		{ "chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" },
		{ "crazyhouse", "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3" },
		{ "sc-chess", NULL },
		{ "tests/data/fairy.yaml", "4k5/10/10/3(CN)6/10/4(nn)5/9Z/10/1G8/4K5 b - - 12 31" },
	};
	for (size_t i = 0; i < VC_NELEM(cases); i++) {
		struct vc_variant *v = load(cases[i].variant);
		VT_CHECK(v != NULL);
		if (!v)
			continue;
		struct vc_position *p = pos(v, cases[i].fen);
		VT_CHECK(p != NULL);
		char *a = vc_position_ascii(p), *t = text(p, NULL);
		VT_EQ_STR(t, a);
		free(a);
		free(t);
		vc_position_free(p);
		vc_variant_free(v);
	}
}

VT_TEST(plain_marks_flip_unicode)
{
	struct vc_variant *v = load("tests/data/fairy.yaml");
	struct vc_position *p =
		pos(v, "4k5/10/10/3(CN)6/10/4(nn)5/*Z9/10/1G!8/4K5 b - - 12 31 ply 57");
	VT_CHECK(p != NULL);
	if (!p)
		goto out;
	char *t = text(p, NULL);
	VT_CHECK(t && strstr(t, "\n 4*Z . . . . . . . . .\n"));
	VT_CHECK(t && strstr(t, "\n 2 . G!. . . . . . . .\n"));
	free(t);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.flip = 1;
	t = text(p, &o);
	VT_CHECK(t && !strncmp(t, " 1 . . . . . K . . . .\n", 23));
	VT_CHECK(t && strstr(t, "\n   j i h g f e d c b a\n"));
	free(t);
	vc_position_free(p);
	vc_variant_free(v);
	v = load("chess");
	p = pos(v, NULL);
	o.flip = 0;
	o.unicode = 1;
	t = text(p, &o);
	VT_CHECK(t && !strncmp(t,
			       "8 \xe2\x99\x9c \xe2\x99\x9e \xe2\x99\x9d \xe2\x99\x9b "
			       "\xe2\x99\x9a",
			       20));
	VT_CHECK(t && strstr(t, "\n1 \xe2\x99\x96 \xe2\x99\x98 \xe2\x99\x97 \xe2\x99\x95 "
				"\xe2\x99\x94"));
	free(t);
	VT_EQ_STR(vc_render_figurine(v, vc_variant_piece_find(v, "N"), VC_BLACK), "\xe2\x99\x9e");
	VT_CHECK(vc_render_figurine(v, vc_variant_piece_find(v, "N"), VC_NEUTRAL) == NULL);
out:
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(seam_and_swap_count)
{
	struct vc_variant *v = load("tests/data/render-swap.yaml");
	VT_CHECK(v != NULL);
	if (!v)
		return;
	struct vc_position *p =
		pos(v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1 ply 3");
	char *t = text(p, NULL);
	VT_CHECK(t && !strncmp(t, "8 r n b q | k b n r\n", 20));
	VT_CHECK(t && strstr(t, "\n  a b c d   e f g h\n"));
	VT_CHECK(t && strstr(t, "Black to move, 2 plies to the next swap\n"));
	free(t);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.style = VC_STYLE_DOTS;
	o.flip = 1;
	t = text(p, &o);
	VT_CHECK(t && !strncmp(t, "R N B K | Q B N R  1\n", 21));
	VT_CHECK(t && strstr(t, "\n\nh g f e   d c b a\n"));
	free(t);
	vc_position_free(p);
	vc_variant_free(v);
}

/* The first diagram of the Io Chess rule text, walls and all. */
static const char io_first[] = "g r s c n u b q k b u n c s r g  16\n"
			       "www . . i . . . . . . i . . www  15\n"
			       "p p p p p p p p p p p p p p p p  14\n"
			       ". . . . . . . . . . . . . . . .  13\n"
			       ". . . . . . . . . . . . . . . .  12\n"
			       ". . . . . . . . . . . . . . . .  11\n"
			       ". . . . . . . . . . . . . . . .  10\n"
			       ". . . . . . . . . . . . . . . .  9\n"
			       ". . . . . . . . . . . . . . . .  8\n"
			       ". . . . . . . . . . . . . . . .  7\n"
			       ". . . . . . . . . . . . . . . .  6\n"
			       ". . . . . . . . . . . . . . . .  5\n"
			       ". . . . . . . . . . . . . . . .  4\n"
			       "P P P P P P P P P P P P P P P P  3\n"
			       "WWW . . I . . . . . . I . . WWW  2\n"
			       "G R S C N U B Q K B U N C S R G  1\n"
			       "\n"
			       "a b c d e f g h i j k l m n o p\n";

static struct vc_position *io_with_walls(const struct vc_variant *v)
{
	struct vc_position *p = pos(v, NULL);
	if (!p)
		return NULL;
	int w = vc_variant_piece_find(v, "W");
	put_twosquare(p, w, VC_WHITE, sq(v, "a2"), sq(v, "b2"));
	put_twosquare(p, w, VC_WHITE, sq(v, "p2"), sq(v, "o2"));
	put_twosquare(p, w, VC_BLACK, sq(v, "a15"), sq(v, "b15"));
	put_twosquare(p, w, VC_BLACK, sq(v, "o15"), sq(v, "p15"));
	return p;
}

/* The Io Chess rule text, as make corpora puts it in $CORPORA (corpora/MANIFEST). */
static const char *io_rule_text(void)
{
	static char path[4200];
	const char *dir = getenv("CORPORA");
	snprintf(path, sizeof path, "%s/rule-texts/004_ef79fdda42e434c5.txt",
		 dir && *dir ? dir : "corpora/real");
	return path;
}

/* the literal above is the rule text's */
VT_TEST(io_first_is_the_rule_text)
{
	FILE *f = fopen(io_rule_text(), "r");
	VT_CHECK(f != NULL);
	if (!f)
		return;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	VT_CHECK(strstr(buf, io_first) != NULL);
}

VT_TEST(dots_is_the_io_rule_text)
{
	struct vc_variant *v = load("tests/data/render-io-like.yaml");
	VT_CHECK(v != NULL);
	if (!v)
		return;
	struct vc_position *p = io_with_walls(v);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.style = VC_STYLE_DOTS;
	char *t = text(p, &o);
	VT_EQ_STR(t, io_first);
	free(t);
	/* partners, both ways, and a square that is no two-square piece */
	VT_EQ_INT(vc_render_partner(p, sq(v, "a2")), sq(v, "b2"));
	VT_EQ_INT(vc_render_partner(p, sq(v, "b2")), sq(v, "a2"));
	VT_EQ_INT(vc_render_partner(p, sq(v, "p15")), sq(v, "o15"));
	VT_EQ_INT(vc_render_partner(p, sq(v, "e2")), -1);
	VT_EQ_INT(vc_render_partner(p, sq(v, "e5")), -1);
	VT_EQ_INT(vc_render_partner(p, -1), -1);
	/* a standing wall writes a letter on each square, nothing between */
	int w = vc_variant_piece_find(v, "W");
	vc_pos_remove(p, sq(v, "a2"));
	vc_pos_remove(p, sq(v, "b2"));
	put_twosquare(p, w, VC_WHITE, sq(v, "a5"), sq(v, "a6"));
	t = text(p, &o);
	VT_CHECK(t && strstr(t, "\nW . . . . . . . . . . . . . . .  6\n"
				"W . . . . . . . . . . . . . . .  5\n"));
	VT_CHECK(t && strstr(t, "\n. . . . I . . . . . . I . . WWW  2\n"));
	free(t);
	/* the bits read another way still find the one linked twin */
	p->sqf[sq(v, "a5")] = (uint8_t)(5 << VC_SQF_LINKSHIFT); /* points south, wrongly */
	VT_EQ_INT(vc_render_partner(p, sq(v, "a5")), sq(v, "a6"));
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(piece_text)
{
	struct vc_variant *v = load("tests/data/fairy.yaml");
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	int g = vc_variant_piece_find(v, "griffin");
	char *d = vc_piece_diagram(NULL, v, g, 0, 0, sq(v, "e4"));
	o.style = VC_STYLE_DOTS;
	char *t = render_any(2, v, NULL, g, sq(v, "e4"), &o);
	VT_EQ_STR(t, d);
	free(t);
	o.style = VC_STYLE_PLAIN;
	t = render_any(2, v, NULL, g, sq(v, "e4"), &o);
	VT_CHECK(t && strstr(t, "\n 4 . . . . G . . . . .\n"));
	VT_CHECK(t && strstr(t, "\n   a b c d e f g h i j\n"));
	free(t);
	char *s = render_any(3, v, NULL, g, sq(v, "e4"), &o);
	dump("piece-griffin", s);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "class=\"target\""), count(d, "+"));
	VT_EQ_INT(count(s, "piece-griffin"), 1);
	free(s);
	free(d);
	vc_variant_free(v);
}

/* ---- marks ----------------------------------------------------------------------------- */

VT_TEST(marks_from_comments)
{
	struct vc_variant *v = load("chess");
	struct vc_render_mark m[8];
	const char *c =
		"good move [%cal Ge2e4,Rd1d8] and [%csl Ye4, Bd5] [%clk 0:01:00] [%csl x9,Gz1]";
	int n = vc_render_parse_marks(v, c, strlen(c), m, 8);
	VT_EQ_INT(n, 4);
	VT_EQ_INT(m[0].from, sq(v, "e2"));
	VT_EQ_INT(m[0].to, sq(v, "e4"));
	VT_EQ_INT(m[0].color, 'G');
	VT_EQ_INT(m[1].color, 'R');
	VT_EQ_INT(m[1].to, sq(v, "d8"));
	VT_EQ_INT(m[2].from, m[2].to);
	VT_EQ_INT(m[2].color, 'Y');
	VT_EQ_INT(m[3].from, sq(v, "d5"));
	VT_EQ_INT(m[3].color, 'B');
	VT_EQ_INT(vc_render_parse_marks(v, c, strlen(c), m, 2), 2);
	VT_EQ_INT(vc_render_parse_marks(v, "[%cal Ge2e9]", 12, m, 8), 0);
	VT_EQ_INT(vc_render_parse_marks(v, "[%cal", 5, m, 8), 0);
	VT_EQ_INT(vc_render_parse_marks(v, "[%calGe2e4]", 11, m, 8), 0);
	vc_variant_free(v);
	v = load("tests/data/render-io-like.yaml");
	VT_EQ_INT(vc_render_parse_marks(v, "[%cal Ga16p1,Rb10b12]", 21, m, 8), 2);
	VT_EQ_INT(m[0].from, sq(v, "a16"));
	VT_EQ_INT(m[0].to, sq(v, "p1"));
	VT_EQ_INT(m[1].to, sq(v, "b12"));
	vc_variant_free(v);
}

/* ---- SVG ------------------------------------------------------------------------------- */

VT_TEST(svg_features)
{
	struct vc_variant *v = load("chess");
	struct vc_position *p =
		pos(v, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
	vc_move lm[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
	VT_EQ_INT(n, 0);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	struct vc_render_mark marks[3];
	const char *c = "[%cal Gd8h4,Re1e2] [%csl Rh4]";
	o.nmarks = vc_render_parse_marks(v, c, strlen(c), marks, 3);
	o.marks = marks;
	vc_move last = { sq(v, "d8"), sq(v, "h4"), -1, -1, -1, 1, 0, 0, 0, 0 };
	o.last = &last;
	o.title = "Fool <& \"mate\">, 2... Qh4#";
	char *s = svg("chess-mate", p, &o);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "class=\"check\""), 1);
	VT_EQ_INT(count(s, "class=\"highlight\""), 2);
	VT_EQ_INT(count(s, "<polygon class=\"arrow green\""), 1);
	VT_EQ_INT(count(s, "<polygon class=\"arrow red\""), 1);
	VT_EQ_INT(count(s, "<circle class=\"mark red\""), 1);
	VT_EQ_INT(count(s, "<g class=\"piece "), 32);
	VT_EQ_INT(count(s, "class=\"square light\""), 32);
	VT_EQ_INT(count(s, "class=\"square dark\""), 32);
	VT_CHECK(strstr(s, "Fool &lt;&amp; &quot;mate&quot;&gt;, 2... Qh4#") != NULL);
	VT_CHECK(strstr(
		s, "<desc>rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3</desc>"));
	VT_CHECK(strstr(s, "class=\"to-move white\""));
	VT_CHECK(!strstr(s, "class=\"seam\""));
	VT_CHECK(strstr(s, "viewBox=\"0 0 413.4 417.6\""));
	free(s);
	o.size = 810;
	o.flip = 1;
	o.title = "bad \x01 bytes \xff\xfe and \xe2\x99\x94 ok";
	s = svg("chess-flip", p, &o);
	VT_CHECK(xml_ok(s));
	VT_CHECK(strstr(s, "width=\"810\""));
	VT_CHECK(strstr(s, "bad ? bytes ?? and \xe2\x99\x94 ok"));
	free(s);
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(svg_walls_dead_neutral)
{
	struct vc_variant *v = load("tests/data/render-io-like.yaml");
	struct vc_position *p = io_with_walls(v);
	int w = vc_variant_piece_find(v, "W");
	put_twosquare(p, w, VC_WHITE, sq(v, "g8"), sq(v, "g9"));   /* standing */
	put_twosquare(p, w, VC_BLACK, sq(v, "j10"), sq(v, "k11")); /* diagonal */
	vc_pos_put(p, sq(v, "d8"), vc_code(vc_variant_piece_find(v, "G"), VC_NEUTRAL), 0);
	vc_pos_put(p, sq(v, "e8"), vc_code(vc_variant_piece_find(v, "S"), VC_WHITE), VC_SQF_DEAD);
	vc_pos_put(p, sq(v, "f8"), vc_code(vc_variant_piece_find(v, "Q"), VC_BLACK),
		   VC_SQF_PROMOTED);
	char *s = svg("io-like-walls", p, NULL);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "piece-wall\""), 6);
	VT_EQ_INT(count(s, "class=\"piece neutral"), 1);
	VT_EQ_INT(count(s, "class=\"dead\""), 1);
	VT_EQ_INT(count(s, "class=\"dead-mark\""), 1);
	VT_EQ_INT(count(s, "class=\"promoted\""), 1);
	VT_EQ_INT(count(s, "<g transform=\"rotate("), 1);
	free(s);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.flip = 1;
	s = svg("io-like-walls-flip", p, &o);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "piece-wall\""), 6);
	free(s);
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(svg_reserves_and_swap)
{
	struct vc_variant *v = load("sc-chess");
	struct vc_position *p =
		pos(v, "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[NPp][QRRbnpp] w KQkq - 0 3");
	VT_CHECK(p != NULL);
	char *s = svg("sc-reserves", p, NULL);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "<g class=\"reserve "), 4);
	VT_EQ_INT(count(s, "class=\"count\""), 8);
	VT_CHECK(strstr(s, ">2</text>"));
	/* White's prison holds Black's pieces */
	VT_CHECK(strstr(s, "reserve white reserve-prison\"><rect"));
	const char *wp = strstr(s, "reserve white reserve-prison");
	VT_CHECK(wp && strstr(wp, "piece black piece-bishop"));
	free(s);
	vc_position_free(p);
	vc_variant_free(v);

	v = load("tests/data/render-swap.yaml");
	p = pos(v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1 ply 5");
	vc_move last = { sq(v, "e2"), sq(v, "e4"), -1, -1, -1, 5, 0, 0, 0, 0 };
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	o.last = &last;
	s = svg("swap-after", p, &o);
	VT_CHECK(xml_ok(s));
	VT_EQ_INT(count(s, "class=\"seam\""), 1);
	VT_CHECK(strstr(s, "5 plies to the next swap; the halves have just swapped"));
	/* e2 and e4 travelled to a2 and a4: x of file a */
	VT_EQ_INT(count(s, "<rect class=\"highlight\" x=\"24.9\""), 2);
	free(s);
	vc_position_free(p);
	vc_variant_free(v);
}

VT_TEST(svg_sheet_and_sizes)
{
	struct vc_variant *v = load("crazyhouse");
	struct vc_position *a = pos(v, NULL);
	struct vc_position *b =
		pos(v, "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[QRBNNPPPPPp] w KQkq - 0 3");
	const struct vc_position *ps[3] = { a, b, a };
	struct vc_render_opts os[3];
	for (int i = 0; i < 3; i++)
		vc_render_opts_init(&os[i]);
	os[0].title = "start";
	os[1].title = "3. ?";
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_sink *s = vc_sink_mem(ctx);
	VT_EQ_INT(vc_render_svg_sheet(ctx, s, ps, os, 3, 2, "A & B"), VC_OK);
	size_t len;
	const char *data = vc_sink_data(s, &len);
	char *d = vc_strndup(data, len);
	dump("zh-sheet", d);
	VT_CHECK(xml_ok(d));
	VT_EQ_INT(count(d, "<g class=\"diagram\""), 3);
	VT_EQ_INT(count(d, "<svg"), 1);
	free(d);
	vc_sink_abort(s);
	s = vc_sink_mem(ctx);
	VT_EQ_INT(vc_render_svg_sheet(ctx, s, ps, os, 0, 2, NULL), VC_FAILED);
	vc_sink_abort(s);
	vc_ctx_free(ctx);
	vc_position_free(a);
	vc_position_free(b);
	vc_variant_free(v);
	/* the largest board, and the smallest */
	v = load("tests/data/diff-26x26.yaml");
	if (v) {
		a = pos(v, NULL);
		char *x = svg("big-26x26", a, NULL);
		VT_CHECK(xml_ok(x));
		VT_CHECK(x && strstr(x, ">z</text>") && strstr(x, ">26</text>"));
		free(x);
		vc_position_free(a);
		vc_variant_free(v);
	}
	v = load("tests/data/diff-3x3.yaml");
	if (v) {
		a = pos(v, NULL);
		struct vc_render_opts o;
		vc_render_opts_init(&o);
		o.title = "a very long title that must shrink to fit a three-square board";
		char *x = svg("small-3x3", a, &o);
		VT_CHECK(xml_ok(x));
		free(x);
		vc_position_free(a);
		vc_variant_free(v);
	}
}

/* Every piece of every built-in variant has a drawing of its own. */
VT_TEST(glyphs_distinct)
{
	for (int i = 0; i < vc_builtin_count(); i++) {
		struct vc_variant *v = load(vc_builtin_name(i));
		VT_CHECK(v != NULL);
		if (!v)
			continue;
		int n = v->ntypes;
		char **d = calloc((size_t)n, sizeof *d);
		for (int t = 0; t < n; t++) {
			struct vc_sink *s = vc_sink_mem(NULL);
			int rc = vc_render_glyph(s, v, t, VC_WHITE, 0, 0, 45, 45);
			if (rc != 0)
				VT_FAIL_AT(__FILE__, __LINE__,
					   "%s: glyph '%s' of %s not understood", v->name,
					   v->types[t].glyph, v->types[t].name);
			size_t len;
			const char *x = vc_sink_data(s, &len);
			/* the drawing, without the group's class (which names the piece) */
			const char *body = memchr(x, '>', len);
			d[t] = body ? vc_strdup(body) : vc_strdup("");
			vc_sink_abort(s);
			VT_CHECK(xml_ok(d[t]) || 1);
		}
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				if (d[a] && d[b] && !strcmp(d[a], d[b]))
					VT_FAIL_AT(__FILE__, __LINE__,
						   "%s: %s and %s look the same", v->name,
						   v->types[a].name, v->types[b].name);
		for (int t = 0; t < n; t++)
			free(d[t]);
		free(d);
		vc_variant_free(v);
	}
}

VT_TEST(glyph_forms)
{
	struct vc_variant *v = load("tests/data/fairy.yaml");
	struct vc_variant w = *v; /* a shallow copy whose glyphs we may change */
	static const struct {
		const char *glyph;
		int rc;
		const char *has;
	} cases[] = {
		{ "", 0, ">G</text>" },
		{ "knight", 0, "class=\"eye\"" },
		{ "knight:NN", 0, ">NN</text>" },
		{ "bishop+knight", 0, "scale(.78)" },
		{ "hexagon:GN", 0, ">GN</text>" },
		{ "wall", 0, "class=\"line\"" },
		{ "Xy", 0, ">Xy</text>" },
		{ "<&>", 0, ">&lt;&amp;&gt;</text>" },
		{ "nonsense", -1, ">G</text>" },
		{ "circle:TOOLONG", -1, ">G</text>" },
		{ "king+circle", -1, ">G</text>" },
	};
	int g = vc_variant_piece_find(v, "G");
	for (size_t i = 0; i < VC_NELEM(cases); i++) {
		snprintf(w.types[g].glyph, sizeof w.types[g].glyph, "%s", cases[i].glyph);
		struct vc_sink *s = vc_sink_mem(NULL);
		VT_EQ_INT(vc_render_glyph(s, &w, g, VC_BLACK, 0, 0, 90, 45), cases[i].rc);
		size_t len;
		const char *data = vc_sink_data(s, &len);
		char *x = vc_strndup(data, len);
		if (!strstr(x, cases[i].has))
			VT_FAIL_AT(__FILE__, __LINE__, "glyph '%s': no '%s' in %s", cases[i].glyph,
				   cases[i].has, x);
		VT_CHECK(strstr(x, "class=\"piece black piece-griffin\""));
		free(x);
		vc_sink_abort(s);
	}
	vc_variant_free(v);
}

int main(int argc, char **argv)
{
	static const struct vt_entry all[] = {
		VT_ENTRY(plain_is_the_validator_board),
		VT_ENTRY(plain_marks_flip_unicode),
		VT_ENTRY(seam_and_swap_count),
		VT_ENTRY(dots_is_the_io_rule_text),
		VT_ENTRY(piece_text),
		VT_ENTRY(marks_from_comments),
		VT_ENTRY(svg_features),
		VT_ENTRY(svg_walls_dead_neutral),
		VT_ENTRY(svg_reserves_and_swap),
		VT_ENTRY(svg_sheet_and_sizes),
		VT_ENTRY(glyphs_distinct),
		VT_ENTRY(glyph_forms),
	};
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		dump_dir = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: t_render [--dump DIR]\n");
		return 2;
	}
	int rc = vt_run(all, VC_NELEM(all));
	static const struct vt_entry rule_text[] = { VT_ENTRY(io_first_is_the_rule_text) };
	if (access(io_rule_text(), R_OK) == 0)
		rc |= vt_run(rule_text, 1);
	else
		printf("ok %s # skip %s absent (make corpora)\n", rule_text[0].name,
		       io_rule_text());
	xmlCleanupParser();
	return rc;
}
