/*
 * validate.c - replays game records through the rules (layer 7 over layers
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

#include "archive/vc_archive.h"
#include "rules/vc_rules.h"

/* Variants compiled once per validator and kept: a built-in under its
 * canonical name, a file under its path (at most the built-ins and the
 * files a run names, so the cache needs no eviction).  Names as games write
 * them ("Three-check", "3check", "SICO 12") go to their entry through a
 * memo of at most MAX_NAMES spellings, cleared when full: interleaved
 * spellings of one variant never compile it again. */
#define MAX_NAMES 256

struct cached {
	char *key;
	struct vc_variant *v;
	struct vc_position *start;
	struct vc_position *work; /* the replay's, made at its first game */
	int failed;
};

struct name_memo {
	char *name; /* as written */
	int entry;  /* index into cache, or -1: no such variant */
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
	struct cached *cache;
	int ncache, capcache;
	struct cached unknown; /* what names of no variant get */
	struct name_memo *names;
	int nnames;
	struct vc_position *pos;
	const struct vc_variant *cur;
	enum vc_end_rule end; /* of the last game's main line (check_result) */
	struct frame *frames;
	int nframes, capframes;
	char **fens;
	size_t nfens, capfens;
	vc_move_fn *fn;
	vc_mark_fn *mark_fn;
	void *user;
	int have_pos; /* pos holds the current game's position */
	/* multi-player records: see the block "multi-player records" below */
	struct vc_annot *annot;
	size_t mp_next; /* the next record problem to report */
	long mp_draw;   /* item of the acceptance that agreed a draw, -1 */
};

struct vc_validator *vc_validator_new(struct vc_ctx *ctx, const struct vc_validate_opts *opts)
{
	struct vc_validator *val = vc_calloc(1, sizeof *val);
	if (!val)
		return NULL;
	val->ctx = ctx;
	if (opts)
		val->opts = *opts;
	val->unknown.failed = 1;
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
		vc_position_free(val->cache[i].work);
		vc_variant_free(val->cache[i].v);
	}
	free(val->cache);
	for (int i = 0; i < val->nnames; i++)
		free(val->names[i].name);
	free(val->names);
	vc_annot_free(val->annot); /* val->pos is a cache entry's */
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

void vc_validator_set_mark_fn(struct vc_validator *val, vc_mark_fn *fn)
{
	val->mark_fn = fn;
}

const struct vc_variant *vc_validator_variant(const struct vc_validator *val)
{
	return val->cur;
}

const struct vc_position *vc_validator_final(const struct vc_validator *val)
{
	return val->have_pos && val->nframes > 0 && !val->frames[0].dead ? val->pos : NULL;
}

const char *vc_validator_diag_fen(const struct vc_validator *val, size_t i)
{
	return i < val->nfens ? val->fens[i] : NULL;
}

/* The entry of the variant under key (a built-in's canonical name, or a
 * file), compiled on first use; NULL when out of memory. */
