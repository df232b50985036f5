/*
 * archive/xml_read.c - the XML archive format of vchess-xml(5), read:
 * libxml2's SAX2 push parser, fed from a vc_input (so gzip comes for
 * free); and the sniffing of an input's format by its first bytes.  The
 * writer is write_xml.c.
 *
 * Model.  The writer writes the canonical form of each game (see
 * canon.c): one <game> per game, its moves as a tree of <move>,
 * <comment>, <nag>, <escape> and <variation> elements in the order of the
 * movetext, where the annotations that follow a move are children of its
 * <move>.  The reader turns that tree back into the flat item list of a
 * game record, exactly the items the text reader would give for the
 * canonical text of the game, so text -> XML -> text is the identity on
 * canonical text.  Derived data (canonical SAN, squares, positions,
 * diagnostics) is written for other programs and ignored on reading.
 *
 * Bytes: XML holds only Unicode characters, and games hold bytes.  A value
 * that is not all XML characters in UTF-8 is written in an escaped form
 * (a backslash as "\\", each byte that cannot stand as "\xNN") and named
 * in the element's esc attribute, so that reading restores the exact
 * bytes.
 *
 * Reading.  The parser is given the input a chunk (CHUNK bytes) at a time;
 * its callbacks append what they see to a queue of nodes (an element's
 * start with its attributes, its end, a run of text, a CDATA section, a
 * document type, the first error), which the game reader below takes one
 * at a time, as from a pull reader: text is handed out only once complete,
 * an empty element (<x/>) has no end node, and an error is a node too, so
 * every game that ends before it is read before the error is reported.
 * (libxml2's xmlTextReader did this job before: building a node of the
 * tree for each was most of the time of reading.)
 *
 * Writing goes through the xmlTextWriter for the document; the games are
 * serialised here into the very bytes the xmlTextWriter would write (see
 * "the writer" below), since its per-attribute cost made the writer as
 * slow as the whole replay.
 *
 * Invariants: the queue holds the nodes of at most one chunk of input and
 * the text still open at its end, and the reader one game's items (no
 * tree is built); a node's line is the parser's line when it saw the node
 * (for an element, the end of its start tag; for an end, its start's);
 * the serialiser's output equals the xmlTextWriter's byte for byte
 * (tests/unit/t_convert.c); libxml2 never prints: its global handlers are
 * made silent while it runs on our behalf, and parse errors go to the
 * context.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlwriter.h>

#include "archive/vc_archive.h"

#define XML_VERSION "1"
#define SNIFF_BYTES 4096
#define CHUNK (64 * 1024)

/* ==== the reader ======================================================== */

/* Where a scan of the prolog stands (see prolog_scan). */
struct prolog {
	enum { PRO_TEXT, PRO_LT, PRO_BANG, PRO_PI, PRO_COMMENT, PRO_DONE } state;
	int k;        /* PRO_PI: the last byte was '?'; PRO_COMMENT: dashes in a row */
	int cr;       /* the last byte was a CR */
	long line;    /* the line of the byte being scanned */
	long doctype; /* the line of "<!D", 0 when none was seen */
};

/* The nodes of the queue; N_SPACE is N_TEXT that is all blanks, told apart
 * when it is taken. */
enum node_type { N_START, N_END, N_TEXT, N_SPACE, N_CDATA, N_DOCTYPE, N_ERROR, N_FAIL };

struct node {
	enum node_type type;
	int empty; /* N_START: written <x/> */
	int depth; /* of an element (the root's is 0) */
	int nattr;
	long line;
	const char *name; /* the local name, in the parser's dictionary */
	size_t attr;      /* the first of nattr in attrs[] */
	size_t text, len; /* in pool: text and CDATA */
};

/* an attribute of an element in the queue (no namespace) */
struct attr {
	const char *name; /* in the parser's dictionary */
	size_t val, len;  /* in pool */
};

/* an element open in the parser: its name, its start's line, and whether
 * it is <x/> */
struct open_el {
	const char *name;
	long line;
	int empty;
};

/* The names the reader looks for, found in the parser's dictionary once,
 * so that a name is told by its address (K_*: elements, then attributes;
 * only the attributes named here are kept). */
enum {
	K_ARCHIVE,
	K_GAME,
	K_TAGS,
	K_TAG,
	K_MOVES,
	K_MOVE,
	K_COMMENT,
	K_ESCAPE,
	K_NAG,
	K_VARIATION,
	K_RESULT,
	K_ARROW,
	K_SQUARE,
	K_START,
	K_DIAGNOSTICS,
	K_ATTRS, /* the attributes: */
	K_SAN = K_ATTRS,
	K_SUFFIX,
	K_EP,
	K_ESC,
	K_NAME,
	K_VERSION,
	K_COUNT
};
static const char *const key_names[K_COUNT] = {
	"archive", "game",  "tags",	"tag",	  "moves", "move",  "comment",
	"escape",  "nag",   "variation", "result", "arrow", "square", "start",
	"diagnostics", "san", "suffix", "ep", "esc", "name", "version",
};

