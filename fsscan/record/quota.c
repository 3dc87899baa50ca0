/*
 * quota: project quota limits through quotactl (record.h). The generic
 * Q_GETQUOTA works on XFS and ext4 alike; block limits are in units of
 * QIF_DQBLKSIZE (1 KiB).
 */
#include <errno.h>
#include <stddef.h>
#include <sys/quota.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record.h"

#ifndef PRJQUOTA
#define PRJQUOTA 2
#endif
#define QUOTA_BLOCK 1024	/* QIF_DQBLKSIZE */
/* QCMD(Q_GETQUOTA, PRJQUOTA), shifted as unsigned: the macro shifts the
 * int 0x800007 into the sign bit, which is undefined. */
#define GETQUOTA_PRJ ((int)(((unsigned)Q_GETQUOTA << SUBCMDSHIFT) | \
	(PRJQUOTA & SUBCMDMASK)))

static long
getquota(int fd, const char *dev, uint32_t projid, struct dqblk *dq)
{
	long rc = -1;

	errno = ENOSYS;
#ifdef SYS_quotactl_fd
	rc = syscall(SYS_quotactl_fd, fd, GETQUOTA_PRJ,
	    (int)projid, dq);
#else
	(void)fd;
#endif
	if (rc < 0 && errno == ENOSYS && dev && dev[0] == '/')
		rc = quotactl(GETQUOTA_PRJ, dev, (int)projid,
		    (caddr_t)dq);
	return rc;
}

/* The hard limit, else the soft one; 0: none. */
static uint64_t
pick(uint64_t hard, uint64_t soft)
{
	return hard ? hard : soft;
}

int
quota_project(int fd, const char *dev, uint32_t projid, struct limit *x)
{
	struct dqblk dq = { 0 };
	uint64_t b, i;

	if (getquota(fd, dev, projid, &dq) < 0)
		return 0;
	b = (dq.dqb_valid & QIF_BLIMITS) ? pick(dq.dqb_bhardlimit,
	    dq.dqb_bsoftlimit) : 0;
	i = (dq.dqb_valid & QIF_ILIMITS) ? pick(dq.dqb_ihardlimit,
	    dq.dqb_isoftlimit) : 0;
	/* Beyond 2^63 bytes is no limit a file system can reach. */
	x->has_bytes = b > 0 && b <= INT64_MAX / QUOTA_BLOCK;
	x->bytes = x->has_bytes ? (int64_t)(b * QUOTA_BLOCK) : 0;
	x->has_inodes = i > 0 && i <= INT64_MAX;
	x->inodes = x->has_inodes ? (int64_t)i : 0;
	x->source = "quota";
	if (!x->has_bytes && !x->has_inodes) {
		errno = ENOENT;
		return 0;
	}
	return 1;
}
