/* test_filter.c - the pipeline filters: the article's pipelines, each
 * option, GNU sed's corner cases, every parse error with its exact
 * message and word, and (when the real tools are installed) the same
 * cases run through GNU grep, GNU sed and awk for comparison. */
#include "commands/ls_layout.h"
#include "run/pipeline.h"
#include "test_filter.h"

#include <errno.h>

static const char article_mountinfo[] =
	"61 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
	"83 61 8:15 / /mntP rw,relatime - ext4 /dev/sdb2 rw\n"
	"108 83 8:2 / /home/cecilia rw,relatime unbindable - ext4 /dev/sda1 rw\n";

static const char article_mount[] =
	"/dev/sda1 on / type ext4 (rw,relatime)\n"
	"/dev/sdb6 on /mntX type ext4 (rw,relatime)\n"
	"/dev/sda1 on /home/cecilia type ext4 (rw,relatime)\n"
	"/dev/sdb6 on /home/cecilia/mntX type ext4 (rw,relatime)\n";

/* The article's pipelines, stage by stage. */
TEST(article)
{
	char *mnt = run(article_mountinfo, WORDS("grep", "/mnt"));
	char *cut = mnt ? run(mnt, WORDS("sed", "s/ - .*//")) : NULL;
	char *home = run(article_mountinfo, WORDS("grep", "/home/cecilia"));
	char *home_cut = home ? run(home, WORDS("sed", "s/ - .*//")) : NULL;
	char *fields = run(article_mount, WORDS("awk", "{print $1, $2, $3}"));
	char *count = fields ? run(fields, WORDS("wc", "-l")) : NULL;
	struct ns_buf sixteen = NS_BUF_INIT;
	char *sixteen_count;

	is_str(cut, "77 61 8:17 / /mntS rw,relatime shared:1\n"
		    "83 61 8:15 / /mntP rw,relatime\n",
	       "cat mountinfo | grep '/mnt' | sed 's/ - .*//'");
	is_str(home_cut, "108 83 8:2 / /home/cecilia rw,relatime unbindable\n",
	       "grep /home/cecilia | sed 's/ - .*//'");
	is_str(fields, "/dev/sda1 on /\n/dev/sdb6 on /mntX\n"
		       "/dev/sda1 on /home/cecilia\n/dev/sdb6 on /home/cecilia/mntX\n",
	       "mount | awk '{print $1, $2, $3}'");
	is_str(count, "4\n", "... | wc -l");
	for (int i = 0; i < 16; i++)
		ns_buf_addf(&sixteen, "/dev/sda1 on /home/x%d\n", i);
	sixteen_count = run(ns_buf_str(&sixteen), WORDS("wc", "-l"));
	is_str(sixteen_count, "16\n", "wc -l of the explosion prints 16");
	free(mnt);
	free(cut);
	free(home);
	free(home_cut);
	free(fields);
	free(count);
	free(sixteen_count);
	ns_buf_free(&sixteen);
}

TEST(grep)
{
	static const char in[] = "/mntS a\nx /mnt\nMNT\na+b\naab\na.c\nabc\n";

	IS_RUN(in, "/mntS a\nx /mnt\n", "grep", "/mnt");
	IS_RUN(in, "/mntS a\n", "grep", "^/mnt");
	IS_RUN(in, "x /mnt\n", "grep", "/mnt$");
	IS_RUN(in, "MNT\na+b\naab\na.c\nabc\n", "grep", "-v", "/mnt");
	IS_RUN(in, "2\n", "grep", "-c", "/mnt");
	IS_RUN(in, "0\n", "grep", "-c", "nowhere");
	IS_RUN(in, "5\n", "grep", "-vc", "/mnt");
	IS_RUN(in, "", "grep", "nowhere");
	IS_RUN(in, "/mntS a\nx /mnt\nMNT\n", "grep", "-i", "mnt");
	IS_RUN(in, "a+b\n", "grep", "a+b");
	IS_RUN(in, "aab\nabc\n", "grep", "-E", "^a+b");
	IS_RUN(in, "aab\nabc\n", "grep", "^a\\+b");
	IS_RUN(in, "aab\n", "grep", "^a\\{2\\}b");
	IS_RUN(in, "a.c\nabc\n", "grep", "a.c");
	IS_RUN(in, "a.c\n", "grep", "-F", "a.c");
	IS_RUN(in, "a+b\n", "grep", "-F", "a+b");
	IS_RUN("A.C\na.c\n", "A.C\na.c\n", "grep", "-Fi", "a.c");
	IS_RUN(in, "/mntS a\nx /mnt\naab\n", "grep", "/mnt\naab");
	IS_RUN(in, "MNT\n", "grep", "--", "MNT");
	IS_RUN("-v\nv\n", "-v\n", "grep", "--", "-v");
	IS_RUN(in, "x /mnt\nMNT\n", "grep", "mnt$", "-i");
	IS_RUN("a\n\nb", "a\n\nb\n", "grep", "");
	IS_RUN("no newline at end", "no newline at end\n", "grep", "end");
	IS_RUN("x\n", "x\n", "grep", "-E", "x|y");
	IS_RUN("x|y\n", "x|y\n", "grep", "x|y");
	IS_RUN("word here\n", "word here\n", "grep", "\\<here\\>");
	IS_RUN("a{b\nxyz\n", "a{b\n", "grep", "\\{");
	IS_RUN("aa\nb\n", "aa\nb\n", "grep", "a**");
	IS_RUN("a)\nb\n", "a)\n", "grep", "-E", "a)");
	IS_RUN("therefore\n", "", "grep", "\\<here\\>");
}