struct vc_xml_reader {
	struct vc_ctx *ctx;
	struct vc_input *in;
	xmlParserCtxtPtr pc;
	char *name;
	long number;
	int started, done, failed;
	struct vc_buf text, val, tmp;
	struct vc_game *g;
	struct prolog pro;
	/* the queue: q[at - 1] is the current node, q[at..nq) are to come */
	struct node *q;
	size_t nq, at, qcap;
	struct vc_buf pool;
	struct attr *attrs;
	size_t nattrs, attrs_cap;
	struct open_el *open;
	int nopen;
	size_t open_cap;
	const char *key[K_COUNT];
	int brk;      /* a comment or a PI came after the last text: no joining */
	int fed_all;  /* the parser has been told the input ended (or failed) */
	int erred;    /* an N_ERROR is queued (only the first error is) */
	int oom;
	long err_line, err_col;
	char err_msg[512];
	char chunk[CHUNK];
};

/* The bytes of the prolog (before the root element) pass through here, so
 * that a DOCTYPE can be reported at its own line: libxml2 tells of it only
 * once it has parsed on to the root element.  Comments and processing
 * instructions are stepped over; anything unexpected (UTF-16, say) ends
 * the scan, and the parser's line is used instead. */
static void prolog_scan(struct prolog *p, const char *buf, size_t n)
{
	for (size_t i = 0; i < n && p->state != PRO_DONE; i++) {
		char c = buf[i];
		if (c == '\r' || (c == '\n' && !p->cr)) /* CR LF, CR and LF end a line */
			p->line++;
		p->cr = c == '\r';
		switch (p->state) {
		case PRO_TEXT:
			if (c == '<')
				p->state = PRO_LT;
			break;
		case PRO_LT:
			p->state = c == '?' ? PRO_PI : c == '!' ? PRO_BANG : PRO_DONE;
			p->k = 0;
			break;
		case PRO_BANG:
			if (c == '-') {
				p->state = PRO_COMMENT;
			} else {
				if (c == 'D')
					p->doctype = p->line;
				p->state = PRO_DONE;
			}
			break;
		case PRO_PI: /* up to "?>" */
			if (c == '>' && p->k)
				p->state = PRO_TEXT;
			p->k = c == '?';
			break;
		case PRO_COMMENT: /* "<!-" seen; up to "-->" (k: dashes just before) */
			if (c == '>' && p->k >= 2)
				p->state = PRO_TEXT;
			p->k = c == '-' ? p->k + 1 : 0;
			break;
		default:
			break;
		}
	}
}

/* ---- the parser's side: nodes into the queue ---- */

static long parser_line(const struct vc_xml_reader *x)
{
	return x->pc && x->pc->input ? x->pc->input->line : 0;
}

/* Makes room in the array *p of *cap elements of size bytes for need of
 * them: 0, or -1 (x->oom set) when out of memory. */
static int grow(struct vc_xml_reader *x, void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = 2 * need + 64;
	void *old, *np;
	memcpy(&old, p, sizeof old); /* (p is the address of a typed pointer) */
	if (!(np = realloc(old, n * size))) {
		x->oom = 1;
		return -1;
	}
	memcpy(p, &np, sizeof np);
	*cap = n;
	return 0;
}

static struct node *node_add(struct vc_xml_reader *x, enum node_type type, long line)
{
	if (grow(x, &x->q, &x->qcap, x->nq + 1, sizeof *x->q) < 0)
		return NULL;
	struct node *n = &x->q[x->nq++];
	memset(n, 0, sizeof *n);
	n->type = type;
	n->line = line;
	return n;
}

/* Appends s[0, n) and a NUL to the pool, in an attribute value (amp)
 * "&#38;" read as "&" (the parser hands values over so when it does not
 * replace entities: an '&' stands for nothing else there); returns the
 * length appended. */
static size_t pool_add(struct vc_xml_reader *x, const xmlChar *s, size_t n, int amp)
{
	if (vc_buf_reserve(&x->pool, n + 1) < 0)
		return 0;
	const char *p = (const char *)s, *e = p + n;
	char *d = x->pool.p + x->pool.len;
	for (const char *a; amp && (a = memchr(p, '&', (size_t)(e - p))) != NULL;) {
		memcpy(d, p, (size_t)(a - p) + 1);
		d += a - p + 1;
		p = a + 1;
		if (e - p >= 4 && !memcmp(p, "#38;", 4))
			p += 4;
	}
	memcpy(d, p, (size_t)(e - p));
	d += e - p;
	*d = '\0';
	size_t k = (size_t)(d - (x->pool.p + x->pool.len));
	x->pool.len += k + 1;
	return k;
}

