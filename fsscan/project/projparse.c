/*
 * projparse: building a struct project_rules from the --project specs,
 * reading the gidmap and projid files (map files are read here too; their
 * lines go to projmap.c). Errors name the rule, file and line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lines.h"
#include "project_int.h"
#include "xalloc.h"

#define PROJID_FILE	"/etc/projid"
#define PROJID_ENV	"IOCENSUS_PROJID_FILE"

/* Split line into blank-separated fields; '#' at the start of a field
 * starts a comment. Returns the number of fields, up to max + 1. */
static int
split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p == '\0' || *p == '#')
			return n;
		if (n == max)
			return max + 1;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' &&
		    *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int
parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int
idname_cmp(const void *a, const void *b)
{
	const struct idname *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line - y->line;
}

static void
idnames_free(struct idname *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/*
 * Read a rule file line by line (lib/lines.h: bounded, every read
 * checked), calling fn on each line: fd when it is open already, else
 * the file opened here. Errors start with `what` (the rule, or "projid").
 */
typedef int (*line_fn)(struct parse *, void *, char *, int);

struct rule_lines {
	struct parse *ps;
	line_fn fn;
	void *arg;
};

static int
rule_line(void *arg, char *line, int lineno)
{
	struct rule_lines *rl = arg;

	return rl->fn(rl->ps, rl->arg, line, lineno);
}

static int
read_lines(struct parse *ps, const char *what, const char *file, int fd,
    line_fn fn, void *arg)
{
	struct lines_src src = { file, what, "a rule file", 0, ps->err,
	    ps->errlen };
	struct rule_lines rl = { ps, fn, arg };

	if (fd < 0)
		return lines_read_path(&src, rule_line, &rl);
	return lines_read(&src, fd, rule_line, &rl);
}

/* A "KEY VALUE" file of one rule: fields must number exactly two, and the
 * VALUE, a project's name, is not PROJECT_NONE's. */
typedef int (*pair_fn)(struct parse *, const struct rule *, char *,
    const char *, int);

struct pairs {
	const struct rule *ru;
	const char *expect;
	pair_fn fn;
};

static int
pair_line(struct parse *ps, void *arg, char *line, int lineno)
{
	const struct pairs *p = arg;
	char *f[2];
	int n = split_fields(line, f, 2);

	if (n == 0)
		return 0;
	if (n != 2) {
		projerr_set(ps->err, ps->errlen, "%s line %d: expected '%s'",
		    p->ru->spec, lineno, p->expect);
		return -1;
	}
	if (strcmp(f[1], PROJECT_NONE_NAME) == 0) {
		projerr_set(ps->err, ps->errlen, "%s line %d: the project name"
		    " '%s' is reserved for the entries no rule matches: give"
		    " the project another name", p->ru->spec, lineno,
		    PROJECT_NONE_NAME);
		return -1;
	}
	return p->fn(ps, p->ru, f[0], f[1], lineno);
}

static int
read_pairs(struct parse *ps, const struct rule *ru, const char *file,
    const char *expect, pair_fn fn)
{
	struct pairs p = { ru, expect, fn };

	return read_lines(ps, ru->spec, file, -1, pair_line, &p);
}

static int
gidmap_line(struct parse *ps, const struct rule *cru, char *gid,
    const char *proj, int line)
{
	struct rule *ru = (struct rule *)cru;
	uint32_t g;

	if (parse_u32(gid, &g) < 0) {
		projerr_set(ps->err, ps->errlen,
		    "%s line %d: bad GID '%s' (expected a decimal number)",
		    ru->spec, line, gid);
		return -1;
	}
	ru->gids = xgrow(ru->gids, ru->ngids, &ru->capgids, sizeof *ru->gids,
	    16);
	ru->gids[ru->ngids++] = (struct idname){ g, line, xstrdup(proj) };
	return 0;
}

static int
gidmap_finish(struct parse *ps, struct rule *ru)
{
	qsort(ru->gids, ru->ngids, sizeof *ru->gids, idname_cmp);
	for (size_t i = 1; i < ru->ngids; i++)
		if (ru->gids[i].id == ru->gids[i - 1].id) {
			projerr_set(ps->err, ps->errlen,
			    "%s line %d: duplicate GID %" PRIu32
			    " (first on line %d)", ru->spec, ru->gids[i].line,
			    ru->gids[i].id, ru->gids[i - 1].line);
			return -1;
		}
	return 0;
}

/* One "name:id" line of the projid file into r->projnames; '#'
 * comments. */
static int
projid_line(struct parse *ps, void *arg, char *line, int lineno)
{
	struct project_rules *r = ps->r;
	const char *file = arg;
	char *f[1], *colon;
	uint32_t id;
	int n = split_fields(line, f, 1);

	if (n == 0)
		return 0;
	colon = n == 1 ? strchr(f[0], ':') : NULL;
	if (colon == NULL || colon == f[0] || parse_u32(colon + 1, &id) < 0) {
		projerr_set(ps->err, ps->errlen,
		    "projid: %s line %d: expected 'NAME:ID'", file, lineno);
		return -1;
	}
	*colon = '\0';
	if (r->nprojnames == ps->projid_cap) {
		ps->projid_cap = ps->projid_cap ? ps->projid_cap * 2 : 16;
		r->projnames = xreallocarray(r->projnames, ps->projid_cap,
		    sizeof *r->projnames);
	}
	r->projnames[r->nprojnames++] =
	    (struct idname){ id, lineno, xstrdup(f[0]) };
	return 0;
}

/* Sort by id; for a repeated ID the first line wins, as in xfs_quota. */
static void
projid_dedup(struct project_rules *r)
{
	size_t k = 0;

	qsort(r->projnames, r->nprojnames, sizeof *r->projnames, idname_cmp);
	for (size_t i = 0; i < r->nprojnames; i++) {
		if (k && r->projnames[k - 1].id == r->projnames[i].id) {
			free(r->projnames[i].name);
			continue;
		}
		r->projnames[k++] = r->projnames[i];
	}
	r->nprojnames = k;
}

/* Load project names. A missing /etc/projid is fine; a missing
 * IOCENSUS_PROJID_FILE is an error. */
static int
load_projid(struct parse *ps)
{
	const char *file = getenv(PROJID_ENV);
	int explicit = file && *file;
	int fd, rc;

	if (!explicit)
		file = PROJID_FILE;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && !explicit)
			return 0;
		projerr_set(ps->err, ps->errlen, "projid: cannot open %s: %s",
		    file, strerror(errno));
		return -1;
	}
	rc = read_lines(ps, "projid", file, fd, projid_line, (void *)file);
	close(fd);
	if (rc == 0)
		projid_dedup(ps->r);
	return rc;
}

