/*
 * t_pgn.c - the game record (game.c) and the text reader (pgn_read.c).
 *
 * Most tests read a small inline archive and compare the items of each game
 * with a compact rendering (see show()): moves as written with "N." for a
 * stored move number and "/ep", "/null" for flags, "{text}" and ";text" for
 * comments, "$n", "(", ")" and "%text".  Positions are found with at(), which
 * computes the line and column of a piece of the input, so the expectations
 * say what they mean.  The corpus tests read the real archives of
 * corpora/MANIFEST in $CORPORA (default corpora/real, where make corpora puts
 * them) and each skips, naming the file, when one it reads is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "archive/vc_archive.h"
#include "vchess.h"
#include "vt.h"

#define VT_NELEM(a) (sizeof(a) / sizeof((a)[0]))

static struct vc_ctx *ctx;
static char shown[65536];

static struct vc_reader *open_text(const char *text, size_t len, const struct vc_reader_opts *o)
{
	if (!ctx)
		ctx = vc_ctx_new();
	return vc_reader_mem(ctx, "t.pgn", text, len, o);
}

/* Renders the items of g into shown[]. */
static const char *show(const struct vc_game *g)
{
	char *o = shown;
	size_t room = sizeof shown;
	shown[0] = '\0';
	for (size_t i = 0; i < vc_game_item_count(g); i++) {
		const struct vc_item *it = vc_game_item(g, i);
		int n = 0;
		const char *sep = i ? " " : "";
		switch (it->type) {
		case VC_IT_MOVE:
			if (it->flags & VC_IF_MOVENUM)
				n = snprintf(o, room, "%s%ld.%.*s%.*s%s%s", sep, it->movenum,
					     (int)it->len, it->text, (int)it->suffix_len,
					     it->suffix ? it->suffix : "",
					     it->flags & VC_IF_EP_MARK ? "/ep" : "",
					     it->flags & VC_IF_NULL ? "/null" : "");
			else
				n = snprintf(o, room, "%s%.*s%.*s%s%s", sep, (int)it->len, it->text,
					     (int)it->suffix_len, it->suffix ? it->suffix : "",
					     it->flags & VC_IF_EP_MARK ? "/ep" : "",
					     it->flags & VC_IF_NULL ? "/null" : "");
			break;
		case VC_IT_COMMENT:
			if (it->flags & VC_IF_SEMICOLON)
				n = snprintf(o, room, "%s;%.*s", sep, (int)it->len, it->text);
			else
				n = snprintf(o, room, "%s{%.*s}", sep, (int)it->len, it->text);
			break;
		case VC_IT_NAG:
			n = snprintf(o, room, "%s$%d", sep, it->nag);
			break;
		case VC_IT_VAR_START:
			n = snprintf(o, room, "%s(", sep);
			break;
		case VC_IT_VAR_END:
			n = snprintf(o, room, "%s)", sep);
			break;
		case VC_IT_ESCAPE:
			n = snprintf(o, room, "%s%%%.*s", sep, (int)it->len, it->text);
			break;
		}
		if (n < 0 || (size_t)n >= room)
			break;
		o += n;
		room -= (size_t)n;
	}
	return shown;
}

/* Line and column (1-based) of the first occurrence of needle in text,
 * counting LF, CRLF and lone CR as line ends. */
static void at(const char *text, const char *needle, long *line, long *col)
{
	const char *hit = strstr(text, needle);
	long l = 1;
	const char *ls = text;
	for (const char *p = text; hit && p < hit; p++) {
		if (*p == '\n' || (*p == '\r' && p[1] != '\n')) {
			l++;
			ls = p + 1;
		}
	}
	*line = hit ? l : -1;
	*col = hit ? (long)(hit - ls) + 1 : -1;
}

/* Is there a diagnostic with this code at the position of needle in text
 * (or at line:col when needle is NULL)? */
static int has_diag_at(const struct vc_game *g, const char *code, long line, long col)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (strcmp(d->code, code) == 0 && d->line == line && d->col == col)
			return 1;
	}
	return 0;
}

static int has_diag_text(const struct vc_game *g, const char *code, const char *text,
			 const char *needle)
{
	long l, c;
	at(text, needle, &l, &c);
	return has_diag_at(g, code, l, c);
}

static int has_code(const struct vc_game *g, const char *code)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++)
		if (strcmp(vc_game_diag_at(g, i)->code, code) == 0)
			return 1;
	return 0;
}

static const char *diag_msg(const struct vc_game *g, const char *code)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++)
		if (strcmp(vc_game_diag_at(g, i)->code, code) == 0)
			return vc_game_diag_at(g, i)->message;
	return NULL;
}

static const char *raw(const struct vc_game *g)
{
	static char buf[65536];
	size_t n;
	const char *p = vc_game_raw(g, &n);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static void dump_diags(const struct vc_game *g)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		printf("    # game %ld: %ld:%ld: %s: %s\n", vc_game_number(g), d->line, d->col,
		       d->code, d->message);
	}
}

/* Reads the next game and checks that it has no diagnostics. */
#define NEXT_CLEAN(r, g)                                \
	do {                                            \
		VT_EQ_INT(vc_reader_next(r, g), VC_OK); \
		VT_EQ_INT(vc_game_diag_count(g), 0);    \
		if (vc_game_diag_count(g))              \
			dump_diags(g);                  \
	} while (0)

static void item_pos(const struct vc_game *g, size_t i, long *line, long *col)
{
	const struct vc_item *it = vc_game_item(g, i);
	*line = it ? it->line : -1;
	*col = it ? it->col : -1;
}

#define CHECK_ITEM_AT(g, i, text, needle)   \
	do {                                \
		long l1, c1, l2, c2;        \
		item_pos(g, i, &l1, &c1);   \
		at(text, needle, &l2, &c2); \
		VT_EQ_INT(l1, l2);          \
		VT_EQ_INT(c1, c2);          \
	} while (0)

/* ---- readings ---- */

VT_TEST(basic_game)
{
	const char *in = "[Event \"Test \\\"cup\\\" \\\\ 1\"]\n[Site \"Here\"] [Round \"2\"]\n\n"
			 "1. e4 e5 2. Nf3 {good move} Nc6 $1 3. Bb5 a6 1-0\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_number(g), 1);
	VT_EQ_INT(vc_game_line(g), 1);
	VT_EQ_STR(vc_game_file(g), "t.pgn");
	VT_EQ_INT(vc_game_is_garbage(g), 0);
	VT_EQ_INT(vc_game_tag_count(g), 3);
	VT_EQ_STR(vc_game_tag_name(g, 0), "Event");
	VT_EQ_STR(vc_game_tag_value(g, 0), "Test \"cup\" \\ 1");
	VT_EQ_STR(vc_game_tag(g, "Round"), "2");
	VT_CHECK(vc_game_tag(g, "White") == NULL);
	long l, c;
	vc_game_tag_pos(g, 2, &l, &c);
	VT_EQ_INT(l, 2);
	VT_EQ_INT(c, 15);
	VT_EQ_STR(show(g), "1.e4 e5 2.Nf3 {good move} Nc6 $1 3.Bb5 a6");
	VT_EQ_STR(vc_game_result(g), "1-0");
	vc_game_result_pos(g, &l, &c);
	VT_EQ_INT(l, 4);
	VT_EQ_INT(c, 46);
	CHECK_ITEM_AT(g, 0, in, "e4");
	CHECK_ITEM_AT(g, 3, in, "{good");
	CHECK_ITEM_AT(g, 5, in, "$1");
	VT_EQ_STR(raw(g), in);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	VT_EQ_INT(vc_reader_is_gzip(r), 0);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(move_numbers)
{
	const char *in = "[A \"b\"]\n1.e4 1...e5 2. ... Nf3 3... Nc6 ... a3 12.  Bb5 . a6 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4 1.e5 2.Nf3 3.Nc6 a3 12.Bb5 a6");
	CHECK_ITEM_AT(g, 0, in, "e4");
	CHECK_ITEM_AT(g, 2, in, "Nf3");
	VT_EQ_STR(vc_game_result(g), "*");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(comments)
{
	const char *in =
		"[A \"b\"]\r\n1. e4 {line one\r\n[%clk 0:03:00] two} e5 ; rest {of} line\r\n"
		"2. d4 {} ;\r\n{x}d5 *\r\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g),
		  "1.e4 {line one\r\n[%clk 0:03:00] two} e5 ; rest {of} line 2.d4 {} ; {x} d5");
	VT_EQ_INT(vc_game_item(g, 3)->flags, VC_IF_SEMICOLON);
	CHECK_ITEM_AT(g, 1, in, "{line");
	CHECK_ITEM_AT(g, 2, in, "e5");
	CHECK_ITEM_AT(g, 4, in, "d4");
	CHECK_ITEM_AT(g, 7, in, "{x}");
	VT_EQ_STR(raw(g), in);
	vc_game_free(g);
	vc_reader_close(r);
}

