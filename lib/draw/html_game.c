/*
 * draw/html_game.c - the data of a web page (html.c writes the page): each
 * game as its script replays it, each variant as its script draws it, and
 * the SVG definitions the drawings reuse.
 *
 * Model.  The page's script knows no rules: everything it shows comes from
 * one replay here.  A position is a row of cells: one a square (0 empty,
 * else the board code, with the square's marks above the low byte: 1 dead,
 * 2 promoted, 4 drawn with its other square, and from bit 3 the direction
 * of the other square of a two-square piece that is drawn from this one),
 * then one a reserve count, [side][area][type].  A game is its start (left
 * out when it is its variant's) and a tree of moves, in the order the
 * movetext writes them: each node the move's SAN and the cells it changed
 * from its parent's position, with what a diagram shows after it when
 * that is not the obvious (the squares of the last move, check, the plies
 * to the next swap, a side that does not alternate, the marks of the
 * comments after it, who played it).  Variations are nodes like the others,
 * whose parent is the position before the move they replace.  The
 * movetext is a list of tokens: a node's number, or what surrounds the
 * moves (comments, NAGs, brackets, moves that did not replay, the result).
 *
 * The pieces' drawings are SVG symbols made by vc_render_glyph, once for
 * each piece, colour and shape (one square, two along a rank, along a
 * file, on a diagonal) that some position shows; the board's squares and
 * coordinates once a variant and orientation (vc_svg_put_board).  The
 * diagrams are vc_render_svg's: svg.c gives the geometry, the squares of
 * the last move and of check, and the layout.
 *
 * Invariants: every string goes out as JSON that is safe inside an HTML
 * <script> element ('<', '>' and '&' escaped, invalid UTF-8 replaced); a
 * game's nodes are numbered from 1 in movetext order, each after its
 * parent; memory grows to the largest game and is kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"
#include "draw/vc_draw.h"

/* cell marks, above the board code's byte */
#define CELL_DEAD 1
#define CELL_PROMOTED 2
#define CELL_SKIP 4 /* drawn with its other square */
#define CELL_DIR 3  /* shift of the direction to the other square */

enum shape { SHAPE_ONE, SHAPE_RANK, SHAPE_FILE, SHAPE_DIAG, NSHAPES };
static const char shape_letter[NSHAPES] = { 'p', 'h', 'v', 'd' };

struct hvar {
	char name[64];
	const struct vc_variant *v; /* valid only while a game of it is at hand */
	int ncells;
	int32_t *start; /* the cells of the variant's start */
	int side, ptt;
	long fullmove;
	uint8_t checks[2];
	char frame[2][256];        /* its start's layout, as JSON */
	uint64_t made[NSHAPES][3]; /* symbols written: a bit a type */
	struct vc_buf json;
};

struct node {
	size_t item;
	long parent;
	int var;              /* the first move of a variation */
	size_t off, len;      /* "SAN",[cells] in text */
	size_t xoff, xlen;    /* what the replay adds ("c":[..],...) in text */
	size_t mark0, nmarks; /* the marks of the comments after it */
	size_t author;        /* offset + 1 in text, 0 none */
};

struct vc_hdata {
	struct hvar *var;
	int nvar, capvar;
	struct vc_buf defs;
	/* the game at hand */
	struct hvar *hv;
	struct node *node;
	long nnode, capnode;
	long *item_node; /* node of each item, 0 none */
	size_t capitem;
	struct vc_buf text;
	int32_t *ca, *cb;
	int capcells;
	struct vc_render_mark *marks;
	size_t nmarks, capmarks;
	struct vc_position *start;
	int most[2][VC_MAXRES];
	uint64_t used[NSHAPES][3];
	struct vc_annot *annot;
	int oom;
};

struct vc_hdata *vc_hdata_new(void)
{
	struct vc_hdata *hd = vc_calloc(1, sizeof *hd);
	if (!hd)
		return NULL;
	vc_buf_init(&hd->defs);
	vc_buf_init(&hd->text);
	hd->annot = vc_annot_new();
	if (!hd->annot) {
		free(hd);
		return NULL;
	}
	return hd;
}

void vc_hdata_free(struct vc_hdata *hd)
{
	if (!hd)
		return;
	for (int i = 0; i < hd->nvar; i++) {
		free(hd->var[i].start);
		vc_buf_free(&hd->var[i].json);
	}
	free(hd->var);
	vc_buf_free(&hd->defs);
	vc_buf_free(&hd->text);
	free(hd->node);
	free(hd->item_node);
	free(hd->ca);
	free(hd->cb);
	free(hd->marks);
	vc_position_free(hd->start);
	vc_annot_free(hd->annot);
	free(hd);
}

