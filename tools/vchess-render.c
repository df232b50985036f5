/*
 * vchess-render - draws diagrams: a position string, a variant's start, a
 * ply of a game (or every ply, or a sheet of every Nth), or a piece's moves,
 * as ASCII, Unicode or SVG; or an archive as a web page (see vchess-render(1)).
 *
 * Model: the library draws (vc_render_position, vc_render_plies,
 * vc_render_html), and a game's plies come from it too (vc_plies): the
 * position after ply K, the move that led to it, its title and the marks of
 * the comments written after it ([%cal]/[%csl]), all from one replay.  This
 * program reads the command line and finds the game.  Exit 0 when
 * everything asked for was drawn, 1 when the input was at fault (a bad
 * position string, no such game or ply, a game that does not replay), 2
 * on usage or system trouble.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-render [OPTION]... --fen FEN | --variant NAME\n"
	"       vchess-render [OPTION]... --game N [FILE]\n"
	"       vchess-render [OPTION]... --piece NAME [--at SQ] --variant NAME\n"
	"       vchess-render -T html [--game N] [--variant NAME] FILE\n";

enum { O_STYLE = 256, O_FLIP, O_SIZE, O_MARKS, O_FEN, O_VARIANT, O_GAME, O_PLY, O_ALL, O_SHEET,
       O_EVERY, O_PIECE, O_AT };

static const struct cli_opt opts[] = {
	{ 'T', "format", "FORMAT", "ascii (default), unicode, svg or html (a web page)" },
	{ O_STYLE, "style", "STYLE", "text: plain (default) or dots (the Io Chess rules')" },
	{ O_FLIP, "flip", NULL, "Black's side at the bottom" },
	{ 'o', "output", "OUT", "write to OUT (default: standard output)" },
	{ O_SIZE, "size", "PX", "svg: the picture's width in pixels" },
	{ O_MARKS, "marks", "TEXT", "arrows and circles: \"[%cal Ge2e4] [%csl Rd5]\"" },
	{ O_FEN, "fen", "FEN", "draw this position" },
	{ O_VARIANT, "variant", "NAME", "the variant (default: chess; its start alone)" },
	{ O_GAME, "game", "N", "draw game N of FILE (its last ply by default)" },
	{ O_PLY, "ply", "K", "the position after ply K (0 the start)" },
	{ O_ALL, "all-plies", "DIR", "every ply, one file each, into DIR" },
	{ O_SHEET, "sheet", NULL, "every Nth ply on one sheet" },
	{ O_EVERY, "every", "N", "--sheet: every N plies (default 10)" },
	{ O_PIECE, "piece", "NAME", "a piece's moves on the empty board" },
	{ O_AT, "at", "SQ", "--piece: from this square (default: the middle)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_tool tool = {
	usage,
	"Draws chess variant positions, game plies and pieces' moves as text or SVG,\n"
	"and whole archives as one self-contained web page.",
	opts,
	"vchess-render --game 2 --ply 10 -o board.svg games.pgn",
	"With --game and no FILE, or when FILE is -, reads standard input.\n"
	"Exit status: 0 drawn, 1 a bad position, game or ply, 2 usage or I/O trouble.\n",
};

#define MAX_MARKS 128

struct args {
	enum vc_render_format format;
	int format_set;
	struct vc_render_opts ro;
	const char *out, *fen, *variant, *file, *piece, *at, *all_dir, *marks;
	long game, ply, every;
	int sheet, html;
};

/* --marks, read with the variant's squares into marks: the settings of
 * every diagram. */
static struct vc_render_opts base_opts(const struct args *a, const struct vc_variant *v,
				       struct vc_render_mark *marks)
{
	struct vc_render_opts ro = a->ro;
	if (a->marks) {
		ro.marks = marks;
		ro.nmarks = vc_render_parse_marks(v, a->marks, strlen(a->marks), marks, MAX_MARKS);
	}
	return ro;
}

/* ---- a game's plies ------------------------------------------------------------ */

