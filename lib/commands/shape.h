/* shape.h - how the judge reads a command's output: the second line shape
 * the matcher knows besides mountinfo records (match/match.h). A command's
 * definition describes its output with it (struct ns_cmd_def.shape), from
 * its parsed arguments alone; the matcher reads the lines by it. */
#ifndef NS_SHAPE_H
#define NS_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

/* What a field of a findmnt table holds. */
enum ns_match_col {
	NS_MATCH_COL_TEXT,    /* literal */
	NS_MATCH_COL_ID,      /* a mount ID (ID) */
	NS_MATCH_COL_PARENT,  /* a mount ID (PARENT): the same renaming as ID */
	NS_MATCH_COL_DEV,     /* MAJOR:MINOR (MAJ:MIN) */
	NS_MATCH_COL_DEV_DEC, /* a device number in decimal (stat's %d) */
	NS_MATCH_COL_DEV_HEX, /* the same in hex (stat's %D) */
	NS_MATCH_COL_INO,     /* an inode number (stat's %i) */
	NS_MATCH_COL_GROUP,   /* a peer group's number (statmount's) */
	NS_MATCH_COL_NSID,    /* a mount namespace ID (statmount's) */
	NS_MATCH_COL_UNIQUE,  /* a unique mount ID (statmount's, watch's) */
	NS_MATCH_COL_PID,     /* a shell's process ID (echo $$) */
	/* free: any value of the field's form matches any other, and is no
	 * fact the renaming keeps (match/match_free.c) */
	NS_MATCH_COL_SIZE,    /* a size or count: digits, with -h a scaled
			       * "7.8G", or "-" (df, findmnt -D, ls -l) */
	NS_MATCH_COL_PERCENT, /* a percentage: "N%", or "-" (df's Use%) */
	NS_MATCH_COL_DATE,    /* ls -l's date: "Mon dd HH:MM", "Mon dd  YYYY",
			       * or long-iso "YYYY-MM-DD HH:MM"; WORDS only */
};

/* How findmnt laid its table out. */
enum ns_match_form {
	NS_MATCH_TABLE,       /* a tree or list: columns padded with blanks */
	NS_MATCH_RAW,         /* -r: fields separated by single spaces */
	NS_MATCH_JSON,        /* -J: "id": N, "parent": N, "maj:min": "M:m" */
	NS_MATCH_FIELDS,      /* each line is cols[] in order, with no blanks
			       * between them: a TEXT column with lit[] set
			       * is that text, one without is any text; stat
			       * -c's format, mountpoint -d (match_fields.c) */
	NS_MATCH_WORDS,       /* cols[] as words between blanks of any
			       * width, a DATE column taking its own blanks,
			       * the last column the rest of the line: ls -l,
			       * df (match_free.c) */
};

#define NS_MATCH_MAX_COLS 64

/* A word of a findmnt table's row (ns_match_table_words): a tree glyph
 * ("│"), part of TARGET's tree prefix, or the cell of column col. */
struct ns_match_word {
	const char *s;
	size_t len;
	bool glyph;
	size_t col;
};

/* The second line shape the matcher knows besides mountinfo records: the
 * output of one findmnt, its columns in order (the judge builds it from
 * the step's parsed arguments). A step with a shape reads its lines as
 * findmnt rows only; lines that are no row match literally. The rules are
 * in match_table.c and nstest-scenario(5), findmnt. */
struct ns_match_shape {
	enum ns_match_form form;
	bool tree;            /* the rows are findmnt's tree of submounts, each
			       * mount's children in the order of their mount
			       * IDs (match_tree.h); TABLE, not flat: a word of
			       * tree glyphs ("│") is no field */
	bool flat;            /* tree: printed as a list (-l, -r or -J -l with
			       * -R and a selection), in the tree's preorder,
			       * with no glyphs and no nesting */
	bool piped;           /* tree: the output went through filters, which
			       * may have taken lines out of it */
	bool heading;         /* the first line is the heading (no -n) */
	bool total;           /* WORDS: a line "total N" is that word and a
			       * free size (ls -l's first line) */
	size_t tree_col;      /* tree: the column the tree is drawn in (findmnt's
			       * TARGET), 0 by default; ncols or more: none */
	size_t ncols;
	enum ns_match_col cols[NS_MATCH_MAX_COLS];
	bool trunc[NS_MATCH_MAX_COLS]; /* TABLE: findmnt cuts this column's
			       * cells to fit a narrow terminal (util-linux's
			       * SCOLS_FL_TRUNC: FSTYPE and the options);
			       * run/narrow.h */
	const char *lit[NS_MATCH_MAX_COLS];   /* FIELDS: literal text, or NULL */
	size_t litlen[NS_MATCH_MAX_COLS];
};

#endif
