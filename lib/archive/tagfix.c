/*
 * archive/tagfix.c - tag work on the games the converter writes
 * (vchess-convert --drop-tags, --keep-tags, --fix-result, --add-plycount,
 * --fill-roster, --add-hashcode): each option changes only what it names,
 * and says what it changed, so that the converter can count it on standard
 * error.
 *
 * Model: the work is done on the game record after its replay (in the
 * worker that replayed it, with -j N), in this order: tags removed, the
 * result fixed, PlyCount set, the roster filled, HashCode set (the key of
 * dupes.c by moves, in hexadecimal); what was done travels with
 * the game as a vc_cv_tagnote and is told (counted, and a note for a fixed
 * result) in the caller's thread, in input order, when the game is written.
 * A fixed result mends a game whose only errors were that result: the
 * validator's "result-wrong" and "result-mismatch" are taken out of it.
 */
#include <stdio.h>
#include <string.h>

#include "archive/convert.h"

static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

/* Tags a game cannot lose and still be read: kept by --keep-tags. */
static const char *const needed[] = { "Variant", "FEN", "SetUp" };

static int listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

static int is_needed(const char *name)
{
	for (size_t i = 0; i < VC_NELEM(needed); i++)
		if (!strcmp(needed[i], name))
			return 1;
	return 0;
}

int vc_cv_tags_check(struct vc_ctx *ctx, const struct vc_convert_opts *o)
{
	for (const char *const *t = o->drop_tags; t && *t; t++) {
		if (is_needed(*t)) {
			vc_emit(ctx, VC_SEV_ERROR, "convert-tags", NULL, 0, 0, NULL,
				"the tag '%s' cannot be left out: the moves are read with it", *t);
			return -1;
		}
	}
	return 0;
}

static int drop_tags(const struct vc_convert_opts *o, struct vc_game *g)
{
	int changed = 0;
	for (size_t i = vc_game_tag_count(g); i-- > 0;) {
		const char *name = vc_game_tag_name(g, i);
		int drop = listed(o->drop_tags, name) ||
			   (o->keep_tags && !listed(o->keep_tags, name) && !is_needed(name));
		if (drop) {
			vc_game_remove_tag(g, i);
			changed = 1;
		}
	}
	return changed;
}

static void copy_result(char *dst, const char *s)
{
	snprintf(dst, 16, "%s", s ? s : "");
}

/* The result the game should have, and why; NULL when there is nothing to
 * fix: the final position decides (mate, stalemate, the variant's own end),
 * else a "*" on one side gives way to the other. */
static const char *wanted(const struct vc_game *g, const struct vc_validator *val,
			  struct vc_end *e, const char **why)
{
	const char *res = vc_game_result(g), *tag = vc_game_tag(g, "Result");
	const struct vc_position *p = vc_validator_final(val);
	if (p && vc_position_end(p, e) != VC_END_NONE && e->result) {
		*why = e->text;
		return e->result;
	}
	if (!res || !tag || !strcmp(res, tag))
		return NULL;
	if (!strcmp(res, "*")) {
		*why = "the Result tag";
		return tag;
	}
	if (!strcmp(tag, "*")) {
		*why = "the movetext's result";
		return res;
	}
	return NULL;
}

static int fix_result(struct vc_game *g, struct vc_game_stats *st, const struct vc_validator *val,
		      struct vc_cv_tagnote *n)
{
	struct vc_end e;
	const char *why = NULL;
	const char *want = wanted(g, val, &e, &why);
	if (!want)
		return 0;
	const char *res = vc_game_result(g), *tag = vc_game_tag(g, "Result");
	int fix_tag = tag && strcmp(tag, want), fix_res = res && strcmp(res, want);
	if (!fix_tag && !fix_res)
		return 0;
	copy_result(n->from, fix_tag ? tag : res);
	copy_result(n->to, want);
	snprintf(n->why, sizeof n->why, "%s", why);
	if (fix_res) {
		vc_game_result_pos(g, &n->line, &n->col);
	} else {
		for (size_t i = 0; i < vc_game_tag_count(g); i++)
			if (!strcmp(vc_game_tag_name(g, i), "Result"))
				vc_game_tag_pos(g, i, &n->line, &n->col);
	}
	char keep[16];
	copy_result(keep, want); /* want may be the value about to be replaced */
	if ((fix_tag && vc_game_set_tag(g, "Result", keep) < 0) ||
	    (fix_res && vc_game_set_result(g, keep) < 0))
		return -1;
	vc_game_remove_diags(g, "result-wrong");
	vc_game_remove_diags(g, "result-mismatch");
	st->valid = vc_game_worst(g) < VC_SEV_ERROR;
	return 1;
}

