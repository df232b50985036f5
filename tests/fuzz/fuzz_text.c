/*
 * fuzz_text.c - the text reader and the replay behind it.  The first byte
 * chooses lenient or strict reading; every game read is validated as
 * orthodox chess (or the variant its tag names).  Checked: no crash, no
 * leak, and nothing lost: every byte that is not white space belongs to the
 * raw text of exactly one game (a BOM at the start excepted).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vchess.h"

static int blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vc_ctx *ctx;
	static struct vc_validator *val[2];
	static struct vc_game *g;
	if (!ctx) {
		ctx = vc_ctx_new();
		struct vc_validate_opts o = { 0, NULL, NULL };
		val[0] = vc_validator_new(ctx, &o);
		o.strict = 1;
		val[1] = vc_validator_new(ctx, &o);
		g = vc_game_new();
	}
	int strict = size > 0 && (data[0] & 1);
	struct vc_reader_opts ro;
	memset(&ro, 0, sizeof ro);
	ro.strict = strict;
	ro.max_game_bytes = 1 << 20;
	struct vc_reader *r = vc_reader_mem(ctx, "fuzz", data, size, &ro);
	size_t in_raw = 0;
	while (r && vc_reader_next(r, g) == VC_OK) {
		size_t len;
		const char *raw = vc_game_raw(g, &len);
		for (size_t i = 0; i < len; i++)
			in_raw += !blank((uint8_t)raw[i]);
		vc_validate(val[strict], g, NULL);
	}
	vc_reader_close(r);
	size_t in_input = 0, start = 0;
	if (size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
		start = 3;
	for (size_t i = start; i < size; i++)
		in_input += !blank(data[i]);
	if (in_raw != in_input)
		abort(); /* a byte was lost or counted twice */
	return 0;
}
