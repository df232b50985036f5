/*
 * t_select.c - the selection terms about positions (position=, final=,
 * material=, material>=, moves=, checkmate, stalemate, ended) against a
 * brute force, in every built-in variant.
 *
 * For each built-in variant, seeded random games are played from its start
 * and every position string of their main lines is kept, with every move
 * written three ways (SAN, long algebraic, coordinates).  Terms are then
 * made from those games (a position met at some ply, as it is or with
 * squares turned into '?', '.' and '*'; the material met at some ply, all
 * of it or a part; the first moves of a game in each writing; the ends),
 * and the games a selection takes from the archive of the games, read and
 * replayed as vchess-convert does, must be exactly those the brute force
 * finds.  The brute force works on the position strings only: a pattern
 * becomes a POSIX regular expression over the squares written one by one,
 * material is counted from the string's symbols, moves are compared by
 * their coordinates, and the ends come from the generator's move count.
 *
 *   t_select [--games N] [--plies P] [--seed S] [--variant NAME]
 */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static int n_games = 6;
static int n_plies = 80;
static uint64_t seed = 20261221;
static const char *only_variant;

static uint64_t rng;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void quiet_diag(const struct vc_diag *d, void *user)
{
	(void)d;
	(void)user;
}

#define MAXG 16
#define MAXP 400

/* A game as played: its position strings (plies + 1) and moves. */
struct game {
	int plies;
	char *fen[MAXP + 1];
	char *san[MAXP], *lan[MAXP], *coord[MAXP];
	int nlegal, check, by_rule; /* at the last position */
};

static char *dup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

static void play(const struct vc_variant *v, struct vc_position *p, struct game *g, int plies)
{
	static vc_move lm[VC_MAX_MOVES];
	char buf[4096];
	vc_position_start(p);
	g->plies = 0;
	for (;;) {
		vc_position_fen(p, buf, sizeof buf);
		g->fen[g->plies] = dup(buf);
		int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
		if (n == 0 || g->plies == plies) {
			int side, res;
			g->nlegal = n;
			g->check = vc_in_check(p, p->side);
			g->by_rule = vc_end_by_rule(p, &side, &res);
			return;
		}
		const vc_move *m = &lm[rnd() % (uint64_t)n];
		vc_move_san(p, m, 0, buf, sizeof buf);
		g->san[g->plies] = dup(buf);
		vc_move_san(p, m, 1, buf, sizeof buf);
		g->lan[g->plies] = dup(buf);
		vc_move_coord(v, m, buf, sizeof buf);
		g->coord[g->plies] = dup(buf);
		vc_move mm = *m;
		vc_pos_make(p, &mm);
		g->plies++;
	}
}

static void game_free(struct game *g)
{
	for (int i = 0; i <= g->plies; i++)
		free(g->fen[i]);
	for (int i = 0; i < g->plies; i++) {
		free(g->san[i]);
		free(g->lan[i]);
		free(g->coord[i]);
	}
}

/* ---- the brute force ---- */

