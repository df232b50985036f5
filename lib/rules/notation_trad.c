/*
 * notation_trad.c - the traditional notations of xiangqi and janggi, read
 * where a variant's file asks for them (notation: wxf: read, janggi: read)
 * besides SAN, and written on request (vchess-convert --moves=wxf|janggi).
 *
 * WXF, the World Xiangqi Federation's notation, as Fairy-Stockfish writes
 * it: the piece's letter, the file it stands on counted from the mover's
 * right (1 to 9), the direction ('+' forward, '-' backward, '=' or '.'
 * sideways), then the file it goes to, or, for a move along its file, the
 * number of ranks (H2+3, C8=5, R1+2).  Two pieces of a type on one file
 * are told apart by '+' (the front one) or '-' (the rear one) in place of
 * the file: after the letter (R++1, as the engine writes it) or before it
 * (+R+1), maybe with the file too (+P7+1).  Where more than two pieces
 * of a type share files with another of it (three on one file, or two
 * pairs), each of them is written as its number from the front of its
 * file, then the file, without a letter (15=6, 29+1: the engine's form,
 * read whatever the count).  WXF says what moves, not
 * where from: the text is read again when the move is resolved, against
 * the pieces on the board, and exactly one legal move must fit it.
 *
 * Janggi's notation, as Fairy-Stockfish writes it: the piece's letter, the
 * squares from and to, each as its rank counted from the top (1 to 9, then
 * 0 for the tenth) and its file from the left (1 to 9), '-' or 'x' between
 * them, a check mark after: H08-87, C42x44+.  A pass is the king to its
 * own square (K95-95).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

/* A WXF move as written: what is named, the direction and the number. */
struct wxf {
	int type;   /* the piece's type; -1 in the numbered form (15=6) */
	int file;   /* the origin's file as written (1 = the mover's right), 0 none */
	int tandem; /* '+' the front piece of its file, '-' the rear one, 0 */
	int index;  /* numbered form: 1 the front piece, 2 the next... 0 */
	int dir;    /* '+', '-', '=' */
	int num;    /* ranks moved along the file, or the destination's file */
	int check;  /* 0, 1 '+', 2 '#' */
};

