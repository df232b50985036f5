/*
 * replay.c - replays game records through the rules (layer 7 over layers
 * 5 and 6): the variant from the Variant tag, the start from FEN/SetUp,
 * every move of the main line and of every variation, marks, move numbers
 * and the result.
 *
 * Variations are replayed without recursion and without copying positions:
 * the movetext is a flat list of items, and a stack of frames remembers, for
 * each open variation, the move it replaces (unmade at '(' and made again
 * at ')') and how many moves the variation made (unmade at ')').  A line
 * with an error is dead until its ')': its later moves, and variations
 * inside it, cannot be replayed and are skipped, but the lines around it go
 * on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/vc_rules.h"

#define MAX_VARIANTS 16

struct cached {
	char *key;
	struct vc_variant *v;
	struct vc_position *start;
	int failed;
};

struct frame {
	vc_move saved;
	int has_saved;
	int nmade;
	int dead;
};

struct vc_validator {
	struct vc_ctx *ctx;
	struct vc_validate_opts opts;
	struct cached cache[MAX_VARIANTS];
	int ncache;
	struct vc_position *pos;
	const struct vc_variant *cur;
	struct frame *frames;
	int nframes, capframes;
	char **fens;
	size_t nfens, capfens;
	vc_move_fn *fn;
	void *user;
	int have_pos; /* pos holds the current game's position */
	/* multi-player records: see the block "multi-player records" below */
	struct vc_annot *annot;
	size_t mp_next;  /* the next record problem to report */
	long mp_draw;    /* item of the acceptance that agreed a draw, -1 */
};

struct vc_validator *vc_validator_new(struct vc_ctx *ctx, const struct vc_validate_opts *opts)
{
	struct vc_validator *val = vc_calloc(1, sizeof *val);
	if (!val)
		return NULL;
	val->ctx = ctx;
	if (opts)
		val->opts = *opts;
	return val;
}

static void clear_fens(struct vc_validator *val)
{
	for (size_t i = 0; i < val->nfens; i++)
		free(val->fens[i]);
	val->nfens = 0;
}

void vc_validator_free(struct vc_validator *val)
{
	if (!val)
		return;
	for (int i = 0; i < val->ncache; i++) {
		free(val->cache[i].key);
		vc_position_free(val->cache[i].start);
		vc_variant_free(val->cache[i].v);
	}
	vc_position_free(val->pos);
	vc_annot_free(val->annot);
	free(val->frames);
	clear_fens(val);
	free(val->fens);
	free(val);
}

void vc_validator_set_move_fn(struct vc_validator *val, vc_move_fn *fn, void *user)
{
	val->fn = fn;
	val->user = user;
}

const struct vc_variant *vc_validator_variant(const struct vc_validator *val) { return val->cur; }

const char *vc_validator_diag_fen(const struct vc_validator *val, size_t i)
{
	return i < val->nfens ? val->fens[i] : NULL;
}

static struct cached *get_cached(struct vc_validator *val, const char *name, int builtin_only)
{
	for (int i = 0; i < val->ncache; i++)
		if (!strcasecmp(val->cache[i].key, name))
			return &val->cache[i];
	if (val->ncache == MAX_VARIANTS) {
		/* forget the oldest; rare: archives hold few variants */
		struct cached *c = &val->cache[0];
		free(c->key);
		vc_position_free(c->start);
		vc_variant_free(c->v);
		if (val->pos && val->cur == c->v) {
			vc_position_free(val->pos);
			val->pos = NULL;
			val->cur = NULL;
		}
		memmove(val->cache, val->cache + 1, (MAX_VARIANTS - 1) * sizeof *c);
		val->ncache--;
	}
	struct cached *c = &val->cache[val->ncache];
	memset(c, 0, sizeof *c);
	c->key = vc_strdup(name);
	if (!c->key)
		return NULL;
	struct vc_ctx *quiet = vc_ctx_new();
	/* a Variant tag names a built-in variant, never a file: an archive must
	 * not make the validator read files of its choosing */
	if (!builtin_only || vc_builtin_lookup(name))
		c->v = vc_variant_load(quiet ? quiet : val->ctx,
				       builtin_only ? vc_builtin_lookup(name) : name);
	vc_ctx_free(quiet);
	if (c->v) {
		c->start = vc_position_new(c->v);
		if (!c->start) {
			vc_variant_free(c->v);
			c->v = NULL;
		}
	}
	c->failed = c->v == NULL;
	val->ncache++;
	return c;
}

