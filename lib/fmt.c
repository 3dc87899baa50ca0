#include "fmt.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int
fmt_parse_kind(const char *s, enum fmt_kind *out)
{
	static const char *const names[] = { "table", "csv", "json" };

	for (int k = 0; k < 3; k++)
		if (!strcmp(s, names[k])) {
			*out = (enum fmt_kind)k;
			return 0;
		}
	return -1;
}

void
fmt_csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if it is not one. */
int
fmt_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void
fmt_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', f);
	while (*p) {
		int n = fmt_utf8_len((const char *)p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (n == 0)	/* Python's surrogateescape: reversible,
					 * and never taken for U+0080..U+00FF */
			fprintf(f, "\\udc%02x", *p);
		else {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		p++;
	}
	putc('"', f);
}

/* The exposition format's escapes; in_label: a quote too. */
static void
prom_str(FILE *f, const char *s, int in_label)
{
	while (*s) {
		int n = fmt_utf8_len(s);

		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && in_label)
			fputs("\\\"", f);
		else if (n == 0)	/* the text \xNN, its backslash escaped */
			fprintf(f, "\\\\x%02x", (unsigned char)*s);
		else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		s++;
	}
}

void
fmt_prom_label(FILE *f, const char *s)
{
	prom_str(f, s, 1);
}

void
fmt_prom_help(FILE *f, const char *s)
{
	prom_str(f, s, 0);
}

/* Escape for HTML text and quoted attribute values alike. Invalid UTF-8
 * bytes and control characters are shown as \xNN text, so the page stays
 * valid UTF-8 and a name's odd bytes remain visible; a backslash is shown
 * as \\, so that the text still tells every name apart. */
void
fmt_html_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = fmt_utf8_len((const char *)p);

		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\\': fputs("\\\\", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f || n == 0)
				fprintf(f, "\\x%02x", *p);
			else {
				fwrite(p, 1, (size_t)n, f);
				p += n;
				continue;
			}
		}
		p++;
	}
}

/* Control characters and invalid UTF-8 bytes as visible \xNN, so a file
 * name cannot move the cursor, break a row or forge a line, and a
 * backslash as \\, so that two names never print alike. */
char *
fmt_term_str(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 1), *o = out;

	while (*s) {
		int n = fmt_utf8_len(s);

		if (n == 0 || (unsigned char)*s < 0x20 || *s == 0x7f) {
			o += sprintf(o, "\\x%02x", (unsigned char)*s++);
			continue;
		}
		if (*s == '\\') {
			*o++ = '\\';
			*o++ = *s++;
			continue;
		}
		memcpy(o, s, (size_t)n);
		o += n, s += n;
	}
	*o = 0;
	return out;
}

void
fmt_vdiag(FILE *f, const char *prog, const char *fmt, va_list ap)
{
	char *msg = NULL, *t;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fprintf(f, "%s: out of memory\n", prog);
		return;
	}
	t = fmt_term_str(msg);
	fprintf(f, "%s: %s\n", prog, t);
	free(t);
	free(msg);
}

void
fmt_diag(FILE *f, const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vdiag(f, prog, fmt, ap);
	va_end(ap);
}
