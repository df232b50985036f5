/*
 * t_genval.c - the move generator and the validator are one truth, in every
 * built-in variant.
 *
 * For each built-in variant, seeded random games are played from its start
 * with moves chosen among the generator's legal moves (with a preference for
 * the moves that exercise mechanics: promotions, drops, captures, castling,
 * two-square moves), and at every ply:
 *  - the fast "has a legal move" test agrees with full generation, and so
 *    the outcome (mate, stalemate) with the move list;
 *  - every legal move reads back as itself from the three forms the library
 *    writes (SAN, long algebraic, coordinates);
 *  - after making the chosen move, the fast check test agrees with the full
 *    attack test, the piece lists and the hash are consistent, and unmaking
 *    gives back the position exactly.
 * Each game is then written in SAN (with the library's check and mate marks),
 * in long algebraic and in coordinates, and every text is read back by the
 * archive reader and replayed by the validator (strict for SAN): each must be
 * valid, without a warning, with every ply replayed.  The SAN game is also
 * converted (replay and canonical text writer) and the converted text must
 * replay to the same moves.
 *
 * Run with no arguments as part of make check (a few games a variant);
 *   t_genval --games N --plies P --seed S [--variant NAME] [--write FORM]
 * runs more (make fuzz), or with --write san|lan|coord prints the games as
 * an archive instead of testing them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"
#include "vt.h"

static long n_games = 8;
static int n_plies = 300;
static uint64_t seed = 20261201;
static const char *only_variant;
static const char *start_fen; /* --fen: games written from this position */
static int coverage_asserted = 1; /* cleared by --games, --plies and --seed */

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

enum form { F_SAN, F_LAN, F_COORD, F_NFORMS };
#define F_BARE F_NFORMS /* the SAN alone, one space between moves: what replays give back */
#define F_BARE_LONG (F_NFORMS + 1) /* the same in long algebraic */
static const char *const form_name[F_NFORMS] = { "san", "lan", "coord" };

static int write_move(struct vc_position *p, const vc_move *m, enum form f, char *buf, size_t n)
{
	if (f == F_COORD)
		return vc_move_coord(p->v, m, buf, n);
	return vc_move_san(p, m, f == F_LAN, buf, n);
}

static int same_move(const vc_move *a, const vc_move *b)
{
	return a->from == b->from && a->to == b->to && a->from2 == b->from2 && a->to2 == b->to2 &&
	       a->piece == b->piece && a->promo == b->promo && a->flags == b->flags &&
	       ((a->flags & (VC_MF_CASTLE | VC_MF_XPROMO)) == 0 || a->aux == b->aux) &&
	       ((a->flags & (VC_MF_CASTLE | VC_MF_DROP)) == 0 || a->extra == b->extra);
}

/* Does every list hold what the board holds, and the hash the board's? */
static const char *inconsistency(const struct vc_position *p)
{
	int listed = 0;
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < p->npl[c]; i++) {
			int sq = p->plist[c][i];
			if (!p->board[sq] || vc_code_color(p->board[sq]) != c)
				return "a listed square holds no piece of its colour";
			if (p->pidx[sq] != i)
				return "a square's list index is wrong";
			listed++;
		}
	int occupied = 0;
	for (int sq = 0; sq < p->v->nsq; sq++)
		occupied += p->board[sq] != 0;
	if (occupied != listed)
		return "an occupied square is missing from the piece lists";
	if (vc_pos_compute_hash(p) != p->hash)
		return "the hash is not the board's";
	return NULL;
}

/* A game as played: its moves in each form. */
struct played {
	char *text[F_NFORMS + 2];
	size_t len[F_NFORMS + 2], cap[F_NFORMS + 2];
	int plies;
	const char *result;
};

static void put_text(struct played *g, enum form f, const char *s)
{
	size_t n = strlen(s);
	if (g->len[f] + n + 1 > g->cap[f]) {
		g->cap[f] = (g->len[f] + n + 1) * 2;
		g->text[f] = realloc(g->text[f], g->cap[f]);
		if (!g->text[f])
			abort();
	}
	memcpy(g->text[f] + g->len[f], s, n + 1);
	g->len[f] += n;
}

/* What the random games met among the legal moves of the positions they
 * went through (each read back in every form), per mechanic, so that the
 * test can say each variant's mechanics were exercised. */
