/*
 * parallel/parallel.c - games processed by several threads, results in input order.
 *
 * Model: a ring of `window` slots, slot k % window holding game k.  Games
 * enter the ring at `tail`, are worked on, and leave it at `head`, where
 * the caller's thread hands each to done() in order and frees its slot.
 * So results come out in the order the games came in, whatever order the
 * workers finish in, and at most `window` games are in memory.
 *
 * Two ways to fill the ring:
 *  - vc_parallel_each (a next function of the caller's): the caller's
 *    thread reads the next game into the slot at `tail` (only when that
 *    slot is free), marks it ready and moves tail on; workers take ready
 *    slots in order (`next`).  Invariants (under the lock): head <= next <=
 *    tail <= head + window; [head, next) are being worked on or done;
 *    [next, tail) are ready.
 *  - vc_parallel_run (a reader): the workers read, one at a time under
 *    `rlock`, a batch of games each into the slots from `tail` on, then
 *    work on their own batch; the caller's thread is one of them, and
 *    hands over between its batches (caller_work).  A game is then built and replayed by the
 *    same processor, its memory warm in that processor's cache; handing
 *    built games from one thread to another cost more than the reading
 *    saved, since the cache lines of every game crossed between cores.
 *    A worker keeps up to AHEAD batches read: it waits for rlock only with
 *    none left (spinning a little first, rlock_take), and otherwise reads
 *    only when rlock is free (struct queue).
 *    The reader reports to a context of its own (rctx), where what it says
 *    is held until the games read before it are handed over to the
 *    caller's context, so done() runs beside the reading under no lock of
 *    the reader's.  Invariant: head <= tail <= head + window; [head, tail)
 *    are read and being worked on or done.
 * A slot's result is zeroed before the game is read into it, so that the
 * caller's next function (vc_parallel_each) may fill it too.
 *
 * Wake-ups are batched: the caller's thread waits only when it has nothing
 * to hand over (and, with a next function, the window is full; with a
 * reader, it has no room for a batch of its own), and a worker wakes it
 * when the head is done and either half the window is done behind it, or
 * a reader waits for room, or the workers have nothing left to take (or
 * the input has ended); with a reader, as soon as the head is done.  So the caller hands over and
 * reads games a few at a time rather than being woken for each one; every
 * finished game re-checks the condition, so none is missed.
 */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP, where there is one */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/vc_archive.h"
#include "base/vc_base.h"

enum { SLOT_FREE, SLOT_READY, SLOT_DONE };
enum { BATCH_MAX = 16 }; /* games a reading worker reads at a time, at most */
enum { KEEP_OUTPUT = 64 << 10 }; /* a game's output buffer kept for the next, at most */

struct slot {
	struct vc_game *g; /* reading workers: one of the reader's own games */
	struct vc_sink *out;
	void *result;
	int state;
	int owner; /* reading workers: whose game g is */
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
	/* workers reading (vc_parallel_run) */
	struct vc_reader *r;
	pthread_mutex_t rlock; /* the reader */
	pthread_cond_t room_cv; /* a reader waits for a free slot */
	int room_waiting;
	size_t batch;	/* games a worker reads at a time */
	int fatal;	/* the input failed */
	int nthreads;
	pthread_t *threads;
	struct warg *wargs;
	struct vc_game **games; /* window of them */
	/* what the reader reports goes to a context of its own (rctx), and
	 * is held there until the games read before it are handed over to
	 * ctx, as one thread would have it; so done() runs on ctx beside the
	 * reading, each under a lock of its own (hlock guards what is held) */
	struct vc_ctx *rctx;
	pthread_mutex_t hlock;
	size_t read_seq; /* the game being read (under rlock) */
	struct held *held;
	size_t nheld, held_cap, held_first;
	/* the input's last progress report, passed on at a hand-over */
	const char *prog_input;
	uint64_t prog_done, prog_size;
	int prog_new;
	int held_oom; /* a report could not be held */
};

