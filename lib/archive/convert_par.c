/*
 * archive/convert_par.c - the converter with several threads: the stages
 * it hands to the caller's runner (vc_parallel_each).
 *
 * Model: the caller's thread reads the games (next_game) and drops those
 * the selection leaves out before the replay; workers replay each game
 * and format it -- as a piece of the output (vc_writer_piece), or of the
 * rejects file for a game read from XML, which has no bytes of its own --
 * into memory; the caller's thread takes the results in input order
 * (done) and does everything that has state across games: the writers
 * (the output, its split files, the rejects file), the counts, the calls
 * of the caller's game function, the numbering across inputs.  What is
 * reported meanwhile is held (held.c) and passed on where one thread
 * would have reported it: the reader's diagnostics before the game they
 * came before, a worker's in its game's result.  So every byte written,
 * and every diagnostic, is what one thread gives.
 *
 * A game's held diagnostics: [0, mid) those of its replay, [mid, end)
 * those of formatting it, passed on only when its piece is used.
 */
#include <stdlib.h>
#include <string.h>

#include "archive/convert.h"

struct vc_cv_worker {
	struct vc_ctx *ctx;
	struct vc_validator *val;
	struct vc_replay *rp;
	struct vc_writer *w, *rw; /* pieces of the output, of the rejects file */
	struct vc_buf *cur;       /* the game's diagnostics, while one is worked on */
	struct vc_buf orphan;     /* the context's diagnostics between games */
	const struct vc_convert *cv;
	struct vc_cv_worker *next; /* in the list of idle workers */
	struct vc_dup_keyer keyer;
};

enum { PIECE_NONE, PIECE_OUT, PIECE_REJECT };

/* A game's result (zeroed before each game). */
struct result {
	char *held, *pre; /* its diagnostics; the reader's before it */
	size_t len, mid, npre;
	int fatal, selected, valid;
	int eco; /* add_eco: the outcome */
	enum vc_convert_fate fate;
	int piece, piece_failed;
	struct vc_cv_tagnote tn; /* tag work done */
	struct vc_dup_key key;
	int has_key;
};

static void worker_diag(const struct vc_diag *d, void *user)
{
	struct vc_cv_worker *w = user;
	vc_cv_hold(w->cur ? w->cur : &w->orphan, d);
}

static void worker_free(struct vc_cv_worker *w)
{
	if (!w)
		return;
	vc_writer_close(w->w);
	vc_writer_close(w->rw);
	vc_replay_free(w->rp);
	vc_validator_free(w->val);
	vc_dup_keyer_free(&w->keyer);
	vc_ctx_free(w->ctx);
	vc_buf_free(&w->orphan);
	free(w);
}

/* A worker is kept, when its run of an input ends, for the next input. */
static void worker_keep(void *state)
{
	struct vc_cv_worker *w = state;
	if (!w)
		return;
	struct vc_convert *cv = (struct vc_convert *)w->cv;
	pthread_mutex_lock(&cv->idle_lock);
	w->next = cv->idle;
	cv->idle = w;
	pthread_mutex_unlock(&cv->idle_lock);
}

void vc_cv_workers_free(struct vc_convert *cv)
{
	while (cv->idle) {
		struct vc_cv_worker *w = cv->idle;
		cv->idle = w->next;
		worker_free(w);
	}
}

static void *worker_new(void *user)
{
	struct vc_convert *cv = user;
	pthread_mutex_lock(&cv->idle_lock);
	struct vc_cv_worker *w = cv->idle;
	if (w)
		cv->idle = w->next;
	pthread_mutex_unlock(&cv->idle_lock);
	if (w)
		return w;
	w = vc_calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->cv = cv;
	vc_buf_init(&w->orphan);
	w->ctx = vc_ctx_new();
	if (!w->ctx) {
		free(w);
		return NULL;
	}
	vc_ctx_set_diag(w->ctx, worker_diag, w);
	w->val = vc_validator_new(w->ctx, &cv->vo);
	w->rp = vc_replay_new(&cv->o.write, cv->o.to);
	w->w = vc_writer_open(w->ctx, NULL, cv->o.to, &cv->o.write);
	w->rw = vc_writer_open(w->ctx, NULL, VC_FORMAT_TEXT, NULL);
	if (!w->val || !w->rp || !w->w || !w->rw) {
		worker_free(w);
		return NULL;
	}
	return w;
}

