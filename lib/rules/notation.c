/*
 * notation.c - reading and writing moves in each variant's dialect of
 * algebraic notation, driven by the variant's piece symbols.
 *
 * Reading is lenient: SAN with any disambiguation, long algebraic with or
 * without '-' and 'x', engine coordinates (e2e4, e7e8q), multi-letter
 * symbols with or without '-' before the square (SC-j13, NN-i7), drops with
 * '@' or '*', promotion with or without '=', castling with O or 0.  A parsed
 * move is then resolved against the position: the candidates are the
 * origins that the variant's reverse tries say can reach the destination,
 * each candidate's own moves are generated to get the exact move, and the
 * legal ones are kept.  Exactly one must remain.  Writing is canonical:
 * minimal disambiguation (file, then rank, then square), the dialect's
 * separator and drop mark, check and mate marks.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "rules/vc_rules.h"

int vc_move_coord(const struct vc_variant *v, const vc_move *m, char *buf, size_t n)
{
	char a[8], b[8], promo[8] = "";
	if ((m->flags & VC_MF_NULL) && m->from >= 0) {
		vc_square_name(v, m->from, a); /* a pass: the royal piece to its own square */
		return snprintf(buf, n, "%s%s", a, a);
	}
	if (m->flags & VC_MF_NULL)
		return snprintf(buf, n, "0000");
	vc_square_name(v, m->to, b);
	if (m->flags & VC_MF_DROP) /* '+' face up: "+L@c3", as Fairy-Stockfish writes it */
		return snprintf(buf, n, "%s@%s",
				v->types[m->promo ? m->promo - 1 : m->piece].symbol, b);
	if (m->flags & VC_MF_WALL) {
		char c[8], d[8];
		vc_square_name(v, m->from, a);
		vc_square_name(v, m->from2, c);
		vc_square_name(v, m->to2, d);
		return snprintf(buf, n, "%s%s%s%s", a, c, b, d);
	}
	vc_square_name(v, m->from, a);
	if (m->flags & VC_MF_GATE) {
		/* the gated piece's letter glued on, as Fairy-Stockfish writes it;
		 * castling's gate on the partner's square as the partner's move
		 * to the king's square (h1e1h) */
		char g = (char)tolower((unsigned char)v->types[m->gate].symbol[0]);
		if (m->flags & VC_MF_GATE_PARTNER)
			vc_square_name(v, m->aux, a), vc_square_name(v, m->from, b);
		else if ((m->flags & VC_MF_CASTLE) && v->coord_castle_partner)
			vc_square_name(v, m->aux, b);
		return snprintf(buf, n, "%s%s%c", a, b, g);
	}
	if ((m->flags & VC_MF_CASTLE) && v->coord_castle_partner) {
		vc_square_name(v, m->aux, b); /* the king takes its partner */
		return snprintf(buf, n, "%s%s", a, b);
	}
	/* the promotion letter only where the move chose it: not for a
	 * promotion that happens by itself, nor for a piece that turns into
	 * what it captured (a vampire), whose squares say it all */
	if (m->promo && (m->flags & (VC_MF_PROMO | VC_MF_XPROMO)) &&
	    !(v->types[m->piece].auto_to == m->promo - 1 &&
	      !(v->types[m->piece].promo_choices >> (m->promo - 1) & 1))) {
		size_t k = 0;
		for (const char *s = v->types[m->promo - 1].symbol; *s && k < 7; s++)
			promo[k++] = (char)tolower((unsigned char)*s);
		promo[k] = 0;
		/* a piece that becomes its own '+' form: "+", as UCI writes shogi;
		 * one that turns back over (flip): "-", as Fairy-Stockfish does */
		if (v->types[m->promo - 1].demote_to == m->piece)
			promo[1] = 0;
		else if (v->types[m->piece].demote_to == m->promo - 1)
			promo[0] = '-', promo[1] = 0;
	}
	if (m->flags & VC_MF_XPROMO) {
		/* the piece that trades places with the pawn, always named */
		char src[8];
		if (m->aux >= 0)
			vc_square_name(v, m->aux, src);
		return snprintf(buf, n, "%s%s%s(%s)", a, b, promo,
				m->aux >= 0 ? src : m->aux == -2 ? "air" : "prison");
	}
	return snprintf(buf, n, "%s%s%s", a, b, promo);
}

/* ---- reading ---- */

static int vfail(const char **code, const char *c, char *msg, size_t n, const char *fmt,
		 va_list ap) __attribute__((format(printf, 5, 0)));

static int vfail(const char **code, const char *c, char *msg, size_t n, const char *fmt,
		 va_list ap)
{
	*code = c;
	vsnprintf(msg, n, fmt, ap);
	return -1;
}

