/*
 * t_base.c - unit tests of layer 1: buffers, the diagnostics context, byte
 * inputs (plain, gzip, concatenated, truncated, corrupt, bombs) and output
 * sinks (file with temporary and rename, gzip, devices, FIFOs, memory,
 * callbacks).  Gzip data is made here with zlib, so no fixture files.
 * The gzip tests run with the library's default inflater (ISA-L's when it
 * was built with it) and again with zlib's, and the two are compared on
 * damaged data.
 * Each test works in its own temporary directory, removed at its end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zlib.h>

#include "base/vc_base.h"
#include "vt.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* The inflater of the contexts ctx_seen makes. */
static enum vc_inflater inflater = VC_INFLATE_AUTO;

/* Every diagnostic the callback saw, the last one in full. */
struct seen {
	int n;
	enum vc_severity sev;
	char code[64], file[256], context[256];
	long line, col;
	struct vc_buf msg;
	char codes[512]; /* all codes, space-separated */
};

static void collect(const struct vc_diag *d, void *user)
{
	struct seen *s = user;
	s->n++;
	s->sev = d->severity;
	snprintf(s->code, sizeof s->code, "%s", d->code ? d->code : "(null)");
	snprintf(s->file, sizeof s->file, "%s", d->file ? d->file : "(null)");
	snprintf(s->context, sizeof s->context, "%s", d->context ? d->context : "(null)");
	s->line = d->line;
	s->col = d->col;
	vc_buf_reset(&s->msg);
	vc_buf_adds(&s->msg, d->message);
	size_t used = strlen(s->codes);
	snprintf(s->codes + used, sizeof s->codes - used, "%s%s", used ? " " : "",
		 d->code ? d->code : "(null)");
}

static struct vc_ctx *ctx_seen(struct seen *s)
{
	memset(s, 0, sizeof *s);
	vc_buf_init(&s->msg);
	struct vc_ctx *ctx = vc_ctx_new();
	vc_ctx_set_diag(ctx, collect, s);
	vc_ctx_set_inflater(ctx, inflater);
	return ctx;
}

static void seen_done(struct vc_ctx *ctx, struct seen *s)
{
	vc_ctx_free(ctx);
	vc_buf_free(&s->msg);
}

static char tmpdir[64];

