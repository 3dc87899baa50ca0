/*
 * test_space_fit: least squares, prediction-band crossings, the incomplete
 * beta and the Student t quantile of report/space/space_fit.c. Expected
 * values are closed forms (df 1, 2, 4), published table values, or worked
 * out by hand.
 */
#include <math.h>

#include "space/space_fit_int.h"
#include "tap.h"

static int
near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

static void
is_near(double got, double want, double rel, const char *name)
{
	char why[128];

	snprintf(why, sizeof why, "got %.17g, want %.17g", got, want);
	ok_why(near(got, want, rel), why, "%s", name);
}

/* Closed forms of the t quantile (Hill 1970; df 1, 2 and 4). */
static double
t4(double p)
{
	double a = 4 * p * (1 - p), q = cos(acos(sqrt(a)) / 3) / sqrt(a);

	return (p > 0.5 ? 2 : -2) * sqrt(q - 1);
}

static void
test_quantiles(void)
{
	struct { double df, want; } tab[] = {	/* t_{0.975, df}: tables (R qt), the
					   A&S 26.7 sums for integer df */
		{ 3, 3.182446305284263 }, { 5, 2.570581835636314 },
		{ 10, 2.228138851986274 }, { 30, 2.042272456301238 },
		{ 60, 2.000297822014254 }, { 120, 1.979930405082446 },
	};

	is_near(space_fit_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-12, "t 0.975 df 1");
	is_near(space_fit_t_quantile(0.975, 2), sqrt(2 / (4 * 0.975 * 0.025) - 2), 1e-12,
	    "t 0.975 df 2");
	is_near(space_fit_t_quantile(0.975, 4), t4(0.975), 1e-12,
	    "t 0.975 df 4");
	is_near(space_fit_t_quantile(0.9, 4), t4(0.9), 1e-12, "t 0.9 df 4");
	is_near(space_fit_t_quantile(0.025, 4), t4(0.025), 1e-12, "t 0.025 df 4 (lower)");
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
		char name[64];
		snprintf(name, sizeof name, "t 0.975 df %g", tab[i].df);
		is_near(space_fit_t_quantile(0.975, tab[i].df), tab[i].want, 1e-12, name);
	}
	ok(fabs(space_fit_t_quantile(0.5, 7)) < 1e-15, "median of t is 0");
	is_near(space_fit_t_quantile(0.975, 1e6), 1.959963984540054, 1e-5,
	    "t tends to the normal quantile");
	ok(isnan(space_fit_t_quantile(0, 3)) &&
	    isnan(space_fit_t_quantile(1, 3)) &&
	    isnan(space_fit_t_quantile(0.9, 0)),
	    "out-of-range arguments give NaN");
	is_near(space_fit_t_cdf(-2, 5) + space_fit_t_cdf(2, 5), 1, 1e-14, "t CDF symmetric");
	/* df 1 is Cauchy: F(t) = 1/2 + atan(t)/pi */
	is_near(space_fit_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-13, "Cauchy CDF at 3");
}

static void
test_beta(void)
{
	is_near(space_fit_inc_beta(1, 1, 0.3), 0.3, 1e-14, "I_x(1,1) = x");
	is_near(space_fit_inc_beta(3, 1, 0.7), pow(0.7, 3), 1e-14, "I_x(a,1) = x^a");
	is_near(space_fit_inc_beta(1, 4, 0.2), 1 - pow(0.8, 4), 1e-14,
	    "I_x(1,b) = 1-(1-x)^b");
	/* I_x(2,2) = 3x^2 - 2x^3 */
	is_near(space_fit_inc_beta(2, 2, 0.9), 3 * 0.81 - 2 * 0.729, 1e-14,
	    "I_x(2,2) above the switch point");
	ok(space_fit_inc_beta(2, 3, 0) == 0 && space_fit_inc_beta(2, 3, 1) == 1,
	    "I_0 = 0, I_1 = 1");
}