/* -e, -w and -x, and how GNU grep 3.8 combines them with the others
 * (each case as the real grep printed it on Debian 12). */
TEST(grep_options)
{
	static const char in[] = "a\n-v\nb\nab\n";
	static const char words[] = "foobar foo\nfoobar\nfoo_x\nx.foo.y\nFOO\n";

	IS_RUN(in, "-v\n", "grep", "-e", "-v");
	IS_RUN(in, "-v\n", "grep", "-e-v");
	IS_RUN(in, "a\nb\nab\n", "grep", "-e", "a", "-e", "b");
	IS_RUN(in, "-v\n", "grep", "-ve", "a", "-e", "b");
	IS_RUN(in, "1\n", "grep", "-vce", "a", "-e", "b");
	IS_RUN(in, "a\nab\n", "grep", "-ea");
	IS_RUN(in, "a\nb\nab\n", "grep", "-e", "a\nb");
	IS_RUN(in, "a\n-v\nb\nab\n", "grep", "-e", "");
	IS_RUN(in, "-v\n", "grep", "--", "-v");
	IS_RUN(in, "2\n", "grep", "-cv", "a");
	IS_RUN(in, "2\n", "grep", "-c", "-v", "-e", "a");
	IS_RUN(words, "foobar foo\nx.foo.y\n", "grep", "-w", "foo");
	IS_RUN(words, "foobar foo\nx.foo.y\n", "grep", "-wF", "foo");
	IS_RUN(words, "foobar foo\nx.foo.y\nFOO\n", "grep", "-wi", "foo");
	IS_RUN(words, "foobar\nfoo_x\nFOO\n", "grep", "-vw", "foo");
	IS_RUN(words, "2\n", "grep", "-cw", "foo");
	IS_RUN("ab_ a\n", "ab_ a\n", "grep", "-w", "a.*");
	IS_RUN("abc abd\n", "abc abd\n", "grep", "-w", "ab.");
	IS_RUN("xab_ ab\n", "xab_ ab\n", "grep", "-w", "ab");
	IS_RUN("ab_c\n", "", "grep", "-w", "ab");
	IS_RUN("a b\n\nab\n-a-\n", "\n-a-\n", "grep", "-w", "");
	IS_RUN("a.c x\nabc x\n", "a.c x\n", "grep", "-wF", "a.c");
	IS_RUN("a\nab\n", "a\n", "grep", "-x", "a");
	IS_RUN("a\nab\n", "a\n", "grep", "-x", "-w", "a");
	IS_RUN("a.c\nabc\n", "a.c\n", "grep", "-xF", "a.c");
	IS_RUN("aa\na\nab\n", "aa\na\n", "grep", "-xE", "a|aa");
	IS_RUN("aa\na\nb\n", "b\n", "grep", "-vx", "-e", "a", "-e", "aa");
}

