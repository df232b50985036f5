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
#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "archive/vc_archive.h"


/* Bytes asked of the input at a refill, at least.  A quarter of a MiB:
 * with several reading workers (parallel.c) a refill is made under their
 * lock, and at 1 MiB it held the lock long enough for the other worker to
 * sleep on it (-j 2 reached 1.76x -j 1 against 1.82x at this size); one
 * thread reads as fast either way. */
#define CHUNK ((size_t)1 << 18)
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
	long bom;     /* line of a BOM skipped between games, not yet reported */
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
	['~'] = 1, ['*'] = 1, ['\''] = 1, /* '\'': Hosking's drops (P'55) */
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

/* Bytes readable past the NUL sentinel, all zero, so that the comment scans
 * may load whole words (sixteen bytes with SSE2, from up to a byte on). */
#define SLACK 32

/* The first '}', line end or NUL at or after q.  Brace comments are most
 * of the bytes of annotated archives, so they are scanned sixteen bytes at
 * a time with SSE2, else eight where the byte order allows; the window ends
 * in a NUL and SLACK zero bytes, so the loads never leave it. */
static const unsigned char *comment_stop(const unsigned char *q)
{
#if defined(__SSE2__)
	/* sixteen bytes at a time: most comments end in the first block */
	const __m128i rb = _mm_set1_epi8('}'), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
		      nul = _mm_setzero_si128();
	for (;;) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, rb), _mm_cmpeq_epi8(w, nl)),
					 _mm_or_si128(_mm_cmpeq_epi8(w, cr), _mm_cmpeq_epi8(w, nul)));
		unsigned m = (unsigned)_mm_movemask_epi8(e);
		if (m)
			return q + __builtin_ctz(m);
		q += 16;
	}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
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

/* Does the comment text [t, e) hold a record command (vc_record_command_at)?
 * With SSE2, its "[%" found sixteen places at a time while the comment is
 * fresh in the cache; the window's SLACK makes the loads past e safe. */
static int comment_records(const unsigned char *t, const unsigned char *e)
{
#if defined(__SSE2__)
	const __m128i lb = _mm_set1_epi8('['), pc = _mm_set1_epi8('%');
	for (const unsigned char *q = t; q < e; q += 16) {
		__m128i w0 = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i w1 = _mm_loadu_si128((const __m128i *)(const void *)(q + 1));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(w0, lb), _mm_cmpeq_epi8(w1, pc)));
		if (e - q < 16)
			m &= (1u << (e - q)) - 1;
		for (; m; m &= m - 1) {
			const unsigned char *p = q + __builtin_ctz(m);
			if (vc_record_command_at((const char *)p, (size_t)(e - p)))
				return 1;
		}
	}
	return 0;
#else
	for (const unsigned char *p = t; p < e && (p = memchr(p, '[', (size_t)(e - p))); p++)
		if (vc_record_command_at((const char *)p, (size_t)(e - p)))
			return 1;
	return 0;
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

/* Is there a UTF-8 byte order mark at p?  (What "cat *.pgn" leaves at the
 * start of each file's first line; the window's zero slack makes the
 * three-byte look safe at its end.) */
static int is_bom(const unsigned char *p)
{
	return p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF;
}

/* tag_like, after a byte order mark if one stands at p. */
static int tag_like_bom(const unsigned char *p)
{
	return tag_like(is_bom(p) ? p + 3 : p);
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
	/* a promotion piece in parentheses, "bxa8(Q)" */
	if (p[1] >= 'A' && p[1] <= 'Z' &&
	    (p[2] == ')' || (p[2] >= 'A' && p[2] <= 'Z' && p[3] == ')')))
		return p + (p[2] == ')' ? 3 : 4);
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
		if (bol && tag_like_bom(p))
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

/* ---- one game ----
 *
 * Reading a game is a machine of steps, each a function that returns the
 * step to take next; read_game runs them:
 *
 *   first_step     the game's first byte: tags, movetext or garbage
 *   tag_section    tag lines (and escape lines) up to the movetext
 *   movetext       moves and the rest, one handler per kind of byte
 *   after_result   comments on the result's line, up to its end
 *   at_eof         the input ends inside the game
 *   garbage        text that is no game, kept like skip_rest's
 *   skip_rest      after an error that breaks the token stream: the bytes
 *                  up to the next line that starts a tag section
 *   too_big        the game passed max_game bytes: cut there
 *   finish         the checks of a whole game; then its record is closed
 *
 * The loops of tag_section, movetext and after_result call a handler for
 * each token or line end, which returns GO_ON to go on in the loop that
 * called it, or the step to take instead.  s->p is the scan position: a
 * handler leaves it past what it read, or, when it stops the loop, where
 * the next step starts (skip_rest keeps the bytes from there, too_big cuts
 * there).  The window is refilled only at line ends (line_end,
 * comment_line_end, skip_rest), which reload its pointers (load), s->p
 * with them.
 *
 * Speed: this is the reader's inner loop.  The handlers of the commonest
 * tokens (moves, move numbers, comments that end on their line, line ends)
 * are small and inlined into the loops that call them; what is rare (long
 * comments, errors, refills) is kept out of them. */

enum step {
	GO_ON,          /* back to the loop that called the handler */
	GO_TAGS,        /* tag_section */
	GO_BEGIN_MOVES, /* begin_movetext, then movetext */
	GO_MOVES,       /* movetext */
	GO_AFTER,       /* after_result */
	GO_EOF,         /* at_eof */
	GO_GARBAGE,     /* garbage */
	GO_SKIP,        /* skip_rest */
	GO_TOO_BIG,     /* too_big */
	GO_FINISH,      /* finish */
	GO_DONE,        /* the record is closed: the game is read */
	GO_OOM          /* out of memory */
};

/* The state of reading one game. */
struct rd {
	struct vc_reader *r;
	struct vc_game *g;
	/* the window as pointers, reloaded from r after every refill (load) */
	const unsigned char *b;   /* r->buf */
	const unsigned char *lim; /* the end of the complete lines */
	const unsigned char *end; /* the end of the bytes read: the NUL sentinel */
	const unsigned char *g0;  /* the game's first byte */
	const unsigned char *p;   /* the scan position */
	size_t ge;                /* where the game's raw text ends (window offset), once known */
	int garbage;              /* the text is no game */
	long brace_col;           /* a tagless game between games began with '{' here */
	long nmoves;              /* moves stored */
	int depth;
	long open_line, open_col; /* the outermost '(' still open */
	long movenum;             /* written before the next move, 0 none */
	size_t last_move;         /* index of the last item if a move, else NONE */
	size_t nitems;            /* items stored */
	int records;              /* VC_RECORDS_*: of the comments read so far */
	int moves;                /* movetext began */
	int ntags;                /* tag lines seen */
	int broke;                /* a stream-breaking error was stored */
	int crlf;                 /* strict-crlf was stored */
	int content;              /* the current line had something (tag section) */
	int blankline;            /* a blank line came since the last tag */
	/* names of broken tag lines (game offsets, lengths), the first few */
	size_t broken_name[4], broken_len[4];
	int nbroken;
};

static void load(struct rd *s)
{
	const struct vc_reader *r = s->r;
	s->b = r->buf;
	s->p = s->b + r->pos;
	s->lim = s->b + r->lim;
	s->end = s->b + r->len;
	s->g0 = s->b + r->gs;
}

/* Saves x as the reader's position. */
static void save(struct rd *s, const unsigned char *x)
{
	s->r->pos = (size_t)(x - s->b);
}

/* The column of x, on the current line. */
static long col(const struct rd *s, const unsigned char *x)
{
	return (long)((x - s->b) - s->r->ls) + 1;
}

/* The offset of x from the game's first byte. */
static size_t off(const struct rd *s, const unsigned char *x)
{
	return (size_t)(x - s->g0);
}

/* Is x the first byte of its line? */
static int at_bol(const struct rd *s, const unsigned char *x)
{
	return x - s->b == s->r->ls;
}

/* Is x a NUL byte of the input, not the sentinel? */
static int nul_byte(const struct rd *s, const unsigned char *x)
{
	return *x == '\0' && x != s->end;
}

/* Stores an error in the game, up to MAX_DIAGS of them.  Returns 0, or -1
 * when the cap was reached: the caller then stops tokenising. */
static int vdiag(struct rd *s, enum vc_severity sev, const char *code, long line, long column,
		 const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));
