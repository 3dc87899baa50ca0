/*
 * conf: the configuration file every program reads,
 * /etc/iocensus/iocensus.conf (docs/iocensus.conf.5): the database, the
 * logs directory, the metrics file, the retention policy and the file
 * systems, each with its root and its scan settings.
 *
 * A value is kept as the text written, with its line: each program reads
 * it with the code that reads the option of the same name, so that a
 * value means in the file what it means on the command line, and a bad
 * one is named by file and line. Precedence is one rule for every value:
 * the option, then the environment, then the file, then the default
 * (conf_pick).
 *
 * Root reads the file: it is opened without following another user's
 * link (lib/safefile), and refused, as sshd's StrictModes does, when a
 * user other than root or the running user owns it or any directory
 * above it, or could write to one of them (a sticky directory such as
 * /tmp excepted, whose entries only their owners may replace).
 */
#ifndef IOCENSUS_CONF_H
#define IOCENSUS_CONF_H

#include <stddef.h>

#define CONF_PATH	"/etc/iocensus/iocensus.conf"
#define CONF_ENV	"IOCENSUS_CONF"
#define CONF_LOGS_DEFAULT "/var/log/iostatmon"	/* iostatmon --log-dir */

/* A value as written, and its line (0: not in the file). */
struct conf_val {
	char *v;
	int line;
};

/* The keys before any section, of [prune] and of [fs NAME], in the order
 * of conf_top_keys, conf_prune_keys and conf_fs_keys. */
enum { CONF_DB, CONF_LOGS, CONF_METRICS, CONF_METRICS_TOP, CONF_NTOP };
enum { CONF_KEEP_DAILY, CONF_KEEP_WEEKLY, CONF_KEEP_MONTHLY,
    CONF_KEEP_QUARTERLY, CONF_NPRUNE };
enum { CONF_FS_ROOT, CONF_FS_PROJECT, CONF_FS_LIMITS, CONF_FS_COLD,
    CONF_FS_DIRS, CONF_FS_MAX_RATE, CONF_NFS };
extern const char *const conf_top_keys[CONF_NTOP];
extern const char *const conf_prune_keys[CONF_NPRUNE];
extern const char *const conf_fs_keys[CONF_NFS];

struct conf_fs {
	char *name;
	int line;			/* of its [fs NAME] */
	struct conf_val key[CONF_NFS];	/* key[CONF_FS_PROJECT]: the first */
	struct conf_val *project;	/* every project line, in order */
	size_t nproject;
};

struct conf {
	char *path;			/* the file read; NULL: none */
	struct conf_val top[CONF_NTOP];
	struct conf_val prune[CONF_NPRUNE];
	struct conf_fs *fs;
	size_t nfs;
};

/* Where a value came from (conf_pick), in precedence order. */
enum conf_src { CONF_SRC_OPTION, CONF_SRC_ENV, CONF_SRC_FILE,
    CONF_SRC_DEFAULT };

/* Read the file at path into c (zeroed first). A missing file is an
 * empty configuration when missing_ok, else an error. 0, or -1 with err
 * ("FILE:LINE: why", or "FILE: why" for the file as a whole); c is then
 * empty. */
int conf_read(struct conf *c, const char *path, int missing_ok, char *err,
    size_t errlen);
void conf_free(struct conf *c);

/* The process's configuration: $IOCENSUS_CONF (which must exist), else
 * CONF_PATH (which need not). 0, or -1 after "PROG: why" on stderr.
 * conf_get is the configuration loaded, empty before conf_init; conf_end
 * frees it. */
int conf_init(const char *prog);
const struct conf *conf_get(void);
void conf_end(void);

/* The value that wins: opt (the command line), else the variable env
 * (NULL: none), else the file's, else dflt; *src (when not NULL) says
 * which. An empty text counts as unset. */
const char *conf_pick(const char *opt, const char *env,
    const struct conf_val *file, const char *dflt, enum conf_src *src);
/* "option", "environment", "file:LINE", "default" into buf. */
const char *conf_src_text(enum conf_src src, int line, char *buf,
    size_t len);

/* The file system of that name, or whose root is path (trailing slashes
 * aside), or NULL. */
const struct conf_fs *conf_fs_named(const struct conf *c, const char *name);
const struct conf_fs *conf_fs_rooted(const struct conf *c, const char *path);
/* The length of path without its trailing slashes ("/" keeps its one):
 * "/proj/" and "/proj" name one root. */
size_t conf_root_len(const char *path);

#endif
