/*
 * test_project: the --project rule chain of fsscan/project*.c.
 *
 * Each case builds a small imaginary tree by calling project_root and
 * project_dir the way the walker does (fd -1: no project IDs; the real
 * XFS project IDs are tested in tests/t_projid.py) and checks the project
 * NAMES that directories and files get against expectations worked out
 * by hand from the semantics in fsscan/project/project.h.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "project/project.h"
#include "tap.h"

/* Ids that no test machine has as a user or group. */
#define NOUSER	3999998u
#define NOGROUP	3999999u

static char tmpdir[] = "/tmp/test_project.XXXXXX";
static int nfiles;

/* Write text into a fresh file under tmpdir; returns a static path. */
static const char *
file_with(const char *text)
{
	static char paths[32][256];
	char *p = paths[nfiles % 32];
	FILE *fp;

	snprintf(p, 256, "%s/f%d", tmpdir, nfiles++);
	fp = fopen(p, "w");
	if (fp == NULL || fputs(text, fp) < 0 || fclose(fp) != 0) {
		printf("not ok - cannot write %s\n", p);
		exit(1);
	}
	return p;
}

static char errbuf[512];

static struct project_rules *
rules(const char *root, int n, const char *const *specs)
{
	struct project_rules *r;

	errbuf[0] = '\0';
	r = project_rules_new(specs, n, root, errbuf, sizeof errbuf);
	if (r == NULL)
		printf("# unexpected error: %s\n", errbuf);
	return r;
}

static const char *
pname(struct project_rules *r, int32_t id)
{
	const char *s = project_name(r, id);
	return s ? s : "(bad id)";
}

static const char *
sources(struct project_rules *r, const char *name)
{
	static char buf[256];

	for (int32_t id = 0; id < project_count(r); id++)
		if (strcmp(project_name(r, id), name) == 0) {
			project_sources(r, id, buf, sizeof buf);
			return buf;
		}
	return "(no such project)";
}

/* A directory below parent, owned by root:root, no fd. path: its path
 * below ROOT, or just its name where no depth:N rule needs the path. */
static struct proj_dir
dir(struct project_rules *r, const struct proj_dir *parent, const char *path,
    int depth)
{
	struct proj_dir d;
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	project_dir(r, parent, &d, name, project_wants_path(r, depth) ? path :
	    NULL, depth, -1, 0, 0, 1);
	return d;
}

static struct proj_dir
root(struct project_rules *r)
{
	struct proj_dir d;

	project_root(r, &d, -1, 0, 0, 0755);
	return d;
}

static const char *
file_in(struct project_rules *r, const struct proj_dir *d,
    struct project_cache *c, uid_t uid, gid_t gid)
{
	return pname(r, project_of(r, d, c, "f", uid, gid));
}

