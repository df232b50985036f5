/*
 * fuzz_xml.c - the XML archive reader of vchess-xml(5), fed from memory.
 * Every game read is validated and written back out, as XML and as text.
 * Checked: no crash, no leak, no hang, and
 *  - a reader that gives up (VC_FATAL) says why: an error reaches the
 *    context, and one about the XML itself carries a line;
 *  - no value read holds a NUL byte (the text reader never gives one);
 *  - nothing is lost: when the reader gets to the end, libxml2's own tree
 *    of the same bytes has as many <game> children of its root as games
 *    were read;
 *  - nothing is fetched: an external entity loader that aborts stands in
 *    for libxml2's, so no DTD or external entity (file or network) is ever
 *    loaded;
 *  - writers and reader agree: every game writes as XML and as text without
 *    failure, its XML reads back as exactly one game, and from then on
 *    reading and writing change nothing: the second conversion gives the
 *    text and the XML (but for the lines its diagnostics cite) of the first.
 * The checks that need libxml2's headers are left out when the compiler is
 * not told where they are (make and tests/fuzz/run.sh both tell it).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vchess.h"

#if defined(__has_include)
#if __has_include(<libxml/parser.h>)
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#define WITH_LIBXML 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	unsigned long errors;   /* of error or fatal severity */
	unsigned long unplaced; /* of those, about the XML and without a line */
};

static void on_diag(const struct vc_diag *d, void *user)
{
	struct seen *s = user;
	if (d->severity < VC_SEV_ERROR)
		return;
	s->errors++;
	if (d->code && !strncmp(d->code, "xml-", 4) && d->line <= 0)
		s->unplaced++;
}

struct state {
	struct vc_ctx *ctx;
	struct vc_validator *val;
	struct vc_replay *rp;
	struct vc_game *g, *g2;
	struct seen seen;
};

/* Writes g (replayed through st->rp) in fmt; the bytes are the sink's, or
 * NULL when the writer failed. */
static struct vc_sink *write_game(struct state *st, struct vc_game *g, enum vc_format fmt)
{
	struct vc_sink *s = vc_sink_mem(st->ctx);
	if (!s)
		abort();
	struct vc_writer *w = vc_writer_open(st->ctx, s, fmt, NULL);
	if (!w || vc_writer_game(w, g, st->rp) != VC_OK) {
		vc_writer_close(w);
		vc_sink_close(s);
		return NULL;
	}
	if (vc_writer_close(w) != VC_OK || vc_sink_failed(s)) {
		vc_sink_close(s);
		return NULL;
	}
	return s;
}

/* Reads the one game of an archive written by the XML writer into g2 and
 * writes it again, as XML (*xo) and as text (returned). */
static struct vc_sink *reread(struct state *st, const char *xml, size_t len, struct vc_sink **xo)
{
	struct vc_xml_reader *r = vc_xml_reader_mem(st->ctx, "rewritten", xml, len, NULL);
	if (!r || vc_xml_reader_next(r, st->g2) != VC_OK)
		abort(); /* the writer's XML does not read back */
	if (vc_replay_run(st->rp, st->val, st->g2, NULL) == VC_FATAL)
		abort();
	struct vc_sink *text = write_game(st, st->g2, VC_FORMAT_TEXT);
	*xo = write_game(st, st->g2, VC_FORMAT_XML);
	if (!text || !*xo)
		abort();
	struct vc_game *extra = vc_game_new();
	if (vc_xml_reader_next(r, extra) != VC_END)
		abort(); /* one game written, more read */
	vc_game_free(extra);
	vc_xml_reader_close(r);
	return text;
}

/* The XML of a game up to its diagnostics: their lines are those of the
 * XML they were read from, so they move when an earlier conversion added
 * or dropped lines. */
static size_t undiagnosed(const char *s, size_t n)
{
	static const char tag[] = "<diagnostics>";
	for (size_t i = 0; i + sizeof tag - 1 <= n; i++)
		if (s[i] == '<' && !memcmp(s + i, tag, sizeof tag - 1))
			return i;
	return n;
}

static int same(const struct vc_sink *a, const struct vc_sink *b, int xml)
{
	size_t na, nb;
	const char *pa = vc_sink_data(a, &na), *pb = vc_sink_data(b, &nb);
	if (xml) {
		na = undiagnosed(pa, na);
		nb = undiagnosed(pb, nb);
	}
	return na == nb && !memcmp(pa, pb, na);
}