const char *vc_hdata_defs(const struct vc_hdata *hd, size_t *len)
{
	*len = hd->defs.len;
	return hd->defs.p ? hd->defs.p : "";
}

static int vc_hdata_oom(const struct vc_hdata *hd)
{
	return hd->oom || hd->defs.oom || hd->text.oom;
}

/* ---- JSON ------------------------------------------------------------------------- */

void vc_json_str(struct vc_buf *b, const char *s, size_t n)
{
	vc_buf_addc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		int k = c ? vc_utf8_len((const unsigned char *)s + i) : 0;
		if (k > 1 && i + (size_t)k > n)
			k = 0;
		if (k == 0) {
			vc_buf_adds(b, "\\ufffd"); /* not UTF-8 */
			i++;
			continue;
		}
		if (c == '"' || c == '\\')
			vc_buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			vc_buf_printf(b, "\\u%04x", c); /* '<': no "</script>" inside a script */
		else
			vc_buf_add(b, s + i, (size_t)k);
		i += (size_t)k;
	}
	vc_buf_addc(b, '"');
}

static void json_cstr(struct vc_buf *b, const char *s)
{
	vc_json_str(b, s ? s : "", s ? strlen(s) : 0);
}

/* ---- cells ------------------------------------------------------------------------ */

static int ncells_of(const struct vc_variant *v)
{
	return v->nsq + 2 * v->nreserve * v->ntypes;
}

static int32_t cell_at(const struct vc_position *p, int sq)
{
	const struct vc_variant *v = p->v;
	uint8_t code = p->board[sq];
	if (!code)
		return 0;
	int32_t m = 0;
	if (p->sqf[sq] & VC_SQF_DEAD)
		m |= CELL_DEAD;
	if (p->sqf[sq] & VC_SQF_PROMOTED)
		m |= CELL_PROMOTED;
	int other = vc_render_partner(p, sq);
	if (other >= 0 && vc_render_partner(p, other) == sq && other < sq)
		m |= CELL_SKIP; /* as svg.c draws it: from the first square */
	else if (other >= 0)
		m |= vc_link_dir(other % v->files - sq % v->files, other / v->files - sq / v->files)
		     << CELL_DIR;
	return code | m << 8;
}

static void cells_of(const struct vc_position *p, int32_t *out)
{
	const struct vc_variant *v = p->v;
	for (int sq = 0; sq < v->nsq; sq++)
		out[sq] = cell_at(p, sq);
	int k = v->nsq;
	for (int s = 0; s < 2; s++)
		for (int a = 0; a < v->nreserve; a++)
			for (int t = 0; t < v->ntypes; t++)
				out[k++] = p->res[s][a][t];
}

/* Notes the drawings cell k of p needs, and the reserve areas' fill. */
static void note_cell(struct vc_hdata *hd, const struct vc_position *p, const int32_t *cells, int k)
{
	const struct vc_variant *v = p->v;
	if (k >= v->nsq) {
		int i = k - v->nsq, t = i % v->ntypes, a = i / v->ntypes % v->nreserve,
		    s = i / v->ntypes / v->nreserve;
		if (!cells[k])
			return;
		hd->used[SHAPE_ONE][v->reserve[a].enemy ? !s : s] |= 1ull << t;
		int n = 0;
		for (int u = 0; u < v->ntypes; u++)
			n += p->res[s][a][u] != 0;
		if (n > hd->most[s][a])
			hd->most[s][a] = n;
		return;
	}
	int32_t c = cells[k];
	if (!c || (c >> 8 & CELL_SKIP))
		return;
	int dir = c >> 8 >> CELL_DIR, type = vc_code_type((uint8_t)c),
	    color = vc_code_color((uint8_t)c);
	enum shape sh = !dir                   ? SHAPE_ONE
			: vc_link_dy(dir) == 0 ? SHAPE_RANK
			: vc_link_dx(dir) == 0 ? SHAPE_FILE
					       : SHAPE_DIAG;
	hd->used[sh][color] |= 1ull << type;
}

static int grow_cells(struct vc_hdata *hd, int n)
{
	if (n <= hd->capcells)
		return 0;
	int32_t *a = realloc(hd->ca, (size_t)n * sizeof *a), *b;
	if (a)
		hd->ca = a;
	b = a ? realloc(hd->cb, (size_t)n * sizeof *b) : NULL;
	if (!b)
		return -1;
	hd->cb = b;
	hd->capcells = n;
	return 0;
}

static void put_squares_json(struct vc_buf *b, const int *sq, int n)
{
	vc_buf_addc(b, '[');
	for (int i = 0; i < n; i++)
		vc_buf_printf(b, "%s%d", i ? "," : "", sq[i]);
	vc_buf_addc(b, ']');
}

