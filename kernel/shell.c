// SPDX-License-Identifier: MIT
/*
 * The kernel shell on the console: read a line with the line editor
 * (lib/line_edit.c: cursor keys, Home/End, Delete, Ctrl-A/E/K/U/W, history),
 * split it into words and run the command of that name from the "kcmds"
 * section. The shell, not each command, turns a failure into words: the
 * errno's name, and the usage line for bad arguments.
 */
#include <pagoda/arch.h>
#include <pagoda/errname.h>
#include <pagoda/line_edit.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

extern const struct shell_cmd *__start_kcmds[];
extern const struct shell_cmd *__stop_kcmds[];

#define LINE_MAX LINE_EDIT_MAX
#define PROMPT "pagoda> "

static struct line_history history;
static struct line_edit editor;

static char startup_cmds[1024];
PARAM_STRING("shell.run", startup_cmds,
	     "commands to run before the first prompt, separated by ';'");
static u64 shell_columns = 80;
PARAM_UINT("shell.columns", shell_columns, 20, 1000,
	   "terminal width where the line editor wraps (unset: asked of the terminal)");

unsigned int shell_width(void)
{
	return (unsigned int)shell_columns;
}

/*
 * Ask the terminal how wide it is, as resize(1) does: save the cursor, move
 * it as far right as it goes, ask for its position (ESC [ 6 n), put it back.
 * A terminal answers ESC [ row ; col R. A pipe or a log answers nothing, and
 * after a moment the default stands; keys that arrive meanwhile are kept
 * for the prompt, and a late answer is an unknown sequence the line editor
 * drops.
 */
static void probe_columns(void)
{
	struct kernel_param *p = param_find("shell.columns");
	u64 deadline = ktime_get_ns() + 200 * NSEC_PER_MSEC;
	unsigned int col = 0, state = 0, n = 0;
	char seen[16];

	if (p && p->set)
		return;
	console_write_locked("\0337\033[999C\033[6n\0338", 14);
	while (ktime_get_ns() < deadline) {
		int c = console_getc();

		if (c < 0) {
			arch_cpu_relax();
			continue;
		}
		/* state: 0 nothing, 1 ESC, 2 '[', 3 row digits, 4 column digits */
		if (state == 4 && c == 'R') {
			if (col >= 20 && col <= 1000)
				shell_columns = col;
			return;
		}
		if (n < sizeof(seen))
			seen[n++] = (char)c;
		if (state == 0 && c == 0x1b) {
			state = 1;
		} else if (state == 1 && c == '[') {
			state = 2;
		} else if ((state == 2 || state == 3) && isdigit(c)) {
			state = 3;
		} else if (state == 3 && c == ';') {
			state = 4;
		} else if (state == 4 && isdigit(c)) {
			col = MIN(col * 10 + (c - '0'), 10000u);
		} else {
			/* Not an answer: keys typed early go to the prompt, in order. */
			for (unsigned int i = 0; i < n; i++)
				console_input_push((unsigned char)seen[i]);
			state = col = n = 0;
		}
	}
}

