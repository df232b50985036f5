/*
 * archive/xml_common.c - what the XML writer, the XML reader and the JSON
 * writer share: the escape that lets XML (and JSON) values hold any bytes,
 * and libxml2's global state (kept quiet, set up once).
 *
 * Bytes: XML holds only Unicode characters, and games hold bytes.  A value
 * that is not all XML characters in UTF-8 is written in an escaped form
 * (a backslash as "\\", each byte that cannot stand as "\xNN") and named
 * in the element's esc attribute, so that reading restores the exact
 * bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

#include "archive/vc_archive.h"

/* ==== the byte escape =================================================== */

/* Length of the XML character (UTF-8) at s, or 0 when the byte at s cannot
 * stand in XML: a control other than tab and line ends, a byte of a
 * malformed, overlong or surrogate sequence, or U+FFFE and U+FFFF. */
size_t vc_xml_char(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
	size_t k;
	unsigned cp;
	if (c >= 0xC2 && c <= 0xDF) {
		k = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		k = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		k = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return k;
}

/* Nonzero when s[0, n) cannot be written as it is. */
int vc_esc_needed(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] >= 0x20 && p[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = vc_xml_char(p + i, n - i);
		if (!k)
			return 1;
		i += k;
	}
	return 0;
}

void vc_esc_encode(struct vc_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] == '\\') {
			vc_buf_add(b, "\\\\", 2);
			i++;
			continue;
		}
		size_t k = vc_xml_char(p + i, n - i);
		if (!k) {
			vc_buf_printf(b, "\\x%02X", p[i]);
			i++;
		} else {
			vc_buf_add(b, s + i, k);
			i += k;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The inverse of vc_esc_encode; a backslash before anything else is kept,
 * and so is "\x00": no reader gives a game a NUL byte (the text reader
 * stops at one), values are C strings to some of the library, and the
 * text writer would write it as it is.  Returns the number of "\x00" kept. */
int vc_esc_decode(struct vc_buf *b, const char *s, size_t n)
{
	int nul = 0;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
			vc_buf_addc(b, '\\');
			i++;
		} else if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
			   (hi = hexval(s[i + 2])) >= 0 && (lo = hexval(s[i + 3])) >= 0 &&
			   (hi | lo)) {
			vc_buf_addc(b, (char)(hi << 4 | lo));
			i += 3;
		} else {
			nul += s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && s[i + 2] == '0' &&
			       s[i + 3] == '0';
			vc_buf_addc(b, s[i]);
		}
	}
	return nul;
}

/* ==== keeping libxml2 quiet ============================================= */

/* libxml2 reports some errors through its global (per-thread) handlers,
 * which print by default; the library must not print, so they are made
 * silent while libxml2 works for us, and restored afterwards. */
static void silent_generic(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void silent_structured(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

void vc_xml_quiet_on(struct vc_xml_quiet *q)
{
	q->gen = (void *)xmlGenericError;
	q->genctx = xmlGenericErrorContext;
	q->st = (void *)xmlStructuredError;
	q->stctx = xmlStructuredErrorContext;
	xmlSetGenericErrorFunc(NULL, silent_generic);
	xmlSetStructuredErrorFunc(NULL, silent_structured);
}

void vc_xml_quiet_off(const struct vc_xml_quiet *q)
{
	xmlSetGenericErrorFunc(q->genctx, (xmlGenericErrorFunc)q->gen);
	xmlSetStructuredErrorFunc(q->stctx, (xmlStructuredErrorFunc)q->st);
}

/* libxml2 sets up its globals on first use, which is not safe from several
 * threads at once; readers and writers are opened in the caller's thread
 * before any worker writes XML (vc_parallel_each), so they set it up. */
void vc_xml_global_init(void)
{
	xmlInitParser();
}