static void put_cells_json(struct vc_buf *b, const int32_t *c, int n)
{
	vc_buf_addc(b, '[');
	for (int i = 0; i < n; i++)
		vc_buf_printf(b, "%s%ld", i ? "," : "", (long)c[i]);
	vc_buf_addc(b, ']');
}

/* The layout of the frame f as JSON: w h bx by ry0 ry1 info per_row rows... */
static void put_frame_json(char *out, size_t n, const struct vc_svg_frame *f, int nres)
{
	int k = snprintf(out, n, "[%.5g,%.5g,%.5g,%.5g,%.5g,%.5g,%.5g,%d", f->w, f->h, f->bx, f->by,
			 f->res_y[0], f->res_y[1], f->info_y, f->per_row);
	for (int s = 0; s < 2; s++)
		for (int a = 0; a < nres && k > 0 && (size_t)k < n; a++)
			k += snprintf(out + k, n - (size_t)k, ",%d", f->rows[s][a]);
	if (k > 0 && (size_t)k + 2 < n)
		snprintf(out + k, n - (size_t)k, "]");
}

/* ---- variants ----------------------------------------------------------------------- */

static void put_variant_json(struct hvar *hv, const struct vc_variant *v,
			     const struct vc_position *p)
{
	struct vc_buf *b = &hv->json;
	vc_buf_adds(b, "{\"name\":");
	json_cstr(b, v->name);
	vc_buf_adds(b, ",\"title\":");
	json_cstr(b, v->title ? v->title : v->name);
	vc_buf_printf(b, ",\"files\":%d,\"ranks\":%d,\"types\":[", v->files, v->ranks);
	for (int t = 0; t < v->ntypes; t++) {
		vc_buf_adds(b, t ? ",[" : "[");
		json_cstr(b, v->types[t].symbol);
		vc_buf_addc(b, ',');
		json_cstr(b, v->types[t].name);
		vc_buf_addc(b, ']');
	}
	vc_buf_adds(b, "],\"res\":[");
	for (int a = 0; a < v->nreserve; a++) {
		char cls[sizeof v->reserve[a].name];
		vc_svg_class(v->reserve[a].name, cls, sizeof cls);
		vc_buf_adds(b, a ? ",[" : "[");
		json_cstr(b, v->reserve[a].name);
		vc_buf_addc(b, ',');
		json_cstr(b, cls);
		vc_buf_printf(b, ",%d]", v->reserve[a].enemy ? 1 : 0);
	}
	vc_buf_printf(b, "],\"swap\":%d,\"checks\":%d,\"b\":", v->swap_period, v->end.checks);
	put_cells_json(b, hv->start, hv->ncells);
	int chk[VC_MAXSQ];
	int nchk = vc_svg_check_squares(p, chk, VC_MAXSQ);
	vc_buf_printf(b, ",\"s\":%d,\"n\":%ld,\"x\":%d,\"c\":", hv->side, hv->fullmove, hv->ptt);
	put_squares_json(b, chk, nchk);
	if (v->end.checks)
		vc_buf_printf(b, ",\"q\":[%d,%d]", p->checks[0], p->checks[1]);
	vc_buf_printf(b, ",\"L\":[%s,%s]}", hv->frame[0], hv->frame[1]);
}

/* The page's entry for v, made when a game of it first comes; NULL when out
 * of memory. */
static struct hvar *variant_entry(struct vc_hdata *hd, const struct vc_variant *v, int *index)
{
	for (int i = 0; i < hd->nvar; i++)
		if (!strcmp(hd->var[i].name, v->name)) {
			hd->var[i].v = v;
			*index = i;
			return &hd->var[i];
		}
	if (hd->nvar == hd->capvar) {
		int nc = hd->capvar ? hd->capvar * 2 : 8;
		struct hvar *nv = realloc(hd->var, (size_t)nc * sizeof *nv);
		if (!nv)
			return NULL;
		hd->var = nv;
		hd->capvar = nc;
	}
	struct vc_position *p = vc_position_new(v);
	struct hvar *hv = &hd->var[hd->nvar];
	memset(hv, 0, sizeof *hv);
	vc_buf_init(&hv->json);
	hv->ncells = ncells_of(v);
	hv->start = malloc((size_t)hv->ncells * sizeof *hv->start);
	if (!p || !hv->start) {
		vc_position_free(p);
		free(hv->start);
		return NULL;
	}
	snprintf(hv->name, sizeof hv->name, "%s", v->name);
	hv->v = v;
	vc_position_start(p);
	cells_of(p, hv->start);
	hv->side = p->side;
	hv->fullmove = p->fullmove;
	memcpy(hv->checks, p->checks, sizeof hv->checks);
	hv->ptt = vc_position_plies_to_transform(p);
	for (int flip = 0; flip < 2; flip++) {
		struct vc_svg_frame f;
		vc_svg_frame_of(p, flip, NULL, &f);
		put_frame_json(hv->frame[flip], sizeof hv->frame[flip], &f, v->nreserve);
		char sq[32], co[32];
		snprintf(sq, sizeof sq, "vc-sq%d-%d", hd->nvar, flip);
		snprintf(co, sizeof co, "vc-co%d-%d", hd->nvar, flip);
		struct vc_sink *s = vc_sink_mem(NULL);
		if (s) {
			vc_svg_put_board(s, v, flip, sq, co);
			size_t n;
			const char *d = vc_sink_data(s, &n);
			vc_buf_add(&hd->defs, d, n);
			vc_sink_abort(s);
		} else
			hd->oom = 1;
	}
	put_variant_json(hv, v, p);
	vc_position_free(p);
	*index = hd->nvar++;
	return hv;
}

