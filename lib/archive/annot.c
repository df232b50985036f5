/*
 * annot.c - multi-player records (layer 7): who played each ply, comments
 * by anyone between plies, draw offers and acceptances, read from comment
 * commands (the grammar is in vchess.h and vchess-sico(7)).
 *
 * Model.  A command is "[%" NAME ARG... "]" inside a comment's text; it
 * ends at the first ']' outside a quoted string.  Three names are records:
 * by, comment and draw; one of them that does not read is MALFORMED and
 * changes nothing; any other name is OTHER and is left alone.  Reading a
 * game walks its flat item list once, keeping for each open line the last
 * move (which a [%by] names) and its ply count, and on the main line the
 * state of the draw: no offer, an offer pending with the distinct people
 * who accepted it, or agreed (the game has ended).  Nothing here changes
 * the game or knows the rules of chess; the validator reports the
 * problems found and checks what the end of the game implies (lib/archive/validate.c).
 *
 * Invariants: names are compared as unquoted (blank runs one space,
 * trimmed), so that writers which normalise comment blanks change no
 * meaning; problems and events come in item order; a draw is agreed at
 * most once, by an acceptance on the main line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"
#include "base/vc_base.h"

#define DEFAULT_NEEDED 3
#define MAX_NEEDED 100

/* ---- commands of one comment ---- */

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/* Appends the bytes of s (escapes resolved when quoted) to out with blank
 * runs as one space and no blank at either end; returns the length needed. */
static size_t squeeze(const char *s, size_t len, int quoted, char *buf, size_t n)
{
	size_t k = 0;
	int pending = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (quoted && c == '\\' && i + 1 < len)
			c = (unsigned char)s[++i];
		else if (is_blank(c)) {
			pending = k > 0;
			continue;
		}
		if (pending) {
			if (k + 1 < n)
				buf[k] = ' ';
			k++;
			pending = 0;
		}
		if (k + 1 < n)
			buf[k] = (char)c;
		k++;
	}
	if (n)
		buf[k < n ? k : n - 1] = 0;
	return k;
}

size_t vc_annot_unquote(const char *raw, size_t len, char *buf, size_t n)
{
	return squeeze(raw, len, 1, buf, n);
}

/* one argument of a command: quoted (raw bytes between the quotes) or a
 * bare word */
struct arg {
	const char *s;
	size_t len;
	int quoted;
};

/* Splits [s, s + len) into at most cap arguments; returns how many there
 * were (may exceed cap), or -1 when a quote is never closed. */
static int split_args(const char *s, size_t len, struct arg *out, int cap)
{
	int n = 0;
	size_t i = 0;
	while (i < len) {
		if (is_blank((unsigned char)s[i])) {
			i++;
			continue;
		}
		struct arg a;
		if (s[i] == '"') {
			size_t j = i + 1;
			while (j < len && s[j] != '"')
				j += s[j] == '\\' && j + 1 < len ? 2 : 1;
			if (j >= len)
				return -1;
			a.s = s + i + 1;
			a.len = j - i - 1;
			a.quoted = 1;
			i = j + 1;
		} else {
			size_t j = i;
			while (j < len && !is_blank((unsigned char)s[j]) && s[j] != '"')
				j++;
			a.s = s + i;
			a.len = j - i;
			a.quoted = 0;
			i = j;
		}
		if (n < cap)
			out[n] = a;
		n++;
	}
	return n;
}

static int word_is(const struct arg *a, const char *w)
{
	return !a->quoted && a->len == strlen(w) && !memcmp(a->s, w, a->len);
}

/* Reads a person's name from a quoted argument; sets cmd->problem when it
 * is no name. */
static void read_who(struct vc_annot_cmd *cmd, const struct arg *a)
{
	if (!a->quoted) {
		cmd->problem = "expected a quoted name";
		return;
	}
	size_t need = vc_annot_unquote(a->s, a->len, cmd->who, sizeof cmd->who);
	if (need == 0)
		cmd->problem = "the name is empty";
	else if (need >= sizeof cmd->who)
		cmd->problem = "the name is longer than 127 bytes";
}

/* Fills in the kind of a command named by, comment or draw from its
 * arguments (the bytes between its name and its ']'). */
