/*
 * result_text: a cell, a column's unit and a value as people read them,
 * the one place a cell becomes human text (tables, HTML, plot axes, and
 * the sentences of notes), built on lib/human.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "human.h"
#include "result.h"

/* Reals that stand for whole seconds: floor, inside int64_t. */
static int64_t
whole_seconds(double v)
{
	v = floor(v);
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN + 1;
	return (int64_t)v;
}

const char *
result_text_value(const struct rcol *c, double v, char *buf, size_t len)
{
	switch (c->fmt) {
	case CF_DATE:
	case CF_TIME:
		return human_date(whole_seconds(v), c->fmt == CF_TIME, buf,
		    len);
	case CF_PCT:
		return human_real(v * 100, c->decimals, buf, len);
	case CF_BYTES:
		return human_bytes(v, c->decimals, buf, len);
	case CF_DURATION:
		return human_duration(whole_seconds(v + 0.5), buf, len);
	case CF_MINUTES:
		return human_duration(whole_seconds(v * 60 + 0.5), buf, len);
	case CF_BOOL:
		return v != 0 ? "yes" : "no";
	default:
		if (v == floor(v) && fabs(v) < 9e15)
			return human_int((int64_t)v, buf, len);
		return human_real(v, c->decimals, buf, len);
	}
}

/* Whether a word of the title starts with what the unit counts: the
 * unit's last part ("device-samples": samples), abbreviations written
 * out, without a plural s. */
static int
title_names_unit(const char *title, const char *unit)
{
	static const char *const abbr[][2] = { { "min", "minute" },
	    { "h", "hour" }, { "s", "second" }, { "dirs", "director" } };
	const char *u = strrchr(unit, '-') ? strrchr(unit, '-') + 1 : unit;
	size_t n;

	for (size_t i = 0; i < sizeof abbr / sizeof *abbr; i++)
		if (!strcmp(u, abbr[i][0]))
			u = abbr[i][1];
	n = strlen(u);
	/* a plural's s, not an abbreviation's ("ms" is not "m") */
	if (n > 2 && u[n - 1] == 's')
		n--;
	for (const char *w = title; *w; w++)
		if ((w == title || w[-1] == ' ' || w[-1] == '-') &&
		    !strncasecmp(w, u, n))
			return 1;
	return 0;
}

/* Does the title already say a rate "A/B": written so, or naming A and
 * "per B" ("Files per day" for files/day)? */
static int
title_names_rate(const char *title, const char *unit, const char *per)
{
	char a[64], pb[64];

	if (strstr(title, unit))
		return 1;
	if ((size_t)(per - unit) >= sizeof a)
		return 0;
	snprintf(a, sizeof a, "%.*s", (int)(per - unit), unit);
	snprintf(pb, sizeof pb, "per %s", per + 1);
	return title_names_unit(title, a) && strstr(title, pb) != NULL;
}

const char *
result_text_unit(const struct rcol *c, char *buf, size_t len)
{
	const char *per = c->unit ? strchr(c->unit, '/') : NULL;

	switch (c->fmt) {
	case CF_PLAIN:
		if (c->unit && per)
			return title_names_rate(c->title, c->unit, per) ? NULL :
			    c->unit;
		return c->unit && title_names_unit(c->title, c->unit) ? NULL :
		    c->unit;
	case CF_PCT:
		return "%";
	default:
		if (!per)
			return NULL;
		snprintf(buf, len, "per %s", per + 1);
		return strstr(c->title, buf) ? NULL : buf;
	}
}

const char *
result_text_cell(const struct rtable *t, size_t row, int col, char *buf,
    size_t len)
{
	const struct cell *cl = result_cell(t, row, col);
	const struct rcol *c = &t->col[col];

	switch (cl->kind) {
	case CK_NULL:
		return c->dash ? "-" : "n/a";
	case CK_TEXT:
		return cl->v.s;
	case CK_INT:
		if (c->fmt == CF_PLAIN)
			return human_int(cl->v.i, buf, len);
		if (c->fmt == CF_DATE || c->fmt == CF_TIME)
			return human_date(cl->v.i, c->fmt == CF_TIME, buf, len);
		if (c->fmt == CF_DURATION)
			return human_duration(cl->v.i, buf, len);
		if (c->fmt == CF_MINUTES && cl->v.i <= INT64_MAX / 60 &&
		    cl->v.i >= INT64_MIN / 60)
			return human_duration(cl->v.i * 60, buf, len);
		return result_text_value(c, (double)cl->v.i, buf, len);
	case CK_UINT:
		if (c->fmt == CF_PLAIN)
			return human_uint(cl->v.u, buf, len);
		if (c->fmt == CF_DURATION && cl->v.u <= INT64_MAX)
			return human_duration((int64_t)cl->v.u, buf, len);
		return result_text_value(c, (double)cl->v.u, buf, len);
	case CK_REAL:
		if (c->fmt == CF_PLAIN)
			return human_real(cl->v.r, c->decimals, buf, len);
		return result_text_value(c, cl->v.r, buf, len);
	case CK_WIDE:
		if (c->fmt == CF_PLAIN)
			return human_wide(*cl->v.w, buf, len);
		return result_text_value(c, (double)*cl->v.w, buf, len);
	}
	return "n/a";
}
