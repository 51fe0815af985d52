// SPDX-License-Identifier: MIT
/*
 * The kernel shell on the console: read a line with a little editing
 * (backspace, Ctrl-U, Ctrl-C, up/down through a short history), split it
 * into words and run the command of that name from the "kcmds" section.
 */
#include <pagoda/arch.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>

extern const struct shell_cmd *__start_kcmds[];
extern const struct shell_cmd *__stop_kcmds[];

#define LINE_MAX 256
#define HISTORY 8

static char history[HISTORY][LINE_MAX];
static int history_count;

static char startup_cmds[512];
PARAM_STRING("shell.run", startup_cmds,
	     "commands to run before the first prompt, separated by ';'");

static const struct shell_cmd *find_cmd(const char *name)
{
	for (const struct shell_cmd **c = __start_kcmds; c < __stop_kcmds; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

int shell_exec(const char *line)
{
	char buf[LINE_MAX], *argv[SHELL_MAX_ARGS + 1], *s = buf, *w;
	const struct shell_cmd *cmd;
	int argc = 0;

	strlcpy(buf, line, sizeof(buf));
	while ((w = strsep(&s, " \t")) != NULL) {
		if (!*w)
			continue;
		if (argc == SHELL_MAX_ARGS) {
			kprintf("shell: too many arguments (at most %d)\n", SHELL_MAX_ARGS);
			return -E2BIG;
		}
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	cmd = find_cmd(argv[0]);
	if (!cmd) {
		kprintf("%s: unknown command; `help` lists them\n", argv[0]);
		return -ENOENT;
	}
	return cmd->fn(argc, argv);
}

static int wait_char(void)
{
	return console_getc_wait();
}

static void replace_line(char *line, size_t *len, const char *with)
{
	while (*len) {
		console_write("\b \b", 3);
		(*len)--;
	}
	strlcpy(line, with, LINE_MAX);
	*len = strlen(line);
	console_write(line, *len);
}

static void read_line(char *line)
{
	size_t len = 0;
	int hist = history_count; /* one past the newest */

	for (;;) {
		int c = wait_char();

		if (c == '\r' || c == '\n') {
			console_write("\n", 1);
			line[len] = '\0';
			return;
		} else if (c == 0x7f || c == '\b') {
			if (len) {
				len--;
				console_write("\b \b", 3);
			}
		} else if (c == 0x15) { /* Ctrl-U */
			replace_line(line, &len, "");
		} else if (c == 0x03) { /* Ctrl-C */
			console_write("^C\n", 3);
			line[0] = '\0';
			return;
		} else if (c == 0x1b) { /* ESC [ A / ESC [ B: history */
			if (wait_char() != '[')
				continue;
			c = wait_char();
			if (c == 'A' && hist > 0 && hist > history_count - HISTORY)
				hist--;
			else if (c == 'B' && hist < history_count)
				hist++;
			else
				continue;
			replace_line(line, &len,
				     hist < history_count ? history[hist % HISTORY] : "");
		} else if (isprint(c) && len + 1 < LINE_MAX) {
			char ch = (char)c;

			line[len++] = ch;
			console_write(&ch, 1);
		}
	}
}

static void remember(const char *line)
{
	if (!*skip_spaces(line))
		return;
	if (history_count &&
	    !strcmp(history[(history_count - 1) % HISTORY], line))
		return;
	strlcpy(history[history_count % HISTORY], line, LINE_MAX);
	history_count++;
}

static void run_startup_cmds(void)
{
	char buf[sizeof(startup_cmds)], *s = buf, *cmd;

	strlcpy(buf, startup_cmds, sizeof(buf));
	while ((cmd = strsep(&s, ";")) != NULL) {
		cmd = strim(cmd);
		if (*cmd) {
			kprintf("pagoda> %s\n", cmd);
			shell_exec(cmd);
		}
	}
}

void shell_run(void)
{
	char line[LINE_MAX];

	kprintf("\nWelcome to Pagoda. Type `help` for commands.\n");
	run_startup_cmds();
	for (;;) {
		kprintf("pagoda> ");
		read_line(line);
		remember(line);
		shell_exec(line);
	}
}

/* In alphabetical order: print the smallest name greater than the last. */
static int cmd_help(int argc, char **argv)
{
	const char *last = "";

	(void)argc;
	(void)argv;
	for (;;) {
		const struct shell_cmd *next = NULL;

		for (const struct shell_cmd **c = __start_kcmds; c < __stop_kcmds; c++)
			if (strcmp((*c)->name, last) > 0 &&
			    (!next || strcmp((*c)->name, next->name) < 0))
				next = *c;
		if (!next)
			return 0;
		kprintf("  %-24s %s\n", next->usage, next->help);
		last = next->name;
	}
}
SHELL_CMD(help, "help", "this list", cmd_help);
