// SPDX-License-Identifier: MIT
/*
 * The shell's line editor (<pagoda/line_edit.h>).
 *
 * The screen is drawn with relative cursor motion only (ESC [ n A/B/C/D and
 * ESC [ J, which every VT100 descendant knows), so it needs no cursor
 * position report from the terminal, only its width. A line wider than the
 * terminal wraps onto several rows; every cursor move is computed from the
 * row and column of a cell counted from the prompt's first character, which
 * is why a long history line redraws in place instead of leaving copies of
 * itself as "\b \b" erasing did (a backspace does not climb to the row
 * above).
 *
 * One trap: after a character lands in a row's last column, a VT100 keeps
 * the cursor on that column ("pending wrap") until the next character, while
 * simpler terminals wrap at once. Writing a space and a carriage return
 * leaves both kinds at the start of the next row, so the cursor is always
 * where the arithmetic says.
 */
#include <pagoda/line_edit.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#define CTRL(c) ((c) & 0x1f)
#define ESC 0x1b

/* ESC_CSI_REST: past the first number of ESC [ a ; b ..., waiting for the end. */
enum { ESC_NONE, ESC_SEEN, ESC_CSI, ESC_CSI_REST, ESC_SS3 };

static void flush(struct line_edit *le)
{
	if (le->out_len)
		le->write(le->ctx, le->out, le->out_len);
	le->out_len = 0;
}

static void emit(struct line_edit *le, const char *s, size_t n)
{
	while (n) {
		size_t room = sizeof(le->out) - le->out_len;
		size_t k = n < room ? n : room;

		memcpy(le->out + le->out_len, s, k);
		le->out_len += k;
		s += k;
		n -= k;
		if (le->out_len == sizeof(le->out))
			flush(le);
	}
}

static void emit_str(struct line_edit *le, const char *s)
{
	emit(le, s, strlen(s));
}

/* ESC [ n <code>, the cursor-motion sequences. */
static void emit_move(struct line_edit *le, unsigned int n, char code)
{
	char seq[16];
	int len;

	if (!n)
		return;
	len = snprintf(seq, sizeof(seq), "\033[%u%c", n, code);
	emit(le, seq, len);
}

/* Put the terminal's cursor on the cell of buf[i]. */
static void move_to(struct line_edit *le, unsigned int i)
{
	unsigned int from = le->prompt_len + le->cursor, to = le->prompt_len + i;
	unsigned int fr = from / le->cols, fc = from % le->cols;
	unsigned int tr = to / le->cols, tc = to % le->cols;

	if (tr < fr)
		emit_move(le, fr - tr, 'A');
	else if (tr > fr)
		emit_move(le, tr - fr, 'B');
	if (tc < fc)
		emit_move(le, fc - tc, 'D');
	else if (tc > fc)
		emit_move(le, tc - fc, 'C');
	le->cursor = i;
}

/*
 * The line changed from buf[from] on: rewrite that part, clear what is left
 * of a longer old line, and put the cursor back at pos.
 */
static void redraw_from(struct line_edit *le, unsigned int from)
{
	unsigned int row = (le->prompt_len + le->cursor) / le->cols;

	/*
	 * Backspace at the end of a row: the "\b \b" every terminal, even a
	 * dumb one, understands.
	 */
	if (from == le->len && le->cursor == le->shown && le->shown > le->len &&
	    (le->prompt_len + from) / le->cols == row) {
		unsigned int n = le->shown - le->len;

		for (unsigned int i = 0; i < n; i++)
			emit_str(le, "\b");
		for (unsigned int i = 0; i < n; i++)
			emit_str(le, " ");
		for (unsigned int i = 0; i < n; i++)
			emit_str(le, "\b");
		le->cursor = le->shown = le->len;
		move_to(le, le->pos);
		return;
	}
	move_to(le, from);
	if (le->shown > le->len)
		emit_str(le, "\033[J");
	if (from < le->len) {
		emit(le, le->buf + from, le->len - from);
		if ((le->prompt_len + le->len) % le->cols == 0)
			emit_str(le, " \r");
	}
	le->cursor = le->len;
	le->shown = le->len;
	move_to(le, le->pos);
}

