/*
 * project_int: state shared by the pieces of the project rule chain.
 * Not for use outside project*.c. Semantics are in project.h.
 *
 *   projerr.c    error messages of the parsers
 *   projparse.c  rule specs, gidmap and projid files; rules_new/free
 *   projmap.c    map:FILE rules: the component trie, built and walked
 *   projreg.c    the name registry: interning, source bits, queries
 *   projcache.c  numeric rule results: shared memo, per-thread cache
 *   project.c    per-directory and per-entry evaluation
 *
 * The room keeps invariants P1 to P6 of docs/ARCHITECTURE.md, which
 * states them: ids are dense, 0 being "(none)" (P1); the rules are frozen
 * once built (P2); r->lock is held for every write to the registry, the
 * name hash, the memo of numeric results and a map value's id (P3);
 * readers take no lock (P4); a rule's source bit is set before anything
 * is attributed through it (P5); a numeric rule's result is resolved once
 * per id for the whole scan (P6).
 */
#ifndef FSSCAN_PROJECT_INT_H
#define FSSCAN_PROJECT_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "project.h"

#define CHUNK0		64
#define NCHUNK		26	/* CHUNK0 * (2^26 - 1) > INT32_MAX ids */
#define ID_LAZY		(-2)	/* map value not interned yet */

enum rule_kind { R_PROJID, R_DEPTH, R_MAP, R_GIDMAP, R_GROUP, R_USER };

/* One map rule's value at a trie node. */
struct mval {
	char *name;		/* NULL: no prefix of this rule ends here */
	_Atomic int32_t id;	/* interned id, or ID_LAZY */
	int line;		/* for duplicate diagnostics */
	int len;		/* prefix components (root: ancestors compete) */
};

struct mnode {
	char *name;
	struct mnode **kids;	/* sorted by strcmp of name */
	size_t nkids, capkids;
	struct mval *val;	/* one per map rule, or NULL */
};

struct idname {
	uint32_t id;
	int line;
	char *name;
};

struct rule {
	enum rule_kind kind;
	char *spec;		/* as reported by project_sources */
	int depth;		/* R_DEPTH */
	int mapi;		/* R_MAP: index into mnode.val */
	int owneri;		/* owner rules: per-thread cache sub-table */
	struct idname *gids;	/* R_GIDMAP, sorted by gid */
	size_t ngids, capgids;
};

struct pname {
	char *name;
	_Atomic uint32_t bits;	/* bit i: rule i attributed entries;
				   PROJECT_PUBLIC: the name is public */
};

struct okey {
	uint64_t key;		/* rule index << 32 | numeric id */
	int32_t proj;		/* -1: the rule does not match */
	int used;
};

struct project_rules {
	struct rule rule[PROJECT_MAX_RULES];
	int nrules, nmap, nowner, has_projid;
	int above_open;			/* every user may search each
					   directory above ROOT */
	struct mnode *trie;		/* NULL without map rules */
	struct idname *projnames;	/* /etc/projid, sorted by id */
	size_t nprojnames;

	pthread_mutex_t lock;		/* guards the fields below */
	_Atomic(struct pname *) chunk[NCHUNK];	/* readable without it */
	_Atomic int32_t count;
	int32_t *hash;			/* name -> id; -1 empty */
	size_t hcap;
	struct okey *otab;		/* memoised numeric rule results */
	size_t ocap, olen;
	int frozen;			/* built: read-only but for the
					   fields above (P2) */
};

/* Path components, pointing into a string the caller keeps alive. */
struct comps {
	char **v;
	size_t n, cap;
};

/* State of project_rules_new while it reads the rule files. */
struct parse {
	struct project_rules *r;
	char *rootcopy;		/* root_abs, split into root */
	struct comps root;	/* components of root_abs */
	struct comps pc;	/* scratch */
	size_t projid_cap;	/* room in r->projnames */
	char *err;
	size_t errlen;
};

static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* projerr.c */
void	 projerr_set(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* projmap.c */
int	 projmap_start(struct parse *ps, const char *root_abs);
int	 projmap_line(struct parse *ps, const struct rule *ru, char *prefix,
	    const char *proj, int line);
void	 projmap_free(struct mnode *n, int nmap);
const struct mnode *projmap_child(const struct mnode *n, const char *name);
int32_t	 projmap_id(struct project_rules *r, const struct mnode *n, int mi);

/* projreg.c */
void	 projreg_init(struct project_rules *r);
void	 projreg_free(struct project_rules *r);
/* r->lock, taken and let go; does this thread hold it (P3)? */
void	 projreg_lock(struct project_rules *r);
void	 projreg_unlock(struct project_rules *r);
int	 projreg_locked(const struct project_rules *r);
/* A rule's name, from the administrator: public. */
int32_t	 projreg_intern_locked(struct project_rules *r, const char *name);
/* A name, public or not (a depth rule's, an fsscan-mpi rank's). */
int32_t	 projreg_intern(struct project_rules *r, const char *name,
	    int public);
void	 projreg_mark(struct project_rules *r, int i, int32_t p);

/* projcache.c */
int32_t	 projcache_resolve(struct project_rules *r, int i, uint32_t id);
int32_t	 projcache_get(struct project_rules *r, struct project_cache *c,
	    int i, uint32_t id);

#endif
