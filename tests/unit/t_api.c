/*
 * t_api.c - unit tests of what the tools' front ends share through the
 * public API: selection expressions (read and not read, with where and
 * why), matching before and after the replay, format names, summaries
 * (added, written as TSV, read back, merged), the plies of a game
 * (positions forwards and backwards, moves, titles, check, marks), the
 * game found by number, and the converter (counts, the caller told of
 * each game, rejects, one thread against several).
 *
 * Only vchess.h is used, as a program outside the library would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vchess.h"
#include "vt.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* Diagnostics collected as lines "line:col: message", for checking. */
struct seen {
	char text[4096];
	int n;
};

static void collect(const struct vc_diag *d, void *user)
{
	struct seen *s = user;
	size_t len = strlen(s->text);
	snprintf(s->text + len, sizeof s->text - len, "%ld:%ld: %s\n", d->line, d->col,
		 d->message ? d->message : "");
	s->n++;
}

/* The games of a text archive, validated; count of them in *n. */
static struct vc_game **read_games(const char *text, struct vc_game_stats *st, int *n)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_reader *r = vc_reader_mem(ctx, "mem", text, strlen(text), NULL);
	struct vc_validator *val = vc_validator_new(ctx, NULL);
	struct vc_game **gs = calloc(16, sizeof *gs);
	*n = 0;
	while (*n < 16) {
		gs[*n] = vc_game_new();
		if (vc_reader_next(r, gs[*n]) != VC_OK)
			break;
		vc_validate(val, gs[*n], &st[*n]);
		st[*n].variant = NULL; /* the validator's: gone when it is freed */
		(*n)++;
	}
	vc_game_free(gs[*n]);
	vc_validator_free(val);
	vc_reader_close(r);
	vc_ctx_free(ctx);
	return gs;
}

static void free_games(struct vc_game **gs, int n)
{
	for (int i = 0; i < n; i++)
		vc_game_free(gs[i]);
	free(gs);
}

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char p[4][sizeof tmpdir + 64];
	static int k;
	char *q = p[k++ % 4];
	if (!tmpdir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tmpdir, sizeof tmpdir, "%s/t_api.XXXXXX",
			 t && strlen(t) < 40 ? t : "/tmp");
		if (!mkdtemp(tmpdir))
			VT_FAIL_AT(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
	}
	snprintf(q, sizeof p[0], "%s/%s", tmpdir, name);
	return q;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	*len = 0;
	if (!f)
		return NULL;
	size_t cap = 0, k;
	do {
		if (cap - *len < 4096) {
			cap = cap * 2 + 4096;
			p = realloc(p, cap + 1);
		}
		k = fread(p + *len, 1, cap - *len, f);
		*len += k;
	} while (k > 0);
	fclose(f);
	p[*len] = '\0';
	return p;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* ---- selection expressions ------------------------------------------------------------ */

