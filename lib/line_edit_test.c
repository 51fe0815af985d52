// SPDX-License-Identifier: MIT
/*
 * The line editor, fed scripted keys. Each case checks the line it returns
 * and, through a small model of a VT100 screen (deferred wrap, relative
 * cursor motion, erase to end of screen), what the user would see: the
 * prompt and the line with nothing left over, the cursor on the right cell.
 */
#include <pagoda/ktest.h>
#include <pagoda/line_edit.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#define ROWS 12
#define COLS 20

struct screen {
	char cell[ROWS][COLS];
	int row, col;
	bool pending_wrap;	/* a character went into the last column */
	int esc;		/* 0, 1 after ESC, 2 in ESC [ */
	unsigned int arg;
	int bells;
	int bad;		/* sequences the model does not know */
};

static struct screen scr;
static struct line_edit le;
static struct line_history hist;

static void scroll_if_needed(struct screen *s)
{
	if (s->row < ROWS)
		return;
	memmove(s->cell[0], s->cell[1], sizeof(s->cell[0]) * (ROWS - 1));
	memset(s->cell[ROWS - 1], ' ', COLS);
	s->row = ROWS - 1;
}

static void put(struct screen *s, char c)
{
	if (s->pending_wrap) {
		s->row++;
		s->col = 0;
		s->pending_wrap = false;
		scroll_if_needed(s);
	}
	s->cell[s->row][s->col] = c;
	if (s->col == COLS - 1)
		s->pending_wrap = true;
	else
		s->col++;
}

static void csi(struct screen *s, char code)
{
	unsigned int n = s->arg ? s->arg : 1;

	s->pending_wrap = false;
	switch (code) {
	case 'A': s->row = s->row >= (int)n ? s->row - (int)n : 0; break;
	case 'B': s->row = MIN(s->row + (int)n, ROWS - 1); break;
	case 'C': s->col = MIN(s->col + (int)n, COLS - 1); break;
	case 'D': s->col = s->col >= (int)n ? s->col - (int)n : 0; break;
	case 'J':
		memset(&s->cell[s->row][s->col], ' ', COLS - s->col);
		for (int r = s->row + 1; r < ROWS; r++)
			memset(s->cell[r], ' ', COLS);
		break;
	default: s->bad++; break;
	}
}

static void term_write(void *ctx, const char *p, size_t n)
{
	struct screen *s = ctx;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (s->esc == 1) {
			s->esc = c == '[' ? 2 : 0;
			s->arg = 0;
			if (c != '[')
				s->bad++;
			continue;
		}
		if (s->esc == 2) {
			if (isdigit(c)) {
				s->arg = s->arg * 10 + (c - '0');
			} else {
				s->esc = 0;
				csi(s, c);
			}
			continue;
		}
		switch (c) {
		case '\033': s->esc = 1; break;
		case '\a': s->bells++; break;
		case '\r': s->col = 0; s->pending_wrap = false; break;
		case '\n': /* the console driver sends CR LF */
			s->col = 0;
			s->pending_wrap = false;
			s->row++;
			scroll_if_needed(s);
			break;
		case '\b': if (s->col) s->col--; s->pending_wrap = false; break;
		default:
			if (isprint(c))
				put(s, c);
			else
				s->bad++;
		}
	}
}

/* A blank screen and a new line (the history stays). */
static void restart(void)
{
	memset(&scr, 0, sizeof(scr));
	memset(scr.cell, ' ', sizeof(scr.cell));
	line_edit_begin(&le, "> ", COLS, &hist, term_write, &scr);
}

static int reset(struct ktest *t)
{
	memset(&hist, 0, sizeof(hist));
	restart();
	return 0;
}

/* Feed a string of keys; returns the status after the last. */
static int keys(const char *s)
{
	int st = LINE_EDIT_MORE;

	while (*s)
		st = line_edit_key(&le, (unsigned char)*s++);
	return st;
}

/*
 * The screen from the prompt's row on must read prompt+line, blank after;
 * the cursor must sit on the cell of le.pos.
 */
