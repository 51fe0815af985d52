// SPDX-License-Identifier: MIT
/*
 * The parameter parser, over a private table so the tests neither see nor
 * disturb the kernel's real parameters. Bad input must leave the default in
 * place and be counted as a problem; nothing may crash or half-assign.
 */
#include <pagoda/ktest.h>
#include <pagoda/params.h>
#include <pagoda/string.h>

static bool t_bool;
static s64 t_int;
static u64 t_uint, t_size;
static char t_str[8];
static int t_enum;
static const char *const t_names[] = { "off", "on", "auto", NULL };

static struct kernel_param p_bool = { .name = "t.bool", .type = PARAM_T_BOOL, .var = &t_bool };
static struct kernel_param p_int = { .name = "t.int", .type = PARAM_T_INT, .var = &t_int,
				     .i = { -10, 10 } };
static struct kernel_param p_uint = { .name = "t.uint", .type = PARAM_T_UINT, .var = &t_uint,
				      .u = { 1, 1000 } };
static struct kernel_param p_size = { .name = "t.size", .type = PARAM_T_SIZE, .var = &t_size,
				      .u = { 0, 64ULL << 30 } };
static struct kernel_param p_str = { .name = "t.str", .type = PARAM_T_STRING, .var = t_str,
				     .str = { sizeof(t_str) } };
static struct kernel_param p_enum = { .name = "t.enum", .type = PARAM_T_ENUM, .var = &t_enum,
				      .names = t_names };
static char t_list[16];
/* A list of names, each of which must be "a" or "b". */
static const char *check_ab(const char *val)
{
	for (; *val; val++)
		if (*val != 'a' && *val != 'b' && *val != ',')
			return "only a and b";
	return NULL;
}
static struct kernel_param p_list = { .name = "t.list", .type = PARAM_T_STRING, .var = t_list,
				      .str = { sizeof(t_list) }, .check = check_ab };
static struct kernel_param *table[] = { &p_bool, &p_int, &p_uint, &p_size, &p_str, &p_enum,
					&p_list };

static int reset(struct ktest *t)
{
	t_bool = false;
	t_int = 3;
	t_uint = 7;
	t_size = 4096;
	strlcpy(t_str, "dflt", sizeof(t_str));
	t_list[0] = '\0';
	t_enum = 2;
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		table[i]->set = false;
		table[i]->refused = false;
		table[i]->defval[0] = '\0';
	}
	return 0;
}

/* The parser's warnings are what these cases provoke. */
static int parse(struct ktest *t, const char *line)
{
	int problems;

	ktest_expect_reports(t, true);
	problems = parse_params_table(table, ARRAY_SIZE(table), line);
	ktest_expect_reports(t, false);
	return problems;
}

static void test_all_types(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.bool=on t.int=-4 t.uint=0x10 t.size=2M t.str=abc t.enum=on"), 0);
	KEXPECT_TRUE(t, t_bool);
	KEXPECT_EQ(t, t_int, -4);
	KEXPECT_EQ(t, t_uint, 16);
	KEXPECT_EQ(t, t_size, 2 << 20);
	KEXPECT_STREQ(t, t_str, "abc");
	KEXPECT_EQ(t, t_enum, 1);
	KEXPECT_TRUE(t, p_int.set);
}

static void test_bare_bool_and_spaces(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "   t.bool   \t t.int=10  "), 0);
	KEXPECT_TRUE(t, t_bool);
	KEXPECT_EQ(t, t_int, 10);
	KEXPECT_EQ(t, parse(t, ""), 0);
}

static void test_quotes(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.str=\"a b\" t.int=1"), 0);
	KEXPECT_STREQ(t, t_str, "a b");
	KEXPECT_EQ(t, t_int, 1);
}

static void test_unknown_key_keeps_going(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "nosuch=1 t.int=5 other"), 2);
	KEXPECT_EQ(t, t_int, 5);
}

