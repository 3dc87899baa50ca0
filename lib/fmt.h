/*
 * fmt: escaping for the machine-readable outputs, in one place.
 */
#ifndef IOCENSUS_FMT_H
#define IOCENSUS_FMT_H

#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Errors are carried as text. A message that starts with FMT_USAGE was
 * caused by the request itself (an unknown snapshot id, a --host that
 * matches nothing): the command line turns it into exit status 2. */
#define FMT_USAGE "usage: "

/* The --format of every command that prints tables. */
enum fmt_kind { FMT_TABLE, FMT_CSV, FMT_JSON };

/* "table", "csv" or "json": 0 with *out set, or -1. */
int fmt_parse_kind(const char *s, enum fmt_kind *out);

/* RFC 4180: a field holding a comma, quote or line break is quoted, with
 * quotes doubled; anything else is written as is. */
void fmt_csv_str(FILE *f, const char *s);

/* A JSON string literal. Valid UTF-8 passes through; quotes and
 * backslashes are escaped, the control characters C0, DEL and C1 and the
 * invisible format characters fmt_term_str shows (bidirectional marks,
 * overrides and isolates, zero width space, tags) become \uXXXX, and a
 * byte that is not part of valid UTF-8 (names on Linux are bytes)
 * becomes \udcXX (Python's surrogateescape), so the output is always
 * valid JSON, holds none of them raw, and decodes to the exact name. */
void fmt_json_str(FILE *f, const char *s);

/* 1 when f writes to a terminal. CSV and JSON keep a name's exact bytes
 * for files and pipes; on a terminal each text goes through fmt_term_str
 * first (fmt_csv_cell, fmt_json_cell), so nothing raw reaches it. */
int fmt_is_term(FILE *f);

/* fmt_csv_str and fmt_json_str of s, or, when term (fmt_is_term of the
 * output), of fmt_term_str(s). */
void fmt_csv_cell(FILE *f, const char *s, int term);
void fmt_json_cell(FILE *f, const char *s, int term);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the byte at s
 * does not start one (invalid, overlong, surrogate, truncated). */
int fmt_utf8_len(const char *s);

/* Prometheus text exposition format: a label value (between the quotes
 * the caller writes) and a HELP text. The format escapes a backslash as
 * \\ and a newline as \n, and in a label value a quote as \"; it allows
 * UTF-8 only, so a byte that is not valid UTF-8 is written as the text
 * \xNN, as the tables show it. */
void fmt_prom_label(FILE *f, const char *s);
void fmt_prom_help(FILE *f, const char *s);

/* HTML text or a quoted attribute value: & < > " ' become entities; a
 * control character, a bidirectional or invisible format character (as
 * fmt_term_str lists them) or a byte that is not valid UTF-8 becomes the
 * visible text \xNN, one per byte, so the page is valid UTF-8 whatever
 * the names hold and shows each name in its order. */
void fmt_html_str(FILE *f, const char *s);

/* Text for a terminal (a table cell, a diagnostic, CSV or JSON written
 * to one): the one escaper of everything a terminal shows, as strvis(3).
 * The control characters C0, DEL and C1, the bidirectional and invisible
 * format characters (U+00AD, U+061C, U+180E, U+200B, U+200E-U+200F,
 * U+2028-U+202E, U+2060-U+206F, U+FEFF, U+FFF9-U+FFFB, U+E0000-U+E007F),
 * characters a terminal cannot print (code points without a glyph) and
 * bytes that are not valid UTF-8 become the visible text \xNN, one per
 * byte, and a backslash \\, so the text is valid UTF-8, one line, acts on
 * nothing, and tells every name apart. The result is allocated. */
char *fmt_term_str(const char *s);

/* The columns terminal text (as fmt_term_str makes it) takes on a
 * terminal: a wide character 2, a combining one 0. */
size_t fmt_term_width(const char *s);

/* Terminal text as lines of at most width columns, broken at spaces (a
 * word wider than a line is cut), each ended by a newline; width 0: one
 * line. */
void fmt_term_wrap(FILE *f, const char *s, size_t width);

/* The UTF-8 character type (C.UTF-8) in which the widths above are
 * counted, for uselocale(3) around other code that counts them (the
 * program itself stays in the "C" locale); (locale_t)0 when the system
 * has none, and then every character counts one column. */
locale_t fmt_term_locale(void);

/* One diagnostic line, "prog: MESSAGE", the message escaped as
 * fmt_term_str does: a file name holding a newline cannot start a line
 * that looks like another message. */
void fmt_diag(FILE *f, const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fmt_vdiag(FILE *f, const char *prog, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