VT_TEST(select_reads)
{
	static const char *const good[] = {
		"White=Carlsen, Magnus",
		"White~^Carl",
		"WhiteElo>=2800",
		"BlackElo< 2000 ",
		"Date>1990",
		"Date<=1990.06.21",
		"EventDate>=2001.02",
		"variant=zh",
		"variant=nonesuch",
		"game=3",
		"game=2-5",
		"game=5-",
		"game=-4",
		"valid",
		"invalid",
		"Round>3.5",
		"White=A or (Black~B and not valid)",
		"not not valid",
		"player=\"Carlsen, Magnus\"",
		"plies>=40 and plies<=80 and result=1-0",
		"date=1990..1999.06",
		"Black~Carlsen|Kieseritzky",
		"White~(a|b)",
		"(White~(a|b))",
		"position=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"(final=*/*/*/*/*/*/*/*K*)",
		"position=8/8/8/8/8/8/8/8[Qp]",
		"position=(CN)15/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*",
		"material=KQk or material>=R2 P3 r2",
		"moves=\"1. e4 c5 2.Nf3 ... d6\" and not moves=d4",
		"checkmate or stalemate or ended or end=hill or end=\"the eighth rank\"",
	};
	struct vc_select *s = vc_select_new();
	struct vc_select_error err;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		if (vc_select_add(s, good[i], &err) != 0)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' does not read: col %zu: %s", good[i],
				   err.col, err.message);
	VT_CHECK(vc_select_needs_replay(s));
	vc_select_free(s);
	s = vc_select_new();
	VT_EQ_INT(vc_select_add(s, "Event~x", NULL), 0);
	VT_EQ_INT(vc_select_needs_replay(s), 0);
	/* an expression that does not read leaves none of its terms behind */
	VT_EQ_INT(vc_select_add(s, "position=8/8/8/8/8/8/8/8 and material=", NULL), -1);
	VT_EQ_INT(vc_select_needs_replay(s), 0);
	VT_EQ_INT(vc_select_add(s, "ended", NULL), 0);
	VT_CHECK(vc_select_needs_replay(s));
	vc_select_free(s);
	vc_select_free(NULL);
}

VT_TEST(select_errors)
{
	static const struct {
		const char *expr;
		size_t col;
		const char *message;
	} bad[] = {
		{ "WhiteElo>=high", 11, "expected a number, not 'high'" },
		{ "WhiteElo>12x", 12, "expected a number, not '12x'" },
		{ "=x", 1,
		  "expected a term: Tag=value, player=, plies=, result=, game=, variant=, position=, "
		  "final=, material=, moves=, end=, valid, invalid, checkmate, stalemate or ended" },
		{ "", 1, "expected a term" },
		{ "White", 6, "expected =, ~, >=, <=, > or < after the tag name" },
		{ "White!x", 6, "expected =, ~, >=, <=, > or < after the tag name" },
		{ "game=3-1", 8, "the range ends at 1, before it starts (3)" },
		{ "game=0", 6, "games are numbered from 1" },
		{ "game=x", 6, "expected a game number or a range N-M, not 'x'" },
		{ "game=1-y", 8, "expected the number of the range's last game" },
		{ "Date>=19x0", 9, "expected a date YYYY, YYYY.MM or YYYY.MM.DD, not '19x0'" },
		{ "Date<1990.", 11, "expected a date YYYY, YYYY.MM or YYYY.MM.DD, not '1990.'" },
		/* and, or, not, groups: what is wrong, and where */
		{ "White=A or", 11, "expected a term after 'White=A or'" },
		{ "valid and or invalid", 11, "expected a term, not 'or'" },
		{ "(valid or invalid", 18, "expected ')' to close the '(' of column 1" },
		{ "valid) or invalid", 6, "')' closes no '('" },
		{ "valid invalid", 7, "expected 'and', 'or' or the end, not 'invalid'" },
		{ "not not (White=\"A)", 16, "the quote is never closed" },
		{ "plies~3", 6, "plies takes =N, =N-M, >=N, <=N, >N or <N" },
		{ "plies=40-20", 10, "the range ends at 20, before it starts (40)" },
		{ "result=2-0", 8, "expected a result 1-0, 0-1, 1/2-1/2 or *, not '2-0'" },
		{ "result>1-0", 7, "result is compared with =" },
		{ "player>=2000", 7, "players are compared with = or ~" },
		/* the terms about positions */
		{ "position=", 10, "expected a position string or a pattern" },
		{ "position=8/8/+", 14,
		  "expected a piece, an empty square ('.' or a number), '?', '*' or '/', not '+'" },
		{ "final=8/8 x", 11, "expected the side to move, w or b, not 'x'" },
		{ "material=KQ+", 12,
		  "expected a piece symbol and maybe a count, as in 'KQPkq' or 'K Q2 P3 k', not '+'" },
		{ "material~K", 9, "material is compared with = or >=" },
		{ "moves=\"1. e4 1/2-1/2\"", 14, "expected a move, not '1/2-1/2'" },
		{ "end=3", 5,
		  "expected how a game ends: checkmate, stalemate, pieces, royal, checks, region or "
		  "the name of a region, not '3'" },
	};
	struct vc_select *s = vc_select_new();
	struct vc_select_error err;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (vc_select_add(s, bad[i].expr, &err) == 0) {
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' reads", bad[i].expr);
			continue;
		}
		VT_EQ_INT(err.col, bad[i].col);
		VT_EQ_STR(err.message, bad[i].message);
		VT_EQ_STR(err.regex, "");
	}
	/* a regex that does not compile: its library's words, and where it starts */
	VT_EQ_INT(vc_select_add(s, "White~(", &err), -1);
	VT_EQ_INT(err.col, 7);
	VT_CHECK(err.regex[0] != '\0');
	VT_CHECK(strstr(err.message, "bad regular expression: ") == err.message);
	VT_CHECK(strstr(err.message, err.regex) != NULL);
	VT_EQ_INT(vc_select_add(s, "White~(", NULL), -1);
	vc_select_free(s);
}

static const char games_text[] =
	"[Event \"a\"]\n[White \"Carlsen, Magnus\"]\n[WhiteElo \"2882\"]\n[Date \"1990.??.??\"]\n\n"
	"1. e4 e5 *\n\n"
	"[Event \"b\"]\n[White \"Anand\"]\n[WhiteElo \"?\"]\n[Date \"1990.07.14\"]\n"
	"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 *\n\n"
	"[Event \"c\"]\n[White \"Tal\"]\n[WhiteElo \"2700\"]\n[Date \"1960.05.01\"]\n\n"
	"1. e4 e5 2. Nf9 *\n\n"
	"[Event \"d\"]\n[White \"Nobody\"]\n[Variant \"Nonesuch\"]\n\n1. e4 *\n";

/* Which of the games the selection of exprs takes: "1.3." for games 1 and 3. */
static void taken(struct vc_game **gs, const struct vc_game_stats *st, int n,
		  const char *const *exprs, char *out)
{
	struct vc_select *s = vc_select_new();
	for (int i = 0; exprs[i]; i++)
		if (vc_select_add(s, exprs[i], NULL) != 0)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' does not read", exprs[i]);
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		if (vc_select_before(s, gs[i]) && vc_select_after(s, gs[i], &st[i]))
			sprintf(out + strlen(out), "%d.", i + 1);
	vc_select_free(s);
}

VT_TEST(select_matches)
{
	struct vc_game_stats st[16];
	int n;
	struct vc_game **gs = read_games(games_text, st, &n);
	char got[64];
	VT_EQ_INT(n, 4);
	static const struct {
		const char *exprs[3];
		const char *want;
	} cases[] = {
		{ { "WhiteElo>=2800" }, "1." },
		{ { "WhiteElo<2800" }, "3." }, /* "?" is no number: never taken */
		{ { "White~^Carlsen" }, "1." },
		{ { "White=Anand", "Event=b" }, "2." },
		{ { "Date>=1990" }, "1.2." },
		{ { "Date>=1990.06" }, "2." }, /* 1990.??: not told */
		{ { "Date<1990.07.15" }, "2.3." },
		{ { "game=2-3" }, "2.3." },
		{ { "game=3-" }, "3.4." },
		{ { "variant=zh" }, "2." },
		{ { "variant=nonesuch" }, "4." }, /* unknown: the tag as written */
		{ { "valid" }, "1.2." },
		{ { "invalid", "game=-3" }, "3." },
		/* or, not, groups; before the replay, "valid" is not known yet */
		{ { "White=Tal or White=Anand" }, "2.3." },
		{ { "not White=Tal" }, "1.2.4." },
		{ { "not (White=Tal or White=Anand) and game=-3" }, "1." },
		{ { "valid or WhiteElo>=2800" }, "1.2." },
		{ { "not valid" }, "3.4." },
		{ { "invalid and not variant=nonesuch" }, "3." },
		{ { "White=\"Carlsen, Magnus\" or White=Nobody" }, "1.4." },
		/* ranges, players, plies as written, results */
		{ { "Date=1960..1990.07" }, "2.3." }, /* 1990.??: not told */
		{ { "date=1990.07..1991" }, "2." },
		{ { "WhiteElo=2700..2882" }, "1.3." },
		{ { "player~^(Tal|Anand)$" }, "2.3." },
		{ { "plies=4" }, "2." },
		{ { "plies=2-3" }, "1.3." },
		{ { "plies>=3", "plies<4" }, "3." },
		{ { "plies<2" }, "4." },
		{ { "result=*" }, "1.2.3.4." },
		{ { NULL }, "1.2.3.4." },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		taken(gs, st, n, cases[i].exprs, got);
		if (strcmp(got, cases[i].want))
			VT_FAIL_AT(__FILE__, __LINE__, "case %zu ('%s'): %s, expected %s", i,
				   cases[i].exprs[0] ? cases[i].exprs[0] : "", got, cases[i].want);
	}
	/* no selection takes every game */
	VT_CHECK(vc_select_before(NULL, gs[2]) && vc_select_after(NULL, gs[2], &st[2]));
	free_games(gs, n);
}

/* ---- format names ------------------------------------------------------------------------ */

VT_TEST(format_names)
{
	static const char *const names[] = { "text", "xml", "json-lines", "fen" };
	for (size_t i = 0; i < 4; i++) {
		int f = vc_format_parse(names[i]);
		VT_CHECK(f >= 0);
		VT_EQ_STR(vc_format_name((enum vc_format)f), names[i]);
	}
	VT_EQ_INT(vc_format_parse("yaml"), -1);
	VT_EQ_INT(vc_format_parse(NULL), -1);
	VT_EQ_INT(vc_format_parse("XML"), -1);
	VT_EQ_INT(vc_render_format_parse("svg"), VC_RENDER_SVG);
	VT_EQ_INT(vc_render_format_parse("unicode"), VC_RENDER_UNICODE);
	VT_EQ_INT(vc_render_format_parse("png"), -1);
	VT_EQ_INT(vc_render_style_parse("dots"), VC_STYLE_DOTS);
	VT_EQ_INT(vc_render_style_parse("fancy"), -1);
	VT_EQ_INT(vc_render_format_of_name("out/board.svg"), VC_RENDER_SVG);
	VT_EQ_INT(vc_render_format_of_name("board.txt"), -1);
	VT_EQ_INT(vc_render_format_of_name("svg"), -1);
}

/* ---- summaries ----------------------------------------------------------------------------- */

static char *summary_text(const struct vc_summary *s, int tsv)
{
	struct vc_sink *out = vc_sink_mem(NULL);
	VT_EQ_INT(vc_summary_write(s, out, tsv), 0);
	size_t len;
	const char *p = vc_sink_data(out, &len);
	char *t = malloc(len + 1);
	memcpy(t, p ? p : "", len);
	t[len] = '\0';
	vc_sink_abort(out);
	return t;
}

VT_TEST(summary_counts)
{
	struct vc_game_stats st[16];
	int n;
	struct vc_game **gs = read_games(games_text, st, &n);
	struct vc_summary *s = vc_summary_new();
	static const char *const names[] = { "chess", "crazyhouse", "chess", NULL };
	for (int i = 0; i < n; i++) {
		st[i].variant = names[i];
		VT_EQ_INT(vc_summary_add(s, gs[i], &st[i]), 0);
	}
	const struct vc_summary_totals *t = vc_summary_totals(s);
	VT_EQ_INT(t->games, 4);
	VT_EQ_INT(t->valid, 2);
	VT_EQ_INT(t->invalid, 2);
	VT_EQ_INT(t->unknown_variant, 1);
	VT_EQ_INT(t->plies, 2 + 4 + 2); /* game 3 stops at its error */
	VT_EQ_INT(vc_summary_variant_count(s), 3);
	VT_EQ_STR(vc_summary_variant_at(s, 0)->name, "chess");
	VT_EQ_INT(vc_summary_variant_at(s, 0)->games, 2);
	VT_EQ_INT(vc_summary_variant_at(s, 0)->valid, 1);
	VT_EQ_STR(vc_summary_variant_at(s, 2)->name, "(unknown)");
	VT_CHECK(vc_summary_variant_at(s, 3) == NULL);
	char *text = summary_text(s, 0);
	VT_EQ_STR(text, "games 4\nvalid 2\ninvalid 2\nplies 8\nvariation-plies 0\n"
			"unknown-variant 1\n"
			"variant chess: games 2 valid 1 plies 4\n"
			"variant crazyhouse: games 1 valid 1 plies 4\n"
			"variant (unknown): games 1 valid 0 plies 0\n");
	free(text);
	vc_summary_free(s);
	free_games(gs, n);
}

/* Written as TSV and read back, twice: the sum of two is the merge of two. */
VT_TEST(summary_round_trip)
{
	struct vc_game_stats st[16];
	int n;
	struct vc_game **gs = read_games(games_text, st, &n);
	struct vc_summary *a = vc_summary_new(), *b = vc_summary_new();
	vc_summary_add(a, gs[0], &st[0]);
	vc_summary_add(a, gs[3], &st[3]);
	st[1].variant = "crazyhouse";
	vc_summary_add(b, gs[1], &st[1]);
	vc_summary_add(b, gs[2], &st[2]);
	char *ta = summary_text(a, 1), *tb = summary_text(b, 1);

	struct vc_summary *read = vc_summary_new();
	struct vc_ctx *ctx = vc_ctx_new();
	VT_EQ_INT(vc_summary_read_tsv(read, ctx, "a.tsv", ta, strlen(ta)), VC_OK);
	VT_EQ_INT(vc_summary_read_tsv(read, ctx, "b.tsv", tb, strlen(tb)), VC_OK);
	VT_EQ_INT(vc_summary_merge(a, b), 0);
	char *merged = summary_text(a, 1), *back = summary_text(read, 1);
	VT_EQ_STR(back, merged);
	VT_EQ_INT(vc_summary_totals(read)->games, 4);
	VT_CHECK(strstr(merged, "variant\tcrazyhouse\t1\t1\t4\n") != NULL);

	/* lines that are none: reported, positioned; the others count */
	struct seen seen = { "", 0 };
	vc_ctx_set_diag(ctx, collect, &seen);
	static const char bad[] =
		"games\t2\r\nfoo\t3\n\nvariant\tx\t1\t2\nvalid\tmany\ninvalid\t1\n";
	struct vc_summary *c = vc_summary_new();
	VT_EQ_INT(vc_summary_read_tsv(c, ctx, "bad.tsv", bad, strlen(bad)), VC_FAILED);
	VT_EQ_STR(seen.text, "2:0: unknown summary line 'foo\t3'\n"
			     "4:0: not a summary line: 'variant\tx\t1\t2'\n"
			     "5:0: not a summary line: 'valid\tmany'\n");
	VT_EQ_INT(vc_summary_totals(c)->games, 2);
	VT_EQ_INT(vc_summary_totals(c)->invalid, 1);

	free(ta);
	free(tb);
	free(merged);
	free(back);
	vc_summary_free(a);
	vc_summary_free(b);
	vc_summary_free(c);
	vc_summary_free(read);
	vc_ctx_free(ctx);
	free_games(gs, n);
}

/* ---- a game's plies ------------------------------------------------------------------------- */

static const char plies_text[] =
	"[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n\n"
	"{[%csl Re4]} 1. e4 {[%cal Ge2e4]} e5 2. Qh5 Nc6 {[%cal Rh5f7,Bf8c5] [%csl Yf7]} "
	"3. Bc4 Nf6 $2 {[%cal Gh5f7]} 4. Qxf7# 1-0\n";

/* The validator of the last run_plies: its variants are the positions'. */
static struct vc_validator *val;

static void done_plies(struct vc_plies *pl)
{
	vc_plies_free(pl);
	vc_validator_free(val);
	val = NULL;
}

static struct vc_plies *run_plies(const char *text, struct vc_game_stats *st, vc_status *s)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_reader *r = vc_reader_mem(ctx, "mem", text, strlen(text), NULL);
	struct vc_game *g = vc_game_new();
	val = vc_validator_new(NULL, NULL);
	struct vc_plies *pl = vc_plies_new();
	VT_EQ_INT(vc_reader_next(r, g), VC_OK);
	*s = vc_plies_run(pl, val, g, st);
	vc_game_free(g);
	vc_reader_close(r);
	vc_ctx_free(ctx);
	return pl;
}

