/*
 * draw/html.c - an archive as one self-contained web page: an index of its
 * games and a viewer that steps through each (vc_render_html, vchess.h).
 *
 * Model.  The page is written as the games come, in bounded memory:
 *
 *     head: title, the diagrams' palette (svg.c) and the page's style
 *     one <script type="application/json" id="vc-gN"> a game (html_game.c)
 *     the SVG definitions: check gradient, board frames, piece symbols
 *     <script type="application/json" id="vc-index">: title, geometry,
 *         variants, and one row a game for the index
 *     the page's script
 *
 * The script and the style are formats/html/viewer.js and viewer.css,
 * embedded into the library at build time (rules/vc_embed.h).  The script
 * reads the index at once and a game's data when it is shown, so a page
 * of thousands of games opens as fast as its index draws.  Broken games
 * are rows like the others, with their first error; text that is no game
 * is a row too.
 *
 * Invariants: nothing in the page refers to anything outside it (no
 * address, no font but the generic families); every text from a game is
 * escaped (vc_svg_put_text in HTML, vc_json_str in the data); ids are
 * unique: vc-gN for game number N, which a reader gives once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"
#include "draw/vc_draw.h"
#include "rules/vc_embed.h"

struct vc_html {
	struct vc_ctx *ctx;
	struct vc_sink *out;
	struct vc_html_opts o;
	struct vc_validator *val;
	struct vc_hdata *hd;
	struct vc_buf data;  /* one game's */
	struct vc_buf index; /* the index's rows */
	long games, broken;
	int failed;
};

void vc_html_opts_init(struct vc_html_opts *o)
{
	memset(o, 0, sizeof *o);
}

static const char *asset(const char *name, size_t *len)
{
	for (size_t i = 0; i < vc_embedded_html_count; i++)
		if (!strcmp(vc_embedded_html[i].file, name)) {
			*len = vc_embedded_html[i].len;
			return vc_embedded_html[i].text;
		}
	*len = 0;
	return "";
}

static void put_head(struct vc_html *h)
{
	struct vc_sink *out = h->out;
	size_t n;
	const char *css = asset("viewer.css", &n);
	vc_sink_puts(out,
		     "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		     "<meta name=\"generator\" content=\"vchess " VC_VERSION "\">\n<title>");
	vc_svg_put_text(out, h->o.title ? h->o.title : "Games");
	vc_sink_puts(out, "</title>\n<style>\n");
	vc_sink_puts(out, vc_svg_css());
	vc_sink_puts(out, vc_svg_region_css());
	vc_sink_puts(out, vc_svg_points_css());
	vc_sink_puts(out, "\n");
	vc_sink_write(out, css, n);
	vc_sink_puts(out, "</style>\n</head>\n<body>\n"
			  "<noscript><p>This page shows its games with JavaScript, which is "
			  "off.</p></noscript>\n");
}

struct vc_html *vc_html_open(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_html_opts *o)
{
	struct vc_html *h = vc_calloc(1, sizeof *h);
	if (!h) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	h->ctx = ctx;
	h->out = out;
	if (o)
		h->o = *o;
	vc_buf_init(&h->data);
	vc_buf_init(&h->index);
	struct vc_validate_opts vo = { .strict = h->o.strict,
				       .default_variant = h->o.default_variant };
	h->val = vc_validator_new(ctx, &vo);
	h->hd = vc_hdata_new();
	if (!h->val || !h->hd) {
		if (!h->val)
			vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_validator_free(h->val);
		vc_hdata_free(h->hd);
		free(h);
		return NULL;
	}
	put_head(h);
	return h;
}

/* The index's row of a game: number, White, Black, Event, Date, Result,
 * variant, plies, its first error ("" none), and 1 when it has a board, 0
 * when it has none, -1 when it is text that is no game. */
