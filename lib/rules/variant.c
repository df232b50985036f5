/*
 * variant.c - the variant object: built-in lookup, accessors, and the
 * compilation of movement atoms into per-square paths and reverse tries
 * (see vc_rules.h for the model).
 *
 * Invariants after vc_variant_compile: for every side, type and square,
 * pathoff gives a block "npaths {len modes sq...}" in paths; a square is
 * never a destination of a path before every square ahead of it on that
 * path is empty; the tries hold, for each target, every (origin, clear
 * path) pair of the forward paths with the mover's own square dropped from
 * the squares that must be empty.  dedupe[t] is set when some origin of t
 * reaches one square by two routes, so generation must filter repeats.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/vc_embed.h"
#include "rules/vc_rules.h"

struct vc_variant *vc_variant_alloc(void)
{
	struct vc_variant *v = vc_calloc(1, sizeof *v);
	if (!v)
		return NULL;
	v->pawn_type = v->king_type = v->castle_type = -1;
	v->drop_mark = '@';
	for (int t = 0; t < VC_MAXT; t++) {
		v->types[t].auto_to = -1;
		v->types[t].demote_to = -1;
		v->types[t].flip_to = -1;
	}
	for (int i = 0; i < VC_MAXCASTLE; i++)
		v->castle[i].becomes = -1;
	v->end.mate = VC_RES_LOSS;
	v->end.stalemate = VC_RES_DRAW;
	return v;
}

void vc_variant_free(struct vc_variant *v)
{
	if (!v)
		return;
	free(v->name);
	free(v->title);
	free(v->source);
	for (int i = 0; i < v->naliases; i++)
		free(v->aliases[i]);
	for (int t = 0; t < v->ntypes; t++)
		free(v->types[t].atoms);
	free(v->start_fen);
	if (v->start_pos) /* made by load.c; freed here, below positions */
		free(v->start_pos->undo);
	free(v->start_pos);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < VC_MAXT; t++)
			free(v->pathoff[s][t]);
	free(v->paths);
	free(v->trie);
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++) {
			free(v->trieoff[k][s]);
			free(v->trieend[k][s]);
			free(v->ttoff[k][s]);
			free(v->ttend[k][s]);
		}
	free(v->ttrie);
	vc_shapes_free(v->shapes);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < VC_MAXT; t++)
			free(v->walk_reach[s][t]);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < VC_MAXT; t++)
			free(v->walk_move_reach[s][t]);
	free(v->zobrist);
	free(v->zob_link);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < VC_MAXT; t++)
			free(v->twovec[s][t]);
	free(v->lines[0]);
	free(v->lines[1]);
	free(v->pins[0]);
	free(v->pins[1]);
	free(v->tparent);
	vc_bb_free(v->bbm);
	if (v->bb != v->bbm) /* tables without a mirror */
		vc_bb_free(v->bb);
	vc_bbw_free(v->bbw);
	for (int i = 0; i < v->nopenings; i++)
		free(v->openings[i]);
	free(v);
}

const char *vc_variant_name(const struct vc_variant *v) { return v->name; }
const char *vc_variant_title(const struct vc_variant *v) { return v->title ? v->title : v->name; }
int vc_variant_files(const struct vc_variant *v) { return v->files; }
int vc_variant_ranks(const struct vc_variant *v) { return v->ranks; }
int vc_variant_piece_count(const struct vc_variant *v) { return v->ntypes; }
const char *vc_variant_start_fen(const struct vc_variant *v) { return v->start_fen; }

const char *vc_variant_piece_symbol(const struct vc_variant *v, int type)
{
	return type >= 0 && type < v->ntypes ? v->types[type].symbol : NULL;
}

const char *vc_variant_piece_name(const struct vc_variant *v, int type)
{
	return type >= 0 && type < v->ntypes ? v->types[type].name : NULL;
}

/* one symbol among the types of mask, in the order of types */
static int symbol_among(const struct vc_variant *v, uint64_t mask, int san, const char *s, size_t len)
{
	for (; mask; mask &= mask - 1) {
		int t = __builtin_ctzll(mask);
		const char *y = san ? v->types[t].san : v->types[t].symbol;
		if (strlen(y) == len && strncasecmp(y, s, len) == 0)
			return t;
	}
	return -1;
}

int vc_type_by_symbol(const struct vc_variant *v, const char *s, size_t len)
{
	if (len == 1) {
		/* one letter: any case; the common case of every move read */
		int c = s[0] & ~0x20;
		if (v->symbols_indexed && c >= 'A' && c <= 'Z')
			return v->letter_type[c - 'A'];
		for (int t = 0; t < v->ntypes; t++)
			if (v->types[t].symbol[1] == 0 && v->types[t].symbol[0] == c)
				return t;
		for (int t = 0; t < v->ntypes; t++) /* SAN's own symbols after */
			if (v->types[t].san[0] == c && v->types[t].san[1] == 0)
				return t;
		return -1;
	}
	int c0 = len ? toupper((unsigned char)s[0]) : 0;
	uint64_t all = v->ntypes >= 64 ? ~0ULL : (1ULL << v->ntypes) - 1, sym = all, san = all;
	if (v->symbols_indexed && c0 >= 'A' && c0 <= 'Z') {
		/* the first letter tells most symbols apart */
		sym = v->sym_first[c0 - 'A'];
		san = v->san_first[c0 - 'A'];
	}
	int t = symbol_among(v, sym, 0, s, len);
	return t >= 0 ? t : symbol_among(v, san, 1, s, len);
}

int vc_variant_piece_find(const struct vc_variant *v, const char *name)
{
	for (int t = 0; t < v->ntypes; t++)
		if (strcmp(v->types[t].symbol, name) == 0)
			return t;
	for (int t = 0; t < v->ntypes; t++)
		if (strcasecmp(v->types[t].name, name) == 0)
			return t;
	return -1;
}

/* ---- built-in variants ---- */

/* Each built-in file is parsed once per lookup of its name: the name and
 * aliases are read from the text without a full load, by scanning the
 * "name:" and "aliases:" lines, which the format requires at the top level. */
static int scan_names(const char *text, size_t len, char names[][48], int max)
{
	int n = 0;
	const char *p = text, *end = text + len;
	while (p < end && n < max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le - p > 5 && strncmp(p, "name:", 5) == 0) {
			const char *q = p + 5;
			while (q < le && (*q == ' ' || *q == '"'))
				q++;
			size_t k = 0;
			while (q + k < le && q[k] != '"' && q[k] != ' ' && q[k] != '#' && q[k] != '\r' &&
			       k < 47)
				k++;
			memcpy(names[n], q, k);
			names[n][k] = 0;
			n++;
		} else if (le - p > 8 && strncmp(p, "aliases:", 8) == 0) {
			const char *q = memchr(p, '[', (size_t)(le - p));
			while (q && q < le && *q != ']' && n < max) {
				q++;
				while (q < le && (*q == ' ' || *q == '"' || *q == '\''))
					q++;
				size_t k = 0;
				while (q + k < le && q[k] != '"' && q[k] != '\'' && q[k] != ',' &&
				       q[k] != ']' && k < 47)
					k++;
				size_t kk = k;
				while (kk > 0 && q[kk - 1] == ' ')
					kk--;
				if (kk) {
					memcpy(names[n], q, kk);
					names[n][kk] = 0;
					n++;
				}
				q += k;
				while (q < le && *q != ',' && *q != ']')
					q++;
			}
		}
		p = le + 1;
	}
	return n;
}

