/*
 * archive/convert.c - the converter (vchess.h, "converting archives"):
 * archives in, the games a selection takes replayed and written in their
 * canonical form, broken games written with their errors, or their bytes
 * to a rejects file, and never dropped without a word.
 *
 * Model: a converter is opened with its outputs, given its inputs one at
 * a time, and closed, which ends the outputs and gives the counts.  Each
 * input's format is told by its first bytes: a regular file is looked at
 * and opened again, a pipe or standard input goes through the relay.  The
 * games of an input go through the loop below, in the caller's thread, or
 * through the stages of convert_par.c, in several threads; both do the
 * same with each game (convert_out.c), so their outputs are the same.
 *
 * Everything the readers and writers report goes to a context of our own,
 * whose callback (vc_cv_forward) passes it on to the caller's: so that an
 * input read through the relay is named as it was given, and so that with
 * several threads it can be held back and passed on in input order.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/convert.h"

void vc_convert_opts_init(struct vc_convert_opts *o)
{
	memset(o, 0, sizeof *o);
	o->from = -1;
	o->to = VC_FORMAT_TEXT;
	o->jobs = 1;
}

/* The default variant must load before anything is written. */
static int check_variant(struct vc_convert *cv)
{
	const char *name = cv->o.default_variant;
	if (!name || vc_validator_get_variant(cv->val, name))
		return 0;
	struct vc_variant *v = vc_variant_load(cv->ctx, name); /* for its message */
	vc_variant_free(v);
	return -1;
}

static int open_outputs(struct vc_convert *cv)
{
	struct vc_cv_out *o = &cv->out;
	o->ctx = cv->ctx;
	o->path = cv->o.out && strcmp(cv->o.out, "-") ? cv->o.out : NULL;
	o->gzip = cv->o.gzip;
	o->fmt = cv->o.to;
	o->wo = &cv->o.write;
	o->split = cv->o.split;
	if (o->split && !o->path) {
		vc_emit(cv->ctx, VC_SEV_ERROR, "convert-split", NULL, 0, 0, NULL,
			"a split output needs a file name to number its files after");
		return -1;
	}
	if (vc_cv_out_open(o) < 0)
		return -1;
	if (cv->dupes && cv->o.dup_file) { /* the repeats: one file, the output's format */
		cv->dup.ctx = cv->ctx;
		cv->dup.path = cv->o.dup_file;
		cv->dup.fmt = cv->o.to;
		cv->dup.wo = &cv->o.write;
		if (vc_cv_out_open(&cv->dup) < 0) {
			vc_cv_out_close(o);
			return -1;
		}
	}
	cv->rj.ctx = cv->ctx;
	if (cv->o.rejects) {
		cv->rj.sink = vc_sink_open(cv->ctx, cv->o.rejects, 0);
		if (!cv->rj.sink) {
			vc_cv_out_close(o);
			vc_cv_out_close(&cv->dup);
			return -1;
		}
	}
	return 0;
}

static void convert_free(struct vc_convert *cv)
{
	vc_cv_workers_free(cv);
	pthread_mutex_destroy(&cv->idle_lock);
	vc_game_free(cv->g);
	vc_eco_free(cv->eco);
	vc_replay_free(cv->rp);
	vc_validator_free(cv->val);
	vc_dupes_free(cv->dupes);
	vc_dup_keyer_free(&cv->keyer);
	vc_ctx_free(cv->ctx);
	vc_buf_free(&cv->pending);
	free(cv);
}

