/*
 * variant_yaml.c - reads a variant description (man 5 vchess-variant) with
 * libyaml into a struct vc_variant.
 *
 * The whole document is loaded as a node tree first, then walked; every
 * problem found in the walk is reported at its node's line and column and
 * the walk goes on, so one run reports every error of a file.  Only a YAML
 * syntax error stops early (libyaml cannot go past one).  Piece references
 * (combine, promotion choices, castling partners) are resolved after all
 * pieces are read, so their order in the file does not matter.
 *
 * A file may name a base variant ("base: chess"): its documents are loaded
 * too, up to VC_MAXBASE deep, and each top-level key is read from the most
 * derived document that has it, but for name, title, aliases and openings,
 * which are never inherited, and pieces, which are read from the base first and then
 * changed piece by piece (a piece of the same name is updated key by key, a
 * new one is added, and one given as {name: NAME, removed: true} is dropped:
 * the pieces after it move down, and so do the types its references name).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "rules/vc_rules.h"

#define VC_MAXBASE 4 /* a file, its base, the base's base, ... */

struct ld {
	struct vc_ctx *ctx;
	const char *file;      /* the document being read: files[cur] */
	yaml_document_t *doc;  /* docs[cur] */
	int cur;
	yaml_document_t docs[VC_MAXBASE];
	char *files[VC_MAXBASE];
	int ndocs;             /* docs[0] is the file itself, docs[k + 1] the base of docs[k] */
	int errors;
	struct vc_variant *v;
	/* deferred references, each with the document its node belongs to */
	struct ref {
		int type;
		yaml_node_t *node;
		yaml_document_t *doc;
	} combine[VC_MAXT * 4], choices[VC_MAXT * 2], autop[VC_MAXT * 2], region[1],
		immune[VC_MAXT];
	int ncombine, nchoices, nautop, nregion, nimmune;
	struct ref spare[1];
	int nspare;
	unsigned char removed[VC_MAXT]; /* the base's pieces this document drops */
	struct gone {                   /* and those dropped, for the messages */
		char symbol[4], name[32];
	} gone[VC_MAXT];
	int ngone;
	yaml_node_t *partners;
	yaml_node_t *castle_becomes[VC_MAXCASTLE];
	/* problems, emitted in file order at the end */
	struct lderr {
		const char *file;
		int doc;
		long line, col;
		char *msg;
	} *errs;
	size_t nerrs, caperrs;
};

static void err(struct ld *l, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err_at(struct ld *l, long line, long col, const char *fmt, va_list ap)
{
	struct vc_buf b;
	vc_buf_init(&b);
	vc_buf_vprintf(&b, fmt, ap);
	l->errors++;
	if (l->nerrs == l->caperrs) {
		size_t nc = l->caperrs ? l->caperrs * 2 : 16;
		struct lderr *ne = realloc(l->errs, nc * sizeof *ne);
		if (!ne) {
			vc_buf_free(&b);
			return;
		}
		l->errs = ne;
		l->caperrs = nc;
	}
	l->errs[l->nerrs].file = l->file;
	l->errs[l->nerrs].doc = l->cur;
	l->errs[l->nerrs].line = line;
	l->errs[l->nerrs].col = col;
	l->errs[l->nerrs].msg = vc_buf_take(&b);
	l->nerrs++;
	vc_buf_free(&b);
}

static void err(struct ld *l, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_at(l, n ? (long)n->start_mark.line + 1 : 0, n ? (long)n->start_mark.column + 1 : 0, fmt,
	       ap);
	va_end(ap);
}

static void err_line(struct ld *l, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err_line(struct ld *l, long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_at(l, line, 1, fmt, ap);
	va_end(ap);
}

static void err_at_atom(struct ld *l, const struct vc_atom *a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err_at_atom(struct ld *l, const struct vc_atom *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_at(l, a->line, a->col, fmt, ap);
	va_end(ap);
}

static int errcmp(const void *a, const void *b)
{
	const struct lderr *x = a, *y = b;
	if (x->doc != y->doc) /* a base's problems after the file's own */
		return x->doc < y->doc ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

static void flush_errs(struct ld *l)
{
	if (l->nerrs)
		qsort(l->errs, l->nerrs, sizeof *l->errs, errcmp);
	for (size_t i = 0; i < l->nerrs; i++) {
		vc_emit(l->ctx, VC_SEV_ERROR, "variant-invalid", l->errs[i].file, l->errs[i].line,
			l->errs[i].col, NULL, "%s", l->errs[i].msg ? l->errs[i].msg : "out of memory");
		free(l->errs[i].msg);
	}
	free(l->errs);
}

static yaml_node_t *node(struct ld *l, int id) { return yaml_document_get_node(l->doc, id); }

/* Reads from now on in document d (0 the file itself, 1 its base, ...). */
static void use_doc(struct ld *l, int d)
{
	l->cur = d;
	l->doc = &l->docs[d];
	l->file = l->files[d];
}

/* Makes doc current (a document a deferred reference was found in). */
static void use_doc_of(struct ld *l, yaml_document_t *doc)
{
	for (int d = 0; d < l->ndocs; d++)
		if (&l->docs[d] == doc)
			use_doc(l, d);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int get_str(struct ld *l, yaml_node_t *n, const char *what, char *out, size_t size)
{
	const char *s = scalar(n);
	if (!s) {
		err(l, n, "'%s' must be a string", what);
		return -1;
	}
	if (strlen(s) >= size) {
		err(l, n, "'%s' is too long (at most %zu characters)", what, size - 1);
		return -1;
	}
	strcpy(out, s);
	return 0;
}

static int get_int(struct ld *l, yaml_node_t *n, const char *what, long lo, long hi, long *out)
{
	const char *s = scalar(n);
	char *end;
	if (!s || !*s) {
		err(l, n, "'%s' must be a whole number", what);
		return -1;
	}
	errno = 0;
	long x = strtol(s, &end, 10);
	if (*end || errno) {
		err(l, n, "'%s' must be a whole number, not '%s'", what, s);
		return -1;
	}
	if (x < lo || x > hi) {
		err(l, n, "'%s' must be from %ld to %ld, not %ld", what, lo, hi, x);
		return -1;
	}
	*out = x;
	return 0;
}

static int get_bool(struct ld *l, yaml_node_t *n, const char *what, int *out)
{
	const char *s = scalar(n);
	if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))) {
		*out = 1;
		return 0;
	}
	if (s && (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))) {
		*out = 0;
		return 0;
	}
	err(l, n, "'%s' must be true or false", what);
	return -1;
}

/* a [x, y] pair */
static int get_vec(struct ld *l, yaml_node_t *n, const char *what, int8_t *x, int8_t *y)
{
	if (!n || n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.top - n->data.sequence.items.start != 2) {
		err(l, n, "'%s' must be a pair [x, y]", what);
		return -1;
	}
	long a, b;
	if (get_int(l, node(l, n->data.sequence.items.start[0]), what, -25, 25, &a) ||
	    get_int(l, node(l, n->data.sequence.items.start[1]), what, -25, 25, &b))
		return -1;
	if (a == 0 && b == 0) {
		err(l, n, "'%s' must not be [0, 0]", what);
		return -1;
	}
	*x = (int8_t)a;
	*y = (int8_t)b;
	return 0;
}

/* a rank number or a list of them, as a bit mask of relative ranks */
static int get_ranks(struct ld *l, yaml_node_t *n, const char *what, uint32_t *out)
{
	long r;
	*out = 0;
	if (n && n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			if (get_int(l, node(l, *it), what, 1, VC_MAXR, &r))
				return -1;
			*out |= 1u << (r - 1);
		}
		return 0;
	}
	if (get_int(l, n, what, 1, VC_MAXR, &r))
		return -1;
	*out = 1u << (r - 1);
	return 0;
}

#define FOR_MAP(n, k, val)                                                                         \
	for (yaml_node_pair_t *pair_ = (n)->data.mapping.pairs.start;                             \
	     pair_ < (n)->data.mapping.pairs.top &&                                                \
	     ((k) = node(l, pair_->key), (val) = node(l, pair_->value), 1);                        \
	     pair_++)

static int is_map(struct ld *l, yaml_node_t *n, const char *what)
{
	if (!n || n->type != YAML_MAPPING_NODE) {
		err(l, n, "'%s' must be a mapping", what);
		return 0;
	}
	return 1;
}

static int is_seq(struct ld *l, yaml_node_t *n, const char *what)
{
	if (!n || n->type != YAML_SEQUENCE_NODE) {
		err(l, n, "'%s' must be a list", what);
		return 0;
	}
	return 1;
}

static int key_is(yaml_node_t *k, const char *name)
{
	const char *s = scalar(k);
	return s && strcmp(s, name) == 0;
}

/* A region by name: its index + 1, or 0 after an error (said). */
static int region_ref(struct ld *l, yaml_node_t *n, const char *what)
{
	const char *s = scalar(n);
	for (int i = 0; s && i < l->v->nregions; i++)
		if (!strcmp(l->v->region_name[i], s))
			return i + 1;
	err(l, n, "'%s' names no region of this variant: '%s'", what, s ? s : "?");
	return 0;
}

/* A movement's switches that are mode bits: first-move (only while the
 * piece holds its first-move right) and not-in-check. */
static void atom_switch(struct ld *l, const char *key, yaml_node_t *val, int *bits)
{
	int on = 0;
	get_bool(l, val, key, &on);
	if (on)
		*bits |= !strcmp(key, "first-move") ? VC_MODE_FIRST : VC_MODE_UNCHECKED;
}