/* The prompt and the whole line again, on the row the cursor is on. */
static void reprint(struct line_edit *le)
{
	emit_str(le, le->prompt);
	if (le->prompt_len && le->prompt_len % le->cols == 0)
		emit_str(le, " \r");
	le->cursor = 0;
	le->shown = 0;
	redraw_from(le, 0);
}

void line_edit_begin(struct line_edit *le, const char *prompt, unsigned int cols,
		     struct line_history *hist,
		     void (*write)(void *ctx, const char *s, size_t n), void *ctx)
{
	memset(le, 0, sizeof(*le));
	le->prompt = prompt;
	le->prompt_len = strlen(prompt);
	le->cols = cols >= 2 ? cols : 80;
	le->hist = hist;
	le->hist_at = hist ? hist->count : 0;
	le->write = write;
	le->ctx = ctx;
	reprint(le);
	flush(le);
}

static void insert(struct line_edit *le, char c)
{
	unsigned int at = le->pos;

	if (le->len + 1 >= LINE_EDIT_MAX) {
		/* Refused, not cut: Enter will say so. The bell says it now. */
		if (!le->overflow)
			emit_str(le, "\a");
		le->overflow = true;
		return;
	}
	memmove(le->buf + at + 1, le->buf + at, le->len - at);
	le->buf[at] = c;
	le->len++;
	le->pos++;
	redraw_from(le, at);
}

/* Remove buf[from, to). */
static void delete_range(struct line_edit *le, unsigned int from, unsigned int to)
{
	if (from >= to)
		return;
	memmove(le->buf + from, le->buf + to, le->len - to);
	le->len -= to - from;
	le->pos = from;
	redraw_from(le, from);
}

static void set_line(struct line_edit *le, const char *s)
{
	le->len = strlcpy(le->buf, s, sizeof(le->buf));
	if (le->len >= sizeof(le->buf))
		le->len = sizeof(le->buf) - 1;
	le->pos = le->len;
	redraw_from(le, 0);
}

/* dir -1: older, +1: newer. The line being typed is kept in scratch. */
static void history_walk(struct line_edit *le, int dir)
{
	struct line_history *h = le->hist;
	unsigned int oldest;

	if (!h)
		return;
	oldest = h->count > LINE_EDIT_HISTORY ? h->count - LINE_EDIT_HISTORY : 0;
	if (dir < 0 && le->hist_at > oldest) {
		if (le->hist_at == h->count) {
			le->buf[le->len] = '\0';
			strlcpy(le->scratch, le->buf, sizeof(le->scratch));
		}
		le->hist_at--;
	} else if (dir > 0 && le->hist_at < h->count) {
		le->hist_at++;
	} else {
		return;
	}
	set_line(le, le->hist_at == h->count ? le->scratch
					     : h->lines[le->hist_at % LINE_EDIT_HISTORY]);
}

static unsigned int word_start(const struct line_edit *le)
{
	unsigned int i = le->pos;

	while (i && le->buf[i - 1] == ' ')
		i--;
	while (i && le->buf[i - 1] != ' ')
		i--;
	return i;
}

static void move_cursor(struct line_edit *le, unsigned int to)
{
	le->pos = to;
	move_to(le, to);
}

static int finish(struct line_edit *le, int status)
{
	move_to(le, le->len);
	emit_str(le, status == LINE_EDIT_CANCEL ? "^C\n" : "\n");
	le->buf[le->len] = '\0';
	if (status == LINE_EDIT_CANCEL) {
		le->len = le->pos = 0;
		le->buf[0] = '\0';
	}
	return status;
}

