/*
 * archive/convert.h - the converter (vc_convert, vchess.h) inside: the
 * object, and the interfaces between its files (internal).
 *
 *   convert.c      the object, one input at a time, the loop of one thread
 *   convert_par.c  the loop of several threads (vc_parallel_each's stages)
 *   convert_out.c  what both loops do with a game taken: the output (split
 *                  into files), the rejects file, telling the caller
 *   tagfix.c       tag work on the games written, and what it did
 *   dupes.c        repeated games: the keys, the table of those seen
 *   held.c         diagnostics passed on to the caller, or held back to be
 *                  passed on in input order; the names inputs are shown by
 *   relay.c        a pipe's first bytes read to tell its format, and handed
 *                  on with the rest through a pipe of our own
 *
 * Each calls only the files listed after it.
 */
#ifndef VC_ARCHIVE_CONVERT_H
#define VC_ARCHIVE_CONVERT_H

#include <pthread.h>

#include "archive/vc_archive.h"

/* The output: one document, or a new file each split games. */
struct vc_cv_out {
	struct vc_ctx *ctx;
	const char *path; /* NULL: standard output */
	int gzip;
	enum vc_format fmt;
	const struct vc_write_opts *wo;
	long split, in_file;
	int part;
	struct vc_sink *sink;
	struct vc_writer *w;
	int failed;
};

/* The rejects file: raw bytes, or text for games that have none (XML). */
struct vc_cv_rejects {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	struct vc_writer *w;
	int failed;
};

/* What holds a pipe's first bytes and relays them, then the rest. */
struct vc_cv_relay {
	int src, dst;
	unsigned char *pre;
	size_t npre;
	pthread_t th;
	int running;
};

/* A game's key for finding repeats (dupes.c). */
struct vc_dup_key {
	uint64_t a, b;
};
/* What makes keys: a position for start positions, kept per variant. */
struct vc_dup_keyer {
	struct vc_position *pos;
	const struct vc_variant *v;
	uint64_t start; /* the variant's start, when have_start */
	int have_start;
};
/* The earlier game a key was seen in. */
struct vc_dup_seen {
	long number, line;  /* line 0: unknown */
	const char *file;
};
struct vc_dupes;

/* What tag work did to a game (tagfix.c). */
struct vc_cv_tagnote {
	unsigned changed;      /* VC_TAGS_* */
	char from[16], to[16]; /* the result fixed */
	char why[96];
	long line, col;        /* where the result fixed was read, or 0 */
};

struct vc_cv_worker;

struct vc_convert {
	struct vc_ctx *user_ctx; /* the caller's: where everything is reported */
	struct vc_ctx *ctx;      /* ours, for the readers and writers: vc_cv_forward */
	struct vc_convert_opts o;
	struct vc_validate_opts vo;
	struct vc_validator *val; /* one thread */
	struct vc_replay *rp;
	struct vc_game *g;
	struct vc_cv_out out;
	struct vc_cv_rejects rj;
	struct vc_convert_counts c;
	struct vc_eco *eco; /* add_eco: the books, shared by the threads */
	long number; /* of the next game read: inputs go on counting */
	/* the input at hand */
	enum vc_format from;
	char fdpath[32];   /* the relay's /dev/fd/N ... */
	const char *shown; /* ... shown as this name, or NULL */
	struct vc_reader *tr;
	struct vc_xml_reader *xr;
	/* several threads: what reading ahead has left */
	struct vc_buf *holding; /* where our context's diagnostics go, or NULL */
	struct vc_buf pending;  /* the reader's diagnostics since the last game read */
	int stop;               /* nothing more of this input: a fatal replay, failed output */
	int read_fatal;         /* the input failed */
	long read_number;       /* the number after the last game read */
	/* workers kept from one input to the next (each has loaded variants) */
	pthread_mutex_t idle_lock;
	struct vc_cv_worker *idle;
	/* repeats: the keys seen (NULL: not asked for), the duplicates file */
	struct vc_dupes *dupes;
	struct vc_dup_keyer keyer; /* one thread */
	struct vc_cv_out dup;
};

/* ---- held.c ---- */
/* The name to show for a file: the relay's /dev/fd/N as the input was
 * given. */
const char *vc_cv_shown(const struct vc_convert *cv, const char *file);
/* The diagnostics callback of cv->ctx (user: cv): held while cv->holding,
 * else passed on to the caller's context. */
void vc_cv_forward(const struct vc_diag *d, void *user);
/* Appends a copy of d to b. */
void vc_cv_hold(struct vc_buf *b, const struct vc_diag *d);
/* Passes on the diagnostics held in p[from, to), in order. */
void vc_cv_release(const struct vc_convert *cv, const char *p, size_t from, size_t to);

