/*
 * archive/select.c - selection expressions: which games of an archive a
 * program takes (vchess-convert(1) --select, SELECTING GAMES).  The terms
 * about the positions of a game's main line are select_pos.c's.
 *
 * Model: a selection is a list of expressions, every one of which must
 * match; an expression is terms joined by "and", "or" and "not", grouped by
 * parentheses.  A term is about what is known before a game is replayed (a
 * tag, the players, the game's number, its plies as written, its result)
 * or only after (validity, the variant as the replay names it), so that a
 * program drops most games it does not want without replaying them: before
 * the replay a term of the second kind is "not known", and a game is left
 * out only when its expression is false whatever those turn out to be
 * (logic of three values).  A term is read once, into a form that matching
 * needs no more parsing for: a compiled regular expression, a number, the
 * parts of a date.  An expression that does not read says what is wrong and
 * at which character, so that a front end can point at it.
 *
 * Expressions are trees of nodes in one array, each "and" and "or" holding
 * its operands as a chain (so a long chain costs no depth), nested no
 * deeper than MAX_DEPTH: reading and matching recurse only that deep.
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

#define MAX_DEPTH 32    /* parentheses and "not" nested */
#define MAX_EXPR 4096   /* bytes of one expression */

enum kind {
	S_EQ, S_RE, S_GE, S_LE, S_GT, S_LT, S_RANGE, /* a tag (or both players') */
	S_GAMES, S_PLIES, S_RESULT,                  /* known before the replay */
	S_VARIANT, S_VALID, S_INVALID,               /* known only after it */
	S_POS /* about the positions of the main line: select_pos.c */
};

struct term {
	enum kind kind;
	char *tag;    /* tag terms: the tag's name; NULL for player terms */
	int players;  /* the White and Black tags, either */
	char *value;  /* S_EQ, S_RESULT: the value; S_VARIANT: the variant's name */
	regex_t re;   /* S_RE */
	int date;     /* comparisons: compare as dates, by the parts in ymd */
	long ymd[2][3];
	int nymd[2];
	double num[2]; /* comparisons that are not about a date: [0], or the range [0]..[1] */
	long lo, hi;   /* S_GAMES, S_PLIES: hi -1 when open */
	struct vc_sel_pos *pos; /* S_POS */
	size_t pidx;            /* S_POS: its place in vc_select.pos */
};

enum op { N_TERM, N_AND, N_OR, N_NOT };

/* A node: a term, or an operation on the chain of nodes from first, each
 * linked to the next by next (-1 ends it). */
struct node {
	enum op op;
	int term, first, next;
};

struct vc_select {
	struct term *t;
	size_t n, cap;
	struct node *nodes;
	size_t nn, ncap;
	int *roots; /* one expression each, all of which must match */
	size_t nroots, rcap;
	struct vc_sel_pos **pos; /* the S_POS terms' */
	size_t npos, poscap;
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
	vc_sel_pos_free(t->pos);
	t->pos = NULL;
}

void vc_select_free(struct vc_select *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		term_free(&s->t[i]);
	free(s->t);
	free(s->nodes);
	free(s->roots);
	free(s->pos);
	free(s);
}

/* ---- reading a term ---- */

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

/* "game=N", "game=N-M", "game=N-", "game=-M" (and ".." for "-"), the same
 * for plies; v is the value, at its place in the expression */
