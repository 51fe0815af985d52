// SPDX-License-Identifier: MIT
/*
 * The SD Host Controller (SDHCI, SD Association's Host Controller Simplified
 * Specification 3.00): one register layout shared by the Pi 4's EMMC2 and
 * Arasan controllers and by QEMU's sdhci-pci.
 *
 * A command is written as argument, then transfer mode and command index
 * together; the host answers with interrupt status bits: command complete
 * (the response is in the response registers), buffer read/write ready
 * (PIO: move one block through the 32-bit data port), transfer complete,
 * or an error. ADMA2 instead walks a table of (address, length)
 * descriptors made from the DMA API's mappings and only says "complete".
 * One state machine, sdhci_process(), serves both the interrupt handler
 * and the polling loop used while the card is brought up.
 *
 * Every register is accessed as an aligned 32-bit word: the Pi's Broadcom
 * hosts drop 8- and 16-bit writes, and the transfer mode register must be
 * written together with the command register anyway (writing the command
 * half is what starts the command).
 */
#include <pagoda/arch.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/io.h>
#include <pagoda/irq.h>
#include <pagoda/mm.h>
#include <pagoda/mmc.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

#define SDHCI_DMA_ADDRESS 0x00
#define SDHCI_BLOCK_SIZE 0x04	/* and BLOCK_COUNT at 0x06 */
#define SDHCI_ARGUMENT 0x08
#define SDHCI_TRANSFER_MODE 0x0c /* and COMMAND at 0x0e */
#define  SDHCI_TRNS_DMA 0x01
#define  SDHCI_TRNS_BLK_CNT_EN 0x02
#define  SDHCI_TRNS_AUTO_CMD12 0x04
#define  SDHCI_TRNS_READ 0x10
#define  SDHCI_TRNS_MULTI 0x20
#define  SDHCI_CMD_RESP_NONE 0x00
#define  SDHCI_CMD_RESP_LONG 0x01
#define  SDHCI_CMD_RESP_SHORT 0x02
#define  SDHCI_CMD_RESP_SHORT_BUSY 0x03
#define  SDHCI_CMD_CRC 0x08
#define  SDHCI_CMD_INDEX 0x10
#define  SDHCI_CMD_DATA 0x20
#define SDHCI_RESPONSE 0x10
#define SDHCI_BUFFER 0x20
#define SDHCI_PRESENT_STATE 0x24
#define  SDHCI_CMD_INHIBIT 0x00000001
#define  SDHCI_DATA_INHIBIT 0x00000002
#define  SDHCI_SPACE_AVAILABLE 0x00000400
#define  SDHCI_DATA_AVAILABLE 0x00000800
#define  SDHCI_CARD_PRESENT 0x00010000
#define SDHCI_HOST_CONTROL 0x28	/* and POWER_CONTROL 0x29 */
#define  SDHCI_CTRL_4BITBUS 0x02
#define  SDHCI_CTRL_HISPD 0x04
#define  SDHCI_CTRL_DMA_MASK 0x18
#define  SDHCI_CTRL_ADMA32 0x10
#define  SDHCI_POWER_ON 0x01
#define  SDHCI_POWER_330 0x0e
#define SDHCI_CLOCK_CONTROL 0x2c /* and TIMEOUT 0x2e, SOFTWARE_RESET 0x2f */
#define  SDHCI_CLOCK_INT_EN 0x0001
#define  SDHCI_CLOCK_INT_STABLE 0x0002
#define  SDHCI_CLOCK_CARD_EN 0x0004
#define  SDHCI_RESET_ALL 0x01
#define  SDHCI_RESET_CMD 0x02
#define  SDHCI_RESET_DATA 0x04
#define SDHCI_INT_STATUS 0x30	/* normal (low half) and error (high half) */
#define SDHCI_INT_ENABLE 0x34
#define SDHCI_SIGNAL_ENABLE 0x38
#define  SDHCI_INT_RESPONSE 0x00000001
#define  SDHCI_INT_DATA_END 0x00000002
#define  SDHCI_INT_DMA_END 0x00000008
#define  SDHCI_INT_SPACE_AVAIL 0x00000010
#define  SDHCI_INT_DATA_AVAIL 0x00000020
#define  SDHCI_INT_ERROR 0x00008000
#define  SDHCI_INT_TIMEOUT 0x00010000
#define  SDHCI_INT_DATA_TIMEOUT 0x00100000
#define  SDHCI_INT_ERROR_MASK 0x03ff0000
#define SDHCI_CAPABILITIES 0x40
#define  SDHCI_CAN_DO_ADMA2 0x00080000
#define  SDHCI_CAN_64BIT 0x10000000
#define SDHCI_ADMA_ERROR 0x54
#define SDHCI_ADMA_ADDRESS 0x58
#define SDHCI_HOST_VERSION 0xfc	/* high half */