static const struct shell_cmd *find_cmd(const char *name)
{
	for (const struct shell_cmd **c = __start_kcmds; c < __stop_kcmds; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* The usage line names no arguments: "meminfo", not "memory [online ...]". */
static bool takes_no_args(const struct shell_cmd *cmd)
{
	return !strchr(cmd->usage, ' ');
}

static void report(const struct shell_cmd *cmd, int err)
{
	if (err == -EINTR) {
		kprintf("%s: interrupted (Ctrl-C)\n", cmd->name);
		return;
	}
	kprintf("%s: %s (%s)\n", cmd->name, errmsg(err), errname(err));
	if (err == -EINVAL)
		kprintf("usage: %s\n", cmd->usage);
}

int shell_exec(const char *line)
{
	char buf[LINE_MAX], *argv[SHELL_MAX_ARGS + 1];
	const struct shell_cmd *cmd;
	int argc, err;

	if (strlcpy(buf, line, sizeof(buf)) >= sizeof(buf)) {
		kprintf("shell: line longer than %d characters: not run\n", LINE_MAX - 1);
		return -E2BIG;
	}
	argc = argv_split_inplace(buf, argv, SHELL_MAX_ARGS);
	if (argc < 0) {
		kprintf("shell: too many arguments (at most %d): not run\n", SHELL_MAX_ARGS - 1);
		return -E2BIG;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	cmd = find_cmd(argv[0]);
	if (!cmd) {
		kprintf("%s: unknown command; `help` lists them\n", argv[0]);
		return -ENOENT;
	}
	if (argc > 1 && takes_no_args(cmd)) {
		kprintf("%s: takes no arguments (EINVAL)\n", cmd->name);
		return -EINVAL;
	}
	shell_interrupt_clear();
	err = cmd->fn(argc, argv);
	if (err < 0)
		report(cmd, err);
	return err;
}

static void console_out(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write_locked(s, n);
}

/* One line from the console into line; false when nothing is to be run. */
static bool read_line(char *line)
{
	int status;

	line_edit_begin(&editor, PROMPT, (unsigned int)shell_columns, &history,
			console_out, NULL);
	do
		status = line_edit_key(&editor, console_getc_wait());
	while (status == LINE_EDIT_MORE);
	strlcpy(line, editor.buf, LINE_MAX);
	if (status == LINE_EDIT_TOO_LONG) {
		/* Kept in the history, so Up brings it back to be shortened. */
		line_history_add(&history, line);
		kprintf("shell: line longer than %d characters refused, nothing run "
			"(Up recalls the part that fit)\n", LINE_MAX - 1);
		return false;
	}
	return status == LINE_EDIT_DONE;
}

static void run_startup_cmds(void)
{
	char buf[sizeof(startup_cmds)], *s = buf, *cmd;

	strlcpy(buf, startup_cmds, sizeof(buf));
	while ((cmd = strsep(&s, ";")) != NULL) {
		cmd = strim(cmd);
		if (*cmd) {
			kprintf(PROMPT "%s\n", cmd);
			shell_exec(cmd);
		}
	}
}

void shell_run(void)
{
	char line[LINE_MAX];

	kprintf("\nWelcome to Pagoda. Type `help` for commands.\n");
	run_startup_cmds();
	probe_columns();
	for (;;) {
		if (!read_line(line))
			continue;
		line_history_add(&history, line);
		shell_exec(line);
	}
}

/* The lines typed, oldest first, numbered as they were entered (Up walks them too). */
static int cmd_history(int argc, char **argv)
{
	unsigned int first = history.count > LINE_EDIT_HISTORY ? history.count - LINE_EDIT_HISTORY : 0;

	(void)argc;
	(void)argv;
	for (unsigned int i = first; i < history.count; i++)
		kprintf("%5u  %s\n", i + 1, history.lines[i % LINE_EDIT_HISTORY]);
	return 0;
}
SHELL_CMD(history, "history", "the lines typed at this prompt, oldest first", cmd_history);

/* In alphabetical order: print the smallest name greater than the last. */
/*
 * Print text from column at (where the cursor is) to the terminal's width,
 * breaking at spaces; continuation lines start at column indent.
 */
static void print_wrapped(const char *text, unsigned int at, unsigned int indent,
			  unsigned int columns)
{
	while (*text) {
		unsigned int room = columns > at + 1 ? columns - at - 1 : 1, n = 0, cut = 0;

		/* at most room characters, breaking at the last space within them */
		while (text[n] && n < room) {
			n++;
			if (text[n] == ' ' || !text[n])
				cut = n;
		}
		if (!text[n])
			cut = n;		/* the rest fits */
		else if (!cut)
			cut = MIN(n, room);	/* one long word: cut it */
		kprintf("%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			kprintf("%*s", (int)indent, "");
		at = indent;
	}
}

/* Usages up to this wide share their line with the help text. */
#define HELP_USAGE_COLUMN 30

static int cmd_help(int argc, char **argv)
{
	unsigned int columns = shell_width(), width = 0, text_col;
	const char *last = "";

	(void)argc;
	(void)argv;
	/* The widest short usage sets the column the help text starts in. */
	for (const struct shell_cmd **c = __start_kcmds; c < __stop_kcmds; c++)
		if (strlen((*c)->usage) <= HELP_USAGE_COLUMN)
			width = MAX(width, (unsigned int)strlen((*c)->usage));
	text_col = 2 + width + 2;
	if (text_col + 20 > columns)	/* a narrow terminal: help below each usage */
		text_col = 6;
	for (;;) {
		const struct shell_cmd *next = NULL;
		unsigned int len;

		for (const struct shell_cmd **c = __start_kcmds; c < __stop_kcmds; c++)
			if (strcmp((*c)->name, last) > 0 &&
			    (!next || strcmp((*c)->name, next->name) < 0))
				next = *c;
		if (!next)
			return 0;
		len = (unsigned int)strlen(next->usage);
		kprintf("  ");
		if (2 + len + 2 <= text_col) {
			kprintf("%-*s", (int)(text_col - 2), next->usage);
		} else {
			/* A long usage gets its own line(s); the help goes below it. */
			print_wrapped(next->usage, 2, 6, columns);
			kprintf("%*s", (int)text_col, "");
		}
		print_wrapped(next->help, text_col, text_col, columns);
		last = next->name;
	}
}
SHELL_CMD(help, "help", "this list", cmd_help);
