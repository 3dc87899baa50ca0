/* test_conf: lib/conf.c, the configuration file: every key, comments,
 * blanks, repeated keys, bad lines with their line numbers, the "did you
 * mean" of an unknown key, the precedence of conf_pick, and the files
 * refused for who could write them; against texts written out here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "scratch.h"
#include "tap.h"

static char err[4608];

/* Read text as the file "c.conf" (mode 0644): conf_read's status. */
static int
read_text(struct conf *c, const char *text)
{
	scratch_put("c.conf", text);
	chmod(scratch_at("c.conf"), 0644);
	err[0] = '\0';
	return conf_read(c, scratch_at("c.conf"), 0, err, sizeof err);
}

static const char full[] =
    "# /etc/iocensus/iocensus.conf\n"
    "db = /var/lib/iocensus/census.db\n"
    "  logs=/var/log/iostatmon   # a comment after a blank\n"
    "\tmetrics =\t/m/iocensus.prom\t\n"
    "\n"
    "[prune]\n"
    "keep-daily = 14\n"
    "keep-weekly = 8\n"
    "keep-monthly = 24\n"
    "keep-quarterly = 12\n"
    "[ fs proj ]\n"
    "root = /proj/\n"
    "project = projid\n"
    "project = depth:1\n"
    "limits = /etc/iocensus/proj#1.limits\n"
    "cold = 30,90,180,365\n"
    "dirs = 3\n"
    "max-rate = 20000\n"
    "[fs home]\r\n"
    "root = /home\n";

static void
every_key(void)
{
	struct conf c;
	const struct conf_fs *f;

	if (!ok(read_text(&c, full) == 0, "every key: read (%s)", err))
		return;
	is_str(c.top[CONF_DB].v, "/var/lib/iocensus/census.db", "db");
	is_i64(c.top[CONF_DB].line, 2, "db: line 2");
	is_str(c.top[CONF_LOGS].v, "/var/log/iostatmon",
	    "logs: blanks and a comment cut");
	is_str(c.top[CONF_METRICS].v, "/m/iocensus.prom", "metrics: tabs cut");
	is_str(c.prune[CONF_KEEP_DAILY].v, "14", "keep-daily");
	is_str(c.prune[CONF_KEEP_WEEKLY].v, "8", "keep-weekly");
	is_str(c.prune[CONF_KEEP_MONTHLY].v, "24", "keep-monthly");
	is_str(c.prune[CONF_KEEP_QUARTERLY].v, "12", "keep-quarterly");
	is_i64(c.prune[CONF_KEEP_QUARTERLY].line, 10, "keep-quarterly: line");
	is_u64(c.nfs, 2, "two file systems");
	f = conf_fs_named(&c, "proj");
	if (!ok(f != NULL, "[ fs proj ]: named proj"))
		return;
	is_i64(f->line, 11, "[fs proj] on line 11");
	is_str(f->key[CONF_FS_ROOT].v, "/proj/", "root as written");
	is_u64(f->nproject, 2, "project: repeated, both kept");
	is_str(f->project[0].v, "projid", "project 1 in order");
	is_str(f->project[1].v, "depth:1", "project 2 in order");
	is_i64(f->project[1].line, 14, "project 2: line 14");
	is_str(f->key[CONF_FS_LIMITS].v, "/etc/iocensus/proj#1.limits",
	    "a '#' inside a value is kept");
	is_str(f->key[CONF_FS_COLD].v, "30,90,180,365", "cold");
	is_str(f->key[CONF_FS_DIRS].v, "3", "dirs");
	is_str(f->key[CONF_FS_MAX_RATE].v, "20000", "max-rate");
	ok(conf_fs_rooted(&c, "/proj") == f, "root /proj/ is /proj");
	ok(conf_fs_rooted(&c, "/proj//") == f, "and /proj//");
	ok(conf_fs_rooted(&c, "/pro") == NULL, "not /pro");
	ok(conf_fs_rooted(&c, "/home/") == conf_fs_named(&c, "home"),
	    "/home/ is home (its line ended in CR LF)");
	ok(conf_fs_named(&c, "nope") == NULL, "no file system nope");
	conf_free(&c);
}