/* The game's records hint from the text given as its one comment ("{C}", or
 * "; C" with semicolon): -2 when the game did not read. */
static int records_of(const char *comment, int semicolon)
{
	char in[512];
	snprintf(in, sizeof in, semicolon ? "1. e4 ;%s\n*\n" : "1. e4 {%s} *\n", comment);
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	int records = -2;
	if (r && g && vc_reader_next(r, g) == VC_OK && vc_game_item_count(g) == 2)
		records = vc_game_records(g);
	vc_game_free(g);
	vc_reader_close(r);
	return records;
}

/* The reader tells, of each game, whether a comment may hold a multi-player
 * record command (annot.c skips the comments of a game where none may): the
 * same answer as vc_record_command_at at each '[' of the comment, for the
 * text wherever it falls in the scan's sixteen-byte blocks, on one line or
 * several.  A game the reader did not fill, or one added to, is unknown. */
VT_TEST(records_hint)
{
	static const struct {
		const char *text;
		int semicolon, records;
	} cases[] = {
		{ "[%by \"a\"]", 0, VC_RECORDS_MAYBE },
		{ " [%clk 0:03:00] [%eval 0.2] ", 0, VC_RECORDS_NONE },
		{ " [%draw offer \"a\"]", 1, VC_RECORDS_MAYBE },
		{ "line one\n[%comment \"a\" \"t\"]", 0, VC_RECORDS_MAYBE },
		{ "x [%by", 0, VC_RECORDS_MAYBE },
		{ "[%b", 0, VC_RECORDS_NONE },
		{ "[%dra", 0, VC_RECORDS_NONE },
		{ "[%draw", 0, VC_RECORDS_MAYBE },
		{ "[%commen", 0, VC_RECORDS_NONE },
		{ "[ %by", 0, VC_RECORDS_NONE },
		{ "", 0, VC_RECORDS_NONE },
	};
	for (size_t i = 0; i < VT_NELEM(cases); i++)
		if (records_of(cases[i].text, cases[i].semicolon) != cases[i].records)
			VT_FAIL_AT(__FILE__, __LINE__, "comment '%s': records %d, not %d", cases[i].text,
				   records_of(cases[i].text, cases[i].semicolon), cases[i].records);
	/* random comments made of the commands' pieces */
	static const char *const bits[] = { "[",   "%",   "[%",   "[%b",	  "[%by", "[%d",
					    "[%dr", "[%draw", "[%c", "[%co", "[%comment", "[%clk",
					    "b",    "y",      "x",   " ",	  "\n",	  "draw" };
	uint64_t seed = 0x9e3779b97f4a7c15u;
	int maybe = 0;
	for (int k = 0; k < 4000; k++) {
		char c[64];
		size_t n = 0, len = 1 + (size_t)(k % 40);
		while (n < len) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			const char *b = bits[seed % VT_NELEM(bits)];
			size_t bl = strlen(b);
			if (n + bl >= sizeof c)
				break;
			memcpy(c + n, b, bl);
			n += bl;
		}
		c[n] = '\0';
		int want = VC_RECORDS_NONE;
		for (size_t j = 0; j < n; j++)
			if (c[j] == '[' && vc_record_command_at(c + j, n - j))
				want = VC_RECORDS_MAYBE;
		maybe += want == VC_RECORDS_MAYBE;
		int semicolon = !strchr(c, '\n') && (k & 1);
		int got = records_of(c, semicolon);
		if (got != want) {
			VT_FAIL_AT(__FILE__, __LINE__, "comment '%s' (%s): records %d, not %d", c,
				   semicolon ? "';'" : "braces", got, want);
			break;
		}
	}
	VT_CHECK(maybe > 20);
	/* games the reader did not fill, or that gained an item since */
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_game_records(g), VC_RECORDS_UNKNOWN);
	const char *in = "1. e4 {[%clk 0:01:00]} *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_records(g), VC_RECORDS_NONE);
	struct vc_item it = { .type = VC_IT_COMMENT, .text = "[%by \"a\"]", .len = 9 };
	VT_EQ_INT(vc_game_add_item(g, &it), 0);
	VT_EQ_INT(vc_game_records(g), VC_RECORDS_UNKNOWN);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(escape_lines)
{
	const char *in = "%header one\n%header two\n[A \"b\"]\n%between tags\n[C \"d\"]\n1. e4\n"
			 "%inside\ne5 *\n\n%trailing\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_line(g), 1);
	VT_EQ_INT(vc_game_tag_count(g), 2);
	VT_EQ_STR(show(g), "%header one %header two %between tags 1.e4 %inside e5");
	CHECK_ITEM_AT(g, 4, in, "%inside");
	VT_EQ_STR(raw(g), "%header one\n%header two\n[A \"b\"]\n%between tags\n[C \"d\"]\n1. e4\n"
			  "%inside\ne5 *\n");
	/* an escape line after the last game is a game of its own */
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "%trailing");
	VT_EQ_INT(vc_game_line(g), 10);
	VT_EQ_INT(vc_game_is_garbage(g), 0);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* '%' elsewhere than column 1 is unexpected */
	const char *in2 = "[A \"b\"]\n1. e4 %no\ne5 *\n";
	r = open_text(in2, strlen(in2), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_text(g, "char-unexpected", in2, "%no"));
	VT_EQ_STR(diag_msg(g, "char-unexpected"), "unexpected character '%'");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(nags_and_suffixes)
{
	const char *in = "[A \"b\"]\n1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 ! Nf6\n?! "
			 "5. O-O $14 $255 Be7 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4! e5? 2.Nf3!! Nc6?? 3.Bb5!? a6?! 4.Ba4! Nf6?! 5.O-O $14 $255 Be7");
	VT_EQ_INT(vc_game_item(g, 0)->suffix_len, 1);
	VT_EQ_INT(vc_game_item(g, 2)->suffix_len, 2);
	VT_EQ_INT(vc_game_item(g, 9)->nag, 14);
	vc_reader_close(r);

	/* a suffix with no move before it, and one that is no suffix */
	const char *in2 = "[A \"b\"]\n1. e4 {c} ! e5 *\n\n[A \"b\"]\n1. e4!!! e5 *\n";
	r = open_text(in2, strlen(in2), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_text(g, "char-unexpected", in2, "! e5"));
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_code(g, "char-unexpected"));
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(variations)
{
	const char *in = "[A \"b\"]\n1. e4 (1. d4 d5 (1... Nf6 2. c4) (1... f5)) 1... e5 (1... c5)"
			 "2. Nf3 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4 ( 1.d4 d5 ( 1.Nf6 2.c4 ) ( 1.f5 ) ) 1.e5 ( 1.c5 ) 2.Nf3");
	CHECK_ITEM_AT(g, 1, in, "(1. d4");
	CHECK_ITEM_AT(g, 10, in, ")) 1...");
	VT_EQ_STR(vc_game_result(g), "*");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(results)
{
	const char *in = "[R \"1\"]\n1. e4 1-0\n[R \"2\"]\n1. e4 0-1\n[R \"3\"]\n1. e4 1/2-1/2"
			 "\n\n\n[R \"4\"]\n*\n[R \"5\"]\n1. e4";
	const char *want[] = { "1-0", "0-1", "1/2-1/2", "*" };
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	for (int i = 0; i < 4; i++) {
		NEXT_CLEAN(r, g);
		VT_EQ_STR(vc_game_result(g), want[i]);
		VT_EQ_INT(vc_game_number(g), i + 1);
	}
	VT_EQ_INT(vc_game_item_count(g), 0);
	NEXT_CLEAN(r, g);
	VT_CHECK(vc_game_result(g) == NULL);
	VT_EQ_STR(raw(g), "[R \"5\"]\n1. e4");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(null_moves_and_ep)
{
	const char *in = "[A \"b\"]\n1. e4 -- 2. Z0 d5 3. exd6 e.p. Nf6 4. f4 g5 5. fxg6 ep *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4 --/null 2.Z0/null d5 3.exd6/ep Nf6 4.f4 g5 5.fxg6/ep");
	vc_reader_close(r);
	const char *in2 = "[A \"b\"]\n1. e4 {x} e.p. *\n";
	r = open_text(in2, strlen(in2), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_text(g, "char-unexpected", in2, "e.p."));
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(move_tokens)
{
	const char *in = "[A \"b\"]\n1. e4+ e5# 2. Kf1++ e8=R(a7) 3. K(air) Q@e4 4. N@e4 N*e4 "
			 "5. SC-j13 NN-i7 6. W a2b2-a3b3 GW a1b1-a2b2 7. Pxd5(prison) e8=Q(p16)+ "
			 "8. e4 (d4) e4(d5) 9. W Nf3 WWW a1 10. 0-0 0-0-0 11. P/e4 Q~ 12. a:b *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4+ e5# 2.Kf1++ e8=R(a7) 3.K(air) Q@e4 4.N@e4 N*e4 5.SC-j13 NN-i7 "
			   "6.W a2b2-a3b3 GW a1b1-a2b2 7.Pxd5(prison) e8=Q(p16)+ 8.e4 ( d4 ) "
			   "e4(d5) 9.W Nf3 WWW a1 10.0-0 0-0-0 11.P/e4 Q~ 12.a:b");
	CHECK_ITEM_AT(g, 10, in, "W a2b2");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(tagless_games)
{
	/* a file of movetext only is one game */
	const char *in = "1. e4 e5 2. Nf3\n{note} Nc6\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_tag_count(g), 0);
	VT_EQ_STR(show(g), "1.e4 e5 2.Nf3 {note} Nc6");
	VT_EQ_STR(raw(g), in);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* between games, a move number starts a tagless game; text after a
	 * result on its line starts the next game */
	const char *in2 = "[A \"b\"]\n1. e4 1-0\n\n1. d4 d5 0-1 1. c4 *  \n";
	r = open_text(in2, strlen(in2), NULL);
	NEXT_CLEAN(r, g);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.d4 d5");
	VT_EQ_INT(vc_game_line(g), 4);
	VT_EQ_STR(raw(g), "1. d4 d5 0-1");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.c4");
	VT_EQ_STR(raw(g), "1. c4 *  \n");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(game_boundaries)
{
	/* a tag line after movetext ends a game with no result; a blank line
	 * inside a tag section does not end it; a repeated tag after a blank
	 * line starts the next game */
	const char *in = "[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 e5\n  \n\n[Event \"c\"]\n"
			 "[Result \"*\"]\n\n[Event \"d\"]\n1. d4 {end} *  {after} ; semi\n"
			 "[Event \"e\"]\n1. c4 1-0 {two\nlines} \n*\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_tag_count(g), 2);
	VT_CHECK(vc_game_result(g) == NULL);
	VT_EQ_STR(raw(g), "[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 e5\n");
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_line(g), 8);
	VT_EQ_INT(vc_game_tag_count(g), 2);
	VT_EQ_INT(vc_game_item_count(g), 0);
	VT_EQ_STR(raw(g), "[Event \"c\"]\n[Result \"*\"]\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "Event"), "d");
	VT_EQ_STR(show(g), "1.d4 {end} {after} ; semi");
	VT_EQ_STR(raw(g), "[Event \"d\"]\n1. d4 {end} *  {after} ; semi\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.c4 {two\nlines}");
	VT_EQ_STR(raw(g), "[Event \"e\"]\n1. c4 1-0 {two\nlines} \n");
	/* a lone '*' after a finished game is no game */
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_is_garbage(g), 1);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(line_ends_and_bom)
{
	const char *in = "\xEF\xBB\xBF[A \"b\"]\r[C \"d\"]\r\r1. e4\re5 *\r\n[E \"f\"]\r\n1. d4 *";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	long l, c;
	vc_game_tag_pos(g, 0, &l, &c);
	VT_EQ_INT(l, 1);
	VT_EQ_INT(c, 1);
	vc_game_tag_pos(g, 1, &l, &c);
	VT_EQ_INT(l, 2);
	VT_EQ_INT(c, 1);
	item_pos(g, 1, &l, &c);
	VT_EQ_INT(l, 5);
	VT_EQ_INT(c, 1);
	VT_EQ_STR(raw(g), "[A \"b\"]\r[C \"d\"]\r\r1. e4\re5 *\r\n");
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_line(g), 6);
	VT_EQ_STR(raw(g), "[E \"f\"]\r\n1. d4 *");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

/* ---- errors ---- */

VT_TEST(tag_errors)
{
	const char *in =
		"[Event \"x]\n[Site x]\n[ \"y\"]\n[Round \"1\" extra\n[Ok \"1\"]\n1. e4 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 4);
	VT_CHECK(has_diag_at(g, "tag-syntax", 1, 8));
	VT_CHECK(has_diag_at(g, "tag-syntax", 2, 7));
	VT_CHECK(has_diag_at(g, "tag-syntax", 3, 3));
	VT_CHECK(has_diag_at(g, "tag-syntax", 4, 12));
	VT_EQ_STR(diag_msg(g, "tag-syntax"), "value of tag 'Event' is never closed");
	const struct vc_game_diag *d = vc_game_diag_at(g, 1);
	VT_EQ_STR(d->message, "expected '\"' after tag name 'Site'");
	VT_EQ_INT(d->severity, VC_SEV_ERROR);
	VT_EQ_INT(d->ply, 0);
	VT_CHECK(d->context == NULL);
	VT_EQ_INT(vc_game_worst(g), VC_SEV_ERROR);
	VT_EQ_INT(vc_game_tag_count(g), 1);
	VT_EQ_STR(show(g), "1.e4");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(comment_unclosed)
{
	const char *in =
		"[A \"1\"]\n1. e4 {fine} e5 *\n\n[A \"2\"]\n1. e4 {oops e5\n2. Nf3 Nc6\n\n"
		"[A \"3\"]\n1. d4 {ok\n\n[not a tag]\n} d5 *\n\n[A \"4\"]\n1. c4 {to the end\n\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_text(g, "comment-unclosed", in, "{oops"));
	VT_EQ_STR(diag_msg(g, "comment-unclosed"), "comment opened here is never closed");
	VT_EQ_STR(show(g), "1.e4 {oops e5\n2. Nf3 Nc6}");
	VT_EQ_STR(raw(g), "[A \"2\"]\n1. e4 {oops e5\n2. Nf3 Nc6\n");
	VT_CHECK(vc_game_result(g) == NULL);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "3");
	VT_EQ_STR(show(g), "1.d4 {ok\n\n[not a tag]\n} d5");
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_STR(vc_game_tag(g, "A"), "4");
	VT_CHECK(has_diag_text(g, "comment-unclosed", in, "{to the"));
	VT_EQ_STR(show(g), "1.c4 {to the end}");
	VT_EQ_STR(raw(g), "[A \"4\"]\n1. c4 {to the end\n");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(variation_errors)
{
	const char *in = "[A \"1\"]\n1. e4 ) e5 (1... c5 (1... d5 1-0) 2. Nf3 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 4);
	VT_CHECK(has_diag_text(g, "var-unbalanced", in, ") e5"));
	VT_CHECK(has_diag_text(g, "result-in-variation", in, "*"));
	VT_EQ_STR(diag_msg(g, "var-unbalanced"), "unbalanced ')'");
	VT_CHECK(has_diag_text(g, "result-in-variation", in, "1-0"));
	VT_EQ_STR(diag_msg(g, "result-in-variation"), "result '1-0' inside a variation");
	VT_CHECK(has_diag_text(g, "var-unclosed", in, "(1... c5"));
	VT_EQ_STR(diag_msg(g, "var-unclosed"), "variation opened here is never closed");
	VT_EQ_STR(show(g), "1.e4 e5 ( 1.c5 ( 1.d5 ) 2.Nf3");
	VT_CHECK(vc_game_result(g) == NULL);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(unexpected_and_nul)
{
	const char in[] = "[A \"1\"]\n1. e4 \x01 e5 *\n[A \"2\"]\n1. d4 d5\x00 c4 *\n[A \"3\"]\n"
			  "1. c4 \xC3\xA9 *\n";
	struct vc_reader *r = open_text(in, sizeof in - 1, NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "char-unexpected", 2, 7));
	VT_EQ_STR(diag_msg(g, "char-unexpected"), "unexpected character '\\x01'");
	VT_EQ_STR(show(g), "1.e4");
	VT_EQ_STR(raw(g), "[A \"1\"]\n1. e4 \x01 e5 *\n");
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "nul-byte", 4, 9));
	VT_EQ_STR(diag_msg(g, "nul-byte"), "NUL byte in input");
	VT_EQ_INT(vc_game_raw(g, NULL)[16], '\0');
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_at(g, "char-unexpected", 6, 7));
	VT_EQ_STR(diag_msg(g, "char-unexpected"), "unexpected character '\\xC3'");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(recovery)
{
	const char *in = "[Event \"good 1\"]\n1. e4 e5 2. Nf3 1-0\n\n"
			 "[Event \"broken\"]\n1. e4 e5 2. <junk> Nf3\nmore junk )))) {\n\n"
			 "[Event \"good 2\"]\n1. d4 d5 0-1\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.e4 e5 2.Nf3");
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_STR(vc_game_tag(g, "Event"), "broken");
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_text(g, "char-unexpected", in, "<junk>"));
	VT_EQ_STR(raw(g), "[Event \"broken\"]\n1. e4 e5 2. <junk> Nf3\nmore junk )))) {\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "Event"), "good 2");
	VT_EQ_STR(show(g), "1.d4 d5");
	VT_EQ_STR(vc_game_result(g), "0-1");
	VT_EQ_INT(vc_game_number(g), 3);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

/* Files as their writers meant them (issue 16): a BOM where each file of a
 * concatenation begins, a result glued to the last move, tagless games one
 * a paragraph, quotes inside a tag value, "bxa8(Q)" and a glued "e.p.". */
VT_TEST(writers_meant)
{
	const char *in = "[A \"1\"]\n1. e4 *\n\xEF\xBB\xBF[A \"2\"]\n\n1. d4 *\n\n"
			 "\xEF\xBB\xBF\xEF\xBB\xBF[A \"3\"]\n1. c4\n\xEF\xBB\xBF[A \"4\"]\n"
			 "1. Nf3 Nf6*\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	long l, c;
	NEXT_CLEAN(r, g);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "2");
	vc_game_tag_pos(g, 0, &l, &c);
	VT_EQ_INT(l, 3);
	VT_EQ_INT(c, 1); /* columns count from the byte after the BOM */
	VT_EQ_STR(show(g), "1.d4");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "3");
	VT_EQ_STR(raw(g), "[A \"3\"]\n1. c4\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "4");
	VT_EQ_STR(show(g), "1.Nf3 Nf6");
	VT_EQ_STR(vc_game_result(g), "*");
	vc_game_result_pos(g, &l, &c);
	VT_EQ_INT(c, 11);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* games one a paragraph, without tags or move numbers; prose is no game */
	const char *in2 = "e4 e5 Nf3 Nc6 *\n\nd4 d5 c4 *\n\nNf3 d5 1-0\n\nO-O-O *\n\n"
			  "{a comment first} e4 *\n\nThe end.\nOr is it?\n\nc4 *\n";
	r = open_text(in2, strlen(in2), NULL);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "e4 e5 Nf3 Nc6");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "d4 d5 c4");
	VT_EQ_INT(vc_game_line(g), 3);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_result(g), "1-0");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "O-O-O");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "{a comment first} e4");
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_is_garbage(g), 1);
	VT_EQ_STR(raw(g), "The end.\nOr is it?\n");
	NEXT_CLEAN(r, g); /* a game after prose, at its blank line */
	VT_EQ_STR(show(g), "c4");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* a comment alone between games, before the next one's tags, is no
	 * game (nor is it lost) */
	const char *in6 = "[A \"1\"]\n1. e4 *\n\n{ annotated by X }\n[A \"2\"]\n1. d4 *\n";
	r = open_text(in6, strlen(in6), NULL);
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_is_garbage(g), 1);
	VT_CHECK(has_diag_text(g, "garbage", in6, "{ annotated"));
	VT_EQ_STR(raw(g), "{ annotated by X }\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "2");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* quotes inside a tag value: read to the '"' before ']', with a warning */
	const char *in3 = "[White \"\"Socrates Expert\"\"] [Black \"Fritz\"]\n"
			  "[Event \"The \"Big\" Open\" ]\n[Site \"a\\\"b\"]\n\n"
			  "1. b7 bxa8(Q) 2. exf6e.p. *\n";
	r = open_text(in3, strlen(in3), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_STR(vc_game_tag(g, "White"), "\"Socrates Expert\"");
	VT_EQ_STR(vc_game_tag(g, "Black"), "Fritz");
	VT_EQ_STR(vc_game_tag(g, "Event"), "The \"Big\" Open");
	VT_EQ_STR(vc_game_tag(g, "Site"), "a\"b");
	VT_EQ_INT(vc_game_diag_count(g), 2);
	VT_EQ_INT(vc_game_worst(g), VC_SEV_WARNING);
	VT_CHECK(has_diag_text(g, "tag-quotes", in3, "\"Socrates"));
	VT_CHECK(has_diag_text(g, "tag-quotes", in3, "\"Big"));
	VT_EQ_STR(show(g), "1.b7 bxa8(Q) 2.exf6/ep");
	VT_EQ_INT(vc_game_item_count(g), 3);
	VT_CHECK(vc_game_item(g, 2)->flags & VC_IF_EP_MARK);
	vc_reader_close(r);

	/* a broken tag line's name, repeated after a blank line, begins the
	 * next game, as a stored tag's does */
	const char *in5 = "[Event broken]\n\n[Event \"next\"]\n\n1. e4 *\n";
	r = open_text(in5, strlen(in5), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_code(g, "tag-syntax"));
	VT_EQ_STR(raw(g), "[Event broken]\n");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "Event"), "next");
	vc_reader_close(r);

	/* a quote with no ']' after it on the line is still a broken tag */
	const char *in4 = "[White \"a\"b]\n\n1. e4 *\n";
	r = open_text(in4, strlen(in4), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_code(g, "tag-syntax"));
	VT_CHECK(!has_code(g, "tag-quotes"));
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(garbage_between_games)
{
	const char *in = "[A \"1\"]\n1. e4 *\nhello there,\x01 this is not chess\nat all\n\n"
			 "%escape\n[A \"2\"]\n1. d4 *\n";
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_is_garbage(g), 1);
	VT_EQ_INT(vc_game_number(g), 2);
	VT_EQ_INT(vc_game_line(g), 3);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "garbage", 3, 1));
	VT_EQ_STR(diag_msg(g, "garbage"),
		  "text between games is not a game: 'hello there,\\x01 this i'");
	VT_EQ_STR(raw(g), "hello there,\x01 this is not chess\nat all\n");
	VT_EQ_INT(vc_game_tag_count(g), 0);
	VT_EQ_INT(vc_game_item_count(g), 0);
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_number(g), 3);
	VT_EQ_STR(show(g), "%escape 1.d4");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* at the start of a file, too */
	const char *in2 = "<html>\n[A \"1\"]\n1. e4 *\n";
	r = open_text(in2, strlen(in2), NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_is_garbage(g), 1);
	VT_EQ_STR(raw(g), "<html>\n");
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(limit_depth)
{
	/* 5000 '(' : refused at the 1001st, with no stack used for the rest */
	size_t n = 5000;
	char *in = malloc(64 + 2 * n);
	strcpy(in, "[A \"1\"]\n1. e4 ");
	size_t k = strlen(in);
	for (size_t i = 0; i < n; i++)
		in[k++] = '(';
	for (size_t i = 0; i < n; i++)
		in[k++] = ')';
	strcpy(in + k, " *\n[A \"2\"]\n1. d4 *\n");
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "limit-depth", 2, 7 + 1000));
	VT_EQ_STR(diag_msg(g, "limit-depth"), "variations nested deeper than 1000");
	VT_EQ_INT(vc_game_item_count(g), 1001);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.d4");
	vc_reader_close(r);

	/* a smaller limit from the options */
	struct vc_reader_opts o = { .max_depth = 2 };
	const char *in2 = "[A \"1\"]\n1. e4 ((e5)) (((c5))) *\n";
	r = open_text(in2, strlen(in2), &o);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_text(g, "limit-depth", in2, "(c5"));
	vc_game_free(g);
	vc_reader_close(r);
	free(in);
}

