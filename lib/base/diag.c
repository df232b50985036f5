/*
 * diag.c - the diagnostics context.
 *
 * Model: a context is where every diagnostic of the objects made with it
 * goes.  It counts diagnostics by severity, keeps a copy of the message of
 * the last one of at least warning severity (so a caller without a
 * callback can still say what went wrong), and passes each one to the
 * caller's callback, if any.  The context holds no pointer into a
 * diagnostic after the callback returns, and formatting uses no state of
 * the context, so a callback may itself emit to the same context.
 * Invariant: last is NULL or a NUL-terminated string of capacity last_cap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vc_base.h"

#define VC_NSEV 4

struct vc_ctx {
	vc_diag_fn *fn;
	void *user;
	vc_progress_fn *progress;
	void *progress_user;
	enum vc_inflater inflater;
	int no_bitboards; /* vc_ctx_set_bitboards(ctx, 0) */
	unsigned long count[VC_NSEV];
	char *last;
	size_t last_cap;
};

struct vc_ctx *vc_ctx_new(void)
{
	return vc_calloc(1, sizeof(struct vc_ctx));
}

void vc_ctx_free(struct vc_ctx *ctx)
{
	if (!ctx)
		return;
	free(ctx->last);
	free(ctx);
}

void vc_ctx_set_diag(struct vc_ctx *ctx, vc_diag_fn *fn, void *user)
{
	if (!ctx)
		return;
	ctx->fn = fn;
	ctx->user = user;
}

void vc_ctx_get_diag(const struct vc_ctx *ctx, vc_diag_fn **fn, void **user)
{
	*fn = ctx ? ctx->fn : NULL;
	*user = ctx ? ctx->user : NULL;
}

void vc_ctx_set_progress(struct vc_ctx *ctx, vc_progress_fn *fn, void *user)
{
	if (!ctx)
		return;
	ctx->progress = fn;
	ctx->progress_user = user;
}

void vc_ctx_copy_settings(struct vc_ctx *to, const struct vc_ctx *from)
{
	if (to && from) {
		vc_ctx_set_progress(to, from->progress, from->progress_user);
		to->inflater = from->inflater;
		to->no_bitboards = from->no_bitboards;
	}
}

void vc_ctx_set_bitboards(struct vc_ctx *ctx, int on)
{
	if (ctx)
		ctx->no_bitboards = !on;
}

int vc_ctx_bitboards(const struct vc_ctx *ctx)
{
	return !ctx || !ctx->no_bitboards;
}

const char *vc_ctx_set_inflater(struct vc_ctx *ctx, enum vc_inflater which)
{
	if (ctx && (which == VC_INFLATE_AUTO || which == VC_INFLATE_ZLIB))
		ctx->inflater = which;
	return vc_ctx_inflater(ctx) == VC_INFLATE_ZLIB ? "zlib" : "isa-l";
}

enum vc_inflater vc_ctx_inflater(const struct vc_ctx *ctx)
{
#ifdef VC_HAVE_ISAL
	return ctx ? ctx->inflater : VC_INFLATE_AUTO;
#else
	(void)ctx;
	return VC_INFLATE_ZLIB;
#endif
}

int vc_ctx_wants_progress(const struct vc_ctx *ctx)
{
	return ctx && ctx->progress;
}

void vc_ctx_progress(struct vc_ctx *ctx, const char *input, uint64_t done, uint64_t size)
{
	if (ctx && ctx->progress)
		ctx->progress(ctx->progress_user, input, done, size);
}

const char *vc_ctx_last_message(const struct vc_ctx *ctx)
{
	return ctx && ctx->last ? ctx->last : "";
}

unsigned long vc_ctx_count(const struct vc_ctx *ctx, enum vc_severity sev)
{
	if (!ctx || (unsigned)sev >= VC_NSEV)
		return 0;
	return ctx->count[sev];
}

void vc_ctx_reset_counts(struct vc_ctx *ctx)
{
	if (!ctx)
		return;
	memset(ctx->count, 0, sizeof ctx->count);
}

const char *vc_severity_name(enum vc_severity sev)
{
	switch (sev) {
	case VC_SEV_NOTE:
		return "note";
	case VC_SEV_WARNING:
		return "warning";
	case VC_SEV_ERROR:
		return "error";
	case VC_SEV_FATAL:
		return "fatal";
	}
	return "unknown";
}

/* Keeps msg as the last message.  When memory runs out the old buffer is
 * reused with a truncated copy: a cut message beats a stale one. */
static void set_last(struct vc_ctx *ctx, const char *msg)
{
	size_t len = strlen(msg);
	if (len + 1 > ctx->last_cap) {
		char *p = realloc(ctx->last, len + 1);
		if (p) {
			ctx->last = p;
			ctx->last_cap = len + 1;
		}
	}
	if (ctx->last_cap == 0)
		return;
	if (len >= ctx->last_cap)
		len = ctx->last_cap - 1;
	memcpy(ctx->last, msg, len);
	ctx->last[len] = '\0';
}

/* vc_base.h does not mark it: say here that fmt is a printf format taken
 * with a va_list, so compilers check the calls to vsnprintf below. */
void vc_vemit(struct vc_ctx *ctx, enum vc_severity sev, const char *code, const char *file,
	      long line, long col, const char *context, const char *fmt, va_list ap)
	__attribute__((format(printf, 8, 0)));

void vc_vemit(struct vc_ctx *ctx, enum vc_severity sev, const char *code, const char *file,
	      long line, long col, const char *context, const char *fmt, va_list ap)
{
	if (!ctx)
		return;
	/* Most messages fit on the stack; longer ones (a quoted line of a
	 * game, say) get a heap buffer of their exact size.  If that fails
	 * the truncated stack copy is still worth reporting. */
	char small[512];
	char *msg = small;
	char *heap = NULL;
	va_list ap2;
	va_copy(ap2, ap);
	int n = 0;
	small[0] = '\0';
	if (fmt)
		n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		small[0] = '\0';
	} else if ((size_t)n >= sizeof small) {
		heap = malloc((size_t)n + 1);
		if (heap) {
			vsnprintf(heap, (size_t)n + 1, fmt, ap2);
			msg = heap;
		}
	}
	va_end(ap2);

	if ((unsigned)sev < VC_NSEV)
		ctx->count[sev]++;
	if (sev >= VC_SEV_WARNING)
		set_last(ctx, msg);
	if (ctx->fn) {
		struct vc_diag d = {
			.severity = sev,
			.code = code,
			.file = file,
			.line = line,
			.col = col,
			.context = context,
			.message = msg,
		};
		ctx->fn(&d, ctx->user);
	}
	free(heap);
}

void vc_emit(struct vc_ctx *ctx, enum vc_severity sev, const char *code, const char *file,
	     long line, long col, const char *context, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vc_vemit(ctx, sev, code, file, line, col, context, fmt, ap);
	va_end(ap);
}
