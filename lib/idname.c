#include "idname.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

char *
idname_of(enum id_kind kind, uint32_t id)
{
	size_t cap = 1024;
	char *buf = NULL, *res = NULL;
	int e;

	/* Retry with a larger buffer: NSS answers ERANGE for big entries. */
	for (;;) {
		buf = xrealloc(buf, cap);
		if (kind == ID_USER) {
			struct passwd pw, *pp = NULL;
			e = getpwuid_r((uid_t)id, &pw, buf, cap, &pp);
			if (e == 0 && pp)
				res = xstrdup(pp->pw_name);
		} else {
			struct group gr, *gp = NULL;
			e = getgrgid_r((gid_t)id, &gr, buf, cap, &gp);
			if (e == 0 && gp)
				res = xstrdup(gp->gr_name);
		}
		if (e != ERANGE || cap >= (1u << 24))
			break;
		cap *= 2;
	}
	free(buf);
	return res;
}

int
idname_gid(const char *s, uint32_t *gid)
{
	size_t cap = 1024;
	char *buf = NULL, *end;
	unsigned long v;
	int e, found = 0;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s >= '0' && *s <= '9' && !*end && !errno && v < UINT32_MAX) {
		*gid = (uint32_t)v;	/* (gid_t)-1 means "no change" */
		return 0;
	}
	for (;;) {
		struct group gr, *gp = NULL;

		buf = xrealloc(buf, cap);
		e = getgrnam_r(s, &gr, buf, cap, &gp);
		if (e == 0 && gp) {
			*gid = (uint32_t)gp->gr_gid;
			found = 1;
		}
		if (e != ERANGE || cap >= (1u << 24))
			break;
		cap *= 2;
	}
	free(buf);
	return found ? 0 : -1;
}