VT_TEST(limit_game_size)
{
	struct vc_reader_opts o = { .max_game_bytes = 100 };
	char in[4096];
	strcpy(in, "[A \"1\"]\n1. e4 *\n\n[A \"big\"]\n");
	for (int i = 1; i <= 30; i++)
		sprintf(in + strlen(in), "%d. e4 e5\n", i);
	strcat(in, "1-0\n\n[A \"3\"]\n1. d4 *\n");
	struct vc_reader *r = open_text(in, strlen(in), &o);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_STR(vc_game_tag(g, "A"), "big");
	VT_CHECK(has_code(g, "limit-game-size"));
	VT_EQ_STR(
		diag_msg(g, "limit-game-size"),
		"game is longer than 100 bytes: its raw text is cut there and the rest is skipped");
	size_t n;
	vc_game_raw(g, &n);
	VT_EQ_INT(n, 100);
	VT_CHECK(vc_game_item_count(g) > 0);
	for (size_t i = 0; i < vc_game_item_count(g); i++) {
		const struct vc_item *it = vc_game_item(g, i);
		VT_CHECK(it->text >= vc_game_raw(g, NULL) &&
			 it->text + it->len <= vc_game_raw(g, NULL) + n);
	}
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "3");
	VT_EQ_INT(vc_game_number(g), 3);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* a game that ends within the window but is too long is cut too */
	const char *in2 =
		"[A \"1\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 "
		"7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *\n[A \"2\"]\n1. d4 *\n";
	r = open_text(in2, strlen(in2), &o);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_code(g, "limit-game-size"));
	vc_game_raw(g, &n);
	VT_EQ_INT(n, 100);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "2");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(limit_line)
{
	struct vc_reader_opts o = { .max_line_bytes = 20 };
	const char *in = "[A \"1\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n[A \"2\"]\n1. d4\nd5 *\n";
	struct vc_reader *r = open_text(in, strlen(in), &o);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "limit-line", 2, 21));
	VT_EQ_STR(diag_msg(g, "limit-line"), "line is longer than 20 bytes");
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.d4 d5");
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(limit_tags)
{
	size_t cap = 20 * 1100 + 70000;
	char *in = malloc(cap);
	in[0] = '\0';
	size_t k = 0;
	for (int i = 0; i < 1001; i++)
		k += (size_t)sprintf(in + k, "[T%d \"%d\"]\n", i, i);
	k += (size_t)sprintf(in + k, "1. e4 *\n\n[Big \"");
	memset(in + k, 'v', 65536);
	k += 65536;
	strcpy(in + k, "\"]\n[Small \"ok\"]\n1. e4 *\n");
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_tag_count(g), 1000);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "limit-tags", 1001, 1));
	VT_EQ_STR(show(g), "1.e4");
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_tag_count(g), 1);
	VT_CHECK(has_diag_at(g, "limit-tag-size", 1004, 1));
	VT_EQ_STR(diag_msg(g, "limit-tag-size"), "tag 'Big' is longer than 65536 bytes");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
	free(in);
}