static int is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The board of a position string, each square "<X>" (X the symbol, upper
 * case for White and neutral pieces, nothing when empty; a two-square
 * piece's other square "<=>"), ranks joined by '/'; the reserves dropped. */
static void squares_of(const char *fen, char *out, size_t n)
{
	size_t k = 0;
	for (const char *s = fen; *s && *s != ' ' && *s != '[' && k + 16 < n; s++) {
		if (*s >= '0' && *s <= '9') {
			int e = (int)strtol(s, (char **)&s, 10);
			s--;
			while (e-- > 0)
				k += (size_t)snprintf(out + k, n - k, "<>");
		} else if (*s == '/') {
			out[k++] = '/';
		} else if (*s == '=') {
			k += (size_t)snprintf(out + k, n - k, "<=>");
		} else if (*s == '+' && is_letter(s[1])) { /* a promoted piece, "+p" */
			k += (size_t)snprintf(out + k, n - k, "<+%c>", s[1]);
			s++;
		} else if (*s == '(') {
			size_t l = strcspn(s + 1, ")");
			k += (size_t)snprintf(out + k, n - k, "<%.*s>", (int)l, s + 1);
			s += l + 1;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
			k += (size_t)snprintf(out + k, n - k, "<%c>", *s);
		} /* '*' (neutral) and the marks after a symbol: nothing */
	}
	out[k] = 0;
}

/* A pattern as a regular expression over squares_of's text. */
static void regex_of(const char *pat, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "^");
	for (const char *s = pat; *s && *s != ' ' && *s != '[' && k + 32 < n; s++) {
		if (*s >= '0' && *s <= '9') {
			int e = (int)strtol(s, (char **)&s, 10);
			s--;
			while (e-- > 0)
				k += (size_t)snprintf(out + k, n - k, "<>");
		} else if (*s == '.') {
			k += (size_t)snprintf(out + k, n - k, "<>");
		} else if (*s == '?' || *s == '=') {
			k += (size_t)snprintf(out + k, n - k, "<[^>/]+>");
		} else if (*s == '*') {
			k += (size_t)snprintf(out + k, n - k, "(<[^>/]*>)*");
		} else if (*s == '/') {
			out[k++] = '/';
		} else if (*s == '+' && is_letter(s[1])) {
			k += (size_t)snprintf(out + k, n - k, "<\\+%c>", s[1]);
			s++;
		} else if (*s == '(') {
			size_t l = strcspn(s + 1, ")");
			k += (size_t)snprintf(out + k, n - k, "<%.*s>", (int)l, s + 1);
			s += l + 1;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
			k += (size_t)snprintf(out + k, n - k, "<%c>", *s);
		}
	}
	snprintf(out + k, n - k, "$");
}

/* Does the position string fen match the pattern (its side too, if it
 * names one)? */
static int brute_pattern(const regex_t *re, const char *pat, const char *fen)
{
	char sq[8192];
	const char *side = strchr(pat, ' ');
	if (side && side[1] != strchr(fen, ' ')[1])
		return 0;
	squares_of(fen, sq, sizeof sq);
	return regexec(re, sq, 0, NULL, 0) == 0;
}

/* The pieces of a position string's board: symbols (as written, neutral
 * ones and '=' squares left out) and their counts. */
struct mat {
	char sym[64][8];
	long count[64];
	int n;
};

static void material_of(const char *fen, struct mat *m)
{
	m->n = 0;
	for (const char *s = fen; *s && *s != ' ' && *s != '['; s++) {
		char sym[8];
		if (*s == '*') { /* a neutral piece: skip its symbol */
			s += s[1] == '(' ? strcspn(s, ")") : 1;
			continue;
		}
		if (*s == '(') {
			size_t l = strcspn(s, ")") + 1;
			snprintf(sym, sizeof sym, "%.*s", (int)l, s);
			s += l - 1;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
			snprintf(sym, sizeof sym, "%c", *s);
		} else if (*s == '+' && s[1] && s[1] != '/') { /* shogi's promoted pieces */
			snprintf(sym, sizeof sym, "+%c", s[1]);
			s++;
		} else {
			continue;
		}
		int i = 0;
		while (i < m->n && strcmp(m->sym[i], sym))
			i++;
		if (i == m->n) {
			snprintf(m->sym[m->n], sizeof m->sym[0], "%s", sym);
			m->count[m->n++] = 0;
		}
		m->count[i]++;
	}
}

/* Does the material of fen have exactly (ge: at least) that of want? */
static int brute_material(const struct mat *want, const char *fen, int ge)
{
	struct mat have;
	material_of(fen, &have);
	for (int i = 0; i < want->n; i++) {
		long h = 0;
		for (int j = 0; j < have.n; j++)
			if (!strcmp(have.sym[j], want->sym[i]))
				h = have.count[j];
		if (ge ? h < want->count[i] : h != want->count[i])
			return 0;
	}
	if (!ge)
		for (int j = 0; j < have.n; j++) {
			long w = 0;
			for (int i = 0; i < want->n; i++)
				if (!strcmp(have.sym[j], want->sym[i]))
					w = want->count[i];
			if (w != have.count[j])
				return 0;
		}
	return 1;
}

/* ---- the selection, as vchess-convert applies it ---- */

struct run {
	struct vc_ctx *ctx;
	struct vc_validator *val;
	struct vc_replay *rp;
	struct vc_game *gm;
	const char *text;
	size_t len;
	long matched, terms;
};

