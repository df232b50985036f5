/*
 * archive/canon.c - the canonical form of a game (step 2 of writing, see
 * vchess.h): the flat list of events that every writer (text, XML, JSON)
 * writes, built once per game from its record and its replay.
 *
 * Model.  Every output format writes the same canonical form, built once
 * per game from its record and its replay, so that text, XML and JSON say
 * the same thing and converting between them is stable:
 *  - tags: the Seven Tag Roster first (each name with all its duplicates,
 *    in the order read), then the rest in the order read;
 *  - escape lines that open the game stand before the tags;
 *  - moves in the variant's canonical SAN when they were replayed (long
 *    algebraic or coordinates on request), as written when not (a line is
 *    dead after its first error); NAGs and move suffixes, unless left out;
 *  - comments with each run of blanks made one space (so that folding a
 *    line inside a comment, or reading it back, changes nothing);
 *  - comments the writer adds itself: the errors of an invalid game at the
 *    start of its movetext, the text the reader could not read at its end,
 *    and on request a position or transformation mark after a move.  Each
 *    is added only when the same comment is not already in that place, so
 *    converting canonical output again reproduces it byte for byte;
 *  - variations left open are closed; the result is the movetext's result,
 *    else the Result tag's when it is a result, else '*'.
 *
 * Invariants: canon events point into the game, the replay or the canon's
 * own pool, and stay valid until any of the three changes.  Memory grows
 * to the biggest game seen and is kept for the next one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"

#define NONE ((size_t)-1)

/* ==== step 2: the canonical form ======================================= */

struct vc_canon_frame {
	int side, last_side, has_last, interrupted;
	long num, last_num;
};

struct vc_canon *vc_canon_new(void)
{
	struct vc_canon *c = vc_calloc(1, sizeof *c);
	if (c) {
		vc_buf_init(&c->pool);
		vc_buf_init(&c->tmp);
	}
	return c;
}

void vc_canon_free(struct vc_canon *c)
{
	if (!c)
		return;
	free(c->ev);
	free(c->poff);
	free(c->fr);
	free(c->mark);
	free(c->dix);
	free(c->md);
	free(c->mk);
	vc_buf_free(&c->pool);
	vc_buf_free(&c->tmp);
	free(c);
}

size_t vc_canon_count(const struct vc_canon *c)
{
	return c->n;
}

const struct vc_cev *vc_canon_at(const struct vc_canon *c, size_t i)
{
	return i < c->n ? &c->ev[i] : NULL;
}

static struct vc_cev *add_ev(struct vc_canon *c, enum vc_cev_type type, long item, const char *text,
			     size_t len)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 256;
		struct vc_cev *ne = realloc(c->ev, nc * sizeof *ne);
		if (!ne) {
			c->oom = 1;
			return NULL;
		}
		c->ev = ne;
		size_t *np = realloc(c->poff, nc * sizeof *np);
		if (!np) {
			c->oom = 1;
			return NULL;
		}
		c->poff = np;
		c->cap = nc;
	}
	struct vc_cev *e = &c->ev[c->n];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->item = item;
	e->text = text;
	e->len = len;
	c->poff[c->n] = NONE;
	c->n++;
	return e;
}

/* An event whose text is copied into the pool (pointed at after the build,
 * since the pool may move while it grows). */
static struct vc_cev *add_pooled(struct vc_canon *c, enum vc_cev_type type, long item,
				 const char *text, size_t len)
{
	size_t off = c->pool.len;
	if (vc_buf_add(&c->pool, text, len) < 0) {
		c->oom = 1;
		return NULL;
	}
	struct vc_cev *e = add_ev(c, type, item, NULL, len);
	if (e)
		c->poff[c->n - 1] = off;
	return e;
}

static int is_blank(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* What a comment's text needs: CK_NORM when it is normalised already (no
 * blank but single spaces), CK_BRACE when it holds '}', CK_PLAIN when it is
 * printable ASCII free of markup and backslashes; one pass, since most
 * bytes of annotated archives are comments. */
#define CK_NORM 1
#define CK_BRACE 2
#define CK_PLAIN 4

/* Each byte's part in it, a table so that the one pass costs little: 1 a
 * '}', 2 not plain, 4 not normalised, 8 a blank, 16 a space (which a
 * blank after it makes not normalised). */
