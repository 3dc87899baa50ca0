/*
 * ionotes: coverage notes of a window without keeping its series.
 */
#include "coverage.h"
#include "ionotes.h"

int
io_window_notes(sqlite3 *db, const struct io_window *w, int partial,
    struct result *r, size_t *complete, char *err, size_t errlen)
{
	struct minute_series s;
	struct io_coverage c;

	if (io_load_minutes(db, w, &s, err, errlen))
		return -1;
	io_coverage_count(&s, &c);
	c.partial = partial;
	*complete = io_coverage_notes(r, db, &c);
	minute_series_free(&s);
	return 0;
}
