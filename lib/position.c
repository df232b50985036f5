/*
 * position.c - positions: the board with its piece lists, reserves,
 * castling rights, en-passant targets, counters and a Zobrist hash; make
 * and unmake with a full undo record; position strings (man 5
 * vchess-position).
 *
 * Two-square pieces (walls) stand on both their squares, linked by the
 * squares' link bits (vc_int.h); a capture on either square takes both;
 * position strings write them with a mark and '=' (vchess-position(5)).
 *
 * Invariants: plist[c][pidx[sq]] == sq for every occupied square of colour
 * c; two[c] holds the anchor of each of c's two-square pieces, whose two
 * squares point at each other; king[c] is the square of c's royal piece or
 * -1; hash equals
 * vc_pos_compute_hash(); every make is undone by exactly one unmake, in
 * reverse order, restoring the position byte for byte in the fields above.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vc_int.h"

static inline uint64_t zkey(const struct vc_variant *v, uint8_t code, int sq)
{
	return v->zobrist[(size_t)code * (size_t)v->nsq + (size_t)sq];
}

/* The link bits of a square of a two-square piece: their hash key, and
 * the anchors' list (see vc_int.h). */
static void link_note(struct vc_position *p, int sq, int c, uint8_t flags, int add)
{
	int d = vc_link_of(flags);
	p->hash ^= p->v->zob_link[(size_t)sq * 8 + (size_t)(d - 1)];
	if (c > 1 || !vc_link_is_anchor(flags))
		return;
	if (add) {
		if (p->ntwo[c] < VC_MAXTWO)
			p->two[c][p->ntwo[c]++] = (int16_t)sq;
		return;
	}
	for (int i = 0; i < p->ntwo[c]; i++)
		if (p->two[c][i] == sq) {
			p->two[c][i] = p->two[c][--p->ntwo[c]];
			break;
		}
}

void vc_pos_put(struct vc_position *p, int sq, uint8_t code, uint8_t flags)
{
	int c = vc_code_color(code);
	p->board[sq] = code;
	p->sqf[sq] = flags;
	p->pidx[sq] = p->npl[c];
	p->plist[c][p->npl[c]++] = (int16_t)sq;
	p->hash ^= zkey(p->v, code, sq);
	if (flags & VC_SQF_LINKMASK)
		link_note(p, sq, c, flags, 1);
	if (c < 2 && (p->v->types[vc_code_type(code)].props & VC_P_ROYAL) && p->king[c] < 0)
		p->king[c] = (int16_t)sq;
}

void vc_pos_remove(struct vc_position *p, int sq)
{
	uint8_t code = p->board[sq];
	int c = vc_code_color(code);
	int i = p->pidx[sq];
	int last = p->plist[c][--p->npl[c]];
	p->plist[c][i] = (int16_t)last;
	p->pidx[last] = (int16_t)i;
	if (p->sqf[sq] & VC_SQF_LINKMASK)
		link_note(p, sq, c, p->sqf[sq], 0);
	p->board[sq] = VC_EMPTY;
	p->sqf[sq] = 0;
	p->hash ^= zkey(p->v, code, sq);
	if (c < 2 && p->king[c] == sq)
		p->king[c] = -1;
}

/* the other square of a two-square piece on sq with flags fl */
static inline int linked_square(const struct vc_variant *v, int sq, uint8_t fl)
{
	int d = vc_link_of(fl);
	return sq + vc_link_dx(d) + vc_link_dy(d) * v->files;
}

static inline int link_opposite(int d) { return (d + 3) % 8 + 1; }

/* moves a piece without touching the hash of anything but the piece */
static inline void move_piece(struct vc_position *p, int from, int to)
{
	uint8_t code = p->board[from];
	int c = vc_code_color(code);
	int i = p->pidx[from];
	p->plist[c][i] = (int16_t)to;
	p->pidx[to] = (int16_t)i;
	p->board[to] = code;
	p->sqf[to] = p->sqf[from];
	p->board[from] = VC_EMPTY;
	p->sqf[from] = 0;
	p->hash ^= zkey(p->v, code, from) ^ zkey(p->v, code, to);
	if (c < 2 && p->king[c] == from)
		p->king[c] = (int16_t)to;
}

uint64_t vc_pos_compute_hash(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	uint64_t h = 0;
	for (int sq = 0; sq < v->nsq; sq++)
		if (p->board[sq]) {
			h ^= zkey(v, p->board[sq], sq);
			if (p->sqf[sq] & VC_SQF_LINKMASK)
				h ^= v->zob_link[(size_t)sq * 8 + (size_t)(vc_link_of(p->sqf[sq]) - 1)];
		}
	if (p->side)
		h ^= v->zob_side;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[s][i] >= 0)
				h ^= v->zob_castle[s][i];
	for (int i = 0; i < p->nep; i++)
		h ^= v->zob_ep[p->ep[i]];
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < v->nreserve; r++)
			for (int t = 0; t < v->ntypes; t++)
				h ^= v->zob_res[s][r][t] * p->res[s][r][t];
	return h;
}

void vc_pos_clear(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	struct vc_undo *u = p->undo;
	int cap = p->capundo;
	memset(p, 0, sizeof *p);
	p->v = v;
	p->undo = u;
	p->capundo = cap;
	p->king[0] = p->king[1] = -1;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < VC_MAXCASTLE; i++)
			p->castle[s][i] = -1;
	p->epvictim = -1;
	p->fullmove = 1;
}