static const uint8_t ck_byte[256] = {
	 2,  2,  2,  2,  2,  2,  2,  2,  2, 14, 14, 14, 14, 14,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	24,  0,  2,  0,  0,  0,  2,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  2,  0,  2,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  2,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  0,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
	 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
};

static unsigned classify(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned acc = 0, prev = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = ck_byte[u[i]];
		acc |= c | (((prev >> 1) & c & 8) >> 1);
		prev = c;
	}
	unsigned r = CK_NORM | CK_PLAIN;
	if (acc & 1)
		r |= CK_BRACE;
	if (acc & 2)
		r &= ~(unsigned)CK_PLAIN;
	if (acc & 4)
		r &= ~(unsigned)CK_NORM;
	return r;
}

/* Appends s normalised to b. */
static void norm_into(struct vc_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (is_blank((unsigned char)s[i])) {
			vc_buf_addc(b, ' ');
			while (i < n && is_blank((unsigned char)s[i]))
				i++;
		} else {
			size_t j = i;
			while (j < n && !is_blank((unsigned char)s[j]))
				j++;
			vc_buf_add(b, s + i, j - i);
			i = j;
		}
	}
}

/* Does s[0, n), normalised, equal t[0, tn) (normalised already)? */
static int norm_eq(const char *s, size_t n, const char *t, size_t tn)
{
	size_t i = 0, k = 0;
	while (i < n) {
		if (is_blank((unsigned char)s[i])) {
			while (i < n && is_blank((unsigned char)s[i]))
				i++;
			if (k >= tn || t[k] != ' ')
				return 0;
			k++;
		} else {
			if (k >= tn || t[k] != s[i])
				return 0;
			i++;
			k++;
		}
	}
	return k == tn;
}

/* A comment event with text normalised; no copy when it already is. */
static struct vc_cev *add_comment(struct vc_canon *c, long item, const char *s, size_t n,
				  unsigned flags)
{
	struct vc_cev *e;
	if (!s)
		s = "";
	unsigned k = classify(s, n);
	if (k & CK_NORM) {
		e = add_ev(c, VC_CE_COMMENT, item, s, n);
	} else {
		vc_buf_reset(&c->tmp);
		norm_into(&c->tmp, s, n);
		if (c->tmp.oom) {
			c->oom = 1;
			return NULL;
		}
		e = add_pooled(c, VC_CE_COMMENT, item, c->tmp.p, c->tmp.len);
		/* blanks other than spaces made it not plain; normalised it may be */
		if (e && (classify(c->tmp.p, c->tmp.len) & CK_PLAIN))
			k |= CK_PLAIN;
	}
	if (!e)
		return NULL;
	e->flags = flags | (k & CK_BRACE ? VC_CEF_SEMI : 0) | (k & CK_PLAIN ? VC_CEF_PLAIN : 0);
	return e;
}

/* A comment the writer makes (its text normalised already). */
static void gen_comment(struct vc_canon *c, const char *s, size_t n, unsigned flags)
{
	unsigned k = classify(s, n);
	struct vc_cev *e = add_pooled(c, VC_CE_COMMENT, -1, s, n);
	if (e)
		e->flags = flags | (k & CK_BRACE ? VC_CEF_SEMI : 0) |
			   (k & CK_PLAIN ? VC_CEF_PLAIN : 0);
}

static int item_is_comment(const struct vc_item *it)
{
	return it && it->type == VC_IT_COMMENT;
}

/* ---- comments the writer makes ---- */

/* Reading errors after which the reader skipped the rest of the game: the
 * bytes from the error on are in the game's raw text only. */
static int breaks_stream(const char *code)
{
	static const char *const codes[] = { "nul-byte",    "char-unexpected", "limit-line",
					     "limit-depth", "limit-diags",     "limit-game-size" };
	if (!code)
		return 0;
	for (size_t i = 0; i < VC_NELEM(codes); i++)
		if (!strcmp(code, codes[i]))
			return 1;
	return 0;
}

/* The offset in raw of line:col of the game, or NONE.  The game's first
 * byte is taken to stand in column 1 of its first line, which it does
 * unless the game shares its first line with the end of the one before. */
