/*
 * projerr: the one way the rule parsers (projparse.c, projmap.c) report
 * an error: a message in the caller's buffer, which may be absent.
 */
#include <stdarg.h>
#include <stdio.h>

#include "project_int.h"

void
projerr_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
