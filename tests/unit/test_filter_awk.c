/* test_filter_awk.c - awk patterns (/RE/, $N == "S", $N != "S", $N ~ /RE/,
 * $N !~ /RE/, NR == N),
 * patterns alone, several rules, the print items NF and NR, every
 * refused form with its exact message and word, and the same programs
 * through the real awk (mawk 1.3.4 on Debian 12, whose outputs the
 * expected ones are). (test_filter.c has the print items' own cases.) */
#include "test_filter.h"

static const char in[] = "a b c\nx /y z\n\nq r\n  lead  trail  \n";

TEST(patterns)
{
	IS_RUN(in, "a b c\n", "awk", "/b/");
	IS_RUN(in, "b\n", "awk", "/b/ {print $2}");
	IS_RUN(in, "b\n", "awk", "/b/{print $2}");
	IS_RUN(in, "z 3\n", "awk", "$1 == \"x\" {print $3, NF}");
	IS_RUN(in, "x /y z\n", "awk", "$1==\"x\"{print}");
	IS_RUN(in, "a b c\n\nq r\n  lead  trail  \n", "awk", "$1 != \"x\"");
	IS_RUN(in, "x /y z\n", "awk", "NR==2");
	IS_RUN(in, "2 x /y z\n", "awk", "NR == 2 {print NR, $0}");
	IS_RUN(in, "x /y z\n", "awk", "NR==02");
	IS_RUN(in, "", "awk", "NR==0");
	IS_RUN(in, "x /y z\n", "awk", "/[/]/");
	IS_RUN(in, "x /y z\n", "awk", "/\\//");
	IS_RUN(in, "\n", "awk", "$2==\"\"");
	IS_RUN(in, "\nq r\n  lead  trail  \n", "awk", "$3 == \"\"");
	IS_RUN(in, "a b c\nx /y z\n\nq r\n  lead  trail  \n", "awk", "$9 == \"\"");
	IS_RUN(in, "x /y z\n", "awk", "$NF == \"z\"");
	IS_RUN(in, "\n", "awk", "$NF == \"\"");
	IS_RUN(in, "q r\n", "awk", "$0 == \"q r\"");
	IS_RUN(in, "\n", "awk", "/^$/");
	IS_RUN(in, "<a>\n<q>\n<lead>\n", "awk", "/a|q/{print \"<\" $1 \">\"}");
	IS_RUN(in, "trail 2\n", "awk", "/l.ad/{print $NF, NF}");
	IS_RUN("a\tb\n", "a\tb\n", "awk", "/[\\t]/");
	IS_RUN("a\tb\n", "a\tb\n", "awk", "/a\\tb/");
	IS_RUN("a\"b\n", "a\"b\n", "awk", "/a\\\"b/");
	/* mawk 1.3.4 reads braces literally */
	IS_RUN("aa\na{2}\n", "a{2}\n", "awk", "/a{2}/");
	IS_RUN("a}\n", "a}\n", "awk", "/a}/");
	IS_RUN("a.b\naxb\n", "a.b\n", "awk", "/a\\.b/");
	IS_RUN("AB\nab\n", "ab\n", "awk", "/a/");
}

/* $N ~ /RE/ and $N !~ /RE/ match one field, as mawk does; a string
 * stands for the regex it spells. */
TEST(field_matches)
{
	IS_RUN(in, "x /y z\n", "awk", "$2 ~ /^\\//");
	IS_RUN(in, "a b c\n\nq r\n  lead  trail  \n", "awk", "$2 !~ /^\\//");
	IS_RUN(in, "b\n", "awk", "$1 ~ /^[ab]$/ {print $2}");
	IS_RUN(in, "lead\n", "awk", "$NF~\"ai\"{print $1}");
	IS_RUN(in, "a b c\nx /y z\n", "awk", "$0 ~ /[bz]/");
	IS_RUN(in, "a b c\nx /y z\nq r\n  lead  trail  \n", "awk", "$1 !~ /^$/");
	IS_RUN(in, "\n", "awk", "$1 ~ /^$/");
	IS_RUN(in, "x\n\n", "awk", "$1 ~ /x/ {print $1} $1 !~ /./ {print $9}");
}

