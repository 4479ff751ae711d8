/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h - task names and file names are attacker-controlled: every byte that
 * reaches a terminal, a text report, JSON or CSV goes through one of these.
 */
#ifndef RQPATH_ESCAPE_H
#define RQPATH_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * C-style escape into buf: printable ASCII except backslash stays, everything else
 * (control bytes, bytes >= 0x7f, backslash) becomes \\, \n, \t or \xHH.
 * Always NUL-terminates; truncates at a whole escape.  Returns buf.
 */
char *rq_escape_c(const char *s, size_t len, char *buf, size_t size);
/*
 * Lighter: control bytes, DEL and bytes that are not valid UTF-8 become \xHH, and
 * the characters that are controls or reorder text in UTF-8 (C1 U+0080-U+009F,
 * bidi and line separators, see rq_unsafe_codepoint()) become \uXXXX; other text,
 * and text already escaped, passes unchanged.  For messages to a terminal.
 */
char *rq_escape_controls(const char *s, char *buf, size_t size);
/*
 * A character that must not reach a terminal or a reader raw even as valid UTF-8:
 * C1 controls, the Arabic letter mark, zero-width and direction marks, line and
 * paragraph separators, bidi embeddings/overrides/isolates, BOM, annotations, and the
 * invisible ones (soft hyphen, grapheme joiner, Hangul fillers, Mongolian selectors,
 * tags): each can reorder, hide or fake text.
 */
bool rq_unsafe_codepoint(unsigned int cp);
/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if it is not one. */
size_t rq_utf8_len(const unsigned char *s, size_t n);
/* The code point of the valid UTF-8 sequence of n bytes at s (rq_utf8_len()). */
unsigned int rq_utf8_cp(const unsigned char *s, size_t n);
/* A code point as \uXXXX (\UXXXXXXXX past U+FFFF) into out; returns its length. */
int rq_escape_cp(unsigned int cp, char out[11]);
/* Reverse of rq_escape_c(); returns the number of bytes written (NUL-terminated). */
size_t rq_unescape_c(const char *s, char *buf, size_t size);
/*
 * Print s (len bytes) as a JSON string literal with quotes; always valid UTF-8.  The
 * decoded value is s with each backslash doubled and each byte that is not part of
 * valid UTF-8 written as \xHH: unambiguous, and valid UTF-8 names stay readable.
 * Control characters, C1 controls and bidi/line separators are \u escapes.
 */
void rq_json_string(FILE *f, const char *s, size_t len);
/*
 * Print s as one CSV field: rq_escape_c() first, then RFC 4180 quoting when needed;
 * a field that would start a spreadsheet formula (= + - @) is quoted and prefixed '.
 */
void rq_csv_field(FILE *f, const char *s, size_t len);

/*
 * Text for HTML: control bytes and non-ASCII escaped as in the text report (so the
 * buffer is cut at 2 KiB), then & < > " ' as entities.
 */
void rq_html_text(FILE *f, const char *s, size_t len);

/* Whether s is a decimal number: one digit at least and nothing else (a pid's name). */
bool rq_is_decimal(const char *s);

#endif
