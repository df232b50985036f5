/*
 * archive/select_pos.c - the terms of a selection that look at the
 * positions of a game's main line (vchess-convert(1) SELECTING GAMES):
 * position= and final= (a position string, or a pattern), material= and
 * material>= (the pieces on the board), moves= (the first moves of the
 * game), and how the game ended (checkmate, stalemate, ended, end=KIND).
 *
 * Model: a term is read once into a form that knows no variant: a pattern
 * is a list of tokens of a square each (a piece by its symbol and colour,
 * an empty square, any piece, a run of any squares) with the ends of the
 * ranks between them; a material signature is a list of symbols with
 * counts; a move sequence is the texts of its moves.  When a game is
 * matched, its variant turns symbols into piece types, in memory of that
 * call, so that several threads may match with one selection at once.
 * One walk over the main line (vc_replay_walk) then decides every term of
 * the selection: a term about any position holds as soon as one position
 * matches, moves= is decided move by move, and final= and the end terms
 * look at the last position, only when the whole main line was replayed.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/vc_archive.h"

enum sp_kind { SP_POSITION, SP_FINAL, SP_MATERIAL, SP_MATERIAL_GE, SP_MOVES, SP_END };

/* A square of a pattern, or the end of a rank. */
enum { TK_EMPTY, TK_ANY, TK_RUN, TK_PIECE, TK_RANK };
struct tok {
	uint8_t k;
	uint8_t color; /* TK_PIECE: VC_WHITE (White or neutral) or VC_BLACK */
	char sym[4];   /* TK_PIECE: the symbol as written */
};

/* A symbol of a material signature and how many of it. */
struct msym {
	char sym[4];
	uint8_t color;
	long count;
};

struct vc_sel_pos {
	enum sp_kind kind;
	struct tok *tok; /* SP_POSITION, SP_FINAL */
	size_t ntok;
	int nranks, side; /* side to move: -1 either */
	struct msym *mat; /* SP_MATERIAL, SP_MATERIAL_GE */
	size_t nmat;
	char *text; /* SP_MOVES: the moves' texts, one blank between two */
	size_t *mv; /* offset and length of each move in text: [2 * i], [2 * i + 1] */
	size_t nmv;
	int end;         /* SP_END: a VC_END_*, or -1 for any end */
	char region[32]; /* SP_END, VC_END_REGION: the region's name, or "" for any */
};

void vc_sel_pos_free(struct vc_sel_pos *t)
{
	if (!t)
		return;
	free(t->tok);
	free(t->mat);
	free(t->text);
	free(t->mv);
	free(t);
}

/* ---- reading ---- */

int vc_select_fail(struct vc_select_error *err, size_t at, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	err->col = at + 1;
	return -1;
}

static int add_tok(struct vc_sel_pos *t, size_t *cap, struct tok k)
{
	if (t->ntok == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct tok *n = realloc(t->tok, nc * sizeof *n);
		if (!n)
			return -1;
		t->tok = n;
		*cap = nc;
	}
	t->tok[t->ntok++] = k;
	return 0;
}

/* A piece symbol at *sp: a letter, '+' and a letter (shogi's promoted
 * pieces), or two or three letters of one case in parentheses, as position
 * strings write them.  0 and the symbol and its
 * colour, *sp past it; -1 with *sp at the fault. */
static int read_sym(const char **sp, char sym[4], uint8_t *color)
{
	const char *s = *sp;
	size_t n = 0;
	if (*s == '(') {
		s++;
		while (isalpha((unsigned char)*s) && n < 3)
			sym[n++] = *s++;
		if (*s != ')' || n < 2) {
			*sp = s;
			return -1;
		}
		s++;
	} else if (isalpha((unsigned char)*s)) {
		sym[n++] = *s++;
	} else if (*s == '+' && isalpha((unsigned char)s[1])) {
		sym[n++] = *s++;
		sym[n++] = *s++;
	} else {
		return -1;
	}
	sym[n] = 0;
	size_t i0 = sym[0] == '+';
	for (size_t i = i0 + 1; i < n; i++)
		if (!isupper((unsigned char)sym[i]) != !isupper((unsigned char)sym[i0])) {
			*sp = *sp + 1 + i;
			return -1;
		}
	*color = isupper((unsigned char)sym[i0]) ? VC_WHITE : VC_BLACK;
	*sp = s;
	return 0;
}