VT_TEST(limit_diags)
{
	char *in = malloc(4000);
	strcpy(in, "[A \"1\"]\n1. e4 ");
	size_t k = strlen(in);
	memset(in + k, ')', 1500);
	strcpy(in + k + 1500, " e5 *\n[A \"2\"]\n1. d4 *\n");
	struct vc_reader *r = open_text(in, strlen(in), NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1000);
	VT_CHECK(has_code(g, "limit-diags"));
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.d4");
	vc_game_free(g);
	vc_reader_close(r);
	free(in);
}

/* ---- strict mode ---- */

static int strict_has(const char *in, const char *code, const char *needle, int strict)
{
	struct vc_reader_opts o = { .strict = strict };
	struct vc_reader *r = open_text(in, strlen(in), &o);
	struct vc_game *g = vc_game_new();
	int found = 0;
	while (vc_reader_next(r, g) == VC_OK) {
		if (needle ? has_diag_text(g, code, in, needle) : has_code(g, code))
			found++;
		if (!strict && vc_game_diag_count(g))
			found += 100;
	}
	vc_game_free(g);
	vc_reader_close(r);
	return found;
}

VT_TEST(strict_mode)
{
	static const struct {
		const char *in, *code, *needle;
		int count;
	} cases[] = {
		{ "[A \"b\"]\r\n1. e4\r\ne5 *\r\n", "strict-crlf", "\r\n1.", 1 },
		{ "[A \"b\"]\r1. e4 {a\rb} *\n", "strict-crlf", "\r1.", 1 },
		{ "\xEF\xBB\xBF[A \"b\"]\n*\n", "strict-bom", NULL, 1 },
		{ "1. e4 *\n", "strict-no-tags", "1.", 1 },
		{ "%esc\n[A \"b\"]\n1. e4\n%x\n*\n", "strict-escape", "%x", 1 },
		{ "[A \"b\"]\n1. exd6 e.p. *\n", "strict-ep-mark", "e.p.", 1 },
		{ "[A \"b\"]\n1. e4 e5\n", "strict-no-result", "e5", 1 },
		{ "[A \"b\"]\n1. e4 Z0 2. -- *\n", "strict-null-move", "--", 1 },
		{ "[A \"b\"]\n1. e4 Z0 2. -- *\n", "strict-null-move", "Z0", 1 },
		{ "[A \"b\"]\n1.e4 e5 *\n", "strict-spacing", "e4", 1 },
		{ "[A \"b\"]\n1. e4\te5 *\n", "strict-spacing", "\te5", 1 },
		{ "[A \"b\"]\n1. e4 ?! *\n", "strict-spacing", "?!", 1 },
		{ "[A \"b\"]\n1. e4*\n", "strict-spacing", "*\n", 1 },
		{ "[A \"b\"]\n*\n\xEF\xBB\xBF[A \"c\"]\n*\n", "strict-bom", NULL, 1 },
		{ "[A \"b\"]\n\xEF\xBB\xBF[C \"d\"]\n*\n", "strict-bom", NULL, 1 },
		{ "[A \"b\"]\n1. e4\n\xEF\xBB\xBF"
		  "e5 *\n",
		  "strict-bom", NULL, 1 },
	};
	for (size_t i = 0; i < VT_NELEM(cases); i++) {
		int got = strict_has(cases[i].in, cases[i].code, cases[i].needle, 1);
		if (got != cases[i].count)
			VT_FAIL_AT(__FILE__, __LINE__, "case %zu (%s): found %d", i, cases[i].code,
				   got);
		got = strict_has(cases[i].in, cases[i].code, cases[i].needle, 0);
		if (got != 0)
			VT_FAIL_AT(__FILE__, __LINE__, "case %zu (%s) lenient: found %d", i,
				   cases[i].code, got);
	}
	/* strict-crlf is stored once per game */
	const char *in = "[A \"b\"]\r\n1. e4\r\ne5 *\r\n[A \"c\"]\r\n*\r\n";
	struct vc_reader_opts o = { .strict = 1 };
	struct vc_reader *r = open_text(in, strlen(in), &o);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_CHECK(has_diag_at(g, "strict-crlf", 1, 8));
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_INT(vc_game_diag_count(g), 1);
	vc_game_free(g);
	vc_reader_close(r);
}

