/*
 * vchess-render - draws diagrams: a position string, a variant's start, a
 * ply of a game (or every ply, or a sheet of every Nth), or a piece's moves,
 * as ASCII, Unicode or SVG (see vchess-render(1)).
 *
 * Model: a game is replayed by the library's validator; its move callback
 * hands over the position before each main-line move, which is copied and
 * advanced by that move, so the position after ply K, the move that led to
 * it and the comments written after it ([%cal]/[%csl] marks) are known
 * without a second replay.  Exit 0 when everything asked for was drawn, 1
 * when the input was at fault (a bad position string, no such game or ply,
 * a game that does not replay), 2 on usage or system trouble.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-render [-T ascii|unicode|svg] [--style plain|dots] [--flip] [-o OUT]\n"
	"                     [--size PX] [--marks TEXT]\n"
	"                     (--fen FEN [--variant NAME] | --variant NAME\n"
	"                      | --game N [--ply K] FILE | --game N --all-plies DIR FILE\n"
	"                      | --game N --sheet [--every N] FILE\n"
	"                      | --piece NAME [--at SQ] --variant NAME)\n";

#define MAX_MARKS 128

enum format { F_ASCII, F_UNICODE, F_SVG };

struct args {
	enum format format;
	int format_set;
	struct vc_render_opts ro;
	const char *out, *fen, *variant, *file, *piece, *at, *all_dir, *marks;
	long game, ply, every;
	int sheet;
};

/* ---- output ---------------------------------------------------------------------- */

/* Draws one position (piece < 0) or a piece's moves to a sink. */
static vc_status draw(struct vc_ctx *ctx, struct vc_sink *s, const struct args *a,
		      const struct vc_position *p, const struct vc_render_opts *ro,
		      const struct vc_variant *v, int piece, int sq)
{
	if (piece >= 0)
		return a->format == F_SVG ? vc_render_svg_piece(ctx, s, v, piece, sq, ro)
					  : vc_render_text_piece(ctx, s, v, piece, sq, ro);
	return a->format == F_SVG ? vc_render_svg(ctx, s, p, ro) : vc_render_text(ctx, s, p, ro);
}

static struct vc_sink *open_out(struct vc_ctx *ctx, const char *path)
{
	struct vc_sink *s = vc_sink_open(ctx, path, 0);
	if (!s)
		exit(CLI_TROUBLE);
	return s;
}

/* Closes a sink after drawing: the exit status so far. */
static int close_out(struct vc_sink *s, vc_status drawn)
{
	if (drawn != VC_OK) {
		vc_sink_abort(s);
		return CLI_TROUBLE;
	}
	return vc_sink_close(s) == VC_OK ? CLI_OK : CLI_TROUBLE;
}

/* ---- a game's plies ------------------------------------------------------------ */

struct ply {
	struct vc_position *pos; /* after the ply; NULL when not kept */
	vc_move move;
	size_t item;
	char san[96];
	long movenum;
	int black;
};

struct replay {
	struct ply *plies; /* plies[0] is the start, plies[k] after ply k */
	long n, cap;
	int keep_all; /* keep every position, or only the last and the wanted */
	long want;    /* a ply to keep, or -1 */
	long every;   /* keep every Nth, 0 none */
	int failed;
};

