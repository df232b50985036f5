/*
 * archive/vc_archive.h - the archive layer of libvchess (internal): the
 * private interfaces between its files, each declared once.
 *
 *   game.c        the game record, and the builder the readers fill it with
 *   xml_common.c  the byte escape of values XML cannot hold; libxml2 kept
 *                 quiet and set up
 *   canon.c       the canonical form that every writer writes
 *   write_text.c, write_xml.c, write_json.c
 *                 one game in each format, called by the writer object
 *                 (writer.c)
 */
#ifndef VC_ARCHIVE_H
#define VC_ARCHIVE_H

#include <string.h>

#include "rules/vc_rules.h"

/* ---- the game builder (game.c), for the text and XML readers ----
 * A reader starts a game, adds items and tags as it meets them, ends it
 * with its raw bytes (items that point into raw are fixed up then). */
void vc_game_build_start(struct vc_game *g, const char *file, long number, long line);
struct vc_item *vc_game_build_item(struct vc_game *g, enum vc_item_type type, size_t off,
				   size_t len, long line, long col);
struct vc_item *vc_game_build_item_at(struct vc_game *g, size_t i);
int vc_game_build_tag(struct vc_game *g, const char *name, size_t nlen, const char *value,
		      size_t vlen, int unescape, long line, long col);
int vc_game_build_has_tag(const struct vc_game *g, const char *name, size_t nlen);
void vc_game_build_result(struct vc_game *g, const char *result, long line, long col);
int vc_game_build_finish(struct vc_game *g, const char *raw, size_t len, int garbage);
int vc_game_build_oom(const struct vc_game *g);
/* What the text reader learnt of the game's comments while it scanned
 * them: VC_RECORDS_NONE, none holds a multi-player record command (annot.c
 * then skips them all), or VC_RECORDS_MAYBE.  A game starts, and becomes
 * again once an item is added to it afterwards, VC_RECORDS_UNKNOWN. */
enum { VC_RECORDS_UNKNOWN = -1, VC_RECORDS_NONE = 0, VC_RECORDS_MAYBE = 1 };
void vc_game_build_records(struct vc_game *g, int records);
int vc_game_records(const struct vc_game *g);
/* Does the text at p ('['), left bytes long, open a record command:
 * "[%by", "[%draw" or "[%comment" (annot.c reads them)?  Lichess's
 * "[%clk" and "[%eval", the usual ones, fail on their first letters. */
static inline int vc_record_command_at(const char *p, size_t left)
{
	return left >= 4 && p[1] == '%' &&
	       ((p[2] == 'b' && p[3] == 'y') ||
		(p[2] == 'd' && p[3] == 'r' && left >= 6 && !memcmp(p + 2, "draw", 4)) ||
		(p[2] == 'c' && p[3] == 'o' && left >= 9 && !memcmp(p + 2, "comment", 7)));
}

/* ---- the text reader's context (pgn_read.c), for parallel.c ----
 * What r and its input report goes to ctx from now on; returns the
 * context it went to.  A reading worker's reports are then held in a
 * context of its own until the games before them are handed over. */
struct vc_ctx *vc_reader_swap_ctx(struct vc_reader *r, struct vc_ctx *ctx);

/* ---- XML's byte escape and libxml2's globals (xml_common.c) ---- */
/* Length of the XML character (UTF-8) at s, or 0 when the byte at s cannot
 * stand in XML. */
size_t vc_xml_char(const unsigned char *s, size_t n);
/* Does a value need the escape (some byte is no XML character, or it holds
 * a backslash)?  The escape: "\\" for a backslash, "\xNN" for such a byte. */
int vc_esc_needed(const char *s, size_t n);
void vc_esc_encode(struct vc_buf *b, const char *s, size_t n);
/* The inverse of vc_esc_encode, appended to b; -1 when out of memory. */
int vc_esc_decode(struct vc_buf *b, const char *s, size_t n);
/* libxml2 prints some errors through global handlers: they are made silent
 * while it works for us, and restored afterwards. */
struct vc_xml_quiet {
	void *gen, *genctx, *st, *stctx;
};
void vc_xml_quiet_on(struct vc_xml_quiet *q);
void vc_xml_quiet_off(const struct vc_xml_quiet *q);
/* Sets up libxml2's globals, in the caller's thread, before any worker
 * thread writes XML. */
void vc_xml_global_init(void);

/* ---- the validator's late marks (validate.c), for the replay ----
 * With a mark function set beside the move function, the validator hands
 * the move function each move's SAN without its check or mate mark, and
 * the mark ("+", "#" or "") to the mark function once the move is made and
 * its marks checked: the mark is then known without a search of its own.
 * Each call of the move function is followed by one of the mark function
 * for the same item, before any other move is replayed. */
typedef void vc_mark_fn(void *user, size_t item, const char *mark);
void vc_validator_set_mark_fn(struct vc_validator *val, vc_mark_fn *fn);

/* ---- the replay (replay.c), for the canonical form ---- */
/* The side and move number of a move the replay made (item must be one). */
void vc_replay_numbering(const struct vc_replay *rp, size_t item, int *side, long *num);
/* The positions of the main line of the game last replayed, for selections
 * (select_pos.c): fn gets the start, then the position after each main-line
 * move that was replayed, in order; next is the move made from p, NULL at
 * the last position.  p belongs to rp and may be made and unmade on, if
 * given back as it was.  fn returns 0 to go on, 1 to stop, -1 when out of
 * memory.  vc_replay_walk returns 0; 1 when the game has no position
 * (text that is no game, a variant not known, a start that does not read);
 * -1 when out of memory.  *whole is 1 when every main-line move was
 * replayed and the walk went to the end. */
