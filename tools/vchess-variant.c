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
	"       vchess-variant check FILE...\n"
	"       vchess-variant moves VARIANT-OR-FILE PIECE [--board WxH] [--at SQUARE]\n";

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
	int rc = CLI_OK;
	if (argc < 1)
		cli_usage(usage, 1);
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
			printf("%s: %s: %dx%d, %d pieces\n", argv[i], vc_variant_name(v),
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

static int cmd_moves(int argc, char **argv)
{
	const char *vname = NULL, *piece = NULL, *board = NULL, *at = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc)
			board = argv[++i];
		else if (!strcmp(argv[i], "--at") && i + 1 < argc)
			at = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("unknown argument '%s'", argv[i]);
			cli_usage(usage, 1);
		} else if (!vname)
			vname = argv[i];
		else if (!piece)
			piece = argv[i];
		else
			cli_usage(usage, 1);
	}
	if (!vname || !piece)
		cli_usage(usage, 1);
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
	int sq = at ? parse_square(at, files, ranks) : ((ranks - 1) / 2) * files + (files - 1) / 2;
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
	cli_init("vchess-variant");
	if (argc < 2)
		cli_usage(usage, 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cli_usage(usage, 0);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		cli_version();
		return CLI_OK;
	}
	if (!strcmp(argv[1], "list")) {
		if (argc != 2)
			cli_usage(usage, 1);
		return cmd_list();
	}
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (!strcmp(argv[1], "moves"))
		return cmd_moves(argc - 2, argv + 2);
	cli_error("unknown command '%s'", argv[1]);
	cli_usage(usage, 1);
	return CLI_TROUBLE;
}
