/* shellword.h - split a typed command line into pipeline stages and words,
 * the way a POSIX shell would for the small subset scenarios use: blanks
 * separate words, '...' and "..." quote, backslash escapes, '|' separates
 * stages and an unquoted '#' at the start of a word starts a comment.
 * One output redirection, `> FILE` or `>> FILE`, may end the line; its
 * file is taken out of the words (which command may have one is the
 * parser's business). A descriptor's redirection, `N< FILE`, `N<&-` or
 * `N>&-`, stays among the words ("N<" and FILE, "N<&-"), marked as such
 * (only `exec` takes them: the parser's business too). */
#ifndef NS_SHELLWORD_H
#define NS_SHELLWORD_H

#include <stdbool.h>
#include <stddef.h>

struct ns_words {
	char **v;
	int *col;       /* 0-based offset of each word in the input */
	bool *fd;       /* each word: part of a descriptor's redirection */
	size_t n, cap;
	char *redir;    /* the FILE of "> FILE" or ">> FILE", or NULL */
	int redir_col;  /* 0-based offset of its '>' */
	bool append;    /* ">>" */
};

/* Where a command list's next pipeline begins (A; B, A && B, A || B):
 * the index of its first stage, the operator before it, and that
 * operator's offset in the input. */
struct ns_split_list {
	size_t first;
	char op;        /* ';', '&' (&&) or '|' (||) */
	size_t at;
};

struct ns_split {
	struct ns_words *stages;
	size_t n, cap;  /* cap: room in stages, which grows by doubling */
	size_t comment; /* offset of the trailing comment, or the input length */
	/* the pipelines after the first of a list; a ';' that ends the line
	 * adds none */
	struct ns_split_list *lists;
	size_t nlists, lists_cap;
};

/* Returns 0, or -1 with *msg (heap) and *at (0-based offset) describing
 * the problem. A '$' is refused: nothing is expanded. */
int ns_shell_split(const char *s, struct ns_split *out, char **msg, size_t *at);

/* Shell variables for ns_shell_split_vars: get() gives the value of the
 * variable called name (len bytes), or NULL when it is not set. */
struct ns_shell_vars {
	const char *(*get)(void *ctx, const char *name, size_t len);
	void *ctx;
};

/* ns_shell_split, with $NAME and ${NAME} expanded as bash expands them:
 * outside quotes the value is split into words at blanks (not in a word
 * that assigns, NAME=$X), inside double quotes it stays one piece. A
 * variable that is not set, $$, $?, $1, $(...) and ${NAME...} with an
 * operator are errors; a '$' before nothing of that is a dollar sign. */
int ns_shell_split_vars(const char *s, const struct ns_shell_vars *vars, struct ns_split *out,
			char **msg, size_t *at);
void ns_split_free(struct ns_split *sp);

#endif
