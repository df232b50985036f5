/*
 * cli.c - the small part every tool shares (see cli.h).  Messages are one
 * line each, lower case, positioned as file:line:col when known, so that
 * editors and scripts can jump to them.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *cli_prog = "vchess";
int cli_show_codes;

void cli_init(const char *prog)
{
	cli_prog = prog;
	cli_show_codes = getenv("VCHESS_SHOW_CODES") != NULL;
}

const char *cli_severity(enum vc_severity sev, const char *code, char *buf, size_t n)
{
	if (cli_show_codes && code && *code)
		snprintf(buf, n, "%s[%s]", vc_severity_name(sev), code);
	else
		snprintf(buf, n, "%s", vc_severity_name(sev));
	return buf;
}

int cli_diag_format(const struct vc_diag *d, char *buf, size_t n)
{
	char sev[96], pos[64] = "";
	if (d->file && d->line > 0) {
		if (d->col > 0)
			snprintf(pos, sizeof pos, ":%ld:%ld", d->line, d->col);
		else
			snprintf(pos, sizeof pos, ":%ld", d->line);
	}
	int has_ctx = d->context && *d->context;
	return snprintf(buf, n, "%s: %s%s%s%s: %s%s%s\n", cli_prog, d->file ? d->file : "", pos,
			d->file ? ": " : "", cli_severity(d->severity, d->code, sev, sizeof sev),
			has_ctx ? d->context : "", has_ctx ? ": " : "",
			d->message ? d->message : "");
}

static struct cli_progress *shown_progress; /* erased before any message */

void cli_diag(const struct vc_diag *d, void *user)
{
	(void)user;
	if (shown_progress)
		cli_progress_clear(shown_progress);
	char small[1024];
	int n = cli_diag_format(d, small, sizeof small);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		fputs(small, stderr);
		return;
	}
	char *p = malloc((size_t)n + 1);
	if (!p) {
		fputs(small, stderr); /* cut short rather than lost */
		fputc('\n', stderr);
		return;
	}
	cli_diag_format(d, p, (size_t)n + 1);
	fputs(p, stderr);
	free(p);
}

