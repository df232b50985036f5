/*
 * vchess-convert - converts archives of games between the PGN-like text
 * (canonical on output), XML, JSON lines and FEN, selecting games and
 * splitting the output; see vchess-convert(1).
 *
 * Every game read is replayed (vc_replay_run) and written in its canonical
 * form.  A game that does not validate is never dropped silently: it is
 * written with its errors (--keep-broken), or its raw bytes go to the
 * rejects file, or it is reported; each broken game gets one line on
 * standard error and the run ends with a summary and exit status 1.
 *
 * The format of an input is told by its first bytes.  A regular file is
 * looked at and opened again; a pipe or standard input cannot be read
 * twice, so its first bytes are read here and handed on, with the rest,
 * through a pipe fed by a thread, which the reader opens as /dev/fd/N
 * (messages show the name given on the command line).
 *
 * With -j N (N > 1) the games go through vc_parallel_each: this thread
 * reads them (and drops those the tag and number selections leave out),
 * N workers replay each one and format it -- as a piece of the output
 * (vc_writer_piece), or of the rejects file for a game read from XML, and
 * its lines for standard error -- into memory, and this thread takes the
 * results in input order and does everything that has state across games:
 * the writers (XML archive, --split files, rejects), the counts, the
 * progress line, the numbering across inputs.  What the reader reports
 * while it reads ahead is held back and printed before the game it came
 * before, so every byte written, standard error included, is what -j 1
 * writes.  At most 4 N games are in memory at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
	"usage: vchess-convert [-f text|xml] [-t text|xml|fen|json-lines] [-o OUT] [-z]\n"
	"                      [--select EXPR]... [--split N] [--keep-broken] [--rejects FILE]\n"
	"                      [--long] [--no-comments] [--no-variations] [--no-tags]\n"
	"                      [--fen-comments] [--mark-swaps] [--plies] [--variant NAME]\n"
	"                      [--strict] [-j N] FILE...\n";

/* ---- selection ---- */

enum sel_kind { S_EQ, S_RE, S_GE, S_LE, S_GT, S_LT, S_VARIANT, S_GAMES, S_VALID, S_INVALID };

struct sel {
	enum sel_kind kind;
	char *tag;
	const char *value;
	regex_t re;
	int date; /* compare as a date: parts of the value in ymd[] */
	long ymd[3];
	int nymd;
	double num;
	long lo, hi; /* game range */
	char variant[64];
};

static int is_tag_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '+' || c == '#' || c == ':' || c == '-';
}

/* "1990", "1990.07", "1990.07.14": the parts, or -1. */
static int parse_date(const char *s, long ymd[3])
{
	int n = 0;
	while (n < 3) {
		char *end;
		if (*s < '0' || *s > '9')
			return -1;
		ymd[n++] = strtol(s, &end, 10);
		s = end;
		if (!*s)
			return n;
		if (*s++ != '.')
			return -1;
	}
	return -1;
}

