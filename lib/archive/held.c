/*
 * archive/held.c - the converter's diagnostics on their way to the
 * caller: passed on at once, or held back and passed on later, in input
 * order.
 *
 * Model: with several threads, the reader runs ahead of the games being
 * written, and workers replay games out of order; what they report must
 * still reach the caller where one thread would have reported it.  So
 * each one's diagnostics are copied, as records in a byte buffer, and the
 * caller's thread passes them on (vc_emit to the caller's context) when it
 * takes the game they came with.  An input read through the relay is
 * named /dev/fd/N by the readers: it is shown as it was given.
 *
 * A record: struct rec, then its strings (code, file, context, message),
 * each with its NUL, those that were NULL left out (has[i] 0).
 */
#include <string.h>

#include "archive/convert.h"

struct rec {
	enum vc_severity sev;
	long line, col;
	size_t len[4]; /* of each string, its NUL included */
	unsigned char has[4];
};

const char *vc_cv_shown(const struct vc_convert *cv, const char *file)
{
	if (file && cv->shown && !strcmp(file, cv->fdpath))
		return cv->shown;
	return file;
}

static void pass_on(const struct vc_convert *cv, enum vc_severity sev, const char *code,
		    const char *file, long line, long col, const char *context, const char *msg)
{
	vc_emit(cv->user_ctx, sev, code, vc_cv_shown(cv, file), line, col, context, "%s",
		msg ? msg : "");
}

void vc_cv_forward(const struct vc_diag *d, void *user)
{
	struct vc_convert *cv = user;
	if (cv->holding)
		vc_cv_hold(cv->holding, d);
	else
		pass_on(cv, d->severity, d->code, d->file, d->line, d->col, d->context, d->message);
}

void vc_cv_hold(struct vc_buf *b, const struct vc_diag *d)
{
	const char *s[4] = { d->code, d->file, d->context, d->message };
	struct rec r;
	memset(&r, 0, sizeof r);
	r.sev = d->severity;
	r.line = d->line;
	r.col = d->col;
	for (int i = 0; i < 4; i++) {
		r.has[i] = s[i] != NULL;
		r.len[i] = s[i] ? strlen(s[i]) + 1 : 0;
	}
	/* a record cut short by a failed allocation would be misread: none */
	size_t len = b->len;
	vc_buf_add(b, &r, sizeof r);
	for (int i = 0; i < 4; i++)
		if (s[i])
			vc_buf_add(b, s[i], r.len[i]);
	if (b->oom)
		b->len = len;
}

void vc_cv_release(const struct vc_convert *cv, const char *p, size_t from, size_t to)
{
	while (p && from + sizeof(struct rec) <= to) {
		struct rec r;
		const char *s[4];
		memcpy(&r, p + from, sizeof r);
		from += sizeof r;
		for (int i = 0; i < 4; i++) {
			s[i] = r.has[i] ? p + from : NULL;
			from += r.len[i];
		}
		pass_on(cv, r.sev, s[0], s[1], r.line, r.col, s[2], s[3]);
	}
}
