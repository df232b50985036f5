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

struct per_variant {
	char name[128];
	long games, valid, plies;
};

struct totals {
	long games, valid, invalid, unknown, plies, var_plies, warnings;
	struct per_variant pv[64];
	int npv;
};

static void count_variant(struct totals *t, const char *name, int valid, long plies)
{
	int i;
	for (i = 0; i < t->npv; i++)
		if (!strcmp(t->pv[i].name, name))
			break;
	if (i == t->npv) {
		if (t->npv == 64)
			return;
		snprintf(t->pv[t->npv++].name, sizeof t->pv[0].name, "%s", name);
	}
	t->pv[i].games++;
	t->pv[i].valid += valid;
	t->pv[i].plies += plies;
}

/* "game 12 (White - Black)" */
static void game_label(const struct vc_game *g, char *buf, size_t n)
{
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	if (vc_game_is_garbage(g))
		snprintf(buf, n, "game %ld", vc_game_number(g));
	else
		snprintf(buf, n, "game %ld (%s - %s)", vc_game_number(g), w ? w : "?", b ? b : "?");
}

static void print_diags(struct vc_sink *out, const struct vc_game *g,
			const struct vc_validator *val, int verbose, int quiet)
{
	char label[256];
	game_label(g, label, sizeof label);
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n && !quiet; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		vc_sink_printf(out, "%s: %s", cli_prog, vc_game_file(g) ? vc_game_file(g) : "-");
		if (d->line > 0) {
			vc_sink_printf(out, ":%ld", d->line);
			if (d->col > 0)
				vc_sink_printf(out, ":%ld", d->col);
		}
		char sev[96];
		vc_sink_printf(out, ": %s: %s", cli_severity(d->severity, d->code, sev, sizeof sev),
			       label);
		if (d->context && *d->context)
			vc_sink_printf(out, ", %s", d->context);
		vc_sink_printf(out, ": %s\n", d->message);
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
	struct totals t;
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
	struct totals *t = &run->t;
	if (len)
		fwrite(out, 1, len, stderr);
	if (r->fatal) {
		run->fatal = 1;
		return;
	}
	t->games++;
	if (r->st.valid)
		t->valid++;
	else
		t->invalid++;
	if (r->st.unknown_variant)
		t->unknown++;
	t->plies += r->st.plies;
	t->var_plies += r->st.var_plies;
	count_variant(t,
		      r->variant[0]		 ? r->variant
		      : vc_game_is_garbage(g) ? "(not a game)"
					      : "(unknown)",
		      r->st.valid, r->st.plies);
	if (run->progress && t->games % 4096 == 0)
		fprintf(stderr, "\r%s: %ld games", cli_prog, t->games);
}

static void print_summary(const struct totals *t, int tsv)
{
	if (tsv) {
		printf("games\t%ld\nvalid\t%ld\ninvalid\t%ld\nplies\t%ld\nvariation-plies\t%ld\n"
		       "unknown-variant\t%ld\n",
		       t->games, t->valid, t->invalid, t->plies, t->var_plies, t->unknown);
		for (int i = 0; i < t->npv; i++)
			printf("variant\t%s\t%ld\t%ld\t%ld\n", t->pv[i].name, t->pv[i].games,
			       t->pv[i].valid, t->pv[i].plies);
		return;
	}
	printf("games %ld\nvalid %ld\ninvalid %ld\nplies %ld\nvariation-plies %ld\n", t->games,
	       t->valid, t->invalid, t->plies, t->var_plies);
	if (t->unknown)
		printf("unknown-variant %ld\n", t->unknown);
	for (int i = 0; i < t->npv; i++)
		printf("variant %s: games %ld valid %ld plies %ld\n", t->pv[i].name, t->pv[i].games,
		       t->pv[i].valid, t->pv[i].plies);
}

