/*
 * archive/relay.c - the format of a pipe or of standard input, told by its
 * first bytes without losing them.
 *
 * Model: a regular file is looked at and opened again; a pipe cannot be
 * read twice.  So its first bytes are read here, their format told
 * (vc_format_sniff), and a thread writes them, then the rest of the pipe,
 * into a pipe of our own, which a reader opens as /dev/fd/N.  When the
 * reader stops early it closes its end: the relay's next write fails with
 * EPIPE (SIGPIPE is blocked in its thread) and the relay ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/convert.h"

#define PRE_BYTES 4096

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void *relay_main(void *arg)
{
	struct vc_cv_relay *r = arg;
	unsigned char buf[65536];
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (write_all(r->dst, r->pre, r->npre) == 0) {
		for (;;) {
			ssize_t k = read(r->src, buf, sizeof buf);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0 || write_all(r->dst, buf, (size_t)k) < 0)
				break;
		}
	}
	close(r->dst);
	return NULL;
}

/* The first bytes of the input, as many as come before PRE_BYTES or its
 * end; 0, or -1 (reported). */
static int read_pre(struct vc_cv_relay *r, struct vc_ctx *ctx, const char *name)
{
	r->pre = malloc(PRE_BYTES);
	if (!r->pre)
		return -1;
	while (r->npre < PRE_BYTES) {
		ssize_t k = read(r->src, r->pre + r->npre, PRE_BYTES - r->npre);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			vc_emit(ctx, VC_SEV_ERROR, "io-read", NULL, 0, 0, NULL,
				"cannot read '%s': %s", strcmp(name, "-") ? name : "<stdin>",
				strerror(errno));
			return -1;
		}
		if (k == 0)
			break;
		r->npre += (size_t)k;
	}
	return 0;
}

int vc_cv_relay_start(struct vc_cv_relay *r, struct vc_ctx *ctx, const char *name, char *fdpath,
		      size_t fdn, int *fmt)
{
	memset(r, 0, sizeof *r);
	r->src = strcmp(name, "-") ? open(name, O_RDONLY) : 0;
	if (r->src < 0) {
		vc_emit(ctx, VC_SEV_ERROR, "io-open", NULL, 0, 0, NULL, "cannot open '%s': %s",
			name, strerror(errno));
		return -1;
	}
	if (read_pre(r, ctx, name) < 0)
		return -1;
	*fmt = (int)vc_format_sniff(r->pre, r->npre);
	int fds[2];
	if (pipe(fds) < 0) {
		vc_emit(ctx, VC_SEV_ERROR, "io-open", NULL, 0, 0, NULL, "cannot make a pipe: %s",
			strerror(errno));
		return -1;
	}
	r->dst = fds[1];
	if (pthread_create(&r->th, NULL, relay_main, r) != 0) {
		close(fds[0]);
		close(fds[1]);
		vc_emit(ctx, VC_SEV_ERROR, "threads", NULL, 0, 0, NULL, "cannot start a thread");
		return -1;
	}
	r->running = 1;
	snprintf(fdpath, fdn, "/dev/fd/%d", fds[0]);
	return fds[0];
}

void vc_cv_relay_end(struct vc_cv_relay *r, int readfd)
{
	if (readfd >= 0)
		close(readfd);
	if (r->running)
		pthread_join(r->th, NULL);
	if (r->src > 0)
		close(r->src);
	free(r->pre);
	r->pre = NULL;
	r->running = 0;
}