static int vdiag(struct rd *s, enum vc_severity sev, const char *code, long line, long column,
		 const char *fmt, va_list ap)
{
	size_t n = vc_game_diag_count(s->g);
	if (n >= MAX_DIAGS)
		return -1;
	if (n == MAX_DIAGS - 1) {
		vc_game_add_diag(s->g, VC_SEV_ERROR, "limit-diags", line, column, 0, NULL,
				 "more than %d problems in this game: the rest of it is not read",
				 MAX_DIAGS - 1);
		return -1;
	}
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	vc_game_add_diag(s->g, sev, code, line, column, 0, NULL, "%s", msg);
	return 0;
}

static int verr(struct rd *s, const char *code, long line, long column, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static int verr(struct rd *s, const char *code, long line, long column, const char *fmt, va_list ap)
{
	return vdiag(s, VC_SEV_ERROR, code, line, column, fmt, ap);
}

/* A reading that lenient mode makes with a warning, at x on the current
 * line: an error when strict.  0, or -1 as err. */
static int warn_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int warn_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vdiag(s, s->r->strict ? VC_SEV_ERROR : VC_SEV_WARNING, code, s->r->line, col(s, x),
		       fmt, ap);
	va_end(ap);
	return rc;
}

static int err(struct rd *s, const char *code, long line, long column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int err(struct rd *s, const char *code, long line, long column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = verr(s, code, line, column, fmt, ap);
	va_end(ap);
	return rc;
}

/* err at x on the current line. */
static int err_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int err_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = verr(s, code, s->r->line, col(s, x), fmt, ap);
	va_end(ap);
	return rc;
}

/* err_at, for what only strict reading flags; 0 when not strict. */
static int strict_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int strict_at(struct rd *s, const char *code, const unsigned char *x, const char *fmt, ...)
{
	if (!s->r->strict)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	int rc = verr(s, code, s->r->line, col(s, x), fmt, ap);
	va_end(ap);
	return rc;
}

/* A line end at x that is a carriage return: flagged once a game, when
 * strict.  0, or -1 as err. */
static int crlf(struct rd *s, const unsigned char *x)
{
	if (!s->r->strict || s->crlf)
		return 0;
	s->crlf = 1;
	return err_at(s, "strict-crlf", x, "carriage return at the end of a line");
}

/* The current line is longer than max_line: an error, then skip_rest. */
static enum step line_too_long(struct rd *s)
{
	err(s, "limit-line", s->r->line, (long)s->r->max_line + 1, "line is longer than %zu bytes",
	    s->r->max_line);
	return GO_SKIP;
}

/* Past the line end at x (CR, LF or CRLF): the next line is counted and
 * starts at the result. */
static const unsigned char *past_line_end(struct rd *s, const unsigned char *x)
{
	if (x[0] == '\r' && x[1] == '\n')
		x++;
	x++;
	s->r->line++;
	s->r->ls = x - s->b;
	return x;
}

/* Refills the window until the line at x is complete: more's answer.  The
 * window's pointers are reloaded, s->p at x in the new window. */
static int next_line(struct rd *s, const unsigned char *x, size_t linemax)
{
	save(s, x);
	int rc = more(s->r, linemax);
	load(s);
	return rc;
}