int vc_hdata_variant_count(const struct vc_hdata *hd)
{
	return hd->nvar;
}

const char *vc_hdata_variant_json(const struct vc_hdata *hd, int i, size_t *len)
{
	*len = hd->var[i].json.len;
	return hd->var[i].json.p ? hd->var[i].json.p : "{}";
}

/* The symbols of the drawings this game needs that are not written yet. */
static void make_symbols(struct vc_hdata *hd, int vi)
{
	struct hvar *hv = &hd->var[vi];
	const struct vc_variant *v = hv->v;
	struct vc_sink *s = vc_sink_mem(NULL);
	if (!s) {
		hd->oom = 1;
		return;
	}
	double len = VC_SVG_SQ * (M_SQRT2 + 0.72), th = 0.72 * VC_SVG_SQ;
	for (int sh = 0; sh < NSHAPES; sh++)
		for (int c = 0; c < 3; c++)
			for (int t = 0; t < v->ntypes; t++) {
				uint64_t bit = 1ull << t;
				if (!(hd->used[sh][c] & bit) || (hv->made[sh][c] & bit))
					continue;
				hv->made[sh][c] |= bit;
				double w = sh == SHAPE_RANK   ? 2 * VC_SVG_SQ
					   : sh == SHAPE_DIAG ? len
							      : VC_SVG_SQ;
				double h = sh == SHAPE_FILE   ? 2 * VC_SVG_SQ
					   : sh == SHAPE_DIAG ? th
							      : VC_SVG_SQ;
				vc_sink_printf(
					s,
					"<symbol id=\"vc-%c%d-%d-%d\" viewBox=\"0 0 %.5g %.5g\" "
					"overflow=\"visible\">",
					shape_letter[sh], vi, t, c, w, h);
				vc_render_glyph(s, v, t, c, 0, 0, w, h);
				vc_sink_puts(s, "</symbol>\n");
			}
	size_t n;
	const char *d = vc_sink_data(s, &n);
	vc_buf_add(&hd->defs, d, n);
	if (vc_sink_failed(s))
		hd->oom = 1;
	vc_sink_abort(s);
}

/* ---- the replay ---------------------------------------------------------------------- */

static struct node *add_node(struct vc_hdata *hd)
{
	if (hd->nnode == hd->capnode) {
		long nc = hd->capnode ? hd->capnode * 2 : 256;
		struct node *nn = realloc(hd->node, (size_t)nc * sizeof *nn);
		if (!nn)
			return NULL;
		hd->node = nn;
		hd->capnode = nc;
	}
	struct node *n = &hd->node[hd->nnode++];
	memset(n, 0, sizeof *n);
	n->parent = -1;
	return n;
}

/* The game's start: the position before its first move, or its own. */
static int set_start(struct vc_hdata *hd, const struct vc_position *p)
{
	hd->start = vc_position_new(p->v);
	if (!hd->start || grow_cells(hd, ncells_of(p->v)) < 0 || !add_node(hd))
		return -1;
	vc_position_copy(hd->start, p);
	cells_of(p, hd->cb);
	for (int k = 0; k < ncells_of(p->v); k++)
		note_cell(hd, p, hd->cb, k);
	return 0;
}

/* "c":[..],"w":1,"n":12,"q":[1,0],"x":3,"h":[..]: what a diagram after the move shows
 * besides the cells, when the page could not tell it; side and fullmove
 * are the position's before the move. */