/* ---- numbering, conservation, chunks, gzip ---- */

VT_TEST(numbering)
{
	struct vc_reader_opts o = { .first_game = 10 };
	const char *in = "[A \"1\"]\n*\n???\n[A \"2\"]\n*\n";
	struct vc_reader *r = open_text(in, strlen(in), &o);
	struct vc_game *g = vc_game_new();
	long want[] = { 10, 11, 12 };
	int garbage[] = { 0, 1, 0 };
	for (int i = 0; i < 3; i++) {
		VT_EQ_INT(vc_reader_next(r, g), VC_OK);
		VT_EQ_INT(vc_game_number(g), want[i]);
		VT_EQ_INT(vc_game_is_garbage(g), garbage[i]);
	}
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_game_free(g);
	vc_reader_close(r);
}

static size_t nonblank(const char *p, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\f\v\r\n", p[i]) || p[i] == '\0')
			k++;
	return k;
}

/* Every non-blank byte of the input is in exactly one game's raw text, in
 * order: the raw texts are disjoint pieces of the input, in input order,
 * and the bytes between them are blank. */
static void check_conservation(const char *in, size_t len, const struct vc_reader_opts *o,
			       long *games)
{
	struct vc_reader *r = open_text(in, len, o);
	struct vc_game *g = vc_game_new();
	size_t pos = 0, sum_nb = 0, sum_len = 0;
	*games = 0;
	while (vc_reader_next(r, g) == VC_OK) {
		size_t n;
		const char *p = vc_game_raw(g, &n);
		sum_len += n;
		sum_nb += nonblank(p, n);
		(*games)++;
		/* find it at or after pos, with only blank bytes before it */
		size_t at_ = pos;
		while (at_ < len && n && (len - at_ < n || memcmp(in + at_, p, n) != 0))
			at_++;
		VT_CHECK(at_ + n <= len);
		if (at_ + n > len)
			break;
		VT_EQ_INT(nonblank(in + pos, at_ - pos), 0);
		pos = at_ + n;
	}
	VT_EQ_INT(nonblank(in + pos, len - pos), 0);
	VT_EQ_INT(sum_nb, nonblank(in, len));
	VT_CHECK(sum_len <= len);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(byte_conservation)
{
	const char in[] = "%esc\n\n[A \"1\"]\r\n\r\n1. e4 {c\r\n} e5 1-0 {x}\r\n\r\n"
			  "junk here\n\n1. d4 d5 *  trailing text\n[B \"2\"]\n1. e4 \x01 more\n"
			  "junk\n[C \"3\"]\n1. c4 {open\n\n[D \"4\"]\n1. Nf3 ((( e5\n"
			  "[E \"5\"]\n\t \n1. a3 ) 1/2-1/2\n\n  \n[F \"6\"]\n[G \"x]\n1. e4\x00 *"
			  "\n\n1. h3 \n   \n";
	long games;
	/* escape+game, garbage (to the blank line), a tagless game, garbage
	 * after its result (to the tag line), broken (to the tag line),
	 * unclosed comment, open variations, good, broken tags and a NUL (to
	 * the end) */
	check_conservation(in, sizeof in - 1, NULL, &games);
	VT_EQ_INT(games, 9);
	struct vc_reader_opts o = { .strict = 1 };
	check_conservation(in, sizeof in - 1, &o, &games);
	VT_EQ_INT(games, 9);
}

/* A big archive read through many window refills: every game must come out
 * the same wherever the chunk boundaries fall (inside CRLF, comments, tags). */
VT_TEST(chunk_boundaries)
{
	const char *game = "[Event \"chunk\"]\r\n[Site \"?\"]\r\n\r\n"
			   "1. e4 { [%clk 0:03:00]\r\ntwo lines } e5 2. Nf3 (2. f4 exf4) Nc6 $1 "
			   "3. Bb5 ; semi\r\na6 1-0\r\n\r\n";
	size_t glen = strlen(game), ngames = (3u << 20) / glen;
	char *in = malloc(ngames * glen + 64);
	for (int pad = 0; pad < 5; pad++) {
		size_t k = 0;
		for (int i = 0; i < pad * 7; i++)
			in[k++] = '\n';
		for (size_t i = 0; i < ngames; i++, k += glen)
			memcpy(in + k, game, glen);
		struct vc_reader *r = open_text(in, k, NULL);
		struct vc_game *g = vc_game_new();
		size_t n = 0, bad = 0;
		while (vc_reader_next(r, g) == VC_OK) {
			n++;
			size_t rl;
			vc_game_raw(g, &rl);
			if (vc_game_diag_count(g) || vc_game_item_count(g) != 13 ||
			    rl != glen - 2 ||
			    strcmp(show(g), "1.e4 { [%clk 0:03:00]\r\ntwo lines } "
					    "e5 2.Nf3 ( 2.f4 exf4 ) Nc6 $1 3.Bb5 "
					    "; semi a6") != 0 ||
			    vc_game_line(g) != (long)(pad * 7 + 1 + 7 * (n - 1))) {
				if (bad++ == 0) {
					VT_FAIL_AT(__FILE__, __LINE__, "pad %d game %zu: %s", pad,
						   n, show(g));
					dump_diags(g);
				}
			}
		}
		VT_EQ_INT(n, ngames);
		VT_EQ_INT(bad, 0);
		vc_game_free(g);
		vc_reader_close(r);
	}
	free(in);
}

/* Lines longer than the reader's chunk: a comment of several MiB on one
 * line, and an over-long line skipped up to the next game. */
VT_TEST(long_lines)
{
	size_t big = (5u << 20) + 12345;
	char *in = malloc(2 * big + 200);
	size_t k = (size_t)sprintf(in, "[A \"1\"]\n1. e4 {");
	memset(in + k, 'c', big);
	k += big;
	k += (size_t)sprintf(in + k, "} e5 *\n[A \"2\"]\n1. d4 ");
	memset(in + k, 'x', big);
	k += big;
	k += (size_t)sprintf(in + k, " *\n[A \"3\"]\n1. c4 *\n");
	struct vc_reader_opts o = { .max_line_bytes = 8u << 20 };
	struct vc_reader *r = open_text(in, k, &o);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_item_count(g), 3);
	VT_EQ_INT(vc_game_item(g, 1)->len, big);
	VT_EQ_INT(vc_game_item(g, 2)->col, 10 + (long)big);
	VT_EQ_STR(vc_game_result(g), "*");
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_game_item(g, 1)->len, big);
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* with the default 1 MiB line limit */
	r = open_text(in, k, NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_at(g, "limit-line", 2, (1 << 20) + 1));
	VT_EQ_INT(vc_game_diag_count(g), 1);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_diag_at(g, "limit-line", 4, (1 << 20) + 1));
	VT_EQ_INT(vc_game_diag_count(g), 1);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.c4");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* and past the game size limit: the rest is dropped, memory bounded */
	o.max_line_bytes = 0;
	o.max_game_bytes = 2u << 20;
	r = open_text(in, k, &o);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_CHECK(has_code(g, "limit-game-size"));
	size_t n;
	vc_game_raw(g, &n);
	VT_EQ_INT(n, 2u << 20);
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	VT_EQ_STR(vc_game_tag(g, "A"), "2");
	VT_CHECK(has_code(g, "limit-game-size"));
	NEXT_CLEAN(r, g);
	VT_EQ_STR(vc_game_tag(g, "A"), "3");
	VT_EQ_INT(vc_game_line(g), 5);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);
	vc_game_free(g);
	free(in);
}