static void put_row(struct vc_html *h, const struct vc_game *g, const struct vc_game_stats *st,
		    int vi)
{
	static const char *const tags[] = { "White", "Black", "Event", "Date", "Result" };
	struct vc_buf *b = &h->index;
	vc_buf_printf(b, "%s[%ld", h->games ? ",\n" : "", vc_game_number(g));
	for (size_t i = 0; i < VC_NELEM(tags); i++) {
		const char *v = vc_game_tag(g, tags[i]);
		vc_buf_addc(b, ',');
		vc_json_str(b, v ? v : "", v ? strlen(v) : 0);
	}
	const char *var = vc_game_is_garbage(g) ? ""
			  : st->variant         ? st->variant
						: vc_game_tag(g, "Variant");
	vc_buf_addc(b, ',');
	vc_json_str(b, var ? var : "", var ? strlen(var) : 0);
	vc_buf_printf(b, ",%ld,", st->plies);
	const struct vc_game_diag *err = NULL;
	for (size_t i = 0; i < vc_game_diag_count(g) && !err; i++)
		if (vc_game_diag_at(g, i)->severity >= VC_SEV_ERROR)
			err = vc_game_diag_at(g, i);
	char text[640];
	if (err && err->ply > 0)
		snprintf(text, sizeof text, "ply %ld: %s", err->ply, err->message);
	else if (err || vc_game_is_garbage(g))
		snprintf(text, sizeof text, "%s%s%s", vc_game_is_garbage(g) ? "not a game" : "",
			 vc_game_is_garbage(g) && err ? ": " : "", err ? err->message : "");
	else
		text[0] = 0;
	vc_json_str(b, text, strlen(text));
	vc_buf_printf(b, ",%d]", vc_game_is_garbage(g) ? -1 : vi >= 0);
}

