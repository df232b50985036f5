/*
 * rules/vc_rules.h - the rules core of libvchess (internal): geometry, pieces and
 * movement as data, variants, positions.
 *
 * Model.  A variant's pieces are lists of movement atoms (leap, ride, bent
 * ride, zigzag ride, reflecting ride) loaded from YAML.  When a variant is
 * loaded, every atom is compiled, for each side and each square, into paths:
 * sequences of squares the piece walks, each square a possible destination
 * unless marked transit, the walk stopping at the first occupied square.
 * Those paths are also inverted into one trie per (kind, side, target
 * square) whose nodes are the squares to look at from the target outwards:
 * an occupied node either holds a piece whose type is in the node's mask
 * (it reaches the target) or blocks the node's subtree.  Attack tests, check
 * detection, pins and the resolution of written moves all walk those tries,
 * whatever the pieces are, so no piece has movement code of its own.
 */
#ifndef VC_RULES_H
#define VC_RULES_H

#include <stdint.h>

#include "base/vc_base.h"
#include "vchess.h"

#define VC_MAXF 26
#define VC_MAXR 26
#define VC_MAXSQ (VC_MAXF * VC_MAXR)
#define VC_SQWORDS ((VC_MAXSQ + 63) / 64)
#define VC_MAXT 62       /* piece types per variant (board code fits a byte) */
#define VC_BB_MAXT 16    /* piece types the bitboard core takes */
#define VC_MAXCASTLE 4   /* castling rights per side */
#define VC_MAXRES 4      /* reserve areas per side */
#define VC_MAXEP 8       /* en-passant target squares at once */
#define VC_MAXPL 512     /* pieces of one side on the board */
#define VC_MAXALIAS 12
#define VC_MAXOPENINGS 8 /* opening list files per variant */

/* ---- geometry ---- */
static inline int vc_sq(int files, int f, int r) { return r * files + f; }

/* ---- board codes ----
 * 0 is an empty square; otherwise (type + 1) << 2 | colour, colour 0 white,
 * 1 black, 2 neutral. */
#define VC_EMPTY 0
#define VC_WHITE 0
#define VC_BLACK 1
#define VC_NEUTRAL 2
static inline uint8_t vc_code(int type, int color) { return (uint8_t)(((type + 1) << 2) | color); }
static inline int vc_code_type(uint8_t c) { return (c >> 2) - 1; }
static inline int vc_code_color(uint8_t c) { return c & 3; }

/* square flags kept beside the board */
#define VC_SQF_PROMOTED 0x01 /* a promoted piece (crazyhouse: back to a pawn when taken) */
#define VC_SQF_DEAD 0x02     /* a dead Kirby: frozen for the rest of the game */
#define VC_SQF_FIRST 0x04    /* the piece has not moved and holds its first-move right */
#define VC_SQF_LINKMASK 0xf0 /* two-square piece: direction (1..8) to its other square */
#define VC_SQF_LINKSHIFT 4
/* link directions of a two-square piece: from a square to its partner,
 * 1 N (towards Black), 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W, 8 NW; 0 none.
 * The renderer reads these bits. */
#define VC_LINK_N 1
#define VC_LINK_NE 2
#define VC_LINK_E 3
#define VC_LINK_SE 4
#define VC_LINK_S 5
#define VC_LINK_SW 6
#define VC_LINK_W 7
#define VC_LINK_NW 8

/* ---- two-square pieces ----
 * Both squares of a two-square piece (a wall) hold its board code; each
 * square's link bits give the direction to the other: 1 north (towards
 * Black), 2 north-east, 3 east, 4 south-east, 5 south, 6 south-west, 7 west,
 * 8 north-west.  The square with the lower index is the piece's anchor: its
 * direction is 1, 2, 3 or 8.  Both squares are in the piece lists; moves
 * are generated from the anchor only; the anchors of each side are also
 * kept in vc_position.two[] for attack tests.  Flags other than the link
 * bits are the same on both squares. */
