/*
 * input.c - byte inputs: a file, standard input or memory, plain or gzip.
 *
 * Model: an input is a source (a file descriptor or a memory block) and an
 * optional gzip decoder in front of it.  Gzip is chosen by the first two
 * bytes (1f 8b), never by the name, so the first bytes are read when the
 * input is opened and kept in the raw buffer.  Plain file data then goes
 * straight from read(2) into the caller's buffer: no copy, no stdio.  Gzip
 * data is inflated from the raw buffer into the caller's buffer; members
 * follow each other as gzip(1) reads them, and bytes after the last member
 * that do not start another one are ignored with a warning, as gzip(1) does.
 *
 * A gzip file (or standard input) is inflated ahead of the reader by a
 * thread of its own when more than one processor is online: inflating is a
 * third of the time of reading and validating an archive, and on another
 * core it costs the reader next to nothing.  The thread fills a ring of
 * PIPE_BLOCKS blocks of PIPE_BLOCK bytes (the memory stays bounded) and
 * keeps what it would report (a truncated file, a bomb, trailing garbage)
 * until the reader has taken every byte before it: the reader then reports
 * it, in its own thread, exactly where the single-threaded path would.
 *
 * Two inflaters do the work: ISA-L's igzip (built in when the build finds
 * libisal, see the Makefile), three to four times as fast as zlib's on
 * chess archives, and zlib's, the fallback, which a context may also ask
 * for (vc_ctx_set_inflater).  zlib's z_stream keeps the unread input for
 * both, ISA-L's state being given it for each call; both check the gzip
 * header and trailer, and they differ only in the words of an "invalid
 * gzip data" reason.  igzip keeps back the last bytes it decoded until
 * more input comes, so at a cut (a truncated file) it would give fewer
 * bytes than zlib: there the member is decoded again from its start by
 * zlib, the bytes already given skipped, and every byte before the cut
 * comes out as with zlib alone.  That needs a source that can be read
 * again (a regular file, memory): a pipe is inflated by zlib.
 *
 * Invariants: zs.next_in/zs.avail_in are the unread compressed bytes (in
 * raw[] for a file, in mem[] for memory); once failed is set every read
 * returns -1 and nothing is reported again; once at_end is set every read
 * returns 0.  The bomb guard compares all bytes produced with all
 * compressed bytes consumed, across members, so splitting a bomb into
 * many members does not hide it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef VC_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "base/vc_base.h"

#define RAW_SIZE (256 * 1024)
/* zlib counts in uInt and read(2) in ssize_t: hand out at most this much
 * per call, which also keeps the result within a long. */
#define CHUNK_MAX (1024UL * 1024 * 1024)
#define BOMB_FLOOR ((uint64_t)64 * 1024 * 1024)
#define DEFAULT_RATIO 1000
#define PIPE_BLOCK (128 * 1024)
#define PIPE_BLOCKS 4
#define DEFERRED_MAX 4

/* the inflating thread and its ring of blocks (see above) */
struct gzpipe {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv; /* any change: a block filled or freed, the end, stop */
	unsigned char *blk[PIPE_BLOCKS];
	size_t len[PIPE_BLOCKS];
	int head, tail, count; /* blocks filled, oldest at tail */
	size_t pos;            /* the reader's place in blk[tail] */
	int done;              /* the thread has finished: final is its last result */
	long final;
	int stop; /* the reader closes */
};

