/* SPDX-License-Identifier: MIT */
/*
 * A line editor for a serial terminal, in the spirit of readline/linenoise:
 * the shell feeds it one input byte at a time and it keeps the line, the
 * cursor and the screen in step, writing only through a callback. It has no
 * other dependency, so the host tests drive it with scripted keys and check
 * the screen a VT100 would show.
 *
 *	keys                          action
 *	Left/Right, Ctrl-B/Ctrl-F     move one character
 *	Home/End, Ctrl-A/Ctrl-E       start/end of the line
 *	Backspace, Delete, Ctrl-D     delete before/under the cursor
 *	Ctrl-K, Ctrl-U                delete to the end/start of the line
 *	Ctrl-W                        delete the word before the cursor
 *	Up/Down, Ctrl-P/Ctrl-N        walk the history
 *	Ctrl-C                        abandon the line
 *	Ctrl-L                        redraw the line
 *
 * Home, End and Delete arrive as several escape sequences depending on the
 * terminal (ESC [ H, ESC [ 1 ~, ESC [ 7 ~, ESC O H; ESC [ 3 ~ ...): all are
 * understood, and any other sequence is swallowed whole rather than
 * inserted as text.
 */
#ifndef PAGODA_LINE_EDIT_H
#define PAGODA_LINE_EDIT_H

#include <pagoda/types.h>

#define LINE_EDIT_MAX 256	/* bytes, with the NUL: 255 characters */
#define LINE_EDIT_HISTORY 16

struct line_history {
	char lines[LINE_EDIT_HISTORY][LINE_EDIT_MAX];
	unsigned int count;	/* lines ever added; the newest is count - 1 */
};

enum line_edit_status {
	LINE_EDIT_MORE,		/* keep feeding keys */
	LINE_EDIT_DONE,		/* Enter: the line is in buf */
	LINE_EDIT_CANCEL,	/* Ctrl-C: buf is empty */
	LINE_EDIT_TOO_LONG,	/* Enter after input past the limit: buf holds the part kept */
};

struct line_edit {
	char buf[LINE_EDIT_MAX];
	unsigned int len;	/* characters in buf */
	unsigned int pos;	/* the cursor, 0..len */
	unsigned int shown;	/* characters of the line now on the screen */
	unsigned int cursor;	/* where the terminal's cursor is, as an index into buf */
	unsigned int cols;	/* terminal width */
	const char *prompt;
	unsigned int prompt_len;
	bool overflow;		/* input was refused for want of room */
	/* Escape-sequence state: 0, after ESC, in ESC [ (CSI) or in ESC O (SS3). */
	u8 esc;
	unsigned int esc_arg;
	struct line_history *hist;
	unsigned int hist_at;	/* the history line shown; hist->count = the line being typed */
	char scratch[LINE_EDIT_MAX]; /* the line being typed, while the history is shown */
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
	char out[128];		/* output gathered during one key */
	size_t out_len;
};

/* Set up for one line: print the prompt. hist may be NULL. */
void line_edit_begin(struct line_edit *le, const char *prompt, unsigned int cols,
		     struct line_history *hist,
		     void (*write)(void *ctx, const char *s, size_t n), void *ctx);
/* One input byte; returns an enum line_edit_status. */
int line_edit_key(struct line_edit *le, int c);
/* Add a line to the history (blank lines and repeats of the newest are not). */
void line_history_add(struct line_history *h, const char *line);

#endif