static size_t raw_offset(const struct vc_game *g, long line, long col)
{
	size_t len;
	const char *raw = vc_game_raw(g, &len);
	long l = vc_game_line(g);
	size_t i = 0;
	if (line < l || col < 1 || len == 0)
		return NONE;
	while (l < line && i < len) {
		if (raw[i] == '\r' || raw[i] == '\n') {
			if (raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n')
				i++;
			l++;
		}
		i++;
	}
	if (l < line)
		return NONE;
	size_t off = i + (size_t)(col - 1);
	return off <= len ? off : len;
}

/* Appends raw bytes for a comment: control bytes other than blanks as
 * \xNN, so that a NUL or a stray byte cannot break the text again. */
static void add_shown(struct vc_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if ((ch < 0x20 && !is_blank(ch)) || ch == 0x7f)
			vc_buf_printf(b, "\\x%02X", ch);
		else
			vc_buf_addc(b, ch);
	}
}

/* The text of the error comment for diagnostic d into b (normalised). */
static void error_text(struct vc_buf *raw_b, struct vc_buf *b, const struct vc_game *g,
		       const struct vc_game_diag *d)
{
	vc_buf_reset(raw_b);
	vc_buf_adds(raw_b, "vchess: error: ");
	if (d->context && *d->context) {
		vc_buf_adds(raw_b, d->context);
		vc_buf_adds(raw_b, ": ");
	}
	vc_buf_adds(raw_b, d->message ? d->message : "");
	if (d->code && !strcmp(d->code, "tag-syntax")) {
		/* the broken tag line is dropped by the reader: keep it here */
		size_t len, a = raw_offset(g, d->line, 1);
		const char *raw = vc_game_raw(g, &len);
		if (a != NONE) {
			size_t e = a;
			while (e < len && raw[e] != '\n' && raw[e] != '\r')
				e++;
			vc_buf_adds(raw_b, " in '");
			add_shown(raw_b, raw + a, e - a);
			vc_buf_addc(raw_b, '\'');
		}
	}
	vc_buf_reset(b);
	norm_into(b, raw_b->p ? raw_b->p : "", raw_b->len);
}

/* The comment keeping the text the reader skipped, into b, or 0. */
static int unread_text(struct vc_buf *raw_b, struct vc_buf *b, const struct vc_game *g)
{
	size_t nd = vc_game_diag_count(g);
	for (size_t i = 0; i < nd; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (!breaks_stream(d->code))
			continue;
		size_t len, off = raw_offset(g, d->line, d->col);
		const char *raw = vc_game_raw(g, &len);
		if (off == NONE)
			return 0;
		while (len > off && is_blank((unsigned char)raw[len - 1]))
			len--;
		if (len <= off)
			return 0;
		vc_buf_reset(raw_b);
		vc_buf_adds(raw_b, "vchess: unread: ");
		add_shown(raw_b, raw + off, len - off);
		vc_buf_reset(b);
		norm_into(b, raw_b->p, raw_b->len);
		return 1;
	}
	return 0;
}

/* ---- numbering ---- */

static struct vc_canon_frame *push_fr(struct vc_canon *c)
{
	if (c->nfr == c->capfr) {
		size_t nc = c->capfr ? c->capfr * 2 : 16;
		struct vc_canon_frame *nf = realloc(c->fr, nc * sizeof *nf);
		if (!nf) {
			c->oom = 1;
			return NULL;
		}
		c->fr = nf;
		c->capfr = nc;
	}
	struct vc_canon_frame *f = &c->fr[c->nfr++];
	memset(f, 0, sizeof *f);
	f->interrupted = 1;
	return f;
}

/* Side and move number of the game's start, from its FEN tag as far as
 * it reads (used only when the first move was not replayed). */
static void start_of(const struct vc_game *g, int *side, long *num)
{
	*side = 0;
	*num = 1;
	const char *fen = vc_game_tag(g, "FEN");
	if (!fen)
		return;
	const char *f[6];
	int nf = 0;
	for (const char *s = fen; *s && nf < 6;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		f[nf++] = s;
		while (*s && *s != ' ')
			s++;
	}
	if (nf >= 2 && f[1][0] == 'b' && (f[1][1] == ' ' || !f[1][1]))
		*side = 1;
	if (nf >= 6) {
		char *end;
		long n = strtol(f[5], &end, 10);
		if (end != f[5] && (*end == ' ' || !*end) && n >= 1)
			*num = n;
	}
}

