/*
 * vchess-perft - counts the leaf nodes of the legal move tree of a position
 * to a depth, per move with --divide, or checks a whole suite of published
 * counts.  Suites are lines "FEN ;D1 n ;D2 n ..." or blocks of
 * "id NAME" / "epd FEN" / "perft D N" lines; '#' starts a comment.  A
 * suite names its variant in a comment "# variant: NAME" before its first
 * position; a suite without one (python-chess's) is of the variant its
 * file's name names ("atomic.perft"), else of orthodox chess.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-perft [OPTION]... DEPTH\n"
	"       vchess-perft [--variant NAME] [--max-nodes N] --suite FILE\n";

enum { O_VARIANT = 256, O_FEN, O_DIVIDE, O_TIME, O_SUITE, O_MAX, O_NO_BB };

static const struct cli_opt opts[] = {
	{ O_VARIANT, "variant", "NAME", "a built-in variant or a variant file (default: chess)" },
	{ O_FEN, "fen", "FEN", "count from this position, not the variant's start" },
	{ O_DIVIDE, "divide", NULL, "the count below each move, then the total" },
	{ O_TIME, "time", NULL, "the time and nodes per second, on standard error" },
	{ O_SUITE, "suite", "FILE", "check the counts of a suite (- standard input)" },
	{ O_MAX, "max-nodes", "N", "--suite: skip the counts larger than N" },
	{ O_NO_BB, "no-bitboards", NULL, "count with the general generator only" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_tool tool = {
	usage,
	"Counts the leaf nodes of the legal move tree of a chess variant position\n"
	"(perft), or checks a suite of published counts.",
	opts,
	"vchess-perft --variant crazyhouse --divide 2   # per first move, two plies",
	"A suite's variant: --variant, else its \"# variant: NAME\" line, else its file's\n"
	"name when that names a variant (atomic.perft), else chess.\n"
	"Exit status: 0 counted or every count matched, 1 a mismatch or a bad position,\n"
	"2 usage or I/O trouble.\n",
};

/* vc_perft_ex's flags: VC_PERFT_GENERAL under --no-bitboards */
static unsigned perft_flags;

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
	unsigned long long got = vc_perft_ex(st->p, depth, perft_flags);
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
		cli_file_error(st->file, line, "position '%s' does not read: %s", fen,
			       vc_ctx_last_message(st->ctx));
	}
}

/* The variant a suite file's name names ("atomic.perft", "3check.perft"),
 * or NULL. */
static const char *variant_of_name(const char *file, char *buf, size_t n)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	snprintf(buf, n, "%s", base);
	buf[strcspn(buf, ".")] = 0;
	return vc_builtin_lookup(buf);
}

/* The suite's variant, once its first position comes: the one named on the
 * command line, in the header, or by the file's name, else chess.  -1 when
 * it does not load (reported). */
static int suite_variant(struct suite_state *st, const char *given, const char *header)
{
	char buf[256];
	const char *name = given, *from = "--variant";
	if (!name && header && *header)
		name = header, from = "the suite's header";
	if (!name && (name = variant_of_name(st->file, buf, sizeof buf)) != NULL)
		from = "the file's name";
	if (!name)
		name = "chess", from = "the default";
	struct vc_variant *v = vc_variant_load(st->ctx, name);
	if (!v)
		return -1;
	printf("variant %s (%s)\n", vc_variant_name(v), from);
	st->v = v;
	st->p = vc_position_new(v);
	return st->p ? 0 : -1;
}

/* A line of the suite (no comment, no blank); 0, or -1 when its variant
 * does not load. */
static int suite_line(struct suite_state *st, char *s, long ln)
{
	if (!strncmp(s, "id ", 3)) {
		snprintf(st->id, sizeof st->id, "%s", s + 3);
		st->have_pos = 0;
	} else if (!strncmp(s, "epd ", 4) || !strncmp(s, "fen ", 4)) {
		set_pos(st, ln, s + 4);
	} else if (!strncmp(s, "perft ", 6)) {
		int d;
		unsigned long long n;
		if (sscanf(s + 6, "%d %llu", &d, &n) != 2 || d < 0 || d > 64) {
			cli_file_error(st->file, ln, "'perft' needs a depth from 0 to 64 and a count");
			st->bad_fen++;
			return 0;
		}
		check_depth(st, ln, d, n);
	} else {
		/* FEN ;D1 n ;D2 n */
		char *semi = strchr(s, ';');
		if (semi)
			*semi = 0;
		snprintf(st->id, sizeof st->id, "line %ld", ln);
		set_pos(st, ln, s);
		while (semi) {
			char *field = semi + 1;
			semi = strchr(field, ';');
			if (semi)
				*semi = 0;
			int d;
			unsigned long long n;
			while (*field == ' ')
				field++;
			if (sscanf(field, "D%d %llu", &d, &n) == 2 && d >= 0 && d <= 64)
				check_depth(st, ln, d, n);
			else if (*field) {
				cli_file_error(st->file, ln, "expected 'Dn count', not '%s'", field);
				st->bad_fen++;
			}
		}
	}
	return 0;
}

