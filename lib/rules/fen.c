/*
 * rules/fen.c - position strings (man 5 vchess-position): reading one into
 * a position, with a positioned error for anything that does not read, and
 * writing a position back, so that the two round-trip.
 *
 * This sits above move generation: reading checks that the side not to
 * move is not in check, and writing names an en-passant target only when
 * some pawn could take there, both questions for the generator.
 *
 * Two-square pieces (walls) are written with a mark on the square of them
 * that comes first in the string and '=' on the other.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

/* ---- position strings ---- */

/* The marks after the symbol of a two-square piece, on the square of it
 * that comes first in the string: where its other square is, which holds
 * '=': east (next square), south (below), south-east, south-west. */
static const char two_marks[] = ">|\\<";

/* reads a piece symbol: a letter, '+' and a letter (a promoted piece, as
 * shogi writes it), or (XY) for a multi-letter one; colour from the case.
 * Returns the type or -1. */
static int read_symbol(const struct vc_variant *v, const char **sp, int *color)
{
	const char *s = *sp;
	char sym[4];
	size_t n = 0;
	if (*s == '(') {
		s++;
		while (isalpha((unsigned char)*s) && n < 3)
			sym[n++] = *s++;
		if (*s != ')' || n == 0)
			return -1;
		s++;
	} else if (isalpha((unsigned char)*s)) {
		sym[n++] = *s++;
	} else if (*s == '+' && isalpha((unsigned char)s[1])) {
		sym[n++] = *s++;
		sym[n++] = *s++;
	} else
		return -1;
	sym[n] = 0;
	size_t i0 = sym[0] == '+';
	int upper = isupper((unsigned char)sym[i0]), lower = islower((unsigned char)sym[i0]);
	for (size_t i = i0 + 1; i < n; i++)
		if ((upper && !isupper((unsigned char)sym[i])) ||
		    (lower && !islower((unsigned char)sym[i])))
			return -1;
	int t = vc_type_by_symbol(v, sym, n);
	if (t < 0)
		return -1;
	*color = upper ? VC_WHITE : VC_BLACK;
	*sp = s;
	return t;
}

/* The partner a castling letter means (X-FEN): the outermost piece that may
 * castle on that side of the king, on the king's rank; -1 if none. */
static int castle_partner_scan(const struct vc_position *p, int side, int right)
{
	const struct vc_variant *v = p->v;
	int k = vc_castler(p, side);
	if (k < 0)
		return -1;
	if (v->rules & VC_R_SWAP_HALVES) {
		/* a right is its partner's start square, moved by the swaps done */
		int psq = v->castle[right].partner;
		if (side == VC_BLACK)
			psq = vc_sq_mirror(v, psq);
		long done = p->ply - v->swap_offset;
		if (done >= 0 && (done / v->swap_period) % 2)
			psq = vc_sq(v->files, (psq % v->files + v->files / 2) % v->files, psq / v->files);
		uint8_t c = p->board[psq];
		if (c && vc_code_color(c) == side &&
		    (!v->castle_partners || (v->castle_partners >> vc_code_type(c) & 1)))
			return psq;
		return -1;
	}
	int kr0 = v->castle_king / v->files; /* the rank castling happens on (White's) */
	int home = side == VC_WHITE ? kr0 : v->ranks - 1 - kr0;
	if (v->castle_style == VC_CASTLE_FIXED && k / v->files != home)
		return -1;
	int kr = k / v->files, kf = k % v->files;
	int east = v->castle[right].partner % v->files > v->castle_king % v->files;
	for (int i = 0; i < v->files; i++) {
		int f = east ? v->files - 1 - i : i;
		if (east ? f <= kf : f >= kf)
			break;
		uint8_t c = p->board[vc_sq(v->files, f, kr)];
		if (c && vc_code_color(c) == side &&
		    (!v->castle_partners || (v->castle_partners >> vc_code_type(c) & 1)))
			return vc_sq(v->files, f, kr);
	}
	return -1;
}

/* Reads a whole number from lo to hi at *s and moves past it; 0 if there
 * is none there or it is out of range (*s then stays). */
static int read_count(const char **s, long lo, long hi, long *out)
{
	char *end;
	long n = strtol(*s, &end, 10);
	if (end == *s || n < lo || n > hi)
		return 0;
	*out = n;
	*s = end;
	return 1;
}