/* ---- the moves' annotations as data ---- */

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Digits at s[*i], between min and max of them: 1 and *i past them. */
static int digits(const char *s, size_t n, size_t *i, int min, int max)
{
	int k = 0;
	while (*i < n && is_digit(s[*i]) && k < max)
		(*i)++, k++;
	return k >= min && !(*i < n && is_digit(s[*i]));
}

/* A clock, H:MM:SS with maybe a fraction (1 to 5 digits of hours, 1 or 2
 * of minutes and seconds, up to 3 after the point), copied into out. */
static int read_clock(const char *s, size_t n, char out[24])
{
	size_t i = 0;
	if (!digits(s, n, &i, 1, 5) || i >= n || s[i++] != ':' || !digits(s, n, &i, 1, 2) ||
	    i >= n || s[i++] != ':' || !digits(s, n, &i, 1, 2))
		return 0;
	if (i < n && s[i] == '.' && (++i, !digits(s, n, &i, 1, 3)))
		return 0;
	if (i != n)
		return 0;
	memcpy(out, s, n);
	out[n] = 0;
	return 1;
}

/* Appends the digits [s, s + n) without leading zeros (one kept). */
static size_t put_digits(char *o, const char *s, size_t n)
{
	while (n > 1 && *s == '0')
		s++, n--;
	memcpy(o, s, n);
	return n;
}

/* An evaluation: pawns ([+-]D, [+-]D.D, [+-].D, up to 6 digits on each
 * side) or a mate (#[+-]D, up to 4 digits), then maybe ",DEPTH"; written
 * into d as JSON numbers. */
static int read_eval(const char *s, size_t n, struct vc_move_data *d)
{
	size_t i = 0, comma = n;
	for (size_t k = 0; k < n; k++)
		if (s[k] == ',') {
			comma = k;
			break;
		}
	char num[24], dep[8] = "";
	if (comma < n) {
		size_t j = comma + 1;
		if (!digits(s, n, &j, 1, 4) || j != n)
			return 0;
		dep[put_digits(dep, s + comma + 1, n - comma - 1)] = 0;
	}
	int mate = i < comma && s[i] == '#';
	i += (size_t)mate;
	int neg = i < comma && s[i] == '-';
	i += i < comma && (s[i] == '-' || s[i] == '+');
	size_t k = 0, p = i;
	if (neg)
		num[k++] = '-';
	int whole = digits(s, comma, &i, 1, mate ? 4 : 6);
	if (mate) {
		if (!whole || i != comma)
			return 0;
		k += put_digits(num + k, s + p, i - p);
	} else {
		if (whole)
			k += put_digits(num + k, s + p, i - p);
		else
			num[k++] = '0';
		if (i < comma && s[i] == '.') {
			size_t f = ++i;
			if (!digits(s, comma, &i, 1, 6))
				return 0;
			num[k++] = '.';
			memcpy(num + k, s + f, i - f);
			k += i - f;
		} else if (!whole) {
			return 0;
		}
		if (i != comma)
			return 0;
	}
	num[k] = 0;
	strcpy(mate ? d->mate : d->eval, num);
	(mate ? d->eval : d->mate)[0] = 0;
	strcpy(d->depth, dep);
	return 1;
}

/* A square: a file letter and a rank from 1 to 99, on the board of v
 * when the variant is known. */
