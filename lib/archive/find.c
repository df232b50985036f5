/*
 * archive/find.c - one game of an archive, by its number: what a program
 * that shows a game asks for first.
 *
 * Model: an archive is read as a stream (vc_reader), so the game numbered
 * N is found by reading the games before it; they are not replayed.
 */
#include "archive/vc_archive.h"

vc_status vc_reader_find(struct vc_reader *r, struct vc_game *g, long number, long *read)
{
	vc_status s;
	long n = 0;
	while ((s = vc_reader_next(r, g)) == VC_OK) {
		n++;
		if (vc_game_number(g) == number)
			break;
	}
	if (read)
		*read = n;
	return s;
}