struct vc_position *vc_position_new(const struct vc_variant *v)
{
	struct vc_position *p = vc_calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->v = v;
	vc_pos_clear(p);
	vc_position_start(p);
	return p;
}

void vc_position_free(struct vc_position *p)
{
	if (!p)
		return;
	free(p->undo);
	free(p);
}

void vc_position_copy(struct vc_position *dst, const struct vc_position *src)
{
	struct vc_undo *u = dst->undo;
	int cap = dst->capundo;
	memcpy(dst, src, sizeof *dst);
	dst->undo = u;
	dst->capundo = cap;
	dst->nundo = 0;
}

void vc_position_start(struct vc_position *p)
{
	if (p->v->start_fen)
		vc_position_set_fen(p, NULL, p->v->start_fen);
	else
		vc_pos_clear(p);
}

const struct vc_variant *vc_position_variant(const struct vc_position *p) { return p->v; }
int vc_position_side(const struct vc_position *p) { return p->side; }
uint64_t vc_position_hash(const struct vc_position *p) { return p->hash; }
long vc_position_ply(const struct vc_position *p) { return p->ply; }
int vc_position_depth(const struct vc_position *p) { return p->nundo; }

int vc_position_piece_at(const struct vc_position *p, int sq, int *color)
{
	if (sq < 0 || sq >= p->v->nsq || !p->board[sq])
		return -1;
	if (color)
		*color = vc_code_color(p->board[sq]);
	return vc_code_type(p->board[sq]);
}

int vc_position_plies_to_transform(const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	if (!(v->rules & VC_R_SWAP_HALVES) || v->swap_period <= 0)
		return -1;
	long done = p->ply - v->swap_offset;
	long per = v->swap_period;
	long r = ((done % per) + per) % per;
	return (int)(per - r);
}

static void kirby_death(struct vc_position *p, struct vc_undo *u);

/* ---- position strings ---- */

/* The marks after the symbol of a two-square piece, on the square of it
 * that comes first in the string: where its other square is, which holds
 * '=': east (next square), south (below), south-east, south-west. */
static const char two_marks[] = ">|\\<";

static int fen_err(struct vc_ctx *ctx, const char *fen, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fen_err(struct vc_ctx *ctx, const char *fen, const char *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vc_vemit(ctx, VC_SEV_ERROR, "fen-invalid", NULL, 0, at ? (long)(at - fen) + 1 : 0, NULL,
		 fmt, ap);
	va_end(ap);
	return -1;
}

/* reads a piece symbol: a letter, or (XY) for a multi-letter one; colour
 * from the case.  Returns the type or -1. */
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
	} else
		return -1;
	sym[n] = 0;
	int upper = isupper((unsigned char)sym[0]), lower = islower((unsigned char)sym[0]);
	for (size_t i = 1; i < n; i++)
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
	int k = p->king[side];
	if (k < 0)
		return -1;
	if (v->rules & VC_R_SWAP_HALVES) {
		/* a right is its partner's start square, moved by the swaps done */
		int psq = v->castle[right].partner;
		if (side == VC_BLACK)
			psq = vc_sq(v->files, psq % v->files, v->ranks - 1 - psq / v->files);
		long done = p->ply - v->swap_offset;
		if (done >= 0 && (done / v->swap_period) % 2)
			psq = vc_sq(v->files, (psq % v->files + v->files / 2) % v->files, psq / v->files);
		uint8_t c = p->board[psq];
		if (c && vc_code_color(c) == side &&
		    (!v->castle_partners || (v->castle_partners >> vc_code_type(c) & 1)))
			return psq;
		return -1;
	}
	int home = side == VC_WHITE ? 0 : v->ranks - 1;
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