/* Adds up summaries written with --summary-format=tsv. */
static int merge_summaries(const char **files, int nfiles, struct totals *t)
{
	int bad = 0;
	for (int i = 0; i < nfiles; i++) {
		FILE *f = strcmp(files[i], "-") ? fopen(files[i], "r") : stdin;
		char line[512];
		long ln = 0;
		if (!f) {
			cli_error("cannot open '%s'", files[i]);
			return CLI_TROUBLE;
		}
		while (fgets(line, sizeof line, f)) {
			char key[64], name[128];
			long a, b, c;
			ln++;
			line[strcspn(line, "\r\n")] = 0;
			if (!*line)
				continue;
			if (sscanf(line, "variant\t%127[^\t]\t%ld\t%ld\t%ld", name, &a, &b, &c) == 4) {
				count_variant(t, name, 0, 0);
				for (int k = 0; k < t->npv; k++)
					if (!strcmp(t->pv[k].name, name)) {
						t->pv[k].games += a - 1;
						t->pv[k].valid += b;
						t->pv[k].plies += c;
					}
			} else if (sscanf(line, "%63[^\t]\t%ld", key, &a) == 2) {
				long *dst = !strcmp(key, "games")	      ? &t->games
					    : !strcmp(key, "valid")	      ? &t->valid
					    : !strcmp(key, "invalid")	      ? &t->invalid
					    : !strcmp(key, "plies")	      ? &t->plies
					    : !strcmp(key, "variation-plies") ? &t->var_plies
					    : !strcmp(key, "unknown-variant") ? &t->unknown
									      : NULL;
				if (dst)
					*dst += a;
				else {
					fprintf(stderr, "%s: %s:%ld: error: unknown summary line '%s'\n",
						cli_prog, files[i], ln, line);
					bad = 1;
				}
			} else {
				fprintf(stderr, "%s: %s:%ld: error: not a summary line: '%s'\n", cli_prog,
					files[i], ln, line);
				bad = 1;
			}
		}
		if (f != stdin)
			fclose(f);
	}
	return bad ? CLI_BAD_INPUT : CLI_OK;
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

	if (merge) {
		struct totals mt;
		memset(&mt, 0, sizeof mt);
		int rc = merge_summaries(files, nfiles, &mt);
		if (rc != CLI_TROUBLE)
			print_summary(&mt, tsv);
		free(files);
		return rc != CLI_OK ? rc : mt.invalid ? CLI_BAD_INPUT : CLI_OK;
	}
	struct vc_ctx *ctx = cli_ctx();
	static struct run run;
	run.vo.strict = strict;
	run.vo.default_variant = variant;
	run.vo.force_variant = force;
	run.verbose = verbose;
	run.quiet = quiet;
	run.progress = isatty(2) && !quiet;
	int trouble = 0;
	/* the variants named on the command line must load */
	if (variant || force) {
		struct vc_validator *val = vc_validator_new(ctx, &run.vo);
		const char *bad = NULL;
		if (variant && !vc_validator_get_variant(val, variant))
			bad = variant;
		else if (force && !vc_validator_get_variant(val, force))
			bad = force;
		vc_validator_free(val);
		if (bad) {
			struct vc_variant *v = vc_variant_load(ctx, bad); /* for its message */
			vc_variant_free(v);
			vc_ctx_free(ctx);
			free(files);
			return CLI_TROUBLE;
		}
	}
	struct vc_parallel_opts po = { jobs, 0, sizeof(struct result), worker_new, worker_free,
				       work, done, &run };
	long next_first = first_game;
	for (int fi = 0; fi < nfiles; fi++) {
		struct vc_reader_opts ro;
		memset(&ro, 0, sizeof ro);
		ro.strict = strict;
		ro.first_game = next_first;
		struct vc_reader *r = vc_reader_open(ctx, files[fi], &ro);
		if (!r) {
			trouble = 1;
			continue;
		}
		long before = run.t.games;
		if (vc_parallel_run(ctx, r, &po) != VC_OK || run.fatal)
			trouble = 1;
		vc_reader_close(r);
		/* numbering goes on across files only when asked to be global */
		if (first_game > 1)
			next_first += run.t.games - before;
	}
	if (run.progress && run.t.games >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");
	if (summary)
		print_summary(&run.t, tsv);
	struct totals t = run.t;
	vc_ctx_free(ctx);
	free(files);
	if (trouble)
		return CLI_TROUBLE;
	return t.invalid ? CLI_BAD_INPUT : CLI_OK;
}