struct vc_input {
	struct vc_ctx *ctx;
	char *name;               /* as shown in diagnostics */
	int fd;                   /* -1 for memory */
	int own_fd;               /* close fd at the end (not for stdin) */
	const unsigned char *mem; /* memory source, not owned */
	size_t mem_len, mem_pos;  /* mem_pos: plain reads only */
	unsigned char *raw;       /* file: bytes read but not yet used */
	size_t raw_pos, raw_len;
	int src_eof; /* the source has no more bytes */
	int gzip;
	int zinit;       /* zs needs inflateEnd */
	int member_done; /* the last inflate ended a member */
	z_stream zs;
#ifdef VC_HAVE_ISAL
	struct inflate_state *isal; /* NULL: zlib inflates */
	const char *isal_why;       /* why its data is invalid */
	int isal_hdr;               /* a member starts: its header not yet seen */
#endif
	int seekable;          /* the source can be read again from an offset */
	uint64_t src_base;     /* a file's offset when opened */
	uint64_t src_read;     /* bytes read from the file since */
	uint64_t member_off;   /* the current member's first byte in the source */
	uint64_t member_tin;   /* total_in and total_out when it started */
	uint64_t member_tout;
	uint64_t total_in, total_out;
	size_t max_ratio;
	int failed, at_end;
	uint64_t size; /* a regular file's size, for vc_ctx_progress; 0 otherwise */
	/* with a pipe: what the thread would have reported, in order */
	struct gzpipe *pipe;
	int defer;
	struct {
		enum vc_severity sev;
		char code[24];
		char msg[320];
	} dq[DEFERRED_MAX];
	int ndq;
};