static long fen_field_number(const struct vc_position *p, int field)
{
	size_t need = vc_position_fen(p, NULL, 0) + 1;
	char *fen = malloc(need);
	long n = 0;
	if (!fen)
		return 0;
	vc_position_fen(p, fen, need);
	const char *s = fen;
	for (int i = 0; i < field && s; i++) {
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	if (s)
		n = strtol(s, NULL, 10);
	free(fen);
	return n;
}

static int keep(const struct replay *r, long k)
{
	return r->keep_all || k == r->want || (r->every > 0 && k % r->every == 0);
}

static int grow(struct replay *r)
{
	if (r->n < r->cap)
		return 0;
	long nc = r->cap ? r->cap * 2 : 64;
	struct ply *np = realloc(r->plies, (size_t)nc * sizeof *np);
	if (!np)
		return -1;
	r->plies = np;
	r->cap = nc;
	return 0;
}

static void on_move(void *user, const struct vc_game *g, size_t item,
		    const struct vc_position *before, const vc_move *m, const char *san, int depth)
{
	struct replay *r = user;
	(void)g;
	if (depth != 0 || r->failed)
		return;
	const struct vc_variant *v = vc_position_variant(before);
	if (r->n == 0) {
		/* the start, before the first move */
		if (grow(r) != 0 || !(r->plies[0].pos = vc_position_new(v))) {
			r->failed = 1;
			return;
		}
		vc_position_copy(r->plies[0].pos, before);
		memset(&r->plies[0].move, 0, sizeof r->plies[0].move);
		r->plies[0].item = 0;
		r->plies[0].san[0] = 0;
		r->n = 1;
	}
	if (grow(r) != 0) {
		r->failed = 1;
		return;
	}
	long k = r->n;
	struct ply *pl = &r->plies[k];
	memset(pl, 0, sizeof *pl);
	pl->move = *m;
	pl->item = item;
	snprintf(pl->san, sizeof pl->san, "%s", san);
	pl->movenum = fen_field_number(before, 5);
	pl->black = vc_position_side(before);
	/* the previous ply's position is kept only while it may be the last */
	if (k >= 2 && !keep(r, k - 1)) {
		vc_position_free(r->plies[k - 1].pos);
		r->plies[k - 1].pos = NULL;
	}
	pl->pos = vc_position_new(v);
	if (!pl->pos) {
		r->failed = 1;
		return;
	}
	vc_position_copy(pl->pos, before);
	vc_position_make(pl->pos, m);
	r->n++;
}

static void replay_free(struct replay *r)
{
	for (long i = 0; i < r->n; i++)
		vc_position_free(r->plies[i].pos);
	free(r->plies);
}

/* The marks of the comments that follow item (or, for the start, that come
 * before the first move). */
static int game_marks(const struct vc_game *g, const struct vc_variant *v, size_t from,
		      struct vc_render_mark *out, int n, int cap)
{
	size_t count = vc_game_item_count(g);
	for (size_t i = from; i < count; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		if (it->type == VC_IT_COMMENT)
			n += vc_render_parse_marks(v, it->text, it->len, out + n, cap - n);
		else if (it->type != VC_IT_NAG)
			break;
	}
	return n;
}

static void ply_title(const struct vc_game *g, const struct ply *pl, long k, char *buf, size_t n,
		      int players)
{
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	char mv[140];
	if (k == 0)
		snprintf(mv, sizeof mv, "start");
	else
		snprintf(mv, sizeof mv, "%ld.%s %s", pl->movenum, pl->black ? ".." : "", pl->san);
	if (players)
		snprintf(buf, n, "%s - %s, %s", w ? w : "?", b ? b : "?", mv);
	else
		snprintf(buf, n, "%s", mv);
}

/* as vchess-validate prints them: "file:line:col: error: game 2 (A - B), ply 7 ...: message" */
static void print_game_diags(const struct vc_game *g)
{
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity < VC_SEV_ERROR)
			continue;
		fprintf(stderr, "%s: %s", cli_prog, vc_game_file(g) ? vc_game_file(g) : "-");
		if (d->line > 0) {
			fprintf(stderr, ":%ld", d->line);
			if (d->col > 0)
				fprintf(stderr, ":%ld", d->col);
		}
		fprintf(stderr, ": %s: game %ld (%s - %s)", vc_severity_name(d->severity),
			vc_game_number(g), w ? w : "?", b ? b : "?");
		if (d->context && *d->context)
			fprintf(stderr, ", %s", d->context);
		fprintf(stderr, ": %s\n", d->message);
	}
}