static int set_plycount(struct vc_game *g, const struct vc_game_stats *st)
{
	char v[32];
	snprintf(v, sizeof v, "%ld", st->plies);
	const char *t = vc_game_tag(g, "PlyCount");
	if (t && !strcmp(t, v))
		return 0;
	return vc_game_set_tag(g, "PlyCount", v) < 0 ? -1 : 1;
}

static int fill_roster(struct vc_game *g)
{
	int changed = 0;
	for (size_t i = 0; i < VC_NELEM(roster); i++) {
		if (vc_game_tag(g, roster[i]))
			continue;
		const char *v = "?";
		if (!strcmp(roster[i], "Date"))
			v = "????.??.??";
		else if (!strcmp(roster[i], "Result"))
			v = vc_game_result(g) ? vc_game_result(g) : "*";
		if (vc_game_add_tag(g, roster[i], v) < 0)
			return -1;
		changed = 1;
	}
	return changed;
}

int vc_cv_tagwork(const struct vc_convert_opts *o, struct vc_game *g, struct vc_game_stats *st,
		  const struct vc_validator *val, struct vc_cv_tagnote *n)
{
	memset(n, 0, sizeof *n);
	if (vc_game_is_garbage(g))
		return 0;
	int r;
	if ((o->drop_tags || o->keep_tags) && drop_tags(o, g))
		n->changed |= VC_TAGS_DROP;
	if ((o->tags & VC_TAGS_RESULT) && (r = fix_result(g, st, val, n)) != 0) {
		if (r < 0)
			return -1;
		n->changed |= VC_TAGS_RESULT;
	}
	if ((o->tags & VC_TAGS_PLYCOUNT) && st->valid && (r = set_plycount(g, st)) != 0) {
		if (r < 0)
			return -1;
		n->changed |= VC_TAGS_PLYCOUNT;
	}
	if ((o->tags & VC_TAGS_ROSTER) && (r = fill_roster(g)) != 0) {
		if (r < 0)
			return -1;
		n->changed |= VC_TAGS_ROSTER;
	}
	return 0;
}

int vc_cv_hashcode(const struct vc_convert_opts *o, struct vc_dup_keyer *k, struct vc_game *g,
		   const struct vc_replay *rp, const struct vc_validator *val, int valid,
		   struct vc_cv_tagnote *n)
{
	struct vc_dup_key key;
	if (!(o->tags & VC_TAGS_HASHCODE) || !valid ||
	    vc_dup_key_of(k, VC_DUP_MOVES, g, rp, val, &key) < 0)
		return 0;
	char v[24];
	snprintf(v, sizeof v, "%016llx", (unsigned long long)key.a);
	const char *t = vc_game_tag(g, "HashCode");
	if (t && !strcmp(t, v))
		return 0;
	if (vc_game_set_tag(g, "HashCode", v) < 0)
		return -1;
	n->changed |= VC_TAGS_HASHCODE;
	return 0;
}

void vc_cv_tagnote_tell(struct vc_convert *cv, const struct vc_game *g,
			const struct vc_cv_tagnote *n)
{
	cv->c.dropped += (n->changed & VC_TAGS_DROP) != 0;
	cv->c.results += (n->changed & VC_TAGS_RESULT) != 0;
	cv->c.plycount += (n->changed & VC_TAGS_PLYCOUNT) != 0;
	cv->c.roster += (n->changed & VC_TAGS_ROSTER) != 0;
	cv->c.hashcode += (n->changed & VC_TAGS_HASHCODE) != 0;
	if (!(n->changed & VC_TAGS_RESULT))
		return;
	long line = n->line ? n->line : vc_game_line(g);
	vc_emit(cv->ctx, VC_SEV_NOTE, "result-fixed", vc_cv_shown(cv, vc_game_file(g)), line,
		n->line ? n->col : 0, NULL, "game %ld: result '%s' made '%s' (%s)",
		vc_game_number(g), n->from, n->to, n->why);
}
