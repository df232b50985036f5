/*
 * archive/eco.c - openings: a game's ECO code and opening name, from the
 * opening lists its variant's file names (key openings; vchess-variant(5),
 * vchess-convert(1) --add-eco).
 *
 * Model: an opening list is rows of ECO code, name and the moves (SAN, move
 * numbers allowed) that reach the named position from the variant's start.
 * A book is one variant's lists turned into positions: each row is played
 * once, at first use, and the key of the position it reaches goes into a
 * hash table (the first row that reaches a position names it).  A game is
 * classified by the last position of its main line that a row reaches, so
 * that a transposition is found as well as the row's own order of moves;
 * only the plies up to the longest row's are looked at.  Positions are
 * compared by their keys, the position's hash (board, side to move,
 * castling rights, reserves, checks given) without its en-passant
 * targets, and then, only when the keys are equal, by whether a legal
 * capture can use a target, as position strings write them (fen.c): so
 * a double step that no capture could answer does not tell two equal
 * positions apart, and the costly test of the legal moves is made only
 * for the few positions that are in the lists.
 *
 * Reading the lists at first use costs about 15 ms of processor time for
 * the 3,807 rows of the built-in list (perf stat of a one-game file, with
 * and without --add-eco); keys computed at build time would save that but
 * need the library to build the library, and would not serve the lists
 * of variant files.
 *
 * Books are kept in the vc_eco, one a variant (by name), built by the
 * first game that needs one, under a lock: threads share them, and after
 * building only read them.  A row that does not play is reported (code
 * eco-list, at its file, line and column) to the context of the game that
 * built the book, and left out.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"
#include "rules/vc_embed.h"

struct row {
	char eco[8];
	uint32_t name; /* offset into names */
};

struct slot {
	uint64_t key;
	uint32_t row; /* row index + 1; 0 empty */
	uint32_t ep;  /* ep_live of the row's position */
};

struct book {
	char *variant;
	struct slot *slots;
	size_t mask, used;
	struct row *rows;
	size_t nrows, caprows;
	struct vc_buf names;
	uint64_t root; /* the key of the start */
	int maxply;
	struct book *next;
};

struct vc_eco {
	pthread_mutex_t lock;
	struct book *books;
	struct vc_position *spare[64]; /* positions to play games on, kept */
	int nspare;
};

struct vc_eco *vc_eco_new(void)
{
	struct vc_eco *e = vc_calloc(1, sizeof *e);
	if (e)
		pthread_mutex_init(&e->lock, NULL);
	return e;
}

static void book_free(struct book *b)
{
	free(b->variant);
	free(b->slots);
	free(b->rows);
	vc_buf_free(&b->names);
	free(b);
}