static void put_after(struct vc_hdata *hd, int side, long fullmove, const uint8_t checks[2],
		      const struct vc_position *after, const vc_move *m)
{
	struct vc_buf *b = &hd->text;
	const struct vc_variant *v = after->v;
	int sq[VC_MAXSQ];
	const char *sep = "";
	int n = vc_svg_check_squares(after, sq, VC_MAXSQ);
	if (n) {
		vc_buf_adds(b, "\"c\":");
		put_squares_json(b, sq, n);
		sep = ",";
	}
	if (after->side != !side) {
		vc_buf_printf(b, "%s\"w\":%d", sep, after->side);
		sep = ",";
	}
	if (after->fullmove != fullmove + side) {
		vc_buf_printf(b, "%s\"n\":%ld", sep, (long)after->fullmove);
		sep = ",";
	}
	if (v->end.checks && memcmp(after->checks, checks, sizeof after->checks)) {
		vc_buf_printf(b, "%s\"q\":[%d,%d]", sep, after->checks[0], after->checks[1]);
		sep = ",";
	}
	if (vc_position_plies_to_transform(after) >= 0) {
		vc_buf_printf(b, "%s\"x\":%d", sep, vc_position_plies_to_transform(after));
		sep = ",";
	}
	/* the last move's squares, when they are not the squares that changed */
	int hl[4], nh = vc_svg_last_squares(after, m, hl), nd = 0, same = 1;
	for (int k = 0; k < v->nsq && same; k++)
		if (hd->ca[k] != hd->cb[k]) {
			int in = 0;
			for (int i = 0; i < nh; i++)
				in |= hl[i] == k;
			same = in;
			nd++;
		}
	if (!same || nd != nh) {
		vc_buf_printf(b, "%s\"h\":", sep);
		put_squares_json(b, hl, nh);
	}
}

/* The validator's move callback: the node of the move, made and unmade on
 * the position before it (as replay.c does), which is then unchanged. */
static void on_move(void *user, const struct vc_game *g, size_t item,
		    const struct vc_position *before, const vc_move *m, const char *san, int depth)
{
	struct vc_hdata *hd = user;
	VC_UNUSED(g);
	VC_UNUSED(depth);
	if (hd->oom)
		return;
	if (!hd->start && set_start(hd, before) < 0) {
		hd->oom = 1;
		return;
	}
	struct vc_position *p = (struct vc_position *)before;
	struct node *n = item < hd->capitem ? add_node(hd) : NULL;
	int nc = ncells_of(p->v), side = p->side;
	long fullmove = p->fullmove;
	uint8_t checks[2] = { p->checks[0], p->checks[1] };
	cells_of(p, hd->cb);
	if (!n || vc_pos_make(p, m) != 0) {
		hd->oom = 1;
		return;
	}
	hd->item_node[item] = hd->nnode - 1;
	n->item = item;
	cells_of(p, hd->ca);
	struct vc_buf *b = &hd->text;
	n->off = b->len;
	json_cstr(b, san);
	vc_buf_adds(b, ",[");
	int first = 1;
	for (int k = 0; k < nc; k++)
		if (hd->ca[k] != hd->cb[k]) {
			vc_buf_printf(b, "%s%d,%ld", first ? "" : ",", k, (long)hd->ca[k]);
			first = 0;
			note_cell(hd, p, hd->ca, k);
		}
	vc_buf_addc(b, ']');
	n->len = b->len - n->off;
	n->xoff = b->len;
	put_after(hd, side, fullmove, checks, p, m);
	n->xlen = b->len - n->xoff;
	vc_pos_unmake(p);
}

/* No move replayed: the start is the game's own, from its FEN tag or its
 * variant (as vc_plies has it).  0, or -1 when out of memory. */
static int own_start(struct vc_hdata *hd, const struct vc_validator *val, const struct vc_game *g)
{
	const struct vc_variant *v = vc_validator_variant(val);
	if (!v)
		return 0;
	struct vc_position *p = vc_position_new(v);
	if (!p)
		return -1;
	const char *fen = vc_game_tag(g, "FEN");
	int rc = 0;
	if (!fen)
		vc_position_start(p);
	else if (vc_position_set_fen(p, NULL, fen) != VC_OK)
		rc = 1;
	if (rc == 0 && set_start(hd, p) < 0)
		rc = -1;
	vc_position_free(p);
	return rc < 0 ? -1 : 0;
}

/* ---- the movetext -------------------------------------------------------------------- */

static void tok_sep(struct vc_buf *t)
{
	if (t->len)
		vc_buf_addc(t, ',');
}

/* The error stored for the item, or NULL. */
static const char *item_error(const struct vc_game *g, const struct vc_item *it)
{
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity >= VC_SEV_ERROR && d->line == it->line && d->col == it->col)
			return d->message;
	}
	return NULL;
}

static void put_unplayed(struct vc_buf *t, const struct vc_game *g, const struct vc_item *it)
{
	tok_sep(t);
	vc_buf_adds(t, "[\"m\",");
	struct vc_buf text;
	vc_buf_init(&text);
	vc_buf_add(&text, it->text, it->len);
	if (it->suffix)
		vc_buf_add(&text, it->suffix, it->suffix_len);
	vc_json_str(t, text.p ? text.p : "", text.len);
	vc_buf_free(&text);
	const char *err = item_error(g, it);
	if (err) {
		vc_buf_addc(t, ',');
		json_cstr(t, err);
	}
	vc_buf_addc(t, ']');
}

