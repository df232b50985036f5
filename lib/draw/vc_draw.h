/*
 * draw/vc_draw.h - the drawing layer of libvchess (internal): what the
 * text, glyph and SVG drawers share (draw/render.c).
 */
#ifndef VC_DRAW_H
#define VC_DRAW_H

#include "rules/vc_rules.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
int vc_utf8_len(const unsigned char *s);
/* Writes text escaped for XML (SVG); bytes XML cannot hold become '?'. */
void vc_svg_put_text(struct vc_sink *out, const char *text);

#endif