/* Stores an item of n bytes at x, at the position of at on the current line. */
static struct vc_item *item(struct rd *s, enum vc_item_type type, const unsigned char *x, size_t n,
			    const unsigned char *at)
{
	s->nitems++;
	return vc_game_build_item(s->g, type, off(s, x), n, s->r->line, col(s, at));
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

/* The game ends before the line at x, which starts the next game. */
static enum step end_before_line(struct rd *s, const unsigned char *x)
{
	save(s, x);
	s->ge = trim_end(s->r, s->r->pos);
	return GO_FINISH;
}

/* A tab, in the tag section or in movetext. */
static enum step tab(struct rd *s)
{
	if (strict_at(s, "strict-spacing", s->p, "tab character") < 0)
		return GO_SKIP;
	s->p++;
	return GO_ON;
}

/* A byte order mark at p, the start of a line in the tag section or in
 * movetext (files joined with cat): before a tag line in movetext, the next
 * game starts at it; else it is skipped, and the line read from the byte
 * after it (columns count from there).  Strict mode flags it. */
static enum step line_bom(struct rd *s, const unsigned char *p)
{
	if (s->moves && tag_like(p + 3))
		return end_before_line(s, p);
	if (strict_at(s, "strict-bom", p, "byte order mark at the start of a line") < 0)
		return GO_SKIP;
	s->r->ls += 3;
	s->p = p + 3;
	return GO_ON;
}

/* A line end in the tag section or in movetext, s->p at it: the next line
 * is made complete in the window; in movetext, a line that starts a tag
 * section begins the next game.  (Inline: both loops call it, on every
 * line.) */
static inline enum step line_end(struct rd *s)
{
	struct vc_reader *r = s->r;
	const unsigned char *p = s->p;
	if (p - s->b - r->ls > (ptrdiff_t)r->max_line)
		return line_too_long(s);
	if (*p == '\r' && crlf(s, p) < 0)
		return GO_SKIP;
	s->p = p = past_line_end(s, p);
	if (off(s, p) > r->max_game)
		return GO_TOO_BIG;
	if (p >= s->lim) {
		int rc = next_line(s, p, r->max_line);
		if (rc == 0)
			return GO_EOF;
		if (rc == -1)
			return line_too_long(s);
		if (rc == -2)
			return GO_TOO_BIG;
		p = s->p;
	}
	if (*p == 0xEF && is_bom(p)) {
		enum step st = line_bom(s, p);
		if (st != GO_ON)
			return st;
		p = s->p;
	}
	/* an escape line ('%') is seen by the loop that called */
	if (!s->moves) {
		if (!s->content)
			s->blankline = 1;
		s->content = 0;
		return GO_ON;
	}
	if ((*p == '[' || *p == ' ' || *p == '\t') && tag_like(p))
		return end_before_line(s, p);
	return GO_ON;
}

/* An escape line, s->p at its '%' in column 1: its text is an item. */
static enum step escape_line(struct rd *s)
{
	const unsigned char *p = s->p, *q;
	s->content = 1;
	if (strict_at(s, "strict-escape", p, "escape line") < 0)
		return GO_SKIP;
	for (q = p + 1; !lstop[*q]; q++)
		;
	if (!item(s, VC_IT_ESCAPE, p + 1, (size_t)(q - p - 1), p))
		return GO_OOM;
	s->p = q;
	if (nul_byte(s, q)) {
		if (err_at(s, "nul-byte", q, "NUL byte in input") < 0 || s->moves)
			return GO_SKIP;
		/* in the tag section, the rest of the line is dropped */
		while (!lstop[*q] || nul_byte(s, q))
			q++;
		s->p = q;
	}
	return GO_ON;
}

/* ---- the tag section ---- */

/* A tag as read: [ name "value" ] */
struct tag {
	const unsigned char *name, *name_end, *value, *value_end;
	int esc; /* the value holds \" or \\ */
};

/* The end of a tag's value at q: its closing '"', or the line end or NUL
 * where it is cut. */
static const unsigned char *value_end(const unsigned char *q, int *esc)
{
	for (;;) {
		while (!vstop[*q])
			q++;
		if (*q != '\\')
			return q;
		if (q[1] == '"' || q[1] == '\\') {
			*esc = 1;
			q += 2;
		} else {
			q++;
		}
	}
}

/* A tag line that does not read at q: a NUL byte there, or the error fmt
 * says at at.  The rest of the line, NUL bytes included, is dropped. */
static enum step broken_tag(struct rd *s, const unsigned char *q, const unsigned char *at,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static enum step broken_tag(struct rd *s, const unsigned char *q, const unsigned char *at,
			    const char *fmt, ...)
{
	int rc;
	if (nul_byte(s, q)) {
		rc = err_at(s, "nul-byte", q, "NUL byte in input");
	} else {
		va_list ap;
		va_start(ap, fmt);
		rc = verr(s, "tag-syntax", s->r->line, col(s, at), fmt, ap);
		va_end(ap);
	}
	if (rc < 0)
		return GO_SKIP;
	while (!lstop[*q] || nul_byte(s, q))
		q++;
	s->p = q;
	return GO_ON;
}

/* A tag value with quotes inside it that are not escaped, as in
 * [White ""Socrates Expert""] or [Event "The "Big" Open"]: when a '"' and
 * then ']' come later on the line, the value runs to that '"', inner quotes
 * and all, with a warning (an error when strict).  t's value is set to it;
 * returns where its ']' is, or t's old value end past its '"' (no such
 * '"': the caller reports the line), or NULL when the game's problems are
 * too many. */
static const unsigned char *quotes_inside(struct rd *s, struct tag *t)
{
	const unsigned char *q = t->value_end + 1, *e;
	for (e = q; !lstop[*e]; e++) {
		if (*e != '"')
			continue;
		const unsigned char *b = e + 1;
		while (*b == ' ' || *b == '\t')
			b++;
		if (*b == ']')
			break;
	}
	if (*e != '"') {
		while (*q == ' ' || *q == '\t')
			q++;
		return q;
	}
	if (warn_at(s, "tag-quotes", t->value_end,
		    "the value of tag '%.*s' holds '\"' not written as '\\\"': read up to the "
		    "'\"' before ']'",
		    NAMECAP(t->name_end - t->name), (const char *)t->name) < 0)
		return NULL;
	t->value_end = e;
	t->esc = 0;
	for (q = t->value; q < e; q++) {
		if (*q == '\\' && (q[1] == '"' || q[1] == '\\')) {
			t->esc = 1;
			q++;
		}
	}
	for (q = e + 1; *q == ' ' || *q == '\t'; q++)
		;
	return q;
}

/* Notes the name of t, a broken tag line, so that the same name after a
 * blank line begins the next game, as a tag it stored would.  Returns 1. */
static int broken_name(struct rd *s, const struct tag *t)
{
	if (s->nbroken < (int)VC_NELEM(s->broken_name)) {
		s->broken_name[s->nbroken] = off(s, t->name);
		s->broken_len[s->nbroken++] = (size_t)(t->name_end - t->name);
	}
	return 1;
}

/* Did a broken tag line of this game name the tag name[0, nlen)? */
static int broken_has(const struct rd *s, const char *name, size_t nlen)
{
	for (int i = 0; i < s->nbroken; i++)
		if (s->broken_len[i] == nlen && !memcmp(s->g0 + s->broken_name[i], name, nlen))
			return 1;
	return 0;
}

/* A tag read whole, s->p at its '[': stored, or the start of the next game.
 * bol: the tag is the first thing on its line. */
static enum step store_tag(struct rd *s, const struct tag *t, int bol)
{
	const char *name = (const char *)t->name;
	size_t nlen = (size_t)(t->name_end - t->name), vlen = (size_t)(t->value_end - t->value);
	/* A tag name the game already has, at the start of a line after a
	 * blank line, begins the next game: a game with no movetext then
	 * does not swallow the next game's tags, while a blank line inside
	 * one tag section (as ChessBase writes) is still read through. */
	if (bol && s->blankline &&
	    (vc_game_build_has_tag(s->g, name, nlen) || broken_has(s, name, nlen)))
		return end_before_line(s, s->b + s->r->ls);
	s->blankline = 0;
	s->ntags++;
	if (nlen + vlen > MAX_TAG_BYTES) {
		if (err_at(s, "limit-tag-size", s->p, "tag '%.*s' is longer than %zu bytes",
			   NAMECAP(nlen), name, MAX_TAG_BYTES) < 0)
			return GO_SKIP;
	} else if (s->ntags > MAX_TAGS) {
		if (s->ntags == MAX_TAGS + 1 &&
		    err_at(s, "limit-tags", s->p, "more than %d tags: the rest are not stored",
			   MAX_TAGS) < 0)
			return GO_SKIP;
	} else if (vc_game_build_tag(s->g, name, nlen, (const char *)t->value, vlen, t->esc,
				     s->r->line, col(s, s->p)) < 0) {
		return GO_OOM;
	}
	return GO_ON;
}

/* A tag line, s->p at its '['. */
static enum step tag_line(struct rd *s)
{
	const unsigned char *q = s->p + 1;
	struct tag t = { 0 };
	int bol = !s->content;
	s->content = 1;
	while (*q == ' ' || *q == '\t')
		q++;
	t.name = q;
	while (namech[*q])
		q++;
	t.name_end = q;
	if (t.name_end == t.name)
		return broken_tag(s, q, q, "expected a tag name after '['");
	int nl = NAMECAP(t.name_end - t.name);
	const char *name = (const char *)t.name;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != '"' && broken_name(s, &t))
		return broken_tag(s, q, q, "expected '\"' after tag name '%.*s'", nl, name);
	t.value = ++q;
	q = value_end(q, &t.esc);
	if (*q != '"' && broken_name(s, &t))
		return broken_tag(s, q, t.value - 1, "value of tag '%.*s' is never closed", nl,
				  name);
	t.value_end = q++;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != ']' && (q = quotes_inside(s, &t)) == NULL)
		return GO_SKIP;
	if (*q != ']' && broken_name(s, &t))
		return broken_tag(s, q, q, "expected ']' after the value of tag '%.*s'", nl, name);
	enum step st = store_tag(s, &t, bol);
	if (st == GO_ON)
		s->p = q + 1;
	return st;
}

