/*
 * db_int: the schema upgrades that need more than the embedded SQL.
 * Not for use outside lib/db*.c.
 */
#ifndef IOCENSUS_DB_INT_H
#define IOCENSUS_DB_INT_H

#include <sqlite3.h>
#include <stddef.h>

/* Before the schema is installed: when dir still holds paths (schema 3
 * and before), move it aside as dir_v3 (v_dir, which reads it, is
 * dropped and recreated by the views). 1 when moved, 0 when there is
 * nothing to upgrade, -1 with a message in err. */
int dbupgrade_dir_aside(sqlite3 *db, char *err, size_t errlen);
/* After the schema is installed: one row per old row, the path split into
 * its parent's row and its own name, then dir_v3 dropped. A row whose
 * parent has no row keeps its whole path as its name and no parent, so
 * v_dir shows it as before. */
int dbupgrade_dir_rows(sqlite3 *db, char *err, size_t errlen);

#endif