static void fen_of(const struct vc_position *p, char *buf, size_t n)
{
	if (!p) {
		snprintf(buf, n, "(none)");
		return;
	}
	vc_position_fen(p, buf, n);
}

VT_TEST(plies_steps)
{
	struct vc_game_stats st;
	vc_status s;
	struct vc_plies *pl = run_plies(plies_text, &st, &s);
	VT_EQ_INT(s, VC_OK);
	VT_EQ_INT(vc_plies_count(pl), 7);
	/* forwards, against the same moves made by hand */
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "chess");
	struct vc_position *p = vc_position_new(v);
	vc_position_start(p);
	char want[8][128], got[128];
	vc_position_fen(p, want[0], sizeof want[0]);
	for (long k = 1; k <= 7; k++) {
		struct vc_ply ply = { 0 };
		VT_EQ_INT(vc_plies_at(pl, k, &ply), 0);
		vc_position_make(p, ply.move);
		vc_position_fen(p, want[k], sizeof want[k]);
	}
	for (long k = 0; k <= 7; k++) {
		fen_of(vc_plies_position(pl, k), got, sizeof got);
		VT_EQ_STR(got, want[k]);
	}
	/* backwards, and jumps */
	for (long k = 7; k >= 0; k--) {
		fen_of(vc_plies_position(pl, k), got, sizeof got);
		VT_EQ_STR(got, want[k]);
	}
	static const long jumps[] = { 5, 2, 7, 0, 3, 3, 6 };
	for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++) {
		fen_of(vc_plies_position(pl, jumps[i]), got, sizeof got);
		VT_EQ_STR(got, want[jumps[i]]);
	}
	VT_CHECK(vc_plies_position(pl, 8) == NULL);
	VT_CHECK(vc_plies_position(pl, -1) == NULL);
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
	done_plies(pl);
}

