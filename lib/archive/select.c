/*
 * archive/select.c - selection expressions: which games of an archive a
 * program takes (vchess-convert(1) --select, SELECTING GAMES).
 *
 * Model: a selection is a list of terms, every one of which must match.
 * A term is about what is known before a game is replayed (a tag, the
 * game's number) or only after (validity, the variant as the replay names
 * it), so that a program drops most games it does not want without
 * replaying them.  A term is read once, into a form that matching needs no
 * more parsing for: a compiled regular expression, a number, the parts of
 * a date.  An expression that does not read says what is wrong and at
 * which character, so that a front end can point at it.
 *
 * Matching only reads the terms, so one selection may be used by several
 * threads at once.
 */
#include <errno.h>
#include <stdarg.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/vc_archive.h"

enum kind { S_EQ, S_RE, S_GE, S_LE, S_GT, S_LT, S_VARIANT, S_GAMES, S_VALID, S_INVALID };

struct term {
	enum kind kind;
	char *tag;   /* tag terms: the tag's name */
	char *value; /* S_EQ: the value; S_VARIANT: the variant's name */
	regex_t re;  /* S_RE */
	int date;    /* comparisons: compare as a date, by the parts in ymd */
	long ymd[3];
	int nymd;
	double num;  /* comparisons that are not about a date */
	long lo, hi; /* S_GAMES: hi -1 when open */
};

struct vc_select {
	struct term *t;
	size_t n, cap;
};

struct vc_select *vc_select_new(void)
{
	return vc_calloc(1, sizeof(struct vc_select));
}

static void term_free(struct term *t)
{
	if (t->kind == S_RE)
		regfree(&t->re);
	free(t->tag);
	free(t->value);
}

void vc_select_free(struct vc_select *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		term_free(&s->t[i]);
	free(s->t);
	free(s);
}

/* ---- reading an expression ---- */

/* Fills err, the fault being at byte at of the expression; returns -1. */
static int fail(struct vc_select_error *err, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct vc_select_error *err, size_t at, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	err->col = at + 1;
	return -1;
}

/* The text at s, quoted for a message: at most 40 bytes of it. */
#define QUOTE(s) (int)(strlen(s) > 40 ? 40 : strlen(s)), (s)

static int is_tag_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '+' || c == '#' || c == ':' || c == '-';
}

/* A whole non-negative number (leading blanks allowed, as strtol does), or
 * -1. */
static long whole_number(const char *s)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (*end || errno)
		return -1;
	return n;
}

/* The same for the len bytes at s; a number of 32 bytes or more is none. */
static long span_number(const char *s, size_t len)
{
	char b[32];
	if (len >= sizeof b)
		return -1;
	memcpy(b, s, len);
	b[len] = '\0';
	return whole_number(b);
}

/* "game=N", "game=N-M", "game=N-", "game=-M" */
static int read_games(struct term *t, const char *expr, struct vc_select_error *err)
{
	const char *p = expr + 5, *dash = strchr(p, '-');
	size_t at = (size_t)(p - expr);
	t->kind = S_GAMES;
	if (!dash) {
		t->lo = t->hi = whole_number(p);
		if (t->lo == 0)
			return fail(err, at, "games are numbered from 1");
		if (t->lo < 0)
			return fail(err, at, "expected a game number or a range N-M, not '%.*s'",
				    QUOTE(p));
		return 0;
	}
	size_t alen = (size_t)(dash - p), blen = strlen(dash + 1);
	t->lo = alen ? span_number(p, alen) : 1;
	t->hi = blen ? span_number(dash + 1, blen) : -1;
	if (t->lo == 0)
		return fail(err, at, "games are numbered from 1");
	if (t->lo < 0)
		return fail(err, at, "expected the number of the range's first game");
	at = (size_t)(dash + 1 - expr);
	if (blen && t->hi < 0)
		return fail(err, at, "expected the number of the range's last game");
	if (blen && t->hi < t->lo)
		return fail(err, at, "the range ends at %ld, before it starts (%ld)", t->hi, t->lo);
	return 0;
}