/* A diagnostic held back, with copies of its strings. */
struct held {
	struct vc_diag d;
	size_t seq; /* reported while game seq was read: handed on before it */
};

/* A worker: its games, when it reads them itself, are its own (window /
 * jobs of them), so that a game's memory is only ever written by one
 * processor: a game written on one core and read back on another costs
 * a cache miss a line.  free[0, nfree) are not in the ring. */
struct warg {
	struct pool *pl;
	int index;
	struct vc_game **free;
	size_t nfree;
};

/* Under the lock: whether the waiting caller's thread should wake. */
static int should_wake(const struct pool *pl)
{
	if (pl->head == pl->tail || pl->slots[pl->head % pl->window].state != SLOT_DONE)
		return 0;
	if (pl->eof || pl->r || pl->next == pl->tail || pl->room_waiting)
		return 1; /* reading workers: the caller's thread waits only when it can do
			   * nothing else */
	size_t half = (pl->window + 1) / 2, k = pl->head;
	while (k < pl->tail && k - pl->head < half && pl->slots[k % pl->window].state == SLOT_DONE)
		k++;
	return k - pl->head >= half;
}

static const char no_memory[] = "out of memory";

static char *copy_or_null(const char *s)
{
	return s ? vc_strdup(s) : NULL;
}

/* rctx's callback: what a read reports is held (under hlock). */
static void hold_diag(const struct vc_diag *d, void *user)
{
	struct pool *pl = user;
	pthread_mutex_lock(&pl->hlock);
	if (pl->nheld == pl->held_cap) {
		size_t cap = pl->held_cap ? 2 * pl->held_cap : 8;
		struct held *h = realloc(pl->held, cap * sizeof *h);
		if (!h) { /* no room to hold it: its one message stands for it */
			pl->held_oom = 1;
			pthread_mutex_unlock(&pl->hlock);
			return;
		}
		pl->held = h;
		pl->held_cap = cap;
	}
	struct held *h = &pl->held[pl->nheld++];
	h->d = *d;
	h->d.code = copy_or_null(d->code);
	h->d.file = copy_or_null(d->file);
	h->d.context = copy_or_null(d->context);
	h->d.message = copy_or_null(d->message);
	if (!h->d.message && d->message)
		h->d.message = no_memory;
	h->seq = pl->read_seq;
	pthread_mutex_unlock(&pl->hlock);
}

/* rctx's progress callback: the last report, passed on at a hand-over. */
static void hold_progress(void *user, const char *input, uint64_t done, uint64_t size)
{
	struct pool *pl = user;
	pthread_mutex_lock(&pl->hlock);
	pl->prog_input = input;
	pl->prog_done = done;
	pl->prog_size = size;
	pl->prog_new = 1;
	pthread_mutex_unlock(&pl->hlock);
}

/* On the caller's thread: reports to ctx, in the order they came, what
 * was held before game seq was read (all of it for SIZE_MAX), and the
 * input's progress. */
static void release_held(struct pool *pl, size_t seq)
{
	pthread_mutex_lock(&pl->hlock);
	while (pl->held_first < pl->nheld && pl->held[pl->held_first].seq <= seq) {
		struct held *h = &pl->held[pl->held_first++];
		vc_emit(pl->ctx, h->d.severity, h->d.code, h->d.file, h->d.line, h->d.col,
			h->d.context, "%s", h->d.message ? h->d.message : "");
		free((char *)h->d.code);
		free((char *)h->d.file);
		free((char *)h->d.context);
		if (h->d.message != no_memory)
			free((char *)h->d.message);
	}
	if (pl->held_first == pl->nheld)
		pl->held_first = pl->nheld = 0;
	if (pl->held_oom && seq == SIZE_MAX) {
		vc_emit(pl->ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "%s", no_memory);
		pl->held_oom = 0;
	}
	int prog = pl->prog_new;
	const char *input = pl->prog_input;
	uint64_t done = pl->prog_done, size = pl->prog_size;
	pl->prog_new = 0;
	pthread_mutex_unlock(&pl->hlock);
	if (prog)
		vc_ctx_progress(pl->ctx, input, done, size);
}