enum { M_CAPTURE, M_PROMO, M_DROP, M_CASTLE, M_EP, M_WALL, M_XPROMO, M_SELF, M_SWAP, M_CHECK,
       M_GATE, M_NMECH };
static const char *const mech_name[M_NMECH] = { "capture", "promotion", "drop", "castling",
						"en passant", "two-square move",
						"promotion by exchange", "self-capture", "swap",
						"check", "gating" };

struct ctx {
	const struct vc_variant *v;
	char where[4200];
	long met[M_NMECH];
	long readbacks;
};

static void fail_at(struct ctx *c, struct vc_position *p, const char *what, const vc_move *m)
{
	char fen[4096], mv[64] = "";
	vc_position_fen(p, fen, sizeof fen);
	if (m)
		vc_move_coord(p->v, m, mv, sizeof mv);
	VT_FAIL_AT(__FILE__, __LINE__, "%s: %s%s%s in %s", c->v->name, what, m ? " " : "", mv, fen);
}

static int is_special(const vc_move *m)
{
	return (m->flags & (VC_MF_PROMO | VC_MF_XPROMO | VC_MF_DROP | VC_MF_CASTLE | VC_MF_EP |
			    VC_MF_WALL | VC_MF_SELF | VC_MF_DOUBLE)) != 0;
}

/* Every legal move of p reads back as itself from each written form. */
static void check_readback(struct ctx *c, struct vc_position *p, const vc_move *lm, int n)
{
	for (int i = 0; i < n; i++)
		for (int f = 0; f < F_NFORMS; f++) {
			char t[128], msg[256];
			struct vc_san san;
			const char *code = NULL;
			vc_move got;
			int len = write_move(p, &lm[i], (enum form)f, t, sizeof t);
			/* tested in full, then as the validator reads: a move it may
			 * take without generation (legality left to the caller) must
			 * be the generator's own */
			for (int way = 0; way < 2; way++) {
				int untested = 0;
				if (vc_san_parse(p->v, t, (size_t)len, &san, &code, msg, sizeof msg) != 0 ||
				    vc_san_resolve(p, &san, t, (size_t)len, &got, way ? &untested : NULL,
						   &code, msg, sizeof msg) != 0) {
					char w[512];
					snprintf(w, sizeof w, "%s '%s' does not read back%s (%.200s):",
						 form_name[f], t, way ? " untested" : "", msg);
					fail_at(c, p, w, &lm[i]);
					break;
				}
				if (!same_move(&got, &lm[i])) {
					char w[200];
					snprintf(w, sizeof w, "%s '%s' reads back%s as another move than",
						 form_name[f], t, way ? " untested" : "");
					fail_at(c, p, w, &lm[i]);
				}
				c->readbacks++;
			}
		}
}

static void note_mechanics(struct ctx *c, const vc_move *m)
{
	c->met[M_CAPTURE] += (m->flags & VC_MF_CAPTURE) != 0;
	c->met[M_PROMO] += (m->flags & VC_MF_PROMO) != 0;
	c->met[M_DROP] += (m->flags & VC_MF_DROP) != 0;
	c->met[M_CASTLE] += (m->flags & VC_MF_CASTLE) != 0;
	c->met[M_EP] += (m->flags & VC_MF_EP) != 0;
	c->met[M_WALL] += (m->flags & VC_MF_WALL) != 0;
	c->met[M_XPROMO] += (m->flags & VC_MF_XPROMO) != 0;
	c->met[M_SELF] += (m->flags & VC_MF_SELF) != 0;
	c->met[M_GATE] += (m->flags & VC_MF_GATE) != 0;
}