static int
parse_depth(struct parse *ps, struct rule *ru, const char *spec,
    const char *arg)
{
	char buf[32];
	uint32_t n;

	if (!arg || parse_u32(arg, &n) < 0 || n < 1 || n > INT_MAX) {
		projerr_set(ps->err, ps->errlen,
		    "bad project rule '%s': expected depth:N with N >= 1",
		    spec);
		return -1;
	}
	ru->kind = R_DEPTH;
	ru->depth = (int)n;
	snprintf(buf, sizeof buf, "depth:%d", ru->depth);
	ru->spec = xstrdup(buf);
	return 0;
}

/* Classify one spec into rule i (no files read yet). */
static int
parse_spec(struct parse *ps, const char *spec, int i)
{
	struct project_rules *r = ps->r;
	struct rule *ru = &r->rule[i];
	const char *arg = strchr(spec, ':');
	size_t klen = arg ? (size_t)(arg - spec) : strlen(spec);

	if (arg)
		arg++;
	if (klen == 6 && strncmp(spec, "projid", 6) == 0 && !arg) {
		ru->kind = R_PROJID;
		r->has_projid = 1;
	} else if (klen == 5 && strncmp(spec, "group", 5) == 0 && !arg) {
		ru->kind = R_GROUP;
	} else if (klen == 4 && strncmp(spec, "user", 4) == 0 && !arg) {
		ru->kind = R_USER;
	} else if (klen == 5 && strncmp(spec, "depth", 5) == 0) {
		return parse_depth(ps, ru, spec, arg);
	} else if ((klen == 3 && strncmp(spec, "map", 3) == 0) ||
	    (klen == 6 && strncmp(spec, "gidmap", 6) == 0)) {
		if (!arg || *arg == '\0') {
			projerr_set(ps->err, ps->errlen,
			    "bad project rule '%s': expected %.*s:FILE", spec,
			    (int)klen, spec);
			return -1;
		}
		ru->kind = klen == 3 ? R_MAP : R_GIDMAP;
		if (ru->kind == R_MAP)
			ru->mapi = r->nmap++;
	} else {
		projerr_set(ps->err, ps->errlen,
		    "unknown project rule '%s' (expected projid, depth:N, "
		    "map:FILE, gidmap:FILE, group or user)", spec);
		return -1;
	}
	if (ru->kind == R_GIDMAP || ru->kind == R_GROUP || ru->kind == R_USER)
		ru->owneri = r->nowner++;
	ru->spec = xstrdup(spec);
	return 0;
}

