/*
 * cli.h - what every vchess tool shares: its name in messages, the
 * diagnostics printer (the context's, and the line of a diagnostic stored
 * in a game), usage and version output, outputs that end the run when
 * they cannot be had, and the exit codes of DESIGN.md (0 all good, 1 the
 * input had problems, 2 usage or system trouble).  What a program other
 * than a command line would want too is the library's, not here.
 */
#ifndef VC_CLI_H
#define VC_CLI_H

#include <stdio.h>

#include "vchess.h"

#define CLI_OK 0
#define CLI_BAD_INPUT 1
#define CLI_TROUBLE 2

extern const char *cli_prog;
/* Set when the environment has VCHESS_SHOW_CODES: diagnostics then show their
 * stable code, "error[move-illegal]:", for scripts and the tests that
 * check every code is reachable. */
extern int cli_show_codes;
/* "error" or "error[code]" */
const char *cli_severity(enum vc_severity sev, const char *code, char *buf, size_t n);

void cli_init(const char *prog);
/* Prints a diagnostic: "prog: file:line:col: severity: context: message". */
void cli_diag(const struct vc_diag *d, void *user);
/* The line cli_diag prints, with its line end, into buf (size n); returns
 * its length as snprintf does (n or more: cut short). */
int cli_diag_format(const struct vc_diag *d, char *buf, size_t n);
/* The line the tools print for a diagnostic stored in a game:
 * "prog: file:line:col: error: game 2 (C - D), ply 7 '4. Nxe5': message\n"
 * (file NULL shows as "-"; text that is no game is "game N" alone); with
 * codes, the severity shows its code as cli_severity does.  A malloc'd
 * string, or NULL when out of memory. */
char *cli_game_diag(const char *file, const struct vc_game *g, const struct vc_game_diag *d,
		    int codes);
/* "prog: error: message" on standard error */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage to stdout (-h) or to stderr with exit 2 (misuse). */
void cli_usage(const char *usage, int to_stderr);
void cli_version(void);
/* A context whose diagnostics go to cli_diag. */
struct vc_ctx *cli_ctx(void);
/* An output: vc_sink_open(ctx, path, 0), or exit 2 when it cannot be had
 * (reported to ctx). */
struct vc_sink *cli_out(struct vc_ctx *ctx, const char *path);
/* Ends an output written with status done: closed into place when done is
 * VC_OK, else discarded.  The exit status: CLI_OK, or CLI_TROUBLE when
 * nothing good was written or the close failed. */
int cli_close(struct vc_sink *s, vc_status done);
/* Parses a whole non-negative number; -1 if it is not one. */
long cli_number(const char *s);

#endif