void vc_eco_free(struct vc_eco *e)
{
	if (!e)
		return;
	while (e->books) {
		struct book *b = e->books;
		e->books = b->next;
		book_free(b);
	}
	for (int i = 0; i < e->nspare; i++)
		vc_position_free(e->spare[i]);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

/* ---- keys and the table ---- */

/* The position's key: its hash without its en-passant targets. */
static uint64_t key_of(const struct vc_position *p)
{
	uint64_t h = p->hash;
	for (int i = 0; i < p->nep; i++)
		h ^= p->v->zob_ep[p->ep[i]];
	return h;
}

/* Can a legal capture use an en-passant target?  Two positions of the same
 * key are the same when this gives the same for both. */
static int ep_live(struct vc_position *p)
{
	if (!p->nep)
		return 0;
	/* a capture that takes en passant is in the capture tries: when no
	 * piece reaches a target by them, as after most double steps, none
	 * can take, and the moves need not be generated */
	const struct vc_variant *v = p->v;
	uint64_t all = v->ntypes >= 64 ? ~0ULL : (1ULL << v->ntypes) - 1;
	int16_t from[64];
	int near = 0;
	for (int i = 0; i < p->nep && !near; i++)
		near = vc_reach_origins(p, p->side, all, p->ep[i], 1, from, 64) > 0;
	if (!near)
		return 0;
	vc_move *mv = vc_scratch(VC_SCRATCH_ECO_EP, VC_MAX_MOVES * 4 * sizeof *mv);
	if (!mv)
		return 1; /* out of memory: kept, as when a capture could use it */
	int nm = vc_gen_legal(p, mv);
	for (int i = 0; i < nm; i++)
		if (mv[i].flags & VC_MF_EP)
			return 1;
	return 0;
}

/* The row that reaches p, or NULL.  The en-passant targets are looked at
 * only when the rest matches. */
static const struct row *lookup(const struct book *b, struct vc_position *p)
{
	uint64_t key = key_of(p);
	int ep = -1;
	for (size_t i = (size_t)(key ^ key >> 29) & b->mask;; i = (i + 1) & b->mask) {
		const struct slot *sl = &b->slots[i];
		if (!sl->row)
			return NULL;
		if (sl->key != key)
			continue;
		if (ep < 0)
			ep = ep_live(p);
		if ((int)sl->ep == ep)
			return &b->rows[sl->row - 1];
	}
}

/* Enters p for the last row, unless a row reaches it already; -1 when
 * out of memory.  Two positions of one key that differ by a live
 * en-passant target get a slot each (the lichess list has such a pair:
 * 1. Nc3 e5 2. f4 exf4 3. e4 and 1. e4 e5 2. f4 exf4 3. Nc3). */
static int insert(struct book *b, struct vc_position *p)
{
	uint64_t key = key_of(p);
	uint32_t ep = (uint32_t)ep_live(p);
	if (2 * (b->used + 1) > b->mask + 1 || !b->slots) {
		size_t n = b->slots ? 2 * (b->mask + 1) : 1024;
		struct slot *ns = calloc(n, sizeof *ns), *old = b->slots;
		if (!ns)
			return -1;
		size_t om = old ? b->mask + 1 : 0;
		b->slots = ns;
		b->mask = n - 1;
		b->used = 0;
		for (size_t i = 0; i < om; i++)
			if (old[i].row) {
				size_t j = (size_t)(old[i].key ^ old[i].key >> 29) & b->mask;
				while (ns[j].row)
					j = (j + 1) & b->mask;
				ns[j] = old[i];
				b->used++;
			}
		free(old);
	}
	size_t j = (size_t)(key ^ key >> 29) & b->mask;
	for (; b->slots[j].row; j = (j + 1) & b->mask)
		if (b->slots[j].key == key && b->slots[j].ep == ep)
			return 0;
	b->slots[j].key = key;
	b->slots[j].row = (uint32_t)b->nrows;
	b->slots[j].ep = ep;
	b->used++;
	return 0;
}

/* ---- reading a list ---- */

/* What one list is read from. */
struct list {
	const char *shown; /* its name in messages */
	const char *text;
	size_t len;
	char *owned; /* text read from a file */
};

/* The text of a list: a built-in one by its name, else a file (a relative
 * path from the directory of the variant's file).  0, or -1 (reported). */
static int list_open(struct list *l, struct vc_ctx *ctx, const struct vc_variant *v,
		     const char *name, char *shown, size_t nshown)
{
	memset(l, 0, sizeof *l);
	for (size_t i = 0; i < vc_embedded_opening_count; i++)
		if (!strcmp(vc_embedded_openings[i].file, name)) {
			snprintf(shown, nshown, "<built-in>/%s", name);
			l->shown = shown;
			l->text = vc_embedded_openings[i].text;
			l->len = vc_embedded_openings[i].len;
			return 0;
		}
	const char *src = v->source, *slash = src ? strrchr(src, '/') : NULL;
	if (name[0] != '/' && slash)
		snprintf(shown, nshown, "%.*s/%s", (int)(slash - src), src, name);
	else
		snprintf(shown, nshown, "%s", name);
	l->shown = shown;
	FILE *f = fopen(shown, "rb");
	if (!f) {
		vc_emit(ctx, VC_SEV_ERROR, "eco-list", src, 0, 0, NULL,
			"variant '%s': cannot open its opening list '%s'", v->name, shown);
		return -1;
	}
	struct vc_buf b;
	vc_buf_init(&b);
	char chunk[65536];
	size_t k;
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
		vc_buf_add(&b, chunk, k);
	int bad = ferror(f) || b.oom || vc_buf_addc(&b, '\0') < 0;
	fclose(f);
	if (bad) {
		vc_emit(ctx, VC_SEV_ERROR, "eco-list", shown, 0, 0, NULL,
			"cannot read the opening list");
		vc_buf_free(&b);
		return -1;
	}
	l->owned = b.p;
	l->text = b.p;
	l->len = b.len - 1;
	return 0;
}

static int add_row(struct book *b, const char *eco, size_t elen, const char *name, size_t nlen)
{
	if (b->nrows == b->caprows) {
		size_t nc = b->caprows ? 2 * b->caprows : 1024;
		struct row *nr = realloc(b->rows, nc * sizeof *nr);
		if (!nr)
			return -1;
		b->rows = nr;
		b->caprows = nc;
	}
	struct row *r = &b->rows[b->nrows];
	snprintf(r->eco, sizeof r->eco, "%.*s", (int)elen, eco);
	r->name = (uint32_t)b->names.len;
	vc_buf_add(&b->names, name, nlen);
	vc_buf_addc(&b->names, '\0');
	return b->names.oom ? -1 : 0;
}

/* Plays the moves of one row from the start: the plies, or -1 after a
 * problem (reported at line ln of l). */
static int play_row(struct vc_position *p, struct vc_ctx *ctx, const struct list *l, long ln,
		    const char *line, const char *s, size_t len)
{
	int plies = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && s[i] == ' ')
			i++;
		size_t j = i;
		while (j < len && s[j] != ' ')
			j++;
		size_t t = i;
		while (t < j && s[t] >= '0' && s[t] <= '9')
			t++;
		if (t > i && t < j && s[t] == '.')
			while (t < j && s[t] == '.')
				t++;
		else
			t = i;
		if (t < j) {
			struct vc_san san;
			vc_move m;
			const char *code = NULL;
			char msg[256];
			if (vc_san_parse(p->v, s + t, j - t, &san, &code, msg, sizeof msg) < 0 ||
			    vc_san_resolve(p, &san, s + t, j - t, &m, NULL, &code, msg,
					   sizeof msg) < 0) {
				vc_emit(ctx, VC_SEV_ERROR, "eco-list", l->shown, ln,
					(long)(s + t - line) + 1, NULL, "%s", msg);
				return -1;
			}
			if (vc_pos_make(p, &m) < 0)
				return -1;
			plies++;
		}
		i = j;
	}
	return plies;
}