/* The tag section, and escape lines before it, up to the first byte of
 * movetext. */
static enum step tag_section(struct rd *s)
{
	for (;;) {
		const unsigned char *p = s->p;
		enum step st;
		switch (cls[*p]) {
		case K_SP:
			s->p = p + 1;
			continue;
		case K_TAB:
			st = tab(s);
			break;
		case K_NL:
			st = line_end(s);
			break;
		case K_NUL:
			/* a NUL byte: movetext reports it */
			return p == s->end ? GO_EOF : GO_BEGIN_MOVES;
		case K_LBRACKET:
			st = tag_line(s);
			break;
		default:
			if (*p != '%' || !at_bol(s, p))
				return GO_BEGIN_MOVES;
			st = escape_line(s);
			break;
		}
		if (st != GO_ON)
			return st;
	}
}

/* ---- comments ---- */

/* The game's records become MAYBE when the comment [t, e) may hold one. */
static inline void note_records(struct rd *s, const unsigned char *t, const unsigned char *e)
{
	if (comment_records(t, e))
		s->records = VC_RECORDS_MAYBE;
}

/* A ';' comment, s->p at the ';': its text runs to the end of the line. */
static enum step semicolon_comment(struct rd *s)
{
	const unsigned char *p = s->p, *q;
	struct vc_item *it;
	for (q = p + 1; !lstop[*q]; q++)
		;
	if (!(it = item(s, VC_IT_COMMENT, p + 1, (size_t)(q - p - 1), p)))
		return GO_OOM;
	it->flags |= VC_IF_SEMICOLON;
	note_records(s, p + 1, q);
	s->p = q;
	if (nul_byte(s, q)) {
		err_at(s, "nul-byte", q, "NUL byte in input");
		return GO_SKIP;
	}
	return GO_ON;
}

/* A brace comment being read. */
struct open_comment {
	size_t off;     /* game offset of its text */
	long line, col; /* of its '{' */
	int first;      /* on its first line */
	int prevblank;  /* the line before was blank */
};

/* A comment never closed: its text runs to the end of the game (s->ge),
 * blanks trimmed. */
static enum step comment_unclosed(struct rd *s, const struct open_comment *c)
{
	const unsigned char *t = s->b + s->ge;
	while (t > s->g0 + c->off && blank[t[-1]])
		t--;
	s->nitems++;
	note_records(s, s->g0 + c->off, t);
	if (!vc_game_build_item(s->g, VC_IT_COMMENT, c->off, off(s, t) - c->off, c->line, c->col))
		return GO_OOM;
	err(s, "comment-unclosed", c->line, c->col, "comment opened here is never closed");
	s->broke = 1;
	return GO_FINISH;
}

/* The comment runs to the end of the input. */
static enum step comment_at_eof(struct rd *s, const struct open_comment *c)
{
	if (s->r->oom)
		return GO_OOM;
	save(s, s->end);
	s->ge = trim_end(s->r, s->r->len);
	return comment_unclosed(s, c);
}

/* Is [t, q) blank? */
static int blank_line(const unsigned char *t, const unsigned char *q)
{
	for (; t < q; t++)
		if (!is_sp(*t))
			return 0;
	return 1;
}

/* A line end at *qp inside a comment: past it, the next line complete in
 * the window.  A blank line and then a tag line: the comment was never
 * closed, and the next game starts there. */
static enum step comment_line_end(struct rd *s, struct open_comment *c, const unsigned char **qp)
{
	struct vc_reader *r = s->r;
	const unsigned char *q = *qp;
	if (q - s->b - r->ls > (ptrdiff_t)r->max_line) {
		s->p = q;
		return line_too_long(s);
	}
	if (!c->first)
		c->prevblank = blank_line(s->b + r->ls, q);
	c->first = 0;
	if (*q == '\r' && crlf(s, q) < 0)
		return GO_SKIP;
	q = past_line_end(s, q);
	if (off(s, q) > r->max_game) {
		s->p = q;
		return GO_TOO_BIG;
	}
	if (q >= s->lim) {
		int rc = next_line(s, q, r->max_line);
		q = s->p;
		if (rc == 0)
			return comment_at_eof(s, c);
		if (rc == -1)
			return line_too_long(s);
		if (rc == -2)
			return GO_TOO_BIG;
	}
	*qp = q;
	if (c->prevblank && tag_start(q)) {
		end_before_line(s, q);
		return comment_unclosed(s, c);
	}
	return GO_ON;
}

/* A brace comment that does not end on its line, s->p at its '{' and q at
 * the line end or NUL where its first line stops.  The text runs to the
 * '}', across lines if need be; s->p stays at the '{' (or where the window
 * was last refilled) until the comment is closed. */
