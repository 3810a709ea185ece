/* test_filter_cut.c - cut: fields with a delimiter, bytes, lists, every
 * parse error with its exact message and word, and (with GNU coreutils
 * installed) the same cases through the real cut. Expected outputs are
 * what cut of coreutils 9.1 printed on Debian 12. */
#include "test_filter.h"

static const char in[] = "a b c d e f\nnodelim\n b  c\n";

TEST(fields)
{
	IS_RUN(in, "a c d e\nnodelim\n  c\n", "cut", "-d", " ", "-f1,3-5");
	IS_RUN(in, "a c d e\nnodelim\n  c\n", "cut", "-d ", "-f", "1,3-5");
	IS_RUN(in, "a b\nnodelim\n b\n", "cut", "-d", " ", "-f-2");
	IS_RUN(in, "d e f\nnodelim\nc\n", "cut", "-d", " ", "-f4-");
	IS_RUN(in, "a c\nnodelim\n \n", "cut", "-d", " ", "-f3,1");
	IS_RUN(in, "a b\nnodelim\n b\n", "cut", "-d", " ", "-f1,1,2");
	IS_RUN(in, "a b c\nnodelim\n b \n", "cut", "-d", " ", "-f2-3,1-2");
	IS_RUN(in, "a b c d e f\nnodelim\n b  c\n", "cut", "-d", " ", "-f2-,1");
	IS_RUN(in, "a c\nnodelim\n \n", "cut", "-d", " ", "-f", "1 3");
	IS_RUN(in, "a c\nnodelim\n \n", "cut", "-d", " ", "-f", "1\t3");
	IS_RUN(in, "c\nnodelim\n\n", "cut", "-d", " ", "-f3-3");
	IS_RUN(in, "b\nb\n", "cut", "-s", "-d", " ", "-f2");
	IS_RUN(in, "b\nb\n", "cut", "-d", " ", "-sf2");
	IS_RUN(in, "a\nnodelim\n\n", "cut", "-d", " ", "-f", "1", "-n");
	IS_RUN(in, "\nnodelim\n\n", "cut", "-d", " ", "-f", "9");
	IS_RUN("a\tb\tc\nx y\n", "b\nx y\n", "cut", "-f2");
	IS_RUN("1:2:3\n", "2:3\n", "cut", "-d:", "-f2-");
	IS_RUN("77 61 8:17 / /mntS rw shared:1 - ext4\n", "77 /mntS\n",
	       "cut", "-d", " ", "-f1,5");
	IS_RUN("a:b", "b\n", "cut", "-d:", "-f2");
	IS_RUN("", "", "cut", "-f1");
	/* -d '' is the NUL byte: a line without one passes whole */
	IS_RUN("a b\n", "a b\n", "cut", "-d", "", "-f2");
}

TEST(bytes)
{
	IS_RUN(in, " b \node\nb  \n", "cut", "-c2-4");
	IS_RUN(in, " b \node\nb  \n", "cut", "-b", "2-4");
	IS_RUN(in, "a\nn\n \n", "cut", "-c1");
	IS_RUN(in, "abc\nndl\n  c\n", "cut", "-c", "1,3,5");
	IS_RUN(in, "d e f\nm\n\n", "cut", "-c7-");
	IS_RUN("\xc3\xa9t\xc3\xa9\n", "\xc3\n", "cut", "-c1");
}