static void read_record(struct vc_annot_cmd *cmd, const char *s, size_t len, int closed)
{
	struct arg a[4];
	int n = split_args(s, len, a, 4);
	const char *nm = cmd->name;
	size_t nl = cmd->name_len;
	cmd->problem = NULL;
	if (!closed)
		cmd->problem = "no ']' ends it";
	else if (n < 0)
		cmd->problem = "a quote is never closed";
	else if (nl == 2 && !memcmp(nm, "by", 2)) {
		if (n != 1)
			cmd->problem = n ? "expected one quoted name" : "expected a quoted name";
		else {
			read_who(cmd, &a[0]);
			cmd->kind = VC_ANNOT_BY;
		}
	} else if (nl == 7 && !memcmp(nm, "comment", 7)) {
		if (n < 1 || n > 2)
			cmd->problem = n ? "expected a quoted name and at most one quoted text"
					 : "expected a quoted name";
		else {
			read_who(cmd, &a[0]);
			if (n == 2 && !a[1].quoted)
				cmd->problem = "expected the text in quotes";
			else if (n == 2) {
				cmd->said = a[1].s;
				cmd->said_len = a[1].len;
			}
			cmd->kind = VC_ANNOT_COMMENT;
		}
	} else {
		if (n < 1 || !(word_is(&a[0], "offer") || word_is(&a[0], "accept") ||
			       word_is(&a[0], "decline")))
			cmd->problem = "expected offer, accept or decline";
		else if (n != 2)
			cmd->problem = "expected one quoted name after the word";
		else {
			read_who(cmd, &a[1]);
			cmd->kind = word_is(&a[0], "offer")    ? VC_ANNOT_DRAW_OFFER
				    : word_is(&a[0], "accept") ? VC_ANNOT_DRAW_ACCEPT
							       : VC_ANNOT_DRAW_DECLINE;
		}
	}
	if (cmd->problem) {
		cmd->kind = VC_ANNOT_MALFORMED;
		cmd->said = NULL;
		cmd->said_len = 0;
	}
}

int vc_annot_next(const char *t, size_t n, size_t *pos, struct vc_annot_cmd *cmd)
{
	for (size_t i = *pos; i + 1 < n; i++) {
		if (t[i] != '[' || t[i + 1] != '%')
			continue;
		size_t ns = i + 2, ne = ns;
		while (ne < n && is_name_char((unsigned char)t[ne]))
			ne++;
		if (ne == ns)
			continue; /* "[%" and no name: plain text */
		/* the end: the first ']' outside a quoted string; when a quote is
		 * left open, the first ']' at all */
		size_t j = ne;
		int inq = 0, closed = 0;
		for (; j < n; j++) {
			if (inq) {
				if (t[j] == '\\' && j + 1 < n)
					j++;
				else if (t[j] == '"')
					inq = 0;
			} else if (t[j] == '"')
				inq = 1;
			else if (t[j] == ']') {
				closed = 1;
				break;
			}
		}
		if (!closed) {
			const char *rb = memchr(t + ne, ']', n - ne);
			j = rb ? (size_t)(rb - t) : n;
			closed = rb != NULL;
		}
		memset(cmd, 0, sizeof *cmd);
		cmd->kind = VC_ANNOT_OTHER;
		cmd->off = i;
		cmd->len = (closed ? j + 1 : n) - i;
		cmd->name = t + ns;
		cmd->name_len = ne - ns;
		size_t nl = ne - ns;
		if ((nl == 2 && !memcmp(t + ns, "by", 2)) ||
		    (nl == 7 && !memcmp(t + ns, "comment", 7)) ||
		    (nl == 4 && !memcmp(t + ns, "draw", 4))) {
			if (ne < j && !is_blank((unsigned char)t[ne]) && t[ne] != '"') {
				/* "[%byx": another name; not ours */
			} else
				read_record(cmd, t + ne, j - ne, closed);
		}
		*pos = cmd->off + cmd->len;
		return 1;
	}
	*pos = n;
	return 0;
}

