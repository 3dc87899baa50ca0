/*
 * an_growth: when will a file system reach a target file count (or byte
 * count)? study-analyses.md 1.6 and 4.
 *
 * The points are the complete snapshots of one file system, at their start
 * times, x in days since the first; the models are in growth_fit.c. With
 * several file systems and no --fs (or --fs all), the total over all of
 * them is projected instead (an_growth_sum.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "query/query.h"
#include "an_growth_int.h"
#include "human.h"
#include "an_snapout_int.h"
#include "xalloc.h"

/* The distinct file systems, in id order, appended to err. */
static void
list_fs(const struct snap *s, size_t n, char *err, size_t errlen)
{
	const char **names = xcalloc(n + 1, sizeof *names);
	size_t k = an_growth_fit_fs_names(s, n, names), len = strlen(err);

	for (size_t i = 0; i < k && len < errlen; i++)
		len += (size_t)snprintf(err + len, errlen - len, "%s%s",
		    i ? ", " : " ", names[i]);
	free(names);
}

/* The file system to fit: --fs, or the only one there is. 1 chosen,
 * 2 all of them (several and no --fs, or --fs all when no file system has
 * that name), 0 the database has no snapshots, -1 error (listing the
 * choices). */
static int
choose_fs(const struct snap *s, size_t n, const char *want, const char **fs,
    char *err, size_t errlen)
{
	int one = 1;

	for (size_t i = 0; i < n; i++) {
		if (want && strcmp(s[i].fs, want) == 0) {
			*fs = s[i].fs;
			return 1;
		}
		one &= strcmp(s[i].fs, s[0].fs) == 0;
	}
	if (n == 0 && (!want || strcmp(want, "all") == 0))
		return 0;
	if (!want && one) {
		*fs = s[0].fs;
		return 1;
	}
	if (!want || strcmp(want, "all") == 0)
		return 2;
	snprintf(err, errlen, FMT_USAGE "no snapshots of file system %s;"
	    " file systems:", want);
	list_fs(s, n, err, errlen);
	return -1;
}

/* --project must name a project of the file system (fs NULL: of any):
 * else it would be fitted as zeros. 0, or -1 with err. */
