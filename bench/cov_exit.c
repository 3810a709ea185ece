/* cov_exit.c - for bench/coverage only: the coverage build compiles every
 * file with -D_exit=ns_cov_exit, so that a process that ends with _exit(2)
 * (workers, sandboxes, terminals) writes its gcov counters first; plain
 * exit(3) writes them anyway. Never part of nstest itself. */
#include <sys/syscall.h>
#include <unistd.h>

void __gcov_dump(void);
void ns_cov_exit(int status) __attribute__((noreturn));

void ns_cov_exit(int status)
{
	__gcov_dump();
	syscall(SYS_exit_group, status);
	for (;;)
		;
}