static int parse_num(const char *s, double *v)
{
	char *end;
	while (*s == ' ')
		s++;
	if (!*s)
		return -1;
	*v = strtod(s, &end);
	while (*end == ' ')
		end++;
	return *end || end == s ? -1 : 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

static int parse_sel(const char *expr, struct sel *s)
{
	memset(s, 0, sizeof *s);
	s->lo = 1;
	s->hi = -1;
	if (!strcmp(expr, "valid")) {
		s->kind = S_VALID;
		return 0;
	}
	if (!strcmp(expr, "invalid")) {
		s->kind = S_INVALID;
		return 0;
	}
	if (!strncmp(expr, "variant=", 8)) {
		const char *canon = vc_builtin_lookup(expr + 8);
		s->kind = S_VARIANT;
		snprintf(s->variant, sizeof s->variant, "%s", canon ? canon : expr + 8);
		return 0;
	}
	if (!strncmp(expr, "game=", 5)) {
		const char *p = expr + 5, *dash = strchr(p, '-');
		char a[32] = "", b[32] = "";
		s->kind = S_GAMES;
		if (!dash) {
			s->lo = s->hi = cli_number(p);
			return s->lo >= 1 ? 0 : -1;
		}
		if ((size_t)(dash - p) >= sizeof a || strlen(dash + 1) >= sizeof b)
			return -1;
		memcpy(a, p, (size_t)(dash - p));
		strcpy(b, dash + 1);
		s->lo = *a ? cli_number(a) : 1;
		s->hi = *b ? cli_number(b) : -1;
		if (s->lo < 1 || (*b && s->hi < s->lo))
			return -1;
		return 0;
	}
	size_t k = 0;
	while (is_tag_char(expr[k]))
		k++;
	if (k == 0)
		return -1;
	const char *op = expr + k;
	size_t ol;
	if (!strncmp(op, ">=", 2) || !strncmp(op, "<=", 2)) {
		s->kind = op[0] == '>' ? S_GE : S_LE;
		ol = 2;
	} else if (*op == '>' || *op == '<') {
		s->kind = *op == '>' ? S_GT : S_LT;
		ol = 1;
	} else if (*op == '=') {
		s->kind = S_EQ;
		ol = 1;
	} else if (*op == '~') {
		s->kind = S_RE;
		ol = 1;
	} else {
		return -1;
	}
	s->tag = malloc(k + 1);
	if (!s->tag)
		return -1;
	memcpy(s->tag, expr, k);
	s->tag[k] = '\0';
	s->value = op + ol;
	if (s->kind == S_RE) {
		int rc = regcomp(&s->re, s->value, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[200];
			regerror(rc, &s->re, msg, sizeof msg);
			cli_error("bad --select expression '%s': %s", expr, msg);
			free(s->tag);
			s->tag = NULL;
			return -2;
		}
	} else if (s->kind != S_EQ) {
		s->date = ends_with(s->tag, "Date");
		if (s->date) {
			s->nymd = parse_date(s->value, s->ymd);
			if (s->nymd < 1)
				return -1;
		} else if (parse_num(s->value, &s->num) < 0) {
			return -1;
		}
	}
	return 0;
}

static void free_sel(struct sel *s)
{
	if (s->kind == S_RE && s->tag)
		regfree(&s->re);
	free(s->tag);
}

/* Compares a tag value with the expression's date: -1, 0, 1, or 2 when it
 * cannot be told (a part of the value that matters is unknown, "??"). */
static int date_cmp(const char *v, const struct sel *s)
{
	for (int i = 0; i < s->nymd; i++) {
		size_t w = i == 0 ? 4 : 2;
		long x = 0;
		for (size_t k = 0; k < w; k++, v++) {
			if (*v < '0' || *v > '9')
				return 2;
			x = x * 10 + (*v - '0');
		}
		if (x != s->ymd[i])
			return x < s->ymd[i] ? -1 : 1;
		if (i + 1 < s->nymd && *v++ != '.')
			return 2;
	}
	return 0;
}

static int tag_matches(const char *v, const struct sel *s)
{
	int c;
	double x;
	switch (s->kind) {
	case S_EQ:
		return !strcmp(v, s->value);
	case S_RE:
		return regexec(&s->re, v, 0, NULL, 0) == 0;
	default:
		break;
	}
	if (s->date) {
		c = date_cmp(v, s);
		if (c == 2)
			return 0;
	} else {
		if (parse_num(v, &x) < 0)
			return 0;
		c = x < s->num ? -1 : x > s->num;
	}
	switch (s->kind) {
	case S_GE:
		return c >= 0;
	case S_LE:
		return c <= 0;
	case S_GT:
		return c > 0;
	case S_LT:
		return c < 0;
	default:
		return 0;
	}
}

/* Selections on what is known before the replay: tags and numbers.  A
 * tag selection matches when any tag of that name does. */
static int pre_select(const struct vc_game *g, long number, const struct sel *sels, int nsel)
{
	for (int k = 0; k < nsel; k++) {
		const struct sel *s = &sels[k];
		if (s->kind == S_GAMES) {
			if (number < s->lo || (s->hi >= 0 && number > s->hi))
				return 0;
		} else if (s->tag) {
			int any = 0;
			size_t n = vc_game_tag_count(g);
			for (size_t i = 0; i < n && !any; i++)
				if (!strcmp(vc_game_tag_name(g, i), s->tag))
					any = tag_matches(vc_game_tag_value(g, i), s);
			if (!any)
				return 0;
		}
	}
	return 1;
}

static int post_select(const struct vc_game *g, const struct vc_replay *rp, int valid,
		       const struct sel *sels, int nsel)
{
	for (int k = 0; k < nsel; k++) {
		const struct sel *s = &sels[k];
		if (s->kind == S_VALID && !valid)
			return 0;
		if (s->kind == S_INVALID && valid)
			return 0;
		if (s->kind == S_VARIANT) {
			const char *v = vc_game_is_garbage(g) ? NULL : vc_replay_variant_name(rp);
			if (!v || strcasecmp(v, s->variant))
				return 0;
		}
	}
	return 1;
}

/* ---- input names: /dev/fd/N of a relay shows as the name given ---- */

struct shown {
	char fdpath[32];
	const char *name;
};
static struct shown shown_names[4];

static const char *show_name(const char *file)
{
	if (!file)
		return NULL;
	for (size_t i = 0; i < sizeof shown_names / sizeof shown_names[0]; i++)
		if (shown_names[i].name && !strcmp(file, shown_names[i].fdpath))
			return shown_names[i].name;
	return file;
}

/* ---- text for standard error, kept to be printed in input order ---- */

struct text {
	char *p;
	size_t len, cap;
};

static int text_room(struct text *t, size_t n)
{
	if (t->cap - t->len > n)
		return 0;
	size_t cap = t->cap ? t->cap : 256;
	while (cap - t->len <= n)
		cap *= 2;
	char *p = realloc(t->p, cap);
	if (!p)
		return -1; /* the line is lost, not the run */
	t->p = p;
	t->cap = cap;
	return 0;
}

static void text_vadd(struct text *t, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void text_vadd(struct text *t, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || text_room(t, (size_t)n) < 0)
		return;
	vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
	t->len += (size_t)n;
}

/* Formats onto t, or straight onto standard error when t is NULL. */
static void say(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (t)
		text_vadd(t, fmt, ap);
	else
		vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void text_diag(struct text *t, const struct vc_diag *d)
{
	char probe[1];
	int n = cli_diag_format(d, probe, sizeof probe);
	if (n < 0 || text_room(t, (size_t)n) < 0)
		return;
	cli_diag_format(d, t->p + t->len, (size_t)n + 1);
	t->len += (size_t)n;
}

static void put_text(const char *p, size_t from, size_t to)
{
	if (p && to > from)
		fwrite(p + from, 1, to - from, stderr);
}

/* Where the diagnostics of the main context go while the reader reads
 * ahead of the games being written (-j N; this thread only), or NULL. */
static struct text *held;

static void diag_cb(const struct vc_diag *d, void *user)
{
	struct vc_diag c = *d;
	c.file = show_name(d->file);
	if (held)
		text_diag(held, &c);
	else
		cli_diag(&c, user);
}

/* ---- the relay of a pipe's first bytes ---- */

struct relay {
	int src, dst;
	unsigned char *pre;
	size_t npre;
	pthread_t th;
	int running;
};

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void *relay_main(void *arg)
{
	struct relay *r = arg;
	unsigned char buf[65536];
	sigset_t set;
	/* a reader that stops early closes the pipe: EPIPE, not a signal */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (write_all(r->dst, r->pre, r->npre) == 0) {
		for (;;) {
			ssize_t k = read(r->src, buf, sizeof buf);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0 || write_all(r->dst, buf, (size_t)k) < 0)
				break;
		}
	}
	close(r->dst);
	return NULL;
}

/* Reads the first bytes of a pipe or standard input, tells the format,
 * and starts the relay; *path becomes /dev/fd/N.  -1 on failure. */
static int relay_start(struct relay *r, const char *name, char *fdpath, size_t fdn, int *fmt)
{
	memset(r, 0, sizeof *r);
	r->src = strcmp(name, "-") ? open(name, O_RDONLY) : 0;
	if (r->src < 0) {
		cli_error("cannot open '%s': %s", name, strerror(errno));
		return -1;
	}
	r->pre = malloc(4096);
	if (!r->pre)
		return -1;
	while (r->npre < 4096) {
		ssize_t k = read(r->src, r->pre + r->npre, 4096 - r->npre);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			cli_error("cannot read '%s': %s", strcmp(name, "-") ? name : "<stdin>",
				  strerror(errno));
			return -1;
		}
		if (k == 0)
			break;
		r->npre += (size_t)k;
	}
	*fmt = (int)vc_format_sniff(r->pre, r->npre);
	int fds[2];
	if (pipe(fds) < 0) {
		cli_error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	r->dst = fds[1];
	if (pthread_create(&r->th, NULL, relay_main, r) != 0) {
		close(fds[0]);
		close(fds[1]);
		cli_error("cannot start a thread");
		return -1;
	}
	r->running = 1;
	snprintf(fdpath, fdn, "/dev/fd/%d", fds[0]);
	return fds[0];
}

static void relay_end(struct relay *r, int readfd)
{
	if (readfd >= 0)
		close(readfd); /* the relay then stops at its next write */
	if (r->running)
		pthread_join(r->th, NULL);
	if (r->src > 0)
		close(r->src);
	free(r->pre);
	r->running = 0;
}

/* ---- output ---- */

struct out {
	struct vc_ctx *ctx;
	const char *path; /* NULL: standard output */
	int gzip, fmt;
	struct vc_write_opts wo;
	long split, in_file;
	int part;
	struct vc_sink *sink;
	struct vc_writer *w;
	int failed;
};

/* OUT with "-K" inserted before its extension (before ".pgn" of
 * "x.pgn.gz"): games.pgn -> games-1.pgn, games -> games-1. */
static char *split_name(const char *path, int k)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	if (dot && !strcmp(dot, ".gz")) {
		const char *d2 = dot;
		while (d2 > base && d2[-1] != '.')
			d2--;
		if (d2 > base + 1)
			dot = d2 - 1;
	}
	if (!dot || dot == base)
		dot = path + strlen(path);
	size_t a = (size_t)(dot - path);
	char *s = malloc(a + strlen(dot) + 24);
	if (s)
		sprintf(s, "%.*s-%d%s", (int)a, path, k, dot);
	return s;
}