static void check_screen(struct ktest *t, int prompt_row)
{
	char want[ROWS * COLS + 1];
	int n = snprintf(want, sizeof(want), "> %.*s", (int)le.len, le.buf);
	int at = 2 + (int)le.pos;

	for (int i = 0; i < (ROWS - prompt_row) * COLS; i++) {
		char c = scr.cell[prompt_row + i / COLS][i % COLS];
		char w = i < n ? want[i] : ' ';

		if (c != w) {
			ktest_fail(t, __FILE__, __LINE__, "cell %d shows '%c', want '%c'", i, c, w);
			return;
		}
	}
	KEXPECT_EQ(t, scr.row, prompt_row + at / COLS);
	KEXPECT_EQ(t, scr.col, at % COLS);
	KEXPECT_FALSE(t, scr.pending_wrap);
	KEXPECT_EQ(t, scr.bad, 0);
}

static void test_typing_and_enter(struct ktest *t)
{
	KEXPECT_EQ(t, keys("help"), LINE_EDIT_MORE);
	check_screen(t, 0);
	KEXPECT_EQ(t, keys("\r"), LINE_EDIT_DONE);
	KEXPECT_STREQ(t, le.buf, "help");
	KEXPECT_EQ(t, scr.row, 1);
}

static void test_cursor_keys_insert_in_middle(struct ktest *t)
{
	keys("hep");
	keys("\033[D");		/* Left */
	keys("l");
	KEXPECT_STREQ(t, (le.buf[le.len] = 0, le.buf), "help");
	KEXPECT_EQ(t, le.pos, 3);
	check_screen(t, 0);
	keys("\033[C\033[C");	/* Right twice: stops at the end */
	KEXPECT_EQ(t, le.pos, 4);
	keys("\002\002\006");	/* Ctrl-B Ctrl-B Ctrl-F */
	KEXPECT_EQ(t, le.pos, 3);
	check_screen(t, 0);
}

static void test_home_end_variants(struct ktest *t)
{
	static const char *const home[] = { "\033[H", "\033[1~", "\033[7~", "\033OH", "\001" };
	static const char *const end[] = { "\033[F", "\033[4~", "\033[8~", "\033OF", "\005" };

	keys("abcdef");
	for (size_t i = 0; i < ARRAY_SIZE(home); i++) {
		keys(home[i]);
		KEXPECT_EQ(t, le.pos, 0);
		check_screen(t, 0);
		keys(end[i]);
		KEXPECT_EQ(t, le.pos, 6);
		check_screen(t, 0);
	}
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "abcdef");	/* no '~' or 'H' slipped in */
}

static void test_delete_keys(struct ktest *t)
{
	keys("abcdef\001");
	keys("\033[3~");	/* Delete under the cursor */
	keys("\004");		/* Ctrl-D likewise */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "cdef");
	keys("\005\177");	/* End, Backspace */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "cde");
	keys("\033[3~");	/* Delete at the end: nothing */
	KEXPECT_EQ(t, le.len, 3);
	check_screen(t, 0);
}

static void test_kill_keys(struct ktest *t)
{
	keys("memory online 64M\033[D\033[D");
	keys("\013");		/* Ctrl-K: to the end */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "memory online 6");
	keys("\027");		/* Ctrl-W: the word before */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "memory online ");
	keys("\027");		/* spaces, then the word */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "memory ");
	keys("x\001\006\006\025");	/* Ctrl-U: to the start */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "mory x");
	KEXPECT_EQ(t, le.pos, 0);
	check_screen(t, 0);
}

static void test_unknown_sequences_swallowed(struct ktest *t)
{
	/* F1 (SS3 P), F5 (CSI 15~), Ctrl-F1 (CSI 1;5P), PageUp (CSI 5~). */
	keys("ab\033OP\033[15~\033[1;5P\033[5~c");
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "abc");
	check_screen(t, 0);
}

static void test_ctrl_c_cancels(struct ktest *t)
{
	keys("reboot");
	KEXPECT_EQ(t, keys("\003"), LINE_EDIT_CANCEL);
	KEXPECT_EQ(t, le.len, 0);
	KEXPECT_STREQ(t, le.buf, "");
}

