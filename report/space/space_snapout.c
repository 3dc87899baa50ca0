/*
 * space_snapout: shared result-filling helpers of the snapshot analyses.
 */
#include "space_snapout_int.h"

#include <math.h>
#include <string.h>

#include "human.h"

void
space_snapout_nint(struct rtable *t, size_t row, int col, struct nint v)
{
	if (v.has)
		result_set_wide(t, row, col, v.v);
}

void
space_snapout_real(struct rtable *t, size_t row, int col, double v)
{
	if (!isnan(v))
		result_set_real(t, row, col, v);
}

int
space_snapout_unresolved(struct result *r, sqlite3 *db, const struct snap *s,
    const char *which, double *share, char *err, size_t errlen)
{
	int64_t files;
	i128 bytes;
	char a[32], b[32];

	*share = NAN;
	if (!s->files.has || s->files.v <= 0)
		return 0;
	if (query_census_project_totals(db, s->id, "(none)", &files, &bytes,
	    err,
	    errlen) < 0)
		return -1;
	*share = (double)files / (double)s->files.v;
	result_note(r, "Files whose project could not be resolved"
	    " (\"(none)\")%s%s: %s of %s (%.2f%%).", which ? " in " : "",
	    which ? which : "", human_int(files, a, sizeof a),
	    human_int((int64_t)s->files.v, b, sizeof b), 100 * *share);
	return 0;
}

void
space_snapout_atime_mode(struct result *r, const struct snap *s)
{
	static const char *const modes[] = { "noatime", "strictatime",
	    "relatime", "lazytime" };
	const char *o = s->mount_opts, *mode = NULL;

	for (int i = 0; o && !mode && i < 4; i++) {
		const char *p = strstr(o, modes[i]);
		size_t n = strlen(modes[i]);
		if (p && (p == o || p[-1] == ',') && (!p[n] || p[n] == ','))
			mode = modes[i];
	}
	result_note(r, "atime mode of %s: %s%s.", s->fs, mode ? mode :
	    "unknown", mode && !strcmp(mode, "noatime") ? " (atime ages are"
	    " meaningless)" : mode && !strcmp(mode, "relatime") ? " (atime"
	    " advances at most once a day)" : "");
}
