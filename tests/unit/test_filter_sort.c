/* test_filter_sort.c - sort: the collation (bytes, unsigned, as GNU sort
 * orders in the C and C.UTF-8 locales of Debian 12), each option, keys,
 * every parse error with its exact message and word, and (with GNU
 * coreutils installed) the same cases through the real sort in both
 * locales. Expected outputs are what sort of coreutils 9.1 printed. */
#include "test_filter.h"

static const char s3[] = "b 2\na 10\nc 1\na 10\nB 3\n  d 4\n";

TEST(order)
{
	IS_RUN(s3, "  d 4\nB 3\na 10\na 10\nb 2\nc 1\n", "sort");
	IS_RUN(s3, "c 1\nb 2\na 10\na 10\nB 3\n  d 4\n", "sort", "-r");
	IS_RUN(s3, "  d 4\nB 3\na 10\nb 2\nc 1\n", "sort", "-u");
	/* punctuation, digits, upper case, '_', lower case, then bytes
	 * from 0x80 up: é (c3 a9) and a lone 0xff */
	IS_RUN("b\nB\na\n_x\n-y\n.z\n\xc3\xa9\n\xff\nZ\n10\n9\n\n a\n",
	       "\n a\n-y\n.z\n10\n9\nB\nZ\n_x\na\nb\n\xc3\xa9\n\xff\n", "sort");
	IS_RUN("ab\na\nabc\n", "a\nab\nabc\n", "sort");
	IS_RUN("b\na", "a\nb\n", "sort");
	IS_RUN("", "", "sort");
	IS_RUN(NULL, "", "sort", "-r");
	IS_RUN("a\nB\nb\nA\n", "A\na\nB\nb\n", "sort", "-f");
	IS_RUN("a\nB\nb\nA\n", "a\nB\n", "sort", "-fu");
	IS_RUN("  b\na\n c\n", "a\n  b\n c\n", "sort", "-b");
}

TEST(numeric)
{
	IS_RUN("-0\n0\n-.0\n+1\n.5\n0.50\n-\n\n 2\n1e3\nabc\n",
	       "\n+1\n-\n-.0\n-0\n0\nabc\n.5\n0.50\n1e3\n 2\n", "sort", "-n");
	IS_RUN("10\n9\n-3\n-20\n2.5\n2.25\n007\n", "-20\n-3\n2.25\n2.5\n007\n9\n10\n",
	       "sort", "-n");
	IS_RUN("10\n9\n-3\n", "10\n9\n-3\n", "sort", "-nr");
	IS_RUN("1\n01\n1.0\n2\n", "1\n2\n", "sort", "-nu");
	IS_RUN("1,000\n999\n", "1,000\n999\n", "sort", "-n");
	IS_RUN("123456789012345678901234567890\n99\n", "99\n123456789012345678901234567890\n",
	       "sort", "-n");
}

TEST(keys)
{
	IS_RUN(s3, "c 1\na 10\na 10\nb 2\nB 3\n  d 4\n", "sort", "-k2");
	IS_RUN(s3, "c 1\na 10\na 10\nb 2\nB 3\n  d 4\n", "sort", "-k", "2");
	IS_RUN(s3, "c 1\nb 2\nB 3\n  d 4\na 10\na 10\n", "sort", "-k2n");
	IS_RUN(s3, "c 1\nb 2\nB 3\n  d 4\na 10\na 10\n", "sort", "-k2,2n");
	IS_RUN(s3, "c 1\nb 2\nB 3\n  d 4\na 10\na 10\n", "sort", "-n", "-k2");
	IS_RUN(s3, "  d 4\nc 1\na 10\na 10\nb 2\nB 3\n", "sort", "-t", " ", "-k2");
	IS_RUN(s3, "c 1\na 10\na 10\nb 2\nB 3\n  d 4\n", "sort", "-k1.2");
	IS_RUN(s3, "  d 4\nB 3\na 10\na 10\nb 2\nc 1\n", "sort", "-k2,1");
	IS_RUN(s3, "c 1\nb 2\nB 3\n  d 4\na 10\n", "sort", "-un", "-k2");
	/* a key with options of its own does not take the global ones: -k2,2n
	 * is not reversed by -r */
	IS_RUN(s3, "c 1\nb 2\nB 3\n  d 4\na 10\na 10\n", "sort", "-r", "-k2,2n", "-k1,1");
	IS_RUN("x:b:2\ny:a:1\nz:a:0\n", "z:a:0\ny:a:1\nx:b:2\n", "sort", "-t:", "-k2,2", "-k3n");
	IS_RUN("x:b:2\ny:a:1\nz:a:0\n", "y:a:1\nz:a:0\nx:b:2\n", "sort", "-s", "-t:", "-k2,2");
	IS_RUN("x:b:2\ny:a:1\nz:a:0\n", "y:a:1\nx:b:2\n", "sort", "-u", "-t:", "-k2,2");
	IS_RUN("ab ca\nac bb\n", "ac bb\nab ca\n", "sort", "-k1.2,1.2r");
	IS_RUN("a  x2\nb x1\n", "a  x2\nb x1\n", "sort", "-k2.2");
	IS_RUN("a  x2\nb x1\n", "b x1\na  x2\n", "sort", "-k2.2b");
	IS_RUN("a\x01" "b\na\x01" "a\n", "a\x01" "a\na\x01" "b\n", "sort", "-t", "\x01", "-k2");
}