/* Options of one ply: its move, its title, its marks (with --marks). */
static void ply_opts(const struct args *a, const struct vc_game *g, const struct replay *r, long k,
		     struct vc_render_opts *ro, struct vc_render_mark *marks, char *title,
		     size_t tn, int players)
{
	const struct vc_variant *v = vc_position_variant(r->plies[k].pos);
	*ro = a->ro;
	ro->last = k > 0 ? &r->plies[k].move : NULL;
	ply_title(g, &r->plies[k], k, title, tn, players);
	ro->title = title;
	size_t from = 0;
	if (k > 0)
		from = r->plies[k].item + 1;
	int n = game_marks(g, v, from, marks, 0, MAX_MARKS);
	if (a->marks)
		n += vc_render_parse_marks(v, a->marks, strlen(a->marks), marks + n, MAX_MARKS - n);
	ro->marks = marks;
	ro->nmarks = n;
}

static int write_text_sheet(struct vc_ctx *ctx, struct vc_sink *s, const struct args *a,
			    const struct vc_game *g, const struct replay *r, const long *ks, int nk)
{
	for (int i = 0; i < nk; i++) {
		struct vc_render_opts ro;
		struct vc_render_mark marks[MAX_MARKS];
		char title[400];
		ply_opts(a, g, r, ks[i], &ro, marks, title, sizeof title, 0);
		if (i)
			vc_sink_puts(s, "\n");
		vc_sink_printf(s, "%s\n", title);
		if (vc_render_text(ctx, s, r->plies[ks[i]].pos, &ro) != VC_OK)
			return -1;
	}
	return 0;
}