#define SDHCI_INT_USED (SDHCI_INT_RESPONSE | SDHCI_INT_DATA_END | SDHCI_INT_SPACE_AVAIL | \
			SDHCI_INT_DATA_AVAIL | SDHCI_INT_ERROR_MASK)

/* ADMA2 32-bit descriptor attributes. */
#define ADMA2_VALID 0x1
#define ADMA2_END 0x2
#define ADMA2_TRAN 0x20
#define ADMA2_MAX_LEN 0x8000	/* stay below the 16-bit length field's wrap */
#define ADMA2_TABLE_SIZE PAGE_SIZE

struct adma2_desc {
	u16 attr;
	u16 len;
	u32 addr;
} __packed;

static u32 rd(struct mmc_host *h, unsigned int reg)
{
	return readl(h->ioaddr + reg);
}

static void wr(struct mmc_host *h, unsigned int reg, u32 v)
{
	writel(v, h->ioaddr + reg);
}

/* Change the byte at reg (within its word) by read-modify-write. */
static void wr8(struct mmc_host *h, unsigned int reg, u8 v)
{
	unsigned int shift = (reg & 3) * 8;
	u32 w = rd(h, reg & ~3u);

	w = (w & ~(0xffu << shift)) | (u32)v << shift;
	wr(h, reg & ~3u, w);
}

static u8 rd8(struct mmc_host *h, unsigned int reg)
{
	return (u8)(rd(h, reg & ~3u) >> ((reg & 3) * 8));
}

static int wait_bits_clear(struct mmc_host *h, unsigned int reg, u32 bits, u64 timeout_ns)
{
	u64 end = ktime_get_ns() + timeout_ns;

	while (rd(h, reg) & bits) {
		if (ktime_get_ns() > end)
			return -ETIMEDOUT;
		arch_cpu_relax();
	}
	return 0;
}

/* SOFTWARE_RESET is the top byte of the clock control word. */
static void sdhci_reset(struct mmc_host *h, u8 mask)
{
	wr8(h, SDHCI_CLOCK_CONTROL + 3, mask);
	if (wait_bits_clear(h, SDHCI_CLOCK_CONTROL, (u32)mask << 24, 100000000))
		pr_err("%s: reset %#x did not finish\n", h->name, mask);
}

void sdhci_set_clock(struct mmc_host *h, unsigned int hz)
{
	u32 w = rd(h, SDHCI_CLOCK_CONTROL) & 0xffff0000u, div;

	wr(h, SDHCI_CLOCK_CONTROL, w); /* clocks off while the divider changes */
	if (!hz)
		return;
	if (h->version >= 2) {
		/* 3.00: a 10-bit divisor N gives base / 2N (N = 0: base). */
		div = hz >= h->max_clk ? 0 : DIV_ROUND_UP(h->max_clk, 2 * hz);
		div = MIN(div, 1023u);
		h->clock = div ? h->max_clk / (2 * div) : h->max_clk;
	} else {
		/* 2.00: a power of two from 1 to 256, written halved. */
		unsigned int d = 1;

		while (d < 256 && h->max_clk / d > hz)
			d *= 2;
		h->clock = h->max_clk / d;
		div = d / 2;
	}
	w |= (div & 0xff) << 8 | ((div >> 8) & 3) << 6 | SDHCI_CLOCK_INT_EN;
	wr(h, SDHCI_CLOCK_CONTROL, w);
	{
		u64 end = ktime_get_ns() + 20000000;

		while (!(rd(h, SDHCI_CLOCK_CONTROL) & SDHCI_CLOCK_INT_STABLE)) {
			if (ktime_get_ns() > end) {
				pr_err("%s: internal clock never stable\n", h->name);
				return;
			}
			arch_cpu_relax();
		}
	}
	wr(h, SDHCI_CLOCK_CONTROL, rd(h, SDHCI_CLOCK_CONTROL) | SDHCI_CLOCK_CARD_EN);
}

