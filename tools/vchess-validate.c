/*
 * vchess-validate - replays every game of PGN-like archives (plain or
 * gzip, files or standard input) through the rules and reports each
 * problem, positioned, one line each; goes on with the next game after a
 * bad one.  Exit 0 when every game is valid, 1 when any is not, 2 on usage
 * or I/O trouble.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-validate [--variant NAME] [--force-variant NAME] [--strict] [--quiet]\n"
	"                       [--summary] [--summary-format=text|tsv] [-v] [-j N]\n"
	"                       [--first-game N] FILE...\n"
	"       vchess-validate --merge-summaries [--summary-format=text|tsv] FILE...\n";

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
	int verbose, quiet, progress, fatal;
	struct vc_summary *sum;
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
	if (len)
		fwrite(out, 1, len, stderr);
	if (r->fatal) {
		run->fatal = 1;
		return;
	}
	r->st.variant = r->variant[0] ? r->variant : NULL;
	if (vc_summary_add(run->sum, g, &r->st) < 0)
		run->fatal = 1;
	long games = vc_summary_totals(run->sum)->games;
	if (run->progress && games % 4096 == 0)
		fprintf(stderr, "\r%s: %ld games", cli_prog, games);
}

/* The summary on standard output; 0, or -1 when it could not be written. */
static int print_summary(struct vc_ctx *ctx, const struct vc_summary *s, int tsv)
{
	struct vc_sink *out = cli_out(ctx, "-");
	vc_summary_write(s, out, tsv);
	return cli_close(out, VC_OK) == CLI_OK ? 0 : -1;
}

/* Adds up summaries written with --summary-format=tsv. */
static int merge_summaries(struct vc_ctx *ctx, const char **files, int nfiles, struct vc_summary *s)
{
	int bad = 0;
	for (int i = 0; i < nfiles; i++) {
		FILE *f = strcmp(files[i], "-") ? fopen(files[i], "r") : stdin;
		if (!f) {
			cli_error("cannot open '%s'", files[i]);
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
		free(text);
		if (st == VC_FATAL)
			return CLI_TROUBLE;
		bad |= st != VC_OK;
	}
	return bad ? CLI_BAD_INPUT : CLI_OK;
}

/* --merge-summaries: the sum of the summaries, and the exit status. */
static int run_merge(const char **files, int nfiles, int tsv)
{
	struct vc_ctx *ctx = cli_ctx();
	struct vc_summary *s = vc_summary_new();
	int rc = s ? merge_summaries(ctx, files, nfiles, s) : CLI_TROUBLE;
	if (rc != CLI_TROUBLE && print_summary(ctx, s, tsv) < 0)
		rc = CLI_TROUBLE;
	if (rc == CLI_OK && vc_summary_totals(s)->invalid)
		rc = CLI_BAD_INPUT;
	vc_summary_free(s);
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
	run->sum = vc_summary_new();
	if (!run->sum || check_variants(ctx, &run->vo) < 0) {
		vc_ctx_free(ctx);
		vc_summary_free(run->sum);
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
	if (run->progress && t->games >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");
	if (summary && print_summary(ctx, run->sum, tsv) < 0)
		trouble = 1;
	int rc = trouble ? CLI_TROUBLE : t->invalid ? CLI_BAD_INPUT : CLI_OK;
	vc_summary_free(run->sum);
	vc_ctx_free(ctx);
	return rc;
}

int main(int argc, char **argv)
{
	const char *variant = NULL, *force = NULL;
	int strict = 0, quiet = 0, summary = 0, verbose = 0, tsv = 0, merge = 0;
	int jobs = vc_cpu_count();
	long first_game = 1;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	int nfiles = 0;
	cli_init("vchess-validate");
	if (!files)
		return CLI_TROUBLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage(usage, 0);
			return CLI_OK;
		} else if (!strcmp(a, "--version")) {
			cli_version();
			return CLI_OK;
		} else if (!strcmp(a, "--variant") && i + 1 < argc)
			variant = argv[++i];
		else if (!strcmp(a, "--force-variant") && i + 1 < argc)
			force = argv[++i];
		else if (!strcmp(a, "--strict"))
			strict = 1;
		else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
			quiet = 1;
		else if (!strcmp(a, "--summary"))
			summary = 1;
		else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
			verbose = 1;
		else if (!strcmp(a, "--summary-format=tsv"))
			tsv = 1;
		else if (!strcmp(a, "--summary-format=text"))
			tsv = 0;
		else if (!strcmp(a, "--merge-summaries"))
			merge = 1;
		else if ((!strcmp(a, "-j") || !strcmp(a, "--jobs")) && i + 1 < argc) {
			long n = cli_number(argv[++i]);
			if (n < 1 || n > 1024) {
				cli_error("-j needs a number from 1 to 1024, not '%s'", argv[i]);
				return CLI_TROUBLE;
			}
			jobs = (int)n;
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			long n = cli_number(a + 2);
			if (n < 1 || n > 1024) {
				cli_error("-j needs a number from 1 to 1024, not '%s'", a + 2);
				return CLI_TROUBLE;
			}
			jobs = (int)n;
		} else if (!strcmp(a, "--first-game") && i + 1 < argc) {
			first_game = cli_number(argv[++i]);
			if (first_game < 1) {
				cli_error("--first-game needs a positive number, not '%s'", argv[i]);
				return CLI_TROUBLE;
			}
		}
		else if (!strcmp(a, "--")) {
			while (++i < argc)
				files[nfiles++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			cli_error("unknown option '%s'", a);
			cli_usage(usage, 1);
		} else
			files[nfiles++] = a;
	}
	if (!nfiles)
		cli_usage(usage, 1);

	static struct run run;
	run.vo.strict = strict;
	run.vo.default_variant = variant;
	run.vo.force_variant = force;
	run.verbose = verbose;
	run.quiet = quiet;
	run.progress = isatty(2) && !quiet;
	int rc = merge ? run_merge(files, nfiles, tsv)
		       : run_files(files, nfiles, &run, jobs, first_game, summary, tsv);
	free(files);
	return rc;
}
