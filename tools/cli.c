/*
 * cli.c - the small part every tool shares (see cli.h).  Messages are one
 * line each, lower case, positioned as file:line:col when known, so that
 * editors and scripts can jump to them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

void cli_diag(const struct vc_diag *d, void *user)
{
	(void)user;
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
	fprintf(stderr, "%s: error: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_usage(const char *usage, int to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;
	fputs(usage, f);
	if (to_stderr)
		exit(CLI_TROUBLE);
}

void cli_version(void) { printf("%s (vchess) %s\n", cli_prog, VC_VERSION); }

struct vc_ctx *cli_ctx(void)
{
	struct vc_ctx *ctx = vc_ctx_new();
	if (!ctx) {
		cli_error("out of memory");
		exit(CLI_TROUBLE);
	}
	vc_ctx_set_diag(ctx, cli_diag, NULL);
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
