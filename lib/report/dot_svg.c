/* dot_svg.c - see dot_svg.h. The DOT goes to dot's stdin through a
 * memfd, so no pipe can fill up while we wait for the SVG. */
#include "report/dot_svg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SVG_MAX (64u << 20)

/* Is there an executable `dot` on $PATH? */
static bool have_dot(void)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	bool found = false;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	copy = xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *f = xasprintf("%s/dot", *d ? d : ".");
		found = access(f, X_OK) == 0;
		free(f);
	}
	free(copy);
	return found;
}

static int fd_with(const char *name, const char *text)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ns_write_all(fd, text, strlen(text)) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* dot -Tsvg on dot (one graph or several), its output appended to svg. */
static int run_dot(const char *dot, struct ns_buf *svg, struct ns_buf *err)
{
	int in = -1, errfd = -1, pipefd[2] = { -1, -1 }, status = 0, r = -1;
	char *data = NULL, *msg = NULL;
	size_t len = 0, mlen = 0;
	pid_t pid;

	if (!have_dot()) {
		ns_buf_adds(err, "drawing SVG needs Graphviz's 'dot', which is not installed (Debian and Ubuntu: apt-get install graphviz); --format dot needs nothing");
		return -1;
	}
	in = fd_with("nstest-dot", dot);
	errfd = memfd_create("nstest-dot-err", MFD_CLOEXEC);
	if (in < 0 || errfd < 0 || pipe2(pipefd, O_CLOEXEC) < 0) {
		ns_buf_addf(err, "running dot: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ns_buf_addf(err, "running dot: fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if (dup2(in, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(errfd, 2) < 0)
			_exit(127);
		execlp("dot", "dot", "-Tsvg", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	if (ns_read_fd(pipefd[0], SVG_MAX, &data, &len) < 0)
		ns_buf_addf(err, "reading dot's output: %s", strerror(errno));
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err->len)
		goto out;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		lseek(errfd, 0, SEEK_SET);
		ns_read_fd(errfd, 4096, &msg, &mlen);
		ns_buf_addf(err, "dot failed (%s %d)%s%.*s",
			    WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			    mlen ? ": " : "", (int)strcspn(msg ? msg : "", "\n"), msg ? msg : "");
		goto out;
	}
	ns_buf_add(svg, data, len);
	r = 0;
out:
	free(data);
	free(msg);
	if (in >= 0)
		close(in);
	if (errfd >= 0)
		close(errfd);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return r;
}


int ns_dot_to_svg(const char *dot, struct ns_buf *svg, struct ns_buf *err)
{
	return run_dot(dot, svg, err);
}

int ns_dot_to_svgs(char *const *dots, size_t n, char **svgs, struct ns_buf *err)
{
	struct ns_buf in = NS_BUF_INIT, out = NS_BUF_INIT;
	const char *s;
	size_t k = 0;
	int r = -1;

	for (size_t i = 0; i < n; i++)
		svgs[i] = NULL;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		ns_buf_adds(&in, dots[i]);
	if (run_dot(ns_buf_str(&in), &out, err) < 0)
		goto out;
	/* one document per graph, in order, each ending in </svg> (labels
	 * are escaped: no label holds it) */
	for (s = ns_buf_str(&out); k < n; k++) {
		const char *e = strstr(s, "</svg>");

		if (!e)
			break;
		e += strlen("</svg>");
		svgs[k] = xstrndup(s, (size_t)(e - s));
		s = e + strspn(e, "\n");
	}
	if (k < n) {
		ns_buf_addf(err, "dot drew %zu of %zu graphs", k, n);
		for (size_t i = 0; i < k; i++) {
			free(svgs[i]);
			svgs[i] = NULL;
		}
		goto out;
	}
	r = 0;
out:
	ns_buf_free(&in);
	ns_buf_free(&out);
	return r;
}

const char *ns_svg_element(const char *svg)
{
	const char *s = strstr(svg, "<svg");

	return s ? s : svg;
}

/* Does s start with w? Then the length of w, else 0. */
static size_t starts(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) ? 0 : n;
}

/* A length in points ("386pt") as pixels, 96 to the inch. */
static void pt_to_px(struct ns_buf *out, const char **s)
{
	char *end;
	double v = strtod(*s, &end);

	if (end != *s && !strncmp(end, "pt\"", 3)) {
		ns_buf_addf(out, "%.0f\"", v * 4 / 3);
		*s = end + 3;
	}
}

void ns_svg_inline(struct ns_buf *out, const char *svg, const char *prefix)
{
	const char *s = ns_svg_element(svg);
	size_t n;

	while (*s) {
		if ((n = starts(s, "<!--"))) {
			const char *e = strstr(s, "-->");
			s = e ? e + 3 : s + strlen(s);
			s += *s == '\n';
		} else if ((n = starts(s, "\n<title>"))) {
			/* Graphviz's: the DOT names of nodes and edges ("m49") */
			const char *e = strstr(s, "</title>");
			s = e ? e + 8 : s + strlen(s);
		} else if ((n = starts(s, " font-family=\"Helvetica,sans-Serif\"")) ||
			   (n = starts(s, " font-size=\"10.00\"")) ||
			   (n = starts(s, " text-anchor=\"middle\""))) {
			/* the page's style sheet says it once */
			s += n;
		} else if ((n = starts(s, "<!--"))) {
			const char *e = strstr(s, "-->");
			s = e ? e + 3 : s + strlen(s);
			s += *s == '\n';
		} else if ((n = starts(s, " id=\"")) || (n = starts(s, "href=\"#")) ||
			   (n = starts(s, "url(#"))) {
			ns_buf_add(out, s, n);
			ns_buf_addf(out, "%s-", prefix);
			s += n;
		} else if ((n = starts(s, "<svg width=\"")) || (n = starts(s, " height=\""))) {
			ns_buf_add(out, s, n);
			s += n;
			pt_to_px(out, &s);
		} else if ((n = starts(s, " xmlns:xlink=\"http://www.w3.org/1999/xlink\""))) {
			s += n;
		} else if ((n = starts(s, "<a xlink:title=\""))) {
			size_t t = strcspn(s + n, "\"");
			ns_buf_adds(out, "<a><title>");
			ns_buf_add(out, s + n, t);
			ns_buf_adds(out, "</title>");
			s += n + t + (s[n + t] == '"');
			s += *s == '>';
		} else {
			ns_buf_addc(out, *s++);
		}
	}
}