const struct vc_variant *vc_validator_get_variant(struct vc_validator *val, const char *name)
{
	struct cached *c = get_cached(val, name, 0);
	return c && !c->failed ? c->v : NULL;
}

/* Adds a diagnostic to the game and remembers the position it is about. */
static void gdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		  const char *code, long line, long col, long ply, const char *context,
		  const char *fmt, ...) __attribute__((format(printf, 9, 10)));

static void gdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		  const char *code, long line, long col, long ply, const char *context,
		  const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t idx = vc_game_diag_count(g);
	vc_game_add_diag(g, sev, code, line, col, ply, context, "%s", msg);
	if (vc_game_diag_count(g) != idx + 1)
		return;
	if (val->nfens <= idx) {
		if (idx + 1 > val->capfens) {
			size_t nc = (idx + 1) * 2;
			char **nf = realloc(val->fens, nc * sizeof *nf);
			if (!nf)
				return;
			val->fens = nf;
			val->capfens = nc;
		}
		while (val->nfens <= idx)
			val->fens[val->nfens++] = NULL;
	}
	if (val->pos && val->cur && val->have_pos) {
		size_t need = vc_position_fen(val->pos, NULL, 0) + 1;
		char *f = malloc(need);
		if (f) {
			vc_position_fen(val->pos, f, need);
			val->fens[idx] = f;
		}
	}
}

static const char *variant_name_of(const struct vc_game *g, const char *def, char *buf, size_t n)
{
	const char *tag = vc_game_tag(g, "Variant");
	if (!tag || !*tag)
		return def;
	/* SICO names its variation in a tag of its own */
	if (!strcasecmp(tag, "SICO")) {
		const char *sv = vc_game_tag(g, "SicoVariation");
		snprintf(buf, n, "sico-%s", sv && *sv ? sv : "0");
		return buf;
	}
	return tag;
}

static void tag_pos(const struct vc_game *g, const char *name, long *line, long *col)
{
	*line = vc_game_line(g);
	*col = 0;
	for (size_t i = 0; i < vc_game_tag_count(g); i++)
		if (!strcmp(vc_game_tag_name(g, i), name)) {
			vc_game_tag_pos(g, i, line, col);
			return;
		}
}

static int push_frame(struct vc_validator *val)
{
	if (val->nframes == val->capframes) {
		int nc = val->capframes ? val->capframes * 2 : 16;
		struct frame *nf = realloc(val->frames, (size_t)nc * sizeof *nf);
		if (!nf)
			return -1;
		val->frames = nf;
		val->capframes = nc;
	}
	memset(&val->frames[val->nframes], 0, sizeof val->frames[0]);
	val->nframes++;
	return 0;
}

/* ---- multi-player records (SICO) ---------------------------------------------------
 * Who played each ply, comments between plies, draw offers and acceptances,
 * read by lib/archive/annot.c from comment commands (vchess-sico(7)).  Records that
 * do not fit are warnings (errors with --strict), each reported when replay
 * reaches its comment, so that "-v" shows the position there.  A draw
 * agreed on the main line ends the game: a main-line move after it is an
 * error, and so is a result other than 1/2-1/2. */

/* The line and column of byte off of a comment item's text: the text
 * starts one byte after the '{' or ';' at the item's position. */
static void mp_where(const struct vc_item *it, size_t off, long *line, long *col)
{
	*line = it->line;
	*col = it->col + 1;
	for (size_t k = 0; k < off && k < it->len; k++) {
		if (it->text[k] == '\n') {
			++*line;
			*col = 1;
		} else
			++*col;
	}
}