static int read_span(struct term *t, const char *expr, const char *v, struct vc_select_error *err)
{
	int games = t->kind == S_GAMES;
	const char *dash = strstr(v, "..");
	size_t at = (size_t)(v - expr), dl = dash ? 2 : 1;
	long min = t->kind == S_GAMES;
	if (!dash)
		dash = strchr(v, '-');
	if (!dash) {
		t->lo = t->hi = whole_number(v);
		if (t->lo >= 0 && t->lo < min)
			return vc_select_fail(err, at, "games are numbered from 1");
		if (t->lo < 0)
			return vc_select_fail(err, at, "expected a %s or a range N-M, not '%.*s'",
				    games ? "game number" : "number of plies", QUOTE(v));
		return 0;
	}
	size_t alen = (size_t)(dash - v), blen = strlen(dash + dl);
	t->lo = alen ? span_number(v, alen) : min;
	t->hi = blen ? span_number(dash + dl, blen) : -1;
	if (t->lo >= 0 && t->lo < min)
		return vc_select_fail(err, at, "games are numbered from 1");
	if (t->lo < 0)
		return vc_select_fail(err, at, "expected the number of the range's first %s",
			    games ? "game" : "count of plies");
	at = (size_t)(dash + dl - expr);
	if (blen && t->hi < 0)
		return vc_select_fail(err, at, "expected the number of the range's last %s",
			    games ? "game" : "count of plies");
	if (blen && t->hi < t->lo)
		return vc_select_fail(err, at, "the range ends at %ld, before it starts (%ld)", t->hi, t->lo);
	return 0;
}

/* "1990", "1990.07", "1990.07.14", the len bytes at s: the number of
 * parts, or -1 with *bad at the byte that does not read. */
