/* xalloc: xgrow's capacities, by hand, and its refusal of a size past
 * SIZE_MAX (the process exits 3, as out of memory); xreallocarray and
 * xmul at the edge of SIZE_MAX, one element either side, and the message
 * an overflow prints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "xalloc.h"

/* The exit status of a child that grows an array to n elements of size
 * bytes, or -1. */
static int
child_grow(size_t n, size_t size)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		size_t cap = 0;
		void *p = xgrow(NULL, n, &cap, size, 1);
		free(p);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

enum { DO_ARRAY, DO_MUL };

/* The exit status of a child that asks xreallocarray (or xmul) for n
 * elements of size bytes, or -1; its standard error's first line goes
 * to msg. A product that fits is asked with n = 1 so that the block is
 * small enough to be granted. */
static int
child_array(int what, size_t n, size_t size, char *msg, size_t msglen)
{
	int fd[2], st;
	pid_t pid;
	FILE *f;

	if (pipe(fd) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		dup2(fd[1], 2);
		if (what == DO_MUL)
			_exit(xmul(n, size) == n * size ? 0 : 1);
		free(xreallocarray(NULL, n, size));
		_exit(0);
	}
	close(fd[1]);
	msg[0] = 0;
	if ((f = fdopen(fd[0], "r")) != NULL) {
		if (fgets(msg, (int)msglen, f) == NULL)
			msg[0] = 0;
		fclose(f);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int
main(void)
{
	char msg[256];
	int *a;
	size_t cap = 0;
	int *v = NULL, *w;

	v = xgrow(v, 0, &cap, sizeof *v, 4);
	is_u64(cap, 4, "first element: room for first (4)");
	v[0] = 7;
	w = xgrow(v, 3, &cap, sizeof *v, 4);
	ok(w == v && cap == 4, "n below cap: the same array, cap unchanged");
	v = xgrow(v, 4, &cap, sizeof *v, 4);
	is_u64(cap, 8, "n == cap: doubled to 8");
	is_i64(v[0], 7, "the elements are kept");
	v = xgrow(v, 100, &cap, sizeof *v, 4);
	is_u64(cap, 128, "n = 100 from 8: doubled until past n (128)");
	v[100] = 1;
	free(v);
	is_i64(child_grow(SIZE_MAX / 2 + 1, 1), 3,
	    "a capacity past SIZE_MAX: exit 3, as out of memory");
	is_i64(child_grow((SIZE_MAX >> 4) + 1, 32), 3,
	    "capacity times element size past SIZE_MAX: exit 3");

	a = xreallocarray(NULL, 3, sizeof *a);
	a[0] = 1, a[1] = 2, a[2] = 3;
	a = xreallocarray(a, 1000, sizeof *a);
	ok(a[0] == 1 && a[1] == 2 && a[2] == 3,
	    "xreallocarray grows and keeps the elements");
	a[999] = 4;
	free(a);
	free(xreallocarray(NULL, 0, sizeof *a));
	ok(1, "xreallocarray of no elements: a block, freed");

	/* SIZE_MAX = 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417:
	 * (SIZE_MAX / 3) * 3 is SIZE_MAX itself, one element more is past. */
	is_i64(child_array(DO_MUL, SIZE_MAX / 3, 3, msg, sizeof msg), 0,
	    "xmul: (SIZE_MAX / 3) * 3 == SIZE_MAX fits");
	is_i64(child_array(DO_MUL, SIZE_MAX / 3 + 1, 3, msg, sizeof msg), 3,
	    "xmul: (SIZE_MAX / 3 + 1) * 3 is past SIZE_MAX: exit 3");
	is_i64(child_array(DO_MUL, (size_t)1 << 32, (size_t)1 << 32, msg,
	    sizeof msg), 3, "xmul: 2^32 * 2^32 = 2^64: exit 3");
	is_i64(child_array(DO_ARRAY, SIZE_MAX / 3 + 1, 3, msg, sizeof msg), 3,
	    "xreallocarray: one element past SIZE_MAX: exit 3");
	ok_why(strstr(msg, "6148914691236517206 elements of 3 bytes exceed")
	    != NULL, msg, "xreallocarray: the message names the count and "
	    "size");
	is_i64(child_array(DO_ARRAY, 2, SIZE_MAX / 2 + 1, msg, sizeof msg), 3,
	    "xreallocarray: 2 elements of 2^63 bytes: exit 3");
	is_i64(child_array(DO_ARRAY, 1, 64, msg, sizeof msg), 0,
	    "xreallocarray: 1 element of 64 bytes: granted");
	return tap_end();
}