/* Plays one random game from the start, checking every ply; fills g. */
static void play_game(struct ctx *c, struct vc_position *p, struct played *g, int readback)
{
	static vc_move lm[VC_MAX_MOVES];
	vc_position_start(p);
	if (start_fen && vc_position_set_fen(p, NULL, start_fen) != VC_OK) {
		fprintf(stderr, "t_genval: cannot read the position '%s'\n", start_fen);
		exit(2);
	}
	g->plies = 0;
	g->result = "*";
	for (int f = 0; f <= F_BARE_LONG; f++) {
		g->len[f] = 0;
		put_text(g, (enum form)f, "");
	}
	for (int ply = 0; ply < n_plies; ply++) {
		int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
		int has = vc_has_legal_move(p), check = vc_in_check(p, p->side);
		if (has != (n > 0)) {
			fail_at(c, p, has ? "the fast test finds a legal move where generation finds none"
					  : "the fast test finds no legal move where generation finds one",
				n ? &lm[0] : NULL);
			return;
		}
		int outcome = vc_position_outcome(p);
		if (outcome != (n ? 0 : check ? 1 : 2))
			fail_at(c, p, "the outcome disagrees with the legal moves", NULL);
		if (readback)
			check_readback(c, p, lm, n);
		for (int i = 0; i < n; i++)
			note_mechanics(c, &lm[i]);
		if (n == 0) {
			struct vc_end e;
			if (!vc_position_end(p, &e))
				fail_at(c, p, "no legal move, yet the game is not over", NULL);
			g->result = e.result ? e.result : "*";
			break;
		}
		/* a special move one time in three when there is one, castling and
		 * en passant (rare in random play) one time in two */
		const vc_move *m = &lm[rnd() % (uint64_t)n];
		for (int i = 0; i < n; i++)
			if ((lm[i].flags & (VC_MF_CASTLE | VC_MF_EP)) && rnd() % 2)
				m = &lm[i];
		if (rnd() % 3 == 0) {
			int ns = 0;
			for (int i = 0; i < n; i++)
				ns += is_special(&lm[i]);
			if (ns) {
				int k = (int)(rnd() % (uint64_t)ns);
				for (int i = 0; i < n; i++)
					if (is_special(&lm[i]) && k-- == 0)
						m = &lm[i];
			}
		}
		char before[4096];
		vc_position_fen(p, before, sizeof before);
		uint64_t hash = p->hash;
		for (int f = 0; f < F_NFORMS; f++) {
			char t[128], num[32] = "";
			write_move(p, m, (enum form)f, t, sizeof t);
			if (p->side == VC_WHITE)
				snprintf(num, sizeof num, "%d. ", p->fullmove);
			else if (ply == 0)
				snprintf(num, sizeof num, "%d... ", p->fullmove);
			put_text(g, (enum form)f, num);
			put_text(g, (enum form)f, t);
			put_text(g, (enum form)f, (ply + 1) % 8 ? " " : "\n");
			if (f == F_SAN || f == F_LAN) {
				enum form b = f == F_SAN ? F_BARE : F_BARE_LONG;
				put_text(g, b, ply ? " " : "");
				put_text(g, b, t);
			}
		}
		vc_move mm = *m;
		int plies_to_swap = vc_position_plies_to_transform(p);
		vc_pos_make(p, &mm);
		c->met[M_SWAP] += plies_to_swap == 1;
		const char *bad = inconsistency(p);
		if (bad)
			fail_at(c, p, bad, NULL);
		int full = vc_in_check(p, p->side), fast = vc_check_after(p, &mm);
		c->met[M_CHECK] += full;
		if (full != fast)
			fail_at(c, p, fast ? "the fast test sees a check that is not there"
					   : "the fast test misses a check",
				NULL);
		vc_pos_unmake(p);
		char after[4096];
		vc_position_fen(p, after, sizeof after);
		if (strcmp(before, after) || p->hash != hash || inconsistency(p))
			fail_at(c, p, "unmake does not give back the position before", &mm);
		vc_pos_make(p, &mm);
		g->plies++;
		if (bad || full != fast)
			return;
	}
	struct vc_end e;
	if (!strcmp(g->result, "*") && vc_position_end(p, &e)) /* ended on the last ply */
		g->result = e.result;
}

static char *archive_text(const struct vc_variant *v, const struct played *g, enum form f,
			  long number, size_t *len)
{
	char setup[600] = "";
	if (start_fen)
		snprintf(setup, sizeof setup, "[SetUp \"1\"]\n[FEN \"%s\"]\n", start_fen);
	size_t n = g->len[f] + 512 + strlen(setup);
	char *s = malloc(n);
	if (!s)
		abort();
	*len = (size_t)snprintf(s, n,
				"[Event \"Random game %ld, %s\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
				"[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"%s\"]\n"
				"[Variant \"%s\"]\n%s\n%s%s\n\n",
				number, form_name[f], g->result, v->name, setup, g->text[f], g->result);
	return s;
}