/* Reads g's records; reports a bad DrawAcceptances tag.  -1: out of memory. */
static int mp_begin(struct vc_validator *val, struct vc_game *g, enum vc_severity soft)
{
	val->mp_next = 0;
	val->mp_draw = -1;
	if (!val->annot && !(val->annot = vc_annot_new()))
		return -1;
	if (vc_annot_read(val->annot, g) != 0)
		return -1;
	long de = vc_annot_draw_event(val->annot);
	if (de >= 0)
		val->mp_draw = (long)vc_annot_event_at(val->annot, (size_t)de)->item;
	const struct vc_annot_problem *pr;
	while ((pr = vc_annot_problem_at(val->annot, val->mp_next)) && pr->item < 0) {
		long line, col;
		tag_pos(g, "DrawAcceptances", &line, &col);
		gdiag(val, g, soft, pr->code, line, col, 0, NULL, "%s", pr->message);
		val->mp_next++;
	}
	return 0;
}

/* Replay has reached comment item i: reports its records' problems.
 * mated: the main line has ended in checkmate. */
static void mp_comment(struct vc_validator *val, struct vc_game *g, size_t i, enum vc_severity soft,
		       int mated)
{
	const struct vc_item *it = vc_game_item(g, i);
	const struct vc_annot_problem *pr;
	char ctx[40];
	while ((pr = vc_annot_problem_at(val->annot, val->mp_next)) && pr->item == (long)i) {
		long line, col;
		mp_where(it, pr->off, &line, &col);
		snprintf(ctx, sizeof ctx, "before ply %ld", pr->ply > 0 ? pr->ply : 1);
		gdiag(val, g, soft, pr->code, line, col, pr->ply, ctx, "%s", pr->message);
		val->mp_next++;
	}
	if (val->mp_draw == (long)i && mated) {
		const struct vc_annot_event *e =
			vc_annot_event_at(val->annot, (size_t)vc_annot_draw_event(val->annot));
		long line, col;
		mp_where(it, e->off, &line, &col);
		snprintf(ctx, sizeof ctx, "before ply %ld", e->ply);
		gdiag(val, g, soft, "annot-draw", line, col, e->ply, ctx,
		      "a draw agreed after the game ended in checkmate");
	}
}

/* Is main-line move item i played after an agreed draw? */
static int mp_after_draw(const struct vc_validator *val, size_t i)
{
	return val->mp_draw >= 0 && (long)i > val->mp_draw;
}

/* The result of a game whose draw was agreed must be 1/2-1/2. */
static void mp_result(struct vc_validator *val, struct vc_game *g)
{
	if (val->mp_draw < 0)
		return;
	const char *res = vc_game_result(g), *tag = vc_game_tag(g, "Result");
	const char *said = res ? res : tag;
	if (!said || !strcmp(said, "1/2-1/2"))
		return;
	long rl, rc;
	if (res)
		vc_game_result_pos(g, &rl, &rc);
	else
		tag_pos(g, "Result", &rl, &rc);
	const struct vc_annot_event *e =
		vc_annot_event_at(val->annot, (size_t)vc_annot_draw_event(val->annot));
	gdiag(val, g, VC_SEV_ERROR, "result-wrong", rl, rc, 0, NULL,
	      "the game ended in a draw by agreement before ply %ld (%d acceptances of the offer) "
	      "but the result is '%s'",
	      e->ply, e->count, said);
}

/* ---- end of multi-player records ---- */

static const char *result_for(int outcome, int side_to_move)
{
	if (outcome == 1)
		return side_to_move == VC_WHITE ? "0-1" : "1-0";
	if (outcome == 2)
		return "1/2-1/2";
	return NULL;
}