TEST(sed)
{
	IS_RUN("a-b-c\n", "a_b-c\n", "sed", "s/-/_/");
	IS_RUN("a-b-c\n", "a_b_c\n", "sed", "s/-/_/g");
	IS_RUN("/a/b\n", "_a_b\n", "sed", "s/\\//_/g");
	IS_RUN("/a/b\n", "X/b\n", "sed", "s|/a|X|");
	IS_RUN("a|b\n", "X\n", "sed", "s|a\\|b|X|");
	IS_RUN("a.b axb\n", "X X\n", "sed", "s.a\\.b.X.g");
	IS_RUN("ana\n", "xna\n", "sed", "snanxn");
	IS_RUN("a1\n", "1\n", "sed", "s1a11");
	IS_RUN("a\n", "b\n", "sed", "s\\a\\b\\");
	IS_RUN("a&b\n", "aXb\n", "sed", "s&\\&&X&");
	IS_RUN("abc\n", "a[b]c\n", "sed", "s/b/[&]/");
	IS_RUN("abc\n", "a&c\n", "sed", "s/b/\\&/");
	IS_RUN("abc\n", "abbc\n", "sed", "s/b/\\0\\0/");
	IS_RUN("key=val\n", "val=key\n", "sed", "s/\\(.*\\)=\\(.*\\)/\\2=\\1/");
	IS_RUN("key=val\n", "val=key\n", "sed", "-E", "s/(.*)=(.*)/\\2=\\1/");
	IS_RUN("key=val\n", "val=key\n", "sed", "-r", "s/(.*)=(.*)/\\2=\\1/");
	IS_RUN("abc\n", "a[b]\n", "sed", "-E", "s/(b)?c/[\\1]/");
	IS_RUN("a)b\n", "aXb\n", "sed", "-E", "s/[)]/X/");
	IS_RUN("a)b\n", "aXb\n", "sed", "-E", "s/\\)/X/");
	IS_RUN("a)b\n", "aXb\n", "sed", "s/)/X/");
	IS_RUN("ac\n", "a[]\n", "sed", "-E", "s/(b)?c/[\\1]/");
	IS_RUN("abc\n", "a\nc\n", "sed", "s/b/\\n/");
	IS_RUN("abc\n", "a\tc\n", "sed", "s/b/\\t/");
	IS_RUN("a\tb\n", "aTb\n", "sed", "s/\\t/T/");
	IS_RUN("abc\n", "aqc\n", "sed", "s/b/\\q/");
	IS_RUN("a\\b\n", "a/b\n", "sed", "s/\\\\/\\//");
	IS_RUN("baaac\n", "xbxcx\n", "sed", "s/a*/x/g");
	IS_RUN("baaa\n", "xbx\n", "sed", "s/a*/x/g");
	IS_RUN("abc\n", "-a-b-c-\n", "sed", "s/x*/-/g");
	IS_RUN("abc\n", "abcE\n", "sed", "s/x*$/E/g");
	IS_RUN("aaa\n", "Xaa\n", "sed", "s/^a/X/g");
	IS_RUN("hello world\n", "hell[o] [w][o]rld\n", "sed", "-E", "s/(o)|(w)/[\\1\\2]/g");
	IS_RUN("one two\n", "[one] [two]\n", "sed", "s/\\w\\+/[&]/g");
	IS_RUN("abc\n", "abc\n", "sed", "s/x/y/");
	IS_RUN("abc\n", "aBc\n", "sed", "  s/b/B/g ; ");
	IS_RUN("abcb\n", "aBcB\n", "sed", "s/b/B/ g # comment");
	IS_RUN("a/b\n", "axb\n", "sed", "s/[/]/x/");
	IS_RUN("a]b\n", "aXb\n", "sed", "s/[]]/X/");
	IS_RUN("a:b/c\n", "aXbXc\n", "sed", "s/[[:punct:]/]/X/g");
	IS_RUN("a\\nb\n", "a\\nb\n", "sed", "s/[\\n]/X/g");
	IS_RUN("anb\n", "aXb\n", "sed", "sn\\nnXn");
	IS_RUN("x\n\ny", "X\n\ny", "sed", "s/x/X/"); /* as GNU sed: no '\n' added */
	IS_RUN("", "", "sed", "s/x/X/");
	IS_RUN("77 61 8:17 / /mntS rw shared:1 - ext4 /dev/sdb1 rw\n",
	       "77 61 8:17 / /mntS rw shared:1\n", "sed", "s/ - .*//");
}

