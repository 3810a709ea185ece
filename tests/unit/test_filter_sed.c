/* test_filter_sed.c - sed scripts: several -e, ';' and newlines, -n, the
 * commands p, d, q and Q, the s flags p, N and I, addresses and ranges,
 * a last line without '\n', every parse error with its exact message
 * and word, and (with GNU sed installed) the same scripts through the
 * real sed. Expected outputs are what GNU sed 4.9 printed on Debian 12.
 * (test_filter.c has the s command's own cases.) */
#include "test_filter.h"

static const char five[] = "1\n2\n3\n4\n5\n";

TEST(scripts)
{
	IS_RUN(five, "a\nb\n3\n4\n5\n", "sed", "-e", "s/1/a/", "-e", "s/2/b/");
	IS_RUN(five, "a\nb\n3\n4\n5\n", "sed", "s/1/a/;s/2/b/");
	IS_RUN(five, "a\nb\n3\n4\n5\n", "sed", "s/1/a/\ns/2/b/");
	IS_RUN(five, "a\nb\n3\n4\n5\n", "sed", "-es/1/a/", "-e", "s/2/b/");
	IS_RUN(five, "x\n2\n3\n4\n5\n", "sed", "-e", "s/1/a/", "-e", "s/a/x/");
	IS_RUN(five, "1\n2\n3\n4\n5\n", "sed", "  ; ;\n");
	IS_RUN(five, "1\n2\n3\n4\n5\n", "sed", "# only a comment");
	IS_RUN(five, "a\n2\n3\n4\n5\n", "sed", "s/1/a/ # then a comment\n#another");
	IS_RUN(five, "2\n", "sed", "#n\n2p");
	IS_RUN(five, "2\n", "sed", "-e", "#n", "-e", "2p");
	IS_RUN(five, "", "sed", "#n 2p");
	IS_RUN(five, "", "sed", "#nx");
	IS_RUN(five, "1\n2\n2\n3\n4\n5\n", "sed", " #n\n2p");
	IS_RUN("key=val\n", "val=key\n", "sed", "-E", "-e", "s/(.*)=(.*)/\\2=\\1/");
	IS_RUN("ab\n", "b\n", "sed", "-r", "-e", "s/a+//", "-e", "s/c?$//");
}

TEST(commands)
{
	IS_RUN(five, "2\n", "sed", "-n", "2p");
	IS_RUN(five, "5\n", "sed", "-n", "$p");
	IS_RUN(five, "1\n1\n2\n2\n3\n3\n4\n4\n5\n5\n", "sed", "p");
	IS_RUN(five, "1\n3\n4\n5\n", "sed", "2d");
	IS_RUN(five, "1\n5\n", "sed", "2,4d");
	IS_RUN(five, "1\nx\n", "sed", "2d;3,$d;s/1/&\\nx/");
	IS_RUN(five, "1\n2\n3\n", "sed", "3q");
	IS_RUN(five, "", "sed", "-n", "3q");
	IS_RUN(five, "1\n2\n", "sed", "3Q");
	IS_RUN(five, "1\n2\n3\n", "sed", "-n", "p;3q");
	IS_RUN(five, "a\n", "sed", "-n", "s/1/a/p");
	IS_RUN(five, "a\na\n2\n3\n4\n5\n", "sed", "s/1/a/p");
	IS_RUN(five, "a\n", "sed", "-n", "s/1/a/ p");
	IS_RUN(five, "2\n2\n3\n3\n", "sed", "-n", "2,3p;2,3p");
	IS_RUN(five, "1\nx\n", "sed", "2d;s/3/x/;4,5d");
	IS_RUN("abab\n", "abaX\n", "sed", "s/b/X/2");
	IS_RUN("abab\n", "aXaX\n", "sed", "s/B/X/Ig");
	IS_RUN("abab\n", "aXaX\n", "sed", "s/B/X/gi");
	IS_RUN("baaac\n", "bxc\n", "sed", "s/a*/x/2");
	IS_RUN("baaac\n", "baaacx\n", "sed", "s/a*/x/3");
	IS_RUN("baaac\n", "bxcx\n", "sed", "s/a*/x/2g");
	IS_RUN("aaaa\n", "aaXX\n", "sed", "s/a/X/3g");
	IS_RUN("a\n", "a\n", "sed", "s/a/X/99999999999999999999999");
	IS_RUN("a\n", "X\n", "sed", "s\\a\\X\\");
}