VT_TEST(plies_what_a_diagram_needs)
{
	struct vc_game_stats st;
	vc_status s;
	struct vc_plies *pl = run_plies(plies_text, &st, &s);
	struct vc_ply p = { 0 };
	char t[128];
	VT_EQ_INT(vc_plies_at(pl, 0, &p), 0);
	VT_CHECK(p.move == NULL);
	VT_EQ_STR(p.san, "");
	VT_EQ_INT(p.nmarks, 1); /* the comment before the first move */
	VT_EQ_INT(p.marks[0].from, p.marks[0].to);
	VT_EQ_INT(p.marks[0].color, 'R');
	VT_EQ_INT(vc_plies_at(pl, 4, &p), 0);
	VT_EQ_STR(p.san, "Nc6");
	VT_EQ_INT(p.movenum, 2);
	VT_EQ_INT(p.side, 1);
	VT_EQ_INT(p.nmarks, 3);
	VT_EQ_INT(p.marks[1].color, 'B');
	VT_EQ_INT(p.check, 0);
	VT_EQ_INT(vc_plies_at(pl, 6, &p), 0); /* marks after a NAG still count */
	VT_EQ_INT(p.nmarks, 1);
	VT_EQ_INT(vc_plies_at(pl, 7, &p), 0);
	VT_EQ_STR(p.san, "Qxf7#");
	VT_EQ_INT(p.check, 1);
	VT_EQ_INT(p.nmarks, 0);
	VT_EQ_INT(vc_plies_at(pl, 8, &p), -1);

	vc_plies_title(pl, 0, 0, t, sizeof t);
	VT_EQ_STR(t, "start");
	vc_plies_title(pl, 4, 0, t, sizeof t);
	VT_EQ_STR(t, "2... Nc6");
	vc_plies_title(pl, 7, 1, t, sizeof t);
	VT_EQ_STR(t, "Anderssen - Kieseritzky, 4. Qxf7#");
	vc_plies_title(pl, -1, 0, t, sizeof t);
	VT_EQ_STR(t, "Anderssen - Kieseritzky");
	VT_EQ_INT(vc_plies_title(pl, 7, 1, t, 4), strlen("Anderssen - Kieseritzky, 4. Qxf7#"));
	VT_EQ_STR(t, "And");

	/* the settings of a diagram: the ply's move, its marks, then the caller's */
	struct vc_render_opts base, o;
	struct vc_render_mark extra = { 0, 63, 'Y' }, marks[8];
	vc_render_opts_init(&base);
	base.marks = &extra;
	base.nmarks = 1;
	VT_EQ_INT(vc_plies_render_opts(pl, 4, &base, &o, marks, 8), 0);
	VT_EQ_INT(o.nmarks, 4);
	VT_EQ_INT(o.marks[3].color, 'Y');
	VT_EQ_INT(vc_plies_at(pl, 4, &p), 0);
	VT_CHECK(o.last == p.move);
	VT_EQ_INT(vc_plies_render_opts(pl, 4, &base, &o, marks, 2), 0);
	VT_EQ_INT(o.nmarks, 2);
	VT_EQ_INT(vc_plies_render_opts(pl, 0, &base, &o, marks, 8), 0);
	VT_CHECK(o.last == NULL);
	done_plies(pl);
}