vc_status vc_position_set_fen(struct vc_position *out, struct vc_ctx *ctx, const char *fen)
{
	const struct vc_variant *v = out->v;
	struct vc_position *p = vc_calloc(1, sizeof *p);
	const char *s = fen;
	/* two-square pieces whose other square is still to come */
	struct {
		int partner, dir;
		uint8_t code, flags;
		const char *at;
	} pend[VC_MAXTWO];
	int npend = 0;
	if (!p)
		return VC_FATAL;
	p->v = v;
	vc_pos_clear(p);
	while (*s == ' ')
		s++;
	/* board */
	for (int r = v->ranks - 1; r >= 0; r--) {
		int f = 0;
		while (*s && *s != '/' && *s != ' ' && *s != '[') {
			if (isdigit((unsigned char)*s)) {
				const char *at = s;
				int n = 0;
				while (isdigit((unsigned char)*s)) {
					n = n * 10 + (*s++ - '0');
					if (n > VC_MAXF)
						n = VC_MAXF + 1; /* too many for any board: no overflow */
				}
				if (n == 0 || f + n > v->files) {
					fen_err(ctx, fen, at, "rank %d is longer than %d files", r + 1, v->files);
					goto bad;
				}
				f += n;
				continue;
			}
			const char *at = s;
			int neutral = 0, color;
			char sn[8];
			if (*s == '=') {
				/* the other square of a two-square piece written before */
				int sq = vc_sq(v->files, f, r), k;
				for (k = 0; k < npend; k++)
					if (pend[k].partner == sq)
						break;
				vc_square_name(v, sq, sn);
				if (f >= v->files) {
					fen_err(ctx, fen, at, "rank %d is longer than %d files", r + 1,
						v->files);
					goto bad;
				}
				if (k == npend) {
					fen_err(ctx, fen, at,
						"'=' on %s is not the other square of a two-square piece", sn);
					goto bad;
				}
				if (p->npl[vc_code_color(pend[k].code)] >= VC_MAXPL) {
					fen_err(ctx, fen, at, "too many pieces");
					goto bad;
				}
				vc_pos_put(p, sq, pend[k].code,
					   (uint8_t)(pend[k].flags |
						     vc_link_flags(link_opposite(pend[k].dir))));
				pend[k] = pend[--npend];
				s++;
				f++;
				continue;
			}
			if (*s == '*') {
				neutral = 1;
				s++;
			}
			int t = read_symbol(v, &s, &color);
			if (t < 0) {
				fen_err(ctx, fen, at, "unknown piece '%.*s' in the position string",
					*at == '(' ? (int)(strcspn(at, ")") + 1) : 1 + neutral, at);
				goto bad;
			}
			if (f >= v->files) {
				fen_err(ctx, fen, at, "rank %d is longer than %d files", r + 1, v->files);
				goto bad;
			}
			int sq = vc_sq(v->files, f, r), dir = 0;
			const char *mk = strchr(two_marks, *s);
			if (!(v->types[t].props & VC_P_TWOSQUARE)) {
				if (*s && mk) {
					fen_err(ctx, fen, s,
						"'%c' after '%.*s': only a two-square piece has a mark", *s,
						(int)(s - at), at);
					goto bad;
				}
			} else {
				/* the first square of a two-square piece, and a mark pointing to
				 * its other square, which comes later in the string */
				static const int8_t md[4][2] = { { 1, 0 }, { 0, -1 }, { 1, -1 }, { -1, -1 } };
				if (!*s || !mk) {
					fen_err(ctx, fen, s,
						"'%.*s' is a two-square piece: a mark (%s) must say where its "
						"other square is",
						(int)(s - at), at, two_marks);
					goto bad;
				}
				int k = (int)(mk - two_marks);
				int pf = f + md[k][0], pr = r + md[k][1];
				vc_square_name(v, sq, sn);
				if (pf < 0 || pf >= v->files || pr < 0) {
					fen_err(ctx, fen, s, "the other square of the piece on %s is off the board",
						sn);
					goto bad;
				}
				if (md[k][0] && md[k][1] && !(v->types[t].props & VC_P_DIAGSTANCE)) {
					fen_err(ctx, fen, s,
						"the piece on %s stands on two orthogonally adjacent squares, "
						"not diagonally",
						sn);
					goto bad;
				}
				if (neutral || npend >= VC_MAXTWO || p->ntwo[color] >= VC_MAXTWO) {
					fen_err(ctx, fen, at,
						neutral ? "a two-square piece cannot be neutral"
							: "too many two-square pieces");
					goto bad;
				}
				dir = vc_link_dir(md[k][0], md[k][1]);
				pend[npend].partner = vc_sq(v->files, pf, pr);
				pend[npend].dir = dir;
				pend[npend].at = at;
				s++;
			}
			uint8_t flags = 0;
			while (*s == '~' || *s == '!') {
				flags |= *s == '~' ? VC_SQF_PROMOTED : VC_SQF_DEAD;
				s++;
			}
			if (p->npl[neutral ? VC_NEUTRAL : color] >= VC_MAXPL) {
				fen_err(ctx, fen, at, "too many pieces");
				goto bad;
			}
			uint8_t code = vc_code(t, neutral ? VC_NEUTRAL : color);
			if (dir) {
				pend[npend].code = code;
				pend[npend].flags = flags;
				npend++;
				flags |= vc_link_flags(dir);
			}
			vc_pos_put(p, sq, code, flags);
			f++;
		}
		if (f != v->files) {
			fen_err(ctx, fen, s, "rank %d has %d files, not %d", r + 1, f, v->files);
			goto bad;
		}
		if (r > 0) {
			if (*s != '/') {
				fen_err(ctx, fen, s, "expected '/' after rank %d", r + 1);
				goto bad;
			}
			s++;
		}
	}
	if (npend) {
		char a[8], b[8];
		int sq = (int)(pend[0].partner - vc_link_dx(pend[0].dir) -
			       vc_link_dy(pend[0].dir) * v->files);
		vc_square_name(v, sq, a);
		vc_square_name(v, pend[0].partner, b);
		fen_err(ctx, fen, pend[0].at,
			"the two-square piece on %s needs '=' on its other square, %s", a, b);
		goto bad;
	}
	/* a hand written as a ninth rank ("/Qn"), as some crazyhouse strings do */
	if (*s == '/' && v->nreserve > 0) {
		s++;
		while (*s && *s != ' ') {
			const char *at = s;
			int color;
			int t = read_symbol(v, &s, &color);
			if (t < 0) {
				fen_err(ctx, fen, at, "unknown piece '%c' in a reserve", *at);
				goto bad;
			}
			if (p->res[color][0][t] == 255) {
				fen_err(ctx, fen, at, "more than 255 pieces of one kind in a reserve");
				goto bad;
			}
			p->res[color][0][t]++;
		}
	}
	/* reserves: one bracket per declared area */
	for (int area = 0; *s == '['; area++) {
		const char *open = s++;
		if (area >= v->nreserve && v->nreserve > 0) {
			fen_err(ctx, fen, open, "this variant has %d reserve area%s", v->nreserve,
				v->nreserve == 1 ? "" : "s");
			goto bad;
		}
		while (*s && *s != ']') {
			const char *at = s;
			int color;
			int t = read_symbol(v, &s, &color);
			if (t < 0) {
				fen_err(ctx, fen, at, "unknown piece '%c' in a reserve", *at);
				goto bad;
			}
			if (v->nreserve == 0)
				continue; /* a variant without reserves reads "[]" and ignores it */
			/* a prison's letters give its prisoners' colour: it is the
			 * other side's prison */
			int owner = v->reserve[area].enemy ? color ^ 1 : color;
			if (p->res[owner][area][t] == 255) {
				fen_err(ctx, fen, at, "more than 255 pieces of one kind in a reserve");
				goto bad;
			}
			p->res[owner][area][t]++;
		}
		if (*s != ']') {
			fen_err(ctx, fen, open, "reserve '[' is never closed");
			goto bad;
		}
		s++;
	}
	/* the rest are optional, defaults w - - 0 1 */
	while (*s == ' ')
		s++;
	if (*s) {
		if (*s == 'w' || *s == 'W')
			p->side = VC_WHITE;
		else if (*s == 'b' || *s == 'B')
			p->side = VC_BLACK;
		else {
			fen_err(ctx, fen, s, "side to move must be 'w' or 'b'");
			goto bad;
		}
		s++;
	}
	while (*s == ' ')
		s++;
	/* castling rights are read once the ply count is known: where a
	 * partner stands may depend on the board transformations done so far */
	const char *castle_field = NULL;
	if (*s) {
		if (*s == '-')
			s++;
		else {
			castle_field = s;
			while (*s && *s != ' ')
				s++;
		}
	}
	while (*s == ' ')
		s++;
	if (*s) {
		if (*s == '-')
			s++;
		else {
			while (*s && *s != ' ') {
				const char *at = s;
				int used;
				int sq = vc_square_parse(v, s, &used);
				if (sq < 0 || p->nep >= VC_MAXEP) {
					fen_err(ctx, fen, at, "bad en-passant square '%.*s'",
						(int)strcspn(at, " ,"), at);
					goto bad;
				}
				p->ep[p->nep++] = (int16_t)sq;
				s += used;
				if (*s == ',')
					s++;
			}
			/* the victim stands one step beyond the target nearest to it */
			int dir = p->side == VC_WHITE ? -1 : 1;
			int near = p->ep[0];
			for (int i = 1; i < p->nep; i++)
				if ((p->ep[i] / v->files - near / v->files) * dir > 0)
					near = p->ep[i];
			int vr = near / v->files + dir;
			p->epvictim = (int16_t)(vr >= 0 && vr < v->ranks ? near + dir * v->files : -1);
		}
	}
	while (*s == ' ')
		s++;
	long num;
	if (*s) {
		if (!read_count(&s, 0, 100000000, &num)) {
			fen_err(ctx, fen, s, "half-move clock must be a number from 0 to 100000000");
			goto bad;
		}
		p->halfmove = (int32_t)num;
	}
	while (*s == ' ')
		s++;
	if (*s) {
		if (!read_count(&s, 1, 100000000, &num)) {
			fen_err(ctx, fen, s, "move number must be a positive number");
			goto bad;
		}
		p->fullmove = (int32_t)num;
	}
	p->ply = 2L * (p->fullmove - 1) + p->side;
	while (*s == ' ')
		s++;
	/* optional "ply N": plies already played, for scheduled transformations */
	if (!strncmp(s, "ply ", 4)) {
		const char *at = s;
		s += 4;
		if (!read_count(&s, 0, 1000000000, &num)) {
			fen_err(ctx, fen, at, "'ply' needs a number from 0 to 1000000000");
			goto bad;
		}
		p->ply = num;
		while (*s == ' ')
			s++;
	}
	if (*s) {
		fen_err(ctx, fen, s, "unexpected text '%s' at the end of the position string", s);
		goto bad;
	}
	for (const char *cs = castle_field; cs && *cs && *cs != ' ';) {
		const char *at = cs;
		char c = *cs++;
		int side = isupper((unsigned char)c) ? VC_WHITE : VC_BLACK;
		char uc = (char)toupper((unsigned char)c);
		int found = -1, psq = -1;
		for (int i = 0; i < v->ncastle; i++)
			if (v->castle[i].right == uc)
				found = i;
		if (found >= 0) {
			psq = castle_partner_scan(p, side, found);
		} else if (uc >= 'A' && uc - 'A' < v->files && p->king[side] >= 0) {
			/* Shredder / X-FEN file letter: the partner on that file of
			 * the king's rank, on the side it stands */
			int kf = p->king[side] % v->files, f = uc - 'A';
			for (int i = 0; i < v->ncastle; i++)
				if ((v->castle[i].partner % v->files > v->castle_king % v->files) ==
				    (f > kf))
					found = i;
			psq = vc_sq(v->files, f, p->king[side] / v->files);
		}
		if (found < 0) {
			fen_err(ctx, fen, at, "unknown castling right '%c'", c);
			goto bad;
		}
		if (psq >= 0)
			p->castle[side][found] = (int16_t)psq;
	}
	/* castling rights must name a partner that stands there */
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < v->ncastle; i++) {
			int sq = p->castle[c][i];
			if (sq < 0)
				continue;
			if (!p->board[sq] || vc_code_color(p->board[sq]) != c || p->king[c] < 0 ||
			    (v->castle_partners &&
			     !(v->castle_partners >> vc_code_type(p->board[sq]) & 1)))
				p->castle[c][i] = -1; /* a right without its pieces is void */
		}
	if (v->rules & VC_R_KIRBY_DEATH)
		kirby_death(p, NULL); /* a position set up in that state starts so */
	p->hash = vc_pos_compute_hash(p);
	{
		struct vc_undo *u = out->undo;
		int cap = out->capundo;
		memcpy(out, p, sizeof *p);
		out->undo = u;
		out->capundo = cap;
		out->nundo = 0;
	}
	free(p);
	/* en-passant targets no legal capture can use are dropped, as the
	 * writer drops them: a string and what it reads to hash alike */
	if (out->nep) {
		static __thread vc_move mv[VC_MAX_MOVES * 4];
		int nm = vc_gen_legal(out, mv), any = 0;
		for (int i = 0; i < nm && !any; i++)
			any = (mv[i].flags & VC_MF_EP) != 0;
		if (!any) {
			out->nep = 0;
			out->epvictim = -1;
			out->hash = vc_pos_compute_hash(out);
		}
	}
	return VC_OK;