/* A number of empty squares at *sp: the count, *sp past it; -1 when it is
 * 0 or longer than any rank. */
static long read_run(const char **sp)
{
	long n = 0;
	while (isdigit((unsigned char)**sp)) {
		n = n * 10 + (*(*sp)++ - '0');
		if (n > VC_MAXF)
			n = VC_MAXF + 1;
	}
	return n < 1 || n > VC_MAXF ? -1 : n;
}

/* The board of a pattern, up to a blank, a '[' or the end. */
static int read_board(struct vc_sel_pos *t, const char *expr, const char **sp,
		      struct vc_select_error *err)
{
	const char *s = *sp;
	size_t cap = 0;
	t->nranks = 1;
	while (*s && *s != ' ' && *s != '\t' && *s != '[') {
		const char *at = s;
		struct tok k = { TK_EMPTY, 0, "" };
		int ok = 0;
		if (isdigit((unsigned char)*s)) {
			long n = read_run(&s);
			if (n < 0)
				return vc_select_fail(err, (size_t)(at - expr),
					     "expected a number of empty squares from 1 to %d",
					     VC_MAXF);
			while (n-- > 0 && (ok = add_tok(t, &cap, k)) == 0)
				;
		} else if (*s == '(' || isalpha((unsigned char)*s) ||
			   (*s == '+' && isalpha((unsigned char)s[1]))) {
			k.k = TK_PIECE;
			if (read_sym(&s, k.sym, &k.color) < 0)
				return vc_select_fail(err, (size_t)(s - expr),
					     "expected a piece symbol: a letter, '+' and a letter, or "
					     "two or three letters of one case between '(' and ')'");
			while (*s && strchr("><|\\~!", *s)) /* marks: read past */
				s++;
			ok = add_tok(t, &cap, k);
		} else if (strchr(".?=*/", *s)) {
			k.k = *s == '.'   ? TK_EMPTY
			      : *s == '*' ? TK_RUN
			      : *s == '/' ? TK_RANK
					  : TK_ANY;
			t->nranks += *s == '/';
			s++;
			if (k.k != TK_RUN || !t->ntok || t->tok[t->ntok - 1].k != TK_RUN)
				ok = add_tok(t, &cap, k);
		} else {
			return vc_select_fail(
				err, (size_t)(at - expr),
				"expected a piece, an empty square ('.' or a number), '?', '*' "
				"or '/', not '%c'",
				*s);
		}
		if (ok < 0)
			return vc_select_fail(err, (size_t)(at - expr), "out of memory");
	}
	*sp = s;
	return 0;
}

/* position= and final=: a board, maybe the reserves (read past), maybe
 * the side to move and fields after it (read past). */
static int read_pattern(struct vc_sel_pos *t, const char *expr, const char *v,
			struct vc_select_error *err)
{
	const char *s = v;
	t->side = -1;
	if (!*s || *s == ' ')
		return vc_select_fail(err, (size_t)(s - expr), "expected a position string or a pattern");
	if (read_board(t, expr, &s, err) < 0)
		return -1;
	while (*s == '[') {
		const char *close = strchr(s, ']');
		if (!close)
			return vc_select_fail(err, (size_t)(s - expr),
				     "the '[' of the reserves is never closed");
		s = close + 1;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	if ((*s != 'w' && *s != 'b') || (s[1] && s[1] != ' ' && s[1] != '\t'))
		return vc_select_fail(err, (size_t)(s - expr),
			     "expected the side to move, w or b, not '%.*s'",
			     (int)strcspn(s, " \t"), s);
	t->side = *s == 'w' ? VC_WHITE : VC_BLACK;
	return 0;
}

/* material= and material>=: symbols, each maybe with a count, maybe
 * blanks between them. */
static int read_material(struct vc_sel_pos *t, const char *expr, const char *v,
			 struct vc_select_error *err)
{
	const char *s = v;
	size_t cap = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		struct msym m = { "", 0, 1 };
		const char *at = s;
		if (read_sym(&s, m.sym, &m.color) < 0)
			return vc_select_fail(err, (size_t)(s - expr),
				     "expected a piece symbol and maybe a count, as in 'KQPkq' or "
				     "'K Q2 P3 k', not '%c'",
				     *s);
		if (isdigit((unsigned char)*s)) {
			m.count = 0;
			while (isdigit((unsigned char)*s) && m.count <= 9999)
				m.count = m.count * 10 + (*s++ - '0');
			if (m.count > 9999)
				return vc_select_fail(err, (size_t)(at - expr),
					     "a count of more than 9999 pieces");
		}
		if (t->nmat == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct msym *n = realloc(t->mat, nc * sizeof *n);
			if (!n)
				return vc_select_fail(err, (size_t)(at - expr), "out of memory");
			t->mat = n;
			cap = nc;
		}
		t->mat[t->nmat++] = m;
	}
	if (!t->nmat)
		return vc_select_fail(err, (size_t)(s - expr),
			     "expected pieces, as in 'KQPkq' or 'K Q2 P3 k'");
	return 0;
}