VT_TEST(plies_without_moves)
{
	struct vc_game_stats st;
	vc_status s;
	char got[128];
	/* no move replays: the start is the FEN tag's */
	struct vc_plies *pl =
		run_plies("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb9 *\n", &st, &s);
	VT_EQ_INT(s, VC_FAILED);
	VT_EQ_INT(vc_plies_count(pl), 0);
	fen_of(vc_plies_position(pl, 0), got, sizeof got);
	VT_EQ_STR(got, "8/8/8/8/8/8/8/K6k w - - 0 1");
	done_plies(pl);
	/* no start at all */
	pl = run_plies("[Variant \"Nonesuch\"]\n\n1. e4 *\n", &st, &s);
	VT_EQ_INT(vc_plies_count(pl), -1);
	VT_CHECK(vc_plies_position(pl, 0) == NULL);
	done_plies(pl);
	pl = run_plies("[FEN \"8/8/9/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb1 *\n", &st, &s);
	VT_EQ_INT(vc_plies_count(pl), -1);
	done_plies(pl);
}

VT_TEST(plies_drawn)
{
	struct vc_game_stats st;
	vc_status s;
	struct vc_plies *pl = run_plies(plies_text, &st, &s);
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_sink *out = vc_sink_mem(ctx);
	struct vc_render_opts o;
	vc_render_opts_init(&o);
	VT_EQ_INT(vc_render_plies(ctx, out, pl, 3, VC_RENDER_ASCII, &o, NULL), VC_OK);
	size_t len;
	const char *text = vc_sink_data(out, &len);
	char *t = strndup(text, len);
	/* plies 0, 3, 6 and the last */
	VT_CHECK(strstr(t, "start\n") == t);
	VT_CHECK(strstr(t, "\n\n2. Qh5\n") != NULL);
	VT_CHECK(strstr(t, "\n\n3... Nf6\n") != NULL);
	VT_CHECK(strstr(t, "\n\n4. Qxf7#\n") != NULL);
	free(t);
	vc_sink_abort(out);
	out = vc_sink_mem(ctx);
	VT_EQ_INT(vc_render_ply(ctx, out, pl, 7, VC_RENDER_SVG, &o), VC_OK);
	text = vc_sink_data(out, &len);
	t = strndup(text, len);
	VT_CHECK(strstr(t, "Anderssen - Kieseritzky, 4. Qxf7#") != NULL);
	VT_CHECK(strstr(t, "check") != NULL);
	free(t);
	vc_sink_abort(out);
	out = vc_sink_mem(ctx);
	VT_EQ_INT(vc_render_ply(ctx, out, pl, 9, VC_RENDER_SVG, &o), VC_FAILED);
	vc_sink_abort(out);
	vc_ctx_free(ctx);
	done_plies(pl);
}

