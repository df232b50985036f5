/*
 * buf.c - growable byte buffers and the malloc helpers of layer 1.
 *
 * Model: a struct vc_buf owns p[0..cap); the bytes p[0..len) are the
 * content and p[len] is always 0 once anything was allocated, so p can be
 * used as a C string at any time.  An allocation failure sets the sticky
 * oom flag instead of aborting: from then on every append does nothing and
 * returns -1, so a caller may append many times and check once.  The flag
 * survives vc_buf_reset (the content it guards was lost, and a caller that
 * resets between records must still learn about it); only vc_buf_init,
 * vc_buf_free and vc_buf_take clear it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vc_base.h"

/* First allocation: small enough for short strings, large enough that the
 * doubling does not realloc for every few bytes. */
#define VC_BUF_MIN 64

void vc_buf_init(struct vc_buf *b)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->oom = 0;
}

void vc_buf_free(struct vc_buf *b)
{
	free(b->p);
	vc_buf_init(b);
}

void vc_buf_reset(struct vc_buf *b)
{
	b->len = 0;
	if (b->cap > 0)
		b->p[0] = '\0';
}

int vc_buf_reserve(struct vc_buf *b, size_t extra)
{
	if (b->oom)
		return -1;
	/* room for the content, the extra bytes and the terminating NUL */
	if (extra > SIZE_MAX - 1 - b->len) {
		b->oom = 1;
		return -1;
	}
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : VC_BUF_MIN;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	if (!b->p)
		p[0] = '\0';
	b->p = p;
	b->cap = cap;
	return 0;
}

int vc_buf_add(struct vc_buf *b, const void *data, size_t len)
{
	if (vc_buf_reserve(b, len) < 0)
		return -1;
	if (len > 0)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = '\0';
	return 0;
}

int vc_buf_addc(struct vc_buf *b, int c)
{
	if (vc_buf_reserve(b, 1) < 0)
		return -1;
	b->p[b->len++] = (char)c;
	b->p[b->len] = '\0';
	return 0;
}

int vc_buf_adds(struct vc_buf *b, const char *s)
{
	return vc_buf_add(b, s, s ? strlen(s) : 0);
}

/* vc_base.h does not mark it: say here that fmt is a printf format taken
 * with a va_list, so compilers check the calls to vsnprintf below. */
int vc_buf_vprintf(struct vc_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

int vc_buf_vprintf(struct vc_buf *b, const char *fmt, va_list ap)
{
	if (b->oom)
		return -1;
	/* Try the room already there first; most strings are short and fit,
	 * so the common case formats once. */
	va_list ap2;
	va_copy(ap2, ap);
	size_t room = b->cap - b->len; /* cap > len whenever cap > 0 */
	int n = vsnprintf(b->cap ? b->p + b->len : NULL, room, fmt, ap);
	int rc = 0;
	if (n < 0) {
		rc = -1;
	} else if ((size_t)n >= room) {
		if (vc_buf_reserve(b, (size_t)n) < 0)
			rc = -1;
		else
			vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	if (rc == 0)
		b->len += (size_t)n;
	if (b->cap > 0)
		b->p[b->len] = '\0'; /* undo a partial write on failure */
	return rc;
}

int vc_buf_printf(struct vc_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vc_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *vc_buf_take(struct vc_buf *b)
{
	if (b->oom) {
		/* the content is incomplete: handing it out would hide the loss */
		vc_buf_free(b);
		return NULL;
	}
	if (!b->p)
		return vc_strdup("");
	char *p = b->p;
	/* Give back a large unused tail (vc_read_all reserves big chunks);
	 * keep the block if shrinking fails, it is still valid. */
	if (b->cap - b->len > 4096) {
		char *q = realloc(p, b->len + 1);
		if (q)
			p = q;
	}
	vc_buf_init(b);
	return p;
}

void *vc_calloc(size_t n, size_t size)
{
	/* calloc(0, x) may return NULL, which callers would take for a
	 * failure: always ask for at least one byte. */
	if (n == 0 || size == 0)
		n = size = 1;
	return calloc(n, size);
}

char *vc_strdup(const char *s)
{
	if (!s)
		return NULL;
	return vc_strndup(s, strlen(s));
}

char *vc_strndup(const char *s, size_t n)
{
	if (!s)
		return NULL;
	const char *end = memchr(s, '\0', n);
	size_t len = end ? (size_t)(end - s) : n;
	if (len == SIZE_MAX)
		return NULL;
	char *p = malloc(len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
