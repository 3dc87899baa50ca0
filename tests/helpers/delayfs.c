/*
 * delayfs: a read-only FUSE passthrough file system that adds a fixed delay
 * to every metadata operation (lookup/getattr, opendir, readdir, readlink).
 *
 * It turns a local directory into something that behaves like a slow
 * network file system, so the benchmark can show whether fsscan's threads
 * really overlap their stat calls.  Each request simply sleeps: the cost is
 * latency, not CPU, exactly as with an NFS or Lustre round trip.
 *
 *	delayfs [-o delay_us=N] [-o eio_after=N] SOURCE MOUNTPOINT [FUSE options]
 *
 * delay_us defaults to 1000 (1 ms). With eio_after=N every file reads
 * normally up to byte N and then fails with EIO (direct I/O, so a reader
 * sees exactly that): a file whose read breaks part-way, for the tests.  Kernel attribute, entry and negative
 * caching are disabled so that every stat by the scanner reaches us (and
 * the delay).  The default multithreaded loop is used with max_threads=64
 * unless the caller passes its own -o max_threads=N.  Inode numbers,
 * sizes, block counts and times come from the source (use_ino), so hard
 * links still share an inode number under the mount point.
 */
#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

struct delayfs_opts {
	char		*source;
	unsigned long	 delay_us;
	unsigned long	 eio_after;	/* 0: reads never fail */
	int		 show_help;
};

static struct delayfs_opts opts = { NULL, 1000, 0, 0 };
static int src_fd = -1;		/* directory fd of SOURCE; all paths are relative to it */

#define OPT(t, p, v) { t, offsetof(struct delayfs_opts, p), v }
static const struct fuse_opt delayfs_optspec[] = {
	OPT("delay_us=%lu", delay_us, 0),
	OPT("eio_after=%lu", eio_after, 0),
	OPT("-h", show_help, 1),
	OPT("--help", show_help, 1),
	FUSE_OPT_END
};

/* Sleep for the configured delay; restart after signals so it is exact. */
static void
delay(void)
{
	struct timespec ts;

	if (opts.delay_us == 0)
		return;
	ts.tv_sec = opts.delay_us / 1000000;
	ts.tv_nsec = (long)(opts.delay_us % 1000000) * 1000;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* FUSE paths start with '/'; the *at() calls want them relative to src_fd. */
static const char *
rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static void *
delayfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;	/* report the source's st_ino: hardlink dedup */
	cfg->readdir_ino = 1;
	cfg->entry_timeout = 0;	/* every lookup and stat pays the delay */
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->kernel_cache = 0;
	return NULL;
}

static int
delayfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	/* By path even for open files: fi->fh may hold a DIR *, not an fd. */
	(void)fi;
	delay();
	if (fstatat(src_fd, rel(path), st, AT_SYMLINK_NOFOLLOW) == -1)
		return -errno;
	return 0;
}

static int
delayfs_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	delay();
	if (size == 0)
		return -EINVAL;
	n = readlinkat(src_fd, rel(path), buf, size - 1);
	if (n == -1)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int
delayfs_opendir(const char *path, struct fuse_file_info *fi)
{
	DIR *d;
	int fd;

	delay();
	fd = openat(src_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		return -errno;
	d = fdopendir(fd);
	if (d == NULL) {
		int e = errno;
		close(fd);
		return -e;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	return 0;
}

/*
 * One kernel READDIR request per call; the kernel resumes at the offset of
 * the last entry it accepted, which is the telldir() cookie we handed out.
 */
static int
delayfs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
    off_t off, struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	DIR *d = (DIR *)(uintptr_t)fi->fh;
	struct dirent *de;
	struct stat st;

	(void)path;
	(void)flags;
	delay();
	seekdir(d, off);
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (de == NULL)
			return errno ? -errno : 0;
		memset(&st, 0, sizeof(st));
		st.st_ino = de->d_ino;
		st.st_mode = (mode_t)DTTOIF(de->d_type);
		if (filler(buf, de->d_name, &st, telldir(d), 0) != 0)
			return 0;
	}
}

static int
delayfs_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	closedir((DIR *)(uintptr_t)fi->fh);
	return 0;
}

static int
delayfs_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fd = openat(src_fd, rel(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = opts.eio_after > 0;
	return 0;
}

static int
delayfs_read(const char *path, char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	if (opts.eio_after > 0 && (unsigned long)off >= opts.eio_after)
		return -EIO;
	if (opts.eio_after > 0 && (unsigned long)off + size > opts.eio_after)
		size = opts.eio_after - (unsigned long)off;
	n = pread((int)fi->fh, buf, size, off);
	return n == -1 ? -errno : (int)n;
}

static int
delayfs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static int
delayfs_statfs(const char *path, struct statvfs *sv)
{
	(void)path;
	return fstatvfs(src_fd, sv) == -1 ? -errno : 0;
}

static const struct fuse_operations delayfs_ops = {
	.init		= delayfs_init,
	.getattr	= delayfs_getattr,
	.readlink	= delayfs_readlink,
	.opendir	= delayfs_opendir,
	.readdir	= delayfs_readdir,
	.releasedir	= delayfs_releasedir,
	.open		= delayfs_open,
	.read		= delayfs_read,
	.release	= delayfs_release,
	.statfs		= delayfs_statfs,
};

/* The first non-option argument is SOURCE; the second (mount point) is FUSE's. */
static int
delayfs_optproc(void *data, const char *arg, int key, struct fuse_args *out)
{
	(void)data;
	(void)out;
	if (key == FUSE_OPT_KEY_NONOPT && opts.source == NULL) {
		opts.source = strdup(arg);
		return opts.source == NULL ? -1 : 0;
	}
	return 1;
}

static void
usage(const char *prog)
{
	printf("usage: %s [-o delay_us=N] [-o eio_after=N] SOURCE MOUNTPOINT"
	    " [FUSE options]\n"
	    "  -o delay_us=N   delay per lookup/getattr/opendir/readdir/readlink"
	    " (default 1000)\n"
	    "  -o eio_after=N  file reads fail with EIO from byte N on\n"
	    "  (max_threads defaults to 64; file system is read-only)\n\n",
	    prog);
}

int
main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int rc;

	if (fuse_opt_parse(&args, &opts, delayfs_optspec, delayfs_optproc) == -1)
		return 1;
	if (opts.show_help) {
		usage(argv[0]);
		if (fuse_opt_add_arg(&args, "--help") == -1)
			return 1;
		args.argv[0][0] = '\0';
	} else {
		if (opts.source == NULL) {
			usage(argv[0]);
			return 2;
		}
		src_fd = open(opts.source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (src_fd == -1) {
			perror(opts.source);
			return 1;
		}
		/* Inserted first so that a caller's own option overrides them. */
		if (fuse_opt_insert_arg(&args, 1, "-omax_threads=64") == -1 ||
		    fuse_opt_insert_arg(&args, 1, "-oro,fsname=delayfs,subtype=delayfs") == -1)
			return 1;
	}
	rc = fuse_main(args.argc, args.argv, &delayfs_ops, NULL);
	fuse_opt_free_args(&args);
	free(opts.source);
	return rc;
}