static int
check_project(sqlite3 *db, const char *project, const char *fs,
    char *err, size_t errlen)
{
	char **names;
	size_t n, len;
	int found = 0;

	if (!project)
		return 0;
	if (query_census_fs_projects(db, fs, &names, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(names[i], project) == 0;
	if (!found) {
		len = (size_t)snprintf(err, errlen, FMT_USAGE "project %s is in"
		    " no snapshot of %s; projects:%s", project, fs ? fs :
		    "any file system", n ? "" : " none");
		for (size_t i = 0; i < n && i < 8 && len < errlen; i++)
			len += (size_t)snprintf(err + len, errlen - len, "%s%s",
			    i ? ", " : " ", names[i]);
		if (n > 8 && len < errlen)
			snprintf(err + len, errlen - len, " (%zu in all)", n);
	}
	query_census_names_free(names, n);
	return found ? 0 : -1;
}

enum { T_ID, T_T, T_V, T_LIN, T_EXP };

static const struct rcol_spec point_cols[] = {
	[T_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
	[T_T] = { "t", "Started (UTC)", NULL, CF_TIME, 0 },
	[T_V] = { "value", "Value", NULL, CF_PLAIN, 0 },
	[T_LIN] = { "linear_fit", "Linear fit", NULL, CF_PLAIN, 0 },
	[T_EXP] = { "exponential_fit", "Exponential fit", NULL, CF_PLAIN, 0 },
};

static void
points_table(struct result *r, const struct points *p, const char *unit,
    const struct gfit *g)
{
	struct rtable *t = result_table(r, "points", "Snapshots fitted",
	    point_cols, sizeof point_cols / sizeof *point_cols);

	free(t->col[T_V].unit);
	t->col[T_V].unit = xstrdup(unit);
	for (size_t i = 0; i < p->n; i++) {
		size_t row = result_row(t);
		result_set_int(t, row, T_ID, p->id[i]);
		result_set_int(t, row, T_T, p->t[i]);
		result_set_wide(t, row, T_V, p->v[i]);
		if (g[0].fitted)
			result_set_real(t, row, T_LIN, an_fit_predict(&g[0].f,
			    p->x[i]));
		if (g[1].fitted)
			result_set_real(t, row, T_EXP,
			    exp(an_fit_predict(&g[1].f,
			    p->x[i])));
	}
}

static const char *
month(const struct points *p, double x, char *buf, size_t len)
{
	human_date((int64_t)floor((double)p->t[0] + x * GROWTH_DAY), 0, buf,
	    len);
	buf[7] = 0;
	return buf;
}

static void
notes(struct result *r, const struct points *p, const struct proj *m)
{
	double span = p->x[p->n - 1];
	char a[32], b[32];

	for (int k = 0; k < 2; k++) {
		if (strcmp(m[k].state, "projected") == 0 && span > 0 &&
		    m[k].xc - span > 10 * span)
			result_note(r, "The %s crossing lies %.1f times the"
			    " observed span ahead: an extrapolation that far is"
			    " speculative.", m[k].model,
			    (m[k].xc - span) / span);
		if (p->n >= 3 && strcmp(m[k].state, "not determinable") == 0 &&
		    m[k].slope == m[k].slope)
			result_note(r, "The %s model's slope is not different"
			    " from 0 at 95%% confidence: no crossing date.",
			    m[k].model);
	}
	if (p->n == 2)
		result_note(r, "Based on 2 snapshots, no uncertainty"
		    " estimate.");
	if (p->n == 2 && !strcmp(m[0].state, "projected") &&
	    !strcmp(m[1].state, "projected"))
		result_note(r, "The target falls between %s (exponential) and"
		    " %s (linear).", month(p, m[1].xc, a, sizeof a),
		    month(p, m[0].xc, b, sizeof b));
	if (p->n >= 3) {
		result_note(r, "Ranges are where the 95%% prediction band"
		    " (t(0.975, %zu) = %.4f) crosses the target.", p->n - 2,
		    an_fit_t_quantile(0.975, (double)(p->n - 2)));
		result_note(r, "Compare the models by RMSE on the original"
		    " scale (R² of the exponential model is on ln N).");
	}
}

/* The result for one file system. */
static struct result *
one_fs(const struct an_opts *o, const struct points *p, const char *unit)
{
	struct proj m[2] = { { .model = "linear" },
	    { .model = "exponential" } };
	struct gfit g[2];
	struct result *r = result_new("growth", "Growth projection");
	struct rtable *t;
	char d0[32], d1[32], num[64];
	int hit;

	memset(g, 0, sizeof g);
	if (p->n == 0) {
		if (p->fs)
			result_note(r, "No complete snapshots of %s.", p->fs);
		else
			result_note(r, "No snapshots in the database.");
		points_table(r, p, unit, g);
		an_growth_fit_proj_table(r, "Projection");
		an_growth_figure(r, p, m, g, o->target, unit);
		return r;
	}
	result_note(r, "%zu complete snapshot%s of %s from %s to %s (%.1f"
	    " days); metric: %s%s%s; each snapshot's start time is its time.",
	    p->n, p->n == 1 ? "" : "s", p->fs, human_date(p->t[0], 0, d0,
	    sizeof d0), human_date(p->t[p->n - 1], 0, d1, sizeof d1),
	    p->x[p->n - 1], unit, o->project ? " of project " : "",
	    o->project ? o->project : "");
	result_note(r, "Target: %s %s.", an_growth_fit_count(o->target, num,
	    sizeof num), unit);
	an_growth_fit_model(&m[0], p, o->target, 0, &g[0]);
	an_growth_fit_model(&m[1], p, o->target, 1, &g[1]);
	hit = an_growth_fit_exceeded(&m[0], p, o->target);
	if (hit >= 0) {
		an_growth_fit_exceeded(&m[1], p, o->target);
		result_note(r, "The target is already exceeded: snapshot #%lld"
		    " (%s) has %s %s.", (long long)p->id[hit],
		    human_date(p->t[hit], 0, d0, sizeof d0),
		    human_wide(p->v[hit], num, sizeof num), unit);
	} else if (p->n == 1) {
		result_note(r, "Only one complete snapshot: no trend can be"
		    " fitted.");
	}
	if (!g[0].fitted && p->n >= 2)
		result_note(r,
		    "Every complete snapshot has the same start time:"
		    " no trend can be fitted.");
	else if (!g[1].fitted && p->n >= 2)
		result_note(r, "The exponential model needs every value > 0.");
	notes(r, p, m);
	for (int k = 0; k < 2; k++)
		an_growth_fit_note_far(r, &m[k], p->x[p->n - 1]);
	points_table(r, p, unit, g);
	t = an_growth_fit_proj_table(r, "Projection to the target");
	an_growth_fit_proj_row(t, &m[0], p->n, p->t[0], p->x[p->n - 1]);
	an_growth_fit_proj_row(t, &m[1], p->n, p->t[0], p->x[p->n - 1]);
	an_growth_figure(r, p, m, g, o->target, unit);
	return r;
}

struct result *
an_growth(sqlite3 *db, const struct an_opts *o, char *err, size_t errlen)
{
	struct snap *s;
	size_t n;
	struct points p = { 0 };
	struct result *r = NULL;
	const char *unit = o->metric_bytes ? "bytes" : "files";
	int rc;

	if (!(o->target > 0)) {
		snprintf(err, errlen, FMT_USAGE "--target N (N > 0) is"
		    " required");
		return NULL;
	}
	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return NULL;
	rc = choose_fs(s, n, o->fs, &p.fs, err, errlen);
	if (rc < 0 || (rc > 0 && check_project(db, o->project,
	    rc == 1 ? p.fs : NULL, err, errlen) < 0))
		goto out;
	if (rc == 2) {
		r = an_growth_sum(db, o, s, n, err, errlen);
		goto out;
	}
	if (rc == 0 || an_growth_fit_points(db, o, s, n, &p, err, errlen) == 0)
		r = one_fs(o, &p, unit);
out:
	an_growth_fit_points_free(&p);
	query_census_snaps_free(s, n);
	return r;
}