TEST(rules)
{
	IS_RUN(in, "a\n/y\nlead\n", "awk", "/a/ {print $1} /x/ {print $2}");
	IS_RUN(in, "a b c\nx /y z\n  lead  trail  \n", "awk", "/a/;/x/");
	IS_RUN(in, "a b c\nx\n\nq\nlead\n", "awk", "$2 != \"b\" {print $1}\nNR == 1");
	IS_RUN(in, "a b c\nr\n", "awk", "$1==\"a\"{print}$1==\"q\"{print $2}");
	IS_RUN(in, "a b c\na b c\n", "awk", "NR==1\nNR==1 {print}");
	IS_RUN(in, "", "awk", "");
	IS_RUN(in, "", "awk", " ;\n ");
	IS_RUN(in, "a\nx\n\nq\nlead\n", "awk", "{ print $1 ; }");
	IS_RUN(in, "a\nx\n\nq\nlead\n", "awk", "{\n\tprint $1\n}");
}

TEST(items)
{
	IS_RUN(in, "3\n3\n0\n2\n2\n", "awk", "{print NF}");
	IS_RUN(in, "a3\nx3\n0\nq2\nlead2\n", "awk", "{print $1 NF}");
	IS_RUN(in, "3a\n3x\n0\n2q\n2lead\n", "awk", "{print NF $1}");
	IS_RUN(in, "1:a b c\n2:x /y z\n3:\n4:q r\n5:  lead  trail  \n",
	       "awk", "{print NR \":\" $0}");
	IS_RUN(in, "1 3\n2 3\n3 0\n4 2\n5 2\n", "awk", "{print NR, NF}");
}

TEST(errors)
{
	IS_ERR("awk: unsupported pattern at 'length > 3'", 1, "awk", "length > 3");
	IS_ERR("awk: unsupported pattern at 'BEGIN {print \"x\"}'", 1, "awk",
	       "BEGIN {print \"x\"}");
	IS_ERR("awk: unsupported pattern at '!/x/'", 1, "awk", "!/x/");
	IS_ERR("awk: unsupported pattern at '$1 ~ x'", 1, "awk", "$1 ~ x");
	IS_ERR("awk: unsupported pattern at '$1 !~ 5 {print}'", 1, "awk", "$1 !~ 5 {print}");
	IS_ERR("awk: unterminated regular expression", 1, "awk", "$1 ~ /x");
	IS_ERR("awk: unsupported pattern at '$1 == 5 {print}'", 1, "awk", "$1 == 5 {print}");
	IS_ERR("awk: unsupported pattern at '$1 == $2'", 1, "awk", "$1 == $2");
	IS_ERR("awk: unsupported pattern at '$x == \"a\"'", 1, "awk", "$x == \"a\"");
	IS_ERR("awk: unsupported pattern at 'NR > 1'", 1, "awk", "NR > 1");
	IS_ERR("awk: unsupported pattern at 'NR == 1.5'", 1, "awk", "NR == 1.5");
	IS_ERR("awk: unsupported pattern at 'NR == x'", 1, "awk", "NR == x");
	IS_ERR("awk: unsupported pattern at ', NR==3'", 1, "awk", "NR==1, NR==3");
	IS_ERR("awk: unsupported pattern at '&& /y/'", 1, "awk", "/x/ && /y/");
	IS_ERR("awk: unsupported pattern at '/y/'", 1, "awk", "/x/ /y/");
	IS_ERR("awk: unsupported pattern at 'END{print NR}'", 1, "awk",
	       "/x/ {print} END{print NR}");
	IS_ERR("awk: unsupported pattern at 'a very long pattern that...'", 1, "awk",
	       "a very long pattern that goes on and on");
	IS_ERR("awk: unsupported statement at '}'", 1, "awk", "/x/ {}");
	IS_ERR("awk: unsupported statement at 'if ($1) print}'", 1, "awk", "{if ($1) print}");
	IS_ERR("awk: unsupported statement at 'n++}'", 1, "awk", "{n++}");
	IS_ERR("awk: unsupported statement at 'print $2}'", 1, "awk", "{print $1; print $2}");
	IS_ERR("awk: unsupported print item at '> \"f\"}'", 1, "awk", "{print $1 > \"f\"}");
	IS_ERR("awk: unsupported print item at '$(NF-1)}'", 1, "awk", "{print $(NF-1)}");
	IS_ERR("awk: unsupported print item at 'length}'", 1, "awk", "{print length}");
	IS_ERR("awk: unsupported print item at '($1)}'", 1, "awk", "{print($1)}");
	IS_ERR("awk: missing '}' at the end of the program", 1, "awk", "/x/ {print");
	IS_ERR("awk: unterminated regular expression", 1, "awk", "/abc");
	IS_ERR("awk: unterminated regular expression", 1, "awk", "/a\nb/");
	IS_ERR("awk: unterminated string", 1, "awk", "$1 == \"abc");
	IS_ERR("awk: invalid regular expression '(a': Unmatched ( or \\(", 1, "awk", "/(a/");
	IS_ERR("awk: field number too large", 1, "awk", "$99999999999 == \"x\"");
	IS_ERR("awk: record number too large", 1, "awk", "NR == 99999999999999999999999");
	IS_ERR("awk: unknown option -v", 1, "awk", "-v", "x=1", "{print}");
}

