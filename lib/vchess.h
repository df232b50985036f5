/*
 * vchess.h - the one public header of libvchess, a rules library for chess
 * variants described as data.
 *
 * Ownership, once for the whole API:
 *  - Every object made by a vc_<object>_new / _open / _load function is
 *    owned by the caller and released by the matching _free / _close, which
 *    accepts NULL.
 *  - Strings returned by accessors stay owned by the object they come from
 *    and are valid until that object changes or is freed.
 *  - A variant is immutable once loaded; positions and games keep a pointer
 *    to it, so free the variant last.
 *  - Contexts (struct vc_ctx) carry the diagnostics callback; objects made
 *    with one context may be used from one thread at a time.  Distinct
 *    contexts and their objects may be used from distinct threads.
 *
 * The library never prints and never exits: problems are reported through
 * the context's diagnostics callback and a returned status.
 */
#ifndef VCHESS_H
#define VCHESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VC_VERSION "0.1.0"

/* ---- status and diagnostics ------------------------------------------ */

typedef enum vc_status {
	VC_OK = 0,     /* done */
	VC_END = 1,    /* nothing more to read */
	VC_WARNING = 2,/* done, with warnings reported */
	VC_FAILED = 3, /* this item failed; the caller may go on with the next */
	VC_FATAL = 4   /* nothing more can be done with this object */
} vc_status;

enum vc_severity { VC_SEV_NOTE, VC_SEV_WARNING, VC_SEV_ERROR, VC_SEV_FATAL };

/* One diagnostic.  Every pointer may be NULL; numbers are 0 when unknown. */
struct vc_diag {
	enum vc_severity severity;
	const char *code;    /* stable identifier, e.g. "move-illegal" */
	const char *file;    /* input name as given by the caller */
	long line, col;      /* 1-based */
	const char *context; /* e.g. "game 12 (White - Black), ply 45 '23. Nxe5'" */
	const char *message; /* lower case, no final period */
};

typedef void vc_diag_fn(const struct vc_diag *d, void *user);

struct vc_ctx;
struct vc_ctx *vc_ctx_new(void);
void vc_ctx_free(struct vc_ctx *ctx);
/* fn may be NULL: diagnostics are then only counted and kept as "last". */
void vc_ctx_set_diag(struct vc_ctx *ctx, vc_diag_fn *fn, void *user);
/* The message of the last diagnostic of at least warning severity, or "". */
const char *vc_ctx_last_message(const struct vc_ctx *ctx);
unsigned long vc_ctx_count(const struct vc_ctx *ctx, enum vc_severity sev);
void vc_ctx_reset_counts(struct vc_ctx *ctx);
/* Text of a severity: "note", "warning", "error", "fatal". */
const char *vc_severity_name(enum vc_severity sev);
/* How far the inputs read with ctx are, for a progress display: fn (NULL:
 * none) is called as an input that is a file (standard input redirected
 * from one included) is read, in the thread that reads it, with the
 * input's name as diagnostics give it, the bytes of the file read so far
 * (compressed bytes for gzip) and its size.  Inputs of unknown size
 * (pipes, memory) do not call it. */
typedef void vc_progress_fn(void *user, const char *input, uint64_t done, uint64_t size);
void vc_ctx_set_progress(struct vc_ctx *ctx, vc_progress_fn *fn, void *user);
/* The gzip decoder of the inputs read with ctx: VC_INFLATE_AUTO (the
 * default) is ISA-L's igzip when the library was built with it (the
 * fastest), else zlib's; VC_INFLATE_ZLIB is zlib's.  Both give the same
 * bytes and the same diagnostics (codes, files, severities) on damaged
 * data; only the words after "invalid gzip data: " may differ.  Returns
 * the name of the one inputs opened from now on use: "isa-l" or "zlib". */
enum vc_inflater { VC_INFLATE_AUTO, VC_INFLATE_ZLIB };
const char *vc_ctx_set_inflater(struct vc_ctx *ctx, enum vc_inflater which);
/* Whether variants loaded with ctx from now on use the bitboard core where
 * their board and pieces fit it (on, the default) or the general way alone
 * (0): the same answers, slower; for checking one against the other. */
void vc_ctx_set_bitboards(struct vc_ctx *ctx, int on);

/* ---- variants -------------------------------------------------------- */

struct vc_variant;

/* Loads a built-in variant by name or alias (compared on letters and digits
 * alone, in any case: "King of the Hill" is "king-of-the-hill"), or, when
 * name_or_path names a readable file (it contains '/' or ends in .yaml),
 * that file.  Every problem of a file is reported, positioned. */
struct vc_variant *vc_variant_load(struct vc_ctx *ctx, const char *name_or_path);
struct vc_variant *vc_variant_load_file(struct vc_ctx *ctx, const char *path);
struct vc_variant *vc_variant_load_mem(struct vc_ctx *ctx, const char *name,
				       const char *text, size_t len);
void vc_variant_free(struct vc_variant *v);

/* Built-in variants: count, then the canonical name and the title of each. */
int vc_builtin_count(void);
const char *vc_builtin_name(int i);
const char *vc_builtin_title(int i);
/* Maps a name or alias to a built-in's canonical name, or NULL. */
const char *vc_builtin_lookup(const char *name);
/* The built-ins whose name or an alias is nearest to name, for a name that
 * is none of them: their indexes into out (at most cap), nearest first, and
 * their count.  Near means within one edit (a letter added, dropped,
 * changed, or two swapped) in three letters, at least one, compared as
 * lookups compare (letters and digits, any case); a name that starts a
 * longer one is one edit from it.  0 when none is near. */
int vc_builtin_suggest(const char *name, int *out, int cap);

const char *vc_variant_name(const struct vc_variant *v);
const char *vc_variant_title(const struct vc_variant *v);
int vc_variant_files(const struct vc_variant *v);
int vc_variant_ranks(const struct vc_variant *v);
int vc_variant_piece_count(const struct vc_variant *v);
/* Piece type index by symbol ("CN") or lower-case hyphenated name
 * ("crooked-knight"); -1 if none. */
int vc_variant_piece_find(const struct vc_variant *v, const char *name);
const char *vc_variant_piece_symbol(const struct vc_variant *v, int type);
const char *vc_variant_piece_name(const struct vc_variant *v, int type);
const char *vc_variant_start_fen(const struct vc_variant *v);

/* ---- squares ----------------------------------------------------------- */

/* Writes the square's name ("a1", "p16", "z26") into buf (at least 4 bytes);
 * returns the length. */
int vc_square_name(const struct vc_variant *v, int sq, char *buf);
/* Parses a square name at s; returns the square and sets *used to the number
 * of bytes read, or returns -1.  Accepts the variant's file-letter aliases. */
int vc_square_parse(const struct vc_variant *v, const char *s, int *used);
/* Reads the whole string s as a square, in any notation the variant's moves
 * name squares in: the name vc_square_parse reads ("e4", a file's alias),
 * and where the variant reads them, shogi's ("7f", "76": the file counted
 * from the right, the rank from the top) and janggi's ("08": the rank's
 * digit from the top, 0 the tenth, then the file's).  Returns the square,
 * or -1. */
int vc_square_read(const struct vc_variant *v, const char *s);

/* ---- moves and positions ----------------------------------------------- */

/* A move.  Squares are indexes rank * files + file; -1 when unused. */
typedef struct vc_move {
	int16_t from, to;   /* from is -1 for a drop */
	int16_t from2, to2; /* second squares of a two-square piece, or -1 */
	int16_t aux;        /* castling: partner square; exchange promotion:
			       source square or -2 airfield, -3 prison */
	uint8_t piece;      /* moving (or dropped) piece type */
	uint8_t promo;      /* promotion type + 1, 0 none */
	uint16_t flags;     /* VC_MF_* */
	uint8_t extra;      /* castling right index, reserve index */
	uint8_t gate;       /* with VC_MF_GATE: the type of the piece gated in from the hand */
} vc_move;

#define VC_MF_CAPTURE 0x0001
#define VC_MF_EP 0x0002
#define VC_MF_CASTLE 0x0004
#define VC_MF_DROP 0x0008
#define VC_MF_SELF 0x0010    /* self-capture */
#define VC_MF_PROMO 0x0020
#define VC_MF_XPROMO 0x0040  /* promotion by exchange */
#define VC_MF_NULL 0x0080    /* a null move (pass), as in analysis files */
#define VC_MF_WALL 0x0100    /* two-square piece move */
#define VC_MF_DOUBLE 0x0200  /* a step of several squares that leaves en-passant targets */
#define VC_MF_MORPH 0x0400   /* the mover turns into the captured piece's type (vampire) */
#define VC_MF_TWOCAP 0x0800  /* captures on two squares (two-square pieces) */
#define VC_MF_GATE 0x1000    /* a piece of the hand enters on the square left (gating) */
#define VC_MF_GATE_PARTNER 0x2000 /* castling's gate on the partner's square, not the king's */

struct vc_position;

struct vc_position *vc_position_new(const struct vc_variant *v);
void vc_position_free(struct vc_position *p);
/* Copies src into dst (same variant). */
void vc_position_copy(struct vc_position *dst, const struct vc_position *src);
/* Sets the variant's start position. */
void vc_position_start(struct vc_position *p);
/* Reads a position string; on error reports it (col relative to fen start)
 * and returns VC_FAILED leaving p unchanged. */
vc_status vc_position_set_fen(struct vc_position *p, struct vc_ctx *ctx,
			      const char *fen);
