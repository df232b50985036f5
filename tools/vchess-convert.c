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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] = "usage: vchess-convert [OPTION]... [FILE]...\n";

enum {
	O_SELECT = 256,
	O_SPLIT,
	O_KEEP,
	O_REJECTS,
	O_LONG,
	O_NO_COMMENTS,
	O_NO_VARIATIONS,
	O_NO_TAGS,
	O_FEN_COMMENTS,
	O_MARK_SWAPS,
	O_PLIES,
	O_VARIANT,
	O_STRICT,
	O_PROGRESS,
	O_DUP_BY,
	O_PLYCOUNT,
	O_ROSTER,
	O_FIX_RESULT,
	O_DROP_TAGS,
	O_KEEP_TAGS,
	O_HASHCODE,
	O_ADD_ECO,
	O_MOVES,
	O_NO_NAGS
};

static const struct cli_opt opts[] = {
	{ 'f', "from", "FORMAT", "input format: text or xml (default: told by its bytes)" },
	{ 't', "to", "FORMAT", "output: text (default), xml, fen, epd or json-lines" },
	{ 'o', "output", "OUT", "write to OUT (default: standard output)" },
	{ 'z', "gzip", NULL, "compress the output with gzip" },
	{ O_SELECT, "select", "EXPR", "take only the games EXPR matches (repeatable)" },
	{ O_SPLIT, "split", "N", "N games a file: OUT-1.pgn, OUT-2.pgn, ..." },
	{ O_KEEP, "keep-broken", NULL, "write broken games too, with their errors" },
	{ O_REJECTS, "rejects", "FILE", "the bytes of broken games to FILE" },
	{ O_LONG, "long", NULL, "moves in long algebraic notation (Ng1-f3)" },
	{ O_MOVES, "moves", "STYLE", "san|lan|uci|wxf|janggi|shogi|shogi-number|hosking" },
	{ O_NO_COMMENTS, "no-comments", NULL, "leave out comments" },
	{ O_NO_VARIATIONS, "no-variations", NULL, "leave out variations" },
	{ O_NO_NAGS, "no-nags", NULL, "leave out NAGs and move suffixes (!, ?, !?...)" },
	{ O_NO_TAGS, "no-tags", NULL, "leave out the tags" },
	{ O_FEN_COMMENTS, "fen-comments", NULL, "the position after each move ([%fen ...])" },
	{ O_MARK_SWAPS, "mark-swaps", NULL, "mark the moves that transform the board" },
	{ O_PLIES, "plies", NULL, "-t fen: every position, not only the last" },
	{ O_ADD_ECO, "add-eco", NULL, "ECO and Opening tags from the variant's openings" },
	{ O_VARIANT, "variant", "NAME", "the variant of untagged games (default: chess)" },
	{ O_STRICT, "strict", NULL, "also flag what the PGN standard does not allow" },
	{ 'D', "no-duplicates", NULL, "leave out games that repeat an earlier one" },
	{ 'd', "duplicates", "FILE", "the repeats to FILE instead of the output" },
	{ O_DUP_BY, "duplicates-by", "K", "repeats by K: moves (default) or final position" },
	{ 'v', "verbose", NULL, "say which earlier game each repeat repeats" },
	{ O_PLYCOUNT, "add-plycount", NULL, "a PlyCount tag: the main line's plies" },
	{ O_ROSTER, "fill-roster", NULL, "add missing Seven Tag Roster tags as '?'" },
	{ O_FIX_RESULT, "fix-result", NULL, "the result the final position decides" },
	{ O_HASHCODE, "add-hashcode", NULL, "a HashCode tag, the same for the same moves" },
	{ O_DROP_TAGS, "drop-tags", "A,B", "leave out the tags named" },
	{ O_KEEP_TAGS, "keep-tags", "A,B", "keep only the tags named (and Variant, FEN, SetUp)" },
	{ 'j', "jobs", "N", "convert in N threads (default: one a processor)" },
	{ O_PROGRESS, "progress", "WHEN", "progress: auto (on a terminal), always or never" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_tool tool = {
	usage,
	"Converts chess variant archives between PGN-like text (canonical on output),\n"
	"XML, JSON lines and FEN, selecting games; never drops a game silently.",
	opts,
	"vchess-convert --select 'player~Carlsen and not result=*' -o c.pgn a.pgn",
	"With no FILE, or when FILE is -, reads standard input.\n"
	"Exit status: 0 every game taken valid, 1 some broken, 2 usage or I/O trouble.\n",
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

static void on_game(void *user, const struct vc_game *g, const struct vc_convert_game *info)
{
	struct cli_progress *pr = user;
	if (info->from == VC_FORMAT_XML || !info->valid)
		cli_progress_clear(pr);
	if (info->from == VC_FORMAT_XML)
		report(info->file, g, 0, 1);
	if (!info->valid)
		report(info->file, g, 1, 0);
	cli_progress_game(pr);
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

/* --add-eco: what became of the games, one line. */
static void print_eco(const long *n)
{
	static const char *const what[VC_ECO_NOUTCOMES] = {
		[VC_ECO_UNNAMED] = "in no named position",
		[VC_ECO_NO_LIST] = "of variants without openings",
		[VC_ECO_OTHER_START] = "from another start",
		[VC_ECO_BROKEN] = "broken",
		[VC_ECO_FAILED] = "failed (out of memory)",
	};
	fprintf(stderr, "%s: --add-eco: %ld games named (%ld tags added, %ld changed, %ld the same)",
		cli_prog, n[VC_ECO_ADDED] + n[VC_ECO_CHANGED] + n[VC_ECO_SAME], n[VC_ECO_ADDED],
		n[VC_ECO_CHANGED], n[VC_ECO_SAME]);
	for (int i = VC_ECO_UNNAMED; i < VC_ECO_NOUTCOMES; i++)
		if (n[i])
			fprintf(stderr, ", %ld %s", n[i], what[i]);
	fputc('\n', stderr);
}

/* Counted: what became of the repeats, what tag work changed. */
static void print_work(const struct vc_convert_counts *c, const struct vc_convert_opts *o)
{
	if (o->dup_by != VC_DUP_NONE) {
		fprintf(stderr, "%s: %ld repeat%s of earlier games (by %s)", cli_prog, c->repeats,
			c->repeats == 1 ? "" : "s",
			o->dup_by == VC_DUP_FINAL ? "final position" : "moves");
		if (!c->repeats)
			fputc('\n', stderr);
		else if (o->dup_file && c->dup_failed)
			fprintf(stderr, " not written (the duplicates file '%s' failed)\n", o->dup_file);
		else if (o->dup_file)
			fprintf(stderr, " written to '%s'\n", o->dup_file);
		else
			fprintf(stderr, " left out\n");
	}
	if (!o->tags && !o->drop_tags && !o->keep_tags)
		return;
	fprintf(stderr, "%s: tags changed in games written:", cli_prog);
	const char *sep = " ";
	if (o->drop_tags || o->keep_tags)
		fprintf(stderr, "%stags left out in %ld", sep, c->dropped), sep = ", ";
	if (o->tags & VC_TAGS_RESULT)
		fprintf(stderr, "%sresult fixed in %ld", sep, c->results), sep = ", ";
	if (o->tags & VC_TAGS_PLYCOUNT)
		fprintf(stderr, "%sPlyCount set in %ld", sep, c->plycount), sep = ", ";
	if (o->tags & VC_TAGS_ROSTER)
		fprintf(stderr, "%sroster filled in %ld", sep, c->roster), sep = ", ";
	if (o->tags & VC_TAGS_HASHCODE)
		fprintf(stderr, "%sHashCode set in %ld", sep, c->hashcode);
	fputc('\n', stderr);
}

/* ---- the command line ---- */

struct args {
	struct vc_convert_opts co;
	struct vc_select *sel;
	int selects; /* --select options given */
	struct cli_progress progress;
	int find_repeats; /* -D or -d given */
};

/* "A,B" as a NULL-terminated list; every name non-empty. */
static const char *const *name_list(const char *opt, const char *val)
{
	size_t n = 2;
	for (const char *p = val; *p; p++)
		n += *p == ',';
	char **list = calloc(n, sizeof *list), *copy = strdup(val);
	if (!list || !copy)
		cli_misuse("out of memory");
	size_t k = 0;
	for (char *tok = copy, *next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			cli_misuse("%s: an empty tag name in '%s'", opt, val);
		list[k++] = tok;
	}
	return (const char *const *)list;
}

/* A --select expression that does not read: what is wrong, and where. */
static void add_select(struct args *a, const char *expr)
{
	struct vc_select_error err;
	if (vc_select_add(a->sel, expr, &err) == 0)
		return;
	fprintf(stderr, "%s: error: --select: column %zu: %s\n  %s\n  %*s^\n", cli_prog, err.col,
		err.message, expr, (int)err.col - 1, "");
	cli_usage();
}

static void option(int key, const char *val, void *user)
{
	struct args *a = user;
	struct vc_write_opts *wo = &a->co.write;
	int to;
	switch (key) {
	case 'f':
		a->co.from = vc_format_parse(val);
		if (a->co.from != VC_FORMAT_TEXT && a->co.from != VC_FORMAT_XML)
			cli_misuse("unknown input format '%s' (text or xml)", val);
		break;
	case 't':
		if ((to = vc_format_parse(val)) < 0)
			cli_misuse("unknown output format '%s' (text, xml, fen, epd or json-lines)",
				   val);
		a->co.to = (enum vc_format)to;
		break;
	case 'o': a->co.out = val; break;
	case 'z': a->co.gzip = 1; break;
	case O_SELECT: add_select(a, val), a->selects++; break;
	case O_SPLIT: a->co.split = cli_number_arg("--split", val, 1, LONG_MAX); break;
	case O_KEEP: a->co.keep_broken = 1; break;
	case O_REJECTS: a->co.rejects = val; break;
	case O_LONG: wo->long_algebraic = 1, wo->uci = wo->notation = wo->shogi = 0; break;
	case O_MOVES:
		wo->shogi = !strcmp(val, "shogi")	   ? VC_SHOGI_HODGES
			    : !strcmp(val, "shogi-number") ? VC_SHOGI_HODGES_NUMBER
			    : !strcmp(val, "hosking")	   ? VC_SHOGI_HOSKING
							   : 0;
		if (!wo->shogi && strcmp(val, "san") && strcmp(val, "lan") && strcmp(val, "uci") &&
		    strcmp(val, "wxf") && strcmp(val, "janggi"))
			cli_misuse("--moves must be san, lan, uci, wxf, janggi, shogi, shogi-number or "
				   "hosking, not '%s'",
				   val);
		wo->long_algebraic = !strcmp(val, "lan");
		wo->uci = !strcmp(val, "uci");
		wo->notation = !strcmp(val, "wxf")	  ? VC_NOTATION_WXF
			       : !strcmp(val, "janggi") ? VC_NOTATION_JANGGI
							: 0;
		break;
	case O_NO_NAGS: wo->no_nags = 1; break;
	case O_NO_COMMENTS: wo->no_comments = 1; break;
	case O_NO_VARIATIONS: wo->no_variations = 1; break;
	case O_NO_TAGS: wo->no_tags = 1; break;
	case O_FEN_COMMENTS: wo->fen_after = 1; break;
	case O_MARK_SWAPS: wo->mark_transforms = 1; break;
	case O_PLIES: wo->fen_plies = 1; break;
	case O_ADD_ECO: a->co.add_eco = 1; break;
	case O_VARIANT: a->co.default_variant = val; break;
	case O_STRICT: a->co.strict = 1; break;
	case 'D': a->find_repeats = 1; break;
	case 'd': a->co.dup_file = val, a->find_repeats = 1; break;
	case O_DUP_BY:
		if (strcmp(val, "moves") && strcmp(val, "final"))
			cli_misuse("--duplicates-by must be moves or final, not '%s'", val);
		a->co.dup_by = strcmp(val, "final") ? VC_DUP_MOVES : VC_DUP_FINAL;
		break;
	case 'v': a->co.verbose = 1; break;
	case O_PLYCOUNT: a->co.tags |= VC_TAGS_PLYCOUNT; break;
	case O_ROSTER: a->co.tags |= VC_TAGS_ROSTER; break;
	case O_FIX_RESULT: a->co.tags |= VC_TAGS_RESULT; break;
	case O_HASHCODE: a->co.tags |= VC_TAGS_HASHCODE; break;
	case O_DROP_TAGS: a->co.drop_tags = name_list("--drop-tags", val); break;
	case O_KEEP_TAGS: a->co.keep_tags = name_list("--keep-tags", val); break;
	case 'j': a->co.jobs = (int)cli_number_arg("-j", val, 1, 1024); break;
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
	cli_init("vchess-convert");
	a.sel = vc_select_new();
	if (!a.sel) {
		cli_error("out of memory");
		return CLI_TROUBLE;
	}
	vc_convert_opts_init(&a.co);
	a.co.jobs = vc_cpu_count();
	a.co.each = vc_parallel_each;
	a.co.game = on_game;
	a.co.user = &a.progress;
	a.co.select = a.sel;
	int first = cli_options(&tool, argc, argv, option, &a);
	const char **files = (const char **)argv + first;
	int nfiles = argc - first, status = CLI_TROUBLE;
	if (!nfiles) { /* no FILE: standard input, as pgn-extract reads */
		files = stdin_only;
		nfiles = 1;
	}
	if (a.co.split && (!a.co.out || !strcmp(a.co.out, "-")))
		cli_misuse("--split needs -o OUT: the files are named after it");
	if (a.co.dup_by != VC_DUP_NONE && !a.find_repeats)
		cli_misuse("--duplicates-by needs --no-duplicates or --duplicates=FILE");
	if (a.find_repeats && a.co.dup_by == VC_DUP_NONE)
		a.co.dup_by = VC_DUP_MOVES;
	struct vc_ctx *ctx = cli_ctx();
	cli_progress_start(&a.progress, ctx);
	struct vc_convert *cv = vc_convert_new(ctx, &a.co);
	if (cv) {
		for (int i = 0; i < nfiles; i++)
			if (vc_convert_file(cv, files[i]) == VC_FATAL)
				break;
		cli_progress_end(&a.progress);
		struct vc_convert_counts c;
		vc_status s = vc_convert_close(cv, &c);
		if (a.co.add_eco)
			print_eco(c.eco);
		print_broken(&c, &a.co);
		print_work(&c, &a.co);
		if (!c.selected && a.selects)
			fprintf(stderr, "%s: note: no game matches --select\n", cli_prog);
		status = s != VC_OK ? CLI_TROUBLE : c.broken ? CLI_BAD_INPUT : CLI_OK;
	}
	vc_ctx_free(ctx);
	vc_select_free(a.sel);
	return status;
}