int vc_builtin_count(void) { return (int)vc_embedded_variant_count; }

const char *vc_builtin_name(int i)
{
	static __thread char names[VC_MAXALIAS + 1][48];
	if (i < 0 || (size_t)i >= vc_embedded_variant_count)
		return NULL;
	const struct vc_embedded *e = &vc_embedded_variants[i];
	if (scan_names(e->text, e->len, names, 1) < 1)
		return NULL;
	return names[0];
}

const char *vc_builtin_title(int i)
{
	static __thread char title[128];
	if (i < 0 || (size_t)i >= vc_embedded_variant_count)
		return NULL;
	const struct vc_embedded *e = &vc_embedded_variants[i];
	const char *p = e->text, *end = e->text + e->len;
	title[0] = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le - p > 6 && strncmp(p, "title:", 6) == 0) {
			const char *q = p + 6;
			while (q < le && (*q == ' ' || *q == '"'))
				q++;
			size_t k = (size_t)(le - q);
			while (k > 0 && (q[k - 1] == '"' || q[k - 1] == '\r' || q[k - 1] == ' '))
				k--;
			if (k >= sizeof title)
				k = sizeof title - 1;
			memcpy(title, q, k);
			title[k] = 0;
			break;
		}
		p = le + 1;
	}
	return title;
}

/* A name as lookups compare it: letters and digits only, in lower case, so
 * that "King of the Hill", "king-of-the-hill" and "KingOfTheHill" are one
 * name.  Returns the key's length (at most n - 1). */
static size_t name_key(const char *s, char *key, size_t n)
{
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (isalnum((unsigned char)*s))
			key[k++] = (char)tolower((unsigned char)*s);
	key[k] = 0;
	return k;
}

int vc_builtin_index(const char *name)
{
	char names[VC_MAXALIAS + 1][48], want[64], key[64];
	if (!name_key(name, want, sizeof want))
		return -1;
	for (size_t i = 0; i < vc_embedded_variant_count; i++) {
		const struct vc_embedded *e = &vc_embedded_variants[i];
		int n = scan_names(e->text, e->len, names, VC_MAXALIAS + 1);
		for (int k = 0; k < n; k++)
			if (name_key(names[k], key, sizeof key) && !strcmp(key, want))
				return (int)i;
	}
	return -1;
}

int vc_builtin_text(const char *name, const char **file, const char **text, size_t *len)
{
	int i = vc_builtin_index(name);
	if (i < 0)
		return -1;
	*file = vc_embedded_variants[i].file;
	*text = vc_embedded_variants[i].text;
	*len = vc_embedded_variants[i].len;
	return 0;
}

const char *vc_builtin_lookup(const char *name)
{
	int i = vc_builtin_index(name);
	return i < 0 ? NULL : vc_builtin_name(i);
}

/* ---- the nearest names, for messages about unknown ones ---- */

/* The optimal string alignment distance of two keys (insertions, deletions,
 * substitutions and swaps of neighbours cost one each); keys are at most
 * 63 bytes. */
static int key_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int d[64][64];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

int vc_builtin_suggest(const char *name, int *out, int cap)
{
	char names[VC_MAXALIAS + 1][48], want[64], key[64];
	size_t wl = name ? name_key(name, want, sizeof want) : 0;
	int dist[256], idx[256], n = 0;
	/* a typo or two: about one edit in three letters, at least one */
	int limit = wl / 3 > 1 ? (int)(wl / 3) : 1;
	if (!wl || cap <= 0)
		return 0;
	for (size_t i = 0; i < vc_embedded_variant_count && n < 256; i++) {
		const struct vc_embedded *e = &vc_embedded_variants[i];
		int k = scan_names(e->text, e->len, names, VC_MAXALIAS + 1), best = limit + 1;
		for (int a = 0; a < k; a++) {
			size_t kl = name_key(names[a], key, sizeof key);
			int dd = kl ? key_distance(want, key) : best;
			/* the start of a longer name ("crazy" for crazyhouse) is near too */
			if (wl >= 3 && kl > wl && !strncmp(key, want, wl) && dd > 1)
				dd = 1;
			if (dd < best)
				best = dd;
		}
		if (best > limit)
			continue;
		/* insertion in order of distance, then of the built-ins' order */
		int at = n++;
		while (at > 0 && dist[at - 1] > best) {
			dist[at] = dist[at - 1];
			idx[at] = idx[at - 1];
			at--;
		}
		dist[at] = best;
		idx[at] = (int)i;
	}
	if (n > cap)
		n = cap;
	for (int i = 0; i < n; i++)
		out[i] = idx[i];
	return n;
}

size_t vc_builtin_hint(const char *name, char *buf, size_t n)
{
	int near[3], k = vc_builtin_suggest(name, near, 3);
	size_t len = 0;
	char tmp[256];
	len += (size_t)snprintf(tmp + len, sizeof tmp - len, " (");
	if (k > 0)
		len += (size_t)snprintf(tmp + len, sizeof tmp - len, "nearest:");
	for (int i = 0; i < k; i++) {
		const char *nm = vc_builtin_name(near[i]);
		len += (size_t)snprintf(tmp + len, sizeof tmp - len, "%s %s", i ? "," : "",
					nm ? nm : "?");
	}
	snprintf(tmp + len, sizeof tmp - len, "%s'vchess-variant list' names them all)",
		 k > 0 ? "; " : "");
	return (size_t)snprintf(buf, n, "%s", tmp);
}

/* ---- compilation ---- */

struct pathbuf {
	int16_t *p;
	size_t len, cap;
	int oom;
};

static void pb_push(struct pathbuf *b, int v)
{
	if (b->oom)
		return;
	if (b->len == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		int16_t *np = realloc(b->p, nc * sizeof *np);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = nc;
	}
	b->p[b->len++] = (int16_t)v;
}

static int on_board(const struct vc_variant *v, int f, int r)
{
	return f >= 0 && r >= 0 && f < v->files && r < v->ranks;
}

/* the vectors of an atom for a side, in absolute coordinates */
static int atom_vectors(const struct vc_atom *a, int side, int8_t out[8][2])
{
	int8_t imgs[8][2];
	int n;
	if (a->nvec) {
		n = a->nvec;
		memcpy(imgs, a->vec, sizeof imgs);
	} else
		n = vc_vec_images(a->x, a->y, imgs);
	int k = 0;
	for (int i = 0; i < n; i++) {
		int dir = imgs[i][1] > 0 ? VC_DIR_FORWARD
			  : imgs[i][1] < 0 ? VC_DIR_BACKWARD
					   : VC_DIR_SIDEWAYS;
		if (!(a->dirs & dir))
			continue;
		out[k][0] = imgs[i][0];
		out[k][1] = (int8_t)(side == VC_BLACK ? -imgs[i][1] : imgs[i][1]);
		k++;
	}
	return k;
}

