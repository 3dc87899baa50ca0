/*
 * cli_diag: the one way a message of iocensus reaches stderr
 * (cli_int.h), its names escaped by fmt_vdiag.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli_int.h"
#include "fmt.h"

void
cli_diag(const char *cmd, const char *fmt, ...)
{
	char prog[64];
	va_list ap;

	snprintf(prog, sizeof prog, "iocensus %s", cmd);
	va_start(ap, fmt);
	fmt_vdiag(stderr, prog, fmt, ap);
	va_end(ap);
}
