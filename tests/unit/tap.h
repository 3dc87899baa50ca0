/*
 * tap.h: the tiny test protocol of tests/run for C unit tests.
 *
 * Each check prints "ok - NAME" or "not ok - NAME: why" on one line; names
 * are printf formats. Diagnostics that need more room go to lines starting
 * with "# ", which tests/run ignores. main() ends with "return tap_end();".
 * Checks that cannot run here say so once per section with tap_skip(),
 * "ok - NAME # SKIP why (needs WHAT)", which tests/run counts as a skip,
 * never as a pass (the protocol is described in tests/lib/tap.py).
 *
 *	ok(x > 0, "x positive");
 *	is_i64(hist_slot(HS_SIZE, 2048), 2, "size slot of %d", 2048);
 *	is_str(buf, want, "file size section");
 *	ok_why(n == 3, "counted twice", "entries of %s", dir);
 *	tap_skip("chown needs root", "root", "links of another user");
 */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_failures;

/* Print the result line; why is used only on failure. */
static inline int
tap_vresult(int pass, const char *why, const char *name, va_list ap)
{
	printf(pass ? "ok - " : "not ok - ");
	vprintf(name, ap);
	if (!pass) {
		printf(": %s", why);
		tap_failures++;
	}
	printf("\n");
	fflush(stdout);
	return pass;
}

static inline int ok(int pass, const char *name, ...)
    __attribute__((format(printf, 2, 3)));
static inline int
ok(int pass, const char *name, ...)
{
	va_list ap;
	int r;

	va_start(ap, name);
	r = tap_vresult(pass, "check failed", name, ap);
	va_end(ap);
	return r;
}

/* Like ok(), with the reason to print on failure. */
static inline int ok_why(int pass, const char *why, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
static inline int
ok_why(int pass, const char *why, const char *name, ...)
{
	va_list ap;
	int r;

	va_start(ap, name);
	r = tap_vresult(pass, why, name, ap);
	va_end(ap);
	return r;
}

/*
 * Say that the checks NAME did not run: why, and needs, what they lacked
 * (a command, a Debian package, "root"), or NULL when nothing that could
 * be installed would have let them run.
 */
static inline void tap_skip(const char *why, const char *needs,
    const char *name, ...) __attribute__((format(printf, 3, 4)));
static inline void
tap_skip(const char *why, const char *needs, const char *name, ...)
{
	va_list ap;

	printf("ok - ");
	va_start(ap, name);
	vprintf(name, ap);
	va_end(ap);
	printf(" # SKIP %s", why);
	if (needs != NULL)
		printf(" (needs %s)", needs);
	printf("\n");
	fflush(stdout);
}

static inline int is_i64(int64_t got, int64_t want, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
static inline int
is_i64(int64_t got, int64_t want, const char *name, ...)
{
	char why[96];
	va_list ap;
	int r;

	snprintf(why, sizeof why, "got %" PRId64 ", want %" PRId64, got, want);
	va_start(ap, name);
	r = tap_vresult(got == want, why, name, ap);
	va_end(ap);
	return r;
}

static inline int is_u64(uint64_t got, uint64_t want, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
static inline int
is_u64(uint64_t got, uint64_t want, const char *name, ...)
{
	char why[96];
	va_list ap;
	int r;

	snprintf(why, sizeof why, "got %" PRIu64 ", want %" PRIu64, got, want);
	va_start(ap, name);
	r = tap_vresult(got == want, why, name, ap);
	va_end(ap);
	return r;
}

/* Print a text as "# " lines, so a multi-line mismatch can be read. */
static inline void
tap_diag_text(const char *label, const char *s)
{
	printf("# %s:\n# ", label);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n')
			fputs("# ", stdout);
	}
	printf("\n");
}

/* Compare texts; on failure name the first differing line. */
static inline int is_str(const char *got, const char *want, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
static inline int
is_str(const char *got, const char *want, const char *name, ...)
{
	char why[256];
	va_list ap;
	int r, line = 1;
	size_t i = 0, bol = 0;

	if (got == NULL)
		got = "(null)";
	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			bol = i + 1;
		}
		i++;
	}
	r = got[i] == want[i];
	snprintf(why, sizeof why, "line %d differs: got \"%.*s\", want \"%.*s\"",
	    line, (int)strcspn(got + bol, "\n"), got + bol,
	    (int)strcspn(want + bol, "\n"), want + bol);
	va_start(ap, name);
	r = tap_vresult(r, why, name, ap);
	va_end(ap);
	if (!r) {
		tap_diag_text("got", got);
		tap_diag_text("want", want);
	}
	return r;
}

/* Exit status for main: non-zero when any check failed. */
static inline int
tap_end(void)
{
	return tap_failures ? 1 : 0;
}

#endif