static size_t read_sq(const struct vc_variant *v, const char *s, size_t n, char out[4])
{
	if (n < 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
		return 0;
	size_t k = 2 + (n > 2 && is_digit(s[2]));
	int rank = k == 3 ? (s[1] - '0') * 10 + s[2] - '0' : s[1] - '0';
	if (v && (s[0] - 'a' >= v->files || rank > v->ranks))
		return 0;
	memcpy(out, s, k);
	out[k] = 0;
	return k;
}

static int grow_marks(struct vc_canon *c)
{
	if (c->nmk < c->capmk)
		return 0;
	size_t nc = c->capmk ? c->capmk * 2 : 32;
	struct vc_mark *nm = realloc(c->mk, nc * sizeof *nm);
	if (!nm) {
		c->oom = 1;
		return -1;
	}
	c->mk = nm;
	c->capmk = nc;
	return 0;
}

/* [%cal Ge2e4,Rd7d5] (arrows: two squares) or [%csl Gd4] (squares: one);
 * as lichess reads them, either command may hold either.  Every item must
 * read, or none is taken. */
static int read_marks(struct vc_canon *c, const struct vc_variant *v, const char *s, size_t n)
{
	size_t first = c->nmk, i = 0;
	while (i < n) {
		struct vc_mark m = { 0 };
		size_t e = i;
		while (e < n && s[e] != ',')
			e++;
		size_t k = i + 1, a = 0, b = 0;
		if (e - i < 3 || !s[i] || !strchr("RGYB", s[i]) ||
		    (a = read_sq(v, s + k, e - k, m.from)) == 0 ||
		    (k + a < e && (b = read_sq(v, s + k + a, e - k - a, m.to)) == 0) || k + a + b != e ||
		    (e < n && e + 1 == n) || grow_marks(c) < 0) {
			c->nmk = first;
			return 0;
		}
		m.color = s[i];
		c->mk[c->nmk++] = m;
		i = e + (e < n);
	}
	return c->nmk > first;
}

/* The commands of one comment into d: the clock, elapsed time and
 * evaluation (the last of each counts, as lichess reads them), every
 * arrow and square. */
static void read_data(struct vc_canon *c, const struct vc_variant *v, const char *t, size_t n,
		      struct vc_move_data *d)
{
	size_t pos = 0;
	struct vc_annot_cmd cmd;
	while (vc_annot_next(t, n, &pos, &cmd)) {
		size_t nl = cmd.name_len;
		const char *a = cmd.name + nl, *end = t + cmd.off + cmd.len;
		if (cmd.kind != VC_ANNOT_OTHER || end[-1] != ']' || a >= end || *a != ' ')
			continue;
		a++;
		size_t al = (size_t)(end - 1 - a);
		while (al && a[al - 1] == ' ')
			al--;
		if (nl == 3 && !memcmp(cmd.name, "clk", 3) && al < 24) {
			read_clock(a, al, d->clk);
		} else if (nl == 3 && !memcmp(cmd.name, "emt", 3) && al < 24) {
			read_clock(a, al, d->emt);
		} else if (nl == 4 && !memcmp(cmd.name, "eval", 4)) {
			read_eval(a, al, d);
		} else if (nl == 3 && (!memcmp(cmd.name, "cal", 3) || !memcmp(cmd.name, "csl", 3))) {
			read_marks(c, v, a, al);
		}
	}
}

/* Comments the writer made are not the player's: no data there. */
static int is_data_source(const struct vc_cev *e)
{
	return e->type == VC_CE_COMMENT && !(e->flags & (VC_CEF_GENERATED | VC_CEF_DERIVED)) &&
	       memchr(e->text, '[', e->len);
}

/* The data of every move, from the comments that follow it; squares on
 * v's board when v is known. */
static void add_data(struct vc_canon *c, const struct vc_variant *v)
{
	c->nmd = c->nmk = 0;
	if (c->n > c->capdix) {
		long *nd = realloc(c->dix, c->cap * sizeof *nd);
		if (!nd) {
			c->oom = 1;
			return;
		}
		c->dix = nd;
		c->capdix = c->cap;
	}
	for (size_t i = 0; i < c->n; i++) {
		c->dix[i] = -1;
		if (c->ev[i].type != VC_CE_MOVE)
			continue;
		struct vc_move_data d = { .mark0 = c->nmk };
		int any = 0;
		for (size_t k = i + 1; k < c->n; k++) {
			const struct vc_cev *e = &c->ev[k];
			if (e->type != VC_CE_COMMENT && e->type != VC_CE_NAG &&
			    e->type != VC_CE_ESCAPE)
				break;
			if (is_data_source(e)) {
				read_data(c, v, e->text, e->len, &d);
				any = 1;
			}
		}
		d.nmark = c->nmk - d.mark0;
		if (!any || (!d.clk[0] && !d.emt[0] && !d.eval[0] && !d.mate[0] && !d.nmark))
			continue;
		if (c->nmd == c->capmd) {
			size_t nc = c->capmd ? c->capmd * 2 : 128;
			struct vc_move_data *nm = realloc(c->md, nc * sizeof *nm);
			if (!nm) {
				c->oom = 1;
				return;
			}
			c->md = nm;
			c->capmd = nc;
		}
		c->md[c->nmd] = d;
		c->dix[i] = (long)c->nmd++;
	}
}

const struct vc_move_data *vc_canon_data(const struct vc_canon *c, size_t i)
{
	if (!c->want_data || i >= c->n || !c->dix || c->dix[i] < 0)
		return NULL;
	return &c->md[c->dix[i]];
}

const struct vc_mark *vc_canon_mark(const struct vc_canon *c, size_t k)
{
	return k < c->nmk ? &c->mk[k] : NULL;
}

/* ---- the build ---- */

static const char *const roster[] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result"
};

