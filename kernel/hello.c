// SPDX-License-Identifier: MIT
/*
 * The smallest shell command with a boot parameter, and the answer to the
 * first lab (docs/labs/shell.md): students write this file, so it is left
 * out of their tree.
 *
 *	hello            Hello, <hello.name>!
 *	hello NAME...    Hello, NAME! once for each name
 *
 * Both pieces register themselves through linker tables: SHELL_CMD puts a
 * struct shell_cmd in the commands' section, PARAM_STRING a struct
 * kernel_param in the parameters' section. Nothing else in the kernel names
 * this file, which is why adding a command is one file and no list to edit.
 */
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>

/* Parsed from the command line before any command can run: a fixed buffer. */
static char hello_name[32] = "world";
PARAM_STRING("hello.name", hello_name, "whom `hello` greets when given no name");

static int cmd_hello(int argc, char **argv)
{
	if (argc < 2) {
		kprintf("Hello, %s!\n", hello_name);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		kprintf("Hello, %s!\n", argv[i]);
	return 0;
}
SHELL_CMD(hello, "hello [NAME...]", "greet hello.name, or each NAME", cmd_hello);