TEST(awk)
{
	static const char in[] = "  a   b\tc  \n\nsingle\n";

	IS_RUN(in, "a b c\n  \nsingle  \n", "awk", "{print $1, $2, $3}");
	IS_RUN(in, "abc\n\nsingle\n", "awk", "{print $1 $2 $3}");
	IS_RUN(in, "abc\n\nsingle\n", "awk", "{print $1$2$3}");
	IS_RUN(in, "c\n\nsingle\n", "awk", "{print $NF}");
	IS_RUN(in, "  a   b\tc  \n\nsingle\n", "awk", "{print}");
	IS_RUN(in, "  a   b\tc  \n\nsingle\n", "awk", "{ print; }");
	IS_RUN(in, "  a   b\tc  \n\nsingle\n", "awk", "{print $0}");
	IS_RUN(in, "[a] c\n[] \n[single] single\n", "awk", "{print \"[\" $1 \"]\", $NF}");
	IS_RUN(in, "a\"\\\t|\n\"\\\t|\nsingle\"\\\t|\n", "awk", "{print $1 \"\\\"\\\\\\t|\"}");
	IS_RUN("1 2 3 4 5 6 7 8 9 10 11\n", "11 1\n", "awk", "{print $11, $01}");
	IS_RUN("a b\n", "b\n", "awk", "{print $ 2}");
	IS_RUN("a b\n", "\n", "awk", "{print $3}");
	IS_RUN("a b", "a\n", "awk", "{print $1}");
	IS_RUN("/dev/sdb6 on /mntX type ext4 (rw)\n", "/dev/sdb6 on /mntX\n",
	       "awk", "{print $1, $2, $3}");
}

TEST(wc)
{
	static const char in[] = "a b\nc  d e\n\n";

	IS_RUN(in, "3\n", "wc", "-l");
	IS_RUN(in, "5\n", "wc", "-w");
	IS_RUN(in, "12\n", "wc", "-c");
	IS_RUN(in, "      3       5\n", "wc", "-lw");
	IS_RUN(in, "      3       5      12\n", "wc");
	IS_RUN(in, "      3      12\n", "wc", "-c", "-l");
	IS_RUN("", "0\n", "wc", "-l");
	IS_RUN(NULL, "0\n", "wc", "-l");
	IS_RUN("no newline", "0\n", "wc", "-l");
	/* a FILE is named after the counts; several are padded to the
	 * digits of its size, which the files of /proc give as 0 (GNU wc
	 * 9.1: "  24   31 1221 /etc/passwd", "20 120 1207 /proc/self/mounts") */
	IS_RUN(in, "3 /proc/self/mountinfo\n", "wc", "-l", "/proc/self/mountinfo");
	IS_RUN(in, "3 5 12 /proc/mounts\n", "wc", "/proc/mounts");
	IS_RUN(in, " 3  5 12 /mnt/f\n", "wc", "/mnt/f");
	IS_RUN(in, "12 /mnt/f\n", "wc", "-c", "/mnt/f");
	IS_RUN("hello\n", "1 1 6 f\n", "wc", "f");
	IS_RUN(in, "      3       5      12\n", "wc", "-");
}

/* Long options are refused; one whose short form nstest takes is named
 * with it, and a close one gets "did you mean". */
TEST(long_options)
{
	IS_ERR("grep: long options are not supported: write -c for --count", 1,
	       "grep", "--count", "x");
	IS_ERR("grep: long options are not supported: write -e for --regexp=a", 1,
	       "grep", "--regexp=a");
	IS_ERR("grep: unknown option --cout (did you mean -c, that is --count?)", 2,
	       "grep", "x", "--cout");
	IS_ERR("grep: unknown option --inv (did you mean -v, that is --invert-match?)",
	       1, "grep", "--inv", "x");
	IS_ERR("sort: unknown option --numeric (did you mean -n, that is "
	       "--numeric-sort?)", 1, "sort", "--numeric");
	IS_ERR("sort: long options are not supported: write -k for --key=2", 1,
	       "sort", "--key=2");
	IS_ERR("cut: long options are not supported: write -d for --delimiter=:", 2,
	       "cut", "-f1", "--delimiter=:");
	IS_ERR("tail: long options are not supported: write -c for --bytes", 1,
	       "tail", "--bytes", "3");
	IS_ERR("wc: long options are not supported: write -l for --lines", 1,
	       "wc", "--lines");
	/* a long option of another filter is no hint here */
	IS_ERR("wc: unknown option --fields", 1, "wc", "--fields");
	IS_ERR("awk: unknown option --version", 1, "awk", "--version", "{print}");
	/* after "--" it is an operand */
	IS_FILE(3, "grep", "--", "x", "--count");
	IS_ERR("grep: one FILE operand is supported, not 'f' too", 4, "grep", "--", "x", "--count", "f");
}