/* moves=: moves between blanks; move numbers ("1.", "1...", glued "1.e4")
 * are read past.  A move whose text holds a blank (Io's walls, "W
 * a15b15-b15c15") is two words here: matching joins them. */
static int read_moves(struct vc_sel_pos *t, const char *expr, const char *v,
		      struct vc_select_error *err)
{
	size_t len = strlen(v), cap = 0, o = 0;
	if (!(t->text = malloc(len + 1)))
		return vc_select_fail(err, (size_t)(v - expr), "out of memory");
	const char *s = v;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		const char *w = s;
		size_t n = strcspn(s, " \t"), d = strspn(w, "0123456789");
		s += n;
		if (d && w[d] == '.' && d < n)
			w += d + strspn(w + d, ".");
		else if (!d && strspn(w, ".") == n)
			w = s; /* "..." for a move of White's not given */
		n = (size_t)(s - w);
		if (!n)
			continue;
		size_t at = (size_t)(w - expr);
		if ((isdigit((unsigned char)w[0]) && strncmp(w, "0-0", 3)) || (n == 1 && *w == '*'))
			return vc_select_fail(err, at, "expected a move, not '%.*s'", (int)(n > 20 ? 20 : n),
				     w);
		if (t->nmv == cap) {
			size_t nc = cap ? cap * 2 : 16;
			size_t *nm = realloc(t->mv, 2 * nc * sizeof *nm);
			if (!nm)
				return vc_select_fail(err, at, "out of memory");
			t->mv = nm;
			cap = nc;
		}
		if (o)
			t->text[o++] = ' ';
		memcpy(t->text + o, w, n);
		t->mv[2 * t->nmv] = o;
		t->mv[2 * t->nmv++ + 1] = n;
		o += n;
	}
	t->text[o] = 0;
	if (!t->nmv)
		return vc_select_fail(err, (size_t)(v - expr), "expected moves, as in \"1. e4 c5 2. Nf3\"");
	return 0;
}

static const struct {
	const char *word;
	int end;
} end_kinds[] = { { "checkmate", VC_END_CHECKMATE }, { "stalemate", VC_END_STALEMATE },
		  { "pieces", VC_END_NO_PIECES },    { "royal", VC_END_ROYAL_LOST },
		  { "checks", VC_END_CHECKS },       { "region", VC_END_REGION } };

/* end=: a kind of end, or the name of a region ("hill", "the hill"). */
static int read_end(struct vc_sel_pos *t, const char *expr, const char *v,
		    struct vc_select_error *err)
{
	for (size_t i = 0; i < sizeof end_kinds / sizeof *end_kinds; i++)
		if (!strcmp(v, end_kinds[i].word)) {
			t->end = end_kinds[i].end;
			return 0;
		}
	size_t n = strlen(v), ok = n > 0 && n < sizeof t->region && isalpha((unsigned char)v[0]);
	for (size_t i = 0; ok && i < n; i++)
		ok = isalpha((unsigned char)v[i]) || v[i] == ' ' || v[i] == '-';
	if (!ok)
		return vc_select_fail(
			err, (size_t)(v - expr),
			"expected how a game ends: checkmate, stalemate, pieces, royal, checks, "
			"region or the name of a region, not '%.20s'",
			v);
	if (!strncasecmp(v, "the ", 4))
		v += 4;
	snprintf(t->region, sizeof t->region, "%s", v);
	t->end = VC_END_REGION;
	return 0;
}