/* What a multi-player record says between plies, in words. */
static void put_event(struct vc_buf *t, const struct vc_annot *a, const struct vc_annot_event *e)
{
	char say[VC_ANNOT_WHO_MAX + 96];
	tok_sep(t);
	if (e->kind == VC_ANNOT_COMMENT) {
		vc_buf_adds(t, "[\"a\",");
		json_cstr(t, e->who);
		vc_buf_addc(t, ',');
		vc_json_str(t, e->text ? e->text : "", e->text ? e->text_len : 0);
		vc_buf_addc(t, ']');
		return;
	}
	if (e->kind == VC_ANNOT_DRAW_OFFER)
		snprintf(say, sizeof say, "%s offers a draw", e->who);
	else if (e->kind == VC_ANNOT_DRAW_DECLINE)
		snprintf(say, sizeof say, "%s declines the draw", e->who);
	else if (e->agreed)
		snprintf(say, sizeof say, "%s accepts the draw (%d of %d): the draw is agreed",
			 e->who, e->count, vc_annot_needed(a));
	else
		snprintf(say, sizeof say, "%s accepts the draw (%d of %d)", e->who, e->count,
			 vc_annot_needed(a));
	vc_buf_adds(t, "[\"d\",");
	json_cstr(t, say);
	vc_buf_printf(t, "%s]", e->ignored ? ",1" : "");
}

/* A comment: the records it holds, then its text without commands (unless
 * a record said it). */
static void put_comment(struct vc_hdata *hd, struct vc_buf *t, size_t item,
			const struct vc_item *it)
{
	const struct vc_annot *a = hd->annot;
	char small[512];
	size_t need = vc_annot_plain(it->text, it->len, small, sizeof small);
	char *plain = need < sizeof small ? small : malloc(need + 1);
	if (!plain) {
		hd->oom = 1;
		return;
	}
	if (plain != small)
		vc_annot_plain(it->text, it->len, plain, need + 1);
	int said = 0;
	for (size_t i = 0; i < vc_annot_event_count(a); i++) {
		const struct vc_annot_event *e = vc_annot_event_at(a, i);
		if (e->item != item)
			continue;
		put_event(t, a, e);
		said |= e->kind == VC_ANNOT_COMMENT && e->text && e->text_len == need &&
			!memcmp(e->text, plain, need);
	}
	if (need && !said) {
		tok_sep(t);
		vc_buf_adds(t, "[\"c\",");
		vc_json_str(t, plain, need);
		vc_buf_addc(t, ']');
	}
	if (plain != small)
		free(plain);
}

/* The marks of a comment, for the node it follows. */
static void add_marks(struct vc_hdata *hd, long k, const struct vc_item *it)
{
	const struct vc_variant *v = hd->start->v;
	struct node *n = &hd->node[k];
	for (;;) {
		size_t room = hd->capmarks - hd->nmarks;
		int got = room ? vc_render_parse_marks(v, it->text, it->len, hd->marks + hd->nmarks,
						       (int)room)
			       : 0;
		if ((size_t)got < room) {
			if (got && !n->nmarks)
				n->mark0 = hd->nmarks;
			n->nmarks += (size_t)got;
			hd->nmarks += (size_t)got;
			return;
		}
		/* it may have been cut short: read it again with more room */
		size_t nc = hd->capmarks ? hd->capmarks * 2 : 64;
		struct vc_render_mark *nm = realloc(hd->marks, nc * sizeof *nm);
		if (!nm) {
			hd->oom = 1;
			return;
		}
		hd->marks = nm;
		hd->capmarks = nc;
	}
}

struct line {
	long cur;  /* the line's last node; 0 the start; -1 dead */
	long made; /* moves replayed on the line */
};

/* Walks the movetext as the validator did: each node's parent, the tokens,
 * and the marks of the comments after each move ("after" as vc_plies reads
 * it: the comments and NAGs right after it). */
