/*
 * fuzz_fen.c - position strings.  Byte 0 picks a built-in variant, the rest
 * is the string.  Checked: a string that reads is written back, and that
 * reads back to the same string and hash; every legal move made and unmade
 * restores it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vc_variant *vs[64];
	static int nv = -1;
	static vc_move ms[VC_MAX_MOVES * 4];
	static char fen[4096], out1[4096], out2[4096];
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
	if (size < 1 || nv == 0 || size > sizeof fen)
		return 0;
	struct vc_variant *v = vs[data[0] % nv];
	memcpy(fen, data + 1, size - 1);
	fen[size - 1] = 0;
	struct vc_position *p = vc_position_new(v);
	if (vc_position_set_fen(p, NULL, fen) == VC_OK) {
		vc_position_fen(p, out1, sizeof out1);
		uint64_t h = vc_position_hash(p);
		if (vc_position_set_fen(p, NULL, out1) != VC_OK)
			abort(); /* what was written does not read */
		vc_position_fen(p, out2, sizeof out2);
		if (strcmp(out1, out2) || h != vc_position_hash(p))
			abort(); /* not read back as written */
		int n = vc_gen_legal(p, ms);
		for (int i = 0; i < n && i < 64; i++) {
			vc_pos_make(p, &ms[i]);
			vc_pos_unmake(p);
			vc_position_fen(p, out2, sizeof out2);
			if (strcmp(out1, out2) || h != vc_position_hash(p))
				abort(); /* make/unmake did not restore */
		}
	}
	vc_position_free(p);
	return 0;
}