static void read_atom(struct ld *l, yaml_node_t *n, struct vc_ptype *pt)
{
	struct vc_atom a;
	memset(&a, 0, sizeof a);
	a.modes = VC_MODE_MOVE | VC_MODE_CAPTURE;
	a.dirs = VC_DIR_ALL;
	a.min = 1;
	a.line = (int)n->start_mark.line + 1;
	a.col = (int)n->start_mark.column + 1;
	if (!is_map(l, n, "moves item"))
		return;
	int kinds = 0, have_then = 0, ep = 0, hop = 0, switches = 0;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		const char *key = scalar(k);
		long x;
		if (!key) {
			err(l, k, "keys must be strings");
			continue;
		}
		if (!strcmp(key, "leap") || !strcmp(key, "ride") || !strcmp(key, "bent") ||
		    !strcmp(key, "zigzag") || !strcmp(key, "reflect")) {
			kinds++;
			a.kind = !strcmp(key, "leap")     ? VC_A_LEAP
				 : !strcmp(key, "ride")   ? VC_A_RIDE
				 : !strcmp(key, "bent")   ? VC_A_BENT
				 : !strcmp(key, "zigzag") ? VC_A_ZIGZAG
							  : VC_A_REFLECT;
			get_vec(l, val, key, &a.x, &a.y);
		} else if (!strcmp(key, "then")) {
			have_then = 1;
			get_vec(l, val, "then", &a.x2, &a.y2);
		} else if (!strcmp(key, "range")) {
			if (!get_int(l, val, "range", 0, 100, &x))
				a.range = (uint8_t)x;
		} else if (!strcmp(key, "min")) {
			if (!get_int(l, val, "min", 1, 100, &x))
				a.min = (uint8_t)x;
		} else if (!strcmp(key, "mode")) {
			const char *s = scalar(val);
			if (s && !strcmp(s, "move"))
				a.modes = VC_MODE_MOVE;
			else if (s && !strcmp(s, "capture"))
				a.modes = VC_MODE_CAPTURE;
			else if (s && !strcmp(s, "both"))
				a.modes = VC_MODE_MOVE | VC_MODE_CAPTURE;
			else
				err(l, val, "'mode' must be move, capture or both");
		} else if (!strcmp(key, "dirs")) {
			a.dirs = 0;
			yaml_node_t *one = val;
			yaml_node_item_t *it = NULL, *top = NULL;
			if (val && val->type == YAML_SEQUENCE_NODE) {
				it = val->data.sequence.items.start;
				top = val->data.sequence.items.top;
				one = it < top ? node(l, *it) : NULL;
			}
			while (one) {
				const char *s = scalar(one);
				if (s && !strcmp(s, "forward"))
					a.dirs |= VC_DIR_FORWARD;
				else if (s && !strcmp(s, "backward"))
					a.dirs |= VC_DIR_BACKWARD;
				else if (s && !strcmp(s, "sideways"))
					a.dirs |= VC_DIR_SIDEWAYS;
				else if (s && !strcmp(s, "all"))
					a.dirs |= VC_DIR_ALL;
				else
					err(l, one, "'dirs' must be forward, backward, sideways or all");
				if (!it || ++it >= top)
					break;
				one = node(l, *it);
			}
		} else if (!strcmp(key, "vectors")) {
			if (!is_seq(l, val, "vectors"))
				continue;
			for (yaml_node_item_t *it = val->data.sequence.items.start;
			     it < val->data.sequence.items.top; it++) {
				if (a.nvec == 8) {
					err(l, node(l, *it), "at most 8 vectors");
					break;
				}
				if (!get_vec(l, node(l, *it), "vectors", &a.vec[a.nvec][0],
					     &a.vec[a.nvec][1]))
					a.nvec++;
			}
		} else if (!strcmp(key, "from-rank")) {
			get_ranks(l, val, "from-rank", &a.from_ranks);
		} else if (!strcmp(key, "hop")) {
			get_bool(l, val, "hop", &hop);
		} else if (!strcmp(key, "within")) {
			a.within = (uint8_t)region_ref(l, val, "within");
		} else if (!strcmp(key, "en-passant")) {
			get_bool(l, val, "en-passant", &ep);
		} else if (!strcmp(key, "first-move") || !strcmp(key, "not-in-check")) {
			atom_switch(l, key, val, &switches);
		} else
			err(l, k, "unknown key '%s' in a move", key);
	}
	if (kinds != 1) {
		err(l, n, kinds ? "a move has one of leap, ride, bent, zigzag or reflect, not several"
				: "a move needs one of leap, ride, bent, zigzag or reflect");
		return;
	}
	if (a.kind == VC_A_BENT && !have_then) {
		err(l, n, "a bent move needs 'then', the direction of its second leg");
		return;
	}
	if (a.kind != VC_A_BENT && have_then)
		err(l, n, "'then' belongs to bent moves only");
	if (a.nvec && a.kind == VC_A_BENT)
		err(l, n, "'vectors' cannot be used with bent moves");
	if (hop) {
		if (a.kind != VC_A_RIDE)
			err(l, n, "'hop' belongs to rides only");
		else if (ep)
			err(l, n, "a hop cannot be taken or made en passant");
		a.modes |= VC_MODE_HOP;
	}
	if (ep) {
		if (a.modes == VC_MODE_CAPTURE)
			a.modes |= VC_MODE_EPTAKE;
		else if (a.modes == VC_MODE_MOVE)
			a.modes |= VC_MODE_EPMAKE;
		else
			err(l, n, "'en-passant' needs mode move (a step that can be taken en passant) "
				  "or capture (a capture that can take en passant)");
	}
	a.modes |= (uint8_t)switches;
	struct vc_atom *na = realloc(pt->atoms, (size_t)(pt->natoms + 1) * sizeof *na);
	if (!na) {
		err(l, n, "out of memory");
		return;
	}
	pt->atoms = na;
	pt->atoms[pt->natoms++] = a;
}

/* Deferred references of piece t found so far (in a base's pieces) no
 * longer count: the piece's own key replaces them. */
static void drop_refs(struct ref *r, int n, int t)
{
	for (int i = 0; i < n; i++)
		if (r[i].type == t)
			r[i].type = -1;
}

static void add_ref(struct ld *l, struct ref *r, int *n, int cap, int t, yaml_node_t *node_)
{
	if (*n >= cap) {
		err(l, node_, "too many piece references");
		return;
	}
	r[*n].type = t;
	r[*n].node = node_;
	r[*n].doc = l->doc;
	(*n)++;
}

/* The piece a derived file's pieces item changes: the base's piece of the
 * same name, or -1 for a new one. */
static int piece_to_change(struct ld *l, yaml_node_t *n)
{
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	if (key_is(k, "name") && scalar(val))
		for (int t = 0; t < l->v->ntypes; t++)
			if (!strcmp(l->v->types[t].name, scalar(val)))
				return t;
	return -1;
}

/* A piece's promotion: {ranks, choices, mandatory: true | false | [ranks]} */
static void read_promotion(struct ld *l, yaml_node_t *val, struct vc_ptype *pt, int t)
{
	int b;
	pt->promo_ranks = 0;
	pt->promo_choices = 0;
	pt->promo_mandatory = 0;
	pt->promo_must_ranks = 0;
	pt->promo_from_zone = 0;
	pt->promo_step = 0;
	drop_refs(l->choices, l->nchoices, t);
	if (!is_map(l, val, "promotion"))
		return;
	for (yaml_node_pair_t *p2 = val->data.mapping.pairs.start;
	     p2 < val->data.mapping.pairs.top; p2++) {
		yaml_node_t *k2 = node(l, p2->key), *v2 = node(l, p2->value);
		if (key_is(k2, "ranks"))
			get_ranks(l, v2, "ranks", &pt->promo_ranks);
		else if (key_is(k2, "as-move"))
			pt->promo_step = (uint8_t)region_ref(l, v2, "as-move");
		else if (key_is(k2, "from-zone")) {
			if (!get_bool(l, v2, "from-zone", &b))
				pt->promo_from_zone = b;
		} else if (key_is(k2, "choices"))
			add_ref(l, l->choices, &l->nchoices, (int)VC_NELEM(l->choices), t, v2);
		else if (key_is(k2, "mandatory")) {
			pt->promo_must_ranks = 0;
			if (v2 && v2->type == YAML_SEQUENCE_NODE) {
				get_ranks(l, v2, "mandatory", &pt->promo_must_ranks);
				pt->promo_mandatory = 0;
			} else if (!get_bool(l, v2, "mandatory", &b))
				pt->promo_mandatory = b;
		} else
			err(l, k2, "unknown key '%s' in promotion", scalar(k2) ? scalar(k2) : "?");
	}
}

/* A piece's "promotes-to" mapping: the ranks and the piece it becomes there. */
static void read_promotes_to(struct ld *l, yaml_node_t *val, struct vc_ptype *pt, int t)
{
	pt->auto_ranks = 0;
	pt->auto_to = -1;
	drop_refs(l->autop, l->nautop, t);
	if (!is_map(l, val, "promotes-to"))
		return;
	yaml_node_t *k2, *v2;
	for (yaml_node_pair_t *p2 = val->data.mapping.pairs.start;
	     p2 < val->data.mapping.pairs.top; p2++) {
		k2 = node(l, p2->key);
		v2 = node(l, p2->value);
		if (key_is(k2, "ranks"))
			get_ranks(l, v2, "ranks", &pt->auto_ranks);
		else if (key_is(k2, "piece"))
			add_ref(l, l->autop, &l->nautop, (int)VC_NELEM(l->autop), t, v2);
		else
			err(l, k2, "unknown key '%s' in promotes-to",
			    scalar(k2) ? scalar(k2) : "?");
	}
}

/* The keys of a piece for SAN, regions, drops, hoppers and points: 1 when key is
 * one of them (read), else 0. */
