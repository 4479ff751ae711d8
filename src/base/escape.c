// SPDX-License-Identifier: GPL-2.0
/*
 * escape.c - make attacker-controlled strings (task names, file names) inert in
 * every output: terminals, text reports, JSON and CSV.
 */
#include <stdbool.h>
#include <string.h>

#include "escape.h"

static const char hexdigits[] = "0123456789abcdef";

static int escape_one(unsigned char c, char out[5])
{
	switch (c) {
	case '\\': memcpy(out, "\\\\", 2); return 2;
	case '\n': memcpy(out, "\\n", 2); return 2;
	case '\t': memcpy(out, "\\t", 2); return 2;
	case '\r': memcpy(out, "\\r", 2); return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hexdigits[c >> 4];
	out[3] = hexdigits[c & 0xf];
	return 4;
}

char *rq_escape_c(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	if (!size)
		return buf;
	for (size_t i = 0; s && i < len && s[i]; i++) {
		char tmp[5];
		int n = escape_one((unsigned char)s[i], tmp);

		if (o + (size_t)n >= size)
			break;
		memcpy(buf + o, tmp, (size_t)n);
		o += (size_t)n;
	}
	buf[o] = '\0';
	return buf;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t rq_unescape_c(const char *s, char *buf, size_t size)
{
	size_t o = 0;

	if (!size)
		return 0;
	while (*s && o + 1 < size) {
		char c = *s++;

		if (c == '\\' && *s) {
			char e = *s++;

			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'x':
				if (hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
					c = (char)(hexval(s[0]) << 4 | hexval(s[1]));
					s += 2;
				} else {
					c = 'x';
				}
				break;
			default: c = e; break;
			}
		}
		buf[o++] = c;
	}
	buf[o] = '\0';
	return o;
}

size_t rq_utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		need = 2; cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 3; cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 4; cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (need > n)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* reject overlong forms, surrogates and values past U+10FFFF */
	if ((need == 2 && cp < 0x80) || (need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return need;
}

unsigned int rq_utf8_cp(const unsigned char *s, size_t n)
{
	unsigned int cp = n == 1 ? s[0] : n == 2 ? s[0] & 0x1f : n == 3 ? s[0] & 0x0f : s[0] & 0x07;

	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

bool rq_unsafe_codepoint(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||		/* C1 controls (U+009B is CSI) */
	       cp == 0x061c ||				/* Arabic letter mark */
	       (cp >= 0x200b && cp <= 0x200f) ||	/* zero width, LRM, RLM */
	       (cp >= 0x2028 && cp <= 0x202e) ||	/* line/paragraph separators, bidi */
	       (cp >= 0x2060 && cp <= 0x2069) ||	/* invisible operators, bidi isolates */
	       cp == 0xfeff ||				/* zero width no-break space */
	       (cp >= 0xfff9 && cp <= 0xfffb) ||	/* interlinear annotations */
	       /* invisible, so a name can hide text in them or look like another */
	       cp == 0x00ad || cp == 0x034f ||		/* soft hyphen, grapheme joiner */
	       cp == 0x115f || cp == 0x1160 ||		/* Hangul fillers */
	       cp == 0x3164 || cp == 0xffa0 ||
	       (cp >= 0x180b && cp <= 0x180f) ||	/* Mongolian selectors, separator */
	       (cp >= 0xe0000 && cp <= 0xe007f);	/* tags ("ASCII smuggling") */
}

int rq_escape_cp(unsigned int cp, char out[11])
{
	return sprintf(out, cp > 0xffff ? "\\U%08x" : "\\u%04x", cp);
}

void rq_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', f);
	for (size_t i = 0; s && i < len && u[i];) {
		unsigned char c = u[i];
		size_t n;

		if (c == '"') {
			fputs("\\\"", f);
			i++;
			continue;
		}
		if (c == '\\') {
			/* doubled, so that the \\xHH of an invalid byte cannot be forged */
			fputs("\\\\\\\\", f);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		n = rq_utf8_len(u + i, len - i);
		if (!n) {
			/* invalid UTF-8: keep the byte visible, as U+FFFD would lose it */
			fprintf(f, "\\\\x%02x", c);
			i++;
			continue;
		}
		if (n > 1 && rq_unsafe_codepoint(rq_utf8_cp(u + i, n))) {
			unsigned int cp = rq_utf8_cp(u + i, n);

			/* the same character for a JSON parser, inert on a terminal */
			if (cp > 0xffff)	/* JSON's \u is UTF-16: a surrogate pair */
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
					0xdc00 + ((cp - 0x10000) & 0x3ff));
			else
				fprintf(f, "\\u%04x", cp);
			i += n;
			continue;
		}
		fwrite(u + i, 1, n, f);
		i += n;
	}
	fputc('"', f);
}

void rq_csv_field(FILE *f, const char *s, size_t len)
{
	char buf[1024];
	bool formula;

	/* control bytes and non-ASCII are escaped first, then RFC 4180 quoting */
	rq_escape_c(s, len, buf, sizeof(buf));
	/* a spreadsheet evaluates a cell starting with = + - @ even when quoted */
	formula = buf[0] == '=' || buf[0] == '+' || buf[0] == '-' || buf[0] == '@';
	if (!formula && !strpbrk(buf, ",\"") && buf[0] != ' ') {
		fputs(buf, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (char *p = buf; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

char *rq_escape_controls(const char *s, char *buf, size_t size)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;

	if (!size)
		return buf;
	for (size_t i = 0; i < len;) {
		size_t n = (u[i] < 0x20 || u[i] == 0x7f) ? 0 : rq_utf8_len(u + i, len - i);

		if (n > 1 && rq_unsafe_codepoint(rq_utf8_cp(u + i, n))) {
			if (o + 10 >= size)
				break;
			o += (size_t)rq_escape_cp(rq_utf8_cp(u + i, n), buf + o);
			i += n;
			continue;
		}
		if (n) {
			if (o + n >= size)
				break;
			memcpy(buf + o, u + i, n);
			o += n;
			i += n;
			continue;
		}
		if (o + 4 >= size)
			break;
		buf[o++] = '\\';
		buf[o++] = 'x';
		buf[o++] = hexdigits[u[i] >> 4];
		buf[o++] = hexdigits[u[i] & 0xf];
		i++;
	}
	buf[o] = '\0';
	return buf;
}

void rq_html_text(FILE *f, const char *s, size_t len)
{
	char buf[2048];

	rq_escape_c(s, len, buf, sizeof(buf));
	for (const char *c = buf; *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*c, f); break;
		}
	}
}

bool rq_is_decimal(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}