static int out_open(struct out *o)
{
	char *name = NULL;
	const char *p = o->path ? o->path : "-";
	if (o->split) {
		name = split_name(o->path, ++o->part);
		if (!name)
			return -1;
		p = name;
	}
	o->sink = vc_sink_open(o->ctx, p, o->gzip);
	free(name);
	if (!o->sink)
		return -1;
	o->w = vc_writer_open(o->ctx, o->sink, (enum vc_format)o->fmt, &o->wo);
	if (!o->w) {
		vc_sink_abort(o->sink);
		o->sink = NULL;
		return -1;
	}
	o->in_file = 0;
	return 0;
}

static int out_close(struct out *o)
{
	int bad = 0;
	if (o->w && vc_writer_close(o->w) != VC_OK)
		bad = 1;
	o->w = NULL;
	if (o->sink) {
		if (bad)
			vc_sink_abort(o->sink);
		else if (vc_sink_close(o->sink) != VC_OK)
			bad = 1;
	}
	o->sink = NULL;
	return bad ? -1 : 0;
}

/* Goes on with the next file of --split when this one is full. */
static int out_turn(struct out *o)
{
	if (o->failed)
		return -1;
	if (o->split && o->in_file == o->split) {
		if (out_close(o) < 0 || out_open(o) < 0) {
			o->failed = 1;
			return -1;
		}
	}
	return 0;
}

