/*
 * project: evaluation of the rule chain for directories and entries.
 * Semantics are in project.h; the shared state and its locking rules are
 * in project_int.h.
 *
 * Directory rules (projid, depth, map) are evaluated once per directory
 * into its struct proj_dir, which its entries and subdirectories inherit.
 * Owner rules (gidmap, group, user) depend on the entry and go through
 * the per-thread cache (projcache.c).
 */
#include <sys/ioctl.h>
#include <sys/types.h>
#include <linux/fs.h>

#include <assert.h>
#include <string.h>

#include "project_int.h"

static void
read_projid(int fd, struct proj_dir *d)
{
	struct fsxattr fa;

	/* ENOTTY and friends: this file system has no project IDs. */
	if (fd < 0 || ioctl(fd, FS_IOC_FSGETXATTR, &fa) != 0)
		return;
	d->projid = fa.fsx_projid;
	d->projinherit = (fa.fsx_xflags & FS_XFLAG_PROJINHERIT) != 0;
}

/* The project named by this directory's own project ID. Subtrees under
 * PROJINHERIT share their parent's ID, so this rarely needs the lock. */
static int32_t
projid_project(struct project_rules *r, int i, const struct proj_dir *parent,
    uint32_t projid)
{
	if (parent && parent->projid == projid && parent->match[i] >= 0)
		return parent->match[i];
	return projcache_resolve(r, i, projid);
}

/* The directory's own project: the first rule that matches it. */
static int32_t
dir_self(struct project_rules *r, const struct proj_dir *parent,
    const struct proj_dir *d, uid_t uid, gid_t gid)
{
	for (int i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rule[i];
		int32_t p = -1;

		switch (ru->kind) {
		case R_PROJID:
			if (d->projid == 0)
				break;
			p = d->match[i] >= 0 ? d->match[i] :
			    projid_project(r, i, parent, d->projid);
			break;
		case R_DEPTH:
		case R_MAP:
			p = d->match[i];
			break;
		case R_USER:
			p = projcache_resolve(r, i, (uint32_t)uid);
			break;
		case R_GIDMAP:
		case R_GROUP:
			p = projcache_resolve(r, i, (uint32_t)gid);
			break;
		}
		if (p >= 0) {
			projreg_mark(r, i, p);
			/* P5 */
			assert(p == PROJECT_NONE ||
			    (project_source_bits(r, p) & 1u << i));
			return p;
		}
	}
	return PROJECT_NONE;
}

/* The project depth:N names after a directory at depth N: its path below
 * ROOT, which for N = 1 is its name; "(none)" there is "./(none)", the
 * same path, as PROJECT_NONE's name is no directory's. */
/* public: its components were all read from directories that every
 * user may list (the parent's listed). */
static int32_t
depth_project(struct project_rules *r, const char *name,
    const char *relpath, int depth, int public)
{
	const char *path = depth > 1 && relpath ? relpath : name;

	if (strcmp(path, PROJECT_NONE_NAME) == 0)
		path = "./" PROJECT_NONE_NAME;
	return projreg_intern(r, path, public);
}

/* Fill d for a directory; parent is NULL for ROOT. */
static void
dir_state(struct project_rules *r, const struct proj_dir *parent,
    struct proj_dir *out, const char *name, const char *relpath, int depth,
    int fd, uid_t uid, gid_t gid, int listable)
{
	struct proj_dir d;

	assert(r->frozen);	/* P2: rules are read once built */
	memset(&d, 0, sizeof d);
	d.listed = listable && (parent ? parent->listed : r->above_open);
	for (int i = 0; i < PROJECT_MAX_RULES; i++)
		d.match[i] = -1;
	if (r->has_projid)
		read_projid(fd, &d);
	if (r->trie)
		d.map_node = parent == NULL ? r->trie :
		    parent->map_node ? projmap_child(parent->map_node, name) :
		    NULL;
	for (int i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rule[i];
		int32_t inherited = parent ? parent->match[i] : -1;

		switch (ru->kind) {
		case R_PROJID:
			if (d.projid && d.projinherit)
				d.match[i] = projid_project(r, i, parent,
				    d.projid);
			break;
		case R_DEPTH:
			/* Below depth 1 the path, not the name: distinct
			 * directories stay distinct projects. */
			if (depth == ru->depth)
				d.match[i] = depth_project(r, name, relpath,
				    depth, parent && parent->listed);
			else if (depth > ru->depth)
				d.match[i] = inherited;
			break;
		case R_MAP:
			d.match[i] = projmap_id(r, d.map_node, ru->mapi);
			if (d.match[i] < 0)
				d.match[i] = inherited;
			break;
		default:
			break;		/* owner rules are per entry */
		}
	}
	d.self = dir_self(r, parent, &d, uid, gid);
	*out = d;
}

const void *
project_map_child(const struct project_rules *r,
    const struct proj_dir *parent, const char *name)
{
	if (!r->trie || !parent->map_node)
		return NULL;
	return projmap_child(parent->map_node, name);
}

void
project_root(struct project_rules *r, struct proj_dir *out, int fd,
    uid_t uid, gid_t gid, mode_t mode)
{
	dir_state(r, NULL, out, "", NULL, 0, fd, uid, gid,
	    PROJECT_LISTABLE(mode));
}

void
project_dir(struct project_rules *r, const struct proj_dir *parent,
    struct proj_dir *out, const char *name, const char *relpath, int depth,
    int fd, uid_t uid, gid_t gid, int listable)
{
	assert(parent != NULL && depth >= 1);
	dir_state(r, parent, out, name, relpath, depth, fd, uid, gid,
	    listable);
}

int
project_wants_path(const struct project_rules *r, int depth)
{
	for (int i = 0; depth > 1 && i < r->nrules; i++)
		if (r->rule[i].kind == R_DEPTH && r->rule[i].depth == depth)
			return 1;
	return 0;
}

/* A map rule's project for a file that a map line names itself: the
 * longest prefix there is. -1 when no line names it. */
static int32_t
map_file(struct project_rules *r, const struct proj_dir *d, int mapi,
    const char *name)
{
	const struct mnode *n = d->map_node;

	if (n == NULL || n->nkids == 0)
		return -1;
	return projmap_id(r, projmap_child(n, name), mapi);
}

int32_t
project_of(struct project_rules *r, const struct proj_dir *d,
    struct project_cache *c, const char *name, uid_t uid, gid_t gid)
{
	assert(r->frozen);	/* P2 */
	for (int i = 0; i < r->nrules; i++) {
		int32_t p;

		switch (r->rule[i].kind) {
		case R_USER:
			p = projcache_get(r, c, i, (uint32_t)uid);
			break;
		case R_GIDMAP:
		case R_GROUP:
			p = projcache_get(r, c, i, (uint32_t)gid);
			break;
		case R_MAP:
			if ((p = map_file(r, d, r->rule[i].mapi, name)) < 0)
				p = d->match[i];
			if (p >= 0)
				projreg_mark(r, i, p);
			break;
		default:
			p = d->match[i];
			if (p >= 0)
				projreg_mark(r, i, p);
			break;
		}
		if (p >= 0) {
			/* P5: the rule is among p's sources already */
			assert(p == PROJECT_NONE ||
			    (project_source_bits(r, p) & 1u << i));
			return p;
		}
	}
	return PROJECT_NONE;
}