VT_TEST(gzip_input)
{
	const char *text = "[A \"1\"]\n1. e4 *\n\n[A \"2\"]\n1. d4 d5 1-0\n";
	unsigned char out[1024];
	z_stream z;
	memset(&z, 0, sizeof z);
	VT_EQ_INT(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (unsigned)strlen(text);
	z.next_out = out;
	z.avail_out = sizeof out;
	VT_EQ_INT(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = sizeof out - z.avail_out;
	deflateEnd(&z);
	struct vc_reader *r = open_text((const char *)out, n, NULL);
	struct vc_game *g = vc_game_new();
	NEXT_CLEAN(r, g);
	VT_EQ_INT(vc_reader_is_gzip(r), 1);
	NEXT_CLEAN(r, g);
	VT_EQ_STR(show(g), "1.d4 d5");
	VT_EQ_STR(raw(g), "[A \"2\"]\n1. d4 d5 1-0\n");
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);

	/* a truncated gzip stream: the games read so far come out, then
	 * VC_FATAL, with the error on the context */
	unsigned long before = vc_ctx_count(ctx, VC_SEV_ERROR) + vc_ctx_count(ctx, VC_SEV_FATAL);
	r = open_text((const char *)out, n - 12, NULL);
	vc_status st;
	int games = 0;
	while ((st = vc_reader_next(r, g)) == VC_OK)
		games++;
	VT_EQ_INT(st, VC_FATAL);
	VT_EQ_INT(vc_reader_next(r, g), VC_FATAL);
	VT_CHECK(vc_ctx_count(ctx, VC_SEV_ERROR) + vc_ctx_count(ctx, VC_SEV_FATAL) > before);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(open_errors)
{
	struct vc_ctx *c = vc_ctx_new();
	VT_CHECK(vc_reader_open(c, "/nonexistent/file.pgn", NULL) == NULL);
	VT_CHECK(vc_ctx_count(c, VC_SEV_ERROR) + vc_ctx_count(c, VC_SEV_FATAL) > 0);
	vc_reader_close(NULL);
	vc_ctx_free(c);
	/* an empty input and a blank one have no games */
	struct vc_reader *r = open_text("", 0, NULL);
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);
	r = open_text(" \n\r\n\t\n", 6, NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);
	r = open_text("\xEF\xBB\xBF", 3, NULL);
	VT_EQ_INT(vc_reader_next(r, g), VC_END);
	vc_reader_close(r);
	vc_game_free(g);
}

/* ---- the game record's own API ---- */

VT_TEST(game_api)
{
	struct vc_game *g = vc_game_new();
	VT_EQ_INT(vc_game_tag_count(g), 0);
	VT_EQ_INT(vc_game_worst(g), -1);
	VT_CHECK(vc_game_result(g) == NULL);
	size_t n = 99;
	VT_EQ_STR(vc_game_raw(g, &n), "");
	VT_EQ_INT(n, 0);
	VT_EQ_INT(vc_game_add_tag(g, "White", "Kasparov"), 0);
	VT_EQ_INT(vc_game_add_tag(g, "Black", "Topalov"), 0);
	VT_EQ_INT(vc_game_add_tag(g, "White", "dup"), 0);
	VT_EQ_INT(vc_game_set_tag(g, "White", "Anand"), 0);
	VT_EQ_INT(vc_game_set_tag(g, "Result", "1-0"), 0);
	VT_EQ_INT(vc_game_tag_count(g), 4);
	VT_EQ_STR(vc_game_tag(g, "White"), "Anand");
	VT_EQ_STR(vc_game_tag_value(g, 2), "dup");
	VT_EQ_STR(vc_game_tag_name(g, 3), "Result");
	VT_CHECK(vc_game_tag_name(g, 4) == NULL);
	long l = 5, c = 5;
	vc_game_tag_pos(g, 0, &l, &c);
	VT_EQ_INT(l + c, 0);

	char text[] = "Nf3";
	char sfx[] = "!?";
	struct vc_item it = { .type = VC_IT_MOVE,
			      .flags = VC_IF_MOVENUM,
			      .line = 3,
			      .col = 4,
			      .text = text,
			      .len = 3,
			      .suffix = sfx,
			      .suffix_len = 2,
			      .movenum = 2 };
	VT_EQ_INT(vc_game_add_item(g, &it), 0);
	text[0] = 'X'; /* the game keeps its own copy */
	sfx[0] = '?';
	struct vc_item nag = { .type = VC_IT_NAG, .nag = 7 };
	VT_EQ_INT(vc_game_add_item(g, &nag), 0);
	VT_EQ_INT(vc_game_item_count(g), 2);
	VT_EQ_STR(show(g), "2.Nf3!? $7");
	VT_EQ_INT(vc_game_item(g, 0)->text[3], '\0');
	VT_CHECK(vc_game_item(g, 2) == NULL);

	VT_EQ_INT(vc_game_set_result(g, "0-1"), 0);
	VT_EQ_STR(vc_game_result(g), "0-1");
	char code[] = "move-illegal";
	char ctxs[] = "game 1, ply 3";
	VT_EQ_INT(vc_game_add_diag(g, VC_SEV_WARNING, code, 3, 4, 3, ctxs, "illegal move '%s'",
				   "Nf3"),
		  0);
	code[0] = 'X';
	ctxs[0] = 'X';
	VT_EQ_INT(vc_game_add_diag(g, VC_SEV_NOTE, NULL, 0, 0, 0, NULL, "plain"), 0);
	const struct vc_game_diag *d = vc_game_diag_at(g, 0);
	VT_EQ_STR(d->code, "move-illegal");
	VT_EQ_STR(d->context, "game 1, ply 3");
	VT_EQ_STR(d->message, "illegal move 'Nf3'");
	VT_EQ_INT(d->ply, 3);
	VT_CHECK(vc_game_diag_at(g, 1)->code == NULL);
	VT_CHECK(vc_game_diag_at(g, 2) == NULL);
	VT_EQ_INT(vc_game_worst(g), VC_SEV_WARNING);
	VT_EQ_INT(vc_game_set_result(g, NULL), 0);
	VT_CHECK(vc_game_result(g) == NULL);

	/* many long strings: arena blocks grow, earlier strings stay put */
	const char *first = vc_game_tag(g, "White");
	char big[10000];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	for (int i = 0; i < 300; i++)
		vc_game_add_tag(g, "Big", i % 50 ? "short" : big);
	VT_EQ_STR(first, "Anand");
	VT_EQ_INT(strlen(vc_game_tag_value(g, 4)), sizeof big - 1);

	vc_game_clear(g);
	VT_EQ_INT(vc_game_tag_count(g), 0);
	VT_EQ_INT(vc_game_item_count(g), 0);
	VT_EQ_INT(vc_game_diag_count(g), 0);
	VT_CHECK(vc_game_file(g) == NULL);
	VT_EQ_INT(vc_game_add_tag(g, "Event", "again"), 0);
	VT_EQ_STR(vc_game_tag(g, "Event"), "again");
	vc_game_free(g);
	vc_game_free(NULL);
}

/* ---- the real archives (corpora/MANIFEST) ---- */

static const char *corpora(void)
{
	const char *dir = getenv("CORPORA");
	return dir && *dir ? dir : "corpora/real";
}

/* The files each corpus test reads, with their games and moves (-1: not checked). */
struct corpus_file {
	const char *file;
	long games, moves;
};

static const struct corpus_file standard_files[] = {
	{ "standard/lichess-magnus-2018-2022.pgn.gz", 46177, 3587537 },
	{ "standard/pgnmentor-10-players.pgn.gz", 19820, 1626897 },
	{ "standard/stockfish-book-8moves.pgn.gz", 34700, 34700 * 16 },
};

static const struct corpus_file edge_files[] = {
	{ "edge-cases/anastasian-lewis.pgn", 1, -1 },
	{ "edge-cases/antichess-programfox.pgn", 2, -1 },
	{ "edge-cases/chessbase-empty-line.pgn", 1, -1 },
	{ "edge-cases/cutechess-fischerrandom.pgn", 4, -1 },
	{ "edge-cases/kasparov-deep-blue-1997.pgn", 6, -1 },
	{ "edge-cases/knightvuillaume-jannlee-zh-lichess.pgn", 1, -1 },
	{ "edge-cases/molinari-bordais-1979.pgn", 1, -1 },
	{ "edge-cases/nepomniachtchi-liren-game1.pgn", 1, -1 },
	{ "edge-cases/pgnmentor-fischer-crlf.pgn", 827, -1 },
	{ "edge-cases/saturs-jannlee-zh-lichess.pgn", 1, -1 },
	{ "edge-cases/stockfish-learning.pgn", 1, -1 },
	{ "edge-cases/uci-moves.pgn", 1, -1 },
	{ "edge-cases/utf8-bom.pgn", 2, -1 },
	{ "variant/crazyhouse-360.pgn.gz", 360, 20309 }, /* variations' moves too */
	{ "variant/lichess-other-variants.pgn.gz", 1068, -1 },
};

/* Stores in path the first of the n files that is not in the corpora and returns 1;
 * returns 0 when all are there. */
static int absent(const struct corpus_file *files, size_t n, char *path, size_t len)
{
	struct stat st;
	for (size_t i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s", corpora(), files[i].file);
		if (stat(path, &st) != 0)
			return 1;
	}
	return 0;
}

static void read_corpus(const char *file, long games, long moves, int strict)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", corpora(), file);
	struct vc_reader_opts o = { .strict = strict };
	struct vc_reader *r = vc_reader_open(ctx, path, &o);
	VT_CHECK(r != NULL);
	if (!r)
		return;
	struct vc_game *g = vc_game_new();
	long n = 0, m = 0, diags = 0;
	vc_status st;
	while ((st = vc_reader_next(r, g)) == VC_OK) {
		n++;
		for (size_t i = 0; i < vc_game_item_count(g); i++)
			m += vc_game_item(g, i)->type == VC_IT_MOVE;
		if (vc_game_diag_count(g) && diags++ < 3)
			dump_diags(g);
	}
	VT_EQ_INT(st, VC_END);
	VT_EQ_INT(diags, 0);
	if (games >= 0)
		VT_EQ_INT(n, games);
	if (moves >= 0)
		VT_EQ_INT(m, moves);
	vc_game_free(g);
	vc_reader_close(r);
}

