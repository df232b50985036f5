/*
 * archive/stats.c - statistics of archives, per variant: games, results,
 * how the decisive games ended, plies (mean, median, maximum) and the
 * openings named by the games' tags (vchess-validate(1) --stats).
 *
 * Model: statistics are a sum, like summaries (summary.c): games are added
 * one at a time after their replay, and the statistics of pieces of an
 * archive add up, in memory (vc_stats_merge) or through the tab-separated
 * form they are written in and read back, to those of the whole.  So that
 * a median adds up too, plies are kept as a histogram: a count for each
 * number of plies below VC_STATS_HIST, and for longer games their count,
 * sum and maximum; memory is bounded by the variants and the distinct
 * openings met, not by the games.  Variants are kept in the order met.
 *
 * How a decisive game ended: the final position first (checkmate, or the
 * variant's own end by rule), then its Termination tag (time, a
 * resignation: lichess writes "Normal" for a game that ended on the board
 * or by resignation, so "Normal" with a board that goes on is one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/vc_archive.h"

#define VC_STATS_HIST 4096 /* plies counted one by one below this */

static const char *const result_names[VC_STATS_NRESULTS] = { "1-0", "0-1", "1/2-1/2", "*", "none" };
/* (the names of endings, not diagnostic codes: tests/scripts/diag-codes.sh
 * skips the lines that say so) */
static const char *const end_names[VC_STATS_NENDS] = {
	"mate",        "stalemate", "no-pieces", "royal-lost", "checks",  "region", /* not codes */
	"resignation", "time",      "abandoned", "other",      "unknown",
};

struct opening {
	char *key; /* "ECO\tname" */
	long n;
};

struct var {
	char *name;
	long games, results[VC_STATS_NRESULTS], ends[VC_STATS_NENDS];
	long plies, over, over_sum, max;
	long *hist; /* [VC_STATS_HIST], made at the first game */
	struct opening *op;
	size_t nop, opmask; /* open addressing; opmask + 1 slots */
	long classified;
};

struct vc_stats {
	struct var *v;
	size_t nv, cap;
};

struct vc_stats *vc_stats_new(void)
{
	return vc_calloc(1, sizeof(struct vc_stats));
}

void vc_stats_free(struct vc_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nv; i++) {
		struct var *v = &s->v[i];
		free(v->name);
		free(v->hist);
		for (size_t k = 0; v->op && k <= v->opmask; k++)
			free(v->op[k].key);
		free(v->op);
	}
	free(s->v);
	free(s);
}

/* The line of a variant, made when first met; NULL when out of memory. */
static struct var *var_of(struct vc_stats *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->nv; i++)
		if (!strncmp(s->v[i].name, name, len) && !s->v[i].name[len])
			return &s->v[i];
	if (s->nv == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 8;
		struct var *nv = realloc(s->v, nc * sizeof *nv);
		if (!nv)
			return NULL;
		s->v = nv;
		s->cap = nc;
	}
	struct var *v = &s->v[s->nv];
	memset(v, 0, sizeof *v);
	v->hist = calloc(VC_STATS_HIST, sizeof *v->hist);
	if (!v->hist || !(v->name = vc_strndup(name, len))) {
		free(v->hist);
		return NULL;
	}
	s->nv++;
	return v;
}

