/*
 * vchess-validate - replays every game of PGN-like archives (plain or
 * gzip, files or standard input) through the rules and reports each
 * problem, positioned, one line each; goes on with the next game after a
 * bad one.  Exit 0 when every game is valid, 1 when any is not, 2 on usage
 * or I/O trouble.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-validate [OPTION]... [FILE]...\n"
	"       vchess-validate --merge-summaries [--summary-format=text|tsv] [FILE]...\n";

/* the most common openings --stats names for each variant, in text */
#define TOP_OPENINGS 10

enum {
	O_VARIANT = 256,
	O_FORCE,
	O_STRICT,
	O_SUMMARY,
	O_FORMAT,
	O_MERGE,
	O_FIRST,
	O_PROGRESS,
	O_STATS,
	O_NO_BB
};

static const struct cli_opt opts[] = {
	{ O_VARIANT, "variant", "NAME", "the variant of untagged games (default: chess)" },
	{ O_FORCE, "force-variant", "NAME", "replay every game as variant NAME" },
	{ O_STRICT, "strict", NULL, "also flag what the PGN standard does not allow" },
	{ 'q', "quiet", NULL, "no line per problem: the exit status says it" },
	{ O_SUMMARY, "summary", NULL, "print the counts of games and plies at the end" },
	{ O_STATS, "stats", NULL, "per variant: results, endings, plies, openings" },
	{ O_FORMAT, "summary-format", "FORMAT", "text (default), or tsv for --merge-summaries" },
	{ 'v', "verbose", NULL, "draw the board and position under each problem" },
	{ 'j', "jobs", "N", "replay in N threads (default: one a processor)" },
	{ O_FIRST, "first-game", "N", "number the first game N (for archive pieces)" },
	{ O_MERGE, "merge-summaries", NULL, "add up summaries and stats written as tsv" },
	{ O_PROGRESS, "progress", "WHEN", "progress: auto (on a terminal), always or never" },
	{ O_NO_BB, "no-bitboards", NULL, "replay by the general generator alone (slower)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_tool tool = {
	usage,
	"Replays every game of chess variant archives (PGN-like text, plain or gzip)\n"
	"through the rules and reports every problem, positioned.",
	opts,
	"vchess-validate --summary games.pgn.gz   # every problem, then the counts",
	"With no FILE, or when FILE is -, reads standard input.\n"
	"Exit status: 0 every game valid, 1 some game is not, 2 usage or input trouble.\n",
};

static void print_diags(struct vc_sink *out, const struct vc_game *g,
			const struct vc_validator *val, int verbose, int quiet)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n && !quiet; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		char *line = cli_game_diag(vc_game_file(g), g, d, 1);
		if (line)
			vc_sink_puts(out, line);
		free(line);
		if (verbose) {
			const char *fen = vc_validator_diag_fen(val, i);
			const struct vc_variant *v = vc_validator_variant(val);
			if (fen && v) {
				struct vc_position *p = vc_position_new(v);
				if (p && vc_position_set_fen(p, NULL, fen) == VC_OK) {
					char *a = vc_position_ascii(p);
					if (a)
						vc_sink_printf(out, "%s%s\n", a, fen);
					free(a);
				}
				vc_position_free(p);
			}
		}
	}
}

/* what every worker needs */
struct run {
	struct vc_validate_opts vo;
	int verbose, quiet, fatal, no_bb;
	struct cli_progress progress;
	struct vc_summary *sum;
	struct vc_stats *stats; /* --stats, else NULL */
};

struct worker {
	struct vc_ctx *ctx;
	struct vc_validator *val;
	const struct run *run;
};

struct result {
	struct vc_game_stats st;
	char variant[64]; /* a copy: the worker's validator may drop the variant */
	int fatal;
};

static void *worker_new(void *user)
{
	const struct run *run = user;
	struct worker *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->ctx = vc_ctx_new();
	vc_ctx_set_bitboards(w->ctx, !run->no_bb);
	w->val = vc_validator_new(w->ctx, &run->vo);
	w->run = run;
	return w;
}

static void worker_free(void *state)
{
	struct worker *w = state;
	if (!w)
		return;
	vc_validator_free(w->val);
	vc_ctx_free(w->ctx);
	free(w);
}

static void work(void *state, struct vc_game *g, struct vc_sink *out, void *res)
{
	struct worker *w = state;
	struct result *r = res;
	if (!w || !w->val) {
		r->fatal = 1;
		return;
	}
	if (vc_validate(w->val, g, &r->st) == VC_FATAL) {
		r->fatal = 1;
		vc_sink_printf(out, "%s: error: %s\n", cli_prog, vc_ctx_last_message(w->ctx));
		return;
	}
	if (r->st.variant)
		snprintf(r->variant, sizeof r->variant, "%s", r->st.variant);
	r->st.variant = NULL;
	print_diags(out, g, w->val, w->run->verbose, w->run->quiet);
}

