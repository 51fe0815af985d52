/* SPDX-License-Identifier: MIT */
/*
 * Kernel parameters: Linux-style key=value on the command line, declared next
 * to the code that reads them.
 *
 *	static bool shuffle;
 *	PARAM_BOOL("page_alloc.shuffle", shuffle, "randomize the free lists");
 *
 * Each declaration records the variable, its type, the default (the value
 * the variable holds before parsing) and a help line in the "kparams" linker
 * section. parse_params() assigns values from the command line; an unknown
 * key or a bad value prints a warning and leaves the default in place. The
 * shell's `params` lists them all.
 */
#ifndef PAGODA_PARAMS_H
#define PAGODA_PARAMS_H

#include <pagoda/types.h>

enum param_type {
	PARAM_T_BOOL,
	PARAM_T_INT,  /* s64 with bounds */
	PARAM_T_UINT, /* u64 with bounds */
	PARAM_T_SIZE, /* u64, accepts K/M/G/T suffixes */
	PARAM_T_STRING,
	PARAM_T_ENUM, /* int index into a NULL-terminated name list */
};

struct kernel_param {
	const char *name;
	enum param_type type;
	void *var;
	const char *help;
	union {
		struct { s64 min, max; } i;
		struct { u64 min, max; } u;
		struct { size_t size; } str; /* buffer size of a string param */
		const char *const *names;    /* enum choices */
	};
	/*
	 * For a string: NULL if the value is acceptable, else why not (the
	 * parser prints it). Lets a list of names be checked where it is
	 * parsed, not when it is first used.
	 */
	const char *(*check)(const char *val);
	char defval[48]; /* the default, rendered at first parse */
	bool set;        /* given on the command line */
	bool refused;    /* given on the command line, with a bad value */
};

#define __PARAM(key, cvar, ptype, helptext, ...)                              \
	static struct kernel_param __param_##cvar = {                         \
		.name = key, .type = ptype, .var = &(cvar),                   \
		.help = helptext, __VA_ARGS__ };                              \
	static struct kernel_param *__param_ptr_##cvar __used                 \
		__section("kparams") = &__param_##cvar

/* bool var */
#define PARAM_BOOL(key, var, help) __PARAM(key, var, PARAM_T_BOOL, help)
/* s64 var in [lo, hi] */
#define PARAM_INT(key, var, lo, hi, help) \
	__PARAM(key, var, PARAM_T_INT, help, .i = { lo, hi })
/* u64 var in [lo, hi] */
#define PARAM_UINT(key, var, lo, hi, help) \
	__PARAM(key, var, PARAM_T_UINT, help, .u = { lo, hi })
/* u64 var in [lo, hi], with size suffixes */
#define PARAM_SIZE(key, var, lo, hi, help) \
	__PARAM(key, var, PARAM_T_SIZE, help, .u = { lo, hi })
/* char var[N] */
#define PARAM_STRING(key, var, help) \
	__PARAM(key, var, PARAM_T_STRING, help, .str = { sizeof(var) })
/* char var[N], accepted only when checkfn(value) returns NULL */
#define PARAM_STRING_CHECKED(key, var, checkfn, help) \
	__PARAM(key, var, PARAM_T_STRING, help, .str = { sizeof(var) }, .check = checkfn)
/*
 * A checkfn's work for a list of names (test=, bench=): NULL when exists()
 * knows every word of the comma-separated list ("all" and "-name" as
 * strlist_has() reads them), else "no WHAT named 'word' (`LISTER` lists
 * them)", in one buffer that the parser prints before the next check.
 */
const char *param_check_names(const char *list, bool (*exists)(const char *word, size_t n),
			      const char *what, const char *lister);
/* int var indexing names[] (NULL-terminated) */
#define PARAM_ENUM(key, var, namelist, help) \
	__PARAM(key, var, PARAM_T_ENUM, help, .names = namelist)

/*
 * Parse a command line, assigning every known key. Values may be quoted
 * ("key=\"a b\""). A bare key sets a bool to true. Returns the number of
 * problems (unknown keys, bad values), each already reported with pr_warn.
 */
int parse_params(const char *cmdline);
/* The words after "--" on the command line: init's arguments ("" for none). */
const char *param_init_args(void);
/* The same over an explicit table (the tests use their own). */
int parse_params_table(struct kernel_param **tab, size_t n, const char *cmdline);
/*
 * Apply one "key=value" word to an explicit table: for commands whose
 * arguments are typed parameters (`mmlab run`), which report a problem
 * rather than print it. 0, or a negative errno with the reason in why (not
 * key=value or an unknown key: the table's keys; a bad value: what the key
 * takes, as "integer 0..100 expected (out of range)"; the caller names the
 * argument). Nothing changes on an error; the parameter is marked set on
 * success.
 */
int param_parse_arg(struct kernel_param **tab, size_t n, const char *arg,
		    char *why, size_t len);
/* Set one parameter from text; 0 or a negative errno (nothing changed then). */
int param_set(struct kernel_param *p, const char *val);
struct kernel_param *param_find(const char *name);
/* Render a parameter's current value. */
int param_format(const struct kernel_param *p, char *buf, size_t size);
void params_for_each(void (*fn)(struct kernel_param *p, void *arg), void *arg);

#endif
