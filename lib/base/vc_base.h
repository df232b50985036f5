/*
 * base/vc_base.h - layer 1 of libvchess (internal): growable buffers, the
 * diagnostics context, and byte inputs (file, standard input, memory; gzip
 * recognised by its first bytes).  Nothing here knows chess.
 */
#ifndef VC_BASE_H
#define VC_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vchess.h"

#define VC_UNUSED(x) ((void)(x))
#define VC_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- growable byte buffer ----
 * p is always NUL-terminated when cap > 0.  An allocation failure sets the
 * sticky oom flag; later appends do nothing, so callers check once. */
struct vc_buf {
	char *p;
	size_t len, cap;
	int oom;
};

void vc_buf_init(struct vc_buf *b);
void vc_buf_free(struct vc_buf *b);
void vc_buf_reset(struct vc_buf *b); /* len = 0, keeps memory */
int vc_buf_reserve(struct vc_buf *b, size_t extra); /* 0 ok, -1 oom */
int vc_buf_add(struct vc_buf *b, const void *data, size_t len);
int vc_buf_addc(struct vc_buf *b, int c);
int vc_buf_adds(struct vc_buf *b, const char *s);
int vc_buf_printf(struct vc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int vc_buf_vprintf(struct vc_buf *b, const char *fmt, va_list ap);
/* Takes the string (NUL-terminated, malloc'd) and leaves b empty. */
char *vc_buf_take(struct vc_buf *b);

/* malloc helpers that return NULL on failure (never abort) */
void *vc_calloc(size_t n, size_t size);
char *vc_strdup(const char *s);
char *vc_strndup(const char *s, size_t n);

/* ---- per-thread scratch ----
 * A block of at least size bytes that belongs to the calling thread and to
 * slot, kept for its next call with that slot (its contents are not kept
 * when a larger size is asked for), freed when the thread ends; NULL when
 * out of memory.  For buffers too big to be thread-local arrays, which
 * every thread start would zero (scratch.c).  The slots: */
enum { /* one a buffer, so that no two users can ever share one */
	VC_SCRATCH_RESOLVE,      /* notation.c: moves while resolving a written move */
	VC_SCRATCH_TWO,          /* notation.c: a two-square piece's moves */
	VC_SCRATCH_SAN_ORIGIN,   /* notation.c: other origins of a written move */
	VC_SCRATCH_SAN_XSOURCE,  /* notation.c: an exchange promotion's other sources */
	VC_SCRATCH_SHOGI_OTHERS, /* shogi_notation.c: others of the mover's kind */
	VC_SCRATCH_SHOGI_PROMO,  /* shogi_notation.c: could the move promote */
	VC_SCRATCH_WXF,          /* notation_trad.c: the moves of the pieces named */
	VC_SCRATCH_FEN_READ_EP,  /* fen.c: en-passant targets read */
	VC_SCRATCH_FEN_WRITE_EP, /* fen.c: en-passant targets written */
	VC_SCRATCH_ECO_EP,       /* eco.c: en-passant targets of an opening's key */
	VC_SCRATCH_FIRST,        /* movegen.c: the first legal move, two levels */
	VC_SCRATCH_LEGAL,        /* movegen.c: vc_position_legal_moves */
	VC_SCRATCH_REGION,       /* movegen.c: replies into a region */
	VC_SCRATCH_BB_MATE,      /* bitboard.c: the mate test's moves */
	VC_SCRATCH_SLOTS = 16
};
void *vc_scratch(int slot, size_t size);

/* ---- diagnostics ----
 * Emits one diagnostic to the context's callback, counts it by severity and
 * keeps its message as the last one.  ctx may be NULL (then nothing
 * happens). */
void vc_emit(struct vc_ctx *ctx, enum vc_severity sev, const char *code,
	     const char *file, long line, long col, const char *context,
	     const char *fmt, ...) __attribute__((format(printf, 8, 9)));
void vc_vemit(struct vc_ctx *ctx, enum vc_severity sev, const char *code,
	      const char *file, long line, long col, const char *context,
	      const char *fmt, va_list ap);

/* The callback vc_ctx_set_diag set (NULLs for none), so that a library
 * object may put its own in front of it for a while. */
void vc_ctx_get_diag(const struct vc_ctx *ctx, vc_diag_fn **fn, void **user);
/* Inputs tell the context how far they are (vc_ctx_set_progress): whether
 * anyone listens, and the call. */
int vc_ctx_wants_progress(const struct vc_ctx *ctx);
/* A context of a library object's own, that forwards to the caller's,
 * follows the inputs as the caller's would. */
void vc_ctx_copy_settings(struct vc_ctx *to, const struct vc_ctx *from);
/* The inflater the inputs of ctx use: VC_INFLATE_AUTO means ISA-L's (only
 * ever returned when the library has it), VC_INFLATE_ZLIB zlib's. */
enum vc_inflater vc_ctx_inflater(const struct vc_ctx *ctx);
/* 0 when variants loaded with ctx get no bitboard tables */
int vc_ctx_bitboards(const struct vc_ctx *ctx);
void vc_ctx_progress(struct vc_ctx *ctx, const char *input, uint64_t done, uint64_t size);

/* ---- byte inputs ----
 * A streaming source of bytes.  Gzip is recognised by the magic bytes
 * 1f 8b, read through zlib (concatenated members are read in turn), and
 * refused with a message past max_ratio times the compressed size read so
 * far (0: default 1000) once more than 64 MiB came out.  A truncated gzip
 * stream is an error.  All errors are reported to ctx, positioned by name. */
struct vc_input;
struct vc_input *vc_input_open(struct vc_ctx *ctx, const char *path, size_t max_ratio);
struct vc_input *vc_input_mem(struct vc_ctx *ctx, const char *name, const void *data,
			      size_t len, size_t max_ratio);
/* Reads up to n bytes: returns the count, 0 at the end, -1 on error. */
long vc_input_read(struct vc_input *in, void *buf, size_t n);
const char *vc_input_name(const struct vc_input *in); /* "-" shows as "<stdin>" */
int vc_input_is_gzip(const struct vc_input *in);
void vc_input_close(struct vc_input *in);
/* Reports from now on go to ctx; returns the context they went to.  For a
 * reader's thread that must not touch the caller's context (parallel.c). */
struct vc_ctx *vc_input_swap_ctx(struct vc_input *in, struct vc_ctx *ctx);

/* Reads a whole file (or "-") into a malloc'd NUL-terminated buffer, gzip
 * or not.  Returns NULL with a diagnostic on failure. */
char *vc_read_all(struct vc_ctx *ctx, const char *path, size_t *len);

/* ---- sinks ----
 * Empties a memory sink for its next use, keeping its buffer when that
 * holds at most keep bytes (a bigger one is freed): 0, or -1 when s is no
 * memory sink or a write to it failed, and a fresh one must take its place.
 * Where a sink is filled and emptied for every game (parallel.c), one
 * allocation and free a game less. */
int vc_sink_mem_reset(struct vc_sink *s, size_t keep);

#endif