/* The final byte of ESC [ ... or ESC O ... : what key was it? */
static void escape_key(struct line_edit *le, int c)
{
	unsigned int arg = le->esc_arg;

	switch (c) {
	case 'A': history_walk(le, -1); break;
	case 'B': history_walk(le, 1); break;
	case 'C': if (le->pos < le->len) move_cursor(le, le->pos + 1); break;
	case 'D': if (le->pos) move_cursor(le, le->pos - 1); break;
	case 'H': move_cursor(le, 0); break;
	case 'F': move_cursor(le, le->len); break;
	case '~':
		/* VT220 editing keys: 1/7 Home, 4/8 End, 3 Delete. */
		if (arg == 1 || arg == 7)
			move_cursor(le, 0);
		else if (arg == 4 || arg == 8)
			move_cursor(le, le->len);
		else if (arg == 3)
			delete_range(le, le->pos, MIN(le->pos + 1, le->len));
		break;
	default:
		break; /* a key we do not use: swallowed, never inserted */
	}
}

static int key(struct line_edit *le, int c)
{
	switch (le->esc) {
	case ESC_SEEN:
		le->esc = c == '[' ? ESC_CSI : c == 'O' ? ESC_SS3 : ESC_NONE;
		le->esc_arg = 0;
		return LINE_EDIT_MORE;
	case ESC_CSI:
		/* Parameters and intermediates until a final byte 0x40..0x7e. */
		if (isdigit(c)) {
			if (le->esc_arg < 1000)
				le->esc_arg = le->esc_arg * 10 + (c - '0');
			return LINE_EDIT_MORE;
		}
		if (c >= 0x20 && c < 0x40) {
			/* ESC [ 1 ; 5 C and the like: the key is in the first number. */
			if (c == ';')
				le->esc = ESC_CSI_REST;
			return LINE_EDIT_MORE;
		}
		le->esc = ESC_NONE;
		escape_key(le, c);
		return LINE_EDIT_MORE;
	case ESC_CSI_REST:
		if (c >= 0x20 && c < 0x40)
			return LINE_EDIT_MORE;
		le->esc = ESC_NONE;
		escape_key(le, c);
		return LINE_EDIT_MORE;
	case ESC_SS3:
		le->esc = ESC_NONE;
		le->esc_arg = 0;
		escape_key(le, c);
		return LINE_EDIT_MORE;
	}

	switch (c) {
	case '\r':
	case '\n':
		return finish(le, le->overflow ? LINE_EDIT_TOO_LONG : LINE_EDIT_DONE);
	case CTRL('C'):
		return finish(le, LINE_EDIT_CANCEL);
	case ESC:
		le->esc = ESC_SEEN;
		break;
	case 0x7f:
	case CTRL('H'):
		if (le->pos)
			delete_range(le, le->pos - 1, le->pos);
		break;
	case CTRL('D'):
		delete_range(le, le->pos, MIN(le->pos + 1, le->len));
		break;
	case CTRL('A'):
		move_cursor(le, 0);
		break;
	case CTRL('E'):
		move_cursor(le, le->len);
		break;
	case CTRL('B'):
		if (le->pos)
			move_cursor(le, le->pos - 1);
		break;
	case CTRL('F'):
		if (le->pos < le->len)
			move_cursor(le, le->pos + 1);
		break;
	case CTRL('K'):
		delete_range(le, le->pos, le->len);
		break;
	case CTRL('U'):
		delete_range(le, 0, le->pos);
		break;
	case CTRL('W'):
		delete_range(le, word_start(le), le->pos);
		break;
	case CTRL('P'):
		history_walk(le, -1);
		break;
	case CTRL('N'):
		history_walk(le, 1);
		break;
	case CTRL('L'):
		move_to(le, le->len);
		emit_str(le, "\n");
		reprint(le);
		break;
	case '\t':
		insert(le, ' ');
		break;
	default:
		if (isprint(c))
			insert(le, (char)c);
		break;
	}
	return LINE_EDIT_MORE;
}

int line_edit_key(struct line_edit *le, int c)
{
	int status = key(le, c);

	flush(le);
	return status;
}

void line_history_add(struct line_history *h, const char *line)
{
	if (!*skip_spaces(line))
		return;
	if (h->count && !strcmp(h->lines[(h->count - 1) % LINE_EDIT_HISTORY], line))
		return;
	strlcpy(h->lines[h->count % LINE_EDIT_HISTORY], line, LINE_EDIT_MAX);
	h->count++;
}