static int read_piece_more(struct ld *l, struct vc_ptype *pt, int t, const char *key,
			   yaml_node_t *val)
{
	if (!strcmp(key, "san-symbol")) {
		if (!get_str(l, val, "san-symbol", pt->san, sizeof pt->san))
			for (char *c = pt->san; *c; c++)
				if (!isupper((unsigned char)*c)) {
					err(l, val, "san-symbol '%s' must be 1 to 3 upper-case letters",
					    pt->san);
					break;
				}
	} else if (!strcmp(key, "region")) {
		pt->region = (uint8_t)region_ref(l, val, "region");
	} else if (!strcmp(key, "drop-ranks")) {
		get_ranks(l, val, "drop-ranks", &pt->drop_ranks);
	} else if (!strcmp(key, "drop-one-per-file") || !strcmp(key, "drop-no-mate") ||
		   !strcmp(key, "drop-opposite-colours")) {
		int b = 0;
		if (!get_bool(l, val, key, &b)) {
			if (!strcmp(key, "drop-no-mate"))
				pt->drop_no_mate = (uint8_t)b;
			else if (!strcmp(key, "drop-opposite-colours"))
				pt->drop_colours = (uint8_t)b;
			else
				pt->drop_file_once = (uint8_t)b;
		}
	} else if (!strcmp(key, "hop-immune")) {
		drop_refs(l->immune, l->nimmune, t);
		add_ref(l, l->immune, &l->nimmune, (int)VC_NELEM(l->immune), t, val);
	} else if (!strcmp(key, "points")) {
		const char *ps = scalar(val);
		char *end = NULL;
		double d = ps ? strtod(ps, &end) : -1;
		if (!ps || end == ps || *end || d < 0 || d > 1000)
			err(l, val, "'points' must be a number from 0 to 1000");
		else
			pt->points = (int)(d * 10 + 0.5);
	} else
		return 0;
	return 1;
}

/* A pieces item {name: NAME, removed: true}: the base's piece NAME marked to
 * be dropped (drop_removed), and its references with it.  Returns 1 when the
 * item has a 'removed' key (read here, right or wrong), else 0. */
static int read_removed(struct ld *l, yaml_node_t *n, int change)
{
	yaml_node_t *k, *val, *flag = NULL, *other = NULL;
	FOR_MAP(n, k, val)
	if (key_is(k, "removed"))
		flag = val;
	else if (!key_is(k, "name") && !other)
		other = k;
	int b = 0;
	if (!flag || get_bool(l, flag, "removed", &b))
		return flag != NULL;
	int t = change ? piece_to_change(l, n) : -1;
	if (!b)
		err(l, flag, "'removed' is only ever true: leave it out to keep the piece");
	else if (other)
		err(l, other, "a removed piece takes only 'name', not '%s'",
		    scalar(other) ? scalar(other) : "?");
	else if (t < 0)
		err(l, n, "'removed' must name a piece of the base");
	else {
		l->removed[t] = 1;
		drop_refs(l->combine, l->ncombine, t);
		drop_refs(l->choices, l->nchoices, t);
		drop_refs(l->autop, l->nautop, t);
		drop_refs(l->immune, l->nimmune, t);
	}
	return 1;
}

/* The references of the pieces kept follow them down: type t is now map[t],
 * or -1 for a piece dropped. */
static void remap_refs(struct ref *r, int n, const int *map)
{
	for (int i = 0; i < n; i++)
		if (r[i].type >= 0)
			r[i].type = map[r[i].type];
}

/* The pieces marked removed leave the variant; those after them move down. */
static void drop_removed(struct ld *l)
{
	struct vc_variant *v = l->v;
	int map[VC_MAXT], n = 0;
	for (int t = 0; t < v->ntypes; t++) {
		if (l->removed[t]) {
			map[t] = -1;
			if (l->ngone < VC_MAXT) {
				memcpy(l->gone[l->ngone].symbol, v->types[t].symbol, sizeof v->types[t].symbol);
				memcpy(l->gone[l->ngone].name, v->types[t].name, sizeof v->types[t].name);
				l->ngone++;
			}
			free(v->types[t].atoms);
			continue;
		}
		map[t] = n;
		if (n != t)
			v->types[n] = v->types[t];
		n++;
	}
	for (int t = n; t < v->ntypes; t++) { /* as vc_variant_alloc leaves them */
		memset(&v->types[t], 0, sizeof v->types[t]);
		v->types[t].auto_to = v->types[t].demote_to = v->types[t].flip_to = -1;
	}
	v->ntypes = n;
	remap_refs(l->combine, l->ncombine, map);
	remap_refs(l->choices, l->nchoices, map);
	remap_refs(l->autop, l->nautop, map);
	remap_refs(l->immune, l->nimmune, map);
	memset(l->removed, 0, sizeof l->removed);
}

static void read_piece(struct ld *l, yaml_node_t *n, int change)
{
	struct vc_variant *v = l->v;
	if (!is_map(l, n, "pieces item"))
		return;
	if (read_removed(l, n, change))
		return;
	int t = change ? piece_to_change(l, n) : -1;
	if (t >= 0 && l->removed[t]) {
		err(l, n, "piece '%s' is removed in this file", v->types[t].name);
		return;
	}
	int have_name = t >= 0, have_symbol = t >= 0;
	if (t < 0) {
		if (v->ntypes >= VC_MAXT) {
			err(l, n, "too many pieces (at most %d)", VC_MAXT);
			return;
		}
		t = v->ntypes++;
	}
	struct vc_ptype *pt = &v->types[t];
	pt->line = (int)n->start_mark.line + 1;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		const char *key = scalar(k);
		int b = 0;
		if (!key) {
			err(l, k, "keys must be strings");
			continue;
		}
		if (!strcmp(key, "name")) {
			if (!get_str(l, val, "name", pt->name, sizeof pt->name)) {
				have_name = 1;
				for (char *c = pt->name; *c; c++)
					if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
					      *c == '-')) {
						err(l, val, "piece name '%s' must be lower case with hyphens",
						    pt->name);
						break;
					}
			}
		} else if (!strcmp(key, "symbol")) {
			if (!get_str(l, val, "symbol", pt->symbol, sizeof pt->symbol)) {
				have_symbol = 1;
				/* '+' and letters: a promoted piece, as shogi writes it */
				const char *c0 = pt->symbol + (pt->symbol[0] == '+');
				for (const char *c = c0; *c || c == c0; c++)
					if (!isupper((unsigned char)*c)) {
						err(l, val,
						    "symbol '%s' must be 1 to 3 upper-case letters, or '+' "
						    "and 1 or 2",
						    pt->symbol);
						break;
					}
			}
		} else if (read_piece_more(l, pt, t, key, val)) {
			/* the keys of hoppers, regions, drops, SAN and points */
		} else if (!strcmp(key, "letter")) {
			char s[4];
			if (!get_str(l, val, "letter", s, sizeof s)) {
				if (strlen(s) != 1 || !isupper((unsigned char)s[0]))
					err(l, val, "'letter' must be one upper-case letter");
				else
					pt->letter = s[0];
			}
		} else if (!strcmp(key, "glyph")) {
			get_str(l, val, "glyph", pt->glyph, sizeof pt->glyph);
		} else if (!strcmp(key, "royal") || !strcmp(key, "uncapturable") ||
			   !strcmp(key, "immobile") || !strcmp(key, "pawn") ||
			   !strcmp(key, "two-square") || !strcmp(key, "diagonal-stance") ||
			   !strcmp(key, "never-captures") || !strcmp(key, "becomes-victim") ||
			   !strcmp(key, "dies-alone") || !strcmp(key, "captures-own")) {
			unsigned bit = !strcmp(key, "royal")		  ? VC_P_ROYAL
				       : !strcmp(key, "uncapturable")	  ? VC_P_UNCAPTURABLE
				       : !strcmp(key, "immobile")	  ? VC_P_IMMOBILE
				       : !strcmp(key, "pawn")		  ? VC_P_PAWN
				       : !strcmp(key, "two-square")	  ? VC_P_TWOSQUARE
				       : !strcmp(key, "diagonal-stance") ? VC_P_DIAGSTANCE
				       : !strcmp(key, "never-captures")  ? VC_P_NOCAPTURE
				       : !strcmp(key, "becomes-victim")  ? VC_P_BECOMES_VICTIM
				       : !strcmp(key, "captures-own")	  ? VC_P_CAPTURES_OWN
									  : VC_P_DIES_ALONE;
			if (!get_bool(l, val, key, &b))
				pt->props = b ? pt->props | bit : pt->props & ~bit;
		} else if (!strcmp(key, "moves")) {
			pt->natoms = 0; /* a base's moves are replaced */
			if (!is_seq(l, val, "moves"))
				continue;
			for (yaml_node_item_t *it = val->data.sequence.items.start;
			     it < val->data.sequence.items.top; it++)
				read_atom(l, node(l, *it), pt);
		} else if (!strcmp(key, "combine")) {
			drop_refs(l->combine, l->ncombine, t);
			if (!is_seq(l, val, "combine"))
				continue;
			for (yaml_node_item_t *it = val->data.sequence.items.start;
			     it < val->data.sequence.items.top; it++)
				add_ref(l, l->combine, &l->ncombine, (int)VC_NELEM(l->combine), t,
					node(l, *it));
		} else if (!strcmp(key, "promotion")) {
			read_promotion(l, val, pt, t);
		} else if (!strcmp(key, "promotion-limit")) {
			long x;
			if (!get_int(l, val, "promotion-limit", 0, VC_MAXPL, &x))
				pt->promo_limit = (int)x;
		} else if (!strcmp(key, "promotes-to")) {
			read_promotes_to(l, val, pt, t);
		} else
			err(l, k, "unknown key '%s' in a piece", key);
	}
	if (!have_name)
		err(l, n, "a piece needs a 'name'");
	if (!have_symbol)
		err(l, n, "a piece needs a 'symbol'");
	if (have_symbol && !pt->letter)
		pt->letter = pt->symbol[pt->symbol[0] == '+'];
	if (!have_name && have_symbol) {
		memcpy(pt->name, pt->symbol, sizeof pt->symbol);
		for (char *c = pt->name; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	}
}

