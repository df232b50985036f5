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
	"                       [--summary] [-v] FILE...\n";

struct per_variant {
	char name[64];
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

static void print_diags(const struct vc_game *g, const struct vc_validator *val, int verbose,
			int quiet)
{
	char label[256];
	game_label(g, label, sizeof label);
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (quiet)
			continue;
		fprintf(stderr, "%s: %s", cli_prog, vc_game_file(g) ? vc_game_file(g) : "-");
		if (d->line > 0) {
			fprintf(stderr, ":%ld", d->line);
			if (d->col > 0)
				fprintf(stderr, ":%ld", d->col);
		}
		fprintf(stderr, ": %s: %s", vc_severity_name(d->severity), label);
		if (d->context && *d->context)
			fprintf(stderr, ", %s", d->context);
		fprintf(stderr, ": %s\n", d->message);
		if (verbose) {
			const char *fen = vc_validator_diag_fen(val, i);
			const struct vc_variant *v = vc_validator_variant(val);
			if (fen && v) {
				struct vc_position *p = vc_position_new(v);
				if (p && vc_position_set_fen(p, NULL, fen) == VC_OK) {
					char *a = vc_position_ascii(p);
					if (a) {
						fputs(a, stderr);
						fprintf(stderr, "%s\n", fen);
					}
					free(a);
				}
				vc_position_free(p);
			}
		}
	}
}

int main(int argc, char **argv)
{
	const char *variant = NULL, *force = NULL;
	int strict = 0, quiet = 0, summary = 0, verbose = 0;
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

	struct vc_ctx *ctx = cli_ctx();
	struct vc_validate_opts vo = { strict, variant, force };
	struct vc_validator *val = vc_validator_new(ctx, &vo);
	struct vc_game *g = vc_game_new();
	struct totals t;
	int trouble = 0;
	int progress = isatty(2) && !quiet;
	memset(&t, 0, sizeof t);
	if (!val || !g) {
		cli_error("out of memory");
		return CLI_TROUBLE;
	}
	if ((variant && !vc_validator_get_variant(val, variant)) ||
	    (force && !vc_validator_get_variant(val, force))) {
		/* load again, for its message */
		struct vc_variant *v = vc_variant_load(ctx, force && !vc_validator_get_variant(val, force)
								    ? force
								    : variant);
		vc_variant_free(v);
		vc_game_free(g);
		vc_validator_free(val);
		vc_ctx_free(ctx);
		free(files);
		return CLI_TROUBLE;
	}
	for (int fi = 0; fi < nfiles; fi++) {
		struct vc_reader_opts ro;
		memset(&ro, 0, sizeof ro);
		ro.strict = strict;
		struct vc_reader *r = vc_reader_open(ctx, files[fi], &ro);
		if (!r) {
			trouble = 1;
			continue;
		}
		vc_status s;
		while ((s = vc_reader_next(r, g)) == VC_OK) {
			struct vc_game_stats st;
			vc_status vs = vc_validate(val, g, &st);
			if (vs == VC_FATAL) {
				trouble = 1;
				break;
			}
			t.games++;
			if (st.valid)
				t.valid++;
			else
				t.invalid++;
			if (st.unknown_variant)
				t.unknown++;
			t.plies += st.plies;
			t.var_plies += st.var_plies;
			count_variant(&t, st.variant ? st.variant : vc_game_is_garbage(g) ? "(not a game)"
											: "(unknown)",
				      st.valid, st.plies);
			print_diags(g, val, verbose, quiet);
			if (progress && t.games % 4096 == 0)
				fprintf(stderr, "\r%s: %ld games", cli_prog, t.games);
		}
		if (s == VC_FATAL)
			trouble = 1;
		vc_reader_close(r);
	}
	if (progress && t.games >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");
	if (summary) {
		printf("games %ld\nvalid %ld\ninvalid %ld\nplies %ld\nvariation-plies %ld\n", t.games,
		       t.valid, t.invalid, t.plies, t.var_plies);
		if (t.unknown)
			printf("unknown-variant %ld\n", t.unknown);
		for (int i = 0; i < t.npv; i++)
			printf("variant %s: games %ld valid %ld plies %ld\n", t.pv[i].name, t.pv[i].games,
			       t.pv[i].valid, t.pv[i].plies);
	}
	vc_game_free(g);
	vc_validator_free(val);
	vc_ctx_free(ctx);
	free(files);
	if (trouble)
		return CLI_TROUBLE;
	return t.invalid ? CLI_BAD_INPUT : CLI_OK;
}