static void show_diags(struct ctx *c, const struct vc_game *gm, const char *what, const char *text)
{
	for (size_t i = 0; i < vc_game_diag_count(gm); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(gm, i);
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s game: %s: %s (%s)", c->v->name, what,
			   d->context ? d->context : "", d->message, d->code);
	}
	(void)text;
}

/* Are the replay's canonical moves (long_form: in long algebraic) the
 * moves written (as vc_move_san writes them), move for move?  The replay
 * writes them otherwise (the mark from the validator's own test, no
 * search for a disambiguation that resolution showed needless): this
 * holds the two to the same text. */
static int same_moves(struct ctx *c, const struct vc_game *gm, const struct vc_replay *rp,
		      const char *moves, int long_form, const char *what)
{
	const char *m = moves;
	for (size_t i = 0; i < vc_game_item_count(gm); i++) {
		const char *san = vc_replay_san(rp, i, long_form);
		if (!san)
			continue;
		size_t n = strlen(san);
		while (*m == ' ')
			m++;
		if (strncmp(m, san, n) || (m[n] && m[n] != ' ')) {
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s game replays '%s' where '%.*s' was written%s",
				   c->v->name, what, san, (int)strcspn(m, " "), m,
				   long_form ? " (long algebraic)" : "");
			return 0;
		}
		m += n;
	}
	return 1;
}

/* Reads one game from text; validates it; 0 when it is valid, warning-free
 * and every ply was replayed, and its moves replay to the SAN moves (and
 * the long algebraic lmoves) when given.  With conv, the game is also
 * converted to canonical text into *conv (malloc'd). */
static int replay_text(struct ctx *c, const char *text, size_t len, int plies, int strict,
		       const char *what, char **conv, size_t *convlen, const char *moves,
		       const char *lmoves)
{
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, quiet_diag, NULL);
	struct vc_reader *r = vc_reader_mem(ctx, "genval", text, len, NULL);
	struct vc_game *gm = vc_game_new();
	struct vc_validate_opts vo = { .strict = strict };
	struct vc_validator *val = vc_validator_new(ctx, &vo);
	struct vc_write_opts wo = { .long_algebraic = lmoves != NULL };
	struct vc_replay *rp = vc_replay_new(&wo, VC_FORMAT_TEXT);
	struct vc_game_stats st;
	int bad = 1;
	if (!r || !gm || !val || !rp || vc_reader_next(r, gm) != VC_OK) {
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s game does not read", c->v->name, what);
		goto out;
	}
	if (vc_replay_run(rp, val, gm, &st) != VC_OK || vc_game_diag_count(gm)) {
		show_diags(c, gm, what, text);
		goto out;
	}
	if (st.plies != plies) {
		VT_FAIL_AT(__FILE__, __LINE__, "%s: %s game replays %ld plies of %d", c->v->name, what,
			   st.plies, plies);
		goto out;
	}
	if (moves && !same_moves(c, gm, rp, moves, 0, what))
		goto out;
	if (lmoves && !same_moves(c, gm, rp, lmoves, 1, what))
		goto out;
	if (conv) {
		struct vc_sink *s = vc_sink_mem(ctx);
		struct vc_writer *w = s ? vc_writer_open(ctx, s, VC_FORMAT_TEXT, NULL) : NULL;
		if (!w || vc_writer_game(w, gm, rp) != VC_OK || vc_writer_close(w) != VC_OK) {
			VT_FAIL_AT(__FILE__, __LINE__, "%s: %s game does not convert", c->v->name, what);
			vc_sink_abort(s);
			goto out;
		}
		size_t n;
		const char *d = vc_sink_data(s, &n);
		*conv = malloc(n + 1);
		if (!*conv)
			abort();
		memcpy(*conv, d, n);
		(*conv)[n] = 0;
		*convlen = n;
		vc_sink_abort(s);
	}
	bad = 0;
out:
	vc_replay_free(rp);
	vc_validator_free(val);
	vc_game_free(gm);
	vc_reader_close(r);
	vc_ctx_free(ctx);
	return bad;
}