/* A path under construction: squares with flags. */
struct path {
	int16_t sq[4 * VC_MAXSQ + 1]; /* a reflecting ray visits each state at most once */
	int n;
};

static void path_add(struct path *pa, int sq, int flags)
{
	if (pa->n < (int)VC_NELEM(pa->sq))
		pa->sq[pa->n++] = (int16_t)(sq | flags);
}

/* Writes a path as a block "len modes sq..." into out, cut where it
 * leaves the region its atom is limited to ("within"); 1 when something
 * was written. */
static int path_emit(const struct vc_variant *v, const struct vc_atom *a, int side,
		     const struct path *pa, int modes, struct pathbuf *out)
{
	int n = pa->n;
	if (a->within)
		for (int k = 0; k < n; k++)
			if (!vc_bit_test(v->region[a->within - 1][side], pa->sq[k] & VC_PS_SQMASK)) {
				n = k;
				break;
			}
	if (!n)
		return 0;
	pb_push(out, n);
	pb_push(out, modes);
	for (int k = 0; k < n; k++)
		pb_push(out, pa->sq[k]);
	return 1;
}

/* Writes the paths of one atom from origin o into out (as "len modes sq..."
 * blocks), returns the number of paths. */
static int atom_paths(const struct vc_variant *v, const struct vc_atom *a, int modes, int side,
		      int o, struct pathbuf *out)
{
	int8_t vec[8][2];
	int nv = atom_vectors(a, side, vec);
	int of = o % v->files, orank = o / v->files;
	int count = 0;
	/* unlimited: to the edge, or for a reflecting ray until its states
	 * (square, direction) are used up */
	int maxsteps = a->range ? a->range
				: a->kind == VC_A_REFLECT ? 4 * v->nsq + 1 : VC_MAXF + VC_MAXR;
	static __thread struct path pa;

	if (a->from_ranks && !(a->from_ranks & (1u << (vc_rel_rank(v, side, o) - 1))))
		return 0;
	if (a->within && !vc_bit_test(v->region[a->within - 1][side], o))
		return 0;

	for (int i = 0; i < nv; i++) {
		int dx = vec[i][0], dy = vec[i][1];
		pa.n = 0;
		switch (a->kind) {
		case VC_A_LEAP:
			if (on_board(v, of + dx, orank + dy))
				path_add(&pa, vc_sq(v->files, of + dx, orank + dy), 0);
			break;
		case VC_A_RIDE: {
			int f = of, r = orank;
			for (int s = 1; s <= maxsteps; s++) {
				f += dx;
				r += dy;
				if (!on_board(v, f, r))
					break;
				path_add(&pa, vc_sq(v->files, f, r), s < a->min ? VC_PS_TRANSIT : 0);
			}
			break;
		}
		case VC_A_ZIGZAG: {
			/* the component of smaller magnitude changes sign at every step */
			int f = of, r = orank, sx = dx, sy = dy;
			int flipx = abs(dx) < abs(dy) || (abs(dx) == abs(dy));
			for (int s = 1; s <= maxsteps; s++) {
				f += sx;
				r += sy;
				if (!on_board(v, f, r))
					break;
				path_add(&pa, vc_sq(v->files, f, r), s < a->min ? VC_PS_TRANSIT : 0);
				if (flipx)
					sx = -sx;
				else
					sy = -sy;
			}
			break;
		}
		case VC_A_REFLECT: {
			/* states (square, direction) after each step; the ray ends when
			 * one repeats.  The start square is empty once the piece left. */
			static __thread uint8_t seen[VC_MAXSQ][4];
			int f = of, r = orank, sx = dx, sy = dy;
			memset(seen, 0, sizeof seen);
			for (int s = 1; s <= maxsteps; s++) {
				int nf = f + sx, nr = r + sy;
				if (nf < 0 || nf >= v->files) {
					sx = -sx;
					nf = f + sx;
				}
				if (nr < 0 || nr >= v->ranks) {
					sy = -sy;
					nr = r + sy;
				}
				if (!on_board(v, nf, nr))
					break;
				f = nf;
				r = nr;
				int sq = vc_sq(v->files, f, r);
				/* the magnitudes never change, only the signs */
				int di = (sx > 0) * 2 + (sy > 0);
				if (seen[sq][di])
					break;
				seen[sq][di] = 1;
				int fl = s < a->min ? VC_PS_TRANSIT : 0;
				if (sq == o)
					fl = VC_PS_TRANSIT | VC_PS_SELF;
				path_add(&pa, sq, fl);
			}
			break;
		}
		case VC_A_BENT: {
			if (!on_board(v, of + dx, orank + dy))
				break;
			int first = vc_sq(v->files, of + dx, orank + dy);
			int8_t w[8][2];
			int nw = vc_vec_images(a->x2, a->y2, w);
			int emitted_first = 0;
			for (int j = 0; j < nw; j++) {
				int wx = w[j][0], wy = w[j][1];
				if (wx * dx + wy * dy <= 0)
					continue;
				/* min counts the first leg as step 1: a square before it
				 * must be empty and is no destination (a lame leaper's
				 * leg: the xiangqi horse, {bent: [1, 0], then: [1, 1],
				 * range: 1, min: 2}) */
				pa.n = 0;
				path_add(&pa, first, emitted_first || a->min > 1 ? VC_PS_TRANSIT : 0);
				emitted_first = 1;
				int f = of + dx, r = orank + dy;
				for (int s = 1; s <= maxsteps; s++) {
					f += wx;
					r += wy;
					if (!on_board(v, f, r))
						break;
					path_add(&pa, vc_sq(v->files, f, r), s + 1 < a->min ? VC_PS_TRANSIT : 0);
				}
				count += path_emit(v, a, side, &pa, modes, out);
			}
			pa.n = 0;
			continue;
		}
		}
		count += path_emit(v, a, side, &pa, modes, out);
	}
	return count;
}

/* ---- tries ---- */

struct tn {
	int16_t sq;
	int32_t child, next, last; /* indexes, -1 none; last: the last child */
	uint64_t mask;
};

/* The trie of one kind, side and target, built where it stays in cache:
 * node 0 is the root, whose children are also found by square in kids[]
 * (a target's paths leave it every way). */
struct tbuild {
	struct tn *n;
	size_t len, cap;
	int32_t *kids; /* [square] -> child of the root, -1 none */
	int oom;
};

