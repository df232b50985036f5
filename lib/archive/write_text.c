/*
 * archive/write_text.c - one game as canonical text (vchess-text(5)), as
 * position strings and as EPD, for the writer object (writer.c).  The text is folded
 * at a width without splitting a token; reading it back and writing it
 * again gives the same bytes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"

/* Folding: tokens are separated by one space, or by a line end when the
 * next one would pass the width; a token is never split, and one longer
 * than the width stands on a line of its own.  '(' is glued to the token
 * after it and ')' to the token before it; both are known when the token
 * is written (the canonical form is a list, so the writer looks ahead),
 * which lets each token be written once, straight into memory reserved
 * for the whole game. */
struct tw {
	char *o;
	size_t col, width;
	int opens; /* '(' waiting for the next token */
};

/* Starts a token of len bytes (its glued brackets included). */
static inline void tw_sep(struct tw *t, size_t len)
{
	if (t->col == 0) {
		t->col = len;
	} else if (t->col + 1 + len <= t->width) {
		*t->o++ = ' ';
		t->col += 1 + len;
	} else {
		*t->o++ = '\n';
		t->col = len;
	}
}

static inline void tw_put(struct tw *t, const char *s, size_t n)
{
	if (!n)
		return; /* also when s is NULL */
	memcpy(t->o, s, n);
	t->o += n;
}

static inline void tw_fill(struct tw *t, char c, int n)
{
	for (int i = 0; i < n; i++)
		*t->o++ = c;
}

/* A token: the waiting '(', s, s2, then closes ')'. */
static void tw_tok(struct tw *t, const char *s, size_t n, const char *s2, size_t n2, int closes)
{
	tw_sep(t, (size_t)t->opens + n + n2 + (size_t)closes);
	tw_fill(t, '(', t->opens);
	t->opens = 0;
	tw_put(t, s, n);
	if (n2)
		tw_put(t, s2, n2);
	tw_fill(t, ')', closes);
}

/* Ends the line, for what must stand at a line's start. */
static void tw_newline(struct tw *t)
{
	if (t->opens)
		tw_tok(t, "", 0, NULL, 0, 0);
	if (t->col > 0) {
		*t->o++ = '\n';
		t->col = 0;
	}
}

/* An escape line; a line end in it (a game from XML may hold one) cannot
 * stand there and becomes a space. */
static void tw_escape(struct tw *t, const struct vc_cev *e)
{
	*t->o++ = '%';
	for (size_t k = 0; k < e->len; k++)
		*t->o++ = e->text[k] == '\n' || e->text[k] == '\r' ? ' ' : e->text[k];
	*t->o++ = '\n';
}