char *cli_game_diag(const char *file, const struct vc_game *g, const struct vc_game_diag *d,
		    int codes)
{
	struct vc_sink *s = vc_sink_mem(NULL);
	if (!s)
		return NULL;
	const char *w = vc_game_tag(g, "White"), *b = vc_game_tag(g, "Black");
	char sev[96];
	vc_sink_printf(s, "%s: %s", cli_prog, file ? file : "-");
	if (d->line > 0) {
		vc_sink_printf(s, ":%ld", d->line);
		if (d->col > 0)
			vc_sink_printf(s, ":%ld", d->col);
	}
	vc_sink_printf(s, ": %s: game %ld",
		       codes ? cli_severity(d->severity, d->code, sev, sizeof sev)
			     : vc_severity_name(d->severity),
		       vc_game_number(g));
	if (!vc_game_is_garbage(g))
		vc_sink_printf(s, " (%s - %s)", w ? w : "?", b ? b : "?");
	if (d->context && *d->context)
		vc_sink_printf(s, ", %s", d->context);
	vc_sink_printf(s, ": %s\n", d->message);
	size_t len;
	const char *data = vc_sink_data(s, &len);
	char *line = vc_sink_failed(s) ? NULL : malloc(len + 1);
	if (line) {
		memcpy(line, data, len);
		line[len] = '\0';
	}
	vc_sink_abort(s);
	return line;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	if (shown_progress)
		cli_progress_clear(shown_progress);
	fprintf(stderr, "%s: error: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_file_error(const char *file, long line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: %s", cli_prog, file);
	if (line > 0)
		fprintf(stderr, ":%ld", line);
	fputs(": error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_version(void) { printf("%s (vchess) %s\n", cli_prog, VC_VERSION); }

/* ---- the command line ---- */

static const struct cli_tool *the_tool;

void cli_usage(void)
{
	if (the_tool)
		fputs(the_tool->usage, stderr);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
	exit(CLI_TROUBLE);
}

void cli_misuse(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: error: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cli_usage();
}

static const struct cli_opt common[] = {
	{ 'h', "help", NULL, "print this help and exit" },
	{ 256 + 255, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL },
};

/* "  -j, --jobs=N" into buf; returns its length. */
static int opt_label(const struct cli_opt *o, char *buf, size_t n)
{
	return snprintf(buf, n, "  %c%c%s--%s%s%s", o->key < 256 ? '-' : ' ',
			o->key < 256 ? o->key : ' ', o->key < 256 ? ", " : "  ", o->name,
			o->value ? "=" : "", o->value ? o->value : "");
}

static void help(const struct cli_tool *t)
{
	char label[80];
	int width = 0;
	const struct cli_opt *lists[2] = { t->opts, common };
	for (int l = 0; l < 2; l++)
		for (const struct cli_opt *o = lists[l]; o->key; o++) {
			int w = opt_label(o, label, sizeof label);
			width = w > width ? w : width;
		}
	printf("%s%s\n\nOptions:\n", t->usage, t->about);
	for (int l = 0; l < 2; l++)
		for (const struct cli_opt *o = lists[l]; o->key; o++) {
			opt_label(o, label, sizeof label);
			printf("%-*s  %s\n", width, label, o->help);
		}
	printf("\nExample:\n  %s\n", t->example);
	if (t->notes)
		printf("\n%s", t->notes);
	printf("\nFull manual: man 1 %s\n", cli_prog);
}

/* The long option that an unknown or ambiguous word starts, for the message. */
static void unknown(const struct cli_tool *t, const char *word)
{
	char names[200] = "";
	size_t n = 0, len = strcspn(word + 2, "=");
	int count = 0;
	if (!strncmp(word, "--", 2) && len > 0)
		for (const struct cli_opt *o = t->opts; o->key; o++)
			if (!strncmp(o->name, word + 2, len) && n < sizeof names - 40) {
				n += (size_t)snprintf(names + n, sizeof names - n, "%s--%s",
						      count ? ", " : "", o->name);
				count++;
			}
	if (count > 1)
		cli_misuse("option '%.*s' is ambiguous: %s", (int)len + 2, word, names);
	cli_misuse("unknown option '%s'", word);
}

int cli_options(const struct cli_tool *t, int argc, char **argv, cli_opt_fn *fn, void *user)
{
	struct option lo[64];
	char shorts[160] = ":";
	size_t nl = 0, ns = 1;
	const struct cli_opt *lists[2] = { t->opts, common };
	the_tool = t;
	for (int l = 0; l < 2; l++)
		for (const struct cli_opt *o = lists[l]; o->key && nl < 63; o++) {
			lo[nl++] = (struct option){ o->name, o->value ? required_argument : no_argument,
						    NULL, o->key };
			if (o->key < 256 && ns + 3 < sizeof shorts) {
				shorts[ns++] = (char)o->key;
				if (o->value)
					shorts[ns++] = ':';
			}
		}
	lo[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const char *word = argv[optind - 1];
		if (c == 'h') {
			help(t);
			exit(CLI_OK);
		} else if (c == 256 + 255) {
			cli_version();
			exit(CLI_OK);
		} else if (c == ':') {
			cli_misuse("option '%s' needs a value", word);
		} else if (c == '?' && optopt && !strncmp(word, "--", 2) && strchr(word, '=')) {
			cli_misuse("option '%.*s' takes no value", (int)strcspn(word, "="), word);
		} else if (c == '?') {
			char one[3] = { '-', (char)optopt, 0 };
			unknown(t, optopt && optopt < 256 ? one : word);
		} else {
			fn(c, optarg, user);
		}
	}
	return optind;
}

struct vc_ctx *cli_ctx(void)
{
	struct vc_ctx *ctx = vc_ctx_new();
	if (!ctx) {
		cli_error("out of memory");
		exit(CLI_TROUBLE);
	}
	vc_ctx_set_diag(ctx, cli_diag, NULL);
	/* the gzip decoder: the library's best unless VCHESS_INFLATE says zlib */
	const char *inf = getenv("VCHESS_INFLATE");
	if (inf && !strcmp(inf, "zlib"))
		vc_ctx_set_inflater(ctx, VC_INFLATE_ZLIB);
	return ctx;
}

struct vc_sink *cli_out(struct vc_ctx *ctx, const char *path)
{
	struct vc_sink *s = vc_sink_open(ctx, path, 0);
	if (!s)
		exit(CLI_TROUBLE);
	return s;
}

int cli_close(struct vc_sink *s, vc_status done)
{
	if (done != VC_OK) {
		vc_sink_abort(s);
		return CLI_TROUBLE;
	}
	return vc_sink_close(s) == VC_OK ? CLI_OK : CLI_TROUBLE;
}

long cli_number_arg(const char *opt, const char *s, long min, long max)
{
	long n = cli_number(s);
	if ((n < min || n > max) && max == LONG_MAX)
		cli_misuse("%s needs a whole number of at least %ld, not '%s'", opt, min, s);
	if (n < min || n > max)
		cli_misuse("%s needs a number from %ld to %ld, not '%s'", opt, min, max, s);
	return n;
}

long cli_number(const char *s)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (*end || errno)
		return -1;
	return n;
}

/* ---- progress on a terminal ---- */

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_progress_parse(struct cli_progress *pr, const char *when)
{
	static const char *const words[] = { "never", "always", "auto" };
	for (int i = 0; i < 3; i++)
		if (when && !strcmp(when, words[i])) {
			pr->when = i + 1;
			return 0;
		}
	return -1;
}

static void on_input(void *user, const char *input, uint64_t done, uint64_t size)
{
	struct cli_progress *pr = user;
	snprintf(pr->input, sizeof pr->input, "%s", input);
	pr->done = done;
	pr->size = size;
}

void cli_progress_start(struct cli_progress *pr, struct vc_ctx *ctx)
{
	int when = pr->when;
	memset(pr, 0, sizeof *pr);
	if (!when && cli_progress_parse(pr, getenv("VCHESS_PROGRESS")) == 0)
		when = pr->when;
	pr->when = when;
	pr->tty = isatty(STDERR_FILENO);
	pr->on = when == 2 || (when != 1 && pr->tty);
	if (!pr->on)
		return;
	pr->start = pr->shown = seconds();
	shown_progress = pr;
	vc_ctx_set_progress(ctx, on_input, pr);
}

/* 1234567 as "1,234,567" */
static const char *grouped(unsigned long long n, char *buf)
{
	char tmp[32];
	int len = snprintf(tmp, sizeof tmp, "%llu", n), k = 0;
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = tmp[i];
	}
	buf[k] = 0;
	return buf;
}