/* Lines pass as they were when every rule prints the whole line. */
TEST(keeps_lines)
{
	static const char *const yes[] = { "/x/", "{print}", "NR==1 {print $0}; $1 != \"a\"" };
	static const char *const no[] = { "{print $1}", "/x/; {print NF}", "" };

	for (size_t i = 0; i < NS_ARRAY_SIZE(yes); i++) {
		struct ns_parse_err e = { NULL, 0 };
		struct ns_filter *f = compile(WORDS("awk", yes[i]), &e);
		struct ns_filter *g = compile(WORDS("awk", no[i]), &e);

		ok(f && ns_filter_keeps_lines(f), "awk '%s' passes lines as they were", yes[i]);
		ok(g && !ns_filter_keeps_lines(g), "awk '%s' makes lines of its own", no[i]);
		ns_filter_free(f);
		ns_filter_free(g);
	}
}

TEST(against_real_tools)
{
	static const char text[] =
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
		"83 61 8:15 / /mntP rw,relatime - ext4 /dev/sdb2 rw\n"
		"/dev/sdb6 on /mntX type ext4 (rw,relatime)\n"
		"\n  lead  trail  \na\tb{c}\nlast";
	static const char *const progs[] = {
		"/mnt/", "/shared:[0-9]+/ {print $5, $7}", "$5 == \"/mntP\" {print $1, $2}",
		"$5 != \"/mntP\"", "NR==3", "NR == 1 {print NR, NF, $NF}", "/^$/",
		"{print NF \":\" NR}", "/b{c}/", "/[[:space:]]trail/ {print \"[\" $0 \"]\"}",
		"$3 == \"type\" {print $1, $3}\n/lead/", "/\\/dev\\/sdb[0-9]/{print $1}",
		"$NF == \"rw\"", "{print $0}", "NR==2;NR==4",
		"$7 ~ /^shared:/ {print $5}", "$5 !~ /mntS/", "$1 ~ \"^[0-9]+$\" {print $1}",
		"$2 !~ /on/ {print NF}", "$0 ~ /b\\{c/",
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(progs); i++)
		differ(text, WORDS("awk", progs[i]));
}
