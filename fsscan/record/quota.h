/*
 * quota: the project quotas of a file system, where the kernel exposes
 * them (quotactl with PRJQUOTA: XFS mounted with prjquota, ext4 with the
 * project feature and quotas on). Only read: fsscan never sets a quota.
 */
#ifndef FSSCAN_QUOTA_H
#define FSSCAN_QUOTA_H

#include <stdint.h>

#include "limits.h"

/*
 * The limit of file-system project projid on the file system that holds
 * the directory fd (quotactl_fd, Linux 5.14), or, on an older kernel, on
 * block device dev: its hard limits, or its soft limits where no hard one
 * is set. 1 with x's bytes/inodes set (has_* 0 for "no limit"), 0 when
 * there is none (no limit set, quotas off, not supported, not permitted),
 * with errno saying why.
 */
int quota_project(int fd, const char *dev, uint32_t projid,
    struct limit *x);

#endif