static void walk(struct vc_hdata *hd, const struct vc_game *g, struct vc_buf *t)
{
	size_t count = vc_game_item_count(g), depth = 0;
	struct line *stack = malloc((count + 1) * sizeof *stack);
	if (!stack) {
		hd->oom = 1;
		return;
	}
	struct line ln = { hd->start ? 0 : -1, 0 };
	long attach = ln.cur;
	int first_of_var = 0;
	for (size_t i = 0; i < count; i++) {
		const struct vc_item *it = vc_game_item(g, i);
		long k = hd->item_node[i];
		switch (it->type) {
		case VC_IT_MOVE:
			if (k > 0 && ln.cur >= 0) {
				hd->node[k].parent = ln.cur;
				hd->node[k].var = first_of_var;
				ln.cur = attach = k;
				ln.made++;
				tok_sep(t);
				vc_buf_printf(t, "%ld", k);
			} else {
				put_unplayed(t, g, it);
				ln.cur = attach = -1;
			}
			first_of_var = 0;
			break;
		case VC_IT_VAR_START:
			stack[depth++] = ln;
			ln.cur = ln.cur > 0 && ln.made > 0 ? hd->node[ln.cur].parent : -1;
			ln.made = 0;
			attach = -1;
			first_of_var = 1;
			tok_sep(t);
			vc_buf_adds(t, "\"(\"");
			break;
		case VC_IT_VAR_END:
			if (depth)
				ln = stack[--depth];
			attach = -1;
			tok_sep(t);
			vc_buf_adds(t, "\")\"");
			break;
		case VC_IT_COMMENT:
			put_comment(hd, t, i, it);
			if (attach >= 0)
				add_marks(hd, attach, it);
			break;
		case VC_IT_NAG:
			tok_sep(t);
			vc_buf_printf(t, "[\"g\",%d]", it->nag);
			break;
		case VC_IT_ESCAPE:
			attach = -1;
			break;
		}
	}
	free(stack);
	const char *r = vc_game_result(g);
	if (r) {
		tok_sep(t);
		vc_buf_adds(t, "[\"r\",");
		json_cstr(t, r);
		vc_buf_addc(t, ']');
	}
}

/* ---- the game's data -------------------------------------------------------------------- */

static void put_marks_json(struct vc_buf *b, const struct vc_render_mark *m, size_t n)
{
	vc_buf_addc(b, '[');
	for (size_t i = 0; i < n; i++)
		vc_buf_printf(b, "%s[%d,%d,\"%c\"]", i ? "," : "", m[i].from, m[i].to,
			      m[i].color >= 'A' && m[i].color <= 'Z' ? m[i].color : 'G');
	vc_buf_addc(b, ']');
}

/* The nodes, "m":[...]: each [SAN,[cells],{what else}]. */
static void put_nodes(struct vc_hdata *hd, const struct vc_game *g, struct vc_buf *out)
{
	const struct vc_annot *a = hd->annot;
	vc_buf_adds(out, ",\"m\":[");
	for (long k = 1; k < hd->nnode; k++) {
		const struct node *n = &hd->node[k];
		long parent = n->parent >= 0 ? n->parent : 0;
		const char *by = vc_annot_author(a, n->item);
		VC_UNUSED(g);
		vc_buf_adds(out, k > 1 ? ",[" : "[");
		vc_buf_add(out, hd->text.p + n->off, n->len);
		if (!n->xlen && parent == k - 1 && !n->var && !by && !n->nmarks) {
			vc_buf_addc(out, ']');
			continue;
		}
		vc_buf_adds(out, ",{");
		vc_buf_add(out, hd->text.p + n->xoff, n->xlen);
		const char *sep = n->xlen ? "," : "";
		if (parent != k - 1) {
			vc_buf_printf(out, "%s\"p\":%ld", sep, k - parent);
			sep = ",";
		}
		if (n->var) {
			vc_buf_printf(out, "%s\"v\":1", sep);
			sep = ",";
		}
		if (by) {
			vc_buf_printf(out, "%s\"by\":", sep);
			json_cstr(out, by);
			sep = ",";
		}
		if (n->nmarks) {
			vc_buf_printf(out, "%s\"k\":", sep);
			put_marks_json(out, hd->marks + n->mark0, n->nmarks);
		}
		vc_buf_adds(out, "}]");
	}
	vc_buf_addc(out, ']');
}

/* The start, when it is not the variant's, and the layout, when the
 * reserves need more room than the variant's start gives them. */