TEST(addresses)
{
	IS_RUN(five, "2\n3\n4\n", "sed", "-n", "2,4p");
	IS_RUN(five, "3\n4\n5\n", "sed", "-n", "/3/,$p");
	IS_RUN(five, "4\n", "sed", "-n", "4,2p");
	IS_RUN(five, "2\n3\n", "sed", "-n", "/2/,/[0-9]/p");
	IS_RUN(five, "1\n3\n4\n5\n", "sed", "-n", "2!p");
	IS_RUN(five, "1\n3\n4\n5\n", "sed", "-n", "2 ! p");
	IS_RUN(five, "2\n3\n", "sed", "-n", "2 , 3 p");
	IS_RUN(five, "1\n2\n", "sed", "-n", "0,/2/p");
	IS_RUN(five, "1\n", "sed", "-n", "0,/1/p");
	IS_RUN(five, five, "sed", "-n", "1,/1/p");
	IS_RUN(five, "1\n", "sed", "-n", "1,0p");
	IS_RUN(five, "5\n", "sed", "-n", "$,1p");
	IS_RUN(five, "1\n2\n3\n4\n", "sed", "-n", "$!p");
	IS_RUN(five, "2\n", "sed", "-n", "\\%2%p");
	IS_RUN(five, "2\n", "sed", "-n", "\\n2np");
	IS_RUN("a/b\nc\n", "a/b\n", "sed", "-n", "/a\\/b/p");
	IS_RUN("a/b\nc\n", "a/b\n", "sed", "-n", "/[/]/p");
	IS_RUN("A\nb\n", "A\n", "sed", "-n", "/a/Ip");
	IS_RUN("A\nb\nc\n", "A\nb\n", "sed", "-n", "/a/I,/B/Ip");
	IS_RUN("x\ny\nx\ny\n", "x\ny\nx\ny\n", "sed", "-n", "/x/,/y/p");
	IS_RUN("a1\nb\nc2\n", "a1\nc2\n", "sed", "-nE", "/[0-9]+$/p");
	/* an address sees the pattern space as the commands before left it */
	IS_RUN("a\nb\n", "x\n", "sed", "-n", "s/a/x/;/x/p");
	IS_RUN("mnt\n/mntS x - y\n", "/mntS x\n", "sed", "-n", "/mntS/s/ - .*//p");
}

/* A last line without '\n' goes out without one, however often it is
 * printed; what comes after it starts with the missing '\n'. */
TEST(last_line)
{
	IS_RUN("a\nb", "a\nb", "sed", "s/x/y/");
	IS_RUN("a", "a\na", "sed", "p");
	IS_RUN("a\nb", "b", "sed", "-n", "$p");
	IS_RUN("a\nb", "a\n", "sed", "$d");
	IS_RUN("a\nb", "a\nc", "sed", "s/b/c/");
	IS_RUN("", "", "sed", "p");
	IS_RUN(NULL, "", "sed", "-n", "p");
}