static struct cached *compiled(struct vc_validator *val, const char *key)
{
	for (int i = 0; i < val->ncache; i++)
		if (!strcmp(val->cache[i].key, key))
			return &val->cache[i];
	if (val->ncache == val->capcache) {
		int nc = val->capcache ? 2 * val->capcache : 8;
		struct cached *n = realloc(val->cache, (size_t)nc * sizeof *n);
		if (!n)
			return NULL;
		val->cache = n;
		val->capcache = nc;
	}
	struct cached *c = &val->cache[val->ncache];
	memset(c, 0, sizeof *c);
	c->key = vc_strdup(key);
	if (!c->key)
		return NULL;
	struct vc_ctx *quiet = vc_ctx_new();
	vc_ctx_copy_settings(quiet, val->ctx); /* --no-bitboards too */
	c->v = vc_variant_load(quiet ? quiet : val->ctx, key);
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

/* The variant a name stands for: builtin_only (a Variant tag) names a
 * built-in, never a file, so that an archive cannot make the validator read
 * files of its choosing. */
static struct cached *get_cached(struct vc_validator *val, const char *name, int builtin_only)
{
	for (int i = 0; i < val->nnames; i++)
		if (!strcmp(val->names[i].name, name))
			return val->names[i].entry < 0 ? &val->unknown
						       : &val->cache[val->names[i].entry];
	const char *key = vc_builtin_lookup(name);
	if (!key && !builtin_only)
		key = name;
	struct cached *c = key ? compiled(val, key) : &val->unknown;
	if (!c)
		return NULL;
	if (!val->names) {
		val->names = vc_calloc(MAX_NAMES, sizeof *val->names);
		if (!val->names)
			return c;
	}
	if (val->nnames == MAX_NAMES) { /* rare: so many spellings */
		for (int i = 0; i < val->nnames; i++)
			free(val->names[i].name);
		val->nnames = 0;
	}
	struct name_memo *m = &val->names[val->nnames];
	m->name = vc_strdup(name);
	if (m->name) {
		m->entry = c == &val->unknown ? -1 : (int)(c - val->cache);
		val->nnames++;
	}
	return c;
}

const struct vc_variant *vc_validator_get_variant(struct vc_validator *val, const char *name)
{
	struct cached *c = get_cached(val, name, 0);
	return c && !c->failed ? c->v : NULL;
}

/* Adds a diagnostic to the game and remembers the position it is about. */
static void vgdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		   const char *code, long line, long col, long ply, const char *context,
		   const char *fmt, va_list ap) __attribute__((format(printf, 9, 0)));

static void vgdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		   const char *code, long line, long col, long ply, const char *context,
		   const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
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

static void gdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		  const char *code, long line, long col, long ply, const char *context,
		  const char *fmt, ...) __attribute__((format(printf, 9, 10)));

