/*
 * archive/writer.c - the writer object of vchess.h (step 3 of writing): one
 * document, text, XML, JSON lines, position strings or EPD, game by game or in
 * pieces made by other threads, over the format writers of write_text.c,
 * write_xml.c and write_json.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/vc_archive.h"

#define DEFAULT_WIDTH 80

/* A writer writes games with vc_writer_game, or adds pieces (see vchess.h)
 * with vc_writer_put; vc_writer_piece formats a game for another writer.
 *
 * Pieces do not depend on the games before them.  For text, JSON lines
 * and FEN a game's bytes are its piece: those formats have no state across
 * games.  An XML archive is H P1 P2 ... Pn F, H the XML declaration and the
 * <archive> start tag with its line end, F "</archive>\n", each Pi the
 * <game> element of game i and its line end, whichever way write_xml.c writes it
 * (its serialiser or the xmlTextWriter); an archive without a game is the
 * document E, whose <archive .../> is empty.  A writer that puts pieces
 * writes H before the first one and F (or E) at the end.  H and F come
 * from write_xml.c itself: H is E with its "/>" made ">".
 *
 * vc_writer_piece keeps an XML writer of write_xml.c of its own, writing into
 * memory: what it writes for a game is the piece (after H, the first
 * time), provided all of it has come out, which the piece's end,
 * "</game>\n", tells -- the serialiser always hands a whole game over,
 * the xmlTextWriter (for games nested too deep) when its buffer happens
 * to be flushed.  When it has not, that writer is dropped and the game is
 * written again as a one-game archive, whose middle, between H and F
 * (checked), is the piece.
 *
 * The XML writer of write_xml.c for the writer's own sink is opened only when a
 * game is written (or, for E, when no piece was put), so that a writer of
 * pieces writes nothing itself. */

struct vc_writer {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	enum vc_format fmt;
	struct vc_write_opts o;
	struct vc_canon *c;
	struct vc_buf out;
	struct vc_xml_out *xml;
	int xml_pure;
	long games, puts;        /* written by vc_writer_game, added by vc_writer_put */
	struct vc_buf head;      /* XML: H, once known */
	struct vc_sink *psink;   /* XML pieces: into out */
	struct vc_xml_out *pxml; /* XML pieces: the writer of write_xml.c that goes on */
	long pgames;             /* games pxml has written */
	int failed;
};

static const char xml_foot[] = "</archive>\n";
static const char game_end[] = "</game>\n";

struct vc_writer *vc_writer_open(struct vc_ctx *ctx, struct vc_sink *sink, enum vc_format fmt,
				 const struct vc_write_opts *opts)
{
	struct vc_writer *w = vc_calloc(1, sizeof *w);
	if (!w) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	w->ctx = ctx;
	w->sink = sink;
	w->fmt = fmt;
	if (opts)
		w->o = *opts;
	if (w->o.width <= 0)
		w->o.width = DEFAULT_WIDTH;
	vc_buf_init(&w->out);
	vc_buf_init(&w->head);
	w->c = vc_canon_new();
	if (!w->c) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		free(w);
		return NULL;
	}
	/* the moves' annotations as data: for the formats that carry them */
	w->c->want_data = fmt == VC_FORMAT_XML || fmt == VC_FORMAT_JSON;
	if (fmt == VC_FORMAT_XML)
		vc_xml_global_init();
	return w;
}

/* For tests: every XML element through libxml2's own writer, to compare
 * with the serialiser. */
void vc_writer_xml_pure(struct vc_writer *w, int on)
{
	w->xml_pure = on;
	if (w->xml)
		vc_xml_out_pure(w->xml, on);
}

