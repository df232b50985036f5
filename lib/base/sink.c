/*
 * sink.c - output sinks: a file, standard output, memory or a callback.
 *
 * Model: a file sink writes into a temporary file next to its target and
 * renames it into place only when vc_sink_close finds that every byte
 * reached the disk, so an interrupted or failed run never leaves a
 * half-written file under the final name (and never clobbers the old one).
 * Paths that exist but are not regular files (/dev/full, a FIFO, a
 * terminal) cannot be replaced by a rename and are opened directly, as is
 * standard output.  File sinks collect bytes in a 64 KiB buffer and hand
 * them to write(2), or to deflate when compressing, in large pieces.
 * Memory sinks append to a vc_buf; callback sinks pass every write on at
 * once, unbuffered, so the caller sees bytes as soon as they are written.
 *
 * Invariants: buf[0..len) are bytes accepted but not yet written (file
 * sinks only); once failed is set, one diagnostic has been reported and
 * every later write returns -1 without reporting again; tmp is non-NULL
 * exactly while a temporary file exists that close or abort must remove
 * or rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/vc_base.h"

#define BUF_SIZE (64 * 1024)
#define CHUNK_MAX (1024UL * 1024 * 1024) /* per write(2) / deflate call */
#define GZIP_LEVEL 6
#define TMP_TRIES 100

enum sink_kind { SINK_FD, SINK_MEM, SINK_CB };

struct vc_sink {
	struct vc_ctx *ctx;
	enum sink_kind kind;
	char *name;   /* as shown in diagnostics */
	char *target; /* rename destination, when tmp is set */
	char *tmp;    /* temporary file, or NULL */
	int fd;
	int own_fd; /* close fd at the end (not standard output) */
	vc_write_fn *fn;
	void *user;
	struct vc_buf mem;
	unsigned char *buf; /* BUF_SIZE + 1: the extra byte takes vsnprintf's NUL */
	size_t len;
	int gzip, zinit;
	z_stream zs;
	unsigned char *zout; /* BUF_SIZE */
	int failed;
};

/* strerror_r comes in two flavours (XSI returns int, GNU returns char *)
 * depending on feature macros the build may set; strerror itself is not
 * guaranteed thread-safe.  _Generic picks the matching reader. */
static inline const char *err_int(int rc, const char *buf)
{
	return rc == 0 ? buf : "unknown error";
}
static inline const char *err_ptr(const char *rc, const char *buf)
{
	(void)buf;
	return rc;
}
/* (clang-format would split "int:" apart: it does not know _Generic) */
/* clang-format off */
#define ERRSTR(e, buf) \
	_Generic(strerror_r((e), (buf), sizeof(buf)), int: err_int, default: err_ptr)( \
		strerror_r((e), (buf), sizeof(buf)), (buf))
/* clang-format on */

static void sink_fail(struct vc_sink *s, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reports the first failure only: one broken disk is one message. */
static void sink_fail(struct vc_sink *s, const char *code, const char *fmt, ...)
{
	if (s->failed)
		return;
	s->failed = 1;
	va_list ap;
	va_start(ap, fmt);
	vc_vemit(s->ctx, VC_SEV_ERROR, code, s->kind == SINK_FD ? s->name : NULL, 0, 0, NULL, fmt,
		 ap);
	va_end(ap);
}

static void write_error(struct vc_sink *s, int err)
{
	char eb[128];
	sink_fail(s, "io-write", "cannot write '%s': %s", s->name, ERRSTR(err, eb));
}

static int write_all(struct vc_sink *s, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(s->fd, p, n < CHUNK_MAX ? n : CHUNK_MAX);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* write(2) returning 0 for a nonzero count means no room */
			write_error(s, w < 0 ? errno : ENOSPC);
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Runs deflate over p[0..n) with the given flush mode, writing each full
 * output buffer; with Z_FINISH it runs until the stream is complete. */
static int deflate_out(struct vc_sink *s, const unsigned char *p, size_t n, int flush)
{
	for (;;) {
		uInt piece = (uInt)(n < CHUNK_MAX ? n : CHUNK_MAX);
		s->zs.next_in = (unsigned char *)p;
		s->zs.avail_in = piece;
		int last = flush == Z_FINISH && piece == n;
		int zr;
		do {
			s->zs.next_out = s->zout;
			s->zs.avail_out = BUF_SIZE;
			zr = deflate(&s->zs, last ? Z_FINISH : Z_NO_FLUSH);
			if (zr == Z_STREAM_ERROR) {
				sink_fail(s, "io-write", "cannot write '%s': compression failed",
					  s->name);
				return -1;
			}
			if (write_all(s, s->zout, BUF_SIZE - s->zs.avail_out) < 0)
				return -1;
		} while (s->zs.avail_out == 0 || (last && zr != Z_STREAM_END));
		n -= piece;
		if (n == 0)
			return 0;
		p += piece; /* not before: p may be NULL when finishing */
	}
}

static int emit(struct vc_sink *s, const unsigned char *p, size_t n)
{
	if (s->gzip)
		return n > 0 ? deflate_out(s, p, n, Z_NO_FLUSH) : 0;
	return write_all(s, p, n);
}

static int flush_buf(struct vc_sink *s)
{
	size_t n = s->len;
	s->len = 0;
	return emit(s, s->buf, n);
}

static struct vc_sink *sink_new(struct vc_ctx *ctx, enum sink_kind kind)
{
	struct vc_sink *s = vc_calloc(1, sizeof *s);
	if (!s) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", NULL, 0, 0, NULL,
			"cannot open an output: out of memory");
		return NULL;
	}
	s->ctx = ctx;
	s->kind = kind;
	s->fd = -1;
	vc_buf_init(&s->mem);
	return s;
}

