/* test_filter_head.c - head and tail: each option and form, the text
 * passing as it is, every parse error with its exact message and word,
 * and (with GNU coreutils installed) the same cases through the real
 * head and tail. Expected outputs are what head and tail of coreutils
 * 9.1 printed on Debian 12. */
#include "test_filter.h"

static const char five[] = "1\n2\n3\n4\n5\n";

TEST(head)
{
	char twelve[64] = "";

	for (int i = 1; i <= 12; i++)
		snprintf(twelve + strlen(twelve), sizeof(twelve) - strlen(twelve), "%d\n", i);
	IS_RUN(twelve, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "head");
	IS_RUN(five, "1\n2\n", "head", "-n", "2");
	IS_RUN(five, "1\n2\n", "head", "-n2");
	IS_RUN(five, "1\n2\n", "head", "-2");
	IS_RUN(five, "1\n2\n", "head", "-n", "+2");
	IS_RUN(five, "1\n2\n", "head", "-n", " 2");
	IS_RUN(five, "1\n2\n3\n", "head", "-n", "-2");
	IS_RUN(five, "", "head", "-n", "-5");
	IS_RUN(five, "", "head", "-n", "-9");
	IS_RUN(five, five, "head", "-n", "-0");
	IS_RUN(five, "", "head", "-n", "0");
	IS_RUN(five, five, "head", "-n", "99");
	IS_RUN(five, "1\n2\n3\n", "head", "-n2", "-n3");
	IS_RUN(five, "1\n2", "head", "-c", "3");
	IS_RUN(five, "1\n2\n3\n4", "head", "-c", "-3");
	IS_RUN(five, "1\n2", "head", "-n", "2", "-c", "3");
	IS_RUN(five, "1\n2\n3\n", "head", "-c", "2", "-n", "3");
	IS_RUN("a\nb", "a\nb", "head", "-n", "5");
	IS_RUN("a\nb", "a\n", "head", "-n", "-1");
	IS_RUN("a\nb", "a\nb", "head", "-c", "9");
	IS_RUN("", "", "head");
	IS_RUN(NULL, "", "head", "-n", "1");
}

TEST(tail)
{
	IS_RUN(five, "4\n5\n", "tail", "-n", "2");
	IS_RUN(five, "4\n5\n", "tail", "-2");
	IS_RUN(five, "4\n5\n", "tail", "-n", "-2");
	IS_RUN(five, "2\n3\n4\n5\n", "tail", "-n", "+2");
	IS_RUN(five, "2\n3\n4\n5\n", "tail", "+2");
	IS_RUN(five, five, "tail", "-n", "+0");
	IS_RUN(five, five, "tail", "-n", "+1");
	IS_RUN(five, "", "tail", "-n", "+6");
	IS_RUN(five, "", "tail", "-n", "0");
	IS_RUN(five, five, "tail", "-n", "10");
	IS_RUN(five, five, "tail");
	IS_RUN(five, "4\n5\n", "tail", "-n2", "-n+4");
	IS_RUN(five, "\n5\n", "tail", "-c", "3");
	IS_RUN(five, "2\n3\n4\n5\n", "tail", "-c", "+3");
	IS_RUN(five, five, "tail", "-c", "+0");
	IS_RUN(five, five, "tail", "-c", "99");
	IS_RUN("a\nb", "b", "tail", "-n", "1");
	IS_RUN("a\nb", "a\nb", "tail", "-n", "2");
	IS_RUN("a\nb", "b", "tail", "-n", "+2");
	IS_RUN("a\n\n", "\n", "tail", "-n", "1");
	IS_RUN("", "", "tail", "-n", "3");
}