/* Queues the first error (the parser's, or one of ours in its words). */
static void queue_error(struct vc_xml_reader *x, const char *text, long line, long col)
{
	if (x->erred)
		return;
	x->erred = 1;
	char *msg = x->err_msg;
	snprintf(msg, sizeof x->err_msg, "%s", text);
	size_t k = strlen(msg);
	while (k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
		msg[--k] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	x->err_line = line;
	x->err_col = col;
	node_add(x, N_ERROR, line);
}

static int is_attr_key(const struct vc_xml_reader *x, const xmlChar *name)
{
	for (int k = K_ATTRS; k < K_COUNT; k++)
		if ((const char *)name == x->key[k])
			return 1;
	return 0;
}

static void on_start(void *user, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
		     int nns, const xmlChar **ns, int nattr, int ndefaulted, const xmlChar **attrs)
{
	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndefaulted;
	struct vc_xml_reader *x = user;
	const xmlParserInputPtr in = x->pc->input;
	int empty = in && in->cur && in->cur[0] == '/' && in->cur[1] == '>';
	if ((unsigned)x->nopen > xmlParserMaxDepth) {
		/* the limit libxml2's tree builder sets, in its words */
		char msg[100];
		snprintf(msg, sizeof msg, "Excessive depth in document: %u use XML_PARSE_HUGE option",
			 xmlParserMaxDepth);
		queue_error(x, msg, parser_line(x), in ? in->col : 0);
		xmlStopParser(x->pc);
		return;
	}
	struct node *n = NULL;
	if (grow(x, &x->open, &x->open_cap, (size_t)x->nopen + 1, sizeof *x->open) < 0 ||
	    grow(x, &x->attrs, &x->attrs_cap, x->nattrs + (size_t)nattr, sizeof *x->attrs) < 0 ||
	    !(n = node_add(x, N_START, parser_line(x)))) {
		xmlStopParser(x->pc);
		return;
	}
	x->open[x->nopen].name = (const char *)local;
	x->open[x->nopen].line = n->line;
	x->open[x->nopen].empty = empty;
	n->empty = empty;
	n->depth = x->nopen++;
	n->name = (const char *)local;
	n->attr = x->nattrs;
	/* attrs: local name, prefix, URI, value, end of value, for each */
	for (int i = 0; i < nattr; i++) {
		const xmlChar **a = attrs + 5 * i;
		if (a[2] || !is_attr_key(x, a[0]))
			continue; /* one the reader never asks for */
		struct attr *at = &x->attrs[x->nattrs++];
		at->name = (const char *)a[0];
		at->val = x->pool.len;
		at->len = pool_add(x, a[3], (size_t)(a[4] - a[3]), 1);
		n->nattr++;
	}
}

static void on_end(void *user, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri)
{
	(void)prefix, (void)uri;
	struct vc_xml_reader *x = user;
	if (x->nopen == 0)
		return;
	struct open_el o = x->open[--x->nopen];
	if (o.empty)
		return;
	struct node *n = node_add(x, N_END, o.line);
	if (!n) {
		xmlStopParser(x->pc);
		return;
	}
	n->depth = x->nopen;
	n->name = (const char *)local;
}

/* Text and CDATA: a run joins the node before it when that is of its type
 * and nothing came between (the parser may hand one run over in pieces). */
static void add_text(struct vc_xml_reader *x, enum node_type type, const xmlChar *s, int len)
{
	struct node *last = x->nq > x->at ? &x->q[x->nq - 1] : NULL;
	if (last && last->type == type && !x->brk) {
		x->pool.len--; /* its NUL: the text is at the end of the pool */
	} else {
		last = node_add(x, type, parser_line(x));
		if (!last) {
			xmlStopParser(x->pc);
			return;
		}
		last->depth = x->nopen;
		last->text = x->pool.len;
	}
	x->brk = 0;
	last->len += pool_add(x, s, (size_t)len, 0);
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* Blanks are kept only inside the elements whose text is read: elsewhere
 * the reader would skip them, and between elements they are most nodes. */
static void on_chars(void *user, const xmlChar *s, int len)
{
	struct vc_xml_reader *x = user;
	if (x->nopen > 0 && is_blank((const char *)s, (size_t)len)) {
		const char *p = x->open[x->nopen - 1].name;
		if (p != x->key[K_COMMENT] && p != x->key[K_ESCAPE] && p != x->key[K_NAG] &&
		    p != x->key[K_TAG] && p != x->key[K_RESULT])
			return;
	}
	add_text(x, N_TEXT, s, len);
}

static void on_cdata(void *user, const xmlChar *s, int len)
{
	add_text(user, N_CDATA, s, len);
}

static void on_break(void *user, const xmlChar *a, const xmlChar *b)
{
	(void)a, (void)b;
	((struct vc_xml_reader *)user)->brk = 1;
}

static void on_comment(void *user, const xmlChar *s)
{
	(void)s;
	((struct vc_xml_reader *)user)->brk = 1;
}

static void on_doctype(void *user, const xmlChar *name, const xmlChar *ext, const xmlChar *sys)
{
	(void)name, (void)ext, (void)sys;
	struct vc_xml_reader *x = user;
	node_add(x, N_DOCTYPE, parser_line(x));
}

/* The first error of the parser: queued, reported when the reader gets to
 * it. */
static void on_xml_error(void *user, xmlErrorPtr e)
{
	struct vc_xml_reader *x = user;
	if (e && e->level >= XML_ERR_ERROR)
		queue_error(x, e->message ? e->message : "malformed XML", e->line,
			    e->int2 > 0 ? e->int2 : 0);
}

/* Feeds the parser one more chunk of the input (the end of the input, or
 * its failure, once). */
static void feed(struct vc_xml_reader *x)
{
	long n = vc_input_read(x->in, x->chunk, sizeof x->chunk);
	if (n < 0) {
		/* the input said why */
		x->fed_all = 1;
		node_add(x, N_FAIL, 0);
		return;
	}
	prolog_scan(&x->pro, x->chunk, (size_t)n);
	int rc = xmlParseChunk(x->pc, x->chunk, (int)n, n == 0);
	if (n == 0)
		x->fed_all = 1;
	if (rc != 0 && !x->erred && !x->oom && !x->pc->wellFormed) {
		/* an error the parser did not report */
		queue_error(x, "cannot read the XML", parser_line(x), 0);
	}
}

/* ---- the game reader's side: one node at a time ---- */

/* Can the next node be taken?  Not text that the next chunk may go on. */
static int ready(const struct vc_xml_reader *x)
{
	if (x->at == x->nq)
		return 0;
	enum node_type t = x->q[x->at].type;
	return x->at + 1 < x->nq || x->fed_all || (t != N_TEXT && t != N_CDATA);
}

/* Drops the nodes taken from the queue, before the parser adds more: when
 * it is not ready, at most one node is left, text that may go on, and its
 * bytes are the pool's last. */
static void queue_compact(struct vc_xml_reader *x)
{
	if (x->at == x->nq) {
		x->nq = x->at = x->nattrs = 0;
		vc_buf_reset(&x->pool);
		return;
	}
	if (x->at == 0)
		return;
	struct node n = x->q[x->at];
	size_t keep = x->pool.len - n.text;
	memmove(x->pool.p, x->pool.p + n.text, keep);
	x->pool.len = keep;
	n.text = 0;
	x->q[0] = n;
	x->nq = 1;
	x->at = x->nattrs = 0;
}

static const struct node *cur(const struct vc_xml_reader *x)
{
	return &x->q[x->at - 1];
}

/* Moves to the next node: 1, 0 at the end, -1 on an error (reported). */
static int rd(struct vc_xml_reader *x)
{
	if (x->failed)
		return -1;
	while (!ready(x) && !x->fed_all && !x->oom) {
		queue_compact(x);
		feed(x);
	}
	if (x->oom || x->pool.oom) {
		x->failed = 1;
		vc_emit(x->ctx, VC_SEV_FATAL, "oom", x->name, 0, 0, NULL, "out of memory");
		return -1;
	}
	if (x->at == x->nq)
		return 0;
	struct node *n = &x->q[x->at++];
	if (n->type == N_TEXT && is_blank(x->pool.p + n->text, n->len))
		n->type = N_SPACE;
	if (n->type == N_ERROR) {
		x->failed = 1;
		vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, x->err_line, x->err_col, NULL,
			"not well-formed XML: %s", x->err_msg);
		return -1;
	}
	if (n->type == N_FAIL) {
		x->failed = 1;
		return -1;
	}
	return 1;
}

static enum node_type type_of(const struct vc_xml_reader *x)
{
	return cur(x)->type;
}

static long line_of(const struct vc_xml_reader *x)
{
	return x->at ? cur(x)->line : parser_line(x);
}

static const char *name_of(const struct vc_xml_reader *x)
{
	const struct node *n = cur(x);
	return n->type == N_START || n->type == N_END ? n->name : "";
}

/* Is the current node an element's start or end named key_names[k]? */
static int is(const struct vc_xml_reader *x, int k)
{
	return cur(x)->name == x->key[k];
}

static int is_empty(const struct vc_xml_reader *x)
{
	return cur(x)->empty;
}

/* The value of the current element's attribute name (no namespace), or
 * NULL; *len its length. */
static const char *attr_raw(const struct vc_xml_reader *x, const char *name, size_t *len)
{
	const struct node *n = cur(x);
	if (!n->nattr)
		return NULL; /* x->attrs may be NULL: no offset from it */
	const struct attr *a = x->attrs + n->attr;
	for (int i = 0; i < n->nattr; i++, a++)
		if (a->name[0] == name[0] && !strcmp(a->name, name)) {
			*len = a->len;
			return x->pool.p + a->val;
		}
	return NULL;
}

static const char *text_of(const struct vc_xml_reader *x)
{
	return x->pool.p + cur(x)->text;
}

/* Makes a reader of the input in (taken over: closed on failure too). */
static struct vc_xml_reader *reader_new(struct vc_ctx *ctx, struct vc_input *in,
					const struct vc_reader_opts *opts)
{
	vc_xml_global_init(); /* here, in the thread that opens readers */
	struct vc_xml_quiet q;
	if (!in)
		return NULL;
	struct vc_xml_reader *x = vc_calloc(1, sizeof *x);
	if (!x) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_input_close(in);
		return NULL;
	}
	x->ctx = ctx;
	x->number = opts && opts->first_game ? opts->first_game : 1;
	vc_buf_init(&x->text);
	vc_buf_init(&x->val);
	vc_buf_init(&x->tmp);
	vc_buf_init(&x->pool);
	x->in = in;
	x->pro.line = 1;
	x->name = vc_strdup(vc_input_name(x->in));
	static xmlSAXHandler sax = {
		.initialized = XML_SAX2_MAGIC,
		.startElementNs = on_start,
		.endElementNs = on_end,
		.characters = on_chars,
		.ignorableWhitespace = on_chars,
		.cdataBlock = on_cdata,
		.comment = on_comment,
		.processingInstruction = on_break,
		.internalSubset = on_doctype,
		.serror = on_xml_error,
	};
	vc_xml_quiet_on(&q);
	if (x->name)
		x->pc = xmlCreatePushParserCtxt(&sax, x, NULL, 0, x->name);
	if (x->pc) {
		xmlCtxtUseOptions(x->pc, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
		for (int k = 0; k < K_COUNT; k++)
			if (!(x->key[k] = (const char *)xmlDictLookup(x->pc->dict,
								       BAD_CAST key_names[k], -1)))
				x->oom = 1;
	}
	vc_xml_quiet_off(&q);
	if (!x->pc) {
		vc_emit(ctx, VC_SEV_FATAL, "oom", NULL, 0, 0, NULL, "out of memory");
		vc_xml_reader_close(x);
		return NULL;
	}
	return x;
}

struct vc_xml_reader *vc_xml_reader_open(struct vc_ctx *ctx, const char *path,
					 const struct vc_reader_opts *opts)
{
	return reader_new(ctx, vc_input_open(ctx, path, opts ? opts->max_gzip_ratio : 0), opts);
}

struct vc_xml_reader *vc_xml_reader_mem(struct vc_ctx *ctx, const char *name, const void *data,
					size_t len, const struct vc_reader_opts *opts)
{
	return reader_new(ctx, vc_input_mem(ctx, name, data, len, opts ? opts->max_gzip_ratio : 0),
			  opts);
}

void vc_xml_reader_close(struct vc_xml_reader *x)
{
	struct vc_xml_quiet q;
	if (!x)
		return;
	vc_xml_quiet_on(&q);
	if (x->pc) {
		/* an entity declared in a DTD makes libxml2 build a document of
		 * its own to hold it (SAX_COMPAT_MODE), which the context does not
		 * free */
		if (x->pc->myDoc)
			xmlFreeDoc(x->pc->myDoc);
		x->pc->myDoc = NULL;
		xmlFreeParserCtxt(x->pc);
	}
	vc_xml_quiet_off(&q);
	vc_input_close(x->in);
	free(x->name);
	free(x->q);
	free(x->open);
	free(x->attrs);
	vc_buf_free(&x->pool);
	vc_buf_free(&x->text);
	vc_buf_free(&x->val);
	vc_buf_free(&x->tmp);
	free(x);
}

static void warn(struct vc_xml_reader *x, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A problem of the game being read, stored in it (a warning: the game is
 * read all the same). */
static void warn(struct vc_xml_reader *x, const char *code, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	vc_game_add_diag(x->g, VC_SEV_WARNING, code, line_of(x), 0, 0, NULL, "%s", msg);
}

/* Skips the element the reader is on, with its subtree, to its end: 0, or
 * -1 when the XML cannot be read. */
static int skip_element(struct vc_xml_reader *x)
{
	if (is_empty(x))
		return 0;
	int depth = cur(x)->depth;
	for (;;) {
		int rc = rd(x);
		if (rc == 0) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, line_of(x), 0, NULL,
				"cannot read the XML");
		}
		if (rc <= 0)
			return -1;
		if (type_of(x) == N_END && cur(x)->depth == depth)
			return 0;
	}
}