static void test_bad_values_keep_default(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.int=11 t.uint=0 t.size=3Q t.bool=maybe t.enum=sometimes"), 5);
	KEXPECT_EQ(t, t_int, 3);
	KEXPECT_EQ(t, t_uint, 7);
	KEXPECT_EQ(t, t_size, 4096);
	KEXPECT_FALSE(t, t_bool);
	KEXPECT_EQ(t, t_enum, 2);
	KEXPECT_FALSE(t, p_int.set);
	KEXPECT_STREQ(t, p_int.defval, "3");
	KEXPECT_STREQ(t, p_size.defval, "4K");
}

static void test_missing_values(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.int t.uint= t.str t.enum="), 4);
	KEXPECT_EQ(t, t_int, 3);
	KEXPECT_EQ(t, t_uint, 7);
	KEXPECT_STREQ(t, t_str, "dflt");
}

static void test_overflow_and_long_strings(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.int=99999999999999999999 t.str=toolongvalue"), 2);
	KEXPECT_EQ(t, t_int, 3);
	KEXPECT_STREQ(t, t_str, "dflt");
	KEXPECT_EQ(t, parse(t, "t.size=17179869184G"), 1);
	KEXPECT_EQ(t, t_size, 4096);
}

static void test_long_token(struct ktest *t)
{
	char line[600];

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	KEXPECT_EQ(t, parse(t, line), 1);
}

/* A checked string is refused where it is parsed, counted, and marked refused. */
static void test_checked_string(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.list=a,b"), 0);
	KEXPECT_STREQ(t, t_list, "a,b");
	KEXPECT_TRUE(t, p_list.set);
	KEXPECT_FALSE(t, p_list.refused);
	t_list[0] = '\0';
	p_list.set = false;
	KEXPECT_EQ(t, parse(t, "t.list=a,c t.int=4"), 1);
	KEXPECT_STREQ(t, t_list, "");
	KEXPECT_FALSE(t, p_list.set);
	KEXPECT_TRUE(t, p_list.refused);
	KEXPECT_EQ(t, t_int, 4);
}

static void test_last_value_wins(struct ktest *t)
{
	KEXPECT_EQ(t, parse(t, "t.int=1 t.int=2"), 0);
	KEXPECT_EQ(t, t_int, 2);
}

static bool colour_known(const char *word, size_t n)
{
	return (n == 3 && !strncmp(word, "red", 3)) || (n == 4 && !strncmp(word, "blue", 4));
}

/* A list of names: all known, or the first unknown one named with its lister. */
static void test_check_names(struct ktest *t)
{
	KEXPECT_TRUE(t, param_check_names("red,blue", colour_known, "colour", "ls") == NULL);
	KEXPECT_TRUE(t, param_check_names("all,-blue", colour_known, "colour", "ls") == NULL);
	KEXPECT_STREQ(t, param_check_names("red,green,pink", colour_known, "colour", "ls"),
		      "no colour named 'green' (`ls` lists them)");
	KEXPECT_STREQ(t, param_check_names("all,-grey", colour_known, "colour", "ls"),
		      "no colour named '-grey' (`ls` lists them)");
}

static void test_format(struct ktest *t)
{
	char buf[32];

	t_size = 3ULL << 30;
	param_format(&p_size, buf, sizeof(buf));
	KEXPECT_STREQ(t, buf, "3G");
	t_size = 1000;
	param_format(&p_size, buf, sizeof(buf));
	KEXPECT_STREQ(t, buf, "1000");
	param_format(&p_enum, buf, sizeof(buf));
	KEXPECT_STREQ(t, buf, "auto");
	param_format(&p_bool, buf, sizeof(buf));
	KEXPECT_STREQ(t, buf, "off");
}

static struct ktest_case params_cases[] = {
	KTEST_CASE(test_all_types),
	KTEST_CASE(test_bare_bool_and_spaces),
	KTEST_CASE(test_quotes),
	KTEST_CASE(test_unknown_key_keeps_going),
	KTEST_CASE(test_bad_values_keep_default),
	KTEST_CASE(test_missing_values),
	KTEST_CASE(test_overflow_and_long_strings),
	KTEST_CASE(test_long_token),
	KTEST_CASE(test_checked_string),
	KTEST_CASE(test_check_names),
	KTEST_CASE(test_last_value_wins),
	KTEST_CASE(test_format),
	{}
};
KTEST_SUITE_FULL(params, .cases = params_cases, .init = reset);