static int out_game(struct out *o, const struct vc_game *g, const struct vc_replay *rp)
{
	if (out_turn(o) < 0)
		return -1;
	if (vc_writer_game(o->w, g, rp) != VC_OK) {
		o->failed = 1;
		return -1;
	}
	o->in_file++;
	return 0;
}

/* ---- broken games ---- */

static void game_label(const struct vc_game *g, char *buf, size_t n)
{
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	if (vc_game_is_garbage(g))
		snprintf(buf, n, "game %ld", vc_game_number(g));
	else
		snprintf(buf, n, "game %ld (%s - %s)", vc_game_number(g), w ? w : "?", b ? b : "?");
}

/* A diagnostic of g, onto t (NULL: standard error). */
static void print_diag(struct text *t, const struct vc_game *g, const struct vc_game_diag *d)
{
	char label[256];
	game_label(g, label, sizeof label);
	const char *f = show_name(vc_game_file(g));
	say(t, "%s: %s", cli_prog, f ? f : "-");
	if (d->line > 0) {
		say(t, ":%ld", d->line);
		if (d->col > 0)
			say(t, ":%ld", d->col);
	}
	char sev[64];
	say(t, ": %s: %s", cli_severity(d->severity, d->code, sev, sizeof sev), label);
	if (d->context && *d->context)
		say(t, ", %s", d->context);
	say(t, ": %s\n", d->message);
}

/* One line for a broken game: its first error. */
static void report_broken(struct text *t, const struct vc_game *g)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity >= VC_SEV_ERROR) {
			print_diag(t, g, d);
			return;
		}
	}
}

/* What the XML reader found odd in its input, though the game reads. */
static void report_xml_warnings(struct text *t, const struct vc_game *g)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity == VC_SEV_WARNING && d->code && !strncmp(d->code, "xml-", 4))
			print_diag(t, g, d);
	}
}

struct rejects {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	struct vc_writer *w; /* for games that have no raw text (from XML) */
};

/* the raw bytes as read, then a blank line before the next */
static int reject_raw(struct rejects *rj, const char *raw, size_t len)
{
	if (vc_sink_write(rj->sink, raw, len) < 0)
		return -1;
	if (raw[len - 1] != '\n' && raw[len - 1] != '\r' && vc_sink_write(rj->sink, "\n", 1) < 0)
		return -1;
	return vc_sink_write(rj->sink, "\n", 1);
}

/* the writer of games that have no raw text (read from XML) */
static int reject_writer(struct rejects *rj)
{
	if (!rj->w)
		rj->w = vc_writer_open(rj->ctx, rj->sink, VC_FORMAT_TEXT, NULL);
	return rj->w ? 0 : -1;
}

static int reject(struct rejects *rj, const struct vc_game *g, const struct vc_replay *rp)
{
	size_t len;
	const char *raw = vc_game_raw(g, &len);
	if (len > 0)
		return reject_raw(rj, raw, len);
	if (reject_writer(rj) < 0)
		return -1;
	return vc_writer_game(rj->w, g, rp) == VC_OK ? 0 : -1;
}

/* ---- the run: what is counted across games and inputs ---- */

struct conv {
	const struct sel *sels;
	int nsel, keep, progress;
	struct out *o;
	struct rejects *rj;
	long read, written, broken, kept, rejected;
	long number; /* of the next game read: inputs go on counting */
	int trouble, rej_failed;
	/* -j N: the input at hand, and what its reading has left */
	const struct job *job;
	struct vc_reader *tr;
	struct vc_xml_reader *xr;
	int stop;            /* nothing more of this input: a fatal replay, or failed output */
	int read_fatal;      /* the input failed */
	long read_number;    /* the number after the last game read */
	struct text pending; /* the reader's messages since the last game read */
};

/* ---- -j N: workers replay and format, this thread writes in order ---- */

/* what every worker needs; read-only while workers run */
struct job {
	struct vc_validate_opts vo;
	struct vc_write_opts wo;
	int to;      /* output format */
	int xml_in;  /* the input is XML: its warnings are reported */
	int keep;    /* --keep-broken */
	int rejects; /* --rejects: games without raw bytes are formatted as text */
	const struct sel *sels;
	int nsel;
};

struct worker {
	struct vc_ctx *ctx;
	struct vc_validator *val;
	struct vc_replay *rp;
	struct vc_writer *w, *rw; /* pieces of the output, of the rejects file */
	struct text *diag;        /* the game's text, while one is worked on */
	struct text orphan;       /* the context's messages between games */
	const struct job *job;
	struct worker *next; /* in the list of idle states */
};

enum { PIECE_NONE, PIECE_OUT, PIECE_REJECT };

/* A game's result.  Its text for standard error: [0, mid) what comes
 * before it is counted (the replay's messages, XML warnings), [mid, late)
 * its broken-game line, [late, len) what formatting it said, printed only
 * if the piece is used.  pre holds the reader's messages before it. */
