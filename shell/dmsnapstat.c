// SPDX-License-Identifier: MIT
/*
 * `dmsnapstat`: where dm-snapshot's copies spend their time, per step
 * (block/dm/dm-trace.c), as distributions since boot or the last reset.
 *
 *	pagoda> dmsnapstat
 *	pagoda> dmsnapstat reset
 */
#include <pagoda/shell.h>
#include <pagoda/string.h>

#include "../block/dm/dm-trace.h"

static int cmd_dmsnapstat(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "reset")) {
		dm_trace_reset();
		return 0;
	}
	if (argc > 1)
		return -EINVAL;	/* the shell prints the usage */
	dm_trace_print(&dm_trace, "");
	return 0;
}
SHELL_CMD(dmsnapstat, "dmsnapstat [reset]",
	  "dm-snapshot: time per step of a chunk's copy and commit (median, p90, p99, max)",
	  cmd_dmsnapstat);
