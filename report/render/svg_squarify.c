/*
 * svg_squarify: the layout of a treemap (svg_int.h), the squarified
 * algorithm of Bruls, Huizing and van Wijk ("Squarified Treemaps", 2000).
 * Values are laid in the order given, in rows along the shorter side of
 * the space left: a row takes the next value while that makes its worst
 * aspect ratio no worse, then it is fixed and the space left shrinks.
 * Given the values largest first, the rectangles come out near square,
 * which makes areas comparable by eye.
 *
 * Pure: the areas are the values scaled to the frame, so every
 * rectangle's area is its value times the same factor and the
 * rectangles tile the frame exactly (up to rounding).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "svg_int.h"
#include "xalloc.h"

/* The worst aspect ratio of a row of areas summing to s, the largest
 * hi and the smallest lo, laid along a side of length side. */
static double
worst(double s, double hi, double lo, double side)
{
	double ss = s * s, w = side * side;

	return fmax(w * hi / ss, ss / (w * lo));
}

/* Rectangles of the areas a[i..j) (summing to s) as one row along the
 * shorter side of *left, which then loses the row's strip. */
static void
lay_row(const double *a, size_t i, size_t j, double s, struct svg_box *left,
    struct svg_box *out)
{
	double pos;

	if (left->w >= left->h) {	/* a column at the left */
		double w = left->h > 0 ? s / left->h : 0;

		pos = left->y;
		for (size_t k = i; k < j; k++) {
			double h = w > 0 ? a[k] / w : 0;

			out[k] = (struct svg_box){ left->x, pos, w, h };
			pos += h;
		}
		left->x += w;
		left->w = fmax(0, left->w - w);
	} else {			/* a row at the top */
		double h = left->w > 0 ? s / left->w : 0;

		pos = left->x;
		for (size_t k = i; k < j; k++) {
			double w = h > 0 ? a[k] / h : 0;

			out[k] = (struct svg_box){ pos, left->y, w, h };
			pos += w;
		}
		left->y += h;
		left->h = fmax(0, left->h - h);
	}
}

void
svg_squarify(const double *v, size_t n, struct svg_box frame,
    struct svg_box *out)
{
	double total = 0, scale, *a;
	struct svg_box left = frame;
	size_t i = 0;

	assert(n == 0 || (v && out));
	assert(frame.w >= 0 && frame.h >= 0);
	a = xcalloc(n + 1, sizeof *a);
	for (size_t k = 0; k < n; k++)
		total += v[k] > 0 ? v[k] : 0;
	scale = total > 0 ? frame.w * frame.h / total : 0;
	for (size_t k = 0; k < n; k++)
		a[k] = v[k] > 0 ? v[k] * scale : 0;
	while (i < n) {
		double side = fmin(left.w, left.h), s, hi, lo, cur;
		size_t j;

		if (a[i] <= 0) {	/* nothing to draw: an empty box */
			out[i++] = (struct svg_box){ left.x, left.y, 0, 0 };
			continue;
		}
		s = hi = lo = a[i];
		cur = worst(s, hi, lo, side);
		for (j = i + 1; j < n && a[j] > 0; j++) {
			double s2 = s + a[j], hi2 = fmax(hi, a[j]);
			double lo2 = fmin(lo, a[j]), w2 = worst(s2, hi2, lo2, side);

			if (w2 > cur)
				break;
			s = s2, hi = hi2, lo = lo2, cur = w2;
		}
		lay_row(a, i, j, s, &left, out);
		i = j;
	}
	free(a);
}