void sdhci_set_bus_width(struct mmc_host *h, unsigned int width)
{
	u8 ctrl = rd8(h, SDHCI_HOST_CONTROL);

	wr8(h, SDHCI_HOST_CONTROL,
	    width == 4 ? ctrl | SDHCI_CTRL_4BITBUS : ctrl & ~SDHCI_CTRL_4BITBUS);
}

void sdhci_set_high_speed(struct mmc_host *h, bool on)
{
	u8 ctrl = rd8(h, SDHCI_HOST_CONTROL);

	wr8(h, SDHCI_HOST_CONTROL, on ? ctrl | SDHCI_CTRL_HISPD : ctrl & ~SDHCI_CTRL_HISPD);
}

/* ---- data ---- */

/* Move one 32-bit word between the data port and the scatterlist. */
static void pio_word(struct mmc_host *h, struct mmc_data *d)
{
	u32 word = d->write ? 0 : rd(h, SDHCI_BUFFER);

	for (unsigned int i = 0; i < 4; i++) {
		u8 *p;

		while (d->pio_sg && d->pio_off == d->pio_sg->length) {
			d->pio_sg = sg_next(d->pio_sg);
			d->pio_off = 0;
		}
		if (!d->pio_sg)
			break; /* the host asked for more than the request holds */
		p = (u8 *)sg_virt(d->pio_sg) + d->pio_off++;
		if (d->write)
			word |= (u32)*p << (8 * i);
		else
			*p = (u8)(word >> (8 * i));
	}
	if (d->write)
		wr(h, SDHCI_BUFFER, word);
	h->pio_words++;
}

/* Move as many whole blocks as the buffer has data (or room) for. */
static void pio_blocks(struct mmc_host *h, struct mmc_data *d)
{
	u32 ready = d->write ? SDHCI_SPACE_AVAILABLE : SDHCI_DATA_AVAILABLE;

	while (d->bytes_xfered < d->blksz * d->blocks && (rd(h, SDHCI_PRESENT_STATE) & ready)) {
		for (unsigned int i = 0; i < d->blksz / 4; i++)
			pio_word(h, d);
		d->bytes_xfered += d->blksz;
	}
}

