/*
 * t_convert.c - the writers (lib/archive/write_*.c, writer.c): the canonical
 * form, the canonical text and its folding, the XML (the serialiser against
 * libxml2's own writer, byte for byte; the reader; the byte escape), JSON
 * lines, FEN, format sniffing, and the round trips text -> text and
 * text -> XML -> text on small archives written to exercise every kind of
 * item.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "archive/vc_archive.h" /* vc_writer_xml_pure */
#include "vt.h"

static struct vc_ctx *ctx;
static char *out; /* the last conversion */
static size_t outlen;
static unsigned long nerrors; /* diagnostics of the context, errors */

static void count_diag(const struct vc_diag *d, void *user)
{
	(void)user;
	if (d->severity >= VC_SEV_ERROR)
		nerrors++;
}

static void setup(void)
{
	if (!ctx) {
		ctx = vc_ctx_new();
		vc_ctx_set_diag(ctx, count_diag, NULL);
	}
}

/* Converts in[0, n) (text, or XML when xml) to fmt; keeps invalid games
 * when keep.  Returns out (NUL-terminated), or NULL on trouble. */
static const char *convert_ex(const char *in, size_t n, int xml, enum vc_format fmt,
			      const struct vc_write_opts *o, int keep, int pure)
{
	setup();
	free(out);
	out = NULL;
	struct vc_validate_opts vo;
	memset(&vo, 0, sizeof vo);
	struct vc_validator *val = vc_validator_new(ctx, &vo);
	struct vc_replay *rp = vc_replay_new(o, fmt);
	struct vc_game *g = vc_game_new();
	struct vc_sink *s = vc_sink_mem(ctx);
	struct vc_writer *w = vc_writer_open(ctx, s, fmt, o);
	struct vc_reader *tr = NULL;
	struct vc_xml_reader *xr = NULL;
	char tmpl[] = "/tmp/t_convert.XXXXXX";
	int fd = -1;
	if (xml) {
		/* the XML reader reads files: write one */
		fd = mkstemp(tmpl);
		if (fd < 0 || write(fd, in, n) != (ssize_t)n)
			return NULL;
		close(fd);
		xr = vc_xml_reader_open(ctx, tmpl, NULL);
	} else {
		tr = vc_reader_mem(ctx, "t.pgn", in, n, NULL);
	}
	if (pure)
		vc_writer_xml_pure(w, 1);
	vc_status st;
	int bad = 0;
	while ((st = xr ? vc_xml_reader_next(xr, g) : vc_reader_next(tr, g)) == VC_OK) {
		struct vc_game_stats gs;
		if (vc_replay_run(rp, val, g, &gs) == VC_FATAL) {
			bad = 1;
			break;
		}
		if (vc_game_is_garbage(g) || (!gs.valid && !keep))
			continue;
		if (vc_writer_game(w, g, rp) != VC_OK)
			bad = 1;
	}
	if (st == VC_FATAL)
		bad = 1;
	if (vc_writer_close(w) != VC_OK)
		bad = 1;
	size_t len;
	const char *data = vc_sink_data(s, &len);
	out = malloc(len + 1);
	if (out) {
		memcpy(out, data, len);
		out[len] = '\0';
		outlen = len;
	}
	vc_sink_close(s);
	vc_reader_close(tr);
	vc_xml_reader_close(xr);
	if (xml)
		unlink(tmpl);
	vc_game_free(g);
	vc_replay_free(rp);
	vc_validator_free(val);
	return bad ? NULL : out;
}

static const char *convert(const char *in, enum vc_format fmt, const struct vc_write_opts *o)
{
	return convert_ex(in, strlen(in), 0, fmt, o, 1, 0);
}

static char *dup_out(void)
{
	char *c = malloc(outlen + 1);
	if (c) {
		memcpy(c, out ? out : "", outlen);
		c[outlen] = '\0';
	}
	return c;
}

/* ---- inputs ---- */