/* Reads the rows of one list into b; -1 when out of memory. */
static int read_list(struct book *b, struct vc_position *p, struct vc_ctx *ctx,
		     const struct list *l)
{
	const char *s = l->text, *end = l->text + l->len;
	for (long ln = 1; s < end; ln++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		const char *line = s, *f[3];
		size_t fl[3];
		int n = 0;
		s = nl ? nl + 1 : end;
		if (e > line && e[-1] == '\r')
			e--;
		if (e == line || (ln == 1 && !strncmp(line, "eco\t", 4)))
			continue;
		for (const char *q = line; n < 3; n++) {
			const char *tab = n < 2 ? memchr(q, '\t', (size_t)(e - q)) : NULL;
			f[n] = q;
			fl[n] = (size_t)((tab ? tab : e) - q);
			if (!tab && n < 2)
				break;
			q = tab ? tab + 1 : e;
		}
		if (n < 3) {
			vc_emit(ctx, VC_SEV_ERROR, "eco-list", l->shown, ln, 1, NULL,
				"a row is ECO code, name and moves, separated by tabs");
			continue;
		}
		vc_position_start(p);
		int plies = play_row(p, ctx, l, ln, line, f[2], fl[2]);
		if (plies < 0)
			continue;
		if (add_row(b, f[0], fl[0], f[1], fl[1]) < 0)
			return -1;
		b->nrows++;
		if (insert(b, p) < 0)
			return -1;
		if (plies > b->maxply)
			b->maxply = plies;
	}
	return 0;
}

/* The book of v's lists, made; NULL when out of memory (reported). */
static struct book *book_make(struct vc_ctx *ctx, const struct vc_variant *v)
{
	struct book *b = vc_calloc(1, sizeof *b);
	struct vc_position *p = vc_position_new(v);
	if (!b || !p || !(b->variant = vc_strdup(v->name))) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_position_free(p);
		if (b)
			book_free(b);
		return NULL;
	}
	vc_buf_init(&b->names);
	b->root = key_of(p);
	for (int i = 0; i < v->nopenings; i++) {
		struct list l;
		char shown[4096];
		if (list_open(&l, ctx, v, v->openings[i], shown, sizeof shown) < 0)
			continue;
		int rc = read_list(b, p, ctx, &l);
		free(l.owned);
		if (rc < 0) {
			vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
			vc_position_free(p);
			book_free(b);
			return NULL;
		}
	}
	vc_position_free(p);
	return b;
}

/* The book of v, made at its first use (NULL when none can be made), and
 * a position at v's start to play a game on (NULL when out of memory). */
