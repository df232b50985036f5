/*
 * rules/end.c - how a game stands: over by a rule of the variant's own
 * (vc_end_by_rule, movegen.c), by checkmate or by stalemate, with its result
 * and a phrase for messages ("White's king reached the hill").  The
 * phrases are made from the variant's data: its piece names, its region's
 * name.
 */
#include <stdio.h>
#include <string.h>

#include "rules/vc_rules.h"

static const char *const side_name[2] = { "White", "Black" };

/* "1-0", "0-1" or "1/2-1/2" for result res of side s */
static const char *result_text(int s, int res)
{
	if (res == VC_RES_DRAW)
		return "1/2-1/2";
	return (res == VC_RES_WIN) == (s == VC_WHITE) ? "1-0" : "0-1";
}

static const char *ordinal(int n, char *buf, size_t size)
{
	static const char *const word[] = { "first", "second",  "third",  "fourth", "fifth",
					    "sixth", "seventh", "eighth", "ninth",  "tenth" };
	if (n >= 1 && n <= 10)
		return word[n - 1];
	snprintf(buf, size, "%dth", n);
	return buf;
}

/* The phrase for a rule of the variant's own. */
static void rule_text(const struct vc_position *p, int rule, int s, int res, char *out, size_t n)
{
	const struct vc_variant *v = p->v;
	const char *royal = v->king_type >= 0 ? v->types[v->king_type].name : "royal piece";
	const char *what = v->end.region_name[0] ? v->end.region_name : "its goal";
	char num[16], piece[40] = "piece";
	for (int t = 0; t < v->ntypes; t++)
		if (v->end.region_types >> t & 1) {
			snprintf(piece, sizeof piece, "%s", v->types[t].name);
			break;
		}
	switch (rule) {
	case VC_END_NO_PIECES:
		snprintf(out, n, "%s has no pieces left", side_name[s]);
		break;
	case VC_END_ROYAL_LOST:
		snprintf(out, n, "%s's %s %s", side_name[s], royal,
			 (v->rules & VC_R_EXPLOSION) ? "exploded" : "was captured");
		break;
	case VC_END_EXTINCT:
		if (v->end.extinct_all)
			snprintf(out, n, "%s is left with %s", side_name[s],
				 v->end.extinct_count ? "a bare king" : "no pieces");
		else
			snprintf(out, n, "%s has lost every piece of a kind it needs", side_name[s]);
		break;
	case VC_END_CHECKS:
		snprintf(out, n, "%s gave the %s check", side_name[s],
			 ordinal(v->end.checks, num, sizeof num));
		break;
	case VC_END_PASSES:
	case VC_END_FACING: {
		const char *how = rule == VC_END_PASSES ? "both sides passed in a row"
							: "a pass with the royal pieces facing each other";
		if (res == VC_RES_DRAW)
			snprintf(out, n, "%s", how);
		else
			snprintf(out, n, "%s, %s ahead on points", how,
				 side_name[res == VC_RES_WIN ? s : s ^ 1]);
		break;
	}
	default: /* VC_END_REGION */
		if (res == VC_RES_DRAW)
			snprintf(out, n, "both %ss reached %s", piece, what);
		else
			snprintf(out, n, "%s's %s reached %s", side_name[s], piece, what);
	}
}

/* The end of the game in p, examined as far as "full" asks: without it, a
 * stalemate that the variant scores as a draw is not looked for (it needs a
 * search for a legal move; the caller learns of it when the next move does
 * not read).  p->side's check state is "check". */
static enum vc_end_rule end_of(struct vc_position *p, int check, int full, struct vc_end *e)
{
	const struct vc_variant *v = p->v;
	int s = p->side, res = VC_RES_NONE, rule = VC_END_NONE;
	e->text[0] = 0; /* not the whole of e: this runs after every move replayed */
	if (v->has_end)
		rule = vc_end_by_rule(p, &s, &res);
	if (rule) {
		rule_text(p, rule, s, res, e->text, sizeof e->text);
	} else if ((full || check || v->end.stalemate != VC_RES_DRAW) && !vc_has_legal_move(p)) {
		s = p->side;
		if (check) {
			rule = VC_END_CHECKMATE;
			res = v->end.mate;
			snprintf(e->text, sizeof e->text, "checkmate of %s", side_name[s]);
		} else {
			rule = VC_END_STALEMATE;
			res = v->end.stalemate;
			if (res == VC_RES_FEWER) /* suicide: fewer pieces win */
				res = p->npl[s] < p->npl[s ^ 1]	  ? VC_RES_WIN
				      : p->npl[s] > p->npl[s ^ 1] ? VC_RES_LOSS
								  : VC_RES_DRAW;
			snprintf(e->text, sizeof e->text, "stalemate of %s", side_name[s]);
		}
	}
	e->rule = (enum vc_end_rule)rule;
	e->side = s;
	e->result = rule ? result_text(s, res) : NULL;
	return e->rule;
}

enum vc_end_rule vc_position_end(const struct vc_position *cp, struct vc_end *e)
{
	struct vc_position *p = (struct vc_position *)cp; /* made and unmade: unchanged */
	struct vc_end dummy;
	return end_of(p, vc_in_check(p, p->side), 1, e ? e : &dummy);
}

int vc_end_decisive(const struct vc_end *e)
{
	return e->result && strcmp(e->result, "1/2-1/2") != 0;
}

const char *vc_end_mark(struct vc_position *p, int check, struct vc_end *e)
{
	struct vc_end dummy;
	if (!e)
		e = &dummy;
	const struct vc_variant *v = p->v;
	if (!check && !v->has_end) {
		/* end_of's answer without its call, after most moves replayed:
		 * no end rule (has_end counts a stalemate scored other than as
		 * a draw among them), and a drawn stalemate is not looked for
		 * (no mark says it) */
		e->text[0] = 0;
		e->rule = VC_END_NONE;
		e->side = p->side;
		e->result = NULL;
		return "";
	}
	end_of(p, check, 0, e);
	return vc_end_decisive(e) ? "#" : check ? "+" : "";
}

const char *vc_mark_after(struct vc_position *p)
{
	return vc_end_mark(p, vc_in_check(p, p->side), NULL);
}