static const char tricky[] =
	"% an escape line before the tags\n"
	"[White \"A \\\"quoted\\\" \\\\ name\"]\n"
	"[Event \"Tricky\"]\n"
	"[Black \"B\"]\n"
	"[Result \"*\"]\n"
	"[Annotator \"me\"]\n"
	"\n"
	"{A comment   before\nthe first move} 1. e4 $1 {[%clk 0:03:00]} e5 2. Nf3 ; a semi "
	"comment\n"
	"2... Nc6 (2... d6 {with a ; inside} 3. d4 (3. Bc4 $2 (3. c3)) 3... exd4) "
	"(2... Nf6) 3. Bb5!? a6\n"
	"%escape in the movetext\n"
	"4. Ba4 ( ) Nf6 5. O-O *\n"
	"\n"
	"[Event \"Black to move\"]\n"
	"[SetUp \"1\"]\n"
	"[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n"
	"[Result \"*\"]\n"
	"\n"
	"40... Kd7 {x} 41. e4 Ke6 (41... Kd6 42. e5+) 42. e5 *\n"
	"\n"
	"[Event \"Semicolon with a brace\"]\n"
	"[Result \"1-0\"]\n"
	"\n"
	"1. e4 ; text with a } brace\n"
	"e5 1-0\n";

/* ---- tests ---- */

VT_TEST(text_canonical)
{
	const char *t = convert(tricky, VC_FORMAT_TEXT, NULL);
	VT_CHECK(t != NULL);
	if (!t)
		return;
	/* the roster first, the rest as read; escapes in tags */
	VT_CHECK(strstr(t, "% an escape line before the tags\n[Event \"Tricky\"]\n"
			   "[White \"A \\\"quoted\\\" \\\\ name\"]\n[Black \"B\"]\n[Result \"*\"]\n"
			   "[Annotator \"me\"]\n\n") == t);
	/* blanks in comments made single spaces; numbers after interruptions */
	VT_CHECK(strstr(t, "{A comment before the first move} 1. e4 $1 {[%clk 0:03:00]} 1... e5"));
	/* a ';' comment without '}' becomes a brace comment */
	VT_CHECK(strstr(t, "2. Nf3 { a\nsemi comment} 2... Nc6"));
	/* variations glued to their brackets, nested, empty */
	VT_CHECK(strstr(t, "(2... d6 {with a ; inside} 3. d4"));
	VT_CHECK(strstr(t, "(3. Bc4 $2 (3. c3)) 3...\nexd4) (2... Nf6) 3. Bb5!? a6\n"
			   "%escape in the movetext\n4. Ba4 () 4... Nf6 5. O-O *\n\n"));
	VT_CHECK(strstr(t, "40... Kd7 {x} 41. e4 Ke6 (41... Kd6 42. e5+) 42. e5 *"));
	/* a comment holding '}' stays a ';' comment */
	VT_CHECK(strstr(t, "1. e4 ; text with a } brace\n1... e5 1-0\n\n"));
}

