/*
 * vchess-convert - converts archives of games between the PGN-like text
 * (canonical on output), XML, JSON lines and FEN, selecting games and
 * splitting the output; see vchess-convert(1).
 *
 * The library's converter (vc_convert) does the work: it tells each
 * input's format by its first bytes, replays every game taken and writes
 * it in its canonical form, with -j N in N threads, everything in input
 * order.  This program reads the command line and says what became of the
 * games: a game that does not validate is never dropped silently, it gets
 * one line on standard error (its first error), and the run ends with a
 * line that says where the broken games went, and exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-convert [-f text|xml] [-t text|xml|fen|json-lines] [-o OUT] [-z]\n"
	"                      [--select EXPR]... [--split N] [--keep-broken] [--rejects FILE]\n"
	"                      [--long] [--no-comments] [--no-variations] [--no-tags]\n"
	"                      [--fen-comments] [--mark-swaps] [--plies] [--variant NAME]\n"
	"                      [--strict] [-j N] FILE...\n";

struct args {
	struct vc_convert_opts co;
	struct vc_select *sel;
	const char **files;
	int nfiles;
};

/* ---- what becomes of the games, on standard error ---- */

static void print_diag(const char *file, const struct vc_game *g, const struct vc_game_diag *d)
{
	char *line = cli_game_diag(file, g, d, 1);
	if (line)
		fputs(line, stderr);
	free(line);
}

/* A broken game: its first error.  A game read from XML: what the reader
 * found odd in its input, though the game reads. */
static void report(const char *file, const struct vc_game *g, int broken, int xml)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (broken && d->severity >= VC_SEV_ERROR) {
			print_diag(file, g, d);
			return;
		}
		if (xml && d->severity == VC_SEV_WARNING && d->code && !strncmp(d->code, "xml-", 4))
			print_diag(file, g, d);
	}
}

struct progress {
	int on; /* standard error is a terminal */
	long games;
};