static void dir_make(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/t_base.XXXXXX");
	if (!mkdtemp(tmpdir))
		VT_FAIL_AT(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
}

/* A path in the temporary directory; eight in turn stay valid. */
static const char *tpath(const char *name)
{
	static char p[8][sizeof tmpdir + 1 + 256];
	static int next;
	char *q = p[next++ % 8];
	snprintf(q, sizeof p[0], "%s/%s", tmpdir, name);
	return q;
}

/* Number of entries in the temporary directory (temporaries left behind
 * show up here). */
static int dir_count(void)
{
	DIR *d = opendir(tmpdir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void dir_remove(void)
{
	DIR *d = opendir(tmpdir);
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				unlink(tpath(e->d_name));
		}
		closedir(d);
	}
	rmdir(tmpdir);
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	int rc = write(fd, data, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	return rc;
}

/* Bytes with no long runs, so compression and chunk boundaries matter. */
static unsigned char *pattern(size_t len)
{
	unsigned char *p = malloc(len);
	uint32_t x = 12345;
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (unsigned char)((x >> 16) % 7 == 0 ? '\n' : 'a' + (x >> 20) % 26);
	}
	return p;
}

/* One gzip member of data, in a malloc'd block. */
static unsigned char *gz(const void *data, size_t len, int level, size_t *outlen)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&zs, len);
	unsigned char *out = malloc(cap);
	zs.next_in = (unsigned char *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	int zr = deflate(&zs, Z_FINISH);
	*outlen = cap - zs.avail_out;
	deflateEnd(&zs);
	if (zr != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

/* Reads an input to its end in pieces of step bytes; returns the bytes
 * (NUL-terminated) or NULL if a read failed; *got is the count read. */
static unsigned char *drain(struct vc_input *in, size_t step, size_t *got)
{
	struct vc_buf b;
	vc_buf_init(&b);
	unsigned char *piece = malloc(step);
	int bad = 0;
	for (;;) {
		long r = vc_input_read(in, piece, step);
		if (r < 0) {
			bad = 1;
			break;
		}
		if (r == 0)
			break;
		vc_buf_add(&b, piece, (size_t)r);
	}
	free(piece);
	*got = b.len;
	if (bad) {
		vc_buf_free(&b);
		return NULL;
	}
	return (unsigned char *)vc_buf_take(&b);
}

/* ---- buffers ---------------------------------------------------------------------------- */

VT_TEST(buf_growth)
{
	struct vc_buf b;
	vc_buf_init(&b);
	VT_EQ_INT(b.len, 0);
	for (int i = 0; i < 100000; i++)
		VT_EQ_INT(vc_buf_addc(&b, 'a' + i % 26), 0);
	VT_EQ_INT(b.len, 100000);
	VT_CHECK(b.cap > b.len);
	VT_EQ_INT(b.p[b.len], '\0');
	VT_EQ_INT(b.p[0], 'a');
	VT_EQ_INT(b.p[99999], 'a' + 99999 % 26);
	VT_EQ_INT(vc_buf_add(&b, "xyz", 3), 0);
	VT_EQ_INT(vc_buf_adds(&b, "!"), 0);
	VT_EQ_INT(b.len, 100004);
	VT_EQ_STR(b.p + 100000, "xyz!");

	size_t cap = b.cap;
	vc_buf_reset(&b);
	VT_EQ_INT(b.len, 0);
	VT_EQ_INT(b.cap, cap);
	VT_EQ_STR(b.p, "");

	vc_buf_adds(&b, "kept");
	char *s = vc_buf_take(&b);
	VT_EQ_STR(s, "kept");
	VT_CHECK(b.p == NULL && b.len == 0 && b.cap == 0);
	free(s);

	/* taking an empty buffer still gives a string */
	s = vc_buf_take(&b);
	VT_EQ_STR(s, "");
	free(s);

	/* adding nothing to a fresh buffer is fine and leaves it empty */
	VT_EQ_INT(vc_buf_add(&b, NULL, 0), 0);
	VT_EQ_INT(b.len, 0);
	vc_buf_free(&b);
}

VT_TEST(buf_printf_long)
{
	struct vc_buf b;
	vc_buf_init(&b);
	VT_EQ_INT(vc_buf_printf(&b, "%d-%s", 42, "x"), 0);
	VT_EQ_STR(b.p, "42-x");

	size_t n = 200000;
	char *big = malloc(n + 1);
	memset(big, 'q', n);
	big[n] = '\0';
	VT_EQ_INT(vc_buf_printf(&b, "[%s]%ld", big, 7L), 0);
	VT_EQ_INT(b.len, 4 + 1 + n + 1 + 1);
	VT_CHECK(memcmp(b.p, "42-x[", 5) == 0);
	VT_CHECK(b.p[5] == 'q' && b.p[5 + n - 1] == 'q');
	VT_EQ_STR(b.p + 5 + n, "]7");
	VT_EQ_INT(strlen(b.p), b.len);

	/* many small printfs across growth boundaries */
	vc_buf_reset(&b);
	for (int i = 0; i < 10000; i++)
		vc_buf_printf(&b, "%04d", i);
	VT_EQ_INT(b.len, 40000);
	VT_CHECK(memcmp(b.p + 4 * 9876, "9876", 4) == 0);
	free(big);
	vc_buf_free(&b);
}

VT_TEST(buf_oom_sticky)
{
	struct vc_buf b;
	vc_buf_init(&b);
	vc_buf_adds(&b, "abc");
	/* a size that cannot be allocated sets the flag instead of aborting */
	VT_EQ_INT(vc_buf_reserve(&b, SIZE_MAX - 2), -1);
	VT_EQ_INT(b.oom, 1);
	VT_EQ_INT(vc_buf_adds(&b, "more"), -1);
	VT_EQ_INT(vc_buf_addc(&b, 'x'), -1);
	VT_EQ_INT(vc_buf_printf(&b, "%d", 1), -1);
	VT_EQ_STR(b.p, "abc");
	/* the flag survives a reset: the caller has not looked at it yet */
	vc_buf_reset(&b);
	VT_EQ_INT(vc_buf_adds(&b, "x"), -1);
	/* take refuses the incomplete content and starts afresh */
	VT_CHECK(vc_buf_take(&b) == NULL);
	VT_EQ_INT(b.oom, 0);
	VT_EQ_INT(vc_buf_adds(&b, "ok"), 0);
	VT_EQ_STR(b.p, "ok");
	vc_buf_free(&b);
}

VT_TEST(str_helpers)
{
	char *s = vc_strdup("hello");
	VT_EQ_STR(s, "hello");
	free(s);
	s = vc_strndup("hello", 3);
	VT_EQ_STR(s, "hel");
	free(s);
	s = vc_strndup("hi", 10); /* stops at the NUL */
	VT_EQ_STR(s, "hi");
	free(s);
	VT_CHECK(vc_strdup(NULL) == NULL);
	int *z = vc_calloc(10, sizeof(int));
	VT_CHECK(z != NULL);
	int sum = 0;
	for (int i = 0; z && i < 10; i++)
		sum |= z[i];
	VT_EQ_INT(sum, 0);
	free(z);
	void *e = vc_calloc(0, 8);
	VT_CHECK(e != NULL);
	free(e);
}

/* ---- diagnostics -------------------------------------------------------------------------- */

VT_TEST(ctx_counts_last)
{
	struct vc_ctx *ctx = vc_ctx_new();
	VT_EQ_STR(vc_ctx_last_message(ctx), "");
	vc_emit(ctx, VC_SEV_WARNING, "w1", NULL, 0, 0, NULL, "first %s", "warning");
	vc_emit(ctx, VC_SEV_ERROR, "e1", "f", 1, 2, NULL, "an error %d", 7);
	VT_EQ_STR(vc_ctx_last_message(ctx), "an error 7");
	/* a note is counted but does not replace the last message */
	vc_emit(ctx, VC_SEV_NOTE, "n1", NULL, 0, 0, NULL, "just a note");
	VT_EQ_STR(vc_ctx_last_message(ctx), "an error 7");
	vc_emit(ctx, VC_SEV_ERROR, "e2", NULL, 0, 0, NULL, "second");
	vc_emit(ctx, VC_SEV_FATAL, "f1", NULL, 0, 0, NULL, "the end");
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_NOTE), 1);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_WARNING), 1);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), 2);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_FATAL), 1);
	VT_EQ_STR(vc_ctx_last_message(ctx), "the end");
	vc_ctx_reset_counts(ctx);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), 0);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_NOTE), 0);
	VT_EQ_STR(vc_ctx_last_message(ctx), "the end");

	/* a long last message is kept whole */
	size_t n = 5000;
	char *big = malloc(n + 1);
	memset(big, 'm', n);
	big[n] = '\0';
	vc_emit(ctx, VC_SEV_WARNING, "w2", NULL, 0, 0, NULL, "<%s>", big);
	VT_EQ_INT(strlen(vc_ctx_last_message(ctx)), n + 2);
	VT_EQ_INT(vc_ctx_last_message(ctx)[n + 1], '>');
	vc_emit(ctx, VC_SEV_WARNING, "w3", NULL, 0, 0, NULL, "short");
	VT_EQ_STR(vc_ctx_last_message(ctx), "short");
	free(big);
	vc_ctx_free(ctx);

	VT_EQ_STR(vc_severity_name(VC_SEV_NOTE), "note");
	VT_EQ_STR(vc_severity_name(VC_SEV_WARNING), "warning");
	VT_EQ_STR(vc_severity_name(VC_SEV_ERROR), "error");
	VT_EQ_STR(vc_severity_name(VC_SEV_FATAL), "fatal");

	/* NULL contexts are accepted everywhere */
	vc_emit(NULL, VC_SEV_ERROR, "x", NULL, 0, 0, NULL, "nobody hears %d", 1);
	VT_EQ_INT(vc_ctx_count(NULL, VC_SEV_ERROR), 0);
	VT_EQ_STR(vc_ctx_last_message(NULL), "");
	vc_ctx_free(NULL);
}