/* The games (a bit each) that expr selects from the archive. */
static unsigned selected(struct run *r, const char *expr)
{
	struct vc_select *s = vc_select_new();
	struct vc_select_error err;
	unsigned got = 0;
	if (vc_select_add(s, expr, &err) != 0) {
		VT_FAIL_AT(__FILE__, __LINE__, "'%s' does not read: column %zu: %s", expr, err.col,
			   err.message);
		vc_select_free(s);
		return 0;
	}
	VT_CHECK(vc_select_needs_replay(s));
	struct vc_reader *rd = vc_reader_mem(r->ctx, "t_select", r->text, r->len, NULL);
	for (int k = 0; rd && vc_reader_next(rd, r->gm) == VC_OK; k++) {
		struct vc_game_stats st;
		if (!vc_select_before(s, r->gm))
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' leaves game %d out before the replay",
				   expr, k + 1);
		if (vc_replay_run(r->rp, r->val, r->gm, &st) != VC_OK || !st.valid)
			VT_FAIL_AT(__FILE__, __LINE__, "game %d does not replay", k + 1);
		int t = vc_select_replayed(s, r->gm, &st, r->rp);
		if (t < 0)
			VT_FAIL_AT(__FILE__, __LINE__, "'%s': out of memory", expr);
		if (t > 0)
			got |= 1u << k;
		/* without the replay, no position is seen */
		if (vc_select_after(s, r->gm, &st) && strncmp(expr, "not ", 4))
			VT_FAIL_AT(__FILE__, __LINE__, "'%s' takes game %d without its replay",
				   expr, k + 1);
	}
	vc_reader_close(rd);
	vc_select_free(s);
	return got;
}

static void expect(struct run *r, const char *vname, const char *expr, unsigned want)
{
	unsigned got = selected(r, expr);
	r->terms++;
	r->matched += want != 0;
	if (got != want)
		VT_FAIL_AT(__FILE__, __LINE__, "%s: '%s' takes games %#x, the brute force %#x",
			   vname, expr, got, want);
}

/* ---- the terms ---- */

/* A pattern from a position string: some squares turned into '?' (a
 * piece) or '.' (empty), some ranks, or their ends, into '*'. */
static void mutate(const char *fen, char *out, size_t n, int side)
{
	size_t k = 0;
	const char *s = fen;
	int cut = 0;
	while (*s && *s != ' ' && *s != '[' && k + 8 < n) {
		if (*s == '/') {
			cut = 0;
			out[k++] = *s++;
			if (rnd() % 8 == 0) { /* the whole rank */
				out[k++] = '*';
				while (*s && *s != '/' && *s != ' ' && *s != '[')
					s++;
			}
			continue;
		}
		if (cut) {
			s++;
			continue;
		}
		if (*s >= '0' && *s <= '9') {
			int e = (int)strtol(s, (char **)&s, 10);
			while (e-- > 0)
				out[k++] = '.';
			continue;
		}
		if (rnd() % 10 == 0) { /* the rest of the rank */
			out[k++] = '*';
			cut = 1;
			continue;
		}
		const char *e = s;
		if (*e == '*')
			e++;
		e += *e == '(' ? strcspn(e, ")") + 1 : *e == '+' ? 2 : 1;
		while (*e && strchr("><|\\~!", *e))
			e++;
		if (*s != '=' && rnd() % 4 == 0)
			out[k++] = '?';
		else {
			memcpy(out + k, s, (size_t)(e - s));
			k += (size_t)(e - s);
		}
		s = e;
	}
	out[k] = 0;
	if (side)
		snprintf(out + k, n - k, " %s", strchr(fen, ' ') + 1);
}