static void sink_free(struct vc_sink *s)
{
	if (s->zinit)
		deflateEnd(&s->zs);
	vc_buf_free(&s->mem);
	free(s->buf);
	free(s->zout);
	free(s->tmp);
	free(s->target);
	free(s->name);
	free(s);
}

/* Creates "<target>.tmpXXXXXX" with O_EXCL.  Not mkstemp: that makes the
 * file 0600, and the rename would then leave every output private; here
 * the mode is 0666 less the umask, as for any new file. */
static int open_temp(struct vc_sink *s)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t n = strlen(s->target);
	s->tmp = malloc(n + sizeof ".tmpXXXXXX");
	if (!s->tmp) {
		errno = ENOMEM;
		return -1;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
		     ((uint64_t)getpid() << 12) ^ (uint64_t)(uintptr_t)s;
	x |= 1;
	memcpy(s->tmp, s->target, n);
	memcpy(s->tmp + n, ".tmp", 4);
	for (int t = 0; t < TMP_TRIES; t++) {
		for (int i = 0; i < 6; i++) {
			x ^= x << 13; /* xorshift64 */
			x ^= x >> 7;
			x ^= x << 17;
			s->tmp[n + 4 + i] = set[x % (sizeof set - 1)];
		}
		s->tmp[n + 10] = '\0';
		int fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	int err = errno;
	free(s->tmp);
	s->tmp = NULL;
	errno = err;
	return -1;
}

static int open_file(struct vc_sink *s, const char *path)
{
	struct stat st, lst;
	int exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		s->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (s->fd < 0)
			return -1;
		s->own_fd = 1;
		return 0;
	}
	/* A symbolic link to a file: replace the file it points to and keep
	 * the link, rather than put a plain file in the link's place. */
	if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		s->target = realpath(path, NULL);
	else
		s->target = vc_strdup(path);
	if (!s->target)
		return -1;
	s->fd = open_temp(s);
	if (s->fd < 0)
		return -1;
	s->own_fd = 1;
	/* replacing a file keeps its permissions */
	if (exists)
		(void)fchmod(s->fd, st.st_mode & 07777);
	return 0;
}

