/*
 * archive/convert_out.c - where the converter's games go: the output, one
 * document or a new file every split games; the rejects file, which gets
 * a broken game's bytes exactly as read; and the caller, told of every
 * game taken before it is written.
 *
 * Model: the output is opened before the first game, so that an empty run
 * still writes its (empty) document, and a split output opens its next
 * file only when a game goes into it.  A failed output is sticky: once it
 * failed, nothing more is written to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/convert.h"

/* ---- the output ---- */

/* path with "-K" inserted before its extension (before ".pgn" of
 * "x.pgn.gz"): games.pgn -> games-1.pgn, games -> games-1. */
static char *split_name(const char *path, int k)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	if (dot && !strcmp(dot, ".gz")) {
		const char *d2 = dot;
		while (d2 > base && d2[-1] != '.')
			d2--;
		if (d2 > base + 1)
			dot = d2 - 1;
	}
	if (!dot || dot == base)
		dot = path + strlen(path);
	size_t a = (size_t)(dot - path);
	char *s = malloc(a + strlen(dot) + 24);
	if (s)
		sprintf(s, "%.*s-%d%s", (int)a, path, k, dot);
	return s;
}

int vc_cv_out_open(struct vc_cv_out *o)
{
	char *name = NULL;
	const char *p = o->path ? o->path : "-";
	if (o->split) {
		name = split_name(o->path, ++o->part);
		if (!name)
			return -1;
		p = name;
	}
	o->sink = vc_sink_open(o->ctx, p, o->gzip);
	free(name);
	if (!o->sink)
		return -1;
	o->w = vc_writer_open(o->ctx, o->sink, o->fmt, o->wo);
	if (!o->w) {
		vc_sink_abort(o->sink);
		o->sink = NULL;
		return -1;
	}
	o->in_file = 0;
	return 0;
}

int vc_cv_out_close(struct vc_cv_out *o)
{
	int bad = 0;
	if (o->w && vc_writer_close(o->w) != VC_OK)
		bad = 1;
	o->w = NULL;
	if (o->sink) {
		if (bad)
			vc_sink_abort(o->sink);
		else if (vc_sink_close(o->sink) != VC_OK)
			bad = 1;
	}
	o->sink = NULL;
	return bad ? -1 : 0;
}

int vc_cv_out_turn(struct vc_cv_out *o)
{
	if (o->failed)
		return -1;
	if (o->split && o->in_file == o->split) {
		if (vc_cv_out_close(o) < 0 || vc_cv_out_open(o) < 0) {
			o->failed = 1;
			return -1;
		}
	}
	return 0;
}

int vc_cv_out_game(struct vc_cv_out *o, const struct vc_game *g, const struct vc_replay *rp)
{
	if (vc_cv_out_turn(o) < 0)
		return -1;
	if (vc_writer_game(o->w, g, rp) != VC_OK) {
		o->failed = 1;
		return -1;
	}
	o->in_file++;
	return 0;
}

/* ---- the rejects file ---- */

int vc_cv_reject_raw(struct vc_cv_rejects *rj, const char *raw, size_t len)
{
	if (vc_sink_write(rj->sink, raw, len) < 0)
		return -1;
	if (raw[len - 1] != '\n' && raw[len - 1] != '\r' && vc_sink_write(rj->sink, "\n", 1) < 0)
		return -1;
	return vc_sink_write(rj->sink, "\n", 1);
}

int vc_cv_reject_writer(struct vc_cv_rejects *rj)
{
	if (!rj->w)
		rj->w = vc_writer_open(rj->ctx, rj->sink, VC_FORMAT_TEXT, NULL);
	return rj->w ? 0 : -1;
}

int vc_cv_reject(struct vc_cv_rejects *rj, const struct vc_game *g, const struct vc_replay *rp)
{
	size_t len;
	const char *raw = vc_game_raw(g, &len);
	if (len > 0)
		return vc_cv_reject_raw(rj, raw, len);
	if (vc_cv_reject_writer(rj) < 0)
		return -1;
	return vc_writer_game(rj->w, g, rp) == VC_OK ? 0 : -1;
}

/* ---- the caller ---- */

enum vc_convert_fate vc_cv_fate(const struct vc_convert *cv, const struct vc_game *g, int valid)
{
	if (valid)
		return VC_CONVERT_WRITTEN;
	if (cv->o.keep_broken && !vc_game_is_garbage(g))
		return VC_CONVERT_KEPT;
	return cv->rj.sink ? VC_CONVERT_REJECTED : VC_CONVERT_DROPPED;
}

void vc_cv_tell(struct vc_convert *cv, const struct vc_game *g, int valid,
		enum vc_convert_fate fate)
{
	cv->c.selected++;
	if (!valid)
		cv->c.broken++;
	if (!cv->o.game)
		return;
	struct vc_convert_game info;
	memset(&info, 0, sizeof info);
	info.file = vc_cv_shown(cv, vc_game_file(g));
	info.from = cv->from;
	info.valid = valid;
	info.fate = fate;
	info.selected = cv->c.selected;
	cv->o.game(cv->o.user, g, &info);
}