static void finish(struct pool *pl, struct slot *s)
{
	size_t len = 0;
	const char *data = vc_sink_data(s->out, &len);
	pl->o->done(pl->o->user, s->g, data ? data : "", data ? len : 0, s->result);
}

/* Under the lock: s is done; wakes the caller's thread if it should. */
static void mark_done(struct pool *pl, struct slot *s)
{
	s->state = SLOT_DONE;
	if (pl->waiting && should_wake(pl))
		pthread_cond_signal(&pl->done_cv);
}

/* A worker's own state, kept where pool_end frees it. */
static void *worker_state(const struct warg *wa)
{
	const struct vc_parallel_opts *o = wa->pl->o;
	void *state = o->worker_new ? o->worker_new(o->user) : NULL;
	wa->pl->states[wa->index] = state;
	return state;
}

static void *worker(void *arg)
{
	struct warg *wa = arg;
	struct pool *pl = wa->pl;
	void *state = worker_state(wa);
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
		mark_done(pl, s);
		pthread_mutex_unlock(&pl->lock);
	}
	return NULL;
}

/* Under the lock: whether reader me must wait for a slot or a game of its
 * own to read into. */
static int no_room(const struct pool *pl, const struct warg *me)
{
	return !pl->eof && (pl->tail - pl->head >= pl->window || !me->nfree);
}

/* Under rlock: reads up to pl->batch games into the slots from tail on;
 * their count (0 once the input has ended).  Waits, without rlock, while
 * the window is full, when it may (wait); otherwise, and always for the
 * caller's thread (index 0), which hands the games over, it returns 0
 * then, with pl->eof unset. */
static size_t read_batch(struct pool *pl, int index, int wait, size_t *first)
{
	struct warg *me = &pl->wargs[index];
	pthread_mutex_lock(&pl->lock);
	while (no_room(pl, me)) {
		if (index == 0 || !wait) {
			pthread_mutex_unlock(&pl->lock);
			return 0;
		}
		/* rlock is released meanwhile: a worker with games of its own
		 * left may read */
		pl->room_waiting++;
		if (pl->waiting && should_wake(pl))
			pthread_cond_signal(&pl->done_cv);
		pthread_mutex_unlock(&pl->lock);
		pthread_mutex_unlock(&pl->rlock);
		pthread_mutex_lock(&pl->lock);
		while (no_room(pl, me))
			pthread_cond_wait(&pl->room_cv, &pl->lock);
		pl->room_waiting--;
		pthread_mutex_unlock(&pl->lock);
		pthread_mutex_lock(&pl->rlock);
		pthread_mutex_lock(&pl->lock);
	}
	/* the games to read into are taken off the free list here: the
	 * caller's thread puts handed-over ones back on it meanwhile */
	struct vc_game *mine[BATCH_MAX] = { 0 };
	size_t room = pl->window - (pl->tail - pl->head), n = 0, take = pl->batch;
	if (take > room)
		take = room;
	if (take > me->nfree)
		take = me->nfree;
	for (size_t k = 0; k < take; k++)
		mine[k] = me->free[--me->nfree];
	*first = pl->tail;
	int eof = pl->eof;
	pthread_mutex_unlock(&pl->lock);
	vc_status rs = eof ? VC_END : VC_OK;
	while (rs == VC_OK && n < take) {
		struct slot *s = &pl->slots[(*first + n) % pl->window];
		if (pl->o->result_size)
			memset(s->result, 0, pl->o->result_size);
		s->g = mine[n];
		s->owner = index;
		pl->read_seq = *first + n;
		rs = vc_reader_next(pl->r, s->g);
		if (rs != VC_OK)
			break;
		n++;
	}
	pthread_mutex_lock(&pl->lock);
	for (size_t k = take; k > n; k--) /* not read into: back on the list */
		me->free[me->nfree++] = mine[k - 1];
	pl->tail += n;
	if (rs != VC_OK && !eof) {
		pl->eof = 1;
		pl->fatal |= rs == VC_FATAL;
		pthread_cond_broadcast(&pl->room_cv);
		if (pl->waiting)
			pthread_cond_signal(&pl->done_cv);
	}
	pthread_mutex_unlock(&pl->lock);
	return n;
}

