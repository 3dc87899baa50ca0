/*
 * hardlink: regular files with st_nlink > 1, counted once per (dev, ino).
 *
 * Each thread keeps its own table; the tables are merged after the walk
 * and only then are the files accounted. The link that owns an inode (for
 * project, owner and directory totals) is the one with the smallest
 * (parent directory inode, name), so the result does not depend on which
 * thread saw which link first. This table is the only part of a scan's
 * memory that grows with the number of files.
 */
#ifndef FSSCAN_HARDLINK_H
#define FSSCAN_HARDLINK_H

#include <stddef.h>
#include <stdint.h>

#include "census.h"

struct dirtot;

struct hl_file {
	uint64_t size, blocks;
	int64_t atime, mtime, ctime;
	uint32_t uid, gid, nlink;
	int32_t proj;			/* owning link's project */
	struct dirtot *acct;		/* owning link's v_dir node */
	int32_t rank;			/* fsscan-mpi: the rank that saw the
					   owning link (proj and acct are
					   that rank's) */
};

struct hl_ent {
	uint64_t dev, ino;
	uint64_t links;			/* links seen */
	uint64_t owner_pino;		/* owning link: parent dir inode */
	char *owner_name;		/* and name, owned */
	size_t owner_namelen;
	struct top_ent top;		/* for top-N: the smallest path of
					   the links offered, held while the
					   walk runs (census.h) */
	struct hl_file f;
};

struct hltab {
	struct hl_ent *e;		/* e[0 .. len-1], in order of first link */
	size_t len, cap;
	uint32_t *slot;			/* hash index: 1 + position in e, 0 empty */
	size_t nslot;
	uint64_t links;			/* links seen in total */
};

/* Record one link, name in directory dir; dir is held as a top-N
 * candidate when top is set. */
void hl_note(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t pino,
    struct dnode *dir, const char *name, size_t namelen,
    const struct hl_file *f, int top);
/* Add links links to one inode, of which (pino, name) is the smallest
 * and f its file; name and what top owns (it may hold nothing) pass to
 * the table. */
void hl_add(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t links,
    uint64_t pino, char *name, size_t namelen, const struct hl_file *f,
    struct top_ent *top);
/* Build every entry's top-N path, letting go of its directory. */
void hl_resolve(struct hltab *t);
/* Move all of src into dst, combining links to the same inode. */
void hl_merge(struct hltab *dst, struct hltab *src);
/* The entry of (dev, ino), or NULL. */
struct hl_ent *hl_find(struct hltab *t, uint64_t dev, uint64_t ino);
void hl_free(struct hltab *t);

#endif