struct result {
	char *text, *pre;
	size_t len, mid, late, npre;
	int fatal, selected, valid, garbage;
	int piece, piece_failed;
};

static void worker_diag(const struct vc_diag *d, void *user)
{
	struct worker *w = user;
	struct vc_diag c = *d;
	c.file = show_name(d->file);
	text_diag(w->diag ? w->diag : &w->orphan, &c);
}

static void worker_free(void *state)
{
	struct worker *w = state;
	if (!w)
		return;
	vc_writer_close(w->w);
	vc_writer_close(w->rw);
	vc_replay_free(w->rp);
	vc_validator_free(w->val);
	vc_ctx_free(w->ctx);
	free(w->orphan.p);
	free(w);
}

/* Workers' states outlive the run of an input, kept here for the next
 * one: a validator keeps the variants it has loaded (each worker loads its
 * own), which cost more than a small archive's games. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct worker *idle;

static void worker_keep(void *state)
{
	struct worker *w = state;
	if (!w)
		return;
	pthread_mutex_lock(&idle_lock);
	w->next = idle;
	idle = w;
	pthread_mutex_unlock(&idle_lock);
}

static void workers_free(void)
{
	while (idle) {
		struct worker *w = idle;
		idle = w->next;
		worker_free(w);
	}
}

static void *worker_new(void *user)
{
	const struct conv *cv = user;
	const struct job *job = cv->job;
	pthread_mutex_lock(&idle_lock);
	struct worker *w = idle;
	if (w)
		idle = w->next;
	pthread_mutex_unlock(&idle_lock);
	if (w)
		return w;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->job = job;
	w->ctx = vc_ctx_new();
	if (!w->ctx) {
		free(w);
		return NULL;
	}
	vc_ctx_set_diag(w->ctx, worker_diag, w);
	w->val = vc_validator_new(w->ctx, &job->vo);
	w->rp = vc_replay_new(&job->wo, (enum vc_format)job->to);
	w->w = vc_writer_open(w->ctx, NULL, (enum vc_format)job->to, &job->wo);
	w->rw = vc_writer_open(w->ctx, NULL, VC_FORMAT_TEXT, NULL);
	if (!w->val || !w->rp || !w->w || !w->rw) {
		worker_free(w);
		return NULL;
	}
	return w;
}

/* What the loop of -j 1 does with a game before writing it, into r and
 * the piece into out. */
static void work(void *state, struct vc_game *g, struct vc_sink *out, void *res)
{
	struct worker *w = state;
	struct result *r = res;
	struct text t = { NULL, 0, 0 };
	if (!w) {
		say(&t, "%s: error: out of memory\n", cli_prog);
		r->fatal = 1;
		goto end;
	}
	const struct job *job = w->job;
	t = w->orphan;
	memset(&w->orphan, 0, sizeof w->orphan);
	w->diag = &t;
	struct vc_game_stats st;
	if (vc_replay_run(w->rp, w->val, g, &st) == VC_FATAL) {
		r->fatal = 1;
		goto end;
	}
	r->garbage = vc_game_is_garbage(g);
	r->valid = st.valid && !r->garbage;
	if (!post_select(g, w->rp, r->valid, job->sels, job->nsel))
		goto end;
	r->selected = 1;
	if (job->xml_in)
		report_xml_warnings(&t, g);
	r->mid = t.len;
	if (!r->valid)
		report_broken(&t, g);
	r->late = t.len;
	if (r->valid || (job->keep && !r->garbage)) {
		r->piece = PIECE_OUT;
		r->piece_failed = vc_writer_piece(w->w, out, g, w->rp) != VC_OK;
	} else if (job->rejects) {
		size_t len;
		vc_game_raw(g, &len);
		if (len == 0) {
			r->piece = PIECE_REJECT;
			r->piece_failed = vc_writer_piece(w->rw, out, g, w->rp) != VC_OK;
		}
	}
end:
	if (w)
		w->diag = NULL;
	r->text = t.p;
	r->len = t.len;
}

/* The reader's side: the next game the tag and number selections take.
 * The messages of reading it are held for done. */
static vc_status next_game(void *source, struct vc_game *g, void *res)
{
	struct conv *cv = source;
	struct result *r = res;
	vc_status s;
	if (cv->stop)
		return VC_END;
	held = &cv->pending;
	for (;;) {
		s = cv->xr ? vc_xml_reader_next(cv->xr, g) : vc_reader_next(cv->tr, g);
		if (s != VC_OK)
			break;
		cv->read_number = vc_game_number(g) + 1;
		if (pre_select(g, vc_game_number(g), cv->sels, cv->nsel))
			break;
	}
	held = NULL;
	if (s == VC_OK) {
		r->pre = cv->pending.p;
		r->npre = cv->pending.len;
		memset(&cv->pending, 0, sizeof cv->pending);
	} else if (s == VC_FATAL) {
		cv->read_fatal = 1; /* counted only if -j 1 would have read so far */
		s = VC_END;
	}
	return s;
}