/* Reports now, or keeps the report for the reader while a thread inflates. */
static void input_vemit(struct vc_input *in, enum vc_severity sev, const char *code,
			const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
static void input_vemit(struct vc_input *in, enum vc_severity sev, const char *code,
			const char *fmt, va_list ap)
{
	if (!in->defer) {
		vc_vemit(in->ctx, sev, code, in->name, 0, 0, NULL, fmt, ap);
		return;
	}
	if (in->ndq == DEFERRED_MAX)
		return; /* (one error ends the input: never this many) */
	in->dq[in->ndq].sev = sev;
	snprintf(in->dq[in->ndq].code, sizeof in->dq[in->ndq].code, "%s", code);
	vsnprintf(in->dq[in->ndq].msg, sizeof in->dq[in->ndq].msg, fmt, ap);
	in->ndq++;
}

static void pipe_start(struct vc_input *in);
static void input_warn(struct vc_input *in, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void input_warn(struct vc_input *in, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	input_vemit(in, VC_SEV_WARNING, code, fmt, ap);
	va_end(ap);
}

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

static void input_error(struct vc_input *in, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void input_error(struct vc_input *in, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	input_vemit(in, VC_SEV_ERROR, code, fmt, ap);
	va_end(ap);
	in->failed = 1;
}

static void read_error(struct vc_input *in, int err)
{
	char eb[128];
	input_error(in, "io-read", "cannot read '%s': %s", in->name, ERRSTR(err, eb));
}

/* read(2) that retries on EINTR; n is at most CHUNK_MAX. */
static long read_fd(struct vc_input *in, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(in->fd, buf, n);
		if (r >= 0) {
			in->src_read += (uint64_t)r;
			return (long)r;
		}
		if (errno != EINTR) {
			read_error(in, errno);
			return -1;
		}
	}
}

/* File sources: moves the unused bytes to the front of raw[] and reads
 * more after them.  Returns -1 on a read error, else 0 (src_eof is set
 * when the source is done). */
static int fill_raw(struct vc_input *in)
{
	if (in->raw_pos > 0) {
		memmove(in->raw, in->raw + in->raw_pos, in->raw_len - in->raw_pos);
		in->raw_len -= in->raw_pos;
		in->raw_pos = 0;
	}
	if (in->raw_len == RAW_SIZE || in->src_eof)
		return 0;
	long r = read_fd(in, in->raw + in->raw_len, RAW_SIZE - in->raw_len);
	if (r < 0)
		return -1;
	if (r == 0)
		in->src_eof = 1;
	in->raw_len += (size_t)r;
	return 0;
}

static struct vc_input *input_new(struct vc_ctx *ctx, const char *name, size_t max_ratio)
{
	struct vc_input *in = vc_calloc(1, sizeof *in);
	if (!in)
		goto oom;
	in->ctx = ctx;
	in->fd = -1;
	in->max_ratio = max_ratio ? max_ratio : DEFAULT_RATIO;
	in->name = vc_strdup(name);
	if (!in->name)
		goto oom;
	return in;
oom:
	free(in);
	vc_emit(ctx, VC_SEV_ERROR, "oom", name, 0, 0, NULL, "cannot read '%s': out of memory",
		name);
	return NULL;
}

/* Compressed bytes for zlib: the file's raw[] or the memory block. */
static int feed(struct vc_input *in)
{
	if (in->fd < 0) {
		/* memory: offer the rest in pieces zlib can count */
		size_t off = in->zs.next_in ? (size_t)(in->zs.next_in - in->mem) : 0;
		size_t left = in->mem_len - off;
		in->zs.next_in = (unsigned char *)(in->mem + off);
		in->zs.avail_in = (uInt)(left < CHUNK_MAX ? left : CHUNK_MAX);
		in->src_eof = left <= CHUNK_MAX;
		return 0;
	}
	in->raw_pos = in->raw_len - in->zs.avail_in;
	if (fill_raw(in) < 0)
		return -1;
	in->zs.next_in = in->raw + in->raw_pos;
	in->zs.avail_in = (uInt)(in->raw_len - in->raw_pos);
	return 0;
}

/* A member starts at zs.next_in: where, and the totals then. */
static void member_start(struct vc_input *in)
{
	in->member_off = in->fd < 0 ? (uint64_t)(in->zs.next_in - in->mem)
				    : in->src_read - in->zs.avail_in;
	in->member_tin = in->total_in;
	in->member_tout = in->total_out;
}

static int start_gzip(struct vc_input *in)
{
	in->gzip = 1;
#ifdef VC_HAVE_ISAL
	if (vc_ctx_inflater(in->ctx) != VC_INFLATE_ZLIB && in->seekable) {
		in->isal = malloc(sizeof *in->isal);
		if (!in->isal) {
			input_error(in, "oom", "cannot read '%s': out of memory", in->name);
			return -1;
		}
		isal_inflate_init(in->isal);
		in->isal->crc_flag = ISAL_GZIP; /* header, CRC and length checked */
		in->isal_hdr = 1;
	}
	if (!in->isal) {
#endif
		/* 16 + MAX_WBITS: gzip wrapper only, with its header and CRC checked */
		if (inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK) {
			input_error(in, "oom", "cannot read '%s': out of memory", in->name);
			return -1;
		}
		in->zinit = 1;
#ifdef VC_HAVE_ISAL
	}
#endif
	if (in->fd < 0) {
		in->zs.next_in = NULL;
		if (feed(in) < 0)
			return -1;
	} else {
		in->zs.next_in = in->raw + in->raw_pos;
		in->zs.avail_in = (uInt)(in->raw_len - in->raw_pos);
	}
	member_start(in);
	return 0;
}

static int is_magic(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

struct vc_input *vc_input_open(struct vc_ctx *ctx, const char *path, size_t max_ratio)
{
	if (!path)
		path = "-";
	int is_stdin = strcmp(path, "-") == 0;
	struct vc_input *in = input_new(ctx, is_stdin ? "<stdin>" : path, max_ratio);
	if (!in)
		return NULL;
	in->raw = malloc(RAW_SIZE);
	if (!in->raw) {
		input_error(in, "oom", "cannot read '%s': out of memory", in->name);
		goto fail;
	}
	if (is_stdin) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			char eb[128];
			input_error(in, "io-open", "cannot open '%s': %s", in->name,
				    ERRSTR(errno, eb));
			goto fail;
		}
		in->own_fd = 1;
#if defined(POSIX_FADV_SEQUENTIAL)
		(void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	}
	struct stat sb;
	if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		off_t at = lseek(in->fd, 0, SEEK_CUR);
		in->seekable = at >= 0;
		in->src_base = at >= 0 ? (uint64_t)at : 0;
		if (vc_ctx_wants_progress(ctx))
			in->size = (uint64_t)sb.st_size;
	}
	/* A pipe may deliver a single byte first: read until the magic can be
	 * judged. */
	while (in->raw_len < 2 && !in->src_eof)
		if (fill_raw(in) < 0)
			goto fail;
	if (is_magic(in->raw, in->raw_len)) {
		if (start_gzip(in) < 0)
			goto fail;
		pipe_start(in);
	}
	return in;
fail:
	vc_input_close(in);
	return NULL;
}

struct vc_input *vc_input_mem(struct vc_ctx *ctx, const char *name, const void *data, size_t len,
			      size_t max_ratio)
{
	struct vc_input *in = input_new(ctx, name ? name : "<memory>", max_ratio);
	if (!in)
		return NULL;
	in->mem = data;
	in->mem_len = data ? len : 0;
	in->seekable = 1;
	if (is_magic(in->mem, in->mem_len) && start_gzip(in) < 0) {
		vc_input_close(in);
		return NULL;
	}
	return in;
}

static long plain_read(struct vc_input *in, unsigned char *out, size_t n)
{
	if (in->fd < 0) {
		size_t left = in->mem_len - in->mem_pos;
		if (n > left)
			n = left;
		if (n > 0)
			memcpy(out, in->mem + in->mem_pos, n);
		in->mem_pos += n;
		return (long)n;
	}
	if (in->raw_pos < in->raw_len) {
		/* the bytes read to look for the magic come first */
		size_t left = in->raw_len - in->raw_pos;
		if (n > left)
			n = left;
		memcpy(out, in->raw + in->raw_pos, n);
		in->raw_pos += n;
		return (long)n;
	}
	if (in->src_eof)
		return 0;
	long r = read_fd(in, out, n);
	if (r == 0)
		in->src_eof = 1;
	return r;
}

/* Once a member ended: starts the next one if its magic follows, ends the
 * stream if nothing follows, and ignores (with a warning) anything else.
 * Returns 1 if a member was started, 0 at the end, -1 on error. */
static int next_member(struct vc_input *in)
{
	while (in->zs.avail_in < 2 && !in->src_eof)
		if (feed(in) < 0)
			return -1;
	if (in->zs.avail_in == 0)
		return 0;
	if (!is_magic(in->zs.next_in, in->zs.avail_in)) {
		input_warn(in, "gzip-trailing", "trailing garbage after gzip data ignored");
		return 0;
	}
#ifdef VC_HAVE_ISAL
	if (in->isal) {
		isal_inflate_reset(in->isal);
		in->isal->crc_flag = ISAL_GZIP;
		in->isal_hdr = 1;
		in->member_done = 0;
		member_start(in);
		return 1;
	}
#endif
	if (inflateReset(&in->zs) != Z_OK) {
		input_error(in, "gzip-invalid", "invalid gzip data: %s",
			    in->zs.msg ? in->zs.msg : "cannot reset the decoder");
		return -1;
	}
	in->member_done = 0;
	member_start(in);
	return 1;
}

static int bomb(const struct vc_input *in)
{
	if (in->total_out <= BOMB_FLOOR)
		return 0;
	if (in->total_in > UINT64_MAX / in->max_ratio)
		return 0;
	return in->total_out > in->total_in * in->max_ratio;
}

#ifdef VC_HAVE_ISAL
/* ISA-L's inflate on zs's buffers, its outcome told in zlib's terms; the
 * reason of invalid data goes in isal_why, in zlib's words where there
 * are such. */
static int isal_some(struct vc_input *in)
{
	struct inflate_state *st = in->isal;
	if (in->isal_hdr) {
		/* ISA-L does not check the reserved flags, zlib does: here too */
		while (in->zs.avail_in < 4 && !in->src_eof)
			if (feed(in) < 0)
				return Z_ERRNO; /* (reported) */
		if (in->zs.avail_in >= 4 && in->zs.next_in[2] != 8) {
			in->isal_why = "unknown compression method";
			return Z_DATA_ERROR;
		}
		if (in->zs.avail_in >= 4 && (in->zs.next_in[3] & 0xe0)) {
			in->isal_why = "unknown header flags set";
			return Z_DATA_ERROR;
		}
		in->isal_hdr = 0;
	}
	st->next_in = in->zs.next_in;
	st->avail_in = in->zs.avail_in;
	st->next_out = in->zs.next_out;
	st->avail_out = in->zs.avail_out;
	int r = isal_inflate(st);
	int moved = st->avail_in != in->zs.avail_in || st->avail_out != in->zs.avail_out;
	in->zs.next_in = st->next_in;
	in->zs.avail_in = st->avail_in;
	in->zs.next_out = st->next_out;
	in->zs.avail_out = st->avail_out;
	switch (r) {
	case ISAL_DECOMP_OK:
		break;
	case ISAL_INVALID_WRAPPER:
		in->isal_why = "incorrect header check";
		return Z_DATA_ERROR;
	case ISAL_UNSUPPORTED_METHOD:
		in->isal_why = "unknown compression method";
		return Z_DATA_ERROR;
	case ISAL_INCORRECT_CHECKSUM:
		in->isal_why = "incorrect data check";
		return Z_DATA_ERROR;
	case ISAL_INVALID_LOOKBACK:
		in->isal_why = "invalid distance too far back";
		return Z_DATA_ERROR;
	case ISAL_INVALID_SYMBOL:
		in->isal_why = "invalid code";
		return Z_DATA_ERROR;
	default:
		in->isal_why = "invalid block";
		return Z_DATA_ERROR;
	}
	if (st->block_state == ISAL_BLOCK_FINISH)
		return Z_STREAM_END;
	return moved ? Z_OK : Z_BUF_ERROR;
}
#endif

static int inflate_some(struct vc_input *in)
{
#ifdef VC_HAVE_ISAL
	if (in->isal)
		return isal_some(in);
#endif
	return inflate(&in->zs, Z_NO_FLUSH);
}

static const char *why_invalid(const struct vc_input *in)
{
#ifdef VC_HAVE_ISAL
	if (in->isal)
		return in->isal_why ? in->isal_why : "unknown error";
#endif
	return in->zs.msg ? in->zs.msg : "unknown error";
}

#ifdef VC_HAVE_ISAL
/* At a cut under igzip: zlib decodes the member again from its start and
 * skips the bytes already given (see the top of the file).  Returns 0 to
 * go on with zlib, -1 on an error (reported). */
static int cut_to_zlib(struct vc_input *in)
{
	uint64_t skip = in->total_out - in->member_tout;
	free(in->isal);
	in->isal = NULL;
	if (inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK) {
		input_error(in, "oom", "cannot read '%s': out of memory", in->name);
		return -1;
	}
	in->zinit = 1;
	in->total_in = in->member_tin;
	if (in->fd < 0) {
		in->zs.next_in = (unsigned char *)(in->mem + in->member_off);
	} else {
		if (lseek(in->fd, (off_t)(in->src_base + in->member_off), SEEK_SET) < 0) {
			read_error(in, errno);
			return -1;
		}
		in->src_read = in->member_off;
		in->raw_pos = in->raw_len = 0;
		in->src_eof = 0;
	}
	in->zs.avail_in = 0;
	if (feed(in) < 0)
		return -1;
	unsigned char scratch[16384];
	while (skip > 0) {
		in->zs.next_out = scratch;
		in->zs.avail_out = (uInt)(skip < sizeof scratch ? skip : sizeof scratch);
		uInt want = in->zs.avail_out, before = in->zs.avail_in;
		if (before == 0 && !in->src_eof && feed(in) < 0)
			return -1;
		before = in->zs.avail_in;
		int zr = inflate(&in->zs, Z_NO_FLUSH);
		in->total_in += before - in->zs.avail_in;
		skip -= want - in->zs.avail_out;
		if (zr != Z_OK && skip > 0)
			break; /* (cannot be: igzip gave these bytes) the loop reports */
	}
	return 0;
}
#endif

static long gzip_read(struct vc_input *in, unsigned char *out, size_t n)
{
	in->zs.next_out = out;
	in->zs.avail_out = (uInt)n;
	while (in->zs.avail_out == n) {
		if (in->member_done) {
			int r = next_member(in);
			if (r < 0)
				return -1;
			if (r == 0) {
				in->at_end = 1;
				break;
			}
		}
		if (in->zs.avail_in == 0 && !in->src_eof && feed(in) < 0)
			return -1;
		uInt before = in->zs.avail_in;
		int zr = inflate_some(in);
		in->total_in += before - in->zs.avail_in;
		switch (zr) {
		case Z_STREAM_END:
			in->member_done = 1;
			break;
		case Z_OK:
			break;
		case Z_BUF_ERROR:
			/* no progress: only possible when the input ran out */
			if (in->zs.avail_in == 0 && in->src_eof) {
#ifdef VC_HAVE_ISAL
				if (in->isal) {
					if (cut_to_zlib(in) < 0)
						return -1;
					in->zs.next_out = out;
					in->zs.avail_out = (uInt)n;
					break;
				}
#endif
				input_error(in, "gzip-truncated", "truncated gzip data");
				return -1;
			}
			break;
		case Z_MEM_ERROR:
			input_error(in, "oom", "cannot read '%s': out of memory", in->name);
			return -1;
		case Z_ERRNO: /* a read error, reported */
			return -1;
		default:
			input_error(in, "gzip-invalid", "invalid gzip data: %s", why_invalid(in));
			return -1;
		}
	}
	size_t got = n - in->zs.avail_out;
	in->total_out += got;
	if (bomb(in)) {
		input_error(
			in, "gzip-bomb",
			"gzip data expands more than %zu times: refused as a possible gzip bomb",
			in->max_ratio);
		return -1;
	}
	return (long)got;
}

static long direct_read(struct vc_input *in, void *buf, size_t n)
{
	if (in->failed)
		return -1;
	if (in->at_end || n == 0)
		return 0;
	if (n > CHUNK_MAX)
		n = CHUNK_MAX;
	return in->gzip ? gzip_read(in, buf, n) : plain_read(in, buf, n);
}

static void *pipe_main(void *arg)
{
	struct vc_input *in = arg;
	struct gzpipe *gp = in->pipe;
	long r = 0;
	pthread_mutex_lock(&gp->mu);
	for (;;) {
		while (gp->count == PIPE_BLOCKS && !gp->stop)
			pthread_cond_wait(&gp->cv, &gp->mu);
		if (gp->stop)
			break;
		int h = gp->head;
		pthread_mutex_unlock(&gp->mu);
		r = direct_read(in, gp->blk[h], PIPE_BLOCK);
		pthread_mutex_lock(&gp->mu);
		if (r <= 0)
			break;
		gp->len[h] = (size_t)r;
		gp->head = (h + 1) % PIPE_BLOCKS;
		gp->count++;
		pthread_cond_broadcast(&gp->cv);
	}
	gp->done = 1;
	gp->final = r < 0 ? -1 : 0;
	pthread_cond_broadcast(&gp->cv);
	pthread_mutex_unlock(&gp->mu);
	return NULL;
}

static void pipe_free(struct gzpipe *gp)
{
	for (int i = 0; i < PIPE_BLOCKS; i++)
		free(gp->blk[i]);
	free(gp);
}

/* Starts the inflating thread; without one (one processor, no memory, no
 * thread) the input is simply read in the caller's thread. */
static void pipe_start(struct vc_input *in)
{
	if (vc_cpu_count() < 2)
		return;
	struct gzpipe *gp = calloc(1, sizeof *gp);
	if (!gp)
		return;
	for (int i = 0; i < PIPE_BLOCKS; i++)
		if (!(gp->blk[i] = malloc(PIPE_BLOCK))) {
			pipe_free(gp);
			return;
		}
	if (pthread_mutex_init(&gp->mu, NULL) != 0) {
		pipe_free(gp);
		return;
	}
	if (pthread_cond_init(&gp->cv, NULL) != 0) {
		pthread_mutex_destroy(&gp->mu);
		pipe_free(gp);
		return;
	}
	in->pipe = gp;
	in->defer = 1;
	if (pthread_create(&gp->th, NULL, pipe_main, in) != 0) {
		in->pipe = NULL;
		in->defer = 0;
		pthread_cond_destroy(&gp->cv);
		pthread_mutex_destroy(&gp->mu);
		pipe_free(gp);
	}
}

static void pipe_stop(struct vc_input *in)
{
	struct gzpipe *gp = in->pipe;
	pthread_mutex_lock(&gp->mu);
	gp->stop = 1;
	pthread_cond_broadcast(&gp->cv);
	pthread_mutex_unlock(&gp->mu);
	pthread_join(gp->th, NULL);
	pthread_cond_destroy(&gp->cv);
	pthread_mutex_destroy(&gp->mu);
	pipe_free(gp);
	in->pipe = NULL;
}

/* The reader's side of the pipe: bytes in order, then the thread's end,
 * with its reports made here and now. */
static long pipe_read(struct vc_input *in, unsigned char *out, size_t n)
{
	struct gzpipe *gp = in->pipe;
	if (n == 0)
		return 0;
	pthread_mutex_lock(&gp->mu);
	while (gp->count == 0 && !gp->done)
		pthread_cond_wait(&gp->cv, &gp->mu);
	if (gp->count > 0) {
		size_t k = gp->len[gp->tail] - gp->pos;
		if (k > n)
			k = n;
		memcpy(out, gp->blk[gp->tail] + gp->pos, k);
		gp->pos += k;
		if (gp->pos == gp->len[gp->tail]) {
			gp->pos = 0;
			gp->tail = (gp->tail + 1) % PIPE_BLOCKS;
			gp->count--;
			pthread_cond_broadcast(&gp->cv);
		}
		pthread_mutex_unlock(&gp->mu);
		return (long)k;
	}
	long final = gp->final;
	pthread_mutex_unlock(&gp->mu);
	/* the thread is done: its reports, then its state is the reader's */
	pipe_stop(in);
	in->defer = 0;
	for (int i = 0; i < in->ndq; i++)
		vc_emit(in->ctx, in->dq[i].sev, in->dq[i].code, in->name, 0, 0, NULL, "%s",
			in->dq[i].msg);
	in->ndq = 0;
	if (final < 0)
		in->failed = 1;
	else
		in->at_end = 1;
	return final;
}

long vc_input_read(struct vc_input *in, void *buf, size_t n)
{
	if (!in)
		return -1;
	long k = in->pipe ? pipe_read(in, buf, n) : direct_read(in, buf, n);
	if (in->size) {
		/* the file's offset is the kernel's: right even while a thread
		 * reads it ahead to inflate it */
		off_t at = lseek(in->fd, 0, SEEK_CUR);
		if (at >= 0)
			vc_ctx_progress(in->ctx, in->name, (uint64_t)at, in->size);
	}
	return k;
}

struct vc_ctx *vc_input_swap_ctx(struct vc_input *in, struct vc_ctx *ctx)
{
	struct vc_ctx *old = in->ctx;
	in->ctx = ctx;
	return old;
}

const char *vc_input_name(const struct vc_input *in)
{
	return in ? in->name : "";
}

int vc_input_is_gzip(const struct vc_input *in)
{
	return in ? in->gzip : 0;
}

void vc_input_close(struct vc_input *in)
{
	if (!in)
		return;
	if (in->pipe)
		pipe_stop(in); /* what it kept for the reader is not reported */
	if (in->zinit)
		inflateEnd(&in->zs);
#ifdef VC_HAVE_ISAL
	free(in->isal);
#endif
	if (in->own_fd)
		close(in->fd);
	free(in->raw);
	free(in->name);
	free(in);
}

char *vc_read_all(struct vc_ctx *ctx, const char *path, size_t *len)
{
	if (len)
		*len = 0;
	struct vc_input *in = vc_input_open(ctx, path, 0);
	if (!in)
		return NULL;
	struct vc_buf b;
	vc_buf_init(&b);
	/* read straight into the buffer's free tail */
	for (;;) {
		if (vc_buf_reserve(&b, RAW_SIZE) < 0) {
			vc_emit(ctx, VC_SEV_ERROR, "oom", in->name, 0, 0, NULL,
				"cannot read '%s': out of memory", in->name);
			goto fail;
		}
		long r = vc_input_read(in, b.p + b.len, b.cap - b.len - 1);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		b.len += (size_t)r;
	}
	b.p[b.len] = '\0';
	vc_input_close(in);
	if (len)
		*len = b.len;
	return vc_buf_take(&b);
fail:
	vc_buf_free(&b);
	vc_input_close(in);
	return NULL;
}