size_t vc_annot_plain(const char *text, size_t len, char *buf, size_t n)
{
	/* the text between commands, squeezed piece by piece into one run */
	struct vc_buf b;
	vc_buf_init(&b);
	size_t pos = 0, last = 0;
	struct vc_annot_cmd c;
	while (vc_annot_next(text, len, &pos, &c)) {
		vc_buf_add(&b, text + last, c.off - last);
		vc_buf_addc(&b, ' ');
		last = c.off + c.len;
	}
	vc_buf_add(&b, text + last, len - last);
	int oom = b.oom;
	size_t need = oom ? 0 : squeeze(b.p ? b.p : "", b.len, 0, buf, n);
	if (oom && n) /* out of memory: say nothing rather than half */
		buf[0] = 0;
	vc_buf_free(&b);
	return need;
}

/* ---- the records of a game ---- */

struct ev {
	struct vc_annot_event e;
	size_t who, text; /* pool offsets */
};

struct prob {
	struct vc_annot_problem p;
	size_t msg; /* pool offset */
};

struct vc_annot {
	struct vc_buf pool; /* names, texts and messages, each NUL-terminated */
	size_t *author;     /* per item: pool offset + 1 of the mover's name, 0 none */
	size_t nauthor, capauthor;
	struct ev *ev;
	size_t nev, capev;
	struct prob *prob;
	size_t nprob, capprob;
	int needed;
	long draw;
	int oom;
};

struct vc_annot *vc_annot_new(void)
{
	struct vc_annot *a = vc_calloc(1, sizeof *a);
	if (a) {
		vc_buf_init(&a->pool);
		a->needed = DEFAULT_NEEDED;
		a->draw = -1;
	}
	return a;
}

void vc_annot_free(struct vc_annot *a)
{
	if (!a)
		return;
	vc_buf_free(&a->pool);
	free(a->author);
	free(a->ev);
	free(a->prob);
	free(a);
}

static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, nc * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = nc;
	return 0;
}

/* Adds a NUL-terminated string to the pool; returns its offset. */
static size_t pool_add(struct vc_annot *a, const char *s, size_t len)
{
	size_t off = a->pool.len;
	vc_buf_add(&a->pool, s, len);
	vc_buf_addc(&a->pool, 0);
	if (a->pool.oom)
		a->oom = 1;
	return off;
}

static const char *pool_str(const struct vc_annot *a, size_t off)
{
	return a->pool.p + off;
}

