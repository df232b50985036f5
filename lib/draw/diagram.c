/*
 * draw/diagram.c - diagrams by their format: the names of the formats, the
 * format a file's name asks for, and drawing in a format chosen at run
 * time; a sheet of a game's plies, or every ply in a file of its own.
 *
 * Model: a diagram is text, with letters (ASCII) or figurines (Unicode),
 * or an SVG picture; the format decides which drawer of render.c, ascii.c
 * or svg.c draws it, and nothing else.  A sheet of plies draws positions
 * of one game with what vc_plies says about each: its move, its title, the
 * marks of its comments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/vc_archive.h"
#include "draw/vc_draw.h"

/* The marks of one diagram of a sheet, the caller's after the ply's own. */
#define SHEET_MARKS 128

static const char *const format_names[] = { "ascii", "unicode", "svg" };

int vc_render_format_parse(const char *name)
{
	for (int i = 0; name && i < (int)VC_NELEM(format_names); i++)
		if (!strcmp(name, format_names[i]))
			return i;
	return -1;
}

int vc_render_style_parse(const char *name)
{
	if (name && !strcmp(name, "plain"))
		return VC_STYLE_PLAIN;
	if (name && !strcmp(name, "dots"))
		return VC_STYLE_DOTS;
	return -1;
}

int vc_render_format_of_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n >= 4 && !strcmp(path + n - 4, ".svg") ? VC_RENDER_SVG : -1;
}

vc_status vc_render_position(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			     enum vc_render_format fmt, const struct vc_render_opts *o)
{
	if (fmt == VC_RENDER_SVG)
		return vc_render_svg(ctx, out, p, o);
	struct vc_render_opts t = *o;
	t.unicode = fmt == VC_RENDER_UNICODE;
	return vc_render_text(ctx, out, p, &t);
}

vc_status vc_render_piece(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_variant *v,
			  int type, int sq, enum vc_render_format fmt,
			  const struct vc_render_opts *o)
{
	if (sq < 0) {
		int files = vc_variant_files(v), ranks = vc_variant_ranks(v);
		sq = ((ranks - 1) / 2) * files + (files - 1) / 2;
	}
	if (fmt == VC_RENDER_SVG)
		return vc_render_svg_piece(ctx, out, v, type, sq, o);
	struct vc_render_opts t = *o;
	t.unicode = fmt == VC_RENDER_UNICODE;
	return vc_render_text_piece(ctx, out, v, type, sq, &t);
}

/* ---- a game's plies ---- */

/* One diagram of a sheet: the settings, its marks, its caption. */
struct cell {
	struct vc_render_opts o;
	struct vc_render_mark marks[SHEET_MARKS];
	char title[400];
};

static void fill_cell(struct cell *c, const struct vc_plies *pl, long k,
		      const struct vc_render_opts *o, int players)
{
	vc_plies_render_opts(pl, k, o, &c->o, c->marks, SHEET_MARKS);
	vc_plies_title(pl, k, players, c->title, sizeof c->title);
	c->o.title = c->title;
}

vc_status vc_render_ply(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl, long k,
			enum vc_render_format fmt, const struct vc_render_opts *o)
{
	const struct vc_position *p = vc_plies_position(pl, k);
	struct cell *c = malloc(sizeof *c);
	if (!p || !c) {
		vc_emit(ctx, VC_SEV_ERROR, c ? "render-empty" : "oom", NULL, 0, 0, NULL,
			c ? "the game has no ply %ld" : "out of memory", k);
		free(c);
		return VC_FAILED;
	}
	fill_cell(c, pl, k, o, 1);
	vc_status s = vc_render_position(ctx, out, p, fmt, &c->o);
	free(c);
	return s;
}