static int32_t tb_new(struct tbuild *b, int sq)
{
	if (b->oom)
		return -1;
	if (b->len == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 1 << 10;
		struct tn *nn = realloc(b->n, nc * sizeof *nn);
		if (!nn) {
			b->oom = 1;
			return -1;
		}
		b->n = nn;
		b->cap = nc;
	}
	struct tn *t = &b->n[b->len];
	t->sq = (int16_t)sq;
	t->child = t->next = t->last = -1;
	t->mask = 0;
	return (int32_t)b->len++;
}

/* empties the builder down to a root on target sq */
static void tb_reset(struct tbuild *b, int sq)
{
	for (int32_t c = b->len ? b->n[0].child : -1; c >= 0; c = b->n[c].next)
		b->kids[b->n[c].sq] = -1;
	b->len = 0;
	tb_new(b, sq);
}

/* Inserts squares seq[0..n-1] below the root; the last gets the type bit.
 * Children stay in the order they were first inserted in. */
static void tb_insert(struct tbuild *b, const int16_t *seq, int n, int type)
{
	int32_t cur = 0;
	for (int i = 0; i < n && !b->oom; i++) {
		int32_t c = i ? b->n[cur].child : b->kids[seq[0]];
		while (i && c >= 0 && b->n[c].sq != seq[i])
			c = b->n[c].next;
		if (c < 0) {
			c = tb_new(b, seq[i]);
			if (c < 0)
				return;
			if (b->n[cur].last >= 0)
				b->n[b->n[cur].last].next = c;
			else
				b->n[cur].child = c;
			b->n[cur].last = c;
			if (!i)
				b->kids[seq[0]] = c;
		}
		cur = c;
	}
	if (!b->oom)
		b->n[cur].mask |= 1ULL << type;
}

/* Cuts the flat tries down to one type each (see vc_rules.h): a node stays
 * when its subtree holds a piece of the type, so what stays of a subtree
 * is again a subtree, and only the skips change.  Each target's trie is
 * cut as soon as it is flattened, for every type in one walk. */
/* the cut tries of target sq's trie (in trie) of kind k and side s, every
 * type's, where ttoff places them */
static int type_trie_fill(struct vc_variant *v, const struct vc_tnode *trie, int k, int s, int sq,
			  struct vc_tnode1 *out)
{
	int32_t pos[VC_MAXT], end[VC_TRIE_MAXLEN + 1], at[VC_TRIE_MAXLEN + 1][VC_MAXT];
	uint64_t open[VC_TRIE_MAXLEN + 1];
	int depth = 0;
	for (int t = 0; t < v->ntypes; t++)
		pos[t] = v->ttoff[k][s][(size_t)t * (size_t)v->nsq + (size_t)sq];
	for (int32_t i = v->trieoff[k][s][sq], stop = v->trieend[k][s][sq]; i <= stop; i++) {
		/* close the nodes whose subtrees end here */
		while (depth > 0 && (i >= end[depth - 1] || i == stop)) {
			depth--;
			for (uint64_t b = open[depth]; b; b &= b - 1) {
				int t = __builtin_ctzll(b);
				out[at[depth][t]].skip = (uint16_t)(pos[t] - at[depth][t]);
			}
		}
		if (i == stop)
			break;
		const struct vc_tnode *n = &trie[i];
		for (uint64_t b = n->sub; b; b &= b - 1) {
			int t = __builtin_ctzll(b);
			out[pos[t]].sq = (uint16_t)(n->sq | (n->mask >> t & 1 ? VC_TN1_REACH : 0));
			out[pos[t]].skip = 1;
			if (n->skip > 1)
				at[depth][t] = pos[t];
			pos[t]++;
		}
		if (n->skip > 1) {
			if (depth > VC_TRIE_MAXLEN) /* paths are no longer */
				return -1;
			end[depth] = i + n->skip;
			open[depth++] = n->sub;
		}
	}
	return 0;
}

struct flat {
	struct vc_tnode *n;
	size_t len, cap;
	int oom;
};

/* Flattens the subtree below root (root excluded) in depth-first order. */
static void flatten(struct tbuild *b, int32_t root, struct flat *f)
{
	/* explicit stack: (node, index of its flat copy) */
	size_t stcap = 256, sp = 0;
	struct {
		int32_t node;
		size_t at;
		int entered;
	} *st = malloc(stcap * sizeof *st);
	if (!st) {
		f->oom = 1;
		return;
	}
	/* push children of root in order: we push in reverse so that the first
	 * child comes out first */
	int32_t kids[4096];
	int nk = 0;
	for (int32_t c = b->n[root].child; c >= 0 && nk < 4096; c = b->n[c].next)
		kids[nk++] = c;
	for (int i = nk - 1; i >= 0; i--) {
		st[sp].node = kids[i];
		st[sp].entered = 0;
		sp++;
	}
	while (sp > 0) {
		sp--;
		if (st[sp].entered) {
			size_t at = st[sp].at;
			f->n[at].skip = (uint16_t)(f->len - at);
			uint64_t sub = f->n[at].mask;
			for (size_t j = at + 1; j < f->len; j += f->n[j].skip)
				sub |= f->n[j].sub; /* the children, closed already */
			f->n[at].sub = sub;
			continue;
		}
		int32_t node = st[sp].node;
		if (f->len == f->cap) {
			size_t nc = f->cap ? f->cap * 2 : 1 << 14;
			struct vc_tnode *nn = realloc(f->n, nc * sizeof *nn);
			if (!nn) {
				f->oom = 1;
				break;
			}
			f->n = nn;
			f->cap = nc;
		}
		size_t at = f->len++;
		f->n[at].sq = b->n[node].sq;
		f->n[at].mask = b->n[node].mask;
		f->n[at].skip = 1;
		f->n[at].pad = 0;
		f->n[at].sub = 0;
		/* re-push as "entered" to close its subtree after its children */
		st[sp].entered = 1;
		st[sp].at = at;
		sp++;
		nk = 0;
		for (int32_t c = b->n[node].child; c >= 0 && nk < 4096; c = b->n[c].next)
			kids[nk++] = c;
		if (sp + (size_t)nk + 1 > stcap) {
			size_t nc = (sp + (size_t)nk + 1) * 2;
			void *ns = realloc(st, nc * sizeof *st);
			if (!ns) {
				f->oom = 1;
				break;
			}
			st = ns;
			stcap = nc;
		}
		for (int i = nk - 1; i >= 0; i--) {
			st[sp].node = kids[i];
			st[sp].entered = 0;
			sp++;
		}
	}
	free(st);
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void zone_from_ranks(const struct vc_variant *v, int side, uint32_t ranks, uint64_t *zone)
{
	memset(zone, 0, VC_SQWORDS * sizeof *zone);
	for (int sq = 0; sq < v->nsq; sq++)
		if (ranks & (1u << (vc_rel_rank(v, side, sq) - 1)))
			vc_bit_set(zone, sq);
}

/* an insertion into the tries: destination j of the path at qoff in the
 * path buffer, of type t of side s from origin o */
struct tins {
	int32_t qoff;
	uint16_t o;
	uint8_t j;
	uint8_t ts; /* t | s << 7 */
};

/* What compilation builds before it moves into the variant: the paths, the
 * insertions into the tries they make, a trie builder per kind (0
 * captures, 1 moves), and the flattened tries. */
struct compile {
	struct vc_variant *v;
	struct pathbuf pb;
	uint64_t walk, first; /* walk_types and first_types as they grow */
	size_t *at;       /* [side * nsq + target]: where its insertions begin in ins */
	struct tins *ins; /* the insertions, by side and target, in the order made */
	size_t nins;
	struct tbuild tb;
	struct flat fl;
	struct vc_tnode1 *tt; /* the cut tries */
	size_t ttlen, ttcap;
	uint16_t mark[VC_MAXSQ], stamp; /* squares already in a sequence */
};

/* the promotion zones of every type, by choice and automatic, per side */
static void promotion_zones(struct vc_variant *v)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			zone_from_ranks(v, s, v->types[t].promo_ranks, v->promo_zone[s][t]);
			zone_from_ranks(v, s, v->types[t].auto_ranks, v->auto_zone[s][t]);
			if (v->types[t].promo_step) /* as-move: the region's squares */
				memcpy(v->promo_zone[s][t], v->region[v->types[t].promo_step - 1][s],
				       sizeof v->promo_zone[s][t]);
		}
}

