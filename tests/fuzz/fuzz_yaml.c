/*
 * fuzz_yaml.c - the variant loader.  A file that loads is compiled, its
 * start position set up, and its legal moves made and unmade.
 */
#include <stdint.h>
#include <stdlib.h>

#include "rules/vc_rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vc_ctx *ctx;
	static vc_move ms[VC_MAX_MOVES * 4];
	if (!ctx)
		ctx = vc_ctx_new();
	if (size > 1 << 16)
		return 0;
	struct vc_variant *v = vc_variant_load_mem(ctx, "fuzz.yaml", (const char *)data, size);
	if (v) {
		struct vc_position *p = vc_position_new(v);
		if (p && v->nsq <= 16 * 16) {
			int n = vc_gen_legal(p, ms);
			for (int i = 0; i < n && i < 256; i++) {
				vc_pos_make(p, &ms[i]);
				vc_pos_unmake(p);
			}
		}
		vc_position_free(p);
		vc_variant_free(v);
	}
	return 0;
}