/* "1990", "1990.07", "1990.07.14": the number of parts, or -1 with *bad
 * at the byte that does not read. */
static int read_date(const char *s, long ymd[3], const char **bad)
{
	int n = 0;
	while (n < 3) {
		char *end;
		if (*s < '0' || *s > '9') {
			*bad = s;
			return -1;
		}
		ymd[n++] = strtol(s, &end, 10);
		s = end;
		if (!*s)
			return n;
		if (*s != '.') {
			*bad = s;
			return -1;
		}
		s++;
	}
	*bad = s - 1;
	return -1;
}

/* A number with blanks around it; 0, or -1 with *bad at the fault. */
static int read_num(const char *s, double *v, const char **bad)
{
	char *end;
	while (*s == ' ')
		s++;
	if (!*s) {
		*bad = s;
		return -1;
	}
	*v = strtod(s, &end);
	if (end == s) {
		*bad = s;
		return -1;
	}
	while (*end == ' ')
		end++;
	*bad = end;
	return *end ? -1 : 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* The operator at op: its kind and length, or 0. */
static size_t read_op(const char *op, enum kind *k)
{
	if ((op[0] == '>' || op[0] == '<') && op[1] == '=') {
		*k = op[0] == '>' ? S_GE : S_LE;
		return 2;
	}
	if (op[0] == '>' || op[0] == '<') {
		*k = op[0] == '>' ? S_GT : S_LT;
		return 1;
	}
	if (op[0] == '=' || op[0] == '~') {
		*k = op[0] == '=' ? S_EQ : S_RE;
		return 1;
	}
	return 0;
}

/* The value of a tag term, from expr[at]. */
static int read_value(struct term *t, const char *expr, size_t at, struct vc_select_error *err)
{
	const char *v = expr + at, *bad;
	if (t->kind == S_EQ)
		return (t->value = vc_strdup(v)) ? 0 : fail(err, at, "out of memory");
	if (t->kind == S_RE) {
		int rc = regcomp(&t->re, v, REG_EXTENDED | REG_NOSUB);
		if (rc == 0)
			return 0;
		char msg[sizeof err->regex];
		regerror(rc, &t->re, msg, sizeof msg);
		t->kind = S_EQ; /* nothing compiled to free */
		if (err)
			snprintf(err->regex, sizeof err->regex, "%s", msg);
		return fail(err, at, "bad regular expression: %s", msg);
	}
	t->date = ends_with(t->tag, "Date");
	if (t->date) {
		t->nymd = read_date(v, t->ymd, &bad);
		if (t->nymd < 1)
			return fail(err, (size_t)(bad - expr),
				    "expected a date YYYY, YYYY.MM or YYYY.MM.DD, not '%.*s'",
				    QUOTE(v));
	} else if (read_num(v, &t->num, &bad) < 0) {
		return fail(err, (size_t)(bad - expr), "expected a number, not '%.*s'", QUOTE(v));
	}
	return 0;
}

/* Reads expr into t; 0, or -1 with err filled. */
static int read_term(struct term *t, const char *expr, struct vc_select_error *err)
{
	memset(t, 0, sizeof *t);
	t->lo = 1;
	t->hi = -1;
	if (!strcmp(expr, "valid") || !strcmp(expr, "invalid")) {
		t->kind = expr[0] == 'v' ? S_VALID : S_INVALID;
		return 0;
	}
	if (!strncmp(expr, "variant=", 8)) {
		const char *canon = vc_builtin_lookup(expr + 8);
		t->kind = S_VARIANT;
		t->value = vc_strdup(canon ? canon : expr + 8);
		return t->value ? 0 : fail(err, 8, "out of memory");
	}
	if (!strncmp(expr, "game=", 5))
		return read_games(t, expr, err);
	size_t k = 0;
	while (is_tag_char(expr[k]))
		k++;
	if (k == 0)
		return fail(err, 0,
			    "expected a tag name, valid, invalid, variant=NAME or game=N-M");
	size_t ol = read_op(expr + k, &t->kind);
	if (ol == 0)
		return fail(err, k, "expected =, ~, >=, <=, > or < after the tag name");
	t->tag = vc_strndup(expr, k);
	if (!t->tag)
		return fail(err, 0, "out of memory");
	return read_value(t, expr, k + ol, err);
}

int vc_select_add(struct vc_select *s, const char *expr, struct vc_select_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!s || !expr)
		return fail(err, 0, "no selection");
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 4;
		struct term *nt = realloc(s->t, nc * sizeof *nt);
		if (!nt)
			return fail(err, 0, "out of memory");
		s->t = nt;
		s->cap = nc;
	}
	struct term *t = &s->t[s->n];
	if (read_term(t, expr, err) < 0) {
		term_free(t);
		return -1;
	}
	s->n++;
	return 0;
}