static int ref_type(struct ld *l, yaml_node_t *n, const char *what)
{
	const char *s = scalar(n);
	if (!s) {
		err(l, n, "%s must name a piece", what);
		return -1;
	}
	int t = vc_variant_piece_find(l->v, s);
	for (int i = 0; t < 0 && i < l->ngone; i++)
		if (!strcmp(l->gone[i].symbol, s) || !strcasecmp(l->gone[i].name, s)) {
			err(l, n, "%s names a removed piece: '%s' (give this key anew in the file that removes it)",
			    what, s);
			return -1;
		}
	if (t < 0)
		err(l, n, "%s names no piece of this variant: '%s'", what, s);
	return t;
}

static int square_of(struct ld *l, yaml_node_t *n, const char *what)
{
	const char *s = scalar(n);
	int used = 0;
	int sq = s ? vc_square_parse(l->v, s, &used) : -1;
	if (sq < 0 || s[used]) {
		err(l, n, "'%s' must be a square of the board, not '%s'", what, s ? s : "?");
		return -1;
	}
	return sq;
}

static void read_castling(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!is_map(l, n, "castling"))
		return;
	yaml_node_t *k, *val, *sides = NULL, *king = NULL;
	FOR_MAP(n, k, val)
	{
		int b;
		if (key_is(k, "style")) {
			const char *s = scalar(val);
			if (s && !strcmp(s, "fixed"))
				v->castle_style = VC_CASTLE_FIXED;
			else if (s && !strcmp(s, "relative"))
				v->castle_style = VC_CASTLE_RELATIVE;
			else
				err(l, val, "castling 'style' must be fixed or relative");
		} else if (key_is(k, "king"))
			king = val;
		else if (key_is(k, "through-check")) {
			if (!get_bool(l, val, "through-check", &b) && b)
				v->rules |= VC_R_CASTLE_THROUGH_CHECK;
		} else if (key_is(k, "partners"))
			l->partners = val;
		else if (key_is(k, "sides"))
			sides = val;
		else
			err(l, k, "unknown key '%s' in castling", scalar(k) ? scalar(k) : "?");
	}
	if (!king || !sides) {
		err(l, n, "castling needs 'king' and 'sides'");
		return;
	}
	v->castle_king = square_of(l, king, "king");
	if (!is_seq(l, sides, "sides"))
		return;
	for (yaml_node_item_t *it = sides->data.sequence.items.start;
	     it < sides->data.sequence.items.top; it++) {
		yaml_node_t *sn = node(l, *it);
		if (!is_map(l, sn, "sides item"))
			continue;
		if (v->ncastle >= VC_MAXCASTLE) {
			err(l, sn, "at most %d castling sides", VC_MAXCASTLE);
			break;
		}
		struct vc_castle_spec *c = &v->castle[v->ncastle];
		c->partner = c->king_to = c->partner_to = -1;
		c->becomes = -1;
		FOR_MAP(sn, k, val)
		{
			int b;
			char s[4];
			if (key_is(k, "right")) {
				if (!get_str(l, val, "right", s, sizeof s)) {
					if (strlen(s) != 1 || !isupper((unsigned char)s[0]))
						err(l, val, "'right' must be one upper-case letter");
					else
						c->right = s[0];
				}
			} else if (key_is(k, "partner"))
				c->partner = square_of(l, val, "partner");
			else if (key_is(k, "king-to"))
				c->king_to = square_of(l, val, "king-to");
			else if (key_is(k, "partner-to"))
				c->partner_to = square_of(l, val, "partner-to");
			else if (key_is(k, "long")) {
				if (!get_bool(l, val, "long", &b))
					c->long_side = b;
			} else if (key_is(k, "becomes"))
				l->castle_becomes[v->ncastle] = val;
			else
				err(l, k, "unknown key '%s' in a castling side",
				    scalar(k) ? scalar(k) : "?");
		}
		if (!c->right || c->partner < 0)
			err(l, sn, "a castling side needs 'right' and 'partner'");
		if (v->castle_style == VC_CASTLE_FIXED && (c->king_to < 0 || c->partner_to < 0))
			err(l, sn, "fixed castling needs 'king-to' and 'partner-to'");
		v->ncastle++;
	}
}

/* explosion: true, or a mapping {spare: [pieces]}; the pieces are
 * resolved once every piece is read (resolve_rule_refs) */
static void read_explosion(struct ld *l, yaml_node_t *n)
{
	int b;
	if (n && n->type == YAML_SCALAR_NODE) {
		if (!get_bool(l, n, "explosion", &b) && b)
			l->v->rules |= VC_R_EXPLOSION;
		return;
	}
	if (!is_map(l, n, "explosion"))
		return;
	l->v->rules |= VC_R_EXPLOSION;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		if (key_is(k, "spare")) {
			if (is_seq(l, val, "spare"))
				add_ref(l, l->spare, &l->nspare, 1, -2, val);
		} else
			err(l, k, "unknown key '%s' in explosion", scalar(k) ? scalar(k) : "?");
	}
}

/* A list of pieces, by symbol or name, as a set of types. */
static uint64_t type_set(struct ld *l, yaml_node_t *n, const char *what)
{
	uint64_t set = 0;
	if (!is_seq(l, n, what))
		return 0;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		int t = ref_type(l, node(l, *it), what);
		if (t >= 0)
			set |= 1ULL << t;
	}
	return set;
}

/* The rules' piece references, once the pieces are read. */
static void resolve_rule_refs(struct ld *l)
{
	if (l->nspare)
		l->v->explode_spare = type_set(l, l->spare[0].node, "a piece the explosion spares");
}

static void read_rules(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!is_map(l, n, "rules"))
		return;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		int b = 0;
		const char *key = scalar(k);
		static const struct {
			const char *name;
			unsigned bit;
		} sw[] = {
			{ "en-passant", VC_R_EP },
			{ "self-capture", VC_R_SELF_CAPTURE },
			{ "drops", VC_R_DROPS },
			{ "capture-to-hand", VC_R_CAPTURE_TO_HAND },
			{ "prisons", VC_R_PRISON },
			{ "promotion-by-exchange", VC_R_XPROMO },
			{ "kirby-death", VC_R_KIRBY_DEATH },
			{ "forced-capture", VC_R_FORCED_CAPTURE },
			{ "no-check", VC_R_NO_CHECK },
			{ "flying-general", VC_R_NO_FACING },
			{ "bikjang", VC_R_BIKJANG },
			{ "pass", VC_R_PASS },
			{ "king-in-check-captures", VC_R_KING_CHECK_CAPTURES },
			{ "gating", VC_R_GATING },
			{ "drops-no-check", VC_R_DROP_NO_CHECK },
			{ "drop-promoted", VC_R_DROP_PROMOTED },
			{ "must-drop", VC_R_MUST_DROP },
			{ "castling-from-drops", VC_R_CASTLE_DROPS },
		};
		size_t i;
		for (i = 0; i < VC_NELEM(sw); i++)
			if (key && !strcmp(key, sw[i].name))
				break;
		if (i < VC_NELEM(sw)) {
			if (!get_bool(l, val, key, &b) && b)
				v->rules |= sw[i].bit;
		} else if (key && !strcmp(key, "swap-halves")) {
			long x;
			if (!is_map(l, val, "swap-halves"))
				continue;
			v->rules |= VC_R_SWAP_HALVES;
			v->swap_period = 5;
			yaml_node_t *k2, *v2;
			for (yaml_node_pair_t *p2 = val->data.mapping.pairs.start;
			     p2 < val->data.mapping.pairs.top; p2++) {
				k2 = node(l, p2->key);
				v2 = node(l, p2->value);
				if (key_is(k2, "period")) {
					if (!get_int(l, v2, "period", 1, 1000, &x))
						v->swap_period = (int)x;
				} else if (key_is(k2, "offset")) {
					if (!get_int(l, v2, "offset", 0, 1000, &x))
						v->swap_offset = (int)x;
				} else
					err(l, k2, "unknown key '%s' in swap-halves",
					    scalar(k2) ? scalar(k2) : "?");
			}
		} else if (key && !strcmp(key, "explosion")) {
			read_explosion(l, val);
		} else if (key && !strcmp(key, "captured-promoted")) {
			const char *s = scalar(val);
			if (s && !strcmp(s, "pawn"))
				v->captured_promoted = VC_HAND_PAWN;
			else if (s && !strcmp(s, "unpromoted"))
				v->captured_promoted = VC_HAND_UNPROMOTED;
			else if (s && !strcmp(s, "kept"))
				v->captured_promoted = VC_HAND_KEPT;
			else
				err(l, val, "'captured-promoted' must be pawn, unpromoted or kept");
		} else if (key && !strcmp(key, "flip")) {
			const char *s = scalar(val);
			if (s && !strcmp(s, "moves"))
				v->rules |= VC_R_FLIP_MOVES;
			else if (s && !strcmp(s, "captures"))
				v->rules |= VC_R_FLIP_CAPTURES;
			else
				err(l, val, "'flip' must be moves or captures");
		} else if (key && !strcmp(key, "drop-pawn-forbidden-ranks")) {
			uint32_t m;
			if (!get_ranks(l, val, key, &m))
				v->drop_pawn_forbid_ranks = m;
		} else
			err(l, k, "unknown rule '%s'", key ? key : "?");
	}
}