static enum step long_comment(struct rd *s, const unsigned char *q)
{
	struct open_comment c = { off(s, s->p + 1), s->r->line, col(s, s->p), 1, 0 };
	for (;;) {
		if (*q == '\0') {
			if (q == s->end)
				return comment_at_eof(s, &c);
			s->p = q;
			err_at(s, "nul-byte", q, "NUL byte in input");
			return GO_SKIP;
		}
		enum step st = comment_line_end(s, &c, &q);
		if (st != GO_ON)
			return st;
		q = comment_stop(q);
		if (*q == '}')
			break;
	}
	s->nitems++;
	note_records(s, s->g0 + c.off, q);
	if (!vc_game_build_item(s->g, VC_IT_COMMENT, c.off, off(s, q) - c.off, c.line, c.col))
		return GO_OOM;
	s->p = q + 1;
	return GO_ON;
}

/* A brace comment, s->p at the '{'.  Most end on the line they open.
 * (Inline: with clock comments, they are half the items of some archives.) */
static inline enum step brace_comment(struct rd *s)
{
	const unsigned char *p = s->p, *q = comment_stop(p + 1);
	if (*q != '}')
		return long_comment(s, q);
	if (!item(s, VC_IT_COMMENT, p + 1, (size_t)(q - p - 1), p))
		return GO_OOM;
	note_records(s, p + 1, q);
	s->p = q + 1;
	return GO_ON;
}

/* ---- movetext ---- */

/* WXF's sideways move written with '.' ("C8.5", "R+.4", "+P7.6"): is
 * [t, p) its head, a '.' and a digit at p? */
static int wxf_dot(const unsigned char *t, const unsigned char *p)
{
	int up0 = t[0] >= 'A' && t[0] <= 'Z', up1 = t[1] >= 'A' && t[1] <= 'Z';
	int tan0 = t[0] == '+' || t[0] == '-';
	if (p[0] != '.' || p[1] < '0' || p[1] > '9')
		return 0;
	if (p - t == 2)
		return (up0 && ((t[1] >= '0' && t[1] <= '9') || t[1] == '+' || t[1] == '-')) ||
		       (tan0 && up1);
	return p - t == 3 && tan0 && up1 && t[2] >= '0' && t[2] <= '9';
}

/* The end of the move token at t: move bytes, with "(air)", "(prison)" or
 * "(a7)" (promotion by exchange, "e8=R(a7)") joined to them, once a wall
 * move written as two tokens ("W a2b2-a3b3"), and WXF's '.' ("C8.5"). */
static const unsigned char *move_end(const unsigned char *t)
{
	const unsigned char *p = t, *q;
	int wall = 0;
	for (;;) {
		while (mvch[*p])
			p++;
		if (*p == '.' && wxf_dot(t, p)) {
			p++;
			continue;
		}
		if (*p == '(' && (q = paren_join(p)) != NULL) {
			p = q;
			continue;
		}
		size_t n = (size_t)(p - t);
		if (!wall && n <= 2 && t[0] >= 'A' && t[0] <= 'Z' &&
		    (n == 1 || (t[1] >= 'A' && t[1] <= 'Z')) && p[0] == ' ' && p[1] >= 'a' &&
		    p[1] <= 'z' && p[2] >= '0' && p[2] <= '9') {
			wall = 1;
			p++;
			continue;
		}
		return p;
	}
}

/* The result that the token t[0, n) is, or NULL. */
static const char *result_token(const unsigned char *t, size_t n)
{
	if (n == 1 && t[0] == '*')
		return "*";
	if (n == 3 && t[1] == '-' && t[0] == '1' && t[2] == '0')
		return "1-0";
	if (n == 3 && t[1] == '-' && t[0] == '0' && t[2] == '1')
		return "0-1";
	if (n == 7 && memcmp(t, "1/2-1/2", 7) == 0)
		return "1/2-1/2";
	return NULL;
}

/* The result res, the token [t, p).  Inside a variation it is an error. */
static enum step result(struct rd *s, const unsigned char *t, const unsigned char *p,
			const char *res)
{
	s->movenum = 0;
	s->last_move = NONE;
	s->p = p;
	if (s->depth > 0) {
		if (err_at(s, "result-in-variation", t, "result '%s' inside a variation", res) < 0)
			return GO_SKIP;
		return GO_ON;
	}
	vc_game_build_result(s->g, res, s->r->line, col(s, t));
	return GO_AFTER;
}

/* An e.p. mark [t, p) ("e.p." or "ep"): a flag of the move just before. */
static enum step ep_mark(struct rd *s, const unsigned char *t, const unsigned char *p)
{
	int n = (int)(p - t);
	s->p = p;
	if (s->last_move == NONE || s->last_move + 1 != s->nitems) {
		err_at(s, "char-unexpected", t, "'%.*s' does not follow a move", n,
		       (const char *)t);
		return GO_SKIP;
	}
	vc_game_build_item_at(s->g, s->last_move)->flags |= VC_IF_EP_MARK;
	if (strict_at(s, "strict-ep-mark", t, "en passant mark '%.*s'", n, (const char *)t) < 0)
		return GO_SKIP;
	return GO_ON;
}

/* A move [t, p), with the move number before it and a suffix after it. */
static enum step store_move(struct rd *s, const unsigned char *t, const unsigned char *p)
{
	size_t n = (size_t)(p - t);
	struct vc_item *it = item(s, VC_IT_MOVE, t, n, t);
	if (!it)
		return GO_OOM;
	s->nmoves++;
	if (s->movenum) {
		it->flags |= VC_IF_MOVENUM;
		it->movenum = s->movenum;
		s->movenum = 0;
	}
	s->p = p;
	if ((n == 2 && ((t[0] == '-' && t[1] == '-') || (t[0] == 'Z' && t[1] == '0'))) ||
	    (n == 4 && !memcmp(t, "0000", 4))) { /* "0000": the null move of UCI */
		it->flags |= VC_IF_NULL;
		if (strict_at(s, "strict-null-move", t, "null move '%.*s'", (int)n,
			      (const char *)t) < 0)
			return GO_SKIP;
	}
	if (*p == '!' || *p == '?') {
		const unsigned char *q;
		for (q = p; *q == '!' || *q == '?'; q++)
			;
		it->suffix = suffix_of(p, (size_t)(q - p));
		if (!it->suffix) {
			err_at(s, "char-unexpected", p, "unexpected character '%c'", *p);
			return GO_SKIP;
		}
		it->suffix_len = (size_t)(q - p);
		s->p = q;
	}
	s->last_move = s->nitems - 1;
	return GO_ON;
}