static int in_roster(const char *name)
{
	for (size_t i = 0; i < VC_NELEM(roster); i++)
		if (!strcmp(name, roster[i]))
			return 1;
	return 0;
}

static const char *result_of(const struct vc_game *g)
{
	const char *r = vc_game_result(g);
	if (r)
		return r;
	r = vc_game_tag(g, "Result");
	if (r && (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2")))
		return r;
	return "*";
}

/* The derived comments of a replayed move, in the order written. */
static int derived_of(const struct vc_replay *rp, const struct vc_write_opts *o, size_t item,
		      struct vc_buf *b, size_t off[2], size_t len[2])
{
	int n = 0;
	vc_buf_reset(b);
	const char *fen = o->fen_after ? vc_replay_fen(rp, item) : NULL;
	if (fen) {
		off[n] = b->len;
		vc_buf_printf(b, "[%%fen %s]", fen);
		len[n] = b->len - off[n];
		n++;
	}
	if (o->mark_transforms && vc_replay_transforms(rp, item)) {
		off[n] = b->len;
		vc_buf_adds(b, "[%transform]");
		len[n] = b->len - off[n];
		n++;
	}
	return n;
}

/* The state of one build: the game, its replay and the options; where the
 * comments that open the movetext are; the variations open. */
struct build {
	struct vc_canon *c;
	const struct vc_game *g;
	const struct vc_replay *rp;
	const struct vc_write_opts *o;
	size_t n;           /* the game's items */
	size_t lead0, lead; /* the comments that open the movetext: items [lead0, lead) */
	int depth;          /* variations open */
	int skip;           /* depth inside a variation being left out */
	struct vc_buf eb, raw_b;
};

/* Escape lines that open the game, items from 0: they stand before its
 * tags.  Returns the first item that is none. */
static size_t add_pre_escapes(struct build *b)
{
	size_t i;
	for (i = 0; i < b->n; i++) {
		const struct vc_item *it = vc_game_item(b->g, i);
		if (it->type != VC_IT_ESCAPE)
			break;
		if (!b->o->no_comments) {
			struct vc_cev *e = add_ev(b->c, VC_CE_ESCAPE, (long)i, it->text, it->len);
			if (e)
				e->flags = VC_CEF_PRE;
		}
	}
	return i;
}

/* The tags: the Seven Tag Roster first, then the rest in the order read. */
static void add_tags(struct build *b)
{
	size_t nt = vc_game_tag_count(b->g);
	for (size_t r = 0; r < VC_NELEM(roster); r++)
		for (size_t t = 0; t < nt; t++)
			if (!strcmp(vc_game_tag_name(b->g, t), roster[r])) {
				const char *v = vc_game_tag_value(b->g, t);
				add_ev(b->c, VC_CE_TAG, (long)t, v, strlen(v));
			}
	for (size_t t = 0; t < nt; t++)
		if (!in_roster(vc_game_tag_name(b->g, t))) {
			const char *v = vc_game_tag_value(b->g, t);
			add_ev(b->c, VC_CE_TAG, (long)t, v, strlen(v));
		}
}

/* The comments that open the movetext at item i: [lead0, lead), none of
 * them marked as ours yet. */
static void find_leading(struct build *b, size_t i)
{
	struct vc_canon *c = b->c;
	size_t lead = i;
	while (lead < b->n && vc_game_item(b->g, lead)->type == VC_IT_COMMENT)
		lead++;
	if (lead - i > c->capmark) {
		unsigned char *nm = realloc(c->mark, lead - i);
		if (!nm) {
			c->oom = 1;
			lead = i;
		} else {
			c->mark = nm;
			c->capmark = lead - i;
		}
	}
	if (lead > i)
		memset(c->mark, 0, lead - i);
	b->lead0 = i;
	b->lead = lead;
}

/* The errors of an invalid game open its movetext.  One that is already
 * among the comments that open it (written there by an earlier
 * conversion) is not written again, and that copy counts as ours; so
 * converting the output again changes nothing, even when some errors went
 * away with the first conversion (text it could not read, say). */
static void add_errors(struct build *b)
{
	struct vc_canon *c = b->c;
	if (vc_game_worst(b->g) < VC_SEV_ERROR)
		return;
	size_t nd = vc_game_diag_count(b->g);
	for (size_t d = 0; d < nd; d++) {
		const struct vc_game_diag *gd = vc_game_diag_at(b->g, d);
		if (gd->severity < VC_SEV_ERROR)
			continue;
		error_text(&b->raw_b, &b->eb, b->g, gd);
		int found = 0;
		for (size_t j = b->lead0; j < b->lead && !b->o->no_comments && !found; j++) {
			const struct vc_item *it = vc_game_item(b->g, j);
			if (!c->mark[j - b->lead0] &&
			    norm_eq(it->text, it->len, b->eb.p, b->eb.len))
				c->mark[j - b->lead0] = found = 1;
		}
		if (!found)
			gen_comment(c, b->eb.p, b->eb.len, VC_CEF_GENERATED);
	}
}

/* After replayed move item mi, ending at item *ip: its NAGs, then the
 * comments derived from the replay (a comment already there that says the
 * same is taken as that one).  *ip ends at the last item used. */
static void add_move_extras(struct build *b, struct vc_canon_frame *f, size_t mi, size_t *ip)
{
	struct vc_canon *c = b->c;
	const struct vc_game *g = b->g;
	size_t i = *ip;
	while (i + 1 < b->n && vc_game_item(g, i + 1)->type == VC_IT_NAG) {
		i++;
		if (b->o->no_nags)
			continue;
		struct vc_cev *e = add_ev(c, VC_CE_NAG, (long)i, NULL, 0);
		if (e)
			e->nag = vc_game_item(g, i)->nag;
		f->interrupted = 1;
	}
	size_t off[2], len[2];
	int nder = derived_of(b->rp, b->o, mi, &b->eb, off, len);
	for (int k = 0; k < nder; k++) {
		const struct vc_item *nx = vc_game_item(g, i + 1);
		if (!b->o->no_comments && item_is_comment(nx) &&
		    norm_eq(nx->text, nx->len, b->eb.p + off[k], len[k])) {
			i++;
			add_comment(c, (long)i, nx->text, nx->len, VC_CEF_DERIVED);
		} else {
			gen_comment(c, b->eb.p + off[k], len[k], VC_CEF_DERIVED);
		}
		f->interrupted = 1;
	}
	*ip = i;
}

/* Move item *ip: canonical SAN when it was replayed, with its number, and
 * after it what add_move_extras adds. */
static void add_move(struct build *b, struct vc_canon_frame *f, size_t *ip)
{
	size_t i = *ip;
	const struct vc_item *it = vc_game_item(b->g, i);
	const char *san = vc_replay_san(b->rp, i,
					b->o->long_algebraic || b->o->uci || b->o->notation || b->o->shogi);
	struct vc_cev *e = san ? add_ev(b->c, VC_CE_MOVE, (long)i, san, strlen(san))
			       : add_ev(b->c, VC_CE_MOVE, (long)i, it->text, it->len);
	if (!e)
		return;
	if (b->o->no_nags)
		e->flags |= VC_CEF_BARE;
	int side = f->side;
	long num = f->num;
	if (san) {
		e->flags |= VC_CEF_REPLAYED;
		vc_replay_numbering(b->rp, i, &side, &num);
	}
	e->side = side;
	e->movenum = num;
	if (side == 0 || f->interrupted)
		e->flags |= VC_CEF_NUMBER;
	f->interrupted = 0;
	f->has_last = 1;
	f->last_side = side;
	f->last_num = num;
	f->side = !side;
	f->num = side ? num + 1 : num;
	if (san)
		add_move_extras(b, f, i, ip);
}

/* A '(' at item i: a variation, numbered from the move it replaces (or
 * left out, with everything up to its ')'). */
static void add_var_start(struct build *b, struct vc_canon_frame *f, size_t i)
{
	if (b->o->no_variations) {
		b->skip = 1;
		return;
	}
	add_ev(b->c, VC_CE_VAR_START, (long)i, NULL, 0);
	int s = f->has_last ? f->last_side : f->side;
	long num = f->has_last ? f->last_num : f->num;
	struct vc_canon_frame *nf = push_fr(b->c);
	if (nf) {
		nf->side = s;
		nf->num = num;
	}
	b->depth++;
}

/* The events of item *ip and of the items it takes with it; *ip ends at
 * the last item used. */
static void add_item(struct build *b, size_t *ip)
{
	struct vc_canon *c = b->c;
	size_t i = *ip;
	const struct vc_item *it = vc_game_item(b->g, i);
	struct vc_canon_frame *f = &c->fr[c->nfr - 1];
	switch (it->type) {
	case VC_IT_MOVE:
		add_move(b, f, ip);
		break;
	case VC_IT_COMMENT:
		if (b->o->no_comments)
			break;
		add_comment(c, (long)i, it->text, it->len,
			    i < b->lead && c->mark[i - b->lead0] ? VC_CEF_GENERATED : 0);
		f->interrupted = 1;
		break;
	case VC_IT_ESCAPE:
		if (b->o->no_comments)
			break;
		add_ev(c, VC_CE_ESCAPE, (long)i, it->text, it->len);
		f->interrupted = 1;
		break;
	case VC_IT_NAG: {
		if (b->o->no_nags)
			break;
		struct vc_cev *e = add_ev(c, VC_CE_NAG, (long)i, NULL, 0);
		if (e)
			e->nag = it->nag;
		f->interrupted = 1;
		break;
	}
	case VC_IT_VAR_START:
		add_var_start(b, f, i);
		break;
	case VC_IT_VAR_END:
		if (b->depth == 0)
			break; /* the reader reported it */
		add_ev(c, VC_CE_VAR_END, (long)i, NULL, 0);
		b->depth--;
		c->nfr--;
		c->fr[c->nfr - 1].interrupted = 1;
		break;
	}
}

/* The movetext from item i on. */
static void add_movetext(struct build *b, size_t i)
{
	struct vc_canon *c = b->c;
	struct vc_canon_frame *f = push_fr(c);
	if (f)
		start_of(b->g, &f->side, &f->num);
	for (; i < b->n && !c->oom; i++) {
		if (b->skip) {
			enum vc_item_type t = vc_game_item(b->g, i)->type;
			if (t == VC_IT_VAR_START)
				b->skip++;
			else if (t == VC_IT_VAR_END)
				b->skip--;
			continue;
		}
		add_item(b, &i);
	}
	if (unread_text(&b->raw_b, &b->eb, b->g))
		gen_comment(c, b->eb.p, b->eb.len, VC_CEF_GENERATED);
	for (; b->depth > 0; b->depth--)
		add_ev(c, VC_CE_VAR_END, -1, NULL, 0);
	const char *res = result_of(b->g);
	add_ev(c, VC_CE_RESULT, -1, res, strlen(res));
}

int vc_canon_build(struct vc_canon *c, const struct vc_game *g, const struct vc_replay *rp,
		   const struct vc_write_opts *opts)
{
	struct vc_write_opts o0;
	struct build b = { .c = c, .g = g, .rp = rp, .o = opts };
	if (!b.o) {
		memset(&o0, 0, sizeof o0);
		b.o = &o0;
	}
	c->n = 0;
	c->nfr = 0;
	c->oom = 0;
	vc_buf_reset(&c->pool);
	b.n = vc_game_item_count(g);
	vc_buf_init(&b.eb);
	vc_buf_init(&b.raw_b);

	size_t i = add_pre_escapes(&b);
	if (!b.o->no_tags)
		add_tags(&b);
	find_leading(&b, i);
	add_errors(&b);
	add_movetext(&b, i);

	if (b.eb.oom || b.raw_b.oom || c->pool.oom)
		c->oom = 1;
	vc_buf_free(&b.eb);
	vc_buf_free(&b.raw_b);
	/* the pool no longer moves: point into it */
	for (size_t k = 0; k < c->n; k++)
		if (c->poff[k] != NONE)
			c->ev[k].text = c->pool.p + c->poff[k];
	if (c->want_data && !c->oom)
		add_data(c, rp ? vc_replay_variant(rp) : NULL);
	return c->oom ? -1 : 0;
}