/* Writes g out and checks the round trip described above: the first
 * conversion may change a game that was not in canonical form (a missing
 * result becomes '*', the errors become comments); the second may not. */
static void check_game(struct state *st, struct vc_game *g)
{
	struct seen keep = st->seen; /* what follows is not the reader's */
	for (size_t i = 0; i < vc_game_item_count(g); i++) {
		const struct vc_item *it = vc_game_item(g, i);
		if (it->len && memchr(it->text, 0, it->len))
			abort(); /* no reader may give a game a NUL byte */
	}
	if (vc_replay_run(st->rp, st->val, g, NULL) == VC_FATAL)
		abort(); /* the default variant would not load */
	struct vc_sink *t1 = write_game(st, g, VC_FORMAT_TEXT);
	struct vc_sink *x1 = write_game(st, g, VC_FORMAT_XML);
	if (!t1 || !x1)
		abort(); /* a game read cannot be written */
	size_t n;
	struct vc_sink *x2, *x3;
	const char *b = vc_sink_data(x1, &n);
	struct vc_sink *t2 = reread(st, b, n, &x2);
	b = vc_sink_data(x2, &n);
	struct vc_sink *t3 = reread(st, b, n, &x3);
	if (!same(t2, t3, 0) || !same(x2, x3, 1))
		abort(); /* reading and writing do not settle */
	vc_sink_close(t1);
	vc_sink_close(x1);
	vc_sink_close(t2);
	vc_sink_close(x2);
	vc_sink_close(t3);
	vc_sink_close(x3);
	st->seen = keep;
}

#ifdef WITH_LIBXML
static xmlParserInputPtr no_fetch(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)url;
	(void)id;
	(void)ctxt;
	abort(); /* the reader asked for a DTD or an external entity */
}

static void quiet_generic(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* The number of <game> children of the root of data, as libxml2's own
 * parser sees them, or -1 when it finds the bytes are not well-formed. */
static long count_games(const uint8_t *data, size_t size)
{
	if (size > INT32_MAX)
		return -1;
	xmlDocPtr doc = xmlReadMemory((const char *)data, (int)size, "fuzz", NULL,
				      XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR |
					      XML_PARSE_NOWARNING);
	if (!doc)
		return -1;
	long n = 0;
	xmlNodePtr root = xmlDocGetRootElement(doc);
	for (xmlNodePtr c = root ? root->children : NULL; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "game");
	xmlFreeDoc(doc);
	return n;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct state st;
	if (!st.ctx) {
		st.ctx = vc_ctx_new();
		vc_ctx_set_diag(st.ctx, on_diag, &st.seen);
		struct vc_validate_opts o = { 0, NULL, NULL };
		st.val = vc_validator_new(st.ctx, &o);
		st.rp = vc_replay_new(NULL, VC_FORMAT_XML);
		st.g = vc_game_new();
		st.g2 = vc_game_new();
		if (!st.ctx || !st.val || !st.rp || !st.g || !st.g2)
			abort();
#ifdef WITH_LIBXML
		xmlSetExternalEntityLoader(no_fetch);
		xmlSetGenericErrorFunc(NULL, quiet_generic);
#endif
	}
	memset(&st.seen, 0, sizeof st.seen);
	struct vc_reader_opts ro;
	memset(&ro, 0, sizeof ro);
	struct vc_xml_reader *r = vc_xml_reader_mem(st.ctx, "fuzz", data, size, &ro);
	long games = 0;
	vc_status s = VC_FATAL;
	while (r && (s = vc_xml_reader_next(r, st.g)) == VC_OK) {
		games++;
		check_game(&st, st.g);
	}
	vc_xml_reader_close(r);
	if (s == VC_FATAL && (st.seen.errors == 0 || st.seen.unplaced > 0))
		abort(); /* gave up without saying why, or where */
	if (s != VC_FATAL && s != VC_END)
		abort();
#ifdef WITH_LIBXML
	int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	if (s == VC_END && !gzip) {
		long n = count_games(data, size);
		if (n != games)
			abort(); /* a game lost, or made up */
	}
#endif
	return 0;
}