/* the path offsets, and a trie root per kind, side and target */
static int start_tables(struct compile *c)
{
	struct vc_variant *v = c->v;
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			v->pathoff[s][t] = calloc((size_t)v->nsq, sizeof(int32_t));
			if (!v->pathoff[s][t])
				return -1;
		}
	c->at = calloc(2 * (size_t)v->nsq + 1, sizeof *c->at);
	if (!c->at)
		return -1;
	c->tb.kids = malloc((size_t)v->nsq * sizeof(int32_t));
	if (!c->tb.kids)
		return -1;
	for (int sq = 0; sq < v->nsq; sq++)
		c->tb.kids[sq] = -1;
	return 0;
}

/* The paths of type t of side s from origin o, every atom's, as a block
 * "npaths {len modes sq...}" at the end of the path buffer; returns npaths. */
static int origin_paths(struct compile *c, int s, int t, int o)
{
	const struct vc_variant *v = c->v;
	const struct vc_ptype *pt = &v->types[t];
	size_t start = c->pb.len;
	int np = 0;
	pb_push(&c->pb, 0);
	for (int a = 0; a < pt->natoms; a++) {
		int modes = pt->atoms[a].modes;
		if (vc_self_captures(v, t) && (modes & VC_MODE_CAPTURE))
			modes |= VC_MODE_SELF;
		if (pt->props & VC_P_NOCAPTURE)
			modes &= ~(VC_MODE_CAPTURE | VC_MODE_SELF | VC_MODE_EPTAKE);
		np += atom_paths(v, &pt->atoms[a], modes, s, o, &c->pb);
	}
	if (c->pb.oom)
		return np;
	c->pb.p[start] = (int16_t)np;
	if (pt->region) {
		/* a piece confined to a region lands nowhere else */
		const uint64_t *reg = v->region[pt->region - 1][s];
		int16_t *q = c->pb.p + start + 1;
		for (int i = 0; i < np; i++) {
			for (int j = 0; j < q[0]; j++)
				if (!vc_bit_test(reg, q[2 + j] & VC_PS_SQMASK))
					q[2 + j] = (int16_t)(q[2 + j] | VC_PS_TRANSIT);
			q += 2 + q[0];
		}
	}
	return np;
}

/* The np paths of type t of side s from o, at q: notes a square reached
 * twice (dedupe), marks paths too long for the tries (walk_types), and
 * notes each destination's way back to o for the tries of its target. */
static void insert_paths(struct compile *c, int s, int t, int o, const int16_t *q, int32_t qoff, int np)
{
	static __thread uint16_t seen[VC_MAXSQ];
	static __thread uint16_t stamp;
	struct vc_variant *v = c->v;
	if (++stamp == 0) {
		memset(seen, 0, sizeof seen);
		stamp = 1;
	}
	for (int i = 0; i < np; i++) {
		int len = q[0], modes = q[1];
		const int16_t *sqs = q + 2;
		if (len > VC_TRIE_MAXLEN)
			c->walk |= 1ULL << t;
		if (modes & VC_MODE_HOP) {
			q += 2 + len;
			qoff += 2 + len;
			continue;
		}
		for (int j = 0; j < len; j++) {
			int e = sqs[j];
			int sq = e & VC_PS_SQMASK;
			if (!(e & VC_PS_TRANSIT) && !c->ins) { /* noted the first time round */
				if (seen[sq] == stamp)
					v->dedupe[t] = 1;
				seen[sq] = stamp;
			}
			if ((e & VC_PS_TRANSIT) || (c->walk >> t & 1) ||
			    !(modes & (VC_MODE_CAPTURE | VC_MODE_MOVE)))
				continue;
			size_t b = (size_t)s * (size_t)v->nsq + (size_t)sq;
			if (c->ins) /* the second time round: in place */
				c->ins[c->at[b]++] = (struct tins){ qoff, (uint16_t)o, (uint8_t)j,
								    (uint8_t)(t | s << 7) };
			else /* the first: counted */
				c->at[b + 1]++;
		}
		q += 2 + len;
		qoff += 2 + len;
	}
}

/* walk_types and first_types as type t of a side begins */
static void type_walks(struct compile *c, int t)
{
	const struct vc_ptype *pt = &c->v->types[t];
	/* hops are not in the tries: their attacks are found by walking
	 * their paths (attack.c) */
	for (int a = 0; a < pt->natoms; a++)
		if (pt->atoms[a].modes & VC_MODE_HOP)
			c->walk |= 1ULL << t;
	/* nor are first moves, which hold only while the right does */
	for (int a = 0; a < pt->natoms; a++)
		if (pt->atoms[a].modes & VC_MODE_FIRST)
			c->first |= 1ULL << t;
	c->walk |= c->first;
}

/* every side's, type's and origin's paths, and the tries they make */
static int compile_paths(struct compile *c)
{
	struct vc_variant *v = c->v;
	pb_push(&c->pb, 0); /* offset 0: "no paths" */
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			const struct vc_ptype *pt = &v->types[t];
			type_walks(c, t);
			for (int o = 0; o < v->nsq; o++) {
				/* two-square pieces move as bodies (vc_gen_two), not along
				 * paths, and their attacks are not in the tries */
				if ((pt->props & (VC_P_IMMOBILE | VC_P_TWOSQUARE)) || pt->natoms == 0) {
					v->pathoff[s][t][o] = 0;
					continue;
				}
				size_t start = c->pb.len;
				int np = origin_paths(c, s, t, o);
				if (c->pb.oom)
					return -1;
				v->pathoff[s][t][o] = np ? (int32_t)start : 0;
				if (!np) {
					c->pb.len = start;
					continue;
				}
				insert_paths(c, s, t, o, c->pb.p + start + 1, (int32_t)start + 1, np);
			}
		}
	v->walk_types = c->walk;
	v->first_types = c->first;
	v->paths = c->pb.p;
	v->npaths = c->pb.len;
	c->pb.p = NULL;
	return 0;
}