/* The length of a result glued to the end of the move token t[0, n): '*'
 * ("h6*"), or a decisive result or draw after a check or mate mark
 * ("Qxf7#1-0"; after a square, "h61-0" could be a rank); else 0. */
static size_t glued_result(const unsigned char *t, size_t n)
{
	/* most moves end in a digit or a letter: a look at the last bytes */
	if (n < 2)
		return 0;
	if (t[n - 1] == '*')
		return t[n - 2] != '*';
	if (n > 4 && t[n - 2] == '-' && (t[n - 4] == '#' || t[n - 4] == '+') &&
	    result_token(t + n - 3, 3))
		return 3;
	if (n > 8 && t[n - 1] == '2' && (t[n - 8] == '#' || t[n - 8] == '+') &&
	    result_token(t + n - 7, 7))
		return 7;
	return 0;
}

/* A move, a result or an e.p. mark, s->p at its first byte.  A result
 * glued to the move before it ("h6*") and a glued "e.p." ("exd6e.p.") are
 * tokens of their own: the move is stored, and the loop reads them next. */
static enum step move(struct rd *s)
{
	const unsigned char *t = s->p, *p = move_end(t);
	size_t n = (size_t)(p - t);
	const char *res = result_token(t, n);
	if (res)
		return result(s, t, p, res);
	if (n == 1 && t[0] == 'e' && p[0] == '.' && p[1] == 'p' && p[2] == '.')
		return ep_mark(s, t, p + 3);
	if (n == 2 && t[0] == 'e' && t[1] == 'p')
		return ep_mark(s, t, p);
	size_t k = glued_result(t, n);
	if (k) {
		if (strict_at(s, "strict-spacing", p - k,
			      "result '%.*s' glued to the move before it", (int)k,
			      (const char *)p - k) < 0)
			return GO_SKIP;
		return store_move(s, t, p - k);
	}
	if (n > 1 && p[-1] == 'e' && p[0] == '.' && p[1] == 'p' && p[2] == '.')
		return store_move(s, t, p - 1);
	return store_move(s, t, p);
}

/* The end of the digits at p when a dot follows them (a move number),
 * else NULL. */
static const unsigned char *number_end(const unsigned char *p)
{
	while (cls[*p] == K_DIGIT)
		p++;
	return *p == '.' ? p : NULL;
}

/* A move number ("12." or "12..."), s->p at its first digit, q past them. */
static enum step move_number(struct rd *s, const unsigned char *q)
{
	const unsigned char *p = s->p, *t;
	long num = 0;
	for (t = p; t < q; t++)
		num = num < (LONG_MAX - 9) / 10 ? num * 10 + (*t - '0') : LONG_MAX;
	s->movenum = num;
	while (*q == '.')
		q++;
	if (mvch[*q] && strict_at(s, "strict-spacing", q, "no space after move number '%.*s'",
				  NAMECAP(q - p), (const char *)p) < 0)
		return GO_SKIP;
	s->p = q;
	return GO_ON;
}

/* A NAG, s->p at its '$'. */
static enum step nag(struct rd *s)
{
	const unsigned char *p = s->p, *q;
	struct vc_item *it;
	for (q = p + 1; cls[*q] == K_DIGIT; q++)
		;
	if (q == p + 1 || q - p - 1 > 9) {
		err_at(s, "char-unexpected", p, "unexpected character '$'");
		return GO_SKIP;
	}
	if (!(it = item(s, VC_IT_NAG, p, (size_t)(q - p), p)))
		return GO_OOM;
	it->nag = atoi((const char *)p + 1);
	s->p = q;
	return GO_ON;
}

/* A suffix written apart from its move ("e4 !"), s->p at it. */
static enum step lone_suffix(struct rd *s)
{
	const unsigned char *p = s->p, *q;
	for (q = p; *q == '!' || *q == '?'; q++)
		;
	const char *sfx = suffix_of(p, (size_t)(q - p));
	if (!sfx || s->last_move == NONE || s->last_move + 1 != s->nitems) {
		err_at(s, "char-unexpected", p, "unexpected character '%c'", *p);
		return GO_SKIP;
	}
	struct vc_item *it = vc_game_build_item_at(s->g, s->last_move);
	if (it->suffix) {
		err_at(s, "char-unexpected", p, "unexpected character '%c'", *p);
		return GO_SKIP;
	}
	it->suffix = sfx;
	it->suffix_len = (size_t)(q - p);
	if (strict_at(s, "strict-spacing", p, "suffix '%s' separated from its move", sfx) < 0)
		return GO_SKIP;
	s->p = q;
	return GO_ON;
}

/* A '(' that opens a variation. */
static enum step variation_start(struct rd *s)
{
	const unsigned char *p = s->p;
	if (s->depth >= s->r->max_depth) {
		err_at(s, "limit-depth", p, "variations nested deeper than %d", s->r->max_depth);
		return GO_SKIP;
	}
	if (s->depth++ == 0) {
		s->open_line = s->r->line;
		s->open_col = col(s, p);
	}
	if (!item(s, VC_IT_VAR_START, p, 1, p))
		return GO_OOM;
	s->movenum = 0;
	s->last_move = NONE;
	s->p = p + 1;
	return GO_ON;
}

/* A ')' that closes a variation, or one too many. */
static enum step variation_end(struct rd *s)
{
	const unsigned char *p = s->p;
	if (s->depth == 0) {
		if (err_at(s, "var-unbalanced", p, "unbalanced ')'") < 0)
			return GO_SKIP;
		s->p = p + 1;
		return GO_ON;
	}
	s->depth--;
	if (!item(s, VC_IT_VAR_END, p, 1, p))
		return GO_OOM;
	s->movenum = 0;
	s->last_move = NONE;
	s->p = p + 1;
	return GO_ON;
}

/* A byte that has no place in movetext. */
static enum step unexpected(struct rd *s)
{
	char qbuf[96];
	err_at(s, "char-unexpected", s->p, "unexpected character '%s'",
	       quote(qbuf, s->p, s->p + 1));
	return GO_SKIP;
}

/* The movetext begins at s->p. */
static enum step begin_movetext(struct rd *s)
{
	s->moves = 1;
	if (s->ntags == 0 && strict_at(s, "strict-no-tags", s->p, "movetext without tags") < 0)
		return GO_SKIP;
	return GO_MOVES;
}