TEST(errors)
{
	IS_ERR("sed: option requires an argument -- 'e'", 1, "sed", "-e");
	IS_FILE(3, "sed", "-e", "p", "p");
	IS_ERR("sed: unterminated s command", 2, "sed", "-e", "s/1/", "-e", "a/");
	IS_ERR("sed: unknown command 'k'", 4, "sed", "-e", "p", "-e", "k");
	IS_ERR("sed: unknown command ','", 2, "sed", "-n", ",2p");
	IS_ERR("sed: missing command", 2, "sed", "-n", "2");
	IS_ERR("sed: unknown command ';'", 1, "sed", "2;p");
	IS_ERR("sed: missing command", 1, "sed", "2\np");
	IS_ERR("sed: missing command", 1, "sed", "/x/!");
	IS_ERR("sed: extra characters after command", 2, "sed", "-n", "2pp");
	IS_ERR("sed: extra characters after command", 2, "sed", "-n", "2p x");
	IS_ERR("sed: extra characters after command", 1, "sed", "d d");
	IS_ERR("sed: invalid usage of line address 0", 2, "sed", "-n", "0p");
	IS_ERR("sed: invalid usage of line address 0", 2, "sed", "-n", "0,5p");
	IS_ERR("sed: addresses FIRST~STEP are not supported", 2, "sed", "-n", "1~2p");
	IS_ERR("sed: addresses ADDR,+N are not supported", 2, "sed", "-n", "/x/,+2p");
	IS_ERR("sed: addresses ADDR,~N are not supported", 2, "sed", "-n", "2,~4p");
	IS_ERR("sed: unexpected ','", 2, "sed", "-n", "/2/,p");
	IS_ERR("sed: multiple '!'s", 2, "sed", "-n", "2!!p");
	IS_ERR("sed: unterminated address regex", 2, "sed", "-n", "/x");
	IS_ERR("sed: unterminated address regex", 1, "sed", "/x\n/p");
	IS_ERR("sed: unterminated address regex", 1, "sed", "\\");
	IS_ERR("sed: the address flag 'M' is not supported", 2, "sed", "-n", "/2/Mp");
	IS_ERR("sed: command only uses one address", 1, "sed", "1,2q");
	IS_ERR("sed: command only uses one address", 1, "sed", "1,2!Q");
	IS_ERR("sed: an exit code after q is not supported", 1, "sed", "2q5");
	IS_ERR("sed: an exit code after Q is not supported", 1, "sed", "2Q 5");
	IS_ERR("sed: unexpected '}'", 1, "sed", "}");
	IS_ERR("sed: unexpected '}'", 1, "sed", "s/a/b/}");
	IS_ERR("sed: the command '{' is not supported", 1, "sed", "2{p}");
	IS_ERR("sed: the command '=' is not supported", 2, "sed", "-n", "$=");
	IS_ERR("sed: the command 'a' is not supported", 1, "sed", "a text");
	IS_ERR("sed: the command 'N' is not supported", 1, "sed", "N;P;D");
	IS_ERR("sed: the command 'w' is not supported", 1, "sed", "w out");
	IS_ERR("sed: no previous regular expression", 1, "sed", "//p");
	IS_ERR("sed: no previous regular expression", 1, "sed", "s//x/;/a/p");
	IS_ERR("sed: an empty regular expression (the last one used) is not supported",
	       1, "sed", "/a/s//x/");
	IS_ERR("sed: an empty regular expression (the last one used) is not supported",
	       4, "sed", "-e", "s/a/b/", "-e", "//d");
	IS_ERR("sed: invalid regular expression 'a\\(': Unmatched ( or \\(", 1,
	       "sed", "/a\\(/p");
	IS_ERR("sed: invalid regular expression 'a)': Unmatched ) or \\)", 2,
	       "sed", "-E", "/a)/d");
	IS_ERR("sed: multiple 'p' flags to s", 1, "sed", "s/b/X/pp");
	IS_ERR("sed: multiple number flags to s", 1, "sed", "s/b/X/1 2");
	IS_ERR("sed: multiple number flags to s", 1, "sed", "s/b/X/2g3");
	IS_ERR("sed: number flag to s may not be zero", 1, "sed", "s/b/X/0");
	IS_ERR("sed: number flag to s may not be zero", 1, "sed", "s/b/X/g00");
	IS_ERR("sed: unknown option -s", 1, "sed", "-s", "p");
	IS_ERR("sed: unknown option -i", 1, "sed", "-i", "p");
	IS_ERR("sed: long options are not supported: write -n for --quiet", 1,
	       "sed", "--quiet", "p");
}

/* Up to 64 scripts are kept; a 65th -e is refused, naming it. */
TEST(script_limit)
{
	char sed[] = "sed", opt[] = "-e", cmd[] = "p";
	char *argv[1 + 2 * 65];
	struct ns_parse_err e = { NULL, 0 };
	struct ns_filter *f;

	argv[0] = sed;
	for (size_t i = 0; i < 65; i++) {
		argv[1 + 2 * i] = opt;
		argv[2 + 2 * i] = cmd;
	}
	f = ns_filter_compile(1 + 2 * 64, argv, &e);
	ok(f != NULL, "64 -e scripts compile");
	ns_filter_free(f);
	f = ns_filter_compile(1 + 2 * 65, argv, &e);
	is_str(f ? "(compiled)" : e.msg, "sed: too many -e scripts", "a 65th is refused");
	ok(!f && e.word == 130, "  ... about its word (got %zu)", e.word);
	ns_filter_free(f);
	free(e.msg);
}

TEST(against_real_tools)
{
	static const char in[] =
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
		"83 61 8:15 / /mntP rw,relatime - ext4 /dev/sdb2 rw\n"
		"baaac aXa a.c\n\n  lead  trail  \nMNT mnt\nx\ny\nlast";
	static const char *const scripts[][4] = {
		{ "-n", "2p" }, { "-n", "$p" }, { "2,4d" }, { "-n", "/mnt/,$p" },
		{ "-n", "/MNT/,/x/p" }, { "4,2!d" }, { "-n", "s/rw/RW/2p" },
		{ "s/a*/<&>/2g" }, { "s/A/z/Ig;s/^$/(empty)/" }, { "-e", "1d", "-e", "$d" },
		{ "-n", "0,/mnt/p" }, { "-n", "3,/./p" }, { "5q" }, { "5Q" },
		{ "-n", "/x/q;p" }, { "p;p" }, { "-n", "$!p" }, { "/^$/d;s/ - .*//" },
		{ "-E", "-n", "/[0-9]+:[0-9]+/s/^([0-9]+) .*(\\/mnt.) .*/\\1 \\2/p" },
		{ "-n", "\\,/mnt,p" }, { "#n\n/x/,$p" }, { "$s/t$/T/" },
	};

	if (!have_gnu("sed")) {
		ok(1, "# SKIP GNU sed is not installed");
		return;
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(scripts); i++)
		differ(in, WORDS("sed", scripts[i][0], scripts[i][1], scripts[i][2],
				 scripts[i][3]));
}