TEST(errors)
{
	IS_ERR("sort: field number is zero: invalid field specification '0'", 1,
	       "sort", "-k0");
	IS_ERR("sort: invalid number at field start: invalid count at start of 'x'", 2,
	       "sort", "-k", "x");
	IS_ERR("sort: character offset is zero: invalid field specification '1.0'", 1,
	       "sort", "-k1.0");
	IS_ERR("sort: invalid number after '.': invalid count at start of ''", 1,
	       "sort", "-k1.");
	IS_ERR("sort: field number is zero: invalid field specification '1,0'", 1,
	       "sort", "-k1,0");
	IS_ERR("sort: invalid number after ',': invalid count at start of 'x'", 1,
	       "sort", "-k1,x");
	IS_ERR("sort: invalid number after '.': invalid count at start of 'x'", 1,
	       "sort", "-k1,2.x");
	IS_ERR("sort: stray character in field spec: invalid field specification '2x'", 1,
	       "sort", "-k2x");
	IS_ERR("sort: the ordering option 'g' of key '2g' is not supported", 1,
	       "sort", "-k2g");
	IS_ERR("sort: the ordering option 'V' of key '1,2V' is not supported", 2,
	       "sort", "-k", "1,2V");
	IS_ERR("sort: multi-character tab 'ab'", 2, "sort", "-t", "ab");
	IS_ERR("sort: empty tab", 2, "sort", "-t", "");
	IS_ERR("sort: incompatible tabs", 2, "sort", "-ta", "-tb");
	IS_ERR("sort: option requires an argument -- 'k'", 1, "sort", "-k");
	IS_ERR("sort: option requires an argument -- 't'", 1, "sort", "-rt");
	IS_ERR("sort: unknown option -V", 1, "sort", "-V");
	IS_ERR("sort: unknown option -o", 1, "sort", "-o", "x");
	IS_ERR("sort: long options are not supported: write -r for --reverse", 1,
	       "sort", "--reverse");
	IS_FILE(2, "sort", "-r", "file");
	IS_ERR("sort: one FILE operand is supported, not 'g' too", 3, "sort", "-r", "f", "g");
}

TEST(keeps_lines)
{
	struct ns_parse_err e = { NULL, 0 };
	struct ns_filter *f = compile(WORDS("sort", "-u"), &e);

	ok(f && ns_filter_keeps_lines(f), "sort passes lines as they were");
	ns_filter_free(f);
	/* -t accepts "\0" for the NUL byte, as GNU sort does */
	f = compile(WORDS("sort", "-t", "\\0"), &e);
	ok(f != NULL, "sort -t '\\0' compiles");
	ns_filter_free(f);
}

TEST(against_real_tools)
{
	static const char in[] =
		"83 61 8:15 / /mntP rw,relatime - ext4 /dev/sdb2 rw\n"
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
		"108 83 8:2 / /home/cecilia rw,relatime unbindable - ext4 /dev/sda1 rw\n"
		"61 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		"  lead\tTab\n\nB b\nb B\n-5 x\n5 y\n05 z\n.5 w\n\xc3\xa9t\xc3\xa9\n"
		"a:b:c\na:B:c\n:x\nlast";
	static const char *const forms[][4] = {
		{ NULL }, { "-r" }, { "-u" }, { "-n" }, { "-nr" }, { "-f" }, { "-fu" },
		{ "-b" }, { "-s", "-k2,2" }, { "-k2" }, { "-k2,2" }, { "-k2n" },
		{ "-k5" }, { "-k5,5", "-k1n" }, { "-t:", "-k2" }, { "-t:", "-k2,2f" },
		{ "-t", " ", "-k2,2" }, { "-k1.2,1.3" }, { "-k2.2b,2.3" },
		{ "-k2,2", "-u" }, { "-n", "-k1,1r" }, { "-bk2" }, { "-k3.2,3.0" },
	};
	const char *locales[] = { "C", "C.UTF-8" };

	if (!have_gnu("sort")) {
		ok(1, "# SKIP GNU sort is not installed");
		return;
	}
	for (size_t l = 0; l < NS_ARRAY_SIZE(locales); l++)
		for (size_t i = 0; i < NS_ARRAY_SIZE(forms); i++)
			differ_in(locales[l], in, WORDS("sort", forms[i][0], forms[i][1],
							forms[i][2], forms[i][3]));
}