typedef int vc_walk_fn(void *user, struct vc_position *p, const vc_move *next);
int vc_replay_walk(struct vc_replay *rp, const struct vc_game *g, vc_walk_fn *fn, void *user,
		   int *whole);

/* ---- the position terms of selections (select_pos.c), for select.c ----
 * A term about the positions of a game's main line, read from the
 * expression expr: vc_sel_pos_word reads the words checkmate, stalemate
 * and ended; vc_sel_pos_read a term of name (k bytes, followed by its
 * operator) whose value is v, a place in expr: position=, final=,
 * material=, material>=, moves=, end=.  Both return 0 with *out made, 1
 * when the word or name is none of theirs, -1 when out of memory or (read)
 * the term does not read, err filled with the column in expr. */
struct vc_sel_pos;
int vc_sel_pos_word(const char *w, struct vc_sel_pos **out);
int vc_sel_pos_read(const char *expr, const char *name, size_t k, const char *v,
		    struct vc_sel_pos **out, struct vc_select_error *err);
void vc_sel_pos_free(struct vc_sel_pos *t);
/* Fills err (when not NULL) with the message, the fault being at byte at of the
 * expression; returns -1.  Shared by select.c and select_pos.c. */
int vc_select_fail(struct vc_select_error *err, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Decides the n terms t against the main line of g, which rp replayed
 * last: res[i] 1 when t[i] holds, else 0 (all 0 without a variant).  Only
 * reads the terms.  0, or -1 when out of memory. */
int vc_sel_pos_match(struct vc_sel_pos *const *t, size_t n, const struct vc_game *g,
		     struct vc_replay *rp, uint8_t *res);

/* ---- the canonical form (canon.c), its storage, for the writers ---- */
/* The annotations of a move as data (vchess-xml(5)): read from the
 * [%clk], [%emt], [%eval], [%cal] and [%csl] commands of the comments that
 * follow the move, up to the next move or variation; the comments
 * themselves stay as they are.  Strings are "" when the move has none. */
struct vc_mark {
	char color;           /* R, G, Y or B */
	char from[4], to[4];  /* squares; to is "" for a square ([%csl]) */
};
struct vc_move_data {
	char clk[24], emt[24]; /* as written: H:MM:SS, maybe with a fraction */
	char eval[24];         /* pawns, as a JSON number */
	char mate[8];          /* mate in N moves, signed, as a JSON number */
	char depth[8];         /* the depth of the evaluation */
	size_t mark0, nmark;   /* arrows and squares: vc_canon_mark(c, mark0 + k) */
};
/* The data of move event i, or NULL when it has none (or data were not
 * asked for: c->want_data). */
const struct vc_move_data *vc_canon_data(const struct vc_canon *c, size_t i);
const struct vc_mark *vc_canon_mark(const struct vc_canon *c, size_t k);

struct vc_canon {
	struct vc_cev *ev;
	size_t n, cap;
	size_t *poff; /* per event: offset of its text in pool, or (size_t)-1 */
	struct vc_buf pool;
	struct vc_buf tmp;
	struct vc_canon_frame *fr;
	size_t nfr, capfr;
	unsigned char *mark; /* leading comments that are ours (see the build) */
	size_t capmark;
	int want_data;       /* read the moves' data (XML, JSON), set by the writer */
	long *dix;           /* per event: its index in md, or -1 */
	size_t capdix;
	struct vc_move_data *md;
	size_t nmd, capmd;
	struct vc_mark *mk;
	size_t nmk, capmk;
	int oom;
};

/* ---- one game in each format, for the writer object (writer.c) ---- */
/* Canonical text folded at width columns, appended to b; -1 out of memory. */
int vc_text_game(struct vc_buf *b, const struct vc_game *g, const struct vc_canon *c,
		 size_t width);
/* The position strings of the FEN format, appended to b. */
void vc_fen_game(struct vc_buf *b, const struct vc_replay *rp, int plies);
/* The EPD lines of the main line (vchess-convert(1)), appended to b. */
void vc_epd_game(struct vc_buf *b, const struct vc_game *g, const struct vc_replay *rp);
/* One JSON line; -1 out of memory. */
int vc_json_game(struct vc_buf *out, const struct vc_game *g, const struct vc_replay *rp,
		 const struct vc_canon *c, const struct vc_write_opts *o);
/* An XML archive written game by game into a sink. */
struct vc_xml_out;
struct vc_xml_out *vc_xml_out_open(struct vc_ctx *ctx, struct vc_sink *sink,
				   const struct vc_write_opts *o);
int vc_xml_out_game(struct vc_xml_out *x, const struct vc_game *g, const struct vc_replay *rp,
		    const struct vc_canon *c);
int vc_xml_out_close(struct vc_xml_out *x);
/* For tests: every element through libxml2's own writer, to compare with
 * the serialiser of write_xml.c. */
void vc_xml_out_pure(struct vc_xml_out *x, int on);
void vc_writer_xml_pure(struct vc_writer *w, int on);

#endif
