/*
 * rules/load.c - the public ways to get a variant: a built-in by name or alias,
 * a YAML file by path, or YAML text in memory.  A variant is parsed
 * (variant_yaml.c), compiled (variant.c), and its setup read as a position
 * before it is handed out, so a variant that loads is one that plays; that
 * position is kept as the variant's start (vc_position_start copies it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/vc_embed.h"
#include "rules/vc_rules.h"

struct vc_variant *vc_variant_load_mem(struct vc_ctx *ctx, const char *name, const char *text,
				       size_t len)
{
	struct vc_variant *v = vc_variant_parse_yaml(ctx, name, text, len);
	if (!v)
		return NULL;
	if (vc_variant_compile(ctx, v) != 0) {
		vc_variant_free(v);
		return NULL;
	}
	/* the setup must read as a position of this variant */
	struct vc_position *p = vc_calloc(1, sizeof *p);
	if (!p) {
		vc_variant_free(v);
		return NULL;
	}
	p->v = v;
	vc_pos_clear(p);
	/* the piece that castles is the royal one; in a variant without one
	 * (giveaway), the piece on castling's king square in the setup: then
	 * the setup is read again, its rights belonging to that piece */
	v->castle_type = v->king_type;
	if (v->king_type < 0 && vc_position_set_fen(p, NULL, v->start_fen) == VC_OK &&
	    v->ncastle && v->castle_king >= 0 && p->board[v->castle_king]) {
		v->castle_type = vc_code_type(p->board[v->castle_king]);
		vc_pos_clear(p);
	}
	if (vc_position_set_fen(p, NULL, v->start_fen) != VC_OK) {
		struct vc_ctx *quiet = vc_ctx_new();
		vc_position_set_fen(p, quiet, v->start_fen);
		vc_emit(ctx, VC_SEV_ERROR, "variant-invalid", name, v->setup_line, v->setup_col, NULL,
			"setup: %s", quiet ? vc_ctx_last_message(quiet) : "bad position string");
		vc_ctx_free(quiet);
		vc_position_free(p);
		vc_variant_free(v);
		return NULL;
	}
	v->start_pos = p; /* freed by vc_variant_free */
	/* once the piece that castles is known: the bitboard core's tables, or
	 * NULL when the board and pieces do not fit them (attack tests and
	 * perft go the general way); perft takes them only when the variant's
	 * mechanics fit too.  Tables no mirror may read (first-move leaps) are
	 * kept as bb alone, and boards over 64 squares get the 128-bit build
	 * (bbw), without a mirror.  The start position built above gets its
	 * mirror. */
	struct vc_bb *tables = vc_ctx_bitboards(ctx) ? vc_bb_build(v) : NULL;
	v->bbm = vc_bb_mirrors(tables) ? tables : NULL;
	v->bb = tables && (vc_bb_serves_perft(tables) || !v->bbm) ? tables : NULL;
	v->bbw = vc_ctx_bitboards(ctx) && v->nsq > 64 ? vc_bbw_build(v) : NULL;
	/* the shapes serve where the tries would: boards the mirror does
	 * not take, and its types left out */
	v->shapes = vc_ctx_bitboards(ctx) ? vc_shapes_build(v) : NULL;
	v->bbout = vc_bb_outside(v->bbm, 0);
	v->bboutcap = vc_bb_outside(v->bbm, 1);
	if (v->bbm)
		vc_bb_sync(p);
	return v;
}

struct vc_variant *vc_variant_load_file(struct vc_ctx *ctx, const char *path)
{
	size_t len;
	char *text = vc_read_all(ctx, path, &len);
	if (!text)
		return NULL;
	struct vc_variant *v = vc_variant_load_mem(ctx, path, text, len);
	free(text);
	return v;
}

struct vc_variant *vc_variant_load(struct vc_ctx *ctx, const char *name_or_path)
{
	if (!name_or_path) {
		vc_emit(ctx, VC_SEV_ERROR, "variant-unknown", NULL, 0, 0, NULL, "no variant named");
		return NULL;
	}
	size_t n = strlen(name_or_path);
	if (strchr(name_or_path, '/') || (n > 5 && strcmp(name_or_path + n - 5, ".yaml") == 0) ||
	    (n > 4 && strcmp(name_or_path + n - 4, ".yml") == 0))
		return vc_variant_load_file(ctx, name_or_path);
	int i = vc_builtin_index(name_or_path);
	if (i < 0) {
		char hint[256];
		vc_builtin_hint(name_or_path, hint, sizeof hint);
		vc_emit(ctx, VC_SEV_ERROR, "variant-unknown", NULL, 0, 0, NULL,
			"unknown variant '%s'%s", name_or_path, hint);
		return NULL;
	}
	const struct vc_embedded *e = &vc_embedded_variants[i];
	char label[96];
	snprintf(label, sizeof label, "<built-in>/%s", e->file);
	return vc_variant_load_mem(ctx, label, e->text, e->len);
}