static inline int vc_link_dx(int d)
{
	static const int8_t x[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
	return x[d >= 0 && d <= 8 ? d : 0];
}
static inline int vc_link_dy(int d)
{
	static const int8_t y[9] = { 0, 1, 1, 0, -1, -1, -1, 0, 1 };
	return y[d >= 0 && d <= 8 ? d : 0];
}
static inline int vc_link_of(uint8_t flags) { return (flags & VC_SQF_LINKMASK) >> VC_SQF_LINKSHIFT; }
/* the direction (1..8) of a unit vector, 0 if (dx, dy) is none */
static inline int vc_link_dir(int dx, int dy)
{
	static const int8_t d[3][3] = { { 6, 7, 8 }, { 5, 0, 1 }, { 4, 3, 2 } }; /* [dx+1][dy+1] */
	return dx < -1 || dx > 1 || dy < -1 || dy > 1 ? 0 : d[dx + 1][dy + 1];
}
static inline uint8_t vc_link_flags(int dir) { return (uint8_t)(dir << VC_SQF_LINKSHIFT); }
/* the direction back: from the partner to this square */
static inline int vc_link_opposite(int d) { return (d + 3) % 8 + 1; }
static inline int vc_link_is_anchor(uint8_t flags)
{
	int d = vc_link_of(flags);
	return d == VC_LINK_N || d == VC_LINK_NE || d == VC_LINK_E || d == VC_LINK_NW;
}
#define VC_MAXTWO 32 /* two-square pieces of one side on the board */

/* ---- movement atoms ---- */
enum vc_atom_kind { VC_A_LEAP, VC_A_RIDE, VC_A_BENT, VC_A_ZIGZAG, VC_A_REFLECT };

#define VC_MODE_MOVE 0x01
#define VC_MODE_CAPTURE 0x02
#define VC_MODE_SELF 0x04   /* may capture its own side's pieces */
#define VC_MODE_EPMAKE 0x08 /* a multi-square move that leaves en-passant targets */
#define VC_MODE_EPTAKE 0x10 /* may capture en passant */
#define VC_MODE_HOP 0x20    /* jumps exactly one piece (the screen) before its destinations */
#define VC_MODE_FIRST 0x40  /* only while the piece holds its first-move right (VC_SQF_FIRST) */
#define VC_MODE_UNCHECKED 0x80 /* not while its side is in check */

/* direction filters, relative to the side (forward = towards the enemy) */
#define VC_DIR_FORWARD 0x01
#define VC_DIR_BACKWARD 0x02
#define VC_DIR_SIDEWAYS 0x04
#define VC_DIR_ALL 0x07

struct vc_atom {
	uint8_t kind;
	int8_t x, y;    /* first leg vector (one image of it) */
	int8_t x2, y2;  /* bent: second leg vector */
	uint8_t range;  /* maximum steps of a ride (0: to the edge) */
	uint8_t min;    /* first step that may be a destination (1 by default) */
	uint8_t modes;  /* VC_MODE_* */
	uint8_t dirs;   /* VC_DIR_* */
	uint8_t nvec;   /* explicit vectors, 0 when the symmetric images are meant */
	int8_t vec[8][2];
	uint32_t from_ranks; /* bit r-1: allowed from relative rank r; 0: anywhere */
	uint8_t within;      /* region index + 1: the movement exists only inside it; 0 */
	int line, col;
};

/* piece properties */
#define VC_P_ROYAL 0x0001
#define VC_P_UNCAPTURABLE 0x0002
#define VC_P_IMMOBILE 0x0004
#define VC_P_PAWN 0x0008       /* written without a letter in SAN */
#define VC_P_TWOSQUARE 0x0010  /* occupies two adjacent squares (walls) */
#define VC_P_DIAGSTANCE 0x0020 /* two-square piece that may stand diagonally */
#define VC_P_NOCAPTURE 0x0040  /* never captures (Kirby) */
#define VC_P_BECOMES_VICTIM 0x0080 /* capture effect: turns into the captured type (vampire) */
#define VC_P_DIES_ALONE 0x0100 /* Kirby death rule */
#define VC_P_CAPTURES_OWN 0x0200 /* may capture its own side's non-royal pieces */

struct vc_ptype {
	char symbol[4];   /* as written in moves and position strings: "CN" */
	char san[4];      /* as SAN writes it when it differs from symbol ("H"), or "" */
	char letter;      /* one-letter diagram symbol */
	char name[32];    /* lower case, hyphenated */
	char glyph[24];   /* rendering hint */
	unsigned props;
	struct vc_atom *atoms;
	int natoms;
	/* promotion by choice (pawns): zone ranks (relative bit mask), choices */
	uint32_t promo_ranks;
	uint64_t promo_choices; /* bit per type */
	int promo_mandatory;
	uint32_t promo_must_ranks; /* relative ranks where promotion is mandatory
				      (mandatory: [ranks]); 0 with promo_mandatory */
	int promo_limit;        /* as a choice: only while its side has fewer on
				   the board (promotion-limit); 0 none */
	/* automatic promotion: the type it becomes on entering its zone */
	int auto_to;
	uint32_t auto_ranks; /* relative ranks */
	int demote_to;       /* a piece written '+' and another's symbol: that other type,
				the kind it goes back to in hand (captured-promoted:
				unpromoted); -1 */
	int promo_from_zone; /* a move that starts in the zone may promote too (from-zone) */
	int flip_to;         /* the other face of a two-faced piece (X and +X), -1 */
	uint8_t promo_step;  /* promotion as a move of its own (as-move: REGION): region
				index + 1, that region its zone; 0 none */
	uint8_t region;      /* region index + 1: it never moves to a square outside; 0 */
	uint64_t hop_immune; /* types its hops neither jump over nor capture */
	int points;          /* its worth in tenths, for the end rule that counts points */
	uint32_t drop_ranks; /* relative ranks (of the dropping side) where it may be
				dropped (drop-ranks); 0: any */
	uint8_t drop_file_once; /* not dropped on a file that holds one of its side's pieces
				   of its type (drop-one-per-file: shogi's nifu) */
	uint8_t drop_no_mate;   /* a drop of it may not checkmate (drop-no-mate: uchifuzume) */
	uint8_t drop_colours;   /* a side's pieces of it are dropped on squares of other
				   colours (drop-opposite-colours: placement's bishops) */
	int line;
};

/* A castling right as written in the variant (White's view; Black mirrors). */
struct vc_castle_spec {
	char right;      /* FEN letter of White's right, e.g. 'K' */
	int partner;     /* partner's start square (White) */
	int king_to;     /* fixed style: the king's destination (White) */
	int partner_to;  /* fixed style: the partner's destination (White) */
	int long_side;   /* written O-O-O */
	int becomes;     /* type the partner turns into after castling, -1 */
};

#define VC_CASTLE_FIXED 0    /* king and partner go to fixed squares */
#define VC_CASTLE_RELATIVE 1 /* the king goes two squares toward the partner, which crosses it */

/* rule switches: mechanics written in C, chosen by the variant's data */
#define VC_R_EP 0x0001
#define VC_R_SELF_CAPTURE 0x0002
#define VC_R_DROPS 0x0004
#define VC_R_CAPTURE_TO_HAND 0x0008  /* crazyhouse */
#define VC_R_PRISON 0x0010           /* SC-Chess: prisons, airfields and exchange */
#define VC_R_XPROMO 0x0020           /* promotion by exchange */
#define VC_R_SWAP_HALVES 0x0040      /* Schizochess */
#define VC_R_KIRBY_DEATH 0x0080
#define VC_R_CASTLE_THROUGH_CHECK 0x0100
#define VC_R_CASTLE_ANY_PARTNER 0x0200
#define VC_R_EXPLOSION 0x0400       /* a capture explodes (atomic): see explode_spare */
#define VC_R_FORCED_CAPTURE 0x0800  /* a side that can capture must */
#define VC_R_NO_CHECK 0x1000        /* no move may give check (racing kings) */
#define VC_R_NO_FACING 0x2000       /* the royal pieces may not face each other on an open file */
#define VC_R_BIKJANG 0x4000         /* facing royal pieces: the side to move breaks it or passes */
#define VC_R_PASS 0x8000            /* a side may pass its turn */
#define VC_R_KING_CHECK_CAPTURES 0x10000 /* a royal piece in check moves only to take
					    its one checker (makpong) */
#define VC_R_GATING 0x20000 /* a piece of the hand may enter on the first-rank square
			       a piece leaves on its first move (seirawan) */
#define VC_R_DROP_NO_CHECK 0x40000 /* no drop may give check (supply) */
#define VC_R_FLIP_MOVES 0x800000   /* a two-faced piece turns over after every move (kyoto shogi) */
#define VC_R_FLIP_CAPTURES 0x1000000 /* ... after every capture (micro shogi) */
#define VC_R_DROP_PROMOTED 0x2000000 /* a piece in hand may be dropped as its '+' form */
#define VC_R_MUST_DROP 0x80000 /* a side that can drop must (placement, sittuyin) */
#define VC_R_CASTLE_DROPS 0x100000 /* a royal piece or partner dropped on its castling
				      square gives the castling right (placement) */

/* what a capture puts in hand for a promoted piece (captured-promoted) */
#define VC_HAND_PAWN 0       /* a piece marked promoted ('~') goes as the pawn (crazyhouse) */
#define VC_HAND_UNPROMOTED 1 /* a piece written '+X' goes as X (shogi) */
#define VC_HAND_KEPT 2       /* every piece goes as it is (loop) */

/* regions: named sets of squares (White's; Black's are mirrored rank for
 * rank) that pieces may be confined to and movements limited to */
#define VC_MAXREGION 8

/* What an end rule gives the side it is about (enum vc_result of vchess.h
 * says the same from White's side). */
enum vc_res { VC_RES_NONE, VC_RES_WIN, VC_RES_LOSS, VC_RES_DRAW, VC_RES_POINTS,
	      VC_RES_FEWER /* stalemate only: the side with fewer pieces wins */ };

/* How a game ends besides checkmate and stalemate, from the variant's
 * "end" section (vchess-variant(5) END OF THE GAME).  Each result is for the
 * side the rule is about. */
struct vc_end_rules {
	int8_t mate;         /* the mated side: LOSS (the default), WIN or DRAW */
	int8_t stalemate;    /* the side that cannot move, not in check: DRAW (the default) */
	int8_t no_pieces;    /* a side left without pieces on the board; NONE */
	int8_t royal_lost;   /* a side whose royal piece is gone (exploded, captured) */
	int8_t region;       /* a side whose region piece stands in its region; NONE */
	int8_t region_reply; /* 1: a region reached by White leaves Black one more
				move, and both there is a draw; 2 (always): a side
				wins when its piece is still there at its turn */
	int checks;          /* the side that gives this many checks wins; 0: none */
	int8_t passes;       /* both sides passed in a row: the result for the side to move
				(POINTS: the side with more points wins); NONE */
	int8_t facing_pass;  /* a pass while the royal pieces face each other */
	int points_bonus;    /* tenths of a point Black's count gets (the second mover) */
	uint64_t region_types;
	uint64_t region_sq[2][VC_SQWORDS];
	char region_name[24];  /* what messages call it: "the hill"; "" */
	/* extinction: a side with at most extinct_count pieces of one of the
	 * types (of all its pieces together with extinct_all), while the other
	 * side has at least extinct_opp of that kind (one more when it is the
	 * side to move and extinct_claim, so that it may bare back) */
	int8_t extinct;        /* what it gives the extinct side; NONE */
	int8_t extinct_all;
	int8_t extinct_claim;
	int extinct_count, extinct_opp;
	uint64_t extinct_types;
	/* counting (end: counting, makruk's and ASEAN chess's): a draw that
	 * the players count; vc_count_after keeps the count in the position */
	int8_t counting;
	int8_t count_from_pieces; /* a count of a bare king starts at the number
				     of pieces on the board (start: pieces) */
	int8_t count_no_pawns;    /* no count while a pawn is on the board */
	int16_t count_board;      /* board's honour: full moves once no pawn is
				     left and neither side is bare; 0 none */
	struct vc_count_row {
		int16_t moves;    /* full moves; 0: no count */
		uint8_t n;        /* conditions: at least need[i] of type[i] */
		int8_t type[4];
		uint8_t need[4];
	} count_rows[8];          /* pieces' honour: the first row the stronger
				     side's pieces meet, once the other is bare */
	int8_t ncount_rows;
};

struct vc_reserve_spec {
	char name[16]; /* "hand", "airfield", "prison" */
	int enemy;     /* holds the other side's pieces (a prison) */
};

/* compiled trie node */
struct vc_tnode {
	int16_t sq;
	uint16_t skip;  /* nodes in this node's subtree, itself included */
	uint32_t pad;
	uint64_t mask;  /* types that reach the target from sq when the path is clear */
	uint64_t sub;   /* union of the masks of this node's subtree, itself included */
};

struct vc_variant {
	char *name, *title, *source;
	char *aliases[VC_MAXALIAS];
	int naliases;
	/* the opening lists the file names (key openings, never inherited):
	 * built-in list files or paths (archive/eco.c reads them) */
	char *openings[VC_MAXOPENINGS];
	int nopenings;
	int files, ranks, nsq;
	char file_alias[VC_MAXF]; /* extra letter read for a file (Io's 'L'), or 0 */
	struct vc_ptype types[VC_MAXT];
	int ntypes;
	int pawn_type;      /* first VC_P_PAWN type, -1 */
	int king_type;      /* first royal type, -1 */
	int castle_type;    /* the type that castles: the royal one, or in a variant without
			       one, the one on castling's king square in the setup; -1 */
	char *start_fen;
	struct vc_position *start_pos; /* the setup read as a position by load.c, or NULL */
	unsigned rules;
	int castle_style;
	int castle_king;    /* king's start square (White), fixed style */
	struct vc_castle_spec castle[VC_MAXCASTLE];
	int ncastle;
	uint64_t castle_partners; /* types that may castle (0: any) */
	struct vc_reserve_spec reserve[VC_MAXRES];
	int nreserve;
	int swap_period, swap_offset;
	uint64_t swap_low[2]; /* mirror squares of the files below files - shift, shift half
				 the files (a swap) and the rest (its undo); compiled */
	uint8_t sqfile[VC_MAXSQ]; /* the file of each square (compiled) */
	uint8_t sqrank[VC_MAXSQ]; /* and its rank */
	uint64_t explode_spare;   /* explosion: types the blast spares but on its own square */
	struct vc_end_rules end;
	int has_end;              /* some end rule beyond mate and a drawn stalemate */
	/* how diagrams draw the board (board: points, river, crosses) */
	int points;               /* pieces on the points where lines cross (xiangqi) */
	int river;                /* a river after this rank (1-based), 0 none */
	int coords;               /* board: coordinates: 0 not said (shogi's where the
				     notation is read), 1 chess, 2 shogi */
	int ncross;
	int16_t cross[VC_MAXREGION][2]; /* rectangles (corner squares) whose diagonals are drawn */
	int nregions;
	char region_name[VC_MAXREGION][24];
	uint64_t region[VC_MAXREGION][2][VC_SQWORDS];
	uint64_t drop_pawn_forbid_ranks; /* relative ranks where pawns may not be dropped */
	int captured_promoted;           /* VC_HAND_*: what a promoted piece taken becomes */
	uint64_t drop_rule_types;        /* types with drop-one-per-file or drop-no-mate */
	uint64_t direct_no;              /* types whose written moves always go through
					  * generation (notation.c's direct_move) */
	uint64_t ep_types;               /* types with an atom that takes or leaves en passant */

	/* compiled movement */
	int32_t *pathoff[2][VC_MAXT]; /* [nsq] offsets into paths */
	int16_t *paths;
	size_t npaths;
	uint8_t dedupe[VC_MAXT];  /* type may reach one square by two paths */
	/* types with paths too long to invert into the tries (a reflecting ray
	 * on a big board): their attacks are found by walking their paths */
	uint64_t walk_types;
	/* types with first-move movements (VC_MODE_FIRST): their attacks are
	 * walked too, as they depend on the right */
	uint64_t first_types;
	/* walk_reach[side][type]: per origin (nsq words of (nsq + 63) / 64), the
	 * squares its capture paths hold at all, a cheap test before a walk;
	 * for walked types, and for every type with test_lines */
	uint64_t *walk_reach[2][VC_MAXT];
	/* walk_move_reach[side][type]: the same of its move paths, for the
	 * walked types (vc_reach_origins: which pieces could have moved there) */
	uint64_t *walk_move_reach[2][VC_MAXT];
	struct vc_tnode *trie;    /* all tries */
	int32_t *trieoff[2][2];   /* [kind 0 capture, 1 move][side][target] -> start; end = next */
	int32_t *trieend[2][2];
	/* the same tries cut down to one type each: [kind][side][type * nsq +
	 * target] -> start and end in ttrie (the questions about one type:
	 * which of its pieces reach a square, does the piece that moved give
	 * check) */
	struct vc_tnode1 {
		uint16_t sq;   /* | VC_TN1_REACH when a piece of the type there reaches the target */
		uint16_t skip; /* nodes in this node's subtree, itself included */
	} *ttrie;
	int32_t *ttoff[2][2];
	int32_t *ttend[2][2];
	/* the types that move alike from every square, by step (shapes.c):
	 * which of their pieces reach a square without the tries; NULL when
	 * no type does, or under vc_ctx_set_bitboards(ctx, 0) */
	struct vc_shapes *shapes;
	uint64_t promo_zone[2][VC_MAXT][VC_SQWORDS];
	uint64_t auto_zone[2][VC_MAXT][VC_SQWORDS];
	uint64_t *zobrist;        /* [(code) * nsq + sq] */
	uint64_t zob_side, zob_castle[2][VC_MAXCASTLE], zob_ep[VC_MAXSQ];
	uint64_t zob_res[2][VC_MAXRES][VC_MAXT];
	uint64_t *zob_link;       /* [sq * 8 + direction - 1]: the pairing of two-square pieces */
	uint64_t zob_checks[2];   /* times the checks a side has given */
	uint64_t zob_gate[2][VC_MAXF]; /* a side's gating right on a file of its first rank */
	int has_complex;          /* any mechanic beyond moving, taking, promoting and castling
				     (the bitboard core's generator stops there) */
	int complex_always;       /* a mechanic that needs every move made and unmade to be
				     tested (explosions, no-check); a swap of halves needs it
				     on the plies that swap (vc_swap_ply), a promotion by
				     exchange on its own moves (VC_MF_XPROMO) */
	int test_all;             /* every move is tested (complex_always, or attacks the tries do
				     not hold: hops, long paths; royal pieces that may not face) */
	int test_lines;           /* test_all for want of the tries alone: when not in check,
				     only a move to or from a square between the royal piece
				     and a piece lined up with it is tested (find_pins) */
	/* two-square pieces: their types, and per side and type the
	 * translations of their movements (a leap is a ride of range 1) */
	uint64_t two_types;
	struct vc_twovec {
		int8_t dx, dy;
		uint8_t range, min, modes;
	} *twovec[2][VC_MAXT];
	uint8_t ntwovec[2][VC_MAXT];
	uint64_t two_odd; /* types with translations neither orthogonal nor diagonal */
	int attacks_off_tries; /* walk_types or two_types: vc_attacked looks further */
	/* lines[side][k]: squares whose piece, moving away, may uncover an
	 * attack of the other side on a royal piece standing on k */
	uint64_t *lines[2];
	/* pins[side][k * nsq + sq]: the node of square sq in the capture trie
	 * of the other side towards a royal piece of 'side' on k, when it has
	 * squares behind it (what a piece leaving sq may uncover, once the squares
 * of its ancestors, between k and sq, are empty); -1 none,
	 * -2 more than one.  NULL on boards over VC_PINS_MAXSQ squares. */
	int32_t *pins[2];
	int32_t *tparent; /* with pins: each node's parent in trie, -1 for a root */
	long setup_line, setup_col; /* where the setup stands in the file */
	/* notation dialect */
	char sep[2];        /* written between a piece symbol and its square ("-" in Io) */
	char drop_mark;     /* '@' or '*' */
	int castle_zero;    /* castling written 0-0 rather than O-O */
	int coord_castle_partner; /* coordinates write castling as the king taking its partner */
	int castle_files;   /* position strings name castling rights by their partners' files */
	int8_t letter_type[26]; /* 'A'..'Z': the type with that one-letter symbol, -1 */
	int8_t pair_type[26][26]; /* two capitals: the type vc_type_by_symbol reads, -1 */
	uint64_t san_group[VC_MAXT]; /* the types SAN writes with type t's symbol (shogi's
					promoted golds, all 'G'), t included */
	int shogi_coords;       /* shogi's Western notation (P-7f) read besides SAN */
	int wxf_read;           /* xiangqi's WXF notation (H2+3) read besides SAN */
	int janggi_read;        /* janggi's numeric notation (H08-87) read besides SAN */
	uint64_t plus_types;    /* the types written '+X', X another's symbol */
	int any_file_alias;     /* some file has an alias letter */
	uint64_t alias_bytes[4]; /* the bytes that are some file's alias, a bit each */
	/* the bitboard core's tables (bitboard.c): bbm when the board and the
	   pieces fit them (positions then keep a bitboard mirror, which attack
	   tests and the origins of a written move read), bb the same tables when
	   the variant's mechanics fit them too (perft over bitboards), or
	   tables no mirror may read (first-move leaps: vc_bb_mirrors) that
	   serve perft or the mate test; NULL else */
	struct vc_bb *bbm, *bb;
	/* on boards of 65 to 128 squares, the same core over 128-bit sets
	   (bitboard_wide.c) where the pieces and the moves on the board fit
	   it: perft, its last ply and the mate test; no mirror; NULL else */
	struct vc_bbw *bbw;
	/* the types the mirror's tables leave out (bitboard.c, vc_bb_outside),
	   and those of them that take: while a side has such a piece on the
	   board, its attack tests (or the origins of those types) go the
	   general way */
	uint64_t bbout, bboutcap;
	/* vc_type_by_symbol's index, once compiled (symbols_indexed): by first
	 * letter, either case, the types whose symbol and whose SAN symbol
	 * begin with it */
	uint64_t sym_first[26], san_first[26];
	uint8_t symbols_indexed;
};

#define VC_TN1_REACH 0x8000
#define VC_PINS_MAXSQ 256

/* path encoding in vc_variant.paths at pathoff[side][type][sq]:
 * npaths, then per path: len, modes, then len squares, each
 * square | VC_PS_TRANSIT when it cannot be a destination, | VC_PS_SELF
 * when it is the mover's own start square (empty once it has left). */
#define VC_PS_TRANSIT 0x4000
#define VC_PS_SELF 0x2000
#define VC_PS_SQMASK 0x03ff
#define VC_TRIE_MAXLEN 64 /* longer paths are walked, not inverted */

static inline int vc_bit_test(const uint64_t *set, int sq) { return (int)((set[sq >> 6] >> (sq & 63)) & 1); }
static inline void vc_bit_set(uint64_t *set, int sq) { set[sq >> 6] |= 1ULL << (sq & 63); }

/* relative rank (1-based) of a square for a side */
static inline int vc_rel_rank(const struct vc_variant *v, int side, int sq)
{
	int r = sq / v->files;
	return side == VC_WHITE ? r + 1 : v->ranks - r;
}

/* Does a move of type t from 'from' to 'to' reach or, where its promotion
 * says so, leave its promotion zone? */
static inline int vc_promo_zone_move(const struct vc_variant *v, int side, int t, int from, int to)
{
	const struct vc_ptype *pt = &v->types[t];
	return pt->promo_ranks && (vc_bit_test(v->promo_zone[side][t], to) ||
				   (pt->promo_from_zone && from >= 0 &&
				    vc_bit_test(v->promo_zone[side][t], from)));
}

/* May a piece of type t capture its own side's pieces (the non-royal ones),
 * with the moves by which it captures: the variant's self-capture for
 * every piece but a royal one, or the piece's captures-own? */
static inline int vc_self_captures(const struct vc_variant *v, int t)
{
	const struct vc_ptype *pt = &v->types[t];
	return ((v->rules & VC_R_SELF_CAPTURE) && !(pt->props & VC_P_ROYAL)) ||
	       (pt->props & VC_P_CAPTURES_OWN);
}

/* May a piece of type t be dropped on relative rank rr (1-based) of the
 * dropping side?  Its drop-ranks, and for pawns the variant's
 * drop-pawn-forbidden-ranks. */
static inline int vc_drop_rank_ok(const struct vc_variant *v, int t, int rr)
{
	const struct vc_ptype *pt = &v->types[t];
	if (pt->drop_ranks && !(pt->drop_ranks >> (rr - 1) & 1))
		return 0;
	return !((pt->props & VC_P_PAWN) && (v->drop_pawn_forbid_ranks >> (rr - 1) & 1));
}

/* drop-promoted: the type a piece of type t in hand may also be dropped as
 * (its '+' form), or -1. */
static inline int vc_drop_face_up(const struct vc_variant *v, int t)
{
	int u = v->types[t].flip_to;
	return (v->rules & VC_R_DROP_PROMOTED) && u >= 0 && v->types[u].demote_to == t ? u : -1;
}

/* A piece confined to a region (its key region) is dropped only inside it. */
static inline int vc_drop_region_ok(const struct vc_variant *v, int t, int side, int sq)
{
	int r = v->types[t].region;
	return !r || vc_bit_test(v->region[r - 1][side], sq);
}

/* ---- positions ---- */
struct vc_undo {
	vc_move m;
	uint8_t captured;      /* code on the destination (or ep victim) */
	uint8_t capflags;
	uint8_t movedflags;
	uint8_t nreschg;
	uint8_t xsrc_flags; /* flags of the piece taken from the board by an exchange promotion */
	int16_t capsq;
	int16_t king[2];
	int16_t castle[2][VC_MAXCASTLE];
	int16_t ep[VC_MAXEP];
	int16_t epvictim;
	uint8_t nep;
	uint8_t swapped;
	int32_t halfmove;
	uint64_t hash;
	/* reserve changes: (side, area, type, delta) */
	int8_t reschg[16][4];
	/* generic square changes for complex mechanics: sq, old code, old flags */
	int16_t chgsq[16];
	uint8_t chgold[16][2];
	uint8_t nchg;
	/* two-square pieces: squares emptied by a capture besides capsq (the
	 * other square of a captured wall, the captures of a wall's move):
	 * square, code, flags; put back by unmake in reverse order */
	uint8_t nx;
	int16_t xsq[4];
	uint8_t xold[4][2];
	uint8_t twoflags[2]; /* a moving two-square piece's flags on from, from2 */
	/* an explosion: the squares it emptied, the mover's first (square,
	 * code, flags); put back by unmake in reverse order */
	uint8_t nblast;
	int16_t blastsq[9];
	uint8_t blastold[9][2];
	uint8_t checks[2]; /* the checks given before the move */
	uint32_t gates[2]; /* the gating rights before the move */
	int16_t count_limit, count_ply; /* the count before the move */
};

struct vc_position {
	const struct vc_variant *v;
	int side;
	int16_t king[2];
	int16_t castle[2][VC_MAXCASTLE]; /* partner's current square, -1 lost */
	int16_t ep[VC_MAXEP];
	int16_t epvictim;
	uint8_t nep;
	int32_t halfmove, fullmove;
	long ply;            /* plies played since the game's start */
	uint64_t hash;
	uint8_t res[2][VC_MAXRES][VC_MAXT];
	uint8_t checks[2]; /* checks given by each side (end rule 'checks') */
	/* the count (end rule 'counting'): its limit in plies, 0 while none
	 * runs, and the plies counted; position strings carry both where the
	 * en-passant square and the halfmove clock stand */
	int16_t count_limit, count_ply;
	/* gating rights (rule gating): bit f, the square of file f on the
	 * side's first rank, whose piece has not moved, may gate */
	uint32_t gates[2];
	/* piece lists */
	int16_t plist[3][VC_MAXPL];
	int16_t npl[3];
	int16_t pidx[VC_MAXSQ];
	/* anchors of the two-square pieces of each side */
	int16_t two[2][VC_MAXTWO];
	uint8_t ntwo[2];
	uint8_t board[VC_MAXSQ];
	uint8_t sqf[VC_MAXSQ];
	/* the bitboard mirror of the board, kept while the variant has the
	 * bitboard core's tables (v->bbm): each side's squares of each type,
	 * and every occupied square (pieces of no side too) */
	uint64_t bbt[2][VC_BB_MAXT];
	uint64_t bbocc;
	/* undo stack */
	struct vc_undo *undo;
	int nundo, capundo;
};

/* Does the side to move's move swap the board halves (rule swap-halves)?
 * Then every square changes and no shortcut of the legality tests holds. */
static inline int vc_swap_ply(const struct vc_position *p)
{
	return (p->v->rules & VC_R_SWAP_HALVES) && vc_position_plies_to_transform(p) == 1;
}

/* How many files a swap of halves turns the board along (with undo, the
 * rest of the way round: on an odd number of files not the same shift);
 * one file turns nowhere. */
static inline int vc_swap_shift(const struct vc_variant *v, int undo)
{
	int half = v->files / 2, shift = undo ? v->files - half : half;
	return shift < v->files ? shift : 0;
}

/* The square of sq once the board turns shift files along, wrapping. */
static inline int vc_swapped_square(const struct vc_variant *v, int sq, int shift)
{
	int f = v->sqfile[sq], g = f + shift;
	return sq - f + (g < v->files ? g : g - v->files);
}

/* A mirror word with each rank turned shift files along, wrapping, as a
 * swap of halves turns the board (low: v->swap_low of that shift). */
static inline uint64_t vc_bb_turned(uint64_t x, uint64_t low, int shift, int files)
{
	return ((x & low) << shift) | ((x & ~low) >> (files - shift));
}

/* Did the move just made swap them? */
static inline int vc_swapped_last(const struct vc_position *p)
{
	return (p->v->rules & VC_R_SWAP_HALVES) &&
	       vc_position_plies_to_transform(p) == p->v->swap_period;
}

/* ---- attacks over the tries (attack.c and its callers) ---- */

/* Walks trie nodes i..end: 1 when a piece of side 'by' whose type the
 * node's mask holds stands on a node with every node before it on its
 * branch empty. */
static inline int vc_trie_walk(const struct vc_position *p, const struct vc_tnode *t, int32_t i,
			    int32_t end, int by)
{
	const uint8_t *board = p->board;
	while (i < end) {
		uint8_t occ = board[t[i].sq];
		if (!occ) {
			i++;
			continue;
		}
		if (vc_code_color(occ) == by && (t[i].mask >> vc_code_type(occ) & 1) &&
		    !(p->sqf[t[i].sq] & VC_SQF_DEAD))
			return 1;
		i += t[i].skip;
	}
	return 0;
}

/* Is the line from the royal piece to trie node i clear (i's ancestors)? */
static inline int vc_line_clear(const struct vc_position *p, int32_t i)
{
	const struct vc_variant *v = p->v;
	for (int32_t j = v->tparent[i]; j >= 0; j = v->tparent[j])
		if (p->board[v->trie[j].sq])
			return 0;
	return 1;
}

/* Is there a piece of side 'by' behind trie node i (i >= 0; -1: none) that
 * takes along the line to the royal piece, with the line clear (what
 * leaving node i's square uncovers)? */
static inline int vc_line_attacks(const struct vc_position *p, int32_t i, int by)
{
	const struct vc_variant *v = p->v;
	return i >= 0 && vc_line_clear(p, i) && vc_trie_walk(p, v->trie, i + 1, i + v->trie[i].skip, by);
}

/* Does the piece on from reach target along one of its capture paths? */

/* Could the two-square piece anchored on a, or its partner b, reach sq by
 * some translation or turn at all?  A cheap test before the exact one. */
static inline int vc_two_near(const struct vc_variant *v, int a, int b, int sq, int odd)
{
	int f = v->sqfile[sq], r = v->sqrank[sq];
	int s2[2] = { a, b };
	if (odd)
		return 1; /* vectors other than orthogonal and diagonal ones */
	for (int k = 0; k < 2; k++) {
		int dx = f - v->sqfile[s2[k]], dy = r - v->sqrank[s2[k]];
		if (dx == 0 || dy == 0 || dx == dy || dx == -dy)
			return 1;
	}
	return 0;
}

/* Are squares x and y within a king's step of each other (or the same)? */
static inline int vc_next_to(const struct vc_variant *v, int x, int y)
{
	int dx = v->sqfile[x] - v->sqfile[y], dy = v->sqrank[x] - v->sqrank[y];
	return dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

/* The square on the same file and the rank as far from the other edge:
 * a White square seen from Black's side. */
static inline int vc_sq_mirror(const struct vc_variant *v, int sq)
{
	return vc_sq(v->files, sq % v->files, v->ranks - 1 - sq / v->files);
}

/* The start square of side's piece that castles (the variant's, turned
 * about for Black), -1 when the variant names none. */
static inline int vc_castle_home(const struct vc_variant *v, int side)
{
	int home = v->castle_king;
	if (home >= 0 && side == VC_BLACK)
		home = vc_sq_mirror(v, home);
	return home;
}

/* The square of side's piece that castles: its royal piece, or where the
 * piece that castles is not royal (giveaway, extinction), the one of its
 * type on its start square, else the one on the lowest square (one of
 * several kings after a promotion: the answer never depends on the piece
 * list's order); -1 if none. */
static inline int vc_castler(const struct vc_position *p, int side)
{
	const struct vc_variant *v = p->v;
	if (v->castle_type == v->king_type)
		return p->king[side];
	int home = vc_castle_home(v, side), low = -1;
	for (int i = 0; i < p->npl[side]; i++) {
		int sq = p->plist[side][i];
		if (vc_code_type(p->board[sq]) != v->castle_type)
			continue;
		if (sq == home)
			return sq;
		low = low < 0 || sq < low ? sq : low;
	}
	return low;
}

/* The hash key of a first-move right on sq: the square's en-passant key
 * turned, so that no table more is drawn. */
static inline uint64_t vc_first_key(const struct vc_variant *v, int sq)
{
	uint64_t k = v->zob_ep[sq];
	return k << 29 | k >> 35;
}

/* position.c */
void vc_pos_clear(struct vc_position *p);
void vc_pos_put(struct vc_position *p, int sq, uint8_t code, uint8_t flags);
void vc_pos_remove(struct vc_position *p, int sq);
uint64_t vc_pos_compute_hash(const struct vc_position *p);
int vc_pos_make(struct vc_position *p, const vc_move *m);
void vc_pos_unmake(struct vc_position *p);
/* The Kirby death rule, applied after a ply (u: its undo record) or to a
 * position just set up (u NULL). */
void vc_pos_kirby_death(struct vc_position *p, struct vc_undo *u);

/* movegen.c */
/* The other square of the two-square piece on sq (which must be one). */
static inline int vc_partner(const struct vc_position *p, int sq)
{
	int d = vc_link_of(p->sqf[sq]);
	return sq + vc_link_dx(d) + vc_link_dy(d) * p->v->files;
}
/* Does the two-square piece anchored on a have a move one of whose new
 * squares is target (target >= 0)?  With target -1 and out != NULL, writes
 * its pseudo-legal moves to out and returns their count. */
int vc_gen_two(const struct vc_position *p, int a, int side, int target, vc_move *out);
/* The moves of vc_gen_two that land on the squares x and y (either way
 * round): the one move a text names, without the others. */
int vc_two_find(const struct vc_position *p, int a, int side, int x, int y, vc_move *out);
int vc_gen_from(const struct vc_position *p, int from, vc_move *out);
/* drop-one-per-file: does the side to move hold a piece of type t on the
 * file of sq already (shogi's nifu)? */
int vc_drop_file_taken(const struct vc_position *p, int t, int sq);
/* drop-opposite-colours: would a drop of type t on sq by the side to move
 * put two of its pieces of a type so marked on squares of one colour (1),
 * or take the last square of a colour that one of them in hand still needs
 * (2, that type in *need when need is not NULL)?  0 when neither. */
int vc_drop_colour_bad(const struct vc_position *p, int t, int sq, int *need);
int vc_gen_castling(const struct vc_position *p, vc_move *out);
/* The end of the game by a rule of the variant's own (its "end" section
 * but mate and stalemate, which come from the moves): a VC_END_* rule, the
 * side it is about and what it gives that side (VC_RES_*), or VC_END_NONE
 * (0) when none applies.  side and res may be NULL. */
int vc_end_by_rule(struct vc_position *p, int *side, int *res);
/* Do the royal pieces of both sides stand on one file with nothing
 * between them? */
int vc_kings_face(const struct vc_position *p);
/* The side to move's pass (rule pass) into *out: 1 when it is legal (not
 * in check, or with bikjang while the royal pieces face each other), 0
 * when it is not or the variant has none. */
int vc_pass_move(struct vc_position *p, vc_move *out);
/* Does the side to move have a legal move?  (stops at the first) */
int vc_has_legal_move(struct vc_position *p);
int vc_gen_pseudo(const struct vc_position *p, vc_move *out);
int vc_attacked(const struct vc_position *p, int sq, int by);
/* The part of it that two-square pieces of side by give (their attacks are
 * not in the tries). */
int vc_two_attacked(const struct vc_position *p, int sq, int by);
int vc_in_check(const struct vc_position *p, int side);
/* Is one of the legal moves a capture?  1 and it in *out, or 0. */
int vc_legal_capture(struct vc_position *p, vc_move *out);
/* Promotion as a move (promotion: as-move): may the piece on from become
 * type c on to (from itself: in place)?  0 when it may, as far as the
 * board goes (the move's legality aside), else why not. */
enum { VC_STEP_NO_CHOICE = 1, VC_STEP_LIMIT, VC_STEP_ZONE, VC_STEP_NO_STEP, VC_STEP_ATTACKS };
int vc_step_promo_why(const struct vc_position *p, int from, int to, int c);
/* Is one of the legal moves a drop?  1 and it in *out, or 0 (must-drop). */
int vc_legal_drop(struct vc_position *p, vc_move *out);
/* Legal moves into out; returns count. */
int vc_gen_legal(struct vc_position *p, vc_move *out);
/* Does a pseudo-legal move leave the mover's royal piece attacked?  1 yes,
 * 0 no, -1 when the move cannot be made (out of memory). */
int vc_move_leaves_check(struct vc_position *p, const vc_move *m);
/* Why a pseudo-legal move that vc_move_legal refuses is illegal, as words
 * that follow the move's text: "would leave the king in check", or under
 * explosion or no-check what the variant forbids ("would give check, which
 * no move may do in this variant"). */
const char *vc_illegal_why(struct vc_position *p, const vc_move *m);
/* The same when the side to move is known not to be in check now: only
 * what the move uncovers is looked at. */
int vc_move_exposes(struct vc_position *p, const vc_move *m);
/* Is a pseudo-legal move legal?  (Not when it cannot be made: out of memory.) */
int vc_move_legal(struct vc_position *p, const vc_move *m);
/* Origins of side's pieces whose type is in mask that reach target
 * (capture tries when capture != 0), in square order; returns the count
 * written to out.  The walked types are in no trie: of those, every piece
 * whose paths hold target at all (walk_reach, walk_move_reach), blocked or
 * not. */
int vc_reach_origins(const struct vc_position *p, int side, uint64_t mask, int target,
		     int capture, int16_t *out, int cap);

/* shapes.c: a type's moves by their step, for the types whose paths are
 * the same from every square but for the board's edges.  run[kind 0
 * capture, 1 move][side][type] holds, per step (index (ranks - 1 + rank
 * step) * (2 * files - 1) + files - 1 + file step), where its shapes
 * start in pool (the next step's start ends them), or is NULL for a type
 * that is not so; a shape is n, the box its squares span from the origin
 * (least and most file step, least and most rank step), then the n
 * squares that must be empty, as offsets from the origin. */
struct vc_shapes {
	int32_t *run[2][2][VC_MAXT];
	int16_t *pool;
};
/* v's shapes (its paths compiled), or NULL when no type has them or
 * memory ran out: the tries answer alone. */
struct vc_shapes *vc_shapes_build(const struct vc_variant *v);
void vc_shapes_free(struct vc_shapes *sh);
/* The pieces of side's type on the board that reach target by the shapes
 * of run (one of v->shapes->run), those on dead squares left out when
 * dead != 0, in square order, up to cap of them; their count. */
int vc_shape_origins(const struct vc_position *p, const int32_t *run, int side, int type,
		     int target, int dead, int16_t *out, int cap);
/* Does the piece on from reach target by the shapes of run (from's piece
 * of run's side and type, whatever stands on target)? */
int vc_shape_reaches(const struct vc_position *p, const int32_t *run, int from, int target);

/* bitboard.c: perft over 64-bit bitboards for the variants that fit them */
struct vc_bb;
/* The tables for v, or NULL when it does not fit (or out of memory). */
struct vc_bb *vc_bb_build(const struct vc_variant *v);
void vc_bb_free(struct vc_bb *b);
/* Perft of p over bitboards: 1 with the count in *count, or 0 when the
 * variant or the position does not fit (nothing counted). */
int vc_bb_perft(const struct vc_position *p, int depth, uint64_t *count);
/* Has the side to move of p a legal move, by the bitboard core?  1 or 0, or
 * -1 when the variant's moves on the board or the position do not fit it,
 * or when only a drop could be legal.  The end rules are the caller's. */
int vc_bb_has_legal(const struct vc_position *p);
/* The number of legal moves on the board of the side to move of p, by the
 * bitboard core (perft's last ply in variants with drops: the drops are
 * the caller's), or -1 when the moves on the board or the position do not
 * fit it.  The end rules are the caller's. */
int vc_bb_count_board(const struct vc_position *p);
/* 1 when the tables b serve perft (the variant's mechanics fit them) */
int vc_bb_serves_perft(const struct vc_bb *b);
/* 1 when positions may keep a mirror by the tables b: 0 where they hold
 * first-move leaps (cambodian), which the mirror's tests do not read;
 * such tables serve perft and the mate test only (v->bb). */
int vc_bb_mirrors(const struct vc_bb *b);
/* The lines (a ride direction with its opposite) of the tables b whose
 * reaches are looked up (ride_reach), and into *total all of them (the
 * 128-bit tables keep the obstruction difference). */
int vc_bb_lines(const struct vc_bb *b, int *total);
/* Has the side to move, without a royal piece, a capture on the board?  1
 * or 0 over the mirror (every capture of such a side is legal; the end
 * rules are not asked, as vc_legal_capture asks them), -1 when the
 * mirror cannot say (en passant, a piece it leaves out, pieces with
 * exceptions, complex mechanics): vc_legal_capture then answers. */
int vc_bb_has_capture(const struct vc_position *p);
/* Over the mirror of p (p->v->bbm set): is sq attacked by side 'by'? */
int vc_bb_attacked(const struct vc_position *p, int sq, int by);
/* The same after a move from 'from' (-1: a drop) to 'to' set on the board
 * alone, the piece on 'to' taken: is sq attacked by 'by' then?  The mirror
 * is not changed. */
int vc_bb_attacked_after(const struct vc_position *p, int from, int to, int sq, int by);
/* The same when the move swaps the board halves too (vc_swap_ply): sq is
 * the square before the swap. */
int vc_bb_attacked_after_swap(const struct vc_position *p, int from, int to, int sq, int by);
/* After a plain move from 'from' (-1: a drop) to 'to', made on p: is the
 * royal piece on k attacked by 'by', the mover's side, when it was not
 * before?  Only the piece on 'to' can attack it directly, and another only
 * along a line from k through 'from'. */
int vc_bb_check_after(const struct vc_position *p, int from, int to, int k, int by);
/* Before a plain move from 'from' to 'to' by k's side, not in check: does
 * leaving 'from' uncover an attack by 'by' on the royal piece on k (a
 * rider behind 'from', and 'to' not between)? */
int vc_bb_exposed(const struct vc_position *p, int k, int from, int to, int by);
/* The pieces of side that stand alone between its royal piece on k and an
 * enemy rider that would take along that line (the mirror of p). */
uint64_t vc_bb_pinned(const struct vc_position *p, int k, int side);
/* vc_reach_origins over the mirror (p->v->bbm set), origins in square order */
int vc_bb_reach(const struct vc_position *p, int side, uint64_t mask, int target, int capture,
		int16_t *out, int cap);
/* bitboard_wide.c: the same core over 128-bit square sets, for boards of
 * 65 to 128 squares; each entry point as its vc_bb twin says, reading
 * p->v->bbw.  vc_bbw_build also answers NULL when the tables would serve
 * neither perft nor the mate test (there is no mirror to keep). */
struct vc_bbw;
struct vc_bbw *vc_bbw_build(const struct vc_variant *v);
void vc_bbw_free(struct vc_bbw *b);
int vc_bbw_serves_perft(const struct vc_bbw *b);
int vc_bbw_perft(const struct vc_position *p, int depth, uint64_t *count);
int vc_bbw_has_legal(const struct vc_position *p);
int vc_bbw_count_board(const struct vc_position *p);
/* The types b leaves out of its tables: all of them, or (capture) those
 * that take. */
uint64_t vc_bb_outside(const struct vc_bb *b, int capture);
/* Has side a piece of the types on the board (its mirror)?  While it has
 * one of v->bboutcap, the mirror cannot say what it attacks. */
static inline int vc_bb_holds(const struct vc_position *p, int side, uint64_t types)
{
	for (; types; types &= types - 1)
		if (p->bbt[side][__builtin_ctzll(types)])
			return 1;
	return 0;
}
/* The mirror of p made anew from its board. */
void vc_bb_sync(struct vc_position *p);
/* The mirror with the piece code on sq added or taken away (p->v->bbm set). */
static inline void vc_bb_flip(struct vc_position *p, int sq, uint8_t code)
{
	uint64_t b = 1ULL << sq;
	int c = vc_code_color(code);
	p->bbocc ^= b;
	if (c < 2)
		p->bbt[c][vc_code_type(code)] ^= b;
}

/* variant.c */
/* The symbol SAN writes for type t: its san symbol, or its symbol. */
static inline const char *vc_san_symbol(const struct vc_variant *v, int t)
{
	return v->types[t].san[0] ? v->types[t].san : v->types[t].symbol;
}
int vc_variant_compile(struct vc_ctx *ctx, struct vc_variant *v);
struct vc_variant *vc_variant_alloc(void);
int vc_type_by_symbol(const struct vc_variant *v, const char *s, size_t len);
int vc_builtin_index(const char *name);
/* The text of the built-in variant of that name or alias: 0 and its file's
 * name and bytes, or -1. */
int vc_builtin_text(const char *name, const char **file, const char **text, size_t *len);
/* What messages about an unknown variant name add after it: the nearest
 * built-ins (vc_builtin_suggest) and where to find every one, " (nearest:
 * crazyhouse; 'vchess-variant list' names them all)".  Written into buf
 * (size n) as snprintf does. */
size_t vc_builtin_hint(const char *name, char *buf, size_t n);

/* variant_yaml.c */
struct vc_variant *vc_variant_parse_yaml(struct vc_ctx *ctx, const char *file, const char *text,
					 size_t len);

/* geometry.c */
/* The distinct images of (x, y) under the board's eight symmetries. */
int vc_vec_images(int x, int y, int8_t out[8][2]);
/* Direction filter for a vector seen by a side. */
int vc_vec_dir(int side, int y);


/* notation.c: a move as written, parsed but not yet resolved */
struct vc_san {
	int castle;        /* 0, 1 short (O-O), 2 long (O-O-O) */
	int drop;
	int piece;         /* type, or -1 when no symbol was written */
	int to;            /* destination, -1 none */
	int from_file, from_rank, from_sq;
	int capture_mark;  /* 'x' or ':' written */
	int promo;         /* type chosen, -1 none */
	int xsrc;          /* exchange promotion source: square, -2 airfield, -3 prison, -1 */
	int check;         /* 0, 1 '+', 2 '#' */
	int wall;          /* two-square move: from_sq/from2 -> to/to2 */
	int from2, to2;
	int ep_mark;       /* "ep" glued after the destination (exf6ep) */
	int gate;          /* gating: the type written after '/' (Nf3/H), -1 none */
	int gate_sq;       /* gating: the square written after it (O-O/Hh1), -1 none */
	int plus_promo;    /* 1: promotes to its own '+' form: UCI's "c4d5+", shogi's "Bx2b+";
			      2: a '+' piece turns back over (flip): "a1a2-", "+L-5d-" */
	int exact_piece;   /* the piece is that type alone, not its SAN group (shogi's
			      notation writes a tokin +P, not G) */
	int wxf;           /* WXF text (H2+3), which only the position resolves: the
			      resolution reads the text again (notation_trad.c) */
};
/* Parses move text; on failure writes a message and returns -1 (code in
 * *code). */
int vc_san_parse(const struct vc_variant *v, const char *s, size_t len, struct vc_san *out,
		 const char **code, char *msg, size_t n);
/* The same without the fast path for common shapes: the reference that the
 * fast path must agree with (tests compare them). */
int vc_san_parse_general(const struct vc_variant *v, const char *s, size_t len,
			 struct vc_san *out, const char **code, char *msg, size_t n);
/* Finds the one legal move that a parsed move means.  Returns 0, or -1 with
 * a message and a code.  When untested is not NULL and only one move fits,
 * its legality is left to the caller (who makes it anyway): *untested = 1,
 * or VC_UNTESTED_SOLE when, besides, the origins of every piece of the
 * mover's type were looked for (no origin was written) and the mover's is
 * the only one: no other such piece reaches the destination, so its SAN
 * needs no disambiguation (VC_SAN_SOLE). */
#define VC_UNTESTED_SOLE 2
int vc_san_resolve(struct vc_position *p, const struct vc_san *san, const char *text, size_t len,
		   vc_move *out, int *untested, const char **code, char *msg, size_t n);
/* vc_move_san with flags: VC_SAN_LONG long algebraic; VC_SAN_SOLE the
 * caller knows that no other piece of the mover's type reaches the
 * destination (vc_san_resolve's VC_UNTESTED_SOLE), so no disambiguation is
 * looked for; VC_SAN_NO_MARK without the check or mate mark (the caller
 * adds vc_end_mark's, once the move is made). */
#define VC_SAN_LONG 1
#define VC_SAN_SOLE 2
#define VC_SAN_NO_MARK 4
int vc_move_san_ex(const struct vc_position *p, const vc_move *m, int flags, char *buf,
		   size_t n);
/* Strict mode: is text (as written, marks and annotations included) the
 * move m of position p written as the PGN standard's SAN, in the variant's
 * dialect: exactly what vc_move_san writes, but for the check and mate
 * marks, which are checked apart?  0 when it is, or -1 with a message that
 * says which form it is and what SAN writes.  Castling and null moves are
 * left to their own checks (0). */
int vc_san_strict(const struct vc_position *p, const vc_move *m, const char *text, size_t len,
		  char *msg, size_t n);
/* Does making m (a pseudo-legal move) need a test of the mover's king?
 * in_check: whether the side to move is in check now. */
int vc_move_may_expose(const struct vc_position *p, const vc_move *m, int in_check);
/* The mark a move's text ends with, once it is made: "#" when it ends the
 * game with a winner (checkmate, or a rule of the variant's own: a king
 * on the hill, the third check, a king blown up), as lichess writes it;
 * "+" when it gives check; else "". */
const char *vc_mark_after(struct vc_position *p);
/* The same, for a side to move whose check state the caller knows
 * ("check"), and the end found into e (which may be NULL): its rule is
 * VC_END_NONE while the game goes on, and also for a stalemate that the
 * variant scores as a draw, which is not looked for (end.c). */
const char *vc_end_mark(struct vc_position *p, int check, struct vc_end *e);
/* Has the end e a winner? */
int vc_end_decisive(const struct vc_end *e);
/* After m was made: is the side to move in check? */
int vc_check_after(const struct vc_position *p, const vc_move *m);

/* notation_trad.c: janggi's square at s, two digits (the rank's from the
 * top, 0 the tenth; the file's from the left), or -1. */
int vc_janggi_square(const struct vc_variant *v, const char *s);
/* notation_trad.c: the traditional notations a variant's file may ask to
 * be read (notation: wxf: read, janggi: read).  Is text such a move?  1
 * with m filled (janggi's squares; WXF's m->wxf, resolved by
 * vc_wxf_resolve), 0 when it is not shaped like one, -1 when it is but
 * cannot be read (a message and a code). */
int vc_trad_parse(const struct vc_variant *v, const char *text, size_t len, struct vc_san *m,
		  const char **code, char *msg, size_t n);
/* The one legal move that WXF text means in p: 0, or -1 with a message. */
int vc_wxf_resolve(struct vc_position *p, const char *text, size_t len, vc_move *out,
		   const char **code, char *msg, size_t n);
/* Move m of p (legal) written in WXF as Fairy-Stockfish writes it (no
 * check mark), or, where that form fits more than one move, with the
 * origin's file added ("+P7+1"); and in janggi's notation (H08-87, a pass
 * K95-95), without its mark.  Both return the length, as snprintf, or 0
 * (buf "") for a move the notation cannot tell (Manchu's banner's M8+7,
 * a drop, castling): the caller writes SAN. */
int vc_move_wxf(struct vc_position *p, const vc_move *m, char *buf, size_t n);
int vc_move_janggi(const struct vc_position *p, const vc_move *m, char *buf, size_t n);

#endif