static int run_suite(struct vc_ctx *ctx, const char *variant, const char *file,
		     unsigned long long max_nodes)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		cli_file_error(file, 0, "cannot open '%s': %s", file, strerror(errno));
		return CLI_TROUBLE;
	}
	struct vc_ctx *quiet = vc_ctx_new();
	struct suite_state st = { ctx, NULL, NULL, file, max_nodes, 0, 0, 0, 0, 0, "", 0 };
	char *line = NULL, header[256] = "";
	size_t cap = 0;
	long ln = 0;
	int rc = CLI_OK;
	while (rc == CLI_OK && getline(&line, &cap, f) > 0) {
		ln++;
		line[strcspn(line, "\r\n")] = 0;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' && !st.v && sscanf(s, "# variant: %255s", header) == 1)
			continue;
		if (!*s || *s == '#')
			continue;
		if (!st.v && suite_variant(&st, variant, header) < 0)
			rc = CLI_TROUBLE;
		st.ctx = quiet; /* positions that do not read are reported as lines */
		if (rc == CLI_OK)
			suite_line(&st, s, ln);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	vc_position_free(st.p);
	vc_variant_free((struct vc_variant *)st.v);
	vc_ctx_free(quiet);
	if (rc != CLI_OK)
		return rc;
	printf("%ld positions, %ld counts checked, %ld mismatches", st.positions, st.checked,
	       st.mismatches);
	if (st.skipped)
		printf(", %ld skipped above %llu nodes", st.skipped, max_nodes);
	if (st.bad_fen)
		printf(", %ld unreadable lines", st.bad_fen);
	printf("\n");
	return st.mismatches || st.bad_fen ? CLI_BAD_INPUT : CLI_OK;
}

struct args {
	const char *variant, *fen, *suite;
	int divide, timing;
	unsigned long long max_nodes;
};

static void option(int key, const char *val, void *user)
{
	struct args *a = user;
	switch (key) {
	case O_VARIANT: a->variant = val; break;
	case O_FEN: a->fen = val; break;
	case O_SUITE: a->suite = val; break;
	case O_DIVIDE: a->divide = 1; break;
	case O_TIME: a->timing = 1; break;
	case O_NO_BB: perft_flags = VC_PERFT_GENERAL; break;
	case O_MAX:
		a->max_nodes = (unsigned long long)cli_number_arg("--max-nodes", val, 0, LONG_MAX);
		break;
	}
}

/* The count of a position (--fen, or the variant's start): the exit status. */
static int count(struct vc_ctx *ctx, const struct args *a, long depth)
{
	struct vc_variant *v = vc_variant_load(ctx, a->variant ? a->variant : "chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	int rc = CLI_OK;
	if (!p) {
		rc = CLI_TROUBLE;
	} else if (a->fen && vc_position_set_fen(p, ctx, a->fen) != VC_OK) {
		rc = CLI_BAD_INPUT;
	} else {
		double t0 = now();
		unsigned long long total = 0;
		if (a->divide && depth > 0) {
			vc_move *ms = malloc(VC_MAX_MOVES * sizeof *ms);
			int n = ms ? vc_position_legal_moves(p, ms, VC_MAX_MOVES) : -1;
			char txt[64];
			if (n < 0) {
				cli_error("out of memory");
				rc = CLI_TROUBLE;
			}
			for (int i = 0; i < n; i++) {
				vc_position_make(p, &ms[i]);
				unsigned long long c = vc_perft_ex(p, (int)depth - 1, perft_flags);
				vc_position_unmake(p);
				vc_move_coord(v, &ms[i], txt, sizeof txt);
				printf("%s: %llu\n", txt, c);
				total += c;
			}
			free(ms);
		} else
			total = vc_perft_ex(p, (int)depth, perft_flags);
		double dt = now() - t0;
		if (rc == CLI_OK)
			printf("%llu\n", total);
		if (rc == CLI_OK && a->timing)
			fprintf(stderr, "%s: %.3f s, %.0f nodes/s\n", cli_prog, dt,
				dt > 0 ? (double)total / dt : 0.0);
	}
	vc_position_free(p);
	vc_variant_free(v);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof a);
	cli_init("vchess-perft");
	int first = cli_options(&tool, argc, argv, option, &a);
	long depth = -1;
	if (a.suite && first < argc)
		cli_misuse("--suite takes no DEPTH: '%s'", argv[first]);
	if (!a.suite && first + 1 != argc)
		cli_misuse(first < argc ? "one DEPTH only: '%s'" : "a DEPTH is needed%s",
			   first < argc ? argv[first + 1] : "");
	if (!a.suite)
		depth = cli_number_arg("DEPTH", argv[first], 0, 64);
	struct vc_ctx *ctx = cli_ctx();
	vc_ctx_set_bitboards(ctx, !(perft_flags & VC_PERFT_GENERAL));
	int rc = a.suite ? run_suite(ctx, a.variant, a.suite, a.max_nodes) : count(ctx, &a, depth);
	vc_ctx_free(ctx);
	return rc;
}