TEST(errors)
{
	IS_ERR("grep: unknown option -z", 1, "grep", "-z", "x");
	IS_ERR("grep: unknown option -z", 1, "grep", "-vz", "x");
	IS_ERR("grep: unknown option --color", 2, "grep", "x", "--color");
	IS_ERR("grep: missing PATTERN", 0, "grep");
	IS_ERR("grep: missing PATTERN", 0, "grep", "-v");
	IS_FILE(2, "grep", "x", "file");
	IS_FILE(0, "grep", "x");
	IS_FILE(0, "grep", "x", "-");
	IS_ERR("grep: one FILE operand is supported, not 'g' too", 3, "grep", "x", "f", "g");
	IS_ERR("grep: conflicting matchers specified", 0, "grep", "-E", "-F", "x");
	IS_ERR("grep: invalid regular expression 'a[b': "
	       "Unmatched [, [^, [:, [., or [=", 1, "grep", "a[b");
	IS_ERR("grep: invalid regular expression '[': "
	       "Invalid regular expression", 1, "grep", "[");
	IS_ERR("grep: invalid regular expression '(a': Unmatched ( or \\(", 2,
	       "grep", "-E", "(a");
	IS_ERR("grep: invalid regular expression 'a\\)': Unmatched ) or \\)", 1,
	       "grep", "a\\)");
	IS_ERR("grep: invalid regular expression '\\(a': Unmatched ( or \\(", 1,
	       "grep", "\\(a");
	IS_ERR("grep: invalid regular expression 'a|*b': "
	       "Invalid preceding regular expression", 2, "grep", "-E", "a|*b");
	IS_ERR("grep: option requires an argument -- 'e'", 1, "grep", "-e");
	IS_ERR("grep: option requires an argument -- 'e'", 2, "grep", "-v", "-ve");
	IS_FILE(3, "grep", "-e", "a", "b");
	IS_ERR("grep: one FILE operand is supported, not 'c' too", 4, "grep", "-e", "a", "b", "c");
	IS_ERR("grep: conflicting matchers specified", 0, "grep", "-wF", "-E", "x");
	IS_ERR("grep: unknown option -f", 1, "grep", "-f", "x");
	IS_ERR("grep: invalid regular expression 'a[b': "
	       "Unmatched [, [^, [:, [., or [=", 4, "grep", "-e", "x", "-e", "a[b");
	IS_ERR("grep: invalid regular expression 'b[': "
	       "Invalid regular expression", 3, "grep", "-i", "--", "a\nb[\nc");

	IS_ERR("sed: missing script", 0, "sed");
	IS_ERR("sed: unknown option -z", 1, "sed", "-z", "s/a/b/");
	IS_FILE(2, "sed", "s/a/b/", "s/c/d/");
	IS_ERR("sed: one FILE operand is supported, not 'g' too", 3, "sed", "p", "f", "g");
	IS_ERR("sed: the command 'y' is not supported", 1, "sed", "y/a/b/");
	IS_ERR("sed: unterminated s command", 1, "sed", "s");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/a");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/a/b");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/a/b\\/");
	IS_ERR("sed: unsupported flag 'w' to s", 1, "sed", "s/a/b/w");
	IS_ERR("sed: unsupported flag 'e' to s", 1, "sed", "s/a/b/e");
	IS_ERR("sed: unsupported flag 'M' to s", 1, "sed", "s/a/b/ g M");
	IS_ERR("sed: unsupported flag 'x' to s", 1, "sed", "s/a/b/x");
	IS_ERR("sed: multiple 'g' flags to s", 1, "sed", "s/a/b/g g");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/[/x/");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/a\nb/x/");
	IS_ERR("sed: multiple 'g' flags to s", 1, "sed", "s/a/b/gg");
	IS_ERR("sed: no previous regular expression", 1, "sed", "s//b/");
	IS_ERR("sed: invalid reference \\1 on s command's RHS", 1, "sed", "s/a/\\1/");
	IS_ERR("sed: invalid reference \\2 on s command's RHS", 2,
	       "sed", "-E", "s/(a)/\\2/");
	IS_ERR("sed: unsupported escape \\U", 1, "sed", "s/a/\\U&/");
	IS_ERR("sed: unsupported escape \\x", 1, "sed", "s/\\x41/b/");
	IS_ERR("sed: invalid reference \\3 on s command's RHS", 2,
	       "sed", "-E", "s/(a)/\\3\\2/");
	IS_ERR("sed: unterminated s command", 1, "sed", "s/[[:alpha:]/x/");
	IS_ERR("sed: invalid regular expression '[[:foo:]]': "
	       "Invalid character class name", 1, "sed", "s/[[:foo:]]/x/");
	IS_ERR("sed: invalid regular expression 'a\\{1': Unmatched \\{", 1,
	       "sed", "s/a\\{1/x/");
	IS_ERR("sed: invalid regular expression 'a{1': Unmatched \\{", 2,
	       "sed", "-E", "s/a{1/x/");
	IS_ERR("sed: invalid regular expression 'a\\(': Unmatched ( or \\(", 1,
	       "sed", "s/a\\(/x/");
	IS_ERR("sed: invalid regular expression 'a/\\(': Unmatched ( or \\(", 1,
	       "sed", "s/a\\/\\(/x/");
	IS_ERR("sed: invalid regular expression 'a)': Unmatched ) or \\)", 2,
	       "sed", "-E", "s/a)/x/");
	IS_ERR("sed: invalid regular expression '(a))': Unmatched ) or \\)", 2,
	       "sed", "-E", "s/(a))/x/");

	IS_ERR("awk: missing program", 0, "awk");
	IS_ERR("awk: unknown option -F", 1, "awk", "-F:", "{print $1}");
	IS_FILE(2, "awk", "{print}", "file");
	IS_ERR("awk: one FILE operand is supported, not 'g' too", 3, "awk", "{print}", "f", "g");
	IS_ERR("awk: unsupported statement at 'printf $1}'", 1, "awk", "{printf $1}");
	IS_ERR("awk: unsupported pattern at 'print $1'", 1, "awk", "print $1");
	IS_ERR("awk: missing '}' at the end of the program", 1, "awk", "{print $1");
	IS_ERR("awk: unsupported pattern at 'x'", 1, "awk", "{print $1}x");
	IS_ERR("awk: unsupported print item at '$x}'", 1, "awk", "{print $x}");
	IS_ERR("awk: unsupported print item at '$NFX}'", 1, "awk", "{print $NFX}");
	IS_ERR("awk: unsupported print item at '}'", 1, "awk", "{print $1,}");
	IS_ERR("awk: unterminated string", 1, "awk", "{print \"abc}");
	IS_ERR("awk: unterminated string", 1, "awk", "{print \"abc\\");
	IS_ERR("awk: unsupported escape \\q in string", 1, "awk", "{print \"\\q\"}");
	IS_ERR("awk: field number too large", 1, "awk", "{print $99999999999999999999}");

	IS_ERR("wc: unknown option -m", 1, "wc", "-m");
	IS_FILE(2, "wc", "-l", "file");
	IS_ERR("wc: one FILE operand is supported, not 'g' too", 3, "wc", "-l", "f", "g");
	IS_ERR("cat: not a filter", 0, "cat");
}