/* A position string being read: the position it fills, where reading
 * stands, and what the fields read so far leave for later ones. */
struct fen_in {
	struct vc_ctx *ctx;
	const char *fen; /* the whole string: an error gives its column in it */
	const char *s;   /* the next character to read */
	const struct vc_variant *v;
	struct vc_position *p;
	int r, f; /* the rank being read, and the file of its next square */
	const char *move_zero; /* a move number 0, read as 1: warned of once it all reads */
	/* two-square pieces whose other square is still to come */
	struct {
		int partner, dir;
		uint8_t code, flags;
		const char *at;
	} pend[VC_MAXTWO];
	int npend;
	/* castling rights are read once the ply count is known: where a
	 * partner stands may depend on the board transformations done so far */
	const char *castle_field;
};

static int fen_err(const struct fen_in *in, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fen_err(const struct fen_in *in, const char *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vc_vemit(in->ctx, VC_SEV_ERROR, "fen-invalid", NULL, 0, at ? (long)(at - in->fen) + 1 : 0,
		 NULL, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_spaces(struct fen_in *in)
{
	while (*in->s == ' ')
		in->s++;
}

/* a run of empty squares: a number */
static int read_empty(struct fen_in *in)
{
	const char *at = in->s;
	int n = 0;
	while (isdigit((unsigned char)*in->s)) {
		n = n * 10 + (*in->s++ - '0');
		if (n > VC_MAXF)
			n = VC_MAXF + 1; /* too many for any board: no overflow */
	}
	if (n == 0 || in->f + n > in->v->files)
		return fen_err(in, at, "rank %d is longer than %d files", in->r + 1, in->v->files);
	in->f += n;
	return 0;
}

/* '=': the other square of a two-square piece written before */
static int read_other_square(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	struct vc_position *p = in->p;
	const char *at = in->s;
	char sn[8];
	int sq = vc_sq(v->files, in->f, in->r), k;
	for (k = 0; k < in->npend; k++)
		if (in->pend[k].partner == sq)
			break;
	vc_square_name(v, sq, sn);
	if (in->f >= v->files)
		return fen_err(in, at, "rank %d is longer than %d files", in->r + 1, v->files);
	if (k == in->npend)
		return fen_err(in, at, "'=' on %s is not the other square of a two-square piece", sn);
	if (p->npl[vc_code_color(in->pend[k].code)] >= VC_MAXPL)
		return fen_err(in, at, "too many pieces");
	vc_pos_put(p, sq, in->pend[k].code,
		   (uint8_t)(in->pend[k].flags | vc_link_flags(vc_link_opposite(in->pend[k].dir))));
	in->pend[k] = in->pend[--in->npend];
	in->s++;
	in->f++;
	return 0;
}

/* The mark after the symbol of a two-square piece of type t (at 'at'), on
 * its first square: it points to the other square, which comes later in
 * the string and is noted as pending.  *dir gets the direction. */
static int read_two_mark(struct fen_in *in, int t, const char *at, int neutral, int color,
			 int *dir)
{
	static const int8_t md[4][2] = { { 1, 0 }, { 0, -1 }, { 1, -1 }, { -1, -1 } };
	const struct vc_variant *v = in->v;
	const char *s = in->s, *mk = strchr(two_marks, *s);
	char sn[8];
	if (!*s || !mk)
		return fen_err(in, s,
			       "'%.*s' is a two-square piece: a mark (%s) must say where its "
			       "other square is",
			       (int)(s - at), at, two_marks);
	int k = (int)(mk - two_marks);
	int pf = in->f + md[k][0], pr = in->r + md[k][1];
	vc_square_name(v, vc_sq(v->files, in->f, in->r), sn);
	if (pf < 0 || pf >= v->files || pr < 0)
		return fen_err(in, s, "the other square of the piece on %s is off the board", sn);
	if (md[k][0] && md[k][1] && !(v->types[t].props & VC_P_DIAGSTANCE))
		return fen_err(in, s,
			       "the piece on %s stands on two orthogonally adjacent squares, "
			       "not diagonally",
			       sn);
	if (neutral || in->npend >= VC_MAXTWO || in->p->ntwo[color] >= VC_MAXTWO)
		return fen_err(in, at,
			       neutral ? "a two-square piece cannot be neutral"
				       : "too many two-square pieces");
	*dir = vc_link_dir(md[k][0], md[k][1]);
	in->pend[in->npend].partner = vc_sq(v->files, pf, pr);
	in->pend[in->npend].dir = *dir;
	in->pend[in->npend].at = at;
	in->s++;
	return 0;
}

/* a piece: '*' for a neutral one, its symbol, a two-square piece's mark,
 * then '~' (promoted) and '!' (dead) */
static int read_board_piece(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	struct vc_position *p = in->p;
	const char *at = in->s;
	int neutral = 0, color, dir = 0;
	if (*in->s == '*') {
		neutral = 1;
		in->s++;
	}
	int t = read_symbol(v, &in->s, &color);
	if (t < 0)
		return fen_err(in, at, "unknown piece '%.*s' in the position string",
			       *at == '(' ? (int)(strcspn(at, ")") + 1) : 1 + neutral, at);
	if (in->f >= v->files)
		return fen_err(in, at, "rank %d is longer than %d files", in->r + 1, v->files);
	int sq = vc_sq(v->files, in->f, in->r);
	if (!(v->types[t].props & VC_P_TWOSQUARE)) {
		if (*in->s && strchr(two_marks, *in->s))
			return fen_err(in, in->s,
				       "'%c' after '%.*s': only a two-square piece has a mark",
				       *in->s, (int)(in->s - at), at);
	} else if (read_two_mark(in, t, at, neutral, color, &dir))
		return -1;
	uint8_t flags = 0;
	while (*in->s == '~' || *in->s == '!') {
		flags |= *in->s == '~' ? VC_SQF_PROMOTED : VC_SQF_DEAD;
		in->s++;
	}
	if (p->npl[neutral ? VC_NEUTRAL : color] >= VC_MAXPL)
		return fen_err(in, at, "too many pieces");
	uint8_t code = vc_code(t, neutral ? VC_NEUTRAL : color);
	if (dir) {
		in->pend[in->npend].code = code;
		in->pend[in->npend].flags = flags;
		in->npend++;
		flags |= vc_link_flags(dir);
	}
	vc_pos_put(p, sq, code, flags);
	in->f++;
	return 0;
}

/* one rank, and the '/' after it but the last */
static int read_rank(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	in->f = 0;
	while (*in->s && *in->s != '/' && *in->s != ' ' && *in->s != '[') {
		int rc;
		if (isdigit((unsigned char)*in->s))
			rc = read_empty(in);
		else if (*in->s == '=')
			rc = read_other_square(in);
		else
			rc = read_board_piece(in);
		if (rc)
			return -1;
	}
	if (in->f != v->files)
		return fen_err(in, in->s, "rank %d has %d files, not %d", in->r + 1, in->f, v->files);
	if (in->r > 0) {
		if (*in->s != '/')
			return fen_err(in, in->s, "expected '/' after rank %d", in->r + 1);
		in->s++;
	}
	return 0;
}

/* the board, rank by rank from the top; every two-square piece with both
 * its squares */
static int read_board(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	for (in->r = v->ranks - 1; in->r >= 0; in->r--)
		if (read_rank(in))
			return -1;
	if (in->npend) {
		char a[8], b[8];
		int sq = (int)(in->pend[0].partner - vc_link_dx(in->pend[0].dir) -
			       vc_link_dy(in->pend[0].dir) * v->files);
		vc_square_name(v, sq, a);
		vc_square_name(v, in->pend[0].partner, b);
		return fen_err(in, in->pend[0].at,
			       "the two-square piece on %s needs '=' on its other square, %s", a, b);
	}
	return 0;
}

/* a hand written as a ninth rank ("/Qn"), as some crazyhouse strings do */
static int read_hand_rank(struct fen_in *in)
{
	struct vc_position *p = in->p;
	if (*in->s != '/' || in->v->nreserve <= 0)
		return 0;
	in->s++;
	while (*in->s && *in->s != ' ') {
		const char *at = in->s;
		int color;
		int t = read_symbol(in->v, &in->s, &color);
		if (t < 0)
			return fen_err(in, at, "unknown piece '%c' in a reserve", *at);
		if (p->res[color][0][t] == 255)
			return fen_err(in, at, "more than 255 pieces of one kind in a reserve");
		p->res[color][0][t]++;
	}
	return 0;
}

/* reserves: one bracket per declared area */
static int read_reserves(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	struct vc_position *p = in->p;
	for (int area = 0; *in->s == '['; area++) {
		const char *open = in->s++;
		if (area >= v->nreserve && v->nreserve > 0)
			return fen_err(in, open, "this variant has %d reserve area%s", v->nreserve,
				       v->nreserve == 1 ? "" : "s");
		while (*in->s && *in->s != ']') {
			const char *at = in->s;
			int color;
			int t = read_symbol(v, &in->s, &color);
			if (t < 0)
				return fen_err(in, at, "unknown piece '%c' in a reserve", *at);
			if (v->nreserve == 0)
				continue; /* a variant without reserves reads "[]" and ignores it */
			/* a prison's letters give its prisoners' colour: it is the
			 * other side's prison */
			int owner = v->reserve[area].enemy ? color ^ 1 : color;
			if (p->res[owner][area][t] == 255)
				return fen_err(in, at, "more than 255 pieces of one kind in a reserve");
			p->res[owner][area][t]++;
		}
		if (*in->s != ']')
			return fen_err(in, open, "reserve '[' is never closed");
		in->s++;
	}
	return 0;
}

/* The fields after the board are optional, defaults w - - 0 1. */

static int read_side(struct fen_in *in)
{
	skip_spaces(in);
	if (!*in->s)
		return 0;
	if (*in->s == 'w' || *in->s == 'W')
		in->p->side = VC_WHITE;
	else if (*in->s == 'b' || *in->s == 'B')
		in->p->side = VC_BLACK;
	else
		return fen_err(in, in->s, "side to move must be 'w' or 'b'");
	in->s++;
	return 0;
}

/* the castling field, only noted here: see read_castling */
static void skip_castling(struct fen_in *in)
{
	skip_spaces(in);
	if (!*in->s)
		return;
	if (*in->s == '-') {
		in->s++;
		return;
	}
	in->castle_field = in->s;
	while (*in->s && *in->s != ' ')
		in->s++;
}

/* en-passant targets, separated by commas, and the victim they mean */
static int read_ep(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	struct vc_position *p = in->p;
	skip_spaces(in);
	if (!*in->s)
		return 0;
	if (*in->s == '-') {
		in->s++;
		return 0;
	}
	if (v->end.counting && isdigit((unsigned char)*in->s)) {
		/* a count runs: its limit in plies stands here, and the plies
		 * counted in the half-move clock's place (Fairy-Stockfish) */
		const char *at = in->s;
		long lim;
		if (!read_count(&in->s, 1, 4000, &lim) || (*in->s && *in->s != ' '))
			return fen_err(in, at, "a count's limit must be a number of plies from 1 to 4000");
		p->count_limit = (int16_t)lim;
		return 0;
	}
	while (*in->s && *in->s != ' ') {
		const char *at = in->s;
		int used;
		int sq = vc_square_parse(v, in->s, &used);
		if (sq < 0 || p->nep >= VC_MAXEP)
			return fen_err(in, at, "bad en-passant square '%.*s'",
				       (int)strcspn(at, " ,"), at);
		p->ep[p->nep++] = (int16_t)sq;
		in->s += used;
		if (*in->s == ',')
			in->s++;
	}
	/* the victim stands one step beyond the target nearest to it */
	int dir = p->side == VC_WHITE ? -1 : 1;
	int near = p->ep[0];
	for (int i = 1; i < p->nep; i++)
		if ((p->ep[i] / v->files - near / v->files) * dir > 0)
			near = p->ep[i];
	int vr = near / v->files + dir;
	p->epvictim = (int16_t)(vr >= 0 && vr < v->ranks ? near + dir * v->files : -1);
	return 0;
}

/* the half-move clock, the move number, an optional "ply N" (plies already
 * played, for scheduled transformations), and nothing after them */
/* The checks of a variant that counts them (end rule 'checks'): "W+B", the
 * checks each side has still to give, before the clocks (python-chess,
 * Fairy-Stockfish), or "+W+B", the checks given, after them (lichess).
 * Returns 1 when the field was there, 0 when not, -1 after an error. */
static int read_checks(struct fen_in *in, int given)
{
	const struct vc_variant *v = in->v;
	const char *at = in->s, *s = in->s;
	long a, b;
	if (!v->end.checks || (given && *s++ != '+'))
		return 0;
	if (!isdigit((unsigned char)*s) || !read_count(&s, 0, 99, &a) || *s++ != '+' ||
	    !isdigit((unsigned char)*s) || !read_count(&s, 0, 99, &b))
		return 0;
	if (*s && *s != ' ')
		return 0;
	if (a > v->end.checks || b > v->end.checks)
		return fen_err(in, at, "checks must be from 0 to %d", v->end.checks);
	in->p->checks[VC_WHITE] = (uint8_t)(given ? a : v->end.checks - a);
	in->p->checks[VC_BLACK] = (uint8_t)(given ? b : v->end.checks - b);
	in->s = s;
	skip_spaces(in);
	return 1;
}

static int read_counters(struct fen_in *in)
{
	struct vc_position *p = in->p;
	long num;
	skip_spaces(in);
	if (read_checks(in, 0) < 0)
		return -1;
	if (*in->s) {
		const char *clock = in->s;
		if (!read_count(&in->s, 0, 100000000, &num))
			return fen_err(in, in->s,
				       "half-move clock must be a number from 0 to 100000000");
		p->halfmove = (int32_t)num;
		if (p->count_limit) {
			if (num > 4000)
				return fen_err(in, clock, "the plies counted must be at most 4000");
			p->count_ply = (int16_t)num;
			p->halfmove = 0;
		}
	}
	skip_spaces(in);
	if (*in->s) {
		/* many puzzle tools write 0 where the game starts: it means 1 */
		const char *at = in->s;
		if (!read_count(&in->s, 0, 100000000, &num))
			return fen_err(in, in->s, "move number must be a positive number");
		if (num == 0) {
			in->move_zero = at;
			num = 1;
		}
		p->fullmove = (int32_t)num;
	}
	p->ply = 2L * (p->fullmove - 1) + p->side;
	skip_spaces(in);
	if (!strncmp(in->s, "ply ", 4)) {
		const char *at = in->s;
		in->s += 4;
		if (!read_count(&in->s, 0, 1000000000, &num))
			return fen_err(in, at, "'ply' needs a number from 0 to 1000000000");
		p->ply = num;
		skip_spaces(in);
	}
	if (read_checks(in, 1) < 0)
		return -1;
	if (*in->s)
		return fen_err(in, in->s, "unexpected text '%s' at the end of the position string",
			       in->s);
	return 0;
}

/* The first-move square a castling letter names: the file's square on the
 * side's first rank, where a piece of the side with a first-move movement
 * stands; -1 if none. */
static int first_square(const struct vc_position *p, int side, char uc)
{
	const struct vc_variant *v = p->v;
	if (!v->first_types || uc < 'A' || uc - 'A' >= v->files)
		return -1;
	int sq = vc_sq(v->files, uc - 'A', side == VC_WHITE ? 0 : v->ranks - 1);
	uint8_t c = p->board[sq];
	return c && vc_code_color(c) == side && (v->first_types >> vc_code_type(c) & 1) ? sq : -1;
}

/* A first-move right read (Fairy-Stockfish's gates: "DEde"): 1 when uc
 * names one, which is now held.  In a variant without castling, a file
 * letter whose square holds no such piece is a right without its piece,
 * void, as a castling right is (the engine keeps and writes it). */
static int first_right(struct vc_position *p, int side, char uc)
{
	const struct vc_variant *v = p->v;
	int sq = first_square(p, side, uc);
	if (sq >= 0)
		p->sqf[sq] |= VC_SQF_FIRST;
	return sq >= 0 || (v->first_types && !v->ncastle && uc >= 'A' && uc - 'A' < v->files);
}


/* Gating: may side's hand gate (some piece in it, or captures that may
 * fill it)? */
static int may_gate(const struct vc_position *p, int side)
{
	const struct vc_variant *v = p->v;
	if (!(v->rules & VC_R_GATING))
		return 0;
	if (v->rules & VC_R_CAPTURE_TO_HAND)
		return 1;
	for (int t = 0; t < v->ntypes; t++)
		if (p->res[side][0][t])
			return 1;
	return 0;
}

/* Gating: the right of the square of file f on side's first rank, when
 * one of side's pieces stands there (a right belongs to a piece). */
static void set_gate(struct vc_position *p, int side, int f)
{
	const struct vc_variant *v = p->v;
	int sq = vc_sq(v->files, f, side == VC_WHITE ? 0 : v->ranks - 1);
	if (f >= 0 && f < v->files && p->board[sq] && vc_code_color(p->board[sq]) == side)
		p->gates[side] |= 1u << f;
}

/* Gating, once the field is read, as Fairy-Stockfish reads it: a side with
 * no castling right whose king's square has a gating right castles with
 * each partner whose start square has one. */
static void castle_from_gates(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	for (int c = 0; c < 2 && (v->rules & VC_R_GATING); c++) {
		int k = vc_castler(p, c), any = 0;
		for (int i = 0; i < v->ncastle; i++)
			any |= p->castle[c][i] >= 0;
		if (any || k < 0 || k / v->files != (c == VC_WHITE ? 0 : v->ranks - 1) ||
		    !(p->gates[c] >> (k % v->files) & 1) || !may_gate(p, c))
			continue;
		for (int i = 0; i < v->ncastle; i++) {
			int f = v->castle[i].partner % v->files;
			if (p->gates[c] >> f & 1)
				p->castle[c][i] = (int16_t)castle_partner_scan(p, c, i);
		}
	}
}

/* The castling field noted by skip_castling: the variant's letters, or
 * Shredder / X-FEN file letters, or first-move rights.  With gating, the letters also give the
 * gating rights: a castling letter those of its partner's and its king's
 * squares, a file letter that of its square (not a castling right, while
 * the side may gate). */
static int read_castling(struct fen_in *in)
{
	const struct vc_variant *v = in->v;
	struct vc_position *p = in->p;
	for (const char *cs = in->castle_field; cs && *cs && *cs != ' ';) {
		const char *at = cs;
		char c = *cs++;
		int side = isupper((unsigned char)c) ? VC_WHITE : VC_BLACK;
		char uc = (char)toupper((unsigned char)c);
		int found = -1, psq = -1;
		for (int i = 0; i < v->ncastle; i++)
			if (v->castle[i].right == uc)
				found = i;
		if (found < 0 && first_right(p, side, uc))
			continue;
		if (found >= 0) {
			psq = castle_partner_scan(p, side, found);
			if (may_gate(p, side) && psq >= 0) {
				set_gate(p, side, psq % v->files);
				set_gate(p, side, vc_castler(p, side) % v->files);
			}
		} else if (uc >= 'A' && uc - 'A' < v->files && may_gate(p, side)) {
			set_gate(p, side, uc - 'A');
			continue;
		} else if (uc >= 'A' && uc - 'A' < v->files && vc_castler(p, side) >= 0) {
			/* a file letter: the partner on that file of the king's
			 * rank, on the side it stands */
			int k = vc_castler(p, side), kf = k % v->files, f = uc - 'A';
			for (int i = 0; i < v->ncastle; i++)
				if ((v->castle[i].partner % v->files > v->castle_king % v->files) ==
				    (f > kf))
					found = i;
			psq = vc_sq(v->files, f, k / v->files);
		}
		if (found < 0)
			return fen_err(in, at, "unknown castling right '%c'", c);
		if (psq >= 0)
			p->castle[side][found] = (int16_t)psq;
	}
	castle_from_gates(p);
	return 0;
}

/* castling rights must name a partner that stands there: a right without
 * its pieces is void */
static void void_lost_rights(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < v->ncastle; i++) {
			int sq = p->castle[c][i];
			if (sq < 0)
				continue;
			if (!p->board[sq] || vc_code_color(p->board[sq]) != c || vc_castler(p, c) < 0 ||
			    (v->castle_partners &&
			     !(v->castle_partners >> vc_code_type(p->board[sq]) & 1)))
				p->castle[c][i] = -1;
		}
}

/* en-passant targets no legal capture can use are dropped, as the writer
 * drops them: a string and what it reads to hash alike */
static void drop_idle_ep(struct vc_position *p)
{
	if (!p->nep)
		return;
	vc_move *mv = vc_scratch(VC_SCRATCH_FEN_READ_EP, VC_MAX_MOVES * 4 * sizeof *mv);
	int nm = mv ? vc_gen_legal(p, mv) : 0, any = !mv; /* out of memory: kept */
	for (int i = 0; i < nm && !any; i++)
		any = (mv[i].flags & VC_MF_EP) != 0;
	if (!any) {
		p->nep = 0;
		p->epvictim = -1;
		p->hash = vc_pos_compute_hash(p);
	}
}

/* Reads the fields in their order into a scratch position, so that out is
 * untouched by a string that does not read. */
vc_status vc_position_set_fen(struct vc_position *out, struct vc_ctx *ctx, const char *fen)
{
	struct fen_in in = { .ctx = ctx, .fen = fen, .s = fen, .v = out->v };
	struct vc_position *p = vc_calloc(1, sizeof *p);
	if (!p)
		return VC_FATAL;
	in.p = p;
	p->v = out->v;
	vc_pos_clear(p);
	skip_spaces(&in);
	if (read_board(&in) || read_hand_rank(&in) || read_reserves(&in) || read_side(&in)) {
		free(p);
		return VC_FAILED;
	}
	skip_castling(&in);
	if (read_ep(&in) || read_counters(&in) || read_castling(&in)) {
		free(p);
		return VC_FAILED;
	}
	void_lost_rights(p);
	if (p->v->rules & VC_R_KIRBY_DEATH)
		vc_pos_kirby_death(p, NULL); /* a position set up in that state starts so */
	p->hash = vc_pos_compute_hash(p);
	vc_position_copy(out, p);
	free(p);
	drop_idle_ep(out);
	if (in.move_zero)
		vc_emit(ctx, VC_SEV_WARNING, "fen-move-zero", NULL, 0, (long)(in.move_zero - fen) + 1,
			NULL, "move number 0 read as 1");
	return VC_OK;
}

static size_t put_symbol(const struct vc_variant *v, int t, int color, char *b)
{
	const char *sym = v->types[t].symbol;
	size_t n = strlen(sym), k = 0;
	int paren = n > 1 && !(n == 2 && sym[0] == '+'); /* "+P" as shogi writes it */
	if (paren)
		b[k++] = '(';
	for (size_t i = 0; i < n; i++)
		b[k++] = color == VC_BLACK ? (char)tolower((unsigned char)sym[i]) : sym[i];
	if (paren)
		b[k++] = ')';
	return k;
}

/* The first-move rights after the castling rights, as file letters of
 * the side's first rank, White's then Black's; 1 when there was one. */
static int put_first_rights(const struct vc_position *p, struct vc_buf *b)
{
	const struct vc_variant *v = p->v;
	int any = 0;
	if (!v->first_types)
		return 0;
	for (int c = 0; c < 2; c++)
		for (int f = 0; f < v->files; f++)
			if (p->sqf[vc_sq(v->files, f, c == VC_WHITE ? 0 : v->ranks - 1)] & VC_SQF_FIRST) {
				vc_buf_addc(b, (char)((c == VC_WHITE ? 'A' : 'a') + f));
				any = 1;
			}
	return any;
}

size_t vc_position_fen(const struct vc_position *p, char *buf, size_t n)
{
	const struct vc_variant *v = p->v;
	struct vc_buf b;
	char tmp[48]; /* a symbol is at most 5 bytes; room for -O3's vectorised copy */
	vc_buf_init(&b);
	for (int r = v->ranks - 1; r >= 0; r--) {
		int empty = 0;
		for (int f = 0; f < v->files; f++) {
			uint8_t code = p->board[vc_sq(v->files, f, r)];
			if (!code) {
				empty++;
				continue;
			}
			if (empty)
				vc_buf_printf(&b, "%d", empty);
			empty = 0;
			int c = vc_code_color(code);
			uint8_t fl = p->sqf[vc_sq(v->files, f, r)];
			int ld = vc_link_of(fl);
			if (ld && vc_link_dy(ld) > 0) {
				vc_buf_addc(&b, '='); /* its first square was written before */
				continue;
			}
			if (ld && vc_link_dy(ld) == 0 && vc_link_dx(ld) < 0) {
				vc_buf_addc(&b, '=');
				continue;
			}
			if (c == VC_NEUTRAL)
				vc_buf_addc(&b, '*');
			size_t k = put_symbol(v, vc_code_type(code), c == VC_NEUTRAL ? VC_WHITE : c, tmp);
			vc_buf_add(&b, tmp, k);
			if (ld) {
				/* east, south, south-east, south-west */
				int dx = vc_link_dx(ld);
				vc_buf_addc(&b, two_marks[vc_link_dy(ld) == 0 ? 0 : dx == 0 ? 1 : dx > 0 ? 2 : 3]);
			}
			/* a promoted piece's past matters only where a capture puts
			 * it into a hand as a pawn: elsewhere the string is plain
			 * FEN, which other programs read */
			if ((fl & VC_SQF_PROMOTED) && (v->rules & VC_R_CAPTURE_TO_HAND) &&
			    v->captured_promoted == VC_HAND_PAWN)
				vc_buf_addc(&b, '~');
			if (fl & VC_SQF_DEAD)
				vc_buf_addc(&b, '!');
		}
		if (empty)
			vc_buf_printf(&b, "%d", empty);
		if (r > 0)
			vc_buf_addc(&b, '/');
	}
	for (int area = 0; area < v->nreserve; area++) {
		vc_buf_addc(&b, '[');
		for (int c = 0; c < 2; c++)
			for (int t = 0; t < v->ntypes; t++)
				for (int k = 0; k < p->res[c][area][t]; k++) {
					int col = v->reserve[area].enemy ? c ^ 1 : c;
					size_t m = put_symbol(v, t, col, tmp);
					vc_buf_add(&b, tmp, m);
				}
		vc_buf_addc(&b, ']');
	}
	vc_buf_adds(&b, p->side ? " b " : " w ");
	int any = 0;
	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[c][i] >= 0) {
				char r = v->castle[i].right;
				if (v->castle_files || castle_partner_scan(p, c, i) != p->castle[c][i])
					r = (char)('A' + p->castle[c][i] % v->files);
				vc_buf_addc(&b, c ? (char)tolower((unsigned char)r) : r);
				any = 1;
			}
		/* gating rights after the side's castling, every one, as
		 * Fairy-Stockfish 11.1 writes them */
		for (int f = 0; f < v->files; f++)
			if (p->gates[c] >> f & 1) {
				vc_buf_addc(&b, (char)((c ? 'a' : 'A') + f));
				any = 1;
			}
	}
	any |= put_first_rights(p, &b);
	if (!any)
		vc_buf_addc(&b, '-');
	vc_buf_addc(&b, ' ');
	/* targets are written only when some legal capture there is possible,
	 * as python-chess does, so equal positions give equal strings */
	int show_ep = 0;
	if (p->nep) {
		vc_move *mv = vc_scratch(VC_SCRATCH_FEN_WRITE_EP, VC_MAX_MOVES * 4 * sizeof *mv);
		/* made and unmade: the position is unchanged */
		int nm = mv ? vc_gen_legal((struct vc_position *)p, mv) : 0;
		show_ep = !mv; /* out of memory: written, as the position holds them */
		for (int i = 0; i < nm && !show_ep; i++)
			show_ep = (mv[i].flags & VC_MF_EP) != 0;
	}
	if (p->count_limit) /* the count's limit stands for the target */
		vc_buf_printf(&b, "%d", (int)p->count_limit);
	else if (!show_ep)
		vc_buf_addc(&b, '-');
	for (int i = 0; !p->count_limit && show_ep && i < p->nep; i++) {
		if (i)
			vc_buf_addc(&b, ',');
		vc_square_name(v, p->ep[i], tmp);
		vc_buf_adds(&b, tmp);
	}
	if (v->end.checks) /* the checks still to give, as python-chess writes them */
		vc_buf_printf(&b, " %d+%d", v->end.checks - p->checks[VC_WHITE],
			      v->end.checks - p->checks[VC_BLACK]);
	/* and the plies counted for the half-move clock, as Fairy-Stockfish
	 * writes them */
	vc_buf_printf(&b, " %d %d", (int)(p->count_limit ? p->count_ply : p->halfmove),
		      (int)p->fullmove);
	if (p->ply != 2L * (p->fullmove - 1) + p->side)
		vc_buf_printf(&b, " ply %ld", p->ply);
	size_t len = b.len;
	if (n) {
		size_t k = len < n - 1 ? len : n - 1;
		if (b.p)
			memcpy(buf, b.p, k);
		buf[k] = 0;
	}
	vc_buf_free(&b);
	return len;
}
