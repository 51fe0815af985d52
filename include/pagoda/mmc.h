/* SPDX-License-Identifier: MIT */
/*
 * SD cards behind SDHCI hosts (drivers/mmc/). Three layers, as in Linux:
 *
 *   sdhci.c      the host controller: registers, commands, PIO and ADMA2
 *                data transfers, its interrupt (one driver for the Pi 4's
 *                EMMC2 and Arasan controllers and for PCI's sdhci-pci);
 *   sd.c         the SD protocol: from reset to a selected card on a 4-bit
 *                bus at high speed, its capacity from the CSD;
 *   mmc_block.c  the card as a block device, mmcblk0, with partitions.
 *
 * Glue that finds hosts: sdhci-platform.c (device tree), sdhci-pci.c.
 */
#ifndef PAGODA_MMC_H
#define PAGODA_MMC_H

#include <pagoda/completion.h>
#include <pagoda/device.h>
#include <pagoda/scatterlist.h>
#include <pagoda/spinlock.h>

/* Response types (what the host checks and how many bits come back). */
#define MMC_RSP_NONE 0
#define MMC_RSP_R1 1	/* 48 bits, CRC and index checked */
#define MMC_RSP_R1B 2	/* R1, then the card holds DAT0 low while busy */
#define MMC_RSP_R2 3	/* 136 bits: CID, CSD */
#define MMC_RSP_R3 4	/* 48 bits, no CRC or index (OCR) */
#define MMC_RSP_R6 MMC_RSP_R1
#define MMC_RSP_R7 MMC_RSP_R1

struct mmc_data {
	unsigned int blksz, blocks;
	bool write;
	struct scatterlist *sg;	/* the buffers, sg_next()-linked */
	unsigned int sg_len;
	/* PIO progress, kept by the host. */
	struct scatterlist *pio_sg;
	unsigned int pio_off;
	unsigned int bytes_xfered;
	int error;
};

struct mmc_command {
	u32 opcode, arg;
	unsigned int flags;	/* MMC_RSP_* */
	u32 resp[4];		/* resp[0] for short responses; R2 in all four */
	struct mmc_data *data;
	bool auto_stop;		/* multi-block: the host sends CMD12 itself */
	int error;
};

struct mmc_host;
typedef void (*mmc_done_t)(struct mmc_host *host, struct mmc_command *cmd);

struct mmc_card {
	u32 rca;
	u32 ocr, cid[4], csd[4];
	bool high_capacity;	/* SDHC/SDXC: block addresses, not bytes */
	bool high_speed;
	unsigned int bus_width;
	u64 sectors;
	char name[8];		/* the CID's product name */
};

struct mmc_host {
	struct device dev;	/* for DMA */
	char name[24];		/* "mmc0" */
	int index;
	volatile u8 *ioaddr;
	unsigned int irq;
	u32 caps, caps1;
	u16 version;		/* SDHCI spec: 0 = 1.0, 1 = 2.0, 2 = 3.0 */
	unsigned int max_clk;	/* Hz: the base clock */
	unsigned int clock;	/* Hz: what the card runs at */
	bool use_adma;		/* ADMA2 through the DMA API, else PIO */
	bool adma_64;
	bool irq_mode;		/* commands complete through the interrupt */
	bool assume_card;	/* the card-detect line is not wired */
	void *adma_table;	/* ADMA2 descriptors (coherent) */
	dma_addr_t adma_addr;
	unsigned int adma_entries;
	spinlock_t lock;
	/* The command in flight, and who to tell when it is done. */
	struct mmc_command *cmd;
	mmc_done_t done;
	void *done_arg;
	bool data_done, cmd_done;
	struct completion wait;	/* for mmc_wait_for_cmd() */
	struct mmc_card card;
	bool card_present;
	struct mmc_host *next_on_irq; /* hosts sharing one interrupt line */
	/* statistics */
	u64 irqs, cmds, errors, pio_words, adma_xfers;
};

/* ---- sdhci.c ---- */
/* Reset and power up a host whose ioaddr, irq and dev are set. */
int sdhci_add_host(struct mmc_host *host);
/* Reset it and program what sdhci_add_host() does, from what host holds
 * (DMA mode, power, the identification clock, interrupt sources). */
void sdhci_init_regs(struct mmc_host *host);
/* No interrupts, no DMA: signals off and a full reset. */
void sdhci_quiesce(struct mmc_host *host);
/* Commands end in the interrupt handler from now on. */
void sdhci_enable_irq(struct mmc_host *host);
void sdhci_set_clock(struct mmc_host *host, unsigned int hz);
void sdhci_set_bus_width(struct mmc_host *host, unsigned int width);
void sdhci_set_high_speed(struct mmc_host *host, bool on);
/*
 * Start cmd (and its data); done(host, cmd) is called from the interrupt
 * (or from the polling loop before interrupts are on) when it ends.
 */
int sdhci_start_request(struct mmc_host *host, struct mmc_command *cmd, mmc_done_t done);
/* Send cmd and wait for it: 0 or its error. */
int mmc_wait_for_cmd(struct mmc_host *host, struct mmc_command *cmd);
/* Register a host found by glue code: card init, block device. */
int mmc_add_host(struct mmc_host *host);
/* ---- pm.c ---- */
/* A host with a block device: set up again around a hibernation. */
void mmc_pm_register(struct mmc_host *host);

/* ---- sd.c ---- */
int mmc_sd_init_card(struct mmc_host *host);

/* ---- mmc_block.c ---- */
int mmc_blk_probe(struct mmc_host *host);

#endif