static int run_game(struct vc_ctx *ctx, const struct args *a)
{
	struct vc_reader_opts rdo;
	memset(&rdo, 0, sizeof rdo);
	struct vc_reader *rd = vc_reader_open(ctx, a->file, &rdo);
	if (!rd)
		return CLI_TROUBLE;
	struct vc_game *g = vc_game_new();
	if (!g) {
		cli_error("out of memory");
		return CLI_TROUBLE;
	}
	vc_status st;
	long seen = 0;
	while ((st = vc_reader_next(rd, g)) == VC_OK) {
		seen++;
		if (vc_game_number(g) == a->game)
			break;
	}
	vc_reader_close(rd);
	if (st == VC_FATAL) {
		vc_game_free(g);
		return CLI_TROUBLE;
	}
	if (st != VC_OK) {
		cli_error("%s: no game %ld: the file holds %ld", a->file, a->game, seen);
		vc_game_free(g);
		return CLI_BAD_INPUT;
	}
	if (vc_game_is_garbage(g)) {
		cli_error("%s: game %ld is not a game", a->file, a->game);
		vc_game_free(g);
		return CLI_BAD_INPUT;
	}

	struct vc_validate_opts vo = { .default_variant = a->variant };
	struct vc_validator *val = vc_validator_new(ctx, &vo);
	struct replay r;
	memset(&r, 0, sizeof r);
	r.keep_all = a->all_dir != NULL;
	r.want = a->ply;
	r.every = a->sheet ? a->every : 0;
	if (!val) {
		cli_error("out of memory");
		vc_game_free(g);
		return CLI_TROUBLE;
	}
	vc_validator_set_move_fn(val, on_move, &r);
	struct vc_game_stats gs;
	vc_status vs = vc_validate(val, g, &gs);
	int rc = CLI_OK;
	if (vs == VC_FATAL || r.failed) {
		rc = CLI_TROUBLE;
		goto out;
	}
	if (gs.unknown_variant) {
		print_game_diags(g);
		rc = CLI_BAD_INPUT;
		goto out;
	}
	if (r.n == 0) {
		/* no move replayed: the start is the game's own */
		const struct vc_variant *v = vc_validator_variant(val);
		const char *fen = vc_game_tag(g, "FEN");
		if (!v || grow(&r) != 0 || !(r.plies[0].pos = vc_position_new(v))) {
			print_game_diags(g);
			rc = v ? CLI_TROUBLE : CLI_BAD_INPUT;
			goto out;
		}
		memset(&r.plies[0].move, 0, sizeof r.plies[0].move);
		r.plies[0].san[0] = 0;
		r.n = 1;
		if (fen) {
			if (vc_position_set_fen(r.plies[0].pos, NULL, fen) != VC_OK) {
				print_game_diags(g);
				rc = CLI_BAD_INPUT;
				goto out;
			}
		} else
			vc_position_start(r.plies[0].pos);
	}
	long last = r.n - 1;
	int broken = !gs.valid;
	if (a->all_dir || a->sheet) {
		long ks_n = 0;
		long *ks = malloc((size_t)(last + 2) * sizeof *ks);
		if (!ks) {
			rc = CLI_TROUBLE;
			goto out;
		}
		for (long k = 0; k <= last; k++)
			if (a->all_dir || k % a->every == 0 || k == last)
				ks[ks_n++] = k;
		if (a->all_dir) {
			if (mkdir(a->all_dir, 0777) != 0 && errno != EEXIST) {
				cli_error("cannot make directory '%s': %s", a->all_dir,
					  strerror(errno));
				free(ks);
				rc = CLI_TROUBLE;
				goto out;
			}
			int width = 3;
			for (long x = last; x >= 1000; x /= 10)
				width++;
			for (long i = 0; i < ks_n && rc == CLI_OK; i++) {
				char path[4096];
				struct vc_render_opts ro;
				struct vc_render_mark marks[MAX_MARKS];
				char title[400];
				snprintf(path, sizeof path, "%s/ply-%0*ld.%s", a->all_dir, width,
					 ks[i], a->format == F_SVG ? "svg" : "txt");
				ply_opts(a, g, &r, ks[i], &ro, marks, title, sizeof title, 1);
				struct vc_sink *s = open_out(ctx, path);
				rc = close_out(
					s, draw(ctx, s, a, r.plies[ks[i]].pos, &ro, NULL, -1, -1));
			}
		} else {
			struct vc_sink *s = open_out(ctx, a->out);
			vc_status ds = VC_OK;
			if (a->format == F_SVG) {
				const struct vc_position **ps = calloc((size_t)ks_n, sizeof *ps);
				struct vc_render_opts *os = calloc((size_t)ks_n, sizeof *os);
				struct vc_render_mark(*mk)[MAX_MARKS] =
					calloc((size_t)ks_n, sizeof *mk);
				char(*titles)[160] = calloc((size_t)ks_n, sizeof *titles);
				if (!ps || !os || !mk || !titles)
					ds = VC_FAILED;
				for (long i = 0; i < ks_n && ds == VC_OK; i++) {
					ps[i] = r.plies[ks[i]].pos;
					ply_opts(a, g, &r, ks[i], &os[i], mk[i], titles[i],
						 sizeof titles[i], 0);
				}
				char head[400];
				const char *w = vc_game_tag(g, "White"),
					   *b = vc_game_tag(g, "Black");
				snprintf(head, sizeof head, "%s - %s", w ? w : "?", b ? b : "?");
				if (ds == VC_OK)
					ds = vc_render_svg_sheet(ctx, s, ps, os, (int)ks_n, 0,
								 head);
				free(ps);
				free(os);
				free(mk);
				free(titles);
			} else if (write_text_sheet(ctx, s, a, g, &r, ks, (int)ks_n) != 0)
				ds = VC_FAILED;
			rc = close_out(s, ds);
		}
		free(ks);
		if (rc == CLI_OK && broken) {
			print_game_diags(g);
			rc = CLI_BAD_INPUT;
		}
		goto out;
	}
	long k = a->ply >= 0 ? a->ply : last;
	if (k > last) {
		if (broken)
			print_game_diags(g);
		if (broken)
			cli_error("%s: game %ld: no ply %ld: it replays only to ply %ld", a->file,
				  a->game, k, last);
		else
			cli_error("%s: game %ld: no ply %ld: it has %ld %s", a->file, a->game, k,
				  last, last == 1 ? "ply" : "plies");
		rc = CLI_BAD_INPUT;
		goto out;
	}
	struct vc_render_opts ro;
	struct vc_render_mark marks[MAX_MARKS];
	char title[400];
	ply_opts(a, g, &r, k, &ro, marks, title, sizeof title, 1);
	struct vc_sink *s = open_out(ctx, a->out);
	rc = close_out(s, draw(ctx, s, a, r.plies[k].pos, &ro, NULL, -1, -1));
out:
	replay_free(&r);
	vc_validator_free(val);
	vc_game_free(g);
	return rc;
}