/* The mechanics a variant has, which its random games must meet. */
static unsigned mechanics_of(const struct vc_variant *v, struct vc_position *p)
{
	unsigned need = 1u << M_CAPTURE;
	if (v->king_type >= 0 && (v->types[v->king_type].props & VC_P_ROYAL) &&
	    !(v->rules & VC_R_NO_CHECK)) /* a check can be given */
		need |= 1u << M_CHECK;
	vc_position_start(p);
	for (int t = 0; t < v->ntypes; t++) {
		/* a piece that promotes, present at the start (or droppable) */
		int present = (v->rules & VC_R_DROPS) != 0;
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < p->npl[s]; i++)
				present |= vc_code_type(p->board[p->plist[s][i]]) == t;
		if (present && (v->types[t].promo_choices || v->types[t].auto_to >= 0))
			need |= 1u << M_PROMO;
		if (v->types[t].props & VC_P_TWOSQUARE && !(v->types[t].props & VC_P_IMMOBILE))
			need |= 1u << M_WALL;
	}
	/* drops, where a hand can hold something: captures fill it, or the
	 * start gives one (supply on one board has neither) */
	vc_position_start(p);
	int in_hand = 0;
	for (int s = 0; s < 2 && v->nreserve; s++)
		for (int t = 0; t < v->ntypes; t++)
			in_hand |= p->res[s][0][t] != 0;
	if ((v->rules & VC_R_DROPS) &&
	    (in_hand || (v->rules & (VC_R_CAPTURE_TO_HAND | VC_R_PRISON | VC_R_SELF_CAPTURE))))
		need |= 1u << M_DROP;
	if (v->rules & VC_R_EP)
		need |= 1u << M_EP;
	if (v->rules & VC_R_XPROMO)
		need |= 1u << M_XPROMO;
	if (v->rules & VC_R_SELF_CAPTURE)
		need |= 1u << M_SELF;
	if (v->rules & VC_R_SWAP_HALVES)
		need |= 1u << M_SWAP;
	if (v->rules & VC_R_GATING)
		need |= 1u << M_GATE;
	vc_position_start(p); /* castling where the start position has a right */
	for (int k = 0; k < v->ncastle; k++)
		if (p->castle[VC_WHITE][k] >= 0 || p->castle[VC_BLACK][k] >= 0)
			need |= 1u << M_CASTLE;
	return need;
}

static int all_met(const struct ctx *c, unsigned need)
{
	for (int i = 0; i < M_NMECH; i++)
		if ((need >> i & 1) && !c->met[i])
			return 0;
	return 1;
}

/* Plays games (at least 'games'; in the default run, more until every
 * mechanic of the variant was met, up to 25 times as many, for mechanics that random play meets rarely, such as castling from a corner) and replays
 * each in every form. */
static void check_variant(const char *name, long games, int readback)
{
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, quiet_diag, NULL);
	struct vc_variant *v = vc_variant_load(ctx, name);
	vc_ctx_free(ctx);
	if (!v) {
		VT_FAIL_AT(__FILE__, __LINE__, "%s does not load", name);
		return;
	}
	static struct ctx c;
	memset(&c, 0, sizeof c);
	c.v = v;
	struct vc_position *p = vc_position_new(v);
	struct played g = { 0 };
	long plies = 0, k;
	unsigned need = mechanics_of(v, p);
	for (k = 0; k < games || (coverage_asserted && k < 25 * games && !all_met(&c, need)); k++) {
		int before = vt_failed_checks;
		play_game(&c, p, &g, readback);
		plies += g.plies;
		if (vt_failed_checks != before)
			break;
		for (int f = 0; f < F_NFORMS && vt_failed_checks == before; f++) {
			size_t len, clen = 0;
			char *text = archive_text(v, &g, (enum form)f, k + 1, &len), *conv = NULL;
			/* every form replays to the SAN written; so does the SAN
			 * game once converted */
			if (replay_text(&c, text, len, g.plies, f == F_SAN, form_name[f],
					f == F_SAN ? &conv : NULL, &clen, g.text[F_BARE],
					f == F_LAN ? g.text[F_BARE_LONG] : NULL) == 0 &&
			    conv)
				replay_text(&c, conv, clen, g.plies, 1, "converted", NULL, NULL,
					    g.text[F_BARE], NULL);
			free(conv);
			free(text);
		}
	}
	if (getenv("GENVAL_VERBOSE")) {
		fprintf(stderr, "t_genval: %s: %ld games, %ld plies, %ld read-backs;", name, k,
			plies, c.readbacks);
		for (int i = 0; i < M_NMECH; i++)
			fprintf(stderr, " %s %ld;", mech_name[i], c.met[i]);
		fprintf(stderr, "\n");
	}
	if (coverage_asserted && vt_failed_checks == 0)
		for (int i = 0; i < M_NMECH; i++)
			if ((need >> i & 1) && !c.met[i])
				VT_FAIL_AT(__FILE__, __LINE__, "%s: %ld random games met no %s", name, k,
					   mech_name[i]);
	for (int f = 0; f <= F_BARE_LONG; f++)
		free(g.text[f]);
	vc_position_free(p);
	vc_variant_free(v);
}

