// SPDX-License-Identifier: MIT
/*
 * Command-line parameters (see <pagoda/params.h>). Parsing never fails the
 * boot: every problem is reported and the parameter keeps its default, so a
 * typo in CMDLINE costs a warning, not a machine.
 */
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>

extern struct kernel_param *__start_kparams[];
extern struct kernel_param *__stop_kparams[];

static bool defaults_saved;
/* Why the last param_set() of a checked string refused its value. */
static const char *check_reason;

static struct kernel_param **find_in(struct kernel_param **tab, size_t n,
				     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i]->name, name))
			return &tab[i];
	return NULL;
}

int param_format(const struct kernel_param *p, char *buf, size_t size)
{
	switch (p->type) {
	case PARAM_T_BOOL:
		return scnprintf(buf, size, "%s", *(bool *)p->var ? "on" : "off");
	case PARAM_T_INT:
		return scnprintf(buf, size, "%lld", (long long)*(s64 *)p->var);
	case PARAM_T_UINT:
		return scnprintf(buf, size, "%llu", (unsigned long long)*(u64 *)p->var);
	case PARAM_T_SIZE: {
		u64 v = *(u64 *)p->var;
		const char *suffix = "KMGT";
		int shift = 0;

		while (v && !(v & 1023) && shift < 4) {
			v >>= 10;
			shift++;
		}
		if (shift)
			return scnprintf(buf, size, "%llu%c", (unsigned long long)v,
					 suffix[shift - 1]);
		return scnprintf(buf, size, "%llu", (unsigned long long)v);
	}
	case PARAM_T_STRING:
		return scnprintf(buf, size, "%s", (const char *)p->var);
	case PARAM_T_ENUM:
		return scnprintf(buf, size, "%s", p->names[*(int *)p->var]);
	}
	return 0;
}

static void save_defaults(void)
{
	if (defaults_saved)
		return;
	for (struct kernel_param **p = __start_kparams; p < __stop_kparams; p++)
		param_format(*p, (*p)->defval, sizeof((*p)->defval));
	defaults_saved = true;
}

struct kernel_param *param_find(const char *name)
{
	struct kernel_param **p = find_in(__start_kparams,
					  __stop_kparams - __start_kparams, name);

	return p ? *p : NULL;
}

static int set_unsigned(struct kernel_param *p, const char *val)
{
	u64 v;
	int err = p->type == PARAM_T_SIZE ? kstrtosize(val, &v)
					  : kstrtou64(val, 0, &v);

	if (err)
		return err;
	if (v < p->u.min || v > p->u.max)
		return -ERANGE;
	*(u64 *)p->var = v;
	return 0;
}