static int
load_files(struct parse *ps, const char *root_abs)
{
	struct project_rules *r = ps->r;

	if (r->has_projid && load_projid(ps) < 0)
		return -1;
	if (r->nmap && projmap_start(ps, root_abs) < 0)
		return -1;
	for (int i = 0; i < r->nrules; i++) {
		struct rule *ru = &r->rule[i];
		const char *file = strchr(ru->spec, ':');
		int rc = 0;

		if (ru->kind == R_MAP)
			rc = read_pairs(ps, ru, file + 1,
			    "PATH-PREFIX PROJECT", projmap_line);
		else if (ru->kind == R_GIDMAP)
			rc = read_pairs(ps, ru, file + 1, "GID PROJECT",
			    gidmap_line);
		if (rc == 0 && ru->kind == R_GIDMAP)
			rc = gidmap_finish(ps, ru);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/*
 * Whether every user may search each directory above ROOT (other has x
 * on "/", "/a", ... for ROOT "/a/b"): else no user but those the owner
 * lets in can reach ROOT, and no name read below it is public. A path
 * that is not absolute is not known to be reachable.
 */
static int
above_open(const char *root_abs)
{
	char *p;
	struct stat st;
	int open = root_abs != NULL && root_abs[0] == '/';

	if (!open)
		return 0;
	p = xstrdup(root_abs);
	for (char *s = p + 1; open && (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		open = stat(p, &st) == 0 && (st.st_mode & S_IXOTH);
		*s = '/';
	}
	open = open && stat("/", &st) == 0 && (st.st_mode & S_IXOTH);
	free(p);
	return open;
}

struct project_rules *
project_rules_new(const char *const *specs, int nspecs, const char *root_abs,
    char *err, size_t errlen)
{
	static const char *const dflt[] = { "depth:1" };
	struct project_rules *r;
	struct parse ps = { .err = err, .errlen = errlen };
	int rc = 0;

	if (specs == NULL || nspecs <= 0) {
		specs = dflt;
		nspecs = 1;
	}
	if (nspecs > PROJECT_MAX_RULES) {
		projerr_set(err, errlen,
		    "too many project rules (%d, at most %d)", nspecs,
		    PROJECT_MAX_RULES);
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	projreg_init(r);
	ps.r = r;
	for (int i = 0; i < nspecs && rc == 0; i++) {
		rc = parse_spec(&ps, specs[i] ? specs[i] : "", i);
		if (rc == 0)
			r->nrules++;
	}
	if (rc == 0)
		rc = load_files(&ps, root_abs);
	r->above_open = above_open(root_abs);
	free(ps.rootcopy);
	free(ps.root.v);
	free(ps.pc.v);
	if (rc < 0) {
		project_rules_free(r);
		return NULL;
	}
	r->frozen = 1;		/* P2: read-only from now on */
	return r;
}

void
project_rules_free(struct project_rules *r)
{
	if (r == NULL)
		return;
	for (int i = 0; i < r->nrules; i++) {
		free(r->rule[i].spec);
		idnames_free(r->rule[i].gids, r->rule[i].ngids);
	}
	projmap_free(r->trie, r->nmap);
	idnames_free(r->projnames, r->nprojnames);
	projreg_free(r);
	free(r);
}