/* ---- relay.c ---- */
/* Reads the first bytes of name (a pipe, or "-": standard input), tells
 * their format into *fmt and starts relaying them with the rest; fdpath
 * gets /dev/fd/N to read them from.  Returns N, or -1 (reported to ctx);
 * either way vc_cv_relay_end must follow. */
int vc_cv_relay_start(struct vc_cv_relay *r, struct vc_ctx *ctx, const char *name, char *fdpath,
		      size_t fdn, int *fmt);
/* Closes readfd (if >= 0), which stops the relay, and waits for it. */
void vc_cv_relay_end(struct vc_cv_relay *r, int readfd);

/* ---- convert_out.c ---- */
int vc_cv_out_open(struct vc_cv_out *o);
int vc_cv_out_close(struct vc_cv_out *o);
/* Goes on with the next file of a split output when this one is full. */
int vc_cv_out_turn(struct vc_cv_out *o);
int vc_cv_out_game(struct vc_cv_out *o, const struct vc_game *g, const struct vc_replay *rp);
/* The raw bytes of a game to the rejects file, then a blank line. */
int vc_cv_reject_raw(struct vc_cv_rejects *rj, const char *raw, size_t len);
/* The writer of the rejects file, for games that have no raw bytes. */
int vc_cv_reject_writer(struct vc_cv_rejects *rj);
int vc_cv_reject(struct vc_cv_rejects *rj, const struct vc_game *g, const struct vc_replay *rp);
/* What becomes of a game taken. */
enum vc_convert_fate vc_cv_fate(const struct vc_convert *cv, const struct vc_game *g, int valid);
/* Counts a game taken and tells the caller (opts.game). */
void vc_cv_tell(struct vc_convert *cv, const struct vc_game *g, int valid,
		enum vc_convert_fate fate);

/* ---- dupes.c ---- */
/* The key of g (valid, just replayed through val into rp): 0, or -1 when
 * it has none (not set up, out of memory). */
int vc_dup_key_of(struct vc_dup_keyer *k, enum vc_dup_by by, const struct vc_game *g,
		  const struct vc_replay *rp, const struct vc_validator *val, struct vc_dup_key *key);
void vc_dup_keyer_free(struct vc_dup_keyer *k);
/* remember: keep each first game's number, file and line (for -v). */
struct vc_dupes *vc_dupes_new(int remember);
void vc_dupes_free(struct vc_dupes *d);
/* 1 when k was seen (*seen: the first game with it, when remembered), else
 * 0 and k is kept, with the game's number, line and file when remembered;
 * -1 out of memory. */
int vc_dupes_check(struct vc_dupes *d, const struct vc_dup_key *k, long number, long line,
		   const char *file, struct vc_dup_seen *seen);
long vc_dupes_count(const struct vc_dupes *d);
size_t vc_dupes_bytes(const struct vc_dupes *d);
/* In input order: 1 when g (key k) repeats an earlier game (counted, and
 * the -v note), 0 when it is the first, -1 out of memory (reported). */
int vc_cv_repeat(struct vc_convert *cv, const struct vc_game *g, const struct vc_dup_key *k);

/* ---- tagfix.c ---- */
/* Options that cannot be followed (a tag the moves need dropped): -1,
 * reported to ctx. */
int vc_cv_tags_check(struct vc_ctx *ctx, const struct vc_convert_opts *o);
/* Does o's tag work on g, replayed through val (st its stats: valid is
 * updated when a fixed result mends the game); n says what changed.  0, or
 * -1 out of memory. */
int vc_cv_tagwork(const struct vc_convert_opts *o, struct vc_game *g, struct vc_game_stats *st,
		  const struct vc_validator *val, struct vc_cv_tagnote *n);
/* The HashCode tag of a valid game (o->tags & VC_TAGS_HASHCODE), after
 * vc_cv_tagwork: its key by moves, made with k.  0, or -1 out of memory. */
int vc_cv_hashcode(const struct vc_convert_opts *o, struct vc_dup_keyer *k, struct vc_game *g,
		   const struct vc_replay *rp, const struct vc_validator *val, int valid,
		   struct vc_cv_tagnote *n);
/* In input order, for a game written: counts n, notes a fixed result. */
void vc_cv_tagnote_tell(struct vc_convert *cv, const struct vc_game *g,
			const struct vc_cv_tagnote *n);

/* ---- convert_par.c ---- */
/* The input at hand (cv->tr or cv->xr) through cv->o.each. */
void vc_cv_run_parallel(struct vc_convert *cv);
void vc_cv_workers_free(struct vc_convert *cv);

#endif