/* Does the esc attribute's list (NULL: none) hold name? */
static int esc_has(const char *esc, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = esc; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		const char *q = p;
		while (*q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r')
			q++;
		if ((size_t)(q - p) == nl && !memcmp(p, name, nl))
			return 1;
		p = q;
	}
	return 0;
}

#define NUL_KEPT "kept as it is: no value may hold a NUL byte"

/* The value of attribute name of the current element, decoded when esc
 * names it, into x->val (NUL-terminated); NULL when absent. */
static const char *attr_get(struct vc_xml_reader *x, const char *name, const char *esc, size_t *len)
{
	size_t n;
	const char *v = attr_raw(x, name, &n);
	if (!v)
		return NULL;
	vc_buf_reset(&x->val);
	int escaped = esc_has(esc, name);
	if (escaped && vc_esc_decode(&x->val, v, n))
		warn(x, "xml-value", "'\\x00' in attribute '%s' " NUL_KEPT, name);
	else if (!escaped)
		vc_buf_add(&x->val, v, n);
	vc_buf_addc(&x->val, '\0');
	if (len)
		*len = x->val.len - 1;
	return x->val.p;
}

/* The esc attribute of the current element, copied into x->tmp, or NULL. */
static const char *esc_get(struct vc_xml_reader *x)
{
	size_t n;
	const char *v = attr_raw(x, "esc", &n);
	if (!v)
		return NULL;
	vc_buf_reset(&x->tmp);
	vc_buf_add(&x->tmp, v, n);
	vc_buf_addc(&x->tmp, '\0');
	return x->tmp.p;
}

