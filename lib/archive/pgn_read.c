/*
 * pgn_read.c - the streaming reader of the PGN-like text format.
 *
 * Model: the input is read in big chunks into one window.  The window
 * holds the game being read from its first byte (gs) on, so that the game
 * can finally be copied into its record in one piece; bytes before gs are
 * dropped whenever the window is refilled.  Scanning never goes past lim,
 * the end of the last complete line in the window (all of the window once
 * the input has ended), and the window always ends with a NUL sentinel, so
 * the inner loops need no bounds checks: every loop stops at a line end or
 * at a NUL, and a NUL before the sentinel is a NUL byte of the input.
 * Only comments and skipped text span lines; they ask for more input at a
 * line start, when the tokens before are complete.  Items record offsets
 * from gs, which stay valid when the window moves; the game record turns
 * them into pointers into its copy of the raw bytes at the end.
 *
 * Game boundaries: a game ends with the line holding its result (plus
 * comments that start on that line), before a line that starts a tag
 * section, even a broken one (tag_like), once it has movetext, or at the
 * end of the input.  Blank bytes between games belong to no game; every
 * other byte belongs to exactly one game's raw text (text that is no game
 * becomes a "garbage" pseudo-game), except past the game size limit, where
 * the rest of the game is dropped.
 *
 * Bounds: the window holds at most one game (max_game_bytes) plus one line
 * (max_line_bytes) plus one chunk, whatever the size of the input.  No
 * recursion: variations are only counted.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"


#define CHUNK ((size_t)1 << 20)
#define DEF_MAX_GAME ((size_t)64 << 20)
#define DEF_MAX_LINE ((size_t)1 << 20)
#define DEF_MAX_DEPTH 1000
#define MAX_TAGS 1000
#define MAX_TAG_BYTES ((size_t)64 << 10)
/* Diagnostics one game may store: a file of a million ')' must not
 * become a million stored diagnostics. */
#define MAX_DIAGS 1000
#define NONE SIZE_MAX
/* names and tokens quoted in messages are cut to this many bytes */
#define NAMECAP(n) ((int)((n) > 40 ? 40 : (n)))

struct vc_reader {
	struct vc_ctx *ctx;
	struct vc_input *in;
	const char *name;
	int strict, max_depth;
	size_t max_game, max_line;
	long number; /* number of the next game */
	long games;  /* games returned so far */

	unsigned char *buf; /* the window; buf[len] == 0 */
	size_t cap, len;
	size_t lim;   /* buf[0, lim) is complete lines (all of it at eof) */
	size_t gs;    /* first byte of the game being read; kept on refill */
	size_t pos;   /* scan position saved across refills and calls */
	ptrdiff_t ls; /* offset of the start of pos's line (< 0 once dropped) */
	long line;    /* line number at pos */
	int eof;      /* the input has ended (or failed) */
	int failed;   /* the input failed: VC_FATAL once all read bytes are out */
	int started;  /* the first bytes were looked at for a BOM */
	int bom;      /* a BOM was skipped and is not yet reported */
	int skip;     /* drop bytes up to the next tag line before the next game */
	int skip_bol; /* ... and pos is at the start of a line */
	int oom;
};

/* ---- character classes ---- */

enum {
	K_OTHER, /* unexpected in movetext */
	K_SP,
	K_TAB,
	K_NL,
	K_NUL,
	K_DIGIT,
	K_MOVE, /* letters and -=+#@/:~ */
	K_STAR,
	K_DOT,
	K_LBRACE,
	K_SEMI,
	K_DOLLAR,
	K_LPAREN,
	K_RPAREN,
	K_SUFFIX, /* ! ? */
	K_LBRACKET
};

/* clang-format off */
#define LOWER(v)                                                                          \
	['a'] = v, ['b'] = v, ['c'] = v, ['d'] = v, ['e'] = v, ['f'] = v, ['g'] = v,      \
	['h'] = v, ['i'] = v, ['j'] = v, ['k'] = v, ['l'] = v, ['m'] = v, ['n'] = v,      \
	['o'] = v, ['p'] = v, ['q'] = v, ['r'] = v, ['s'] = v, ['t'] = v, ['u'] = v,      \
	['v'] = v, ['w'] = v, ['x'] = v, ['y'] = v, ['z'] = v
#define UPPER(v)                                                                          \
	['A'] = v, ['B'] = v, ['C'] = v, ['D'] = v, ['E'] = v, ['F'] = v, ['G'] = v,      \
	['H'] = v, ['I'] = v, ['J'] = v, ['K'] = v, ['L'] = v, ['M'] = v, ['N'] = v,      \
	['O'] = v, ['P'] = v, ['Q'] = v, ['R'] = v, ['S'] = v, ['T'] = v, ['U'] = v,      \
	['V'] = v, ['W'] = v, ['X'] = v, ['Y'] = v, ['Z'] = v
#define DIGITS(v)                                                                         \
	['0'] = v, ['1'] = v, ['2'] = v, ['3'] = v, ['4'] = v, ['5'] = v, ['6'] = v,      \
	['7'] = v, ['8'] = v, ['9'] = v

static const unsigned char cls[256] = {
	LOWER(K_MOVE), UPPER(K_MOVE), DIGITS(K_DIGIT),
	['-'] = K_MOVE, ['='] = K_MOVE, ['+'] = K_MOVE, ['#'] = K_MOVE, ['@'] = K_MOVE,
	['/'] = K_MOVE, [':'] = K_MOVE, ['~'] = K_MOVE, ['*'] = K_STAR,
	[' '] = K_SP, ['\f'] = K_SP, ['\v'] = K_SP, ['\t'] = K_TAB,
	['\n'] = K_NL, ['\r'] = K_NL, ['\0'] = K_NUL,
	['.'] = K_DOT, ['{'] = K_LBRACE, [';'] = K_SEMI, ['$'] = K_DOLLAR,
	['('] = K_LPAREN, [')'] = K_RPAREN, ['!'] = K_SUFFIX, ['?'] = K_SUFFIX,
	['['] = K_LBRACKET,
};

