/*
 * base/scratch.c - per-thread scratch blocks, allocated at first use.
 *
 * Why not `static __thread T buf[N]`: the C library zeroes a thread's
 * whole static TLS block when the thread starts, the main thread's too.
 * Move buffers of a few thousand moves each added up to 1.6 MB a thread,
 * written (and so faulted in) at every start of a tool and of each worker
 * thread, most of it never used.  A block here is malloc'd when a thread
 * first asks for it; a block that big comes from mmap, so only the pages a
 * thread writes cost anything.  Blocks are freed when their thread ends
 * (a key's destructor); the main thread's stay until the process ends,
 * still reachable from its thread-local table.
 */
#include <pthread.h>
#include <stdlib.h>

#include "base/vc_base.h"

struct scratch {
	void *p[VC_SCRATCH_SLOTS];
	size_t size[VC_SCRATCH_SLOTS];
	int keyed;
};

static __thread struct scratch mine;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int have_key;

static void release(void *arg)
{
	struct scratch *s = arg;
	for (int i = 0; i < VC_SCRATCH_SLOTS; i++) {
		free(s->p[i]);
		s->p[i] = NULL;
		s->size[i] = 0;
	}
	s->keyed = 0;
}

static void make_key(void)
{
	have_key = pthread_key_create(&key, release) == 0;
}

void *vc_scratch(int slot, size_t size)
{
	if (slot < 0 || slot >= VC_SCRATCH_SLOTS)
		return NULL;
	struct scratch *s = &mine;
	if (s->size[slot] >= size)
		return s->p[slot];
	if (!s->keyed) {
		pthread_once(&once, make_key);
		/* without the key a worker's blocks would outlive it: none then */
		if (!have_key || pthread_setspecific(key, s) != 0)
			return NULL;
		s->keyed = 1;
	}
	void *p = malloc(size);
	if (!p)
		return NULL;
	free(s->p[slot]);
	s->p[slot] = p;
	s->size[slot] = size;
	return p;
}