struct vc_sink *vc_sink_open(struct vc_ctx *ctx, const char *path, int gzip)
{
	struct vc_sink *s = sink_new(ctx, SINK_FD);
	if (!s)
		return NULL;
	if (!path)
		path = "-";
	/* /dev/stdout goes to the same descriptor as "-": reopening it would
	 * truncate or, if it leads to a regular file, try to replace it. */
	int out = strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
	s->name = vc_strdup(strcmp(path, "-") == 0 ? "<stdout>" : path);
	s->buf = malloc(BUF_SIZE + 1);
	if (gzip)
		s->zout = malloc(BUF_SIZE);
	if (!s->name || !s->buf || (gzip && !s->zout)) {
		vc_emit(ctx, VC_SEV_ERROR, "oom", path, 0, 0, NULL,
			"cannot open '%s': out of memory", path);
		goto fail;
	}
	if (out) {
		s->fd = STDOUT_FILENO;
	} else if (open_file(s, path) < 0) {
		char eb[128];
		vc_emit(ctx, VC_SEV_ERROR, "io-open", s->name, 0, 0, NULL, "cannot create '%s': %s",
			s->name, ERRSTR(errno, eb));
		goto fail;
	}
	if (gzip) {
		/* 16 + MAX_WBITS: a gzip header and trailer around the data */
		if (deflateInit2(&s->zs, GZIP_LEVEL, Z_DEFLATED, 16 + MAX_WBITS, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK) {
			vc_emit(ctx, VC_SEV_ERROR, "oom", s->name, 0, 0, NULL,
				"cannot open '%s': out of memory", s->name);
			goto fail;
		}
		s->zinit = 1;
		s->gzip = 1;
	}
	return s;
fail:
	vc_sink_abort(s);
	return NULL;
}

struct vc_sink *vc_sink_mem(struct vc_ctx *ctx)
{
	return sink_new(ctx, SINK_MEM);
}

int vc_sink_mem_reset(struct vc_sink *s, size_t keep)
{
	if (!s || s->kind != SINK_MEM || s->failed || s->mem.oom)
		return -1;
	if (s->mem.cap > keep)
		vc_buf_free(&s->mem); /* and empty, as vc_buf_init leaves it */
	else
		vc_buf_reset(&s->mem);
	return 0;
}

struct vc_sink *vc_sink_callback(struct vc_ctx *ctx, vc_write_fn *fn, void *user)
{
	struct vc_sink *s = sink_new(ctx, SINK_CB);
	if (s) {
		s->fn = fn;
		s->user = user;
	}
	return s;
}

int vc_sink_write(struct vc_sink *s, const void *data, size_t len)
{
	if (!s || s->failed)
		return -1;
	if (len == 0)
		return 0;
	switch (s->kind) {
	case SINK_MEM:
		if (vc_buf_add(&s->mem, data, len) < 0) {
			sink_fail(s, "oom", "cannot keep the output in memory: out of memory");
			return -1;
		}
		return 0;
	case SINK_CB:
		if (!s->fn || s->fn(s->user, data, len) != 0) {
			sink_fail(s, "io-write",
				  "cannot write the output: the write callback failed");
			return -1;
		}
		return 0;
	case SINK_FD:
		break;
	}
	if (len <= BUF_SIZE - s->len) {
		memcpy(s->buf + s->len, data, len);
		s->len += len;
		return 0;
	}
	if (flush_buf(s) < 0)
		return -1;
	if (len >= BUF_SIZE)
		return emit(s, data, len); /* no use copying it through buf */
	memcpy(s->buf, data, len);
	s->len = len;
	return 0;
}

int vc_sink_puts(struct vc_sink *s, const char *str)
{
	return vc_sink_write(s, str, str ? strlen(str) : 0);
}

int vc_sink_printf(struct vc_sink *s, const char *fmt, ...)
{
	if (!s || s->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	if (s->kind == SINK_MEM) {
		int rc = vc_buf_vprintf(&s->mem, fmt, ap);
		va_end(ap);
		if (rc < 0)
			sink_fail(s, "oom", "cannot keep the output in memory: out of memory");
		return rc;
	}
	va_list ap2;
	va_copy(ap2, ap);
	int n;
	if (s->kind == SINK_FD) {
		/* Format straight into the buffer when it fits, the common case
		 * for renderers that print a few bytes at a time. */
		n = vsnprintf((char *)s->buf + s->len, BUF_SIZE - s->len + 1, fmt, ap);
		if (n >= 0 && (size_t)n <= BUF_SIZE - s->len) {
			s->len += (size_t)n;
			va_end(ap2);
			va_end(ap);
			return 0;
		}
	} else {
		char probe[1];
		n = vsnprintf(probe, sizeof probe, fmt, ap);
	}
	va_end(ap);
	int rc = -1;
	char small[1024];
	char *p = small;
	if (n >= 0 && (size_t)n >= sizeof small)
		p = malloc((size_t)n + 1);
	if (n < 0) {
		sink_fail(s, "io-write", "cannot write '%s': bad output format",
			  s->name ? s->name : "<output>");
	} else if (!p) {
		sink_fail(s, "oom", "cannot format the output: out of memory");
	} else {
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
		rc = vc_sink_write(s, p, (size_t)n);
	}
	va_end(ap2);
	if (p != small)
		free(p);
	return rc;
}

const char *vc_sink_data(const struct vc_sink *s, size_t *len)
{
	if (!s || s->kind != SINK_MEM) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = s->mem.len;
	return s->mem.p ? s->mem.p : "";
}

int vc_sink_failed(const struct vc_sink *s)
{
	return s ? s->failed : 1;
}

vc_status vc_sink_close(struct vc_sink *s)
{
	if (!s)
		return VC_OK;
	if (s->kind == SINK_FD && !s->failed) {
		if (flush_buf(s) == 0 && s->gzip)
			deflate_out(s, NULL, 0, Z_FINISH);
	}
	if (s->own_fd) {
		/* some file systems (NFS) report write errors only at close */
		if (close(s->fd) < 0 && errno != EINTR)
			write_error(s, errno);
		s->own_fd = 0;
	}
	if (s->tmp && !s->failed) {
		if (rename(s->tmp, s->target) == 0) {
			free(s->tmp);
			s->tmp = NULL;
		} else {
			char eb[128];
			sink_fail(s, "io-write", "cannot rename '%s' to '%s': %s", s->tmp, s->name,
				  ERRSTR(errno, eb));
		}
	}
	vc_status st = s->failed ? VC_FATAL : VC_OK;
	vc_sink_abort(s); /* removes the temporary file if it is still there */
	return st;
}

void vc_sink_abort(struct vc_sink *s)
{
	if (!s)
		return;
	if (s->own_fd)
		close(s->fd);
	if (s->tmp)
		unlink(s->tmp);
	sink_free(s);
}