/* bytes of a move token */
static const unsigned char mvch[256] = {
	LOWER(1), UPPER(1), DIGITS(1),
	['-'] = 1, ['='] = 1, ['+'] = 1, ['#'] = 1, ['@'] = 1, ['/'] = 1, [':'] = 1,
	['~'] = 1, ['*'] = 1,
};

/* bytes of a tag name */
static const unsigned char namech[256] = {
	LOWER(1), UPPER(1), DIGITS(1),
	['_'] = 1, ['+'] = 1, ['#'] = 1, ['='] = 1, [':'] = 1, ['-'] = 1,
};
/* clang-format on */

/* where a scan to the end of the line stops */
static const unsigned char lstop[256] = { ['\n'] = 1, ['\r'] = 1, ['\0'] = 1 };
/* where a tag value's scan stops */
static const unsigned char vstop[256] = {
	['"'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, ['\0'] = 1
};
/* blank bytes: they belong to no game between games */
static const unsigned char blank[256] = {
	[' '] = 1, ['\t'] = 1, ['\f'] = 1, ['\v'] = 1, ['\n'] = 1, ['\r'] = 1
};

/* Bytes readable past the NUL sentinel, all zero, so that the comment scan
 * may load whole words. */
#define SLACK 8

/* The first '}', line end or NUL at or after q.  Brace comments are most
 * of the bytes of annotated archives, so they are scanned eight bytes at a
 * time where the byte order allows; the window ends in a NUL and SLACK
 * zero bytes, so the loads never leave it. */
static const unsigned char *comment_stop(const unsigned char *q)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	for (;;) {
		uint64_t w, a, c, d, m;
		memcpy(&w, q, 8);
		a = w ^ (ones * '}');
		c = w ^ (ones * '\n');
		d = w ^ (ones * '\r');
		/* (x - ones) & ~x has the high bit set in the lowest zero byte of
		 * x (and maybe in bytes above it, never below) */
		m = ((w - ones) & ~w) | ((a - ones) & ~a) | ((c - ones) & ~c) | ((d - ones) & ~d);
		m &= high;
		if (m)
			return q + (__builtin_ctzll(m) >> 3);
		q += 8;
	}
#else
	static const unsigned char cstop[256] = { ['}'] = 1, ['\n'] = 1, ['\r'] = 1, ['\0'] = 1 };
	while (!cstop[*q])
		q++;
	return q;
#endif
}

static const char *const suffixes[] = { "!", "?", "!!", "??", "!?", "?!" };

static int is_sp(unsigned c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* Does the line at p start a tag section: blanks, '[', a name, '"'?  The
 * line must be complete (it ends at a line end or the NUL sentinel). */
static int tag_start(const unsigned char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '[')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!namech[*p])
		return 0;
	while (namech[*p])
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '"';
}

/* Does the line at p start a game's tags, broken ones included: a line that
 * starts a tag section, or blanks, '[', blanks, a name that starts with a
 * letter, then a blank or the end of the line ("[Date 2026.11.29]", a file
 * cut in "[Eve")?  Where a game may begin, and in movetext (where no '['
 * belongs), such a line begins a game: so a game whose first tag line is
 * broken stays one broken game, instead of becoming garbage followed by a
 * game that validates without that tag, or the end of the movetext of the
 * game before it.  Not used in comments, whose text may be anything. */
static int tag_like(const unsigned char *p)
{
	if (tag_start(p))
		return 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '[')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return 0;
	while (namech[*p])
		p++;
	return *p == ' ' || *p == '\t' || lstop[*p];
}

/* The suffix annotation p[0, n), or NULL. */
static const char *suffix_of(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < VC_NELEM(suffixes); i++)
		if (strlen(suffixes[i]) == n && memcmp(suffixes[i], p, n) == 0)
			return suffixes[i];
	return NULL;
}

/* p at '(' right after a move: the end of "(air)", "(prison)" or "(a7)"
 * (a square: one lower-case letter, one or two digits), else NULL. */
static const unsigned char *paren_join(const unsigned char *p)
{
	if (memcmp(p, "(air)", 5) == 0)
		return p + 5;
	if (memcmp(p, "(prison)", 8) == 0)
		return p + 8;
	if (p[1] >= 'a' && p[1] <= 'z' && p[2] >= '0' && p[2] <= '9') {
		const unsigned char *q = p + 3;
		if (*q >= '0' && *q <= '9')
			q++;
		if (*q == ')')
			return q + 1;
	}
	return NULL;
}

/* Writes at most 20 bytes from p (stopping at a line end) into out (at
 * least 81 bytes), non-printable bytes as \xNN. */
static const char *quote(char *out, const unsigned char *p, const unsigned char *end)
{
	char *o = out;
	for (int i = 0; i < 20 && p < end && *p != '\n' && *p != '\r'; i++, p++) {
		if (*p >= 0x20 && *p < 0x7f)
			*o++ = (char)*p;
		else
			o += sprintf(o, "\\x%02X", *p);
	}
	*o = '\0';
	return out;
}