/* ---- the tests ---- */

/* Each variant's games are seeded by its name, so that a variant added
 * leaves the others' games as they were (FNV-1a). */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

VT_TEST(every_builtin_variant)
{
	for (int i = 0; i < vc_builtin_count(); i++) {
		const char *name = vc_builtin_name(i);
		if (only_variant && strcmp(only_variant, name))
			continue;
		rng = seed + name_hash(name) * 0x9e3779b97f4a7c15ULL;
		check_variant(name, n_games, 1);
	}
}

/* Positions where the validator once called mate while the generator had a
 * reply: the reply must be legal, and the check before it no mate. */
struct known {
	const char *variant, *fen, *reply;
};
static const struct known known[] = {
	/* the pawn takes the checking knight */
	{ "sc-chess", "1r1qkr2/3bpp1p/np1N1np1/8/1pp4P/bP2P1R1/P1PPp3/PRB1KBP1[][QN] b - - 1 18",
	  "e7d6" },
	/* the rook takes the queen just dropped */
	{ "sc-chess", "2k5/1b2Pp1p/pB1B2pb/1p2Pr1p/PP5P/1P2nnP1/2r1QKP1/4R1q1[p][pRNN] w - - 1 61",
	  "e1g1" },
	/* the knight takes the checking bishop, after self-captures reordered the piece list */
	{ "sc-chess", "3p4/p2n3p/1Pb1PkBP/5Nr1/Np1p1K2/3q2b1/pPp3P1/1r2P1R1[BPP][npQR] w - - 2 54",
	  "f5g3" },
	{ "sc-chess", "B3k2r/p3QpPp/qb2pP1n/2pn2p1/5PRP/2Np4/1B1K4/3R4[Pp][rbNPPP] b - - 0 32",
	  "d5e7" },
	/* only a wall answers the archbishop's check: it slides in front of the king */
	{ "io-chess",
	  "grs3bqk1(sc)r3g/6w>=3(nn)3w|/pp2(CP)~n1pppA~2pp=/6(sc)7np/3pp11/1(cn)p7p5/6(nn)4p4/"
	  "(NN)4p10/4P2p8/11(CN)4/1P6P1P2P2/(cn)5P6(SC)2/3s12/PSPP1P1P1PNPP1PP/6W>=5W>=1/"
	  "GR2N(SC)1QKB3SRG b KQq - 9 30",
	  "W g15h15-i15j15" },
};

VT_TEST(known_disagreements)
{
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		struct vc_ctx *ctx = vc_ctx_new();
		vc_ctx_set_diag(ctx, quiet_diag, NULL);
		struct vc_variant *v = vc_variant_load(ctx, known[i].variant);
		struct vc_position *p = v ? vc_position_new(v) : NULL;
		if (!p || vc_position_set_fen(p, ctx, known[i].fen) != VC_OK) {
			VT_FAIL_AT(__FILE__, __LINE__, "%s does not set up", known[i].fen);
		} else {
			static vc_move lm[VC_MAX_MOVES];
			int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES);
			VT_CHECK(n > 0);
			VT_EQ_INT(vc_has_legal_move(p), 1);
			VT_EQ_INT(vc_position_outcome(p), 0);
			struct vc_san san;
			const char *code;
			char msg[256];
			vc_move m;
			const char *t = known[i].reply;
			if (vc_san_parse(v, t, strlen(t), &san, &code, msg, sizeof msg) != 0 ||
			    vc_san_resolve(p, &san, t, strlen(t), &m, NULL, &code, msg, sizeof msg) != 0)
				VT_FAIL_AT(__FILE__, __LINE__, "%s: '%s' is refused: %s", known[i].fen, t, msg);
			/* and the same through the whole game reader and validator */
			char text[2048];
			int len = snprintf(text, sizeof text,
					   "[Variant \"%s\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n\n%d%s %s *\n",
					   known[i].variant, known[i].fen, p->fullmove,
					   p->side ? "..." : ".", t);
			static struct ctx c;
			c.v = v;
			replay_text(&c, text, (size_t)len, 1, 0, "known", NULL, NULL, NULL, NULL);
		}
		vc_position_free(p);
		vc_variant_free(v);
		vc_ctx_free(ctx);
	}
}

