/*
 * geometry.c - squares and vectors on rectangular boards of 1x1 up to
 * 26x26.  A square is rank * files + file, files named a..z from White's
 * left and ranks numbered 1.. from White's side.  Vectors are (x, y) with
 * y pointing towards Black; the eight symmetries of the square lattice give
 * the images of a vector, deduplicated so that (1, 0) has four images and
 * (1, 2) eight.
 */
#include <ctype.h>
#include <string.h>

#include "rules/vc_rules.h"

int vc_vec_images(int x, int y, int8_t out[8][2])
{
	int n = 0;
	int cand[8][2] = { { x, y },   { -x, y },  { x, -y },  { -x, -y },
			   { y, x },   { -y, x },  { y, -x },  { -y, -x } };
	for (int i = 0; i < 8; i++) {
		int dup = 0;
		for (int j = 0; j < n; j++)
			if (out[j][0] == cand[i][0] && out[j][1] == cand[i][1])
				dup = 1;
		if (!dup) {
			out[n][0] = (int8_t)cand[i][0];
			out[n][1] = (int8_t)cand[i][1];
			n++;
		}
	}
	return n;
}

int vc_vec_dir(int side, int y)
{
	if (side == VC_BLACK)
		y = -y;
	return y > 0 ? VC_DIR_FORWARD : y < 0 ? VC_DIR_BACKWARD : VC_DIR_SIDEWAYS;
}

int vc_square_name(const struct vc_variant *v, int sq, char *buf)
{
	if (sq < 0 || sq >= v->nsq) {
		strcpy(buf, "-");
		return 1;
	}
	int f = sq % v->files, r = sq / v->files + 1;
	int n = 0;
	buf[n++] = (char)('a' + f);
	if (r >= 10)
		buf[n++] = (char)('0' + r / 10);
	buf[n++] = (char)('0' + r % 10);
	buf[n] = 0;
	return n;
}

/* Reads a file letter (or the variant's alias for one), then a rank
 * number without leading zero.  Longest rank that fits the board wins, so
 * "a16" is a16 on a 16-rank board and a1 followed by "6" on an 8-rank one. */
int vc_square_parse(const struct vc_variant *v, const char *s, int *used)
{
	int f = -1;
	unsigned char c = (unsigned char)s[0];
	if (c >= 'a' && c <= 'z' && c - 'a' < v->files)
		f = c - 'a';
	else if (c && c < 128 && isalpha(c)) {
		for (int i = 0; i < v->files; i++)
			if (v->file_alias[i] == (char)c)
				f = i;
	}
	if (f < 0 || !isdigit((unsigned char)s[1]) || s[1] == '0')
		return -1;
	int r = s[1] - '0', n = 2;
	if (isdigit((unsigned char)s[2]) && r * 10 + (s[2] - '0') <= v->ranks) {
		r = r * 10 + (s[2] - '0');
		n = 3;
	}
	if (r > v->ranks)
		return -1;
	if (used)
		*used = n;
	return (r - 1) * v->files + f;
}
