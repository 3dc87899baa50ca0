/* xalloc: xgrow's capacities, by hand, and its refusal of a size past
 * SIZE_MAX (the process exits 3, as out of memory). */
#include <stdint.h>
#include <stdlib.h>
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

int
main(void)
{
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
	return tap_end();
}