/* Notes that memory ran out, once, on the context. */
static void out_of_memory(struct vc_reader *r)
{
	if (!r->oom)
		vc_emit(r->ctx, VC_SEV_FATAL, "oom", r->name, r->line, 0, NULL, "out of memory");
	r->oom = 1;
}

/* ---- the window ---- */

/* Sets lim to just past the last line end in the window.  A CR as the last
 * byte may be the first half of a CRLF and is not counted until more input
 * comes.  Only bytes that were not looked at before are scanned (from
 * from), so a long line costs linear time. */
static void set_lim(struct vc_reader *r, size_t from)
{
	if (r->eof) {
		r->lim = r->len;
		return;
	}
	size_t i = r->len;
	if (i > 0 && r->buf[i - 1] == '\r')
		i--;
	if (from < r->lim)
		from = r->lim;
	while (i > from && r->buf[i - 1] != '\n' && r->buf[i - 1] != '\r')
		i--;
	/* the walk may stop at from without finding a line end */
	if (i > r->lim && (r->buf[i - 1] == '\n' || r->buf[i - 1] == '\r'))
		r->lim = i;
}

/* Reads more input, keeping the window from gs on.  Returns 1 when bytes
 * came, 0 at the end of the input or after an input error (reported by
 * vc_input; failed is then set) or when out of memory (oom set). */
static int refill(struct vc_reader *r)
{
	if (r->eof)
		return 0;
	if (r->gs > 0) {
		size_t sh = r->gs;
		memmove(r->buf, r->buf + sh, r->len - sh + 1 + SLACK);
		r->len -= sh;
		/* gs may lie past lim inside a line being dropped (skip_discard) */
		r->lim = r->lim > sh ? r->lim - sh : 0;
		r->pos -= sh;
		r->ls -= (ptrdiff_t)sh;
		r->gs = 0;
	}
	if (r->cap - r->len < CHUNK + 1 + SLACK) {
		size_t need = r->len + CHUNK + 1 + SLACK;
		size_t nc = r->cap + r->cap / 2;
		if (nc < need)
			nc = need;
		unsigned char *nb = realloc(r->buf, nc);
		if (!nb) {
			out_of_memory(r);
			r->eof = 1;
			r->lim = r->len;
			return 0;
		}
		r->buf = nb;
		r->cap = nc;
	}
	size_t old = r->len;
	long n = vc_input_read(r->in, r->buf + r->len, r->cap - r->len - 1 - SLACK);
	if (n < 0) {
		r->failed = 1;
		r->eof = 1;
	} else if (n == 0) {
		r->eof = 1;
	} else {
		r->len += (size_t)n;
	}
	memset(r->buf + r->len, 0, 1 + SLACK);
	set_lim(r, old > 0 ? old - 1 : 0);
	return n > 0;
}

/* Refills until the line at pos is complete (lim > pos).  Returns 1 then,
 * 0 at the end of the input, -1 when that line has reached linemax bytes
 * without an end, -2 when the game from gs has passed max_game bytes. */
static int more(struct vc_reader *r, size_t linemax)
{
	while (r->lim <= r->pos) {
		if (r->eof)
			return 0;
		if (r->len - r->gs > r->max_game)
			return -2;
		if (r->len - r->pos > linemax)
			return -1;
		refill(r);
	}
	return 1;
}

/* Drops input up to the next line that starts a tag section (after a game
 * was cut at the size limit).  Memory stays bounded even on a huge line:
 * only its last byte is kept. */
static void skip_discard(struct vc_reader *r)
{
	int bol = r->skip_bol;
	for (;;) {
		r->gs = r->pos;
		if (r->pos >= r->lim) {
			if (r->eof)
				return;
			if (r->len - r->pos > r->max_line) {
				/* a line this long starts no tag section */
				bol = 0;
				r->pos = r->len - 1;
				r->gs = r->pos;
			}
			refill(r);
			continue;
		}
		const unsigned char *p = r->buf + r->pos;
		if (bol && tag_like(p))
			return;
		bol = 0;
		while (!lstop[*p])
			p++;
		if (*p == '\0') {
			/* a NUL byte inside the dropped text (p < lim here) */
			r->pos = (size_t)(p - r->buf) + 1;
			continue;
		}
		if (p[0] == '\r' && p[1] == '\n')
			p++;
		p++;
		r->pos = (size_t)(p - r->buf);
		r->line++;
		r->ls = (ptrdiff_t)r->pos;
		bol = 1;
	}
}

/* Before the first game: skips a UTF-8 byte order mark. */
static void start(struct vc_reader *r)
{
	r->started = 1;
	while (r->len < 3 && refill(r))
		;
	if (r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) {
		r->pos = 3;
		r->ls = 3; /* columns count from the byte after the BOM */
		r->bom = 1;
	}
}

/* ---- one game ---- */

struct rd {
	struct vc_reader *r;
	struct vc_game *g;
	int depth;
	long open_line, open_col; /* the outermost '(' still open */
	long movenum;             /* written before the next move, 0 none */
	size_t last_move;         /* index of the last item if a move, else NONE */
	size_t nitems;            /* items stored */
	int moves;                /* movetext began */
	int ntags;                /* tag lines seen */
	int broke;                /* a stream-breaking error was stored */
	int crlf;                 /* strict-crlf was stored */
	int content;              /* the current line had something (tag section) */
	int blankline;            /* a blank line came since the last tag */
};

/* Stores an error in the game, up to MAX_DIAGS of them.  Returns 0, or -1
 * when the cap was reached: the caller then stops tokenising. */