/* Writes the position string into buf (size n); returns the length it
 * needs (like snprintf). */
size_t vc_position_fen(const struct vc_position *p, char *buf, size_t n);

const struct vc_variant *vc_position_variant(const struct vc_position *p);
int vc_position_side(const struct vc_position *p); /* 0 white, 1 black */
uint64_t vc_position_hash(const struct vc_position *p);
int vc_position_in_check(const struct vc_position *p);
/* 0 game goes on, 1 checkmate (side to move lost), 2 stalemate. */
int vc_position_outcome(const struct vc_position *p);
/* The end of the game in a position: first the variant's own rules (a king
 * on the hill, a third check, a king blown up, a side without pieces: see
 * vchess-variant(5) END OF THE GAME), then checkmate and stalemate. */
enum vc_end_rule {
	VC_END_NONE,       /* the game goes on */
	VC_END_CHECKMATE,  /* side: the side checkmated */
	VC_END_STALEMATE,  /* side: the side that cannot move */
	VC_END_NO_PIECES,  /* side: the side with no piece left */
	VC_END_ROYAL_LOST, /* side: the side whose royal piece is gone */
	VC_END_CHECKS,     /* side: the side that gave the deciding check */
	VC_END_REGION,     /* side: the side whose piece reached its region (White when both did) */
	VC_END_PASSES,     /* side: the side to move, after both sides passed in a row */
	VC_END_FACING,     /* side: the side that passed with the royal pieces facing each other */
	VC_END_EXTINCT     /* side: the side left with too few pieces of a kind (extinction) */
};
struct vc_end {
	enum vc_end_rule rule;
	int side;           /* 0 White, 1 Black: the side the rule is about */
	const char *result; /* "1-0", "0-1" or "1/2-1/2"; NULL while the game goes on */
	char text[96];      /* what happened: "checkmate", "White's king reached the hill" */
};
/* Fills e (which may be NULL) and returns its rule. */
enum vc_end_rule vc_position_end(const struct vc_position *p, struct vc_end *e);

/* Piece at a square: type index, or -1 empty; *color gets 0, 1 or 2 (neutral). */
int vc_position_piece_at(const struct vc_position *p, int sq, int *color);
/* Plies played since the start of the game (for scheduled transformations). */
long vc_position_ply(const struct vc_position *p);
/* Plies left before the next scheduled board transformation, or -1. */
int vc_position_plies_to_transform(const struct vc_position *p);

/* Legal moves: fills out (capacity cap) and returns the count, or -1 when
 * out of memory. */
int vc_position_legal_moves(const struct vc_position *p, vc_move *out, int cap);
/* Makes a move (which must come from vc_position_legal_moves); each make
 * must be undone by vc_position_unmake in reverse order, or the position
 * may simply be freed. */
void vc_position_make(struct vc_position *p, const vc_move *m);
void vc_position_unmake(struct vc_position *p);
/* Number of moves made that can still be unmade. */
int vc_position_depth(const struct vc_position *p);

/* Perft: number of leaf nodes at depth. */
uint64_t vc_perft(struct vc_position *p, int depth);
/* The same with flags: VC_PERFT_GENERAL counts over the general move
 * generator even where the variant fits the bitboard core (the counts are
 * the same; for tests and measurements). */
#define VC_PERFT_GENERAL 1u
uint64_t vc_perft_ex(struct vc_position *p, int depth, unsigned flags);

/* Move text.  Writes SAN in the variant's dialect (long algebraic when
 * long_form); returns the length. */
int vc_move_san(const struct vc_position *p, const vc_move *m, int long_form,
		char *buf, size_t n);

/* Move in coordinates, as engines write them: "e2e4", "e7e8q", "N@e4",
 * castling as the king's move, naming every choice the move makes
 * ("a7a8n(c3)": the piece a promotion by exchange trades places with), so
 * that the text reads back as exactly this move.  Returns the length. */
int vc_move_coord(const struct vc_variant *v, const vc_move *m, char *buf, size_t n);

/* Move in shogi's Western notation, as Fairy-Stockfish writes it: style
 * VC_SHOGI_HODGES "P-7f", "Bx2b+", "P*5e", "G6i-5i", "S-5d=", "+Rx3a";
 * VC_SHOGI_HODGES_NUMBER the same with the rank numbered ("P-76");
 * VC_SHOGI_HOSKING "P76", "P'55", "G69-59".  Files are numbered from the
 * right, ranks from the top; no check mark.  Returns the length, or -1 for
 * a move the notation cannot write (castling, a gate, a two-square piece,
 * a pass) or a board wider than 9 files (higher than 9 ranks for the
 * numbered styles, 26 for Hodges).  See vchess-shogi(7). */
#define VC_SHOGI_HODGES 1
#define VC_SHOGI_HODGES_NUMBER 2
#define VC_SHOGI_HOSKING 3
int vc_move_shogi(const struct vc_position *p, const vc_move *m, int style, char *buf, size_t n);

#define VC_MAX_MOVES 4096

/* ---- rendering helpers --------------------------------------------------- */

/* A piece's moves on an empty board, drawn in the style of the Io Chess
 * rule text ('.' empty, '+' reachable, the piece's letter on its square).
 * files/ranks 0 mean the variant's own board.  Returns a malloc'd string
 * or NULL (with a diagnostic). */
char *vc_piece_diagram(struct vc_ctx *ctx, const struct vc_variant *v, int type,
		       int files, int ranks, int sq);


/* ---- output sinks -------------------------------------------------------- */

/* A sink receives output bytes: a file (written to a temporary file in the
 * same directory and renamed into place by vc_sink_close, so an interrupted
 * run never leaves a half-written file under the final name), standard
 * output ("-"), memory, or a callback.  gzip != 0 compresses with zlib.
 * Write errors are sticky: they are reported once, at the failing write or
 * at close, and vc_sink_close then returns VC_FATAL. */