/* board: crosses, once files and ranks are known: rectangles "d1:f3" */
static void read_crosses(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!n || !is_seq(l, n, "crosses"))
		return;
	v->nsq = v->files * v->ranks;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		yaml_node_t *c = node(l, *it);
		const char *s = scalar(c);
		int u1 = 0, u2 = 0;
		int a = s ? vc_square_parse(v, s, &u1) : -1, b = -1;
		if (a >= 0 && s[u1] == ':')
			b = vc_square_parse(v, s + u1 + 1, &u2), u1 += 1 + u2;
		if (a < 0 || b < 0 || s[u1] || a % v->files == b % v->files ||
		    a / v->files == b / v->files) {
			err(l, c, "'crosses' holds rectangles such as 'd1:f3', not '%s'", s ? s : "?");
			continue;
		}
		if (v->ncross == VC_MAXREGION) {
			err(l, c, "at most %d crosses", VC_MAXREGION);
			break;
		}
		v->cross[v->ncross][0] = (int16_t)a;
		v->cross[v->ncross][1] = (int16_t)b;
		v->ncross++;
	}
}

static void read_board(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	yaml_node_t *crosses = NULL;
	long river = 0;
	if (!is_map(l, n, "board"))
		return;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		long x;
		if (key_is(k, "points")) {
			get_bool(l, val, "points", &v->points);
			continue;
		}
		if (key_is(k, "river")) {
			get_int(l, val, "river", 1, VC_MAXR - 1, &river);
			continue;
		}
		if (key_is(k, "crosses")) {
			crosses = val;
			continue;
		}
		if (key_is(k, "coordinates")) {
			const char *c = scalar(val);
			if (c && (!strcmp(c, "chess") || !strcmp(c, "shogi")))
				v->coords = !strcmp(c, "chess") ? 1 : 2;
			else
				err(l, val, "'coordinates' must be chess or shogi");
			continue;
		}
		if (key_is(k, "files")) {
			if (!get_int(l, val, "files", 1, VC_MAXF, &x))
				v->files = (int)x;
		} else if (key_is(k, "ranks")) {
			if (!get_int(l, val, "ranks", 1, VC_MAXR, &x))
				v->ranks = (int)x;
		} else if (key_is(k, "file-aliases")) {
			/* mapping: alias letter -> file letter, e.g. {L: l} */
			if (!is_map(l, val, "file-aliases"))
				continue;
			for (yaml_node_pair_t *p2 = val->data.mapping.pairs.start;
			     p2 < val->data.mapping.pairs.top; p2++) {
				const char *a = scalar(node(l, p2->key)), *f = scalar(node(l, p2->value));
				if (!a || !f || strlen(a) != 1 || strlen(f) != 1 || f[0] < 'a' ||
				    f[0] > 'z' || !isupper((unsigned char)a[0]))
					err(l, node(l, p2->key),
					    "file-aliases maps an upper-case letter to a file letter");
				else
					v->file_alias[f[0] - 'a'] = a[0];
			}
		} else
			err(l, k, "unknown key '%s' in board", scalar(k) ? scalar(k) : "?");
	}
	if (river && v->ranks && river >= v->ranks)
		err(l, n, "'river' must be a rank below the last");
	else
		v->river = (int)river;
	if (v->files && v->ranks)
		read_crosses(l, crosses);
}

static void read_notation(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!is_map(l, n, "notation"))
		return;
	yaml_node_t *k, *val;
	FOR_MAP(n, k, val)
	{
		const char *s = scalar(val);
		if (key_is(k, "separator")) {
			if (!s || strlen(s) > 1 || (*s && *s != '-'))
				err(l, val, "'separator' must be \"-\" or \"\"");
			else
				strcpy(v->sep, s);
		} else if (key_is(k, "drop-mark")) {
			if (!s || strlen(s) != 1 || (*s != '@' && *s != '*'))
				err(l, val, "'drop-mark' must be \"@\" or \"*\"");
			else
				v->drop_mark = *s;
		} else if (key_is(k, "shogi")) {
			if (s && !strcmp(s, "no"))
				v->shogi_coords = 0;
			else if (s && !strcmp(s, "read"))
				v->shogi_coords = 1;
			else
				err(l, val, "notation 'shogi' must be no or read");
		} else if (key_is(k, "wxf") || key_is(k, "janggi")) {
			int *f = key_is(k, "wxf") ? &v->wxf_read : &v->janggi_read;
			if (s && (!strcmp(s, "no") || !strcmp(s, "read")))
				*f = !strcmp(s, "read");
			else
				err(l, val, "notation '%s' must be no or read",
				    key_is(k, "wxf") ? "wxf" : "janggi");
		} else if (key_is(k, "coordinates-castling")) {
			if (s && !strcmp(s, "king"))
				v->coord_castle_partner = 0;
			else if (s && !strcmp(s, "partner"))
				v->coord_castle_partner = 1;
			else
				err(l, val, "'coordinates-castling' must be king or partner");
		} else if (key_is(k, "castling-rights")) {
			if (s && (!strcmp(s, "letters") || !strcmp(s, "files")))
				v->castle_files = !strcmp(s, "files");
			else
				err(l, val, "'castling-rights' must be letters or files");
		} else if (key_is(k, "castling")) {
			if (s && !strcmp(s, "O-O"))
				v->castle_zero = 0;
			else if (s && !strcmp(s, "0-0"))
				v->castle_zero = 1;
			else
				err(l, val, "notation 'castling' must be \"O-O\" or \"0-0\"");
		} else
			err(l, k, "unknown key '%s' in notation", scalar(k) ? scalar(k) : "?");
	}
}

/* Two-square pieces (walls): what the C mechanics support.  They move by
 * leaps and rides (rigid translations) and by the turns their properties
 * give; they cannot be royal, dropped, promoted to by choice, castled
 * with, or split by a board transformation, and they promote only into
 * another two-square piece (and a one-square piece only into a one-square
 * one). */
static void check_two_square(struct ld *l)
{
	struct vc_variant *v = l->v;
	uint64_t two = 0;
	for (int t = 0; t < v->ntypes; t++)
		if (v->types[t].props & VC_P_TWOSQUARE)
			two |= 1ULL << t;
	for (int t = 0; t < v->ntypes; t++) {
		struct vc_ptype *pt = &v->types[t];
		int is_two = (two >> t & 1) != 0;
		if ((pt->props & VC_P_DIAGSTANCE) && !is_two)
			err_line(l, pt->line, "'diagonal-stance' needs 'two-square'");
		if (!is_two) {
			if (pt->promo_choices & two)
				err_line(l, pt->line,
					 "'%s' stands on one square and cannot promote to a two-square "
					 "piece",
					 pt->name);
			if (pt->auto_to >= 0 && (two >> pt->auto_to & 1))
				err_line(l, pt->line,
					 "'%s' stands on one square and cannot promote to a two-square piece",
					 pt->name);
			continue;
		}
		if (pt->props & (VC_P_ROYAL | VC_P_PAWN | VC_P_BECOMES_VICTIM))
			err_line(l, pt->line,
				 "a two-square piece cannot be royal, a pawn or become its victim");
		for (int a = 0; a < pt->natoms; a++) {
			const struct vc_atom *at = &pt->atoms[a];
			if (at->kind != VC_A_LEAP && at->kind != VC_A_RIDE)
				err_at_atom(l, at, "'%s' is a two-square piece: it moves by leap and ride only",
					    pt->name);
			else if (at->modes & (VC_MODE_EPMAKE | VC_MODE_EPTAKE))
				err_at_atom(l, at, "'%s' is a two-square piece: no en passant", pt->name);
			else if (at->from_ranks)
				err_at_atom(l, at, "'%s' is a two-square piece: no 'from-rank'", pt->name);
		}
		if (pt->promo_ranks || pt->promo_choices)
			err_line(l, pt->line, "a two-square piece promotes only by 'promotes-to'");
		if (pt->auto_to >= 0 && !(two >> pt->auto_to & 1))
			err_line(l, pt->line,
				 "'%s' is a two-square piece and can promote only to another one",
				 pt->name);
	}
	if (!two)
		return;
	for (int i = 0; i < v->ncastle; i++)
		if (v->castle[i].becomes >= 0 && (two >> v->castle[i].becomes & 1))
			err(l, l->castle_becomes[i], "a castling partner cannot become a two-square piece");
	if (v->castle_partners & two)
		err(l, l->partners, "a two-square piece cannot be a castling partner");
	if (v->rules & (VC_R_DROPS | VC_R_CAPTURE_TO_HAND | VC_R_PRISON | VC_R_XPROMO |
			VC_R_SWAP_HALVES | VC_R_SELF_CAPTURE | VC_R_GATING))
		err_line(l, v->types[__builtin_ctzll(two)].line,
			 "two-square pieces cannot be used with drops, gating, reserves of captured "
			 "pieces, promotion by exchange, self-capture or swapping halves");
}

/* ---- regions ---- */

/* One item of a region: a square, or a rectangle of squares "d1:f3"; into
 * White's set. */
static void region_item(struct ld *l, yaml_node_t *n, uint64_t *set)
{
	const struct vc_variant *v = l->v;
	const char *s = scalar(n);
	int u1 = 0, u2 = 0;
	int a = s ? vc_square_parse(v, s, &u1) : -1, b = a;
	if (a >= 0 && s[u1] == ':')
		b = vc_square_parse(v, s + u1 + 1, &u2), u1 += 1 + u2;
	if (a < 0 || b < 0 || s[u1]) {
		err(l, n, "a region's squares are squares or rectangles such as 'd1:f3', not '%s'",
		    s ? s : "?");
		return;
	}
	int f0 = a % v->files, r0 = a / v->files, f1 = b % v->files, r1 = b / v->files;
	for (int f = f0 < f1 ? f0 : f1; f <= (f0 < f1 ? f1 : f0); f++)
		for (int r = r0 < r1 ? r0 : r1; r <= (r0 < r1 ? r1 : r0); r++)
			vc_bit_set(set, vc_sq(v->files, f, r));
}