static void put_start(struct vc_hdata *hd, struct hvar *hv, struct vc_buf *out)
{
	const struct vc_position *p = hd->start;
	int nc = hv->ncells;
	cells_of(p, hd->cb);
	int ptt = vc_position_plies_to_transform(p);
	if (memcmp(hd->cb, hv->start, (size_t)nc * sizeof *hd->cb) || p->side != hv->side ||
	    p->fullmove != hv->fullmove || ptt != hv->ptt ||
	    (p->v->end.checks && memcmp(p->checks, hv->checks, sizeof hv->checks))) {
		int chk[VC_MAXSQ];
		vc_buf_adds(out, ",\"b\":");
		put_cells_json(out, hd->cb, nc);
		vc_buf_printf(out, ",\"s\":%d,\"n\":%ld,\"x\":%d,\"c\":", p->side,
			      (long)p->fullmove, ptt);
		put_squares_json(out, chk, vc_svg_check_squares(p, chk, VC_MAXSQ));
		if (p->v->end.checks)
			vc_buf_printf(out, ",\"q\":[%d,%d]", p->checks[0], p->checks[1]);
	}
	if (hd->nnode && hd->node[0].nmarks) {
		vc_buf_adds(out, ",\"k\":");
		put_marks_json(out, hd->marks + hd->node[0].mark0, hd->node[0].nmarks);
	}
	char fr[2][256];
	for (int flip = 0; flip < 2; flip++) {
		struct vc_svg_frame f;
		vc_svg_frame_of(p, flip, (const int(*)[VC_MAXRES])hd->most, &f);
		put_frame_json(fr[flip], sizeof fr[flip], &f, p->v->nreserve);
	}
	if (strcmp(fr[0], hv->frame[0]) || strcmp(fr[1], hv->frame[1]))
		vc_buf_printf(out, ",\"L\":[%s,%s]", fr[0], fr[1]);
}

static void put_tags_and_problems(const struct vc_game *g, struct vc_buf *out)
{
	vc_buf_adds(out, ",\"tags\":[");
	for (size_t i = 0; i < vc_game_tag_count(g); i++) {
		vc_buf_adds(out, i ? ",[" : "[");
		json_cstr(out, vc_game_tag_name(g, i));
		vc_buf_addc(out, ',');
		json_cstr(out, vc_game_tag_value(g, i));
		vc_buf_addc(out, ']');
	}
	vc_buf_adds(out, "],\"e\":[");
	int first = 1;
	for (size_t i = 0; i < vc_game_diag_count(g); i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity < VC_SEV_WARNING)
			continue;
		char head[64];
		snprintf(head, sizeof head, "%s: line %ld: ", vc_severity_name(d->severity),
			 d->line);
		struct vc_buf s;
		vc_buf_init(&s);
		vc_buf_adds(&s, head);
		if (d->context && *d->context) {
			vc_buf_adds(&s, d->context);
			vc_buf_adds(&s, ": ");
		}
		vc_buf_adds(&s, d->message ? d->message : "");
		if (!first)
			vc_buf_addc(out, ',');
		vc_json_str(out, s.p ? s.p : "", s.len);
		vc_buf_free(&s);
		first = 0;
	}
	vc_buf_addc(out, ']');
}

static void reset_game(struct vc_hdata *hd)
{
	vc_position_free(hd->start);
	hd->start = NULL;
	hd->nnode = 0;
	hd->nmarks = 0;
	vc_buf_reset(&hd->text);
	memset(hd->most, 0, sizeof hd->most);
	memset(hd->used, 0, sizeof hd->used);
}

int vc_hdata_game(struct vc_hdata *hd, struct vc_validator *val, struct vc_game *g,
		  struct vc_game_stats *st, struct vc_buf *out)
{
	reset_game(hd);
	memset(st, 0, sizeof *st);
	size_t count = vc_game_item_count(g);
	if (count + 1 > hd->capitem) {
		long *ni = realloc(hd->item_node, (count + 1) * sizeof *ni);
		if (!ni)
			return -2;
		hd->item_node = ni;
		hd->capitem = count + 1;
	}
	memset(hd->item_node, 0, hd->capitem * sizeof *hd->item_node);
	vc_status s = VC_OK;
	if (!vc_game_is_garbage(g)) {
		if (vc_annot_read(hd->annot, g) < 0)
			return -2;
		vc_validator_set_move_fn(val, on_move, hd);
		s = vc_validate(val, g, st);
		vc_validator_set_move_fn(val, NULL, NULL);
		if (s != VC_FATAL && !hd->start && !hd->oom && own_start(hd, val, g) < 0)
			hd->oom = 1;
	}
	if (hd->oom)
		return -2;
	int vi = -1;
	struct hvar *hv = hd->start ? variant_entry(hd, hd->start->v, &vi) : NULL;
	if (hd->start && !hv)
		return -2;
	vc_buf_printf(out, "{\"v\":%d", vi);
	put_tags_and_problems(g, out);
	struct vc_buf t;
	vc_buf_init(&t);
	if (!vc_game_is_garbage(g))
		walk(hd, g, &t);
	if (hv) {
		put_start(hd, hv, out);
		put_nodes(hd, g, out);
		make_symbols(hd, vi);
	}
	vc_buf_adds(out, ",\"t\":[");
	vc_buf_add(out, t.p ? t.p : "", t.len);
	vc_buf_adds(out, "]}");
	int oom = t.oom || out->oom || vc_hdata_oom(hd);
	vc_buf_free(&t);
	return oom ? -2 : vi;
}