static void check_patterns(struct run *r, const char *vname, struct game *g, int ng, int final)
{
	for (int q = 0; q < 8; q++) {
		const struct game *a = &g[rnd() % (uint64_t)ng];
		int ply = final ? a->plies : (int)(rnd() % (uint64_t)(a->plies + 1));
		if (!final && q < 2) { /* an early position, which other games may reach */
			ply = (int)(rnd() % 3);
			ply = ply < a->plies ? ply : a->plies;
		}
		char pat[4096], re_text[16384], expr[4200];
		if (q % 3 == 0 || q > 5) /* as it is, whole or the board alone */
			snprintf(pat, sizeof pat, "%.*s",
				 (int)(q % 3 ? strcspn(a->fen[ply], " [") : 4000), a->fen[ply]);
		else
			mutate(a->fen[ply], pat, sizeof pat, q == 2);
		if (q == 6) { /* the other side to move */
			char *side = strchr(pat, ' ');
			side[1] = side[1] == 'w' ? 'b' : 'w';
		} else if (q == 7) { /* a piece of the other colour */
			size_t n = strlen(pat), k = (size_t)(rnd() % (uint64_t)n);
			while (k < n && !(is_letter(pat[k]) &&
					  (!k || (pat[k - 1] != '(' && !is_letter(pat[k - 1]))) &&
					  !is_letter(pat[k + 1]) && pat[k + 1] != ')'))
				k++;
			if (k < n)
				pat[k] ^= 0x20;
		}
		regex_t re;
		regex_of(pat, re_text, sizeof re_text);
		if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB)) {
			VT_FAIL_AT(__FILE__, __LINE__, "the brute force's '%s' does not compile",
				   re_text);
			return;
		}
		unsigned want = 0;
		for (int b = 0; b < ng; b++)
			for (int i = final ? g[b].plies : 0; i <= g[b].plies; i++)
				if (brute_pattern(&re, pat, g[b].fen[i]))
					want |= 1u << b;
		regfree(&re);
		snprintf(expr, sizeof expr, "%s=%s", final ? "final" : "position", pat);
		expect(r, vname, expr, want);
	}
}

static void check_material(struct run *r, const char *vname, struct game *g, int ng)
{
	for (int q = 0; q < 6; q++) {
		const struct game *a = &g[rnd() % (uint64_t)ng];
		int ply = (int)(rnd() % (uint64_t)(a->plies + 1)), ge = q % 2;
		struct mat m;
		material_of(a->fen[ply], &m);
		char expr[2048];
		size_t k = (size_t)snprintf(expr, sizeof expr, "material%s", ge ? ">=" : "="),
		       k0 = k;
		for (int i = 0; i < m.n; i++) {
			if (ge && rnd() % 2) /* a part of it */
				m.count[i] = (long)(rnd() % (uint64_t)(m.count[i] + 1));
			if (m.count[i] == 0 && rnd() % 2)
				continue;
			k += (size_t)snprintf(expr + k, sizeof expr - k, "%s%s",
					      i && q > 3 ? " " : "", m.sym[i]);
			if (m.count[i] != 1 || rnd() % 4 == 0)
				k += (size_t)snprintf(expr + k, sizeof expr - k, "%ld", m.count[i]);
		}
		if (k == k0)
			continue;
		unsigned want = 0;
		for (int b = 0; b < ng; b++)
			for (int i = 0; i <= g[b].plies; i++)
				if (brute_material(&m, g[b].fen[i], ge))
					want |= 1u << b;
		expect(r, vname, expr, want);
	}
}

static void check_moves(struct run *r, const char *vname, struct game *g, int ng)
{
	for (int q = 0; q < 6; q++) {
		const struct game *a = &g[rnd() % (uint64_t)ng];
		if (!a->plies)
			continue;
		int len = 1 + (int)(rnd() % (uint64_t)(a->plies < 6 ? a->plies : 6));
		char expr[4096];
		size_t k = (size_t)snprintf(expr, sizeof expr, "moves=\"");
		for (int i = 0; i < len; i++) {
			char *const *form = q % 3 == 0 ? a->san : q % 3 == 1 ? a->lan : a->coord;
			if (i % 2 == 0 && q % 3 == 0)
				k += (size_t)snprintf(expr + k, sizeof expr - k, "%d.%s", i / 2 + 1,
						      q ? " " : "");
			k += (size_t)snprintf(expr + k, sizeof expr - k, "%s%s", form[i],
					      i + 1 < len ? " " : "\"");
		}
		unsigned want = 0;
		for (int b = 0; b < ng; b++) {
			int same = g[b].plies >= len;
			for (int i = 0; same && i < len; i++)
				same = !strcmp(g[b].coord[i], a->coord[i]);
			want |= (unsigned)same << b;
		}
		expect(r, vname, expr, want);
	}
}

