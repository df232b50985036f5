/*
 * t_stats.c - statistics (archive/stats.c): results and endings counted,
 * the median of plies from the histogram, long games beyond it, and the
 * tab-separated form read back to the same figures.
 */
#include <string.h>

#include "vchess.h"
#include "vt.h"

/* Adds a game of these tags, as if replayed to plies with end e. */
static void add(struct vc_stats *s, const char *text, long plies, enum vc_end_rule e)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_reader *r = vc_reader_mem(ctx, "t", text, strlen(text), NULL);
	struct vc_game *g = vc_game_new();
	struct vc_game_stats st;
	memset(&st, 0, sizeof st);
	st.variant = "chess";
	st.plies = plies;
	st.end = e;
	st.valid = 1;
	VT_CHECK(vc_reader_next(r, g) == VC_OK);
	VT_EQ_INT(vc_stats_add(s, g, &st), 0);
	vc_game_free(g);
	vc_reader_close(r);
	vc_ctx_free(ctx);
}

static void fill(struct vc_stats *s)
{
	/* the result of the movetext, as the validator reads it first */
	add(s, "[Result \"1-0\"]\n\n1-0", 40, VC_END_CHECKMATE);
	add(s, "[Termination \"Time forfeit\"]\n\n0-1", 60, VC_END_NONE);
	add(s, "[Termination \"Normal\"]\n[ECO \"B10\"]\n\n1-0", 10, VC_END_NONE);
	add(s, "[ECO \"B10\"]\n[Opening \"Caro-Kann\"]\n\n1/2-1/2", 5000, VC_END_NONE);
	add(s, "[ECO \"?\"]\n[Opening \"?\"]\n\n0-1", 6000, VC_END_NONE);
}

static void check_figures(const struct vc_stats *s)
{
	struct vc_stats_figures f;
	VT_EQ_INT(vc_stats_variant_count(s), 1);
	VT_EQ_INT(vc_stats_variant_at(s, 0, &f), 0);
	VT_EQ_STR(f.name, "chess");
	VT_EQ_INT(f.games, 5);
	VT_EQ_INT(f.results[VC_STATS_WHITE], 2);
	VT_EQ_INT(f.results[VC_STATS_BLACK], 2);
	VT_EQ_INT(f.results[VC_STATS_DRAW], 1);
	VT_EQ_INT(f.ends[VC_STATS_MATE], 1);
	VT_EQ_INT(f.ends[VC_STATS_TIME], 1);
	VT_EQ_INT(f.ends[VC_STATS_RESIGNATION], 1);
	VT_EQ_INT(f.ends[VC_STATS_UNKNOWN], 1);
	VT_EQ_INT(f.plies, 11110);
	VT_EQ_INT(f.max_plies, 6000);
	VT_EQ_INT(f.median_plies, 60); /* 10 40 60 5000 6000 */
	VT_EQ_INT(f.classified, 2);    /* "?" names nothing */
	VT_EQ_INT(f.openings, 2);
}

VT_TEST(figures)
{
	struct vc_stats *s = vc_stats_new();
	fill(s);
	check_figures(s);
	/* 10 40 60 5000 6000 6000 6000: the median is a game of 4096 plies or more */
	add(s, "0-1", 6000, VC_END_NONE);
	add(s, "0-1", 6000, VC_END_NONE);
	struct vc_stats_figures f;
	vc_stats_variant_at(s, 0, &f);
	VT_EQ_INT(f.median_plies, -1);
	VT_EQ_INT(f.ends[VC_STATS_UNKNOWN], 3);
	vc_stats_free(s);
}

VT_TEST(tsv_round_trip)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_stats *s = vc_stats_new(), *back = vc_stats_new(), *sum = vc_stats_new();
	fill(s);
	struct vc_sink *out = vc_sink_mem(ctx);
	VT_EQ_INT(vc_stats_write(s, out, 1, 0), 0);
	size_t len;
	const char *text = vc_sink_data(out, &len);
	VT_EQ_INT(vc_stats_read_tsv(back, ctx, "t", text, len), VC_OK);
	check_figures(back);
	VT_EQ_INT(vc_stats_merge(sum, back), 0);
	check_figures(sum);
	VT_EQ_INT(vc_stats_read_tsv(back, ctx, "t", "stats\tchess\tend\tnever\t1\n", 24),
		  VC_FAILED);
	vc_sink_close(out);
	vc_stats_free(s);
	vc_stats_free(back);
	vc_stats_free(sum);
	vc_ctx_free(ctx);
}

VT_MAIN(VT_ENTRY(figures), VT_ENTRY(tsv_round_trip))