vc_status vc_validate(struct vc_validator *val, struct vc_game *g, struct vc_game_stats *st)
{
	struct vc_game_stats dummy;
	char namebuf[64];
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	clear_fens(val);
	val->have_pos = 0;
	if (vc_game_is_garbage(g)) {
		st->valid = 0;
		return VC_FAILED;
	}
	const char *def = val->opts.default_variant ? val->opts.default_variant : "chess";
	if (val->opts.force_variant)
		def = val->opts.force_variant;
	const char *vname =
		val->opts.force_variant ? def : variant_name_of(g, def, namebuf, sizeof namebuf);
	struct cached *c = get_cached(val, vname, vname != def);
	long line, col;
	if (!c || c->failed) {
		tag_pos(g, "Variant", &line, &col);
		if (vname == def) {
			vc_emit(val->ctx, VC_SEV_FATAL, "variant-unknown", NULL, 0, 0, NULL,
				"cannot load variant '%s'", def);
			return VC_FATAL;
		}
		val->cur = NULL;
		gdiag(val, g, VC_SEV_ERROR, "variant-unknown", line, col, 0, NULL,
		      "unknown variant '%s': game not replayed", vname);
		st->unknown_variant = 1;
		return VC_FAILED;
	}
	const struct vc_variant *v = c->v;
	st->variant = v->name;
	if (!val->pos || val->cur != v) {
		vc_position_free(val->pos);
		val->pos = vc_position_new(v);
		if (!val->pos)
			return VC_FATAL;
	}
	val->cur = v;
	struct vc_position *p = val->pos;
	int strict = val->opts.strict;
	enum vc_severity soft = strict ? VC_SEV_ERROR : VC_SEV_WARNING;

	/* the start position */
	const char *fen = vc_game_tag(g, "FEN");
	const char *setup = vc_game_tag(g, "SetUp");
	if (fen) {
		if (setup && strcmp(setup, "1")) {
			tag_pos(g, "SetUp", &line, &col);
			gdiag(val, g, soft, "setup-mismatch", line, col, 0, NULL,
			      "SetUp is '%s' but a FEN tag is present", setup);
		} else if (!setup && strict) {
			tag_pos(g, "FEN", &line, &col);
			gdiag(val, g, VC_SEV_ERROR, "strict-no-setup", line, col, 0, NULL,
			      "FEN tag without a SetUp \"1\" tag");
		}
		struct vc_ctx *quiet = vc_ctx_new();
		vc_status s = vc_position_set_fen(p, quiet, fen);
		if (s != VC_OK) {
			tag_pos(g, "FEN", &line, &col);
			char msg[300];
			snprintf(msg, sizeof msg, "%s", quiet ? vc_ctx_last_message(quiet) : "bad position");
			vc_ctx_free(quiet);
			gdiag(val, g, VC_SEV_ERROR, "fen-invalid", line, col, 0, NULL,
			      "position string '%s' does not read: %s", fen, msg);
			return VC_FAILED;
		}
		vc_ctx_free(quiet);
	} else {
		if (setup && !strcmp(setup, "1")) {
			tag_pos(g, "SetUp", &line, &col);
			gdiag(val, g, VC_SEV_ERROR, "setup-no-fen", line, col, 0, NULL,
			      "SetUp \"1\" without a FEN tag: the game starts from the variant's setup");
		}
		vc_position_copy(p, c->start);
	}
	val->have_pos = 1;
	if (mp_begin(val, g, soft) != 0) /* multi-player records */
		return VC_FATAL;
	long start_ply = p->ply;
	int start_side = p->side;
	long start_move = p->fullmove;

	val->nframes = 0;
	if (push_frame(val) != 0)
		return VC_FATAL;
	int mated = 0;     /* the main line's last move gave mate */
	int cur_check = -1; /* is the side to move in check (-1: not known) */
	size_t nitems = vc_game_item_count(g);
	static __thread char msg[512];
	char ctxs[160];
	for (size_t i = 0; i < nitems; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		struct frame *f = &val->frames[val->nframes - 1];
		int depth = val->nframes - 1;
		if (it->type == VC_IT_VAR_START) {
			int dead = f->dead;
			vc_move saved;
			int has = 0;
			if (!dead) {
				if (f->nmade == 0 && depth == 0 && p->nundo == 0) {
					gdiag(val, g, VC_SEV_ERROR, "var-misplaced", it->line, it->col, 0, NULL,
					      "a variation before the first move");
					dead = 1;
				} else if (f->nmade == 0) {
					gdiag(val, g, VC_SEV_ERROR, "var-misplaced", it->line, it->col, 0, NULL,
					      "a variation that starts with another variation");
					dead = 1;
				} else {
					saved = p->undo[p->nundo - 1].m;
					vc_pos_unmake(p);
					f->nmade--;
					has = 1;
				}
			}
			if (push_frame(val) != 0)
				return VC_FATAL;
			cur_check = -1;
			f = &val->frames[val->nframes - 1];
			f->dead = dead;
			if (has) {
				f->saved = saved;
				f->has_saved = 1;
			}
			continue;
		}
		if (it->type == VC_IT_VAR_END) {
			if (val->nframes <= 1)
				continue; /* the reader reported it */
			for (int k = 0; k < f->nmade; k++)
				vc_pos_unmake(p);
			vc_move saved = f->saved;
			int has = f->has_saved;
			val->nframes--;
			f = &val->frames[val->nframes - 1];
			if (has && vc_pos_make(p, &saved) == 0)
				f->nmade++;
			cur_check = -1;
			continue;
		}
		if (it->type == VC_IT_COMMENT) /* multi-player records */
			mp_comment(val, g, i, soft, depth == 0 && mated);
		if (it->type != VC_IT_MOVE || f->dead)
			continue;

		long ply = p->ply - start_ply + 1;
		long mno = start_move + (ply - 1 + start_side) / 2;
		int black = (ply - 1 + start_side) % 2;
#define CTX() (snprintf(ctxs, sizeof ctxs, "ply %ld '%ld.%s %.*s'%s", ply, mno, black ? ".." : "", \
			(int)(it->len > 60 ? 60 : it->len), it->text, depth ? " in a variation" : ""), \
	       ctxs)
		if (depth == 0 && mated) {
			gdiag(val, g, VC_SEV_ERROR, "move-after-end", it->line, it->col, ply, CTX(),
			      "the game already ended in checkmate");
			f->dead = 1;
			continue;
		}
		if (depth == 0 && mp_after_draw(val, i)) { /* multi-player records */
			gdiag(val, g, VC_SEV_ERROR, "move-after-end", it->line, it->col, ply, CTX(),
			      "the game already ended in a draw by agreement");
			f->dead = 1;
			continue;
		}
		if (strict && (it->flags & VC_IF_MOVENUM) && it->movenum != mno)
			gdiag(val, g, VC_SEV_ERROR, "strict-move-number", it->line, it->col, ply, CTX(),
			      "move number %ld where %ld was due", it->movenum, mno);
		vc_move m;
		struct vc_san san;
		const char *code = NULL;
		int untested = 0;
		if (cur_check < 0)
			cur_check = vc_in_check(p, p->side);
		if (it->flags & VC_IF_NULL) {
			memset(&san, 0, sizeof san);
			memset(&m, 0, sizeof m);
			m.from = m.to = m.from2 = m.to2 = m.aux = -1;
			m.flags = VC_MF_NULL;
			if (cur_check) {
				gdiag(val, g, VC_SEV_ERROR, "move-illegal", it->line, it->col, ply, CTX(),
				      "a null move while in check");
				f->dead = 1;
				continue;
			}
		} else if (vc_san_parse(v, it->text, it->len, &san, &code, msg, sizeof msg) != 0 ||
			   vc_san_resolve(p, &san, it->text, it->len, &m, &untested, &code, msg,
					  sizeof msg) != 0) {
			if (code && !strncmp(code, "move-", 5) && strcmp(code, "move-syntax") &&
			    strcmp(code, "move-offboard") && !cur_check && !vc_has_legal_move(p)) {
				code = "move-after-end";
				snprintf(msg, sizeof msg, "the game already ended in stalemate");
			}
			gdiag(val, g, VC_SEV_ERROR, code, it->line, it->col, ply, CTX(), "%s", msg);
			f->dead = 1;
			continue;
		}
		if (untested && vc_move_may_expose(p, &m, cur_check)) {
			int bad = cur_check ? vc_move_leaves_check(p, &m) : vc_move_exposes(p, &m);
			if (bad < 0)
				return VC_FATAL;
			if (bad && !cur_check && !vc_has_legal_move(p)) {
				gdiag(val, g, VC_SEV_ERROR, "move-after-end", it->line, it->col, ply, CTX(),
				      "the game already ended in stalemate");
				f->dead = 1;
				continue;
			}
			if (bad) {
				gdiag(val, g, VC_SEV_ERROR, "move-illegal", it->line, it->col, ply, CTX(),
				      "'%.*s' would leave the king in check%s", (int)it->len, it->text,
				      vc_position_plies_to_transform(p) == 1
					      ? " once the board halves swap"
					      : "");
				f->dead = 1;
				continue;
			}
		}
		if (!(m.flags & VC_MF_NULL)) {
			int cap = (m.flags & VC_MF_CAPTURE) != 0;
			if (san.capture_mark && !cap)
				gdiag(val, g, soft, "mark-capture", it->line, it->col, ply, CTX(),
				      "written as a capture but captures nothing");
			else if (strict && cap && !san.capture_mark && !(m.flags & VC_MF_CASTLE))
				gdiag(val, g, VC_SEV_ERROR, "mark-capture", it->line, it->col, ply, CTX(),
				      "a capture written without 'x'");
			if (strict && san.castle && (memchr(it->text, '0', it->len) != NULL) != v->castle_zero)
				gdiag(val, g, VC_SEV_ERROR, "strict-castling", it->line, it->col, ply, CTX(),
				      "castling is written %s in this variant",
				      v->castle_zero ? "with zeros (0-0)" : "with the letter O (O-O)");
			if ((it->flags & VC_IF_EP_MARK) && !(m.flags & VC_MF_EP))
				gdiag(val, g, soft, "mark-ep", it->line, it->col, ply, CTX(),
				      "marked 'e.p.' but it is not an en-passant capture");
		}
		if (val->fn) {
			char sanbuf[96];
			vc_move_san(p, &m, 0, sanbuf, sizeof sanbuf);
			val->fn(val->user, g, i, p, &m, sanbuf, depth);
		}
		if (vc_pos_make(p, &m) != 0)
			return VC_FATAL;
		f->nmade++;
		if (depth == 0)
			st->plies++;
		else
			st->var_plies++;
		/* marks: check and mate */
		int check = vc_check_after(p, &m);
		int mate = 0;
		cur_check = check;
		if (check)
			mate = !vc_has_legal_move(p);
		if (depth == 0)
			mated = mate;
		if (!(it->flags & VC_IF_NULL)) {
			if (san.check == 2 && !mate)
				gdiag(val, g, soft, "mark-check", it->line, it->col, ply, CTX(),
				      check ? "marked '#' but it is check, not mate"
					    : "marked '#' but it gives no check");
			else if (san.check == 1 && !check)
				gdiag(val, g, soft, "mark-check", it->line, it->col, ply, CTX(),
				      "marked '+' but it gives no check");
			else if (san.check == 1 && mate)
				gdiag(val, g, soft, "mark-check", it->line, it->col, ply, CTX(),
				      "marked '+' but it is checkmate: '#' is due");
			else if (strict && !san.check && check)
				gdiag(val, g, VC_SEV_ERROR, "mark-check", it->line, it->col, ply, CTX(),
				      mate ? "checkmate written without '#'" : "check written without '+'");
		}
