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
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
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
	"                      [--strict] FILE...\n";

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

static void diag_cb(const struct vc_diag *d, void *user)
{
	struct vc_diag c = *d;
	c.file = show_name(d->file);
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

static int out_game(struct out *o, const struct vc_game *g, const struct vc_replay *rp)
{
	if (o->failed)
		return -1;
	if (o->split && o->in_file == o->split) {
		if (out_close(o) < 0 || out_open(o) < 0) {
			o->failed = 1;
			return -1;
		}
	}
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

static void print_diag(const struct vc_game *g, const struct vc_game_diag *d)
{
	char label[256];
	game_label(g, label, sizeof label);
	const char *f = show_name(vc_game_file(g));
	fprintf(stderr, "%s: %s", cli_prog, f ? f : "-");
	if (d->line > 0) {
		fprintf(stderr, ":%ld", d->line);
		if (d->col > 0)
			fprintf(stderr, ":%ld", d->col);
	}
	char sev[64];
	fprintf(stderr, ": %s: %s", cli_severity(d->severity, d->code, sev, sizeof sev), label);
	if (d->context && *d->context)
		fprintf(stderr, ", %s", d->context);
	fprintf(stderr, ": %s\n", d->message);
}

/* One line for a broken game: its first error. */
static void report_broken(const struct vc_game *g)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity >= VC_SEV_ERROR) {
			print_diag(g, d);
			return;
		}
	}
}

/* What the XML reader found odd in its input, though the game reads. */
static void report_xml_warnings(const struct vc_game *g)
{
	size_t n = vc_game_diag_count(g);
	for (size_t i = 0; i < n; i++) {
		const struct vc_game_diag *d = vc_game_diag_at(g, i);
		if (d->severity == VC_SEV_WARNING && d->code && !strncmp(d->code, "xml-", 4))
			print_diag(g, d);
	}
}

struct rejects {
	struct vc_ctx *ctx;
	struct vc_sink *sink;
	struct vc_writer *w; /* for games that have no raw text (from XML) */
};

static int reject(struct rejects *rj, const struct vc_game *g, const struct vc_replay *rp)
{
	size_t len;
	const char *raw = vc_game_raw(g, &len);
	if (len > 0) {
		if (vc_sink_write(rj->sink, raw, len) < 0)
			return -1;
		/* the raw bytes as read, then a blank line before the next */
		if (raw[len - 1] != '\n' && raw[len - 1] != '\r' &&
		    vc_sink_write(rj->sink, "\n", 1) < 0)
			return -1;
		return vc_sink_write(rj->sink, "\n", 1);
	}
	if (!rj->w) {
		rj->w = vc_writer_open(rj->ctx, rj->sink, VC_FORMAT_TEXT, NULL);
		if (!rj->w)
			return -1;
	}
	return vc_writer_game(rj->w, g, rp) == VC_OK ? 0 : -1;
}

/* ---- main ---- */

static void free_args(const char **files, struct sel *sels, int nsel)
{
	for (int k = 0; k < nsel; k++)
		free_sel(&sels[k]);
	free(sels);
	free(files);
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
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				files[nfiles++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			static const char *const valued[] = { "-f",       "-t",      "-o",
							      "--select", "--split", "--rejects",
							      "--variant" };
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

	long read = 0, written = 0, broken = 0, kept = 0, rejected = 0;
	long number = 1;
	int trouble = 0, rej_failed = 0;
	int progress = isatty(2);
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
					trouble = 1;
					continue;
				}
				snprintf(shown_names[0].fdpath, sizeof shown_names[0].fdpath, "%s",
					 fdpath);
				shown_names[0].name = strcmp(path, "-") ? path : "<stdin>";
				path = fdpath;
			}
			if (fmt < 0) {
				trouble = 1;
				continue;
			}
		}
		struct vc_reader_opts ro;
		memset(&ro, 0, sizeof ro);
		ro.strict = strict;
		ro.first_game = number;
		struct vc_reader *tr = NULL;
		struct vc_xml_reader *xr = NULL;
		if (fmt == VC_FORMAT_XML)
			xr = vc_xml_reader_open(ctx, path, &ro);
		else
			tr = vc_reader_open(ctx, path, &ro);
		if (!tr && !xr) {
			trouble = 1;
			relay_end(&rl, relayfd);
			shown_names[0].name = NULL;
			continue;
		}
		vc_status s;
		for (;;) {
			s = xr ? vc_xml_reader_next(xr, g) : vc_reader_next(tr, g);
			if (s != VC_OK)
				break;
			number = vc_game_number(g) + 1;
			if (!pre_select(g, vc_game_number(g), sels, nsel))
				continue;
			struct vc_game_stats st;
			vc_status vs = vc_replay_run(rp, val, g, &st);
			if (vs == VC_FATAL) {
				trouble = 1;
				s = VC_FATAL;
				break;
			}
			int garbage = vc_game_is_garbage(g);
			int valid = st.valid && !garbage;
			if (!post_select(g, rp, valid, sels, nsel))
				continue;
			read++;
			if (xr)
				report_xml_warnings(g);
			if (progress && read % 4096 == 0)
				fprintf(stderr, "\r%s: %ld games", cli_prog, read);
			if (valid) {
				if (out_game(&o, g, rp) < 0)
					break;
				written++;
				continue;
			}
			broken++;
			if (progress && read >= 4096)
				fprintf(stderr, "\r%*s\r", 40, "");
			report_broken(g);
			if (keep && !garbage) {
				if (out_game(&o, g, rp) < 0)
					break;
				written++;
				kept++;
				continue;
			}
			rejected++;
			if (rj.sink && !rej_failed && reject(&rj, g, rp) < 0)
				rej_failed = 1;
		}
		if (s == VC_FATAL)
			trouble = 1;
		vc_reader_close(tr);
		vc_xml_reader_close(xr);
		relay_end(&rl, relayfd);
		shown_names[0].name = NULL;
	}
	if (progress && read >= 4096)
		fprintf(stderr, "\r%*s\r", 40, "");

	if (out_close(&o) < 0)
		o.failed = 1;
	if (rj.sink) {
		if (rj.w && vc_writer_close(rj.w) != VC_OK)
			rej_failed = 1;
		if (rej_failed)
			vc_sink_abort(rj.sink);
		else if (vc_sink_close(rj.sink) != VC_OK)
			rej_failed = 1;
	}
	if (broken) {
		/* never silently dropped: say where every broken game went */
		fprintf(stderr, "%s: %ld of %ld games broken", cli_prog, broken, read);
		if (kept)
			fprintf(stderr, ", %ld written with their errors", kept);
		if (rejected && rejpath)
			fprintf(stderr, ", %ld rejected to '%s'", rejected, rejpath);
		else if (rejected)
			fprintf(stderr, ", %ld not written (%s)", rejected,
				keep ? "text that is no game: see --rejects"
				     : "see --keep-broken and --rejects");
		fputc('\n', stderr);
	}
	if (trouble || o.failed || rej_failed)
		status = CLI_TROUBLE;
	else
		status = broken ? CLI_BAD_INPUT : CLI_OK;
out:
	free_args(files, sels, nsel);
	vc_game_free(g);
	vc_replay_free(rp);
	vc_validator_free(val);
	vc_ctx_free(ctx);
	return status;
}