static int adma_prepare(struct mmc_host *h, struct mmc_data *d)
{
	struct adma2_desc *desc = h->adma_table;
	struct scatterlist *sg;
	unsigned int n = 0;
	int nents, i;

	nents = dma_map_sg(&h->dev, d->sg, (int)d->sg_len,
			   d->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	if (!nents)
		return -ENOMEM;
	for_each_sg(d->sg, sg, nents, i) {
		dma_addr_t a = sg_dma_address(sg);
		unsigned int left = sg_dma_len(sg);

		/* 32-bit ADMA2: 4-byte aligned addresses below 4 GiB. */
		if ((a & 3) || a + left - 1 > U32_MAX)
			goto bad;
		while (left) {
			unsigned int len = MIN(left, (unsigned int)ADMA2_MAX_LEN);

			if (n == h->adma_entries)
				goto bad;
			desc[n].attr = ADMA2_VALID | ADMA2_TRAN;
			desc[n].len = (u16)len;
			desc[n].addr = (u32)a;
			n++;
			a += len;
			left -= len;
		}
	}
	desc[n - 1].attr |= ADMA2_END;
	/* The table must reach memory before the host starts walking it. */
	wmb();
	wr(h, SDHCI_ADMA_ADDRESS, (u32)h->adma_addr);
	h->adma_xfers++;
	return 0;
bad:
	dma_unmap_sg(&h->dev, d->sg, (int)d->sg_len, d->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	pr_err("%s: a transfer the 32-bit ADMA2 engine cannot describe\n", h->name);
	return -EINVAL;
}

/* ---- commands ---- */

static void finish(struct mmc_host *h)
{
	struct mmc_command *cmd = h->cmd;
	mmc_done_t done = h->done;

	if (cmd->data && h->use_adma)
		dma_unmap_sg(&h->dev, cmd->data->sg, (int)cmd->data->sg_len,
			     cmd->data->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	if (cmd->error || (cmd->data && cmd->data->error)) {
		h->errors++;
		/* Leave the command and data lines ready for the next one. */
		sdhci_reset(h, SDHCI_RESET_CMD | SDHCI_RESET_DATA);
	}
	h->cmd = NULL;
	done(h, cmd);
}

static int status_to_errno(u32 status)
{
	return status & (SDHCI_INT_TIMEOUT | SDHCI_INT_DATA_TIMEOUT) ? -ETIMEDOUT : -EIO;
}

static void read_response(struct mmc_host *h, struct mmc_command *cmd)
{
	if (cmd->flags == MMC_RSP_R2) {
		/* The host drops the CRC byte: bits 127:8 sit in 120 bits. */
		for (int i = 0; i < 4; i++) {
			unsigned int reg = SDHCI_RESPONSE + (3 - i) * 4;

			cmd->resp[i] = rd(h, reg) << 8;
			if (i != 3)
				cmd->resp[i] |= rd(h, reg - 4) >> 24;
		}
	} else if (cmd->flags != MMC_RSP_NONE) {
		cmd->resp[0] = rd(h, SDHCI_RESPONSE);
	}
}

/* The state machine: handle the status bits the host raised. */
static void sdhci_process(struct mmc_host *h, u32 status)
{
	struct mmc_command *cmd = h->cmd;
	struct mmc_data *d;

	if (!cmd)
		return;
	d = cmd->data;
	if (status & SDHCI_INT_ERROR_MASK) {
		if (status & (SDHCI_INT_TIMEOUT | 0x000f0000u))
			cmd->error = status_to_errno(status); /* command-phase error */
		else if (d)
			d->error = status_to_errno(status);
		else
			cmd->error = -EIO;
		if ((status >> 16) & 0x200)
			pr_err("%s: ADMA error %#x at %#x\n", h->name, rd(h, SDHCI_ADMA_ERROR),
			       rd(h, SDHCI_ADMA_ADDRESS));
		finish(h);
		return;
	}
	if (status & SDHCI_INT_RESPONSE) {
		read_response(h, cmd);
		h->cmd_done = true;
	}
	if (d && (status & (SDHCI_INT_DATA_AVAIL | SDHCI_INT_SPACE_AVAIL)))
		pio_blocks(h, d);
	if (status & SDHCI_INT_DATA_END) {
		h->data_done = true;
		if (d && !h->use_adma && d->bytes_xfered < d->blksz * d->blocks)
			pio_blocks(h, d); /* the last block's ready bit came with the end */
		if (d && h->use_adma)
			d->bytes_xfered = d->blksz * d->blocks;
	}
	if (h->cmd_done && (!d || h->data_done)) {
		if (d && d->bytes_xfered != d->blksz * d->blocks && !d->error)
			d->error = -EIO;
		finish(h);
	}
}

static u32 command_word(struct mmc_command *cmd)
{
	u32 c = cmd->opcode << 8;

	switch (cmd->flags) {
	case MMC_RSP_NONE:
		break;
	case MMC_RSP_R2:
		c |= SDHCI_CMD_RESP_LONG | SDHCI_CMD_CRC;
		break;
	case MMC_RSP_R3:
		c |= SDHCI_CMD_RESP_SHORT;
		break;
	case MMC_RSP_R1B:
		c |= SDHCI_CMD_RESP_SHORT_BUSY | SDHCI_CMD_CRC | SDHCI_CMD_INDEX;
		break;
	default:
		c |= SDHCI_CMD_RESP_SHORT | SDHCI_CMD_CRC | SDHCI_CMD_INDEX;
	}
	if (cmd->data)
		c |= SDHCI_CMD_DATA;
	return c;
}

int sdhci_start_request(struct mmc_host *h, struct mmc_command *cmd, mmc_done_t done)
{
	struct mmc_data *d = cmd->data;
	u32 inhibit = SDHCI_CMD_INHIBIT, mode = 0;
	int err;

	if (h->cmd)
		return -EBUSY;
	if (d || cmd->flags == MMC_RSP_R1B)
		inhibit |= SDHCI_DATA_INHIBIT;
	if (wait_bits_clear(h, SDHCI_PRESENT_STATE, inhibit, 100000000)) {
		pr_err("%s: command line stuck busy\n", h->name);
		sdhci_reset(h, SDHCI_RESET_CMD | SDHCI_RESET_DATA);
		return -ETIMEDOUT;
	}
	cmd->error = 0;
	cmd->resp[0] = cmd->resp[1] = cmd->resp[2] = cmd->resp[3] = 0;
	h->cmd = cmd;
	h->done = done;
	h->cmd_done = false;
	h->data_done = false;
	h->cmds++;
	if (d) {
		d->error = 0;
		d->bytes_xfered = 0;
		d->pio_sg = d->sg;
		d->pio_off = 0;
		mode = SDHCI_TRNS_BLK_CNT_EN | (d->write ? 0 : SDHCI_TRNS_READ);
		if (d->blocks > 1)
			mode |= SDHCI_TRNS_MULTI | (cmd->auto_stop ? SDHCI_TRNS_AUTO_CMD12 : 0);
		if (h->use_adma) {
			err = adma_prepare(h, d);
			if (err) {
				h->cmd = NULL;
				return err;
			}
			mode |= SDHCI_TRNS_DMA;
		}
		/* Block size (with SDMA boundary 512 KiB) and count in one word. */
		wr(h, SDHCI_BLOCK_SIZE, (d->blocks << 16) | (7u << 12) | d->blksz);
	}
	wr(h, SDHCI_ARGUMENT, cmd->arg);
	/* Transfer mode and command in one write: this starts the command. */
	wr(h, SDHCI_TRANSFER_MODE, command_word(cmd) << 16 | mode);
	return 0;
}

/* ---- interrupts, and polling before they are on ---- */

static void sdhci_irq(unsigned int irq, void *data)
{
	(void)irq;
	/* Hosts sharing the line (the Pi 4's two) are each asked. */
	for (struct mmc_host *h = data; h; h = h->next_on_irq) {
		unsigned long flags;
		u32 status;

		spin_lock_irqsave(&h->lock, flags);
		status = rd(h, SDHCI_INT_STATUS);
		if (status & SDHCI_INT_USED) {
			h->irqs++;
			wr(h, SDHCI_INT_STATUS, status & SDHCI_INT_USED);
			sdhci_process(h, status);
		}
		spin_unlock_irqrestore(&h->lock, flags);
	}
}

static void wake_waiter(struct mmc_host *h, struct mmc_command *cmd)
{
	(void)cmd;
	complete(&h->wait);
}

int mmc_wait_for_cmd(struct mmc_host *h, struct mmc_command *cmd)
{
	unsigned long flags;
	int err;

	reinit_completion(&h->wait);
	spin_lock_irqsave(&h->lock, flags);
	err = sdhci_start_request(h, cmd, wake_waiter);
	spin_unlock_irqrestore(&h->lock, flags);
	if (err)
		return err;
	if (h->irq_mode) {
		if (!wait_for_completion_timeout(&h->wait, 2000000000ULL)) {
			spin_lock_irqsave(&h->lock, flags);
			if (h->cmd == cmd) {
				cmd->error = -ETIMEDOUT;
				finish(h);
			}
			spin_unlock_irqrestore(&h->lock, flags);
		}
	} else {
		u64 end = ktime_get_ns() + 2000000000ULL;

		while (!completion_done(&h->wait)) {
			u32 status = rd(h, SDHCI_INT_STATUS) & SDHCI_INT_USED;

			spin_lock_irqsave(&h->lock, flags);
			if (status) {
				wr(h, SDHCI_INT_STATUS, status);
				sdhci_process(h, status);
			} else if (ktime_get_ns() > end && h->cmd == cmd) {
				cmd->error = -ETIMEDOUT;
				finish(h);
			}
			spin_unlock_irqrestore(&h->lock, flags);
			arch_cpu_relax();
		}
	}
	if (!cmd->error && cmd->flags == MMC_RSP_R1B && !cmd->data &&
	    wait_bits_clear(h, SDHCI_PRESENT_STATE, SDHCI_DATA_INHIBIT, 500000000))
		cmd->error = -ETIMEDOUT; /* the card stayed busy */
	return cmd->error ? cmd->error : cmd->data ? cmd->data->error : 0;
}

/* One interrupt line may serve several hosts: the first one registers it. */
static struct mmc_host *irq_owner[NR_IRQS];

static int sdhci_request_irq(struct mmc_host *h)
{
	struct mmc_host *o = h->irq < NR_IRQS ? irq_owner[h->irq] : NULL;
	unsigned long flags;

	if (h->irq >= NR_IRQS)
		return -EINVAL;
	if (o) {
		flags = arch_irq_save();
		while (o->next_on_irq)
			o = o->next_on_irq;
		o->next_on_irq = h;
		arch_irq_restore(flags);
		return 0;
	}
	irq_owner[h->irq] = h;
	return request_irq(h->irq, sdhci_irq, "sdhci", h);
}

void sdhci_init_regs(struct mmc_host *h)
{
	sdhci_reset(h, SDHCI_RESET_ALL);
	wr8(h, SDHCI_HOST_CONTROL, (rd8(h, SDHCI_HOST_CONTROL) & ~SDHCI_CTRL_DMA_MASK) |
				      (h->use_adma ? SDHCI_CTRL_ADMA32 : 0));
	wr8(h, SDHCI_HOST_CONTROL + 1, SDHCI_POWER_330 | SDHCI_POWER_ON);
	sdhci_set_clock(h, 400000);
	wr8(h, SDHCI_CLOCK_CONTROL + 2, 0xe); /* data timeout: the longest */
	wr(h, SDHCI_INT_ENABLE, SDHCI_INT_USED);
	wr(h, SDHCI_SIGNAL_ENABLE, 0);
	wr(h, SDHCI_INT_STATUS, ~0u);
	/* Give the card its 74 clocks (and the supply time to settle). */
	udelay(1000);
}

void sdhci_quiesce(struct mmc_host *h)
{
	wr(h, SDHCI_SIGNAL_ENABLE, 0);
	sdhci_reset(h, SDHCI_RESET_ALL);
}

void sdhci_enable_irq(struct mmc_host *h)
{
	h->irq_mode = true;
	wr(h, SDHCI_SIGNAL_ENABLE, SDHCI_INT_USED);
}

int sdhci_add_host(struct mmc_host *h)
{
	u32 base;

	spin_lock_init(&h->lock);
	init_completion(&h->wait);
	sdhci_reset(h, SDHCI_RESET_ALL);
	h->version = (u16)(rd(h, SDHCI_HOST_VERSION) >> 16) & 0xff;
	h->caps = rd(h, SDHCI_CAPABILITIES);
	h->caps1 = rd(h, SDHCI_CAPABILITIES + 4);
	base = (h->caps >> 8) & (h->version >= 2 ? 0xff : 0x3f);
	if (!h->max_clk)
		h->max_clk = base * 1000000;
	if (!h->max_clk) {
		h->max_clk = 100000000;
		pr_warn("%s: no base clock in the capabilities; assuming 100 MHz\n", h->name);
	}
	if (h->use_adma && !(h->caps & SDHCI_CAN_DO_ADMA2))
		h->use_adma = false;
	if (h->use_adma) {
		/* 32-bit ADMA2: the table and every buffer below 4 GiB. */
		dma_set_mask_and_coherent(&h->dev, DMA_BIT_MASK(32));
		h->adma_table = dma_alloc_coherent(&h->dev, ADMA2_TABLE_SIZE, &h->adma_addr,
						   GFP_KERNEL);
		if (!h->adma_table) {
			pr_warn("%s: no memory for the ADMA2 table; using PIO\n", h->name);
			h->use_adma = false;
		}
		h->adma_entries = ADMA2_TABLE_SIZE / sizeof(struct adma2_desc);
	}
	sdhci_init_regs(h);
	h->card_present = h->assume_card || (rd(h, SDHCI_PRESENT_STATE) & SDHCI_CARD_PRESENT);
	pr_info("%s: SDHCI %u.00 at %u MHz, caps %#x, %s, card %s\n", h->name, h->version + 1,
		h->max_clk / 1000000, h->caps, h->use_adma ? "ADMA2" : "PIO",
		h->card_present ? "present" : "absent");
	return 0;
}

static int mmc_next_index;

int mmc_add_host(struct mmc_host *h)
{
	int err;

	h->index = mmc_next_index++;
	snprintf(h->name, sizeof(h->name), "mmc%d", h->index);
	err = sdhci_add_host(h);
	if (err || !h->card_present)
		return err;
	err = mmc_sd_init_card(h);
	if (err) {
		if (err != -ENODEV)	/* an empty slot has said so already */
			pr_warn("%s: no usable SD card (%d)\n", h->name, err);
		return err;
	}
	/* From now on every command ends in the interrupt handler. */
	err = sdhci_request_irq(h);
	if (err) {
		pr_warn("%s: interrupt %u unavailable (%d)\n", h->name, h->irq, err);
		return err;
	}
	sdhci_enable_irq(h);
	err = mmc_blk_probe(h);
	if (!err)
		mmc_pm_register(h);
	return err;
}