/* regions: {name: [squares or rectangles], ...}, as White sees them; Black's
 * are the same mirrored rank for rank */
static void read_regions(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	yaml_node_t *k, *val;
	if (!is_map(l, n, "regions"))
		return;
	FOR_MAP(n, k, val)
	{
		const char *name = scalar(k);
		if (v->nregions == VC_MAXREGION) {
			err(l, k, "at most %d regions", VC_MAXREGION);
			break;
		}
		int i = v->nregions;
		if (!name || get_str(l, k, "a region's name", v->region_name[i], sizeof v->region_name[i]))
			continue;
		if (!is_seq(l, val, "a region"))
			continue;
		for (yaml_node_item_t *it = val->data.sequence.items.start;
		     it < val->data.sequence.items.top; it++)
			region_item(l, node(l, *it), v->region[i][VC_WHITE]);
		for (int sq = 0; sq < v->nsq; sq++)
			if (vc_bit_test(v->region[i][VC_WHITE], sq))
				vc_bit_set(v->region[i][VC_BLACK], vc_sq_mirror(v, sq));
		v->nregions++;
	}
}

/* ---- the end of the game ---- */

/* "win", "loss" or "draw" */
static int get_result(struct ld *l, yaml_node_t *n, const char *what, int8_t *out)
{
	const char *s = scalar(n);
	if (s && !strcmp(s, "win"))
		*out = VC_RES_WIN;
	else if (s && !strcmp(s, "loss"))
		*out = VC_RES_LOSS;
	else if (s && !strcmp(s, "draw"))
		*out = VC_RES_DRAW;
	else {
		err(l, n, "'%s' must be win, loss or draw", what);
		return -1;
	}
	return 0;
}

/* A list of squares into a set. */
static void square_set(struct ld *l, yaml_node_t *n, const char *what, uint64_t *set)
{
	if (!is_seq(l, n, what))
		return;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		int sq = square_of(l, node(l, *it), what);
		if (sq >= 0)
			vc_bit_set(set, sq);
	}
}

/* region: {pieces: [...], squares: [...], black-squares: [...], result: win,
 * reply: draw} */
static void read_region(struct ld *l, yaml_node_t *n)
{
	struct vc_end_rules *e = &l->v->end;
	yaml_node_t *k, *val, *pieces = NULL, *black = NULL;
	int have_squares = 0;
	if (!is_map(l, n, "region"))
		return;
	e->region = VC_RES_WIN;
	FOR_MAP(n, k, val)
	{
		if (key_is(k, "pieces"))
			pieces = val;
		else if (key_is(k, "squares")) {
			square_set(l, val, "squares", e->region_sq[VC_WHITE]);
			have_squares = 1;
		} else if (key_is(k, "black-squares"))
			black = val;
		else if (key_is(k, "name"))
			get_str(l, val, "region name", e->region_name, sizeof e->region_name);
		else if (key_is(k, "result"))
			get_result(l, val, "result", &e->region);
		else if (key_is(k, "reply")) {
			const char *r = scalar(val);
			if (r && !strcmp(r, "always"))
				e->region_reply = 2;
			else if (r && !strcmp(r, "draw"))
				e->region_reply = 1;
			else
				err(l, val, "'reply' must be draw (Black's last move reaches the region "
					    "too) or always (the other side always answers)");
		} else
			err(l, k, "unknown key '%s' in region", scalar(k) ? scalar(k) : "?");
	}
	if (!pieces || !have_squares) {
		err(l, n, "a region needs 'pieces' and 'squares'");
		return;
	}
	e->region_types = type_set(l, pieces, "a region piece");
	if (black)
		square_set(l, black, "black-squares", e->region_sq[VC_BLACK]);
	else
		memcpy(e->region_sq[VC_BLACK], e->region_sq[VC_WHITE], sizeof e->region_sq[0]);
}

/* extinction: {pieces: all | [...], count: 0, opponent-count: 0, claim: false,
 * result: loss} */
static void read_extinction(struct ld *l, yaml_node_t *n)
{
	struct vc_end_rules *e = &l->v->end;
	yaml_node_t *k, *val, *pieces = NULL;
	long x;
	int b;
	if (!is_map(l, n, "extinction"))
		return;
	e->extinct = VC_RES_LOSS;
	FOR_MAP(n, k, val)
	{
		if (key_is(k, "pieces"))
			pieces = val;
		else if (key_is(k, "count")) {
			if (!get_int(l, val, "count", 0, VC_MAXPL, &x))
				e->extinct_count = (int)x;
		} else if (key_is(k, "opponent-count")) {
			if (!get_int(l, val, "opponent-count", 0, VC_MAXPL, &x))
				e->extinct_opp = (int)x;
		} else if (key_is(k, "claim")) {
			if (!get_bool(l, val, "claim", &b))
				e->extinct_claim = (int8_t)b;
		} else if (key_is(k, "result"))
			get_result(l, val, "result", &e->extinct);
		else
			err(l, k, "unknown key '%s' in extinction", scalar(k) ? scalar(k) : "?");
	}
	if (!pieces) {
		err(l, n, "extinction needs 'pieces': a list of pieces, or all");
		return;
	}
	if (scalar(pieces) && !strcmp(scalar(pieces), "all"))
		e->extinct_all = 1;
	else
		e->extinct_types = type_set(l, pieces, "an extinction piece");
}

/* one row of a count's pieces' honour: {pieces: [R, R], moves: 8} */
static void read_count_row(struct ld *l, yaml_node_t *n, struct vc_count_row *row)
{
	yaml_node_t *k, *val;
	long x;
	int have_moves = 0;
	if (!is_map(l, n, "a row of bare"))
		return;
	FOR_MAP(n, k, val)
	{
		if (key_is(k, "moves")) {
			if (!get_int(l, val, "moves", 1, 2000, &x)) {
				row->moves = (int16_t)x;
				have_moves = 1;
			}
		} else if (key_is(k, "pieces")) {
			if (!is_seq(l, val, "pieces"))
				continue;
			for (yaml_node_item_t *it = val->data.sequence.items.start;
			     it < val->data.sequence.items.top; it++) {
				int t = ref_type(l, node(l, *it), "a counted piece"), i = 0;
				if (t < 0)
					continue;
				while (i < row->n && row->type[i] != t)
					i++;
				if (i == 4) {
					err(l, node(l, *it), "a row names at most 4 kinds of piece");
					continue;
				}
				if (i == row->n) {
					row->type[row->n++] = (int8_t)t;
					row->need[i] = 0;
				}
				row->need[i]++;
			}
		} else
			err(l, k, "unknown key '%s' in a row of bare", scalar(k) ? scalar(k) : "?");
	}
	if (!have_moves)
		err(l, n, "a row of bare needs 'moves'");
}

/* counting: {start: pieces | zero, board: MOVES, no-pawns: BOOL,
 * bare: [{pieces: [...], moves: N}, ...]} */
static void read_counting(struct ld *l, yaml_node_t *n)
{
	struct vc_end_rules *e = &l->v->end;
	yaml_node_t *k, *val;
	long x;
	if (!is_map(l, n, "counting"))
		return;
	e->counting = 1;
	e->ncount_rows = 0;
	e->count_board = 0;
	e->count_from_pieces = 0;
	e->count_no_pawns = 0;
	FOR_MAP(n, k, val)
	{
		int b;
		if (key_is(k, "start")) {
			const char *s = scalar(val);
			if (s && (!strcmp(s, "pieces") || !strcmp(s, "zero")))
				e->count_from_pieces = !strcmp(s, "pieces");
			else
				err(l, val, "'start' must be pieces or zero");
		} else if (key_is(k, "board")) {
			if (!get_int(l, val, "board", 0, 2000, &x))
				e->count_board = (int16_t)x;
		} else if (key_is(k, "no-pawns")) {
			if (!get_bool(l, val, "no-pawns", &b)) /* not codes */
				e->count_no_pawns = (int8_t)b;
		} else if (key_is(k, "bare")) {
			if (!is_seq(l, val, "bare"))
				continue;
			for (yaml_node_item_t *it = val->data.sequence.items.start;
			     it < val->data.sequence.items.top; it++) {
				if (e->ncount_rows == 8) {
					err(l, node(l, *it), "'bare' has at most 8 rows");
					break;
				}
				struct vc_count_row *row = &e->count_rows[e->ncount_rows++];
				memset(row, 0, sizeof *row);
				read_count_row(l, node(l, *it), row);
			}
		} else
			err(l, k, "unknown key '%s' in counting", scalar(k) ? scalar(k) : "?");
	}
}