bad:
	free(p);
	return VC_FAILED;
}

static size_t put_symbol(const struct vc_variant *v, int t, int color, char *b)
{
	const char *sym = v->types[t].symbol;
	size_t n = strlen(sym), k = 0;
	if (n > 1)
		b[k++] = '(';
	for (size_t i = 0; i < n; i++)
		b[k++] = color == VC_BLACK ? (char)tolower((unsigned char)sym[i]) : sym[i];
	if (n > 1)
		b[k++] = ')';
	return k;
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
			if (fl & VC_SQF_PROMOTED)
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
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[c][i] >= 0) {
				char r = v->castle[i].right;
				if (castle_partner_scan(p, c, i) != p->castle[c][i])
					r = (char)('A' + p->castle[c][i] % v->files);
				vc_buf_addc(&b, c ? (char)tolower((unsigned char)r) : r);
				any = 1;
			}
	if (!any)
		vc_buf_addc(&b, '-');
	vc_buf_addc(&b, ' ');
	/* targets are written only when some legal capture there is possible,
	 * as python-chess does, so equal positions give equal strings */
	int show_ep = 0;
	if (p->nep) {
		static __thread vc_move mv[VC_MAX_MOVES * 4];
		/* made and unmade: the position is unchanged */
		int nm = vc_gen_legal((struct vc_position *)p, mv);
		for (int i = 0; i < nm && !show_ep; i++)
			show_ep = (mv[i].flags & VC_MF_EP) != 0;
	}
	if (!show_ep)
		vc_buf_addc(&b, '-');
	for (int i = 0; show_ep && i < p->nep; i++) {
		if (i)
			vc_buf_addc(&b, ',');
		vc_square_name(v, p->ep[i], tmp);
		vc_buf_adds(&b, tmp);
	}
	vc_buf_printf(&b, " %d %d", (int)p->halfmove, (int)p->fullmove);
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