/* ---- a position or a piece ---------------------------------------------------------- */

static int run_position(struct vc_ctx *ctx, const struct args *a)
{
	struct vc_variant *v = vc_variant_load(ctx, a->variant ? a->variant : "chess");
	if (!v)
		return CLI_TROUBLE;
	int rc = CLI_OK;
	struct vc_position *p = vc_position_new(v);
	if (!p) {
		cli_error("out of memory");
		vc_variant_free(v);
		return CLI_TROUBLE;
	}
	int piece = -1, sq = -1;
	if (a->piece) {
		piece = vc_variant_piece_find(v, a->piece);
		if (piece < 0) {
			cli_error("variant '%s' has no piece '%s'", vc_variant_name(v), a->piece);
			rc = CLI_TROUBLE;
			goto out;
		}
		int files = vc_variant_files(v), ranks = vc_variant_ranks(v), used = 0;
		sq = a->at ? vc_square_parse(v, a->at, &used)
			   : ((ranks - 1) / 2) * files + (files - 1) / 2;
		if (sq < 0 || (a->at && a->at[used])) {
			cli_error("'%s' is not a square of a %dx%d board", a->at, files, ranks);
			rc = CLI_TROUBLE;
			goto out;
		}
	} else if (a->fen) {
		if (vc_position_set_fen(p, ctx, a->fen) != VC_OK) {
			rc = CLI_BAD_INPUT;
			goto out;
		}
	} else
		vc_position_start(p);
	struct vc_render_opts ro = a->ro;
	struct vc_render_mark marks[MAX_MARKS];
	if (a->marks) {
		ro.marks = marks;
		ro.nmarks = vc_render_parse_marks(v, a->marks, strlen(a->marks), marks, MAX_MARKS);
	}
	struct vc_sink *s = open_out(ctx, a->out);
	rc = close_out(s, draw(ctx, s, a, p, &ro, v, piece, sq));
out:
	vc_position_free(p);
	vc_variant_free(v);
	return rc;
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
	long n = cli_number(s);
	if (n < min) {
		cli_error("%s needs a number from %ld, not '%s'", opt, min, s);
		cli_usage(usage, 1);
	}
	return n;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

int main(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof a);
	vc_render_opts_init(&a.ro);
	a.game = -1;
	a.ply = -1;
	a.every = 0;
	a.out = "-";
	cli_init("vchess-render");
	if (argc < 2)
		cli_usage(usage, 1);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES \
	(val ? (i++, val) : (cli_error("option '%s' needs a value", o), cli_usage(usage, 1), ""))
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			cli_usage(usage, 0);
			return CLI_OK;
		} else if (!strcmp(o, "--version")) {
			cli_version();
			return CLI_OK;
		} else if (!strcmp(o, "-T")) {
			const char *f = TAKES;
			if (!strcmp(f, "ascii"))
				a.format = F_ASCII;
			else if (!strcmp(f, "unicode"))
				a.format = F_UNICODE;
			else if (!strcmp(f, "svg"))
				a.format = F_SVG;
			else {
				cli_error("-T must be ascii, unicode or svg, not '%s'", f);
				cli_usage(usage, 1);
			}
			a.format_set = 1;
		} else if (!strcmp(o, "--style")) {
			const char *s = TAKES;
			if (!strcmp(s, "plain"))
				a.ro.style = VC_STYLE_PLAIN;
			else if (!strcmp(s, "dots"))
				a.ro.style = VC_STYLE_DOTS;
			else {
				cli_error("--style must be plain or dots, not '%s'", s);
				cli_usage(usage, 1);
			}
		} else if (!strcmp(o, "--flip"))
			a.ro.flip = 1;
		else if (!strcmp(o, "-o"))
			a.out = TAKES;
		else if (!strcmp(o, "--size"))
			a.ro.size = (int)number_arg(o, TAKES, 16);
		else if (!strcmp(o, "--marks"))
			a.marks = TAKES;
		else if (!strcmp(o, "--fen"))
			a.fen = TAKES;
		else if (!strcmp(o, "--variant"))
			a.variant = TAKES;
		else if (!strcmp(o, "--game"))
			a.game = number_arg(o, TAKES, 1);
		else if (!strcmp(o, "--ply"))
			a.ply = number_arg(o, TAKES, 0);
		else if (!strcmp(o, "--all-plies"))
			a.all_dir = TAKES;
		else if (!strcmp(o, "--sheet"))
			a.sheet = 1;
		else if (!strcmp(o, "--every"))
			a.every = number_arg(o, TAKES, 1);
		else if (!strcmp(o, "--piece"))
			a.piece = TAKES;
		else if (!strcmp(o, "--at"))
			a.at = TAKES;
		else if (o[0] == '-' && o[1]) {
			cli_error("unknown option '%s'", o);
			cli_usage(usage, 1);
		} else if (!a.file)
			a.file = o;
		else {
			cli_error("one FILE only: '%s'", o);
			cli_usage(usage, 1);
		}