/* Batches a reading worker has read and not yet worked on, oldest first.
 * With one in hand, a worker reads the next only when no other is reading
 * (a try of rlock), and otherwise works on what it has: so it waits for
 * rlock only with nothing to do, where it once waited after every batch
 * that met another worker's read, and the wake-up that wait cost. */
enum { AHEAD = 2 };
enum { RLOCK_SPINS = 2000 }; /* tries of rlock before a worker sleeps on it */
struct queue {
	size_t first[AHEAD], n[AHEAD];
	int len;
};

/* A pause in a spin-wait: lets the processor's other thread, or the
 * hypervisor, have the time. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Takes rlock for a worker with nothing else to do.  The lock is held for
 * one batch's reading, tens of microseconds, and a sleeping waiter costs
 * more than that to wake (a futex call by the holder, an interrupt to an
 * idle processor, which a virtual machine's host must pass on): so it
 * tries for a while, with pauses, before it sleeps.  Most context
 * switches of a -j 2 run were such sleeps: the spin took them from about
 * 330 to 55 a run and 0.5 to 1% off its time, for no more processor time
 * (it mostly ends within one batch's reading).  The tries are bounded (a
 * few hundred microseconds) for a machine with more threads than
 * processors, where the holder may be waiting for ours. */
static void rlock_take(struct pool *pl)
{
	for (int i = 0; i < RLOCK_SPINS; i++) {
		if (pthread_mutex_trylock(&pl->rlock) == 0)
			return;
		for (int k = 0; k < 8; k++)
			cpu_relax();
	}
	pthread_mutex_lock(&pl->rlock);
}

/* Reads batches into q while there is room in q.  With q empty, it waits
 * for rlock (and, but for the caller's thread, for room in the window for
 * the first batch) and fills q; else it reads one batch, only if rlock is
 * free now. */
static void read_ahead(struct pool *pl, int index, struct queue *q)
{
	int empty = !q->len;
	if (q->len == AHEAD)
		return;
	if (empty)
		rlock_take(pl);
	else if (pthread_mutex_trylock(&pl->rlock) != 0)
		return;
	size_t n;
	do {
		size_t first = 0;
		n = read_batch(pl, index, !q->len, &first);
		if (n) {
			q->first[q->len] = first;
			q->n[q->len++] = n;
		}
	} while (empty && n && q->len < AHEAD);
	pthread_mutex_unlock(&pl->rlock);
}

/* Works on the oldest batch of q and takes it off; its first game and
 * count in *first and *n, for the caller to mark them done. */
static void work_oldest(struct pool *pl, void *state, struct queue *q, size_t *first, size_t *n)
{
	*first = q->first[0];
	*n = q->n[0];
	for (size_t k = 0; k < *n; k++) {
		struct slot *s = &pl->slots[(*first + k) % pl->window];
		pl->o->work(state, s->g, s->out, s->result);
	}
	q->len--;
	for (int i = 0; i < q->len; i++) {
		q->first[i] = q->first[i + 1];
		q->n[i] = q->n[i + 1];
	}
}

