/*
 * vchess-perft - counts the leaf nodes of the legal move tree of a position
 * to a depth, per move with --divide, or checks a whole suite of published
 * counts.  Suites are lines "FEN ;D1 n ;D2 n ..." or blocks of
 * "id NAME" / "epd FEN" / "perft D N" lines; '#' starts a comment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-perft [--variant NAME] [--fen FEN] [--divide] [--time] DEPTH\n"
	"       vchess-perft [--variant NAME] --suite FILE [--max-nodes N]\n";

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct suite_state {
	struct vc_ctx *ctx;
	const struct vc_variant *v;
	struct vc_position *p;
	const char *file;
	unsigned long long max_nodes;
	long checked, mismatches, skipped, positions, bad_fen;
	char id[256];
	int have_pos;
};

static void check_depth(struct suite_state *st, long line, int depth, unsigned long long want)
{
	if (!st->have_pos)
		return;
	if (st->max_nodes && want > st->max_nodes) {
		st->skipped++;
		return;
	}
	unsigned long long got = vc_perft(st->p, depth);
	st->checked++;
	if (got != want) {
		st->mismatches++;
		printf("%s:%ld: mismatch: %s depth %d: %llu nodes, expected %llu\n", st->file, line,
		       st->id, depth, got, want);
	} else
		printf("ok %s depth %d: %llu\n", st->id, depth, got);
	fflush(stdout);
}

static void set_pos(struct suite_state *st, long line, const char *fen)
{
	st->positions++;
	st->have_pos = vc_position_set_fen(st->p, st->ctx, fen) == VC_OK;
	if (!st->have_pos) {
		st->bad_fen++;
		fprintf(stderr, "%s: %s:%ld: error: position '%s' does not read: %s\n", cli_prog,
			st->file, line, fen, vc_ctx_last_message(st->ctx));
	}
}

static int run_suite(struct vc_ctx *ctx, const struct vc_variant *v, const char *file,
		     unsigned long long max_nodes)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		cli_error("cannot open '%s'", file);
		return CLI_TROUBLE;
	}
	struct vc_ctx *quiet = vc_ctx_new();
	struct suite_state st = { quiet, v, vc_position_new(v), file, max_nodes, 0, 0, 0, 0, 0, "", 0 };
	char *line = NULL;
	size_t cap = 0;
	long ln = 0;
	(void)ctx;
	while (getline(&line, &cap, f) > 0) {
		ln++;
		line[strcspn(line, "\r\n")] = 0;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "id ", 3)) {
			snprintf(st.id, sizeof st.id, "%s", s + 3);
			st.have_pos = 0;
		} else if (!strncmp(s, "epd ", 4) || !strncmp(s, "fen ", 4)) {
			set_pos(&st, ln, s + 4);
		} else if (!strncmp(s, "perft ", 6)) {
			int d;
			unsigned long long n;
			if (sscanf(s + 6, "%d %llu", &d, &n) != 2 || d < 0) {
				fprintf(stderr, "%s: %s:%ld: error: 'perft' needs a depth and a count\n",
					cli_prog, file, ln);
				st.bad_fen++;
				continue;
			}
			check_depth(&st, ln, d, n);
		} else {
			/* FEN ;D1 n ;D2 n */
			char *semi = strchr(s, ';');
			if (semi)
				*semi = 0;
			snprintf(st.id, sizeof st.id, "line %ld", ln);
			set_pos(&st, ln, s);
			while (semi) {
				char *field = semi + 1;
				semi = strchr(field, ';');
				if (semi)
					*semi = 0;
				int d;
				unsigned long long n;
				while (*field == ' ')
					field++;
				if (sscanf(field, "D%d %llu", &d, &n) == 2)
					check_depth(&st, ln, d, n);
				else if (*field) {
					fprintf(stderr, "%s: %s:%ld: error: expected 'Dn count', not '%s'\n",
						cli_prog, file, ln, field);
					st.bad_fen++;
				}
			}
		}
	}
	free(line);
	if (f != stdin)
		fclose(f);
	vc_position_free(st.p);
	vc_ctx_free(quiet);
	printf("%ld positions, %ld counts checked, %ld mismatches", st.positions, st.checked,
	       st.mismatches);
	if (st.skipped)
		printf(", %ld skipped above %llu nodes", st.skipped, max_nodes);
	if (st.bad_fen)
		printf(", %ld unreadable lines", st.bad_fen);
	printf("\n");
	return st.mismatches || st.bad_fen ? CLI_BAD_INPUT : CLI_OK;
}

int main(int argc, char **argv)
{
	const char *variant = "chess", *fen = NULL, *suite = NULL;
	int divide = 0, timing = 0;
	long depth = -1;
	unsigned long long max_nodes = 0;
	cli_init("vchess-perft");
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
		else if (!strcmp(a, "--fen") && i + 1 < argc)
			fen = argv[++i];
		else if (!strcmp(a, "--suite") && i + 1 < argc)
			suite = argv[++i];
		else if (!strcmp(a, "--max-nodes") && i + 1 < argc) {
			long n = cli_number(argv[++i]);
			if (n < 0) {
				cli_error("--max-nodes needs a number");
				return CLI_TROUBLE;
			}
			max_nodes = (unsigned long long)n;
		} else if (!strcmp(a, "--divide"))
			divide = 1;
		else if (!strcmp(a, "--time"))
			timing = 1;
		else if (a[0] != '-' && depth < 0) {
			depth = cli_number(a);
			if (depth < 0 || depth > 64) {
				cli_error("depth must be a number from 0 to 64, not '%s'", a);
				return CLI_TROUBLE;
			}
		} else {
			cli_error("unknown argument '%s'", a);
			cli_usage(usage, 1);
		}
	}
	if (!suite && depth < 0)
		cli_usage(usage, 1);
	struct vc_ctx *ctx = cli_ctx();
	struct vc_variant *v = vc_variant_load(ctx, variant);
	if (!v) {
		vc_ctx_free(ctx);
		return CLI_TROUBLE;
	}
	int rc = CLI_OK;
	if (suite) {
		rc = run_suite(ctx, v, suite, max_nodes);
	} else {
		struct vc_position *p = vc_position_new(v);
		if (fen && vc_position_set_fen(p, ctx, fen) != VC_OK) {
			rc = CLI_BAD_INPUT;
		} else {
			double t0 = now();
			unsigned long long total = 0;
			if (divide && depth > 0) {
				vc_move *ms = malloc(VC_MAX_MOVES * sizeof *ms);
				int n = ms ? vc_position_legal_moves(p, ms, VC_MAX_MOVES) : 0;
				char txt[64];
				for (int i = 0; i < n; i++) {
					vc_position_make(p, &ms[i]);
					unsigned long long c = vc_perft(p, (int)depth - 1);
					vc_position_unmake(p);
					vc_move_coord(v, &ms[i], txt, sizeof txt);
					printf("%s: %llu\n", txt, c);
					total += c;
				}
				free(ms);
			} else
				total = vc_perft(p, (int)depth);
			double dt = now() - t0;
			printf("%llu\n", total);
			if (timing)
				fprintf(stderr, "%s: %.3f s, %.0f nodes/s\n", cli_prog, dt,
					dt > 0 ? (double)total / dt : 0.0);
		}
		vc_position_free(p);
	}
	vc_variant_free(v);
	vc_ctx_free(ctx);
	return rc;
}
