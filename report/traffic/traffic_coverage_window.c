/*
 * traffic_coverage_window: coverage notes of a window without keeping its
 * series.
 */
#include "traffic_int.h"

int
traffic_coverage_window_notes(sqlite3 *db, const struct io_window *w,
    int partial, struct result *r, size_t *complete, char *err, size_t errlen)
{
	struct minute_series s;
	struct io_coverage c;

	if (query_minutes_load(db, w, &s, err, errlen))
		return -1;
	traffic_coverage_count(&s, &c);
	c.partial = partial;
	*complete = traffic_coverage_notes(r, db, &c);
	query_minutes_free(&s);
	return 0;
}