/* as vchess-validate prints them, without codes: "file:line:col: error: game 2 (A - B), ..." */
static void print_game_diags(const struct vc_game *g)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		char *line = d->severity >= VC_SEV_ERROR ? cli_game_diag(vc_game_file(g), g, d, 0)
							 : NULL;
		if (line)
			fputs(line, stderr);
		free(line);
	}
}

/* The game a->game of a->file, or NULL (reported; *rc the exit status). */
static struct vc_game *find_game(struct vc_ctx *ctx, const struct args *a, int *rc)
{
	struct vc_reader *rd = vc_reader_open(ctx, a->file, NULL);
	struct vc_game *g = rd ? vc_game_new() : NULL;
	long seen = 0;
	vc_status st = g ? vc_reader_find(rd, g, a->game, &seen) : VC_FATAL;
	if (rd && !g)
		cli_error("out of memory");
	vc_reader_close(rd);
	*rc = st == VC_FATAL ? CLI_TROUBLE : CLI_BAD_INPUT;
	if (st == VC_OK && !vc_game_is_garbage(g))
		return g;
	if (st == VC_OK)
		cli_file_error(a->file, 0, "game %ld is not a game", a->game);
	else if (st == VC_END)
		cli_file_error(a->file, 0, "no game %ld: the file holds %ld", a->game, seen);
	vc_game_free(g);
	return NULL;
}

/* Draws what was asked of a game that replayed to ply 0 at least: every
 * ply, a sheet, or one ply (--ply K, or the last). */
static int draw_game(struct vc_ctx *ctx, const struct args *a, struct vc_game *g,
		     struct vc_plies *pl, int broken)
{
	struct vc_render_mark marks[MAX_MARKS];
	const struct vc_variant *v = vc_position_variant(vc_plies_position(pl, 0));
	struct vc_render_opts base = base_opts(a, v, marks);
	long last = vc_plies_count(pl), k = a->ply >= 0 ? a->ply : last;
	struct vc_sink *s;
	int rc;
	if (a->all_dir) {
		rc = vc_render_ply_files(ctx, a->all_dir, pl, a->format, &base) ? CLI_TROUBLE
										: CLI_OK;
	} else if (a->sheet) {
		s = cli_out(ctx, a->out);
		rc = cli_close(s, vc_render_plies(ctx, s, pl, a->every, a->format, &base, NULL));
	} else if (k <= last) {
		s = cli_out(ctx, a->out);
		return cli_close(s, vc_render_ply(ctx, s, pl, k, a->format, &base));
	} else {
		if (broken)
			print_game_diags(g);
		if (broken)
			cli_file_error(a->file, 0, "game %ld: no ply %ld: it replays only to ply %ld",
				       a->game, k, last);
		else
			cli_file_error(a->file, 0, "game %ld: no ply %ld: it has %ld %s", a->game, k,
				       last, last == 1 ? "ply" : "plies");
		return CLI_BAD_INPUT;
	}
	if (rc == CLI_OK && broken) {
		print_game_diags(g);
		rc = CLI_BAD_INPUT;
	}
	return rc;
}

static int run_game(struct vc_ctx *ctx, const struct args *a)
{
	int rc;
	struct vc_game *g = find_game(ctx, a, &rc);
	if (!g)
		return rc;
	struct vc_validate_opts vo = { .default_variant = a->variant };
	struct vc_validator *val = vc_validator_new(ctx, &vo);
	struct vc_plies *pl = vc_plies_new();
	struct vc_game_stats gs;
	if (!val || !pl) {
		cli_error("out of memory");
		rc = CLI_TROUBLE;
	} else if (vc_plies_run(pl, val, g, &gs) == VC_FATAL) {
		rc = CLI_TROUBLE;
	} else if (gs.unknown_variant || vc_plies_count(pl) < 0) {
		/* no start: the variant is not known, or the FEN tag does not read */
		print_game_diags(g);
		rc = CLI_BAD_INPUT;
	} else {
		rc = draw_game(ctx, a, g, pl, !gs.valid);
	}
	vc_plies_free(pl);
	vc_validator_free(val);
	vc_game_free(g);
	return rc;
}