/* Writes the piece of a game that goes to the output. */
static int take_piece(struct conv *cv, const struct result *r, const char *piece, size_t len)
{
	struct out *o = cv->o;
	if (out_turn(o) < 0) {
		cv->stop = 1;
		return -1;
	}
	put_text(r->text, r->late, r->len);
	if (r->piece_failed || vc_writer_put(o->w, piece, len) != VC_OK) {
		o->failed = 1;
		cv->stop = 1;
		return -1;
	}
	o->in_file++;
	return 0;
}

/* The writer's side: the loop of -j 1 after the replay, in input order. */
static void take(struct conv *cv, struct vc_game *g, const char *piece, size_t len,
		 const struct result *r)
{
	put_text(r->pre, 0, r->npre);
	cv->number = vc_game_number(g) + 1;
	if (r->fatal) {
		put_text(r->text, 0, r->len);
		cv->trouble = 1;
		cv->stop = 1;
		return;
	}
	if (!r->selected) {
		put_text(r->text, 0, r->len);
		return;
	}
	cv->read++;
	put_text(r->text, 0, r->mid);
	if (cv->progress && cv->read % 4096 == 0)
		fprintf(stderr, "\r%s: %ld games", cli_prog, cv->read);
	if (r->valid) {
		if (take_piece(cv, r, piece, len) == 0)
			cv->written++;
		return;
	}
	cv->broken++;
	if (cv->progress && cv->read >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");
	put_text(r->text, r->mid, r->late);
	if (cv->job->keep && !r->garbage) {
		if (take_piece(cv, r, piece, len) == 0) {
			cv->written++;
			cv->kept++;
		}
		return;
	}
	cv->rejected++;
	if (!cv->rj->sink || cv->rej_failed)
		return;
	size_t rawlen;
	const char *raw = vc_game_raw(g, &rawlen);
	if (rawlen > 0) {
		if (reject_raw(cv->rj, raw, rawlen) < 0)
			cv->rej_failed = 1;
		return;
	}
	put_text(r->text, r->late, r->len);
	if (r->piece_failed || reject_writer(cv->rj) < 0 ||
	    vc_writer_put(cv->rj->w, piece, len) != VC_OK)
		cv->rej_failed = 1;
}

static void done(void *user, struct vc_game *g, const char *piece, size_t len, void *res)
{
	struct conv *cv = user;
	struct result *r = res;
	if (!cv->stop)
		take(cv, g, piece, len, r);
	free(r->text);
	free(r->pre);
}

/* One input through jobs workers. */
static void run_parallel(struct conv *cv, struct vc_ctx *ctx, int jobs)
{
	struct vc_parallel_opts po = { .jobs = jobs,
				       .result_size = sizeof(struct result),
				       .worker_new = worker_new,
				       .worker_free = worker_keep,
				       .work = work,
				       .done = done,
				       .user = cv };
	cv->stop = 0;
	cv->read_fatal = 0;
	cv->read_number = cv->number;
	if (vc_parallel_each(ctx, next_game, cv, &po) != VC_OK)
		cv->trouble = 1;
	if (!cv->stop) {
		/* what -j 1 would have read too: the messages after the last game */
		put_text(cv->pending.p, 0, cv->pending.len);
		cv->number = cv->read_number;
		if (cv->read_fatal)
			cv->trouble = 1;
	}
	free(cv->pending.p);
	memset(&cv->pending, 0, sizeof cv->pending);
}

/* ---- -j 1: one game at a time in this thread ---- */

static void run_serial(struct conv *cv, struct vc_reader *tr, struct vc_xml_reader *xr,
		       struct vc_validator *val, struct vc_replay *rp, struct vc_game *g)
{
	struct out *o = cv->o;
	vc_status s;
	for (;;) {
		s = xr ? vc_xml_reader_next(xr, g) : vc_reader_next(tr, g);
		if (s != VC_OK)
			break;
		cv->number = vc_game_number(g) + 1;
		if (!pre_select(g, vc_game_number(g), cv->sels, cv->nsel))
			continue;
		struct vc_game_stats st;
		vc_status vs = vc_replay_run(rp, val, g, &st);
		if (vs == VC_FATAL) {
			cv->trouble = 1;
			s = VC_FATAL;
			break;
		}
		int garbage = vc_game_is_garbage(g);
		int valid = st.valid && !garbage;
		if (!post_select(g, rp, valid, cv->sels, cv->nsel))
			continue;
		cv->read++;
		if (xr)
			report_xml_warnings(NULL, g);
		if (cv->progress && cv->read % 4096 == 0)
			fprintf(stderr, "\r%s: %ld games", cli_prog, cv->read);
		if (valid) {
			if (out_game(o, g, rp) < 0)
				break;
			cv->written++;
			continue;
		}
		cv->broken++;
		if (cv->progress && cv->read >= 4096)
			fprintf(stderr, "\r%*s\r", 40, "");
		report_broken(NULL, g);
		if (cv->keep && !garbage) {
			if (out_game(o, g, rp) < 0)
				break;
			cv->written++;
			cv->kept++;
			continue;
		}
		cv->rejected++;
		if (cv->rj->sink && !cv->rej_failed && reject(cv->rj, g, rp) < 0)
			cv->rej_failed = 1;
	}
	if (s == VC_FATAL)
		cv->trouble = 1;
}

/* ---- main ---- */

static void free_args(const char **files, struct sel *sels, int nsel)
{
	for (int k = 0; k < nsel; k++)
		free_sel(&sels[k]);
	free(sels);
	free(files);
}

static int parse_jobs(const char *s)
{
	long n = cli_number(s);
	if (n < 1 || n > 1024) {
		cli_error("-j needs a number from 1 to 1024, not '%s'", s);
		cli_usage(usage, 1);
	}
	return (int)n;
}

static int parse_format(const char *s, int output)
{
	if (!strcmp(s, "text"))
		return VC_FORMAT_TEXT;
	if (!strcmp(s, "xml"))
		return VC_FORMAT_XML;
	if (output && !strcmp(s, "fen"))
		return VC_FORMAT_FEN;
	if (output && !strcmp(s, "json-lines"))
		return VC_FORMAT_JSON;
	return -1;
}

int main(int argc, char **argv)
{
	const char *variant = NULL, *outpath = NULL, *rejpath = NULL;
	int from = -1, to = VC_FORMAT_TEXT, gzip = 0, keep = 0, strict = 0, nsel = 0;
	int jobs = vc_cpu_count();
	long split = 0;
	struct vc_write_opts wo;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	struct sel *sels = calloc((size_t)argc + 1, sizeof *sels);
	int nfiles = 0;
	memset(&wo, 0, sizeof wo);
	cli_init("vchess-convert");
	if (!files || !sels)
		return CLI_TROUBLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage(usage, 0);
			free_args(files, sels, nsel);
			return CLI_OK;
		} else if (!strcmp(a, "--version")) {
			cli_version();
			free_args(files, sels, nsel);
			return CLI_OK;
		} else if (!strcmp(a, "-f") && val) {
			from = parse_format(val, 0);
			if (from < 0) {
				cli_error("unknown input format '%s' (text or xml)", val);
				cli_usage(usage, 1);
			}
			i++;
		} else if (!strcmp(a, "-t") && val) {
			to = parse_format(val, 1);
			if (to < 0) {
				cli_error(
					"unknown output format '%s' (text, xml, fen or json-lines)",
					val);
				cli_usage(usage, 1);
			}
			i++;
		} else if (!strcmp(a, "-o") && val) {
			outpath = val;
			i++;
		} else if (!strcmp(a, "-z")) {
			gzip = 1;
		} else if (!strcmp(a, "--select") && val) {
			int rc = parse_sel(val, &sels[nsel]);
			if (rc < 0) {
				if (rc == -1)
					cli_error("bad --select expression '%s'", val);
				cli_usage(usage, 1);
			}
			nsel++;
			i++;
		} else if (!strcmp(a, "--split") && val) {
			split = cli_number(val);
			if (split < 1) {
				cli_error("--split needs a number of games of at least 1, not '%s'",
					  val);
				cli_usage(usage, 1);
			}
			i++;
		} else if (!strcmp(a, "--keep-broken")) {
			keep = 1;
		} else if (!strcmp(a, "--rejects") && val) {
			rejpath = val;
			i++;
		} else if (!strcmp(a, "--long")) {
			wo.long_algebraic = 1;
		} else if (!strcmp(a, "--no-comments")) {
			wo.no_comments = 1;
		} else if (!strcmp(a, "--no-variations")) {
			wo.no_variations = 1;
		} else if (!strcmp(a, "--no-tags")) {
			wo.no_tags = 1;
		} else if (!strcmp(a, "--fen-comments")) {
			wo.fen_after = 1;
		} else if (!strcmp(a, "--mark-swaps")) {
			wo.mark_transforms = 1;
		} else if (!strcmp(a, "--plies")) {
			wo.fen_plies = 1;
		} else if (!strcmp(a, "--variant") && val) {
			variant = val;
			i++;
		} else if (!strcmp(a, "--strict")) {
			strict = 1;
		} else if ((!strcmp(a, "-j") || !strcmp(a, "--jobs")) && val) {
			jobs = parse_jobs(val);
			i++;
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			jobs = parse_jobs(a + 2);
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				files[nfiles++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			static const char *const valued[] = { "-f",        "-t",      "-o",
							      "--select",  "--split", "--rejects",
							      "--variant", "-j",      "--jobs" };
			int needs = 0;
			for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
				needs |= !strcmp(a, valued[k]);
			if (needs)
				cli_error("option '%s' needs a value", a);
			else
				cli_error("unknown option '%s'", a);
			cli_usage(usage, 1);
		} else {
			files[nfiles++] = a;
		}
	}
	if (!nfiles)
		cli_usage(usage, 1);
	if (split && (!outpath || !strcmp(outpath, "-"))) {
		cli_error("--split needs -o OUT: the files are named after it");
		cli_usage(usage, 1);
	}
	if (outpath && !strcmp(outpath, "-"))
		outpath = NULL;

	int status = CLI_TROUBLE;
	struct vc_validator *val = NULL;
	struct vc_replay *rp = NULL;
	struct vc_game *g = NULL;
	struct vc_ctx *ctx = vc_ctx_new();
	struct out o;
	struct rejects rj = { ctx, NULL, NULL };
	memset(&o, 0, sizeof o);
	if (!ctx)
		goto out;
	vc_ctx_set_diag(ctx, diag_cb, NULL);
	struct vc_validate_opts vo;
	memset(&vo, 0, sizeof vo);
	vo.strict = strict;
	vo.default_variant = variant;
	val = vc_validator_new(ctx, &vo);
	rp = vc_replay_new(&wo, (enum vc_format)to);
	g = vc_game_new();
	if (!val || !rp || !g) {
		cli_error("out of memory");
		goto out;
	}
	if (variant && !vc_validator_get_variant(val, variant)) {
		struct vc_variant *v = vc_variant_load(ctx, variant); /* for its message */
		vc_variant_free(v);
		goto out;
	}

	o.ctx = ctx;
	o.path = outpath;
	o.gzip = gzip;
	o.fmt = to;
	o.wo = wo;
	o.split = split;
	if (out_open(&o) < 0)
		goto out;
	if (rejpath) {
		rj.sink = vc_sink_open(ctx, rejpath, 0);
		if (!rj.sink) {
			out_close(&o);
			goto out;
		}
	}

	struct conv cv;
	struct job job;
	memset(&cv, 0, sizeof cv);
	memset(&job, 0, sizeof job);
	cv.sels = sels;
	cv.nsel = nsel;
	cv.keep = keep;
	cv.progress = isatty(2);
	cv.o = &o;
	cv.rj = &rj;
	cv.number = 1;
	cv.job = &job;
	job.vo = vo;
	job.wo = wo;
	job.to = to;
	job.keep = keep;
	job.rejects = rejpath != NULL;
	job.sels = sels;
	job.nsel = nsel;
	for (int fi = 0; fi < nfiles && !o.failed; fi++) {
		const char *path = files[fi];
		int fmt = from, relayfd = -1;
		struct relay rl;
		char fdpath[32];
		memset(&rl, 0, sizeof rl);
		if (fmt < 0) {
			struct stat sb;
			if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
				fmt = vc_format_of_file(ctx, path);
			} else {
				relayfd = relay_start(&rl, path, fdpath, sizeof fdpath, &fmt);
				if (relayfd < 0) {
					relay_end(&rl, -1);
					cv.trouble = 1;
					continue;
				}
				snprintf(shown_names[0].fdpath, sizeof shown_names[0].fdpath, "%s",
					 fdpath);
				shown_names[0].name = strcmp(path, "-") ? path : "<stdin>";
				path = fdpath;
			}
			if (fmt < 0) {
				cv.trouble = 1;
				continue;
			}
		}
		struct vc_reader_opts ro;
		memset(&ro, 0, sizeof ro);
		ro.strict = strict;
		ro.first_game = cv.number;
		struct vc_reader *tr = NULL;
		struct vc_xml_reader *xr = NULL;
		if (fmt == VC_FORMAT_XML)
			xr = vc_xml_reader_open(ctx, path, &ro);
		else
			tr = vc_reader_open(ctx, path, &ro);
		if (!tr && !xr) {
			cv.trouble = 1;
			relay_end(&rl, relayfd);
			shown_names[0].name = NULL;
			continue;
		}
		if (jobs > 1) {
			cv.tr = tr;
			cv.xr = xr;
			job.xml_in = xr != NULL;
			run_parallel(&cv, ctx, jobs);
			cv.tr = NULL;
			cv.xr = NULL;
		} else {
			run_serial(&cv, tr, xr, val, rp, g);
		}
		vc_reader_close(tr);
		vc_xml_reader_close(xr);
		relay_end(&rl, relayfd);
		shown_names[0].name = NULL;
	}
	if (cv.progress && cv.read >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");

	if (out_close(&o) < 0)
		o.failed = 1;
	if (rj.sink) {
		if (rj.w && vc_writer_close(rj.w) != VC_OK)
			cv.rej_failed = 1;
		if (cv.rej_failed)
			vc_sink_abort(rj.sink);
		else if (vc_sink_close(rj.sink) != VC_OK)
			cv.rej_failed = 1;
	}
	if (cv.broken) {
		/* never silently dropped: say where every broken game went */
		fprintf(stderr, "%s: %ld of %ld games broken", cli_prog, cv.broken, cv.read);
		if (cv.kept)
			fprintf(stderr, ", %ld written with their errors", cv.kept);
		if (cv.rejected && rejpath && cv.rej_failed)
			fprintf(stderr, ", %ld not written (the rejects file '%s' failed)",
				cv.rejected, rejpath);
		else if (cv.rejected && rejpath)
			fprintf(stderr, ", %ld rejected to '%s'", cv.rejected, rejpath);
		else if (cv.rejected)
			fprintf(stderr, ", %ld not written (%s)", cv.rejected,
				keep ? "text that is no game: see --rejects"
				     : "see --keep-broken and --rejects");
		fputc('\n', stderr);
	}
	if (cv.trouble || o.failed || cv.rej_failed)
		status = CLI_TROUBLE;
	else
		status = cv.broken ? CLI_BAD_INPUT : CLI_OK;
out:
	workers_free();
	free_args(files, sels, nsel);
	vc_game_free(g);
	vc_replay_free(rp);
	vc_validator_free(val);
	vc_ctx_free(ctx);
	return status;
}