/* ---- make and unmake ---- */

/* Changes a reserve count, keeping the hash and the undo record. */
static void res_add(struct vc_position *p, struct vc_undo *u, int side, int area, int t, int d)
{
	uint64_t z = p->v->zob_res[side][area][t];
	p->hash ^= z * p->res[side][area][t];
	p->res[side][area][t] = (uint8_t)(p->res[side][area][t] + d);
	p->hash ^= z * p->res[side][area][t];
	if (u->nreschg < VC_NELEM(u->reschg)) {
		u->reschg[u->nreschg][0] = (int8_t)side;
		u->reschg[u->nreschg][1] = (int8_t)area;
		u->reschg[u->nreschg][2] = (int8_t)t;
		u->reschg[u->nreschg][3] = (int8_t)d;
		u->nreschg++;
	}
}

/* SC-Chess exchange: while both prisons hold a piece of one kind, each goes
 * to its owner's airfield (area 0; the prison is area 1). */
static void exchange_prisoners(struct vc_position *p, struct vc_undo *u)
{
	const struct vc_variant *v = p->v;
	for (int again = 1; again;) {
		again = 0;
		for (int t = 0; t < v->ntypes; t++)
			while (p->res[VC_WHITE][1][t] && p->res[VC_BLACK][1][t]) {
				res_add(p, u, VC_WHITE, 1, t, -1); /* a black piece leaves White's prison */
				res_add(p, u, VC_BLACK, 0, t, 1);
				res_add(p, u, VC_BLACK, 1, t, -1);
				res_add(p, u, VC_WHITE, 0, t, 1);
				again = 1;
			}
	}
}

/* The Kirby death rule: a side with nothing left but royal pieces, pieces
 * that die alone (Kirbies) and walls (immobile and uncapturable) loses its
 * Kirbies for good: they stay as obstacles, flagged dead.  u may be NULL
 * (a position being set up). */