/* the tries, flattened in depth-first order: one run per kind, side and
 * target */
/* The insertions counted by side and target, made again in the same order
 * into their places: ins[at[b]..at[b + 1]] for side * nsq + target b. */
static int ins_by_target(struct compile *c)
{
	struct vc_variant *v = c->v;
	size_t nb = 2 * (size_t)v->nsq;
	for (size_t b = 0; b < nb; b++)
		c->at[b + 1] += c->at[b];
	c->nins = c->at[nb];
	c->ins = malloc((c->nins ? c->nins : 1) * sizeof *c->ins);
	if (!c->ins)
		return -1;
	c->walk = c->first = 0;
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			type_walks(c, t);
			for (int o = 0; o < v->nsq; o++) {
				int32_t off = v->pathoff[s][t][o];
				if (off)
					insert_paths(c, s, t, o, v->paths + off + 1, off + 1, v->paths[off]);
			}
		}
	/* each at[b] is now where b's insertions end: back to where they begin */
	memmove(c->at + 1, c->at, nb * sizeof *c->at);
	c->at[0] = 0;
	return 0;
}

/* Inserts in into its target's trie of kind k, when it is of that kind: the
 * squares before its destination (but the origin) from the destination
 * back, each once (a reflecting path may cross itself, and "must be empty"
 * is said once; a square met twice would otherwise hide a pin), then the
 * origin. */
static void ins_apply(struct compile *c, const struct tins *in, int k)
{
	const int16_t *q = c->v->paths + in->qoff, *sqs = q + 2;
	int16_t seq[VC_TRIE_MAXLEN + 1];
	int n = 0;
	if (!(q[1] & (k ? VC_MODE_MOVE : VC_MODE_CAPTURE)))
		return;
	if (++c->stamp == 0) {
		memset(c->mark, 0, sizeof c->mark);
		c->stamp = 1;
	}
	c->mark[in->o] = c->mark[sqs[in->j] & VC_PS_SQMASK] = c->stamp;
	for (int b = in->j - 1; b >= 0; b--) {
		int e = sqs[b] & VC_PS_SQMASK;
		if (c->mark[e] != c->stamp) {
			c->mark[e] = c->stamp;
			seq[n++] = (int16_t)e;
		}
	}
	seq[n++] = (int16_t)in->o;
	tb_insert(&c->tb, seq, n, in->ts & 0x7f);
}

/* The cut tries of the trie of kind k, side s and target sq, just
 * flattened; and of a capture trie, the lines: the squares with something
 * behind them on a capture path towards a royal piece on sq of the other
 * side. */
static int type_trie_target(struct compile *c, int k, int s, int sq)
{
	struct vc_variant *v = c->v;
	const struct vc_tnode *n = c->fl.n;
	size_t cnt[VC_MAXT] = { 0 }, need = c->ttlen, words = (size_t)(v->nsq + 63) / 64;
	for (int32_t i = v->trieoff[k][s][sq]; i < v->trieend[k][s][sq]; i++) {
		for (uint64_t b = n[i].sub; b; b &= b - 1)
			cnt[__builtin_ctzll(b)]++;
		if (!k && n[i].skip > 1)
			vc_bit_set(v->lines[s ^ 1] + (size_t)sq * words, n[i].sq);
	}
	for (int t = 0; t < v->ntypes; t++) {
		size_t idx = (size_t)t * (size_t)v->nsq + (size_t)sq;
		v->ttoff[k][s][idx] = (int32_t)need;
		need += cnt[t];
		v->ttend[k][s][idx] = (int32_t)need;
	}
	if (need > c->ttcap) {
		size_t nc = c->ttcap ? c->ttcap : 1 << 14;
		while (nc < need)
			nc *= 2;
		struct vc_tnode1 *nt = realloc(c->tt, nc * sizeof *nt);
		if (!nt)
			return -1;
		c->tt = nt;
		c->ttcap = nc;
	}
	c->ttlen = need;
	return type_trie_fill(v, n, k, s, sq, c->tt);
}

/* the tries, one target at a time, flattened in depth-first order (one run
 * per kind, side and target) and cut to each type */
static int flatten_tries(struct compile *c)
{
	struct vc_variant *v = c->v;
	size_t nidx = (size_t)v->ntypes * (size_t)v->nsq, words = (size_t)(v->nsq + 63) / 64;
	if (ins_by_target(c))
		return -1;
	for (int s = 0; s < 2; s++) {
		v->lines[s] = calloc((size_t)v->nsq * words, sizeof(uint64_t));
		if (!v->lines[s])
			return -1;
	}
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++) {
			v->trieoff[k][s] = malloc((size_t)v->nsq * sizeof(int32_t));
			v->trieend[k][s] = malloc((size_t)v->nsq * sizeof(int32_t));
			v->ttoff[k][s] = malloc((nidx ? nidx : 1) * sizeof(int32_t));
			v->ttend[k][s] = malloc((nidx ? nidx : 1) * sizeof(int32_t));
			if (!v->trieoff[k][s] || !v->trieend[k][s] || !v->ttoff[k][s] || !v->ttend[k][s])
				return -1;
			for (int sq = 0; sq < v->nsq; sq++) {
				size_t b = (size_t)s * (size_t)v->nsq + (size_t)sq;
				tb_reset(&c->tb, sq);
				for (size_t i = c->at[b]; i < c->at[b + 1]; i++) {
					/* the paths are met out of order: fetch ahead */
					if (i + 8 < c->nins) {
						const int16_t *q = v->paths + c->ins[i + 8].qoff;
						__builtin_prefetch(q);
						__builtin_prefetch(q + 2 + c->ins[i + 8].j);
					}
					ins_apply(c, &c->ins[i], k);
				}
				v->trieoff[k][s][sq] = (int32_t)c->fl.len;
				if (!c->tb.oom)
					flatten(&c->tb, 0, &c->fl);
				if (c->tb.oom || c->fl.oom)
					return -1;
				v->trieend[k][s][sq] = (int32_t)c->fl.len;
				if (type_trie_target(c, k, s, sq))
					return -1;
			}
		}
	v->trie = c->fl.n;
	c->fl.n = NULL;
	v->ttrie = c->tt;
	c->tt = NULL;
	return 0;
}

/* per origin of side s's type t, the squares its paths of the given mode
 * hold at all, into *to: walk_reach (captures) and walk_move_reach */
static int reach_table(struct vc_variant *v, int s, int t, int mode, uint64_t **to)
{
	size_t words = (size_t)(v->nsq + 63) / 64;
	uint64_t *r = calloc((size_t)v->nsq * words, sizeof *r);
	if (!r)
		return -1;
	*to = r;
	for (int o = 0; o < v->nsq; o++) {
		int32_t off = v->pathoff[s][t][o];
		if (!off)
			continue;
		const int16_t *q = v->paths + off;
		int np = *q++;
		for (int i = 0; i < np; i++, q += 2 + q[0])
			for (int j = 0; j < q[0] && (q[1] & mode); j++)
				vc_bit_set(r + (size_t)o * words, q[2 + j] & VC_PS_SQMASK);
	}
	return 0;
}

