/*
 * archive/summary.c - the counts of a run over archives: games, valid and
 * invalid ones, plies, and the same per variant (vchess-validate(1)
 * SUMMARY).
 *
 * Model: a summary is a sum.  Games are added one at a time as they are
 * validated; summaries of pieces of an archive, made by other processes
 * or machines, are added to each other (vc_summary_merge), or read back
 * from the tab-separated form one writes, so that the sum of the pieces
 * is the summary of the whole.  Variants are kept in the order met, which
 * a sum of pieces taken in order keeps too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"

struct vc_summary {
	struct vc_summary_totals t;
	struct vc_summary_variant *pv; /* names malloc'd */
	size_t npv, cap;
};

struct vc_summary *vc_summary_new(void)
{
	return vc_calloc(1, sizeof(struct vc_summary));
}

void vc_summary_free(struct vc_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->npv; i++)
		free((char *)s->pv[i].name);
	free(s->pv);
	free(s);
}

/* The line of a variant, made when first met; NULL when out of memory. */
static struct vc_summary_variant *variant_line(struct vc_summary *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->npv; i++)
		if (!strncmp(s->pv[i].name, name, len) && !s->pv[i].name[len])
			return &s->pv[i];
	if (s->npv == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 16;
		struct vc_summary_variant *np = realloc(s->pv, nc * sizeof *np);
		if (!np)
			return NULL;
		s->pv = np;
		s->cap = nc;
	}
	struct vc_summary_variant *v = &s->pv[s->npv];
	memset(v, 0, sizeof *v);
	if (!(v->name = vc_strndup(name, len)))
		return NULL;
	s->npv++;
	return v;
}

int vc_summary_add(struct vc_summary *s, const struct vc_game *g, const struct vc_game_stats *st)
{
	s->t.games++;
	if (st->valid)
		s->t.valid++;
	else
		s->t.invalid++;
	if (st->unknown_variant)
		s->t.unknown_variant++;
	s->t.plies += st->plies;
	s->t.var_plies += st->var_plies;
	const char *name = st->variant             ? st->variant
			   : vc_game_is_garbage(g) ? "(not a game)"
						   : "(unknown)";
	struct vc_summary_variant *v = variant_line(s, name, strlen(name));
	if (!v)
		return -1;
	v->games++;
	v->valid += st->valid;
	v->plies += st->plies;
	return 0;
}

int vc_summary_merge(struct vc_summary *s, const struct vc_summary *from)
{
	s->t.games += from->t.games;
	s->t.valid += from->t.valid;
	s->t.invalid += from->t.invalid;
	s->t.unknown_variant += from->t.unknown_variant;
	s->t.plies += from->t.plies;
	s->t.var_plies += from->t.var_plies;
	for (size_t i = 0; i < from->npv; i++) {
		const struct vc_summary_variant *f = &from->pv[i];
		struct vc_summary_variant *v = variant_line(s, f->name, strlen(f->name));
		if (!v)
			return -1;
		v->games += f->games;
		v->valid += f->valid;
		v->plies += f->plies;
	}
	return 0;
}

const struct vc_summary_totals *vc_summary_totals(const struct vc_summary *s)
{
	return &s->t;
}

size_t vc_summary_variant_count(const struct vc_summary *s)
{
	return s->npv;
}

const struct vc_summary_variant *vc_summary_variant_at(const struct vc_summary *s, size_t i)
{
	return i < s->npv ? &s->pv[i] : NULL;
}

int vc_summary_write(const struct vc_summary *s, struct vc_sink *out, int tsv)
{
	const struct vc_summary_totals *t = &s->t;
	if (tsv) {
		vc_sink_printf(out,
			       "games\t%ld\nvalid\t%ld\ninvalid\t%ld\nplies\t%ld\n"
			       "variation-plies\t%ld\nunknown-variant\t%ld\n",
			       t->games, t->valid, t->invalid, t->plies, t->var_plies,
			       t->unknown_variant);
		for (size_t i = 0; i < s->npv; i++)
			vc_sink_printf(out, "variant\t%s\t%ld\t%ld\t%ld\n", s->pv[i].name,
				       s->pv[i].games, s->pv[i].valid, s->pv[i].plies);
		return vc_sink_failed(out) ? -1 : 0;
	}
	vc_sink_printf(out, "games %ld\nvalid %ld\ninvalid %ld\nplies %ld\nvariation-plies %ld\n",
		       t->games, t->valid, t->invalid, t->plies, t->var_plies);
	if (t->unknown_variant)
		vc_sink_printf(out, "unknown-variant %ld\n", t->unknown_variant);
	for (size_t i = 0; i < s->npv; i++)
		vc_sink_printf(out, "variant %s: games %ld valid %ld plies %ld\n", s->pv[i].name,
			       s->pv[i].games, s->pv[i].valid, s->pv[i].plies);
	return vc_sink_failed(out) ? -1 : 0;
}

