/*
 * parallel/parallel.c - games processed by several threads, results in input order.
 *
 * Model: a ring of `window` slots.  The caller's thread reads the next game
 * into the slot at `tail` (only when that slot is free), marks it ready and
 * moves tail on; workers take ready slots in order (`next`), run the work
 * on them and mark them done; the caller's thread hands the slot at `head`
 * to done() as soon as it is done and frees it.  So results come out in the
 * order the games came in, whatever order the workers finish in, and at most
 * `window` games are in memory.
 *
 * Invariants (under the lock): head <= next <= tail <= head + window; the
 * slots in [head, next) are being worked on or done; [next, tail) are ready.
 * A slot's result is zeroed before the game is read into it, so that the
 * caller's next function (vc_parallel_each) may fill it too.
 *
 * Wake-ups are batched: the caller's thread waits only when the window is
 * full and its head is not done, and a worker wakes it when the head is
 * done and either half the window is done behind it or the workers have
 * nothing left to take (or the input has ended).  So the caller hands over
 * and reads games a few at a time rather than being woken for each one;
 * every finished game re-checks the condition, so none is missed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/vc_base.h"

enum { SLOT_FREE, SLOT_READY, SLOT_DONE };

struct slot {
	struct vc_game *g;
	struct vc_sink *out;
	void *result;
	int state;
};

struct pool {
	const struct vc_parallel_opts *o;
	struct vc_ctx *ctx;
	struct slot *slots;
	size_t window;
	size_t head, next, tail;
	int eof;
	int waiting;   /* the caller's thread waits on done_cv */
	void **states; /* each worker's state: freed after every result is handed over,
			* since a result may point into it */
	pthread_mutex_t lock;
	pthread_cond_t work_cv, done_cv;
};

/* Under the lock: whether the waiting caller's thread should wake. */
static int should_wake(const struct pool *pl)
{
	if (pl->head == pl->tail || pl->slots[pl->head % pl->window].state != SLOT_DONE)
		return 0;
	if (pl->eof || pl->next == pl->tail)
		return 1;
	size_t half = (pl->window + 1) / 2, k = pl->head;
	while (k < pl->next && k - pl->head < half && pl->slots[k % pl->window].state == SLOT_DONE)
		k++;
	return k - pl->head >= half;
}

static void finish(struct pool *pl, struct slot *s)
{
	size_t len = 0;
	const char *data = vc_sink_data(s->out, &len);
	pl->o->done(pl->o->user, s->g, data ? data : "", data ? len : 0, s->result);
}

struct warg {
	struct pool *pl;
	int index;
};

static void *worker(void *arg)
{
	struct warg *wa = arg;
	struct pool *pl = wa->pl;
	void *state = pl->o->worker_new ? pl->o->worker_new(pl->o->user) : NULL;
	pl->states[wa->index] = state;
	for (;;) {
		pthread_mutex_lock(&pl->lock);
		while (pl->next == pl->tail && !pl->eof)
			pthread_cond_wait(&pl->work_cv, &pl->lock);
		if (pl->next == pl->tail) {
			pthread_mutex_unlock(&pl->lock);
			break;
		}
		struct slot *s = &pl->slots[pl->next % pl->window];
		pl->next++;
		pthread_mutex_unlock(&pl->lock);
		pl->o->work(state, s->g, s->out, s->result);
		pthread_mutex_lock(&pl->lock);
		s->state = SLOT_DONE;
		if (pl->waiting && should_wake(pl))
			pthread_cond_signal(&pl->done_cv);
		pthread_mutex_unlock(&pl->lock);
	}
	return NULL;
}

/* one thread: read, work, hand over, one game at a time */
static vc_status run_serial(struct vc_ctx *ctx, vc_next_fn *next, void *source,
			    const struct vc_parallel_opts *o)
{
	struct vc_game *g = vc_game_new();
	struct vc_sink *out = vc_sink_mem(ctx);
	void *result = o->result_size ? calloc(1, o->result_size) : NULL;
	void *state = o->worker_new ? o->worker_new(o->user) : NULL;
	vc_status st = VC_OK, rs;
	if (!g || !out || (o->result_size && !result)) {
		st = VC_FATAL;
		goto done;
	}
	for (;;) {
		struct vc_sink *fresh;
		if (o->result_size)
			memset(result, 0, o->result_size);
		if ((rs = next(source, g, result)) != VC_OK)
			break;
		o->work(state, g, out, result);
		size_t len = 0;
		const char *data = vc_sink_data(out, &len);
		o->done(o->user, g, data ? data : "", data ? len : 0, result);
		/* a fresh memory sink per game keeps its size to one game's output */
		fresh = vc_sink_mem(ctx);
		if (!fresh) {
			st = VC_FATAL;
			break;
		}
		vc_sink_close(out);
		out = fresh;
	}
	if (rs == VC_FATAL)
		st = VC_FATAL;
done:
	if (o->worker_free)
		o->worker_free(state);
	vc_sink_close(out);
	vc_game_free(g);
	free(result);
	return st;
}