static void
bad_lines(void)
{
	static const struct {
		const char *text, *want;
	} b[] = {
		{ "db = /a\n\ndb = /b\n", ":3: db is already set on line 1" },
		{ "[prune]\nkeep-dayly = 3\n",
		  ":2: unknown key 'keep-dayly' in [prune]; did you mean"
		  " 'keep-daily'?" },
		{ "databse = /x\n", ":1: unknown key 'databse' in the top of"
		  " the file" },
		{ "[fs a]\nroot = /a\nrot = /b\n", ":3: unknown key 'rot' in"
		  " [fs NAME]; did you mean 'root'?" },
		{ "keep-daily = 1\n", ":1: 'keep-daily' goes in [prune]" },
		{ "[prune]\ndb = /x\n", ":2: 'db' goes before any section" },
		{ "# c\njust words\n", ":2: expected KEY = VALUE" },
		{ "db =\n", ":1: db has no value" },
		{ "= x\n", ":1: a value without a key" },
		{ "[prnue]\n", ":1: unknown section [prnue]; did you mean"
		  " [prune]?" },
		{ "[prune\n", ":1: a section ends with ']'" },
		{ "[prune x]\n", ":1: [prune] takes no name" },
		{ "[fs]\n", ":1: [fs NAME] takes one name" },
		{ "[fs a b]\n", ":1: [fs NAME] takes one name" },
		{ "[fs a]\nroot = /a\n[fs a]\n", ":3: [fs a] is already on"
		  " line 1" },
		{ "[fs a]\nroot = rel\n", ":2: root rel: expected an absolute"
		  " path" },
		{ "[fs a]\nroot = /a\n[fs b]\nroot = /a/\n", ":4: root /a/ is"
		  " already the root of [fs a] on line 2" },
		{ "\n[fs a]\ndirs = 3\n", ":2: [fs a] has no root" },
		{ "[fs a]\nroot = /a\nroot = /b\n", ":3: root is already set"
		  " on line 2" },
	};
	struct conf c;

	for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
		int rc = read_text(&c, b[i].text);
		const char *at = strstr(err, b[i].want);

		ok(rc == -1 && at != NULL && at - err ==
		    (long)strlen(scratch_at("c.conf")), "bad line %zu: %s"
		    " (got: %s)", i + 1, b[i].want, err);
		ok(c.nfs == 0 && c.path == NULL, "bad line %zu: nothing kept",
		    i + 1);
	}
}

static void
precedence(void)
{
	struct conf_val file = { (char *)"/file", 7 }, none = { NULL, 0 };
	enum conf_src src;
	char buf[32];

	setenv("TEST_CONF_VAR", "/env", 1);
	is_str(conf_pick("/opt", "TEST_CONF_VAR", &file, "dflt", &src),
	    "/opt", "option wins");
	ok(src == CONF_SRC_OPTION, "option: its source");
	is_str(conf_pick(NULL, "TEST_CONF_VAR", &file, "dflt", &src), "/env",
	    "then the environment");
	ok(src == CONF_SRC_ENV, "environment: its source");
	unsetenv("TEST_CONF_VAR");
	is_str(conf_pick("", "TEST_CONF_VAR", &file, "dflt", &src), "/file",
	    "then the file (an empty option is none)");
	is_str(conf_src_text(src, file.line, buf, sizeof buf), "file:7",
	    "file:LINE");
	is_str(conf_pick(NULL, NULL, &none, "dflt", &src), "dflt",
	    "then the default");
	is_str(conf_src_text(src, 0, buf, sizeof buf), "default", "default");
	is_str(conf_src_text(CONF_SRC_ENV, 0, buf, sizeof buf), "environment",
	    "environment");
}

static void
refused(void)
{
	struct conf c;
	const char *path = scratch_at("c.conf");

	ok(conf_read(&c, scratch_at("absent.conf"), 1, err, sizeof err) == 0 &&
	    c.path == NULL, "a missing file allowed to be: empty");
	ok(conf_read(&c, scratch_at("absent.conf"), 0, err, sizeof err) < 0 &&
	    strstr(err, "No such file") != NULL, "a missing file required:"
	    " an error (%s)", err);
	read_text(&c, "db = /a\n");
	conf_free(&c);
	chmod(path, 0666);
	ok(conf_read(&c, path, 1, err, sizeof err) < 0 && strstr(err,
	    "refused: the file is writable by every user (mode 0666)"),
	    "a world-writable file refused (%s)", err);
	chmod(path, 0664);
	ok(conf_read(&c, path, 1, err, sizeof err) < 0 && strstr(err,
	    "writable by its group"), "a group-writable file refused (%s)",
	    err);
	chmod(path, 0644);
	if (geteuid() != 0) {
		tap_skip("chown to another user", "root", "another's file");
	} else {
		ok(chown(path, 65534, 0) == 0 && conf_read(&c, path, 1, err,
		    sizeof err) < 0 && strstr(err, "owned by uid 65534"),
		    "a file another user owns refused (%s)", err);
		chown(path, 0, 0);
	}
	chmod(scratch_dir, 0777);
	ok(conf_read(&c, path, 1, err, sizeof err) < 0 && strstr(err,
	    "writable by every user (mode 0777)") && strstr(err,
	    scratch_dir), "its directory world-writable: refused (%s)", err);
	chmod(scratch_dir, 01777);
	ok(conf_read(&c, path, 1, err, sizeof err) == 0,
	    "a sticky directory, as /tmp: read (%s)", err);
	conf_free(&c);
	chmod(scratch_dir, 0700);
	unlink(scratch_at("link.conf"));
	ok(symlink(path, scratch_at("link.conf")) == 0 && conf_read(&c,
	    scratch_at("link.conf"), 1, err, sizeof err) < 0 && strstr(err,
	    "symbolic link"), "the file a symbolic link: refused (%s)", err);
}

int
main(void)
{
	scratch_make("test_conf");
	every_key();
	bad_lines();
	precedence();
	refused();
	scratch_remove();
	return tap_end();
}