/* ---- finding a game, converting ---------------------------------------------------------- */

VT_TEST(reader_find)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_game *g = vc_game_new();
	long read = -1;
	struct vc_reader *r = vc_reader_mem(ctx, "mem", games_text, strlen(games_text), NULL);
	VT_EQ_INT(vc_reader_find(r, g, 3, &read), VC_OK);
	VT_EQ_INT(read, 3);
	VT_EQ_STR(vc_game_tag(g, "Event"), "c");
	vc_reader_close(r);
	r = vc_reader_mem(ctx, "mem", games_text, strlen(games_text), NULL);
	VT_EQ_INT(vc_reader_find(r, g, 9, &read), VC_END);
	VT_EQ_INT(read, 4);
	vc_reader_close(r);
	vc_game_free(g);
	vc_ctx_free(ctx);
}

struct told {
	char fates[64];
	long last;
};

static void tell(void *user, const struct vc_game *g, const struct vc_convert_game *info)
{
	struct told *t = user;
	size_t n = strlen(t->fates);
	(void)g;
	if (n + 2 < sizeof t->fates) {
		t->fates[n] = "WKRD"[info->fate];
		t->fates[n + 1] = '\0';
	}
	t->last = info->selected;
}

/* Converts in to out with rejects, selecting expr (or not), in jobs threads. */
static vc_status convert(const char *in, const char *out, const char *rej, const char *expr,
			 int keep, int jobs, struct told *t, struct vc_convert_counts *c)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_select *s = vc_select_new();
	if (expr)
		vc_select_add(s, expr, NULL);
	struct vc_convert_opts o;
	vc_convert_opts_init(&o);
	o.select = s;
	o.out = out;
	o.rejects = rej;
	o.keep_broken = keep;
	o.jobs = jobs;
	o.each = vc_parallel_each;
	o.game = tell;
	o.user = t;
	memset(t, 0, sizeof *t);
	struct vc_convert *cv = vc_convert_new(ctx, &o);
	VT_CHECK(cv != NULL);
	vc_convert_file(cv, in);
	vc_status st = vc_convert_close(cv, c);
	vc_select_free(s);
	vc_ctx_free(ctx);
	return st;
}