/* Replays a game and formats its piece into out. */
static void replay_and_format(struct vc_cv_worker *w, struct vc_game *g, struct vc_sink *out,
			      struct result *r, struct vc_buf *t)
{
	const struct vc_convert *cv = w->cv;
	struct vc_game_stats st;
	if (vc_replay_run(w->rp, w->val, g, &st) == VC_FATAL) {
		r->fatal = 1;
		return;
	}
	r->valid = st.valid && !vc_game_is_garbage(g);
	int taken = vc_select_replayed(cv->o.select, g, &st, w->rp);
	if (taken <= 0) {
		r->fatal = taken < 0;
		return;
	}
	if (cv->eco) /* before the tag work, as with one thread */
		r->eco = (int)vc_eco_apply(cv->eco, w->ctx, g, w->rp, r->valid);
	if (vc_cv_tagwork(&cv->o, g, &st, w->val, &r->tn) < 0) {
		struct vc_diag d = { VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory" };
		vc_cv_hold(t, &d);
		r->fatal = 1;
		return;
	}
	r->valid = st.valid && !vc_game_is_garbage(g);
	if (vc_cv_hashcode(&cv->o, &w->keyer, g, w->rp, w->val, r->valid, &r->tn) < 0) {
		struct vc_diag d = { VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory" };
		vc_cv_hold(t, &d);
		r->fatal = 1;
		return;
	}
	r->has_key = cv->dupes && r->valid &&
		     vc_dup_key_of(&w->keyer, cv->o.dup_by, g, w->rp, w->val, &r->key) == 0;
	r->selected = 1;
	r->mid = t->len;
	r->fate = vc_cv_fate(cv, g, r->valid);
	if (r->fate == VC_CONVERT_WRITTEN || r->fate == VC_CONVERT_KEPT) {
		r->piece = PIECE_OUT;
		r->piece_failed = vc_writer_piece(w->w, out, g, w->rp) != VC_OK;
	} else if (r->fate == VC_CONVERT_REJECTED) {
		size_t len;
		vc_game_raw(g, &len);
		if (len == 0) {
			r->piece = PIECE_REJECT;
			r->piece_failed = vc_writer_piece(w->rw, out, g, w->rp) != VC_OK;
		}
	}
}

static void work(void *state, struct vc_game *g, struct vc_sink *out, void *res)
{
	struct vc_cv_worker *w = state;
	struct result *r = res;
	struct vc_buf t;
	vc_buf_init(&t);
	if (!w) {
		struct vc_diag d = { VC_SEV_ERROR, "oom", NULL, 0, 0, NULL, "out of memory" };
		vc_cv_hold(&t, &d);
		r->fatal = 1;
	} else {
		t = w->orphan; /* what came before this game comes first */
		vc_buf_init(&w->orphan);
		w->cur = &t;
		replay_and_format(w, g, out, r, &t);
		w->cur = NULL;
	}
	r->held = t.p;
	r->len = t.len;
}

/* The caller's thread reads ahead: the next game the selection takes
 * before the replay, the reader's diagnostics held for done. */
static vc_status next_game(void *source, struct vc_game *g, void *res)
{
	struct vc_convert *cv = source;
	struct result *r = res;
	vc_status s;
	if (cv->stop)
		return VC_END;
	cv->holding = &cv->pending;
	for (;;) {
		s = cv->xr ? vc_xml_reader_next(cv->xr, g) : vc_reader_next(cv->tr, g);
		if (s != VC_OK)
			break;
		cv->read_number = vc_game_number(g) + 1;
		if (vc_select_before(cv->o.select, g))
			break;
	}
	cv->holding = NULL;
	if (s == VC_OK) {
		r->pre = cv->pending.p;
		r->npre = cv->pending.len;
		vc_buf_init(&cv->pending);
	} else if (s == VC_FATAL) {
		cv->read_fatal = 1; /* counted only if one thread would have read so far */
		s = VC_END;
	}
	return s;
}

/* Writes the piece of a game that goes to the output. */
static int take_piece(struct vc_convert *cv, const struct result *r, const char *piece, size_t len)
{
	struct vc_cv_out *o = &cv->out;
	if (vc_cv_out_turn(o) < 0) {
		cv->stop = 1;
		return -1;
	}
	vc_cv_release(cv, r->held, r->mid, r->len);
	if (r->piece_failed || vc_writer_put(o->w, piece, len) != VC_OK) {
		o->failed = 1;
		cv->stop = 1;
		return -1;
	}
	o->in_file++;
	return 0;
}

/* A broken game that does not go to the output: to the rejects file. */
static void take_reject(struct vc_convert *cv, const struct vc_game *g, const struct result *r,
			const char *piece, size_t len)
{
	struct vc_cv_rejects *rj = &cv->rj;
	if (!rj->sink || rj->failed)
		return;
	size_t rawlen;
	const char *raw = vc_game_raw(g, &rawlen);
	if (rawlen > 0) {
		if (vc_cv_reject_raw(rj, raw, rawlen) < 0)
			rj->failed = 1;
		return;
	}
	vc_cv_release(cv, r->held, r->mid, r->len);
	if (r->piece_failed || vc_cv_reject_writer(rj) < 0 ||
	    vc_writer_put(rj->w, piece, len) != VC_OK)
		rj->failed = 1;
}

/* A repeat: its piece to the duplicates file, if there is one. */
static void take_repeat(struct vc_convert *cv, const struct vc_game *g, const struct result *r,
			const char *piece, size_t len)
{
	struct vc_cv_out *o = &cv->dup;
	if (!o->sink || o->failed)
		return;
	vc_cv_tagnote_tell(cv, g, &r->tn);
	vc_cv_release(cv, r->held, r->mid, r->len);
	if (r->piece_failed || vc_writer_put(o->w, piece, len) != VC_OK)
		o->failed = 1;
}

/* What one thread does with a game after its replay, in input order. */
static void take(struct vc_convert *cv, struct vc_game *g, const char *piece, size_t len,
		 const struct result *r)
{
	vc_cv_release(cv, r->pre, 0, r->npre);
	cv->number = vc_game_number(g) + 1;
	if (r->fatal || !r->selected) {
		vc_cv_release(cv, r->held, 0, r->len);
		if (r->fatal) {
			cv->c.input_failed = 1;
			cv->stop = 1;
		}
		return;
	}
	vc_cv_release(cv, r->held, 0, r->mid);
	enum vc_convert_fate fate = r->fate;
	int rep = r->has_key ? vc_cv_repeat(cv, g, &r->key) : 0;
	if (rep < 0) {
		cv->c.input_failed = 1;
		cv->stop = 1;
		return;
	}
	if (rep)
		fate = VC_CONVERT_REPEAT;
	if (cv->eco)
		cv->c.eco[r->eco]++;
	vc_cv_tell(cv, g, r->valid, fate);
	if (fate == VC_CONVERT_REPEAT) {
		take_repeat(cv, g, r, piece, len);
		return;
	}
	if (fate == VC_CONVERT_WRITTEN || fate == VC_CONVERT_KEPT) {
		vc_cv_tagnote_tell(cv, g, &r->tn);
		if (take_piece(cv, r, piece, len) == 0) {
			cv->c.written++;
			cv->c.kept += r->fate == VC_CONVERT_KEPT;
		}
		return;
	}
	cv->c.rejected++;
	take_reject(cv, g, r, piece, len);
}

static void done(void *user, struct vc_game *g, const char *piece, size_t len, void *res)
{
	struct vc_convert *cv = user;
	struct result *r = res;
	if (!cv->stop)
		take(cv, g, piece, len, r);
	free(r->held);
	free(r->pre);
}

void vc_cv_run_parallel(struct vc_convert *cv)
{
	struct vc_parallel_opts po;
	memset(&po, 0, sizeof po);
	po.jobs = cv->o.jobs;
	po.result_size = sizeof(struct result);
	po.worker_new = worker_new;
	po.worker_free = worker_keep;
	po.work = work;
	po.done = done;
	po.user = cv;
	cv->stop = 0;
	cv->read_fatal = 0;
	cv->read_number = cv->number;
	if (cv->o.each(cv->ctx, next_game, cv, &po) != VC_OK)
		cv->c.input_failed = 1;
	if (!cv->stop) {
		/* what one thread would have read too: the diagnostics after the last game */
		vc_cv_release(cv, cv->pending.p, 0, cv->pending.len);
		cv->number = cv->read_number;
		if (cv->read_fatal)
			cv->c.input_failed = 1;
	}
	vc_buf_free(&cv->pending);
}