/* Movetext: each token to its handler, by its first byte. */
static enum step movetext(struct rd *s)
{
	for (;;) {
		const unsigned char *p = s->p, *q;
		enum step st;
		/* single spaces separate most tokens: no dispatch for them */
		while (*p == ' ')
			p++;
		s->p = p;
		switch (cls[*p]) {
		case K_SP:
			s->p = p + 1;
			continue;
		case K_TAB:
			st = tab(s);
			break;
		case K_NL:
			st = line_end(s);
			break;
		case K_NUL:
			if (p == s->end)
				return GO_EOF;
			err_at(s, "nul-byte", p, "NUL byte in input");
			return GO_SKIP;
		case K_DIGIT:
			if ((q = number_end(p)) != NULL) {
				st = move_number(s, q);
				break;
			}
			/* digits that no dot follows begin a move ("0-1") */
			/* fall through */
		case K_MOVE:
		case K_STAR:
			st = move(s);
			break;
		case K_DOT:
			/* "..." alone, as in "12. ... Nf6" */
			while (*p == '.')
				p++;
			s->p = p;
			continue;
		case K_LBRACE:
			st = brace_comment(s);
			break;
		case K_SEMI:
			st = semicolon_comment(s);
			break;
		case K_DOLLAR:
			st = nag(s);
			break;
		case K_LPAREN:
			st = variation_start(s);
			break;
		case K_RPAREN:
			st = variation_end(s);
			break;
		case K_SUFFIX:
			st = lone_suffix(s);
			break;
		default:
			st = *p == '%' && at_bol(s, p) ? escape_line(s) : unexpected(s);
			break;
		}
		if (st != GO_ON)
			return st;
	}
}

/* Is the word [t, q) shaped like a move: castling, a null move, or up to
 * two capitals (the piece), an origin (a letter, digits), a capture or drop
 * mark, a square (a lower-case letter, one or two digits), a promotion and
 * check marks?  ("e4", "Nbd7", "exd5", "N@e5", "b8=Q+", "O-O"; not "The",
 * "Round", "a", "2026".) */
static int move_shaped(const unsigned char *t, const unsigned char *q)
{
	while (q > t && (q[-1] == '+' || q[-1] == '#' || q[-1] == '*'))
		q--;
	size_t n = (size_t)(q - t);
	if ((n == 3 && !memcmp(t, "O-O", 3)) || (n == 5 && !memcmp(t, "O-O-O", 5)) ||
	    (n == 3 && !memcmp(t, "0-0", 3)) || (n == 5 && !memcmp(t, "0-0-0", 5)) ||
	    (n == 2 && !memcmp(t, "--", 2)) || (n == 4 && !memcmp(t, "0000", 4)))
		return 1;
	const unsigned char *p = t;
	for (int k = 0; k < 2 && p < q && *p >= 'A' && *p <= 'Z'; k++)
		p++;
	int squares = 0, last_square = 0, files = 0;
	while (p < q) {
		if (*p >= 'a' && *p <= 'z' && p + 1 < q && p[1] >= '0' && p[1] <= '9') {
			p += 2;
			if (p < q && *p >= '0' && *p <= '9')
				p++;
			squares++;
			last_square = 1;
		} else if (*p >= 'a' && *p <= 'z' && squares == 0 && files++ == 0) {
			p++; /* a file, "Nbd7", "exd5" */
		} else if (strchr("x:-@", *p) && *p) {
			p++;
			last_square = 0;
		} else if ((*p == '=' || (*p >= 'A' && *p <= 'Z')) && squares > 0) {
			p += *p == '=';
			return p + 1 == q && *p >= 'A' && *p <= 'Z';
		} else {
			return 0;
		}
	}
	return squares > 0 && squares <= 2 && last_square;
}

/* Does the line at p begin a game without tags, where text that is no game
 * could stand: a move number, a word shaped like a move, or a comment? */
static int tagless_start(const unsigned char *p)
{
	const unsigned char *q;
	for (q = p; cls[*q] == K_DIGIT; q++)
		;
	if (q > p && *q == '.')
		return 1;
	return *p == '{' || move_shaped(p, move_end(p));
}

/* ---- the end of a game ---- */

/* The line end of the result's line: the game ends with it. */
static enum step result_line_end(struct rd *s)
{
	struct vc_reader *r = s->r;
	const unsigned char *p = s->p;
	if (p - s->b - r->ls > (ptrdiff_t)r->max_line)
		err(s, "limit-line", r->line, (long)r->max_line + 1,
		    "line is longer than %zu bytes", r->max_line);
	p = past_line_end(s, p);
	save(s, p);
	s->ge = r->pos;
	return GO_FINISH;
}

/* After the result: comments on its line still belong to the game; more
 * text on it starts the next game. */
static enum step after_result(struct rd *s)
{
	for (;;) {
		const unsigned char *p = s->p, *q;
		enum step st;
		switch (cls[*p]) {
		case K_SP:
		case K_TAB:
			s->p = p + 1;
			continue;
		case K_LBRACE:
			st = brace_comment(s);
			break;
		case K_SEMI:
			st = semicolon_comment(s);
			break;
		case K_NL:
			return result_line_end(s);
		case K_NUL:
			if (p == s->end)
				return GO_EOF;
			/* fall through */
		default:
			save(s, p);
			for (q = p; q > s->g0 && is_sp(q[-1]); q--)
				;
			s->ge = (size_t)(q - s->b);
			return GO_FINISH;
		}
		if (st != GO_ON)
			return st;
	}
}

/* The input ends inside the game. */
static enum step at_eof(struct rd *s)
{
	struct vc_reader *r = s->r;
	if (r->oom)
		return GO_OOM;
	/* the last line, which has no line end */
	if (s->end - s->b - r->ls > (ptrdiff_t)r->max_line && !s->broke)
		err(s, "limit-line", r->line, (long)r->max_line + 1,
		    "line is longer than %zu bytes", r->max_line);
	save(s, s->end);
	s->ge = trim_end(r, r->len);
	return GO_FINISH;
}

/* Text that is no game: kept up to the next tag or escape line. */
static enum step garbage(struct rd *s)
{
	char qbuf[96];
	s->garbage = 1;
	err(s, "garbage", s->r->line, col(s, s->p), "text between games is not a game: '%s'",
	    quote(qbuf, s->p, s->end));
	return GO_SKIP;
}

/* skip_rest has reached x, the end of the complete lines: more input, or
 * the step that ends the game. */
static enum step skip_more(struct rd *s, const unsigned char *x)
{
	int rc = next_line(s, x, SIZE_MAX);
	if (rc == 0)
		return GO_EOF;
	if (rc == -2)
		return GO_TOO_BIG;
	return GO_ON;
}

/* After an error that breaks the token stream: the bytes from s->p up to
 * the next line that starts a tag section (or, after garbage, an escape
 * line, or a line after a blank one that starts a tagless game) are kept in
 * the game's raw text, unread. */