static void read_end(struct ld *l, yaml_node_t *n)
{
	struct vc_end_rules *e = &l->v->end;
	yaml_node_t *k, *val;
	long x;
	if (!is_map(l, n, "end"))
		return;
	FOR_MAP(n, k, val)
	{
		if (key_is(k, "checkmate"))
			get_result(l, val, "checkmate", &e->mate);
		else if (key_is(k, "stalemate")) {
			const char *r = scalar(val);
			if (r && !strcmp(r, "fewer-pieces"))
				e->stalemate = VC_RES_FEWER;
			else
				get_result(l, val, "stalemate", &e->stalemate);
		}
		else if (key_is(k, "no-pieces"))
			get_result(l, val, "no-pieces", &e->no_pieces);
		else if (key_is(k, "royal-lost"))
			get_result(l, val, "royal-lost", &e->royal_lost);
		else if (key_is(k, "checks")) {
			if (!get_int(l, val, "checks", 1, 99, &x))
				e->checks = (int)x;
		} else if (key_is(k, "region"))
			read_region(l, val);
		else if (key_is(k, "passes") || key_is(k, "facing-pass")) {
			int8_t *r = key_is(k, "passes") ? &e->passes : &e->facing_pass;
			const char *s = scalar(val);
			if (s && !strcmp(s, "points"))
				*r = VC_RES_POINTS;
			else if (s && !strcmp(s, "draw"))
				*r = VC_RES_DRAW;
			else
				err(l, val, "'%s' must be draw or points", scalar(k));
		} else if (key_is(k, "points-bonus")) {
			const char *s = scalar(val);
			char *end = NULL;
			double d = s ? strtod(s, &end) : -1;
			if (!s || end == s || *end || d < 0 || d > 1000)
				err(l, val, "'points-bonus' must be a number from 0 to 1000");
			else
				e->points_bonus = (int)(d * 10 + 0.5);
		} else if (key_is(k, "extinction"))
			read_extinction(l, val);
		else if (key_is(k, "counting"))
			read_counting(l, val);
		else
			err(l, k, "unknown key '%s' in end", scalar(k) ? scalar(k) : "?");
	}
	l->v->has_end = e->mate != VC_RES_LOSS || e->stalemate != VC_RES_DRAW || e->no_pieces ||
			e->royal_lost || e->checks || e->region || e->passes || e->facing_pass ||
			e->extinct;
}

/* ---- the top-level keys ---- */

static void read_name(struct ld *l, yaml_node_t *n)
{
	const char *s = scalar(n);
	if (!s || !*s)
		err(l, n, "'name' must be a string");
	else {
		free(l->v->name); /* a key given twice: the last one counts */
		l->v->name = vc_strdup(s);
	}
}

static void read_title(struct ld *l, yaml_node_t *n)
{
	const char *s = scalar(n);
	if (!s)
		err(l, n, "'title' must be a string");
	else {
		free(l->v->title);
		l->v->title = vc_strdup(s);
	}
}

static void read_aliases(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!is_seq(l, n, "aliases"))
		return;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		const char *s = scalar(node(l, *it));
		if (!s)
			err(l, node(l, *it), "aliases must be strings");
		else if (v->naliases < VC_MAXALIAS)
			v->aliases[v->naliases++] = vc_strdup(s);
		else
			err(l, node(l, *it), "at most %d aliases", VC_MAXALIAS);
	}
}

/* openings: one name or a list of them, each a built-in opening list file
 * or a path (archive/eco.c reads them when a game needs them). */
static void read_openings(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	yaml_node_item_t one = 0, *it = &one, *top = &one + 1;
	if (n && n->type == YAML_SEQUENCE_NODE) {
		it = n->data.sequence.items.start;
		top = n->data.sequence.items.top;
	} else if (!scalar(n)) {
		err(l, n, "'openings' must be a file name or a list of them");
		return;
	}
	for (; it < top; it++) {
		yaml_node_t *f = it == &one ? n : node(l, *it);
		const char *s = scalar(f);
		if (!s || !*s)
			err(l, f, "'openings' names files: strings");
		else if (v->nopenings < VC_MAXOPENINGS)
			v->openings[v->nopenings++] = vc_strdup(s);
		else
			err(l, f, "at most %d opening list files", VC_MAXOPENINGS);
	}
}

/* The board (n NULL when the file has none); without its size, a stand-in
 * one, so that the rest is checked too. */
static void read_board_or_stand_in(struct ld *l, yaml_node_t *root, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!n)
		err(l, root, "the variant needs a 'board'");
	else
		read_board(l, n);
	if (!v->files || !v->ranks) {
		if (n && l->errors == 0)
			err(l, n, "board needs 'files' and 'ranks'");
		v->files = v->files ? v->files : 8;
		v->ranks = v->ranks ? v->ranks : 8;
	}
	v->nsq = v->files * v->ranks;
}

/* Piece references, resolved once every piece is read.  combine: a
 * compound piece gets copies of the other pieces' atoms. */
static void resolve_piece_refs(struct ld *l)
{
	struct vc_variant *v = l->v;
	for (int i = 0; i < l->ncombine; i++) {
		if (l->combine[i].type < 0)
			continue; /* replaced by a derived file */
		use_doc_of(l, l->combine[i].doc);
		int t = l->combine[i].type, from = ref_type(l, l->combine[i].node, "'combine'");
		if (from < 0)
			continue;
		if (from == t) {
			err(l, l->combine[i].node, "a piece cannot combine itself");
			continue;
		}
		struct vc_ptype *pt = &v->types[t], *src = &v->types[from];
		/* combining a piece that itself combines others takes what it has at
		 * this point; combine lists are applied in file order */
		if (!src->natoms)
			continue;
		struct vc_atom *na =
			realloc(pt->atoms, (size_t)(pt->natoms + src->natoms) * sizeof *na);
		if (!na)
			continue;
		memcpy(na + pt->natoms, src->atoms, (size_t)src->natoms * sizeof *na);
		pt->atoms = na;
		pt->natoms += src->natoms;
	}
	for (int i = 0; i < l->nchoices; i++) {
		if (l->choices[i].type < 0)
			continue;
		use_doc_of(l, l->choices[i].doc);
		yaml_node_t *cn = l->choices[i].node;
		struct vc_ptype *pt = &v->types[l->choices[i].type];
		if (!is_seq(l, cn, "choices"))
			continue;
		for (yaml_node_item_t *it = cn->data.sequence.items.start;
		     it < cn->data.sequence.items.top; it++) {
			int t = ref_type(l, node(l, *it), "a promotion choice");
			if (t >= 0)
				pt->promo_choices |= 1ULL << t;
		}
	}
	for (int i = 0; i < l->nautop; i++) {
		if (l->autop[i].type < 0)
			continue;
		use_doc_of(l, l->autop[i].doc);
		int t = ref_type(l, l->autop[i].node, "'promotes-to'");
		if (t >= 0)
			v->types[l->autop[i].type].auto_to = t;
	}
	for (int i = 0; i < l->nimmune; i++) {
		if (l->immune[i].type < 0)
			continue;
		use_doc_of(l, l->immune[i].doc);
		v->types[l->immune[i].type].hop_immune =
			type_set(l, l->immune[i].node, "a piece immune to hops");
	}
}

/* The pieces: those of the deepest base that has some, then each derived
 * file's changes (pieces[d] is document d's pieces, or NULL); then symbols
 * and names checked for duplicates, the references between pieces, and the
 * first royal and the first pawn piece. */
static void read_pieces(struct ld *l, yaml_node_t *root, yaml_node_t *pieces[VC_MAXBASE])
{
	struct vc_variant *v = l->v;
	int any = 0;
	for (int d = l->ndocs - 1; d >= 0; d--) {
		yaml_node_t *n = pieces[d];
		if (!n)
			continue;
		use_doc(l, d);
		if (is_seq(l, n, "pieces"))
			for (yaml_node_item_t *it = n->data.sequence.items.start;
			     it < n->data.sequence.items.top; it++)
				read_piece(l, node(l, *it), any);
		drop_removed(l);
		any = 1;
	}
	use_doc(l, 0);
	if (!any)
		err(l, root, "the variant needs 'pieces'");
	for (int a = 0; a < v->ntypes; a++)
		for (int b = a + 1; b < v->ntypes; b++) {
			if (v->types[a].symbol[0] && !strcmp(v->types[a].symbol, v->types[b].symbol))
				err_line(l, v->types[b].line, "symbol '%s' is used by two pieces",
					 v->types[b].symbol);
			/* a san-symbol shared with other pieces writes them alike in
			 * SAN: a move so written is any of them (shogi's golds) */
			if (v->types[a].name[0] && !strcmp(v->types[a].name, v->types[b].name))
				err_line(l, v->types[b].line, "name '%s' is used by two pieces",
					 v->types[b].name);
		}
	resolve_piece_refs(l);
	use_doc(l, 0);
	for (int t = v->ntypes - 1; t >= 0; t--) {
		if (v->types[t].props & VC_P_ROYAL)
			v->king_type = t;
		if (v->types[t].props & VC_P_PAWN)
			v->pawn_type = t;
	}
}

/* castling's piece references, once the pieces are read: what a partner
 * becomes, and which pieces may be partners */
static void resolve_castling_refs(struct ld *l)
{
	struct vc_variant *v = l->v;
	for (int i = 0; i < v->ncastle; i++)
		if (l->castle_becomes[i])
			v->castle[i].becomes = ref_type(l, l->castle_becomes[i], "'becomes'");
	if (!l->partners)
		return;
	const char *s = scalar(l->partners);
	if (s && !strcmp(s, "any"))
		v->rules |= VC_R_CASTLE_ANY_PARTNER;
	else if (is_seq(l, l->partners, "partners"))
		for (yaml_node_item_t *it = l->partners->data.sequence.items.start;
		     it < l->partners->data.sequence.items.top; it++) {
			int t = ref_type(l, node(l, *it), "a castling partner");
			if (t >= 0)
				v->castle_partners |= 1ULL << t;
		}
}

/* one reserve: a name, or {name: prison, holds: enemy} */
static void read_reserve(struct ld *l, yaml_node_t *rn, struct vc_reserve_spec *rs)
{
	if (!rn || rn->type != YAML_MAPPING_NODE) {
		get_str(l, rn, "reserves", rs->name, sizeof rs->name);
		return;
	}
	yaml_node_t *k, *val;
	FOR_MAP(rn, k, val)
	{
		const char *hs = scalar(val);
		if (key_is(k, "name"))
			get_str(l, val, "name", rs->name, sizeof rs->name);
		else if (key_is(k, "holds")) {
			if (hs && !strcmp(hs, "enemy"))
				rs->enemy = 1;
			else if (hs && !strcmp(hs, "own"))
				rs->enemy = 0;
			else
				err(l, val, "'holds' must be own or enemy");
		} else
			err(l, k, "unknown key '%s' in a reserve", scalar(k) ? scalar(k) : "?");
	}
	if (!rs->name[0])
		err(l, rn, "a reserve needs a 'name'");
}