static void test_history_walk_keeps_typed_line(struct ktest *t)
{
	line_history_add(&hist, "meminfo");
	line_history_add(&hist, "meminfo");	/* a repeat is not kept twice */
	line_history_add(&hist, "   ");		/* nor a blank line */
	line_history_add(&hist, "ps");
	KEXPECT_EQ(t, hist.count, 2);
	restart();
	keys("draft");
	keys("\033[A");
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "ps");
	check_screen(t, 0);
	keys("\020\020");	/* Ctrl-P twice: the oldest, then no further */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "meminfo");
	keys("\033[B\033[B");
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "draft");
	check_screen(t, 0);
	keys("\033[B");		/* past the newest: nothing changes */
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "draft");
}

static void test_history_keeps_the_newest(struct ktest *t)
{
	char line[8];

	for (int i = 0; i < LINE_EDIT_HISTORY + 5; i++) {
		snprintf(line, sizeof(line), "c%d", i);
		line_history_add(&hist, line);
	}
	restart();
	for (int i = 0; i < LINE_EDIT_HISTORY + 5; i++)
		keys("\033[A");
	le.buf[le.len] = 0;
	snprintf(line, sizeof(line), "c%d", 5);
	KEXPECT_STREQ(t, le.buf, line);
}

/*
 * A history line three rows long replaces a short one, a short one replaces
 * it, and editing in its middle: the screen holds exactly the line each time.
 */
static void test_wide_line_redraws_cleanly(struct ktest *t)
{
	char longline[60];

	for (size_t i = 0; i < sizeof(longline) - 1; i++)
		longline[i] = 'a' + i % 26;
	longline[sizeof(longline) - 1] = '\0';
	line_history_add(&hist, "ps");
	line_history_add(&hist, longline);
	restart();
	keys("x");
	keys("\033[A");
	check_screen(t, 0);
	KEXPECT_EQ(t, le.len, 59);
	keys("\001");		/* Home: up two rows */
	check_screen(t, 0);
	keys("\033[C\033[C\033[CXY");
	check_screen(t, 0);
	keys("\033[A");		/* the short one: the rows below are cleared */
	check_screen(t, 0);
	keys("\033[B\033[B");	/* back down to the typed "x" */
	check_screen(t, 0);
	le.buf[le.len] = 0;
	KEXPECT_STREQ(t, le.buf, "x");
}

/* A line ending exactly at the right margin leaves the cursor on the next row. */
static void test_exact_width(struct ktest *t)
{
	keys("123456789012345678");	/* 2 + 18 = one full row */
	check_screen(t, 0);
	KEXPECT_EQ(t, scr.row, 1);
	keys("\177");
	check_screen(t, 0);
	keys("9z");
	check_screen(t, 0);
}

static void test_too_long_refused(struct ktest *t)
{
	for (int i = 0; i < LINE_EDIT_MAX + 10; i++)
		keys("w");
	KEXPECT_EQ(t, le.len, LINE_EDIT_MAX - 1);
	KEXPECT_EQ(t, scr.bells, 1);
	KEXPECT_EQ(t, keys("\r"), LINE_EDIT_TOO_LONG);
	KEXPECT_EQ(t, strlen(le.buf), LINE_EDIT_MAX - 1);
}

static void test_redraw_on_fresh_row(struct ktest *t)
{
	keys("abc\014");	/* Ctrl-L */
	check_screen(t, 1);
}

static struct ktest_case line_edit_cases[] = {
	KTEST_CASE(test_typing_and_enter),
	KTEST_CASE(test_cursor_keys_insert_in_middle),
	KTEST_CASE(test_home_end_variants),
	KTEST_CASE(test_delete_keys),
	KTEST_CASE(test_kill_keys),
	KTEST_CASE(test_unknown_sequences_swallowed),
	KTEST_CASE(test_ctrl_c_cancels),
	KTEST_CASE(test_history_walk_keeps_typed_line),
	KTEST_CASE(test_history_keeps_the_newest),
	KTEST_CASE(test_wide_line_redraws_cleanly),
	KTEST_CASE(test_exact_width),
	KTEST_CASE(test_too_long_refused),
	KTEST_CASE(test_redraw_on_fresh_row),
	{}
};
KTEST_SUITE_FULL(line_edit, .cases = line_edit_cases, .init = reset);