static const struct book *book_of(struct vc_eco *e, struct vc_ctx *ctx, const struct vc_variant *v,
				  struct vc_position **pos)
{
	pthread_mutex_lock(&e->lock);
	if (pos) {
		*pos = v->start_pos && e->nspare ? e->spare[--e->nspare] : NULL;
		if (*pos)
			vc_position_copy(*pos, v->start_pos);
	}
	struct book *b = e->books;
	while (b && strcmp(b->variant, v->name))
		b = b->next;
	if (!b && (b = book_make(ctx, v))) {
		b->next = e->books;
		e->books = b;
	}
	pthread_mutex_unlock(&e->lock);
	if (pos && !*pos)
		*pos = vc_position_new(v);
	return b;
}

/* A position back to the spares, or freed. */
static void position_done(struct vc_eco *e, struct vc_position *p)
{
	pthread_mutex_lock(&e->lock);
	if (p && e->nspare < (int)VC_NELEM(e->spare)) {
		e->spare[e->nspare++] = p;
		p = NULL;
	}
	pthread_mutex_unlock(&e->lock);
	vc_position_free(p);
}

/* ---- classifying ---- */

long vc_eco_list_size(struct vc_eco *e, struct vc_ctx *ctx, const struct vc_variant *v)
{
	if (!v->nopenings)
		return -1;
	const struct book *b = book_of(e, ctx, v, NULL);
	return b ? (long)b->used : -1;
}

/* The last named position of the main line from p (the game's start) on;
 * NULL when none. */
static const struct row *last_named(const struct book *b, struct vc_position *p,
				    const struct vc_game *g, const struct vc_replay *rp, long *ply)
{
	const struct row *found = NULL;
	size_t n = vc_game_item_count(g);
	int depth = 0, plies = 0;
	for (size_t i = 0; i < n && plies < b->maxply; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		vc_move m;
		if (it->type == VC_IT_VAR_START)
			depth++;
		else if (it->type == VC_IT_VAR_END)
			depth--;
		if (depth || it->type != VC_IT_MOVE)
			continue;
		if (!vc_replay_move(rp, i, &m) || vc_pos_make(p, &m) < 0)
			break;
		plies++;
		const struct row *r = lookup(b, p);
		if (r) {
			found = r;
			*ply = plies;
		}
	}
	return found;
}

enum vc_eco_outcome vc_eco_classify(struct vc_eco *e, struct vc_ctx *ctx, const struct vc_game *g,
				    const struct vc_replay *rp, struct vc_eco_match *out)
{
	const struct vc_variant *v = vc_replay_variant(rp);
	if (!v || !v->nopenings)
		return VC_ECO_NO_LIST;
	struct vc_position *p;
	const struct book *b = book_of(e, ctx, v, &p);
	if (!b || !b->used || !p) {
		position_done(e, p);
		return VC_ECO_NO_LIST;
	}
	enum vc_eco_outcome o = VC_ECO_OTHER_START;
	const char *fen = vc_game_tag(g, "FEN");
	if ((!fen || vc_position_set_fen(p, NULL, fen) == VC_OK) && key_of(p) == b->root &&
	    !ep_live(p)) {
		long ply = 0;
		const struct row *r = last_named(b, p, g, rp, &ply);
		o = VC_ECO_UNNAMED;
		if (r) {
			o = VC_ECO_ADDED;
			out->eco = r->eco;
			out->name = b->names.p + r->name;
			out->ply = ply;
		}
	}
	position_done(e, p);
	return o;
}

enum vc_eco_outcome vc_eco_apply(struct vc_eco *e, struct vc_ctx *ctx, struct vc_game *g,
				 const struct vc_replay *rp, int valid)
{
	struct vc_eco_match m;
	if (!valid)
		return VC_ECO_BROKEN;
	enum vc_eco_outcome o = vc_eco_classify(e, ctx, g, rp, &m);
	if (o != VC_ECO_ADDED)
		return o;
	const char *eco = vc_game_tag(g, "ECO"), *name = vc_game_tag(g, "Opening");
	if (eco || name)
		o = eco && name && !strcmp(eco, m.eco) && !strcmp(name, m.name) ? VC_ECO_SAME
										: VC_ECO_CHANGED;
	if (vc_game_set_tag(g, "ECO", m.eco) < 0 || vc_game_set_tag(g, "Opening", m.name) < 0)
		return VC_ECO_FAILED;
	return o;
}