static void kirby_death(struct vc_position *p, struct vc_undo *u)
{
	const struct vc_variant *v = p->v;
	for (int c = 0; c < 2; c++) {
		int others = 0, kirbies = 0;
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = p->plist[c][i];
			unsigned props = v->types[vc_code_type(p->board[sq])].props;
			if (props & VC_P_DIES_ALONE) {
				kirbies += !(p->sqf[sq] & VC_SQF_DEAD);
				continue;
			}
			if ((props & VC_P_ROYAL) ||
			    (props & (VC_P_IMMOBILE | VC_P_UNCAPTURABLE)) ==
				    (VC_P_IMMOBILE | VC_P_UNCAPTURABLE))
				continue;
			others++;
		}
		if (others || !kirbies)
			continue;
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = p->plist[c][i];
			if (!(v->types[vc_code_type(p->board[sq])].props & VC_P_DIES_ALONE) ||
			    (p->sqf[sq] & VC_SQF_DEAD))
				continue;
			if (u && u->nchg < VC_NELEM(u->chgsq)) {
				u->chgsq[u->nchg] = (int16_t)sq;
				u->chgold[u->nchg][0] = p->board[sq];
				u->chgold[u->nchg][1] = p->sqf[sq];
				u->nchg++;
			}
			p->sqf[sq] |= VC_SQF_DEAD;
		}
	}
}

/* Takes the piece on sq off the board, both squares of a two-square one,
 * keeping them in the undo record. */
static void capture_two(struct vc_position *p, struct vc_undo *u, int sq)
{
	int sqs[2] = { sq, -1 };
	if (p->sqf[sq] & VC_SQF_LINKMASK)
		sqs[1] = linked_square(p->v, sq, p->sqf[sq]);
	for (int k = 0; k < 2 && sqs[k] >= 0; k++) {
		if (u->nx < VC_NELEM(u->xsq)) {
			u->xsq[u->nx] = (int16_t)sqs[k];
			u->xold[u->nx][0] = p->board[sqs[k]];
			u->xold[u->nx][1] = p->sqf[sqs[k]];
			u->nx++;
		}
		vc_pos_remove(p, sqs[k]);
	}
}

static int grow_undo(struct vc_position *p)
{
	int nc = p->capundo ? p->capundo * 2 : 64;
	struct vc_undo *nu = realloc(p->undo, (size_t)nc * sizeof *nu);
	if (!nu)
		return -1;
	p->undo = nu;
	p->capundo = nc;
	return 0;
}

static void swap_halves(struct vc_position *p);