/* A stand-in for a backend's executor: prints its text, or fails. */
static int fake_exec(void *term, const struct ns_stage *st, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const char *text = term;

	(void)st;
	if (!text)
		return ns_cmd_fail(res, "mount", EINVAL);
	ns_buf_adds(out, text);
	return 0;
}

/* The command-table entries: parse, then run as the stage after a
 * command through the shared pipeline, free. */
TEST(command_table)
{
	static const char *const names[] = { "grep", "sed", "awk", "wc", "head", "tail",
					     "sort", "cut" };
	char *argv[] = { (char[]){ "grep" }, (char[]){ "-c" }, (char[]){ "b" } };
	char *cmd_argv[] = { (char[]){ "mount" } };
	struct ns_stage stages[2] = { { .argv = cmd_argv, .argc = 1 },
				      { .argv = argv, .argc = 3 } };
	struct ns_step step = { .pipeline = { stages, 2 } };
	struct ns_parse_err e = { NULL, 0 };
	struct ns_step_out out;
	const struct ns_cmd_def *grep = &ns_cmd_filter[0];

	ok(ns_cmd_filter_count == NS_ARRAY_SIZE(names), "eight filters in the table");
	for (size_t i = 0; i < ns_cmd_filter_count && i < NS_ARRAY_SIZE(names); i++)
		ok(strcmp(ns_cmd_filter[i].name, names[i]) == 0 &&
		   ns_cmd_filter[i].filter && ns_cmd_filter[i].parse &&
		   ns_cmd_filter[i].id == NS_CMD_FILTER && ns_cmd_filter[i].free_args,
		   "entry %s is a complete filter", names[i]);
	stages[1].def = grep;
	ok(grep->parse(&stages[1], &e) == 0 && stages[1].args, "grep parse stores its args");
	ns_pipeline_run(&step, fake_exec, (char[]){ "a\nb\nab\n" }, &out);
	is_str(out.output, "2\n", "grep -c b counts two lines of the command's output");
	ok(out.err == 0, "... and the step succeeds");
	free(out.output);
	ns_pipeline_run(&step, fake_exec, (char[]){ "" }, &out);
	is_str(out.output, "0\n", "grep -c of no output");
	free(out.output);
	ns_pipeline_run(&step, fake_exec, NULL, &out);
	is_str(out.output, "mount: EINVAL (Invalid argument)\n",
	       "a failing command prints its error line, and no filter runs");
	ok(out.err == EINVAL && !strcmp(out.syscall, "mount"), "... and the step has its errno and call");
	free(out.output);
	ok(!ns_filter_keeps_lines(stages[1].args), "grep -c counts: its lines are not the input's");
	{
		char *sed_argv[] = { (char[]){ "sed" }, (char[]){ "s/a/b/" } };
		char *wc_argv[] = { (char[]){ "wc" }, (char[]){ "-l" } };
		struct ns_filter *sed = ns_filter_compile(2, sed_argv, &e);
		struct ns_filter *wc = ns_filter_compile(2, wc_argv, &e);

		ok(sed && wc && !ns_filter_keeps_lines(sed) && !ns_filter_keeps_lines(wc),
		   "sed and wc make lines of their own");
		ns_filter_free(sed);
		ns_filter_free(wc);
	}
	grep->free_args(stages[1].args);
	argv[1] = (char[]){ "-v" };
	ok(grep->parse(&stages[1], &e) == 0 && ns_filter_keeps_lines(stages[1].args),
	   "grep -v selects lines: they pass as they were");
	grep->free_args(stages[1].args);
	stages[1].args = NULL;
	argv[1] = (char[]){ "-q" };
	ok(grep->parse(&stages[1], &e) == -1 && !stages[1].args && e.word == 1,
	   "a bad option fails the parse on word 1");
	is_str(e.msg, "grep: unknown option -q", "... naming the option");
	free(e.msg);
}