static void done(void *user, struct vc_game *g, const char *out, size_t len, void *res)
{
	struct run *run = user;
	struct result *r = res;
	if (len) {
		cli_progress_clear(&run->progress);
		fwrite(out, 1, len, stderr);
	}
	if (r->fatal) {
		run->fatal = 1;
		return;
	}
	r->st.variant = r->variant[0] ? r->variant : NULL;
	if (vc_summary_add(run->sum, g, &r->st) < 0 ||
	    (run->stats && vc_stats_add(run->stats, g, &r->st) < 0))
		run->fatal = 1;
	cli_progress_game(&run->progress);
}

/* The summary (if s) and the statistics (if stats) on standard output; 0,
 * or -1 when they could not be written. */
static int print_summary(struct vc_ctx *ctx, const struct vc_summary *s,
			 const struct vc_stats *stats, int tsv)
{
	struct vc_sink *out = cli_out(ctx, "-");
	if (s)
		vc_summary_write(s, out, tsv);
	if (stats)
		vc_stats_write(stats, out, tsv, TOP_OPENINGS);
	return cli_close(out, VC_OK) == CLI_OK ? 0 : -1;
}

/* Adds up summaries and statistics written with --summary-format=tsv. */
static int merge_summaries(struct vc_ctx *ctx, const char **files, int nfiles, struct vc_summary *s,
			   struct vc_stats *stats)
{
	int bad = 0;
	for (int i = 0; i < nfiles; i++) {
		FILE *f = strcmp(files[i], "-") ? fopen(files[i], "r") : stdin;
		if (!f) {
			cli_file_error(files[i], 0, "cannot open '%s': %s", files[i], strerror(errno));
			return CLI_TROUBLE;
		}
		char *text = NULL;
		size_t len = 0, cap = 0, k;
		do {
			if (cap - len < 4096) {
				char *p = realloc(text, cap = cap * 2 + 4096);
				if (!p) {
					cli_error("out of memory");
					free(text);
					return CLI_TROUBLE;
				}
				text = p;
			}
			k = fread(text + len, 1, cap - len, f);
			len += k;
		} while (k > 0);
		if (f != stdin)
			fclose(f);
		vc_status st = vc_summary_read_tsv(s, ctx, files[i], text, len);
		vc_status st2 = st == VC_FATAL ? st : vc_stats_read_tsv(stats, ctx, files[i], text, len);
		free(text);
		if (st == VC_FATAL || st2 == VC_FATAL)
			return CLI_TROUBLE;
		bad |= st != VC_OK || st2 != VC_OK;
	}
	return bad ? CLI_BAD_INPUT : CLI_OK;
}

/* --merge-summaries: the sum of the summaries, and the exit status. */
static int run_merge(const char **files, int nfiles, int tsv)
{
	struct vc_ctx *ctx = cli_ctx();
	struct vc_summary *s = vc_summary_new();
	struct vc_stats *stats = vc_stats_new();
	int rc = s && stats ? merge_summaries(ctx, files, nfiles, s, stats) : CLI_TROUBLE;
	/* statistics alone (written by --stats without --summary): no empty summary */
	int nstats = stats && vc_stats_variant_count(stats);
	const struct vc_summary *show = nstats && !vc_summary_totals(s)->games ? NULL : s;
	if (rc != CLI_TROUBLE && print_summary(ctx, show, nstats ? stats : NULL, tsv) < 0)
		rc = CLI_TROUBLE;
	if (rc == CLI_OK && vc_summary_totals(s)->invalid)
		rc = CLI_BAD_INPUT;
	vc_summary_free(s);
	vc_stats_free(stats);
	vc_ctx_free(ctx);
	return rc;
}

/* The variants named on the command line must load: 0, or -1 (reported). */
static int check_variants(struct vc_ctx *ctx, const struct vc_validate_opts *vo)
{
	const char *variant = vo->default_variant, *force = vo->force_variant, *bad = NULL;
	if (!variant && !force)
		return 0;
	struct vc_validator *val = vc_validator_new(ctx, vo);
	if (variant && !vc_validator_get_variant(val, variant))
		bad = variant;
	else if (force && !vc_validator_get_variant(val, force))
		bad = force;
	vc_validator_free(val);
	if (!bad)
		return 0;
	struct vc_variant *v = vc_variant_load(ctx, bad); /* for its message */
	vc_variant_free(v);
	return -1;
}

