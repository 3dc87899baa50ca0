/*
 * render_bundle: report.html and the data behind it in one .tar.gz
 * (libarchive).
 *
 * Layout: report.html; per result NN-COMMAND.json (the whole result:
 * notes and tables) and a directory NN-COMMAND/ with KEY.csv and KEY.json
 * for each table, NN being the result's position in the report. Members
 * are written in byte order of their names, with mtime 0, uid/gid 0,
 * owner "root", mode 0644 (0755 for directories), and the gzip header
 * carries no name and no time: the same report gives the same bytes.
 */
#include <assert.h>
#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "render.h"
#include "xalloc.h"

struct member {
	char *name;
	char *data;		/* NULL: a directory */
	size_t len;
};

struct members {
	struct member *m;
	size_t n;
};

static void
add(struct members *ms, char *name, char *data, size_t len)
{
	ms->m = xreallocarray(ms->m, ms->n + 1, sizeof *ms->m);
	ms->m[ms->n].name = name;
	ms->m[ms->n].data = data;
	ms->m[ms->n].len = len;
	ms->n++;
}

/* A name safe as one path component: [A-Za-z0-9_.-], no leading dot. */
static void
put_component(FILE *f, const char *s)
{
	if (*s == '.' || *s == 0)
		putc('_', f);
	for (; *s; s++)
		putc(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_.-", *s) ? *s : '_', f);
}

static char *
member_name(size_t part, const char *command, const char *key,
    const char *ext)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fprintf(f, "%02zu-", part);
	put_component(f, command);
	if (key) {
		putc('/', f);
		put_component(f, key);
	}
	fputs(ext, f);
	fclose(f);
	return buf;
}

static void
add_table(struct members *ms, size_t part, const struct result *r,
    const struct rtable *t, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (json)
		render_table_json(f, t);
	else
		render_table_csv(f, t);
	fclose(f);
	add(ms, member_name(part, r->command, t->key, json ? ".json" :
	    ".csv"), buf, len);
}

static void
collect(struct members *ms, struct result *const *parts, size_t nparts)
{
	for (size_t i = 0; i < nparts; i++) {
		const struct result *r = parts[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		render_result(f, r, FMT_JSON, NULL);
		fclose(f);
		add(ms, member_name(i + 1, r->command, NULL, ".json"), buf,
		    len);
		add(ms, member_name(i + 1, r->command, NULL, ""), NULL, 0);
		for (size_t k = 0; k < r->ntable; k++) {
			add_table(ms, i + 1, r, &r->table[k], 0);
			add_table(ms, i + 1, r, &r->table[k], 1);
		}
	}
}

static int
by_name(const void *a, const void *b)
{
	const struct member *p = a, *q = b;

	return strcmp(p->name, q->name);
}

static int
write_member(struct archive *a, const struct member *m)
{
	struct archive_entry *e = archive_entry_new();
	int rc = 0;

	archive_entry_set_pathname(e, m->name);
	archive_entry_set_filetype(e, m->data ? AE_IFREG : AE_IFDIR);
	archive_entry_set_perm(e, m->data ? 0644 : 0755);
	archive_entry_set_size(e, m->data ? (la_int64_t)m->len : 0);
	archive_entry_set_mtime(e, 0, 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_uname(e, "root");
	archive_entry_set_gname(e, "root");
	if (archive_write_header(a, e) != ARCHIVE_OK)
		rc = -1;
	else if (m->data && m->len && archive_write_data(a, m->data, m->len)
	    != (la_ssize_t)m->len)
		rc = -1;
	archive_entry_free(e);
	return rc;
}

/* Written through an outfile: a failed bundle leaves no partial file. */
static int
write_archive(const char *path, const struct members *ms,
    const struct outfile_opts *out, char *err, size_t errlen)
{
	struct archive *a = archive_write_new();
	struct outfile o;
	int rc = 0;

	if (outfile_open(&o, path, out, err, errlen) < 0) {
		archive_write_free(a);
		return -1;
	}
	if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_filter_option(a, "gzip", "timestamp", NULL) !=
	    ARCHIVE_OK || archive_write_open_fd(a, o.fd) != ARCHIVE_OK)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < ms->n; i++)
		rc = write_member(a, &ms->m[i]);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, archive_error_string(a) ?
		    archive_error_string(a) : "cannot write archive");
	if (archive_write_close(a) != ARCHIVE_OK && rc == 0) {
		snprintf(err, errlen, "%s: %s", path, archive_error_string(a));
		rc = -1;
	}
	archive_write_free(a);
	if (rc == 0)
		return outfile_commit(&o, err, errlen);
	outfile_abort(&o);
	return rc;
}

int
render_bundle(const char *path, const char *html, size_t html_len,
    struct result *const *parts, size_t nparts,
    const struct outfile_opts *out, char *err, size_t errlen)
{
	struct members ms = { NULL, 0 };
	int rc;

	assert(path != NULL && (html != NULL || html_len == 0));
	assert((parts != NULL || nparts == 0) && out != NULL);
	assert(err != NULL && errlen > 0);
	add(&ms, xstrdup("report.html"), xmalloc(html_len + 1), html_len);
	memcpy(ms.m[0].data, html, html_len);
	collect(&ms, parts, nparts);
	qsort(ms.m, ms.n, sizeof *ms.m, by_name);
	rc = write_archive(path, &ms, out, err, errlen);
	for (size_t i = 0; i < ms.n; i++)
		free(ms.m[i].name), free(ms.m[i].data);
	free(ms.m);
	return rc;
}