struct vc_convert *vc_convert_new(struct vc_ctx *ctx, const struct vc_convert_opts *o)
{
	struct vc_convert *cv = vc_calloc(1, sizeof *cv);
	if (!cv) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	cv->user_ctx = ctx;
	cv->o = *o;
	cv->number = 1;
	vc_buf_init(&cv->pending);
	pthread_mutex_init(&cv->idle_lock, NULL);
	cv->vo.strict = o->strict;
	cv->vo.default_variant = o->default_variant;
	cv->ctx = vc_ctx_new();
	if (cv->ctx) {
		vc_ctx_set_diag(cv->ctx, vc_cv_forward, cv);
		vc_ctx_copy_settings(cv->ctx, ctx);
	}
	cv->val = cv->ctx ? vc_validator_new(cv->ctx, &cv->vo) : NULL;
	cv->rp = vc_replay_new(&cv->o.write, o->to);
	cv->g = vc_game_new();
	cv->dupes = o->dup_by != VC_DUP_NONE ? vc_dupes_new(o->verbose) : NULL;
	cv->eco = o->add_eco ? vc_eco_new() : NULL;
	if (!cv->ctx || !cv->val || !cv->rp || !cv->g || (o->dup_by != VC_DUP_NONE && !cv->dupes) ||
	    (o->add_eco && !cv->eco)) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory");
		convert_free(cv);
		return NULL;
	}
	if (check_variant(cv) < 0 || vc_cv_tags_check(cv->ctx, o) < 0 || open_outputs(cv) < 0) {
		convert_free(cv);
		return NULL;
	}
	return cv;
}

/* ---- one thread ---- */

/* A repeat, when the duplicates file takes it: written there. */
static void put_repeat(struct vc_convert *cv, const struct vc_game *g,
		       const struct vc_cv_tagnote *tn)
{
	if (!cv->dup.sink || cv->dup.failed)
		return;
	vc_cv_tagnote_tell(cv, g, tn);
	vc_cv_out_game(&cv->dup, g, cv->rp);
}

/* What becomes of a game taken: tag work, then the output, the duplicates
 * file or the rejects file; -1 when the output failed or memory ran out. */
static int put_game(struct vc_convert *cv, struct vc_game *g, struct vc_game_stats *st)
{
	struct vc_cv_tagnote tn;
	struct vc_dup_key k;
	if (vc_cv_tagwork(&cv->o, g, st, cv->val, &tn) < 0)
		return -1;
	int valid = st->valid && !vc_game_is_garbage(g), rep = 0;
	if (vc_cv_hashcode(&cv->o, &cv->keyer, g, cv->rp, cv->val, valid, &tn) < 0)
		return -1;
	enum vc_convert_fate fate = vc_cv_fate(cv, g, valid);
	if (cv->dupes && valid &&
	    vc_dup_key_of(&cv->keyer, cv->o.dup_by, g, cv->rp, cv->val, &k) == 0 &&
	    (rep = vc_cv_repeat(cv, g, &k)) != 0) {
		if (rep < 0)
			return -1;
		fate = VC_CONVERT_REPEAT;
	}
	vc_cv_tell(cv, g, valid, fate);
	if (fate == VC_CONVERT_REPEAT) {
		put_repeat(cv, g, &tn);
		return 0;
	}
	if (fate == VC_CONVERT_WRITTEN || fate == VC_CONVERT_KEPT) {
		vc_cv_tagnote_tell(cv, g, &tn);
		if (vc_cv_out_game(&cv->out, g, cv->rp) < 0)
			return -1;
		cv->c.written++;
		cv->c.kept += fate == VC_CONVERT_KEPT;
		return 0;
	}
	cv->c.rejected++;
	if (cv->rj.sink && !cv->rj.failed && vc_cv_reject(&cv->rj, g, cv->rp) < 0)
		cv->rj.failed = 1;
	return 0;
}

static void run_serial(struct vc_convert *cv)
{
	struct vc_game *g = cv->g;
	vc_status s;
	for (;;) {
		s = cv->xr ? vc_xml_reader_next(cv->xr, g) : vc_reader_next(cv->tr, g);
		if (s != VC_OK)
			break;
		cv->number = vc_game_number(g) + 1;
		if (!vc_select_before(cv->o.select, g))
			continue;
		struct vc_game_stats st;
		if (vc_replay_run(cv->rp, cv->val, g, &st) == VC_FATAL) {
			s = VC_FATAL;
			break;
		}
		int taken = vc_select_replayed(cv->o.select, g, &st, cv->rp);
		if (taken < 0) {
			s = VC_FATAL;
			break;
		}
		if (!taken)
			continue;
		if (cv->eco)
			cv->c.eco[vc_eco_apply(cv->eco, cv->ctx, g, cv->rp,
					       st.valid && !vc_game_is_garbage(g))]++;
		if (put_game(cv, g, &st) < 0) {
			cv->c.input_failed |= !cv->out.failed;
			break;
		}
	}
	if (s == VC_FATAL)
		cv->c.input_failed = 1;
}