static vc_status oom(struct vc_writer *w)
{
	if (!w->failed)
		vc_emit(w->ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
	w->failed = 1;
	return VC_FATAL;
}

/* Opens the XML writer of write_xml.c on the writer's sink. */
static int xml_start(struct vc_writer *w)
{
	if (w->xml)
		return 0;
	w->xml = vc_xml_out_open(w->ctx, w->sink, &w->o);
	if (!w->xml) {
		w->failed = 1;
		return -1;
	}
	vc_xml_out_pure(w->xml, w->xml_pure);
	return 0;
}

/* The bytes of g in a format without state across games, into w->out. */
static vc_status format_plain(struct vc_writer *w, const struct vc_game *g,
			      const struct vc_replay *rp)
{
	vc_buf_reset(&w->out);
	if (w->fmt == VC_FORMAT_FEN) {
		vc_fen_game(&w->out, rp, w->o.fen_plies);
	} else if (w->fmt == VC_FORMAT_EPD) {
		vc_epd_game(&w->out, g, rp);
	} else {
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			return oom(w);
		if (w->fmt == VC_FORMAT_JSON) {
			if (vc_json_game(&w->out, g, rp, w->c, &w->o) < 0)
				return oom(w);
		} else if (vc_text_game(&w->out, g, w->c, (size_t)w->o.width) < 0) {
			return oom(w);
		}
	}
	return w->out.oom ? oom(w) : VC_OK;
}

static vc_status mixed(struct vc_writer *w)
{
	if (!w->failed)
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-mixed", NULL, 0, 0, NULL,
			"a writer takes whole games or pieces, not both");
	w->failed = 1;
	return VC_FATAL;
}