static void
test_default_depth1(void)
{
	struct project_rules *r = rules("/r", 0, NULL);
	struct project_cache c = { 0 };
	struct proj_dir rt, a, ab, abc, z;

	if (!ok(r != NULL, "default rules parse"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	ab = dir(r, &a, "b", 2);
	abc = dir(r, &ab, "c", 3);
	z = dir(r, &rt, "z", 1);
	is_str(pname(r, rt.self), "(none)", "default: ROOT itself is (none)");
	is_str(file_in(r, &rt, &c, 0, 0), "(none)",
	    "default: file in ROOT is (none)");
	is_str(pname(r, a.self), "a", "default: depth-1 dir names itself");
	is_str(file_in(r, &a, &c, 0, 0), "a", "default: file in a is a");
	is_str(pname(r, ab.self), "a", "default: a/b is in a");
	is_str(file_in(r, &abc, &c, 0, 0), "a", "default: file in a/b/c is a");
	is_str(pname(r, z.self), "z", "default: z is z");
	is_i64(project_count(r), 3, "default: ids (none), a, z");
	is_str(pname(r, PROJECT_NONE), "(none)", "id 0 is (none)");
	is_str(sources(r, "a"), "depth:1", "default: source of a");
	is_str(sources(r, "(none)"), "none", "default: source of (none)");
	is_i64(c.len, 0, "default: no owner rule, cache unused");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_depth2(void)
{
	const char *spec[] = { "depth:2" };
	struct project_rules *r = rules("/r", 1, spec);
	struct project_cache c = { 0 };
	struct proj_dir rt, a, ab, abc, x, xb;

	if (!ok(r != NULL, "depth:2 parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	ab = dir(r, &a, "a/b", 2);
	abc = dir(r, &ab, "a/b/c", 3);
	x = dir(r, &rt, "x", 1);
	xb = dir(r, &x, "x/b", 2);
	is_i64(project_wants_path(r, 2), 1, "depth:2 wants the path at 2");
	is_i64(project_wants_path(r, 1) + project_wants_path(r, 3), 0,
	    "... and at no other depth");
	is_str(pname(r, a.self), "(none)", "depth:2: depth-1 dir unmatched");
	is_str(file_in(r, &a, &c, 0, 0), "(none)",
	    "depth:2: file at depth 2 unmatched");
	is_str(pname(r, ab.self), "a/b", "depth:2: a/b names itself by path");
	is_str(file_in(r, &ab, &c, 0, 0), "a/b", "depth:2: file in a/b");
	is_str(pname(r, abc.self), "a/b", "depth:2: a/b/c inherits");
	is_str(pname(r, xb.self), "x/b", "depth:2: x/b is x/b");
	ok(xb.self != ab.self, "depth:2: x/b and a/b stay distinct projects");
	is_str(sources(r, "a/b"), "depth:2", "depth:2: source");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_map_relative(void)
{
	const char *map = file_with(
	    "# projects\n"
	    "a/b   P1\n"
	    "\n"
	    "./a/b/c/ P2   # trailing comment\n"
	    "x\tP3\r\n"
	    "   # indented comment\n");
	char spec[300];
	const char *specs[] = { spec };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a, ab, abx, abc, abcd, abcz, bc, x, xy;

	snprintf(spec, sizeof spec, "map:%s", map);
	r = rules("/data/fs", 1, specs);
	if (!ok(r != NULL, "map relative parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	ab = dir(r, &a, "b", 2);
	abx = dir(r, &ab, "e", 3);
	abc = dir(r, &ab, "c", 3);
	abcd = dir(r, &abc, "d", 4);
	abcz = dir(r, &abcd, "z", 5);
	bc = dir(r, &a, "bc", 2);
	x = dir(r, &rt, "x", 1);
	xy = dir(r, &x, "y", 2);
	is_str(pname(r, rt.self), "(none)", "map: ROOT unmatched");
	is_str(pname(r, a.self), "(none)", "map: a unmatched");
	is_str(file_in(r, &a, &c, 0, 0), "(none)", "map: file in a unmatched");
	is_str(pname(r, ab.self), "P1", "map: a/b is P1");
	is_str(file_in(r, &ab, &c, 0, 0), "P1", "map: file in a/b is P1");
	is_str(pname(r, abx.self), "P1", "map: a/b/e inherits P1");
	is_str(pname(r, abc.self), "P2", "map: a/b/c longest prefix P2");
	is_str(file_in(r, &abcd, &c, 0, 0), "P2", "map: a/b/c/d file P2");
	is_str(pname(r, abcz.self), "P2", "map: deep below a/b/c is P2");
	is_str(pname(r, bc.self), "(none)",
	    "map: a/b does not match a/bc (component boundary)");
	is_str(pname(r, x.self), "P3", "map: tab separator, CRLF line");
	is_str(file_in(r, &xy, &c, 0, 0), "P3", "map: x/y file is P3");
	is_str(sources(r, "P2"), spec, "map: source is the rule spec");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_map_absolute(void)
{
	const char *map = file_with(
	    "/data/fs/a      PA\n"
	    "/data/fsx/b     PX\n"		/* not under ROOT: ignored */
	    "/elsewhere/a    PE\n"		/* not under ROOT: ignored */
	    "/data           PD\n"		/* ancestor of ROOT */
	    "/data/fs//a/b/  PAB\n"
	    "b               PB\n");	/* relative */
	char spec[300];
	const char *specs[] = { spec };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a, ab, b, z;

	snprintf(spec, sizeof spec, "map:%s", map);
	r = rules("/data/fs", 1, specs);
	if (!ok(r != NULL, "map absolute parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	ab = dir(r, &a, "b", 2);
	b = dir(r, &rt, "b", 1);
	z = dir(r, &rt, "z", 1);
	is_str(pname(r, rt.self), "PD", "map: prefix above ROOT matches ROOT");
	is_str(file_in(r, &rt, &c, 0, 0), "PD",
	    "map: prefix above ROOT matches files in ROOT");
	is_str(pname(r, z.self), "PD", "map: ... and every directory");
	is_str(pname(r, a.self), "PA", "map: absolute /data/fs/a");
	is_str(pname(r, ab.self), "PAB", "map: absolute with // and /");
	is_str(pname(r, b.self), "PB", "map: relative b next to absolute");
	for (int32_t id = 0; id < project_count(r); id++)
		ok(strcmp(pname(r, id), "PX") && strcmp(pname(r, id), "PE"),
		    "map: prefixes outside ROOT never named (id %d)", (int)id);
	project_cache_free(&c);
	project_rules_free(r);

	/* ROOT itself, given both ways and with a shorter ancestor. */
	map = file_with("/ PSLASH\n. PDOT\n/data PD\n");
	snprintf(spec, sizeof spec, "map:%s", map);
	r = rules("/data/fs", 1, specs);
	if (!ok(r != NULL, "map with '.' parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	is_str(pname(r, rt.self), "PDOT", "map: '.' beats ancestors of ROOT");
	is_str(file_in(r, &a, &c, 0, 0), "PDOT", "map: '.' matches all");
	project_cache_free(&c);
	project_rules_free(r);

	/* ROOT is "/": every absolute prefix is under it. */
	map = file_with("/a PA\n/ PROOT\n");
	snprintf(spec, sizeof spec, "map:%s", map);
	r = rules("/", 1, specs);
	if (!ok(r != NULL, "map with ROOT / parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	z = dir(r, &rt, "z", 1);
	is_str(pname(r, a.self), "PA", "map: ROOT /, prefix /a");
	is_str(pname(r, z.self), "PROOT", "map: ROOT /, prefix /");
	project_cache_free(&c);
	project_rules_free(r);
}

/* Two map rules in one chain use one trie with a value per rule. */
static void
test_two_maps(void)
{
	const char *m1 = file_with("a/b M1AB\n");
	const char *m2 = file_with("a M2A\na/b/c M2ABC\n");
	char s1[300], s2[300];
	const char *specs[] = { s1, s2 };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a, ab, abc, ad;

	snprintf(s1, sizeof s1, "map:%s", m1);
	snprintf(s2, sizeof s2, "map:%s", m2);
	r = rules("/r", 2, specs);
	if (!ok(r != NULL, "two maps parse"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	ab = dir(r, &a, "b", 2);
	abc = dir(r, &ab, "c", 3);
	ad = dir(r, &a, "d", 2);
	is_str(pname(r, a.self), "M2A", "two maps: a only in the second");
	is_str(pname(r, ab.self), "M1AB", "two maps: first map wins on a/b");
	is_str(pname(r, abc.self), "M1AB",
	    "two maps: first map's shorter prefix beats second's longer");
	is_str(file_in(r, &ad, &c, 0, 0), "M2A", "two maps: a/d falls to M2A");
	is_str(sources(r, "M2A"), s2, "two maps: M2A source");
	/* a/b/c reached M2ABC's node, so it has an id, but the first map
	 * attributed everything there. */
	is_str(sources(r, "M2ABC"), "", "two maps: M2ABC attributed nothing");
	is_str(sources(r, "M1AB"), s1, "two maps: M1AB source");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_gidmap_chain(void)
{
	const char *gm = file_with("100 G100\n200\tG200\n300 a\n");
	char spec[300], want[400];
	const char *specs[] = { spec, "depth:1" };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a, b, d;

	snprintf(spec, sizeof spec, "gidmap:%s", gm);
	r = rules("/r", 2, specs);
	if (!ok(r != NULL, "gidmap,depth:1 parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	project_dir(r, &rt, &b, "b", NULL, 1, -1, 0, 200, 1);
	project_dir(r, &rt, &d, "d", NULL, 1, -1, 0, 5, 1);
	is_str(file_in(r, &a, &c, 0, 100), "G100",
	    "chain: mapped gid wins over depth:1");
	is_str(file_in(r, &a, &c, 0, 5), "a",
	    "chain: unmapped gid falls to depth:1");
	is_str(file_in(r, &rt, &c, 0, 5), "(none)",
	    "chain: unmapped gid in ROOT is (none)");
	is_str(file_in(r, &rt, &c, 0, 200), "G200",
	    "chain: mapped gid in ROOT");
	is_str(pname(r, b.self), "G200", "chain: directory by its own gid");
	is_str(pname(r, d.self), "d", "chain: directory with unmapped gid");
	is_str(file_in(r, &d, &c, 0, 300), "a",
	    "chain: gidmap gives the name a");
	snprintf(want, sizeof want, "%s,depth:1", spec);
	is_str(sources(r, "a"), want, "chain: a from both rules, chain order");
	is_str(sources(r, "G100"), spec, "chain: G100 from gidmap only");
	is_str(sources(r, "d"), "depth:1", "chain: d from depth:1 only");
	project_cache_free(&c);
	project_rules_free(r);
}

/* A rule whose match is computed but never used is not a source. */
static void
test_sources_exact(void)
{
	const char *gm = file_with("300 a\n");
	char spec[300];
	const char *specs[] = { spec, "depth:1" };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a;
	char small[5];

	snprintf(spec, sizeof spec, "gidmap:%s", gm);
	r = rules("/r", 2, specs);
	if (!ok(r != NULL, "sources: parses"))
		return;
	rt = root(r);
	project_dir(r, &rt, &a, "a", NULL, 1, -1, 0, 300, 1);
	is_str(pname(r, a.self), "a", "sources: dir a by its gid");
	is_str(file_in(r, &a, &c, 0, 300), "a", "sources: file in a by gid");
	is_str(sources(r, "a"), spec,
	    "sources: depth:1 matched but attributed nothing");
	is_str(file_in(r, &a, &c, 0, 1), "a", "sources: file by depth:1");
	{
		char want[400];
		snprintf(want, sizeof want, "%s,depth:1", spec);
		is_str(sources(r, "a"), want, "sources: now both rules");
	}
	project_sources(r, a.self, small, sizeof small);
	ok(strlen(small) < sizeof small, "sources: truncated and terminated");
	project_sources(r, 9999, small, sizeof small);
	is_str(small, "", "sources: unknown id gives empty text");
	ok(project_name(r, 9999) == NULL && project_name(r, -1) == NULL,
	    "project_name of a bad id is NULL");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_owner_rules(void)
{
	const char *specs[] = { "group" };
	const char *uspecs[] = { "user", "group" };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a;
	char want[32];

	r = rules("/r", 1, specs);
	if (!ok(r != NULL, "group parses"))
		return;
	project_root(r, &rt, -1, NOUSER, 0, 0755);
	project_dir(r, &rt, &a, "a", NULL, 1, -1, 0, NOGROUP, 1);
	is_str(pname(r, rt.self), "root", "group: ROOT by its gid 0");
	snprintf(want, sizeof want, "%u", NOGROUP);
	is_str(pname(r, a.self), want, "group: unknown gid is decimal");
	is_str(file_in(r, &a, &c, NOUSER, 0), "root", "group: file gid 0");
	is_str(file_in(r, &a, &c, 0, NOGROUP), want, "group: file unknown gid");
	is_str(sources(r, "root"), "group", "group: source");
	project_cache_free(&c);
	project_rules_free(r);

	r = rules("/r", 2, uspecs);
	if (!ok(r != NULL, "user,group parses"))
		return;
	rt = root(r);
	snprintf(want, sizeof want, "%u", NOUSER);
	is_str(file_in(r, &rt, &c, NOUSER, 0), want, "user: unknown uid");
	is_str(file_in(r, &rt, &c, 0, NOGROUP), "root", "user: uid 0 is root");
	is_str(sources(r, "root"), "user", "user first: group never used");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_cache(void)
{
	const char *gm = file_with("3999998 GM\n");
	char spec[300], want[32];
	const char *specs[] = { spec, "user" };
	const char *gspecs[] = { "group" };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt;
	int32_t ids[1000];
	int bad = 0;

	snprintf(spec, sizeof spec, "gidmap:%s", gm);
	r = rules("/r", 2, specs);
	if (!ok(r != NULL, "cache: gidmap,user parses"))
		return;
	rt = root(r);
	snprintf(want, sizeof want, "%u", NOUSER);
	/* gid 3999998 under gidmap and uid 3999998 under user differ */
	is_str(file_in(r, &rt, &c, NOGROUP, NOUSER), "GM",
	    "cache: gid 3999998 mapped");
	is_str(file_in(r, &rt, &c, NOUSER, NOGROUP), want,
	    "cache: uid 3999998 is not confused with gid 3999998");
	is_str(file_in(r, &rt, &c, NOUSER, NOUSER), "GM",
	    "cache: both ids, gidmap first");
	is_i64((int64_t)c.len, 3, "cache: entries gidmap 3999998, "
	    "gidmap 3999999, user 3999998");
	{
		struct pc_ent *e = c.e;
		size_t cap = c.cap;
		for (int i = 0; i < 100; i++)
			project_of(r, &rt, &c, "f", NOUSER, NOGROUP);
		ok(c.len == 3 && c.e == e && c.cap == cap,
		    "cache: hits add nothing and move nothing");
	}
	project_cache_free(&c);
	ok(c.e == NULL && c.len == 0 && c.cap == 0, "cache: free resets");
	project_rules_free(r);

	/* Growth: 1000 unknown gids, then every one again from the cache. */
	r = rules("/r", 1, gspecs);
	if (!ok(r != NULL, "cache: group parses"))
		return;
	rt = root(r);
	for (int i = 0; i < 1000; i++) {
		snprintf(want, sizeof want, "%u", 3000000u + (unsigned)i);
		ids[i] = project_of(r, &rt, &c, "f", 0, 3000000u + (unsigned)i);
		bad += strcmp(pname(r, ids[i]), want) != 0;
	}
	is_i64(bad, 0, "cache: 1000 unknown gids named by number");
	is_i64((int64_t)c.len, 1000, "cache: 1000 entries");
	is_i64(project_count(r), 1002,
	    "cache: 1000 projects, (none) and root (ROOT's gid 0)");
	for (int i = 0; i < 1000; i++)
		bad += project_of(r, &rt, &c, "f", 0, 3000000u + (unsigned)i) !=
		    ids[i];
	is_i64(bad, 0, "cache: same ids after growth");
	project_cache_free(&c);
	project_rules_free(r);
}

static void
test_projid_nomatch(void)
{
	const char *specs[] = { "projid", "depth:1" };
	struct project_rules *r;
	struct project_cache c = { 0 };
	struct proj_dir rt, a, p;
	int fd;

	r = rules("/r", 2, specs);
	if (!ok(r != NULL, "projid,depth:1 parses"))
		return;
	rt = root(r);
	a = dir(r, &rt, "a", 1);
	is_str(pname(r, a.self), "a", "projid: fd -1 does not match");
	is_str(file_in(r, &a, &c, 0, 0), "a", "projid: file falls through");
	ok(a.projid == 0 && a.projinherit == 0, "projid: fd -1 reads nothing");
	/* procfs has no FS_IOC_FSGETXATTR: the ioctl fails, silently. */
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	project_dir(r, &rt, &p, "proc", NULL, 1, fd, 0, 0, 1);
	if (fd >= 0)
		close(fd);
	is_str(pname(r, p.self), "proc", "projid: ioctl failure is no match");
	project_cache_free(&c);
	project_rules_free(r);
}

/* Spec and file errors: NULL and a message naming rule, file and line. */
static void
expect_error(const char *root, int n, const char *const *specs,
    const char *want, const char *name)
{
	char err[512] = "";
	struct project_rules *r = project_rules_new(specs, n, root, err,
	    sizeof err);

	if (r != NULL) {
		ok(0, "error: %s: accepted", name);
		project_rules_free(r);
		return;
	}
	ok_why(strstr(err, want) != NULL, err, "error: %s", name);
}

static void
test_errors(void)
{
	char spec[300], want[400];
	const char *one[] = { spec };
	const char *f;

	{
		const char *s[] = { "foo" };
		expect_error("/r", 1, s, "unknown project rule 'foo'",
		    "unknown rule");
	}
	{
		const char *s[] = { "depth:1", "" };
		expect_error("/r", 2, s, "unknown project rule ''", "empty");
	}
	{
		const char *s[] = { "projid:3" };
		expect_error("/r", 1, s, "unknown project rule", "projid:3");
	}
	{
		const char *bad[] = { "depth:0", "depth:x", "depth:", "depth",
		    "depth:-1", "depth:1x", "depth:99999999999" };
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			const char *s[] = { bad[i] };
			expect_error("/r", 1, s, "expected depth:N with N >= 1",
			    bad[i]);
		}
	}
	{
		const char *s[9] = { "user", "user", "user", "user", "user",
		    "user", "user", "user", "user" };
		expect_error("/r", 9, s, "too many project rules", "9 rules");
		struct project_rules *r = rules("/r", 8, s);
		ok(r != NULL, "8 rules are fine");
		project_rules_free(r);
	}
	{
		const char *s[] = { "map:" }, *g[] = { "gidmap" };
		expect_error("/r", 1, s, "expected map:FILE", "map without file");
		expect_error("/r", 1, g, "expected gidmap:FILE",
		    "gidmap without file");
	}
	snprintf(spec, sizeof spec, "map:%s/missing", tmpdir);
	snprintf(want, sizeof want, "%s: cannot open", spec);
	expect_error("/r", 1, one, want, "map file missing");

	f = file_with("a A\nb B\nc\nd D\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	snprintf(want, sizeof want,
	    "%s line 3: expected 'PATH-PREFIX PROJECT'", spec);
	expect_error("/r", 1, one, want, "map line with one field");

	f = file_with("# c\n\na A extra\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	snprintf(want, sizeof want,
	    "%s line 3: expected 'PATH-PREFIX PROJECT'", spec);
	expect_error("/r", 1, one, want, "map line with three fields");

	f = file_with("a/../b B\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	snprintf(want, sizeof want, "%s line 1: '..' is not allowed", spec);
	expect_error("/r", 1, one, want, "map '..'");

	f = file_with("a/b X\nc C\n./a//b/ Y\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	snprintf(want, sizeof want,
	    "%s line 3: duplicate PATH-PREFIX (first on line 1)", spec);
	expect_error("/r", 1, one, want, "map duplicate prefix");

	f = file_with("/r A\n. B\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	snprintf(want, sizeof want,
	    "%s line 2: duplicate PATH-PREFIX (first on line 1)", spec);
	expect_error("/r", 1, one, want, "map ROOT twice");

	f = file_with("a A\n");
	snprintf(spec, sizeof spec, "map:%s", f);
	expect_error("relative", 1, one, "need an absolute ROOT",
	    "map with relative ROOT");
	expect_error(NULL, 1, one, "need an absolute ROOT", "map, ROOT NULL");

	f = file_with("100 A\nabc B\n");
	snprintf(spec, sizeof spec, "gidmap:%s", f);
	snprintf(want, sizeof want, "%s line 2: bad GID 'abc'", spec);
	expect_error("/r", 1, one, want, "gidmap bad gid");

	f = file_with("4294967296 B\n");
	snprintf(spec, sizeof spec, "gidmap:%s", f);
	snprintf(want, sizeof want, "%s line 1: bad GID", spec);
	expect_error("/r", 1, one, want, "gidmap gid too large");

	f = file_with("7 A\n5 B\n\n5 C\n");
	snprintf(spec, sizeof spec, "gidmap:%s", f);
	snprintf(want, sizeof want,
	    "%s line 4: duplicate GID 5 (first on line 2)", spec);
	expect_error("/r", 1, one, want, "gidmap duplicate gid");

	f = file_with("5 A B\n");
	snprintf(spec, sizeof spec, "gidmap:%s", f);
	snprintf(want, sizeof want, "%s line 1: expected 'GID PROJECT'", spec);
	expect_error("/r", 1, one, want, "gidmap three fields");

	{	/* no error buffer: still NULL, no crash */
		const char *s[] = { "nope" };
		ok(project_rules_new(s, 1, "/r", NULL, 0) == NULL,
		    "error without a buffer");
	}
}

static void
test_projid_file(void)
{
	const char *specs[] = { "projid" };
	char want[400];
	const char *f;
	struct project_rules *r;

	f = file_with("# comment\nalpha:42\n\nbeta:43\nalpha2:42\n");
	setenv("IOCENSUS_PROJID_FILE", f, 1);
	r = rules("/r", 1, specs);
	ok(r != NULL, "projid file: well formed, duplicate id allowed");
	project_rules_free(r);

	f = file_with("alpha:42\nbeta 43\n");
	setenv("IOCENSUS_PROJID_FILE", f, 1);
	snprintf(want, sizeof want, "projid: %s line 2: expected 'NAME:ID'", f);
	expect_error("/r", 1, specs, want, "projid file without colon");

	f = file_with(":42\n");
	setenv("IOCENSUS_PROJID_FILE", f, 1);
	snprintf(want, sizeof want, "projid: %s line 1: expected 'NAME:ID'", f);
	expect_error("/r", 1, specs, want, "projid file without name");

	f = file_with("alpha:x\n");
	setenv("IOCENSUS_PROJID_FILE", f, 1);
	snprintf(want, sizeof want, "projid: %s line 1: expected 'NAME:ID'", f);
	expect_error("/r", 1, specs, want, "projid file bad id");

	snprintf(want, sizeof want, "%s/none", tmpdir);
	setenv("IOCENSUS_PROJID_FILE", want, 1);
	expect_error("/r", 1, specs, "projid: cannot open",
	    "projid file named but missing");

	/* Not asked for: the projid file is not read at all. */
	{
		const char *d[] = { "depth:1" };
		r = rules("/r", 1, d);
		ok(r != NULL, "projid file ignored without the projid rule");
		project_rules_free(r);
	}
	unsetenv("IOCENSUS_PROJID_FILE");
}

/* "(none)" is the name of what no rule matched, and of nothing else
 * (project.h): a directory of that name directly below ROOT is
 * "./(none)", deeper its path; a projid named so goes by its number; a
 * map or gidmap that names a project so is refused. */
static void
test_none_reserved(void)
{
	const char *d1[] = { "depth:1" }, *d2[] = { "depth:2" };
	const char *pj[] = { "projid" };
	struct project_cache c = { 0 };
	struct project_rules *r = rules("/r", 1, d1);
	struct proj_dir rt, n, nn;
	char spec[300], want[400];
	const char *one[] = { spec };
	uint32_t *ids;
	int32_t *projs;
	size_t k;

	if (r) {
		rt = root(r);
		n = dir(r, &rt, "(none)", 1);
		is_str(pname(r, n.self), "./(none)",
		    "(none) below ROOT, depth:1: ./(none)");
		is_str(file_in(r, &n, &c, 0, 0), "./(none)",
		    "a file in it: ./(none)");
		ok(n.self != PROJECT_NONE, "./(none) is not PROJECT_NONE");
		is_str(file_in(r, &rt, &c, 0, 0), "(none)",
		    "a file in ROOT: (none), PROJECT_NONE");
		is_str(sources(r, "./(none)"), "depth:1", "./(none): depth:1");
		project_cache_free(&c);
		project_rules_free(r);
	}
	if ((r = rules("/r", 1, d2)) != NULL) {
		rt = root(r);
		n = dir(r, &rt, "(none)", 1);
		nn = dir(r, &n, "(none)/(none)", 2);
		is_str(pname(r, n.self), "(none)", "depth:2: (none) at depth 1"
		    " matches nothing");
		is_str(pname(r, nn.self), "(none)/(none)", "depth:2: its path");
		project_rules_free(r);
	}
	setenv("IOCENSUS_PROJID_FILE", file_with("(none):42\nalpha:43\n"), 1);
	if ((r = rules("/r", 1, pj)) != NULL) {
		project_projid_note(r, 42);
		project_projid_note(r, 43);
		k = project_projids(r, &ids, &projs);
		for (size_t i = 0; i < k; i++)
			is_str(pname(r, projs[i]), ids[i] == 42 ? "42" : "alpha",
			    "projid %u named in the projid file", ids[i]);
		ok(k == 2, "projid: both IDs met");
		free(ids);
		free(projs);
		project_rules_free(r);
	}
	unsetenv("IOCENSUS_PROJID_FILE");
	snprintf(spec, sizeof spec, "map:%s", file_with("a b\nx (none)\n"));
	snprintf(want, sizeof want, "%s line 2: the project name '(none)' is"
	    " reserved", spec);
	expect_error("/r", 1, one, want, "map naming a project (none)");
	snprintf(spec, sizeof spec, "gidmap:%s", file_with("7 (none)\n"));
	snprintf(want, sizeof want, "%s line 1: the project name '(none)' is"
	    " reserved", spec);
	expect_error("/r", 1, one, want, "gidmap naming a project (none)");
}

/* Many threads, each with its own cache, agree on every name. */
#define NTHREADS 4
#define NITER 20000

static struct project_rules *thr_rules;

/* By hand: gid 100..119 -> "g<gid>" (gidmap); else depth:2 dir name
 * "d<k>" for files at depth >= 2; else uid as a number (unknown uids). */
static void *
thr_main(void *arg)
{
	struct project_rules *r = thr_rules;
	struct project_cache c = { 0 };
	struct proj_dir rt, top, sub[8];
	long bad = 0, t = (long)(intptr_t)arg;
	char want[32], name[16];

	rt = root(r);
	snprintf(name, sizeof name, "t%ld", t);
	top = dir(r, &rt, name, 1);
	for (int k = 0; k < 8; k++) {
		snprintf(name, sizeof name, "d%d", k);
		char path[40];

		snprintf(path, sizeof path, "t%ld/%s", t, name);
		project_dir(r, &top, &sub[k], name, path, 2, -1, 0, 0, 1);
	}
	for (int i = 0; i < NITER; i++) {
		int k = (i + (int)t) % 9;	/* 8: the depth-1 dir */
		unsigned gid = 90 + (unsigned)(i % 40);
		unsigned uid = 3000000u + (unsigned)(i % 50);
		const struct proj_dir *d = k == 8 ? &top : &sub[k];

		if (gid >= 100 && gid < 120)
			snprintf(want, sizeof want, "g%u", gid);
		else if (k < 8)
			snprintf(want, sizeof want, "t%ld/d%d", t, k);
		else
			snprintf(want, sizeof want, "%u", uid);
		bad += strcmp(pname(r, project_of(r, d, &c, "f", uid, gid)),
		    want) != 0;
	}
	project_cache_free(&c);
	return (void *)(intptr_t)bad;
}

static void
test_threads(void)
{
	char gm[2000] = "", spec[300];
	const char *specs[] = { spec, "depth:2", "user" };
	pthread_t th[NTHREADS];
	long bad = 0;

	for (int g = 100; g < 120; g++)
		snprintf(gm + strlen(gm), sizeof gm - strlen(gm), "%d g%d\n",
		    g, g);
	snprintf(spec, sizeof spec, "gidmap:%s", file_with(gm));
	thr_rules = rules("/r", 3, specs);
	if (!ok(thr_rules != NULL, "threads: rules parse"))
		return;
	for (long t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, thr_main, (void *)(intptr_t)t);
	for (int t = 0; t < NTHREADS; t++) {
		void *res;
		pthread_join(th[t], &res);
		bad += (long)(intptr_t)res;
	}
	is_i64(bad, 0, "threads: every entry got its hand-computed project");
	/* (none) + 20 g* + 8 depth-2 paths per thread + 50 uids; t* dirs fall to
	 * user too, but uid 0 is "root": 1 more */
	is_i64(project_count(thr_rules), 1 + 20 + 8 * NTHREADS + 50 + 1,
	    "threads: each name interned once");
	is_str(sources(thr_rules, "t0/d3"), "depth:2", "threads: t0/d3 source");
	is_str(sources(thr_rules, "g105"), spec, "threads: g105 source");
	is_str(sources(thr_rules, "3000007"), "user", "threads: uid source");
	project_rules_free(thr_rules);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("not ok - mkdtemp: cannot create %s\n", tmpdir);
		return 1;
	}
	test_default_depth1();
	test_depth2();
	test_map_relative();
	test_map_absolute();
	test_two_maps();
	test_gidmap_chain();
	test_sources_exact();
	test_owner_rules();
	test_cache();
	test_projid_nomatch();
	test_errors();
	test_projid_file();
	test_none_reserved();
	test_threads();
	for (int i = 0; i < nfiles; i++) {
		char p[300];
		snprintf(p, sizeof p, "%s/f%d", tmpdir, i);
		unlink(p);
	}
	rmdir(tmpdir);
	return tap_end();
}