/* The text content of the current element into x->text (decoded when its
 * esc says "text"); leaves the reader on its end.  0 ok, -1 error. */
static int text_get(struct vc_xml_reader *x)
{
	const char *esc = esc_get(x);
	int escaped = esc_has(esc, "text");
	vc_buf_reset(&x->val);
	if (!is_empty(x)) {
		for (;;) {
			if (rd(x) <= 0)
				return -1;
			enum node_type t = type_of(x);
			if (t == N_END)
				break;
			if (t == N_TEXT || t == N_CDATA || t == N_SPACE) {
				vc_buf_add(&x->val, text_of(x), cur(x)->len);
			} else if (t == N_START) {
				warn(x, "xml-unexpected", "element '%.40s' inside text ignored",
				     name_of(x));
				if (skip_element(x) < 0)
					return -1;
			}
		}
	}
	vc_buf_reset(&x->text);
	if (escaped && vc_esc_decode(&x->text, x->val.p ? x->val.p : "", x->val.len))
		warn(x, "xml-value", "'\\x00' in the text of '%.40s' " NUL_KEPT, name_of(x));
	else if (!escaped)
		vc_buf_add(&x->text, x->val.p ? x->val.p : "", x->val.len);
	vc_buf_addc(&x->text, '\0');
	x->text.len--;
	return x->text.oom || x->val.oom ? -1 : 0;
}