vc_status vc_render_ply_files(struct vc_ctx *ctx, const char *dir, struct vc_plies *pl,
			      enum vc_render_format fmt, const struct vc_render_opts *o)
{
	long last = vc_plies_count(pl);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		vc_emit(ctx, VC_SEV_ERROR, "io-open", dir, 0, 0, NULL,
			"cannot make the directory: %s", strerror(errno));
		return VC_FAILED;
	}
	int width = 3;
	for (long x = last; x >= 1000; x /= 10)
		width++;
	for (long k = 0; k <= last; k++) {
		char path[4096];
		if (snprintf(path, sizeof path, "%s/ply-%0*ld.%s", dir, width, k,
			     fmt == VC_RENDER_SVG ? "svg" : "txt") >= (int)sizeof path) {
			vc_emit(ctx, VC_SEV_ERROR, "io-open", dir, 0, 0, NULL,
				"the directory's name is too long");
			return VC_FAILED;
		}
		struct vc_sink *s = vc_sink_open(ctx, path, 0);
		vc_status st = s ? vc_render_ply(ctx, s, pl, k, fmt, o) : VC_FAILED;
		if (st != VC_OK)
			vc_sink_abort(s);
		else if (vc_sink_close(s) != VC_OK)
			st = VC_FAILED;
		if (st != VC_OK)
			return st;
	}
	return VC_OK;
}

static vc_status text_sheet(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl,
			    const long *ks, int n, const struct vc_render_opts *o)
{
	struct cell *c = malloc(sizeof *c);
	vc_status s = c ? VC_OK : VC_FAILED;
	for (int i = 0; i < n && s == VC_OK; i++) {
		fill_cell(c, pl, ks[i], o, 0);
		if (i)
			vc_sink_puts(out, "\n");
		vc_sink_printf(out, "%s\n", c->title);
		s = vc_render_text(ctx, out, vc_plies_position(pl, ks[i]), &c->o);
	}
	free(c);
	return s;
}

static vc_status svg_sheet(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl,
			   const long *ks, int n, const struct vc_render_opts *o, const char *title)
{
	const struct vc_variant *v = vc_position_variant(vc_plies_position(pl, 0));
	struct vc_position **ps = vc_calloc((size_t)n, sizeof *ps);
	struct cell *c = vc_calloc((size_t)n, sizeof *c);
	struct vc_render_opts *os = vc_calloc((size_t)n, sizeof *os);
	vc_status s = ps && c && os ? VC_OK : VC_FAILED;
	for (int i = 0; i < n && s == VC_OK; i++) {
		if (!(ps[i] = vc_position_new(v))) {
			s = VC_FAILED;
			break;
		}
		vc_position_copy(ps[i], vc_plies_position(pl, ks[i]));
		fill_cell(&c[i], pl, ks[i], o, 0);
		os[i] = c[i].o;
	}
	if (s == VC_OK)
		s = vc_render_svg_sheet(ctx, out, (const struct vc_position *const *)ps, os, n, 0,
					title);
	for (int i = 0; ps && i < n; i++)
		vc_position_free(ps[i]);
	free(ps);
	free(c);
	free(os);
	return s;
}

vc_status vc_render_plies(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl, long every,
			  enum vc_render_format fmt, const struct vc_render_opts *o,
			  const char *title)
{
	long last = vc_plies_count(pl);
	if (last < 0 || every < 1) {
		vc_emit(ctx, VC_SEV_ERROR, "render-empty", NULL, 0, 0, NULL,
			last < 0 ? "no plies to draw" : "a sheet needs every ply to be at least 1");
		return VC_FAILED;
	}
	long *ks = malloc((size_t)(last + 2) * sizeof *ks);
	if (!ks) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		return VC_FAILED;
	}
	int n = 0;
	for (long k = 0; k <= last; k++)
		if (k % every == 0 || k == last)
			ks[n++] = k;
	struct vc_render_opts t = *o;
	t.unicode = fmt == VC_RENDER_UNICODE;
	char head[400];
	if (!title) {
		vc_plies_title(pl, -1, 1, head, sizeof head);
		title = head;
	}
	vc_status s = fmt == VC_RENDER_SVG ? svg_sheet(ctx, out, pl, ks, n, &t, title)
					   : text_sheet(ctx, out, pl, ks, n, &t);
	free(ks);
	return s;
}
