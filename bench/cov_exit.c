/* cov_exit.c - for bench/coverage only: the coverage build compiles every
 * file with -D_exit=ns_cov_exit, so that a process that ends with _exit(2)
 * (workers, sandboxes, terminals) writes its gcov counters first; plain
 * exit(3) writes them anyway. Never part of nstest itself.
 *
 * gcov writes each file's counters at the absolute path of its object.
 * A worker, a sandbox and a terminal live in mount namespaces whose root
 * is an empty tmpfs, where no such path exists; so the host's root is
 * kept open from the start (an fd high enough to stay out of the way of
 * the descriptors scenarios use), and a process goes back under it
 * before writing. A process that cannot (the fd closed, no right to
 * chroot) writes nothing, as before. */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

void __gcov_dump(void);
void ns_cov_exit(int status) __attribute__((noreturn));

static int host_root = -1;

__attribute__((constructor)) static void keep_host_root(void)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	host_root = fcntl(fd, F_DUPFD_CLOEXEC, 900);
	close(fd);
}

void ns_cov_exit(int status)
{
	if (host_root >= 0 && fchdir(host_root) == 0 && chroot(".") < 0) {
		/* still where it was: it writes what its own root allows */
	}
	__gcov_dump();
	syscall(SYS_exit_group, status);
	for (;;)
		;
}
