/*
 * game.c - the game record: tags, a flat list of movetext items, the result,
 * the game's raw bytes and its stored diagnostics.
 *
 * Model: a game owns three kinds of storage, all kept across vc_game_clear
 * so that a reader filling one game object again and again allocates only
 * while its games keep getting bigger:
 *  - raw: one buffer with the game's bytes exactly as they stood in the
 *    input.  Items made by the reader point into it, so reading a game
 *    copies its bytes once and never allocates per token.
 *  - arena: a chain of blocks that are never moved or shrunk (only rewound
 *    by vc_game_clear), holding every NUL-terminated string the game hands
 *    out: tag names and (unescaped) values, diagnostic texts, the file
 *    name, and the copied texts of items added through vc_game_add_item.
 *    A string put there keeps its address until the game is cleared.
 *  - growable arrays of items, tags and diagnostics.
 *
 * Invariants: an item whose text lies in raw records its offset in
 * item_rec.off (NO_OFF otherwise); raw is filled only by
 * vc_game_build_finish, which then points every such item at raw.  While a
 * reader is building a game (between vc_game_build_start and
 * vc_game_build_finish) the text pointers of raw items are NULL; nothing
 * outside the reader sees a game in that state.
 *
 * The vc_game_build_* functions are the readers' private interface
 * (pgn_read.c, xml_read.c), declared in archive/vc_archive.h.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"


#define NO_OFF SIZE_MAX
#define BLOCK_MIN 4096
#define BLOCK_MAX (1024 * 1024)

struct item_rec {
	struct vc_item it;
	size_t off; /* offset of the text in raw, or NO_OFF */
};

struct tag {
	const char *name, *value; /* in the arena */
	long line, col;
};

struct block {
	struct block *next;
	size_t cap, used;
	char data[];
};

struct vc_game {
	long number, line;
	int garbage;
	const char *file; /* in the arena, or NULL */

	struct vc_buf raw;

	struct item_rec *items;
	size_t nitems, capitems;
	struct tag *tags;
	size_t ntags, captags;
	struct vc_game_diag *diags;
	size_t ndiags, capdiags;

	const char *result; /* static or in the arena; NULL when none */
	long rline, rcol;

	struct block *first, *cur; /* arena: cur is the block being filled */
	int oom;                   /* sticky: some storage could not be had */
	int records;               /* VC_RECORDS_*: the reader's word on its comments */
};

/* ---- storage helpers ---- */

/* Grows an array to hold at least one more element; 0 ok, -1 out of memory. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	if (nc > SIZE_MAX / size)
		return -1;
	void *p = realloc(*arr, nc * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = nc;
	return 0;
}

/* n bytes from the arena, never moved until vc_game_clear. */
static char *arena_alloc(struct vc_game *g, size_t n)
{
	struct block *b = g->cur;
	if (b && b->cap - b->used >= n) {
		char *s = b->data + b->used;
		b->used += n;
		return s;
	}
	/* Blocks after cur are empty (they were rewound by clear): use the
	 * first one big enough, skipping smaller ones for this game. */
	for (b = g->cur ? g->cur->next : g->first; b; b = b->next) {
		if (b->cap >= n) {
			g->cur = b;
			b->used = n;
			return b->data;
		}
	}
	size_t cap = g->cur ? g->cur->cap * 2 : BLOCK_MIN;
	if (cap > BLOCK_MAX)
		cap = BLOCK_MAX;
	if (cap < n)
		cap = n;
	if (cap > SIZE_MAX - sizeof(struct block)) {
		g->oom = 1;
		return NULL;
	}
	b = malloc(sizeof(struct block) + cap);
	if (!b) {
		g->oom = 1;
		return NULL;
	}
	b->cap = cap;
	b->used = n;
	if (g->cur) {
		b->next = g->cur->next;
		g->cur->next = b;
	} else {
		b->next = g->first;
		g->first = b;
	}
	g->cur = b;
	return b->data;
}