TEST(against_real_tools)
{
	static const char in[] =
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
		"baaac aXa a.c \\back/slash\n\n  lead  trail  \nMNT mnt\n";

	if (!have_gnu("sed") || !have_gnu("grep")) {
		ok(1, "# SKIP GNU sed and grep are not installed");
		return;
	}
	differ(in, WORDS("sed", "s/ - .*//"));
	differ(in, WORDS("sed", "s/a*/x/g"));
	differ(in, WORDS("sed", "s/\\(a\\)\\(X\\)/\\2\\1/g"));
	differ(in, WORDS("sed", "-E", "s/(a|b)+/[\\1]/g"));
	differ(in, WORDS("sed", "s,/,|,g"));
	differ(in, WORDS("sed", "s/\\\\/\\\\\\\\/"));
	differ(in, WORDS("sed", "s/$/$/"));
	differ(in, WORDS("sed", "s/^/>/g"));
	differ(in, WORDS("sed", "s/\\b/|/g"));
	differ(in, WORDS("sed", "s/ */_/g"));
	differ(in, WORDS("sed", "s/[[:upper:]]\\+/\\n&\\t/g"));
	differ(in, WORDS("grep", "/mnt"));
	differ(in, WORDS("grep", "-vi", "mnt"));
	differ(in, WORDS("grep", "-c", "a"));
	differ(in, WORDS("grep", "-E", "a{2,}|X"));
	differ(in, WORDS("grep", "-F", "a.c"));
	differ(in, WORDS("grep", "^$"));
	differ(in, WORDS("grep", "-w", "a"));
	differ(in, WORDS("grep", "-w", "a.*"));
	differ(in, WORDS("grep", "-wc", "mnt"));
	differ(in, WORDS("grep", "-x", "MNT mnt"));
	differ(in, WORDS("grep", "-e", "rw", "-e", "back"));
	differ(in, WORDS("grep", "-vwF", "-e", "a.c", "-e", "rw"));
	differ(in, WORDS("grep", "-w", ""));
	differ(in, WORDS("awk", "{print $1, $2, $3}"));
	differ(in, WORDS("awk", "{print $NF \"<\" $1}"));
	differ(in, WORDS("awk", "{print}"));
	differ(in, WORDS("wc", "-l"));
	differ(in, WORDS("wc", "-w"));
	differ(in, WORDS("wc", "-c"));
	differ(in, WORDS("wc", "-lw"));
	differ(in, WORDS("wc"));
}

