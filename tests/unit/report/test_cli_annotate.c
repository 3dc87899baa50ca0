/* test_cli_annotate: --annotate FILE read by report/cli/cli_annotate.c:
 * dates, times and labels, and the errors that name the file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_int.h"
#include "tap.h"

static char path[64];

static void
write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void
good(void)
{
	struct annotation *a = NULL;
	size_t n = 99;
	char err[256] = "";

	write_file("# windows\n\n"
	    "2010-03-01 2010-03-02 maintenance day\n"
	    "  2010-02-01T09:00 2010-02-05T10:00Z   data lost  \n"
	    "2010-03-10 06:00 2010-03-10 18:00:30 unplanned 10:00 outage\n"
	    "@1267401600 1267405200 x\n");
	if (!ok_why(cli_annotate_load(path, &a, &n, err, sizeof err) == 0, err,
	    "annotations load"))
		return;
	is_i64((int64_t)n, 4, "four windows");
	is_i64(a[0].from, 1267401600, "date FROM");
	is_i64(a[0].to, 1267488000, "date TO");
	is_str(a[0].label, "maintenance day", "label with a blank");
	is_i64(a[1].from, 1264982400 + 9 * 3600, "ISO T time");
	is_i64(a[1].to, 1264982400 + 4 * 86400 + 10 * 3600, "ISO Z time");
	is_str(a[1].label, "data lost", "label trimmed");
	is_i64(a[2].from, 1268179200 + 6 * 3600, "date and time as two words");
	is_i64(a[2].to, 1268179200 + 18 * 3600 + 30, "TO with seconds");
	is_str(a[2].label, "unplanned 10:00 outage", "label keeps inner words");
	is_i64(a[3].to, 1267405200, "unix seconds");
	opts_annotations_free(a, n);
}

static void
bad(const char *text, const char *want, const char *name)
{
	struct annotation *a = NULL;
	size_t n = 0;
	char err[256] = "", full[128];

	write_file(text);
	snprintf(full, sizeof full, "%s:%s", path, want);
	ok(cli_annotate_load(path, &a, &n, err, sizeof err) == -1,
	    "%s rejected", name);
	is_str(err, full, "%s message", name);
}

int
main(void)
{
	struct annotation *a;
	size_t n;
	char err[256];
	int fd;

	snprintf(path, sizeof path, "/tmp/test_cli_annotate.XXXXXX");
	fd = mkstemp(path);
	close(fd);
	good();
	bad("2010-03-01 2010-03-02 ok\n2010-03-02 2010-03-01 back\n",
	    "2: TO is not after FROM", "reversed window");
	bad("2010-03-01 2010-03-01 empty\n", "1: TO is not after FROM",
	    "empty window");
	bad("# c\n2010-03-01 2010-03-02\n", "2: missing label", "no label");
	bad("2010-03-01\n", "1: bad TO time", "no TO");
	bad("yesterday 2010-03-02 x\n", "1: bad FROM time", "bad FROM");
	bad("2010-03-01 2010-13-02 x\n", "1: bad TO time", "bad month");
	unlink(path);
	ok(cli_annotate_load(path, &a, &n, err, sizeof err) == -1 &&
	    strstr(err, "No such file") != NULL, "missing file: %s", err);
	return tap_end();
}