/* ---- a position or a piece ---------------------------------------------------------- */

/* The piece and square of --piece and --at (-1: the board's middle); -1
 * (reported) when they are none. */
static int find_piece(const struct args *a, const struct vc_variant *v, int *piece, int *sq)
{
	*piece = vc_variant_piece_find(v, a->piece);
	if (*piece < 0) {
		cli_error("variant '%s' has no piece '%s'", vc_variant_name(v), a->piece);
		return -1;
	}
	*sq = a->at ? vc_square_read(v, a->at) : -1;
	if (a->at && *sq < 0) {
		cli_error("'%s' is not a square of %s's %dx%d board", a->at, vc_variant_name(v),
			  vc_variant_files(v), vc_variant_ranks(v));
		return -1;
	}
	return 0;
}

static int run_position(struct vc_ctx *ctx, const struct args *a)
{
	struct vc_variant *v = vc_variant_load(ctx, a->variant ? a->variant : "chess");
	if (!v)
		return CLI_TROUBLE;
	struct vc_position *p = vc_position_new(v);
	int rc = CLI_OK, piece = -1, sq = -1;
	if (!p) {
		cli_error("out of memory");
		rc = CLI_TROUBLE;
	} else if (a->piece) {
		if (find_piece(a, v, &piece, &sq) < 0)
			rc = CLI_TROUBLE;
	} else if (a->fen) {
		if (vc_position_set_fen(p, ctx, a->fen) != VC_OK)
			rc = CLI_BAD_INPUT;
	} else
		vc_position_start(p);
	if (rc == CLI_OK) {
		struct vc_render_mark marks[MAX_MARKS];
		struct vc_render_opts ro = base_opts(a, v, marks);
		struct vc_sink *s = cli_out(ctx, a->out);
		rc = cli_close(s, piece >= 0 ? vc_render_piece(ctx, s, v, piece, sq, a->format, &ro)
					     : vc_render_position(ctx, s, p, a->format, &ro));
	}
	vc_position_free(p);
	vc_variant_free(v);
	return rc;
}

/* The web page of the archive, or of its --game N. */
static int run_html(struct vc_ctx *ctx, const struct args *a)
{
	struct vc_html_opts ho = { .default_variant = a->variant, .game = a->game };
	struct vc_sink *s = cli_out(ctx, a->out);
	ho.flip = a->ro.flip;
	vc_status st = vc_render_html(ctx, s, a->file, &ho);
	int rc = cli_close(s, st == VC_WARNING ? VC_OK : st);
	return st == VC_OK || (rc != CLI_OK && st != VC_FAILED) ? rc : CLI_BAD_INPUT;
}

/* ---- diagnostics: each warning once (one per picture would repeat it for
 * every ply of --all-plies) ---- */

struct seen {
	char msg[16][200];
	int n;
};

static void diag_once(const struct vc_diag *d, void *user)
{
	struct seen *s = user;
	if (d->severity == VC_SEV_WARNING && d->message) {
		for (int i = 0; i < s->n; i++)
			if (!strncmp(s->msg[i], d->message, sizeof s->msg[i] - 1))
				return;
		if (s->n < 16)
			snprintf(s->msg[s->n++], sizeof s->msg[0], "%s", d->message);
	}
	cli_diag(d, NULL);
}

/* ---- the command line ----------------------------------------------------------------- */

static long number_arg(const char *opt, const char *s, long min)
{
	return cli_number_arg(opt, s, min, LONG_MAX);
}

/* Misuse when bad: the message, the usage, exit 2. */
static void refuse(int bad, const char *msg)
{
	if (bad)
		cli_misuse("%s", msg);
}