/* A promotion by exchange in coordinates names the piece exchanged, so that
 * two knights (or a knight and the airfield's) give two texts. */
VT_TEST(exchange_promotion_coordinates)
{
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, quiet_diag, NULL);
	struct vc_variant *v = vc_variant_load(ctx, "sc-chess");
	struct vc_position *p = vc_position_new(v);
	VT_CHECK(vc_position_set_fen(p, ctx, "4k3/P7/8/8/8/2N5/8/4K1N1[N][] w - - 0 1") == VC_OK);
	static vc_move lm[VC_MAX_MOVES];
	int n = vc_position_legal_moves(p, lm, VC_MAX_MOVES), knights = 0;
	int seen_c3 = 0, seen_g1 = 0, seen_air = 0;
	for (int i = 0; i < n; i++) {
		char t[64];
		if (!(lm[i].flags & VC_MF_XPROMO) || lm[i].promo - 1 != vc_variant_piece_find(v, "N"))
			continue;
		knights++;
		vc_move_coord(v, &lm[i], t, sizeof t);
		seen_c3 += !strcmp(t, "a7a8n(c3)");
		seen_g1 += !strcmp(t, "a7a8n(g1)");
		seen_air += !strcmp(t, "a7a8n(air)");
	}
	VT_EQ_INT(knights, 3);
	VT_EQ_INT(seen_c3, 1);
	VT_EQ_INT(seen_g1, 1);
	VT_EQ_INT(seen_air, 1);
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
}

/* ---- writing games for the tools ---- */

static int write_games(const char *name, const char *formname)
{
	int f = 0;
	while (f < F_NFORMS && strcmp(form_name[f], formname))
		f++;
	if (f == F_NFORMS)
		return 2;
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, quiet_diag, NULL);
	struct vc_variant *v = vc_variant_load(ctx, name);
	vc_ctx_free(ctx);
	if (!v)
		return 2;
	static struct ctx c;
	c.v = v;
	rng = seed;
	struct vc_position *p = vc_position_new(v);
	struct played g = { 0 };
	for (long k = 0; k < n_games; k++) {
		size_t len;
		play_game(&c, p, &g, 0);
		char *t = archive_text(v, &g, (enum form)f, k + 1, &len);
		fwrite(t, 1, len, stdout);
		free(t);
	}
	for (int i = 0; i <= F_BARE_LONG; i++)
		free(g.text[i]);
	vc_position_free(p);
	vc_variant_free(v);
	return vt_failed_checks ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *write = NULL;
	for (int i = 1; i < argc; i += 2) { /* options and their values */
		const char *a = argv[i], *b = i + 1 < argc ? argv[i + 1] : NULL;
		if (!b) {
			fprintf(stderr, "t_genval: %s needs a value\n", a);
			return 2;
		}
		coverage_asserted = 0;
		if (!strcmp(a, "--games"))
			n_games = atol(b);
		else if (!strcmp(a, "--plies"))
			n_plies = atoi(b);
		else if (!strcmp(a, "--seed"))
			seed = strtoull(b, NULL, 10);
		else if (!strcmp(a, "--variant"))
			only_variant = b;
		else if (!strcmp(a, "--write"))
			write = b;
		else if (!strcmp(a, "--fen"))
			start_fen = b;
		else {
			fprintf(stderr, "usage: t_genval [--games N] [--plies P] [--seed S] "
					"[--variant NAME] [--write san|lan|coord [--fen FEN]]\n");
			return 2;
		}
	}
	if (write)
		return write_games(only_variant ? only_variant : "chess", write);
	static const struct vt_entry all[] = { VT_ENTRY(every_builtin_variant),
					       VT_ENTRY(known_disagreements),
					       VT_ENTRY(exchange_promotion_coordinates) };
	return vt_run(all, sizeof all / sizeof all[0]);
}
