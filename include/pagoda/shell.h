/* SPDX-License-Identifier: MIT */
/*
 * The kernel shell. A command registers itself next to its code:
 *
 *	static int cmd_uptime(int argc, char **argv) { ... return 0; }
 *	SHELL_CMD(uptime, "uptime", "time since boot");
 *
 * and lands in the "kcmds" linker section, which the shell searches.
 */
#ifndef PAGODA_SHELL_H
#define PAGODA_SHELL_H

#include <pagoda/types.h>

struct shell_cmd {
	const char *name;
	const char *usage;
	const char *help;
	int (*fn)(int argc, char **argv);
};

#define SHELL_CMD(cname, usage_text, help_text, func)                        \
	static const struct shell_cmd __shell_cmd_##cname = {                 \
		.name = #cname, .usage = usage_text, .help = help_text,       \
		.fn = func };                                                 \
	static const struct shell_cmd *__shell_cmd_ptr_##cname __used         \
		__section("kcmds") = &__shell_cmd_##cname

#define SHELL_MAX_ARGS 16

/*
 * Run one command line; returns the command's status or -ENOENT. A failing
 * command is reported by the shell: the errno's name, and the usage line
 * when it was -EINVAL (bad arguments). A command whose usage names no
 * arguments is refused any.
 */
int shell_exec(const char *line);
/*
 * Has the user pressed Ctrl-C since the command started? Long commands ask
 * every so often (it is cheap) and stop cleanly, returning -EINTR; the
 * shell then says the command was interrupted.
 */
bool shell_interrupted(void);
void shell_interrupt_clear(void);
/* The user program the shell waits for: a Ctrl-C sends it SIGINT (0: none). */
void console_set_foreground(int pid);
/* The interactive loop on the console; never returns. */
__noreturn void shell_run(void);

/* The terminal's width the shell knows (shell.columns, or asked of the terminal). */
unsigned int shell_width(void);

#endif