VT_TEST(ctx_callback)
{
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	vc_emit(ctx, VC_SEV_ERROR, "move-illegal", "games.pgn", 812, 17, "game 3, ply 45",
		"illegal move '%s': no knight can reach %s", "Nxe5", "e5");
	VT_EQ_INT(s.n, 1);
	VT_EQ_INT(s.sev, VC_SEV_ERROR);
	VT_EQ_STR(s.code, "move-illegal");
	VT_EQ_STR(s.file, "games.pgn");
	VT_EQ_INT(s.line, 812);
	VT_EQ_INT(s.col, 17);
	VT_EQ_STR(s.context, "game 3, ply 45");
	VT_EQ_STR(s.msg.p, "illegal move 'Nxe5': no knight can reach e5");

	/* NULL fields arrive as NULL, and notes reach the callback too */
	vc_emit(ctx, VC_SEV_NOTE, NULL, NULL, 0, 0, NULL, "fyi");
	VT_EQ_INT(s.n, 2);
	VT_EQ_STR(s.code, "(null)");
	VT_EQ_STR(s.file, "(null)");
	VT_EQ_STR(s.context, "(null)");

	/* a message far longer than any fixed buffer arrives whole */
	size_t n = 100000;
	char *big = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	big[n] = '\0';
	vc_emit(ctx, VC_SEV_WARNING, "long", "f", 1, 1, NULL, "%s|%d", big, 99);
	VT_EQ_INT(s.msg.len, n + 3);
	VT_CHECK(memcmp(s.msg.p, big, n) == 0);
	VT_EQ_STR(s.msg.p + n, "|99");
	VT_EQ_STR(vc_ctx_last_message(ctx), s.msg.p);

	/* without a callback diagnostics are still counted */
	vc_ctx_set_diag(ctx, NULL, NULL);
	vc_emit(ctx, VC_SEV_ERROR, "e", NULL, 0, 0, NULL, "quiet");
	VT_EQ_INT(s.n, 3);
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), 2);
	VT_EQ_STR(vc_ctx_last_message(ctx), "quiet");
	free(big);
	seen_done(ctx, &s);
}

/* ---- inputs ------------------------------------------------------------------------------- */

