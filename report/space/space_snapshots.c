/*
 * space_snapshots: the list of snapshots in the census database (those
 * started in the window, when there is one). A snapshot that is still
 * running, or died, has no totals: its cells are NULL. scanned_at differs
 * from started_at for a scan of a file-system snapshot (fsscan --as-of).
 * --fs keeps one file system's (a name no snapshot has is a usage
 * error that lists the names).
 */
#include <assert.h>
#include <stdio.h>

#include <string.h>

#include "space.h"
#include "query/query.h"
#include "space_names_int.h"
#include "space_snapout_int.h"

enum { C_ID, C_FS, C_ROOT, C_START, C_END, C_COMPLETE, C_STATUS, C_FILES,
    C_DIRS, C_BYTES, C_ALLOC, C_ERRORS, C_SCANNED };

static const struct rcol_spec cols[] = {
	[C_ID] = { "id", "Id", NULL, CF_PLAIN, 0 },
	[C_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[C_ROOT] = { "root", "Root", NULL, CF_PLAIN, 0 },
	[C_START] = { "started_at", "Started (UTC)", NULL, CF_TIME, 0 },
	[C_END] = { "finished_at", "Finished (UTC)", NULL, CF_TIME, 0 },
	[C_COMPLETE] = { "complete", "Complete", NULL, CF_BOOL, 0 },
	[C_STATUS] = { "status", "Status", NULL, CF_PLAIN, 0 },
	[C_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[C_DIRS] = { "dirs", "Directories", "dirs", CF_PLAIN, 0 },
	[C_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 0 },
	[C_ALLOC] = { "alloc_bytes", "Allocated", "bytes", CF_BYTES, 0 },
	[C_ERRORS] = { "errors", "Errors", "entries", CF_PLAIN, 0 },
	[C_SCANNED] = { "scanned_at", "Scanned (UTC)", NULL, CF_TIME, 0 },
};

struct result *
space_snapshots(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct snap *s;
	size_t n, incomplete = 0, shown = 0, of = 0;
	struct result *r;
	struct rtable *t;
	const char *fs = NULL;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return NULL;
	if (o->fs && space_names_choose_fs(s, n, o->fs, 0, &fs, err,
	    errlen) < 0) {
		query_census_snaps_free(s, n);
		return NULL;
	}
	r = result_new("snapshots", "Snapshots");
	t = result_table(r, "snapshots", "Snapshots in the census database",
	    cols, sizeof cols / sizeof *cols);
	result_wide(t, "finished_at,complete,dirs,alloc_bytes,scanned_at");
	for (size_t i = 0; i < n; i++) {
		size_t row;

		if (fs && strcmp(s[i].fs, fs) != 0)
			continue;
		of++;
		if (s[i].started_at < io_window_lo(&o->win) ||
		    s[i].started_at >= io_window_hi(&o->win))
			continue;
		row = result_row(t);
		shown++;
		result_set_int(t, row, C_ID, s[i].id);
		result_set_text(t, row, C_FS, s[i].fs);
		result_set_text(t, row, C_ROOT, s[i].root);
		result_set_int(t, row, C_START, s[i].started_at);
		space_snapout_nint(t, row, C_END, s[i].finished_at);
		result_set_int(t, row, C_COMPLETE, s[i].complete);
		result_set_text(t, row, C_STATUS, s[i].status);
		space_snapout_nint(t, row, C_FILES, s[i].files);
		space_snapout_nint(t, row, C_DIRS, s[i].dirs);
		space_snapout_nint(t, row, C_BYTES, s[i].bytes);
		space_snapout_nint(t, row, C_ALLOC, s[i].alloc);
		space_snapout_nint(t, row, C_ERRORS, s[i].errors);
		space_snapout_nint(t, row, C_SCANNED, s[i].scanned_at);
		incomplete += !s[i].complete;
	}
	if (n == 0)
		result_note(r, "No snapshots in the database.");
	else if (shown < of)
		result_note(r, "%zu of %zu snapshots started in the window.",
		    shown, of);
	if (incomplete)
		result_note(r, "%zu of %zu snapshot%s %s not complete (running,"
		    " interrupted or failed); %s totals are missing or"
		    " partial.", incomplete, shown, shown == 1 ? "" : "s",
		    incomplete == 1 ? "is" : "are", incomplete == 1 ? "its" :
		    "their");
	query_census_snaps_free(s, n);
	return r;
}