static int add_item(struct vc_xml_reader *x, enum vc_item_type type, const char *text, size_t len,
		    unsigned flags, const char *suffix, size_t suffix_len, int nag)
{
	struct vc_item it;
	memset(&it, 0, sizeof it);
	it.type = type;
	it.flags = flags;
	it.line = line_of(x);
	it.text = text;
	it.len = len;
	it.suffix = suffix;
	it.suffix_len = suffix_len;
	it.nag = nag;
	return vc_game_add_item(x->g, &it);
}

static const char *const suffixes[] = { "!", "?", "!!", "??", "!?", "?!" };

/* A <move>: its item; its children are read by the line loop. */
static int read_move(struct vc_xml_reader *x)
{
	const char *esc = esc_get(x);
	size_t n;
	const char *suf = NULL;
	size_t sl = 0;
	const char *s = attr_get(x, "suffix", esc, &n);
	if (s) {
		for (size_t i = 0; i < VC_NELEM(suffixes); i++)
			if (!strcmp(s, suffixes[i]))
				suf = suffixes[i];
		if (suf)
			sl = strlen(suf);
		else
			warn(x, "xml-value", "suffix '%.20s' is not a suffix: ignored", s);
	}
	unsigned flags = 0;
	s = attr_get(x, "ep", esc, &n);
	if (s && !strcmp(s, "1"))
		flags |= VC_IF_EP_MARK;
	s = attr_get(x, "san", esc, &n);
	if (!s || !n) {
		warn(x, "xml-value", "a move without a san attribute: read as '--'");
		s = "--";
		n = 2;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || strchr("{}();[]\"", s[i])) {
			warn(x, "xml-value", "move '%.20s' holds a byte no move may hold", s);
			break;
		}
	if ((n == 2 && s[0] == '-' && s[1] == '-') || (n == 2 && s[0] == 'Z' && s[1] == '0') ||
	    (n == 4 && !memcmp(s, "0000", 4)))
		flags |= VC_IF_NULL;
	return add_item(x, VC_IT_MOVE, s, n, flags, suf, sl, 0);
}

/* The content of <moves> or <variation>, up to its end.  Variations nest
 * without recursion: the depth is only counted. */
static int read_line(struct vc_xml_reader *x)
{
	int depth = 0;
	if (is_empty(x))
		return 0;
	for (;;) {
		if (rd(x) <= 0)
			return -1;
		enum node_type t = type_of(x);
		if (t == N_END) {
			if (is(x, K_VARIATION)) {
				depth--;
				if (add_item(x, VC_IT_VAR_END, ")", 1, 0, NULL, 0, 0) < 0)
					return -1;
			} else if (is(x, K_MOVES)) {
				return 0;
			}
			continue;
		}
		if (t == N_TEXT || t == N_CDATA) {
			warn(x, "xml-unexpected", "text between moves ignored");
			continue;
		}
		if (t != N_START)
			continue;
		const char *nm = name_of(x);
		int rc = 0;
		if (is(x, K_MOVE)) {
			rc = read_move(x);
		} else if (is(x, K_COMMENT)) {
			rc = text_get(x);
			if (rc == 0)
				rc = add_item(x, VC_IT_COMMENT, x->text.p, x->text.len, 0, NULL, 0,
					      0);
		} else if (is(x, K_ESCAPE)) {
			rc = text_get(x);
			if (rc == 0)
				rc = add_item(x, VC_IT_ESCAPE, x->text.p, x->text.len, 0, NULL, 0,
					      0);
		} else if (is(x, K_NAG)) {
			rc = text_get(x);
			if (rc == 0) {
				char *end;
				long v = strtol(x->text.p, &end, 10);
				if (end == x->text.p || *end || v < 0 || v > 999999999) {
					warn(x, "xml-value", "NAG '%.20s' is not a number: ignored",
					     x->text.p);
				} else {
					char b[16];
					int k = snprintf(b, sizeof b, "$%ld", v);
					rc = add_item(x, VC_IT_NAG, b, (size_t)k, 0, NULL, 0,
						      (int)v);
				}
			}
		} else if (is(x, K_VARIATION)) {
			rc = add_item(x, VC_IT_VAR_START, "(", 1, 0, NULL, 0, 0);
			if (rc == 0 && is_empty(x))
				rc = add_item(x, VC_IT_VAR_END, ")", 1, 0, NULL, 0, 0);
			else
				depth++;
		} else if (is(x, K_ARROW) || is(x, K_SQUARE)) {
			/* a move's annotations as data: its comments say them */
			rc = skip_element(x);
		} else {
			warn(x, "xml-unexpected", "unknown element '%.40s' in moves ignored", nm);
			rc = skip_element(x);
		}
		if (rc < 0)
			return -1;
	}
}

