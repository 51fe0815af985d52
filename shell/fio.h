/* SPDX-License-Identifier: MIT */
/*
 * An in-kernel fio (shell/fio.c): fio's options, fio's output, kernel
 * threads for jobs. The shell's `fio` and `bench block` drive it.
 */
#ifndef SHELL_FIO_H
#define SHELL_FIO_H

#include <pagoda/blkdev.h>

enum fio_rw { FIO_READ, FIO_WRITE, FIO_RANDREAD, FIO_RANDWRITE, FIO_RW, FIO_RANDRW };
enum fio_engine { FIO_PSYNC, FIO_ASYNC };

struct fio_opts {
	char name[32];
	char filename[BDEVNAME_SIZE];
	enum fio_rw rw;
	unsigned int rwmixread;   /* percent of reads in rw/randrw */
	unsigned int bs;
	u64 size;                 /* bytes per job (0: the device from offset) */
	u64 offset;
	unsigned int iodepth;
	unsigned int numjobs;
	u64 runtime_ns;           /* 0: until size is done */
	bool time_based;          /* with a runtime: go round size until it is up */
	enum fio_engine ioengine;
	bool group_reporting;
	bool json;
	bool quiet;               /* the bench prints its own table */
};

#define FIO_HIST_BUCKETS (64 * 16)

/* One direction (read or write) of one job, or of a group. */
struct fio_dir_stats {
	u64 ios, bytes;
	u64 lat_min, lat_max, lat_sum;
	unsigned __int128 lat_sumsq;
	u32 hist[FIO_HIST_BUCKETS];
};

struct fio_job_result {
	struct fio_dir_stats dir[2];  /* 0 read, 1 write */
	u64 runtime_ns;
	int error;
	int pid;                      /* the job's thread */
};

/* What a run gives back, for the bench: per direction, the whole group. */
struct fio_summary {
	u64 iops[2];        /* whole operations per second */
	u64 bw_kib[2];      /* KiB/s */
	u64 lat_avg_ns[2], lat_p50_ns[2], lat_p99_ns[2];
};

void fio_default_opts(struct fio_opts *o);
/* Parse fio-style arguments into o: 0, or -EINVAL after saying why. */
int fio_parse(struct fio_opts *o, int argc, char **argv);
/* Run the jobs, print fio's report (unless quiet), fill sum if given. */
int fio_run(const struct fio_opts *o, struct fio_summary *sum);

#endif