static int read_date(const char *s, size_t len, long ymd[3], const char **bad)
{
	const char *end = s + len;
	int n = 0;
	while (n < 3) {
		long x = 0;
		const char *d = s;
		while (s < end && *s >= '0' && *s <= '9' && s - d < 4)
			x = x * 10 + (*s++ - '0');
		if (s == d) {
			*bad = s;
			return -1;
		}
		ymd[n++] = x;
		if (s == end)
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

/* A number with blanks around it, the len bytes at s; 0, or -1 with *bad
 * at the fault. */
static int read_num(const char *s, size_t len, double *v, const char **bad)
{
	char b[64];
	char *end;
	const char *e = s + len;
	while (s < e && *s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	*bad = s;
	if (s == e || e - s >= (long)sizeof b)
		return -1;
	memcpy(b, s, (size_t)(e - s));
	b[e - s] = 0;
	*v = strtod(b, &end);
	*bad = s + (end - b);
	return *end || end == b ? -1 : 0;
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

/* One end of a comparison (the len bytes at v) into slot i of t: a date
 * for a tag whose name ends in "Date", else a number.  0, or -1. */
static int read_bound(struct term *t, int i, const char *expr, const char *v, size_t len,
		      struct vc_select_error *err)
{
	const char *bad;
	if (t->date) {
		t->nymd[i] = read_date(v, len, t->ymd[i], &bad);
		if (t->nymd[i] < 1)
			return vc_select_fail(err, (size_t)(bad - expr),
				    "expected a date YYYY, YYYY.MM or YYYY.MM.DD, not '%.*s'",
				    (int)(len > 40 ? 40 : len), v);
	} else if (read_num(v, len, &t->num[i], &bad) < 0) {
		return vc_select_fail(err, (size_t)(bad - expr), "expected a number, not '%.*s'",
			    (int)(len > 40 ? 40 : len), v);
	}
	return 0;
}

/* The value of a tag term, v (at its place in expr). */
static int read_value(struct term *t, const char *expr, const char *v, struct vc_select_error *err)
{
	size_t at = (size_t)(v - expr);
	t->date = t->tag && ends_with(t->tag, "Date");
	if (t->kind == S_EQ) {
		/* "A..B" of two dates or numbers is a range; other values are exact */
		const char *dots = strstr(v, ".."), *bad;
		long ymd[3];
		double x;
		if (dots && !t->players &&
		    (t->date ? read_date(v, (size_t)(dots - v), ymd, &bad) > 0 &&
				       read_date(dots + 2, strlen(dots + 2), ymd, &bad) > 0
			     : read_num(v, (size_t)(dots - v), &x, &bad) == 0 &&
				       read_num(dots + 2, strlen(dots + 2), &x, &bad) == 0)) {
			t->kind = S_RANGE;
			read_bound(t, 0, expr, v, (size_t)(dots - v), err);
			return read_bound(t, 1, expr, dots + 2, strlen(dots + 2), err);
		}
		return (t->value = vc_strdup(v)) ? 0 : vc_select_fail(err, at, "out of memory");
	}
	if (t->kind == S_RE) {
		int rc = regcomp(&t->re, v, REG_EXTENDED | REG_NOSUB);
		if (rc == 0)
			return 0;
		char msg[sizeof err->regex];
		regerror(rc, &t->re, msg, sizeof msg);
		t->kind = S_EQ; /* nothing compiled to free */
		if (err)
			snprintf(err->regex, sizeof err->regex, "%s", msg);
		return vc_select_fail(err, at, "bad regular expression: %s", msg);
	}
	return read_bound(t, 0, expr, v, strlen(v), err);
}

static int valid_result(const char *v)
{
	return !strcmp(v, "1-0") || !strcmp(v, "0-1") || !strcmp(v, "1/2-1/2") || !strcmp(v, "*");
}

/* A term of a name that is no tag's: player, plies, result, game,
 * variant, and those of select_pos.c (v its value, op its operator); 1
 * when name is none of them, 0 when read, -1 on a fault. */
static int read_named(struct term *t, const char *expr, const char *name, size_t k,
		      const char *v, struct vc_select_error *err)
{
	size_t at = (size_t)(v - expr), op = (size_t)(name - expr) + k;
	int eq = t->kind == S_EQ;
	if (k == 6 && !strncmp(name, "player", 6)) {
		if (!eq && t->kind != S_RE)
			return vc_select_fail(err, op, "players are compared with = or ~");
		t->players = 1;
		return read_value(t, expr, v, err);
	}
	if (k == 4 && !strncmp(name, "date", 4)) {
		if (!(t->tag = vc_strdup("Date")))
			return vc_select_fail(err, 0, "out of memory");
		return read_value(t, expr, v, err);
	}
	if (k == 5 && !strncmp(name, "plies", 5)) {
		enum kind cmp = t->kind;
		t->kind = S_PLIES;
		if (eq)
			return read_span(t, expr, v, err);
		long n = whole_number(v);
		if (n < 0 || cmp == S_RE)
			return vc_select_fail(err, cmp == S_RE ? op : at,
				    "plies takes =N, =N-M, >=N, <=N, >N or <N");
		t->lo = cmp == S_GE ? n : cmp == S_GT ? n + 1 : 0;
		t->hi = cmp == S_LE ? n : cmp == S_LT ? (n > 0 ? n - 1 : -2) : -1;
		return 0;
	}
	int game = k == 4 && !strncmp(name, "game", 4);
	int result = k == 6 && !strncmp(name, "result", 6);
	int variant = k == 7 && !strncmp(name, "variant", 7);
	if (!game && !result && !variant) {
		int rc = vc_sel_pos_read(expr, name, k, v, &t->pos, err);
		if (rc == 0)
			t->kind = S_POS;
		return rc;
	}
	if (!eq)
		return vc_select_fail(err, op, "%.*s is compared with =", (int)k, name);
	if (game) {
		t->kind = S_GAMES;
		return read_span(t, expr, v, err);
	}
	if (result && !valid_result(v))
		return vc_select_fail(err, at, "expected a result 1-0, 0-1, 1/2-1/2 or *, not '%.*s'",
			    QUOTE(v));
	const char *canon = variant ? vc_builtin_lookup(v) : NULL;
	t->kind = result ? S_RESULT : S_VARIANT;
	t->value = vc_strdup(canon ? canon : v);
	return t->value ? 0 : vc_select_fail(err, at, "out of memory");
}

/* Reads the term at byte base of expr into t; expr is a copy of the
 * expression with the term's end made NUL, so that every offset in it is
 * the offset in the expression that messages give (a quoted value, after
 * its quote).  0, or -1. */
static int read_term(struct term *t, char *expr, size_t base, int quoted,
		     struct vc_select_error *err)
{
	char *text = expr + base;
	memset(t, 0, sizeof *t);
	t->lo = 1;
	t->hi = -1;
	if (!strcmp(text, "valid") || !strcmp(text, "invalid")) {
		t->kind = text[0] == 'v' ? S_VALID : S_INVALID;
		return 0;
	}
	int rc = vc_sel_pos_word(text, &t->pos);
	if (rc <= 0) {
		t->kind = S_POS;
		return rc < 0 ? vc_select_fail(err, base, "out of memory") : 0;
	}
	size_t k = 0;
	while (is_tag_char(text[k]))
		k++;
	if (k == 0)
		return vc_select_fail(err, base,
			    "expected a term: Tag=value, player=, plies=, result=, game=, "
			    "variant=, position=, final=, material=, moves=, end=, valid, "
			    "invalid, checkmate, stalemate or ended");
	size_t ol = read_op(text + k, &t->kind);
	if (ol == 0)
		return vc_select_fail(err, base + k, "expected =, ~, >=, <=, > or < after the tag name");
	const char *v = text + k + ol + quoted;
	rc = read_named(t, expr, text, k, v, err);
	if (rc <= 0)
		return rc;
	if (!(t->tag = vc_strndup(text, k)))
		return vc_select_fail(err, base, "out of memory");
	return read_value(t, expr, v, err);
}

/* ---- reading an expression ---- */

struct parse {
	struct vc_select *s;
	const char *e; /* the expression */
	char *scratch; /* where terms are read: see read_term */
	size_t len, pos;
	int depth; /* parentheses open */
	int nest;  /* parentheses and "not" open */
	struct vc_select_error *err;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	void *q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* A new node; its index, or -1 when out of memory (reported). */
static int add_node(struct parse *p, enum op op, int term, int first)
{
	struct vc_select *s = p->s;
	if (grow((void **)&s->nodes, &s->ncap, s->nn, sizeof *s->nodes) < 0)
		return vc_select_fail(p->err, p->pos, "out of memory");
	s->nodes[s->nn] = (struct node){ op, term, first, -1 };
	return (int)s->nn++;
}

static void skip_blanks(struct parse *p)
{
	while (p->pos < p->len && (p->e[p->pos] == ' ' || p->e[p->pos] == '\t'))
		p->pos++;
}

/* Does the word w stand at i, followed by a blank, '(' or the end (or, for
 * a term word, ')')? */
static int word_at(const struct parse *p, size_t i, const char *w, int term)
{
	size_t n = strlen(w);
	if (i + n > p->len || strncmp(p->e + i, w, n))
		return 0;
	char c = p->e[i + n];
	return c == ' ' || c == '\t' || c == '(' || c == 0 || (term && c == ')');
}

/* The end of an unquoted value that starts at i: before " and " or " or "
 * (a blank and the word, then a blank or '('), or the end of the
 * expression; blanks before it, and as many ')' at its end as groups are
 * open, are the expression's, not the value's. */
static size_t value_end(const struct parse *p, size_t i)
{
	size_t end = p->len;
	for (size_t k = i; k < p->len; k++)
		if ((p->e[k] == ' ' || p->e[k] == '\t') &&
		    (word_at(p, k + 1, "and", 0) || word_at(p, k + 1, "or", 0))) {
			end = k;
			break;
		}
	int closers = 0;
	while (end > i && (p->e[end - 1] == ' ' || p->e[end - 1] == '\t' ||
			   (p->e[end - 1] == ')' && closers < p->depth))) {
		closers += p->e[end - 1] == ')';
		end--;
	}
	return end;
}

/* A quoted value at q (its '"'): unescaped (\" and \\) into the scratch
 * copy from q + 1 on, so that its bytes keep their places but after an
 * escape; returns the end of the quoted text in the expression,
 * or 0 when it is never closed. */
static size_t unquote(struct parse *p, size_t q)
{
	size_t o = q + 1;
	p->scratch[q] = '"';
	for (size_t i = q + 1; i < p->len; i++) {
		char c = p->e[i];
		if (c == '\\' && i + 1 < p->len && (p->e[i + 1] == '"' || p->e[i + 1] == '\\'))
			c = p->e[++i];
		else if (c == '"') {
			p->scratch[o] = 0;
			return i + 1;
		}
		p->scratch[o++] = c;
	}
	return 0;
}

/* A term at pos: its node, or -1. */
static int parse_term(struct parse *p)
{
	struct vc_select *s = p->s;
	size_t a = p->pos, end;
	int quoted = 0;
	static const char *const words[] = { "valid", "invalid", "checkmate", "stalemate",
					     "ended" };
	size_t w = 0;
	while (w < 5 && !word_at(p, a, words[w], 1))
		w++;
	if (w < 5) {
		end = a + strlen(words[w]);
		memcpy(p->scratch + a, p->e + a, end - a);
		p->scratch[end] = 0;
	} else {
		size_t k = a, ol;
		enum kind kind;
		while (k < p->len && is_tag_char(p->e[k]))
			k++;
		ol = k > a ? read_op(p->e + k, &kind) : 0;
		memcpy(p->scratch + a, p->e + a, k + ol - a);
		if (ol && p->e[k + ol] == '"') {
			end = unquote(p, k + ol);
			quoted = 1;
			if (!end)
				return vc_select_fail(p->err, k + ol, "the quote is never closed");
		} else {
			end = ol ? value_end(p, k + ol) : k;
			memcpy(p->scratch + k + ol, p->e + k + ol, end - (k + ol));
			p->scratch[end] = 0;
		}
	}
	if (grow((void **)&s->t, &s->cap, s->n, sizeof *s->t) < 0)
		return vc_select_fail(p->err, a, "out of memory");
	if (read_term(&s->t[s->n], p->scratch, a, quoted, p->err) < 0) {
		term_free(&s->t[s->n]);
		return -1;
	}
	struct term *t = &s->t[s->n];
	if (t->kind == S_POS) {
		if (grow((void **)&s->pos, &s->poscap, s->npos, sizeof *s->pos) < 0) {
			term_free(t);
			return vc_select_fail(p->err, a, "out of memory");
		}
		t->pidx = s->npos;
		s->pos[s->npos++] = t->pos;
	}
	s->n++;
	p->pos = end;
	return add_node(p, N_TERM, (int)s->n - 1, -1);
}

static int parse_or(struct parse *p);

/* "not" X, "(" X ")", or a term: its node, or -1. */
static int parse_unary(struct parse *p)
{
	skip_blanks(p);
	size_t at = p->pos;
	if (at >= p->len)
		return vc_select_fail(p->err, at, at ? "expected a term after '%.*s'" : "expected a term",
			    (int)(at > 10 ? 10 : at), p->e + at - (at > 10 ? 10 : at));
	if (word_at(p, at, "and", 0) || word_at(p, at, "or", 0))
		return vc_select_fail(p->err, at, "expected a term, not '%s'", p->e[at] == 'a' ? "and" : "or");
	int isnot = word_at(p, at, "not", 0), group = p->e[at] == '(';
	if (!isnot && !group)
		return parse_term(p);
	if (p->nest >= MAX_DEPTH)
		return vc_select_fail(p->err, at, "nested deeper than %d", MAX_DEPTH);
	p->nest++;
	p->pos += isnot ? 3 : 1;
	p->depth += group;
	int x = isnot ? parse_unary(p) : parse_or(p);
	p->nest--;
	if (x < 0)
		return -1;
	if (isnot)
		return add_node(p, N_NOT, -1, x);
	skip_blanks(p);
	if (p->pos >= p->len || p->e[p->pos] != ')')
		return vc_select_fail(p->err, p->pos, "expected ')' to close the '(' of column %zu", at + 1);
	p->pos++;
	p->depth--;
	return x;
}

/* Operands joined by op ("and" binds closer than "or"): their node. */
static int parse_chain(struct parse *p, enum op op)
{
	const char *word = op == N_AND ? "and" : "or";
	int first = op == N_AND ? parse_unary(p) : parse_chain(p, N_AND), last = first, node = -1;
	while (last >= 0) {
		skip_blanks(p);
		if (!word_at(p, p->pos, word, 0))
			break;
		p->pos += strlen(word);
		int x = op == N_AND ? parse_unary(p) : parse_chain(p, N_AND);
		if (x < 0)
			return -1;
		if (node < 0 && (node = add_node(p, op, -1, first)) < 0)
			return -1;
		p->s->nodes[last].next = x;
		last = x;
	}
	return last < 0 ? -1 : node >= 0 ? node : first;
}

static int parse_or(struct parse *p) { return parse_chain(p, N_OR); }

/* Reads expr into a new root of s; 0, or -1 (s unchanged). */
static int read_expr(struct vc_select *s, const char *expr, struct vc_select_error *err)
{
	size_t n0 = s->n, nn0 = s->nn, npos0 = s->npos, len = strlen(expr);
	if (len > MAX_EXPR)
		return vc_select_fail(err, MAX_EXPR, "longer than %d bytes", MAX_EXPR);
	struct parse p = { s, expr, malloc(len + 1), len, 0, 0, 0, err };
	int root = p.scratch ? parse_or(&p) : vc_select_fail(err, 0, "out of memory");
	skip_blanks(&p);
	if (root >= 0 && p.pos < len)
		root = expr[p.pos] == ')' ? vc_select_fail(err, p.pos, "')' closes no '('")
					 : vc_select_fail(err, p.pos, "expected 'and', 'or' or the end, not '%.*s'",
						QUOTE(expr + p.pos));
	if (root >= 0 && grow((void **)&s->roots, &s->rcap, s->nroots, sizeof *s->roots) < 0)
		root = vc_select_fail(err, 0, "out of memory");
	free(p.scratch);
	if (root < 0) {
		while (s->n > n0)
			term_free(&s->t[--s->n]);
		s->nn = nn0;
		s->npos = npos0;
		return -1;
	}
	s->roots[s->nroots++] = root;
	return 0;
}

int vc_select_add(struct vc_select *s, const char *expr, struct vc_select_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!s || !expr)
		return vc_select_fail(err, 0, "no selection");
	return read_expr(s, expr, err);
}

/* ---- matching ---- */

/* Compares a tag value with a date of n parts: -1, 0, 1, or 2 when it
 * cannot be told (a part of the value that matters is unknown, "??"). */
static int date_cmp(const char *v, const long *ymd, int n)
{
	for (int i = 0; i < n; i++) {
		size_t w = i == 0 ? 4 : 2;
		long x = 0;
		for (size_t k = 0; k < w; k++, v++) {
			if (*v < '0' || *v > '9')
				return 2;
			x = x * 10 + (*v - '0');
		}
		if (x != ymd[i])
			return x < ymd[i] ? -1 : 1;
		if (i + 1 < n && *v++ != '.')
			return 2;
	}
	return 0;
}

/* The value compared with bound i of t: -1, 0, 1, or 2 when not told. */
static int compare(const char *v, const struct term *t, int i)
{
	if (t->date)
		return date_cmp(v, t->ymd[i], t->nymd[i]);
	double x;
	const char *bad;
	if (read_num(v, strlen(v), &x, &bad) < 0)
		return 2;
	return x < t->num[i] ? -1 : x > t->num[i];
}

static int tag_matches(const char *v, const struct term *t)
{
	int c, d;
	if (t->kind == S_EQ)
		return !strcmp(v, t->value);
	if (t->kind == S_RE)
		return regexec(&t->re, v, 0, NULL, 0) == 0;
	if ((c = compare(v, t, 0)) == 2)
		return 0;
	switch (t->kind) {
	case S_GE:
		return c >= 0;
	case S_LE:
		return c <= 0;
	case S_GT:
		return c > 0;
	case S_LT:
		return c < 0;
	case S_RANGE:
		d = compare(v, t, 1);
		return c >= 0 && d != 2 && d <= 0;
	default:
		return 0;
	}
}

/* What one game shows the terms: itself, its replay (NULL before it), and
 * its plies as written (counted when first asked). */
struct seen {
	const struct vc_game *g;
	const struct vc_game_stats *st;
	long plies;
	const uint8_t *pos; /* after the replay: what each S_POS term gave */
};

static long count_plies(const struct vc_game *g)
{
	long n = 0;
	int depth = 0;
	for (size_t i = 0; i < vc_game_item_count(g); i++) {
		const struct vc_item *it = vc_game_item(g, i);
		depth += it->type == VC_IT_VAR_START ? 1 : it->type == VC_IT_VAR_END ? -1 : 0;
		n += it->type == VC_IT_MOVE && depth == 0;
	}
	return n;
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

/* 1 the term holds, 0 it does not, 2 not known yet (before the replay). */
static int term_holds(const struct term *t, struct seen *w)
{
	const struct vc_game *g = w->g;
	long x;
	switch (t->kind) {
	case S_GAMES:
	case S_PLIES:
		x = t->kind == S_GAMES ? vc_game_number(g)
				       : (w->plies < 0 ? (w->plies = count_plies(g)) : w->plies);
		return x >= t->lo && (t->hi == -1 || x <= t->hi);
	case S_RESULT: {
		const char *r = vc_game_result(g);
		if (!r)
			r = vc_game_tag(g, "Result");
		return r && !strcmp(r, t->value);
	}
	case S_VALID:
	case S_INVALID:
		if (!w->st)
			return 2;
		return (w->st->valid && !vc_game_is_garbage(g)) == (t->kind == S_VALID);
	case S_POS:
		return !w->st ? 2 : w->pos && w->pos[t->pidx];
	case S_VARIANT: {
		if (!w->st)
			return 2;
		const char *v = variant_of(g, w->st);
		return v && !strcasecmp(v, t->value);
	}
	default:
		break;
	}
	/* any tag of the name (or of either player's) will do */
	size_t n = vc_game_tag_count(g);
	for (size_t i = 0; i < n; i++) {
		const char *name = vc_game_tag_name(g, i);
		if (t->players ? !strcmp(name, "White") || !strcmp(name, "Black")
			       : !strcmp(name, t->tag))
			if (tag_matches(vc_game_tag_value(g, i), t))
				return 1;
	}
	return 0;
}

/* The value of node k: 1, 0, or 2 when not known yet. */
static int holds(const struct vc_select *s, int k, struct seen *w)
{
	const struct node *nd = &s->nodes[k];
	int all = nd->op == N_AND, v = nd->op == N_AND;
	if (nd->op == N_TERM)
		return term_holds(&s->t[nd->term], w);
	if (nd->op == N_NOT) {
		int x = holds(s, nd->first, w);
		return x == 2 ? 2 : !x;
	}
	for (int c = nd->first; c >= 0; c = s->nodes[c].next) {
		int x = holds(s, c, w);
		if (x == !all)
			return x; /* a false operand of "and", a true one of "or" */
		if (x == 2)
			v = 2;
	}
	return v;
}

int vc_select_before(const struct vc_select *s, const struct vc_game *g)
{
	struct seen w = { g, NULL, -1, NULL };
	for (size_t k = 0; s && k < s->nroots; k++)
		if (holds(s, s->roots[k], &w) == 0)
			return 0;
	return 1;
}

int vc_select_replayed(const struct vc_select *s, const struct vc_game *g,
		       const struct vc_game_stats *st, struct vc_replay *rp)
{
	uint8_t small[64], *res = NULL;
	int taken = 1;
	if (s && s->npos) {
		res = s->npos <= sizeof small ? small : malloc(s->npos);
		if (!res || vc_sel_pos_match(s->pos, s->npos, g, rp, res) < 0)
			taken = -1;
	}
	struct seen w = { g, st, -1, res };
	for (size_t k = 0; taken == 1 && s && k < s->nroots; k++)
		if (holds(s, s->roots[k], &w) != 1)
			taken = 0;
	if (res != small)
		free(res);
	return taken;
}

int vc_select_after(const struct vc_select *s, const struct vc_game *g,
		    const struct vc_game_stats *st)
{
	return vc_select_replayed(s, g, st, NULL) == 1;
}

int vc_select_needs_replay(const struct vc_select *s)
{
	for (size_t k = 0; s && k < s->n; k++)
		if (s->t[k].kind >= S_VARIANT)
			return 1;
	return 0;
}