vc_status vc_html_game(struct vc_html *h, struct vc_game *g)
{
	struct vc_game_stats st;
	vc_buf_reset(&h->data);
	int vi = vc_hdata_game(h->hd, h->val, g, &st, &h->data);
	if (vi < -1) {
		vc_emit(h->ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		h->failed = 1;
		return VC_FATAL;
	}
	if (!st.valid || vc_game_is_garbage(g))
		h->broken++;
	put_row(h, g, &st, vi);
	h->games++;
	vc_sink_printf(h->out, "<script type=\"application/json\" id=\"vc-g%ld\">",
		       vc_game_number(g));
	vc_sink_write(h->out, h->data.p, h->data.len);
	vc_sink_puts(h->out, "</script>\n");
	if (vc_sink_failed(h->out) || h->index.oom) {
		h->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

static void put_index(struct vc_html *h)
{
	struct vc_buf b;
	vc_buf_init(&b);
	vc_buf_adds(&b, "{\"title\":");
	const char *title = h->o.title ? h->o.title : "Games";
	vc_json_str(&b, title, strlen(title));
	vc_buf_printf(&b,
		      ",\"version\":\"%s\",\"flip\":%d,\"geom\":{\"sq\":%.5g,\"pad\":%.5g,"
		      "\"rl\":%.5g,\"rs\":%.5g,\"rt\":%.5g,\"rg\":%.5g},\"variants\":[",
		      VC_VERSION, h->o.flip ? 1 : 0, VC_SVG_SQ, VC_SVG_PAD, VC_SVG_RES_LABEL,
		      VC_SVG_RES_SLOT, VC_SVG_RES_STEP, VC_SVG_RES_GAP);
	for (int i = 0; i < vc_hdata_variant_count(h->hd); i++) {
		size_t n;
		const char *j = vc_hdata_variant_json(h->hd, i, &n);
		vc_buf_adds(&b, i ? ",\n" : "\n");
		vc_buf_add(&b, j, n);
	}
	vc_buf_adds(&b, "],\n\"games\":[\n");
	vc_sink_puts(h->out, "<script type=\"application/json\" id=\"vc-index\">");
	vc_sink_write(h->out, b.p, b.len);
	vc_sink_write(h->out, h->index.p ? h->index.p : "", h->index.len);
	vc_sink_puts(h->out, "]}</script>\n");
	if (b.oom)
		h->failed = 1;
	vc_buf_free(&b);
}

vc_status vc_html_close(struct vc_html *h)
{
	if (!h)
		return VC_FATAL;
	size_t n;
	const char *defs = vc_hdata_defs(h->hd, &n);
	vc_sink_puts(h->out, "<svg class=\"vchess vc-defs\" width=\"0\" height=\"0\" "
			     "aria-hidden=\"true\"><defs>");
	vc_svg_put_gradient(h->out);
	vc_sink_puts(h->out, "\n");
	vc_sink_write(h->out, defs, n);
	vc_sink_puts(h->out, "</defs></svg>\n");
	put_index(h);
	const char *js = asset("viewer.js", &n);
	vc_sink_puts(h->out, "<script>\n");
	vc_sink_write(h->out, js, n);
	vc_sink_puts(h->out, "</script>\n</body>\n</html>\n");
	vc_status s = h->failed || vc_sink_failed(h->out) ? VC_FATAL : VC_OK;
	if (s == VC_FATAL)
		vc_emit(h->ctx, VC_SEV_ERROR, "write-failed", NULL, 0, 0, NULL,
			"cannot write the page");
	else if (h->broken) {
		vc_emit(h->ctx, VC_SEV_WARNING, "render-html-broken", NULL, 0, 0, NULL,
			"%ld of %ld %s not replay: the page lists %s with %s errors", h->broken,
			h->games, h->games == 1 ? "game does" : "games do",
			h->broken == 1 ? "it" : "them", h->broken == 1 ? "its" : "their");
		s = VC_WARNING;
	}
	vc_validator_free(h->val);
	vc_hdata_free(h->hd);
	vc_buf_free(&h->data);
	vc_buf_free(&h->index);
	free(h);
	return s;
}

/* ---- an archive's file ---------------------------------------------------------------- */

/* Reads every game of path (text or XML, told by its first bytes; "-" is
 * read as text) into h, or game o->game alone.  VC_OK, VC_END when that
 * game is not there (*seen: the games read), VC_FATAL. */
static vc_status read_games(struct vc_html *h, const char *path, long *seen)
{
	struct vc_ctx *ctx = h->ctx;
	int fmt = strcmp(path, "-") ? vc_format_of_file(ctx, path) : VC_FORMAT_TEXT;
	if (fmt < 0)
		return VC_FATAL;
	struct vc_reader_opts ro = { .strict = h->o.strict };
	struct vc_xml_reader *xr = fmt == VC_FORMAT_XML ? vc_xml_reader_open(ctx, path, &ro) : NULL;
	struct vc_reader *tr = fmt == VC_FORMAT_TEXT ? vc_reader_open(ctx, path, &ro) : NULL;
	struct vc_game *g = vc_game_new();
	vc_status s = (xr || tr) && g ? VC_OK : VC_FATAL;
	if (!g)
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
	int found = 0;
	while (s == VC_OK && !found) {
		s = xr ? vc_xml_reader_next(xr, g) : vc_reader_next(tr, g);
		if (s != VC_OK)
			break;
		++*seen;
		if (h->o.game > 0 && vc_game_number(g) != h->o.game)
			continue;
		found = h->o.game > 0;
		s = vc_html_game(h, g);
	}
	if (s == VC_END && (h->o.game <= 0 || found))
		s = VC_OK;
	else if (s == VC_OK && h->o.game > 0 && !found)
		s = VC_END;
	vc_game_free(g);
	vc_xml_reader_close(xr);
	vc_reader_close(tr);
	return s;
}

vc_status vc_render_html(struct vc_ctx *ctx, struct vc_sink *out, const char *path,
			 const struct vc_html_opts *o)
{
	struct vc_html_opts oo;
	if (o)
		oo = *o;
	else
		vc_html_opts_init(&oo);
	if (!oo.title) {
		const char *slash = strrchr(path, '/');
		oo.title = strcmp(path, "-") ? (slash ? slash + 1 : path) : "Games";
	}
	struct vc_html *h = vc_html_open(ctx, out, &oo);
	if (!h)
		return VC_FATAL;
	long seen = 0;
	vc_status s = read_games(h, path, &seen);
	if (s == VC_END)
		vc_emit(ctx, VC_SEV_ERROR, "render-no-game", path, 0, 0, NULL,
			"no game %ld: the file holds %ld", oo.game, seen);
	vc_status c = vc_html_close(h);
	return s == VC_END ? VC_FAILED : s != VC_OK ? VC_FATAL : c;
}