/* Returns 0, or -1 when out of memory (nothing changed). */
int vc_pos_make(struct vc_position *p, const vc_move *m)
{
	const struct vc_variant *v = p->v;
	if (p->nundo == p->capundo && grow_undo(p) != 0)
		return -1;
	struct vc_undo *u = &p->undo[p->nundo++];
	int side = p->side, them = side ^ 1;
	/* any castling right left?  (all -1 is all bits set) */
	uint64_t cw[2];
	_Static_assert(sizeof p->castle == sizeof cw, "castling rights are 16 bytes");
	memcpy(cw, p->castle, sizeof cw);
	int live = v->ncastle && (cw[0] & cw[1]) != ~0ULL;
	u->m = *m;
	u->captured = 0;
	u->capflags = 0;
	u->capsq = -1;
	u->king[0] = p->king[0];
	u->king[1] = p->king[1];
	memcpy(u->castle, p->castle, sizeof u->castle);
	memcpy(u->ep, p->ep, sizeof u->ep);
	u->nep = p->nep;
	u->epvictim = p->epvictim;
	u->halfmove = p->halfmove;
	u->hash = p->hash;
	u->nreschg = 0;
	u->nchg = 0;
	u->nx = 0;
	u->xsrc_flags = 0;
	u->swapped = 0;

	for (int i = 0; i < p->nep; i++)
		p->hash ^= v->zob_ep[p->ep[i]];
	p->nep = 0;
	p->epvictim = -1;
	p->halfmove++;

	if (m->flags & VC_MF_NULL) {
		/* a pass: nothing moves */
	} else if (m->flags & VC_MF_DROP) {
		res_add(p, u, side, m->extra, m->piece, -1);
		vc_pos_put(p, m->to, vc_code(m->piece, side), 0);
		if (v->types[m->piece].props & VC_P_PAWN)
			p->halfmove = 0;
	} else if (m->flags & VC_MF_WALL) {
		/* a two-square piece: lifted off both squares, its new squares
		 * emptied (each capture takes a whole two-square victim), then put
		 * down, promoted if either new square is in its zone */
		int a = m->from, b = m->from2, dest[2] = { m->to, m->to2 };
		uint8_t code = p->board[a];
		uint8_t keep = p->sqf[a] & (uint8_t)~VC_SQF_LINKMASK;
		u->twoflags[0] = p->sqf[a];
		u->twoflags[1] = p->sqf[b];
		vc_pos_remove(p, a);
		vc_pos_remove(p, b);
		for (int k = 0; k < 2; k++)
			if (p->board[dest[k]]) {
				capture_two(p, u, dest[k]);
				p->halfmove = 0;
			}
		if (m->promo) {
			code = vc_code(m->promo - 1, side);
			keep |= VC_SQF_PROMOTED;
		}
		int d = vc_link_dir(m->to2 % v->files - m->to % v->files,
				    m->to2 / v->files - m->to / v->files);
		vc_pos_put(p, m->to, code, (uint8_t)(keep | vc_link_flags(d)));
		vc_pos_put(p, m->to2, code, (uint8_t)(keep | vc_link_flags(link_opposite(d))));
		if (live)
			for (int c = 0; c < 2; c++)
				for (int i = 0; i < v->ncastle; i++)
					if (p->castle[c][i] == m->to || p->castle[c][i] == m->to2)
						p->castle[c][i] = -1;
	} else if (m->flags & VC_MF_CASTLE) {
		int ksq = m->from, rsq = m->aux;
		uint8_t kc = p->board[ksq], rc = p->board[rsq];
		uint8_t kf = p->sqf[ksq], rf = p->sqf[rsq];
		u->captured = rc; /* the partner as it was, for unmake */
		u->capflags = rf;
		vc_pos_remove(p, ksq);
		vc_pos_remove(p, rsq);
		vc_pos_put(p, m->to, kc, kf);
		int rt = vc_code_type(rc);
		int becomes = v->castle[m->extra].becomes;
		if (becomes >= 0)
			rt = becomes;
		vc_pos_put(p, m->to2, vc_code(rt, side), rf);
		for (int i = 0; i < v->ncastle; i++)
			p->castle[side][i] = -1;
	} else {
		int from = m->from, to = m->to;
		uint8_t mover = p->board[from];
		int mt = vc_code_type(mover);
		u->movedflags = p->sqf[from];
		int capsq = (m->flags & VC_MF_EP) ? u->epvictim : to;
		if (capsq >= 0 && p->board[capsq]) {
			u->captured = p->board[capsq];
			u->capflags = p->sqf[capsq];
			u->capsq = (int16_t)capsq;
			vc_pos_remove(p, capsq);
			if (u->capflags & VC_SQF_LINKMASK) {
				/* a two-square piece taken through one square: the other too */
				int o = linked_square(v, capsq, u->capflags);
				u->xsq[0] = (int16_t)o;
				u->xold[0][0] = p->board[o];
				u->xold[0][1] = p->sqf[o];
				u->nx = 1;
				vc_pos_remove(p, o);
			}
			p->halfmove = 0;
			int ct = vc_code_type(u->captured);
			if (v->rules & VC_R_CAPTURE_TO_HAND) {
				if ((u->capflags & VC_SQF_PROMOTED) && v->pawn_type >= 0)
					ct = v->pawn_type;
				res_add(p, u, side, 0, ct, 1);
			} else if (v->rules & VC_R_PRISON) {
				/* an enemy to the captor's prison, an own piece to the
				 * owner's airfield */
				if (vc_code_color(u->captured) == side)
					res_add(p, u, side, 0, ct, 1);
				else
					res_add(p, u, side, 1, ct, 1);
			}
		}
		move_piece(p, from, to);
		if (v->types[mt].props & VC_P_PAWN)
			p->halfmove = 0;
		if (m->flags & VC_MF_XPROMO) {
			/* promotion by exchange: the pawn and one of its side's pieces
			 * trade places; aux: a square, -2 the airfield, -3 the enemy
			 * prison */
			int pt = m->promo - 1, pawn = mt;
			vc_pos_remove(p, to);
			if (m->aux >= 0) {
				u->xsrc_flags = p->sqf[m->aux];
				vc_pos_remove(p, m->aux);
				vc_pos_put(p, m->aux, vc_code(pawn, side), 0);
				/* a castling partner that leaves its square loses its right */
				for (int i = 0; i < v->ncastle; i++)
					if (p->castle[side][i] == m->aux)
						p->castle[side][i] = -1;
			} else if (m->aux == -2) {
				res_add(p, u, side, 0, pt, -1);
				res_add(p, u, side, 0, pawn, 1);
			} else {
				res_add(p, u, side ^ 1, 1, pt, -1);
				res_add(p, u, side ^ 1, 1, pawn, 1);
			}
			vc_pos_put(p, to, vc_code(pt, side), 0);
		} else if (m->promo) {
			int pt = m->promo - 1;
			/* a vampire's change of type is no promotion (nothing to undo
			 * when it is captured) */
			uint8_t fl = (m->flags & VC_MF_PROMO) ? p->sqf[to] | VC_SQF_PROMOTED : p->sqf[to];
			vc_pos_remove(p, to);
			vc_pos_put(p, to, vc_code(pt, side), fl);
		}
		if (v->rules & VC_R_PRISON)
			exchange_prisoners(p, u);
		/* castling rights: a king move loses all, a partner's move or capture
		 * loses its own */
		if (live) {
			if (p->king[side] == to && (v->types[mt].props & VC_P_ROYAL)) {
				for (int i = 0; i < v->ncastle; i++)
					p->castle[side][i] = -1;
			}
			for (int c = 0; c < 2; c++)
				for (int i = 0; i < v->ncastle; i++)
					if (p->castle[c][i] == from || p->castle[c][i] == to)
						p->castle[c][i] = -1;
		}
		/* a multi-square step that can be taken en passant leaves its
		 * crossed squares as targets */
		if ((m->flags & VC_MF_DOUBLE) && (v->rules & VC_R_EP)) {
			int ff = from % v->files, fr = from / v->files;
			int tf = to % v->files, tr = to / v->files;
			int dx = (tf > ff) - (tf < ff), dy = (tr > fr) - (tr < fr);
			int f = ff + dx, r = fr + dy;
			while ((f != tf || r != tr) && p->nep < VC_MAXEP) {
				int sq = vc_sq(v->files, f, r);
				p->ep[p->nep++] = (int16_t)sq;
				p->hash ^= v->zob_ep[sq];
				f += dx;
				r += dy;
			}
			p->epvictim = (int16_t)to;
		}
	}
	/* castling rights hash: the difference */
	if (live)
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < v->ncastle; i++)
				if ((u->castle[c][i] >= 0) != (p->castle[c][i] >= 0))
					p->hash ^= v->zob_castle[c][i];
	(void)them;
	p->side ^= 1;
	p->hash ^= v->zob_side;
	if (side == VC_BLACK)
		p->fullmove++;
	p->ply++;
	if ((v->rules & VC_R_SWAP_HALVES) && vc_position_plies_to_transform(p) == v->swap_period) {
		swap_halves(p);
		u->swapped = 1;
	}
	if (v->rules & VC_R_KIRBY_DEATH)
		kirby_death(p, u);
	return 0;
}