/* A worker of vc_parallel_run: reads a batch, works on it, and again. */
static void *reading_worker(void *arg)
{
	struct warg *wa = arg;
	struct pool *pl = wa->pl;
	void *state = worker_state(wa);
	struct queue q = { { 0 }, { 0 }, 0 };
	for (;;) {
		read_ahead(pl, wa->index, &q);
		if (!q.len)
			break; /* the input has ended */
		size_t first, n;
		work_oldest(pl, state, &q, &first, &n);
		pthread_mutex_lock(&pl->lock);
		for (size_t k = 0; k < n; k++)
			mark_done(pl, &pl->slots[(first + k) % pl->window]);
		pthread_mutex_unlock(&pl->lock);
	}
	return NULL;
}

/* A game's output sink, emptied for the next game: kept, but for a buffer
 * that one game made large (its memory is then given back), or replaced
 * when a write to it failed.  0, or -1 when there is no memory for a new
 * one (the old one then stays). */
static int renew_sink(struct vc_ctx *ctx, struct vc_sink **out)
{
	if (vc_sink_mem_reset(*out, KEEP_OUTPUT) == 0)
		return 0;
	struct vc_sink *fresh = vc_sink_mem(ctx);
	if (!fresh)
		return -1;
	vc_sink_close(*out);
	*out = fresh;
	return 0;
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
		if (o->result_size)
			memset(result, 0, o->result_size);
		if ((rs = next(source, g, result)) != VC_OK)
			break;
		o->work(state, g, out, result);
		size_t len = 0;
		const char *data = vc_sink_data(out, &len);
		o->done(o->user, g, data ? data : "", data ? len : 0, result);
		if (renew_sink(ctx, &out) < 0) {
			st = VC_FATAL;
			break;
		}
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

/* The pool's memory, locks and threads (fn each; r for the reading
 * workers), pl zeroed before but for what the caller set; VC_OK, or
 * VC_FATAL (reported), with what was made left for pool_end. */
static vc_status pool_start(struct pool *pl, struct vc_ctx *ctx, const struct vc_parallel_opts *o,
			    struct vc_reader *r, void *(*fn)(void *))
{
	pl->o = o;
	pl->r = r;
	pl->ctx = ctx;
	pl->window = o->window ? o->window : (size_t)o->jobs * 64;
	pl->batch = pl->window / (2 * (size_t)o->jobs);
	if (pl->batch > BATCH_MAX)
		pl->batch = BATCH_MAX;
	if (pl->batch < 1)
		pl->batch = 1;
	/* the locks are held for a few instructions (lock) or one batch of
	 * reading (rlock): where the C library can, a waiter spins a little
	 * before it sleeps, since waking a thread costs more than the wait */
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	pthread_mutex_init(&pl->lock, &ma);
	pthread_mutex_init(&pl->rlock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_cond_init(&pl->work_cv, NULL);
	pthread_cond_init(&pl->done_cv, NULL);
	pthread_cond_init(&pl->room_cv, NULL);
	pl->slots = vc_calloc(pl->window, sizeof *pl->slots);
	pl->threads = vc_calloc((size_t)o->jobs, sizeof *pl->threads);
	pl->wargs = vc_calloc((size_t)o->jobs, sizeof *pl->wargs);
	pl->states = vc_calloc((size_t)o->jobs, sizeof *pl->states);
	pl->games = vc_calloc(pl->window, sizeof *pl->games);
	if (!pl->slots || !pl->threads || !pl->wargs || !pl->states || !pl->games) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return VC_FATAL;
	}
	vc_status st = VC_OK;
	for (size_t i = 0; i < pl->window; i++) {
		pl->games[i] = vc_game_new();
		pl->slots[i].g = r ? NULL : pl->games[i];
		pl->slots[i].out = vc_sink_mem(ctx);
		pl->slots[i].result = o->result_size ? calloc(1, o->result_size) : NULL;
		if (!pl->games[i] || !pl->slots[i].out || (o->result_size && !pl->slots[i].result))
			st = VC_FATAL;
	}
	/* the reading workers' own games: window / jobs each */
	size_t per = pl->window / (size_t)o->jobs;
	for (int i = 0; r && i < o->jobs && st == VC_OK; i++) {
		struct warg *w = &pl->wargs[i];
		if (!(w->free = vc_calloc(per ? per : 1, sizeof *w->free)))
			st = VC_FATAL;
		for (size_t k = 0; w->free && k < per; k++)
			w->free[w->nfree++] = pl->games[(size_t)i * per + k];
	}
	if (st != VC_OK) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return st;
	}
	for (int i = 0; i < o->jobs; i++) {
		pl->wargs[i].pl = pl;
		pl->wargs[i].index = i;
	}
	/* with a reader, the caller's thread is worker 0 (caller_work) */
	for (int i = r ? 1 : 0; i < o->jobs && st == VC_OK; i++) {
		if (pthread_create(&pl->threads[pl->nthreads], NULL, fn, &pl->wargs[i]) != 0) {
			vc_emit(ctx, VC_SEV_FATAL, "threads", NULL, 0, 0, NULL,
				"cannot start worker threads");
			st = VC_FATAL;
		} else {
			pl->nthreads++;
		}
	}
	return st;
}