/* ---- an input ---- */

/* Tells the input's format and opens its reader; -1 when it cannot be
 * read (reported). */
static int open_input(struct vc_convert *cv, const char *path, struct vc_cv_relay *rl, int *relayfd)
{
	int fmt = cv->o.from;
	if (fmt < 0) {
		struct stat sb;
		if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			fmt = vc_format_of_file(cv->ctx, path);
		} else {
			*relayfd = vc_cv_relay_start(rl, cv->ctx, path, cv->fdpath,
						     sizeof cv->fdpath, &fmt);
			if (*relayfd < 0)
				return -1;
			cv->shown = strcmp(path, "-") ? path : "<stdin>";
			path = cv->fdpath;
		}
		if (fmt < 0)
			return -1;
	}
	struct vc_reader_opts ro;
	memset(&ro, 0, sizeof ro);
	ro.strict = cv->o.strict;
	ro.first_game = cv->number;
	cv->from = (enum vc_format)fmt;
	if (fmt == VC_FORMAT_XML)
		cv->xr = vc_xml_reader_open(cv->ctx, path, &ro);
	else
		cv->tr = vc_reader_open(cv->ctx, path, &ro);
	return cv->tr || cv->xr ? 0 : -1;
}

vc_status vc_convert_file(struct vc_convert *cv, const char *path)
{
	if (cv->out.failed)
		return VC_FATAL;
	struct vc_cv_relay rl;
	int relayfd = -1, failed = cv->c.input_failed;
	memset(&rl, 0, sizeof rl);
	cv->c.input_failed = 0;
	if (open_input(cv, path, &rl, &relayfd) < 0) {
		cv->c.input_failed = 1;
	} else {
		if (cv->o.jobs > 1 && cv->o.each)
			vc_cv_run_parallel(cv);
		else
			run_serial(cv);
	}
	vc_reader_close(cv->tr);
	vc_xml_reader_close(cv->xr);
	cv->tr = NULL;
	cv->xr = NULL;
	vc_cv_relay_end(&rl, relayfd);
	cv->shown = NULL;
	vc_status s = cv->out.failed ? VC_FATAL : cv->c.input_failed ? VC_FAILED : VC_OK;
	cv->c.input_failed |= failed;
	return s;
}

vc_status vc_convert_close(struct vc_convert *cv, struct vc_convert_counts *c)
{
	if (!cv)
		return VC_FATAL;
	if (vc_cv_out_close(&cv->out) < 0)
		cv->out.failed = 1;
	struct vc_cv_rejects *rj = &cv->rj;
	if (rj->sink) {
		if (rj->w && vc_writer_close(rj->w) != VC_OK)
			rj->failed = 1;
		if (rj->failed)
			vc_sink_abort(rj->sink);
		else if (vc_sink_close(rj->sink) != VC_OK)
			rj->failed = 1;
	}
	if (cv->dup.sink && vc_cv_out_close(&cv->dup) < 0)
		cv->dup.failed = 1;
	cv->c.dup_failed = cv->dup.failed;
	cv->c.distinct = vc_dupes_count(cv->dupes);
	cv->c.dup_bytes = vc_dupes_bytes(cv->dupes);
	cv->c.output_failed = cv->out.failed;
	cv->c.rejects_failed = rj->failed;
	if (c)
		*c = cv->c;
	int bad = cv->c.input_failed || cv->c.output_failed || cv->c.rejects_failed ||
		  cv->c.dup_failed;
	convert_free(cv);
	return bad ? VC_FATAL : VC_OK;
}