static size_t str_hash(const char *s, size_t len)
{
	size_t h = 14695981039346656037ULL & SIZE_MAX;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* Adds n games to the opening of key (len bytes); -1 when out of memory. */
static int opening_add(struct var *v, const char *key, size_t len, long n)
{
	if (!v->op || 2 * (v->nop + 1) > v->opmask + 1) {
		size_t ns = v->op ? 2 * (v->opmask + 1) : 64;
		struct opening *no = calloc(ns, sizeof *no);
		if (!no)
			return -1;
		for (size_t k = 0; v->op && k <= v->opmask; k++)
			if (v->op[k].key) {
				size_t j = str_hash(v->op[k].key, strlen(v->op[k].key)) & (ns - 1);
				while (no[j].key)
					j = (j + 1) & (ns - 1);
				no[j] = v->op[k];
			}
		free(v->op);
		v->op = no;
		v->opmask = ns - 1;
	}
	size_t j = str_hash(key, len) & v->opmask;
	for (; v->op[j].key; j = (j + 1) & v->opmask)
		if (!strncmp(v->op[j].key, key, len) && !v->op[j].key[len]) {
			v->op[j].n += n;
			return 0;
		}
	if (!(v->op[j].key = vc_strndup(key, len)))
		return -1;
	v->op[j].n = n;
	v->nop++;
	return 0;
}

static void plies_add(struct var *v, long plies, long n)
{
	v->plies += plies * n;
	if (plies < VC_STATS_HIST) {
		v->hist[plies] += n;
	} else {
		v->over += n;
		v->over_sum += plies * n;
	}
	if (plies > v->max)
		v->max = plies;
}

static int result_of(const struct vc_game *g)
{
	const char *r = vc_game_result(g);
	if (!r)
		r = vc_game_tag(g, "Result");
	for (int i = 0; r && i < VC_STATS_NONE; i++)
		if (!strcmp(r, result_names[i]))
			return i;
	return VC_STATS_NONE;
}

/* Does s hold word, without regard to case? */
static int holds(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return 1;
	return 0;
}

/* How a decisive game ended: its final position, else its Termination tag. */
static int end_of(const struct vc_game *g, enum vc_end_rule rule)
{
	if (rule != VC_END_NONE)
		return rule - VC_END_CHECKMATE + VC_STATS_MATE;
	const char *t = vc_game_tag(g, "Termination");
	if (!t)
		return VC_STATS_UNKNOWN;
	if (holds(t, "time"))
		return VC_STATS_TIME;
	if (holds(t, "resign") || !strcasecmp(t, "normal"))
		return VC_STATS_RESIGNATION;
	if (holds(t, "abandon"))
		return VC_STATS_ABANDONED;
	return VC_STATS_OTHER;
}

/* A tag's value, or NULL when the game has none, or "?" or "" (which
 * lichess writes for the games it does not name). */
static const char *tag_of(const struct vc_game *g, const char *name)
{
	const char *t = vc_game_tag(g, name);
	return t && *t && strcmp(t, "?") ? t : NULL;
}

int vc_stats_add(struct vc_stats *s, const struct vc_game *g, const struct vc_game_stats *st)
{
	const char *name = st->variant                 ? st->variant
			   : vc_game_is_garbage(g)     ? NULL
			   : vc_game_tag(g, "Variant") ? vc_game_tag(g, "Variant")
						       : "(unknown)";
	if (!name)
		return 0; /* text that is no game: summaries count it */
	struct var *v = var_of(s, name, strlen(name));
	if (!v)
		return -1;
	v->games++;
	int r = result_of(g);
	v->results[r]++;
	if (r == VC_STATS_WHITE || r == VC_STATS_BLACK)
		v->ends[end_of(g, st->end)]++;
	plies_add(v, st->plies, 1);
	const char *eco = tag_of(g, "ECO"), *op = tag_of(g, "Opening");
	if (!eco && !op)
		return 0;
	char key[256];
	int n = snprintf(key, sizeof key, "%s\t%s", eco ? eco : "?", op ? op : "?");
	size_t len = n < (int)sizeof key ? (size_t)n : sizeof key - 1;
	for (size_t i = 0; i < len; i++)
		if (key[i] == '\t' && i != strcspn(key, "\t"))
			key[i] = ' '; /* a tab inside a value would split the line */
	v->classified++;
	return opening_add(v, key, len, 1);
}

int vc_stats_merge(struct vc_stats *s, const struct vc_stats *from)
{
	for (size_t i = 0; i < from->nv; i++) {
		const struct var *f = &from->v[i];
		struct var *v = var_of(s, f->name, strlen(f->name));
		if (!v)
			return -1;
		v->games += f->games;
		for (int k = 0; k < VC_STATS_NRESULTS; k++)
			v->results[k] += f->results[k];
		for (int k = 0; k < VC_STATS_NENDS; k++)
			v->ends[k] += f->ends[k];
		v->plies += f->plies;
		v->over += f->over;
		v->over_sum += f->over_sum;
		if (f->max > v->max)
			v->max = f->max;
		for (int k = 0; k < VC_STATS_HIST; k++)
			v->hist[k] += f->hist[k];
		v->classified += f->classified;
		for (size_t k = 0; f->op && k <= f->opmask; k++)
			if (f->op[k].key &&
			    opening_add(v, f->op[k].key, strlen(f->op[k].key), f->op[k].n) < 0)
				return -1;
	}
	return 0;
}

/* The median of the plies: the lower middle game's; -1 when it is one of
 * the games of VC_STATS_HIST plies or more (only their count is kept). */
static long median_of(const struct var *v)
{
	long want = (v->games - 1) / 2, seen = 0;
	for (long k = 0; k < VC_STATS_HIST; k++) {
		seen += v->hist[k];
		if (seen > want)
			return k;
	}
	return -1;
}

size_t vc_stats_variant_count(const struct vc_stats *s)
{
	return s->nv;
}

int vc_stats_variant_at(const struct vc_stats *s, size_t i, struct vc_stats_figures *f)
{
	if (i >= s->nv)
		return -1;
	const struct var *v = &s->v[i];
	memset(f, 0, sizeof *f);
	f->name = v->name;
	f->games = v->games;
	memcpy(f->results, v->results, sizeof f->results);
	memcpy(f->ends, v->ends, sizeof f->ends);
	f->plies = v->plies;
	f->max_plies = v->max;
	f->median_plies = v->games ? median_of(v) : 0;
	f->classified = v->classified;
	f->openings = (long)v->nop;
	return 0;
}

const char *vc_stats_result_name(int i)
{
	return i >= 0 && i < VC_STATS_NRESULTS ? result_names[i] : NULL;
}

const char *vc_stats_end_name(int i)
{
	return i >= 0 && i < VC_STATS_NENDS ? end_names[i] : NULL;
}

/* ---- writing ---- */

static int by_count(const void *a, const void *b)
{
	const struct opening *x = *(const struct opening *const *)a,
			     *y = *(const struct opening *const *)b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The openings of v, most games first (ties by name); NULL when there are
 * none or memory ran out (*oom set). */
static const struct opening **sorted_openings(const struct var *v, int *oom)
{
	if (!v->nop)
		return NULL;
	const struct opening **o = malloc(v->nop * sizeof *o);
	if (!o) {
		*oom = 1;
		return NULL;
	}
	size_t n = 0;
	for (size_t k = 0; k <= v->opmask; k++)
		if (v->op[k].key)
			o[n++] = &v->op[k];
	qsort(o, n, sizeof *o, by_count);
	return o;
}

static void write_tsv(const struct var *v, struct vc_sink *out, const struct opening **o)
{
	vc_sink_printf(out, "stats\t%s\tgames\t%ld\n", v->name, v->games);
	for (int k = 0; k < VC_STATS_NRESULTS; k++)
		if (v->results[k])
			vc_sink_printf(out, "stats\t%s\tresult\t%s\t%ld\n", v->name,
				       result_names[k], v->results[k]);
	for (int k = 0; k < VC_STATS_NENDS; k++)
		if (v->ends[k])
			vc_sink_printf(out, "stats\t%s\tend\t%s\t%ld\n", v->name, end_names[k],
				       v->ends[k]);
	vc_sink_printf(out, "stats\t%s\tplies-max\t%ld\n", v->name, v->max);
	if (v->over)
		vc_sink_printf(out, "stats\t%s\tplies-over\t%ld\t%ld\n", v->name, v->over,
			       v->over_sum);
	for (long k = 0; k < VC_STATS_HIST; k++)
		if (v->hist[k])
			vc_sink_printf(out, "stats\t%s\tplies\t%ld\t%ld\n", v->name, k, v->hist[k]);
	for (size_t k = 0; k < v->nop; k++)
		vc_sink_printf(out, "stats\t%s\topening\t%s\t%ld\n", v->name, o[k]->key, o[k]->n);
}

/* n of total as "what n (p%)", after a comma but for the first. */
static void count_pct(struct vc_sink *out, int *first, const char *what, long n, long total)
{
	vc_sink_printf(out, "%s %s %ld (%.1f%%)", *first ? "" : ",", what, n,
		       total ? 100.0 * (double)n / (double)total : 0.0);
	*first = 0;
}

static void write_text(const struct var *v, struct vc_sink *out, const struct opening **o, int top)
{
	long decisive = v->results[VC_STATS_WHITE] + v->results[VC_STATS_BLACK];
	int first = 1;
	vc_sink_printf(out, "stats %s: games %ld\n  results:", v->name, v->games);
	for (int k = 0; k < VC_STATS_NRESULTS; k++)
		if (v->results[k] || k < VC_STATS_NONE)
			count_pct(out, &first, result_names[k], v->results[k], v->games);
	vc_sink_printf(out, "\n  decisive games %ld%s", decisive, decisive ? ":" : "");
	first = 1;
	for (int k = 0; k < VC_STATS_NENDS; k++)
		if (v->ends[k])
			count_pct(out, &first, end_names[k], v->ends[k], decisive);
	long med = v->games ? median_of(v) : 0;
	vc_sink_printf(out, "\n  plies: mean %.1f, median ",
		       v->games ? (double)v->plies / (double)v->games : 0.0);
	if (med >= 0)
		vc_sink_printf(out, "%ld", med);
	else
		vc_sink_printf(out, "%d or more", VC_STATS_HIST);
	vc_sink_printf(out, ", max %ld\n", v->max);
	vc_sink_printf(out, "  openings: %ld games name one (%zu different)", v->classified,
		       v->nop);
	if (top > 0 && v->nop)
		vc_sink_printf(out, "; the most common:");
	vc_sink_puts(out, "\n");
	for (size_t k = 0; k < v->nop && (long)k < top; k++) {
		const char *tab = strchr(o[k]->key, '\t');
		vc_sink_printf(out, "    %6ld  %.*s %s\n", o[k]->n, (int)(tab - o[k]->key),
			       o[k]->key, tab + 1);
	}
}

int vc_stats_write(const struct vc_stats *s, struct vc_sink *out, int tsv, int top)
{
	int oom = 0;
	for (size_t i = 0; i < s->nv && !oom; i++) {
		const struct opening **o = sorted_openings(&s->v[i], &oom);
		if (tsv)
			write_tsv(&s->v[i], out, o);
		else
			write_text(&s->v[i], out, o, top);
		free(o);
	}
	return oom || vc_sink_failed(out) ? -1 : 0;
}

/* ---- reading the tab-separated form back ---- */

/* A whole number of the len bytes at p: 0, or -1 when it is none. */
static int number(const char *p, size_t len, long *out)
{
	char b[32], *end;
	if (len == 0 || len >= sizeof b)
		return -1;
	memcpy(b, p, len);
	b[len] = '\0';
	errno = 0;
	*out = strtol(b, &end, 10);
	return end == b || *end || errno || *out < 0 ? -1 : 0;
}

static int name_index(const char *const *names, int n, const char *p, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], p, len))
			return i;
	return -1;
}

