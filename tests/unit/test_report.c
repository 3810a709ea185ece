/* test_report.c - the report formats on output no scenario file can hold:
 * control characters and bytes that are not UTF-8, as a command may
 * print them, must still give well-formed XML and JSON. */
#include <string.h>

#include "report_text.h"
#include "tap.h"

static const char *json(const char *s)
{
	static struct ns_buf b;

	ns_buf_reset(&b);
	ns_json_string(&b, s);
	return ns_buf_str(&b);
}

static const char *xml(const char *s, bool attr)
{
	static struct ns_buf b;

	ns_buf_reset(&b);
	ns_xml_escape(&b, s, attr);
	return ns_buf_str(&b);
}

static void test_utf8(void)
{
	uint32_t cp = 0;

	ok(ns_utf8_char("A", &cp) == 1 && cp == 'A', "ASCII");
	ok(ns_utf8_char("\xC3\xA9", &cp) == 2 && cp == 0xE9, "two bytes");
	ok(ns_utf8_char("\xE2\x82\xAC", &cp) == 3 && cp == 0x20AC, "three bytes");
	ok(ns_utf8_char("\xF0\x9F\x98\x80", &cp) == 4 && cp == 0x1F600, "four bytes");
	ok(ns_utf8_char("\x80", &cp) == 0, "a stray continuation byte");
	ok(ns_utf8_char("\xC0\xAF", &cp) == 0, "an overlong '/'");
	ok(ns_utf8_char("\xE0\x80\xAF", &cp) == 0, "an overlong three-byte form");
	ok(ns_utf8_char("\xED\xA0\x80", &cp) == 0, "a surrogate");
	ok(ns_utf8_char("\xF4\x90\x80\x80", &cp) == 0, "beyond U+10FFFF");
	ok(ns_utf8_char("\xE2\x82", &cp) == 0, "cut short by the end of the string");
	ok(ns_utf8_char("\xFF", &cp) == 0, "0xFF never starts a character");
}

static void test_json(void)
{
	is_str(json(NULL), "null", "NULL is null");
	is_str(json(""), "\"\"", "empty string");
	is_str(json("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"", "quote and backslash escaped");
	is_str(json("\b\t\n\f\r"), "\"\\b\\t\\n\\f\\r\"", "short escapes");
	is_str(json("\x01\x0b\x1f\x7f"), "\"\\u0001\\u000b\\u001f\\u007f\"", "other control characters as \\u00XX");
	is_str(json("caf\xC3\xA9 \xE2\x82\xAC"), "\"caf\xC3\xA9 \xE2\x82\xAC\"", "UTF-8 passes through");
	is_str(json("a\xFF" "b\xC3"), "\"a\\ufffdb\\ufffd\"", "bytes that are not UTF-8 become U+FFFD");
	is_str(json("\xED\xA0\x80"), "\"\\ufffd\\ufffd\\ufffd\"", "a surrogate is three bad bytes");
}

static void test_xml(void)
{
	is_str(xml("<a href=\"x\">'&'</a>", false),
	       "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;", "markup escaped");
	is_str(xml("]]>", false), "]]&gt;", "']]>' cannot end a section");
	is_str(xml("a\tb\nc\rd", false), "a\tb\nc&#13;d", "text keeps tab and newline; CR as a reference");
	is_str(xml("a\tb\nc\rd", true), "a&#9;b&#10;c&#13;d", "attributes keep white space as references");
	is_str(xml("x\x01y\x1b[0m\x7f", false), "x\xEF\xBF\xBDy\xEF\xBF\xBD[0m\x7f",
	       "C0 controls, which XML 1.0 forbids, become U+FFFD");
	is_str(xml("\xEF\xBF\xBE\xEF\xBF\xBF", false), "\xEF\xBF\xBD\xEF\xBF\xBD", "U+FFFE and U+FFFF too");
	is_str(xml("\xFF\xC3\xA9", false), "\xEF\xBF\xBD\xC3\xA9", "bad bytes too; UTF-8 stays");
}

int main(void)
{
	test_utf8();
	test_json();
	test_xml();
	return tap_done();
}