static void on_game(void *user, const struct vc_game *g, const struct vc_convert_game *info)
{
	struct progress *pr = user;
	pr->games = info->selected;
	if (info->from == VC_FORMAT_XML)
		report(info->file, g, 0, 1);
	if (pr->on && info->selected % 4096 == 0)
		fprintf(stderr, "\r%s: %ld games", cli_prog, info->selected);
	if (info->valid)
		return;
	if (pr->on && info->selected >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");
	report(info->file, g, 1, 0);
}

/* Never silently dropped: where every broken game went. */
static void print_broken(const struct vc_convert_counts *c, const struct vc_convert_opts *o)
{
	if (!c->broken)
		return;
	fprintf(stderr, "%s: %ld of %ld games broken", cli_prog, c->broken, c->selected);
	if (c->kept)
		fprintf(stderr, ", %ld written with their errors", c->kept);
	if (c->rejected && o->rejects && c->rejects_failed)
		fprintf(stderr, ", %ld not written (the rejects file '%s' failed)", c->rejected,
			o->rejects);
	else if (c->rejected && o->rejects)
		fprintf(stderr, ", %ld rejected to '%s'", c->rejected, o->rejects);
	else if (c->rejected)
		fprintf(stderr, ", %ld not written (%s)", c->rejected,
			o->keep_broken ? "text that is no game: see --rejects"
				       : "see --keep-broken and --rejects");
	fputc('\n', stderr);
}

/* ---- the command line ---- */

static int parse_jobs(const char *s)
{
	long n = cli_number(s);
	if (n < 1 || n > 1024) {
		cli_error("-j needs a number from 1 to 1024, not '%s'", s);
		cli_usage(usage, 1);
	}
	return (int)n;
}

static void add_select(struct args *a, const char *expr)
{
	struct vc_select_error err;
	if (vc_select_add(a->sel, expr, &err) == 0)
		return;
	if (err.regex[0])
		cli_error("bad --select expression '%s': %s", expr, err.regex);
	else
		cli_error("bad --select expression '%s'", expr);
	cli_usage(usage, 1);
}

/* An option without a value; 0 when a is none. */
static int flag(struct args *a, const char *o)
{
	struct vc_write_opts *wo = &a->co.write;
	int *f = !strcmp(o, "-z")		 ? &a->co.gzip
		 : !strcmp(o, "--keep-broken")	 ? &a->co.keep_broken
		 : !strcmp(o, "--strict")	 ? &a->co.strict
		 : !strcmp(o, "--long")		 ? &wo->long_algebraic
		 : !strcmp(o, "--no-comments")	 ? &wo->no_comments
		 : !strcmp(o, "--no-variations") ? &wo->no_variations
		 : !strcmp(o, "--no-tags")	 ? &wo->no_tags
		 : !strcmp(o, "--fen-comments")	 ? &wo->fen_after
		 : !strcmp(o, "--mark-swaps")	 ? &wo->mark_transforms
		 : !strcmp(o, "--plies")	 ? &wo->fen_plies
						 : NULL;
	if (f)
		*f = 1;
	return f != NULL;
}

/* An option with a value; 0 when o is none. */
static int valued(struct args *a, const char *o, const char *val)
{
	if (!strcmp(o, "-f")) {
		a->co.from = vc_format_parse(val);
		if (a->co.from != VC_FORMAT_TEXT && a->co.from != VC_FORMAT_XML) {
			cli_error("unknown input format '%s' (text or xml)", val);
			cli_usage(usage, 1);
		}
	} else if (!strcmp(o, "-t")) {
		int to = vc_format_parse(val);
		if (to < 0) {
			cli_error("unknown output format '%s' (text, xml, fen or json-lines)", val);
			cli_usage(usage, 1);
		}
		a->co.to = (enum vc_format)to;
	} else if (!strcmp(o, "--split")) {
		a->co.split = cli_number(val);
		if (a->co.split < 1) {
			cli_error("--split needs a number of games of at least 1, not '%s'", val);
			cli_usage(usage, 1);
		}
	} else if (!strcmp(o, "-o")) {
		a->co.out = val;
	} else if (!strcmp(o, "--select")) {
		add_select(a, val);
	} else if (!strcmp(o, "--rejects")) {
		a->co.rejects = val;
	} else if (!strcmp(o, "--variant")) {
		a->co.default_variant = val;
	} else if (!strcmp(o, "-j") || !strcmp(o, "--jobs")) {
		a->co.jobs = parse_jobs(val);
	} else {
		return 0;
	}
	return 1;
}

static void misuse(const char *o)
{
	static const char *const needs[] = { "-f",	  "-t",	     "-o", "--select", "--split",
					     "--rejects", "--variant", "-j", "--jobs" };
	int v = 0;
	for (size_t k = 0; k < sizeof needs / sizeof needs[0]; k++)
		v |= !strcmp(o, needs[k]);
	if (v)
		cli_error("option '%s' needs a value", o);
	else
		cli_error("unknown option '%s'", o);
	cli_usage(usage, 1);
}

/* Reads the command line into a; returns -1 after -h or --version. */
static int parse_args(struct args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			cli_usage(usage, 0);
			return -1;
		} else if (!strcmp(o, "--version")) {
			cli_version();
			return -1;
		} else if (flag(a, o)) {
			continue;
		} else if (val && valued(a, o, val)) {
			i++;
		} else if (!strncmp(o, "-j", 2) && o[2]) {
			a->co.jobs = parse_jobs(o + 2);
		} else if (!strcmp(o, "--")) {
			while (++i < argc)
				a->files[a->nfiles++] = argv[i];
		} else if (o[0] == '-' && o[1]) {
			misuse(o);
		} else {
			a->files[a->nfiles++] = o;
		}
	}
	if (!a->nfiles)
		cli_usage(usage, 1);
	if (a->co.split && (!a->co.out || !strcmp(a->co.out, "-"))) {
		cli_error("--split needs -o OUT: the files are named after it");
		cli_usage(usage, 1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	struct progress pr = { isatty(2), 0 };
	memset(&a, 0, sizeof a);
	cli_init("vchess-convert");
	a.files = calloc((size_t)argc + 1, sizeof *a.files);
	a.sel = vc_select_new();
	vc_convert_opts_init(&a.co);
	a.co.jobs = vc_cpu_count();
	a.co.each = vc_parallel_each;
	a.co.game = on_game;
	a.co.user = &pr;
	a.co.select = a.sel;
	int status = CLI_TROUBLE;
	if (!a.files || !a.sel || parse_args(&a, argc, argv) < 0) {
		status = a.files && a.sel ? CLI_OK : CLI_TROUBLE;
		goto out;
	}
	struct vc_ctx *ctx = cli_ctx();
	struct vc_convert *cv = vc_convert_new(ctx, &a.co);
	if (cv) {
		for (int i = 0; i < a.nfiles; i++)
			if (vc_convert_file(cv, a.files[i]) == VC_FATAL)
				break;
		if (pr.on && pr.games >= 4096)
			fprintf(stderr, "\r%*s\r", 40, "");
		struct vc_convert_counts c;
		vc_status s = vc_convert_close(cv, &c);
		print_broken(&c, &a.co);
		status = s != VC_OK ? CLI_TROUBLE : c.broken ? CLI_BAD_INPUT : CLI_OK;
	}
	vc_ctx_free(ctx);
out:
	vc_select_free(a.sel);
	free(a.files);
	return status;
}