/* One "stats" line, split at its tabs into f[0..n): 0, 1 when it does not
 * read, -1 when out of memory.  A line is read whole before its variant
 * is made, so that one that does not read adds nothing. */
static int read_fields(struct vc_stats *s, const char **f, const size_t *fl, int n)
{
	enum { GAMES, MAX, RESULT, END, PLIES, OVER, OPENING } what;
	long a, b = 0;
	int i = 0;
	const char *k = f[2];
	size_t kl = fl[2];
	if (n < 4 || fl[1] == 0 || number(f[n - 1], fl[n - 1], &a) < 0)
		return 1;
#define KEY(s) (kl == sizeof s - 1 && !memcmp(k, s, kl))
	if (n == 4 && KEY("games"))
		what = GAMES;
	else if (n == 4 && KEY("plies-max"))
		what = MAX;
	else if (n == 5 && KEY("result") &&
		 (i = name_index(result_names, VC_STATS_NRESULTS, f[3], fl[3])) >= 0)
		what = RESULT;
	else if (n == 5 && KEY("end") &&
		 (i = name_index(end_names, VC_STATS_NENDS, f[3], fl[3])) >= 0)
		what = END;
	else if (n == 5 && KEY("plies") && number(f[3], fl[3], &b) == 0 && b < VC_STATS_HIST)
		what = PLIES;
	else if (n == 5 && KEY("plies-over") && number(f[3], fl[3], &b) == 0)
		what = OVER;
	else if (n == 6 && KEY("opening"))
		what = OPENING;
	else
		return 1;
#undef KEY
	struct var *v = var_of(s, f[1], fl[1]);
	if (!v)
		return -1;
	switch (what) {
	case GAMES:
		v->games += a;
		break;
	case MAX:
		v->max = a > v->max ? a : v->max;
		break;
	case RESULT:
		v->results[i] += a;
		break;
	case END:
		v->ends[i] += a;
		break;
	case PLIES:
		v->hist[b] += a;
		v->plies += a * b;
		break;
	case OVER:
		v->over += b;
		v->over_sum += a;
		v->plies += a;
		break;
	case OPENING:
		v->classified += a;
		return opening_add(v, f[3], fl[3] + 1 + fl[4], a);
	}
	return 0;
}

