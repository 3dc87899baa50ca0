/*
 * render_html: the report page (render_html in render.h). One self-contained
 * file: inline CSS, inline SVG, no script, nothing fetched. Every string that
 * came from data goes through fmt_html_str; the page is valid UTF-8 even when
 * file names are not.
 */
#include <assert.h>
#include <string.h>

#include "fmt.h"
#include "human.h"
#include "render.h"
#include "render_int.h"

static const char page_css[] =
"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
"sans-serif;color:#1a1a1a;background:#fff;margin:0;line-height:1.45}\n"
"main{padding:0 24px 48px}\n"
"header.page{background:#123a5c;color:#fff;padding:20px 24px}\n"
"header.page h1{margin:0;font-size:1.7em}\n"
"header.page p{margin:4px 0 0;opacity:.85}\n"

"section{margin-top:28px;border-top:1px solid #d8dee4;padding-top:8px}\n"
"h2{color:#123a5c;margin:.4em 0}\n"
"p.note{margin:.3em 0;max-width:60em}\n"
"p.nodata{color:#8a4b00;background:#fff6e5;padding:6px 10px;"
"border-left:4px solid #e69f00;max-width:60em}\n"
"figure{margin:16px 0;max-width:1100px}\n"
"figure svg{max-width:100%;height:auto;display:block}\n"
"figcaption{font-size:.92em;color:#333;margin-top:4px}\n"
"table{border-collapse:collapse;margin:8px 0 16px;font-size:.88em}\n"
"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
"th,td{padding:.2em .55em;border-bottom:1px solid #e4e8ec;"
"vertical-align:top}\n"
"th{background:#f3f6f9;text-align:left}\n"
"th .unit{font-weight:normal;color:#555}\n"
"td.wrap{overflow-wrap:anywhere}\n"
"td.num{text-align:right;font-variant-numeric:tabular-nums;"
"white-space:nowrap}\n"
"td.na{color:#999;text-align:right}\n"
"tbody tr:nth-child(even){background:#fafbfc}\n"
"tr.group th{background:#e8eef4;font-weight:600;padding-top:.45em}\n"
"#r1 table{font-size:.92em}\n"
"#r1 caption{font-size:1.05em;color:#123a5c}\n"
"#r1 table:has(td[data-label=Status]) caption{color:#a4161a}\n"
"details{margin:8px 0}\n"
"summary{cursor:pointer;color:#123a5c}\n"
"p.cut{font-size:.85em;color:#555}\n"
"footer{margin-top:32px;font-size:.85em;color:#555}\n"
"details.toc{margin:16px 0;padding:6px 16px;background:#f3f6f9;"
"border-radius:6px}\n"
"details.toc ol{margin:4px 0;padding-left:1.4em;columns:20em 3}\n"
"details.toc a{color:#123a5c}\n"
"p.print{display:none}\n"
/* Printed: the summary whole and the details' figures, two abreast,
 * under their sections' headings: a bounded number of pages, whatever
 * the rows (the page and the bundle hold every table and note). */
"@media print{header.page{background:none;color:#000;padding:0}"
"main{padding:0}details.toc{display:none}table,#r1 table{font-size:7pt}"
"h2{break-after:avoid;font-size:1.1em}"
"p.print{display:block;font-size:.85em;color:#555}"
"section.result:not(#r1)>:not(h2):not(figure){display:none}"
"section.result:not(#r1):not(:has(figure)),#methods{display:none}"
"section{margin-top:8px;padding-top:2px}"
"figure{max-width:none;display:inline-block;width:49%;margin:2px 0;"
"vertical-align:top}figure svg{width:100%}"
"figcaption{font-size:6.5pt}figure,tr{break-inside:avoid}}\n";

/* The rules that stack table sel: each row a block of its cells, each
 * "its column: its value" (data-label, html_table.c), wrapped as words
 * are. */
static void
stack_css(FILE *f, const char *sel)
{
	fprintf(f, "%s thead{display:none}", sel);
	fprintf(f, "%s,%s caption,%s tbody,%s tr,%s tr.group th"
	    "{display:block}", sel, sel, sel, sel, sel);
	fprintf(f, "%s tr{border-bottom:1px solid #d8dee4;padding:.25em 0}",
	    sel);
	fprintf(f, "%s td{display:inline-block;border:0;text-align:left;"
	    "white-space:normal;overflow-wrap:anywhere;padding:.05em .55em;"
	    "max-width:100%%;box-sizing:border-box}", sel);
	fprintf(f, "%s td::before{content:attr(data-label) \": \";"
	    "font-weight:600;color:#444}\n", sel);
}