VT_TEST(converter)
{
	const char *in = tmp_path("in.pgn"), *out = tmp_path("out.pgn");
	const char *rej = tmp_path("rej.pgn"), *out8 = tmp_path("out8.pgn");
	spit(in, games_text);
	struct told t;
	struct vc_convert_counts c;
	VT_EQ_INT(convert(in, out, rej, NULL, 0, 1, &t, &c), VC_OK);
	VT_EQ_STR(t.fates, "WWRR");
	VT_EQ_INT(c.selected, 4);
	VT_EQ_INT(c.written, 2);
	VT_EQ_INT(c.broken, 2);
	VT_EQ_INT(c.rejected, 2);
	size_t len, len8;
	char *rtext = slurp(rej, &len);
	VT_CHECK(rtext && strstr(rtext, "2. Nf9 *\n\n") && strstr(rtext, "[Variant \"Nonesuch\"]"));
	free(rtext);
	/* several threads write what one writes */
	char *one = slurp(out, &len);
	VT_EQ_INT(convert(in, out8, NULL, NULL, 0, 8, &t, &c), VC_OK);
	char *eight = slurp(out8, &len8);
	VT_CHECK(one && eight && len == len8 && !memcmp(one, eight, len));
	VT_EQ_STR(t.fates, "WWDD");
	free(one);
	free(eight);
	/* selected, kept */
	VT_EQ_INT(convert(in, out, NULL, "game=2-", 1, 2, &t, &c), VC_OK);
	VT_EQ_STR(t.fates, "WKK");
	VT_EQ_INT(c.kept, 2);
	VT_EQ_INT(c.written, 3);
	VT_EQ_INT(t.last, 3);
	/* an input that is not there fails; the run goes on */
	VT_EQ_INT(convert(tmp_path("none.pgn"), out, NULL, NULL, 0, 1, &t, &c), VC_FATAL);
	VT_EQ_INT(c.input_failed, 1);
	VT_EQ_INT(c.selected, 0);
	unlink(in);
	unlink(out);
	unlink(out8);
	unlink(rej);
	rmdir(tmpdir);
}

VT_MAIN(VT_ENTRY(select_reads), VT_ENTRY(select_errors), VT_ENTRY(select_matches),
	VT_ENTRY(format_names), VT_ENTRY(summary_counts), VT_ENTRY(summary_round_trip),
	VT_ENTRY(plies_steps), VT_ENTRY(plies_what_a_diagram_needs), VT_ENTRY(plies_without_moves),
	VT_ENTRY(plies_drawn), VT_ENTRY(reader_find), VT_ENTRY(converter))