vc_status vc_stats_read_tsv(struct vc_stats *s, struct vc_ctx *ctx, const char *name,
			    const char *text, size_t len)
{
	vc_status st = VC_OK;
	for (long ln = 1; len > 0; ln++) {
		const char *nl = memchr(text, '\n', len);
		size_t k = nl ? (size_t)(nl - text) : len, use = k;
		if (use && text[use - 1] == '\r')
			use--;
		if (use > 6 && !memcmp(text, "stats\t", 6)) {
			const char *f[6];
			size_t fl[6];
			int n = 0;
			for (const char *p = text, *e = text + use; n < 6; n++) {
				const char *tab = memchr(p, '\t', (size_t)(e - p));
				f[n] = p;
				fl[n] = (size_t)((tab ? tab : e) - p);
				if (!tab) {
					n++;
					break;
				}
				p = tab + 1;
			}
			int rc = memchr(f[n - 1], '\t', fl[n - 1]) ||
						 (n == 6 && f[5] + fl[5] < text + use)
					 ? 1
					 : read_fields(s, f, fl, n);
			if (rc < 0) {
				vc_emit(ctx, VC_SEV_ERROR, "oom", name, ln, 0, NULL,
					"out of memory");
				return VC_FATAL;
			}
			if (rc > 0) {
				vc_emit(ctx, VC_SEV_ERROR, "summary-line", name, ln, 0, NULL,
					"not a statistics line: '%.*s'", (int)use, text);
				st = VC_FAILED;
			}
		}
		text += nl ? k + 1 : k;
		len -= nl ? k + 1 : k;
	}
	return st;
}