TEST(errors)
{
	IS_ERR("head: option requires an argument -- 'n'", 1, "head", "-n");
	IS_ERR("tail: option requires an argument -- 'c'", 1, "tail", "-c");
	IS_ERR("head: invalid number of lines: 'x'", 2, "head", "-n", "x");
	IS_ERR("head: invalid number of lines: ''", 2, "head", "-n", "");
	IS_ERR("head: invalid number of lines: '-'", 1, "head", "-n-");
	IS_ERR("head: invalid number of lines: '1x'", 2, "head", "-n", "1x");
	IS_ERR("tail: invalid number of bytes: '+'", 2, "tail", "-c", "+");
	IS_ERR("head: invalid number of lines: '99999999999999999999999': "
	       "Value too large for defined data type", 2,
	       "head", "-n", "99999999999999999999999");
	IS_ERR("tail: invalid number of bytes: '-99999999999999999999999': "
	       "Value too large for defined data type", 2,
	       "tail", "-c", "-99999999999999999999999");
	IS_ERR("head: the suffix 'K' of the number of lines '1K' is not supported",
	       2, "head", "-n", "1K");
	IS_ERR("tail: the suffix 'KiB' of the number of bytes '2KiB' is not supported",
	       2, "tail", "-c", "2KiB");
	IS_ERR("head: the suffix 'b' of the number of bytes '-3b' is not supported",
	       2, "head", "-c", "-3b");
	IS_ERR("head: the suffix 'K' of the number of lines 'K' is not supported",
	       2, "head", "-n", "K");
	IS_ERR("head: the obsolete option '-5c' is not supported: write -n N or -c N",
	       1, "head", "-5c");
	IS_ERR("tail: the obsolete option '+5l' is not supported: write -n N or -c N",
	       1, "tail", "+5l");
	IS_ERR("head: unknown option -5", 2, "head", "-n1", "-5");
	IS_ERR("tail: unknown option -f", 1, "tail", "-f");
	IS_ERR("head: long options are not supported: write -n for --lines=2", 1,
	       "head", "--lines=2");
	IS_ERR("head: unknown option -q", 1, "head", "-q");
	IS_FILE(1, "head", "file");
	IS_FILE(0, "tail", "-2", "-");
	IS_FILE(3, "tail", "-n", "1", "+2");
	IS_ERR("tail: one FILE operand is supported, not 'g' too", 4, "tail", "-n", "1", "f", "g");
}

/* Lines pass as they were with -n, not with -c. */
TEST(keeps_lines)
{
	static const char *const cases[][3] = {
		{ "head", "-n", "1" }, { "tail", "-n", "+2" }, { "head", "-c", "1" },
		{ "tail", "-c", "1" },
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(cases); i++) {
		struct ns_parse_err e = { NULL, 0 };
		struct ns_filter *f = compile(WORDS(cases[i][0], cases[i][1], cases[i][2]), &e);

		ok(f && ns_filter_keeps_lines(f) == (cases[i][1][1] == 'n'),
		   "%s %s %s %s lines as they were", cases[i][0], cases[i][1], cases[i][2],
		   cases[i][1][1] == 'n' ? "passes" : "does not pass");
		ns_filter_free(f);
	}
}

TEST(against_real_tools)
{
	static const char in[] = "77 61 8:17 / /mntS rw shared:1 - ext4 /dev/sdb1 rw\n"
				 "a\n\nb c\nd\ne\nf\ng\nh\ni\nj\nk\nlast";
	static const char *const forms[][3] = {
		{ "-n", "3", NULL }, { "-n", "-3", NULL }, { "-n", "+3", NULL },
		{ "-c", "5", NULL }, { "-c", "-5", NULL }, { "-c", "+5", NULL },
		{ "-n", "0", NULL }, { "-4", NULL, NULL }, { "-n", "99", NULL },
		{ NULL, NULL, NULL },
	};

	if (!have_gnu("head") || !have_gnu("tail")) {
		ok(1, "# SKIP GNU head and tail are not installed");
		return;
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(forms); i++) {
		differ(in, WORDS("head", forms[i][0], forms[i][1]));
		differ(in, WORDS("tail", forms[i][0], forms[i][1]));
	}
	differ(in, WORDS("tail", "+4"));
}
