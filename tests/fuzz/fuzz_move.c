/*
 * fuzz_move.c - the move parser and resolver of every built-in variant.
 * Byte 0 picks the variant, byte 1 a position (the start, or the start after
 * a few plies picked by later bytes), the rest is move text.  Checked: a
 * move that resolves is one of the legal moves; making and unmaking it gives
 * back the same position string and hash; its canonical text reads back as
 * the same move.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const vc_move *a, const vc_move *b)
{
	return a->from == b->from && a->to == b->to && a->from2 == b->from2 && a->to2 == b->to2 &&
	       a->promo == b->promo && a->flags == b->flags && a->aux == b->aux &&
	       a->piece == b->piece;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vc_variant *vs[64];
	static int nv = -1;
	static vc_move ms[VC_MAX_MOVES * 4];
	if (nv < 0) {
		struct vc_ctx *ctx = vc_ctx_new();
		nv = 0;
		for (int i = 0; i < vc_builtin_count() && nv < 64; i++) {
			struct vc_variant *v = vc_variant_load(ctx, vc_builtin_name(i));
			if (v)
				vs[nv++] = v;
		}
		vc_ctx_free(ctx);
	}
	if (size < 3 || nv == 0)
		return 0;
	struct vc_variant *v = vs[data[0] % nv];
	struct vc_position *p = vc_position_new(v);
	/* walk a few plies into the game, chosen by byte 1 */
	int plies = data[1] % 8;
	for (int k = 0; k < plies; k++) {
		int n = vc_gen_legal(p, ms);
		if (!n)
			break;
		vc_pos_make(p, &ms[(data[1] * 31u + (unsigned)k * 7u) % (unsigned)n]);
	}
	char text[80];
	size_t len = size - 2 > sizeof text - 1 ? sizeof text - 1 : size - 2;
	memcpy(text, data + 2, len);
	text[len] = 0;
	struct vc_san san;
	vc_move m;
	const char *code;
	char msg[512];
	if (vc_san_parse(v, text, len, &san, &code, msg, sizeof msg) == 0 &&
	    vc_san_resolve(p, &san, text, len, &m, NULL, &code, msg, sizeof msg) == 0) {
		int n = vc_gen_legal(p, ms), found = 0;
		for (int i = 0; i < n; i++)
			found |= same(&ms[i], &m);
		if (!found)
			abort(); /* resolved to a move that is not legal */
		char before[2048], after[2048], sanbuf[96];
		vc_position_fen(p, before, sizeof before);
		uint64_t h = vc_position_hash(p);
		vc_move_san(p, &m, 0, sanbuf, sizeof sanbuf);
		vc_pos_make(p, &m);
		vc_pos_unmake(p);
		vc_position_fen(p, after, sizeof after);
		if (strcmp(before, after) || h != vc_position_hash(p))
			abort(); /* make/unmake did not restore the position */
		vc_move back;
		if (vc_san_parse(v, sanbuf, strlen(sanbuf), &san, &code, msg, sizeof msg) ||
		    vc_san_resolve(p, &san, sanbuf, strlen(sanbuf), &back, NULL, &code, msg, sizeof msg) ||
		    !same(&back, &m))
			abort(); /* the canonical text does not read back */
	}
	vc_position_free(p);
	return 0;
}