/* A name the text format can write: letters, digits and _+#=:- */
static int tag_name_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_+#=:-", c)) ||
		    c == '\0')
			return 0;
	}
	return 1;
}

static const char *result_token(const char *s)
{
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
	for (size_t i = 0; i < VC_NELEM(results); i++)
		if (!strcmp(s, results[i]))
			return results[i];
	return NULL;
}

/* Reads a <game> (the reader is on its start) into x->g. */
static int read_game(struct vc_xml_reader *x)
{
	struct vc_game *g = x->g;
	vc_game_build_start(g, x->name, x->number++, line_of(x));
	if (is_empty(x))
		return 0;
	for (;;) {
		if (rd(x) <= 0)
			return -1;
		enum node_type t = type_of(x);
		if (t == N_END)
			return 0; /* </game>: the parser checks that it matches */
		if (t != N_START)
			continue;
		const char *nm = name_of(x);
		int rc = 0;
		if (is(x, K_TAGS)) {
			if (is_empty(x))
				continue;
			for (;;) {
				if (rd(x) <= 0)
					return -1;
				t = type_of(x);
				if (t == N_END)
					break;
				if (t != N_START)
					continue;
				if (!is(x, K_TAG)) {
					warn(x, "xml-unexpected",
					     "unknown element '%.40s' in tags ignored", name_of(x));
					if (skip_element(x) < 0)
						return -1;
					continue;
				}
				const char *esc = esc_get(x);
				size_t nn;
				long tl = line_of(x);
				const char *name = attr_get(x, "name", esc, &nn);
				char *name_copy = name ? vc_strndup(name, nn) : NULL;
				if (text_get(x) < 0) {
					free(name_copy);
					return -1;
				}
				if (!name_copy || !nn || !tag_name_ok(name_copy, nn)) {
					warn(x, "xml-value",
					     "a tag without a name, or with a name no tag may "
					     "have, ignored");
				} else if (vc_game_build_tag(g, name_copy, nn, x->text.p,
							     x->text.len, 0, tl, 0) < 0) {
					free(name_copy);
					return -1;
				}
				free(name_copy);
			}
		} else if (is(x, K_MOVES)) {
			rc = read_line(x);
		} else if (is(x, K_RESULT)) {
			long l = line_of(x);
			rc = text_get(x);
			if (rc == 0) {
				const char *r = result_token(x->text.p);
				if (r)
					vc_game_build_result(g, r, l, 0);
				else
					warn(x, "xml-value",
					     "result '%.20s' is not a result: ignored", x->text.p);
			}
		} else if (is(x, K_START) || is(x, K_DIAGNOSTICS)) {
			/* derived: the FEN tag and validation give them again */
			rc = skip_element(x);
		} else {
			warn(x, "xml-unexpected", "unknown element '%.40s' in a game ignored", nm);
			rc = skip_element(x);
		}
		if (rc < 0)
			return -1;
	}
}

