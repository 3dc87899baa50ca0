/*
 * dbfile: where a census database lives, found without trusting other
 * users. SQLite opens files by name, so the name it is given is made safe
 * first: the directory is opened one component at a time (lib/safedir),
 * the file is opened or created relative to it with O_NOFOLLOW (a new
 * one with O_EXCL, mode 0640, in the group asked for), and SQLite gets the
 * directory's real path, which holds no link, with SQLITE_OPEN_NOFOLLOW,
 * so that a link swapped in afterwards makes it fail rather than follow.
 * The caller reads what it must through fd, then lets it go
 * (dbfile_release) before SQLite opens the file: closing any descriptor
 * of a file drops every POSIX lock the process holds on it, SQLite's
 * included. Once SQLite has the file open, dbfile_check says whether it
 * is the very file that was checked.
 */
#ifndef IOCENSUS_DBFILE_H
#define IOCENSUS_DBFILE_H

#include <sqlite3.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct dbfile {
	char *sqlpath;	/* the name SQLite opens */
	int fd;		/* the file, read-only, until released; -1 when it
			   does not exist */
	int exists;	/* it does (or did, when found): st is its status */
	struct stat st;
	int created;	/* made by this call */
	int checked;	/* dbfile_check found SQLite's file to be it (D3) */
};

/* How a writer that may create the database makes it: the file with
 * mode 0640 and any missing directory above it with 0750, both in group
 * (gid_t)-1: the creator's). */
struct dbfile_create {
	gid_t group;
};
/* The mode of a directory made for the database: the census names every
 * directory, which only root and the database's group may read. */
#define DBFILE_DIR_MODE	0750

/* Find path. create NULL: it must exist. Else it is made when missing,
 * and its directory must be one no other user can plant files in: not
 * writable by all, and root's when root runs: SQLite creates its -wal
 * and -shm files there by name. 0, or -1 with err. */
int dbfile_open(struct dbfile *f, const char *path,
    const struct dbfile_create *create, char *err, size_t errlen);
/* Close fd, keeping what st says of the file. */
void dbfile_release(struct dbfile *f);
/* Is the file db has open the one f checked? 0 (f->checked is set), or
 * -1 with err. */
int dbfile_check(struct dbfile *f, sqlite3 *db, const char *path,
    char *err, size_t errlen);
void dbfile_close(struct dbfile *f);

#endif