#undef CTX
	}
	/* back to the end of the main line: close what the reader left open */
	while (val->nframes > 1) {
		struct frame *f = &val->frames[val->nframes - 1];
		for (int k = 0; k < f->nmade; k++)
			vc_pos_unmake(p);
		vc_move saved = f->saved;
		int has = f->has_saved;
		val->nframes--;
		if (has && vc_pos_make(p, &saved) == 0)
			val->frames[val->nframes - 1].nmade++;
	}
	/* the result against the final position */
	const char *res = vc_game_result(g);
	const char *tag = vc_game_tag(g, "Result");
	if (res && tag && strcmp(res, tag)) {
		long rl, rc;
		vc_game_result_pos(g, &rl, &rc);
		gdiag(val, g, soft, "result-mismatch", rl, rc, 0, NULL,
		      "the movetext ends in '%s' but the Result tag says '%s'", res, tag);
	}
	if (!val->frames[0].dead) {
		int outcome = vc_position_outcome(p);
		const char *due = result_for(outcome, p->side);
		const char *said = res ? res : tag;
		if (due && said && strcmp(said, "*") && strcmp(said, due)) {
			long rl, rc;
			if (res)
				vc_game_result_pos(g, &rl, &rc);
			else
				tag_pos(g, "Result", &rl, &rc);
			gdiag(val, g, VC_SEV_ERROR, "result-wrong", rl, rc, 0, NULL,
			      "the game ends in %s but the result is '%s'",
			      outcome == 1 ? (p->side == VC_WHITE ? "checkmate of White"
								  : "checkmate of Black")
					   : "stalemate",
			      said);
		}
	}
	mp_result(val, g); /* multi-player records */
	st->valid = vc_game_worst(g) < VC_SEV_ERROR;
	return st->valid ? VC_OK : VC_FAILED;
}