static void read_reserves(struct ld *l, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!is_seq(l, n, "reserves"))
		return;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		if (v->nreserve >= VC_MAXRES) {
			err(l, node(l, *it), "at most %d reserves", VC_MAXRES);
			break;
		}
		read_reserve(l, node(l, *it), &v->reserve[v->nreserve]);
		v->nreserve++;
	}
}

/* The setup (n NULL when the file has none), kept as a string with its
 * place in the file: the caller reads it once the variant is compiled
 * (positions need the tables), and a setup that does not read is an
 * error of the file, at the setup. */
static void read_setup(struct ld *l, yaml_node_t *root, yaml_node_t *n)
{
	struct vc_variant *v = l->v;
	if (!n)
		err(l, root, "the variant needs a 'setup' position string");
	else if (!scalar(n))
		err(l, n, "'setup' must be a position string");
	else {
		v->start_fen = vc_strdup(scalar(n));
		v->setup_line = (long)n->start_mark.line + 1;
		v->setup_col = (long)n->start_mark.column + 1;
	}
}

/* The top-level keys and their readers, as a table.  Those with a reader
 * here are read where they stand, in the file itself only (they are not
 * inherited from a base); the others are kept, per document (the last of
 * a key given twice counts), and read by read_kept once every document is
 * walked, in its order, since each needs what those before it set, each
 * from the most derived document that has it (pieces from all of them). */
enum { KEEP_BOARD, KEEP_RULES, KEEP_PIECES, KEEP_CASTLING, KEEP_RESERVES, KEEP_SETUP,
       KEEP_NOTATION, KEEP_END, KEEP_BASE, KEEP_REGIONS, NKEEP };

static const struct top_key {
	const char *name;
	void (*read)(struct ld *l, yaml_node_t *n); /* NULL: kept in kept[keep] */
	int keep;
} top_keys[] = {
	{ "name", read_name, 0 },
	{ "title", read_title, 0 },
	{ "aliases", read_aliases, 0 },
	{ "openings", read_openings, 0 },
	{ "base", NULL, KEEP_BASE },
	{ "board", NULL, KEEP_BOARD },
	{ "pieces", NULL, KEEP_PIECES },
	{ "setup", NULL, KEEP_SETUP },
	{ "castling", NULL, KEEP_CASTLING },
	{ "rules", NULL, KEEP_RULES },
	{ "reserves", NULL, KEEP_RESERVES },
	{ "notation", NULL, KEEP_NOTATION },
	{ "end", NULL, KEEP_END },
	{ "regions", NULL, KEEP_REGIONS },
};

/* The most derived document that has key k; -1 if none.  Makes it current. */
static int kept_doc(struct ld *l, yaml_node_t *kept[VC_MAXBASE][NKEEP], int k)
{
	for (int d = 0; d < l->ndocs; d++)
		if (kept[d][k]) {
			use_doc(l, d);
			return d;
		}
	use_doc(l, 0);
	return -1;
}

static void read_kept(struct ld *l, yaml_node_t *root, yaml_node_t *kept[VC_MAXBASE][NKEEP])
{
	yaml_node_t *pieces[VC_MAXBASE];
	int d;
	if (!l->v->name)
		err(l, root, "the variant needs a 'name'");
	d = kept_doc(l, kept, KEEP_BOARD);
	read_board_or_stand_in(l, root, d < 0 ? NULL : kept[d][KEEP_BOARD]);
	if ((d = kept_doc(l, kept, KEEP_RULES)) >= 0)
		read_rules(l, kept[d][KEEP_RULES]);
	if ((d = kept_doc(l, kept, KEEP_REGIONS)) >= 0)
		read_regions(l, kept[d][KEEP_REGIONS]);
	for (d = 0; d < VC_MAXBASE; d++)
		pieces[d] = d < l->ndocs ? kept[d][KEEP_PIECES] : NULL;
	read_pieces(l, root, pieces);
	if ((d = kept_doc(l, kept, KEEP_CASTLING)) >= 0)
		read_castling(l, kept[d][KEEP_CASTLING]);
	resolve_castling_refs(l);
	if ((d = kept_doc(l, kept, KEEP_RULES)) >= 0)
		resolve_rule_refs(l);
	check_two_square(l);
	if ((d = kept_doc(l, kept, KEEP_RESERVES)) >= 0)
		read_reserves(l, kept[d][KEEP_RESERVES]);
	if ((l->v->rules & VC_R_GATING) && !l->v->nreserve && (d = kept_doc(l, kept, KEEP_RULES)) >= 0)
		err(l, kept[d][KEEP_RULES], "rule 'gating' needs a reserve area ('reserves: [hand]')");
	if ((d = kept_doc(l, kept, KEEP_NOTATION)) >= 0)
		read_notation(l, kept[d][KEEP_NOTATION]);
	if ((d = kept_doc(l, kept, KEEP_END)) >= 0)
		read_end(l, kept[d][KEEP_END]);
	d = kept_doc(l, kept, KEEP_SETUP);
	read_setup(l, root, d < 0 ? NULL : kept[d][KEEP_SETUP]);
	use_doc(l, 0);
}

/* Walks the top-level mapping of document d, reading what is read in place
 * (the file itself only) and keeping the rest. */
static int walk_top(struct ld *l, int d, yaml_node_t *kept[NKEEP])
{
	yaml_node_t *k, *val, *root;
	use_doc(l, d);
	root = yaml_document_get_root_node(l->doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		err(l, root, "a variant file is a mapping with name, board, pieces and setup");
		return -1;
	}
	FOR_MAP(root, k, val)
	{
		const char *key = scalar(k);
		size_t i;
		if (!key) {
			err(l, k, "keys must be strings");
			continue;
		}
		for (i = 0; i < VC_NELEM(top_keys); i++)
			if (!strcmp(key, top_keys[i].name))
				break;
		if (i == VC_NELEM(top_keys))
			err(l, k, "unknown key '%s'", key);
		else if (top_keys[i].read) {
			if (d == 0)
				top_keys[i].read(l, val);
		} else
			kept[top_keys[i].keep] = val;
	}
	return 0;
}

static int load_document(struct ld *l, int d, const char *text, size_t len);

/* The base that document d names, loaded as document d + 1: a built-in
 * variant by name or alias.  0 when there is none, 1 when it was loaded,
 * -1 after an error (said). */
static int load_base(struct ld *l, int d, yaml_node_t *n)
{
	const char *s = scalar(n), *file, *text;
	size_t len;
	use_doc(l, d);
	if (!n)
		return 0;
	if (!s || !*s) {
		err(l, n, "'base' must name a built-in variant");
		return -1;
	}
	if (vc_builtin_text(s, &file, &text, &len) < 0) {
		err(l, n, "'base' names no built-in variant: '%s' (see vchess-variant list)", s);
		return -1;
	}
	if (d + 1 >= VC_MAXBASE) {
		err(l, n, "bases go at most %d deep: '%s' is one too many", VC_MAXBASE - 1, s);
		return -1;
	}
	size_t fl = strlen(file) + sizeof "<built-in>/";
	l->files[d + 1] = malloc(fl);
	if (!l->files[d + 1])
		return -1;
	snprintf(l->files[d + 1], fl, "<built-in>/%s", file);
	if (load_document(l, d + 1, text, len)) {
		free(l->files[d + 1]);
		l->files[d + 1] = NULL;
		return -1;
	}
	l->ndocs = d + 2;
	return 1;
}

static void read_top(struct ld *l)
{
	yaml_node_t *kept[VC_MAXBASE][NKEEP];
	memset(kept, 0, sizeof kept);
	for (int d = 0; d < l->ndocs; d++) {
		if (walk_top(l, d, kept[d]) || load_base(l, d, kept[d][KEEP_BASE]) <= 0)
			break;
	}
	use_doc(l, 0);
	read_kept(l, yaml_document_get_root_node(l->doc), kept);
}

/* Document d as a node tree; 0, or -1 after a YAML syntax error (said). */
static int load_document(struct ld *l, int d, const char *text, size_t len)
{
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return -1;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &l->docs[d])) {
		vc_emit(l->ctx, VC_SEV_ERROR, "yaml-syntax", l->files[d],
			(long)parser.problem_mark.line + 1, (long)parser.problem_mark.column + 1, NULL,
			"%s%s%s", parser.problem ? parser.problem : "YAML syntax error",
			parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	yaml_parser_delete(&parser);
	return 0;
}

struct vc_variant *vc_variant_parse_yaml(struct vc_ctx *ctx, const char *file, const char *text,
					 size_t len)
{
	struct ld *l = vc_calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->ctx = ctx;
	l->files[0] = vc_strdup(file ? file : "-");
	if (!l->files[0] || load_document(l, 0, text, len)) {
		free(l->files[0]);
		free(l);
		return NULL;
	}
	l->ndocs = 1;
	use_doc(l, 0);
	struct vc_variant *v = l->v = vc_variant_alloc();
	if (v) {
		v->source = vc_strdup(file);
		read_top(l);
	}
	if (l->errors || !v || !v->name) {
		if (v && !l->errors)
			err(l, yaml_document_get_root_node(&l->docs[0]), "the variant needs a 'name'");
		vc_variant_free(v);
		v = NULL;
	}
	flush_errs(l);
	for (int d = 0; d < l->ndocs; d++) {
		yaml_document_delete(&l->docs[d]);
		free(l->files[d]);
	}
	free(l);
	return v;
}