VT_TEST(text_idempotent)
{
	convert(tricky, VC_FORMAT_TEXT, NULL);
	char *t1 = dup_out();
	convert(t1, VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(out, t1);
	/* and through XML */
	convert_ex(tricky, strlen(tricky), 0, VC_FORMAT_XML, NULL, 1, 0);
	char *x1 = dup_out();
	convert_ex(x1, strlen(x1), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_EQ_STR(out, t1);
	/* XML of canonical text -> text -> XML */
	convert_ex(t1, strlen(t1), 0, VC_FORMAT_XML, NULL, 1, 0);
	char *x2 = dup_out();
	convert_ex(x2, strlen(x2), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	char *t2 = dup_out();
	convert_ex(t2, strlen(t2), 0, VC_FORMAT_XML, NULL, 1, 0);
	VT_EQ_STR(out, x2);
	free(t1);
	free(t2);
	free(x1);
	free(x2);
}

VT_TEST(text_folding)
{
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.width = 20;
	const char *t = convert("[Result \"*\"]\n\n1. e4 {averyveryverylongwordthatdoesnotfit and"
				" more} e5 (1... c5) 2. Nf3 *\n",
				VC_FORMAT_TEXT, &o);
	VT_EQ_STR(
		t,
		"[Result \"*\"]\n\n1. e4\n{averyveryverylongwordthatdoesnotfit\nand more} 1... e5\n"
		"(1... c5) 2. Nf3 *\n\n");
	/* never past 80 columns by default, and never split in a token */
	t = convert(tricky, VC_FORMAT_TEXT, NULL);
	int col = 0, maxcol = 0, semi = 0;
	for (const char *p = t; p && *p; p++) {
		if (*p == '\n') {
			col = semi = 0;
			continue;
		}
		/* a ';' comment runs to the line end and cannot be folded */
		semi |= *p == ';';
		if (++col > maxcol && !semi)
			maxcol = col;
	}
	VT_CHECK(t && maxcol <= 80);
}

/* Folding at every width from 1 to 70 (a comment that fits on its line is
 * written whole, one that does not word by word): the movetext only
 * changes its separators, a line passes the width only when it holds one
 * token, and no line ends where the next token would have fitted. */
VT_TEST(text_folding_every_width)
{
	static const char game[] =
		"[Result \"*\"]\n\n{} 1. e4 { [%clk 0:03:00] } e5 {a} (1... c5 {b c} (1... e6 {d}) {e"
		" f g}) 2. Nf3 {[%eval 0.17] [%clk 0:02:59]} Nc6 {x} ( {pre} 2... d6 {w x y z} ) 3. Bb5"
		" {} a6 {one two three four five six seven eight nine ten eleven twelve} *\n";
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.width = 100000;
	convert(game, VC_FORMAT_TEXT, &o);
	char *flat = dup_out();
	const char *fm = flat ? strstr(flat, "\n\n") : NULL;
	VT_CHECK(fm != NULL);
	if (!fm)
		return;
	fm += 2;
	for (int width = 1; width <= 70; width++) {
		o.width = width;
		const char *t = convert(game, VC_FORMAT_TEXT, &o), *m = t ? strstr(t, "\n\n") : NULL;
		VT_CHECK(m != NULL);
		if (!m)
			break;
		m += 2;
		int bad = strlen(m) != strlen(fm);
		for (size_t i = 0; !bad && m[i]; i++)
			bad = m[i] != fm[i] && !(m[i] == '\n' && fm[i] == ' ');
		/* each line against the width and the line after it */
		for (const char *l = m; !bad && *l;) {
			const char *e = strchr(l, '\n');
			if (!e)
				break;
			size_t len = (size_t)(e - l), next = strcspn(e + 1, " \n");
			bad = (len > (size_t)width && memchr(l, ' ', len)) ||
			      (e[1] && e[1] != '\n' && len + 1 + next <= (size_t)width);
			l = e + 1;
		}
		if (bad) {
			VT_FAIL_AT(__FILE__, __LINE__, "width %d folds wrongly:\n%s", width, t);
			break;
		}
	}
	free(flat);
}

VT_TEST(text_options)
{
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.no_tags = 1;
	o.no_comments = 1;
	o.no_variations = 1;
	o.long_algebraic = 1;
	const char *t =
		convert("[Event \"x\"]\n\n1. e4 {c} e5 (1... c5) 2. Nf3 Nc6 3. Bb5 a6 4. O-O *\n",
			VC_FORMAT_TEXT, &o);
	VT_EQ_STR(t, "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. O-O *\n\n");
	memset(&o, 0, sizeof o);
	o.fen_after = 1;
	t = convert("[Result \"*\"]\n\n1. e4 $1 {c} *\n", VC_FORMAT_TEXT, &o);
	VT_EQ_STR(t, "[Result \"*\"]\n\n1. e4 $1 {[%fen "
		     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"
		     " - 0 1]} {c}\n*\n\n");
	/* and again: the comment is there already, not added twice */
	char *t1 = dup_out();
	t = convert(t1, VC_FORMAT_TEXT, &o);
	VT_EQ_STR(t, t1);
	free(t1);
}

VT_TEST(text_broken)
{
	static const char in[] =
		"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Nxe5 Nxe5 4. Nxe5 "
		"Nf6 *\n";
	const char *t = convert(in, VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(t,
		  "[Event \"x\"]\n[Result \"*\"]\n\n{vchess: error: ply 7 '4. Nxe5': no knight can "
		  "reach e5} 1. e4 e5 2. Nf3 Nc6 3.\nNxe5 Nxe5 4. Nxe5 Nf6 *\n\n");
	char *t1 = dup_out();
	t = convert(t1, VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(t, t1);
	free(t1);
	/* text the reader could not read is kept at the end */
	t = convert("[Event \"y\"]\n\n1. e4 e5 2. \x01 Nf3 *\n", VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(t, "[Event \"y\"]\n\n{vchess: error: unexpected character '\\x01'} 1. e4 e5 "
		     "{vchess: unread: \\x01 Nf3\n*} *\n\n");
	t1 = dup_out();
	t = convert(t1, VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(t, t1);
	free(t1);
	/* errors that the first conversion makes go away (a stray '}' ends up
	 * in a comment) stay as they were written */
	static const char brace[] = "[Event \"z\"]\n\n1. e4 (1. d4 {a } b? c:} 2. c4) e5 *\n";
	convert(brace, VC_FORMAT_TEXT, NULL);
	t1 = dup_out();
	VT_CHECK(strstr(t1, ";vchess: error: unexpected character '}'\n") != NULL);
	t = convert(t1, VC_FORMAT_TEXT, NULL);
	VT_EQ_STR(t, t1);
	convert_ex(brace, sizeof brace - 1, 0, VC_FORMAT_XML, NULL, 1, 0);
	char *x1 = dup_out();
	convert_ex(x1, strlen(x1), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_EQ_STR(out, t1);
	free(x1);
	free(t1);
}

/* The serialiser writes what libxml2's writer writes. */
static void same_xml(const char *in, const struct vc_write_opts *o)
{
	convert_ex(in, strlen(in), 0, VC_FORMAT_XML, o, 1, 0);
	char *fast = dup_out();
	convert_ex(in, strlen(in), 0, VC_FORMAT_XML, o, 1, 1);
	VT_EQ_STR(fast, out);
	free(fast);
}

VT_TEST(xml_serialiser)
{
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	same_xml(tricky, NULL);
	o.fen_after = 1;
	same_xml(tricky, &o);
	same_xml("[Event \"Non-ASCII: S\xC3\xA3o Paulo, caf\xC3\xA9 \xE2\x82\xAC "
		 "\xF0\x9F\x98\x80\"]\n\n"
		 "1. e4 {\xC3\xA9l\xC3\xA8ve <&> \"q\" \xF0\x9F\x98\x80} e5 {bad \x82 byte} {} *\n",
		 NULL);
	/* deeper than the serialiser's stack: libxml2 does that game */
	char deep[4000];
	size_t k = (size_t)snprintf(deep, sizeof deep, "[Event \"deep\"]\n\n1. e4 e5 ");
	for (int i = 0; i < 70; i++)
		k += (size_t)snprintf(deep + k, sizeof deep - k, "(1... c5 ");
	for (int i = 0; i < 70; i++)
		k += (size_t)snprintf(deep + k, sizeof deep - k, ")");
	snprintf(deep + k, sizeof deep - k, " *\n");
	same_xml(deep, NULL);
	/* serialised and libxml2-written games in one archive */
	size_t dl = strlen(deep), tl = strlen(tricky);
	char *mix = malloc(2 * tl + dl + 3);
	if (mix) {
		sprintf(mix, "%s\n%s\n%s", tricky, deep, tricky);
		same_xml(mix, NULL);
		free(mix);
	}
	convert(deep, VC_FORMAT_TEXT, NULL);
	char *t1 = dup_out();
	convert_ex(deep, strlen(deep), 0, VC_FORMAT_XML, NULL, 1, 0);
	char *x1 = dup_out();
	convert_ex(x1, strlen(x1), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_EQ_STR(out, t1);
	free(t1);
	free(x1);
}

VT_TEST(xml_bytes)
{
	/* a byte that is not UTF-8, a control byte, a backslash */
	static const char in[] = "[Black \"Andr\x82\"]\n[Site \"a\\\\b\"]\n[Event \"c\x7f d\"]\n\n"
				 "1. e4 {x\x01y \\x82} *\n";
	convert_ex(in, sizeof in - 1, 0, VC_FORMAT_XML, NULL, 1, 0);
	VT_CHECK(strstr(out, "<tag name=\"Black\" esc=\"text\">Andr\\x82</tag>"));
	VT_CHECK(strstr(out, "<tag name=\"Site\">a\\b</tag>"));
	VT_CHECK(strstr(out, "<comment esc=\"text\">x\\x01y \\\\x82</comment>"));
	char *x = dup_out();
	convert_ex(x, strlen(x), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_CHECK(strstr(out, "[Black \"Andr\x82\"]"));
	VT_CHECK(strstr(out, "[Site \"a\\\\b\"]"));
	VT_CHECK(strstr(out, "{x\x01y \\x82}"));
	free(x);
	/* JSON carries the same escape */
	convert_ex(in, sizeof in - 1, 0, VC_FORMAT_JSON, NULL, 1, 0);
	VT_CHECK(strstr(out, "{\"name\":\"Black\",\"value\":\"Andr\\\\x82\",\"esc\":[\"value\"]}"));
	VT_CHECK(strstr(out, "{\"comment\":\"x\\\\x01y \\\\\\\\x82\",\"esc\":[\"comment\"]}"));
}

VT_TEST(xml_reader_problems)
{
	setup();
	unsigned long before = nerrors;
	/* not well-formed */
	VT_CHECK(convert_ex("<archive version=\"1\"><game>", 27, 1, VC_FORMAT_TEXT, NULL, 1, 0) ==
		 NULL);
	VT_CHECK(nerrors > before);
	/* another version, another root */
	before = nerrors;
	VT_CHECK(convert_ex("<archive version=\"2\"/>", 22, 1, VC_FORMAT_TEXT, NULL, 1, 0) == NULL);
	VT_CHECK(convert_ex("<games/>", 8, 1, VC_FORMAT_TEXT, NULL, 1, 0) == NULL);
	VT_EQ_INT(nerrors, before + 2);
	/* an empty archive, unknown elements skipped */
	VT_CHECK(convert_ex("<archive version=\"1\"/>", 22, 1, VC_FORMAT_TEXT, NULL, 1, 0) != NULL);
	VT_EQ_INT(outlen, 0);
	static const char odd[] =
		"<?xml version=\"1.0\"?>\n<archive version=\"1\">\n<extra><game/></extra>\n"
		"<game><tags><tag name=\"Event\">e</tag><foo/><tag name=\"Result\">1-0</tag></tags>"
		"<moves><move san=\"e4\"><bar>x</bar><nag>3</nag></move><baz/><move san=\"e5\"/>"
		"<variation/></moves><result>1-0</result><diagnostics><diagnostic "
		"severity=\"error\" "
		"message=\"ignored\"/></diagnostics></game>\n</archive>\n";
	const char *t = convert_ex(odd, sizeof odd - 1, 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_EQ_STR(t, "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 $3 1... e5 () 1-0\n\n");
}

VT_TEST(json_and_fen)
{
	const char *t =
		convert("[Event \"j\"]\n\n1. e4 {c} $2 (1. d4) e5 *\n", VC_FORMAT_JSON, NULL);
	VT_EQ_STR(
		t,
		"{\"variant\":\"chess\",\"tags\":[{\"name\":\"Event\",\"value\":\"j\"}],\"moves\":["
		"{\"san\":\"e4\",\"canonical\":\"e4\",\"from\":\"e2\",\"to\":\"e4\",\"after\":["
		"{\"comment\":\"c\"},{\"nag\":2}]},{\"variation\":[{\"san\":\"d4\",\"canonical\":"
		"\"d4\",\"from\":\"d2\",\"to\":\"d4\"}]},{\"san\":\"e5\",\"canonical\":\"e5\","
		"\"from\":\"e7\",\"to\":\"e5\"}],\"result\":\"*\"}\n");
	t = convert("[Event \"f\"]\n\n1. e4 e5 *\n\n[Variant \"nosuch\"]\n\n1. e4 *\n",
		    VC_FORMAT_FEN, NULL);
	VT_EQ_STR(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\n");
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.fen_plies = 1;
	t = convert("[Event \"f\"]\n\n1. e4 *\n", VC_FORMAT_FEN, &o);
	VT_EQ_STR(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
		     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\n");
}

VT_TEST(replay_accessors)
{
	setup();
	static const char in[] = "[Variant \"Schizochess\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n";
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.fen_after = 1;
	o.mark_transforms = 1;
	o.long_algebraic = 1;
	struct vc_validator *val = vc_validator_new(ctx, NULL);
	struct vc_replay *rp = vc_replay_new(&o, VC_FORMAT_TEXT);
	struct vc_game *g = vc_game_new();
	struct vc_reader *r = vc_reader_mem(ctx, "t", in, sizeof in - 1, NULL);
	VT_CHECK(vc_reader_next(r, g) == VC_OK);
	struct vc_game_stats st;
	if (!vc_validator_get_variant(val, "schizochess")) {
		/* the variant is not built in yet: the replay says so */
		VT_CHECK(vc_replay_run(rp, val, g, &st) == VC_FAILED);
		VT_CHECK(vc_replay_san(rp, 0, 0) == NULL);
	} else {
		VT_CHECK(vc_replay_run(rp, val, g, &st) == VC_OK);
		VT_EQ_STR(vc_replay_variant_name(rp), "schizochess");
		VT_EQ_STR(vc_replay_san(rp, 2, 0), "Nf3");
		VT_EQ_STR(vc_replay_san(rp, 2, 1), "Ng1-f3");
		vc_move m;
		VT_CHECK(vc_replay_move(rp, 2, &m) == 1);
		VT_CHECK(vc_replay_fen(rp, 0) != NULL);
		/* the swap follows the fifth ply */
		for (size_t i = 0; i < 5; i++)
			VT_EQ_INT(vc_replay_transforms(rp, i), i == 4);
		struct vc_canon *c = vc_canon_new();
		VT_EQ_INT(vc_canon_build(c, g, rp, &o), 0);
		int marks = 0;
		for (size_t i = 0; i < vc_canon_count(c); i++) {
			const struct vc_cev *e = vc_canon_at(c, i);
			if (e->type == VC_CE_COMMENT && e->len == 12 &&
			    !memcmp(e->text, "[%transform]", 12))
				marks++;
		}
		VT_EQ_INT(marks, 1);
		vc_canon_free(c);
	}
	vc_reader_close(r);
	vc_game_free(g);
	vc_replay_free(rp);
	vc_validator_free(val);
}

VT_TEST(sniff)
{
	VT_EQ_INT(vc_format_sniff("[Event", 6), VC_FORMAT_TEXT);
	VT_EQ_INT(vc_format_sniff("\xEF\xBB\xBF \n\t<archive", 13), VC_FORMAT_XML);
	VT_EQ_INT(vc_format_sniff("", 0), VC_FORMAT_TEXT);
	VT_EQ_INT(vc_format_sniff("1. e4 <", 7), VC_FORMAT_TEXT);
	/* gzip: the start is inflated */
	unsigned char z[256];
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	static const char xml[] = "  <?xml version=\"1.0\"?><archive version=\"1\"/>";
	zs.next_in = (unsigned char *)(uintptr_t)xml;
	zs.avail_in = sizeof xml - 1;
	zs.next_out = z;
	zs.avail_out = sizeof z;
	deflate(&zs, Z_FINISH);
	size_t zn = sizeof z - zs.avail_out;
	deflateEnd(&zs);
	VT_EQ_INT(vc_format_sniff(z, zn), VC_FORMAT_XML);
	VT_EQ_INT(vc_format_sniff(z, 12), VC_FORMAT_TEXT); /* too short to tell: text */
}

/* [%clk], [%emt], [%eval], [%cal], [%csl]: data of the move in XML and
 * JSON, the comments unchanged, text -> XML -> text exact; malformed ones
 * give no data. */
VT_TEST(annotations_as_data)
{
	static const char in[] =
		"[Event \"a\"]\n\n1. e4 {x [%clk 0:03:00] y} {[%eval -1.5,20] [%cal Ge2e4,Rd7] "
		"[%csl Yd4]} e5 {[%eval #-3] [%emt 0:00:02.5]} 2. Nf3 {[%clk 3:00] [%eval 1..2] "
		"[%cal Ge2e4,Xd7d5] [%csl Gi9]} *\n";
	const char *t = convert(in, VC_FORMAT_JSON, NULL);
	VT_EQ_STR(t, "{\"variant\":\"chess\",\"tags\":[{\"name\":\"Event\",\"value\":\"a\"}],"
		     "\"moves\":[{\"san\":\"e4\",\"canonical\":\"e4\",\"from\":\"e2\",\"to\":\"e4\","
		     "\"clk\":\"0:03:00\",\"eval\":-1.5,\"depth\":20,\"arrows\":[{\"color\":\"G\","
		     "\"from\":\"e2\",\"to\":\"e4\"}],\"squares\":[{\"color\":\"R\",\"square\":"
		     "\"d7\"},{\"color\":\"Y\",\"square\":\"d4\"}],\"after\":[{\"comment\":\"x "
		     "[%clk 0:03:00] y\"},{\"comment\":\"[%eval -1.5,20] [%cal Ge2e4,Rd7] [%csl "
		     "Yd4]\"}]},{\"san\":\"e5\",\"canonical\":\"e5\",\"from\":\"e7\",\"to\":\"e5\","
		     "\"emt\":\"0:00:02.5\",\"mate\":-3,\"after\":[{\"comment\":\"[%eval #-3] [%emt "
		     "0:00:02.5]\"}]},{\"san\":\"Nf3\",\"canonical\":\"Nf3\",\"from\":\"g1\",\"to\":"
		     "\"f3\",\"after\":[{\"comment\":\"[%clk 3:00] [%eval 1..2] [%cal Ge2e4,Xd7d5] "
		     "[%csl Gi9]\"}]}],\"result\":\"*\"}\n");
	convert(in, VC_FORMAT_XML, NULL);
	char *x = dup_out();
	VT_CHECK(x && strstr(x, "<move san=\"e4\" canonical=\"e4\" from=\"e2\" to=\"e4\" "
				"clk=\"0:03:00\" eval=\"-1.5\" depth=\"20\">\n    <arrow color=\"G\" "
				"from=\"e2\" to=\"e4\"/>\n    <square color=\"R\" at=\"d7\"/>\n"));
	VT_CHECK(x && strstr(x, "<move san=\"Nf3\" canonical=\"Nf3\" from=\"g1\" to=\"f3\">"));
	convert(in, VC_FORMAT_TEXT, NULL);
	char *t1 = dup_out();
	convert_ex(x, strlen(x), 1, VC_FORMAT_TEXT, NULL, 1, 0);
	VT_EQ_STR(out, t1);
	same_xml(in, NULL);
	free(x);
	free(t1);
}

/* --moves=uci and --no-nags in text, -t epd */
VT_TEST(moves_styles_and_epd)
{
	struct vc_write_opts o;
	memset(&o, 0, sizeof o);
	o.uci = 1;
	o.no_nags = 1;
	const char *t = convert("[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5! $1 Qxd5 3. Nc3 Qa5 "
				"4. Nf3 Nf6 5. P@d5 -- 6. a3?? *\n",
				VC_FORMAT_TEXT, &o);
	VT_EQ_STR(t, "[Variant \"Crazyhouse\"]\n\n1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3 d5a5 4. g1f3 "
		     "g8f6 5. P@d5 0000 6. a2a3 *\n\n");
	t = convert("[Event \"e\"]\n\n1. e4 *\n", VC_FORMAT_EPD, NULL);
	VT_EQ_STR(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; id "
		     "\"game 1 ply 0\";\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - "
		     "hmvc 0; fmvn 1; id \"game 1 ply 1\";\n");
}

VT_MAIN(VT_ENTRY(text_canonical), VT_ENTRY(text_idempotent), VT_ENTRY(text_folding),
	VT_ENTRY(text_folding_every_width),
	VT_ENTRY(text_options), VT_ENTRY(text_broken), VT_ENTRY(xml_serialiser),
	VT_ENTRY(xml_bytes), VT_ENTRY(xml_reader_problems), VT_ENTRY(json_and_fen),
	VT_ENTRY(replay_accessors), VT_ENTRY(sniff), VT_ENTRY(annotations_as_data),
	VT_ENTRY(moves_styles_and_epd))
