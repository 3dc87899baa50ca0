/*
 * mpi_lsan: in sanitizer builds only, libraries are never unloaded.
 *
 * LeakSanitizer names the library of every frame when it reports at
 * exit, and tests/lsan-openmpi.supp suppresses the allocations Open MPI
 * keeps until exit by naming its libraries. Open MPI unloads its
 * components (MPI_Init drops those it does not select, MPI_Finalize the
 * rest), and a frame in an unloaded library has no name to match. This
 * dlclose, which the Makefile exports from sanitizer builds of
 * fsscan-mpi, keeps them loaded. Release builds hold nothing of it.
 */
#ifdef __SANITIZE_ADDRESS__
#include <dlfcn.h>

int
dlclose(void *handle)
{
	(void)handle;
	return 0;
}
#else
typedef int mpi_lsan_unused;	/* ISO C wants something in a file */
#endif