/* Validates every game of the files: the exit status. */
static int run_files(const char **files, int nfiles, struct run *run, int jobs, long first_game,
		     int summary, int tsv)
{
	struct vc_ctx *ctx = cli_ctx();
	cli_progress_start(&run->progress, ctx);
	run->sum = vc_summary_new();
	if (!run->sum || (summary & 2 && !(run->stats = vc_stats_new())) ||
	    check_variants(ctx, &run->vo) < 0) {
		vc_ctx_free(ctx);
		vc_summary_free(run->sum);
		vc_stats_free(run->stats);
		return CLI_TROUBLE;
	}
	int trouble = 0;
	struct vc_parallel_opts po = { jobs, 0, sizeof(struct result), worker_new, worker_free,
				       work, done, run };
	long next_first = first_game;
	for (int fi = 0; fi < nfiles; fi++) {
		struct vc_reader_opts ro;
		memset(&ro, 0, sizeof ro);
		ro.strict = run->vo.strict;
		ro.first_game = next_first;
		struct vc_reader *r = vc_reader_open(ctx, files[fi], &ro);
		if (!r) {
			trouble = 1;
			continue;
		}
		long before = vc_summary_totals(run->sum)->games;
		if (vc_parallel_run(ctx, r, &po) != VC_OK || run->fatal)
			trouble = 1;
		vc_reader_close(r);
		/* numbering goes on across files only when asked to be global */
		if (first_game > 1)
			next_first += vc_summary_totals(run->sum)->games - before;
	}
	const struct vc_summary_totals *t = vc_summary_totals(run->sum);
	cli_progress_end(&run->progress);
	if (summary && print_summary(ctx, summary & 1 ? run->sum : NULL, run->stats, tsv) < 0)
		trouble = 1;
	int rc = trouble ? CLI_TROUBLE : t->invalid ? CLI_BAD_INPUT : CLI_OK;
	vc_summary_free(run->sum);
	vc_stats_free(run->stats);
	vc_ctx_free(ctx);
	return rc;
}

struct args {
	const char *variant, *force;
	int strict, quiet, verbose, tsv, merge, jobs, no_bb;
	int summary; /* 1 --summary, 2 --stats */
	long first_game;
	struct cli_progress progress;
};

static void option(int key, const char *val, void *user)
{
	struct args *a = user;
	switch (key) {
	case O_VARIANT: a->variant = val; break;
	case O_FORCE: a->force = val; break;
	case O_STRICT: a->strict = 1; break;
	case 'q': a->quiet = 1; break;
	case O_SUMMARY: a->summary |= 1; break;
	case O_STATS: a->summary |= 2; break;
	case 'v': a->verbose = 1; break;
	case O_MERGE: a->merge = 1; break;
	case O_NO_BB: a->no_bb = 1; break;
	case 'j': a->jobs = (int)cli_number_arg("-j", val, 1, 1024); break;
	case O_FIRST: a->first_game = cli_number_arg("--first-game", val, 1, LONG_MAX); break;
	case O_FORMAT:
		if (strcmp(val, "text") && strcmp(val, "tsv"))
			cli_misuse("--summary-format must be text or tsv, not '%s'", val);
		a->tsv = !strcmp(val, "tsv");
		break;
	case O_PROGRESS:
		if (cli_progress_parse(&a->progress, val) < 0)
			cli_misuse("--progress must be auto, always or never, not '%s'", val);
		break;
	}
}

int main(int argc, char **argv)
{
	static const char *stdin_only[] = { "-" };
	static struct args a;
	static struct run run;
	cli_init("vchess-validate");
	a.jobs = vc_cpu_count();
	a.first_game = 1;
	int first = cli_options(&tool, argc, argv, option, &a);
	const char **files = (const char **)argv + first;
	int nfiles = argc - first;
	if (!nfiles) { /* no FILE: standard input, as pgn-extract reads */
		files = stdin_only;
		nfiles = 1;
	}
	run.vo.strict = a.strict;
	run.vo.default_variant = a.variant;
	run.vo.force_variant = a.force;
	run.verbose = a.verbose;
	run.quiet = a.quiet;
	run.no_bb = a.no_bb;
	if (a.quiet && !a.progress.when)
		a.progress.when = 1;
	run.progress = a.progress;
	return a.merge ? run_merge(files, nfiles, a.tsv)
		       : run_files(files, nfiles, &run, a.jobs, a.first_game, a.summary, a.tsv);
}
