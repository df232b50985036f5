/*
 * rules/bitboard_wide.c - the bitboard core of bitboard.c over 128-bit
 * square sets, for boards of 65 to 128 squares (Capablanca's 10x8, grand
 * chess's 10x10, courier's 12x8, Jeson Mor's 9x9), as Fairy-Stockfish
 * does: the same source compiled again, its struct and entry points named
 * vc_bbw (vc_rules.h).  Perft, its last ply beside drops, and the mate
 * test; the attack tests and origins of the general way keep to the
 * paths and tries on such boards (no mirror is kept).
 */
#define VC_BB_WIDE 1
#include "bitboard.c"