static void gdiag(struct vc_validator *val, struct vc_game *g, enum vc_severity sev,
		  const char *code, long line, long col, long ply, const char *context,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vgdiag(val, g, sev, code, line, col, ply, context, fmt, ap);
	va_end(ap);
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

/* ---- one game: the stages of vc_validate -------------------------------------------
 * The variant, the start position, the movetext replayed item by item (a
 * move's replay in steps: is it due, which move it is, its marks, made),
 * then the result against the final position. */

/* Chooses the game's variant: val->cur and val->pos are then the
 * variant's, *cp its cache entry.  VC_OK, or what vc_validate returns. */
static vc_status choose_variant(struct vc_validator *val, struct vc_game *g,
				struct vc_game_stats *st, struct cached **cp)
{
	char namebuf[64];
	const char *def = val->opts.default_variant ? val->opts.default_variant : "chess";
	if (val->opts.force_variant)
		def = val->opts.force_variant;
	const char *vname =
		val->opts.force_variant ? def : variant_name_of(g, def, namebuf, sizeof namebuf);
	struct cached *c = get_cached(val, vname, vname != def);
	if (!c || c->failed) {
		long line, col;
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
	if (!c->work && !(c->work = vc_position_new(v)))
		return VC_FATAL;
	val->pos = c->work; /* kept: games that switch variants make none */
	val->cur = v;
	*cp = c;
	return VC_OK;
}

/* The start position from the FEN tag: VC_OK, or VC_FAILED when it does
 * not read. */
static vc_status set_up_fen(struct vc_validator *val, struct vc_game *g, const char *fen,
			    const char *setup, enum vc_severity soft)
{
	long line, col;
	if (setup && strcmp(setup, "1")) {
		tag_pos(g, "SetUp", &line, &col);
		gdiag(val, g, soft, "setup-mismatch", line, col, 0, NULL,
		      "SetUp is '%s' but a FEN tag is present", setup);
	} else if (!setup && val->opts.strict) {
		tag_pos(g, "FEN", &line, &col);
		gdiag(val, g, VC_SEV_ERROR, "strict-no-setup", line, col, 0, NULL,
		      "FEN tag without a SetUp \"1\" tag");
	}
	struct vc_ctx *quiet = vc_ctx_new();
	vc_status s = vc_position_set_fen(val->pos, quiet, fen);
	if (s != VC_OK) {
		tag_pos(g, "FEN", &line, &col);
		char msg[300];
		snprintf(msg, sizeof msg, "%s",
			 quiet ? vc_ctx_last_message(quiet) : "bad position");
		vc_ctx_free(quiet);
		gdiag(val, g, VC_SEV_ERROR, "fen-invalid", line, col, 0, NULL,
		      "position string '%s' does not read: %s", fen, msg);
		return VC_FAILED;
	}
	if (quiet && vc_ctx_count(quiet, VC_SEV_WARNING)) {
		/* the string read with a warning: a move number 0, as puzzle
		 * tools write, read as 1 */
		tag_pos(g, "FEN", &line, &col);
		gdiag(val, g, soft, "fen-move-zero", line, col, 0, NULL, "position string '%s': %s",
		      fen, vc_ctx_last_message(quiet));
	}
	vc_ctx_free(quiet);
	return VC_OK;
}

/* The start position: the FEN tag's, else the variant's setup (c's). */
static vc_status set_up(struct vc_validator *val, struct vc_game *g, const struct cached *c,
			enum vc_severity soft)
{
	const char *fen = vc_game_tag(g, "FEN");
	const char *setup = vc_game_tag(g, "SetUp");
	if (fen)
		return set_up_fen(val, g, fen, setup, soft);
	if (setup && !strcmp(setup, "1")) {
		long line, col;
		tag_pos(g, "SetUp", &line, &col);
		gdiag(val, g, VC_SEV_ERROR, "setup-no-fen", line, col, 0, NULL,
		      "SetUp \"1\" without a FEN tag: the game starts from the variant's setup");
	}
	vc_position_copy(val->pos, c->start);
	return VC_OK;
}

/* The replay of one game's movetext. */
struct walk {
	struct vc_validator *val;
	struct vc_game *g;
	struct vc_game_stats *st;
	struct vc_position *p;
	const struct vc_variant *v;
	enum vc_severity soft; /* of readings that strict mode makes errors */
	int strict;
	long start_ply, start_move; /* of the start position */
	int start_side;
	int mated;         /* the main line's last move gave mate */
	long end_ply;      /* the main line ended by its move of this ply (0: goes on) */
	char end_text[96]; /* how: "checkmate of Black", "White's king reached the hill" */
	int cur_check;     /* is the side to move in check (-1: not known) */
	/* the move being replayed: item i, it, at depth; its ply */
	size_t i;
	const struct vc_item *it;
	int depth;
	long ply;
	char ctx[160];
};

/* The move number of the move being replayed. */
static long move_number(const struct walk *w)
{
	return w->start_move + (w->ply - 1 + w->start_side) / 2;
}

/* A diagnostic about the move being replayed, with its ply and a context
 * such as "ply 7 '4. Nxe5'". */
static void move_diag(struct walk *w, enum vc_severity sev, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void move_diag(struct walk *w, enum vc_severity sev, const char *code, const char *fmt, ...)
{
	const struct vc_item *it = w->it;
	int black = (w->ply - 1 + w->start_side) % 2;
	snprintf(w->ctx, sizeof w->ctx, "ply %ld '%ld.%s %.*s'%s", w->ply, move_number(w),
		 black ? ".." : "", (int)(it->len > 60 ? 60 : it->len), it->text,
		 w->depth ? " in a variation" : "");
	va_list ap;
	va_start(ap, fmt);
	vgdiag(w->val, w->g, sev, code, it->line, it->col, w->ply, w->ctx, fmt, ap);
	va_end(ap);
}

/* Closes the innermost variation: its moves unmade, the move it replaced
 * made again. */
static void pop_frame(struct vc_validator *val)
{
	struct vc_position *p = val->pos;
	struct frame *f = &val->frames[val->nframes - 1];
	for (int k = 0; k < f->nmade; k++)
		vc_pos_unmake(p);
	vc_move saved = f->saved;
	int has = f->has_saved;
	val->nframes--;
	if (has && vc_pos_make(p, &saved) == 0)
		val->frames[val->nframes - 1].nmade++;
}

/* A '(' (item it): the variation replaces the last move of its line, which
 * is unmade; a variation with no move to replace is dead. */
static vc_status var_start(struct walk *w, const struct vc_item *it, int depth)
{
	struct vc_validator *val = w->val;
	struct vc_position *p = w->p;
	struct frame *f = &val->frames[val->nframes - 1];
	int dead = f->dead;
	vc_move saved;
	int has = 0;
	if (!dead) {
		if (f->nmade == 0 && depth == 0 && p->nundo == 0) {
			gdiag(val, w->g, VC_SEV_ERROR, "var-misplaced", it->line, it->col, 0, NULL,
			      "a variation before the first move");
			dead = 1;
		} else if (f->nmade == 0) {
			gdiag(val, w->g, VC_SEV_ERROR, "var-misplaced", it->line, it->col, 0, NULL,
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
	w->cur_check = -1;
	f = &val->frames[val->nframes - 1];
	f->dead = dead;
	if (has) {
		f->saved = saved;
		f->has_saved = 1;
	}
	return VC_OK;
}

/* Has the line of the move ended before it (mate, or a draw agreed on the
 * main line)?  Then the move is an error, and its line dead. */
static int line_has_ended(struct walk *w)
{
	if (w->depth == 0 && w->end_ply) {
		if (w->mated)
			move_diag(w, VC_SEV_ERROR, "move-after-end",
				  "the game already ended in checkmate");
		else
			move_diag(w, VC_SEV_ERROR, "move-after-end",
				  "the game already ended at ply %ld: %s", w->end_ply, w->end_text);
		return 1;
	}
	if (w->depth == 0 && mp_after_draw(w->val, w->i)) { /* multi-player records */
		move_diag(w, VC_SEV_ERROR, "move-after-end",
			  "the game already ended in a draw by agreement");
		return 1;
	}
	return 0;
}

/* A move that is no move here: has the game ended before it, by a rule
 * that the replay does not look for after every move (a stalemate, or any
 * end inside a variation)?  Then 1, the error stored. */
static int after_end(struct walk *w)
{
	struct vc_end e;
	switch (vc_position_end(w->p, &e)) {
	case VC_END_NONE:
		return 0;
	case VC_END_STALEMATE:
		move_diag(w, VC_SEV_ERROR, "move-after-end", "the game already ended in stalemate");
		break;
	case VC_END_CHECKMATE:
		move_diag(w, VC_SEV_ERROR, "move-after-end", "the game already ended in checkmate");
		break;
	default:
		move_diag(w, VC_SEV_ERROR, "move-after-end", "the game already ended: %s", e.text);
	}
	return 1;
}

/* The move the item says, into m and san: 0, or 1 when it is no move here
 * (an error stored). */
static int read_move(struct walk *w, vc_move *m, struct vc_san *san, int *untested)
{
	static __thread char msg[512];
	const struct vc_item *it = w->it;
	const char *code = NULL;
	if (it->flags & VC_IF_NULL) {
		memset(san, 0, sizeof *san);
		memset(m, 0, sizeof *m);
		m->from = m->to = m->from2 = m->to2 = m->aux = -1;
		m->flags = VC_MF_NULL;
		if (w->v->rules & VC_R_PASS) { /* a variant's own pass */
			if (vc_pass_move(w->p, m))
				return 0;
			move_diag(w, VC_SEV_ERROR, "move-illegal", "a pass while in check");
			return 1;
		}
		if (w->cur_check) {
			move_diag(w, VC_SEV_ERROR, "move-illegal", "a null move while in check");
			return 1;
		}
		return 0;
	}
	if (vc_san_parse(w->v, it->text, it->len, san, &code, msg, sizeof msg) == 0 &&
	    vc_san_resolve(w->p, san, it->text, it->len, m, untested, &code, msg, sizeof msg) == 0)
		return 0;
	if (code && !strncmp(code, "move-", 5) && strcmp(code, "move-syntax") &&
	    strcmp(code, "move-offboard") && after_end(w))
		return 1;
	move_diag(w, VC_SEV_ERROR, code, "%s", msg);
	return 1;
}

/* A move whose legality vc_san_resolve left untested: does it leave the
 * king in check?  0 no, 1 yes (an error stored), -1 out of memory. */
static int leaves_king(struct walk *w, const vc_move *m)
{
	struct vc_position *p = w->p;
	if (!vc_move_may_expose(p, m, w->cur_check))
		return 0;
	int bad = w->cur_check ? vc_move_leaves_check(p, m) : vc_move_exposes(p, m);
	if (bad <= 0)
		return bad;
	if (after_end(w))
		return 1;
	move_diag(w, VC_SEV_ERROR, "move-illegal", "'%.*s' %s%s", (int)w->it->len, w->it->text,
		  vc_illegal_why(p, m),
		  vc_position_plies_to_transform(p) == 1 ? " once the board halves swap" : "");
	return 1;
}

/* Strict mode: is the move written as the PGN standard's SAN (what
 * vc_move_san writes, check marks apart: check_marks sees to them)?  0, or
 * 1 with a strict-san error that says which form it is and what SAN
 * writes: coordinates ("e2e4"), long algebraic ("Ng1-f3"), a pawn's letter
 * ("Pe4"), a promotion without '=' ("bxa8Q", "bxa8/Q", "bxa8(Q)"), ':' for
 * a capture ("B:c6"), a glued e.p. mark ("exd6ep"), more than SAN needs to
 * tell the piece ("Ngf3" where only one knight can go). */
static int strict_san(struct walk *w, const vc_move *m)
{
	char msg[256];
	if (vc_san_strict(w->p, m, w->it->text, w->it->len, msg, sizeof msg) == 0)
		return 0;
	move_diag(w, VC_SEV_ERROR, "strict-san", "%s", msg);
	return 1;
}

/* The marks of a move (not a null move) that stand before it is made:
 * 'x', the castling letters, "e.p.".  not_san: strict_san has already said
 * how the move should be written (a missing 'x' included). */
static void capture_marks(struct walk *w, const vc_move *m, const struct vc_san *san, int not_san)
{
	const struct vc_item *it = w->it;
	int cap = (m->flags & VC_MF_CAPTURE) != 0;
	if (san->capture_mark && !cap)
		move_diag(w, w->soft, "mark-capture", "written as a capture but captures nothing");
	else if (w->strict && cap && !san->capture_mark && !(m->flags & VC_MF_CASTLE) && !not_san)
		move_diag(w, VC_SEV_ERROR, "mark-capture", "a capture written without 'x'");
	if (w->strict && san->castle &&
	    (memchr(it->text, '0', it->len) != NULL) != w->v->castle_zero)
		move_diag(w, VC_SEV_ERROR, "strict-castling",
			  "castling is written %s in this variant",
			  w->v->castle_zero ? "with zeros (0-0)" : "with the letter O (O-O)");
	if ((it->flags & VC_IF_EP_MARK) && !(m->flags & VC_MF_EP))
		move_diag(w, w->soft, "mark-ep",
			  "marked 'e.p.' but it is not an en-passant capture");
}

/* After the move m is made: does it give check, does it end the game?  The
 * marks '+' and '#' against that.  '#' stands for a checkmate, or any move
 * that ends the game with a winner (a king on the hill, the third check,
 * an explosion: chessops and vchess write it so); '+' for a check, the
 * deciding check too (lichess writes the third check so).  A deciding move
 * that gives no check needs no mark, even in strict mode (lichess writes
 * none). */
static const char *check_marks(struct walk *w, const vc_move *m, const struct vc_san *san)
{
	int check = vc_check_after(w->p, m);
	struct vc_end e;
	const char *mark = vc_end_mark(w->p, check, &e);
	int decisive = vc_end_decisive(&e), mate = e.rule == VC_END_CHECKMATE;
	w->cur_check = check;
	if (w->depth == 0) {
		w->mated = mate;
		w->end_ply = e.rule ? w->ply : 0;
		if (e.rule) /* rare: a copy for every move would cost */
			memcpy(w->end_text, e.text, sizeof w->end_text);
	}
	if (w->it->flags & VC_IF_NULL)
		return mark;
	if (san->check == 2 && !decisive)
		move_diag(w, w->soft, "mark-check",
			  e.rule  ? "marked '#' but the game ends in a draw (%s)"
			  : check ? "marked '#' but it is check, not mate%s"
				  : "marked '#' but it gives no check%s",
			  e.text);
	else if (san->check == 1 && !check)
		move_diag(w, w->soft, "mark-check", "marked '+' but it gives no check");
	else if (san->check == 1 && mate)
		move_diag(w, w->soft, "mark-check", "marked '+' but it is checkmate: '#' is due");
	else if (w->strict && !san->check && mate)
		move_diag(w, VC_SEV_ERROR, "mark-check", "checkmate written without '#'");
	else if (w->strict && !san->check && check)
		move_diag(w, VC_SEV_ERROR, "mark-check", "check written without '+'");
	return mark;
}

/* Replays move item i (it) of a line that is alive, at depth: an error
 * makes the line dead.  VC_OK, or VC_FATAL. */
static vc_status replay_move(struct walk *w, size_t i, const struct vc_item *it, int depth)
{
	struct vc_validator *val = w->val;
	struct vc_position *p = w->p;
	struct frame *f = &val->frames[val->nframes - 1];
	w->i = i;
	w->it = it;
	w->depth = depth;
	w->ply = p->ply - w->start_ply + 1;
	if (line_has_ended(w)) {
		f->dead = 1;
		return VC_OK;
	}
	if (w->strict && (it->flags & VC_IF_MOVENUM) && it->movenum != move_number(w))
		move_diag(w, VC_SEV_ERROR, "strict-move-number",
			  "move number %ld where %ld was due", it->movenum, move_number(w));
	vc_move m;
	struct vc_san san;
	int untested = 0;
	if (w->cur_check < 0)
		w->cur_check = vc_in_check(p, p->side);
	if (read_move(w, &m, &san, &untested) != 0) {
		f->dead = 1;
		return VC_OK;
	}
	if (untested) {
		int bad = leaves_king(w, &m);
		if (bad < 0)
			return VC_FATAL;
		if (bad) {
			f->dead = 1;
			return VC_OK;
		}
	}
	if (!(m.flags & VC_MF_NULL))
		capture_marks(w, &m, &san, w->strict && strict_san(w, &m));
	if (val->fn) {
		/* the resolution may know that no disambiguation is due; with a
		 * mark function, the mark comes from check_marks below */
		char sanbuf[96];
		int fl = (untested == VC_UNTESTED_SOLE ? VC_SAN_SOLE : 0) |
			 (val->mark_fn ? VC_SAN_NO_MARK : 0);
		vc_move_san_ex(p, &m, fl, sanbuf, sizeof sanbuf);
		val->fn(val->user, w->g, i, p, &m, sanbuf, depth);
	}
	if (vc_pos_make(p, &m) != 0)
		return VC_FATAL;
	f->nmade++;
	if (depth == 0)
		w->st->plies++;
	else
		w->st->var_plies++;
	const char *mark = check_marks(w, &m, &san);
	if (val->fn && val->mark_fn)
		val->mark_fn(val->user, i, (m.flags & VC_MF_NULL) ? "" : mark);
	return VC_OK;
}

/* Replays the movetext, item by item, variations included. */
static vc_status replay(struct walk *w)
{
	struct vc_validator *val = w->val;
	size_t nitems = vc_game_item_count(w->g);
	val->nframes = 0;
	if (push_frame(val) != 0)
		return VC_FATAL;
	for (size_t i = 0; i < nitems; i++) {
		const struct vc_item *it = vc_game_item(w->g, i);
		int depth = val->nframes - 1;
		vc_status s = VC_OK;
		if (it->type == VC_IT_VAR_START) {
			s = var_start(w, it, depth);
		} else if (it->type == VC_IT_VAR_END) {
			if (val->nframes <= 1)
				continue; /* the reader reported it */
			pop_frame(val);
			w->cur_check = -1;
		} else if (it->type == VC_IT_COMMENT) { /* multi-player records */
			mp_comment(val, w->g, i, w->soft, depth == 0 && w->mated);
		} else if (it->type == VC_IT_MOVE && !val->frames[val->nframes - 1].dead) {
			s = replay_move(w, i, it, depth);
		}
		if (s != VC_OK)
			return s;
	}
	return VC_OK;
}

/* The result against the final position (of the main line): a result
 * that contradicts how the game ended is an error in strict and lenient
 * mode alike (the record is wrong, not merely untidy). */
static void check_result(struct vc_validator *val, struct vc_game *g, enum vc_severity soft)
{
	const char *res = vc_game_result(g);
	const char *tag = vc_game_tag(g, "Result");
	long rl, rc;
	if (res && tag && strcmp(res, tag)) {
		vc_game_result_pos(g, &rl, &rc);
		gdiag(val, g, soft, "result-mismatch", rl, rc, 0, NULL,
		      "the movetext ends in '%s' but the Result tag says '%s'", res, tag);
	}
	if (val->frames[0].dead)
		return;
	struct vc_end e;
	val->end = vc_position_end(val->pos, &e);
	const char *said = res ? res : tag;
	if (!e.result || !said || !strcmp(said, "*") || !strcmp(said, e.result))
		return;
	if (res)
		vc_game_result_pos(g, &rl, &rc);
	else
		tag_pos(g, "Result", &rl, &rc);
	if (e.rule == VC_END_CHECKMATE)
		gdiag(val, g, VC_SEV_ERROR, "result-wrong", rl, rc, 0, NULL,
		      "the game ends in %s but the result is '%s'", e.text, said);
	else if (e.rule == VC_END_STALEMATE)
		gdiag(val, g, VC_SEV_ERROR, "result-wrong", rl, rc, 0, NULL,
		      "the game ends in %s (%s) but the result is '%s'", e.text, e.result, said);
	else
		gdiag(val, g, VC_SEV_ERROR, "result-wrong", rl, rc, 0, NULL,
		      "the game is over (%s: %s) but the result is '%s'", e.text, e.result, said);
}

vc_status vc_validate(struct vc_validator *val, struct vc_game *g, struct vc_game_stats *st)
{
	struct vc_game_stats dummy;
	struct cached *c;
	vc_status s;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	clear_fens(val);
	val->have_pos = 0;
	if (vc_game_is_garbage(g)) {
		st->valid = 0;
		return VC_FAILED;
	}
	if ((s = choose_variant(val, g, st, &c)) != VC_OK)
		return s;
	enum vc_severity soft = val->opts.strict ? VC_SEV_ERROR : VC_SEV_WARNING;
	if ((s = set_up(val, g, c, soft)) != VC_OK)
		return s;
	val->have_pos = 1;
	if (mp_begin(val, g, soft) != 0) /* multi-player records */
		return VC_FATAL;
	struct vc_position *p = val->pos;
	struct walk w = { .val = val,
			  .g = g,
			  .st = st,
			  .p = p,
			  .v = c->v,
			  .soft = soft,
			  .strict = val->opts.strict,
			  .start_ply = p->ply,
			  .start_move = p->fullmove,
			  .start_side = p->side,
			  .cur_check = -1 };
	if ((s = replay(&w)) != VC_OK)
		return s;
	/* back to the end of the main line: close what the reader left open */
	while (val->nframes > 1)
		pop_frame(val);
	val->end = VC_END_NONE;
	check_result(val, g, soft);
	st->end = val->end;
	mp_result(val, g); /* multi-player records */
	st->valid = vc_game_worst(g) < VC_SEV_ERROR;
	return st->valid ? VC_OK : VC_FAILED;
}