VT_TEST(corpus_standard)
{
	for (size_t i = 0; i < VT_NELEM(standard_files); i++)
		read_corpus(standard_files[i].file, standard_files[i].games,
			    standard_files[i].moves, 0);
}

VT_TEST(corpus_edge_cases)
{
	for (size_t i = 0; i < VT_NELEM(edge_files); i++)
		read_corpus(edge_files[i].file, edge_files[i].games, edge_files[i].moves, 0);
}

int main(void)
{
	static const struct vt_entry tests[] = {
		VT_ENTRY(basic_game),
		VT_ENTRY(move_numbers),
		VT_ENTRY(comments),
		VT_ENTRY(records_hint),
		VT_ENTRY(escape_lines),
		VT_ENTRY(nags_and_suffixes),
		VT_ENTRY(variations),
		VT_ENTRY(results),
		VT_ENTRY(null_moves_and_ep),
		VT_ENTRY(move_tokens),
		VT_ENTRY(tagless_games),
		VT_ENTRY(game_boundaries),
		VT_ENTRY(line_ends_and_bom),
		VT_ENTRY(tag_errors),
		VT_ENTRY(comment_unclosed),
		VT_ENTRY(variation_errors),
		VT_ENTRY(unexpected_and_nul),
		VT_ENTRY(recovery),
		VT_ENTRY(writers_meant),
		VT_ENTRY(garbage_between_games),
		VT_ENTRY(limit_depth),
		VT_ENTRY(limit_game_size),
		VT_ENTRY(limit_line),
		VT_ENTRY(limit_tags),
		VT_ENTRY(limit_diags),
		VT_ENTRY(strict_mode),
		VT_ENTRY(numbering),
		VT_ENTRY(byte_conservation),
		VT_ENTRY(chunk_boundaries),
		VT_ENTRY(long_lines),
		VT_ENTRY(gzip_input),
		VT_ENTRY(open_errors),
		VT_ENTRY(game_api),
	};
	static const struct vt_entry corpus_tests[] = {
		VT_ENTRY(corpus_standard),
		VT_ENTRY(corpus_edge_cases),
	};
	ctx = vc_ctx_new();
	int bad = vt_run(tests, VT_NELEM(tests));
	/* each corpus test runs when every file it reads is there */
	char path[VT_NELEM(corpus_tests)][4200];
	const int missing[VT_NELEM(corpus_tests)] = {
		absent(standard_files, VT_NELEM(standard_files), path[0], sizeof path[0]),
		absent(edge_files, VT_NELEM(edge_files), path[1], sizeof path[1]),
	};
	for (size_t i = 0; i < VT_NELEM(corpus_tests); i++) {
		if (missing[i])
			printf("ok %s # skip %s absent (make corpora)\n", corpus_tests[i].name,
			       path[i]);
		else
			bad |= vt_run(&corpus_tests[i], 1);
	}
	vc_ctx_free(ctx);
	return bad;
}
