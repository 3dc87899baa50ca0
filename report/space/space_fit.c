/*
 * space_fit: least squares, prediction-band crossings and the Student t
 * quantile (see space_fit_int.h). The t quantile inverts the CDF by bisection; the
 * CDF comes from the regularized incomplete beta function, evaluated by
 * its continued fraction (modified Lentz), which converges fast on the
 * side of the symmetry x < (a + 1) / (a + b + 2).
 */
#include "space_fit_int.h"

#include <math.h>

int
space_fit_ols(const double *x, const double *y, size_t n, struct ols *f)
{
	double sx = 0, sy = 0;

	*f = (struct ols){ .n = n, .s = NAN, .r2 = NAN };
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
	}
	f->xbar = sx / (double)n;
	f->ybar = sy / (double)n;
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - f->xbar, dy = y[i] - f->ybar;
		f->sxx += dx * dx;
		f->sxy += dx * dy;
		f->syy += dy * dy;
	}
	if (f->sxx <= 0)
		return -1;
	f->slope = f->sxy / f->sxx;
	f->intercept = f->ybar - f->slope * f->xbar;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - space_fit_predict(f, x[i]);
		f->sse += e * e;
	}
	if (n >= 3)
		f->s = sqrt(f->sse / (double)(n - 2));
	if (f->syy > 0)
		f->r2 = 1 - f->sse / f->syy;
	return 0;
}

/* Evaluated about the mean, where the fit is anchored. */
double
space_fit_predict(const struct ols *f, double x)
{
	return f->ybar + f->slope * (x - f->xbar);
}

/*
 * With u = x - xbar and D = y - ybar the band edge satisfies
 * (D - b u)^2 = k^2 (c0 + u^2 / sxx), k = tq * s, c0 = 1 + 1/n, i.e.
 * g(u) = A u^2 - 2 D b u + (D^2 - k^2 c0) = 0 with A = b^2 - k^2 / sxx;
 * a root with b u < D is where the upper band meets y, one with b u > D
 * where the lower band does. A > 0 is exactly "the slope is significant":
 * both bands rise, and the roots bracket D / b (the smaller is the upper
 * band's crossing, the larger the lower band's). Otherwise the upper band
 * is convex, going up both ways, and the lower band turns down for good:
 * the upper band lies below y only between the two roots, when both are
 * its own, and the lower band never stays above y. The roots are taken in
 * the cancellation-free form.
 */
int
space_fit_band_cross(const struct ols *f, double tq, double y, double x0,
    double *early, double *late)
{
	double b = f->slope, k2, A, B, C, disc, q, r1 = 0, r2 = 0;
	double u0 = x0 - f->xbar;
	double D = y - f->ybar;

	if (f->n < 3 || !(b > 0))
		return -1;
	k2 = tq * tq * f->s * f->s;
	A = b * b - k2 / f->sxx;
	B = -2 * D * b;
	C = D * D - k2 * (1 + 1 / (double)f->n);
	disc = B * B - 4 * A * C;
	*late = NAN;
	if (A > 0 || disc >= 0) {
		if (disc < 0)
			disc = 0;
		q = -0.5 * (B + (B < 0 ? -sqrt(disc) : sqrt(disc)));
		if (q == 0)	/* D == 0 and k == 0: a single root at 0 */
			r1 = r2 = 0;
		else if (A == 0)
			r1 = r2 = C / q;
		else
			r1 = fmin(q / A, C / q), r2 = fmax(q / A, C / q);
	}
	if (A > 0) {
		*early = f->xbar + fmax(r1, u0);
		*late = f->xbar + r2;
		return 0;
	}
	/* The upper band is below y on (r1, r2) only when both roots are
	 * its own; from u0 on, the first time it is at or above y. */
	if (disc >= 0 && b * r2 <= D && u0 > r1 && u0 < r2)
		*early = f->xbar + r2;
	else
		*early = x0;
	return 0;
}

double
space_fit_band_half(const struct ols *f, double tq, double x)
{
	double u = x - f->xbar;

	return tq * f->s * sqrt(1 + 1 / (double)f->n + u * u / f->sxx);
}

double
space_fit_rmse(const double *y, const double *yhat, size_t n)
{
	double ss = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (y[i] - yhat[i]) * (y[i] - yhat[i]);
	return sqrt(ss / (double)n);
}

/* Continued fraction of I_x(a, b) (Numerical Recipes' betacf). */
static double
beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double
space_fit_inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t >= 0. */
double
space_fit_t_cdf(double t, double df)
{
	double tail = 0.5 * space_fit_inc_beta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double
space_fit_t_quantile(double p, double df)
{
	/* Thousands of fits of one question share their degrees of freedom:
	 * the last quantile is kept (one thread asks). */
	static double last_p, last_df, last_q;
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1 && df > 0))
		return NAN;
	if (p < 0.5)
		return -space_fit_t_quantile(1 - p, df);
	if (p == last_p && df == last_df)
		return last_q;
	while (space_fit_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	/* Halve until the bracket no longer shrinks: full double precision. */
	for (int i = 0; i < 2000; i++) {
		double mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (space_fit_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	last_p = p, last_df = df;
	return last_q = lo + (hi - lo) / 2;
}