static int set_enum(struct kernel_param *p, const char *val)
{
	for (int i = 0; p->names[i]; i++) {
		if (!strcmp(p->names[i], val)) {
			*(int *)p->var = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *param_check_names(const char *list, bool (*exists)(const char *word, size_t n),
			      const char *what, const char *lister)
{
	static char why[96];
	const char *bad;
	size_t n;

	bad = strlist_first_unknown(list, exists, &n);
	if (!bad)
		return NULL;
	snprintf(why, sizeof(why), "no %s named '%.*s' (`%s` lists them)", what,
		 (int)MIN(n, (size_t)40), bad, lister);
	return why;
}

int param_set(struct kernel_param *p, const char *val)
{
	switch (p->type) {
	case PARAM_T_BOOL:
		/* A bare "key" means key=on, as for Linux's "quiet". */
		return kstrtobool(val ? val : "1", (bool *)p->var);
	case PARAM_T_INT: {
		s64 v;
		int err;

		if (!val)
			return -EINVAL;
		err = kstrtos64(val, 0, &v);
		if (err)
			return err;
		if (v < p->i.min || v > p->i.max)
			return -ERANGE;
		*(s64 *)p->var = v;
		return 0;
	}
	case PARAM_T_UINT:
	case PARAM_T_SIZE:
		return val ? set_unsigned(p, val) : -EINVAL;
	case PARAM_T_STRING:
		if (!val)
			return -EINVAL;
		if (strlen(val) >= p->str.size)
			return -E2BIG;
		if (p->check && (check_reason = p->check(val)) != NULL)
			return -EINVAL;
		strlcpy(p->var, val, p->str.size);
		return 0;
	case PARAM_T_ENUM:
		return val ? set_enum(p, val) : -EINVAL;
	}
	return -EINVAL;
}

static const char *type_hint(const struct kernel_param *p, char *buf, size_t n)
{
	switch (p->type) {
	case PARAM_T_BOOL: return "on/off";
	case PARAM_T_INT:
		scnprintf(buf, n, "integer %lld..%lld", (long long)p->i.min,
			  (long long)p->i.max);
		return buf;
	case PARAM_T_UINT:
		scnprintf(buf, n, "integer %llu..%llu",
			  (unsigned long long)p->u.min, (unsigned long long)p->u.max);
		return buf;
	case PARAM_T_SIZE: return "size with optional K/M/G/T";
	case PARAM_T_STRING:
		scnprintf(buf, n, "string up to %zu characters", p->str.size - 1);
		return buf;
	case PARAM_T_ENUM: {
		size_t len = 0;

		for (int i = 0; p->names[i]; i++)
			len += scnprintf(buf + len, n - len, "%s%s", i ? "|" : "",
					 p->names[i]);
		return buf;
	}
	}
	return "?";
}

/*
 * Split the next token off *s: white-space separated, with double quotes
 * grouping (they are removed). Writes into out; returns false at the end.
 */
static bool next_token(const char **s, char *out, size_t size, bool *overflow)
{
	const char *p = skip_spaces(*s);
	size_t n = 0;
	bool quoted = false;

	*overflow = false;
	if (!*p)
		return false;
	for (; *p && (quoted || !isspace(*p)); p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < size)
			out[n++] = *p;
		else
			*overflow = true;
	}
	out[n] = '\0';
	*s = p;
	return true;
}

/* Where the last table's parse stopped at a "--" word (NULL: it did not). */
static const char *after_dashes;

/*
 * Linux's rule: the words after "--" on the command line are not the
 * kernel's but init's, its argv[1] on (run_init_process()).
 */
static char init_args[256];

const char *param_init_args(void)
{
	return init_args;
}

int parse_params_table(struct kernel_param **tab, size_t n, const char *cmdline)
{
	char tok[1024], hint[128];
	const char *s = cmdline;
	bool overflow;
	int problems = 0;

	for (size_t i = 0; i < n; i++)
		if (!tab[i]->defval[0])
			param_format(tab[i], tab[i]->defval, sizeof(tab[i]->defval));
	after_dashes = NULL;
	while (next_token(&s, tok, sizeof(tok), &overflow)) {
		char *eq = strchr(tok, '=');
		const char *val = NULL;
		struct kernel_param **found;
		struct kernel_param *p;
		int err;

		if (!overflow && !strcmp(tok, "--")) {
			after_dashes = s;
			break;
		}

		if (overflow) {
			pr_warn("params: '%.32s...' is too long, ignored\n", tok);
			problems++;
			continue;
		}
		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		found = find_in(tab, n, tok);
		if (!found) {
			pr_warn("params: unknown parameter '%s' ignored (see `params`)\n", tok);
			problems++;
			continue;
		}
		p = *found;
		check_reason = NULL;
		err = param_set(p, val);
		p->refused = err != 0;
		if (err && check_reason) {
			pr_warn("params: bad value '%s' for %s: %s; keeping the default %s\n",
				val, p->name, check_reason, p->defval[0] ? p->defval : "(empty)");
			problems++;
			continue;
		}
		if (err) {
			pr_warn("params: bad value '%s' for %s (%s): %s, keeping the default %s\n",
				val ? val : "", p->name, type_hint(p, hint, sizeof(hint)),
				err == -ERANGE ? "out of range" :
				err == -E2BIG ? "too long" :
				p->type == PARAM_T_ENUM ? "not one of these" : "not understood",
				p->defval);
			problems++;
			continue;
		}
		p->set = true;
	}
	return problems;
}

int param_parse_arg(struct kernel_param **tab, size_t n, const char *arg,
		    char *why, size_t len)
{
	const char *eq = strchr(arg, '=');
	char key[32], hint[128];
	struct kernel_param *p = NULL;
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	size_t used;
	int err;

	if (klen && klen < sizeof(key)) {
		memcpy(key, arg, klen);
		key[klen] = '\0';
		for (size_t i = 0; i < n && !p; i++)
			if (!strcmp(tab[i]->name, key))
				p = tab[i];
	}
	if (!p) {
		used = scnprintf(why, len, "%s; the keys are", eq && klen ?
				 "unknown key" : "arguments are key=value");
		for (size_t i = 0; i < n; i++)
			used += scnprintf(why + used, len - used, " %s=", tab[i]->name);
		return -EINVAL;
	}
	err = param_set(p, eq ? eq + 1 : NULL);
	if (err) {
		if (p->type == PARAM_T_ENUM)
			scnprintf(why, len, "one of %s expected",
				  type_hint(p, hint, sizeof(hint)));
		else
			scnprintf(why, len, "%s expected (%s)", type_hint(p, hint, sizeof(hint)),
				  err == -ERANGE ? "out of range" :
				  err == -E2BIG ? "too long" : "not understood");
		return err;
	}
	p->set = true;
	return 0;
}

int parse_params(const char *cmdline)
{
	int problems;

	save_defaults();
	problems = parse_params_table(__start_kparams, __stop_kparams - __start_kparams,
				      cmdline);
	init_args[0] = '\0';
	if (after_dashes && strlcpy(init_args, skip_spaces(after_dashes), sizeof(init_args)) >=
			    sizeof(init_args)) {
		pr_warn("params: init's arguments after -- are longer than %zu characters: "
			"none passed\n", sizeof(init_args) - 1);
		init_args[0] = '\0';
		problems++;
	}
	return problems;
}

void params_for_each(void (*fn)(struct kernel_param *p, void *arg), void *arg)
{
	save_defaults();
	for (struct kernel_param **p = __start_kparams; p < __stop_kparams; p++)
		fn(*p, arg);
}

static void print_param(struct kernel_param *p, void *arg)
{
	char val[64], hint[128];

	(void)arg;
	param_format(p, val, sizeof(val));
	kprintf("  %-26s %-12s %s%s\n", p->name, val, p->help,
		p->set ? "" : " [default]");
	kprintf("  %-26s %-12s (%s; default %s)\n", "", "",
		type_hint(p, hint, sizeof(hint)), p->defval);
}

static int cmd_params(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			struct kernel_param *p = param_find(argv[i]);

			if (!p) {
				kprintf("params: no parameter '%s'\n", argv[i]);
				return -ENOENT;
			}
			print_param(p, NULL);
		}
		return 0;
	}
	params_for_each(print_param, NULL);
	return 0;
}
SHELL_CMD(params, "params [name...]", "list parameters with value, help and default",
	  cmd_params);
