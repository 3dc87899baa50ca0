#include "fmt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

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

/* The code point of the valid UTF-8 sequence of n bytes at s. */
static unsigned
utf8_cp(const char *s, int n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp = n == 1 ? p[0] : p[0] & (0x7f >> n);

	for (int i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	return cp;
}

/* The characters that act rather than show, or show as nothing: C0,
 * DEL and C1 controls (ESC, CSI, OSC, NEL), the bidirectional marks,
 * embeddings, overrides and isolates that reorder what follows, and the
 * invisible format characters that make two names look alike or hide
 * text (zero width space, word joiner, tags). Joiners U+200C and U+200D
 * stay: scripts and emoji need them, and they move nothing. */
static int
hidden_cp(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    cp == 0xad ||			/* soft hyphen */
	    cp == 0x61c ||			/* Arabic letter mark */
	    cp == 0x180e ||			/* Mongolian vowel sep. */
	    cp == 0x200b ||			/* zero width space */
	    (cp >= 0x200e && cp <= 0x200f) ||	/* LRM, RLM */
	    (cp >= 0x2028 && cp <= 0x202e) ||	/* line and paragraph
						 * separators, embeddings
						 * and overrides */
	    (cp >= 0x2060 && cp <= 0x206f) ||	/* word joiner, invisible
						 * operators, isolates,
						 * deprecated formats */
	    cp == 0xfeff ||			/* zero width no-break sp. */
	    (cp >= 0xfff9 && cp <= 0xfffb) ||	/* interlinear annotations */
	    (cp >= 0xe0000 && cp <= 0xe007f);	/* tags */
}

/* A code point as JSON's \uXXXX, past the BMP as a surrogate pair. */
static void
json_u(FILE *f, unsigned cp)
{
	if (cp > 0xffff) {
		cp -= 0x10000;
		fprintf(f, "\\u%04x\\u%04x", 0xd800 + (cp >> 10),
		    0xdc00 + (cp & 0x3ff));
	} else
		fprintf(f, "\\u%04x", cp);
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
		else if (n == 0)	/* Python's surrogateescape: reversible,
					 * and never taken for U+0080..U+00FF */
			fprintf(f, "\\udc%02x", *p);
		else if (hidden_cp(utf8_cp((const char *)p, n))) {
			/* Escaped, not dropped: the text decodes to the
			 * same name, and a terminal or viewer that shows
			 * the raw document sees none of them act. */
			json_u(f, utf8_cp((const char *)p, n));
			p += n;
			continue;
		} else {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		p++;
	}
	putc('"', f);
}

int
fmt_is_term(FILE *f)
{
	int fd = fileno(f);

	return fd >= 0 && isatty(fd);
}

void
fmt_csv_cell(FILE *f, const char *s, int term)
{
	char *t;

	if (!term) {
		fmt_csv_str(f, s);
		return;
	}
	t = fmt_term_str(s);
	fmt_csv_str(f, t);
	free(t);
}

void
fmt_json_cell(FILE *f, const char *s, int term)
{
	char *t;

	if (!term) {
		fmt_json_str(f, s);
		return;
	}
	t = fmt_term_str(s);
	fmt_json_str(f, t);
	free(t);
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
 * bytes, control characters and the format characters that reorder or
 * hide text (hidden_cp: a name "bidi<U+202E>txt.exe" must not read as
 * "bidiexe.txt" on the page) are shown as \xNN text, one per byte, so
 * the page stays valid UTF-8 and a name's odd bytes remain visible; a backslash is shown
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
			if (n == 0)
				fprintf(f, "\\x%02x", *p);
			else if (hidden_cp(utf8_cp((const char *)p, n))) {
				for (int i = 0; i < n; i++)
					fprintf(f, "\\x%02x", p[i]);
				p += n;
				continue;
			} else {
				fwrite(p, 1, (size_t)n, f);
				p += n;
				continue;
			}
		}
		p++;
	}
}