static enum step skip_rest(struct rd *s)
{
	enum step st;
	s->broke = 1;
	for (;;) {
		if (s->p >= s->lim && (st = skip_more(s, s->p)) != GO_ON)
			return st;
		const unsigned char *p = s->p;
		while (!lstop[*p])
			p++;
		if (*p == '\0') {
			/* at the sentinel: more input or the end */
			s->p = p == s->end ? p : p + 1;
			continue;
		}
		int after_blank = s->r->ls >= 0 && blank_line(s->b + s->r->ls, p);
		s->p = p = past_line_end(s, p);
		if (off(s, p) > s->r->max_game)
			return GO_TOO_BIG;
		if (p >= s->lim && (st = skip_more(s, p)) != GO_ON)
			return st;
		p = s->p;
		if (tag_like_bom(p) ||
		    (s->garbage && (*p == '%' || (after_blank && tagless_start(p)))))
			return end_before_line(s, p);
	}
}

/* The game has passed max_game bytes at s->p: the first max_game bytes are
 * kept, and the rest is dropped up to the next tag line before the next
 * game (skip_discard). */
static enum step too_big(struct rd *s)
{
	struct vc_reader *r = s->r;
	err(s, "limit-game-size", r->line, 1,
	    "game is longer than %zu bytes: its raw text is cut there and the rest is skipped",
	    r->max_game);
	s->broke = 1;
	save(s, s->p > s->end ? s->end : s->p);
	r->skip = 1;
	r->skip_bol = r->pos == (size_t)r->ls;
	s->ge = r->gs + r->max_game;
	if (s->ge > r->len)
		s->ge = r->len;
	return GO_DONE;
}

/* The game has ended at s->ge: the checks of a whole game. */
static enum step finish(struct rd *s)
{
	struct vc_reader *r = s->r;
	struct vc_game *g = s->g;
	if (s->brace_col && !s->nmoves && !vc_game_result(g)) {
		/* a comment between games with no move and no result after it
		 * (before the next game's tags) is no game */
		char qbuf[96];
		s->garbage = 1;
		err(s, "garbage", vc_game_line(g), s->brace_col,
		    "text between games is not a game: '%s'", quote(qbuf, s->g0, s->end));
		return GO_DONE;
	}
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
	if (s->ge - r->gs > r->max_game) {
		err(s, "limit-game-size", vc_game_line(g), 1,
		    "game is longer than %zu bytes: its raw text is cut there", r->max_game);
		s->ge = r->gs + r->max_game;
	}
	return GO_DONE;
}

/* ---- a game from its first byte to its record ---- */

/* Where a game begins, s->p at its first byte (not blank): its tags, its
 * movetext, or text that is no game. */
static enum step first_step(struct rd *s)
{
	const unsigned char *p = s->p;
	if (*p == '%' && at_bol(s, p))
		return GO_TAGS;
	if (tag_like(p))
		return GO_TAGS;
	switch (cls[*p]) {
	case K_DIGIT:
	case K_MOVE:
	case K_STAR:
	case K_DOT:
	case K_LBRACE:
	case K_SEMI:
	case K_DOLLAR:
	case K_LPAREN:
		/* Movetext without tags: the whole file may be such a game;
		 * between games, a move number, a comment or a word shaped like
		 * a move starts one (games one a paragraph, as PGN's import
		 * format allows); prose, or a result alone, is no game. */
		if (s->r->games == 1)
			return GO_BEGIN_MOVES;
		if (*p == '{')
			s->brace_col = col(s, p);
		if (tagless_start(p))
			return GO_BEGIN_MOVES;
		break;
	default:
		break;
	}
	return GO_GARBAGE;
}

/* A game begins at r->pos: its record is started. */
static void start_game(struct rd *s, struct vc_reader *r, struct vc_game *g)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->g = g;
	s->last_move = NONE;
	r->gs = r->pos;
	load(s);
	vc_game_build_start(g, r->name, r->number++, r->line);
	r->games++;
	if (r->bom) {
		if (r->strict)
			err(s, "strict-bom", r->bom, 1, "byte order mark at the start of %s",
			    r->bom == 1 ? "the input" : "a line");
		r->bom = 0;
	}
}

/* The game's record gets its raw text, [gs, ge). */
static vc_status close_record(struct rd *s)
{
	struct vc_reader *r = s->r;
	vc_game_build_records(s->g, s->records);
	if (vc_game_build_finish(s->g, (const char *)r->buf + r->gs, s->ge - r->gs, s->garbage) <
		    0 ||
	    vc_game_build_oom(s->g)) {
		out_of_memory(r);
		return VC_FATAL;
	}
	return VC_OK;
}

/* Reads one game starting at r->pos (a non-blank byte) into g: runs the
 * steps until the game is read. */
static vc_status read_game(struct vc_reader *r, struct vc_game *g)
{
	struct rd s;
	start_game(&s, r, g);
	enum step st = first_step(&s);
	for (;;) {
		switch (st) {
		case GO_ON: /* cannot be: the loops keep it */
			assert(!"a step of read_game returned GO_ON");
			return VC_FATAL;
		case GO_TAGS:
			st = tag_section(&s);
			break;
		case GO_BEGIN_MOVES:
			st = begin_movetext(&s);
			break;
		case GO_MOVES:
			st = movetext(&s);
			break;
		case GO_AFTER:
			st = after_result(&s);
			break;
		case GO_EOF:
			st = at_eof(&s);
			break;
		case GO_GARBAGE:
			st = garbage(&s);
			break;
		case GO_SKIP:
			st = skip_rest(&s);
			break;
		case GO_TOO_BIG:
			st = too_big(&s);
			break;
		case GO_FINISH:
			st = finish(&s);
			break;
		case GO_DONE:
			return close_record(&s);
		case GO_OOM:
			out_of_memory(r);
			return VC_FATAL;
		}
	}
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
		if (is_bom(p)) {
			/* a BOM where a game may begin: at the start of the input,
			 * or of each file of a concatenation */
			if (r->pos == (size_t)r->ls)
				r->ls += 3; /* columns count from the byte after it */
			r->pos += 3;
			r->bom = r->line;
			continue;
		}
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

struct vc_ctx *vc_reader_swap_ctx(struct vc_reader *r, struct vc_ctx *ctx)
{
	struct vc_ctx *old = r->ctx;
	r->ctx = ctx;
	vc_input_swap_ctx(r->in, ctx);
	return old;
}

int vc_reader_is_gzip(const struct vc_reader *r)
{
	return r && vc_input_is_gzip(r->in);
}