/* Each table's class says how wide a window it needs (render_int.h):
 * narrower, it is stacked; printed, those too wide for the page are. */
static void
layout_css(FILE *f)
{
	char sel[32];

	stack_css(f, "table.sall");
	for (int n = RENDER_STACK_MIN + 1; n <= RENDER_STACK_MAX; n++) {
		fprintf(f, "@media screen and (max-width:%dpx){", n * 100 - 1);
		snprintf(sel, sizeof sel, "table.s%d", n);
		stack_css(f, sel);
		fputs("}\n", f);
	}
	fputs("@media print{", f);
	for (int n = RENDER_PRINT_MAX + 1; n <= RENDER_STACK_MAX; n++) {
		snprintf(sel, sizeof sel, "table.s%d", n);
		stack_css(f, sel);
	}
	fputs("}\n", f);
}

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

/* A figure over time whose table runs past its data: say which span it
 * shows. */
static void
figure_span(FILE *f, const struct rtable *t, const struct rfigure *fig,
    size_t a, size_t b)
{
	char d[4][32];
	int64_t x[4] = { result_cell(t, a, fig->xcol)->v.i, result_cell(t,
	    b - 1, fig->xcol)->v.i, result_cell(t, 0, fig->xcol)->v.i,
	    result_cell(t, t->nrow - 1, fig->xcol)->v.i };

	if (!fig->xtime || (a == 0 && b == t->nrow) ||
	    result_cell(t, a, fig->xcol)->kind != CK_INT ||
	    result_cell(t, b - 1, fig->xcol)->kind != CK_INT ||
	    result_cell(t, 0, fig->xcol)->kind != CK_INT ||
	    result_cell(t, t->nrow - 1, fig->xcol)->kind != CK_INT)
		return;
	for (int i = 0; i < 4; i++)
		human_date(x[i], 1, d[i], sizeof d[i]);
	fprintf(f, " It shows %s to %s, where there are data; the table runs"
	    " from %s to %s.", d[0], d[1], d[2], d[3]);
}

static void
figure_html(FILE *f, const struct result *r, const struct rfigure *fig,
    size_t sec, size_t n, size_t *fignum)
{
	const struct rtable *t = fig->table < r->ntable ?
	    &r->table[fig->table] : NULL;
	size_t a = 0, b = 0;

	if (t && !svg_data_rows(t, fig, &a, &b)) {
		fputs("<p class=\"nodata\">No data in the window for the "
		    "figure \u201c", f);
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
	if (t)
		figure_span(f, t, fig, a, b);
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
"kind on its host that served requests of a like size, by its time per "
"read and per MiB read, per write and per MiB written, each divided by "
"the wait its own load explains (M/M/1), reads and writes apart; slow in "
"a direction when above K times its peers' median for most of its hours "
"compared in it since its onset (at least 6), suspect with fewer; "
"intermittent with 2 or more episodes of 10 or more slow minutes. A "
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

	assert(f != NULL && (parts != NULL || nparts == 0));
	assert(meta_title != NULL && generated_by != NULL);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n<title>", f);
	esc(f, meta_title);
	fprintf(f, "</title>\n<style>\n%s", page_css);
	layout_css(f);
	fputs("</style>\n</head>\n<body>\n<header class=\"page\"><h1>", f);
	esc(f, meta_title);
	fputs("</h1><p>", f);
	esc(f, generated_by);
	fprintf(f, "</p></header>\n<main>\n<details class=\"toc\"><summary>"
	    "Contents: %zu sections</summary><nav><ol>\n", nparts + 1);
	for (size_t i = 0; i < nparts; i++) {
		fprintf(f, "<li><a href=\"#r%zu\">", i + 1);
		esc(f, parts[i]->title);
		fputs("</a></li>\n", f);
	}
	fputs("<li><a href=\"#methods\">Methods and conventions</a></li>\n"
	    "</ol></nav></details>\n<p class=\"print\">Printed: the summary"
	    " and the figures of the details; the page and its bundle"
	    " (--bundle) hold every table and note.</p>\n", f);
	for (size_t i = 0; i < nparts; i++)
		section_html(f, parts[i], i + 1, &fignum);
	fputs(methods, f);
	fputs("<footer>", f);
	esc(f, generated_by);
	fputs("</footer>\n</main>\n</body>\n</html>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