/* walk_reach for the types whose attacks are walked; with test_lines, for
 * every type (movegen.c's find_pins asks which pieces line up with the
 * royal piece); walk_move_reach for the walked types */
static int walk_tables(struct vc_variant *v)
{
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < v->ntypes; t++) {
			int walked = v->walk_types >> t & 1;
			if (!v->walk_reach[s][t] && (walked || v->test_lines) &&
			    reach_table(v, s, t, VC_MODE_CAPTURE, &v->walk_reach[s][t]))
				return -1;
			if (!v->walk_move_reach[s][t] && walked &&
			    reach_table(v, s, t, VC_MODE_MOVE, &v->walk_move_reach[s][t]))
				return -1;
		}
	return 0;
}

/* pins and tparent (see vc_rules.h), on boards small enough for them */
static int pin_tables(struct vc_variant *v)
{
	if (v->nsq > VC_PINS_MAXSQ)
		return 0;
	int32_t total = v->trieend[1][1][v->nsq - 1];
	int32_t stack[VC_TRIE_MAXLEN + 2], stop[VC_TRIE_MAXLEN + 2];
	v->tparent = malloc((size_t)(total ? total : 1) * sizeof(int32_t));
	if (!v->tparent)
		return -1;
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++)
			for (int sq = 0; sq < v->nsq; sq++) {
				int depth = 0;
				for (int32_t i = v->trieoff[k][s][sq]; i < v->trieend[k][s][sq]; i++) {
					while (depth > 0 && i >= stop[depth - 1])
						depth--;
					v->tparent[i] = depth ? stack[depth - 1] : -1;
					if (v->trie[i].skip > 1) {
						if (depth > VC_TRIE_MAXLEN)
							return -1; /* paths are no longer */
						stack[depth] = i;
						stop[depth++] = i + v->trie[i].skip;
					}
				}
			}
	for (int s = 0; s < 2; s++) {
		size_t nsq = (size_t)v->nsq;
		v->pins[s] = malloc(nsq * nsq * sizeof(int32_t));
		if (!v->pins[s])
			return -1;
		for (size_t j = 0; j < nsq * nsq; j++)
			v->pins[s][j] = -1;
		for (size_t k = 0; k < nsq; k++) {
			int32_t i = v->trieoff[0][s ^ 1][k], end = v->trieend[0][s ^ 1][k];
			for (; i < end; i++)
				if (v->trie[i].skip > 1) {
					int32_t *slot = &v->pins[s][k * nsq + (size_t)v->trie[i].sq];
					*slot = *slot == -1 ? i : -2;
				}
		}
	}
	return 0;
}

/* hashing keys: fixed seed, so hashes are the same in every run */
static int zobrist_keys(struct vc_variant *v)
{
	uint64_t seed = 0x76636865737321ULL;
	size_t ncodes = (size_t)(v->ntypes + 1) * 4;
	v->zobrist = malloc(ncodes * (size_t)v->nsq * sizeof(uint64_t));
	if (!v->zobrist)
		return -1;
	for (size_t i = 0; i < ncodes * (size_t)v->nsq; i++)
		v->zobrist[i] = splitmix(&seed);
	v->zob_side = splitmix(&seed);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < VC_MAXCASTLE; i++)
			v->zob_castle[s][i] = splitmix(&seed);
	for (int i = 0; i < VC_MAXSQ; i++)
		v->zob_ep[i] = splitmix(&seed);
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < VC_MAXRES; r++)
			for (int t = 0; t < VC_MAXT; t++)
				v->zob_res[s][r][t] = splitmix(&seed);
	/* drawn last, so that the keys above are those of every earlier
	 * version: hashes of variants without walls do not change */
	v->zob_link = malloc((size_t)v->nsq * 8 * sizeof(uint64_t));
	if (!v->zob_link)
		return -1;
	for (int i = 0; i < v->nsq * 8; i++)
		v->zob_link[i] = splitmix(&seed);
	v->zob_checks[0] = splitmix(&seed);
	v->zob_checks[1] = splitmix(&seed);
	for (int s = 0; s < 2; s++)
		for (int f = 0; f < VC_MAXF; f++)
			v->zob_gate[s][f] = splitmix(&seed);
	return 0;
}

/* The translations of a two-square piece of type t for side s: each vector
 * of its leaps and rides once, with the longest range either gives. */
static int two_vectors(struct vc_variant *v, int t, int s)
{
	const struct vc_ptype *pt = &v->types[t];
	struct vc_twovec *tv = calloc((size_t)pt->natoms * 8 + 1, sizeof *tv);
	int n = 0;
	if (!tv)
		return -1;
	for (int a = 0; a < pt->natoms; a++) {
		const struct vc_atom *at = &pt->atoms[a];
		int8_t vec[8][2];
		if (at->kind != VC_A_LEAP && at->kind != VC_A_RIDE)
			continue; /* refused by the loader */
		int nv = atom_vectors(at, s, vec);
		for (int i = 0; i < nv; i++) {
			int range = at->kind == VC_A_LEAP ? 1 : at->range, k;
			for (k = 0; k < n; k++)
				if (tv[k].dx == vec[i][0] && tv[k].dy == vec[i][1])
					break;
			if (k == n) {
				tv[n].dx = vec[i][0];
				tv[n].dy = vec[i][1];
				tv[n].range = (uint8_t)range;
				tv[n].min = at->kind == VC_A_LEAP ? 1 : at->min;
				tv[n].modes = at->modes;
				n++;
			} else {
				/* one vector from two movements: the longer range */
				if (tv[k].range && (!range || range > tv[k].range))
					tv[k].range = (uint8_t)range;
				if (at->min < tv[k].min)
					tv[k].min = at->min;
				tv[k].modes |= at->modes;
			}
		}
	}
	for (int k = 0; k < n; k++)
		if (tv[k].dx && tv[k].dy && tv[k].dx != tv[k].dy && tv[k].dx != -tv[k].dy)
			v->two_odd |= 1ULL << t;
	v->twovec[s][t] = tv;
	v->ntwovec[s][t] = (uint8_t)n;
	return 0;
}

/* two-square pieces: their types, the translations of their leaps and rides */
static int two_square_moves(struct vc_variant *v)
{
	v->two_types = v->two_odd = 0;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		if (!(pt->props & VC_P_TWOSQUARE) || (pt->props & VC_P_IMMOBILE))
			continue;
		v->two_types |= 1ULL << t;
		for (int s = 0; s < 2; s++)
			if (two_vectors(v, t, s))
				return -1;
	}
	return 0;
}

/* the symbol table of the move reader's fast path (notation.c), and the
 * summaries that choose the generator's and validator's ways */
