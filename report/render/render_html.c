/*
 * render_html: the report page (render_html in render.h). One self-contained
 * file: inline CSS, inline SVG, no script, nothing fetched. Every string that
 * came from data goes through fmt_html_str; the page is valid UTF-8 even when
 * file names are not.
 */
#include <string.h>

#include "fmt.h"
#include "render.h"
#include "render_int.h"

static const char page_css[] =
"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
"sans-serif;color:#1a1a1a;background:#fff;margin:0;line-height:1.45}\n"
"main{max-width:1100px;margin:0 auto;padding:0 24px 48px}\n"
"header.page{background:#123a5c;color:#fff;padding:20px 24px}\n"
"header.page h1{margin:0 auto;max-width:1100px;font-size:1.7em}\n"
"header.page p{margin:4px auto 0;max-width:1100px;opacity:.85}\n"
"nav{margin:16px 0;padding:10px 16px;background:#f3f6f9;border-radius:6px}\n"
"nav ol{margin:0;padding-left:1.4em;columns:2}\n"
"nav a{color:#123a5c}\n"
"section{margin-top:28px;border-top:1px solid #d8dee4;padding-top:8px}\n"
"h2{color:#123a5c;margin:.4em 0}\n"
"p.note{margin:.3em 0}\n"
"p.nodata{color:#8a4b00;background:#fff6e5;padding:6px 10px;"
"border-left:4px solid #e69f00}\n"
"figure{margin:16px 0}\n"
"figure svg{max-width:100%;height:auto;display:block}\n"
"figcaption{font-size:.92em;color:#333;margin-top:4px}\n"
"table{border-collapse:collapse;margin:8px 0 16px;font-size:.88em}\n"
"table.compact{font-size:.8em}\n"
"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
"th,td{padding:.2em .55em;border-bottom:1px solid #e4e8ec;"
"vertical-align:top}\n"
"table.compact th,table.compact td{padding:.15em .4em}\n"
"th{background:#f3f6f9;text-align:left}\n"
"th .unit{font-weight:normal;color:#555}\n"
"td.wrap{overflow-wrap:anywhere}\n"
"td.num{text-align:right;font-variant-numeric:tabular-nums;"
"white-space:nowrap}\n"
"td.na{color:#999;text-align:right}\n"
"tbody tr:nth-child(even){background:#fafbfc}\n"
"table.list th{background:none;font-weight:normal;padding-right:2em}\n"
"tr.group th{background:#e8eef4;font-weight:600;padding-top:.45em}\n"
"div.scroll{overflow-x:auto}\n"
"details{margin:8px 0}\n"
"summary{cursor:pointer;color:#123a5c}\n"
"p.cut{font-size:.85em;color:#555}\n"
"footer{margin-top:32px;font-size:.85em;color:#555}\n"
"@media print{header.page{background:none;color:#000}"
"main{max-width:none;padding:0}nav{display:none}"
"table{font-size:7pt}table.compact{font-size:6.5pt}"
"div.scroll{overflow:visible}figure,tr{break-inside:avoid}}\n";

static void
esc(FILE *f, const char *s)
{
	fmt_html_str(f, s ? s : "");
}

static int
has_rows(const struct result *r)
{
	for (size_t i = 0; i < r->ntable; i++)
		if (r->table[i].nrow)
			return 1;
	return 0;
}

static void
figure_html(FILE *f, const struct result *r, const struct rfigure *fig,
    size_t sec, size_t n, size_t *fignum)
{
	if (fig->table < r->ntable && r->table[fig->table].nrow == 0) {
		fputs("<p class=\"nodata\">No data for the figure \u201c", f);
		esc(f, fig->title);
		fputs("\u201d.</p>\n", f);
		return;
	}
	fprintf(f, "<figure id=\"r%zu-f%zu\">\n", sec, n);
	svg_figure(f, r, fig);
	fprintf(f, "<figcaption><b>Figure %zu. ", ++*fignum);
	esc(f, fig->title);
	fputs(".</b>", f);
	if (fig->caption) {
		putc(' ', f);
		esc(f, fig->caption);
	}
	fputs("</figcaption>\n</figure>\n", f);
}

static void
section_html(FILE *f, const struct result *r, size_t sec, size_t *fignum)
{
	fprintf(f, "<section id=\"r%zu\" class=\"result\">\n<h2>", sec);
	esc(f, r->title);
	fputs("</h2>\n", f);
	for (size_t i = 0; i < r->nnote; i++) {
		fputs("<p class=\"note\">", f);
		esc(f, r->note[i]);
		fputs("</p>\n", f);
	}
	if (!has_rows(r)) {
		fprintf(f, "<p class=\"nodata\">No data for this section%s."
		    "</p>\n</section>\n", r->nnote ? " (see above)" : "");
		return;
	}
	for (size_t i = 0; i < r->nfig; i++)
		figure_html(f, r, &r->fig[i], sec, i + 1, fignum);
	for (size_t i = 0; i < r->ntable; i++)
		html_table(f, &r->table[i]);
	fputs("</section>\n", f);
}