VT_TEST(input_plain_file)
{
	dir_make();
	size_t n = 3 * 256 * 1024 + 12345; /* spans several raw buffers */
	unsigned char *data = pattern(n);
	const char *p = tpath("plain.pgn");
	VT_EQ_INT(write_file(p, data, n), 0);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	size_t steps[] = { 1, 7, 4096, 1 << 20 };
	for (size_t i = 0; i < VC_NELEM(steps); i++) {
		if (steps[i] == 1 && i == 0) {
			/* byte by byte over a shorter prefix keeps this fast */
			struct vc_input *in = vc_input_open(ctx, p, 0);
			unsigned char c;
			for (size_t k = 0; k < 1000; k++)
				if (vc_input_read(in, &c, 1) != 1 || c != data[k])
					VT_FAIL_AT(__FILE__, __LINE__, "byte %zu differs", k);
			vc_input_close(in);
			continue;
		}
		struct vc_input *in = vc_input_open(ctx, p, 0);
		VT_CHECK(in != NULL);
		VT_EQ_INT(vc_input_is_gzip(in), 0);
		VT_EQ_STR(vc_input_name(in), p);
		size_t got = 0;
		unsigned char *back = drain(in, steps[i], &got);
		VT_EQ_INT(got, n);
		VT_CHECK(back && memcmp(back, data, n) == 0);
		/* the end stays the end */
		unsigned char c;
		VT_EQ_INT(vc_input_read(in, &c, 1), 0);
		free(back);
		vc_input_close(in);
	}
	VT_EQ_INT(s.n, 0);

	/* an empty file is an empty input, not an error */
	const char *e = tpath("empty");
	VT_EQ_INT(write_file(e, "", 0), 0);
	struct vc_input *in = vc_input_open(ctx, e, 0);
	unsigned char c;
	VT_CHECK(in != NULL);
	VT_EQ_INT(vc_input_read(in, &c, 1), 0);
	vc_input_close(in);
	/* a file of one 0x1f byte is plain text, not broken gzip */
	VT_EQ_INT(write_file(e, "\x1f", 1), 0);
	in = vc_input_open(ctx, e, 0);
	VT_EQ_INT(vc_input_is_gzip(in), 0);
	VT_EQ_INT(vc_input_read(in, &c, 1), 1);
	VT_EQ_INT(c, 0x1f);
	vc_input_close(in);
	VT_EQ_INT(s.n, 0);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(input_mem)
{
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *text = "[Event \"x\"]\n1. e4 e5 *\n";
	struct vc_input *in = vc_input_mem(ctx, "mem.pgn", text, strlen(text), 0);
	VT_EQ_STR(vc_input_name(in), "mem.pgn");
	VT_EQ_INT(vc_input_is_gzip(in), 0);
	size_t got;
	unsigned char *back = drain(in, 5, &got);
	VT_EQ_INT(got, strlen(text));
	VT_EQ_STR((char *)back, text);
	free(back);
	vc_input_close(in);

	in = vc_input_mem(ctx, NULL, "", 0, 0);
	VT_EQ_STR(vc_input_name(in), "<memory>");
	char c;
	VT_EQ_INT(vc_input_read(in, &c, 1), 0);
	vc_input_close(in);
	VT_EQ_INT(s.n, 0);
	vc_input_close(NULL);
	seen_done(ctx, &s);
}

VT_TEST(input_gzip_file)
{
	dir_make();
	size_t n = 2 * 1024 * 1024 + 77;
	unsigned char *data = pattern(n);
	size_t zn;
	unsigned char *z = gz(data, n, 6, &zn);
	VT_CHECK(z != NULL && zn < n);
	/* recognised by its bytes: the name says nothing of gzip */
	const char *p = tpath("games.pgn");
	VT_EQ_INT(write_file(p, z, zn), 0);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	size_t steps[] = { 13, 65536, 1 << 22 };
	for (size_t i = 0; i < VC_NELEM(steps); i++) {
		struct vc_input *in = vc_input_open(ctx, p, 0);
		VT_CHECK(in != NULL);
		VT_EQ_INT(vc_input_is_gzip(in), 1);
		size_t got = 0;
		unsigned char *back = drain(in, steps[i], &got);
		VT_EQ_INT(got, n);
		VT_CHECK(back && memcmp(back, data, n) == 0);
		free(back);
		vc_input_close(in);
	}
	/* the same bytes from memory */
	struct vc_input *in = vc_input_mem(ctx, "m", z, zn, 0);
	VT_EQ_INT(vc_input_is_gzip(in), 1);
	size_t got = 0;
	unsigned char *back = drain(in, 1000, &got);
	VT_EQ_INT(got, n);
	VT_CHECK(back && memcmp(back, data, n) == 0);
	free(back);
	vc_input_close(in);

	/* vc_read_all: whole and NUL-terminated */
	size_t len = 0;
	char *all = vc_read_all(ctx, p, &len);
	VT_EQ_INT(len, n);
	VT_CHECK(all && memcmp(all, data, n) == 0 && all[n] == '\0');
	free(all);
	VT_EQ_INT(s.n, 0);
	free(z);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(input_gzip_concat)
{
	const char *a = "first member\n", *b = "second member\n";
	size_t na, nb;
	unsigned char *za = gz(a, strlen(a), 9, &na);
	unsigned char *zb = gz(b, strlen(b), 1, &nb);
	unsigned char *ze;
	size_t ne;
	ze = gz("", 0, 6, &ne); /* an empty member in between */
	size_t total = na + ne + nb;
	unsigned char *cat = malloc(total);
	memcpy(cat, za, na);
	memcpy(cat + na, ze, ne);
	memcpy(cat + na + ne, zb, nb);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	size_t steps[] = { 1, 3, 4096 };
	for (size_t i = 0; i < VC_NELEM(steps); i++) {
		struct vc_input *in = vc_input_mem(ctx, "cat.gz", cat, total, 0);
		size_t got;
		unsigned char *back = drain(in, steps[i], &got);
		VT_CHECK(back != NULL);
		VT_EQ_STR((char *)back, "first member\nsecond member\n");
		free(back);
		vc_input_close(in);
	}
	VT_EQ_INT(s.n, 0);

	/* garbage after the last member: the data, then a warning */
	unsigned char *tail = malloc(total + 5);
	memcpy(tail, cat, total);
	memcpy(tail + total, "junk!", 5);
	struct vc_input *in = vc_input_mem(ctx, "tail.gz", tail, total + 5, 0);
	size_t got;
	unsigned char *back = drain(in, 4096, &got);
	VT_CHECK(back != NULL);
	VT_EQ_STR((char *)back, "first member\nsecond member\n");
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "gzip-trailing");
	VT_EQ_INT(s.sev, VC_SEV_WARNING);
	free(back);
	vc_input_close(in);
	free(tail);
	free(cat);
	free(za);
	free(zb);
	free(ze);
	seen_done(ctx, &s);
}

/* A member that ends just before, at or just after the end of the
 * input's second 256 KiB read, from a file: the next member's magic is
 * split across two reads, or starts a fresh one.  (The second read, so the
 * buffer's stale first byte is not the 1f of the file's first member.)
 * Stored blocks (level 0) make the member size a plain function of the
 * data size, so it can be aimed at. */
VT_TEST(input_gzip_boundary)
{
	dir_make();
	const size_t n = 2 * 256 * 1024;
	unsigned char *data = pattern(n);
	const char *second = "second member\n";
	size_t zb;
	unsigned char *z2 = gz(second, strlen(second), 6, &zb);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	for (long off = -2; off <= 1; off++) {
		size_t want_end = (size_t)((long)n + off), d = want_end - 18, zn = 0;
		unsigned char *z = NULL;
		/* shrink the data until the member ends where wanted */
		for (; d > 0; d--) {
			free(z);
			z = gz(data, d, 0, &zn);
			if (zn <= want_end)
				break;
		}
		VT_EQ_INT(zn, want_end);
		unsigned char *cat = malloc(zn + zb);
		memcpy(cat, z, zn);
		memcpy(cat + zn, z2, zb);
		const char *p = tpath("edge.gz");
		VT_EQ_INT(write_file(p, cat, zn + zb), 0);
		struct vc_input *in = vc_input_open(ctx, p, 0);
		size_t got;
		unsigned char *back = drain(in, 100000, &got);
		VT_EQ_INT(got, d + strlen(second));
		VT_CHECK(back && memcmp(back, data, d) == 0);
		VT_CHECK(back && memcmp(back + d, second, strlen(second)) == 0);
		free(back);
		vc_input_close(in);
		free(cat);
		free(z);
	}
	VT_EQ_INT(s.n, 0);
	free(z2);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(input_gzip_truncated)
{
	dir_make();
	size_t n = 500000;
	unsigned char *data = pattern(n);
	size_t zn;
	unsigned char *z = gz(data, n, 6, &zn);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	/* cut in the data, in the trailer, and right after the header */
	size_t cuts[] = { zn / 2, zn - 3, 12 };
	for (size_t i = 0; i < VC_NELEM(cuts); i++) {
		s.n = 0;
		const char *p = tpath("cut.gz");
		VT_EQ_INT(write_file(p, z, cuts[i]), 0);
		struct vc_input *in = vc_input_open(ctx, p, 0);
		VT_CHECK(in != NULL);
		size_t got;
		unsigned char *back = drain(in, 65536, &got);
		VT_CHECK(back == NULL);
		VT_CHECK(got <= n);
		VT_EQ_INT(s.n, 1);
		VT_EQ_STR(s.code, "gzip-truncated");
		VT_EQ_STR(s.file, p);
		VT_EQ_INT(s.sev, VC_SEV_ERROR);
		VT_EQ_STR(s.msg.p, "truncated gzip data");
		/* the error is sticky and reported once */
		char c;
		VT_EQ_INT(vc_input_read(in, &c, 1), -1);
		VT_EQ_INT(s.n, 1);
		vc_input_close(in);
	}
	VT_EQ_INT(vc_ctx_count(ctx, VC_SEV_ERROR), VC_NELEM(cuts));
	/* vc_read_all fails the same way */
	size_t len = 99;
	VT_CHECK(vc_read_all(ctx, tpath("cut.gz"), &len) == NULL);
	VT_EQ_STR(s.code, "gzip-truncated");
	free(z);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(input_gzip_invalid)
{
	size_t n = 100000;
	unsigned char *data = pattern(n);
	size_t zn;
	unsigned char *z = gz(data, n, 6, &zn);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	/* a damaged CRC */
	z[zn - 6] ^= 0x55;
	struct vc_input *in = vc_input_mem(ctx, "crc.gz", z, zn, 0);
	size_t got;
	VT_CHECK(drain(in, 8192, &got) == NULL);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "gzip-invalid");
	VT_EQ_STR(s.file, "crc.gz");
	VT_CHECK(strncmp(s.msg.p, "invalid gzip data: ", 19) == 0 && s.msg.len > 19);
	vc_input_close(in);
	z[zn - 6] ^= 0x55;
	/* a bad compression method in the header */
	z[2] = 7;
	in = vc_input_mem(ctx, "hdr.gz", z, zn, 0);
	VT_CHECK(drain(in, 8192, &got) == NULL);
	VT_EQ_INT(s.n, 2);
	VT_EQ_STR(s.code, "gzip-invalid");
	vc_input_close(in);
	free(z);
	free(data);
	seen_done(ctx, &s);
}

/* 70 members of 1 MiB of zeros each: 70 MiB out of about 70 KiB, a ratio
 * near 1000.  Made by repeating one member, which keeps the test fast. */
static unsigned char *zero_bomb(size_t members, size_t *len)
{
	size_t mib = 1024 * 1024;
	unsigned char *zeros = calloc(1, mib);
	size_t zn;
	unsigned char *z = gz(zeros, mib, 9, &zn);
	unsigned char *out = malloc(zn * members);
	for (size_t i = 0; i < members; i++)
		memcpy(out + i * zn, z, zn);
	*len = zn * members;
	free(z);
	free(zeros);
	return out;
}

VT_TEST(input_gzip_bomb)
{
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	size_t zn;
	unsigned char *z = zero_bomb(70, &zn);
	const size_t floor = 64u * 1024 * 1024;

	/* max_ratio 100: refused once more than 64 MiB came out */
	struct vc_input *in = vc_input_mem(ctx, "bomb.gz", z, zn, 100);
	size_t got = 0;
	VT_CHECK(drain(in, 1 << 20, &got) == NULL);
	VT_CHECK(got <= floor + (1 << 20));
	VT_CHECK(got >= floor);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "gzip-bomb");
	VT_EQ_STR(s.file, "bomb.gz");
	VT_EQ_STR(s.msg.p,
		  "gzip data expands more than 100 times: refused as a possible gzip bomb");
	vc_input_close(in);

	/* a ratio above the data's is no bomb: all 70 MiB come out */
	s.n = 0;
	in = vc_input_mem(ctx, "ok.gz", z, zn, 5000);
	unsigned char *back = drain(in, 1 << 20, &got);
	VT_CHECK(back != NULL);
	VT_EQ_INT(got, 70u * 1024 * 1024);
	VT_EQ_INT(s.n, 0);
	free(back);
	vc_input_close(in);

	/* below the 64 MiB floor any ratio is allowed */
	size_t zn8;
	unsigned char *z8 = zero_bomb(8, &zn8);
	in = vc_input_mem(ctx, "small.gz", z8, zn8, 2);
	back = drain(in, 1 << 16, &got);
	VT_CHECK(back != NULL);
	VT_EQ_INT(got, 8u * 1024 * 1024);
	VT_EQ_INT(s.n, 0);
	free(back);
	vc_input_close(in);
	free(z8);
	free(z);
	seen_done(ctx, &s);
}

VT_TEST(input_missing)
{
	dir_make();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *p = tpath("no-such-file.pgn");
	VT_CHECK(vc_input_open(ctx, p, 0) == NULL);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "io-open");
	VT_EQ_STR(s.file, p);
	VT_EQ_INT(s.sev, VC_SEV_ERROR);
	char want[256];
	snprintf(want, sizeof want, "cannot open '%s': %s", p, strerror(ENOENT));
	VT_EQ_STR(s.msg.p, want);
	VT_EQ_STR(vc_ctx_last_message(ctx), want);

	size_t len = 5;
	VT_CHECK(vc_read_all(ctx, p, &len) == NULL);
	VT_EQ_INT(len, 0);
	VT_EQ_INT(s.n, 2);

	/* a directory opens but cannot be read */
	VT_CHECK(vc_input_open(ctx, tmpdir, 0) == NULL);
	VT_EQ_INT(s.n, 3);
	VT_EQ_STR(s.code, "io-read");
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(input_stdin)
{
	dir_make();
	size_t n = 300000;
	unsigned char *data = pattern(n);
	size_t zn;
	unsigned char *z = gz(data, n, 6, &zn);
	const char *p = tpath("stdin.gz");
	VT_EQ_INT(write_file(p, z, zn), 0);
	int saved = dup(0);
	int fd = open(p, O_RDONLY);
	dup2(fd, 0);
	close(fd);
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	struct vc_input *in = vc_input_open(ctx, "-", 0);
	VT_CHECK(in != NULL);
	VT_EQ_STR(vc_input_name(in), "<stdin>");
	VT_EQ_INT(vc_input_is_gzip(in), 1);
	size_t got;
	unsigned char *back = drain(in, 65536, &got);
	VT_EQ_INT(got, n);
	VT_CHECK(back && memcmp(back, data, n) == 0);
	free(back);
	vc_input_close(in);
	/* closing the input leaves standard input open */
	VT_CHECK(fcntl(0, F_GETFD) != -1);
	dup2(saved, 0);
	close(saved);
	VT_EQ_INT(s.n, 0);
	free(z);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

/* ---- sinks -------------------------------------------------------------------------------- */

VT_TEST(sink_file)
{
	dir_make();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *p = tpath("out.pgn");
	struct vc_sink *k = vc_sink_open(ctx, p, 0);
	VT_CHECK(k != NULL);
	size_t n = 300000; /* more than the sink's buffer */
	unsigned char *data = pattern(n);
	VT_EQ_INT(vc_sink_puts(k, "head\n"), 0);
	VT_EQ_INT(vc_sink_write(k, data, n), 0);
	VT_EQ_INT(vc_sink_printf(k, "%d %s\n", 12, "tail"), 0);
	for (int i = 0; i < 20000; i++) /* many small writes across flushes */
		vc_sink_printf(k, "%05d", i);
	/* not under its final name yet: only the temporary exists */
	VT_CHECK(!file_exists(p));
	VT_EQ_INT(dir_count(), 1);
	VT_EQ_INT(vc_sink_failed(k), 0);
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	VT_CHECK(file_exists(p));
	VT_EQ_INT(dir_count(), 1);

	size_t len;
	char *back = vc_read_all(ctx, p, &len);
	VT_EQ_INT(len, 5 + n + 8 + 5 * 20000);
	VT_CHECK(back && memcmp(back, "head\n", 5) == 0);
	VT_CHECK(back && memcmp(back + 5, data, n) == 0);
	VT_CHECK(back && memcmp(back + 5 + n, "12 tail\n00000", 13) == 0);
	VT_CHECK(back && memcmp(back + len - 5, "19999", 5) == 0);
	free(back);

	/* the new file has the usual permissions, not mkstemp's 0600 */
	mode_t old = umask(022);
	VT_CHECK(vc_sink_close(vc_sink_open(ctx, tpath("new"), 0)) == VC_OK);
	struct stat st;
	VT_EQ_INT(stat(tpath("new"), &st), 0);
	VT_EQ_INT(st.st_mode & 0777, 0644);
	/* replacing a file keeps its permissions */
	chmod(p, 0640);
	k = vc_sink_open(ctx, p, 0);
	vc_sink_puts(k, "replaced\n");
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	VT_EQ_INT(stat(p, &st), 0);
	VT_EQ_INT(st.st_mode & 0777, 0640);
	umask(old);
	back = vc_read_all(ctx, p, &len);
	VT_EQ_STR(back, "replaced\n");
	free(back);

	/* through a symbolic link: the file is replaced, the link kept */
	VT_EQ_INT(symlink("out.pgn", tpath("link")), 0);
	k = vc_sink_open(ctx, tpath("link"), 0);
	vc_sink_puts(k, "via link\n");
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	struct stat lst;
	VT_EQ_INT(lstat(tpath("link"), &lst), 0);
	VT_CHECK(S_ISLNK(lst.st_mode));
	back = vc_read_all(ctx, p, &len);
	VT_EQ_STR(back, "via link\n");
	free(back);
	VT_EQ_INT(dir_count(), 3);
	VT_EQ_INT(s.n, 0);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(sink_gzip_roundtrip)
{
	dir_make();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *p = tpath("out.pgn.gz");
	size_t n = 1024 * 1024 + 3;
	unsigned char *data = pattern(n);
	struct vc_sink *k = vc_sink_open(ctx, p, 1);
	VT_CHECK(k != NULL);
	for (int i = 0; i < 1000; i++)
		vc_sink_printf(k, "line %d\n", i);
	vc_sink_write(k, data, n);
	vc_sink_puts(k, "end\n");
	VT_CHECK(!file_exists(p));
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	VT_CHECK(file_exists(p));

	struct vc_input *in = vc_input_open(ctx, p, 0);
	VT_CHECK(in != NULL);
	VT_EQ_INT(vc_input_is_gzip(in), 1);
	size_t got;
	unsigned char *back = drain(in, 65536, &got);
	vc_input_close(in);
	struct vc_buf want;
	vc_buf_init(&want);
	for (int i = 0; i < 1000; i++)
		vc_buf_printf(&want, "line %d\n", i);
	vc_buf_add(&want, data, n);
	vc_buf_adds(&want, "end\n");
	VT_EQ_INT(got, want.len);
	VT_CHECK(back && memcmp(back, want.p, want.len) == 0);
	struct stat st;
	VT_CHECK(stat(p, &st) == 0 && (size_t)st.st_size < want.len);
	free(back);
	vc_buf_free(&want);

	/* an empty gzip output is still a valid gzip stream */
	k = vc_sink_open(ctx, p, 1);
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	in = vc_input_open(ctx, p, 0);
	VT_EQ_INT(vc_input_is_gzip(in), 1);
	back = drain(in, 100, &got);
	VT_CHECK(back != NULL);
	VT_EQ_INT(got, 0);
	free(back);
	vc_input_close(in);
	VT_EQ_INT(s.n, 0);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

/* The device to fill.  As root, a broken sink could rename a temporary
 * file over /dev/full itself, so root gets a private node of the same
 * device in the temporary directory; others cannot write in /dev anyway.
 * A file system mounted nodev refuses the node: then /dev/full it is. */
static const char *full_device(void)
{
	static char path[128];
	snprintf(path, sizeof path, "%s", tpath("full"));
	if (geteuid() == 0 && mknod(path, S_IFCHR | 0666, makedev(1, 7)) == 0) {
		int fd = open(path, O_WRONLY);
		int full = fd >= 0 && write(fd, "x", 1) < 0 && errno == ENOSPC;
		if (fd >= 0)
			close(fd);
		if (full)
			return path;
		unlink(path);
	}
	return "/dev/full";
}

VT_TEST(sink_dev_full)
{
	dir_make();
	const char *dev = full_device();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	char want[256];
	snprintf(want, sizeof want, "cannot write '%s': No space left on device", dev);
	for (int gzip = 0; gzip <= 1; gzip++) {
		s.n = 0;
		struct vc_sink *k = vc_sink_open(ctx, dev, gzip);
		VT_CHECK(k != NULL);
		/* small output fails only when flushed at close */
		VT_EQ_INT(vc_sink_puts(k, "1. e4 e5\n"), 0);
		VT_EQ_INT(s.n, 0);
		VT_EQ_INT(vc_sink_close(k), VC_FATAL);
		VT_EQ_INT(s.n, 1);
		VT_EQ_STR(s.code, "io-write");
		VT_EQ_STR(s.file, dev);
		VT_EQ_INT(s.sev, VC_SEV_ERROR);
		VT_EQ_STR(s.msg.p, want);
		struct stat st;
		VT_CHECK(stat(dev, &st) == 0 && S_ISCHR(st.st_mode));
	}
	/* large output fails at the write, once, and stays failed */
	s.n = 0;
	struct vc_sink *k = vc_sink_open(ctx, dev, 0);
	size_t n = 200000;
	unsigned char *data = pattern(n);
	VT_EQ_INT(vc_sink_write(k, data, n), -1);
	VT_EQ_INT(vc_sink_failed(k), 1);
	VT_EQ_INT(vc_sink_puts(k, "more"), -1);
	VT_EQ_INT(vc_sink_printf(k, "%s", "more"), -1);
	VT_EQ_INT(vc_sink_close(k), VC_FATAL);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "io-write");
	/* nothing but the device itself in the directory: no temporary */
	VT_EQ_INT(dir_count(), strcmp(dev, "/dev/full") == 0 ? 0 : 1);
	free(data);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(sink_fifo)
{
	dir_make();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *p = tpath("fifo");
	VT_EQ_INT(mkfifo(p, 0600), 0);
	/* our own reading end, so the sink's open does not wait */
	int rfd = open(p, O_RDONLY | O_NONBLOCK);
	VT_CHECK(rfd >= 0);
	struct vc_sink *k = vc_sink_open(ctx, p, 0);
	VT_CHECK(k != NULL);
	VT_EQ_INT(dir_count(), 1); /* no temporary next to a FIFO */
	vc_sink_printf(k, "through a %s\n", "pipe");
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	char buf[64] = { 0 };
	ssize_t r = read(rfd, buf, sizeof buf - 1);
	VT_EQ_INT(r, 15);
	VT_EQ_STR(buf, "through a pipe\n");
	close(rfd);
	struct stat st;
	VT_CHECK(stat(p, &st) == 0 && S_ISFIFO(st.st_mode));
	VT_EQ_INT(s.n, 0);
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(sink_abort)
{
	dir_make();
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	const char *p = tpath("aborted.pgn");
	for (int gzip = 0; gzip <= 1; gzip++) {
		struct vc_sink *k = vc_sink_open(ctx, p, gzip);
		VT_CHECK(k != NULL);
		unsigned char *data = pattern(200000);
		vc_sink_write(k, data, 200000); /* some of it reached the disk */
		free(data);
		VT_EQ_INT(dir_count(), 1);
		vc_sink_abort(k);
		VT_CHECK(!file_exists(p));
		VT_EQ_INT(dir_count(), 0);
	}
	/* an old file under the name survives an aborted rewrite */
	VT_EQ_INT(write_file(p, "old\n", 4), 0);
	struct vc_sink *k = vc_sink_open(ctx, p, 0);
	vc_sink_puts(k, "new\n");
	vc_sink_abort(k);
	size_t len;
	char *back = vc_read_all(ctx, p, &len);
	VT_EQ_STR(back, "old\n");
	free(back);
	VT_EQ_INT(dir_count(), 1);
	vc_sink_abort(NULL);

	/* a directory that does not exist: no sink, an io-open error */
	VT_CHECK(vc_sink_open(ctx, tpath("nodir/out.pgn"), 0) == NULL);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "io-open");
	VT_EQ_STR(s.file, tpath("nodir/out.pgn"));
	seen_done(ctx, &s);
	dir_remove();
}

VT_TEST(sink_mem)
{
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	struct vc_sink *k = vc_sink_mem(ctx);
	size_t len = 99;
	const char *d = vc_sink_data(k, &len);
	VT_EQ_INT(len, 0);
	VT_CHECK(d != NULL);
	vc_sink_puts(k, "a");
	vc_sink_write(k, "bc", 2);
	size_t n = 100000;
	char *big = malloc(n + 1);
	memset(big, 'z', n);
	big[n] = '\0';
	VT_EQ_INT(vc_sink_printf(k, "<%s>%d", big, 5), 0);
	d = vc_sink_data(k, &len);
	VT_EQ_INT(len, 3 + n + 3);
	VT_CHECK(memcmp(d, "abc<z", 5) == 0);
	VT_CHECK(memcmp(d + 4 + n, ">5", 2) == 0);
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	VT_EQ_INT(s.n, 0);

	/* emptied for reuse: a small buffer is kept, a big one given back */
	k = vc_sink_mem(ctx);
	vc_sink_puts(k, "first");
	VT_EQ_INT(vc_sink_mem_reset(k, 4096), 0);
	d = vc_sink_data(k, &len);
	VT_EQ_INT(len, 0);
	VT_EQ_STR(d, "");
	vc_sink_puts(k, "second");
	d = vc_sink_data(k, &len);
	VT_EQ_INT(len, 6);
	VT_EQ_STR(d, "second");
	vc_sink_write(k, big, n);
	VT_EQ_INT(vc_sink_mem_reset(k, 4096), 0);
	d = vc_sink_data(k, &len);
	VT_EQ_INT(len, 0);
	VT_EQ_STR(d, "");
	vc_sink_puts(k, "third");
	VT_EQ_STR(vc_sink_data(k, &len), "third");
	VT_EQ_INT(vc_sink_close(k), VC_OK);

	/* data of a non-memory sink is NULL, and it cannot be emptied */
	k = vc_sink_open(ctx, "-", 0);
	VT_CHECK(vc_sink_data(k, &len) == NULL);
	VT_EQ_INT(len, 0);
	VT_EQ_INT(vc_sink_mem_reset(k, 4096), -1);
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	free(big);
	seen_done(ctx, &s);
}

struct cb_state {
	struct vc_buf got;
	int calls, fail_after;
};

static int cb_write(void *user, const void *data, size_t len)
{
	struct cb_state *c = user;
	if (c->fail_after >= 0 && c->calls >= c->fail_after)
		return -1;
	c->calls++;
	return vc_buf_add(&c->got, data, len);
}

VT_TEST(sink_callback)
{
	struct seen s;
	struct vc_ctx *ctx = ctx_seen(&s);
	struct cb_state c = { .fail_after = -1 };
	vc_buf_init(&c.got);
	struct vc_sink *k = vc_sink_callback(ctx, cb_write, &c);
	vc_sink_puts(k, "x=");
	/* unbuffered: the callback has the bytes before close */
	VT_EQ_INT(c.got.len, 2);
	size_t n = 5000;
	char *big = malloc(n + 1);
	memset(big, 'y', n);
	big[n] = '\0';
	VT_EQ_INT(vc_sink_printf(k, "%d;%s", 3, big), 0);
	VT_EQ_INT(c.got.len, 2 + 2 + n);
	VT_CHECK(memcmp(c.got.p, "x=3;yyy", 7) == 0);
	VT_EQ_INT(vc_sink_close(k), VC_OK);
	VT_EQ_INT(s.n, 0);

	/* a failing callback: reported once, sticky, VC_FATAL at close */
	c.fail_after = c.calls + 1;
	k = vc_sink_callback(ctx, cb_write, &c);
	VT_EQ_INT(vc_sink_puts(k, "ok"), 0);
	VT_EQ_INT(vc_sink_puts(k, "fails"), -1);
	VT_EQ_INT(vc_sink_failed(k), 1);
	VT_EQ_INT(vc_sink_puts(k, "again"), -1);
	VT_EQ_INT(vc_sink_close(k), VC_FATAL);
	VT_EQ_INT(s.n, 1);
	VT_EQ_STR(s.code, "io-write");
	free(big);
	vc_buf_free(&c.got);
	seen_done(ctx, &s);
}

/* The gzip tests again, with zlib's inflater (the fallback, and what
 * VC_INFLATE_ZLIB asks for). */
VT_TEST(input_gzip_zlib)
{
	struct vc_ctx *c = vc_ctx_new();
	VT_EQ_STR(vc_ctx_set_inflater(c, VC_INFLATE_ZLIB), "zlib");
	vc_ctx_free(c);
	inflater = VC_INFLATE_ZLIB;
	input_gzip_file();
	input_gzip_concat();
	input_gzip_boundary();
	input_gzip_truncated();
	input_gzip_invalid();
	input_gzip_bomb();
	inflater = VC_INFLATE_AUTO;
}

/* What one inflater makes of data: the bytes it gave and its diagnostic. */
struct outcome {
	struct vc_buf out;
	int failed, n;
	char code[64], msg[160];
};

static void inflate_with(enum vc_inflater which, const unsigned char *z, size_t zn, size_t step,
			 struct outcome *o)
{
	struct seen s;
	inflater = which;
	struct vc_ctx *ctx = ctx_seen(&s);
	inflater = VC_INFLATE_AUTO;
	vc_buf_init(&o->out);
	struct vc_input *in = vc_input_mem(ctx, "d.gz", z, zn, 0);
	unsigned char *piece = malloc(step);
	long r;
	while ((r = vc_input_read(in, piece, step)) > 0)
		vc_buf_add(&o->out, piece, (size_t)r);
	o->failed = r < 0;
	o->n = s.n;
	snprintf(o->code, sizeof o->code, "%s", s.n ? s.code : "");
	snprintf(o->msg, sizeof o->msg, "%s", s.n && s.msg.p ? s.msg.p : "");
	free(piece);
	vc_input_close(in);
	seen_done(ctx, &s);
}

/* Damaged gzip data (cut anywhere, a byte changed anywhere, garbage after
 * the members, several members): both inflaters give the same bytes (at a
 * cut, all those before it) or a prefix of the good ones, fail or not alike, with the same code, and the
 * same message but for the reason of invalid data. */
VT_TEST(input_gzip_inflaters_agree)
{
	size_t n = 60000;
	unsigned char *data = pattern(n);
	size_t zn1, zn2;
	unsigned char *z1 = gz(data, n / 2, 6, &zn1);
	unsigned char *z2 = gz(data + n / 2, n - n / 2, 1, &zn2);
	size_t zn = zn1 + zn2;
	unsigned char *z = malloc(zn + 8);
	memcpy(z, z1, zn1);
	memcpy(z + zn1, z2, zn2);
	unsigned char *d = malloc(zn + 8);
	int cases = 0;
	for (int kind = 0; kind < 3; kind++) {
		for (size_t at = 0; at < zn; at += kind == 2 ? zn : 1 + at / 7) {
			size_t dn = zn;
			memcpy(d, z, zn);
			if (kind == 0)
				dn = at; /* cut */
			else if (kind == 1)
				d[at] ^= (unsigned char)(0x5a ^ at); /* a byte changed */
			else
				memcpy(d + zn, "garbage!", (dn = zn + 8) - zn); /* after the end */
			struct outcome a, b;
			inflate_with(VC_INFLATE_AUTO, d, dn, 4096, &a);
			inflate_with(VC_INFLATE_ZLIB, d, dn, 4096, &b);
			VT_EQ_INT(a.failed, b.failed);
			VT_EQ_INT(a.n, b.n);
			VT_EQ_STR(a.code, b.code);
			if (strcmp(a.code, "gzip-invalid"))
				VT_EQ_STR(a.msg, b.msg);
			/* a cut gives every byte before it with either: igzip
			 * would keep back its last ones, the library then
			 * decodes the member again with zlib */
			if ((!a.failed && !b.failed) || kind == 0)
				VT_CHECK(a.out.len == b.out.len &&
					 (a.out.len == 0 || !memcmp(a.out.p, b.out.p, a.out.len)));
			/* (a changed byte may change what comes out; a cut before
			 * the second byte leaves no gzip data) */
			if (kind != 1 && dn >= 2)
				VT_CHECK(a.out.len <= n &&
					 (a.out.len == 0 || !memcmp(a.out.p, data, a.out.len)));
			vc_buf_free(&a.out);
			vc_buf_free(&b.out);
			cases++;
		}
	}
	VT_CHECK(cases > 100);
	free(d);
	free(z);
	free(z1);
	free(z2);
	free(data);
}

VT_MAIN(VT_ENTRY(buf_growth), VT_ENTRY(buf_printf_long), VT_ENTRY(buf_oom_sticky),
	VT_ENTRY(str_helpers), VT_ENTRY(ctx_counts_last), VT_ENTRY(ctx_callback),
	VT_ENTRY(input_plain_file), VT_ENTRY(input_mem), VT_ENTRY(input_gzip_file),
	VT_ENTRY(input_gzip_concat), VT_ENTRY(input_gzip_boundary), VT_ENTRY(input_gzip_truncated),
	VT_ENTRY(input_gzip_invalid), VT_ENTRY(input_gzip_bomb), VT_ENTRY(input_gzip_zlib),
	VT_ENTRY(input_gzip_inflaters_agree), VT_ENTRY(input_missing),
	VT_ENTRY(input_stdin), VT_ENTRY(sink_file), VT_ENTRY(sink_gzip_roundtrip),
	VT_ENTRY(sink_dev_full), VT_ENTRY(sink_fifo), VT_ENTRY(sink_abort), VT_ENTRY(sink_mem),
	VT_ENTRY(sink_callback))