struct vc_sink;
typedef int vc_write_fn(void *user, const void *data, size_t len); /* 0 ok */
struct vc_sink *vc_sink_open(struct vc_ctx *ctx, const char *path, int gzip);
struct vc_sink *vc_sink_mem(struct vc_ctx *ctx);
struct vc_sink *vc_sink_callback(struct vc_ctx *ctx, vc_write_fn *fn, void *user);
int vc_sink_write(struct vc_sink *s, const void *data, size_t len); /* 0 ok, -1 failed */
int vc_sink_puts(struct vc_sink *s, const char *str);
int vc_sink_printf(struct vc_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Memory sinks: the bytes written so far (not NUL-terminated). */
const char *vc_sink_data(const struct vc_sink *s, size_t *len);
int vc_sink_failed(const struct vc_sink *s);
/* Flushes, finishes gzip, renames a file into place; frees the sink. */
vc_status vc_sink_close(struct vc_sink *s);
/* Discards a file sink's temporary file; frees the sink. */
void vc_sink_abort(struct vc_sink *s);

/* ---- game records ---------------------------------------------------------- */

/* A game as read: its tags in order (duplicates kept), a flat list of
 * movetext items (moves, comments, NAGs, variation brackets, escape lines)
 * whose variation brackets nest to any depth without recursion, the
 * result, the game's own raw bytes as they stood in the input, and the
 * diagnostics found while reading and validating it. */
struct vc_game;

enum vc_item_type {
	VC_IT_MOVE,      /* text = the move as written, suffix = "!?" etc. */
	VC_IT_COMMENT,   /* text = comment body without its braces or ';' */
	VC_IT_NAG,       /* nag = the number of $n */
	VC_IT_VAR_START, /* '(' */
	VC_IT_VAR_END,   /* ')' */
	VC_IT_ESCAPE     /* a '%' line inside the game, text without the '%' */
};

/* item flags */
#define VC_IF_SEMICOLON 0x01 /* comment written with ';' */
#define VC_IF_MOVENUM 0x02   /* move was preceded by a move number */
#define VC_IF_EP_MARK 0x04   /* move was followed by "e.p." */
#define VC_IF_NULL 0x08      /* null move ("--", "Z0") */

struct vc_item {
	enum vc_item_type type;
	unsigned flags;
	long line, col;
	const char *text;   /* not NUL-terminated; use len */
	size_t len;
	const char *suffix; /* moves: "!", "?", "!!", "??", "!?", "?!", or NULL */
	size_t suffix_len;
	int nag;            /* NAG items */
	long movenum;       /* move number written before the move, or 0 */
};

/* A stored diagnostic of one game. */
struct vc_game_diag {
	enum vc_severity severity;
	const char *code;
	long line, col;
	long ply;            /* 0 when not about a ply */
	const char *context; /* may be NULL */
	const char *message;
};

struct vc_game *vc_game_new(void);
void vc_game_free(struct vc_game *g);
void vc_game_clear(struct vc_game *g);

long vc_game_number(const struct vc_game *g);     /* 1-based in the input */
long vc_game_line(const struct vc_game *g);       /* line of its first byte */
const char *vc_game_file(const struct vc_game *g);
/* Nonzero when the bytes were not a game at all (garbage between games). */
int vc_game_is_garbage(const struct vc_game *g);
const char *vc_game_raw(const struct vc_game *g, size_t *len);

size_t vc_game_tag_count(const struct vc_game *g);
const char *vc_game_tag_name(const struct vc_game *g, size_t i);
const char *vc_game_tag_value(const struct vc_game *g, size_t i);
void vc_game_tag_pos(const struct vc_game *g, size_t i, long *line, long *col);
/* Value of the first tag with that name, or NULL. */
const char *vc_game_tag(const struct vc_game *g, const char *name);
int vc_game_add_tag(struct vc_game *g, const char *name, const char *value);
int vc_game_set_tag(struct vc_game *g, const char *name, const char *value);
/* Removes tag i (the later ones move down one). */
void vc_game_remove_tag(struct vc_game *g, size_t i);

size_t vc_game_item_count(const struct vc_game *g);
const struct vc_item *vc_game_item(const struct vc_game *g, size_t i);
int vc_game_add_item(struct vc_game *g, const struct vc_item *it);

/* Result token as written ("1-0", "0-1", "1/2-1/2", "*"), or NULL if the
 * game ended without one. */
const char *vc_game_result(const struct vc_game *g);
void vc_game_result_pos(const struct vc_game *g, long *line, long *col);
int vc_game_set_result(struct vc_game *g, const char *result);

size_t vc_game_diag_count(const struct vc_game *g);
const struct vc_game_diag *vc_game_diag_at(const struct vc_game *g, size_t i);
int vc_game_add_diag(struct vc_game *g, enum vc_severity sev, const char *code,
		     long line, long col, long ply, const char *context,
		     const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* Highest severity among the stored diagnostics, or -1 if none. */
int vc_game_worst(const struct vc_game *g);
/* Removes the stored diagnostics whose code is code; returns how many. */
size_t vc_game_remove_diags(struct vc_game *g, const char *code);

/* ---- reading archives ------------------------------------------------------- */

struct vc_reader_opts {
	int strict;             /* flag the readings of real files as errors */
	long first_game;        /* number given to the first game (default 1) */
	size_t max_game_bytes;  /* 0: the default limit */
	size_t max_line_bytes;  /* 0: the default limit */
	int max_depth;          /* variation nesting; 0: the default limit */
	size_t max_gzip_ratio;  /* 0: the default limit on gzip expansion */
};

/* Reads the PGN-like text format, plain or gzip (recognised by its first
 * bytes), from a file or "-" (standard input), one game at a time in
 * bounded memory.  Problems inside a game are stored in the game; problems
 * with the input itself go to the context. */
struct vc_reader;
struct vc_reader *vc_reader_open(struct vc_ctx *ctx, const char *path,
				 const struct vc_reader_opts *opts);
struct vc_reader *vc_reader_mem(struct vc_ctx *ctx, const char *name,
				const void *data, size_t len,
				const struct vc_reader_opts *opts);
/* Fills g with the next game: VC_OK, VC_END when the input is done, or
 * VC_FATAL on an input error (reported to the context). */
vc_status vc_reader_next(struct vc_reader *r, struct vc_game *g);
void vc_reader_close(struct vc_reader *r);
int vc_reader_is_gzip(const struct vc_reader *r);
/* Reads games until the one numbered number (vc_game_number) and fills g
 * with it: VC_OK; VC_END when the input ends before it; VC_FATAL when the
 * input failed (reported).  *read (may be NULL) gets the count of games
 * read, that one included. */
vc_status vc_reader_find(struct vc_reader *r, struct vc_game *g, long number, long *read);

/* ---- replaying and validating games ---------------------------------------- */

/* A validator replays games through the rules: every move of the main line
 * and of every variation, resolved against the legal moves of its position;
 * check and mate marks, move numbers (strict) and the result against the
 * final position.  Problems are stored in the game (vc_game_add_diag) with
 * the ply and a context such as "ply 45 '23. Nxe5'". */
struct vc_validate_opts {
	int strict;                 /* flag readings and doubtful marks as errors */
	const char *default_variant; /* when a game has no Variant tag; NULL: chess */
	const char *force_variant;   /* if set: every game is replayed as this one */
};

struct vc_game_stats {
	long plies;            /* main-line moves replayed */
	long var_plies;        /* moves replayed inside variations */
	const char *variant;   /* canonical name of the game's variant, or NULL */
	int valid;             /* no error stored for the game */
	int unknown_variant;   /* skipped: its variant is not known */
	enum vc_end_rule end;  /* how the main line's last position ends the game
				  (VC_END_NONE: it goes on, or the line broke off) */
};

/* Called for every move replayed: item is its index in the game; before is
 * the position before it; san the canonical text; depth 0 on the main line. */
typedef void vc_move_fn(void *user, const struct vc_game *g, size_t item,
			const struct vc_position *before, const vc_move *m, const char *san,
			int depth);

struct vc_validator;
struct vc_validator *vc_validator_new(struct vc_ctx *ctx, const struct vc_validate_opts *opts);
void vc_validator_free(struct vc_validator *val);
void vc_validator_set_move_fn(struct vc_validator *val, vc_move_fn *fn, void *user);
/* VC_OK valid, VC_FAILED invalid (problems stored in g), VC_FATAL when the
 * default variant cannot be loaded. */
vc_status vc_validate(struct vc_validator *val, struct vc_game *g, struct vc_game_stats *st);
/* After vc_validate: the position string where each stored diagnostic of
 * index i arose, or NULL (for "-v" boards). */
const char *vc_validator_diag_fen(const struct vc_validator *val, size_t i);
/* The variant used for the last game (NULL if none). */
const struct vc_variant *vc_validator_variant(const struct vc_validator *val);
/* After vc_validate: the final position of the main line, or NULL when the
 * game could not be set up or its main line stopped at a move that failed. */
const struct vc_position *vc_validator_final(const struct vc_validator *val);
/* A variant by name or alias as games name it (cached per validator). */
const struct vc_variant *vc_validator_get_variant(struct vc_validator *val, const char *name);

/* ---- rendering ------------------------------------------------------------------ */

/* A plain ASCII board: rank numbers on the left, files beneath, '.' for an
 * empty square, symbols (upper case White), reserves and the side to move
 * beside it.  Returns a malloc'd string. */
char *vc_position_ascii(const struct vc_position *p);

/* ---- parallel processing in input order ---------------------------------------- */

/* Runs work on every game of a reader with jobs worker threads, a bounded
 * window of games in flight, and hands each game's result to done in input
 * order, in the caller's thread: the output of 8 jobs is byte for byte the
 * output of 1.  Each worker has a state of its own (made by worker_new, for
 * example a validator with its own context).  work writes what it has to
 * say into out (a memory sink) and may fill result (result_size bytes). */
typedef void *vc_worker_new_fn(void *user);
typedef void vc_worker_free_fn(void *state);
typedef void vc_work_fn(void *state, struct vc_game *g, struct vc_sink *out, void *result);
typedef void vc_done_fn(void *user, struct vc_game *g, const char *out, size_t len,
			void *result);

struct vc_parallel_opts {
	int jobs;           /* threads working on games (vc_parallel_run: the caller's is
			     * one of them); 1 runs everything in the caller's thread */
	size_t window;      /* games in flight; 0: 64 per job */
	size_t result_size; /* bytes of each game's result */
	vc_worker_new_fn *worker_new;
	vc_worker_free_fn *worker_free;
	vc_work_fn *work;
	vc_done_fn *done;
	void *user;
};

/* Reads every game of r through the workers.  The workers read, one at a
 * time, a batch of games each and work on their own batch, so a game is
 * built and worked on in one thread; the caller's thread is one of the
 * workers and hands the results over between its batches.  r and ctx are used by one thread at
 * a time, never while done runs: what the reader reports to ctx is held
 * and handed to ctx's callback just before the first game read after it,
 * as one thread would.  VC_OK, or VC_FATAL when the input failed or
 * threads could not be started (reported to ctx). */
vc_status vc_parallel_run(struct vc_ctx *ctx, struct vc_reader *r,
			  const struct vc_parallel_opts *opts);
/* The same for games that next reads from source (an XML reader, say, or
 * a reader that skips games): next fills g with the next game and returns
 * VC_OK, VC_END, or VC_FATAL when the input failed.  It runs in the
 * caller's thread, as done does, up to the window's games ahead of done
 * (so what it reports comes early: hold it for done), and may fill result
 * (zeroed before) with what done should know about the game; when it does
 * not return VC_OK, result is not handed to done, so it must then hold
 * nothing that needs freeing. */
typedef vc_status vc_next_fn(void *source, struct vc_game *g, void *result);
vc_status vc_parallel_each(struct vc_ctx *ctx, vc_next_fn *next, void *source,
			   const struct vc_parallel_opts *opts);
/* The number of online processors (at least 1). */
int vc_cpu_count(void);

/* ---- multi-player records ------------------------------------------------------ */
/* (section owned by lib/archive/annot.c; checked by vc_validate; see vchess-sico(7))
 *
 * Games played by many people, one ply each (SICO), record who played each
 * ply, comments by anyone between plies, and draw offers and acceptances,
 * as comment commands that other PGN readers keep as comments:
 *
 *   1. e4 {[%by "tom"]} 1... e5 {[%by "ann"]}   who played the move before
 *   {[%comment "carl"] a fine move}            carl said the comment's text
 *   {[%comment "carl" "a fine move"]}          the same, the text quoted
 *   {[%draw offer "ann"]}                      ann offers a draw
 *   {[%draw accept "bob"]}                     bob accepts the pending offer
 *   {[%draw decline "dee"]}                    the pending offer fails
 *
 * A name is a quoted string with \" and \\ as escapes; runs of blanks in it
 * count as one space, and blanks at its ends do not count.  A [%by] names
 * the last move before it on its line.  The draw is agreed, and the game
 * ends, when as many different people as the tag DrawAcceptances says
 * (default 3), the offerer not counted, have accepted the pending offer.
 * Other commands ([%clk ...]) are not read here. */

#define VC_ANNOT_WHO_MAX 128 /* a name's bytes, its NUL included */

enum vc_annot_kind {
	VC_ANNOT_OTHER,        /* a command that is no multi-player record */
	VC_ANNOT_MALFORMED,    /* [%by], [%comment] or [%draw] that does not read */
	VC_ANNOT_BY,           /* [%by "NAME"] */
	VC_ANNOT_COMMENT,      /* [%comment "NAME"] or [%comment "NAME" "TEXT"] */
	VC_ANNOT_DRAW_OFFER,   /* [%draw offer "NAME"] */
	VC_ANNOT_DRAW_ACCEPT,  /* [%draw accept "NAME"] */
	VC_ANNOT_DRAW_DECLINE  /* [%draw decline "NAME"] */
};

/* One command of a comment's text. */
struct vc_annot_cmd {
	enum vc_annot_kind kind;
	size_t off, len;            /* the command "[%...]" within the text */
	const char *name;           /* its name, after "[%" (not NUL-terminated) */
	size_t name_len;
	char who[VC_ANNOT_WHO_MAX]; /* the person, unescaped and trimmed, or "" */
	const char *said;           /* [%comment "NAME" "TEXT"]: TEXT as written between its
				       quotes (escapes kept; see vc_annot_unquote), else NULL */
	size_t said_len;
	const char *problem;        /* MALFORMED: what is wrong, e.g. "expected a quoted name" */
};

/* Reads the next command of a comment's text (text, len) at or after *pos
 * (start with 0): returns 1 with *cmd filled and *pos past it, or 0 when
 * there is none left. */
int vc_annot_next(const char *text, size_t len, size_t *pos, struct vc_annot_cmd *cmd);
/* The bytes of a quoted string as written (without its quotes) unescaped,
 * runs of blanks made one space, trimmed, into buf (size n, NUL-terminated
 * when n > 0); returns the length it needs (like snprintf). */
size_t vc_annot_unquote(const char *raw, size_t len, char *buf, size_t n);
/* A comment's text without its commands, blanks as vc_annot_unquote makes
 * them; returns the length it needs. */
size_t vc_annot_plain(const char *text, size_t len, char *buf, size_t n);

/* A game's multi-player record, read from its tags and comments. */
struct vc_annot;

/* A record that says something between plies (every [%by] is an author,
 * not an event). */
struct vc_annot_event {
	enum vc_annot_kind kind;  /* COMMENT or DRAW_* */
	size_t item;              /* the comment item of the game that holds it */
	size_t off, len;          /* the command in that item's text */
	int depth;                /* 0 on the main line, n inside n variations */
	long ply;                 /* the ply it comes before on its line: 1 before the
				     record's first move */
	const char *who;
	const char *text;         /* COMMENT: what was said (unescaped, blanks made single
				     spaces), NUL-terminated; else NULL */
	size_t text_len;
	int ignored;              /* a draw record that changed nothing (a problem says why) */
	int count;                /* DRAW_ACCEPT counted: acceptances of the offer so far */
	int agreed;               /* this acceptance made the draw: the game ends here */
};

/* A record that does not fit, for the validator to report as a warning. */
struct vc_annot_problem {
	const char *code;    /* "annot-malformed", "annot-by", "annot-draw", "annot-tag" */
	long item;           /* the game item, or -1 for the DrawAcceptances tag */
	size_t off;          /* the command's byte offset in the item's text */
	long ply;            /* the ply its comment comes before, 0 for the tag */
	const char *message; /* lower case, no final period */
};

struct vc_annot *vc_annot_new(void);
void vc_annot_free(struct vc_annot *a);
/* Reads the records of g (main line and variations), replacing what a held.
 * 0, or -1 when out of memory. */
int vc_annot_read(struct vc_annot *a, const struct vc_game *g);
/* Who played the move of item i ([%by]), or NULL. */
const char *vc_annot_author(const struct vc_annot *a, size_t item);
size_t vc_annot_event_count(const struct vc_annot *a);
const struct vc_annot_event *vc_annot_event_at(const struct vc_annot *a, size_t i);
size_t vc_annot_problem_count(const struct vc_annot *a);
const struct vc_annot_problem *vc_annot_problem_at(const struct vc_annot *a, size_t i);
/* The acceptances a draw needs: the DrawAcceptances tag, or 3. */
int vc_annot_needed(const struct vc_annot *a);
/* The event (an acceptance on the main line) that agreed the draw, or -1. */
long vc_annot_draw_event(const struct vc_annot *a);

/* ---- writing archives (canonical text, XML, JSON lines) --------------------- */
/* (section owned by the archive layer: lib/archive/replay.c, canon.c, writer.c and
 * the format writers, write_text.c, write_xml.c, write_json.c) */

/* Writing is done in three steps, so that every output format says the
 * same thing about a game:
 *  1. vc_replay_run validates the game and keeps what replaying it gave:
 *     each move's canonical SAN, its squares, optionally the position
 *     after it, the final position.
 *  2. vc_canon_build turns the game and its replay into its canonical
 *     form: a flat list of events (tags in order, moves in canonical SAN,
 *     normalised comments, NAGs, variations, the result, and the comments
 *     the writer adds: errors, text that could not be read, positions).
 *  3. A vc_writer writes that form as text, XML, JSON lines or FEN.
 * vc_writer_game does steps 2 and 3; a program only calls vc_replay_run
 * and vc_writer_game.  See vchess-convert(1) and vchess-xml(5). */

/* Archive formats: outputs of vc_writer; TEXT and XML are also inputs. */
enum vc_format {
	VC_FORMAT_TEXT, /* the PGN-like text of vchess-text(5), canonical */
	VC_FORMAT_XML,  /* vchess-xml(5) */
	VC_FORMAT_JSON, /* JSON lines: one object per game, the content of the XML */
	VC_FORMAT_FEN,  /* one position string per game, or per ply */
	VC_FORMAT_EPD   /* one EPD line per ply of the main line: the position without
			   its counters, then hmvc, fmvn and id "game N ply P" */
};

#define VC_NOTATION_WXF 1
#define VC_NOTATION_JANGGI 2
struct vc_write_opts {
	int long_algebraic;  /* text: moves in long algebraic (Ng1-f3) */
	int uci;             /* text: moves in coordinates as engines write them
				(vc_move_coord: e2e4, e7e8q, P@e4); wins over long */
	int notation;        /* text: moves in a variant's own notation, VC_NOTATION_WXF
				or VC_NOTATION_JANGGI, in the games of the variants
				whose file reads it (vc_move_wxf, vc_move_janggi),
				SAN in the others; 0 none; wins over long and uci */
	int shogi;           /* text: moves in shogi's Western notation (vc_move_shogi,
				a VC_SHOGI_* style) in the variants that read it
				(vchess-variant(5) notation: shogi: read), SAN in the
				others; wins over long and uci */
	int no_nags;         /* leave out NAGs and the suffixes (!, ?, !?...) of moves */
	int no_comments;     /* leave out comments and escape lines */
	int no_variations;   /* leave out variations */
	int no_tags;         /* leave out the tags */
	int fen_after;       /* text: a comment {[%fen POS]} after each move;
				XML and JSON: a fen attribute on each move */
	int mark_transforms; /* text: a comment {[%transform]} after each move
				that transforms the board; XML, JSON: an attribute */
	int fen_plies;       /* FEN: every main-line position, not only the last */
	int width;           /* text: fold lines at this column; 0: 80 */
};

/* ---- step 1: replay ---- */
struct vc_replay;
/* opts may be NULL; fmt says what the writer will need (FEN: positions). */
struct vc_replay *vc_replay_new(const struct vc_write_opts *opts, enum vc_format fmt);
void vc_replay_free(struct vc_replay *rp);
/* Validates g through val (as vc_validate, whose result it returns),
 * keeping what the writers need.  It sets, and then clears, val's move
 * callback (vc_validator_set_move_fn). */
vc_status vc_replay_run(struct vc_replay *rp, struct vc_validator *val, struct vc_game *g,
			struct vc_game_stats *st);
/* The answers below describe the game of the last vc_replay_run; their
 * strings stay valid until the next one, the variant as long as the
 * validator.  About item i of the game: the canonical SAN of a move that
 * was replayed (long algebraic with long_form, if the options asked for
 * it), else NULL. */
const char *vc_replay_san(const struct vc_replay *rp, size_t item, int long_form);
/* The move of item i: 1 when it was replayed (*m filled), else 0. */
int vc_replay_move(const struct vc_replay *rp, size_t item, vc_move *m);
/* The position string after the move of item i, when fen_after was asked
 * for and the move was replayed, else NULL. */
const char *vc_replay_fen(const struct vc_replay *rp, size_t item);
/* Nonzero when the move of item i transformed the board (a scheduled
 * swap of halves), when mark_transforms was asked for. */
int vc_replay_transforms(const struct vc_replay *rp, size_t item);
/* The game's variant: its canonical name, or the Variant tag as written
 * when it is not known; and the variant itself, or NULL. */
const char *vc_replay_variant_name(const struct vc_replay *rp);
const struct vc_variant *vc_replay_variant(const struct vc_replay *rp);
/* FEN format only: the position strings of the main line, the start first
 * and the last reached last (only the last without fen_plies); count 0
 * when the game could not be set up at all. */
size_t vc_replay_fen_count(const struct vc_replay *rp);
const char *vc_replay_fen_at(const struct vc_replay *rp, size_t k);

/* ---- step 2: the canonical form ---- */
enum vc_cev_type {
	VC_CE_TAG,       /* item: tag index; text: the value */
	VC_CE_ESCAPE,    /* an escape line, text without the '%' */
	VC_CE_MOVE,      /* item: the game item; text: canonical SAN (long algebraic on
			    request, coordinates with uci) when replayed, else as written;
			    the suffix is the item's, unless VC_CEF_BARE */
	VC_CE_COMMENT,   /* text: normalised (see below) */
	VC_CE_NAG,       /* item: the game item; nag */
	VC_CE_VAR_START, /* '(' */
	VC_CE_VAR_END,   /* ')' */
	VC_CE_RESULT     /* text: "1-0", "0-1", "1/2-1/2" or "*" */
};

#define VC_CEF_PRE 0x01       /* an escape line that stands before the tags */
#define VC_CEF_GENERATED 0x02 /* a comment the writer made: an error, unread text */
#define VC_CEF_DERIVED 0x04   /* a comment derived from the replay ([%fen], [%transform]):
				 XML and JSON carry it as move attributes instead */
#define VC_CEF_SEMI 0x08      /* a comment that holds '}': written as a ';' comment */
#define VC_CEF_REPLAYED 0x10  /* a move that was replayed: text is canonical */
#define VC_CEF_NUMBER 0x20    /* write the move number before this move */
#define VC_CEF_BARE 0x80      /* moves: write no suffix (no_nags) */
#define VC_CEF_PLAIN 0x40     /* comments: text is printable ASCII without '<', '>', '&',
				 '"' or '\\', safe as it is in XML, JSON and text */

/* One event.  Comment text is normalised: every run of blanks (space, tab,
 * line ends, form feed, vertical tab) is one space. */
struct vc_cev {
	enum vc_cev_type type;
	unsigned flags;  /* VC_CEF_* */
	long item;       /* game item or tag index, -1 when none */
	const char *text;/* not NUL-terminated */
	size_t len;
	int nag;
	int side;        /* moves: 0 White, 1 Black */
	long movenum;    /* moves: the move number */
};

struct vc_canon;
struct vc_canon *vc_canon_new(void);
void vc_canon_free(struct vc_canon *c);
/* Builds the canonical form of g; rp (may be NULL: moves as written) must
 * come from vc_replay_run on this very game.  0 ok, -1 out of memory. */
int vc_canon_build(struct vc_canon *c, const struct vc_game *g, const struct vc_replay *rp,
		   const struct vc_write_opts *opts);
size_t vc_canon_count(const struct vc_canon *c);
const struct vc_cev *vc_canon_at(const struct vc_canon *c, size_t i);

/* ---- step 3: writers ---- */
/* A writer writes one document (an XML archive; a text or JSON-lines
 * stream) to a sink, game by game, each game in one write.  The sink stays
 * the caller's: vc_writer_close ends the document but does not close it. */
struct vc_writer;
struct vc_writer *vc_writer_open(struct vc_ctx *ctx, struct vc_sink *sink, enum vc_format fmt,
				 const struct vc_write_opts *opts);
/* Writes g; rp as for vc_canon_build.  VC_OK, or VC_FATAL when the sink
 * failed (reported to the context). */
vc_status vc_writer_game(struct vc_writer *w, const struct vc_game *g,
			 const struct vc_replay *rp);
/* Ends the document and frees the writer; VC_FATAL if anything failed. */
vc_status vc_writer_close(struct vc_writer *w);

/* Writing in pieces, for programs that format games in several threads
 * and write them in input order (see vc_parallel_each).  vc_writer_piece
 * writes into out exactly the bytes that vc_writer_game would add to w's
 * document for g -- for XML the <game> element and its line end, without
 * the archive around it -- and nothing to w's own sink, which may be NULL
 * for a writer opened only to make pieces (one for each thread: a writer
 * is used by one thread at a time).  vc_writer_put adds a piece, made by a
 * writer of the same format and options, to w's document (XML: the archive
 * opens before the first piece and closes at vc_writer_close).  A piece
 * does not depend on the games before it, so putting the pieces of games
 * 1..n gives byte for byte the document that vc_writer_game of games 1..n
 * gives.  A writer takes whole games or pieces, not both.  Both return
 * VC_OK, or VC_FATAL when out or the sink failed or memory ran out
 * (reported to the context). */
vc_status vc_writer_piece(struct vc_writer *w, struct vc_sink *out, const struct vc_game *g,
			  const struct vc_replay *rp);
vc_status vc_writer_put(struct vc_writer *w, const void *piece, size_t len);

/* ---- reading XML ---- */
/* The XML format of vchess-xml(5) as input, plain or gzip, streamed: one
 * game at a time in bounded memory.  The games come back as the text
 * reader gives them (moves as written, comments, NAGs, variations, escape
 * lines, tags, result), positioned at their XML lines; what the XML
 * derives (canonical SAN, squares, positions, diagnostics) is not read
 * back, since validation derives it again. */
struct vc_xml_reader;
struct vc_xml_reader *vc_xml_reader_open(struct vc_ctx *ctx, const char *path,
					 const struct vc_reader_opts *opts);
/* The same from memory: data (len bytes, plain or gzip) stays the
 * caller's and must outlive the reader; name is used in diagnostics. */
struct vc_xml_reader *vc_xml_reader_mem(struct vc_ctx *ctx, const char *name, const void *data,
					size_t len, const struct vc_reader_opts *opts);
/* VC_OK, VC_END, or VC_FATAL when the XML is not well-formed or not an
 * archive (reported to the context, positioned). */
vc_status vc_xml_reader_next(struct vc_xml_reader *r, struct vc_game *g);
void vc_xml_reader_close(struct vc_xml_reader *r);

/* What the first bytes of an input say it is: VC_FORMAT_XML when, after
 * blanks and a byte order mark, it starts with '<'; else VC_FORMAT_TEXT.
 * data may be gzip: its start is inflated and looked at. */
enum vc_format vc_format_sniff(const void *data, size_t len);
/* The same for a file (or "-"): reads its first bytes.  -1 when it cannot
 * be read (reported).  A pipe or "-" loses the bytes read. */
int vc_format_of_file(struct vc_ctx *ctx, const char *path);

/* ---- end of writing archives ---- */

/* ---- format names ------------------------------------------------------------ */

/* The format a name gives: "text", "xml", "json-lines" or "fen"; -1 for any
 * other name.  Only TEXT and XML are inputs. */
int vc_format_parse(const char *name);
/* The name of a format, as vc_format_parse reads it, or NULL. */
const char *vc_format_name(enum vc_format fmt);

/* ---- selecting games ---------------------------------------------------------- */

/* A selection: expressions that every game taken must match, as
 * vchess-convert(1) --select reads them (SELECTING GAMES): terms joined by
 * "and" and "or", each maybe after "not", grouped by parentheses; a term is
 *   Tag=value  Tag~regex  Tag>=N  Tag<=N  Tag>N  Tag<N  Tag=A..B
 *   date=...  player=NAME  player~regex  plies=N-M  plies>=N ...
 *   result=R  variant=NAME  game=N  game=N-M  game=N-  game=-M  valid  invalid
 *   position=PATTERN  final=PATTERN  material=KQPkq  material>=KQ2
 *   moves="1. e4 c5"  checkmate  stalemate  ended  end=KIND
 * (a comparison of a tag whose name ends in "Date" compares dates YYYY,
 * YYYY.MM, YYYY.MM.DD part by part; a value may be quoted, "A and B").
 * What is known before a game is replayed -- its tags, number, plies as
 * written, result -- is matched by vc_select_before, so that games left
 * out are never replayed (it takes a game unless its expression is false
 * whatever the rest turns out to be); what only the replay tells --
 * validity, the variant as the replay names it, the positions of the main
 * line -- by vc_select_replayed (or vc_select_after, which sees no position).
 * Matching only reads the selection: several threads may match at once.
 * A NULL selection takes every game. */
struct vc_select;

/* Why an expression does not read. */
struct vc_select_error {
	size_t col;        /* the character at fault, 1 for the first of the expression */
	char message[200]; /* what is wrong: lower case, no final period */
	char regex[200];   /* a regular expression that does not compile: the words of
			      regerror(3), which message quotes too; else "" */
};

struct vc_select *vc_select_new(void);
void vc_select_free(struct vc_select *s);
/* Adds an expression: 0, or -1 with *err filled (err may be NULL) when it
 * does not read (or memory ran out). */
int vc_select_add(struct vc_select *s, const char *expr, struct vc_select_error *err);
/* 1 when nothing known before the replay leaves g out, else 0. */
int vc_select_before(const struct vc_select *s, const struct vc_game *g);
/* After g was replayed (vc_validate or vc_replay_run gave st): 1 when g is
 * taken, else 0.  A game is valid when st->valid and it is a game at all;
 * its variant is st->variant, else its Variant tag as written. */
int vc_select_after(const struct vc_select *s, const struct vc_game *g,
		    const struct vc_game_stats *st);
/* The same, with the replay rp that gave st (vc_replay_run on g), which
 * the terms about positions need: 1 when g is taken, 0 when not, -1 when
 * memory ran out.  rp's own position is used (so rp is not const); without
 * rp, as in vc_select_after, those terms hold for no game. */
int vc_select_replayed(const struct vc_select *s, const struct vc_game *g,
		       const struct vc_game_stats *st, struct vc_replay *rp);
/* Nonzero when some expression needs the replay (valid, invalid, variant=,
 * and the terms about positions). */
int vc_select_needs_replay(const struct vc_select *s);

/* ---- summaries ---------------------------------------------------------------- */

/* The counts of a run (vchess-validate(1) SUMMARY): games, valid, invalid,
 * plies, and the same per variant in the order met.  Summaries add up:
 * those of the pieces of an archive, merged, or written as tab-separated
 * lines and read back, give the summary of the whole. */
struct vc_summary;

struct vc_summary_totals {
	long games;           /* every game read, text that is no game included */
	long valid, invalid;  /* games with no error, and the others */
	long unknown_variant; /* games whose variant is not known */
	long plies;           /* main-line moves replayed */
	long var_plies;       /* moves replayed inside variations */
};

/* One variant's line: its canonical name, "(unknown)" for the games of
 * unknown variants, "(not a game)" for text between games. */
struct vc_summary_variant {
	const char *name;
	long games, valid, plies;
};

struct vc_summary *vc_summary_new(void);
void vc_summary_free(struct vc_summary *s);
/* Counts g, as vc_validate (or vc_replay_run) left it with st.  0, or -1
 * when out of memory. */
int vc_summary_add(struct vc_summary *s, const struct vc_game *g, const struct vc_game_stats *st);
/* Adds the counts of from to s; 0, or -1 when out of memory. */
int vc_summary_merge(struct vc_summary *s, const struct vc_summary *from);
const struct vc_summary_totals *vc_summary_totals(const struct vc_summary *s);
size_t vc_summary_variant_count(const struct vc_summary *s);
const struct vc_summary_variant *vc_summary_variant_at(const struct vc_summary *s, size_t i);
/* Writes s as text ("games 12", ..., "variant chess: games 10 valid 9 plies
 * 700") or, with tsv, as tab-separated lines ("games\t12", ...,
 * "variant\tchess\t10\t9\t700") that vc_summary_read_tsv reads back.  0,
 * or -1 when the sink failed. */
int vc_summary_write(const struct vc_summary *s, struct vc_sink *out, int tsv);
/* Adds the tab-separated summary in text (len bytes; name for messages):
 * VC_OK; VC_FAILED when some line is none, each reported, positioned, to
 * ctx and the others added; VC_FATAL when out of memory. */
vc_status vc_summary_read_tsv(struct vc_summary *s, struct vc_ctx *ctx, const char *name,
			      const char *text, size_t len);

/* ---- openings (ECO codes and names) -------------------------------------------- */

/* A game's opening from the opening lists its variant's file names (key
 * openings, vchess-variant(5)): the last position of its main line that a
 * row of the lists reaches, by position (board, side to move, castling
 * rights, an en-passant target only when a legal capture uses it), so that
 * transpositions are found.  Only games that start from the variant's
 * start (no FEN tag, or one that gives that position) are classified.  The
 * lists are read when a game of the variant first needs them; a row that
 * does not play is reported (code "eco-list", at its file, line and column)
 * to the context of the call that read them, and left out.  One vc_eco may
 * be used by several threads at once (each with its own context). */
struct vc_eco;
enum vc_eco_outcome {
	VC_ECO_ADDED,       /* named: ECO and Opening tags added (the match, for classify) */
	VC_ECO_SAME,        /* named: both tags were there with these values */
	VC_ECO_CHANGED,     /* named: tags that were there got the list's values */
	VC_ECO_UNNAMED,     /* no position of the game is in the lists: left alone */
	VC_ECO_NO_LIST,     /* its variant names no list (or none could be read) */
	VC_ECO_OTHER_START, /* it starts from another position than the lists' */
	VC_ECO_BROKEN,      /* not valid: left alone */
	VC_ECO_FAILED,      /* out of memory while setting the tags */
	VC_ECO_NOUTCOMES
};
struct vc_eco_match {
	const char *eco, *name; /* belong to the vc_eco */
	long ply;               /* the ply of the named position */
};
struct vc_eco *vc_eco_new(void);
void vc_eco_free(struct vc_eco *e);
/* The opening of a game replayed into rp (vc_replay_run): VC_ECO_ADDED and
 * *m, or why there is none. */
enum vc_eco_outcome vc_eco_classify(struct vc_eco *e, struct vc_ctx *ctx, const struct vc_game *g,
				    const struct vc_replay *rp, struct vc_eco_match *m);
/* Classifies a game (valid: it replayed without error; a broken one is left
 * alone) and sets its ECO and Opening tags, replacing those it has. */
enum vc_eco_outcome vc_eco_apply(struct vc_eco *e, struct vc_ctx *ctx, struct vc_game *g,
				 const struct vc_replay *rp, int valid);
/* The named positions of v's lists (read now if they were not), or -1 when
 * v names none. */
long vc_eco_list_size(struct vc_eco *e, struct vc_ctx *ctx, const struct vc_variant *v);

/* ---- statistics ------------------------------------------------------------------ */

/* Per variant, in the order met: games, results, how the decisive games
 * ended, plies (mean, median, maximum) and the openings the games' ECO and
 * Opening tags name.  Statistics add up like summaries: merged in memory,
 * or written as tab-separated lines and read back. */
struct vc_stats;
enum { VC_STATS_WHITE, VC_STATS_BLACK, VC_STATS_DRAW, VC_STATS_UNFINISHED, VC_STATS_NONE,
       VC_STATS_NRESULTS };
/* How a decisive game ended: its final position (checkmate, or a rule of
 * the variant's own end, in the order of enum vc_end_rule), else what its
 * Termination tag says. */
enum { VC_STATS_MATE, VC_STATS_STALEMATE, VC_STATS_NO_PIECES, VC_STATS_ROYAL_LOST,
       VC_STATS_CHECKS, VC_STATS_REGION, VC_STATS_RESIGNATION, VC_STATS_TIME,
       VC_STATS_ABANDONED, VC_STATS_OTHER, VC_STATS_UNKNOWN, VC_STATS_NENDS };
struct vc_stats_figures {
	const char *name; /* the variant's; belongs to the statistics */
	long games, results[VC_STATS_NRESULTS], ends[VC_STATS_NENDS];
	long plies, max_plies;
	long median_plies; /* -1: among the games of 4096 plies or more */
	long classified;   /* games with an ECO or an Opening tag */
	long openings;     /* different openings among them */
};
struct vc_stats *vc_stats_new(void);
void vc_stats_free(struct vc_stats *s);
/* Counts a game that vc_validate left as st (text that is no game is not
 * counted); 0, or -1 when out of memory. */
int vc_stats_add(struct vc_stats *s, const struct vc_game *g, const struct vc_game_stats *st);
int vc_stats_merge(struct vc_stats *s, const struct vc_stats *from);
size_t vc_stats_variant_count(const struct vc_stats *s);
int vc_stats_variant_at(const struct vc_stats *s, size_t i, struct vc_stats_figures *f);
/* "1-0", "0-1", "1/2-1/2", "*", "none"; "mate", "stalemate", ... "unknown". */
const char *vc_stats_result_name(int i);
const char *vc_stats_end_name(int i);
/* Text (with the top most common openings of each variant) or, tsv
 * non-zero, the lines vc_stats_read_tsv reads; 0, or -1. */
int vc_stats_write(const struct vc_stats *s, struct vc_sink *out, int tsv, int top);
/* Adds the lines of text that start with "stats<TAB>" (others are left to
 * vc_summary_read_tsv); one that does not read is reported (code
 * summary-line) and makes it return VC_FAILED. */
vc_status vc_stats_read_tsv(struct vc_stats *s, struct vc_ctx *ctx, const char *name,
			    const char *text, size_t len);

/* ---- converting archives -------------------------------------------------------- */

/* A converter reads archives (text or XML, told by their first bytes, from
 * files, pipes or standard input), takes the games a selection takes,
 * replays each one and writes it in its canonical form (vc_replay_run,
 * vc_writer_game) to one output, or to several of split games each; a
 * game that does not validate is never dropped silently: it is written
 * with its errors (keep_broken), or its bytes as read go to the rejects
 * file, and either way the caller hears of it (see vchess-convert(1)).
 *
 * With jobs > 1 and each set to vc_parallel_each, games are replayed and
 * formatted by jobs threads and written in input order: everything
 * written, and every diagnostic and call of game in the caller's thread,
 * is byte for byte and call for call what one thread gives.  (The archive
 * layer starts no thread itself: the caller hands it the runner.)  Every
 * diagnostic, the workers' included, goes to the caller's context, in
 * input order; those about an input read through a pipe name it as it was
 * given ("<stdin>" for "-"). */
struct vc_convert;

enum vc_convert_fate {
	VC_CONVERT_WRITTEN,  /* valid: written */
	VC_CONVERT_KEPT,     /* broken: written with its errors (keep_broken) */
	VC_CONVERT_REJECTED, /* broken: its bytes go to the rejects file */
	VC_CONVERT_DROPPED,  /* broken and not written: no rejects file (with keep_broken,
				only text that is no game) */
	VC_CONVERT_REPEAT    /* valid, a repeat of an earlier game (dup_by): not written to
				the output (to the duplicates file if any) */
};

/* What the converter tells about a game it takes, before writing it. */
struct vc_convert_game {
	const char *file;          /* the input, named as given to vc_convert_file */
	enum vc_format from;       /* the input's format */
	int valid;                 /* no error, and a game at all */
	enum vc_convert_fate fate;
	long selected;             /* games taken so far, this one included */
};

typedef void vc_convert_fn(void *user, const struct vc_game *g,
			   const struct vc_convert_game *info);
typedef vc_status vc_each_fn(struct vc_ctx *ctx, vc_next_fn *next, void *source,
			     const struct vc_parallel_opts *opts);

/* What makes two games repeats of each other (tags never do). */
enum vc_dup_by {
	VC_DUP_NONE,
	VC_DUP_MOVES, /* the same variant, start position and main-line moves */
	VC_DUP_FINAL  /* the same variant and final position of the main line */
};
#define VC_TAGS_PLYCOUNT 0x01 /* a PlyCount tag: the main line's plies (valid games) */
#define VC_TAGS_ROSTER 0x02   /* the Seven Tag Roster's missing tags added as "?" */
#define VC_TAGS_RESULT 0x04   /* the result made what the final position says (valid
				 games, and those whose only errors were that result) */
#define VC_TAGS_DROP 0x08     /* counted only: tags removed by drop_tags / keep_tags */
#define VC_TAGS_HASHCODE 0x10 /* a HashCode tag: 16 hex digits, equal for games that repeat
				 each other by moves (VC_DUP_MOVES; valid games) */

struct vc_convert_opts {
	int from;                       /* VC_FORMAT_TEXT or VC_FORMAT_XML, or -1: told by
					   each input's first bytes */
	enum vc_format to;
	struct vc_write_opts write;
	int strict;                     /* reading and validating (vc_reader_opts,
					   vc_validate_opts) */
	const char *default_variant;    /* for games without a Variant tag; NULL: chess */
	const struct vc_select *select; /* NULL: every game; the caller's, kept */
	const char *out;                /* NULL or "-": standard output */
	int gzip;
	long split;                     /* > 0: split games a file, named after out (which
					   must be a file) with "-K" before its extension */
	int keep_broken;
	const char *rejects;            /* a file for the broken games' bytes, or NULL */
	int jobs;                       /* threads, with each */
	vc_each_fn *each;               /* vc_parallel_each, or NULL: one thread */
	vc_convert_fn *game;            /* called for every game taken, or NULL */
	void *user;
	/* repeats (dupes.c): a valid game taken whose key was seen before */
	enum vc_dup_by dup_by;          /* VC_DUP_NONE: every game is written */
	const char *dup_file;           /* the repeats written here, or NULL: dropped */
	int verbose;                    /* a note for every repeat: the game it repeats */
	/* tag work (tagfix.c) on every game written; NULL-terminated name lists */
	unsigned tags;                  /* VC_TAGS_* */
	const char *const *drop_tags;   /* tags removed */
	const char *const *keep_tags;   /* only these tags kept (and Variant, FEN, SetUp) */
	int add_eco;                    /* ECO and Opening tags from the openings (vc_eco_apply) */
};

struct vc_convert_counts {
	long selected;     /* games taken */
	long written;      /* written to the output, kept ones included */
	long broken;       /* taken and not valid */
	long kept;         /* broken, written with their errors */
	long rejected;     /* broken, not written to the output (to the rejects file if any) */
	int input_failed;  /* an input could not be opened or read to its end */
	int output_failed; /* the output failed */
	int rejects_failed;/* the rejects file failed */
	long repeats;      /* valid games found to repeat an earlier one: not written */
	int dup_failed;    /* the duplicates file failed */
	long distinct;     /* keys remembered */
	size_t dup_bytes;  /* memory of the table of keys */
	/* games written (to the output or the duplicates file) that tag work changed */
	long plycount, roster, results, dropped, hashcode;
	long eco[VC_ECO_NOUTCOMES]; /* add_eco: games taken by outcome */
};

/* Sets the defaults: the format of each input told by its first bytes,
 * canonical text to standard output, every game, one thread. */
void vc_convert_opts_init(struct vc_convert_opts *o);
/* Opens the outputs (the first file of a split output, the rejects file,
 * both written atomically, see vc_sink_open).  NULL, reported to ctx, when
 * the default variant does not load, an output cannot be opened or the
 * options do not go together. */
struct vc_convert *vc_convert_new(struct vc_ctx *ctx, const struct vc_convert_opts *o);
/* Converts every game of one input (games are numbered on across inputs):
 * VC_OK; VC_FAILED when the input failed (the games before the failure are
 * converted; go on with the next); VC_FATAL when the output failed. */
vc_status vc_convert_file(struct vc_convert *cv, const char *path);
/* Ends the outputs and frees cv; *c (may be NULL) gets the final counts.
 * VC_OK, or VC_FATAL when an input or an output failed. */
vc_status vc_convert_close(struct vc_convert *cv, struct vc_convert_counts *c);

/* ---- rendering diagrams (ASCII styles, SVG) ---------------------------------- */
/* (section owned by the drawing layer: the files of lib/draw) */

/* Diagrams of a position, of a piece's moves, or of a sheet of positions, as
 * text (ASCII or Unicode figurines) or as a self-contained SVG picture.  Every
 * function writes the whole diagram to a sink (see output sinks) and returns
 * VC_OK, or VC_FAILED with a diagnostic on ctx (bad arguments, or a write
 * that failed).  Nothing here changes the position.
 *
 * Text styles:
 *  VC_STYLE_PLAIN  the board of vc_position_ascii: rank numbers on the left,
 *                  files beneath, '.' for an empty square; a mark in the
 *                  space after a piece ('~' promoted, '!' dead) and '*'
 *                  before a neutral one; the reserves and the side to move
 *                  beneath.
 *  VC_STYLE_DOTS   the diagrams of the Io Chess rule text: one letter a
 *                  piece (the piece's diagram letter), the rank number two
 *                  spaces after each row, a blank line and the file letters;
 *                  a two-square piece lying along a rank fills the space
 *                  between its squares with its letter ("WWW").  Nothing
 *                  else, so that it compares with the rule text line for
 *                  line; reserves, when the variant has some, follow after a
 *                  blank line.
 * Both draw a seam " | " between the two halves of a board whose halves
 * trade places (Schizochess), and turn the board with flip.
 *
 * SVG: squares, coordinates, pieces (see vc_render_glyph), the last move,
 * a royal piece in check, arrows and circled squares, the halves' seam and
 * the plies to the next swap, reserve areas with counts, the side to move
 * and a title; every element has CSS classes ("board", "square light",
 * "piece white piece-knight", "highlight", "check", "arrow", "mark",
 * "reserve", "seam", ...) that the embedded default <style> colours, so a
 * page can restyle it.  Text uses only the generic font family sans-serif. */

enum vc_render_style { VC_STYLE_PLAIN, VC_STYLE_DOTS };

/* An arrow (from != to) or a circled square (from == to), as the comment
 * commands [%cal Ge2e4] and [%csl Rd5] give them; colour 'G', 'R', 'Y' or
 * 'B'. */
struct vc_render_mark {
	int16_t from, to;
	char color;
};

struct vc_render_opts {
	enum vc_render_style style; /* text only */
	int unicode;                /* text: figurines for the orthodox pieces */
	int flip;                   /* Black's side at the bottom */
	int size;                   /* SVG: width in pixels; 0: 45 units a square */
	const vc_move *last;        /* the move that led to the position, or NULL */
	const char *title;          /* SVG: a line above the board, or NULL */
	const struct vc_render_mark *marks;
	int nmarks;
};

/* Sets the defaults: plain style, no flip, natural size, nothing marked. */
void vc_render_opts_init(struct vc_render_opts *o);

vc_status vc_render_text(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			 const struct vc_render_opts *o);
vc_status vc_render_svg(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			const struct vc_render_opts *o);

/* A piece's moves from square sq of the variant's empty board: its square
 * and every square it can move or capture to (vc_piece_diagram); the text
 * forms are that diagram ('+' a reachable square) with coordinates in the
 * plain style, as it is in the dots style. */
vc_status vc_render_text_piece(struct vc_ctx *ctx, struct vc_sink *out,
			       const struct vc_variant *v, int type, int sq,
			       const struct vc_render_opts *o);
vc_status vc_render_svg_piece(struct vc_ctx *ctx, struct vc_sink *out,
			      const struct vc_variant *v, int type, int sq,
			      const struct vc_render_opts *o);

/* n positions of one variant in one SVG, columns boards a row (0: up to
 * four), each with the caption os[i].title, under an overall title (or
 * NULL). */
vc_status vc_render_svg_sheet(struct vc_ctx *ctx, struct vc_sink *out,
			      const struct vc_position *const *ps, const struct vc_render_opts *os,
			      int n, int columns, const char *title);

/* Draws one piece as an SVG group "piece COLOUR piece-NAME" filling the box
 * (x, y, w, h); a box that is not square draws a two-square piece.  The
 * piece's glyph, from its variant file, chooses the drawing:
 *   king queen rook bishop knight pawn    the orthodox pieces
 *   circle square diamond hexagon octagon triangle shield star wall
 *                                         a shape with a label inside
 *   A+B                                   two orthodox drawings overlapping
 *                                         (a compound, such as bishop+knight)
 * each optionally followed by ":LABEL" (up to 3 characters: written inside a
 * shape, or as a badge on an orthodox drawing).  A glyph that is none of
 * these, of up to 3 characters, is a label on a circle; no glyph is the
 * piece's symbol on a circle.  color: 0 white, 1 black, 2 neutral.  Returns
 * 0, or -1 when the glyph was not understood (the piece is then drawn as its
 * symbol on a circle). */
int vc_render_glyph(struct vc_sink *out, const struct vc_variant *v, int type, int color,
		    double x, double y, double w, double h);

/* The Unicode figurine of a piece whose glyph is an orthodox piece with no
 * label (U+2654 to U+265F), or NULL. */
const char *vc_render_figurine(const struct vc_variant *v, int type, int color);

/* Reads the [%cal ...] and [%csl ...] commands of a comment's text into out
 * (at most cap marks); returns how many it read.  Entries that do not read
 * are skipped. */
int vc_render_parse_marks(const struct vc_variant *v, const char *text, size_t len,
			  struct vc_render_mark *out, int cap);

/* The other square of the two-square piece that stands on sq, or -1: the
 * neighbour that the square's link bits point to (1 to 8: north, north-east,
 * east, ... clockwise, north being towards Black), or else the one linked
 * neighbour that holds the same piece. */
int vc_render_partner(const struct vc_position *p, int sq);

/* Diagram formats: text with letters or with figurines (vc_render_text,
 * unicode), or SVG (vc_render_svg). */
enum vc_render_format { VC_RENDER_ASCII, VC_RENDER_UNICODE, VC_RENDER_SVG };

/* The format a name gives: "ascii", "unicode" or "svg"; -1 for any other. */
int vc_render_format_parse(const char *name);
/* The text style a name gives: "plain" or "dots"; -1 for any other. */
int vc_render_style_parse(const char *name);
/* The format a file's name asks for: SVG for a name that ends in ".svg",
 * else -1 (the caller's default). */
int vc_render_format_of_name(const char *path);
/* A position or a piece's moves drawn in fmt: vc_render_text or
 * vc_render_svg (o's unicode is fmt's), vc_render_text_piece or
 * vc_render_svg_piece; a piece from square sq, or from the middle of the
 * board ((ranks - 1) / 2, (files - 1) / 2) for sq -1. */
vc_status vc_render_position(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_position *p,
			     enum vc_render_format fmt, const struct vc_render_opts *o);
vc_status vc_render_piece(struct vc_ctx *ctx, struct vc_sink *out, const struct vc_variant *v,
			  int type, int sq, enum vc_render_format fmt,
			  const struct vc_render_opts *o);

/* ---- a game's plies ------------------------------------------------------------- */
/* (the drawing layer: lib/draw/plies.c)
 *
 * The main line of a game as diagrams show it: the position after each ply
 * (0 the start), the move that led to it, its SAN and move number, whether
 * the side to move is in check, and the marks of the comments written
 * after it ([%cal], [%csl]; before the first move for the start).  Meant
 * for stepping through a game: the position is one cursor that makes or
 * unmakes moves, so the next or previous ply costs one move, and memory
 * grows with the moves, not with the boards. */
struct vc_plies;

struct vc_ply {
	const vc_move *move;  /* the move of this ply; NULL for the start */
	const char *san;      /* its canonical SAN; "" for the start */
	long movenum;         /* its move number */
	int side;             /* who made it: 0 White, 1 Black */
	size_t item;          /* its item in the game (0 for the start) */
	int check;            /* the side to move after it is in check */
	const struct vc_render_mark *marks; /* the marks of the comments after it */
	int nmarks;
};

struct vc_plies *vc_plies_new(void);
void vc_plies_free(struct vc_plies *pl);
/* Validates g through val (as vc_validate, whose status it returns; it sets
 * and then clears val's move callback) and keeps its main line, up to its
 * first error.  VC_FATAL also when memory ran out. */
vc_status vc_plies_run(struct vc_plies *pl, struct vc_validator *val, struct vc_game *g,
		       struct vc_game_stats *st);
/* The number of plies kept: the positions are those of plies 0 to it.  -1
 * when the game has no start at all (its variant is not known, or its FEN
 * tag does not read and no move replayed). */
long vc_plies_count(const struct vc_plies *pl);
/* The position after ply k, or NULL when there is no such ply.  It stays
 * pl's, and valid until the next vc_plies_position or vc_plies_run: copy it
 * (vc_position_copy) to keep it. */
const struct vc_position *vc_plies_position(struct vc_plies *pl, long k);
/* What a diagram of ply k needs besides the position: 0, or -1 when there
 * is no such ply.  The pointers stay valid until the next vc_plies_run. */
int vc_plies_at(const struct vc_plies *pl, long k, struct vc_ply *out);
/* A title for ply k: "12. Nf3", "12... Nf6" or "start", after "White -
 * Black, " (the players, "?" when not known) with players; for k -1, the
 * players alone, "White - Black"; "" for a ply past the last.  Written
 * into buf (size n) as snprintf does; returns the length it needs. */
size_t vc_plies_title(const struct vc_plies *pl, long k, int players, char *buf, size_t n);
/* Settings for the diagram of ply k: base's, with last the ply's move and
 * marks the ply's marks followed by base's, at most cap of them, written
 * into marks (title stays base's: see vc_plies_title).  0, or -1 when there
 * is no ply k. */
int vc_plies_render_opts(const struct vc_plies *pl, long k, const struct vc_render_opts *base,
			 struct vc_render_opts *o, struct vc_render_mark *marks, int cap);
/* The diagram of ply k in fmt: o's settings, with the ply's move, its marks
 * and then o's (up to 128 in all), and its title with the players
 * (vc_plies_title).  VC_OK, or VC_FAILED (reported), also when there is no
 * ply k. */
vc_status vc_render_ply(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl, long k,
			enum vc_render_format fmt, const struct vc_render_opts *o);
/* Every ply, each in a file of its own in directory dir (made when it is
 * not there): dir/ply-000.svg (.txt for text) to the last, the number
 * zero-padded to three digits or as many as the last ply needs, each drawn
 * as vc_render_ply draws it.  VC_OK, or VC_FAILED (reported: the directory
 * or a file cannot be made or written). */
vc_status vc_render_ply_files(struct vc_ctx *ctx, const char *dir, struct vc_plies *pl,
			      enum vc_render_format fmt, const struct vc_render_opts *o);
/* A sheet of plies 0, every, 2 every, ... and the last: in SVG, the
 * diagrams on one picture under title (vc_render_svg_sheet; NULL: the
 * players, "White - Black"); as text, one after the other, a blank line
 * between, each after a line with its title.  Each diagram is drawn as
 * vc_render_ply draws it, but titled without the players.  VC_OK, or
 * VC_FAILED (reported). */
vc_status vc_render_plies(struct vc_ctx *ctx, struct vc_sink *out, struct vc_plies *pl,
			  long every, enum vc_render_format fmt, const struct vc_render_opts *o,
			  const char *title);

/* ---- web pages ------------------------------------------------------------------ */
/* (the drawing layer: lib/draw/html.c, html_game.c)
 *
 * An archive as one self-contained HTML page (vchess-render(1) -T html): an
 * index of its games (number, players, event, date, result, variant,
 * plies, first error) that sorts and filters, and a viewer that shows a
 * game's board, tags, problems and movetext -- comments, NAGs, variations,
 * who played each move and what was said in a multi-player record -- and
 * steps through it with the arrow keys, Home and End, or by clicking a
 * move, variations included.  The fragment of the page's address names
 * what is shown: #gN is game N, #gNpK its main line after ply K, #gNvI the
 * position after its I-th move in movetext order (a move of a variation).
 *
 * The diagrams are vc_render_svg's: the same squares, pieces, last move,
 * check, arrows and circles, reserves, two-square pieces, seam and swap
 * count, classes and palette; the page draws them in the browser from the
 * data written here, so its script needs no rules.  Each game is replayed
 * once, and stored as its start (when not its variant's) and, a move, the
 * squares and reserve counts that changed; the pieces' drawings are SVG
 * symbols written once and reused, the boards' squares once a variant.
 * Nothing in the page refers to anything outside it.  Games that do not
 * validate are listed with their errors and shown as far as they replay;
 * text that is no game is listed too. */
struct vc_html_opts {
	const char *title;           /* the page's title; NULL: "Games" (vc_render_html: the
					file's name) */
	const char *default_variant; /* for games without a Variant tag; NULL: chess */
	int strict;                  /* read and validate strictly (vc_validate_opts) */
	long game;                   /* vc_render_html: > 0, only the game of that number */
	int flip;                    /* boards first shown with Black at the bottom */
};

/* Sets the defaults: every game, not strict, White at the bottom. */
void vc_html_opts_init(struct vc_html_opts *o);

/* A page written game by game to a sink, which stays the caller's.  NULL,
 * reported, when memory runs out or the default variant does not load. */
struct vc_html;
struct vc_html *vc_html_open(struct vc_ctx *ctx, struct vc_sink *out,
			     const struct vc_html_opts *o);
/* Adds g, which is validated here (its diagnostics grow): VC_OK, or
 * VC_FATAL when memory ran out or the sink failed. */
vc_status vc_html_game(struct vc_html *h, struct vc_game *g);
/* Ends the page and frees h: VC_OK; VC_WARNING when some game did not
 * validate (one warning, render-html-broken, says how many); VC_FATAL when
 * something failed (reported). */
vc_status vc_html_close(struct vc_html *h);
/* The page of an archive file (text or XML, told by its first bytes; "-",
 * standard input, is read as text), or of its game number o->game: as
 * vc_html_close, and VC_FAILED (reported, render-no-game) when there is no
 * such game. */
vc_status vc_render_html(struct vc_ctx *ctx, struct vc_sink *out, const char *path,
			 const struct vc_html_opts *o);

/* ---- end of rendering diagrams ---- */

#ifdef __cplusplus
}
#endif
#endif