static const char methods[] =
"<section id=\"methods\">\n<h2>Methods and conventions</h2>\n<ul>\n"
"<li><b>Minute buckets.</b> I/O is counted in UTC-aligned, half-open "
"minutes [t, t + 60 s), labelled by t. A sample's counter deltas are "
"split over the minutes its interval overlaps, exactly (integer parts "
"that sum to the whole). Throughput X(m) = bytes read and written in "
"minute m / 60 s, in MiB/s (2<sup>20</sup> bytes per second).</li>\n"
"<li><b>Completeness.</b> A minute is complete when every device "
"expected in it has samples covering all of it; otherwise it is "
"missing. Missing minutes are never counted as zero or as idle: means, "
"peaks, CDFs and idle periods use complete minutes only, and every I/O "
"result states its coverage (complete minutes of the calendar minutes "
"in the window). Days with missing minutes are marked partial and never "
"scaled up. Gaps are drawn as gaps.</li>\n"
"<li><b>Peak.</b> The observed maximum of X over complete minutes, "
"unless a provisioned bandwidth is configured (--peak); each result says "
"which was used, and its value.</li>\n"
"<li><b>Below a share of peak</b> uses a strict &lt;: a minute is below "
"f% of peak when X(m) &lt; f/100 \u00b7 P, compared exactly in integer "
"bytes. CDFs use \u2264: F(x) = share of complete minutes with X(m) "
"\u2264 x.</li>\n"
"<li><b>Quantiles</b> use the nearest-rank rule: q<sub>p</sub> = "
"X<sub>(\u2308p\u00b7n\u2309)</sub> of the n sorted complete-minute "
"values.</li>\n"
"<li><b>Idle periods</b> are maximal runs of consecutive complete "
"minutes below the threshold; a busy or a missing minute ends a run. "
"The strict variant counts minutes in which no device completed any "
"request.</li>\n"
"<li><b>File histograms</b> use the log<sub>2</sub> buckets of fsstats "
"(sizes in bytes, ages in whole days against the scan's reference time). "
"Medians and percentiles inside a bucket are interpolated and labelled "
"as such.</li>\n"
"<li><b>Growth</b> is net (creations minus deletions) between complete "
"snapshots. Two snapshots give linear and exponential dates without an "
"uncertainty estimate; three or more give least-squares fits with a 95% "
"prediction range.</li>\n"
"<li><b>Burstiness</b> follows El Sayed et al. (PDSW-DISC 2016): I/O "
"intensity I, burstiness \u03c1 and parallel I/O intensity P per "
"activity threshold c. <b>Load classes</b> follow Beacon (NSDI 2019): an "
"hour's peak minute against the peak: idle &lt; 10%, low &lt; 50%, mid "
"\u2264 90%, high &gt; 90%.</li>\n"
"<li><b>Device health</b> follows Gunawi et al. (FAST 2018) and Beacon "
"(NSDI 2019): hour by hour, each device against the other devices of its "
"kind on its host that served a like load of like requests, by its time "
"per read, per write and per byte; slow when above K times its peers' "
"median for most of its compared hours since its onset (at least 6). A "
"device without enough peers, busy or compared hours is not called, "
"never counted healthy.</li>\n"
"<li><b>Device level.</b> iostatmon samples whole disks below md and dm, "
"so sums count what the disks carry: a write to RAID1 or RAID10 once per "
"copy, to RAID4/5/6 with its parity. Where a host's devices are md or dm "
"devices, the arrays themselves were sampled and count what was sent to "
"them, once. The device health section names each host's level.</li>\n"
"<li><b>Units and time.</b> Sizes in binary units (1 KiB = 1024 bytes); "
"all times are UTC; \u201cn/a\u201d marks a value that is missing or "
"undefined, never zero.</li>\n"
"</ul>\n</section>\n";

int
render_html(FILE *f, struct result *const *parts, size_t nparts,
    const char *meta_title, const char *generated_by)
{
	size_t fignum = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n<title>", f);
	esc(f, meta_title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<header class=\"page\"><h1>", page_css);
	esc(f, meta_title);
	fputs("</h1><p>", f);
	esc(f, generated_by);
	fputs("</p></header>\n<main>\n<nav><ol>\n", f);
	for (size_t i = 0; i < nparts; i++) {
		fprintf(f, "<li><a href=\"#r%zu\">", i + 1);
		esc(f, parts[i]->title);
		fputs("</a></li>\n", f);
	}
	fputs("<li><a href=\"#methods\">Methods and conventions</a></li>\n"
	    "</ol></nav>\n", f);
	for (size_t i = 0; i < nparts; i++)
		section_html(f, parts[i], i + 1, &fignum);
	fputs(methods, f);
	fputs("<footer>", f);
	esc(f, generated_by);
	fputs("</footer>\n</main>\n</body>\n</html>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