static int err(struct rd *s, const char *code, long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int err(struct rd *s, const char *code, long line, long col, const char *fmt, ...)
{
	size_t n = vc_game_diag_count(s->g);
	if (n >= MAX_DIAGS)
		return -1;
	if (n == MAX_DIAGS - 1) {
		vc_game_add_diag(s->g, VC_SEV_ERROR, "limit-diags", line, col, 0, NULL,
				 "more than %d problems in this game: the rest of it is not read",
				 MAX_DIAGS - 1);
		return -1;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	vc_game_add_diag(s->g, VC_SEV_ERROR, code, line, col, 0, NULL, "%s", msg);
	return 0;
}

/* Where a game that ends before the line at x (or at the end of the input,
 * x == len) really ends: just past the line end of its last non-blank byte.
 * The game has a non-blank byte at gs, so the walk back stops there. */
static size_t trim_end(const struct vc_reader *r, size_t x)
{
	const unsigned char *b = r->buf;
	size_t y = x;
	while (y > r->gs && blank[b[y - 1]])
		y--;
	while (y < x && is_sp(b[y]))
		y++;
	if (y < x && b[y] == '\r') {
		y++;
		if (y < x && b[y] == '\n')
			y++;
	} else if (y < x && b[y] == '\n') {
		y++;
	}
	return y;
}

/* Reads one game starting at r->pos (a non-blank byte) into g. */
static vc_status read_game(struct vc_reader *r, struct vc_game *g)
{
	struct rd S, *s = &S;
	memset(s, 0, sizeof S);
	s->r = r;
	s->g = g;
	s->last_move = NONE;

	const unsigned char *b, *p, *lim, *end, *g0, *q, *t;
	struct vc_item *it;
	enum { S_TAGS, S_MOVES, S_AFTER } state = S_TAGS, cret = S_MOVES;
	int garbage = 0, rc;
	size_t ge = 0;
	size_t coff = 0; /* game offset of a comment's text */
	long cline = 0, ccol = 0;
	int first, prevblank; /* in a comment: on its first line; the last line was blank */
	int wall;             /* in a move: the wall join was made */
	size_t n;             /* in a move: its length */
	const char *res;      /* in a move: the result it is */
	char qbuf[96];

#define LOAD()                    \
	do {                      \
		b = r->buf;       \
		p = b + r->pos;   \
		lim = b + r->lim; \
		end = b + r->len; \
		g0 = b + r->gs;   \
	} while (0)
#define SAVE(x) (r->pos = (size_t)((x) - (b)))
#define COL(x) ((long)(((x) - (b)) - r->ls) + 1)
#define OFF(x) ((size_t)((x) - (g0)))
#define ITEM(type, x, n, tx) \
	(s->nitems++, it = vc_game_build_item(g, type, OFF(x), (size_t)(n), r->line, COL(tx)))
#define ERR(code, x, ...)                                           \
	do {                                                        \
		if (err(s, code, r->line, COL(x), __VA_ARGS__) < 0) \
			goto skip;                                  \
	} while (0)
#define ERRAT(code, l, c, ...)                           \
	do {                                             \
		if (err(s, code, l, c, __VA_ARGS__) < 0) \
			goto skip;                       \
	} while (0)
#define LINE_TOO_LONG()                                                                      \
	ERRAT("limit-line", r->line, (long)r->max_line + 1, "line is longer than %zu bytes", \
	      r->max_line)
#define STRICT(code, x, ...)                       \
	do {                                       \
		if (r->strict)                     \
			ERR(code, x, __VA_ARGS__); \
	} while (0)
/* Ends the game before the line at x, which starts the next game. */
#define END_BEFORE_LINE(x)                \
	do {                              \
		SAVE(x);                  \
		ge = trim_end(r, r->pos); \
		goto finish;              \
	} while (0)

	r->gs = r->pos;
	LOAD();
	vc_game_build_start(g, r->name, r->number++, r->line);
	r->games++;
	if (r->bom) {
		r->bom = 0;
		if (r->strict)
			err(s, "strict-bom", 1, 1, "byte order mark at the start of the input");
	}

	if (*p == '%' && p - b == r->ls)
		goto tags;
	if (tag_like(p))
		goto tags;
	switch (cls[*p]) {
	case K_DIGIT:
	case K_MOVE:
	case K_STAR:
	case K_DOT:
	case K_LBRACE:
	case K_SEMI:
	case K_DOLLAR:
	case K_LPAREN:
		/* Movetext without tags: the whole file may be such a game, but
		 * between games only a move number starts one. */
		if (r->games == 1)
			goto begin_moves;
		for (q = p; cls[*q] == K_DIGIT; q++)
			;
		if (q > p && *q == '.')
			goto begin_moves;
		break;
	default:
		break;
	}
	goto garbage;

	/* ---- the tag section (and escape lines before it) ---- */
tags:
	for (;;) {
		switch (cls[*p]) {
		case K_SP:
			p++;
			continue;
		case K_TAB:
			STRICT("strict-spacing", p, "tab character");
			p++;
			continue;
		case K_NL:
			goto nl;
		case K_NUL:
			if (p == end)
				goto eof;
			goto begin_moves; /* reported there */
		case K_LBRACKET:
			break;
		default:
			if (*p == '%' && p - b == r->ls)
				goto escape;
			goto begin_moves;
		}
		/* a tag: [ name "value" ] */
		const unsigned char *n0, *n1, *v0, *v1;
		int esc = 0, bol = !s->content;
		t = p;
		s->content = 1;
		q = p + 1;
		while (*q == ' ' || *q == '\t')
			q++;
		n0 = q;
		while (namech[*q])
			q++;
		n1 = q;
		if (n1 == n0) {
			if (*q == '\0' && q != end)
				ERR("nul-byte", q, "NUL byte in input");
			else
				ERR("tag-syntax", q, "expected a tag name after '['");
			goto tag_skip;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"') {
			if (*q == '\0' && q != end)
				ERR("nul-byte", q, "NUL byte in input");
			else
				ERR("tag-syntax", q, "expected '\"' after tag name '%.*s'",
				    NAMECAP(n1 - n0), (const char *)n0);
			goto tag_skip;
		}
		v0 = ++q;
		for (;;) {
			while (!vstop[*q])
				q++;
			if (*q != '\\')
				break;
			if (q[1] == '"' || q[1] == '\\') {
				esc = 1;
				q += 2;
			} else {
				q++;
			}
		}
		if (*q != '"') {
			if (*q == '\0' && q != end)
				ERR("nul-byte", q, "NUL byte in input");
			else
				ERR("tag-syntax", v0 - 1, "value of tag '%.*s' is never closed",
				    NAMECAP(n1 - n0), (const char *)n0);
			goto tag_skip;
		}
		v1 = q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != ']') {
			if (*q == '\0' && q != end)
				ERR("nul-byte", q, "NUL byte in input");
			else
				ERR("tag-syntax", q, "expected ']' after the value of tag '%.*s'",
				    NAMECAP(n1 - n0), (const char *)n0);
			goto tag_skip;
		}
		q++;
		/* A tag name the game already has, at the start of a line after a
		 * blank line, begins the next game: a game with no movetext then
		 * does not swallow the next game's tags, while a blank line inside
		 * one tag section (as ChessBase writes) is still read through. */
		if (bol && s->blankline &&
		    vc_game_build_has_tag(g, (const char *)n0, (size_t)(n1 - n0)))
			END_BEFORE_LINE(b + r->ls);
		s->blankline = 0;
		s->ntags++;
		if ((size_t)(n1 - n0) + (size_t)(v1 - v0) > MAX_TAG_BYTES) {
			ERR("limit-tag-size", t, "tag '%.*s' is longer than %zu bytes",
			    NAMECAP(n1 - n0), (const char *)n0, MAX_TAG_BYTES);
		} else if (s->ntags > MAX_TAGS) {
			if (s->ntags == MAX_TAGS + 1)
				ERR("limit-tags", t, "more than %d tags: the rest are not stored",
				    MAX_TAGS);
		} else if (vc_game_build_tag(g, (const char *)n0, (size_t)(n1 - n0),
					     (const char *)v0, (size_t)(v1 - v0), esc, r->line,
					     COL(t)) < 0) {
			goto oom;
		}
		p = q;
		continue;
tag_skip:
		/* the rest of a broken tag line, NUL bytes included */
		for (;;) {
			while (!lstop[*q])
				q++;
			if (*q != '\0' || q == end)
				break;
			q++;
		}
		p = q;
	}

	/* ---- an escape line: '%' in column 1 ---- */
escape:
	s->content = 1;
	STRICT("strict-escape", p, "escape line");
	for (q = p + 1; !lstop[*q]; q++)
		;
	if (!ITEM(VC_IT_ESCAPE, p + 1, q - p - 1, p))
		goto oom;
	p = q;
	if (*p == '\0' && p != end) {
		ERR("nul-byte", p, "NUL byte in input");
		if (state != S_TAGS)
			goto skip;
		q = p;
		goto tag_skip;
	}
	if (state == S_TAGS)
		goto tags;
	goto moves;

begin_moves:
	state = S_MOVES;
	s->moves = 1;
	if (s->ntags == 0)
		STRICT("strict-no-tags", p, "movetext without tags");
	/* fall through */

	/* ---- movetext ---- */
moves:
	for (;;) {
		/* single spaces separate most tokens: no dispatch for them */
		while (*p == ' ')
			p++;
		switch (cls[*p]) {
		case K_SP:
			p++;
			continue;
		case K_TAB:
			STRICT("strict-spacing", p, "tab character");
			p++;
			continue;
		case K_NL:
			goto nl;
		case K_NUL:
			if (p == end)
				goto eof;
			ERR("nul-byte", p, "NUL byte in input");
			goto skip;
		case K_DIGIT:
			for (q = p; cls[*q] == K_DIGIT; q++)
				;
			if (*q != '.')
				goto move;
			long num = 0;
			for (t = p; t < q; t++)
				num = num < (LONG_MAX - 9) / 10 ? num * 10 + (*t - '0') : LONG_MAX;
			s->movenum = num;
			while (*q == '.')
				q++;
			if (mvch[*q])
				STRICT("strict-spacing", q, "no space after move number '%.*s'",
				       NAMECAP(q - p), (const char *)p);
			p = q;
			continue;
		case K_MOVE:
		case K_STAR:
			goto move;
		case K_DOT:
			/* "..." alone, as in "12. ... Nf6" */
			while (*p == '.')
				p++;
			continue;
		case K_LBRACE:
			cret = S_MOVES;
			goto comment;
		case K_SEMI:
			cret = S_MOVES;
			goto semicolon;
		case K_DOLLAR:
			for (q = p + 1; cls[*q] == K_DIGIT; q++)
				;
			if (q == p + 1 || q - p - 1 > 9) {
				ERR("char-unexpected", p, "unexpected character '$'");
				goto skip;
			}
			if (!ITEM(VC_IT_NAG, p, q - p, p))
				goto oom;
			it->nag = atoi((const char *)p + 1);
			p = q;
			continue;
		case K_LPAREN:
			if (s->depth >= r->max_depth) {
				ERR("limit-depth", p, "variations nested deeper than %d",
				    r->max_depth);
				goto skip;
			}
			if (s->depth++ == 0) {
				s->open_line = r->line;
				s->open_col = COL(p);
			}
			if (!ITEM(VC_IT_VAR_START, p, 1, p))
				goto oom;
			s->movenum = 0;
			s->last_move = NONE;
			p++;
			continue;
		case K_RPAREN:
			if (s->depth == 0) {
				ERR("var-unbalanced", p, "unbalanced ')'");
				p++;
				continue;
			}
			s->depth--;
			if (!ITEM(VC_IT_VAR_END, p, 1, p))
				goto oom;
			s->movenum = 0;
			s->last_move = NONE;
			p++;
			continue;
		case K_SUFFIX: {
			/* "e4 !": the suffix of the move just before */
			const char *sfx;
			for (q = p; *q == '!' || *q == '?'; q++)
				;
			sfx = suffix_of(p, (size_t)(q - p));
			if (!sfx || s->last_move == NONE || s->last_move + 1 != s->nitems) {
				ERR("char-unexpected", p, "unexpected character '%c'", *p);
				goto skip;
			}
			it = vc_game_build_item_at(g, s->last_move);
			if (it->suffix) {
				ERR("char-unexpected", p, "unexpected character '%c'", *p);
				goto skip;
			}
			it->suffix = sfx;
			it->suffix_len = (size_t)(q - p);
			STRICT("strict-spacing", p, "suffix '%s' separated from its move", sfx);
			p = q;
			continue;
		}
		default:
			if (*p == '%' && p - b == r->ls)
				goto escape;
			ERR("char-unexpected", p, "unexpected character '%s'",
			    quote(qbuf, p, p + 1));
			goto skip;
		}
	}

	/* ---- a move, a result or an e.p. mark ---- */
move:
	wall = 0;
	t = p;
run:
	while (mvch[*p])
		p++;
	if (*p == '(' && (q = paren_join(p)) != NULL) {
		/* e8=R(a7): promotion by exchange, a move with its parenthesis */
		p = q;
		goto run;
	}
	n = (size_t)(p - t);
	if (!wall && n <= 2 && t[0] >= 'A' && t[0] <= 'Z' &&
	    (n == 1 || (t[1] >= 'A' && t[1] <= 'Z')) && p[0] == ' ' && p[1] >= 'a' && p[1] <= 'z' &&
	    p[2] >= '0' && p[2] <= '9') {
		/* "W a2b2-a3b3": a wall move written as two tokens */
		wall = 1;
		p++;
		goto run;
	}
	res = NULL;
	if (n == 1 && t[0] == '*')
		res = "*";
	else if (n == 3 && t[1] == '-' && t[0] == '1' && t[2] == '0')
		res = "1-0";
	else if (n == 3 && t[1] == '-' && t[0] == '0' && t[2] == '1')
		res = "0-1";
	else if (n == 7 && memcmp(t, "1/2-1/2", 7) == 0)
		res = "1/2-1/2";
	if (res) {
		s->movenum = 0;
		s->last_move = NONE;
		if (s->depth > 0) {
			ERR("result-in-variation", t, "result '%s' inside a variation", res);
			goto moves;
		}
		vc_game_build_result(g, res, r->line, COL(t));
		state = S_AFTER;
		goto after;
	}
	if ((n == 1 && t[0] == 'e' && p[0] == '.' && p[1] == 'p' && p[2] == '.') ||
	    (n == 2 && t[0] == 'e' && t[1] == 'p')) {
		if (n == 1)
			p += 3;
		if (s->last_move == NONE || s->last_move + 1 != s->nitems) {
			ERR("char-unexpected", t, "'%.*s' does not follow a move", (int)(p - t),
			    (const char *)t);
			goto skip;
		}
		vc_game_build_item_at(g, s->last_move)->flags |= VC_IF_EP_MARK;
		STRICT("strict-ep-mark", t, "en passant mark '%.*s'", (int)(p - t),
		       (const char *)t);
		goto moves;
	}
	if (!ITEM(VC_IT_MOVE, t, n, t))
		goto oom;
	if (s->movenum) {
		it->flags |= VC_IF_MOVENUM;
		it->movenum = s->movenum;
		s->movenum = 0;
	}
	if (n == 2 && ((t[0] == '-' && t[1] == '-') || (t[0] == 'Z' && t[1] == '0'))) {
		it->flags |= VC_IF_NULL;
		STRICT("strict-null-move", t, "null move '%.*s'", 2, (const char *)t);
	}
	if (*p == '!' || *p == '?') {
		for (q = p; *q == '!' || *q == '?'; q++)
			;
		it->suffix = suffix_of(p, (size_t)(q - p));
		if (!it->suffix) {
			ERR("char-unexpected", p, "unexpected character '%c'", *p);
			goto skip;
		}
		it->suffix_len = (size_t)(q - p);
		p = q;
	}
	s->last_move = s->nitems - 1;
	goto moves;

	/* ---- after the result: comments on its line still belong here ---- */
after:
	for (;;) {
		switch (cls[*p]) {
		case K_SP:
		case K_TAB:
			p++;
			continue;
		case K_LBRACE:
			cret = S_AFTER;
			goto comment;
		case K_SEMI:
			cret = S_AFTER;
			goto semicolon;
		case K_NL:
			if (p - b - r->ls > (ptrdiff_t)r->max_line)
				err(s, "limit-line", r->line, (long)r->max_line + 1,
				    "line is longer than %zu bytes", r->max_line);
			if (p[0] == '\r' && p[1] == '\n')
				p++;
			p++;
			r->line++;
			r->ls = p - b;
			SAVE(p);
			ge = r->pos;
			goto finish;
		case K_NUL:
			if (p == end)
				goto eof;
			/* fall through */
		default:
			/* more text on the result's line starts the next game */
			SAVE(p);
			for (q = p; q > g0 && is_sp(q[-1]); q--)
				;
			ge = (size_t)(q - b);
			goto finish;
		}
	}

	/* ---- comments ---- */
semicolon:
	for (q = p + 1; !lstop[*q]; q++)
		;
	if (!ITEM(VC_IT_COMMENT, p + 1, q - p - 1, p))
		goto oom;
	it->flags |= VC_IF_SEMICOLON;
	p = q;
	if (*p == '\0' && p != end) {
		ERR("nul-byte", p, "NUL byte in input");
		goto skip;
	}
	if (cret == S_AFTER)
		goto after;
	goto moves;

comment:
	/* p at '{'.  The text runs to the '}', across lines if need be. */
	first = 1;
	prevblank = 0;
	cline = r->line;
	ccol = COL(p);
	coff = OFF(p + 1);
	q = p + 1;
	for (;;) {
		q = comment_stop(q);
		if (*q == '}')
			break;
		if (*q == '\0') {
			if (q == end)
				goto comment_eof;
			p = q;
			ERR("nul-byte", p, "NUL byte in input");
			goto skip;
		}
		/* a line end inside the comment */
		if (q - b - r->ls > (ptrdiff_t)r->max_line) {
			p = q;
			LINE_TOO_LONG();
			goto skip;
		}
		if (!first) {
			prevblank = 1;
			for (t = b + r->ls; t < q; t++)
				if (!is_sp(*t)) {
					prevblank = 0;
					break;
				}
		}
		first = 0;
		if (*q == '\r') {
			if (r->strict && !s->crlf) {
				s->crlf = 1;
				ERR("strict-crlf", q, "carriage return at the end of a line");
			}
			if (q[1] == '\n')
				q++;
		}
		q++;
		r->line++;
		r->ls = q - b;
		if (OFF(q) > r->max_game) {
			p = q;
			goto too_big;
		}
		if (q >= lim) {
			SAVE(q);
			rc = more(r, r->max_line);
			LOAD();
			q = p;
			if (rc == 0)
				goto comment_eof;
			if (rc == -1) {
				LINE_TOO_LONG();
				goto skip;
			}
			if (rc == -2)
				goto too_big;
		}
		if (prevblank && tag_start(q)) {
			/* A blank line and a tag: the comment was never closed, and
			 * the next game starts here. */
			SAVE(q);
			ge = trim_end(r, r->pos);
			t = b + ge;
			while (t > g0 + coff && blank[t[-1]])
				t--;
			s->nitems++;
			if (!vc_game_build_item(g, VC_IT_COMMENT, coff, OFF(t) - coff, cline, ccol))
				goto oom;
			err(s, "comment-unclosed", cline, ccol,
			    "comment opened here is never closed");
			s->broke = 1;
			goto finish;
		}
	}
	s->nitems++;
	if (!vc_game_build_item(g, VC_IT_COMMENT, coff, OFF(q) - coff, cline, ccol))
		goto oom;
	p = q + 1;
	if (cret == S_AFTER)
		goto after;
	goto moves;

comment_eof:
	if (r->oom)
		goto oom;
	/* The comment runs to the end of the input. */
	SAVE(end);
	ge = trim_end(r, r->len);
	for (t = b + ge; t > g0 + coff && blank[t[-1]]; t--)
		;
	s->nitems++;
	if (!vc_game_build_item(g, VC_IT_COMMENT, coff, OFF(t) - coff, cline, ccol))
		goto oom;
	err(s, "comment-unclosed", cline, ccol, "comment opened here is never closed");
	s->broke = 1;
	goto finish;

	/* ---- a line end in the tag section or in movetext ---- */
nl:
	if (p - b - r->ls > (ptrdiff_t)r->max_line) {
		LINE_TOO_LONG();
		goto skip;
	}
	if (*p == '\r') {
		if (r->strict && !s->crlf) {
			s->crlf = 1;
			ERR("strict-crlf", p, "carriage return at the end of a line");
		}
		if (p[1] == '\n')
			p++;
	}
	p++;
	r->line++;
	r->ls = p - b;
	if (OFF(p) > r->max_game)
		goto too_big;
	if (p >= lim) {
		SAVE(p);
		rc = more(r, r->max_line);
		LOAD();
		if (rc == 0)
			goto eof;
		if (rc == -1) {
			LINE_TOO_LONG();
			goto skip;
		}
		if (rc == -2)
			goto too_big;
	}
	if (state == S_TAGS) {
		if (!s->content)
			s->blankline = 1;
		s->content = 0;
		if (*p == '%')
			goto escape;
		goto tags;
	}
	if (*p == '%')
		goto escape;
	if ((*p == '[' || *p == ' ' || *p == '\t') && tag_like(p))
		END_BEFORE_LINE(p);
	goto moves;

eof:
	if (r->oom)
		goto oom;
	/* the last line, which has no line end */
	if (end - b - r->ls > (ptrdiff_t)r->max_line && !s->broke)
		err(s, "limit-line", r->line, (long)r->max_line + 1,
		    "line is longer than %zu bytes", r->max_line);
	SAVE(end);
	ge = trim_end(r, r->len);
	goto finish;

	/* ---- text that is no game: up to the next tag or escape line ---- */
garbage:
	garbage = 1;
	err(s, "garbage", r->line, COL(p), "text between games is not a game: '%s'",
	    quote(qbuf, p, end));
	/* fall through */

	/* ---- after an error that breaks the token stream: keep the bytes
	 * up to the next line that starts a tag section ---- */
skip:
	s->broke = 1;
	for (;;) {
		if (p >= lim) {
			SAVE(p);
			rc = more(r, SIZE_MAX);
			LOAD();
			if (rc == 0)
				goto eof;
			if (rc == -2)
				goto too_big;
		}
		while (!lstop[*p])
			p++;
		if (*p == '\0') {
			if (p == end)
				continue; /* p >= lim: more input or the end */
			p++;
			continue;
		}
		if (p[0] == '\r' && p[1] == '\n')
			p++;
		p++;
		r->line++;
		r->ls = p - b;
		if (OFF(p) > r->max_game)
			goto too_big;
		if (p >= lim) {
			SAVE(p);
			rc = more(r, SIZE_MAX);
			LOAD();
			if (rc == 0)
				goto eof;
			if (rc == -2)
				goto too_big;
		}
		if (tag_like(p) || (garbage && *p == '%'))
			END_BEFORE_LINE(p);
	}

too_big:
	/* Keep the first max_game bytes; drop the rest up to the next tag
	 * line before the next game. */
	err(s, "limit-game-size", r->line, 1,
	    "game is longer than %zu bytes: its raw text is cut there and the rest is skipped",
	    r->max_game);
	s->broke = 1;
	SAVE(p > end ? end : p);
	r->skip = 1;
	r->skip_bol = r->pos == (size_t)r->ls;
	ge = r->gs + r->max_game;
	if (ge > r->len)
		ge = r->len;
	goto done;

finish:
	if (!s->broke) {
		if (s->depth > 0)
			err(s, "var-unclosed", s->open_line, s->open_col,
			    "variation opened here is never closed");
		if (r->strict && !vc_game_result(g) && (s->moves || s->ntags)) {
			long l = vc_game_line(g), c = 1;
			if (s->nitems > 0) {
				const struct vc_item *last = vc_game_item(g, s->nitems - 1);
				l = last->line;
				c = last->col;
			}
			err(s, "strict-no-result", l, c, "game has no result");
		}
	}
	if (ge - r->gs > r->max_game) {
		err(s, "limit-game-size", vc_game_line(g), 1,
		    "game is longer than %zu bytes: its raw text is cut there", r->max_game);
		ge = r->gs + r->max_game;
	}
done:
	if (vc_game_build_finish(g, (const char *)r->buf + r->gs, ge - r->gs, garbage) < 0 ||
	    vc_game_build_oom(g))
		goto oom;
	return VC_OK;

oom:
	out_of_memory(r);
	return VC_FATAL;

#undef LOAD
#undef SAVE
#undef COL
#undef OFF
#undef ITEM
#undef ERR
#undef ERRAT
#undef LINE_TOO_LONG
#undef STRICT
#undef END_BEFORE_LINE
}

/* ---- the public face ---- */

static struct vc_reader *reader_new(struct vc_ctx *ctx, struct vc_input *in,
				    const struct vc_reader_opts *opts)
{
	struct vc_reader *r = vc_calloc(1, sizeof *r);
	if (!r) {
		vc_input_close(in);
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	r->ctx = ctx;
	r->in = in;
	r->name = vc_input_name(in);
	r->strict = opts && opts->strict;
	r->number = opts && opts->first_game ? opts->first_game : 1;
	r->max_game = opts && opts->max_game_bytes ? opts->max_game_bytes : DEF_MAX_GAME;
	r->max_line = opts && opts->max_line_bytes ? opts->max_line_bytes : DEF_MAX_LINE;
	r->max_depth = opts && opts->max_depth > 0 ? opts->max_depth : DEF_MAX_DEPTH;
	r->line = 1;
	return r;
}

struct vc_reader *vc_reader_open(struct vc_ctx *ctx, const char *path,
				 const struct vc_reader_opts *opts)
{
	struct vc_input *in = vc_input_open(ctx, path, opts ? opts->max_gzip_ratio : 0);
	return in ? reader_new(ctx, in, opts) : NULL;
}

struct vc_reader *vc_reader_mem(struct vc_ctx *ctx, const char *name, const void *data, size_t len,
				const struct vc_reader_opts *opts)
{
	struct vc_input *in = vc_input_mem(ctx, name, data, len, opts ? opts->max_gzip_ratio : 0);
	return in ? reader_new(ctx, in, opts) : NULL;
}

vc_status vc_reader_next(struct vc_reader *r, struct vc_game *g)
{
	vc_game_clear(g);
	if (r->oom)
		return VC_FATAL;
	if (!r->started)
		start(r);
	if (r->skip) {
		r->skip = 0;
		skip_discard(r);
	}
	/* blank bytes between games */
	for (;;) {
		if (r->pos >= r->lim) {
			if (r->eof)
				return r->oom || r->failed ? VC_FATAL : VC_END;
			r->gs = r->pos;
			refill(r);
			continue;
		}
		const unsigned char *p = r->buf + r->pos;
		if (!blank[*p])
			break;
		if (*p == '\n' || *p == '\r') {
			if (p[0] == '\r' && p[1] == '\n')
				r->pos++;
			r->pos++;
			r->line++;
			r->ls = (ptrdiff_t)r->pos;
		} else {
			r->pos++;
		}
	}
	return read_game(r, g);
}

void vc_reader_close(struct vc_reader *r)
{
	if (!r)
		return;
	vc_input_close(r->in);
	free(r->buf);
	free(r);
}

int vc_reader_is_gzip(const struct vc_reader *r)
{
	return r && vc_input_is_gzip(r->in);
}