/* ---- reading the tab-separated form back ---- */

/* Splits a line at its tabs: up to max fields; returns how many. */
static int split_tabs(const char *p, size_t len, const char **f, size_t *flen, int max)
{
	int n = 0;
	for (;;) {
		const char *tab = memchr(p, '\t', len);
		size_t k = tab ? (size_t)(tab - p) : len;
		if (n == max)
			return max + 1;
		f[n] = p;
		flen[n++] = k;
		if (!tab)
			return n;
		p += k + 1;
		len -= k + 1;
	}
}

/* A whole number in the len bytes at p (blanks around it allowed); 0, or
 * -1 when it is none. */
static int field_number(const char *p, size_t len, long *out)
{
	char b[32], *end;
	if (len == 0 || len >= sizeof b)
		return -1;
	memcpy(b, p, len);
	b[len] = '\0';
	errno = 0;
	*out = strtol(b, &end, 10);
	while (*end == ' ')
		end++;
	return end == b || *end || errno ? -1 : 0;
}

/* The counter a key names, or NULL. */
static long *total_of(struct vc_summary_totals *t, const char *key, size_t len)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "games", offsetof(struct vc_summary_totals, games) },
		{ "valid", offsetof(struct vc_summary_totals, valid) },
		{ "invalid", offsetof(struct vc_summary_totals, invalid) },
		{ "plies", offsetof(struct vc_summary_totals, plies) },
		{ "variation-plies", offsetof(struct vc_summary_totals, var_plies) },
		{ "unknown-variant", offsetof(struct vc_summary_totals, unknown_variant) },
	};
	for (size_t i = 0; i < VC_NELEM(keys); i++)
		if (strlen(keys[i].key) == len && !memcmp(keys[i].key, key, len))
			return (long *)((char *)t + keys[i].off);
	return NULL;
}

/* Adds one line; 1 when it is not a summary line, 2 when its key is not
 * known, -1 when out of memory. */
static int read_line(struct vc_summary *s, const char *p, size_t len)
{
	const char *f[5];
	size_t fl[5];
	long a, b, c;
	int n = split_tabs(p, len, f, fl, 5);
	if (n == 5 && fl[0] == 7 && !memcmp(f[0], "variant", 7) && fl[1] > 0 &&
	    field_number(f[2], fl[2], &a) == 0 && field_number(f[3], fl[3], &b) == 0 &&
	    field_number(f[4], fl[4], &c) == 0) {
		struct vc_summary_variant *v = variant_line(s, f[1], fl[1]);
		if (!v)
			return -1;
		v->games += a;
		v->valid += b;
		v->plies += c;
		return 0;
	}
	if (n != 2 || fl[0] == 0 || field_number(f[1], fl[1], &a) < 0)
		return 1;
	long *dst = total_of(&s->t, f[0], fl[0]);
	if (!dst)
		return 2;
	*dst += a;
	return 0;
}

vc_status vc_summary_read_tsv(struct vc_summary *s, struct vc_ctx *ctx, const char *name,
			      const char *text, size_t len)
{
	vc_status st = VC_OK;
	long ln = 0;
	while (len > 0) {
		const char *nl = memchr(text, '\n', len);
		size_t k = nl ? (size_t)(nl - text) : len, use = k;
		const char *cr = memchr(text, '\r', k);
		if (cr)
			use = (size_t)(cr - text);
		ln++;
		/* statistics lines are vc_stats_read_tsv's (stats.c) */
		int stats = use > 6 && !memcmp(text, "stats\t", 6);
		int rc = use && !stats ? read_line(s, text, use) : 0;
		if (rc < 0) {
			vc_emit(ctx, VC_SEV_ERROR, "oom", name, ln, 0, NULL, "out of memory");
			return VC_FATAL;
		}
		if (rc > 0) {
			vc_emit(ctx, VC_SEV_ERROR, "summary-line", name, ln, 0, NULL,
				rc == 2 ? "unknown summary line '%.*s'"
					: "not a summary line: '%.*s'",
				(int)use, text);
			st = VC_FAILED;
		}
		text += nl ? k + 1 : k;
		len -= nl ? k + 1 : k;
	}
	return st;
}
