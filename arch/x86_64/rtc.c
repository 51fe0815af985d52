// SPDX-License-Identifier: MIT
/*
 * The CMOS real-time clock (MC146818): the date at boot, for
 * CLOCK_REALTIME. Registers may be BCD or binary and 12- or 24-hour
 * (status register B says which); a read is retried until two in a row
 * agree, so an update in the middle cannot give a torn time.
 */
#include <pagoda/arch.h>
#include <asm/x86.h>

static u8 cmos(u8 reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

struct rtc_time {
	u8 sec, min, hour, day, mon, year, century;
};

static void read_raw(struct rtc_time *t)
{
	while (cmos(0x0a) & 0x80) /* update in progress */
		arch_cpu_relax();
	t->sec = cmos(0x00);
	t->min = cmos(0x02);
	t->hour = cmos(0x04);
	t->day = cmos(0x07);
	t->mon = cmos(0x08);
	t->year = cmos(0x09);
	t->century = cmos(0x32);
}

static unsigned int bcd(u8 v) { return (v & 15) + (v >> 4) * 10; }

/* Days since 1970-01-01 of a civil date (Hinnant's algorithm, as facts). */
static s64 days_from_civil(s64 y, unsigned int m, unsigned int d)
{
	s64 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

s64 arch_rtc_read_seconds(void)
{
	struct rtc_time a, b;
	u8 regb;
	unsigned int sec, min, hour, day, mon, year;
	bool pm;

	for (int tries = 0;; tries++) {
		read_raw(&a);
		read_raw(&b);
		if (!__builtin_memcmp(&a, &b, sizeof(a)))
			break;
		if (tries == 5)
			return -EIO;
	}
	regb = cmos(0x0b);
	pm = a.hour & 0x80;
	a.hour &= 0x7f;
	if (!(regb & 0x04)) { /* BCD */
		sec = bcd(a.sec); min = bcd(a.min); hour = bcd(a.hour);
		day = bcd(a.day); mon = bcd(a.mon); year = bcd(a.year);
		a.century = (u8)bcd(a.century);
	} else {
		sec = a.sec; min = a.min; hour = a.hour;
		day = a.day; mon = a.mon; year = a.year;
	}
	if (!(regb & 0x02) && pm) /* 12-hour clock */
		hour = (hour % 12) + 12;
	year += (a.century >= 19 && a.century <= 30) ? a.century * 100u : 2000u;
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60)
		return -EIO;
	return days_from_civil(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
}
