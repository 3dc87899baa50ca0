/*
 * svg_frame: the <svg> element every figure kind opens and closes, and
 * the figure that says why it has nothing to plot.
 */
#include "fmt.h"
#include "svg_int.h"

void
svg_frame_open(FILE *f, const struct rfigure *fig, double height)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n",
	    SVG_W, height, SVG_W, height);
	fputs("<title>", f);
	fmt_html_str(f, fig->title);
	fputs("</title>\n", f);
}

void
svg_frame_close(FILE *f)
{
	fputs("</svg>\n", f);
}

void
svg_frame_nodata(FILE *f, const struct rfigure *fig, const char *why)
{
	svg_frame_open(f, fig, 120);
	fputs("<g class=\"data nodata\">\n", f);
	svg_draw_text(f, SVG_W / 2, 64, "middle", "fill=\"#666666\"", why);
	fputs("</g>\n", f);
	svg_frame_close(f);
}
