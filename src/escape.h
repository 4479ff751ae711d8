/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h - task names and file names are attacker-controlled: every byte that
 * reaches a terminal, a text report, JSON or CSV goes through one of these.
 */
#ifndef RQPATH_ESCAPE_H
#define RQPATH_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * C-style escape into buf: printable ASCII except backslash stays, everything else
 * (control bytes, bytes >= 0x7f, backslash) becomes \\, \n, \t or \xHH.
 * Always NUL-terminates; truncates at a whole escape.  Returns buf.
 */
char *rq_escape_c(const char *s, size_t len, char *buf, size_t size);
/*
 * Lighter: only control bytes, DEL and bytes that are not valid UTF-8 become \xHH;
 * text that is already escaped passes unchanged.  For messages to a terminal.
 */
char *rq_escape_controls(const char *s, char *buf, size_t size);
/* Reverse of rq_escape_c(); returns the number of bytes written (NUL-terminated). */
size_t rq_unescape_c(const char *s, char *buf, size_t size);
/*
 * Print s (len bytes) as a JSON string literal with quotes; always valid UTF-8.  The
 * decoded value is s with each backslash doubled and each byte that is not part of
 * valid UTF-8 written as \xHH: unambiguous, and valid UTF-8 names stay readable.
 */
void rq_json_string(FILE *f, const char *s, size_t len);
/*
 * Print s as one CSV field: rq_escape_c() first, then RFC 4180 quoting when needed;
 * a field that would start a spreadsheet formula (= + - @) is quoted and prefixed '.
 */
void rq_csv_field(FILE *f, const char *s, size_t len);

#endif
