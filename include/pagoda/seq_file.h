/* SPDX-License-Identifier: MIT */
/*
 * Text made by a printer into a buffer (fs/seq_file.c), after Linux's
 * seq_file: /proc's files are made this way when opened. A printer that
 * takes a struct seq_file prints to the console when given NULL, so the
 * shell's command and the /proc file share one printer (buddyinfo, maps).
 */
#ifndef PAGODA_SEQ_FILE_H
#define PAGODA_SEQ_FILE_H

#include <pagoda/compiler.h>
#include <pagoda/types.h>

struct seq_file {
	char *buf;
	size_t size, count;
	bool overflow; /* something did not fit: the maker retries with more room */
};

void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_write(struct seq_file *m, const void *data, size_t len);
static inline void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

#endif
