/*
 * project: attribution of every entry to a project, by a chain of rules
 * (--project RULE, repeatable, first match wins):
 *
 *   projid        file-system project ID (FS_IOC_FSGETXATTR), read on
 *                 directories only; a directory's own ID names the
 *                 directory, and a directory with PROJINHERIT passes its
 *                 ID to the files in it. ID 0 means "no project"; so does
 *                 a failed ioctl (ENOTTY: the file system has no IDs).
 *                 Names come from /etc/projid (name:id) when present,
 *                 else the decimal ID. $IOCENSUS_PROJID_FILE, when set,
 *                 replaces /etc/projid and must exist. A line that is not
 *                 NAME:ID is an error; for a repeated ID the first wins.
 *   depth:N       the directory N components below ROOT (ROOT is depth
 *                 0) names the project, everything below it inherits it;
 *                 entries above depth N (including files directly in
 *                 ROOT for N=1) do not match. The name is the directory's
 *                 path below ROOT ("proj/climate" for N=2), so that two
 *                 directories of the same name never merge; for N=1 that
 *                 is its name.
 *   map:FILE      lines "PATH-PREFIX PROJECT"; PATH-PREFIX is absolute or
 *                 relative to ROOT, matched at component boundaries, the
 *                 longest prefix wins: a prefix that names a file applies
 *                 to that file. '#' starts a comment.
 *                 Fields are separated by blanks, and a '#' starting a
 *                 field starts the comment. An absolute prefix outside
 *                 ROOT is ignored (one map may cover several file
 *                 systems); ROOT itself ('.') or an ancestor of it matches
 *                 everything. '..' and a repeated prefix are errors.
 *   gidmap:FILE   lines "GID PROJECT" (decimal GID; a repeated GID is an
 *                 error).
 *   group         the group name of the entry's gid (decimal if unknown).
 *   user          the user name of the entry's uid (decimal if unknown).
 *
 * A directory's own project (self) applies the rules to the directory:
 * depth and map by its position, projid by its own ID, owner rules by its
 * uid/gid. Projects are names: two rules giving the same name give the
 * same id. A name is public when every user may know it: the name of a
 * rule the administrator wrote (projid, map, gidmap, group, user), or a
 * depth:N path read only from directories that every user may list
 * (other has r and x on ROOT and each directory down to depth N - 1) below
 * ROOT's ancestors, which every user may search (other has x). The mode's
 * other bits decide: an ACL's named entries grant single users, never
 * every user. Unmatched entries go to project id 0, named "(none)"; no rule
 * gives that name (PROJECT_NONE_NAME below). Directory
 * rules (projid, depth, map) are evaluated once per directory; owner rules
 * once per entry through a small per-thread cache, so the hot path takes
 * no lock. A directory whose own owner rule is reached takes the registry
 * mutex briefly.
 */
#ifndef FSSCAN_PROJECT_H
#define FSSCAN_PROJECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PROJECT_NONE 0
/* The name of PROJECT_NONE, and of no other project: a rule never gives
 * it. Where a rule's name would be "(none)" it is spelled otherwise: a
 * directory named so directly below ROOT (depth:1) is "./(none)", its
 * path; a projid, group or user named so is its decimal ID, as one with
 * no name is. A map or gidmap file that names a project "(none)" is
 * refused (a usage error naming the file and line). */
#define PROJECT_NONE_NAME "(none)"
#define PROJECT_MAX_RULES 8
/* A map, gidmap or projid file is read within the bounds of lib/lines.h
 * (64 MiB, lines of 64 KiB, no NUL byte): map:/dev/zero fails at once. */

struct project_rules;	/* parsed chain plus the shared name registry */

/* Parse the rule specs (NULL/0 means the default "depth:1"). root_abs is
 * the absolute path of ROOT, used to anchor absolute map prefixes. On error
 * returns NULL and writes a message naming the rule, file and line. */