static int fail(const char **code, const char *c, char *msg, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(const char **code, const char *c, char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(code, c, msg, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int file_of_char(const struct vc_variant *v, char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	for (int f = 0; f < v->files; f++)
		if (v->file_alias[f] && v->file_alias[f] == c)
			return f;
	return -1;
}

static int is_file_alias(const struct vc_variant *v, char c)
{
	for (int f = 0; f < v->files; f++)
		if (v->file_alias[f] && v->file_alias[f] == c)
			return 1;
	return 0;
}

/* a square at s (file letter, rank digits): returns its length or 0; *sq
 * gets the square, or -2 when it has the shape of a square but is off the
 * board */
static int read_square(const struct vc_variant *v, const char *s, int *sq)
{
	int f = file_of_char(v, s[0]);
	if (f < 0 || !isdigit((unsigned char)s[1]))
		return 0;
	int n = 1, r = 0;
	while (n < 4 && isdigit((unsigned char)s[n]))
		r = r * 10 + (s[n++] - '0');
	if (s[1] == '0' || f >= v->files || r < 1 || r > v->ranks)
		*sq = -2;
	else
		*sq = (r - 1) * v->files + f;
	return n;
}

static int symbol_prefix(const struct vc_variant *v, const char *s, int run)
{
	for (int k = run; k > 0; k--)
		if (vc_type_by_symbol(v, s, (size_t)k) >= 0)
			return k;
	return 0;
}

/* The fast path of vc_san_parse for the moves of nearly every game: an
 * optional piece (a run of capitals that is one symbol), then up to two
 * squares (or a file or rank before the destination), 'x' ':' '-' anywhere
 * between, a promotion as '=Q' or a letter glued on, and the marks.  It
 * reads these exactly as the general reader below does and returns 1;
 * anything else (castling, drops, walls, a run of capitals that is no one
 * symbol, a file written by its alias, ranks of three digits, any fault to
 * report) returns 0 and is left to the general reader. */
static int san_fast(const struct vc_variant *v, const char *t, size_t len, struct vc_san *m)
{
	int check = 0;
	while (len > 0) {
		char c = t[len - 1];
		if (c == '#')
			check = 2;
		else if (c == '+') {
			if (!check)
				check = 1;
		} else if (c != '!' && c != '?')
			break;
		len--;
	}
	if (len < 2)
		return 0;
	for (size_t j = 0; v->any_file_alias && j < len; j++) { /* a file written by its alias */
		unsigned char c = (unsigned char)t[j];
		if (v->alias_bytes[c >> 6] >> (c & 63) & 1)
			return 0;
	}
	size_t i = 0;
	int piece = -1, promo = -1, cap = 0;
	if (t[0] >= 'A' && t[0] <= 'Z') {
		/* the general reader's symbol: the longest prefix of the run
		 * that names a piece, here the whole run or nothing */
		size_t run = 1;
		while (run < len && t[run] >= 'A' && t[run] <= 'Z')
			run++;
		piece = run == 1   ? v->letter_type[t[0] - 'A']
			: run == 2 ? v->pair_type[t[0] - 'A'][t[1] - 'A']
				   : vc_type_by_symbol(v, t, run);
		if (piece < 0 || (v->types[piece].props & VC_P_TWOSQUARE))
			return 0;
		i = run;
	}
	/* the rest, separators dropped: files as 'f', ranks as 'r' */
	int val[6] = { 0 }, nr = 0;
	char kind[6] = { 0 };
	for (; i < len; i++) {
		char c = t[i];
		if (c == 'x' || c == ':') {
			cap = 1;
		} else if (c == '-') {
			continue;
		} else if (c >= 'a' && c <= 'z') {
			if (nr == 5 || c - 'a' >= v->files)
				return 0;
			kind[nr] = 'f';
			val[nr++] = c - 'a';
		} else if (c >= '1' && c <= '9') {
			int r = c - '0';
			if (i + 1 < len && t[i + 1] >= '0' && t[i + 1] <= '9') { /* a rank past 9 */
				r = r * 10 + (t[++i] - '0');
				if (i + 1 < len && t[i + 1] >= '0' && t[i + 1] <= '9')
					return 0;
			}
			if (nr == 5 || r > v->ranks)
				return 0;
			kind[nr] = 'r';
			val[nr++] = r - 1;
		} else if (c == '=' && i + 2 == len && promo < 0) {
			int u = t[i + 1] & ~0x20;
			if (u < 'A' || u > 'Z' || v->letter_type[u - 'A'] < 0)
				return 0;
			promo = v->letter_type[u - 'A'];
			break;
		} else if (c >= 'A' && c <= 'Z' && i + 1 == len && promo < 0 && nr >= 2 &&
			   kind[nr - 1] == 'r') {
			if (v->letter_type[c - 'A'] < 0)
				return 0;
			promo = v->letter_type[c - 'A'];
		} else {
			return 0;
		}
	}
	/* a glued lower-case promotion letter reads as a file: take it back */
	if (promo < 0 && nr >= 3 && kind[nr - 1] == 'f' && kind[nr - 2] == 'r') {
		int u = ('a' + val[nr - 1]) & ~0x20;
		if (v->letter_type[u - 'A'] < 0)
			return 0;
		promo = v->letter_type[u - 'A'];
		nr--;
	}
	if (nr < 2 || kind[nr - 1] != 'r' || kind[nr - 2] != 'f')
		return 0;
	int to = val[nr - 1] * v->files + val[nr - 2];
	int from_file = -1, from_rank = -1, from_sq = -1;
	if (nr == 3) {
		if (kind[0] == 'f')
			from_file = val[0];
		else
			from_rank = val[0];
	} else if (nr == 4) {
		if (kind[0] != 'f' || kind[1] != 'r')
			return 0;
		from_sq = val[1] * v->files + val[0];
	} else if (nr != 2) {
		return 0;
	}
	m->check = check;
	m->piece = piece;
	m->promo = promo;
	m->capture_mark = cap;
	m->to = to;
	m->from_file = from_file;
	m->from_rank = from_rank;
	m->from_sq = from_sq;
	return 1;
}

/* Coordinates that end in '+' where pieces have '+' forms: a promotion to
 * the mover's own, as UCI writes shogi's ("c4d5+"), not a check. */
static void plus_coordinates(const struct vc_variant *v, const char *text, size_t len,
			     struct vc_san *m)
{
	if (v->plus_types && m->from_sq >= 0 && m->piece < 0 && m->promo < 0 && m->check == 1 &&
	    len > 1 && text[len - 1] == '+' && text[len - 2] != '+') {
		m->check = 0;
		m->plus_promo = 1;
	}
}

static void san_clear(struct vc_san *m)
{
	memset(m, 0, sizeof *m);
	m->piece = m->to = m->from_file = m->from_rank = m->from_sq = m->promo = -1;
	m->xsrc = m->from2 = m->to2 = m->gate = m->gate_sq = -1;
}

static int read_shogi(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m);

int vc_san_parse(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m,
		 const char **code, char *msg, size_t n)
{
	if (v->shogi_coords) { /* before the fast path, which would read "S3e-2d" as SAN */
		san_clear(m);
		if (read_shogi(v, text, len, m))
			return 0;
	}
	if ((v->rules & (VC_R_FLIP_MOVES | VC_R_FLIP_CAPTURES)) && len > 2 &&
	    text[len - 1] == '-' && isdigit((unsigned char)text[len - 2])) {
		/* a piece turned back over, as Fairy-Stockfish writes it: "a1a2-" */
		if (vc_san_parse_general(v, text, len - 1, m, code, msg, n))
			return -1;
		m->plus_promo = 2;
		return 0;
	}
	if (v->wxf_read || v->janggi_read) { /* the file's own notations (notation_trad.c) */
		san_clear(m);
		int r = vc_trad_parse(v, text, len, m, code, msg, n);
		if (r)
			return r < 0 ? -1 : 0;
	}
	if (san_fast(v, text, len, m)) { /* it set all but these */
		m->castle = m->drop = m->wall = m->ep_mark = m->plus_promo = m->wxf = 0;
		m->exact_piece = 0;
		m->xsrc = m->from2 = m->to2 = m->gate = m->gate_sq = -1;
		plus_coordinates(v, text, len, m);
		return 0;
	}
	return vc_san_parse_general(v, text, len, m, code, msg, n);
}

/* A move being read by the general reader: the text as given, without its
 * marks (messages quote it), a copy of that to work on, and where a
 * failure is said. */
struct san_in {
	const struct vc_variant *v;
	const char *text;
	size_t len;
	char b[80];
	const char **code;
	char *msg;
	size_t n;
};

static int in_fail(struct san_in *in, const char *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int in_fail(struct san_in *in, const char *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(in->code, c, in->msg, in->n, fmt, ap);
	va_end(ap);
	return -1;
}

/* castling: O-O or O-O-O, with O, o or 0; 1 if it is that */
static int read_castle(const char *b, struct vc_san *m)
{
	int k = 0, os = 0;
	while (b[k] == 'O' || b[k] == '0' || b[k] == 'o') {
		os++;
		k++;
		if (b[k] == '-')
			k++;
		else
			break;
	}
	if (os >= 2 && os <= 3 && b[k] == 0 && b[k - 1] != '-') {
		m->castle = os == 2 ? 1 : 2;
		return 1;
	}
	return 0;
}

/* the run of capitals at the start of b that may be a piece symbol: a
 * capital that is a file alias followed by a digit starts a square */
static int capital_run(const struct vc_variant *v, const char *b)
{
	int run = 0;
	while (isupper((unsigned char)b[run]))
		run++;
	if (run > 0 && isdigit((unsigned char)b[run]) && is_file_alias(v, b[run - 1]))
		run--;
	return run;
}

/* A two-square piece's move: "W a2b2-a3b3", also without the space or the
 * symbol ("a2b2a3b3", as coordinates write it).  1 if it is one, 0 if the
 * text is something else, -1 when it fails. */
static int read_two_move(struct san_in *in, struct vc_san *m)
{
	const struct vc_variant *v = in->v;
	const char *b = in->b;
	int run = capital_run(v, b), k = 0;
	if (run > 0)
		k = symbol_prefix(v, b, run);
	int two = k > 0 && k == run &&
		  (v->types[vc_type_by_symbol(v, b, (size_t)k)].props & VC_P_TWOSQUARE);
	const char *q = b + (k == run ? k : 0);
	int squares[5], ns = 0, bad = 0, cap = 0, sq, used;
	const char *space = strchr(b, ' ');
	if (space && !two && (k != space - b || k == 0))
		return in_fail(in, "move-syntax", "'%s' is not a move", b);
	while (*q == ' ')
		q++;
	while (*q && ns < 5 && !bad) {
		if (*q == '-' || *q == 'x' || *q == ':' || *q == ' ') {
			cap |= *q == 'x' || *q == ':';
			q++;
			continue;
		}
		used = read_square(v, q, &sq);
		if (!used)
			bad = 1;
		else {
			if (sq == -2)
				return in_fail(in, "move-offboard", "'%.*s' is off the board",
					       (int)in->len, in->text);
			squares[ns++] = sq;
			q += used;
		}
	}
	if (!bad && !*q && ns == 4 && (two || k == 0 || space)) {
		m->piece = k > 0 ? vc_type_by_symbol(v, b, (size_t)k) : -1;
		m->wall = 1;
		m->capture_mark = cap;
		m->from_sq = squares[0];
		m->from2 = squares[1];
		m->to = squares[2];
		m->to2 = squares[3];
		return 1;
	}
	if (two || space)
		return in_fail(in, "move-syntax", "a two-square move is written 'W a2b2-a3b3', not '%s'",
			       b);
	return 0;
}

/* a drop: an optional piece symbol, '@' or '*', a square; 1 if it is one,
 * 0 if the text is something else, -1 when it fails */
static int read_drop(struct san_in *in, struct vc_san *m)
{
	const struct vc_variant *v = in->v;
	const char *b = in->b, *at = strpbrk(b, "@*");
	if (!at)
		return 0;
	int k = (int)(at - b);
	m->drop = 1;
	if (k > 0) {
		int p = symbol_prefix(v, b, k);
		if (p != k)
			return in_fail(in, "move-unknown-piece", "unknown piece '%.*s' in '%s'", k, b, b);
		m->piece = vc_type_by_symbol(v, b, (size_t)k);
		/* its own symbol where SAN has another ("+L", not "G"): that
		 * piece alone, not those written alike */
		m->exact_piece = v->types[m->piece].san[0] &&
				 !strncmp(v->types[m->piece].symbol, b, (size_t)k);
	}
	int sq, used = read_square(v, at + 1, &sq);
	if (!used || at[1 + used])
		return in_fail(in, "move-syntax", "'%s' is not a move", b);
	if (sq == -2)
		return in_fail(in, "move-offboard", "'%s' is off the board", b);
	m->to = sq;
	return 1;
}

/* After the piece symbol (at q): the squares, copied to rest without the
 * capture marks and separators, and the promotion ("=Q", "/Q") and its
 * exchange source ("(a1)", "(air)", "(prison)") read into m.  Returns the
 * length of rest, or -1. */
static int read_rest(struct san_in *in, const char *q, struct vc_san *m, char rest[80])
{
	const struct vc_variant *v = in->v;
	int rn = 0;
	for (; *q; q++) {
		if (*q == 'x' || *q == ':') {
			m->capture_mark = 1;
			continue;
		}
		if (*q == '-')
			continue;
		if (*q == '=' || *q == '/') {
			/* promotion symbol, maybe then an exchange source */
			const char *ps = q + 1;
			int pr = 0;
			while (isalpha((unsigned char)ps[pr]))
				pr++;
			int pk = pr;
			while (pk > 0 && vc_type_by_symbol(v, ps, (size_t)pk) < 0)
				pk--;
			if (pk == 0 || pk != pr)
				return in_fail(in, "move-unknown-piece",
					       "unknown promotion piece '%.*s' in '%s'", pr, ps, in->b);
			m->promo = vc_type_by_symbol(v, ps, (size_t)pk);
			q = ps + pk - 1;
			continue;
		}
		if (*q == '(') {
			const char *close = strchr(q, ')');
			if (!close)
				return in_fail(in, "move-syntax", "'%s' is not a move", in->b);
			size_t w = (size_t)(close - q - 1);
			int sq = -1; /* "()" reads no square at all */
			int pt = m->promo < 0 && w > 0 && isupper((unsigned char)q[1])
					 ? vc_type_by_symbol(v, q + 1, w)
					 : -1;
			if (pt >= 0 && rn > 0 && isdigit((unsigned char)rest[rn - 1])) {
				/* "bxa8(Q)": a promotion in parentheses, as some write it */
				m->promo = pt;
				q = close;
				continue;
			}
			if (w == 3 && !strncmp(q + 1, "air", 3))
				m->xsrc = -2;
			else if (w == 6 && !strncmp(q + 1, "prison", 6))
				m->xsrc = -3;
			else if (w > 0 && read_square(v, q + 1, &sq) == (int)w && sq >= 0)
				m->xsrc = sq;
			else
				return in_fail(in, "move-syntax",
					       "'(%.*s)' names no square, 'air' or 'prison'", (int)w,
					       q + 1);
			q = close;
			continue;
		}
		rest[rn++] = *q;
	}
	rest[rn] = 0;
	/* "exf6ep": an en-passant mark glued on, unless the variant has a
	 * piece of that name to promote to */
	if (rn >= 4 && !strcmp(rest + rn - 2, "ep") && isdigit((unsigned char)rest[rn - 3]) &&
	    vc_type_by_symbol(v, "ep", 2) < 0) {
		m->ep_mark = 1;
		rest[rn -= 2] = 0;
	}
	/* a promotion letter glued after the destination: e8Q, e7e8q */
	if (rn >= 3 && isalpha((unsigned char)rest[rn - 1]) && m->promo < 0) {
		int pe = rn;
		while (pe > 0 && isalpha((unsigned char)rest[pe - 1]))
			pe--;
		if (pe > 0 && isdigit((unsigned char)rest[pe - 1])) {
			int t = vc_type_by_symbol(v, rest + pe, (size_t)(rn - pe));
			if (t < 0)
				return in_fail(in, "move-unknown-piece",
					       "unknown promotion piece '%s' in '%s'", rest + pe, in->b);
			m->promo = t;
			rn = pe;
			rest[rn] = 0;
		}
	}
	return rn;
}

/* the squares of rest (rn long): the destination last, and before it
 * nothing, a file, a rank or a square */
static int read_squares(struct san_in *in, const char *rest, int rn, struct vc_san *m)
{
	const struct vc_variant *v = in->v;
	int d = rn;
	while (d > 0 && isdigit((unsigned char)rest[d - 1]))
		d--;
	if (d == rn || d == 0)
		return in_fail(in, "move-syntax", "'%.*s' is not a move", (int)in->len, in->text);
	d--;
	int sq, used = read_square(v, rest + d, &sq);
	if (used != rn - d)
		return in_fail(in, "move-syntax", "'%.*s' is not a move", (int)in->len, in->text);
	if (sq == -2)
		return in_fail(in, "move-offboard", "'%.*s' is off the board", (int)in->len, in->text);
	m->to = sq;
	if (d == 0)
		return 0;
	int fsq, u = read_square(v, rest, &fsq);
	if (u == d) {
		if (fsq == -2)
			return in_fail(in, "move-offboard", "'%.*s' is off the board", (int)in->len,
				       in->text);
		m->from_sq = fsq;
	} else if (d == 1 && file_of_char(v, rest[0]) >= 0 && file_of_char(v, rest[0]) < v->files) {
		m->from_file = file_of_char(v, rest[0]);
	} else {
		int r = 0, i = 0;
		while (i < d && isdigit((unsigned char)rest[i])) {
			r = r * 10 + (rest[i++] - '0');
			if (r > VC_MAXR)
				r = VC_MAXR + 1; /* past any board: no overflow, however many digits */
		}
		if (i != d || r < 1 || r > v->ranks)
			return in_fail(in, "move-syntax", "'%.*s' is not a move", (int)in->len,
				       in->text);
		m->from_rank = r - 1;
	}
	return 0;
}

/* Text that is no move at all: said as written, and an evaluation symbol
 * ("-+") named for what it is. */
static int bad_token(struct san_in *in, size_t len)
{
	static const char *const evals[][3] = {
		{ "+-", "White is winning", "18" },	   { "-+", "Black is winning", "19" },
		{ "+/-", "White is clearly better", "16" }, { "-/+", "Black is clearly better", "17" },
		{ "+=", "White is slightly better", "14" }, { "=+", "Black is slightly better", "15" },
		{ "=", "the position is equal", "10" },
	};
	int tl = (int)(len > 40 ? 40 : len);
	for (size_t i = 0; i < sizeof evals / sizeof evals[0]; i++)
		if (strlen(evals[i][0]) == len && !memcmp(evals[i][0], in->text, len))
			return in_fail(in, "move-syntax",
				       "'%s' is an evaluation (%s), not a move: write the NAG $%s",
				       evals[i][0], evals[i][1], evals[i][2]);
	return in_fail(in, "move-syntax", "'%.*s' is not a move", tl, in->text);
}

/* Gating: "/H" after the move (Nf3/H), or "/He1" after castling, read into
 * m and cut off the text.  0, or -1 when what follows '/' is no piece (and
 * square). */
static int read_gate(struct san_in *in, struct vc_san *m)
{
	const struct vc_variant *v = in->v;
	char *sl = strrchr(in->b, '/');
	if (!sl || sl == in->b)
		return 0;
	int run = 0, k, sq = -1;
	while (isupper((unsigned char)sl[1 + run]))
		run++;
	for (k = run; k > 0 && vc_type_by_symbol(v, sl + 1, (size_t)k) < 0; k--)
		;
	const char *rest = sl + 1 + k;
	int used = *rest ? read_square(v, rest, &sq) : 0;
	if (k == 0 || k != run || (size_t)used != strlen(rest) || (*rest && sq < 0))
		return in_fail(in, "move-syntax",
			       "'%s': after '/' comes the piece that enters from the hand, and after "
			       "castling its square (O-O/Hh1)",
			       in->b);
	m->gate = vc_type_by_symbol(v, sl + 1, (size_t)k);
	m->gate_sq = sq;
	*sl = 0;
	in->len = (size_t)(sl - in->b);
	return 0;
}

/* A square as shogi writes it at s: the file's number (counted from the
 * right, 1 to 9), then the rank's letter from the top (a to i) or its
 * number; 2 and the square into *sq, or 0. */
static int shogi_square(const struct vc_variant *v, const char *s, int *sq)
{
	int f = s[0] - '0', r = -1;
	if (f < 1 || f > v->files)
		return 0;
	if (s[1] >= 'a' && s[1] < 'a' + v->ranks)
		r = v->ranks - 1 - (s[1] - 'a');
	else if (s[1] >= '1' && s[1] < '1' + v->ranks)
		r = v->ranks - (s[1] - '0');
	if (r < 0)
		return 0;
	*sq = vc_sq(v->files, v->files - f, r);
	return 2;
}

int vc_square_read(const struct vc_variant *v, const char *s)
{
	int used = 0, sq = vc_square_parse(v, s, &used);
	if (sq >= 0 && !s[used])
		return sq;
	if (v->shogi_coords && shogi_square(v, s, &sq) && !s[2])
		return sq;
	if (v->janggi_read && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) && !s[2])
		return vc_janggi_square(v, s);
	return -1;
}

/* Shogi's Western notation (Hodges, Hosking, and Hodges with numbers):
 * "P-7f", "Bx2b+", "P*5e", "G6i-5i", "+Bx3a", "S-5d=", "P76", "P'55",
 * "G69-59": a piece ('+' and a letter for a promoted one), maybe its
 * square, '-', 'x', '*' or "'" (a drop), the destination, then '+' for a
 * promotion or '=' for one refused.  1 when text is such a move (read into
 * m), 0 when it is not. */
static int read_shogi(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m)
{
	char b[24];
	const char *s = b;
	int from = -1, to, k;
	while (len > 0 && strchr("!?#", text[len - 1]))
		len--; /* annotations; shogi writes no check mark */
	if (len < 3 || len >= sizeof b)
		return 0;
	memcpy(b, text, len);
	b[len] = 0;
	int suffix = b[len - 1] == '+' || b[len - 1] == '=' ? b[len - 1] : 0;
	if (b[len - 1] == '-' && (v->rules & (VC_R_FLIP_MOVES | VC_R_FLIP_CAPTURES)))
		suffix = '-'; /* a piece turned back over ("+L-5d-") */
	if (suffix)
		b[--len] = 0;
	k = *s == '+';
	while (isupper((unsigned char)s[k]))
		k++;
	int t = k > (*s == '+') ? vc_type_by_symbol(v, s, (size_t)k) : -1;
	if (t < 0)
		return 0;
	s += k;
	int sep = 0;
	if (shogi_square(v, s, &to) && (s[2] == '-' || s[2] == 'x' || isdigit((unsigned char)s[2]))) {
		from = to;
		s += 2;
	}
	if (*s == '-' || *s == 'x' || *s == '*' || *s == '\'')
		sep = *s++;
	if (!shogi_square(v, s, &to) || s[2])
		return 0;
	/* a bare "P76" is Hosking's; letters after a digit need a separator */
	if (!sep && isalpha((unsigned char)s[1]) && from < 0)
		return 0;
	if ((sep == '*' || sep == '\'') && (from >= 0 || suffix))
		return 0;
	m->piece = t;
	m->exact_piece = 1;
	m->to = to;
	m->from_sq = from;
	m->drop = sep == '*' || sep == '\'';
	m->capture_mark = sep == 'x';
	m->plus_promo = suffix == '+' ? 1 : suffix == '-' ? 2 : 0;
	return 1;
}

int vc_san_parse_general(const struct vc_variant *v, const char *text, size_t len,
			 struct vc_san *m, const char **code, char *msg, size_t n)
{
	struct san_in in = { .v = v, .text = text, .len = len, .code = code, .msg = msg, .n = n };
	char *b = in.b;
	san_clear(m);
	if (v->shogi_coords && read_shogi(v, text, len, m))
		return 0;
	int trad = v->wxf_read || v->janggi_read ? vc_trad_parse(v, text, len, m, code, msg, n) : 0;
	if (trad)
		return trad < 0 ? -1 : 0;
	if (len == 0 || len >= sizeof in.b)
		return in_fail(&in, "move-syntax", "'%.*s' is not a move", (int)(len > 40 ? 40 : len),
			       text);
	memcpy(b, text, len);
	b[len] = 0;
	/* check and mate marks, and any annotation glued on */
	while (in.len > 0 && strchr("+#!?", b[in.len - 1])) {
		if (b[in.len - 1] == '#')
			m->check = 2;
		else if (b[in.len - 1] == '+' && m->check == 0)
			m->check = 1;
		b[--in.len] = 0;
	}
	if (in.len == 0 || strspn(b, "+-=/") == in.len)
		return bad_token(&in, len);
	if ((v->rules & VC_R_GATING) && read_gate(&in, m))
		return -1;
	if (read_castle(b, m))
		return 0;
	int rc = read_two_move(&in, m);
	if (rc == 0)
		rc = read_drop(&in, m);
	if (rc)
		return rc < 0 ? -1 : 0;
	/* piece symbol: the longest run of capitals that names a piece */
	int run = capital_run(v, b);
	int k = symbol_prefix(v, b, run);
	if (run > 0 && k == 0)
		return in_fail(&in, "move-unknown-piece", "unknown piece '%.*s' in '%s'", run, b, b);
	if (k > 0)
		m->piece = vc_type_by_symbol(v, b, (size_t)k);
	char rest[80];
	int rn = read_rest(&in, b + k, m, rest);
	if (rn < 0 || read_squares(&in, rest, rn, m))
		return -1;
	plus_coordinates(v, text, len, m);
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


static const char *side_name(int side) { return side == VC_WHITE ? "White" : "Black"; }

/* The move from 'from' to 'to' when generation is not needed to know it:
 * no promotion by choice or by exchange on 'to', no en-passant capture, and
 * for a piece whose steps leave en-passant targets, a step to a neighbouring
 * square (on the plain rides and leaps that leave targets, only a step of
 * two squares or more does).  Returns 0 when generation must decide. */
static int direct_move(const struct vc_position *p, int from, int to, int t, vc_move *m)
{
	const struct vc_variant *v = p->v;
	const struct vc_ptype *pt = &v->types[t];
	/* two-square pieces, victims that become, turning over, en passant
	 * left by a walk (v->direct_no); a promotion */
	if ((v->direct_no >> t & 1) || vc_promo_zone_move(v, p->side, t, from, to))
		return 0;
	if (v->ep_types >> t & 1) {
		int df = to % v->files - from % v->files, dr = to / v->files - from / v->files;
		if (df < -1 || df > 1 || dr < -1 || dr > 1)
			return 0;
		for (int i = 0; i < p->nep; i++)
			if (p->ep[i] == to)
				return 0;
	}
	uint8_t occ = p->board[to];
	int self = occ && vc_code_color(occ) == p->side;
	if (occ && (v->types[vc_code_type(occ)].props & (VC_P_UNCAPTURABLE | VC_P_ROYAL)))
		return 0; /* immunity: let generation decide */
	/* a self-capture by a piece that may make one, by the path on which
	 * the candidate was found (a capture's: each captures its own side's
	 * pieces as it captures the other's) */
	if (self && (!vc_self_captures(v, t) || (pt->props & VC_P_NOCAPTURE)))
		return 0;
	m->from = (int16_t)from;
	m->to = (int16_t)to;
	m->from2 = m->to2 = m->aux = -1;
	m->piece = (uint8_t)t;
	m->promo = 0;
	m->extra = m->gate = 0;
	m->flags = occ ? VC_MF_CAPTURE | (self ? VC_MF_SELF : 0) : 0;
	if (pt->auto_to >= 0 && vc_bit_test(v->auto_zone[p->side][t], to)) {
		m->promo = (uint8_t)(pt->auto_to + 1);
		m->flags |= VC_MF_PROMO;
	}
	return 1;
}

/* ---- two-square pieces ---- */

/* squares written in a canonical order: file first, then rank */
static int sq_before(const struct vc_variant *v, int x, int y)
{
	int fx = x % v->files, fy = y % v->files;
	return fx != fy ? fx < fy : x / v->files < y / v->files;
}

static void two_names(const struct vc_variant *v, int x, int y, char *buf)
{
	char a[8], b[8];
	if (!sq_before(v, x, y)) {
		int t = x;
		x = y;
		y = t;
	}
	vc_square_name(v, x, a);
	vc_square_name(v, y, b);
	sprintf(buf, "%s%s", a, b);
}

/* Why the two-square piece on a, b has no move to na, nb: the rule it
 * breaks, in words. */
static int two_why(struct vc_position *p, int t, int a, int b, int na, int nb, const char **code,
		   char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	const struct vc_ptype *pt = &v->types[t];
	int F = v->files, side = p->side;
	char w[40], to[16], x[8];
	const char *pw = piece_word(v, t, w, sizeof w);
	two_names(v, na, nb, to);
	int dx = nb % F - na % F, dy = nb / F - na / F;
	if (na == nb || dx < -1 || dx > 1 || dy < -1 || dy > 1)
		return fail(code, "move-illegal", msg, n,
			    "a %s covers two adjacent squares, which %s are not", pw, to);
	if (dx && dy && !(pt->props & VC_P_DIAGSTANCE))
		return fail(code, "move-illegal", msg, n,
			    "a %s stands on two orthogonally adjacent squares, never diagonally", pw);
	if ((na == a && nb == b) || (na == b && nb == a))
		return fail(code, "move-illegal", msg, n, "the %s already stands on %s", pw, to);
	/* a translation, in either pairing of the squares */
	int ox = b % F - a % F, oy = b / F - a / F;
	for (int pair = 0; pair < 2; pair++) {
		int ta = pair ? nb : na, tb = pair ? na : nb;
		if (tb % F - ta % F != ox || tb / F - ta / F != oy)
			continue;
		int tx = ta % F - a % F, ty = ta / F - a / F;
		const struct vc_twovec *tv = v->twovec[side][t];
		for (int i = 0; i < v->ntwovec[side][t]; i++) {
			int k = 0;
			if (tv[i].dx ? tx % tv[i].dx == 0 : tx == 0)
				k = tv[i].dx ? tx / tv[i].dx : tv[i].dy ? ty / tv[i].dy : 0;
			if (k < 1 || tx != k * tv[i].dx || ty != k * tv[i].dy)
				continue;
			if (tv[i].range && k > tv[i].range)
				return fail(code, "move-illegal", msg, n,
					    "a %s moves at most %d square%s that way", pw, tv[i].range,
					    tv[i].range == 1 ? "" : "s");
			/* the way, step by step */
			for (int j = 1; j <= k; j++) {
				int sa = a + j * (tv[i].dx + tv[i].dy * F), sb = b + j * (tv[i].dx + tv[i].dy * F);
				int ss[2] = { sa, sb };
				for (int e = 0; e < 2; e++) {
					int s2 = ss[e];
					uint8_t occ = p->board[s2];
					if (s2 == a || s2 == b || !occ)
						continue;
					vc_square_name(v, s2, x);
					if (vc_code_color(occ) == side)
						return fail(code, "move-illegal", msg, n,
							    j < k ? "the %s's way is blocked on %s, by a piece "
								    "of %s's own: it slides with every square "
								    "on the way empty"
								  : "the %s cannot land on %s: it holds a piece "
								    "of %s's own",
							    pw, x, side == VC_WHITE ? "White" : "Black");
					if (j < k)
						return fail(code, "move-illegal", msg, n,
							    "the %s's slide stops where it captures, on %s, "
							    "before %s",
							    pw, x, to);
					return fail(code, "move-illegal", msg, n,
						    "the %s cannot capture the piece on %s", pw, x);
				}
			}
			return fail(code, "move-illegal", msg, n, "the %s cannot move to %s", pw, to);
		}
		{
			char fr[16];
			int diag = 0;
			two_names(v, a, b, fr);
			for (int i = 0; i < v->ntwovec[side][t]; i++)
				diag |= tv[i].dx && tv[i].dy;
			if (tx && ty && !diag && !(v->two_odd >> t & 1))
				return fail(code, "move-illegal", msg, n,
					    "a %s slides like a rook, along or across its length, "
					    "never diagonally: %s-%s is no move",
					    pw, fr, to);
			return fail(code, "move-illegal", msg, n,
				    "a %s slides %s: %s-%s is no move", pw,
				    v->two_odd >> t & 1 ? "by its movements only"
				    : diag ? "like a rook, or one square diagonally"
					   : "like a rook, along or across its length",
				    fr, to);
		}
	}
	/* a turn about the square that stays */
	int piv = -1, mov = -1, nm = -1;
	if (na == a || na == b)
		piv = na, nm = nb;
	else if (nb == a || nb == b)
		piv = nb, nm = na;
	if (piv >= 0) {
		mov = piv == a ? b : a;
		int d0 = vc_link_dir(mov % F - piv % F, mov / F - piv / F);
		int d1 = vc_link_dir(nm % F - piv % F, nm / F - piv / F);
		int eighths = ((d1 - d0) % 8 + 8) % 8;
		if (eighths > 4)
			eighths = 8 - eighths;
		vc_square_name(v, piv, x);
		if (eighths == 4)
			return fail(code, "move-illegal", msg, n,
				    "a half turn is not a move: a %s turns a quarter about one of its "
				    "squares",
				    pw);
		if (eighths == 3 || (eighths == 1 && !(pt->props & VC_P_DIAGSTANCE)))
			return fail(code, "move-illegal", msg, n, "a %s turns only by %s", pw,
				    (pt->props & VC_P_DIAGSTANCE) ? "an eighth or a quarter" : "a quarter");
		uint8_t occ = p->board[nm];
		vc_square_name(v, nm, x);
		if (occ && vc_code_color(occ) == side)
			return fail(code, "move-illegal", msg, n,
				    "the %s cannot turn onto %s: it holds a piece of %s's own", pw, x,
				    side == VC_WHITE ? "White" : "Black");
		return fail(code, "move-illegal", msg, n, "the %s cannot turn onto %s", pw, x);
	}
	return fail(code, "move-illegal", msg, n,
		    "a %s cannot get to %s in one move: it slides rigidly or turns about one of its "
		    "squares",
		    pw, to);
}

static int resolve_two(struct vc_position *p, const struct vc_san *san, const char *text,
		       size_t len, vc_move *out, int *untested, const char **code, char *msg,
		       size_t n)
{
	const struct vc_variant *v = p->v;
	vc_move *buf = vc_scratch(VC_SCRATCH_TWO, VC_MAX_MOVES * sizeof *buf);
	int side = p->side, a = san->from_sq, b = san->from2;
	int tl = (int)(len > 60 ? 60 : len);
	char w1[40], w2[40], s1[8], s2[16];
	if (untested)
		*untested = 0;
	if (!buf)
		return fail(code, "oom", msg, n, "out of memory");
	vc_square_name(v, a, s1);
	uint8_t occ = p->board[a];
	if (!occ || vc_code_color(occ) != side)
		return fail(code, "move-no-piece", msg, n, "%s has no piece on %s", side_name(side), s1);
	int t = vc_code_type(occ);
	if (!(v->types[t].props & VC_P_TWOSQUARE))
		return fail(code, "move-illegal", msg, n,
			    "the %s on %s stands on one square: '%.*s' is a two-square move",
			    piece_word(v, t, w1, sizeof w1), s1, tl, text);
	if (san->piece >= 0 && san->piece != t)
		return fail(code, "move-illegal", msg, n, "the piece on %s is a %s, not a %s", s1,
			    piece_word(v, t, w1, sizeof w1), piece_word(v, san->piece, w2, sizeof w2));
	int partner = vc_partner(p, a);
	if (partner != b) {
		two_names(v, a, partner, s2);
		return fail(code, "move-illegal", msg, n, "the %s on %s stands on %s",
			    piece_word(v, t, w1, sizeof w1), s1, s2);
	}
	int anchor = a < b ? a : b;
	if (vc_two_find(p, anchor, side, san->to, san->to2, buf) > 0) { /* the move written */
		if (untested) { /* the caller tests it */
			*untested = 1;
			*out = buf[0];
			return 0;
		}
		if (!vc_move_legal(p, &buf[0]))
			return fail(code, "move-illegal", msg, n, "'%.*s' %s", tl, text,
				    vc_illegal_why(p, &buf[0]));
		*out = buf[0];
		return 0;
	}
	return two_why(p, t, a, b, san->to, san->to2, code, msg, n);
}

/* the moves generated while resolving, one step at a time: the calling
 * thread's scratch block, fetched once by resolve_move (the block of a
 * slot stays while its thread lives) */
static __thread vc_move *rbuf;

/* Gating: the piece the move text says enters from the hand: the one after
 * '/', or in coordinates the letter glued on (b1c3h, taken as a
 * promotion when read); -1 none. */
static int gate_written(const struct vc_variant *v, const struct vc_san *san)
{
	if (san->gate >= 0 || !(v->rules & VC_R_GATING))
		return san->gate;
	return san->promo;
}

/* Does move m fit what the text says of its gate (g: gate_written)? */
static int gate_fits(const vc_move *m, const struct vc_san *san, int g)
{
	if (!(m->flags & VC_MF_GATE))
		return san->gate < 0;
	int gsq = (m->flags & VC_MF_GATE_PARTNER) ? m->aux : m->from;
	return m->gate == g && (san->gate_sq < 0 || san->gate_sq == gsq);
}

/* Gating: why no move fits the piece written after '/' (san->gate). */
static int gate_why(struct vc_position *p, const struct vc_san *san, const char *text, int tl,
		    const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	int side = p->side, t = san->gate;
	char w1[40], s1[8];
	const char *area = v->nreserve ? v->reserve[0].name : "hand";
	if (!p->res[side][0][t])
		return fail(code, "move-illegal", msg, n, "'%.*s' gates a %s, and %s's %s holds none",
			    tl, text, piece_word(v, t, w1, sizeof w1), side_name(side), area);
	if (v->types[t].props & VC_P_PAWN)
		return fail(code, "move-illegal", msg, n, "'%.*s': a %s never enters by gating", tl,
			    text, piece_word(v, t, w1, sizeof w1));
	int emptied = san->gate_sq == vc_castler(p, side);
	for (int i = 0; i < v->ncastle; i++)
		emptied |= san->gate_sq == p->castle[side][i];
	if (san->castle && san->gate_sq >= 0 && p->board[san->gate_sq] && !emptied) {
		vc_square_name(v, san->gate_sq, s1);
		return fail(code, "move-illegal", msg, n,
			    "'%.*s' gates onto %s, which the move does not empty", tl, text, s1);
	}
	return fail(code, "move-illegal", msg, n,
		    "'%.*s' gates where no gating right is left: only a piece's first move from "
		    "its square of the first rank may gate",
		    tl, text);
}

/* Does the variant's setup give either side a right to castle long (lng)
 * or short?  (Antichess keeps orthodox chess's castling but starts without
 * a right.)  Unknown setup: yes. */
static int setup_castles(const struct vc_variant *v, int lng)
{
	const struct vc_position *s = v->start_pos;
	if (!s)
		return 1;
	for (int i = 0; i < v->ncastle; i++)
		if ((v->castle[i].long_side != 0) == lng &&
		    (s->castle[VC_WHITE][i] >= 0 || s->castle[VC_BLACK][i] >= 0))
			return 1;
	return 0;
}

/* O-O or O-O-O: the one legal castling that side, or why there is none */
static int resolve_castle(struct vc_position *p, const struct vc_san *san, const char *text,
			  int tl, vc_move *out, const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	int side = p->side, lng = san->castle == 2;
	int nm = vc_gen_castling(p, rbuf);
	int rights = 0, npseudo = 0, nfound = 0, first = -1;
	for (int i = 0; i < v->ncastle; i++)
		if (p->castle[side][i] >= 0 && (v->castle[i].long_side != 0) == lng)
			rights = 1;
	for (int i = 0; i < nm; i++)
		if ((rbuf[i].flags & VC_MF_CASTLE) && (v->castle[rbuf[i].extra].long_side != 0) == lng &&
		    gate_fits(&rbuf[i], san, san->gate)) {
			npseudo++;
			if (vc_move_legal(p, &rbuf[i]) && nfound++ == 0)
				first = i;
		}
	if (nfound == 1) {
		*out = rbuf[first];
		return 0;
	}
	if (nfound > 1)
		return fail(code, "move-ambiguous", msg, n,
			    "'%.*s' is ambiguous: name the square the piece enters (O-O/Hh1 or O-O/He1)",
			    tl, text);
	if (san->gate >= 0 && rights)
		return gate_why(p, san, text, tl, code, msg, n);
	if (!rights && !setup_castles(v, lng))
		return fail(code, "move-castle", msg, n,
			    "%s cannot castle %s: the variant's setup gives no such right", side_name(side),
			    lng ? "long" : "short");
	if (!rights)
		return fail(code, "move-castle", msg, n,
			    "%s cannot castle %s: the king or that partner has moved", side_name(side),
			    lng ? "long" : "short");
	if (npseudo)
		return fail(code, "move-castle", msg, n,
			    "castling '%.*s' would leave the king in check", tl, text);
	if (v->rules & VC_R_CASTLE_THROUGH_CHECK)
		return fail(code, "move-castle", msg, n,
			    "%s cannot castle %s now: the squares between are not empty",
			    side_name(side), lng ? "long" : "short");
	return fail(code, "move-castle", msg, n,
		    "%s cannot castle %s now: the squares between are not empty, or the king is "
		    "in check or would pass an attacked square",
		    side_name(side), lng ? "long" : "short");
}

/* drop-promoted: the kinds of the side's hand that a drop written with the
 * piece *t means, dropped as they are or '+' face up (the pieces written
 * alike, unless the piece was named exactly); with one, *t becomes the kind
 * in hand and *up the face dropped up (-1: as it is).  Returns how many. */
static int drop_face(const struct vc_position *p, const struct vc_san *san, int *t, int *up)
{
	const struct vc_variant *v = p->v;
	uint64_t group = san->exact_piece ? 1ULL << *t : v->san_group[*t];
	int nfit = 0, ft = *t, fu = -1;
	for (int u = 0; u < v->ntypes; u++) {
		if (!(group >> u & 1))
			continue;
		int d = v->types[u].demote_to;
		if (p->res[p->side][0][u])
			nfit++, ft = u, fu = -1;
		if (d >= 0 && vc_drop_face_up(v, d) == u && p->res[p->side][0][d])
			nfit++, ft = d, fu = u;
	}
	if (nfit == 1)
		*t = ft, *up = fu;
	return nfit;
}

/* a drop from the first reserve area, or why it cannot be */
static int resolve_drop(struct vc_position *p, const struct vc_san *san, const char *text,
			int tl, vc_move *out, const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	int side = p->side, t = san->piece >= 0 ? san->piece : v->pawn_type;
	char w1[40], s1[8];
	if (!(v->rules & VC_R_DROPS))
		return fail(code, "move-drop", msg, n, "this variant has no drops");
	if (t < 0)
		return fail(code, "move-drop", msg, n, "no piece named in '%.*s'", tl, text);
	int up = -1; /* the '+' face dropped up (drop-promoted) */
	if ((v->rules & VC_R_DROP_PROMOTED) && drop_face(p, san, &t, &up) > 1)
		return fail(code, "move-ambiguous", msg, n,
			    "'%.*s' is ambiguous: pieces of %s's hand of more than one kind are "
			    "written so",
			    tl, text, side_name(side));
	const char *area = v->nreserve ? v->reserve[0].name : "hand";
	if (!p->res[side][0][t])
		return fail(code, "move-drop", msg, n, "no %s in %s's %s",
			    piece_word(v, t, w1, sizeof w1), side_name(side), area);
	vc_square_name(v, san->to, s1);
	if (p->board[san->to])
		return fail(code, "move-drop", msg, n, "cannot drop on %s: it is occupied", s1);
	int rr = vc_rel_rank(v, side, san->to);
	if (!vc_drop_rank_ok(v, t, rr))
		return fail(code, "move-drop", msg, n,
			    "%s may not be dropped on the %d%s rank (counted from its side)",
			    piece_word(v, t, w1, sizeof w1), rr,
			    rr == 1 ? "st" : rr == 2 ? "nd" : rr == 3 ? "rd" : "th");
	if (!vc_drop_region_ok(v, t, side, san->to))
		return fail(code, "move-drop", msg, n, "%s may not be dropped on %s, outside its region '%s'",
			    piece_word(v, t, w1, sizeof w1), s1,
			    v->region_name[v->types[t].region - 1]);
	if (vc_drop_file_taken(p, t, san->to))
		return fail(code, "move-drop", msg, n,
			    "%s may not be dropped on the %c-file: %s has one there already",
			    piece_word(v, t, w1, sizeof w1), s1[0], side_name(side));
	int need = -1, colour = vc_drop_colour_bad(p, t, san->to, &need);
	if (colour == 1)
		return fail(code, "move-drop", msg, n,
			    "%s may not be dropped on %s: %s has one on a square of that colour "
			    "already, and they go on opposite colours",
			    piece_word(v, t, w1, sizeof w1), s1, side_name(side));
	if (colour) {
		char w2[40];
		return fail(code, "move-drop", msg, n,
			    "cannot drop %s on %s: it would take the last square of a colour that "
			    "%s's %s in hand still needs, its kind going on opposite colours",
			    piece_word(v, t, w1, sizeof w1), s1, side_name(side),
			    piece_word(v, need, w2, sizeof w2));
	}
	vc_move m = { -1, (int16_t)san->to, -1, -1, -1, (uint8_t)t, 0, VC_MF_DROP, 0, 0 };
	if (up >= 0) {
		m.promo = (uint8_t)(up + 1);
		m.flags |= VC_MF_PROMO;
	}
	if (!vc_move_legal(p, &m))
		return fail(code, "move-illegal", msg, n, "'%.*s' %s", tl, text,
			    vc_illegal_why(p, &m));
	*out = m;
	return 0;
}

/* Castling in coordinates: the king's two-square move (e1g1) or the king
 * taking its own partner (e1h1, as Chess960 engines write it).  1 when the
 * move is such a legal castling. */
static int coord_castle(struct vc_position *p, const struct vc_san *san, vc_move *out)
{
	int g = gate_written(p->v, san);
	if (san->from_sq < 0 || (san->promo >= 0 && g < 0) ||
	    (san->piece >= 0 && san->piece != p->v->castle_type))
		return 0;
	int nm = vc_gen_castling(p, rbuf);
	for (int i = 0; i < nm; i++) {
		const vc_move *m = &rbuf[i];
		/* a gate on the partner's square: the partner's move to the
		 * king's square (h1e1h) */
		int at = (m->flags & VC_MF_GATE_PARTNER)
				 ? san->from_sq == m->aux && san->to == m->from
				 : san->from_sq == m->from && (m->to == san->to || m->aux == san->to);
		if ((m->flags & VC_MF_CASTLE) && at && gate_fits(m, san, g) && (g < 0) == !(m->flags & VC_MF_GATE) &&
		    vc_move_legal(p, m)) {
			*out = *m;
			return 1;
		}
	}
	return 0;
}

/* The squares from which a piece of type t may have come to the
 * destination, as the tries say (or the one written), kept when they fit
 * the disambiguation and hold such a piece; returns their count. */
static int candidates(const struct vc_position *p, const struct vc_san *san, int t,
		      int16_t cand[64])
{
	const struct vc_variant *v = p->v;
	int side = p->side, to = san->to, nc = 0;
	uint8_t occ = p->board[to];
	int ep = 0;
	for (int i = 0; !occ && i < p->nep; i++)
		ep |= p->ep[i] == to;
	if (san->from_sq >= 0) {
		cand[nc++] = (int16_t)san->from_sq;
	} else {
		uint64_t mask = san->exact_piece ? 1ULL << t : v->san_group[t]; /* written alike */
		nc = vc_reach_origins(p, side, mask, to, occ || ep, cand, 64);
		if (ep) {
			int16_t more[64];
			int nm = vc_reach_origins(p, side, mask, to, 0, more, 64);
			for (int i = 0; i < nm; i++) {
				int dup = 0;
				for (int j = 0; j < nc; j++)
					dup |= cand[j] == more[i];
				if (!dup && nc < 64)
					cand[nc++] = more[i];
			}
		}
	}
	/* vc_reach_origins names only the side's pieces written alike; a
	 * square written out may hold anything */
	if (san->from_file < 0 && san->from_rank < 0 && san->from_sq < 0)
		return nc;
	int nk = 0;
	for (int c = 0; c < nc; c++) {
		int from = cand[c];
		if (san->from_file >= 0 && from % v->files != san->from_file)
			continue;
		if (san->from_rank >= 0 && from / v->files != san->from_rank)
			continue;
		uint64_t group = san->exact_piece ? 1ULL << t : v->san_group[t];
		if (san->from_sq >= 0 &&
		    (!p->board[from] || !(group >> vc_code_type(p->board[from]) & 1) ||
		     vc_code_color(p->board[from]) != side))
			continue;
		cand[nk++] = (int16_t)from;
	}
	return nk;
}

/* The generated moves of the candidates to the destination that fit what
 * was written of the promotion and its exchange source; returns their
 * count. */
static int fitting_moves(struct vc_position *p, const struct vc_san *san, const int16_t *cand,
			 int nk, vc_move pseudo[64])
{
	const struct vc_variant *v = p->v;
	int npseudo = 0, g = gate_written(v, san);
	for (int c = 0; c < nk; c++) {
		const struct vc_ptype *pt = &v->types[vc_code_type(p->board[cand[c]])];
		int nm = vc_gen_from(p, cand[c], rbuf);
		for (int i = 0; i < nm; i++) {
			const vc_move *m = &rbuf[i];
			if (m->to != san->to)
				continue;
			if (m->flags & VC_MF_GATE) {
				if (!gate_fits(m, san, g))
					continue;
			} else if (san->gate >= 0) {
				continue;
			} else if (san->plus_promo) {
				/* '+': to its '+' form; '-': back to its unpromoted kind */
				if (!(m->flags & VC_MF_PROMO) ||
				    (san->plus_promo == 1
					     ? v->types[m->promo - 1].demote_to != m->piece
					     : pt->demote_to != m->promo - 1))
					continue;
			} else if (m->flags & VC_MF_PROMO) {
				/* a promotion by itself, or a piece turning over (flip) */
				int auto_p = (pt->auto_to >= 0 && m->promo == pt->auto_to + 1 &&
					      !(pt->promo_choices >> (m->promo - 1) & 1)) ||
					     (m->promo == pt->flip_to + 1 &&
					      (v->rules & (VC_R_FLIP_MOVES | VC_R_FLIP_CAPTURES)));
				/* the promotion named, or one written alike (shogi's golds) */
				if (san->promo >= 0 ? !(v->san_group[san->promo] >> (m->promo - 1) & 1)
						    : !auto_p)
					continue;
				if ((m->flags & VC_MF_XPROMO) && san->xsrc != -1 && m->aux != san->xsrc)
					continue;
			} else if (san->promo >= 0)
				continue;
			if (npseudo < 64)
				pseudo[npseudo++] = *m;
		}
	}
	return npseudo;
}

/* A piece's move that generation must settle, with what the explanations
 * of a failure need: the position, the move as parsed and as written
 * (quoted up to tl characters), the piece (its type t, and in words pw once
 * a failure names it), its candidates, and where the failure is said. */
struct why {
	struct vc_position *p;
	const struct vc_san *san;
	const char *text;
	int tl;
	int t;
	const char *pw;
	const int16_t *cand;
	int nc;
	const char **code;
	char *msg;
	size_t n;
};

static int why_fail(const struct why *w, const char *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_fail(const struct why *w, const char *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(w->code, c, w->msg, w->n, fmt, ap);
	va_end(ap);
	return -1;
}

/* More than one legal move fits: says which, as a list of their SAN. */
static int say_ambiguous(const struct why *w, const vc_move *found, int nfound)
{
	struct vc_position *p = w->p;
	const struct vc_variant *v = p->v;
	char list[256], w2[40], s1[8];
	size_t k = 0;
	list[0] = 0;
	for (int i = 0; i < nfound && k < sizeof list - 40; i++) {
		char sn[40];
		vc_move_san(p, &found[i], 0, sn, sizeof sn);
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%s",
				      i == 0 ? "" : i == nfound - 1 ? " or " : ", ", sn);
	}
	if ((found[0].flags & VC_MF_XPROMO) && found[1].from == found[0].from)
		return why_fail(w, "move-ambiguous", "the %s can trade places with %d %ss: %s", w->pw,
				nfound, piece_word(v, found[0].promo - 1, w2, sizeof w2), list);
	vc_square_name(v, w->san->to, s1);
	size_t pl = strlen(w->pw);
	int ies = pl > 1 && w->pw[pl - 1] == 'y' && !strchr("aeiou", w->pw[pl - 2]);
	return why_fail(w, "move-ambiguous", "%s %.*s%s can reach %s: %s",
			nfound == 2 ? "two" : nfound == 3 ? "three" : "several",
			(int)(ies ? pl - 1 : pl), w->pw, ies ? "ies" : "s", s1, list);
}

/* A move to the promotion zone that names no promotion, or one the piece
 * cannot make: says so.  0 when that is not what is wrong. */
static int promotion_why(const struct why *w)
{
	struct vc_position *p = w->p;
	const struct vc_variant *v = p->v;
	const struct vc_san *san = w->san;
	int side = p->side, to = san->to, t = w->t;
	char w1[40], w2[40];
	int in_zone = v->types[t].promo_ranks && vc_bit_test(v->promo_zone[side][t], to);
	for (int c = 0; c < w->nc && !in_zone; c++)
		in_zone = vc_promo_zone_move(v, side, t, w->cand[c], to);
	if ((v->rules & VC_R_XPROMO) && in_zone && (w->nc > 0 || san->promo >= 0))
		return why_fail(w, "move-promotion",
				san->promo >= 0 ? "no %s of %s's to promote to by exchange"
						: "no piece to promote to by exchange%s%s",
				san->promo >= 0 ? piece_word(v, san->promo, w1, sizeof w1) : "",
				san->promo >= 0 ? side_name(side) : "");
	if (san->plus_promo)
		return why_fail(w, "move-promotion", "'%.*s': the %s cannot promote on this move",
				w->tl, w->text, w->pw);
	if (san->promo < 0 && !in_zone)
		return 0;
	/* maybe the piece can get there, but not with that promotion */
	for (int c = 0; c < w->nc; c++) {
		int nm = vc_gen_from(p, w->cand[c], rbuf);
		for (int i = 0; i < nm; i++)
			if (rbuf[i].to == to) {
				if (san->promo < 0)
					return why_fail(w, "move-promotion",
							"'%.*s' must say what the %s promotes to",
							w->tl, w->text, w->pw);
				return why_fail(w, "move-promotion", "a %s cannot promote to a %s here",
						w->pw, piece_word(v, san->promo, w2, sizeof w2));
			}
	}
	return 0;
}

/* No piece of the type has a move that fits: says the most useful thing,
 * the rule that stands in the way where one does. */
static int say_why_not(const struct why *w)
{
	struct vc_position *p = w->p;
	const struct vc_variant *v = p->v;
	const struct vc_san *san = w->san;
	const char *pw = w->pw;
	int side = p->side, t = w->t;
	uint8_t occ = p->board[san->to];
	char s1[8], s2[8], w2[40];
	if (promotion_why(w))
		return -1;
	if (san->gate >= 0)
		return gate_why(p, san, w->text, w->tl, w->code, w->msg, w->n);
	vc_square_name(v, san->to, s1);
	if (occ && vc_code_color(occ) == side && !vc_self_captures(v, t))
		return why_fail(w, "move-illegal", "no %s can reach %s: it holds a piece of %s's own",
				pw, s1, side_name(side));
	if (v->types[t].props & VC_P_IMMOBILE)
		return why_fail(w, "move-illegal", "a %s never moves", pw);
	if (occ && (v->types[vc_code_type(occ)].props & VC_P_UNCAPTURABLE))
		return why_fail(w, "move-illegal", "the %s on %s can never be captured",
				piece_word(v, vc_code_type(occ), w2, sizeof w2), s1);
	for (int i = 0; i < p->npl[side]; i++) {
		int sq = p->plist[side][i];
		if (vc_code_type(p->board[sq]) == t && (p->sqf[sq] & VC_SQF_DEAD) &&
		    (san->from_file < 0 || sq % v->files == san->from_file) &&
		    (san->from_rank < 0 || sq / v->files == san->from_rank)) {
			vc_square_name(v, sq, s2);
			return why_fail(w, "move-illegal", "the %s on %s is dead and never moves", pw,
					s2);
		}
	}
	if (!occ && san->capture_mark && (v->types[t].props & VC_P_PAWN) && !(v->rules & VC_R_EP))
		return why_fail(w, "move-illegal",
				"no %s can reach %s: this variant has no en passant", pw, s1);
	if (san->from_sq >= 0 &&
	    (!p->board[san->from_sq] || vc_code_color(p->board[san->from_sq]) != side)) {
		vc_square_name(v, san->from_sq, s2);
		return why_fail(w, "move-no-piece", "%s has no piece on %s", side_name(side), s2);
	}
	return why_fail(w, "move-illegal", "no %s can reach %s", pw, s1);
}

/* A piece's move that needs generation: the candidates' moves that fit,
 * then the legal ones; exactly one must remain, or the failure says why. */
static int resolve_generated(struct why *w, vc_move *out, int *untested)
{
	struct vc_position *p = w->p;
	vc_move pseudo[64], found[64];
	int npseudo = fitting_moves(p, w->san, w->cand, w->nc, pseudo), nfound = 0;
	if (npseudo == 1 && untested) {
		*out = pseudo[0];
		*untested = 1;
		return 0;
	}
	for (int i = 0; i < npseudo; i++)
		if (vc_move_legal(p, &pseudo[i]) && nfound < 64)
			found[nfound++] = pseudo[i];
	if (nfound == 1) {
		*out = found[0];
		return 0;
	}
	char w1[40];
	w->pw = piece_word(p->v, w->t, w1, sizeof w1);
	if (nfound > 1)
		return say_ambiguous(w, found, nfound);
	if (npseudo > 0)
		return why_fail(w, "move-illegal", "'%.*s' %s%s", w->tl, w->text,
				vc_illegal_why(p, &pseudo[0]),
				vc_position_plies_to_transform(p) == 1 ? " once the board halves swap"
									: "");
	return say_why_not(w);
}

/* A promotion as a move (promotion: as-move): in place (g7=F), or by a
 * step written with its origin (g7f6=F); when there is no such move, the
 * reason, by the rule it breaks. */
static int resolve_step(struct vc_position *p, const struct vc_san *san, int t, const char *text,
			int tl, vc_move *out, const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	int side = p->side, from = san->from_sq >= 0 ? san->from_sq : san->to, c = san->promo;
	char w1[40], w2[40], s1[8], s2[8];
	piece_word(v, t, w1, sizeof w1);
	piece_word(v, c, w2, sizeof w2);
	vc_square_name(v, from, s1);
	vc_square_name(v, san->to, s2);
	if (p->board[from] != vc_code(t, side))
		return fail(code, "move-illegal", msg, n,
			    "'%.*s': no %s of %s's on %s: a %s promotes by a move of its own, where "
			    "it stands or by a step written with its origin",
			    tl, text, w1, side_name(side), s1, w1);
	switch (vc_step_promo_why(p, from, san->to, c)) {
	case 0:
		break;
	case VC_STEP_NO_CHOICE:
		return fail(code, "move-illegal", msg, n, "'%.*s': a %s may not become a %s", tl,
			    text, w1, w2);
	case VC_STEP_LIMIT:
		if (v->types[c].promo_limit == 1)
			return fail(code, "move-illegal", msg, n,
				    "'%.*s': a %s may become a %s only while %s has none", tl, text, w1,
				    w2, side_name(side));
		return fail(code, "move-illegal", msg, n,
			    "'%.*s': a %s may become a %s only while %s has fewer than %d on the board",
			    tl, text, w1, w2, side_name(side), v->types[c].promo_limit);
	case VC_STEP_ZONE:
		return fail(code, "move-illegal", msg, n,
			    "'%.*s': a %s promotes only on its promotion squares (%s), unless it is "
			    "%s's last",
			    tl, text, w1, v->region_name[v->types[t].promo_step - 1], side_name(side));
	case VC_STEP_NO_STEP:
		return fail(code, "move-illegal", msg, n,
			    "'%.*s': %s is no step of a %s from %s onto an empty square", tl, text, s2,
			    w2, s1);
	default:
		return fail(code, "move-illegal", msg, n,
			    "'%.*s': the new %s would attack a piece of %s's from %s, which no promotion "
			    "may do",
			    tl, text, w2, side_name(side ^ 1), s2);
	}
	vc_move m = { (int16_t)from, (int16_t)san->to, -1, -1, -1, (uint8_t)t, (uint8_t)(c + 1),
		      VC_MF_PROMO, 0, 0 };
	if (!vc_move_legal(p, &m))
		return fail(code, "move-illegal", msg, n, "'%.*s' %s", tl, text, vc_illegal_why(p, &m));
	*out = m;
	return 0;
}

/* The special kinds first: castling, drops, two-square moves, castling in
 * coordinates.  Then a piece's move: its candidates, and generation
 * decides (resolve_plain has taken the common case, one candidate of a
 * simple piece, whose legality the caller tests). */
static __attribute__((noinline)) int resolve_move(struct vc_position *p, const struct vc_san *san,
						  const char *text, size_t len, vc_move *out,
						  int *untested, const char **code, char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	int tl = (int)(len > 60 ? 60 : len), side = p->side, t = san->piece;
	if (untested)
		*untested = 0;
	if (!rbuf && !(rbuf = vc_scratch(VC_SCRATCH_RESOLVE, VC_MAX_MOVES * 4 * sizeof *rbuf)))
		return fail(code, "oom", msg, n, "out of memory");
	if (san->wxf)
		return vc_wxf_resolve(p, text, len, out, code, msg, n);
	if (san->castle)
		return resolve_castle(p, san, text, tl, out, code, msg, n);
	if (san->drop)
		return resolve_drop(p, san, text, tl, out, code, msg, n);
	if (san->wall)
		return resolve_two(p, san, text, len, out, untested, code, msg, n);
	if (coord_castle(p, san, out))
		return 0;
	if ((v->rules & VC_R_PASS) && san->to >= 0 && san->to == p->king[side] &&
	    (t < 0 || t == vc_code_type(p->board[san->to])) &&
	    (san->from_sq < 0 || san->from_sq == san->to) && !san->capture_mark)
		return vc_pass_move(p, out) ? 0
					    : fail(code, "move-illegal", msg, n,
						   "'%.*s' passes while in check", tl, text);
	if (t < 0 && san->from_sq >= 0 && p->board[san->from_sq] &&
	    vc_code_color(p->board[san->from_sq]) == side)
		t = vc_code_type(p->board[san->from_sq]); /* coordinates: whatever stands there */
	if (t < 0)
		t = v->pawn_type;
	if (t < 0)
		return fail(code, "move-syntax", msg, n, "'%.*s' names no piece", tl, text);
	if (san->promo >= 0 && v->types[t].promo_step)
		return resolve_step(p, san, t, text, tl, out, code, msg, n);
	/* resolve_plain has found no move without generation */
	int16_t cand[64];
	int nk = candidates(p, san, t, cand);
	struct why w = { p, san, text, tl, t, NULL, cand, nk, code, msg, n };
	return resolve_generated(&w, out, untested);
}

/* resolve_move's common case on its own, kept small (resolve_move's
 * frame is large): a piece's move with no square written out, no
 * promotion and no gate, not to its own royal piece's square where a
 * variant passes so, whose one candidate goes there without generation.  1 with *out made, else 0 (resolve_move
 * decides, from the start). */
static inline int resolve_plain(struct vc_position *p, const struct vc_san *san, vc_move *out,
				int *untested)
{
	const struct vc_variant *v = p->v;
	if (!untested || san->wxf || san->castle || san->drop || san->wall || san->from_sq >= 0 ||
	    san->promo >= 0 || san->plus_promo || san->gate >= 0 ||
	    ((v->rules & VC_R_PASS) && san->to == p->king[p->side]))
		return 0;
	int t = san->piece >= 0 ? san->piece : v->pawn_type;
	int16_t cand[64];
	/* the one candidate reaches the square, unless its type's attacks are
	 * walked (hops, long paths): then every piece of the type is one */
	if (t < 0 || (v->walk_types >> t & 1) || candidates(p, san, t, cand) != 1 ||
	    !direct_move(p, cand[0], san->to, vc_code_type(p->board[cand[0]]), out))
		return 0;
	/* sole: no other piece written alike could go there, so writing the
	 * move back needs no origin (a piece named exactly, '+P', was looked
	 * for alone: the others written alike were not) */
	*untested = san->from_file < 0 && san->from_rank < 0 && !san->exact_piece ? VC_UNTESTED_SOLE
										   : 1;
	return 1;
}

int vc_san_resolve(struct vc_position *p, const struct vc_san *san, const char *text, size_t len,
		   vc_move *out, int *untested, const char **code, char *msg, size_t n)
{
	if (!resolve_plain(p, san, out, untested) &&
	    resolve_move(p, san, text, len, out, untested, code, msg, n) != 0)
		return -1;
	/* forced-capture: a move that captures nothing is illegal while a
	 * capture is possible */
	if ((p->v->rules & VC_R_FORCED_CAPTURE) && !(out->flags & VC_MF_CAPTURE)) {
		vc_move c;
		if (vc_bb_has_capture(p) != 0 && vc_legal_capture(p, &c)) {
			char cs[64];
			vc_move_san(p, &c, 0, cs, sizeof cs);
			return fail(code, "move-illegal", msg, n,
				    "'%.*s' captures nothing, and a capture is compulsory (%s is one)",
				    (int)(len > 60 ? 60 : len), text, cs);
		}
	}
	/* must-drop: a move on the board is illegal while a drop is legal */
	if ((p->v->rules & VC_R_MUST_DROP) && !(out->flags & VC_MF_DROP)) {
		vc_move d;
		if (vc_legal_drop(p, &d)) {
			char ds[64];
			vc_move_san(p, &d, 0, ds, sizeof ds);
			return fail(code, "move-illegal", msg, n,
				    "'%.*s' moves on the board while a piece in hand can be dropped, "
				    "and dropping comes first (%s is one)",
				    (int)(len > 60 ? 60 : len), text, ds);
		}
	}
	return 0;
}

/* ---- writing ---- */

/* Move text is built in a fixed buffer of VC_SAN_MAX bytes; what does not
 * fit is cut, and the length counts what was kept (as snprintf's would
 * once clamped). */
#define VC_SAN_MAX 96

static void put_s(char *out, size_t *k, const char *s)
{
	while (*s && *k < VC_SAN_MAX - 1)
		out[(*k)++] = *s++;
}

static void put_c(char *out, size_t *k, char c)
{
	if (*k < VC_SAN_MAX - 1)
		out[(*k)++] = c;
}

/* The promotion a move's text writes ("=G"): its type + 1, or 0 for none,
 * and for a promotion the piece always makes there (promotes-to, no choice),
 * which the text leaves unsaid. */
static int promo_written(const struct vc_variant *v, const vc_move *m)
{
	const struct vc_ptype *pt = &v->types[m->piece];
	if (!m->promo || !(m->flags & VC_MF_PROMO))
		return 0;
	if (pt->auto_to == m->promo - 1 && !(pt->promo_choices >> (m->promo - 1) & 1))
		return 0;
	return m->promo;
}

/* Whether two moves to one square are written alike but for their origin:
 * the same promotion written, the same gate. */
static int same_but_origin(const struct vc_variant *v, const vc_move *a, const vc_move *b)
{
	const unsigned gates = VC_MF_GATE | VC_MF_GATE_PARTNER;
	return a->to == b->to && promo_written(v, a) == promo_written(v, b) &&
	       (a->flags & gates) == (b->flags & gates) &&
	       (!(a->flags & VC_MF_GATE) || a->gate == b->gate);
}

/* The text of a piece's move that is not a pawn's, between its symbol and
 * its destination: the origin's file, rank or square when another piece
 * of its type can legally make the same move, as SAN counts them: to the
 * same square, with the same promotion and the same gate (Sc4=G where
 * another silver reaches c4 but cannot promote there; none when the caller
 * knows it is the only one: sole), then 'x' or the variant's separator. */
static void san_origin(struct vc_position *p, const vc_move *m, int sole, const char *from,
		       char *out, size_t *k)
{
	const struct vc_variant *v = p->v;
	int t = m->piece, side = p->side, others = 0, same_file = 0, same_rank = 0;
	int16_t cand[64];
	int nc = sole ? 0
		      : vc_reach_origins(p, side, v->san_group[t], m->to, p->board[m->to] != 0, cand,
					 64);
	vc_move *mb = nc ? vc_scratch(VC_SCRATCH_SAN_ORIGIN, VC_MAX_MOVES * sizeof *mb) : NULL;
	if (nc && !mb) /* out of memory: the whole square, never ambiguous */
		others = same_file = same_rank = 1;
	for (int c = 0; c < nc && mb; c++) {
		if (cand[c] == m->from)
			continue;
		int nm = vc_gen_from(p, cand[c], mb), ok = 0;
		for (int i = 0; i < nm && !ok; i++)
			if (same_but_origin(v, &mb[i], m) && vc_move_legal(p, &mb[i]))
				ok = 1;
		if (!ok)
			continue;
		others++;
		if (cand[c] % v->files == m->from % v->files)
			same_file = 1;
		if (cand[c] / v->files == m->from / v->files)
			same_rank = 1;
	}
	if (others) {
		if (!same_file)
			put_c(out, k, from[0]);
		else if (!same_rank)
			put_s(out, k, from + 1);
		else
			put_s(out, k, from);
	}
	if (m->flags & VC_MF_CAPTURE)
		put_c(out, k, 'x');
	else
		put_s(out, k, v->sep);
}

/* A promotion by exchange names its source when another of that kind
 * could serve. */
static void san_xsource(struct vc_position *p, const vc_move *m, char *out, size_t *k)
{
	vc_move *xm = vc_scratch(VC_SCRATCH_SAN_XSOURCE, VC_MAX_MOVES * sizeof *xm);
	int nx = xm ? vc_gen_from(p, m->from, xm) : 0, other = !xm; /* no memory: named */
	for (int i = 0; i < nx; i++)
		if (xm[i].to == m->to && xm[i].promo == m->promo && xm[i].aux != m->aux &&
		    vc_move_legal(p, &xm[i]))
			other = 1;
	if (!other)
		return;
	if (m->aux >= 0) {
		char src[8];
		vc_square_name(p->v, m->aux, src);
		put_c(out, k, '(');
		put_s(out, k, src);
		put_c(out, k, ')');
	} else
		put_s(out, k, m->aux == -2 ? "(air)" : "(prison)");
}

/* A move of a piece from one square to another (promotions included). */
static void san_plain(struct vc_position *p, const vc_move *m, int flags, char *out, size_t *k)
{
	const struct vc_variant *v = p->v;
	int t = m->piece;
	int pawn = (v->types[t].props & VC_P_PAWN) != 0;
	int cap = (m->flags & VC_MF_CAPTURE) != 0;
	char from[8], sq[8];
	vc_square_name(v, m->from, from);
	vc_square_name(v, m->to, sq);
	if (!pawn)
		put_s(out, k, vc_san_symbol(v, t));
	if (flags & VC_SAN_LONG) {
		put_s(out, k, from);
		put_c(out, k, cap ? 'x' : '-');
	} else if (m->promo && v->types[t].promo_step) {
		/* a promotion as a move: its origin, unless it stays (g7f6=F,
		 * g7=F, as Fairy-Stockfish writes them) */
		if (m->from != m->to)
			put_s(out, k, from);
	} else if (pawn) {
		if (cap) {
			put_c(out, k, from[0]);
			put_c(out, k, 'x');
		}
	} else {
		san_origin(p, m, (flags & VC_SAN_SOLE) != 0, from, out, k);
	}
	put_s(out, k, sq);
	if (promo_written(v, m)) {
		put_c(out, k, '=');
		put_s(out, k, vc_san_symbol(v, m->promo - 1));
	}
	if (m->flags & VC_MF_XPROMO)
		san_xsource(p, m, out, k);
}

int vc_move_san_ex(const struct vc_position *cp, const vc_move *m, int flags, char *buf,
		   size_t n)
{
	struct vc_position *p = (struct vc_position *)cp; /* made and unmade: unchanged */
	const struct vc_variant *v = p->v;
	char out[VC_SAN_MAX], sq[8];
	size_t k = 0;
	int long_form = (flags & VC_SAN_LONG) != 0;
	if ((m->flags & VC_MF_NULL) && m->from >= 0) {
		/* a pass: the royal piece to its own square, as Fairy-Stockfish
		 * writes it ("Ke2", "Ke2-e2") */
		vc_square_name(v, m->from, sq);
		put_s(out, &k, vc_san_symbol(v, m->piece));
		if (long_form) {
			put_s(out, &k, sq);
			put_c(out, &k, '-');
		}
		put_s(out, &k, sq);
	} else if (m->flags & VC_MF_NULL) {
		put_s(out, &k, "--");
	} else if (m->flags & VC_MF_CASTLE) {
		const char *o = v->castle_zero ? "0" : "O";
		put_s(out, &k, o);
		put_c(out, &k, '-');
		put_s(out, &k, o);
		if (v->castle[m->extra].long_side) {
			put_c(out, &k, '-');
			put_s(out, &k, o);
		}
	} else if (m->flags & VC_MF_WALL) {
		/* "W a2b2-a3b3": each pair in file order, then rank order */
		char fr[16], to[16];
		two_names(v, m->from, m->from2, fr);
		two_names(v, m->to, m->to2, to);
		put_s(out, &k, v->types[m->piece].symbol);
		put_c(out, &k, ' ');
		put_s(out, &k, fr);
		put_c(out, &k, (m->flags & VC_MF_CAPTURE) ? 'x' : '-');
		put_s(out, &k, to);
	} else if (m->flags & VC_MF_DROP) {
		vc_square_name(v, m->to, sq);
		put_s(out, &k, v->types[m->promo ? m->promo - 1 : m->piece].symbol);
		put_c(out, &k, v->drop_mark);
		put_s(out, &k, sq);
	} else {
		san_plain(p, m, flags, out, &k);
	}
	if (m->flags & VC_MF_GATE) {
		/* the piece that enters from the hand; after castling, where */
		put_c(out, &k, '/');
		put_s(out, &k, vc_san_symbol(v, m->gate));
		if (m->flags & VC_MF_CASTLE) {
			vc_square_name(v, (m->flags & VC_MF_GATE_PARTNER) ? m->aux : m->from, sq);
			put_s(out, &k, sq);
		}
	}
	if (!(flags & VC_SAN_NO_MARK) && !(m->flags & VC_MF_NULL) && vc_pos_make(p, m) == 0) {
		put_s(out, &k, vc_mark_after(p));
		vc_pos_unmake(p);
	}
	if (n) {
		size_t c = k < n - 1 ? k : n - 1;
		memcpy(buf, out, c);
		buf[c] = 0;
	}
	return (int)k;
}

int vc_move_san(const struct vc_position *p, const vc_move *m, int long_form, char *buf,
		size_t n)
{
	return vc_move_san_ex(p, m, long_form ? VC_SAN_LONG : 0, buf, n);
}

/* ---- strict mode ---- */

/* The length of move text without its check and mate marks and the
 * annotations glued on. */
static size_t unmarked(const char *s, size_t len)
{
	while (len > 0 && strchr("+#!?", s[len - 1]))
		len--;
	return len;
}

/* Does text (tl long) hold word? */
static int holds(const char *text, size_t tl, const char *word)
{
	size_t wl = strlen(word);
	for (size_t i = 0; i + wl <= tl; i++)
		if (!memcmp(text + i, word, wl))
			return 1;
	return 0;
}

int vc_san_strict(const struct vc_position *p, const vc_move *m, const char *text, size_t len,
		  char *msg, size_t n)
{
	const struct vc_variant *v = p->v;
	char san[96], from[8];
	if (m->flags & (VC_MF_NULL | VC_MF_CASTLE))
		return 0;
	vc_move_san(p, m, 0, san, sizeof san);
	size_t sl = unmarked(san, strlen(san)), tl = unmarked(text, len);
	if (sl == tl && !memcmp(san, text, tl))
		return 0;
	san[sl] = 0;
	int plain = !(m->flags & (VC_MF_DROP | VC_MF_WALL));
	int pawn = plain && (v->types[m->piece].props & VC_P_PAWN);
	const char *sym = vc_san_symbol(v, m->piece), *why = NULL;
	vc_square_name(v, plain ? m->from : m->to, from);
	if (memchr(text, ':', tl))
		why = "a capture is written with 'x'";
	else if (m->promo && (m->flags & VC_MF_PROMO) &&
		 (memchr(text, '/', tl) || memchr(text, '(', tl) || !memchr(text, '=', tl) ||
		  islower((unsigned char)text[tl - 1])))
		why = "a promotion is written with '=' and a capital";
	else if (pawn && tl > strlen(sym) && !strncmp(text, sym, strlen(sym)))
		why = "a pawn's move has no piece letter";
	else if (tl > 2 && !memcmp(text + tl - 2, "ep", 2))
		why = "an en-passant capture has no mark";
	else if (plain && holds(text, tl, from) && !strstr(san, from))
		why = strncmp(text, from, strlen(from)) || memchr(text, '-', tl)
			      ? "long algebraic notation"
			      : "coordinates";
	else if (tl > sl)
		why = "more than SAN needs to tell the piece";
	snprintf(msg, n, "'%.*s' is not SAN%s%s ('%s')", (int)(tl > 40 ? 40 : tl), text,
		 why ? ": " : "", why ? why : "", san);
	return -1;
}
