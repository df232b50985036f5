/*
 * draw/vc_draw.h - the drawing layer of libvchess (internal): what the
 * text, glyph and SVG drawers share (draw/render.c), and what svg.c tells
 * the web page writer (html.c, html_game.c) so that its diagrams are the
 * ones vc_render_svg draws.
 */
#ifndef VC_DRAW_H
#define VC_DRAW_H

#include "rules/vc_rules.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
int vc_utf8_len(const unsigned char *s);
/* Writes text escaped for XML (SVG); bytes XML cannot hold become '?'. */
void vc_svg_put_text(struct vc_sink *out, const char *text);

/* A name as a CSS class: lower-case letters and digits kept, anything else
 * a hyphen, into out (size n). */
void vc_svg_class(const char *name, char *out, size_t n);

/* ---- the geometry of SVG diagrams (svg.c), in user units ---- */
#define VC_SVG_SQ 45.0                      /* a square */
#define VC_SVG_PAD 6.0                      /* around everything */
#define VC_SVG_RES_LABEL (0.42 * VC_SVG_SQ) /* a reserve area's label line */
#define VC_SVG_RES_SLOT (0.92 * VC_SVG_SQ)  /* a row of reserve pieces */
#define VC_SVG_RES_STEP (1.12 * VC_SVG_SQ)  /* from a reserve piece to the next */
#define VC_SVG_RES_GAP (0.2 * VC_SVG_SQ)    /* between reserve areas */

/* Where vc_render_svg puts the parts of a diagram drawn without a title. */
struct vc_svg_frame {
	double w, h;     /* the whole diagram */
	double bx, by;   /* the board's top-left corner */
	double res_y[2]; /* the top of each side's reserve block */
	double info_y;   /* the info line's baseline, 0 none */
	int per_row;     /* reserve pieces a row */
	int rows[2][VC_MAXRES];
};

/* The CSS of the diagrams' embedded <style>, without the element. */
const char *vc_svg_css(void);
/* The CSS of the end rule's region squares, which vc_render_svg adds only
 * for a variant that has one. */
const char *vc_svg_region_css(void);
/* The same for boards of points (board: points, xiangqi and janggi). */
const char *vc_svg_points_css(void);
/* The gradient a royal piece in check is marked with, id "vc-check". */
void vc_svg_put_gradient(struct vc_sink *out);
/* The frame of p's diagram, turned with flip, with room for most[s][a]
 * piece types in reserve area a of side s at least (most may be NULL). */
void vc_svg_frame_of(const struct vc_position *p, int flip, const int most[2][VC_MAXRES],
		     struct vc_svg_frame *f);
/* The squares (with the board's frame) and the coordinates of v's board,
 * as two groups with these ids, the board's corner at the origin. */
void vc_svg_put_board(struct vc_sink *out, const struct vc_variant *v, int flip,
		      const char *squares_id, const char *coords_id);
/* The squares marked as the last move m's, in p after it (at most 4);
 * returns how many. */
int vc_svg_last_squares(const struct vc_position *p, const vc_move *m, int sq[4]);
/* The squares of the royal pieces of the side to move that stand attacked
 * (at most cap); returns how many. */
int vc_svg_check_squares(const struct vc_position *p, int *sq, int cap);

/* What a reader needs of the variant's own end rules beneath a diagram,
 * one note a line (appended to b, each ending in a line end): the checks
 * each side has still to give ("checks to give: White 3, Black 2"), the
 * region a piece wins by reaching ("goal: king on the hill: d4 e4 d5 e5").
 * Returns the number of notes. */
int vc_draw_end_notes(const struct vc_position *p, struct vc_buf *b);
/* Are v's diagrams drawn with shogi's coordinates (files numbered from
 * the right along the top, ranks lettered from the top on the right)?
 * Where the variant file says so (board: coordinates), else where it
 * reads shogi's notation; never on a board of more than 9 files. */
int vc_draw_shogi_coords(const struct vc_variant *v);
/* Is square sq in the region of the variant's end rule (either side's)? */
int vc_draw_in_region(const struct vc_variant *v, int sq);

/* ---- the data of a web page (html_game.c), for the page (html.c) ---- */
struct vc_hdata;
struct vc_hdata *vc_hdata_new(void);
void vc_hdata_free(struct vc_hdata *hd);
/* Validates g through val (st as vc_validate fills it; it sets and then
 * clears val's move callback) and appends its data, a JSON object, to out.
 * Returns the page's index of its variant, -1 when it has none (its
 * variant is not known, its start does not read, it is no game), or -2
 * when memory ran out. */
int vc_hdata_game(struct vc_hdata *hd, struct vc_validator *val, struct vc_game *g,
		  struct vc_game_stats *st, struct vc_buf *out);
/* The variants met so far, in the order met: each one's JSON object. */
int vc_hdata_variant_count(const struct vc_hdata *hd);
const char *vc_hdata_variant_json(const struct vc_hdata *hd, int i, size_t *len);
/* The SVG definitions the games met so far need: the boards' frames and
 * the pieces' symbols. */
const char *vc_hdata_defs(const struct vc_hdata *hd, size_t *len);
/* Appends s (n bytes) as a JSON string that may stand inside an HTML
 * <script> element. */
void vc_json_str(struct vc_buf *b, const char *s, size_t n);

#endif