vc_status vc_writer_game(struct vc_writer *w, const struct vc_game *g, const struct vc_replay *rp)
{
	if (w->failed)
		return VC_FATAL;
	if (w->puts)
		return mixed(w);
	w->games++;
	if (w->fmt == VC_FORMAT_XML) {
		if (xml_start(w) < 0)
			return VC_FATAL;
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			return oom(w);
		if (vc_xml_out_game(w->xml, g, rp, w->c) < 0) {
			w->failed = 1;
			return VC_FATAL;
		}
		return VC_OK;
	}
	if (format_plain(w, g, rp) != VC_OK)
		return VC_FATAL;
	if (vc_sink_write(w->sink, w->out.p, w->out.len) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

static int buf_write(void *user, const void *data, size_t len)
{
	return vc_buf_add(user, data, len);
}

/* The sink into w->out. */
static vc_status piece_sink(struct vc_writer *w)
{
	if (!w->psink) {
		w->psink = vc_sink_callback(w->ctx, buf_write, &w->out);
		if (!w->psink)
			return oom(w);
	}
	return vc_sink_failed(w->psink) ? oom(w) : VC_OK;
}

/* Writes a whole XML document, with g or without a game, into w->out. */
static vc_status xml_document(struct vc_writer *w, const struct vc_game *g,
			      const struct vc_replay *rp)
{
	vc_buf_reset(&w->out);
	if (piece_sink(w) != VC_OK)
		return VC_FATAL;
	struct vc_xml_out *x = vc_xml_out_open(w->ctx, w->psink, &w->o);
	if (!x) {
		w->failed = 1;
		return VC_FATAL;
	}
	vc_xml_out_pure(x, w->xml_pure);
	int bad = 0;
	if (g) {
		if (vc_canon_build(w->c, g, rp, &w->o) < 0)
			bad = 1;
		else if (vc_xml_out_game(x, g, rp, w->c) < 0)
			bad = 2;
	}
	if (vc_xml_out_close(x) < 0 && !bad)
		bad = 2;
	if (bad == 1 || w->out.oom)
		return oom(w);
	if (bad) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

/* H: the empty archive E with its "/>" made ">". */
static vc_status xml_head(struct vc_writer *w)
{
	if (w->head.len)
		return VC_OK;
	if (xml_document(w, NULL, NULL) != VC_OK)
		return VC_FATAL;
	if (w->out.len < 3 || memcmp(w->out.p + w->out.len - 3, "/>\n", 3)) {
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-piece", NULL, 0, 0, NULL,
			"cannot tell the XML archive's header");
		w->failed = 1;
		return VC_FATAL;
	}
	vc_buf_add(&w->head, w->out.p, w->out.len - 3);
	vc_buf_adds(&w->head, ">\n");
	return w->head.oom ? oom(w) : VC_OK;
}

vc_status vc_writer_piece(struct vc_writer *w, struct vc_sink *out, const struct vc_game *g,
			  const struct vc_replay *rp)
{
	if (w->failed)
		return VC_FATAL;
	if (w->fmt != VC_FORMAT_XML) {
		if (format_plain(w, g, rp) != VC_OK)
			return VC_FATAL;
		return vc_sink_write(out, w->out.p, w->out.len) < 0 ? VC_FATAL : VC_OK;
	}
	if (xml_head(w) != VC_OK || piece_sink(w) != VC_OK)
		return VC_FATAL;
	size_t h = w->head.len, f = sizeof xml_foot - 1, e = sizeof game_end - 1, n;
	/* the writer that goes on */
	vc_buf_reset(&w->out);
	if (!w->pxml) {
		w->pxml = vc_xml_out_open(w->ctx, w->psink, &w->o);
		if (!w->pxml) {
			w->failed = 1;
			return VC_FATAL;
		}
		vc_xml_out_pure(w->pxml, w->xml_pure);
		w->pgames = 0;
	}
	if (vc_canon_build(w->c, g, rp, &w->o) < 0)
		return oom(w);
	if (vc_xml_out_game(w->pxml, g, rp, w->c) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	size_t skip = w->pgames++ ? 0 : h;
	n = w->out.len;
	if (w->out.oom)
		return oom(w);
	if (n >= skip + e && !memcmp(w->out.p + n - e, game_end, e) &&
	    (!skip || !memcmp(w->out.p, w->head.p, h)))
		return vc_sink_write(out, w->out.p + skip, n - skip) < 0 ? VC_FATAL : VC_OK;
	/* not all of it came out: a one-game archive instead */
	vc_xml_out_close(w->pxml);
	w->pxml = NULL;
	if (xml_document(w, g, rp) != VC_OK)
		return VC_FATAL;
	n = w->out.len;
	if (n < h + f || memcmp(w->out.p, w->head.p, h) || memcmp(w->out.p + n - f, xml_foot, f)) {
		vc_emit(w->ctx, VC_SEV_FATAL, "writer-piece", NULL, 0, 0, NULL,
			"cannot cut the game out of its XML archive");
		w->failed = 1;
		return VC_FATAL;
	}
	return vc_sink_write(out, w->out.p + h, n - h - f) < 0 ? VC_FATAL : VC_OK;
}

vc_status vc_writer_put(struct vc_writer *w, const void *piece, size_t len)
{
	if (w->failed)
		return VC_FATAL;
	if (w->games)
		return mixed(w);
	if (w->fmt == VC_FORMAT_XML && w->puts == 0) {
		if (xml_head(w) != VC_OK)
			return VC_FATAL;
		if (vc_sink_write(w->sink, w->head.p, w->head.len) < 0) {
			w->failed = 1;
			return VC_FATAL;
		}
	}
	w->puts++;
	if (vc_sink_write(w->sink, piece, len) < 0) {
		w->failed = 1;
		return VC_FATAL;
	}
	return VC_OK;
}

vc_status vc_writer_close(struct vc_writer *w)
{
	if (!w)
		return VC_OK;
	int bad = w->failed;
	if (w->fmt == VC_FORMAT_XML && !bad) {
		if (w->puts) {
			if (vc_sink_write(w->sink, xml_foot, sizeof xml_foot - 1) < 0)
				bad = 1;
		} else if (w->sink && xml_start(w) < 0) {
			bad = 1;
		}
	}
	if (w->xml && vc_xml_out_close(w->xml) < 0)
		bad = 1;
	vc_xml_out_close(w->pxml); /* its end goes into out, which is dropped */
	vc_sink_close(w->psink);
	vc_canon_free(w->c);
	vc_buf_free(&w->out);
	vc_buf_free(&w->head);
	free(w);
	return bad ? VC_FATAL : VC_OK;
}