static locale_t utf8;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

/* C.UTF-8 is built into glibc since 2.35; elsewhere it may be missing,
 * and a character then counts one column. Made once, kept to the end. */
static void
utf8_make(void)
{
	utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

locale_t
fmt_term_locale(void)
{
	pthread_once(&utf8_once, utf8_make);
	return utf8;
}

/* The columns the UTF-8 character at s (n bytes) takes on a terminal,
 * or -1 when a terminal cannot print it (a C1 control, a code point
 * without a glyph): such a character is shown as \xNN. The program's
 * own locale stays "C": only this thread, only here, reads UTF-8. */
static int
char_width(const char *s, int n)
{
	locale_t l = fmt_term_locale(), old;
	mbstate_t st;
	wchar_t wc;
	int w = 1;

	if (n == 1 || !l)
		return 1;
	old = uselocale(l);
	memset(&st, 0, sizeof st);
	if (mbrtowc(&wc, s, (size_t)n, &st) == (size_t)n)
		w = wcwidth(wc);
	uselocale(old);
	return w;
}

/* As strvis(3) does: the control characters C0, DEL and C1, the invisible
 * format characters that reorder or hide text (hidden_cp), characters a
 * terminal cannot print and invalid UTF-8 bytes as visible \xNN, one per
 * byte, so a name cannot move the cursor, write the clipboard, retitle
 * the window, break a row or forge a line, nor show bidi<U+202E>txt.exe
 * as "bidiexe.txt"; a backslash as \\, so that two names never print
 * alike. */
char *
fmt_term_str(const char *s)
{
	char *out = xreallocarray(NULL, strlen(s) + 1, 4), *o = out;

	while (*s) {
		int n = fmt_utf8_len(s);

		if (n == 0 || hidden_cp(utf8_cp(s, n)) ||
		    char_width(s, n) < 0) {
			for (int i = 0; i < (n ? n : 1); i++)
				o += sprintf(o, "\\x%02x",
				    (unsigned char)*s++);
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

size_t
fmt_term_width(const char *s)
{
	size_t w = 0;

	while (*s) {
		int n = fmt_utf8_len(s), cw;

		n = n ? n : 1;
		cw = char_width(s, n);
		w += cw > 0 ? (size_t)cw : 0;
		s += n;
	}
	return w;
}

/* The bytes of s that fit in width columns (force: at least one
 * character); *wp: the columns they take. */
static size_t
fit_prefix(const char *s, size_t width, int force, size_t *wp)
{
	size_t len = 0, w = 0;

	while (s[len]) {
		int n = fmt_utf8_len(s + len), cw;

		n = n ? n : 1;
		cw = char_width(s + len, n);
		if ((len || !force) && w + (size_t)(cw > 0 ? cw : 0) > width)
			break;
		w += (size_t)(cw > 0 ? cw : 0);
		len += (size_t)n;
	}
	*wp = w;
	return len;
}

/* Greedy: as many words on a line as fit; a word wider than the line is
 * cut where the line ends, and goes on on the next. */
void
fmt_term_wrap(FILE *f, const char *s, size_t width)
{
	size_t col = 0;

	if (width == 0) {
		fprintf(f, "%s\n", s);
		return;
	}
	while (*s == ' ')
		s++;
	while (*s) {
		size_t len = strcspn(s, " "), n, w;
		char *word = xstrndup(s, len);
		size_t ww = fmt_term_width(word);

		if (col && col + 1 + ww > width) {
			putc('\n', f);
			col = 0;
		} else if (col) {
			putc(' ', f);
			col++;
		}
		for (size_t off = 0; off < len; off += n) {
			n = fit_prefix(word + off, width - col, col == 0, &w);
			if (n == 0) {
				putc('\n', f);
				col = 0;
				continue;
			}
			fwrite(word + off, 1, n, f);
			col += w;
		}
		free(word);
		s += len;
		while (*s == ' ')
			s++;
	}
	putc('\n', f);
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