static void check_ends(struct run *r, const char *vname, struct game *g, int ng)
{
	unsigned mate = 0, stale = 0, ended = 0;
	for (int b = 0; b < ng; b++) {
		int over = g[b].nlegal == 0;
		ended |= (unsigned)over << b;
		mate |= (unsigned)(over && !g[b].by_rule && g[b].check) << b;
		stale |= (unsigned)(over && !g[b].by_rule && !g[b].check) << b;
	}
	expect(r, vname, "checkmate", mate);
	expect(r, vname, "stalemate", stale);
	expect(r, vname, "ended", ended);
	expect(r, vname, "not ended", ~ended & ((1u << ng) - 1));
	expect(r, vname, "end=checkmate or end=stalemate", mate | stale);
}

static void check_variant(const char *name, long *terms, long *matched)
{
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, quiet_diag, NULL);
	struct vc_variant *v = vc_variant_load(ctx, name);
	if (!v) {
		VT_FAIL_AT(__FILE__, __LINE__, "%s does not load", name);
		vc_ctx_free(ctx);
		return;
	}
	struct vc_position *p = vc_position_new(v);
	static struct game g[MAXG];
	int ng = n_games;
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	for (int k = 0; k < ng; k++) {
		/* short games and long ones, so that some end */
		play(v, p, &g[k], k % 2 ? n_plies : 4 + (int)(rnd() % 12));
		for (int i = -1; i <= g[k].plies; i++) {
			char piece[512];
			int n = i < 0 ? snprintf(piece, sizeof piece, "[Variant \"%s\"]\n\n", name)
				: i == g[k].plies
					? snprintf(piece, sizeof piece, "*\n\n")
					: snprintf(piece, sizeof piece, "%s ", g[k].san[i]);
			if (len + (size_t)n + 1 > cap && !(text = realloc(text, cap *= 2)))
				abort();
			memcpy(text + len, piece, (size_t)n + 1);
			len += (size_t)n;
		}
	}
	struct vc_validate_opts vo = { 0 };
	struct run r = { ctx,
			 vc_validator_new(ctx, &vo),
			 vc_replay_new(NULL, VC_FORMAT_TEXT),
			 vc_game_new(),
			 text,
			 len,
			 0,
			 0 };
	check_patterns(&r, name, g, ng, 0);
	check_patterns(&r, name, g, ng, 1);
	check_material(&r, name, g, ng);
	check_moves(&r, name, g, ng);
	check_ends(&r, name, g, ng);
	*terms += r.terms;
	*matched += r.matched;
	for (int k = 0; k < ng; k++)
		game_free(&g[k]);
	free(text);
	vc_game_free(r.gm);
	vc_replay_free(r.rp);
	vc_validator_free(r.val);
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

VT_TEST(every_builtin_variant)
{
	long terms = 0, matched = 0;
	for (int i = 0; i < vc_builtin_count(); i++) {
		const char *name = vc_builtin_name(i);
		if (only_variant && strcmp(only_variant, name))
			continue;
		rng = seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
		check_variant(name, &terms, &matched);
	}
	if (getenv("SELECT_VERBOSE"))
		fprintf(stderr, "t_select: %ld terms, %ld that take some game\n", terms, matched);
	/* the terms are made from the games: most must take some */
	VT_CHECK(matched * 2 > terms);
}

int main(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--games"))
			n_games = atoi(argv[i + 1]) < MAXG ? atoi(argv[i + 1]) : MAXG;
		else if (!strcmp(argv[i], "--plies"))
			n_plies = atoi(argv[i + 1]) < MAXP ? atoi(argv[i + 1]) : MAXP;
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--variant"))
			only_variant = argv[i + 1];
		else {
			fprintf(stderr, "usage: t_select [--games N] [--plies P] [--seed S] "
					"[--variant NAME]\n");
			return 2;
		}
	}
	static const struct vt_entry all[] = { VT_ENTRY(every_builtin_variant) };
	return vt_run(all, sizeof all / sizeof all[0]);
}