/* -T and --style: names the library reads. */
static void choose(struct args *a, int format, const char *val)
{
	if ((a->html = format && !strcmp(val, "html")))
		return;
	int k = format ? vc_render_format_parse(val) : vc_render_style_parse(val);
	if (k < 0)
		cli_misuse(format ? "-T must be ascii, unicode, svg or html, not '%s'"
				  : "--style must be plain or dots, not '%s'",
			   val);
	if (format)
		a->format = (enum vc_render_format)k;
	else
		a->ro.style = (enum vc_render_style)k;
	a->format_set |= format;
}

static void option(int key, const char *val, void *user)
{
	struct args *a = user;
	switch (key) {
	case 'T': choose(a, 1, val); break;
	case O_STYLE: choose(a, 0, val); break;
	case O_FLIP: a->ro.flip = 1; break;
	case 'o': a->out = val; break;
	case O_SIZE: a->ro.size = (int)number_arg("--size", val, 16); break;
	case O_MARKS: a->marks = val; break;
	case O_FEN: a->fen = val; break;
	case O_VARIANT: a->variant = val; break;
	case O_GAME: a->game = number_arg("--game", val, 1); break;
	case O_PLY: a->ply = number_arg("--ply", val, 0); break;
	case O_ALL: a->all_dir = val; break;
	case O_SHEET: a->sheet = 1; break;
	case O_EVERY: a->every = number_arg("--every", val, 1); break;
	case O_PIECE: a->piece = val; break;
	case O_AT: a->at = val; break;
	}
}

/* The options must go together; the format follows from them. */
static void check_args(struct args *a)
{
	refuse(a->html && (!a->file || a->fen || a->piece || a->ply >= 0 || a->all_dir || a->sheet),
	       "-T html writes the page of a FILE, or of its --game N");
	refuse(a->html && (a->marks || a->ro.size > 0),
	       "-T html takes neither --marks nor --size: the page sizes its boards to the window");
	refuse(a->ro.size > 100000, "--size is at most 100000 pixels");
	/* which drawing: exactly one of game, piece, position */
	int game = a->game > 0 || a->html, piece = a->piece != NULL;
	refuse(game + piece > 1 || (game && a->fen) || (piece && a->fen),
	       "choose one of --fen, --game and --piece");
	refuse(!game && a->file, "a FILE goes with --game");
	if (game && !a->file)
		a->file = "-"; /* no FILE: standard input */
	refuse(!game && (a->ply >= 0 || a->all_dir || a->sheet),
	       "--ply, --all-plies and --sheet go with --game");
	refuse((a->ply >= 0) + (a->all_dir != NULL) + a->sheet > 1,
	       "choose one of --ply, --all-plies and --sheet");
	refuse(a->every && !a->sheet, "--every goes with --sheet");
	refuse(a->at && !piece, "--at goes with --piece");
	refuse(piece && !a->variant, "--piece needs --variant");
	refuse(!game && !piece && !a->fen && !a->variant,
	       "nothing to draw: give --fen, --variant, --game or --piece");
	refuse(a->all_dir && a->out && strcmp(a->out, "-"),
	       "--all-plies writes into its directory: no -o");
	if (!a->format_set &&
	    (vc_render_format_of_name(a->out) == VC_RENDER_SVG || (!a->all_dir && a->sheet)))
		a->format = VC_RENDER_SVG;
	if (a->sheet && !a->every)
		a->every = 10;
	a->ro.unicode = a->format == VC_RENDER_UNICODE;
}

int main(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof a);
	vc_render_opts_init(&a.ro);
	a.game = -1;
	a.ply = -1;
	a.out = "-";
	cli_init("vchess-render");
	int first = cli_options(&tool, argc, argv, option, &a);
	if (first < argc)
		a.file = argv[first];
	if (first + 1 < argc)
		cli_misuse("one FILE only: '%s'", argv[first + 1]);
	check_args(&a);
	struct vc_ctx *ctx = cli_ctx();
	struct seen seen;
	seen.n = 0;
	vc_ctx_set_diag(ctx, diag_once, &seen);
	int rc = a.html       ? run_html(ctx, &a)
		 : a.game > 0 ? run_game(ctx, &a)
			      : run_position(ctx, &a);
	vc_ctx_free(ctx);
	return rc;
}