/* Joins the threads (the input is marked ended first) and frees all. */
static void pool_end(struct pool *pl)
{
	pthread_mutex_lock(&pl->lock);
	pl->eof = 1;
	pthread_cond_broadcast(&pl->work_cv);
	pthread_cond_broadcast(&pl->room_cv);
	pthread_mutex_unlock(&pl->lock);
	for (int i = 0; i < pl->nthreads; i++)
		pthread_join(pl->threads[i], NULL);
	for (int i = 0; pl->states && i < pl->o->jobs; i++)
		if (pl->o->worker_free && pl->states[i])
			pl->o->worker_free(pl->states[i]);
	for (size_t i = 0; pl->slots && i < pl->window; i++) {
		vc_game_free(pl->games ? pl->games[i] : NULL);
		vc_sink_close(pl->slots[i].out);
		free(pl->slots[i].result);
	}
	for (int i = 0; pl->wargs && i < pl->o->jobs; i++)
		free(pl->wargs[i].free);
	free(pl->games);
	pthread_mutex_destroy(&pl->lock);
	pthread_mutex_destroy(&pl->rlock);
	pthread_cond_destroy(&pl->work_cv);
	pthread_cond_destroy(&pl->done_cv);
	pthread_cond_destroy(&pl->room_cv);
	free(pl->slots);
	free(pl->threads);
	free(pl->wargs);
	free(pl->states);
}

/* Under the lock, on the caller's thread: hands the done slots at head
 * over, in order, n at a time (done() under no lock: the workers' reading
 * reports to rctx, not to ctx), frees them with their sinks emptied, and
 * says how many it handed over. */
static size_t hand_over(struct pool *pl)
{
	int reading = pl->r != NULL;
	size_t n = 0;
	while (pl->head + n < pl->tail && pl->slots[(pl->head + n) % pl->window].state == SLOT_DONE)
		n++;
	if (!n)
		return 0;
	pthread_mutex_unlock(&pl->lock);
	for (size_t k = 0; k < n; k++) {
		struct slot *h = &pl->slots[(pl->head + k) % pl->window];
		if (reading)
			release_held(pl, pl->head + k);
		finish(pl, h);
		renew_sink(pl->ctx, &h->out);
	}
	pthread_mutex_lock(&pl->lock);
	for (size_t k = 0; k < n; k++) {
		struct slot *h = &pl->slots[(pl->head + k) % pl->window];
		h->state = SLOT_FREE;
		if (reading) { /* the game goes back to its reader */
			struct warg *w = &pl->wargs[h->owner];
			w->free[w->nfree++] = h->g;
			h->g = NULL;
		}
	}
	pl->head += n;
	if (pl->room_waiting)
		pthread_cond_broadcast(&pl->room_cv);
	return n;
}