void vc_pos_unmake(struct vc_position *p)
{
	struct vc_undo *u = &p->undo[--p->nundo];
	const vc_move *m = &u->m;
	for (int i = u->nchg - 1; i >= 0; i--)
		p->sqf[u->chgsq[i]] = u->chgold[i][1];
	if (u->swapped)
		swap_halves(p);
	p->side ^= 1;
	p->ply--;
	int side = p->side;
	if (side == VC_BLACK)
		p->fullmove--;
	if (m->flags & VC_MF_NULL) {
	} else if (m->flags & VC_MF_DROP) {
		vc_pos_remove(p, m->to);
	} else if (m->flags & VC_MF_WALL) {
		uint8_t code = vc_code(m->piece, side);
		vc_pos_remove(p, m->to);
		vc_pos_remove(p, m->to2);
		for (int i = u->nx - 1; i >= 0; i--)
			vc_pos_put(p, u->xsq[i], u->xold[i][0], u->xold[i][1]);
		vc_pos_put(p, m->from, code, u->twoflags[0]);
		vc_pos_put(p, m->from2, code, u->twoflags[1]);
	} else if (m->flags & VC_MF_CASTLE) {
		uint8_t kc = p->board[m->to], rc = p->board[m->to2];
		uint8_t kf = p->sqf[m->to], rf = p->sqf[m->to2];
		vc_pos_remove(p, m->to);
		vc_pos_remove(p, m->to2);
		vc_pos_put(p, m->from, kc, kf);
		vc_pos_put(p, m->aux, u->captured, u->capflags);
		(void)rc;
		(void)rf;
	} else {
		if (m->promo) {
			if ((m->flags & VC_MF_XPROMO) && m->aux >= 0) {
				vc_pos_remove(p, m->aux);
				vc_pos_put(p, m->aux, vc_code(m->promo - 1, side), u->xsrc_flags);
			}
			vc_pos_remove(p, m->to);
			vc_pos_put(p, m->to, vc_code(m->piece, side), u->movedflags);
		}
		move_piece(p, m->to, m->from);
		p->sqf[m->from] = u->movedflags;
		if (u->captured) {
			vc_pos_put(p, u->capsq, u->captured, u->capflags);
			/* the other square of a two-square piece taken */
			for (int i = u->nx - 1; i >= 0; i--)
				vc_pos_put(p, u->xsq[i], u->xold[i][0], u->xold[i][1]);
		}
	}
	for (int i = u->nreschg - 1; i >= 0; i--)
		p->res[u->reschg[i][0]][u->reschg[i][1]][u->reschg[i][2]] =
			(uint8_t)(p->res[u->reschg[i][0]][u->reschg[i][1]][u->reschg[i][2]] -
				  u->reschg[i][3]);
	memcpy(p->castle, u->castle, sizeof u->castle);
	memcpy(p->ep, u->ep, sizeof u->ep);
	p->nep = u->nep;
	p->epvictim = u->epvictim;
	p->halfmove = u->halfmove;
	p->king[0] = u->king[0];
	p->king[1] = u->king[1];
	p->hash = u->hash;
}

/* Schizochess: files k and k + files/2 trade places; castling partners and
 * en-passant targets travel with their squares.  Its own inverse. */
static void swap_halves(struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	int half = v->files / 2;
	uint8_t nb[VC_MAXSQ] = { 0 }, nf[VC_MAXSQ] = { 0 };
	int map[VC_MAXSQ] = { 0 };
	for (int sq = 0; sq < v->nsq; sq++) {
		int f = sq % v->files, r = sq / v->files;
		map[sq] = vc_sq(v->files, (f + half) % v->files, r);
	}
	for (int sq = 0; sq < v->nsq; sq++) {
		nb[map[sq]] = p->board[sq];
		nf[map[sq]] = p->sqf[sq];
	}
	memcpy(p->board, nb, (size_t)v->nsq);
	memcpy(p->sqf, nf, (size_t)v->nsq);
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = map[p->plist[c][i]];
			p->plist[c][i] = (int16_t)sq;
			p->pidx[sq] = (int16_t)i;
		}
	for (int c = 0; c < 2; c++) {
		if (p->king[c] >= 0)
			p->king[c] = (int16_t)map[p->king[c]];
		for (int i = 0; i < v->ncastle; i++)
			if (p->castle[c][i] >= 0)
				p->castle[c][i] = (int16_t)map[p->castle[c][i]];
	}
	uint64_t h = p->hash;
	for (int i = 0; i < p->nep; i++) {
		h ^= v->zob_ep[p->ep[i]];
		p->ep[i] = (int16_t)map[p->ep[i]];
		h ^= v->zob_ep[p->ep[i]];
	}
	if (p->epvictim >= 0)
		p->epvictim = (int16_t)map[p->epvictim];
	(void)h;
	p->hash = vc_pos_compute_hash(p);
}

void vc_position_make(struct vc_position *p, const vc_move *m) { (void)vc_pos_make(p, m); }
void vc_position_unmake(struct vc_position *p)
{
	if (p->nundo > 0)
		vc_pos_unmake(p);
}
