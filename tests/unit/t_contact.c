/*
 * t_contact.c - unit tests of what a newcomer meets first: names of
 * variants that are almost right, position strings as other programs
 * write and read them, and move text as real files write it (lenient, and
 * what --strict says of it).
 */
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static const char *first_suggestion(const char *name, int *count)
{
	int near[8];
	*count = vc_builtin_suggest(name, near, 8);
	return *count > 0 ? vc_builtin_name(near[0]) : NULL;
}

VT_TEST(variant_suggestions)
{
	int n;
	VT_EQ_STR(first_suggestion("crazyhose", &n), "crazyhouse");
	VT_EQ_STR(first_suggestion("Standart", &n), "chess"); /* through an alias */
	VT_EQ_STR(first_suggestion("SCHIZO", &n), "schizochess"); /* the start of a name */
	VT_EQ_STR(first_suggestion("sc-chses", &n), "sc-chess"); /* two letters swapped */
	VT_CHECK(first_suggestion("tic-tac-toe", &n) == NULL);
	VT_EQ_INT(n, 0);
	VT_CHECK(first_suggestion("", &n) == NULL);
	VT_CHECK(first_suggestion(NULL, &n) == NULL);
	/* nearest first, then in the built-ins' order; cap respected */
	int near[2];
	VT_EQ_INT(vc_builtin_suggest("sico-16", near, 2), 2);
	VT_EQ_STR(vc_builtin_name(near[0]), "sico-1");
	/* the message says them and where every name is */
	struct vc_ctx *ctx = vc_ctx_new();
	VT_CHECK(vc_variant_load(ctx, "crazyhose") == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx),
		  "unknown variant 'crazyhose' (nearest: crazyhouse; 'vchess-variant list' names "
		  "them all)");
	VT_CHECK(vc_variant_load(ctx, "tic-tac-toe") == NULL);
	VT_EQ_STR(vc_ctx_last_message(ctx),
		  "unknown variant 'tic-tac-toe' ('vchess-variant list' names them all)");
	vc_ctx_free(ctx);
}

VT_MAIN(VT_ENTRY(variant_suggestions))
