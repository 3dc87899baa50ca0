/*
 * space_fit_int: ordinary least squares on one variable, the Student t
 * quantile, and where a 95% prediction band crosses a level
 * (docs/analyses.md, "Growth projections").
 *
 * Sums are taken about the means (two passes), so days since the first
 * snapshot and counts in the hundreds of millions keep full precision.
 */
#ifndef IOCENSUS_SPACE_FIT_INT_H
#define IOCENSUS_SPACE_FIT_INT_H

#include <stddef.h>

struct ols {
	size_t n;
	double xbar, ybar;
	double sxx, sxy, syy;	/* sums of squares about the means */
	double slope, intercept;	/* y = intercept + slope * x */
	double sse;		/* residual sum of squares */
	double s;		/* residual standard error, sqrt(sse/(n-2));
				   NaN when n < 3 */
	double r2;		/* 1 - sse/syy; NaN when syy == 0 */
};

/* Fit y on x. 0, or -1 when n < 2 or every x is the same. */
int space_fit_ols(const double *x, const double *y, size_t n, struct ols *f);
double space_fit_predict(const struct ols *f, double x);

/* Where the prediction band yhat(x) +- tq * s * sqrt(1 + 1/n +
 * (x - xbar)^2 / sxx) reaches level y, for a rising line, from x0 on:
 * *early, the first x >= x0 where the upper band is at or above y; *late,
 * where the lower band reaches y and stays above it, NaN when it never
 * does (the slope is not significant at tq: |slope| <= tq * se). 0, or
 * -1 when the slope is not positive, or n < 3. */
int space_fit_band_cross(const struct ols *f, double tq, double y, double x0,
    double *early, double *late);

/* Half the width of that band at x: tq * s * sqrt(1 + 1/n + (x - xbar)^2
 * / sxx); NaN when n < 3. */
double space_fit_band_half(const struct ols *f, double tq, double x);

/* Root mean squared error, sqrt(sum (y - yhat)^2 / n). */
double space_fit_rmse(const double *y, const double *yhat, size_t n);

/* Regularized incomplete beta I_x(a, b), 0 <= x <= 1, a, b > 0. */
double space_fit_inc_beta(double a, double b, double x);
/* Student t distribution with df degrees of freedom: CDF and the
 * p-quantile (0 < p < 1), the latter by bisection on the CDF. */
double space_fit_t_cdf(double t, double df);
double space_fit_t_quantile(double p, double df);

#endif