/* ---- matching ---- */

/* Compares a tag value with the term's date: -1, 0, 1, or 2 when it
 * cannot be told (a part of the value that matters is unknown, "??"). */
static int date_cmp(const char *v, const struct term *t)
{
	for (int i = 0; i < t->nymd; i++) {
		size_t w = i == 0 ? 4 : 2;
		long x = 0;
		for (size_t k = 0; k < w; k++, v++) {
			if (*v < '0' || *v > '9')
				return 2;
			x = x * 10 + (*v - '0');
		}
		if (x != t->ymd[i])
			return x < t->ymd[i] ? -1 : 1;
		if (i + 1 < t->nymd && *v++ != '.')
			return 2;
	}
	return 0;
}

static int tag_matches(const char *v, const struct term *t)
{
	int c;
	if (t->kind == S_EQ)
		return !strcmp(v, t->value);
	if (t->kind == S_RE)
		return regexec(&t->re, v, 0, NULL, 0) == 0;
	if (t->date) {
		c = date_cmp(v, t);
		if (c == 2)
			return 0;
	} else {
		double x;
		const char *bad;
		if (read_num(v, &x, &bad) < 0)
			return 0;
		c = x < t->num ? -1 : x > t->num;
	}
	switch (t->kind) {
	case S_GE:
		return c >= 0;
	case S_LE:
		return c <= 0;
	case S_GT:
		return c > 0;
	case S_LT:
		return c < 0;
	default:
		return 0;
	}
}

int vc_select_before(const struct vc_select *s, const struct vc_game *g)
{
	long number = vc_game_number(g);
	for (size_t k = 0; s && k < s->n; k++) {
		const struct term *t = &s->t[k];
		if (t->kind == S_GAMES) {
			if (number < t->lo || (t->hi >= 0 && number > t->hi))
				return 0;
		} else if (t->tag) {
			/* any tag of that name will do */
			int any = 0;
			size_t n = vc_game_tag_count(g);
			for (size_t i = 0; i < n && !any; i++)
				if (!strcmp(vc_game_tag_name(g, i), t->tag))
					any = tag_matches(vc_game_tag_value(g, i), t);
			if (!any)
				return 0;
		}
	}
	return 1;
}

/* The variant as the replay names it: its canonical name, else the
 * Variant tag as written (vc_replay_variant_name). */
static const char *variant_of(const struct vc_game *g, const struct vc_game_stats *st)
{
	if (vc_game_is_garbage(g))
		return NULL;
	if (st->variant)
		return st->variant;
	const char *t = vc_game_tag(g, "Variant");
	return t && *t ? t : NULL;
}

int vc_select_after(const struct vc_select *s, const struct vc_game *g,
		    const struct vc_game_stats *st)
{
	int valid = st->valid && !vc_game_is_garbage(g);
	for (size_t k = 0; s && k < s->n; k++) {
		const struct term *t = &s->t[k];
		if ((t->kind == S_VALID && !valid) || (t->kind == S_INVALID && valid))
			return 0;
		if (t->kind == S_VARIANT) {
			const char *v = variant_of(g, st);
			if (!v || strcasecmp(v, t->value))
				return 0;
		}
	}
	return 1;
}

int vc_select_needs_replay(const struct vc_select *s)
{
	for (size_t k = 0; s && k < s->n; k++)
		if (s->t[k].kind >= S_VARIANT && s->t[k].kind != S_GAMES)
			return 1;
	return 0;
}
