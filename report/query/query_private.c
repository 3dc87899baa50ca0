/*
 * query_private: the private project names of a database and their
 * opaque labels (query.h). The labels are keyed: SipHash-2-4 under the
 * database's own random key, so that a reader of a shared output cannot
 * hash guessed names to find which one a label stands for, while the
 * same name keeps its label across scans (a Prometheus series goes on).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "query.h"
#include "siphash.h"
#include "xalloc.h"

/* A name is private when some snapshot says so; a row written before
 * schema 9 was given its value by the upgrade (lib/db.c). */
static const char private_sql[] =
    "SELECT name FROM project GROUP BY name"
    " HAVING min(coalesce(public, 0)) = 0";

int
query_private_load(sqlite3 *db, struct query_private *p, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int step;

	assert(db != NULL && p != NULL);
	memset(p, 0, sizeof *p);
	if (db_key(db, p->key, err, errlen) < 0)
		return -1;
	if (!(st = db_prepare(db, private_sql, err, errlen)))
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		strtab_add(&p->names, (const char *)sqlite3_column_blob(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		db_sqlerr(db, "private project names", err, errlen);
		query_private_free(p);
		return -1;
	}
	return 0;
}

void
query_private_free(struct query_private *p)
{
	strtab_free(&p->names);
	memset(p->key, 0, sizeof p->key);
}

static void
label_of(const struct query_private *p, const char *name, size_t len,
    char buf[QUERY_LABEL_LEN])
{
	snprintf(buf, QUERY_LABEL_LEN, QUERY_LABEL_PREFIX "%016llx",
	    (unsigned long long)siphash_24(p->key, name, len));
}

const char *
query_private_label(const struct query_private *p, const char *name,
    char buf[QUERY_LABEL_LEN])
{
	size_t len = strlen(name);

	if (strtab_find(&p->names, name, len) == STRTAB_NONE)
		return NULL;
	label_of(p, name, len, buf);
	return buf;
}

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	    c == '/';
}

/* The first whole occurrence of a private name in s, the longest at
 * that place: its index in p->names and where it is; -1 when none. */
static long
first_name(const struct query_private *p, const char *s, const char **at)
{
	long best = -1;
	size_t bestlen = 0;

	*at = NULL;
	for (size_t i = 0; i < p->names.n; i++) {
		const char *n = p->names.name[i];
		size_t len = strlen(n);

		for (const char *q = s; len && (q = strstr(q, n)); q++) {
			if ((q > s && name_char(q[-1])) || name_char(q[len]))
				continue;
			if (*at == NULL || q < *at ||
			    (q == *at && len > bestlen)) {
				*at = q;
				best = (long)i;
				bestlen = len;
			}
			break;
		}
	}
	return best;
}

char *
query_private_text(const struct query_private *p, const char *s)
{
	char *out = NULL, buf[QUERY_LABEL_LEN];
	size_t used = 0, cap = 0;
	const char *at;
	long i;
	int changed = 0;

	while ((i = first_name(p, s, &at)) >= 0) {
		size_t len = strlen(p->names.name[i]), pre = (size_t)(at - s);

		label_of(p, p->names.name[i], len, buf);
		out = xgrow(out, used + pre + sizeof buf, &cap, 1, 64);
		memcpy(out + used, s, pre);
		used += pre;
		memcpy(out + used, buf, strlen(buf));
		used += strlen(buf);
		s = at + len;
		changed = 1;
	}
	if (!changed)
		return NULL;
	out = xgrow(out, used + strlen(s) + 1, &cap, 1, 64);
	memcpy(out + used, s, strlen(s) + 1);
	return out;
}