static int fail(const char **code, const char *c, char *msg, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(const char **code, const char *c, char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;
	*code = c;
	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* annotations and check marks off the end of text: its new length */
static size_t strip_marks(const char *text, size_t len, int *check)
{
	while (len > 0 && (text[len - 1] == '!' || text[len - 1] == '?'))
		len--;
	*check = 0;
	if (len > 1 && text[len - 1] == '#' && isdigit((unsigned char)text[len - 2])) {
		*check = 2;
		len--;
	} else if (len > 1 && text[len - 1] == '+' && isdigit((unsigned char)text[len - 2])) {
		*check = 1;
		len--;
	}
	return len;
}

static int is_tandem(char c)
{
	return c == '+' || c == '-';
}

/* Is text a WXF move?  1 with *w filled, 0 when it is not shaped like one,
 * -1 when it is but names what cannot be (a message). */
static int wxf_scan(const struct vc_variant *v, const char *text, size_t len, struct wxf *w,
		    const char **code, char *msg, size_t n)
{
	size_t bl = strip_marks(text, len, &w->check);
	if (bl < 4 || bl > 5)
		return 0;
	const char *h = text;
	char dir = text[bl - 2], num = text[bl - 1], letter = 0;
	if (!dir || !strchr("+-=.", dir) || num < '0' || num > '9')
		return 0;
	w->dir = dir == '.' ? '=' : dir;
	w->num = num - '0';
	w->type = -1;
	w->file = w->tandem = w->index = 0;
	int tl = (int)(len > 40 ? 40 : len);
	if (bl == 4 && isupper((unsigned char)h[0]) && isdigit((unsigned char)h[1])) {
		letter = h[0];
		w->file = h[1] - '0';
	} else if (bl == 4 && isupper((unsigned char)h[0]) && is_tandem(h[1])) {
		letter = h[0];
		w->tandem = h[1];
	} else if (bl == 4 && is_tandem(h[0]) && isupper((unsigned char)h[1])) {
		w->tandem = h[0];
		letter = h[1];
	} else if (bl == 4 && isdigit((unsigned char)h[0]) && isdigit((unsigned char)h[1])) {
		w->index = h[0] - '0';
		w->file = h[1] - '0';
		if (!w->index)
			return fail(code, "move-syntax", msg, n,
				    "the WXF move '%.*s' numbers a piece 0: the front one is 1", tl,
				    text);
	} else if (bl == 5 && is_tandem(h[0]) && isupper((unsigned char)h[1]) &&
		   isdigit((unsigned char)h[2])) {
		w->tandem = h[0];
		letter = h[1];
		w->file = h[2] - '0';
	} else {
		return 0;
	}
	if (letter && (w->type = vc_type_by_symbol(v, &letter, 1)) < 0)
		return fail(code, "move-unknown-piece", msg, n,
			    "unknown piece '%c' in the WXF move '%.*s'", letter, tl, text);
	if ((w->index || letter) && (w->file > v->files || (w->file == 0 && !w->tandem)))
		return fail(code, "move-offboard", msg, n,
			    "the WXF move '%.*s' names file %d: files are numbered 1 to %d from "
			    "each side's right",
			    tl, text, w->file, v->files);
	if (w->num == 0 && w->dir != '=')
		return fail(code, "move-syntax", msg, n,
			    "the WXF move '%.*s' ends in 0: after '%c' comes the file it goes to, "
			    "or the ranks it goes along its file, from 1",
			    tl, text, w->dir);
	if (w->num == 0 || (w->dir == '=' && w->num > v->files))
		return fail(code, "move-offboard", msg, n,
			    "the WXF move '%.*s' ends on file %d: files are numbered 1 to %d from "
			    "each side's right",
			    tl, text, w->num, v->files);
	return 1;
}

/* janggi's square: the rank's digit from the top (0 the tenth), the
 * file's from the left; the square, or -1 */
int vc_janggi_square(const struct vc_variant *v, const char *s)
{
	int rd = s[0] - '0', fd = s[1] - '0';
	int r = v->ranks - (rd ? rd : 10);
	if (fd < 1 || fd > v->files || r < 0 || r >= v->ranks)
		return -1;
	return vc_sq(v->files, fd - 1, r);
}

/* Is text a move in janggi's notation?  As wxf_scan, m filled. */
static int janggi_scan(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m,
		       const char **code, char *msg, size_t n)
{
	int check;
	size_t bl = strip_marks(text, len, &check);
	const char *s = text;
	if (bl != 6 || !isupper((unsigned char)s[0]) || (s[3] != '-' && s[3] != 'x'))
		return 0;
	for (int i = 1; i < 6; i++)
		if (i != 3 && !isdigit((unsigned char)s[i]))
			return 0;
	int tl = (int)(len > 40 ? 40 : len);
	int t = vc_type_by_symbol(v, s, 1), from = vc_janggi_square(v, s + 1),
	    to = vc_janggi_square(v, s + 4);
	if (t < 0)
		return fail(code, "move-unknown-piece", msg, n,
			    "unknown piece '%c' in the janggi move '%.*s'", s[0], tl, text);
	if (from < 0 || to < 0)
		return fail(code, "move-offboard", msg, n,
			    "the janggi move '%.*s' leaves the board: a square is its rank from "
			    "the top (1 to 9, 0 the tenth), then its file from the left (1 to %d)",
			    tl, text, v->files);
	m->piece = t;
	m->from_sq = from;
	m->to = to;
	m->capture_mark = s[3] == 'x';
	m->check = check;
	return 1;
}

int vc_trad_parse(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m,
		  const char **code, char *msg, size_t n)
{
	if (v->wxf_read) {
		struct wxf w;
		int r = wxf_scan(v, text, len, &w, code, msg, n);
		if (r > 0) {
			m->wxf = 1;
			m->piece = w.type;
			m->check = w.check;
		}
		if (r)
			return r;
	}
	if (v->janggi_read)
		return janggi_scan(v, text, len, m, code, msg, n);
	return 0;
}

/* ---- WXF against the position ---- */

/* the file of sq as side counts it: 1 on its right */
static int wxf_file(const struct vc_variant *v, int side, int sq)
{
	int f = sq % v->files;
	return side == VC_WHITE ? v->files - f : f + 1;
}

/* side's pieces of type t on the file of sq, ahead of it and behind it */
static void file_mates(const struct vc_position *p, int side, int t, int sq, int *ahead,
		       int *behind)
{
	const struct vc_variant *v = p->v;
	int F = v->files, f = sq % F, r0 = sq / F, fwd = side == VC_WHITE ? 1 : -1;
	*ahead = *behind = 0;
	for (int r = 0; r < v->ranks; r++) {
		uint8_t occ = p->board[vc_sq(F, f, r)];
		if (r == r0 || !occ || vc_code_color(occ) != side || vc_code_type(occ) != t)
			continue;
		if ((r - r0) * fwd > 0)
			(*ahead)++;
		else
			(*behind)++;
	}
}

/* Is the piece on sq one that w names? */
static int wxf_names(const struct vc_position *p, const struct wxf *w, int sq)
{
	uint8_t occ = p->board[sq];
	int side = p->side, a, b;
	if (!occ || vc_code_color(occ) != side)
		return 0;
	int t = vc_code_type(occ);
	if ((w->type >= 0 && t != w->type) || (w->file && wxf_file(p->v, side, sq) != w->file))
		return 0;
	file_mates(p, side, t, sq, &a, &b);
	if (w->tandem)
		return w->tandem == '+' ? a == 0 && b > 0 : b == 0 && a > 0;
	if (w->index)
		return a + 1 == w->index && a + b >= 1;
	return 1;
}

/* Does move m of side go the way w says? */
static int wxf_goes(const struct vc_variant *v, int side, const vc_move *m, const struct wxf *w)
{
	int F = v->files, df = m->to % F - m->from % F;
	int dr = (m->to / F - m->from / F) * (side == VC_WHITE ? 1 : -1);
	int dir = dr > 0 ? '+' : dr < 0 ? '-' : '=';
	return dir == w->dir && (df ? wxf_file(v, side, m->to) : abs(dr)) == w->num;
}

/* What w fits in p: the count of legal moves (the first two in legal[]),
 * of pseudo-legal ones (the first in *pseudo) and of pieces named; -1 out
 * of memory. */
struct wxf_fit {
	vc_move legal[2], pseudo;
	int nlegal, npseudo, named;
};

static int wxf_match(struct vc_position *p, const struct wxf *w, struct wxf_fit *fit)
{
	vc_move *buf = vc_scratch(VC_SCRATCH_WXF, VC_MAX_MOVES * sizeof *buf);
	const struct vc_variant *v = p->v;
	fit->nlegal = fit->npseudo = fit->named = 0;
	if (!buf)
		return -1;
	for (int sq = 0; sq < v->files * v->ranks; sq++) {
		if (!wxf_names(p, w, sq))
			continue;
		fit->named++;
		int nm = vc_gen_from(p, sq, buf);
		for (int i = 0; i < nm; i++) {
			const vc_move *m = &buf[i];
			if (m->from != sq || m->to < 0 ||
			    (m->flags & (VC_MF_DROP | VC_MF_NULL | VC_MF_CASTLE | VC_MF_WALL)) ||
			    !wxf_goes(v, p->side, m, w))
				continue;
			if (fit->npseudo++ == 0)
				fit->pseudo = *m;
			if (!vc_move_legal(p, m))
				continue;
			if (fit->nlegal < 2)
				fit->legal[fit->nlegal] = *m;
			fit->nlegal++;
		}
	}
	return 0;
}

static const char *piece_word(const struct vc_variant *v, int t, char *buf, size_t n)
{
	snprintf(buf, n, "%s", v->types[t].name);
	for (char *c = buf; *c; c++)
		if (*c == '-')
			*c = ' ';
	return buf;
}

/* Why no legal move fits w (fit): in words. */
static int wxf_why(struct vc_position *p, const struct wxf *w, const struct wxf_fit *fit,
		   const char *text, int tl, const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	const char *side = p->side == VC_WHITE ? "White" : "Black";
	char pw[40] = "piece", where[64] = "";
	if (w->type >= 0)
		piece_word(v, w->type, pw, sizeof pw);
	if (w->file)
		snprintf(where, sizeof where, " on file %d", w->file);
	if (fit->npseudo)
		return fail(code, "move-illegal", msg, n, "'%.*s' %s", tl, text,
			    vc_illegal_why(p, &fit->pseudo));
	if (fit->named)
		return fail(code, "move-illegal", msg, n,
			    "the WXF move '%.*s': no %s that it names%s can go %s %d", tl, text, pw,
			    where,
			    w->dir == '+'   ? "forward"
			    : w->dir == '-' ? "backward"
					    : "sideways to file",
			    w->num);
	if (w->tandem)
		return fail(code, "move-no-piece", msg, n,
			    "the WXF move '%.*s' names the %s %s%s, and %s has no two %ss on one "
			    "file%s",
			    tl, text, w->tandem == '+' ? "front" : "rear", pw, where, side, pw,
			    w->file ? " there" : "");
	if (w->index)
		return fail(code, "move-no-piece", msg, n,
			    "the WXF move '%.*s' names piece %d from the front%s, and %s has no "
			    "such piece among pieces of a kind on one file",
			    tl, text, w->index, where, side);
	return fail(code, "move-no-piece", msg, n, "the WXF move '%.*s': %s has no %s%s", tl, text,
		    side, pw, where);
}

int vc_wxf_resolve(struct vc_position *p, const char *text, size_t len, vc_move *out,
		   const char **code, char *msg, size_t n)
{
	struct wxf w;
	struct wxf_fit fit;
	int tl = (int)(len > 40 ? 40 : len);
	int r = wxf_scan(p->v, text, len, &w, code, msg, n);
	if (r < 0)
		return -1;
	if (r == 0)
		return fail(code, "move-syntax", msg, n, "'%.*s' is not a WXF move", tl, text);
	if (wxf_match(p, &w, &fit) < 0)
		return fail(code, "oom", msg, n, "out of memory");
	if (fit.nlegal == 1) {
		*out = fit.legal[0];
		return 0;
	}
	if (fit.nlegal > 1) {
		char a[2][8], b[2][8];
		for (int i = 0; i < 2; i++) {
			vc_square_name(p->v, fit.legal[i].from, a[i]);
			vc_square_name(p->v, fit.legal[i].to, b[i]);
		}
		return fail(code, "move-ambiguous", msg, n,
			    "the WXF move '%.*s' fits %d moves (%s-%s and %s-%s): %s", tl, text,
			    fit.nlegal, a[0], b[0], a[1], b[1],
			    w.tandem && !w.file
				    ? "write the file after the letter, as in +P7+1"
				    : "WXF cannot tell them apart; write the move in SAN");
	}
	return wxf_why(p, &w, &fit, text, tl, code, msg, n);
}

/* ---- writing ---- */

/* side's pieces of type t that share their file with another of t */
static int tandem_count(const struct vc_position *p, int side, int t)
{
	const struct vc_variant *v = p->v;
	int total = 0;
	for (int f = 0; f < v->files; f++) {
		int k = 0;
		for (int r = 0; r < v->ranks; r++) {
			uint8_t occ = p->board[vc_sq(v->files, f, r)];
			k += occ && vc_code_color(occ) == side && vc_code_type(occ) == t;
		}
		if (k >= 2)
			total += k;
	}
	return total;
}

/* A pair on one file told apart by '+' or '-', as the engine does it:
 * when the other piece's same step (the move's shift from its square)
 * would land on the board, in the region its type keeps to. */
static int twin_lands(const struct vc_position *p, int t, int from, int to)
{
	const struct vc_variant *v = p->v;
	int F = v->files, f = from % F, dr = to / F - from / F, side = p->side;
	for (int r = 0; r < v->ranks; r++) {
		int sq = vc_sq(F, f, r);
		uint8_t occ = p->board[sq];
		if (sq == from || !occ || vc_code_color(occ) != side || vc_code_type(occ) != t)
			continue;
		int tr = r + dr, reg = v->types[t].region;
		if (tr < 0 || tr >= v->ranks)
			return 0;
		return !reg || vc_bit_test(v->region[reg - 1][side], vc_sq(F, to % F, tr));
	}
	return 0;
}

/* how many legal moves the WXF text buf[0, k) fits (0 when it was cut, n
 * the buffer's size) */
static int wxf_count(struct vc_position *p, const char *buf, size_t k, size_t n)
{
	struct wxf w;
	struct wxf_fit fit;
	const char *code;
	char msg[8];
	if (k >= n || wxf_scan(p->v, buf, k, &w, &code, msg, sizeof msg) <= 0)
		return 0;
	if (wxf_match(p, &w, &fit) < 0)
		return 0; /* out of memory: as if cut (no text rather than a wrong one) */
	return fit.nlegal;
}

int vc_move_wxf(struct vc_position *p, const vc_move *m, char *buf, size_t n)
{
	const struct vc_variant *v = p->v;
	int side = p->side, F = v->files, a, b;
	if (m->from < 0 || m->to < 0 ||
	    (m->flags & (VC_MF_DROP | VC_MF_NULL | VC_MF_CASTLE | VC_MF_WALL)) || F > 9) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	int t = m->piece, fw = wxf_file(v, side, m->from);
	int df = m->to % F - m->from % F;
	int dr = (m->to / F - m->from / F) * (side == VC_WHITE ? 1 : -1);
	char dir = dr > 0 ? '+' : dr < 0 ? '-' : '=';
	int num = df ? wxf_file(v, side, m->to) : abs(dr);
	const char *sym = vc_san_symbol(v, t);
	file_mates(p, side, t, m->from, &a, &b);
	int k;
	if (a + b >= 1 && tandem_count(p, side, t) > 2)
		k = snprintf(buf, n, "%d%d%c%d", a + 1, fw, dir, num);
	else if (a + b == 1 && twin_lands(p, t, m->from, m->to))
		k = snprintf(buf, n, "%s%c%c%d", sym, a ? '-' : '+', dir, num);
	else
		k = snprintf(buf, n, "%s%d%c%d", sym, fw, dir, num);
	/* the engine's form where it tells the move; else, for one of a pair,
	 * the file added; else none (a piece that moves both along its file
	 * and to another, as Manchu chess's banner: M8+7 is a horse's step or
	 * a chariot's seven ranks) */
	if (wxf_count(p, buf, (size_t)k, n) == 1)
		return k;
	if (a + b == 1) {
		k = snprintf(buf, n, "%c%s%d%c%d", a ? '-' : '+', sym, fw, dir, num);
		if (wxf_count(p, buf, (size_t)k, n) == 1)
			return k;
	}
	if (n)
		buf[0] = 0;
	return 0;
}

int vc_move_janggi(const struct vc_position *p, const vc_move *m, char *buf, size_t n)
{
	const struct vc_variant *v = p->v;
	int pass = (m->flags & VC_MF_NULL) && m->from >= 0;
	if ((!pass && (m->from < 0 || m->to < 0 ||
		       (m->flags & (VC_MF_DROP | VC_MF_NULL | VC_MF_CASTLE | VC_MF_WALL)))) ||
	    v->files > 9 || v->ranks > 10) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	int from = m->from, to = pass ? m->from : m->to;
	int t = pass ? vc_code_type(p->board[from]) : m->piece;
	return snprintf(buf, n, "%s%c%c%c%c%c", vc_san_symbol(v, t),
			'0' + (v->ranks - from / v->files) % 10, '1' + from % v->files,
			(m->flags & VC_MF_CAPTURE) ? 'x' : '-',
			'0' + (v->ranks - to / v->files) % 10, '1' + to % v->files);
}
