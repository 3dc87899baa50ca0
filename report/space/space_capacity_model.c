/*
 * space_capacity_model: the projection of a file system or a project in the
 * capacity summary, the dates it gives, and growth per day over the
 * window (space_capacity_int.h).
 */
#include <math.h>
#include <string.h>

#include "space_capacity_int.h"

void
space_capacity_model_fit(const struct points *p, double target, int known,
    const char *why, struct proj *m)
{
	struct gfit g;

	m->model = "linear";
	space_growth_fit_model(m, p, known ? target : 1, 0, &g);
	if (!known)
		space_growth_fit_no_target(m, why);
	else
		space_growth_fit_exceeded(m, p, target);
}

static void
put_day(struct rtable *t, size_t row, int col, const struct points *p,
    double x)
{
	int64_t d = p->n ? space_growth_fit_day(p->t[0], p->x[p->n - 1], x) :
	    -1;

	if (d != -1 && !isnan(x))
		result_set_int(t, row, col, d);
}

void
space_capacity_model_dates(struct rtable *t, size_t row, int col,
    const struct points *p, const struct proj *m)
{
	if (strcmp(m->state, "already exceeded") != 0)
		put_day(t, row, col, p, m->xc);
	put_day(t, row, col + 1, p, m->xlo);
	put_day(t, row, col + 2, p, m->xhi);
	result_set_text(t, row, col + 3, m->state);
	if (m->why[0])
		result_set_text(t, row, col + 4, m->why);
}

double
space_capacity_model_rate(const struct points *p, int64_t from)
{
	size_t i = 0;

	while (i < p->n && p->t[i] < from)
		i++;
	if (p->n < 2 || i >= p->n - 1)
		return NAN;
	return (double)(p->v[p->n - 1] - p->v[i]) / (p->x[p->n - 1] -
	    p->x[i]);
}