/* ls's layout (commands/ls_layout.h): GNU ls's on an 80-column terminal,
 * filled top to bottom, two blanks after every column but the last. The
 * cases marked GNU are what GNU ls 9.1 printed for the same names with
 * LC_ALL=C ls -C -w 80 -T 0 (no tabs). */
static void ls_case(const char *const *names, size_t n, bool one, const char *want,
		    const char *what)
{
	struct ns_lines l = NS_LINES_INIT;
	struct ns_buf out = NS_BUF_INIT;

	for (size_t i = 0; i < n; i++)
		ns_lines_push(&l, names[i]);
	ns_ls_render(&l, one, &out);
	is_str(ns_buf_str(&out), want, "ls: %s", what);
	ns_buf_free(&out);
	ns_lines_free(&l);
}

/* Where GNU ls's rule has edges: a line of exactly 80 does not fit; the
 * length is checked only once a column is wider than 3. */
static void test_ls_gnu_edges(void)
{
	static const char *const w80[] = {
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
	};
	static const char *const w78[] = {
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
	};
	const char *chars[28];
	char one[28][2];

	ls_case(w80, 2, false,
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2\n",
		"GNU: two names in a line of exactly 80 take two rows");
	ls_case(w78, 2, false,
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2\n",
		"GNU: in a line of 78, one row");
	for (int i = 0; i < 28; i++) {
		one[i][0] = i < 2 ? (char)('0' + i) : (char)('a' + i - 2);
		one[i][1] = '\0';
		chars[i] = one[i];
	}
	ls_case(chars + 1, 27, false,
		"1  a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t  u  v  w  x  y  z\n",
		"GNU: 27 names of one character in one row of 79 (no column grew past 3)");
	ls_case(chars, 28, false,
		"0  a  c  e  g  i  k  m  o  q  s  u  w  y\n"
		"1  b  d  f  h  j  l  n  p  r  t  v  x  z\n",
		"GNU: 28 names of one character: at most 27 columns, so 2 rows of 14");
}

TEST(ls_layout)
{
	static const char *const xy[] = { "x", "y" };
	static const char *const five[] = { "a", "b", "c", "d", "e" };
	static const char *const wide[] = {
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa3", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa4",
	};
	const char *ten[30];
	char names[30][11];
	struct ns_buf want = NS_BUF_INIT;

	ls_case(xy, 0, false, "", "no names, no lines");
	ls_case(xy, 2, false, "x  y\n", "the article's two names on one line");
	ls_case(xy, 2, true, "x\ny\n", "-1: one name a line");
	ls_case(five, 5, false, "a  b  c  d  e\n", "five short names in one row");
	/* 4 x 30 characters: 4 columns are 126 wide; 3 columns have 2 rows
	 * and fit (32 + 32 + 3 for the empty one), so 2 rows of 2 names */
	ls_case(wide, 4, false,
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1  aaaaaaaaaaaaaaaaaaaaaaaaaaaaa3\n"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa2  aaaaaaaaaaaaaaaaaaaaaaaaaaaaa4\n",
		"four wide names in two columns, filled down");
	/* 30 x 10 characters: 6 columns are 5*12+10 = 70 wide, 7 would be
	 * 82, so 6 columns of 5 rows */
	for (int i = 0; i < 30; i++) {
		snprintf(names[i], sizeof(names[i]), "name%06d", i);
		ten[i] = names[i];
	}
	for (int r = 0; r < 5; r++) {
		for (int c = 0; c < 6; c++)
			ns_buf_addf(&want, c < 5 ? "%s  " : "%s\n", names[c * 5 + r]);
	}
	ls_case(ten, 30, false, ns_buf_str(&want), "thirty names in six columns of five");
	ns_buf_free(&want);
	test_ls_gnu_edges();
}