vc_status vc_xml_reader_next(struct vc_xml_reader *x, struct vc_game *g)
{
	struct vc_xml_quiet q;
	vc_status st = VC_END;
	vc_game_clear(g);
	if (x->failed)
		return VC_FATAL;
	if (x->done)
		return VC_END;
	x->g = g;
	vc_xml_quiet_on(&q);
	if (!x->started) {
		/* to the root element, which must be <archive version="1"> */
		int rc;
		while ((rc = rd(x)) > 0 && type_of(x) != N_START) {
			if (type_of(x) == N_DOCTYPE) {
				/* An archive has no DTD: what one could add (entities,
				 * default attributes) is not read alike by every XML
				 * reader, and external entities must never be fetched;
				 * ignored, its entities would be text silently lost. */
				x->failed = 1;
				vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name,
					x->pro.doctype ? x->pro.doctype : line_of(x), 0, NULL,
					"a document type declaration (DTD) is not allowed in "
					"an archive");
				st = VC_FATAL;
				goto out;
			}
		}
		if (rc <= 0) {
			if (rc == 0 && !x->failed) {
				x->failed = 1;
				vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name, line_of(x), 0,
					NULL, "no XML element");
			}
			st = VC_FATAL;
			goto out;
		}
		if (!is(x, K_ARCHIVE)) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name, line_of(x), 0, NULL,
				"the root element is '%.40s', not 'archive'", name_of(x));
			st = VC_FATAL;
			goto out;
		}
		size_t vl;
		const char *v = attr_raw(x, "version", &vl);
		if (!v || strcmp(v, XML_VERSION)) {
			x->failed = 1;
			vc_emit(x->ctx, VC_SEV_ERROR, "xml-archive", x->name, line_of(x), 0, NULL,
				"archive version '%.20s' is not known (this reader reads '%s')",
				v ? v : "", XML_VERSION);
			st = VC_FATAL;
			goto out;
		}
		x->started = 1;
		if (is_empty(x)) {
			x->done = 1;
			goto out;
		}
	}
	for (;;) {
		int rc = rd(x);
		if (rc < 0) {
			st = VC_FATAL;
			break;
		}
		if (rc == 0) {
			x->done = 1;
			break;
		}
		enum node_type t = type_of(x);
		if (t == N_END && cur(x)->depth == 0) {
			x->done = 1; /* </archive>; what follows is only checked */
			while ((rc = rd(x)) > 0)
				;
			if (rc < 0)
				st = VC_FATAL;
			break;
		}
		if (t != N_START) {
			if (t == N_TEXT || t == N_CDATA) {
				vc_emit(x->ctx, VC_SEV_WARNING, "xml-unexpected", x->name,
					line_of(x), 0, NULL, "text between games ignored");
			}
			continue;
		}
		if (!is(x, K_GAME)) {
			vc_emit(x->ctx, VC_SEV_WARNING, "xml-unexpected", x->name, line_of(x), 0,
				NULL, "unknown element '%.40s' in the archive ignored", name_of(x));
			if (skip_element(x) < 0) {
				st = VC_FATAL;
				break;
			}
			continue;
		}
		if (read_game(x) < 0 || x->failed) {
			/* The parser reports what is wrong with the XML; anything
			 * else that stops a game is said here, so that no failure
			 * goes unexplained. */
			if (!x->failed) {
				x->failed = 1;
				if (vc_game_build_oom(g) || x->text.oom || x->val.oom || x->tmp.oom)
					vc_emit(x->ctx, VC_SEV_FATAL, "oom", x->name, 0, 0, NULL,
						"out of memory");
				else
					vc_emit(x->ctx, VC_SEV_ERROR, "xml-syntax", x->name,
						line_of(x), 0, NULL, "the XML ends inside a game");
			}
			st = VC_FATAL;
			break;
		}
		vc_game_build_finish(g, "", 0, 0);
		if (vc_game_build_oom(g) || x->text.oom || x->val.oom || x->tmp.oom) {
			vc_emit(x->ctx, VC_SEV_FATAL, "oom", x->name, 0, 0, NULL, "out of memory");
			x->failed = 1;
			st = VC_FATAL;
			break;
		}
		st = VC_OK;
		break;
	}
out:
	vc_xml_quiet_off(&q);
	x->g = NULL;
	if (x->failed)
		st = VC_FATAL;
	return st;
}

/* ==== sniffing ========================================================== */

static enum vc_format sniff_plain(const unsigned char *p, size_t n)
{
	size_t i = 0;
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r' ||
			 p[i] == '\f' || p[i] == '\v'))
		i++;
	return i < n && p[i] == '<' ? VC_FORMAT_XML : VC_FORMAT_TEXT;
}

enum vc_format vc_format_sniff(const void *data, size_t len)
{
	const unsigned char *p = data;
	if (len < 2 || p[0] != 0x1f || p[1] != 0x8b)
		return sniff_plain(p, len);
	unsigned char out[SNIFF_BYTES];
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return VC_FORMAT_TEXT;
	zs.next_in = (unsigned char *)(uintptr_t)p;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	zs.next_out = out;
	zs.avail_out = sizeof out;
	inflate(&zs, Z_SYNC_FLUSH);
	size_t got = sizeof out - zs.avail_out;
	inflateEnd(&zs);
	return sniff_plain(out, got);
}

int vc_format_of_file(struct vc_ctx *ctx, const char *path)
{
	unsigned char buf[SNIFF_BYTES];
	struct vc_input *in = vc_input_open(ctx, path, 0);
	if (!in)
		return -1;
	size_t got = 0;
	int bad = 0;
	while (got < sizeof buf) {
		long n = vc_input_read(in, buf + got, sizeof buf - got);
		if (n < 0)
			bad = 1;
		if (n <= 0)
			break;
		got += (size_t)n;
		/* the first byte that is not blank decides */
		size_t i = got >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
		while (i < got &&
		       (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
			i++;
		if (i < got)
			break;
	}
	vc_input_close(in);
	return bad ? -1 : (int)sniff_plain(buf, got);
}
