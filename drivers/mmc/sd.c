// SPDX-License-Identifier: MIT
/*
 * The SD card protocol (SD Physical Layer Simplified Specification), from
 * power-up to data transfer:
 *
 *   CMD0            every card to idle
 *   CMD8  0x1aa     "I supply 2.7-3.6 V": a version 2.00 card echoes it
 *   ACMD41          (CMD55 first) repeated until the card says it is ready;
 *                   HCS asks for high capacity, CCS in the answer grants it
 *   CMD2, CMD3      the card's identity (CID), then its relative address
 *   CMD9            the CSD: how big it is
 *   CMD7            select it: from now on it takes data commands
 *   ACMD6           a 4-bit bus (the host is switched to match)
 *   CMD6            switch function group 1 to high speed (50 MHz), when
 *                   the card's 64-byte status says it has it
 *   CMD16 512       block length, for standard-capacity cards
 *
 * Each step that fails stops the bring-up with a message; a card that does
 * not answer CMD8 is a version 1 card, which takes byte addresses.
 */
#include <pagoda/mm.h>
#include <pagoda/mmc.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

#define SD_OCR_CCS (1u << 30)
#define SD_OCR_BUSY (1u << 31)	/* set when power-up is done */
#define SD_OCR_VDD_27_36 0x00ff8000u

static int cmd(struct mmc_host *h, u32 opcode, u32 arg, unsigned int flags, u32 *resp)
{
	struct mmc_command c = { .opcode = opcode, .arg = arg, .flags = flags };
	int err = mmc_wait_for_cmd(h, &c);

	if (!err && resp)
		memcpy(resp, c.resp, flags == MMC_RSP_R2 ? 16 : 4);
	return err;
}

static int app_cmd(struct mmc_host *h, u32 opcode, u32 arg, unsigned int flags, u32 *resp)
{
	int err = cmd(h, 55, h->card.rca << 16, MMC_RSP_R1, NULL);

	return err ? err : cmd(h, opcode, arg, flags, resp);
}

/* Bits [start, start + len) of a 128-bit register held as resp[0..3], MSB first. */
static u32 bits(const u32 *r, unsigned int start, unsigned int len)
{
	unsigned int word = 3 - start / 32, shift = start % 32;
	u64 v = r[word] >> shift;

	if (shift + len > 32)
		v |= (u64)r[word - 1] << (32 - shift);
	return (u32)(v & ((1ULL << len) - 1));
}

static int decode_csd(struct mmc_card *card)
{
	const u32 *csd = card->csd;

	switch (bits(csd, 126, 2)) {
	case 0: {
		/* Version 1.0: (C_SIZE + 1) * 2^(C_SIZE_MULT + 2) blocks of 2^READ_BL_LEN. */
		u64 blocks = (u64)(bits(csd, 62, 12) + 1) << (bits(csd, 47, 3) + 2);

		card->sectors = (blocks << bits(csd, 80, 4)) >> 9;
		return 0;
	}
	case 1:
		/* Version 2.0 (SDHC/SDXC): (C_SIZE + 1) * 512 KiB. */
		card->sectors = (u64)(bits(csd, 48, 22) + 1) << 10;
		return 0;
	default:
		return -EINVAL;
	}
}

/* CMD6: query (mode 0) or set (mode 1) function 1 of group 1: high speed. */
static int switch_high_speed(struct mmc_host *h, bool set, u8 *status)
{
	struct scatterlist sg;
	struct mmc_data d = { .blksz = 64, .blocks = 1, .sg = &sg, .sg_len = 1 };
	struct mmc_command c = { .opcode = 6, .flags = MMC_RSP_R1, .data = &d };

	c.arg = (set ? 1u << 31 : 0) | 0x00fffff1;
	sg_init_table(&sg, 1);
	sg_set_buf(&sg, status, 64);
	return mmc_wait_for_cmd(h, &c);
}

int mmc_sd_init_card(struct mmc_host *h)
{
	struct mmc_card *card = &h->card;
	u32 r[4], ocr = 0;
	bool v2;
	u64 end;
	u8 *status;
	int err;

	memset(card, 0, sizeof(*card));
	cmd(h, 0, 0, MMC_RSP_NONE, NULL);
	v2 = !cmd(h, 8, 0x1aa, MMC_RSP_R7, r);
	if (v2 && (r[0] & 0xfff) != 0x1aa) {
		pr_warn("%s: CMD8 echoed %#x, not 0x1aa: unusable card\n", h->name, r[0]);
		return -EIO;
	}
	/* ACMD41 until the card finishes powering up (the spec allows 1 s). */
	end = ktime_get_ns() + 1000000000ULL;
	do {
		err = app_cmd(h, 41, SD_OCR_VDD_27_36 | (v2 ? SD_OCR_CCS : 0), MMC_RSP_R3, &ocr);
		if (err == -ETIMEDOUT) {
			/* No answer at all: an empty slot (its card-detect may still say present). */
			pr_info("%s: no card answers: the slot is empty\n", h->name);
			return -ENODEV;
		}
		if (err) {
			pr_warn("%s: ACMD41 failed (%d): not an SD card?\n", h->name, err);
			return err;
		}
		if (ocr & SD_OCR_BUSY)
			break;
		udelay(1000);
	} while (ktime_get_ns() < end);
	if (!(ocr & SD_OCR_BUSY)) {
		pr_warn("%s: card never finished powering up (OCR %#x)\n", h->name, ocr);
		return -ETIMEDOUT;
	}
	card->ocr = ocr;
	card->high_capacity = v2 && (ocr & SD_OCR_CCS);
	if ((err = cmd(h, 2, 0, MMC_RSP_R2, card->cid)) ||
	    (err = cmd(h, 3, 0, MMC_RSP_R6, r)))
		return err;
	card->rca = r[0] >> 16;
	if ((err = cmd(h, 9, card->rca << 16, MMC_RSP_R2, card->csd)))
		return err;
	if (decode_csd(card)) {
		pr_warn("%s: unknown CSD structure %u\n", h->name, bits(card->csd, 126, 2));
		return -EINVAL;
	}
	for (int i = 0; i < 5; i++) /* PNM: CID bits 103:64, five characters */
		card->name[i] = (char)bits(card->cid, 96 - 8 * i, 8);
	if ((err = cmd(h, 7, card->rca << 16, MMC_RSP_R1B, NULL)))
		return err;
	sdhci_set_clock(h, 25000000);

	card->bus_width = 1;
	if (!app_cmd(h, 6, 2, MMC_RSP_R1, NULL)) {
		sdhci_set_bus_width(h, 4);
		card->bus_width = 4;
	}
	status = kmalloc(64, GFP_KERNEL);
	if (status && !switch_high_speed(h, false, status) && (status[13] & 0x02) &&
	    !switch_high_speed(h, true, status) && (status[16] & 0x0f) == 1) {
		card->high_speed = true;
		sdhci_set_high_speed(h, true);
		sdhci_set_clock(h, 50000000);
	}
	kfree(status);
	if (!card->high_capacity && (err = cmd(h, 16, 512, MMC_RSP_R1, NULL)))
		return err;
	pr_info("%s: SD%s card %.5s, %llu MiB, %u-bit bus, %s at %u kHz\n", h->name,
		card->high_capacity ? "HC" : "SC", card->name,
		(unsigned long long)(card->sectors >> 11), card->bus_width,
		card->high_speed ? "high speed" : "default speed", h->clock / 1000);
	return 0;
}
