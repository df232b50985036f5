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
/* "prog: FILE:LINE: error: message" (":LINE" left out when line is 0) */
void cli_file_error(const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- the command line ----
 * Every tool reads its options with getopt_long through cli_options, so that
 * all of them take "--opt=value" and "--opt value", bundled short options
 * ("-qv"), values glued to short ones ("-j2"), "--" to end the options and
 * options after operands; -h, --help and --version are everyone's, and
 * misuse reads the same everywhere: "prog: error: unknown option '--x'",
 * the usage, a pointer to --help, exit 2. */
struct cli_opt {
	int key;           /* a letter: also the short option; >= 256: long only */
	const char *name;  /* the long name, without "--" */
	const char *value; /* the name of its value ("N"), or NULL when it takes none */
	const char *help;  /* one line */
};

struct cli_tool {
	const char *usage;   /* the synopsis: "usage: prog ..." lines, each ending in \n */
	const char *about;   /* what the tool does, one line */
	const struct cli_opt *opts; /* ended by an entry of key 0 */
	const char *example; /* a command line, and what it does after "  # " */
	const char *notes;   /* lines printed after the options (may be NULL) */
};

typedef void cli_opt_fn(int key, const char *value, void *user);
/* Reads the options of argv, calling fn for each (value NULL for those that
 * take none), in order; handles -h/--help (the help on standard output,
 * exit 0), --version (exit 0) and misuse (exit 2).  Returns the index in
 * argv of the first operand: getopt_long moves the operands to the end. */
int cli_options(const struct cli_tool *t, int argc, char **argv, cli_opt_fn *fn, void *user);
/* Misuse found after cli_options: "prog: error: MESSAGE", the usage and the
 * pointer to --help on standard error, exit 2. */
void cli_misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The usage and the pointer to --help on standard error, exit 2. */
void cli_usage(void) __attribute__((noreturn));
void cli_version(void);

/* ---- progress on a terminal ----
 * While a tool reads big inputs, a line on standard error that it rewrites
 * in place: games so far, how much of the input (for a file of known size)
 * and the rate, "vchess-validate: 120,000 games, 42% of big.pgn, 40,000
 * games/s", at most four times a second, erased at the end.  It is shown
 * when standard error is a terminal, or as --progress=WHEN or the
 * environment's VCHESS_PROGRESS says: auto, always, never.  When standard
 * error is no terminal (--progress=always into a log) each update is a line
 * of its own, the first game's and the last's included. */
struct cli_progress {
	int when; /* 0 not said, 1 never, 2 always, 3 auto */
	int on, tty;
	double start, shown;  /* when the run started, when the line was last written */
	long games;
	unsigned long long done, size; /* bytes of the current input read, and its size */
	char input[256];
	int width;            /* of the line written last, to erase it */
	long shown_games;     /* the count it showed */
};
/* The setting of --progress=WHEN: 0, or -1 when WHEN is no setting. */
int cli_progress_parse(struct cli_progress *pr, const char *when);
/* Starts counting: takes the environment's setting when --progress did not
 * give one, and follows the inputs of ctx (vc_ctx_set_progress). */
void cli_progress_start(struct cli_progress *pr, struct vc_ctx *ctx);
/* Counts one game; writes the line when it is due. */
void cli_progress_game(struct cli_progress *pr);
/* Erases the line, before other output. */
void cli_progress_clear(struct cli_progress *pr);
/* At the end: erases the line on a terminal; elsewhere (a log) writes the
 * final count. */
void cli_progress_end(struct cli_progress *pr);
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
/* A whole number from min to max for option opt, or misuse: "-j needs a
 * number from 1 to 1024, not 'x'". */
long cli_number_arg(const char *opt, const char *s, long min, long max);

#endif