/* Writes n in decimal at p; returns the length. */
static size_t put_num(char *p, long n)
{
	char b[24];
	size_t k = 0;
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
	do {
		b[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	size_t len = k + (n < 0);
	if (n < 0)
		*p++ = '-';
	while (k)
		*p++ = b[--k];
	return len;
}

/* The ')' that follow event i, to glue to its last token. */
static int closes_after(const struct vc_canon *c, size_t i)
{
	int k = 0;
	while (i + 1 + (size_t)k < c->n && c->ev[i + 1 + (size_t)k].type == VC_CE_VAR_END)
		k++;
	return k;
}

static void tw_comment(struct tw *t, const struct vc_cev *e, int closes)
{
	if (e->flags & VC_CEF_SEMI) {
		/* a ';' comment runs to the line end */
		tw_tok(t, ";", 1, e->text, e->len, 0);
		*t->o++ = '\n';
		t->col = 0;
		return;
	}
	/* "{" + text + "}", cut at its spaces; when the whole fits on the
	 * line, as most comments do, no space of it can end the line */
	size_t whole = (size_t)t->opens + 2 + e->len + (size_t)closes;
	if (t->col == 0 ? whole <= t->width : t->col + 1 + whole <= t->width) {
		tw_sep(t, whole);
		tw_fill(t, '(', t->opens);
		t->opens = 0;
		*t->o++ = '{';
		tw_put(t, e->text, e->len);
		*t->o++ = '}';
		tw_fill(t, ')', closes);
		return;
	}
	size_t i = 0;
	int first = 1;
	for (;;) {
		size_t j = i;
		while (j < e->len && e->text[j] != ' ')
			j++;
		int last = j >= e->len;
		size_t len = (size_t)t->opens + first + (j - i) + (size_t)(last ? 1 + closes : 0);
		tw_sep(t, len);
		tw_fill(t, '(', t->opens);
		t->opens = 0;
		if (first)
			*t->o++ = '{';
		tw_put(t, e->text + i, j - i);
		if (last) {
			*t->o++ = '}';
			tw_fill(t, ')', closes);
			return;
		}
		first = 0;
		i = j + 1;
	}
}

/* An upper bound of the bytes write_text writes for the game. */
static size_t text_bound(const struct vc_game *g, const struct vc_canon *c)
{
	size_t n = 64;
	for (size_t i = 0; i < c->n; i++) {
		const struct vc_cev *e = &c->ev[i];
		n += 2 * e->len + 48;
		if (e->type == VC_CE_TAG)
			n += strlen(vc_game_tag_name(g, (size_t)e->item));
	}
	return n;
}

int vc_text_game(struct vc_buf *b, const struct vc_game *g, const struct vc_canon *c,
		 size_t width)
{
	if (vc_buf_reserve(b, text_bound(g, c)) < 0)
		return -1;
	struct tw t = { b->p + b->len, 0, width, 0 };
	size_t i = 0, n = c->n;
	char num[32];
	for (; i < n && c->ev[i].type == VC_CE_ESCAPE && (c->ev[i].flags & VC_CEF_PRE); i++) {
		tw_escape(&t, &c->ev[i]);
	}
	int tags = 0;
	for (; i < n && c->ev[i].type == VC_CE_TAG; i++) {
		const struct vc_cev *e = &c->ev[i];
		const char *name = vc_game_tag_name(g, (size_t)e->item);
		*t.o++ = '[';
		tw_put(&t, name, strlen(name));
		tw_put(&t, " \"", 2);
		for (size_t k = 0; k < e->len; k++) {
			char ch = e->text[k];
			if (ch == '"' || ch == '\\')
				*t.o++ = '\\';
			/* a line end cannot stand in a tag (a game from XML may hold one) */
			*t.o++ = ch == '\n' || ch == '\r' ? ' ' : ch;
		}
		tw_put(&t, "\"]\n", 3);
		tags = 1;
	}
	if (tags)
		*t.o++ = '\n';
	for (; i < n; i++) {
		const struct vc_cev *e = &c->ev[i];
		int closes = 0;
		switch (e->type) {
		case VC_CE_MOVE: {
			if (e->flags & VC_CEF_NUMBER) {
				size_t k = put_num(num, e->movenum);
				if (e->side) {
					memcpy(num + k, "...", 3);
					k += 3;
				} else {
					num[k++] = '.';
				}
				tw_tok(&t, num, k, NULL, 0, 0);
			}
			const struct vc_item *it = vc_game_item(g, (size_t)e->item);
			int ep = !(e->flags & VC_CEF_REPLAYED) && (it->flags & VC_IF_EP_MARK);
			closes = closes_after(c, i);
			int sfx = it->suffix && !(e->flags & VC_CEF_BARE);
			tw_tok(&t, e->text, e->len, it->suffix, sfx ? it->suffix_len : 0,
			       ep ? 0 : closes);
			if (ep)
				tw_tok(&t, "e.p.", 4, NULL, 0, closes);
			break;
		}
		case VC_CE_COMMENT:
			closes = e->flags & VC_CEF_SEMI ? 0 : closes_after(c, i);
			tw_comment(&t, e, closes);
			break;
		case VC_CE_NAG:
			num[0] = '$';
			closes = closes_after(c, i);
			tw_tok(&t, num, 1 + put_num(num + 1, e->nag), NULL, 0, closes);
			break;
		case VC_CE_VAR_START:
			t.opens++;
			break;
		case VC_CE_VAR_END:
			/* not glued to a token before it: ')' on its own, or "()" */
			closes = closes_after(c, i);
			tw_tok(&t, "", 0, NULL, 0, 1 + closes);
			break;
		case VC_CE_ESCAPE:
			tw_newline(&t);
			tw_escape(&t, e);
			break;
		case VC_CE_RESULT:
			tw_tok(&t, e->text, e->len, NULL, 0, 0);
			break;
		case VC_CE_TAG:
			break;
		}
		i += (size_t)closes;
	}
	if (t.opens)
		tw_tok(&t, "", 0, NULL, 0, 0);
	tw_put(&t, "\n\n", 2);
	b->len = (size_t)(t.o - b->p);
	b->p[b->len] = '\0';
	return 0;
}


void vc_fen_game(struct vc_buf *b, const struct vc_replay *rp, int plies)
{
	size_t n = vc_replay_fen_count(rp);
	for (size_t k = 0; k < n; k++) {
		vc_buf_adds(b, vc_replay_fen_at(rp, k));
		vc_buf_addc(b, '\n');
	}
	if (plies || n == 0)
		vc_buf_addc(b, '\n');
}


/* One EPD line: the fields of the position string up to its counters, the
 * counters as the operations hmvc and fmvn (and a "ply N" trailer, which
 * some variants' strings carry, as the operation ply), then the game and
 * the ply as id.  A position string always ends in its two counters. */
static void epd_line(struct vc_buf *b, const char *fen, long game, size_t ply)
{
	const char *end = fen + strlen(fen), *ply_op = NULL;
	const char *sp = strrchr(fen, ' ');
	if (sp && sp > fen) {
		const char *sp2 = sp - 1;
		while (sp2 > fen && *sp2 != ' ')
			sp2--;
		if (!strncmp(sp2, " ply ", 5)) {
			ply_op = sp + 1;
			end = sp2;
		}
	}
	/* the two counters before end */
	const char *f = end, *h;
	while (f > fen && f[-1] != ' ')
		f--;
	h = f > fen ? f - 1 : f;
	while (h > fen && h[-1] != ' ')
		h--;
	if (h == fen) { /* not a position string as vchess writes them */
		vc_buf_printf(b, "%s id \"game %ld ply %zu\";\n", fen, game, ply);
		return;
	}
	vc_buf_add(b, fen, (size_t)(h - 1 - fen));
	vc_buf_printf(b, " hmvc %.*s; fmvn %.*s;", (int)(f - 1 - h), h, (int)(end - f), f);
	if (ply_op)
		vc_buf_printf(b, " ply %s;", ply_op);
	vc_buf_printf(b, " id \"game %ld ply %zu\";\n", game, ply);
}

void vc_epd_game(struct vc_buf *b, const struct vc_game *g, const struct vc_replay *rp)
{
	size_t n = vc_replay_fen_count(rp);
	for (size_t k = 0; k < n; k++)
		epd_line(b, vc_replay_fen_at(rp, k), vc_game_number(g), k);
}