/* The caller's thread as the first reading worker (vc_parallel_run): it
 * reads and works on batches as the others do, and between them hands the
 * finished games over, so jobs threads run where jobs + 1 did (the one
 * that only handed over was woken hundreds of times a second, each time
 * taking a processor from a worker).  It reads only when there is room
 * for a batch of its own: games come back to it only when it hands them
 * over, so it never waits for room, but for the head of the ring to be
 * done, on done_cv.  Under the lock on entry and on return. */
static void caller_work(struct pool *pl, void *state)
{
	struct warg *me = &pl->wargs[0];
	struct queue q = { { 0 }, { 0 }, 0 };
	for (;;) {
		if (hand_over(pl))
			continue;
		if (pl->eof && pl->head == pl->tail)
			return;
		if (!q.len && (pl->eof || no_room(pl, me))) {
			pl->waiting = 1;
			pthread_cond_wait(&pl->done_cv, &pl->lock);
			pl->waiting = 0;
			continue;
		}
		pthread_mutex_unlock(&pl->lock);
		/* rlock before the room is looked at again: while it is held no
		 * other worker moves tail, and only this thread moves head */
		read_ahead(pl, 0, &q);
		size_t first = 0, n = 0;
		if (q.len)
			work_oldest(pl, state, &q, &first, &n);
		pthread_mutex_lock(&pl->lock);
		for (size_t k = 0; k < n; k++)
			pl->slots[(first + k) % pl->window].state = SLOT_DONE;
	}
}

vc_status vc_parallel_run(struct vc_ctx *ctx, struct vc_reader *r, const struct vc_parallel_opts *o)
{
	if (o->jobs <= 1)
		return run_serial(ctx, reader_next, r, o);
	struct pool pl;
	memset(&pl, 0, sizeof pl);
	if (!(pl.rctx = vc_ctx_new())) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "%s", no_memory);
		return VC_FATAL;
	}
	vc_ctx_copy_settings(pl.rctx, ctx);
	vc_ctx_set_diag(pl.rctx, hold_diag, &pl);
	if (vc_ctx_wants_progress(ctx))
		vc_ctx_set_progress(pl.rctx, hold_progress, &pl);
	pthread_mutex_init(&pl.hlock, NULL);
	struct vc_ctx *own = vc_reader_swap_ctx(r, pl.rctx);
	vc_status st = pool_start(&pl, ctx, o, r, reading_worker);
	pthread_mutex_lock(&pl.lock);
	if (st == VC_OK)
		caller_work(&pl, worker_state(&pl.wargs[0]));
	if (pl.fatal)
		st = VC_FATAL;
	pthread_mutex_unlock(&pl.lock);
	pool_end(&pl);
	vc_reader_swap_ctx(r, own);
	release_held(&pl, SIZE_MAX);
	pthread_mutex_destroy(&pl.hlock);
	vc_ctx_free(pl.rctx);
	free(pl.held);
	return st;
}

vc_status vc_parallel_each(struct vc_ctx *ctx, vc_next_fn *next, void *source,
			   const struct vc_parallel_opts *o)
{
	if (o->jobs <= 1)
		return run_serial(ctx, next, source, o);
	struct pool pl;
	memset(&pl, 0, sizeof pl);
	vc_status st = pool_start(&pl, ctx, o, NULL, worker), rs = VC_OK;
	while (st == VC_OK) {
		/* wait for a free slot, handing over finished games meanwhile */
		pthread_mutex_lock(&pl.lock);
		for (;;) {
			if (hand_over(&pl))
				continue;
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
	/* hand over the rest, in order (none was read when no worker started) */
	for (;;) {
		if (hand_over(&pl))
			continue;
		if (pl.head == pl.tail || pl.nthreads == 0)
			break;
		pl.waiting = 1;
		pthread_cond_wait(&pl.done_cv, &pl.lock);
		pl.waiting = 0;
	}
	pthread_mutex_unlock(&pl.lock);
	pool_end(&pl);
	return st;
}