static void
test_ols(void)
{
	/* By hand: xbar 1.5, ybar 2.75, sxx 5, sxy 5.5, syy 8.75,
	 * slope 1.1, intercept 1.1, residuals -0.1 0.8 -1.3 0.6. */
	double x[] = { 0, 1, 2, 3 }, y[] = { 1, 3, 2, 5 }, yh[4], ux, lx;
	struct ols f;

	ok(space_fit_ols(x, y, 4, &f) == 0, "fit of 4 points");
	is_near(f.slope, 1.1, 1e-14, "slope");
	is_near(f.intercept, 1.1, 1e-14, "intercept");
	is_near(f.sxx, 5, 1e-14, "sxx");
	is_near(f.sse, 2.7, 1e-13, "sse");
	is_near(f.r2, 1 - 2.7 / 8.75, 1e-13, "r2");
	is_near(f.s, sqrt(1.35), 1e-13, "residual standard error");
	for (int i = 0; i < 4; i++)
		yh[i] = space_fit_predict(&f, x[i]);
	is_near(space_fit_rmse(y, yh, 4), sqrt(2.7 / 4), 1e-13, "rmse over n");
	/* t(0.975, 2) * se = 4.303 * 0.52 > 1.1: not significant. The
	 * upper band still reaches 10 (it rises both ways); the lower band
	 * never stays above it: no latest date. */
	ok(space_fit_band_cross(&f, space_fit_t_quantile(0.975, 2), 30, 3, &ux,
	    &lx) == 0 && isnan(lx) && ux > 3,
	    "slope not significant: an earliest date, no latest");
	double hu0 = space_fit_t_quantile(0.975, 2) * f.s * sqrt(1 + 1.0 / 4 +
	    (ux - 1.5) * (ux - 1.5) / 5);
	is_near(space_fit_predict(&f, ux) + hu0, 30, 1e-9,
	    "slope not significant: the upper band at the earliest date");
	/* At x = 3 the upper band is at 4.4 + 1.65 + ... > 10 already. */
	ok(space_fit_band_cross(&f, space_fit_t_quantile(0.975, 2), 10, 3, &ux,
	    &lx) == 0 && ux == 3 && isnan(lx),
	    "upper band above the target already: the earliest is now");

	double x1[] = { 0, 1 }, y1[] = { 5, 5 }, x2[] = { 2, 2, 2 };
	ok(space_fit_ols(x1, y1, 2, &f) == 0 && f.slope == 0 && isnan(f.r2) &&
	    isnan(f.s), "flat pair: slope 0, r2 and s undefined");
	ok(space_fit_ols(x2, y, 3, &f) < 0, "equal x refused");
	ok(space_fit_ols(x, y, 1, &f) < 0, "one point refused");
}

/* Significant slope: the returned x must lie on the band edges. */
static void
test_band(void)
{
	double x[] = { 0, 1, 2, 3, 4 }, y[] = { 0, 1.1, 1.9, 3.05, 4.0 };
	double tq = space_fit_t_quantile(0.975, 3), ux, lx, target = 10;
	struct ols f;

	space_fit_ols(x, y, 5, &f);
	ok(space_fit_band_cross(&f, tq, target, 4, &ux, &lx) == 0 && ux > 4,
	    "band crossings");
	double hu = tq * f.s * sqrt(1 + 1.0 / 5 + (ux - 2) * (ux - 2) / 10);
	double hl = tq * f.s * sqrt(1 + 1.0 / 5 + (lx - 2) * (lx - 2) / 10);
	is_near(space_fit_predict(&f, ux) + hu, target, 1e-12, "upper band at x_lo");
	is_near(space_fit_predict(&f, lx) - hl, target, 1e-12, "lower band at x_hi");
	double xc = f.xbar + (target - f.ybar) / f.slope;
	ok(ux < xc && xc < lx, "point crossing inside the band crossings");
	is_near(space_fit_band_half(&f, tq, ux), hu, 1e-14, "band half-width at x_lo");
	/* By hand at the mean: tq * s * sqrt(1 + 1/5). */
	is_near(space_fit_band_half(&f, tq, 2), tq * f.s * sqrt(1.2), 1e-14,
	    "band half-width at the mean");
	ok(space_fit_band_half(&f, tq, 0) > space_fit_band_half(&f, tq, 2) &&
	    near(space_fit_band_half(&f, tq, 0), space_fit_band_half(&f, tq, 4), 1e-14),
	    "band widest away from the mean, symmetric about it");

	double yp[] = { 1, 3, 5, 7, 9 };	/* perfect line: s = 0 */
	space_fit_ols(x, yp, 5, &f);
	ok(space_fit_band_cross(&f, tq, 21, 4, &ux, &lx) == 0 &&
	    near(ux, 10, 1e-14) && near(lx, 10, 1e-14),
	    "perfect fit: band collapses onto the line");
	double yd[] = { 9, 7, 5, 3, 1 };
	space_fit_ols(x, yd, 5, &f);
	ok(space_fit_band_cross(&f, tq, 21, 4, &ux, &lx) < 0,
	    "falling line refused");
}

/* The study's projection on two points (docs/analyses.md, "Growth projections"): 95.7 M files on day 0,
 * 191.4 M on day 63: the line reaches 1e9 808.6/95.7*63 days after. */
static void
test_two_points(void)
{
	double x[] = { 0, 63 }, y[] = { 95.7e6, 191.4e6 };
	struct ols f;

	space_fit_ols(x, y, 2, &f);
	is_near(f.xbar + (1e9 - f.ybar) / f.slope, 63 + 808.6 / 95.7 * 63,
	    1e-12, "two-point linear crossing");
	ok(isnan(space_fit_band_half(&f, 2, 10)), "no band through two points");
}

int
main(void)
{
	test_quantiles();
	test_beta();
	test_ols();
	test_band();
	test_two_points();
	return tap_end();
}