static vc_status reader_next(void *source, struct vc_game *g, void *result)
{
	(void)result;
	return vc_reader_next(source, g);
}

vc_status vc_parallel_run(struct vc_ctx *ctx, struct vc_reader *r, const struct vc_parallel_opts *o)
{
	return vc_parallel_each(ctx, reader_next, r, o);
}

vc_status vc_parallel_each(struct vc_ctx *ctx, vc_next_fn *next, void *source,
			   const struct vc_parallel_opts *o)
{
	if (o->jobs <= 1)
		return run_serial(ctx, next, source, o);
	struct pool pl;
	memset(&pl, 0, sizeof pl);
	pl.o = o;
	pl.ctx = ctx;
	pl.window = o->window ? o->window : (size_t)o->jobs * 64;
	pl.slots = vc_calloc(pl.window, sizeof *pl.slots);
	int nthreads = 0;
	pthread_t *threads = vc_calloc((size_t)o->jobs, sizeof *threads);
	struct warg *wargs = vc_calloc((size_t)o->jobs, sizeof *wargs);
	pl.states = vc_calloc((size_t)o->jobs, sizeof *pl.states);
	vc_status st = VC_OK, rs = VC_OK;
	if (!pl.slots || !threads || !wargs || !pl.states) {
		free(pl.slots);
		free(threads);
		free(wargs);
		free(pl.states);
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return VC_FATAL;
	}
	for (size_t i = 0; i < pl.window; i++) {
		pl.slots[i].g = vc_game_new();
		pl.slots[i].out = vc_sink_mem(ctx);
		pl.slots[i].result = o->result_size ? calloc(1, o->result_size) : NULL;
		if (!pl.slots[i].g || !pl.slots[i].out || (o->result_size && !pl.slots[i].result))
			st = VC_FATAL;
	}
	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.work_cv, NULL);
	pthread_cond_init(&pl.done_cv, NULL);
	for (int i = 0; st == VC_OK && i < o->jobs; i++) {
		wargs[i].pl = &pl;
		wargs[i].index = i;
		if (pthread_create(&threads[i], NULL, worker, &wargs[i]) != 0) {
			vc_emit(ctx, VC_SEV_FATAL, "threads", NULL, 0, 0, NULL,
				"cannot start worker threads");
			st = VC_FATAL;
			break;
		}
		nthreads++;
	}
	while (st == VC_OK) {
		/* wait for a free slot, handing over finished games meanwhile */
		pthread_mutex_lock(&pl.lock);
		for (;;) {
			struct slot *h = &pl.slots[pl.head % pl.window];
			if (pl.head < pl.tail && h->state == SLOT_DONE) {
				pthread_mutex_unlock(&pl.lock);
				finish(&pl, h);
				struct vc_sink *fresh = vc_sink_mem(ctx);
				pthread_mutex_lock(&pl.lock);
				if (fresh) {
					vc_sink_close(h->out);
					h->out = fresh;
				}
				h->state = SLOT_FREE;
				pl.head++;
				continue;
			}
			if (pl.tail - pl.head < pl.window)
				break;
			pl.waiting = 1;
			pthread_cond_wait(&pl.done_cv, &pl.lock);
			pl.waiting = 0;
		}
		pthread_mutex_unlock(&pl.lock);
		struct slot *s = &pl.slots[pl.tail % pl.window];
		if (o->result_size)
			memset(s->result, 0, o->result_size);
		rs = next(source, s->g, s->result);
		if (rs != VC_OK)
			break;
		pthread_mutex_lock(&pl.lock);
		s->state = SLOT_READY;
		pl.tail++;
		pthread_cond_signal(&pl.work_cv);
		pthread_mutex_unlock(&pl.lock);
	}
	if (rs == VC_FATAL)
		st = VC_FATAL;
	pthread_mutex_lock(&pl.lock);
	pl.eof = 1;
	pthread_cond_broadcast(&pl.work_cv);
	/* hand over the rest, in order */
	while (pl.head < pl.tail && nthreads > 0) {
		struct slot *h = &pl.slots[pl.head % pl.window];
		if (h->state != SLOT_DONE) {
			pl.waiting = 1;
			pthread_cond_wait(&pl.done_cv, &pl.lock);
			pl.waiting = 0;
			continue;
		}
		pthread_mutex_unlock(&pl.lock);
		finish(&pl, h);
		pthread_mutex_lock(&pl.lock);
		h->state = SLOT_FREE;
		pl.head++;
	}
	pthread_mutex_unlock(&pl.lock);
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < nthreads; i++)
		if (o->worker_free)
			o->worker_free(pl.states[i]);
	for (size_t i = 0; i < pl.window; i++) {
		vc_game_free(pl.slots[i].g);
		vc_sink_close(pl.slots[i].out);
		free(pl.slots[i].result);
	}
	pthread_mutex_destroy(&pl.lock);
	pthread_cond_destroy(&pl.work_cv);
	pthread_cond_destroy(&pl.done_cv);
	free(pl.slots);
	free(threads);
	free(wargs);
	free(pl.states);
	return st;
}
