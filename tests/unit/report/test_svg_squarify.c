/*
 * svg_squarify: the treemap layout. The example of Bruls, Huizing and van
 * Wijk (areas 6, 6, 4, 3, 2, 2, 1 in a 6 x 4 frame), its rows computed
 * by hand; then random values, zeros among them, in frames wide
 * and tall: each area the value times the frame's area over the total
 * (within 1e-9), every box inside the frame, no two overlapping, together
 * covering the frame.
 */
#include <math.h>
#include <stdlib.h>

#include "render/render.h"
#include "render/svg_int.h"
#include "tap.h"

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static int
box_is(struct svg_box b, double x, double y, double w, double h)
{
	return near(b.x, x) && near(b.y, y) && near(b.w, w) && near(b.h, h);
}

static void
test_paper(void)
{
	static const double v[] = { 6, 6, 4, 3, 2, 2, 1 };
	struct svg_box b[7];

	svg_squarify(v, 7, (struct svg_box){ 0, 0, 6, 4 }, b);
	/* 6 and 6 make a column of width 12 / 4 = 3 (ratio 4/3; a third,
	 * 4, would make it 16 / 4 = 4 wide, boxes 4 x 1.5: worse). */
	ok(box_is(b[0], 0, 0, 3, 2) && box_is(b[1], 0, 2, 3, 2),
	    "paper: 6 and 6 in a column 3 wide");
	/* Left: 3 x 4; 4 and 3 along the top, 7 / 3 high. */
	ok(box_is(b[2], 3, 0, 4 / (7.0 / 3), 7.0 / 3) &&
	    box_is(b[3], 3 + 4 / (7.0 / 3), 0, 3 / (7.0 / 3), 7.0 / 3),
	    "paper: 4 and 3 in a row 7/3 high");
	/* Left: 3 x 5/3, its shorter side 5/3: 2 alone (ratio 25/18; with
	 * the next 2, 72/25: worse), then 2 alone again (with 1: 81/25),
	 * then 1 in the 0.6 x 5/3 left. */
	ok(box_is(b[4], 3, 7.0 / 3, 1.2, 5.0 / 3) &&
	    box_is(b[5], 4.2, 7.0 / 3, 1.2, 5.0 / 3),
	    "paper: 2 and 2 each a column 1.2 wide");
	ok(box_is(b[6], 5.4, 7.0 / 3, 0.6, 5.0 / 3),
	    "paper: 1 in the strip left");
}

static double
overlap(struct svg_box a, struct svg_box b)
{
	double w = fmin(a.x + a.w, b.x + b.w) - fmax(a.x, b.x);
	double h = fmin(a.y + a.h, b.y + b.h) - fmax(a.y, b.y);

	return w > 0 && h > 0 ? w * h : 0;
}

static int
descending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

static void
test_random(unsigned seed, size_t n, struct svg_box frame, int sorted)
{
	double *v = calloc(n, sizeof *v), total = 0, sum = 0, worst = 0;
	struct svg_box *b = calloc(n, sizeof *b);
	int area = 1, inside = 1;

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		v[i] = rand() % 7 == 0 ? 0 : (double)(rand() % 100000) + 1;
		total += v[i];
	}
	if (sorted)
		qsort(v, n, sizeof *v, descending);
	svg_squarify(v, n, frame, b);
	for (size_t i = 0; i < n; i++) {
		double want = v[i] * frame.w * frame.h / total;

		area &= fabs(b[i].w * b[i].h - want) <= 1e-9 * frame.w *
		    frame.h;
		inside &= b[i].w >= 0 && b[i].h >= 0 &&
		    b[i].x >= frame.x - 1e-9 && b[i].y >= frame.y - 1e-9 &&
		    b[i].x + b[i].w <= frame.x + frame.w + 1e-9 &&
		    b[i].y + b[i].h <= frame.y + frame.h + 1e-9;
		sum += b[i].w * b[i].h;
		for (size_t j = 0; j < i; j++)
			worst = fmax(worst, overlap(b[i], b[j]));
	}
	ok(area, "random %u (%zu values%s): areas proportional to the values",
	    seed, n, sorted ? ", sorted" : "");
	ok(inside, "random %u: every box inside the frame", seed);
	ok(worst <= 1e-9 * frame.w * frame.h, "random %u: no two boxes overlap"
	    " (largest overlap %g)", seed, worst);
	ok(near(sum, frame.w * frame.h), "random %u: the boxes cover the "
	    "frame", seed);
	free(v);
	free(b);
}

static void
test_edges(void)
{
	static const double zero[] = { 0, 0 }, one[] = { 5 };
	struct svg_box b[2];

	svg_squarify(zero, 2, (struct svg_box){ 10, 20, 100, 50 }, b);
	ok(b[0].w == 0 && b[0].h == 0 && b[1].w == 0 && b[1].h == 0,
	    "all zero: empty boxes");
	svg_squarify(one, 1, (struct svg_box){ 10, 20, 100, 50 }, b);
	ok(box_is(b[0], 10, 20, 100, 50), "one value: the whole frame");
	svg_squarify(NULL, 0, (struct svg_box){ 0, 0, 1, 1 }, NULL);
	ok(1, "no values: nothing to lay");
}

int
main(void)
{
	test_paper();
	test_edges();
	test_random(1, 50, (struct svg_box){ 8, 40, 944, 500 }, 1);
	test_random(2, 300, (struct svg_box){ 0, 0, 300, 900 }, 1);
	test_random(3, 120, (struct svg_box){ 5, 5, 640, 480 }, 0);
	test_random(4, 9, (struct svg_box){ 0, 0, 1, 1000 }, 1);
	return tap_end();
}