static void show(struct cli_progress *pr, double now)
{
	char line[512], a[32], b[32];
	double dt = now - pr->start;
	int n = snprintf(line, sizeof line, "%s: %s game%s", cli_prog,
			 grouped((unsigned long long)pr->games, a), pr->games == 1 ? "" : "s");
	if (pr->size && n < (int)sizeof line)
		n += snprintf(line + n, sizeof line - (size_t)n, ", %d%% of %s",
			      (int)(pr->done * 100 / pr->size), pr->input);
	if (n < (int)sizeof line)
		n += snprintf(line + n, sizeof line - (size_t)n, ", %s games/s",
			      grouped(dt > 0.001 ? (unsigned long long)((double)pr->games / dt) : 0, b));
	if (n >= (int)sizeof line)
		n = (int)sizeof line - 1;
	if (pr->tty) {
		fprintf(stderr, "\r%s%*s", line, pr->width > n ? pr->width - n : 0, "");
		pr->width = n;
	} else {
		fprintf(stderr, "%s\n", line);
	}
	pr->shown = now;
	pr->shown_games = pr->games;
}

void cli_progress_game(struct cli_progress *pr)
{
	if (!pr->on)
		return;
	pr->games++;
	double now = seconds();
	/* the first game, then four times a second */
	if (pr->games == 1 || now - pr->shown >= 0.25)
		show(pr, now);
}

void cli_progress_clear(struct cli_progress *pr)
{
	if (pr->on && pr->width) {
		fprintf(stderr, "\r%*s\r", pr->width, "");
		pr->width = 0;
	}
}

void cli_progress_end(struct cli_progress *pr)
{
	if (pr->on && !pr->tty && pr->games != pr->shown_games)
		show(pr, seconds());
	cli_progress_clear(pr);
}