static const char *arena_strndup(struct vc_game *g, const char *s, size_t n)
{
	if (n == SIZE_MAX) {
		g->oom = 1;
		return NULL;
	}
	char *d = arena_alloc(g, n + 1);
	if (!d)
		return NULL;
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static const char *arena_strdup(struct vc_game *g, const char *s)
{
	return s ? arena_strndup(g, s, strlen(s)) : NULL;
}

/* ---- life cycle ---- */

struct vc_game *vc_game_new(void)
{
	struct vc_game *g = vc_calloc(1, sizeof *g);
	if (g) {
		vc_buf_init(&g->raw);
		g->records = VC_RECORDS_UNKNOWN;
	}
	return g;
}

void vc_game_free(struct vc_game *g)
{
	if (!g)
		return;
	vc_buf_free(&g->raw);
	free(g->items);
	free(g->tags);
	free(g->diags);
	struct block *b = g->first;
	while (b) {
		struct block *next = b->next;
		free(b);
		b = next;
	}
	free(g);
}

void vc_game_clear(struct vc_game *g)
{
	if (!g)
		return;
	g->number = 0;
	g->line = 0;
	g->garbage = 0;
	g->file = NULL;
	/* vc_buf keeps its oom flag across a reset; a game that is being
	 * reused starts afresh, so take a fresh buffer after a failure. */
	if (g->raw.oom)
		vc_buf_free(&g->raw);
	vc_buf_reset(&g->raw);
	g->nitems = 0;
	g->ntags = 0;
	g->ndiags = 0;
	g->result = NULL;
	g->rline = 0;
	g->rcol = 0;
	for (struct block *b = g->first; b; b = b->next)
		b->used = 0;
	g->cur = g->first;
	g->oom = 0;
	g->records = VC_RECORDS_UNKNOWN;
}

/* ---- identity ---- */

long vc_game_number(const struct vc_game *g)
{
	return g->number;
}

long vc_game_line(const struct vc_game *g)
{
	return g->line;
}

const char *vc_game_file(const struct vc_game *g)
{
	return g->file;
}

int vc_game_is_garbage(const struct vc_game *g)
{
	return g->garbage;
}

const char *vc_game_raw(const struct vc_game *g, size_t *len)
{
	if (len)
		*len = g->raw.len;
	return g->raw.p ? g->raw.p : "";
}

/* ---- tags ---- */

size_t vc_game_tag_count(const struct vc_game *g)
{
	return g->ntags;
}

const char *vc_game_tag_name(const struct vc_game *g, size_t i)
{
	return i < g->ntags ? g->tags[i].name : NULL;
}

const char *vc_game_tag_value(const struct vc_game *g, size_t i)
{
	return i < g->ntags ? g->tags[i].value : NULL;
}

void vc_game_tag_pos(const struct vc_game *g, size_t i, long *line, long *col)
{
	long l = 0, c = 0;
	if (i < g->ntags) {
		l = g->tags[i].line;
		c = g->tags[i].col;
	}
	if (line)
		*line = l;
	if (col)
		*col = c;
}

const char *vc_game_tag(const struct vc_game *g, const char *name)
{
	for (size_t i = 0; i < g->ntags; i++) /* the first letter turns most away */
		if (g->tags[i].name[0] == name[0] && strcmp(g->tags[i].name, name) == 0)
			return g->tags[i].value;
	return NULL;
}

static int push_tag(struct vc_game *g, const char *name, const char *value, long line, long col)
{
	if (!name || !value)
		return -1;
	if (grow((void **)&g->tags, &g->captags, g->ntags, sizeof *g->tags) < 0) {
		g->oom = 1;
		return -1;
	}
	struct tag *t = &g->tags[g->ntags++];
	t->name = name;
	t->value = value;
	t->line = line;
	t->col = col;
	return 0;
}

int vc_game_add_tag(struct vc_game *g, const char *name, const char *value)
{
	return push_tag(g, arena_strdup(g, name), arena_strdup(g, value), 0, 0);
}

int vc_game_set_tag(struct vc_game *g, const char *name, const char *value)
{
	for (size_t i = 0; i < g->ntags; i++) {
		if (strcmp(g->tags[i].name, name) == 0) {
			const char *v = arena_strdup(g, value);
			if (!v)
				return -1;
			g->tags[i].value = v;
			return 0;
		}
	}
	return vc_game_add_tag(g, name, value);
}

void vc_game_remove_tag(struct vc_game *g, size_t i)
{
	if (i >= g->ntags)
		return;
	memmove(&g->tags[i], &g->tags[i + 1], (g->ntags - i - 1) * sizeof *g->tags);
	g->ntags--;
}

/* ---- items ---- */

size_t vc_game_item_count(const struct vc_game *g)
{
	return g->nitems;
}

const struct vc_item *vc_game_item(const struct vc_game *g, size_t i)
{
	return i < g->nitems ? &g->items[i].it : NULL;
}

int vc_game_add_item(struct vc_game *g, const struct vc_item *it)
{
	if (grow((void **)&g->items, &g->capitems, g->nitems, sizeof *g->items) < 0) {
		g->oom = 1;
		return -1;
	}
	struct vc_item copy = *it;
	if (it->text) {
		copy.text = arena_strndup(g, it->text, it->len);
		if (!copy.text)
			return -1;
	} else {
		copy.len = 0;
	}
	if (it->suffix) {
		copy.suffix = arena_strndup(g, it->suffix, it->suffix_len);
		if (!copy.suffix)
			return -1;
	} else {
		copy.suffix_len = 0;
	}
	struct item_rec *r = &g->items[g->nitems++];
	r->it = copy;
	r->off = NO_OFF;
	g->records = VC_RECORDS_UNKNOWN; /* the reader did not see this one */
	return 0;
}

/* ---- result ---- */

const char *vc_game_result(const struct vc_game *g)
{
	return g->result;
}

void vc_game_result_pos(const struct vc_game *g, long *line, long *col)
{
	if (line)
		*line = g->result ? g->rline : 0;
	if (col)
		*col = g->result ? g->rcol : 0;
}

int vc_game_set_result(struct vc_game *g, const char *result)
{
	if (!result) {
		g->result = NULL;
		return 0;
	}
	const char *r = arena_strdup(g, result);
	if (!r)
		return -1;
	g->result = r;
	g->rline = 0;
	g->rcol = 0;
	return 0;
}

/* ---- diagnostics ---- */

size_t vc_game_diag_count(const struct vc_game *g)
{
	return g->ndiags;
}

const struct vc_game_diag *vc_game_diag_at(const struct vc_game *g, size_t i)
{
	return i < g->ndiags ? &g->diags[i] : NULL;
}

int vc_game_add_diag(struct vc_game *g, enum vc_severity sev, const char *code, long line, long col,
		     long ply, const char *context, const char *fmt, ...)
{
	if (grow((void **)&g->diags, &g->capdiags, g->ndiags, sizeof *g->diags) < 0) {
		g->oom = 1;
		return -1;
	}
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *msg = n >= 0 ? arena_alloc(g, (size_t)n + 1) : NULL;
	if (msg)
		vsnprintf(msg, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	const char *c = arena_strdup(g, code);
	const char *x = arena_strdup(g, context);
	if (!msg || (code && !c) || (context && !x))
		return -1;
	struct vc_game_diag *d = &g->diags[g->ndiags++];
	d->severity = sev;
	d->code = c;
	d->line = line;
	d->col = col;
	d->ply = ply;
	d->context = x;
	d->message = msg;
	return 0;
}

int vc_game_worst(const struct vc_game *g)
{
	int w = -1;
	for (size_t i = 0; i < g->ndiags; i++)
		if ((int)g->diags[i].severity > w)
			w = (int)g->diags[i].severity;
	return w;
}

size_t vc_game_remove_diags(struct vc_game *g, const char *code)
{
	size_t k = 0;
	for (size_t i = 0; i < g->ndiags; i++)
		if (!g->diags[i].code || strcmp(g->diags[i].code, code))
			g->diags[k++] = g->diags[i];
	size_t n = g->ndiags - k;
	g->ndiags = k;
	return n;
}

/* ---- the reader's interface ---- */

void vc_game_build_start(struct vc_game *g, const char *file, long number, long line)
{
	vc_game_clear(g);
	g->file = arena_strdup(g, file);
	g->number = number;
	g->line = line;
}

/* Appends an item whose text is raw[off, off + len); the text pointer is
 * set by vc_game_build_finish.  The pointer returned is valid until the
 * next item is added. */
struct vc_item *vc_game_build_item(struct vc_game *g, enum vc_item_type type, size_t off,
				   size_t len, long line, long col)
{
	if (g->nitems == g->capitems &&
	    grow((void **)&g->items, &g->capitems, g->nitems, sizeof *g->items) < 0) {
		g->oom = 1;
		return NULL;
	}
	struct item_rec *r = &g->items[g->nitems++];
	r->off = off;
	r->it.type = type;
	r->it.flags = 0;
	r->it.line = line;
	r->it.col = col;
	r->it.text = NULL;
	r->it.len = len;
	r->it.suffix = NULL;
	r->it.suffix_len = 0;
	r->it.nag = 0;
	r->it.movenum = 0;
	return &r->it;
}

struct vc_item *vc_game_build_item_at(struct vc_game *g, size_t i)
{
	return i < g->nitems ? &g->items[i].it : NULL;
}

/* Adds a tag whose name and value are copied from the input; with
 * unescape, \" and \\ in the value stand for " and \. */
int vc_game_build_tag(struct vc_game *g, const char *name, size_t nlen, const char *value,
		      size_t vlen, int unescape, long line, long col)
{
	const char *n = arena_strndup(g, name, nlen);
	char *v = vlen == SIZE_MAX ? NULL : arena_alloc(g, vlen + 1);
	if (!n || !v) {
		g->oom = 1;
		return -1;
	}
	if (!unescape) {
		memcpy(v, value, vlen);
		v[vlen] = '\0';
	} else {
		size_t j = 0;
		for (size_t i = 0; i < vlen; i++) {
			if (value[i] == '\\' && i + 1 < vlen &&
			    (value[i + 1] == '"' || value[i + 1] == '\\'))
				i++;
			v[j++] = value[i];
		}
		v[j] = '\0';
	}
	return push_tag(g, n, v, line, col);
}

int vc_game_build_has_tag(const struct vc_game *g, const char *name, size_t nlen)
{
	for (size_t i = 0; i < g->ntags; i++)
		if (strncmp(g->tags[i].name, name, nlen) == 0 && g->tags[i].name[nlen] == '\0')
			return 1;
	return 0;
}

/* result must be a string that outlives the game (the reader passes its
 * static result tokens). */
void vc_game_build_result(struct vc_game *g, const char *result, long line, long col)
{
	g->result = result;
	g->rline = line;
	g->rcol = col;
}

/* Copies the game's raw bytes and points the reader's items at them.
 * Items that would reach past len (a game truncated at the size limit)
 * are dropped.  0 ok, -1 out of memory. */
int vc_game_build_finish(struct vc_game *g, const char *raw, size_t len, int garbage)
{
	g->garbage = garbage;
	vc_buf_reset(&g->raw);
	if (vc_buf_add(&g->raw, raw, len) < 0) {
		g->oom = 1;
		return -1;
	}
	int cut = 0;
	for (size_t i = 0; i < g->nitems; i++) {
		struct item_rec *r = &g->items[i];
		if (r->off == NO_OFF)
			continue;
		if (r->off > len || r->it.len > len - r->off)
			cut = 1;
		else
			r->it.text = g->raw.p + r->off;
	}
	if (cut) {
		size_t n = 0;
		for (size_t i = 0; i < g->nitems; i++) {
			struct item_rec *r = &g->items[i];
			if (r->off == NO_OFF || (r->off <= len && r->it.len <= len - r->off))
				g->items[n++] = *r;
		}
		g->nitems = n;
	}
	return 0;
}

void vc_game_build_records(struct vc_game *g, int records)
{
	g->records = records;
}

int vc_game_records(const struct vc_game *g)
{
	return g->records;
}

int vc_game_build_oom(const struct vc_game *g)
{
	return g->oom;
}