int vc_sel_pos_word(const char *w, struct vc_sel_pos **out)
{
	int end = !strcmp(w, "checkmate")   ? VC_END_CHECKMATE
		  : !strcmp(w, "stalemate") ? VC_END_STALEMATE
		  : !strcmp(w, "ended")     ? -1
					    : -2;
	if (end == -2)
		return 1;
	if (!(*out = calloc(1, sizeof **out)))
		return -1;
	(*out)->kind = SP_END;
	(*out)->end = end;
	return 0;
}

int vc_sel_pos_read(const char *expr, const char *name, size_t k, const char *v,
		    struct vc_sel_pos **out, struct vc_select_error *err)
{
	static const char *const names[] = { "position", "final", "material", "moves", "end" };
	static const enum sp_kind kinds[] = { SP_POSITION, SP_FINAL, SP_MATERIAL, SP_MOVES,
					      SP_END };
	size_t i = 0, op = (size_t)(name - expr) + k;
	while (i < 5 && (strlen(names[i]) != k || strncmp(name, names[i], k)))
		i++;
	if (i == 5)
		return 1;
	int ge = name[k] == '>' && name[k + 1] == '=';
	if (name[k] != '=' && !(ge && kinds[i] == SP_MATERIAL))
		return vc_select_fail(err, op,
			     kinds[i] == SP_MATERIAL ? "material is compared with = or >="
						     : "%s is compared with =",
			     names[i]);
	struct vc_sel_pos *t = calloc(1, sizeof *t);
	if (!t)
		return vc_select_fail(err, op, "out of memory");
	t->kind = ge ? SP_MATERIAL_GE : kinds[i];
	int rc = t->kind == SP_POSITION || t->kind == SP_FINAL ? read_pattern(t, expr, v, err)
		 : t->kind == SP_MOVES                         ? read_moves(t, expr, v, err)
		 : t->kind == SP_END                           ? read_end(t, expr, v, err)
							       : read_material(t, expr, v, err);
	if (rc < 0) {
		vc_sel_pos_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

/* ---- matching ---- */

/* A term made ready for one game's variant. */
struct ready {
	const struct vc_sel_pos *t;
	int16_t *ty; /* the type of each piece token or material symbol, -1 none */
	long *want;  /* material: the count of each colour and type, [c * ntypes + t] */
	long total[2]; /* material=, in a variant without two-square pieces: the pieces of
			  each colour, which the piece lists must hold (a quick test) */
	int never;   /* cannot hold in this variant */
	size_t at;   /* moves=: the word the next move is read from */
	int done;    /* decided */
	int value;
};

struct walk {
	struct ready *r;
	size_t n;
	const struct vc_variant *v;
	size_t open;   /* terms not decided that a position before the last may decide */
	int at_end;    /* terms that only the last position decides */
	int end_known; /* the last position's end, once asked */
	struct vc_end end;
};

static int ready_term(struct ready *r, const struct vc_variant *v)
{
	const struct vc_sel_pos *t = r->t;
	int nt = v->ntypes;
	if (t->kind == SP_POSITION || t->kind == SP_FINAL) {
		if (t->nranks != v->ranks ||
		    (t->ntok && !(r->ty = malloc(t->ntok * sizeof *r->ty))))
			return t->nranks != v->ranks ? (r->never = 1, 0) : -1;
		for (size_t i = 0; i < t->ntok; i++) {
			r->ty[i] = -1;
			if (t->tok[i].k == TK_PIECE &&
			    (r->ty[i] = (int16_t)vc_type_by_symbol(v, t->tok[i].sym,
								   strlen(t->tok[i].sym))) < 0)
				r->never = 1;
		}
	} else if (t->kind == SP_MATERIAL || t->kind == SP_MATERIAL_GE) {
		if (!(r->want = calloc(2 * (size_t)nt + 1, sizeof *r->want)))
			return -1;
		int two = 0;
		for (int ty = 0; ty < nt; ty++)
			two |= (v->types[ty].props & VC_P_TWOSQUARE) != 0;
		for (size_t i = 0; i < t->nmat; i++) {
			int ty = vc_type_by_symbol(v, t->mat[i].sym, strlen(t->mat[i].sym));
			if (ty < 0)
				r->never |= t->mat[i].count > 0;
			else
				r->want[t->mat[i].color * nt + ty] += t->mat[i].count;
		}
		r->total[0] = r->total[1] = two || t->kind != SP_MATERIAL ? -1 : 0;
		for (int c = 0; c < 2 && r->total[0] >= 0; c++)
			for (int ty = 0; ty < nt; ty++)
				r->total[c] += r->want[c * nt + ty];
	}
	return 0;
}

static int square_holds(const struct tok *k, int ty, uint8_t code)
{
	if (k->k == TK_EMPTY)
		return !code;
	if (k->k == TK_ANY)
		return code != 0;
	if (!code || vc_code_type(code) != ty)
		return 0;
	return (vc_code_color(code) == VC_BLACK) == (k->color == VC_BLACK);
}

/* Do the n tokens k (types ty) match rank r of p from file f to its end? */
static int rank_holds(const struct tok *k, const int16_t *ty, size_t n, const struct vc_position *p,
		      int r, int f)
{
	int files = p->v->files;
	for (; n; k++, ty++, n--) {
		if (k->k == TK_RUN) {
			if (n == 1)
				return 1;
			for (int g = f; g <= files; g++)
				if (rank_holds(k + 1, ty + 1, n - 1, p, r, g))
					return 1;
			return 0;
		}
		if (f >= files || !square_holds(k, *ty, p->board[vc_sq(files, f, r)]))
			return 0;
		f++;
	}
	return f == files;
}

static int pattern_holds(const struct ready *r, const struct vc_position *p)
{
	const struct vc_sel_pos *t = r->t;
	if (t->side >= 0 && p->side != t->side)
		return 0;
	size_t i = 0;
	for (int rank = p->v->ranks - 1; rank >= 0; rank--) {
		size_t j = i;
		while (j < t->ntok && t->tok[j].k != TK_RANK)
			j++;
		if (!rank_holds(t->tok + i, r->ty + i, j - i, p, rank, 0))
			return 0;
		i = j + 1;
	}
	return 1;
}

/* The pieces of each colour and type on the board (a two-square piece
 * once), against the signature. */
static int material_holds(const struct ready *r, const struct vc_position *p)
{
	const struct vc_variant *v = p->v;
	if (r->total[0] >= 0 && (p->npl[0] != r->total[0] || p->npl[1] != r->total[1]))
		return 0;
	int have[2 * VC_MAXT];
	memset(have, 0, 2 * (size_t)v->ntypes * sizeof *have);
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < p->npl[c]; i++)
			have[c * v->ntypes + vc_code_type(p->board[p->plist[c][i]])]++;
	for (int i = 0; i < 2 * v->ntypes; i++) {
		long h = (v->types[i % v->ntypes].props & VC_P_TWOSQUARE) ? have[i] / 2 : have[i];
		if (r->t->kind == SP_MATERIAL ? h != r->want[i] : h < r->want[i])
			return 0;
	}
	return 1;
}

static int same_move(const vc_move *a, const vc_move *b)
{
	return a->from == b->from && a->to == b->to && a->from2 == b->from2 && a->to2 == b->to2 &&
	       a->piece == b->piece && a->promo == b->promo && a->flags == b->flags &&
	       (!(a->flags & (VC_MF_CASTLE | VC_MF_XPROMO)) || a->aux == b->aux) &&
	       (!(a->flags & (VC_MF_CASTLE | VC_MF_DROP)) || a->extra == b->extra);
}

/* moves=: the move that words i and on mean in p, when it is next: the
 * number of words it took (1, or 2 for a move whose text holds a blank);
 * 0 when it is not next or means no move. */
static int move_holds(const struct vc_sel_pos *t, size_t i, struct vc_position *p,
		      const vc_move *next)
{
	for (size_t k = 1; k <= 2 && i + k <= t->nmv; k++) {
		const char *text = t->text + t->mv[2 * i], *code;
		size_t len = t->mv[2 * (i + k - 1)] + t->mv[2 * (i + k - 1) + 1] - t->mv[2 * i];
		struct vc_san san;
		char msg[200];
		vc_move m;
		if (vc_san_parse(p->v, text, len, &san, &code, msg, sizeof msg) == 0 &&
		    vc_san_resolve(p, &san, text, len, &m, NULL, &code, msg, sizeof msg) == 0)
			return same_move(&m, next) ? (int)k : 0;
	}
	return 0;
}

static void decide(struct walk *w, struct ready *r, int value)
{
	r->done = 1;
	r->value = value;
	w->open--;
}

/* The last position: final= and the end terms. */
static void at_last(struct walk *w, struct vc_position *p)
{
	for (size_t i = 0; i < w->n; i++) {
		struct ready *r = &w->r[i];
		const struct vc_sel_pos *t = r->t;
		if (r->done || (t->kind != SP_FINAL && t->kind != SP_END))
			continue;
		r->done = 1;
		if (t->kind == SP_FINAL) {
			r->value = !r->never && pattern_holds(r, p);
			continue;
		}
		if (!w->end_known) {
			vc_position_end(p, &w->end);
			w->end_known = 1;
		}
		const char *name = p->v->end.region_name;
		if (!strncasecmp(name, "the ", 4))
			name += 4;
		r->value = t->end < 0 ? w->end.rule != VC_END_NONE
			   : (int)w->end.rule != t->end
				   ? 0
				   : t->end != VC_END_REGION || !t->region[0] ||
					     !strcasecmp(t->region, name);
	}
}

static int on_position(void *user, struct vc_position *p, const vc_move *next)
{
	struct walk *w = user;
	for (size_t i = 0; i < w->n && w->open; i++) {
		struct ready *r = &w->r[i];
		const struct vc_sel_pos *t = r->t;
		if (r->done)
			continue;
		switch (t->kind) {
		case SP_POSITION:
			if (pattern_holds(r, p))
				decide(w, r, 1);
			break;
		case SP_MATERIAL:
		case SP_MATERIAL_GE:
			if (material_holds(r, p))
				decide(w, r, 1);
			break;
		case SP_MOVES: {
			int k = next ? move_holds(t, r->at, p, next) : 0;
			r->at += (size_t)k;
			if (!k || r->at == t->nmv)
				decide(w, r, k != 0);
			break;
		}
		default:
			break;
		}
	}
	if (!next)
		at_last(w, p);
	return !w->open && !w->at_end;
}

int vc_sel_pos_match(struct vc_sel_pos *const *t, size_t n, const struct vc_game *g,
		     struct vc_replay *rp, uint8_t *res)
{
	const struct vc_variant *v = rp ? vc_replay_variant(rp) : NULL;
	memset(res, 0, n);
	if (!n || !v)
		return 0;
	struct ready small[16], *r = n <= 16 ? small : malloc(n * sizeof *r);
	if (!r)
		return -1;
	memset(r, 0, n * sizeof *r);
	struct walk w = { .r = r, .n = n, .v = v };
	int rc = 0, whole = 0;
	for (size_t i = 0; i < n; i++) {
		r[i].t = t[i];
		if (ready_term(&r[i], v) < 0)
			rc = -1;
		if (r[i].never)
			r[i].done = 1;
		else if (t[i]->kind == SP_FINAL || t[i]->kind == SP_END)
			w.at_end = 1;
		else
			w.open++;
	}
	if (rc == 0 && (w.open || w.at_end) && vc_replay_walk(rp, g, on_position, &w, &whole) < 0)
		rc = -1;
	for (size_t i = 0; i < n; i++) {
		int last = t[i]->kind == SP_FINAL || t[i]->kind == SP_END;
		res[i] = r[i].done && r[i].value && (!last || whole);
		free(r[i].ty);
		free(r[i].want);
	}
	if (r != small)
		free(r);
	return rc;
}