static void problem(struct vc_annot *a, const char *code, long item, size_t off, long ply,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void problem(struct vc_annot *a, const char *code, long item, size_t off, long ply,
		    const char *fmt, ...)
{
	if (grow((void **)&a->prob, &a->capprob, a->nprob, sizeof *a->prob) != 0) {
		a->oom = 1;
		return;
	}
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (k < 0)
		k = 0;
	struct prob *p = &a->prob[a->nprob++];
	memset(p, 0, sizeof *p);
	p->p.code = code;
	p->p.item = item;
	p->p.off = off;
	p->p.ply = ply;
	p->msg = pool_add(a, msg, (size_t)k < sizeof msg ? (size_t)k : sizeof msg - 1);
}

static struct ev *event(struct vc_annot *a, enum vc_annot_kind kind, size_t item,
			const struct vc_annot_cmd *c, int depth, long ply)
{
	if (grow((void **)&a->ev, &a->capev, a->nev, sizeof *a->ev) != 0) {
		a->oom = 1;
		return NULL;
	}
	struct ev *e = &a->ev[a->nev++];
	memset(e, 0, sizeof *e);
	e->e.kind = kind;
	e->e.item = item;
	e->e.off = c->off;
	e->e.len = c->len;
	e->e.depth = depth;
	e->e.ply = ply;
	e->who = pool_add(a, c->who, strlen(c->who));
	e->text = (size_t)-1;
	return e;
}

/* the line being read: its last move and the plies played on it */
struct line {
	long last;  /* item of the last move, -1 none yet */
	long plies; /* plies played on this line since the record's start */
};

#define MAXACC MAX_NEEDED /* a draw is agreed at the MAX_NEEDED-th at most */

/* the draw on the main line */
struct draw {
	int pending;
	size_t offerer;     /* pool offset */
	size_t acc[MAXACC]; /* pool offsets of those who accepted */
	int nacc;
	int agreed;
};

static const char *kind_word(enum vc_annot_kind k)
{
	return k == VC_ANNOT_DRAW_OFFER    ? "offer"
	       : k == VC_ANNOT_DRAW_ACCEPT ? "acceptance"
					   : "decline";
}

static void read_tag(struct vc_annot *a, const struct vc_game *g)
{
	const char *t = vc_game_tag(g, "DrawAcceptances");
	a->needed = DEFAULT_NEEDED;
	if (!t)
		return;
	char *end;
	long v = strtol(t, &end, 10);
	if (end == t || *end || v < 1 || v > MAX_NEEDED)
		problem(a, "annot-tag", -1, 0, 0,
			"DrawAcceptances must be a number from 1 to %d, not '%s': %d acceptances "
			"are needed",
			MAX_NEEDED, t, DEFAULT_NEEDED);
	else
		a->needed = (int)v;
}

static void draw_record(struct vc_annot *a, struct draw *d, struct ev *e,
			const struct vc_annot_cmd *c, size_t item, long ply)
{
	const char *who = c->who;
	if (e->e.depth > 0) {
		problem(a, "annot-draw", (long)item, c->off, ply,
			"a draw %s in a variation changes nothing", kind_word(c->kind));
		e->e.ignored = 1;
		return;
	}
	if (d->agreed) {
		problem(a, "annot-draw", (long)item, c->off, ply,
			"a draw %s by '%s' after the draw was agreed", kind_word(c->kind), who);
		e->e.ignored = 1;
		return;
	}
	if (c->kind == VC_ANNOT_DRAW_OFFER) {
		if (d->pending) {
			problem(a, "annot-draw", (long)item, c->off, ply,
				"a draw offer by '%s' while the offer by '%s' is pending", who,
				pool_str(a, d->offerer));
			e->e.ignored = 1;
			return;
		}
		d->pending = 1;
		d->offerer = e->who;
		d->nacc = 0;
		return;
	}
	if (!d->pending) {
		problem(a, "annot-draw", (long)item, c->off, ply,
			"a draw %s by '%s' with no offer pending", kind_word(c->kind), who);
		e->e.ignored = 1;
		return;
	}
	if (c->kind == VC_ANNOT_DRAW_DECLINE) {
		d->pending = 0; /* the offer fails */
		return;
	}
	if (!strcmp(who, pool_str(a, d->offerer))) {
		problem(a, "annot-draw", (long)item, c->off, ply,
			"'%s' offered this draw: the offerer's acceptance does not count", who);
		e->e.ignored = 1;
		return;
	}
	for (int i = 0; i < d->nacc; i++)
		if (!strcmp(who, pool_str(a, d->acc[i]))) {
			problem(a, "annot-draw", (long)item, c->off, ply,
				"'%s' already accepted this offer: a draw takes acceptances from "
				"different people",
				who);
			e->e.ignored = 1;
			return;
		}
	if (d->nacc < MAXACC)
		d->acc[d->nacc] = e->who;
	d->nacc++;
	e->e.count = d->nacc;
	if (d->nacc >= a->needed) {
		d->agreed = 1;
		d->pending = 0;
		e->e.agreed = 1;
		a->draw = (long)(e - a->ev);
	}
}

/* Could this comment hold a record command?  Most comments of real archives
 * hold only [%clk] and [%eval]: a quick look spares them the parser. */
static int may_hold_record(const char *t, size_t n)
{
	const char *end = t + n;
	/* a command opens with "[%": '%' is the rarer byte (tags hold none) */
	for (const char *p = t; p < end && (p = memchr(p, '%', (size_t)(end - p))) != NULL; p++)
		if (p > t && p[-1] == '[' && vc_record_command_at(p - 1, (size_t)(end - p) + 1))
			return 1;
	return 0;
}

/* The walk over a game's items: the lines open, the draw on the main line,
 * the main line's moves. */
struct walk {
	struct vc_annot *a;
	const struct vc_game *g;
	struct line *lines; /* lines[0] the main line, lines[depth] the current one */
	size_t caplines;
	int depth;
	struct draw d;
	long *main_moves; /* main-line move items, in order */
	size_t nmain, capmain;
};

/* Does every comment of g lie in its raw text (raw, rawlen)?  A comment
 * added after reading lies elsewhere. */
static int comments_in_raw(const struct vc_game *g, const char *raw, size_t rawlen)
{
	if (!raw || !rawlen)
		return 0;
	size_t nitems = vc_game_item_count(g);
	for (size_t i = 0; i < nitems; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		uintptr_t t = (uintptr_t)it->text, r0 = (uintptr_t)raw;
		if (it->type == VC_IT_COMMENT &&
		    (t < r0 || t - r0 > rawlen || it->len > rawlen - (t - r0)))
			return 0;
	}
	return 1;
}

/* The pool no longer moves: events and problems point into it. */
static void point_into_pool(struct vc_annot *a)
{
	for (size_t k = 0; k < a->nev; k++) {
		struct ev *e = &a->ev[k];
		e->e.who = pool_str(a, e->who);
		if (e->text != (size_t)-1)
			e->e.text = pool_str(a, e->text);
	}
	for (size_t k = 0; k < a->nprob; k++)
		a->prob[k].p.message = pool_str(a, a->prob[k].msg);
}

/* A [%by] command c of comment item i, on line ln: the author of the
 * line's last move.  before: the ply the comment comes before. */
static void by_record(struct walk *w, const struct vc_annot_cmd *c, size_t i, struct line *ln,
		      long before)
{
	struct vc_annot *a = w->a;
	if (ln->last < 0) {
		problem(a, "annot-by", (long)i, c->off, before,
			"[%%by \"%s\"] comes before any move of its line: it names no ply", c->who);
		return;
	}
	size_t *slot = &a->author[ln->last];
	if (*slot) {
		problem(a, "annot-by", (long)i, c->off, before,
			"ply %ld already has a player, '%s': [%%by \"%s\"] is ignored", ln->plies,
			pool_str(a, *slot - 1), c->who);
		return;
	}
	*slot = pool_add(a, c->who, strlen(c->who)) + 1;
	/* SICO: nobody plays two plies in a row */
	if (w->depth == 0 && w->nmain >= 2) {
		size_t prev = a->author[w->main_moves[w->nmain - 2]];
		if (prev && !strcmp(pool_str(a, prev - 1), c->who))
			problem(a, "annot-by", (long)i, c->off, before,
				"'%s' played plies %ld and %ld, two in a row", c->who,
				ln->plies - 1, ln->plies);
	}
}

/* A [%comment] command c of comment item it (item i): the text said, its
 * own or the comment's without its commands, into event e.  plain_used
 * counts the commands that took the comment's text.  -1: out of memory. */
static int comment_record(struct vc_annot *a, const struct vc_annot_cmd *c, size_t i,
			  const struct vc_item *it, struct ev *e, long before, int *plain_used)
{
	char small[256];
	const char *src = c->said ? c->said : it->text;
	size_t slen = c->said ? c->said_len : it->len;
	size_t need = c->said ? vc_annot_unquote(src, slen, small, sizeof small)
			      : vc_annot_plain(src, slen, small, sizeof small);
	if (!c->said && (*plain_used)++)
		problem(a, "annot-malformed", (long)i, c->off, before,
			"a second [%%comment] without its own quoted text in one comment: both "
			"are given the comment's text");
	if (need < sizeof small) {
		e->text = pool_add(a, small, need);
	} else {
		char *big = malloc(need + 1);
		if (!big) {
			a->oom = 1;
			return -1;
		}
		if (c->said)
			vc_annot_unquote(src, slen, big, need + 1);
		else
			vc_annot_plain(src, slen, big, need + 1);
		e->text = pool_add(a, big, need);
		free(big);
	}
	e->e.text_len = need;
	if (!need)
		problem(a, "annot-malformed", (long)i, c->off, before,
			"[%%comment \"%s\"] says nothing: the comment has no text", c->who);
	return 0;
}

/* The commands of comment item it (item i), on line ln. */
static void read_comment(struct walk *w, size_t i, const struct vc_item *it, struct line *ln)
{
	struct vc_annot *a = w->a;
	size_t pos = 0;
	struct vc_annot_cmd c;
	int plain_used = 0;
	long before = ln->plies + 1; /* the ply the comment comes before */
	while (vc_annot_next(it->text, it->len, &pos, &c)) {
		if (c.kind == VC_ANNOT_OTHER)
			continue;
		if (c.kind == VC_ANNOT_MALFORMED) {
			problem(a, "annot-malformed", (long)i, c.off, before,
				"malformed [%%%.*s] command: %s", (int)c.name_len, c.name,
				c.problem);
			continue;
		}
		if (c.kind == VC_ANNOT_BY) {
			by_record(w, &c, i, ln, before);
			continue;
		}
		struct ev *e = event(a, c.kind, i, &c, w->depth, before);
		if (!e)
			break;
		if (c.kind == VC_ANNOT_COMMENT) {
			if (comment_record(a, &c, i, it, e, before, &plain_used) != 0)
				break;
			continue;
		}
		draw_record(a, &w->d, e, &c, i, before);
	}
}

/* Item i of the game, on the walk. */
static void walk_item(struct walk *w, size_t i)
{
	struct vc_annot *a = w->a;
	const struct vc_item *it = vc_game_item(w->g, i);
	struct line *ln = &w->lines[w->depth];
	if (it->type == VC_IT_VAR_START) {
		if (grow((void **)&w->lines, &w->caplines, (size_t)w->depth + 1,
			 sizeof *w->lines) != 0) {
			a->oom = 1;
			return;
		}
		ln = &w->lines[w->depth];
		/* the variation replaces the line's last move */
		w->lines[w->depth + 1].last = -1;
		w->lines[w->depth + 1].plies = ln->plies > 0 ? ln->plies - 1 : 0;
		w->depth++;
	} else if (it->type == VC_IT_VAR_END) {
		if (w->depth > 0)
			w->depth--;
	} else if (it->type == VC_IT_MOVE) {
		ln->last = (long)i;
		ln->plies++;
		if (w->depth == 0) {
			if (grow((void **)&w->main_moves, &w->capmain, w->nmain,
				 sizeof *w->main_moves) != 0) {
				a->oom = 1;
				return;
			}
			w->main_moves[w->nmain++] = (long)i;
		}
	} else if (it->type == VC_IT_COMMENT && may_hold_record(it->text, it->len)) {
		read_comment(w, i, it, ln);
	}
}

int vc_annot_read(struct vc_annot *a, const struct vc_game *g)
{
	size_t nitems = vc_game_item_count(g);
	vc_buf_reset(&a->pool);
	a->nev = a->nprob = 0;
	a->draw = -1;
	a->oom = 0;
	if (nitems > a->capauthor) {
		size_t *na = realloc(a->author, nitems * sizeof *na);
		if (!na)
			return -1;
		a->author = na;
		a->capauthor = nitems;
	}
	read_tag(a, g);
	/* the game as read holds every comment: when it holds no record
	 * command at all, as nearly every game does not, nothing is to do */
	size_t rawlen;
	const char *raw = vc_game_raw(g, &rawlen);
	int records = vc_game_records(g);
	if (records == VC_RECORDS_NONE ||
	    (records == VC_RECORDS_UNKNOWN && comments_in_raw(g, raw, rawlen) &&
	     !may_hold_record(raw, rawlen))) {
		a->nauthor = 0;
		point_into_pool(a);
		return 0;
	}
	a->nauthor = nitems;
	if (nitems)
		memset(a->author, 0, nitems * sizeof *a->author);

	struct walk w = { .a = a, .g = g };
	if (grow((void **)&w.lines, &w.caplines, 0, sizeof *w.lines) != 0)
		return -1;
	w.lines[0].last = -1;
	w.lines[0].plies = 0;
	for (size_t i = 0; i < nitems && !a->oom; i++)
		walk_item(&w, i);
	free(w.lines);
	free(w.main_moves);
	if (a->oom)
		return -1;
	point_into_pool(a);
	return 0;
}

const char *vc_annot_author(const struct vc_annot *a, size_t item)
{
	if (item >= a->nauthor || !a->author[item])
		return NULL;
	return pool_str(a, a->author[item] - 1);
}

size_t vc_annot_event_count(const struct vc_annot *a)
{
	return a->nev;
}

const struct vc_annot_event *vc_annot_event_at(const struct vc_annot *a, size_t i)
{
	return i < a->nev ? &a->ev[i].e : NULL;
}

size_t vc_annot_problem_count(const struct vc_annot *a)
{
	return a->nprob;
}

const struct vc_annot_problem *vc_annot_problem_at(const struct vc_annot *a, size_t i)
{
	return i < a->nprob ? &a->prob[i].p : NULL;
}

int vc_annot_needed(const struct vc_annot *a)
{
	return a->needed;
}

long vc_annot_draw_event(const struct vc_annot *a)
{
	return a->draw;
}
