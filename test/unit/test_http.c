/*-------------------------------------------------------------------------
 * test_http.c
 *	  ch_http helpers that need no network: ch_url_escape and
 *	  ch_parse_exception_code.
 *
 * test/unit/test_http.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_http.h"
#include "ch_transport.h"

static void
check_escape(const char *in, size_t len, const char *expect, const char *file, int line)
{
	ch_buf		b;
	ch_status	st;

	ch_buf_init(&b, NULL);
	st = ch_url_escape(&b, in, len);
	unit_check_status(st, CH_OK, "ch_url_escape", file, line);
	unit_check_mem(b.data, b.len, expect, strlen(expect), "escaped", "expected", file, line);
	ch_buf_free(&b);
}

#define CHECK_ESCAPE(lit, expect) check_escape((lit), sizeof(lit) - 1, (expect), __FILE__, __LINE__)

TEST(http_url_escape)
{
	CHECK_ESCAPE("", "");
	CHECK_ESCAPE("abcXYZ019-_.~", "abcXYZ019-_.~");
	CHECK_ESCAPE(" ", "%20");
	CHECK_ESCAPE("a=b&c", "a%3Db%26c");
	CHECK_ESCAPE("max_block_size", "max_block_size");
	CHECK_ESCAPE("Europe/Moscow", "Europe%2FMoscow");
	CHECK_ESCAPE("100%+?#", "100%25%2B%3F%23");
	CHECK_ESCAPE("\xff\x00\x01", "%FF%00%01");
	CHECK_ESCAPE("\xc3\xa9", "%C3%A9");
	CHECK_ESCAPE("'\"\\\n", "%27%22%5C%0A");
}

TEST(http_url_escape_appends)
{
	ch_buf		b;
	static const char all[] = "\x01\x7f\x80";

	ch_buf_init(&b, NULL);
	CHECK_STATUS(ch_buf_append(&b, "x=", 2), CH_OK);
	CHECK_STATUS(ch_url_escape(&b, "a b", 3), CH_OK);
	CHECK_STATUS(ch_url_escape(&b, all, 3), CH_OK);
	CHECK_EQ_BYTES(b.data, b.len, "x=a%20b%01%7F%80");
	ch_buf_free(&b);
}

TEST(http_url_escape_out_of_memory)
{
	count_alloc ca;
	ch_buf		b;

	count_alloc_init(&ca, 16);
	ch_buf_init(&b, &ca.a);
	CHECK_STATUS(ch_url_escape(&b, "abcdefghijklmnopqrstuvwxyz", 26), CH_ERR_NOMEM);
	CHECK_EQ_UINT(b.len, 0);
	ch_buf_free(&b);
	CHECK_EQ_UINT(ca.live, 0);
}

#define CODE(lit) ch_parse_exception_code((lit), sizeof(lit) - 1)

TEST(http_parse_exception_code)
{
	/* 18.16 */
	CHECK_EQ_INT(CODE("Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception\n"), 395);
	CHECK_EQ_INT(CODE("Code: 60, e.displayText() = DB::Exception: Table default.nosuch doesn't exist., e.what() = DB::Exception\n"), 60);
	/* modern */
	CHECK_EQ_INT(CODE("Code: 60. DB::Exception: Table default.nosuch does not exist. (UNKNOWN_TABLE) (version 24.8.1.1)"), 60);
	/* leading newlines/spaces */
	CHECK_EQ_INT(CODE("\nCode: 241, e.displayText() = DB::Exception: Memory limit"), 241);
	CHECK_EQ_INT(CODE("\r\n  Code: 3, x"), 3);
	/* shortest */
	CHECK_EQ_INT(CODE("Code: 1"), 1);
	/* not an exception */
	CHECK_EQ_INT(CODE(""), 0);
	CHECK_EQ_INT(CODE("Code: "), 0);
	CHECK_EQ_INT(CODE("Code: x, y"), 0);
	CHECK_EQ_INT(CODE("code: 60, lower case"), 0);
	CHECK_EQ_INT(CODE("Code:60, no space"), 0);
	CHECK_EQ_INT(CODE("Error: Code: 60"), 0);
	CHECK_EQ_INT(CODE("\x01\x02Code: 60"), 0);
	/* len bounds the text */
	CHECK_EQ_INT(ch_parse_exception_code("Code: 395, more", 8), 39);
	CHECK_EQ_INT(ch_parse_exception_code("Code: 395, more", 6), 0);
	CHECK_EQ_INT(ch_parse_exception_code(NULL, 0), 0);
	/* absurdly long numbers do not overflow */
	{
		int			c = CODE("Code: 99999999999999999999999999, x");

		CHECK_MSG(c > 0 && c < 1000000000, "overlong code gave %d", c);
	}
}

/* compression 'auto' sends uncompressed only to hosts written as loopback */
TEST(host_is_loopback)
{
	ch_endpoint eps[3] = {{"127.0.0.1", 8123}, {"localhost", 8123}, {"::1", 8123}};

	CHECK(ch_host_is_loopback("127.0.0.1"));
	CHECK(ch_host_is_loopback("127.255.3.4"));
	CHECK(ch_host_is_loopback("localhost"));
	CHECK(ch_host_is_loopback("LocalHost."));
	CHECK(ch_host_is_loopback("::1"));
	CHECK(ch_host_is_loopback("::ffff:127.0.0.1"));
	CHECK(ch_host_is_loopback("0:0:0:0:0:0:0:1"));
	CHECK(!ch_host_is_loopback("128.0.0.1"));
	CHECK(!ch_host_is_loopback("10.0.0.1"));
	CHECK(!ch_host_is_loopback("::2"));
	CHECK(!ch_host_is_loopback("::ffff:10.0.0.1"));
	CHECK(!ch_host_is_loopback("localhost.example.com"));
	CHECK(!ch_host_is_loopback("mylocalhost"));
	CHECK(!ch_host_is_loopback("127.0.0.1.example.com"));
	CHECK(!ch_host_is_loopback("ch1"));
	CHECK(!ch_host_is_loopback(""));
	CHECK(!ch_host_is_loopback(NULL));
	CHECK(ch_hosts_all_loopback(eps, 3));
	eps[1].host = "ch2";
	CHECK(!ch_hosts_all_loopback(eps, 3));
	CHECK(ch_hosts_all_loopback(eps, 1));
	CHECK(!ch_hosts_all_loopback(eps, 0));
}
