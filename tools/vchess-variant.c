/*
 * vchess-variant - lists the built-in variants, checks variant files, and
 * draws a piece's moves on an empty board.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-variant list\n"
	"       vchess-variant check [FILE]...\n"
	"       vchess-variant moves [--board WxH] [--at SQUARE] VARIANT-OR-FILE PIECE\n";

enum { O_BOARD = 256, O_AT };

static const struct cli_opt opts[] = {
	{ O_BOARD, "board", "WxH", "moves: draw on a board of W files and H ranks" },
	{ O_AT, "at", "SQUARE", "moves: put the piece there (default: the middle)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_tool tool = {
	usage,
	"Lists the built-in chess variants, checks variant files (vchess-variant(5))\n"
	"and draws a piece's moves on an empty board.",
	opts,
	"vchess-variant moves io-chess griffin --at e4   # where a griffin goes",
	"check: with no FILE, or when FILE is -, reads standard input.\n"
	"Exit status: 0 success, 1 a file that does not load, 2 usage, I/O trouble or,\n"
	"for moves, a variant, piece, board or square that is not there.\n",
};

struct args {
	const char *board, *at;
};

static void option(int key, const char *val, void *user)
{
	struct args *a = user;
	if (key == O_BOARD)
		a->board = val;
	else if (key == O_AT)
		a->at = val;
}

static int cmd_list(void)
{
	int n = vc_builtin_count();
	for (int i = 0; i < n; i++) {
		const char *name = vc_builtin_name(i);
		char copy[64];
		snprintf(copy, sizeof copy, "%s", name ? name : "?");
		printf("%-20s %s\n", copy, vc_builtin_title(i));
	}
	return CLI_OK;
}

static int cmd_check(int argc, char **argv)
{
	static char *stdin_only[] = { "-" };
	int rc = CLI_OK;
	if (argc < 1) { /* no FILE: standard input */
		argv = stdin_only;
		argc = 1;
	}
	for (int i = 0; i < argc; i++) {
		struct vc_ctx *ctx = cli_ctx();
		struct vc_variant *v = vc_variant_load_file(ctx, argv[i]);
		if (!v) {
			/* unreadable is trouble (2), a bad file is bad input (1) */
			if (vc_ctx_count(ctx, VC_SEV_ERROR) == 1 &&
			    strstr(vc_ctx_last_message(ctx), "cannot open"))
				rc = CLI_TROUBLE;
			else if (rc != CLI_TROUBLE)
				rc = CLI_BAD_INPUT;
		} else {
			printf("%s: %s: %dx%d, %d pieces\n", strcmp(argv[i], "-") ? argv[i] : "<stdin>",
			       vc_variant_name(v),
			       vc_variant_files(v), vc_variant_ranks(v), vc_variant_piece_count(v));
		}
		vc_variant_free(v);
		vc_ctx_free(ctx);
	}
	return rc;
}

/* a square on a board of the given size: file letter, rank number */
static int parse_square(const char *s, int files, int ranks)
{
	if (!s || !islower((unsigned char)s[0]) || !isdigit((unsigned char)s[1]))
		return -1;
	int f = s[0] - 'a';
	long r = cli_number(s + 1);
	if (f >= files || r < 1 || r > ranks)
		return -1;
	return (int)(r - 1) * files + f;
}

static int cmd_moves(int argc, char **argv, const char *board, const char *at)
{
	if (argc != 2)
		cli_misuse("moves needs a VARIANT-OR-FILE and a PIECE");
	const char *vname = argv[0], *piece = argv[1];
	struct vc_ctx *ctx = cli_ctx();
	struct vc_variant *v = vc_variant_load(ctx, vname);
	int rc = CLI_OK;
	if (!v) {
		vc_ctx_free(ctx);
		return CLI_TROUBLE;
	}
	int files = vc_variant_files(v), ranks = vc_variant_ranks(v);
	if (board) {
		int w, h;
		char x;
		if (sscanf(board, "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X') || w < 1 ||
		    h < 1 || w > 26 || h > 26) {
			cli_error("--board must be WxH with sides from 1 to 26, not '%s'", board);
			rc = CLI_TROUBLE;
			goto out;
		}
		files = w;
		ranks = h;
	}
	int t = vc_variant_piece_find(v, piece);
	if (t < 0) {
		cli_error("variant '%s' has no piece '%s'", vc_variant_name(v), piece);
		rc = CLI_TROUBLE;
		goto out;
	}
	/* on the variant's own board, a square in any notation it reads (7f in
	 * shogi); on another, a file letter and a rank number */
	int sq = !at	? ((ranks - 1) / 2) * files + (files - 1) / 2
		 : board ? parse_square(at, files, ranks)
			 : vc_square_read(v, at);
	if (sq < 0) {
		cli_error("'%s' is not a square of a %dx%d board", at, files, ranks);
		rc = CLI_TROUBLE;
		goto out;
	}
	char *d = vc_piece_diagram(ctx, v, t, files, ranks, sq);
	if (!d)
		rc = CLI_TROUBLE;
	else
		fputs(d, stdout);
	free(d);
out:
	vc_variant_free(v);
	vc_ctx_free(ctx);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { NULL, NULL };
	cli_init("vchess-variant");
	int first = cli_options(&tool, argc, argv, option, &a);
	const char *cmd = first < argc ? argv[first] : NULL;
	int n = argc - first - 1;
	if (!cmd)
		cli_misuse("a command is needed: list, check or moves");
	if (strcmp(cmd, "moves") && (a.board || a.at))
		cli_misuse("--board and --at go with moves");
	if (!strcmp(cmd, "list")) {
		if (n)
			cli_misuse("list takes no operand: '%s'", argv[first + 1]);
		return cmd_list();
	}
	if (!strcmp(cmd, "check"))
		return cmd_check(n, argv + first + 1);
	if (!strcmp(cmd, "moves"))
		return cmd_moves(n, argv + first + 1, a.board, a.at);
	cli_misuse("unknown command '%s' (list, check or moves)", cmd);
}
