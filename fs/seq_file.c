// SPDX-License-Identifier: MIT
/*
 * seq_printf() and seq_write(): append to the buffer, or to the console
 * when there is none (m == NULL). Text that does not fit marks the
 * buffer overflowed and is dropped whole; the maker (fs/proc/generic.c)
 * then runs the printer again into a buffer twice the size, as Linux's
 * seq_read() does.
 */
#include <pagoda/printk.h>
#include <pagoda/seq_file.h>
#include <pagoda/string.h>
#include <stdarg.h>

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (!m) {
		vkprintf(fmt, ap);
	} else if (!m->overflow) {
		n = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
		if (n < 0 || (size_t)n >= m->size - m->count)
			m->overflow = true;
		else
			m->count += (size_t)n;
	}
	va_end(ap);
}

void seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (!m) {
		console_write_locked(data, len);
		return;
	}
	if (m->overflow || len > m->size - m->count) {
		m->overflow = true;
		return;
	}
	memcpy(m->buf + m->count, data, len);
	m->count += len;
}
