#include "idname.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

const char *
uid_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &res) != 0 || !res)
		return NULL;
	snprintf(buf, len, "%s", res->pw_name);
	return buf;
}

const char *
gid_name(gid_t gid, char *buf, size_t len)
{
	struct group gr, *res = NULL;
	char tmp[4096];

	if (getgrgid_r(gid, &gr, tmp, sizeof tmp, &res) != 0 || !res)
		return NULL;
	snprintf(buf, len, "%s", res->gr_name);
	return buf;
}
