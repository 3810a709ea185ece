/* outfile.h - output that is either complete or not there, and errors
 * that are never lost (issue 28, "Write errors").
 *
 * A report, a picture, a rewritten scenario or a fuzz finding is written
 * to a temporary file in the folder of its name and renamed over it only
 * once every write, the flush, fsync(2) and the close succeeded: a full
 * disk or a killed run leaves an earlier file as it was. The temporary
 * file is unnamed (O_TMPFILE) until the commit where the filesystem can,
 * so a SIGKILL leaves nothing behind; elsewhere it is ".NAME.PID.N", removed
 * on failure. A name that is there and is no regular file (/dev/null, a
 * FIFO, /dev/stdout) is written in place: it cannot be replaced. So is a
 * regular file in a folder this process may not create files in (the
 * file's own permission is then what counts, as for fopen).
 *
 * The writes go through a stdio stream whose first failing write(2) is
 * kept with its errno, which stdio itself forgets; standard output is
 * given the same kind of stream by ns_stdout_watch. */
#ifndef NS_OUTFILE_H
#define NS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ns_outfile {
	FILE *f;       /* write the text here */
	int fd;
	int err;       /* the first write error (an errno), or 0 */
	char *path;    /* the name it gets (a symlink to a file followed) */
	char *tmp;     /* the named temporary file, once there is one */
	bool unnamed;  /* O_TMPFILE: named at the commit */
	bool direct;   /* written in place (see above) */
};

/* Open an output file for path. 0, or -errno (nothing was created). The
 * struct must stay where it is until ns_outfile_commit or _abort. */
int ns_outfile_open(struct ns_outfile *o, const char *path);
/* Flush, sync, close and rename into place. 0, or -errno of the first
 * thing that failed; then path is as it was before the open (except when
 * written in place). Either way o is released. */
int ns_outfile_commit(struct ns_outfile *o);
/* Give up: remove the temporary file and release o. */
void ns_outfile_abort(struct ns_outfile *o);

/* The three above for text already in memory: 0 or -errno. */
int ns_write_file_atomic(const char *path, const void *data, size_t len);

/* Replace stdout with a stream over file descriptor 1 that keeps the
 * errno of its first failing write (glibc lets a program assign stdout).
 * Call before anything is written. The stream has no file descriptor of
 * its own: fileno(stdout) is -1, so use STDOUT_FILENO. */
void ns_stdout_watch(void);
/* Flush standard output and close file descriptor 1, as util-linux's
 * close_stdout does at exit: 0 when every write to it succeeded, else
 * the errno of the first that failed (EIO where stdio lost it). Nothing
 * may be written to stdout afterwards. */
int ns_stdout_close(void);

#endif
