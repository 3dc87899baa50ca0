/*
 * census: what one scan counts. Each walker thread owns one struct census
 * and fills it without locks; census_merge() adds them once at the end.
 * Histograms add exactly, so the merged result does not depend on how the
 * work was split between threads.
 */
#ifndef FSSCAN_CENSUS_H
#define FSSCAN_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"
#include "metric.h"

/* Totals for one owner, project or directory. Bytes are 128-bit: a few
 * sparse files of 2^63 - 1 bytes pass 2^64 (hist.h gives the bounds). */
struct acct {
	uint64_t files, dirs;
	u128 bytes, alloc;
};

struct proj_stats {
	struct acct a;
	uint64_t entries;			/* everything attributed,
	    any type */
	struct phist size, atime, mtime, ctime;	/* regular files only */
};

/* uid or gid -> totals; open addressing, grows by doubling. */
struct idmap {
	struct idmap_ent { uint32_t id; uint32_t used; struct acct a; } *e;
	size_t cap, len;
};

struct dnode;

/* Bounded min-heap keeping the largest keys. An entry is a path (owned),
 * or while the walk runs a directory held (dnode.h) and, for a file, its
 * name (owned): topn_resolve turns those into paths. */
struct topn {
	struct top_ent {
		uint64_t key;
		char *path;
		struct dnode *dir;
		char *leaf;
		size_t leaflen;
	} *e;
	int cap, len;
};

#define ERR_PATHS 5	/* first paths kept per errno */
struct errstat {
	int err;
	uint64_t count;
	int npaths;
	char *paths[ERR_PATHS];
};

struct census {
	/* v_snapshot totals: regular files counted once per inode */
	uint64_t files, dirs, symlinks, others;
	u128 bytes, alloc;
	/* fsstats scalars */
	u128 all_size, all_blocks;	/* every counted entry, roots included */
	uint64_t hardlink_dups, snapshot_dirs, symlink_rel, symlink_abs;
	uint64_t mounts_skipped, excluded;
	struct hist h[METRIC_COUNT];

	struct proj_stats *proj;	/* indexed by project id */
	size_t nproj;
	struct idmap users, groups;
	struct topn top_files;		/* key: st_size */
	struct topn top_dirs;		/* key: entries in the directory */

	struct errstat *errs;		/* sorted by err after merge */
	size_t nerrs;
	uint64_t nerrors;
};

/*
 * Every sum is exact in 128 bits (192 for value * weight) while a scan
 * counts fewer than 2^54 entries, 57 years at 10^7 entries per second:
 * each entry adds less than 2^73 (hist.h). The snapshot writer refuses
 * a census beyond that rather than store a total that could have wrapped.
 */
#define CENSUS_MAX_ENTRIES ((u128)1 << 54)

void census_init(struct census *c, int topn);
/* Entries counted: files, directories, symlinks and others. */
u128 census_entries(const struct census *c);
void census_free(struct census *c);
/* Add src into dst; src is left empty but valid (its paths move to dst). */
void census_merge(struct census *dst, struct census *src);

struct proj_stats *census_proj(struct census *c, int proj);
struct acct *idmap_get(struct idmap *m, uint32_t id);

/* Offer a candidate to a top-N heap; path is built by the caller only when
 * topn_wants() says the key would be kept. Takes ownership of path. */
int topn_wants(const struct topn *t, uint64_t key);
void topn_offer(struct topn *t, uint64_t key, char *path);
/* Offer leaf (NULL: dir itself) in dir without building its path: dir is
 * held and leaf copied only when kept. */
void topn_offer_at(struct topn *t, uint64_t key, struct dnode *dir,
    const char *leaf, size_t leaflen);
/* Turn every held entry into its path, letting go of its directory. */
void topn_resolve(struct topn *t);
/* One entry by itself (a hard link's candidate, hardlink.h): strcmp of
 * the paths of a and b, held or not; its path; its release. */
int top_ent_pathcmp(const struct top_ent *a, const struct top_ent *b);
void top_ent_resolve(struct top_ent *e);
void top_ent_free(struct top_ent *e);
/* Offer e (nothing when it has neither path nor directory) with key;
 * what e owns passes to t or is freed. */
void topn_offer_ent(struct topn *t, uint64_t key, struct top_ent *e);
/* Sort entries by key, largest first (ties by path) for output. */
void topn_sort(struct topn *t);

/* Count an error; path may be NULL when more paths would not be kept. */
int census_error_wants_path(const struct census *c, int err);
void census_error(struct census *c, int err, char *path);
/* Count n more errors err whose paths are not kept. */
void census_error_count(struct census *c, int err, uint64_t n);

#endif
