/*
 * human: numbers, sizes, durations and dates as people read them. No
 * locale: digits are grouped with ',' and the decimal point is '.',
 * always; dates are UTC.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "human.h"
#include "i128.h"

/* Insert ',' every three digits of the integer part of the number in buf
 * (an optional '-', digits, an optional fraction), in place. */
static const char *
group_digits(char *buf, size_t len)
{
	size_t lead = buf[0] == '-';
	size_t nint = strspn(buf + lead, "0123456789");
	size_t ncomma = nint ? (nint - 1) / 3 : 0;
	size_t total = strlen(buf);

	if (ncomma == 0 || total + ncomma + 1 > len)
		return buf;
	/* Move from the end, so nothing is overwritten before it is read:
	 * first the fraction and the NUL, then the digits with commas. */
	memmove(buf + lead + nint + ncomma, buf + lead + nint,
	    total - lead - nint + 1);
	size_t dst = lead + nint + ncomma;
	for (size_t k = 0; k < nint; k++) {
		if (k && k % 3 == 0)
			buf[--dst] = ',';
		buf[--dst] = buf[lead + nint - 1 - k];
	}
	return buf;
}

const char *
human_int(int64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRId64, v);
	return group_digits(buf, len);
}

const char *
human_uint(uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, v);
	return group_digits(buf, len);
}

const char *
human_wide(i128 v, char *buf, size_t len)
{
	char t[I128_STRLEN];

	snprintf(buf, len, "%s", i128_str(v, t));
	return group_digits(buf, len);
}

const char *
human_real(double v, int decimals, char *buf, size_t len)
{
	if (decimals < 0)
		decimals = 0;
	/* Past 2^53 the digits are noise, and a far projection or a huge
	 * option value would print hundreds of them. */
	if (fabs(v) >= 1e15 && isfinite(v)) {
		snprintf(buf, len, "%.3e", v);
		return buf;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (strspn(buf, "-0.") == strlen(buf))
		snprintf(buf, len, "%.*f", decimals, 0.0);	/* no "-0.00" */
	return group_digits(buf, len);
}

static const char *const byte_unit[] = {
	"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
};

const char *
human_bytes_in(double v, int exp, int decimals, char *buf, size_t len)
{
	char num[64];

	human_real(v / ldexp(1, 10 * exp), exp ? decimals : 0, num,
	    sizeof num);
	snprintf(buf, len, "%s %s", num, byte_unit[exp]);
	return buf;
}

const char *
human_bytes(double v, int decimals, char *buf, size_t len)
{
	double mag = fabs(v);
	int exp = 0;

	if (decimals <= 0)
		decimals = 1;
	/* Step up while the value would print as 1024.0 or more. */
	while (exp < 6 && mag / ldexp(1, 10 * exp) >=
	    1024 - 0.5 * pow(10, exp ? -decimals : 0))
		exp++;
	return human_bytes_in(v, exp, decimals, buf, len);
}

const char *
human_duration(int64_t s, char *buf, size_t len)
{
	const char *sign = s < 0 ? "-" : "";
	uint64_t a = s < 0 ? -(uint64_t)s : (uint64_t)s;
	uint64_t d = a / 86400, h = a % 86400 / 3600, m = a % 3600 / 60,
	    sec = a % 60;

	if (a < 60)
		snprintf(buf, len, "%s%" PRIu64 " s", sign, sec);
	else if (a < 3600 && sec)
		snprintf(buf, len, "%s%" PRIu64 " min %" PRIu64 " s", sign, m,
		    sec);
	else if (a < 3600)
		snprintf(buf, len, "%s%" PRIu64 " min", sign, m);
	else if (a < 86400)
		snprintf(buf, len, "%s%" PRIu64 " h %" PRIu64 " min", sign, h,
		    m);
	else if (m)
		snprintf(buf, len, "%s%" PRIu64 " d %" PRIu64 " h %" PRIu64
		    " min", sign, d, h, m);
	else
		snprintf(buf, len, "%s%" PRIu64 " d %" PRIu64 " h", sign, d, h);
	return buf;
}

const char *
human_date(int64_t t, int with_time, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || tm.tm_year + 1900 > 9999 ||
	    tm.tm_year + 1900 < 0)
		snprintf(buf, len, "@%" PRId64, t);
	else if (with_time)
		snprintf(buf, len, "%04d-%02d-%02d %02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min);
	else
		snprintf(buf, len, "%04d-%02d-%02d", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday);
	return buf;
}