static void summaries(struct vc_variant *v)
{
	v->symbols_indexed = 0;
	memset(v->sym_first, 0, sizeof v->sym_first);
	memset(v->san_first, 0, sizeof v->san_first);
	for (int t = 0; t < v->ntypes; t++) {
		int a = toupper((unsigned char)v->types[t].symbol[0]),
		    b = toupper((unsigned char)v->types[t].san[0]);
		if (a >= 'A' && a <= 'Z')
			v->sym_first[a - 'A'] |= 1ULL << t;
		if (b >= 'A' && b <= 'Z')
			v->san_first[b - 'A'] |= 1ULL << t;
	}
	memset(v->letter_type, -1, sizeof v->letter_type);
	for (int t = v->ntypes - 1; t >= 0; t--) {
		int c = v->types[t].symbol[0]; /* as vc_type_by_symbol matches one letter */
		if (v->types[t].symbol[1] == 0 && c >= 'A' && c <= 'Z')
			v->letter_type[c - 'A'] = (int8_t)t;
	}
	for (int t = v->ntypes - 1; t >= 0; t--) {
		int c = v->types[t].san[0]; /* SAN's own symbols, where no symbol is the same */
		if (v->types[t].san[1] == 0 && c >= 'A' && c <= 'Z' &&
		    vc_type_by_symbol(v, v->types[t].san, 1) == t)
			v->letter_type[c - 'A'] = (int8_t)t;
	}
	v->symbols_indexed = 1;
	for (int a = 0; a < 26; a++)
		for (int b = 0; b < 26; b++) {
			const char pair[2] = { (char)('A' + a), (char)('A' + b) };
			v->pair_type[a][b] = (int8_t)vc_type_by_symbol(v, pair, 2);
		}
	/* SAN's groups of types written alike, the unpromoted kinds of the
	 * pieces written '+X', and the types whose drops have rules */
	v->drop_rule_types = v->plus_types = 0;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		v->san_group[t] = 0;
		for (int u = 0; u < v->ntypes; u++)
			if (!strcmp(vc_san_symbol(v, t), vc_san_symbol(v, u)))
				v->san_group[t] |= 1ULL << u;
		v->types[t].demote_to = pt->symbol[0] == '+' ? vc_variant_piece_find(v, pt->symbol + 1) : -1;
		if (pt->drop_file_once || pt->drop_no_mate)
			v->drop_rule_types |= 1ULL << t;
		if (v->types[t].demote_to >= 0)
			v->plus_types |= 1ULL << t;
	}
	/* the two faces of a piece that turns over (flip): X and +X */
	for (int t = 0; t < v->ntypes; t++)
		v->types[t].flip_to = -1;
	for (int t = 0; t < v->ntypes; t++)
		if (v->types[t].demote_to >= 0) {
			v->types[t].flip_to = v->types[t].demote_to;
			v->types[v->types[t].demote_to].flip_to = t;
		}
	/* the types whose written moves the move reader never makes without
	 * generation (notation.c's direct_move), and those with en passant */
	v->direct_no = v->ep_types = 0;
	for (int t = 0; t < v->ntypes; t++) {
		const struct vc_ptype *pt = &v->types[t];
		int no = (pt->props & (VC_P_TWOSQUARE | VC_P_BECOMES_VICTIM)) ||
			 (pt->flip_to >= 0 && (v->rules & (VC_R_FLIP_MOVES | VC_R_FLIP_CAPTURES)));
		for (int a = 0; a < pt->natoms; a++) {
			const struct vc_atom *at = &pt->atoms[a];
			if (at->modes & (VC_MODE_EPMAKE | VC_MODE_EPTAKE))
				v->ep_types |= 1ULL << t;
			if ((at->modes & VC_MODE_EPMAKE) && at->kind != VC_A_RIDE &&
			    at->kind != VC_A_LEAP)
				no = 1;
		}
		if (no)
			v->direct_no |= 1ULL << t;
	}
	v->any_file_alias = 0;
	memset(v->alias_bytes, 0, sizeof v->alias_bytes);
	for (int f = 0; f < v->files; f++)
		if (v->file_alias[f]) {
			unsigned char c = (unsigned char)v->file_alias[f];
			v->any_file_alias = 1;
			v->alias_bytes[c >> 6] |= 1ULL << (c & 63);
		}
	v->has_complex = (v->rules & (VC_R_SWAP_HALVES | VC_R_XPROMO | VC_R_PRISON |
				      VC_R_EXPLOSION | VC_R_NO_CHECK)) != 0;
	/* prisons and airfields change reserves only, a promotion by exchange
	 * and a swap of halves only some moves or plies (movegen.c) */
	v->complex_always = (v->rules & (VC_R_EXPLOSION | VC_R_NO_CHECK)) != 0;
	/* the tries do not see hops, long paths, nor royal pieces facing each
	 * other: every move is tested, on the board alone where it can be */
	v->test_all = v->complex_always || v->walk_types != 0 ||
		      (v->rules & (VC_R_NO_FACING | VC_R_BIKJANG)) != 0;
	/* two-square pieces need no test of every move: see movegen.c's
	 * find_pins and needs_test */
	v->attacks_off_tries = v->walk_types || v->two_types;
	v->test_lines = v->test_all && !v->has_complex && !v->two_types &&
			!(v->rules & VC_R_KIRBY_DEATH);
}

int vc_variant_compile(struct vc_ctx *ctx, struct vc_variant *v)
{
	struct compile c = { .v = v };
	int rc = -1;
	v->nsq = v->files * v->ranks;
	for (int sq = 0; sq < v->nsq; sq++) {
		v->sqfile[sq] = (uint8_t)(sq % v->files);
		v->sqrank[sq] = (uint8_t)(sq / v->files);
	}
	for (int u = 0; u < 2; u++) { /* a swap of halves, and its undo (position.c) */
		int shift = vc_swap_shift(v, u);
		v->swap_low[u] = 0;
		for (int sq = 0; sq < v->nsq && v->nsq <= 64; sq++)
			if (v->sqfile[sq] < v->files - shift)
				v->swap_low[u] |= 1ULL << sq;
	}
	promotion_zones(v);
	if (start_tables(&c) || compile_paths(&c) || walk_tables(v) || flatten_tries(&c) ||
	    pin_tables(v) || zobrist_keys(v) ||
	    two_square_moves(v))
		vc_emit(ctx, VC_SEV_FATAL, "no-memory", v->source, 0, 0, NULL,
			"out of memory while compiling variant '%s'", v->name ? v->name : "?");
	else {
		summaries(v);
		if (v->test_lines && walk_tables(v))
			vc_emit(ctx, VC_SEV_FATAL, "no-memory", v->source, 0, 0, NULL,
				"out of memory while compiling variant '%s'", v->name ? v->name : "?");
		else
			rc = 0;
	}
	free(c.pb.p);
	free(c.ins);
	free(c.at);
	free(c.tb.n);
	free(c.tb.kids);
	free(c.fl.n);
	free(c.tt);
	return rc;
}