#undef TAKES
	}
	if (a.ro.size > 100000) {
		cli_error("--size is at most 100000 pixels");
		cli_usage(usage, 1);
	}
	/* which drawing: exactly one of game, piece, position */
	int game = a.game > 0, piece = a.piece != NULL;
	if (game + piece > 1 || (game && a.fen) || (piece && a.fen)) {
		cli_error("choose one of --fen, --game and --piece");
		cli_usage(usage, 1);
	}
	if (game != (a.file != NULL)) {
		cli_error(game ? "--game needs a FILE" : "a FILE goes with --game");
		cli_usage(usage, 1);
	}
	if (!game && (a.ply >= 0 || a.all_dir || a.sheet)) {
		cli_error("--ply, --all-plies and --sheet go with --game");
		cli_usage(usage, 1);
	}
	if ((a.ply >= 0) + (a.all_dir != NULL) + a.sheet > 1) {
		cli_error("choose one of --ply, --all-plies and --sheet");
		cli_usage(usage, 1);
	}
	if (a.every && !a.sheet) {
		cli_error("--every goes with --sheet");
		cli_usage(usage, 1);
	}
	if (a.at && !piece) {
		cli_error("--at goes with --piece");
		cli_usage(usage, 1);
	}
	if (piece && !a.variant) {
		cli_error("--piece needs --variant");
		cli_usage(usage, 1);
	}
	if (!game && !piece && !a.fen && !a.variant) {
		cli_error("nothing to draw: give --fen, --variant, --game or --piece");
		cli_usage(usage, 1);
	}
	if (a.all_dir && a.out && strcmp(a.out, "-")) {
		cli_error("--all-plies writes into its directory: no -o");
		cli_usage(usage, 1);
	}
	if (!a.format_set && (ends_with(a.out, ".svg") || (a.all_dir == NULL && a.sheet)))
		a.format = F_SVG;
	if (a.sheet && !a.every)
		a.every = 10;
	a.ro.unicode = a.format == F_UNICODE;

	struct vc_ctx *ctx = cli_ctx();
	struct seen seen;
	seen.n = 0;
	vc_ctx_set_diag(ctx, diag_once, &seen);
	int rc = game ? run_game(ctx, &a) : run_position(ctx, &a);
	vc_ctx_free(ctx);
	return rc;
}