struct project_rules *project_rules_new(const char *const *specs, int nspecs,
    const char *root_abs, char *err, size_t errlen);
void project_rules_free(struct project_rules *r);

/* Per-directory state, copied by value into each directory work item. */
struct proj_dir {
	int32_t match[PROJECT_MAX_RULES];	/* project id per dir rule, -1 none */
	int32_t self;				/* the directory's own project */
	const void *map_node;			/* position in the prefix trie */
	uint32_t projid;			/* this directory's fs project ID */
	uint8_t projinherit;
	uint8_t listed;		/* every user may list this directory and
				   each one above it up to ROOT, and search
				   ROOT's ancestors: a name read from it is
				   public */
};

/* State of ROOT. fd is ROOT's open directory fd (for projid); mode its
 * st_mode. */
void project_root(struct project_rules *r, struct proj_dir *out, int fd,
    uid_t uid, gid_t gid, mode_t mode);
/* State of a directory named name at depth (>= 1) below parent. fd is its
 * open fd, or -1 when it could not be opened (projid then does not match).
 * relpath: its path below ROOT when project_wants_path(r, depth), else
 * NULL. Sets out->self using uid/gid for the owner rules. listable:
 * every user may list it (its mode's other bits hold r and x,
 * PROJECT_LISTABLE). */
void project_dir(struct project_rules *r, const struct proj_dir *parent,
    struct proj_dir *out, const char *name, const char *relpath, int depth,
    int fd, uid_t uid, gid_t gid, int listable);
#define PROJECT_LISTABLE(mode) \
	(((mode) & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH))
/* Whether a directory at depth names a project by its path below ROOT
 * (a depth:N rule with N = depth > 1): the walker builds that path only
 * for those directories. */
int project_wants_path(const struct project_rules *r, int depth);

/* Per-thread cache for owner rules; zero-initialise, free at the end.
 * One cache serves one struct project_rules. */
struct project_cache {
	struct pc_ent { uint32_t key; int32_t proj; } *e;
	size_t cap, len;
};
void project_cache_free(struct project_cache *c);

/* Project of a non-directory entry named name in a directory with state
 * d. */
int32_t project_of(struct project_rules *r, const struct proj_dir *d,
    struct project_cache *c, const char *name, uid_t uid, gid_t gid);

/* fsscan-mpi: projects travel between ranks by name, and a directory's
 * state as its names, its fs project ID and its position in the map
 * trie, found again from its name below its parent's. project_id marks
 * the name public when public is set (as the rank that read it found);
 * source bits are the rules' (bit i: rule i) and PROJECT_PUBLIC. */
#define PROJECT_PUBLIC (1u << 31)
int32_t project_id(struct project_rules *r, const char *name, int public);
uint32_t project_source_bits(const struct project_rules *r, int32_t id);
void project_add_sources(struct project_rules *r, int32_t id, uint32_t bits);
const void *project_map_child(const struct project_rules *r,
    const struct proj_dir *parent, const char *name);

/* Registry, valid after the walk: names and the rules that matched. */
int32_t project_count(const struct project_rules *r);
const char *project_name(const struct project_rules *r, int32_t id);
/* Whether every user may know id's name (above); "(none)" is public. */
int project_public(const struct project_rules *r, int32_t id);
/* Comma-separated rule specs that attributed entries to id ("none" for 0),
 * in chain order; "" when a rule reached the name but attributed nothing
 * to it. */
void project_sources(const struct project_rules *r, int32_t id, char *buf,
    size_t len);
/* The file-system project IDs (not 0) that a projid rule met, each with
 * the project it names, into *ids and *projs (free both); returns how
 * many. For reading their project quotas after the walk. */
size_t project_projids(const struct project_rules *r, uint32_t **ids,
    int32_t **projs);
/* Register project ID id (not 0) as met, under every projid rule, as a
 * walk that met it would: fsscan-mpi's rank 0 learns the others' this
 * way. */
void project_projid_note(struct project_rules *r, uint32_t id);

#endif
