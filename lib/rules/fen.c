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
						     vc_link_flags(vc_link_opposite(pend[k].dir))));
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
		vc_pos_kirby_death(p, NULL); /* a position set up in that state starts so */
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