TEST(errors)
{
	IS_ERR("cut: you must specify a list of bytes, characters, or fields", 0,
	       "cut", "-d", " ");
	IS_ERR("cut: you must specify a list of bytes, characters, or fields", 0, "cut");
	IS_ERR("cut: only one list may be specified", 3, "cut", "-c2", "-f", "1");
	IS_ERR("cut: only one list may be specified", 2, "cut", "-f1", "-f2");
	IS_ERR("cut: only one list may be specified", 2, "cut", "-b1", "-c1");
	IS_ERR("cut: the delimiter must be a single character", 1, "cut", "-dab", "-f1");
	IS_ERR("cut: an input delimiter may be specified only when operating on fields",
	       0, "cut", "-d:", "-c2");
	IS_ERR("cut: suppressing non-delimited lines makes sense only when operating "
	       "on fields", 0, "cut", "-s", "-c", "1");
	IS_ERR("cut: fields are numbered from 1", 2, "cut", "-f", "0");
	IS_ERR("cut: fields are numbered from 1", 1, "cut", "-f0-2");
	IS_ERR("cut: fields are numbered from 1", 1, "cut", "-f1,");
	IS_ERR("cut: fields are numbered from 1", 1, "cut", "-f,1");
	IS_ERR("cut: fields are numbered from 1", 1, "cut", "-f1,,3");
	IS_ERR("cut: fields are numbered from 1", 2, "cut", "-f", "1  3");
	IS_ERR("cut: fields are numbered from 1", 2, "cut", "-f", " 1");
	IS_ERR("cut: fields are numbered from 1", 2, "cut", "-f", "");
	IS_ERR("cut: byte/character positions are numbered from 1", 2, "cut", "-c", "0");
	IS_ERR("cut: byte/character positions are numbered from 1", 2, "cut", "-b", "");
	IS_ERR("cut: invalid decreasing range", 1, "cut", "-f3-2");
	IS_ERR("cut: invalid decreasing range", 1, "cut", "-f-0");
	IS_ERR("cut: invalid decreasing range", 2, "cut", "-c", "2-1");
	IS_ERR("cut: invalid range with no endpoint: -", 1, "cut", "-f-");
	IS_ERR("cut: invalid range with no endpoint: -", 1, "cut", "-f1,-");
	IS_ERR("cut: invalid range with no endpoint: -", 1, "cut", "-c-");
	IS_ERR("cut: invalid field range", 1, "cut", "-f1-2-3");
	IS_ERR("cut: invalid field range", 1, "cut", "-f1--2");
	IS_ERR("cut: invalid byte or character range", 2, "cut", "-c", "1-2-3");
	IS_ERR("cut: invalid field value 'x'", 1, "cut", "-fx");
	IS_ERR("cut: invalid field value 'a2'", 1, "cut", "-f1a2");
	IS_ERR("cut: invalid field value '+1'", 1, "cut", "-f+1");
	IS_ERR("cut: invalid field value 'x'", 1, "cut", "-f2-x");
	IS_ERR("cut: invalid field value 'x'", 1, "cut", "-f1,x");
	IS_ERR("cut: invalid field value 'x,1'", 1, "cut", "-fx,1");
	IS_ERR("cut: invalid field value 'x'", 1, "cut", "-f-x");
	IS_ERR("cut: invalid byte/character position 'x'", 2, "cut", "-c", "x");
	IS_ERR("cut: field number '99999999999999999999' is too large", 1,
	       "cut", "-f99999999999999999999-");
	IS_ERR("cut: field number '99999999999999999999' is too large", 1,
	       "cut", "-f1-99999999999999999999");
	IS_ERR("cut: byte/character offset '99999999999999999999' is too large", 2,
	       "cut", "-c", "99999999999999999999");
	IS_ERR("cut: option requires an argument -- 'f'", 1, "cut", "-f");
	IS_ERR("cut: option requires an argument -- 'd'", 2, "cut", "-f1", "-d");
	IS_ERR("cut: unknown option --complement", 2, "cut", "-f1", "--complement");
	IS_ERR("cut: unknown option -z", 2, "cut", "-f1", "-z");
	IS_FILE(2, "cut", "-f1", "file");
	IS_ERR("cut: one FILE operand is supported, not 'g' too", 3, "cut", "-f1", "f", "g");
}

TEST(keeps_lines)
{
	struct ns_parse_err e = { NULL, 0 };
	struct ns_filter *f = compile(WORDS("cut", "-f1-"), &e);

	ok(f && !ns_filter_keeps_lines(f), "cut makes lines of its own");
	ns_filter_free(f);
}

TEST(against_real_tools)
{
	static const char text[] =
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
		"a\tb\tc\n\nno-delimiter-here\n:x::y:\n  lead  trail  \nlast";
	static const char *const forms[][4] = {
		{ "-d", " ", "-f1,3-5" }, { "-d", " ", "-f-2" }, { "-d", " ", "-f5-" },
		{ "-d", " ", "-f3,1" }, { "-s", "-d", " ", "-f2" }, { "-f2" },
		{ "-d:", "-f1,3" }, { "-d:", "-f2-4" }, { "-d:", "-sf4" },
		{ "-c1-3" }, { "-b", "2,4-" }, { "-c", "-2,9" }, { "-d", " ", "-f", "1 3" },
	};

	if (!have_gnu("cut")) {
		ok(1, "# SKIP GNU cut is not installed");
		return;
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(forms); i++)
		differ(text, WORDS("cut", forms[i][0], forms[i][1], forms[i][2], forms[i][3]));
}
