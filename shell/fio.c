// SPDX-License-Identifier: MIT
/*
 * fio, in the kernel: fio's option names and fio's report, so that a number
 * measured here reads like one measured on Linux (docs/block.md).
 *
 *	fio --name=r --filename=nullb0 --rw=randread --bs=4k --iodepth=32 \
 *	    --numjobs=2 --runtime=5 --ioengine=async --direct=1 --group_reporting
 *
 * Each job is a kernel thread pinned to its own CPU (job i on the i-th
 * online CPU, wrapping). psync does one submit_bio_wait() at a time; async
 * keeps iodepth bios in flight, as libaio does, collecting completions
 * from their bi_end_io. A job stops after `size` bytes or `runtime`,
 * whichever comes first. Completion latency (clat) is from submit_bio() to
 * bi_end_io, kept in a log-linear histogram (16 steps per power of two,
 * about 6%) for the percentiles.
 */
#include <pagoda/completion.h>
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/task.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

#include "fio.h"

static const char *const rw_names[] = { "read", "write", "randread", "randwrite", "rw", "randrw" };
/* fio's default clat percentiles (x100), in its order */
static const unsigned int pct_x100[] = { 100,  500,  1000, 2000, 3000, 4000, 5000, 6000, 7000,
					 8000, 9000, 9500, 9900, 9950, 9990, 9995, 9999 };
static const char *const engine_names[] = { "psync", "libaio" };

void fio_default_opts(struct fio_opts *o)
{
	*o = (struct fio_opts){
		.rw = FIO_READ, .rwmixread = 50, .bs = 4096, .iodepth = 1, .numjobs = 1,
		.ioengine = FIO_PSYNC,
	};
	strlcpy(o->name, "job", sizeof(o->name));
}

/* --- statistics ---------------------------------------------------------- */

static unsigned int hist_bucket(u64 v)
{
	unsigned int msb;

	if (v < 16)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	return (msb - 3) * 16 + (unsigned int)((v >> (msb - 4)) & 15);
}

/* The largest value that falls in bucket b. */
static u64 hist_value(unsigned int b)
{
	unsigned int msb, sub;

	if (b < 16)
		return b;
	msb = b / 16 + 3;
	sub = b % 16;
	return (((u64)(16 + sub) + 1) << (msb - 4)) - 1;
}

static void stats_add(struct fio_dir_stats *s, u64 lat, unsigned int bytes)
{
	if (!s->ios || lat < s->lat_min)
		s->lat_min = lat;
	if (lat > s->lat_max)
		s->lat_max = lat;
	s->ios++;
	s->bytes += bytes;
	s->lat_sum += lat;
	s->lat_sumsq += (unsigned __int128)lat * lat;
	s->hist[hist_bucket(lat)]++;
}

static void stats_merge(struct fio_dir_stats *to, const struct fio_dir_stats *from)
{
	if (!from->ios)
		return;
	if (!to->ios || from->lat_min < to->lat_min)
		to->lat_min = from->lat_min;
	if (from->lat_max > to->lat_max)
		to->lat_max = from->lat_max;
	to->ios += from->ios;
	to->bytes += from->bytes;
	to->lat_sum += from->lat_sum;
	to->lat_sumsq += from->lat_sumsq;
	for (unsigned int i = 0; i < FIO_HIST_BUCKETS; i++)
		to->hist[i] += from->hist[i];
}

/* u128 / u64 by shift and subtract: the kernel has no libgcc for it. */
static unsigned __int128 div128(unsigned __int128 n, u64 d)
{
	unsigned __int128 q = 0, r = 0;

	for (int i = 127; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << i;
		}
	}
	return q;
}

static u64 isqrt64(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

static u64 stats_stdev(const struct fio_dir_stats *s)
{
	unsigned __int128 mean_sq, ex2;

	if (s->ios < 2)
		return 0;
	ex2 = div128(s->lat_sumsq, s->ios);
	mean_sq = (unsigned __int128)(s->lat_sum / s->ios) * (s->lat_sum / s->ios);
	if (ex2 <= mean_sq)
		return 0;
	ex2 -= mean_sq;
	return isqrt64(ex2 > U64_MAX ? U64_MAX : (u64)ex2);
}

/* The value below which pct_x100/100 percent of the samples fall. */
static u64 stats_percentile(const struct fio_dir_stats *s, unsigned int pct_x100)
{
	u64 want = (s->ios * pct_x100 + 9999) / 10000, seen = 0;

	if (!want)
		want = 1;
	for (unsigned int b = 0; b < FIO_HIST_BUCKETS; b++) {
		seen += s->hist[b];
		if (seen >= want)
			return MIN(hist_value(b), s->lat_max);
	}
	return s->lat_max;
}

/* --- jobs ---------------------------------------------------------------- */

struct fio_job;

struct fio_slot {
	struct fio_job *job;
	struct bio bio;
	struct bio_vec vecs[BIO_MAX_VECS];
	void *buf;
	unsigned int order;
	bool write;
	u64 start_ns, end_ns;
	struct fio_slot *done_next;
};

struct fio_job {
	const struct fio_opts *o;
	struct block_device *bdev;
	unsigned int index, cpu;
	struct fio_job_result res;
	struct task *task;
	struct rng rng;
	u64 seq_pos;
	struct fio_slot *slots;
	/* completed, not yet seen by the job; under wait.lock, so that a
	 * completion's wake-up is done before the job can see its slot */
	struct fio_slot *done;
	struct wait_queue_head wait;
	/* Ctrl-C: set by fio_run's waiting thread, read by the job */
	const bool *stop;
	struct completion *finished;
	atomic_t *running;
};

static void slot_prepare(struct fio_job *j, struct fio_slot *s)
{
	const struct fio_opts *o = j->o;
	u64 blocks = o->size / o->bs, pos;
	bool random = o->rw == FIO_RANDREAD || o->rw == FIO_RANDWRITE || o->rw == FIO_RANDRW;
	blk_opf_t op;

	if (random) {
		pos = rng_below(&j->rng, blocks) * o->bs;
	} else {
		pos = j->seq_pos;
		j->seq_pos = (j->seq_pos + o->bs) % (blocks * o->bs);
	}
	switch (o->rw) {
	case FIO_READ:
	case FIO_RANDREAD:
		s->write = false;
		break;
	case FIO_WRITE:
	case FIO_RANDWRITE:
		s->write = true;
		break;
	default:
		s->write = rng_below(&j->rng, 100) >= o->rwmixread;
	}
	op = (s->write ? REQ_OP_WRITE : REQ_OP_READ) | (o->ioengine == FIO_PSYNC ? REQ_SYNC : 0);
	bio_init(&s->bio, j->bdev, s->vecs, BIO_MAX_VECS, op);
	s->bio.bi_iter.bi_sector = (o->offset + pos) >> SECTOR_SHIFT;
	bio_add_virt(&s->bio, s->buf, o->bs);
}

static bool job_done(struct fio_job *j, u64 issued, u64 t0)
{
	const struct fio_opts *o = j->o;

	if (READ_ONCE(*j->stop))
		return true;
	/* fio's time_based: the size is gone round again until the runtime is up */
	if (issued >= o->size && !(o->time_based && o->runtime_ns))
		return true;
	return o->runtime_ns && ktime_get_ns() - t0 >= o->runtime_ns;
}

static void job_account(struct fio_job *j, struct fio_slot *s)
{
	if (s->bio.bi_status) {
		if (!j->res.error)
			j->res.error = blk_status_to_errno(s->bio.bi_status);
		return;
	}
	stats_add(&j->res.dir[s->write], s->end_ns - s->start_ns, j->o->bs);
}

static void run_psync(struct fio_job *j, u64 t0)
{
	struct fio_slot *s = &j->slots[0];
	u64 issued = 0;

	while (!job_done(j, issued, t0) && !j->res.error) {
		slot_prepare(j, s);
		s->start_ns = ktime_get_ns();
		submit_bio_wait(&s->bio);
		s->end_ns = ktime_get_ns();
		job_account(j, s);
		issued += j->o->bs;
	}
}

static void fio_async_endio(struct bio *bio)
{
	struct fio_slot *s = container_of(bio, struct fio_slot, bio);
	struct fio_job *j = s->job;
	unsigned long flags;

	s->end_ns = ktime_get_ns();
	spin_lock_irqsave(&j->wait.lock, flags);
	s->done_next = j->done;
	j->done = s;
	__wake_up_locked(&j->wait, 1);
	spin_unlock_irqrestore(&j->wait.lock, flags);
}

static struct fio_slot *take_done(struct fio_job *j)
{
	unsigned long flags;
	struct fio_slot *list;

	spin_lock_irqsave(&j->wait.lock, flags);
	list = j->done;
	j->done = NULL;
	spin_unlock_irqrestore(&j->wait.lock, flags);
	return list;
}

static void run_async(struct fio_job *j, u64 t0)
{
	unsigned int depth = j->o->iodepth, inflight = 0, nfree = depth;
	struct fio_slot **free = kcalloc(depth, sizeof(*free), GFP_KERNEL);
	u64 issued = 0;
	bool stop = false;

	if (!free) {
		j->res.error = -ENOMEM;
		return;
	}
	for (unsigned int i = 0; i < depth; i++)
		free[i] = &j->slots[i];
	while (inflight || !stop) {
		struct blk_plug plug;
		struct fio_slot *done;

		blk_start_plug(&plug);
		while (!stop && nfree) {
			struct fio_slot *s = free[--nfree];

			slot_prepare(j, s);
			s->bio.bi_end_io = fio_async_endio;
			s->start_ns = ktime_get_ns();
			inflight++;
			issued += j->o->bs;
			submit_bio(&s->bio);
			stop = job_done(j, issued, t0) || j->res.error;
		}
		blk_finish_plug(&plug);
		wait_event(j->wait, READ_ONCE(j->done) != NULL);
		for (done = take_done(j); done; done = done->done_next) {
			job_account(j, done);
			free[nfree++] = done;
			inflight--;
		}
		if (j->res.error || job_done(j, issued, t0))
			stop = true;
	}
	kfree(free);
}

static int job_fn(void *arg)
{
	struct fio_job *j = arg;
	u64 t0 = ktime_get_ns();

	if (j->o->ioengine == FIO_PSYNC)
		run_psync(j, t0);
	else
		run_async(j, t0);
	j->res.runtime_ns = ktime_get_ns() - t0;
	j->res.pid = current->pid;
	if (atomic_dec_and_test(j->running))
		complete(j->finished);
	return 0;
}

static int job_alloc_slots(struct fio_job *j)
{
	unsigned int n = j->o->ioengine == FIO_PSYNC ? 1 : j->o->iodepth;
	unsigned int order = get_order(j->o->bs);

	j->slots = kcalloc(n, sizeof(*j->slots), GFP_KERNEL);
	if (!j->slots)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		struct fio_slot *s = &j->slots[i];

		s->job = j;
		s->order = order;
		s->buf = (void *)__get_free_pages(GFP_KERNEL, order);
		if (!s->buf)
			return -ENOMEM;
		/* Writes carry a recognisable pattern, not stale memory. */
		memset(s->buf, 0x5a ^ (int)i, j->o->bs);
	}
	return 0;
}

static void job_free(struct fio_job *j)
{
	/* A job the run failed before setting up has nothing to free. */
	unsigned int n = !j->o ? 0 : j->o->ioengine == FIO_PSYNC ? 1 : j->o->iodepth;

	for (unsigned int i = 0; j->slots && i < n; i++)
		if (j->slots[i].buf)
			free_pages((unsigned long)j->slots[i].buf, j->slots[i].order);
	kfree(j->slots);
}

/* --- options ------------------------------------------------------------- */

static int opt_size(const char *key, const char *v, u64 *out)
{
	if (kstrtosize(v, out)) {
		kprintf("fio: --%s=%s: not a size (e.g. 4k, 64M)\n", key, v);
		return -EINVAL;
	}
	return 0;
}

static int opt_uint(const char *key, const char *v, u64 lo, u64 hi, unsigned int *out)
{
	u64 x;

	if (kstrtou64(v, 0, &x) || x < lo || x > hi) {
		kprintf("fio: --%s=%s: want a number in %llu..%llu\n", key, v,
			(unsigned long long)lo, (unsigned long long)hi);
		return -EINVAL;
	}
	*out = (unsigned int)x;
	return 0;
}

int fio_parse(struct fio_opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i], *v;
		unsigned int x;

		if (a[0] == '-' && a[1] == '-')
			a += 2;
		v = strchr(a, '=');
		if (v)
			*v++ = 0;
		else
			v = "";
		if (!strcmp(a, "name")) {
			strlcpy(o->name, v, sizeof(o->name));
		} else if (!strcmp(a, "filename")) {
			/* "/dev/vda", "vda", "/dev/mapper/snap", "snap": the block layer's lookup */
			strlcpy(o->filename, v, sizeof(o->filename));
		} else if (!strcmp(a, "rw") || !strcmp(a, "readwrite")) {
			int k;

			if (!strcmp(v, "readwrite"))
				v = "rw";
			k = match_string(rw_names, ARRAY_SIZE(rw_names), v);
			if (k < 0) {
				kprintf("fio: --rw=%s: want read, write, randread, randwrite, rw or randrw\n", v);
				return -EINVAL;
			}
			o->rw = (enum fio_rw)k;
		} else if (!strcmp(a, "rwmixread")) {
			if (opt_uint(a, v, 0, 100, &o->rwmixread))
				return -EINVAL;
		} else if (!strcmp(a, "bs") || !strcmp(a, "blocksize")) {
			u64 bs;

			if (opt_size(a, v, &bs))
				return -EINVAL;
			if (!bs || bs % SECTOR_SIZE || bs > BIO_MAX_VECS * PAGE_SIZE) {
				kprintf("fio: --bs=%s: want a multiple of 512 up to %lu\n", v,
					BIO_MAX_VECS * PAGE_SIZE);
				return -EINVAL;
			}
			o->bs = (unsigned int)bs;
		} else if (!strcmp(a, "size")) {
			if (opt_size(a, v, &o->size))
				return -EINVAL;
		} else if (!strcmp(a, "offset")) {
			if (opt_size(a, v, &o->offset))
				return -EINVAL;
		} else if (!strcmp(a, "iodepth")) {
			if (opt_uint(a, v, 1, 1024, &o->iodepth))
				return -EINVAL;
		} else if (!strcmp(a, "numjobs")) {
			if (opt_uint(a, v, 1, 64, &o->numjobs))
				return -EINVAL;
		} else if (!strcmp(a, "runtime")) {
			if (opt_uint(a, v, 0, 3600, &x))
				return -EINVAL;
			o->runtime_ns = (u64)x * NSEC_PER_SEC;
		} else if (!strcmp(a, "ioengine")) {
			if (!strcmp(v, "psync") || !strcmp(v, "sync"))
				o->ioengine = FIO_PSYNC;
			else if (!strcmp(v, "async") || !strcmp(v, "libaio") || !strcmp(v, "io_uring"))
				o->ioengine = FIO_ASYNC;
			else {
				kprintf("fio: --ioengine=%s: want psync or async (libaio)\n", v);
				return -EINVAL;
			}
		} else if (!strcmp(a, "direct")) {
			if (strcmp(v, "1")) {
				kprintf("fio: --direct=%s: there is no page cache: only direct=1\n", v);
				return -EINVAL;
			}
		} else if (!strcmp(a, "group_reporting")) {
			o->group_reporting = true;
		} else if (!strcmp(a, "output-format")) {
			if (!strcmp(v, "json"))
				o->json = true;
			else if (!strcmp(v, "normal"))
				o->json = false;
			else {
				kprintf("fio: --output-format=%s: want normal or json\n", v);
				return -EINVAL;
			}
		} else if (!strcmp(a, "time_based")) {
			o->time_based = true;
		} else if (!strcmp(a, "norandommap")) {
			/* a fio habit that changes nothing here: positions are always random */
		} else {
			kprintf("fio: unknown option '%s' (see `fio --help`)\n", argv[i]);
			return -EINVAL;
		}
	}
	if (!o->filename[0]) {
		kprintf("fio: --filename=DEV is required (see lsblk)\n");
		return -EINVAL;
	}
	return 0;
}

/* --- the report ----------------------------------------------------------- */

/* fio's 3-4 significant digits: 3863, 12.3k, 123k, 1234k -> 1.23M */
static void fmt_num(char *buf, size_t n, u64 v, unsigned int base, const char *unit)
{
	static const char *const pfx_bin[] = { "", "Ki", "Mi", "Gi", "Ti" };
	static const char *const pfx_dec[] = { "", "k", "M", "G", "T" };
	const char *const *pfx = base == 1024 ? pfx_bin : pfx_dec;
	u64 scaled = v * 100; /* two decimals */
	unsigned int p = 0;

	while (scaled >= 1000 * 100 && p < 4 && (base != 1000 || v >= 10000 || p)) {
		scaled /= base;
		p++;
	}
	if (!p)
		snprintf(buf, n, "%llu%s", (unsigned long long)v, unit);
	else if (scaled < 1000)
		snprintf(buf, n, "%llu.%02llu%s%s", (unsigned long long)(scaled / 100),
			 (unsigned long long)(scaled % 100), pfx[p], unit);
	else if (scaled < 10000)
		snprintf(buf, n, "%llu.%llu%s%s", (unsigned long long)(scaled / 100),
			 (unsigned long long)(scaled % 100 / 10), pfx[p], unit);
	else
		snprintf(buf, n, "%llu%s%s", (unsigned long long)(scaled / 100), pfx[p], unit);
}

static u64 per_sec(u64 count, u64 ns)
{
	return ns ? (u64)div128((unsigned __int128)count * NSEC_PER_SEC, ns) : 0;
}

static void print_dir_normal(const char *dname, const struct fio_dir_stats *s, u64 runtime_ns)
{
	char iops[16], bw_bin[16], bw_dec[16], io[16];
	u64 div = 1, mean = s->ios ? s->lat_sum / s->ios : 0, sd = stats_stdev(s);
	const char *unit = "nsec";

	if (!s->ios)
		return;
	if (s->lat_max >= 10 * NSEC_PER_SEC) {
		div = NSEC_PER_MSEC;
		unit = "msec";
	} else if (s->lat_max >= 10000) {
		div = NSEC_PER_USEC;
		unit = "usec";
	}
	fmt_num(iops, sizeof(iops), per_sec(s->ios, runtime_ns), 1000, "");
	fmt_num(bw_bin, sizeof(bw_bin), per_sec(s->bytes, runtime_ns), 1024, "B/s");
	fmt_num(bw_dec, sizeof(bw_dec), per_sec(s->bytes, runtime_ns), 1000, "B/s");
	fmt_num(io, sizeof(io), s->bytes, 1024, "B");
	/* fio 3.x's lines; a write's ends with its zone resets (none here) */
	kprintf("  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", dname, iops, bw_bin, bw_dec, io,
		(unsigned long long)(runtime_ns / NSEC_PER_MSEC),
		strcmp(dname, "write") ? "" : "; 0 zone resets");
	/* completion and total latency are the same here: nothing is
	 * timed apart for submission (fio's slat is 0 for psync too) */
	for (int l = 0; l < 2; l++)
		kprintf("    %s (%s): min=%llu, max=%llu, avg=%llu.%02llu, stdev=%llu.%02llu\n",
			l ? " lat" : "clat", unit, (unsigned long long)(s->lat_min / div),
			(unsigned long long)(s->lat_max / div), (unsigned long long)(mean / div),
			(unsigned long long)(mean % div * 100 / div), (unsigned long long)(sd / div),
			(unsigned long long)(sd % div * 100 / div));
	kprintf("    clat percentiles (%s):", unit);
	for (unsigned int i = 0; i < ARRAY_SIZE(pct_x100); i++)
		kprintf("%s %2u.%02uth=[%5llu]%s", i % 4 ? "" : "\n     |", pct_x100[i] / 100,
			pct_x100[i] % 100,
			(unsigned long long)(stats_percentile(s, pct_x100[i]) / div),
			i + 1 < ARRAY_SIZE(pct_x100) ? "," : "\n");
}

/* A latency object of fio's JSON (clat_ns, lat_ns); percentiles: clat only. */
static void print_lat_json(const char *key, const struct fio_dir_stats *s, bool percentiles)
{
	u64 mean_milli = s->ios ? s->lat_sum * 1000 / s->ios : 0;

	kprintf("        \"%s\" : {\n          \"min\" : %llu,\n          \"max\" : %llu,\n", key,
		(unsigned long long)(s->ios ? s->lat_min : 0), (unsigned long long)s->lat_max);
	kprintf("          \"mean\" : %llu.%03llu,\n          \"stddev\" : %llu.000000,\n"
		"          \"N\" : %llu%s\n", (unsigned long long)(mean_milli / 1000),
		(unsigned long long)(mean_milli % 1000), (unsigned long long)stats_stdev(s),
		(unsigned long long)s->ios, percentiles && s->ios ? "," : "");
	/* fio leaves the percentiles out when there are no samples */
	if (percentiles && s->ios) {
		kprintf("          \"percentile\" : {\n");
		for (unsigned int i = 0; i < ARRAY_SIZE(pct_x100); i++)
			kprintf("            \"%u.%02u0000\" : %llu%s\n", pct_x100[i] / 100,
				pct_x100[i] % 100,
				(unsigned long long)stats_percentile(s, pct_x100[i]),
				i + 1 < ARRAY_SIZE(pct_x100) ? "," : "");
		kprintf("          }\n");
	}
	kprintf("        },\n");
}

/*
 * One direction as fio 3.x's JSON has it: the same keys, in its order.
 * What Pagoda does not measure is fio's own "nothing": submission
 * latency with N 0 (as fio's psync), bandwidth and IOPS samples 0 (as
 * fio's when a job is shorter than its sampling interval).
 */
static void print_dir_json(const char *dname, const struct fio_dir_stats *s, u64 runtime_ns)
{
	u64 iops_micro = per_sec(s->ios * 1000000, runtime_ns);
	static const struct fio_dir_stats none;

	kprintf("      \"%s\" : {\n", dname);
	kprintf("        \"io_bytes\" : %llu,\n        \"io_kbytes\" : %llu,\n",
		(unsigned long long)s->bytes, (unsigned long long)(s->bytes / 1024));
	kprintf("        \"bw_bytes\" : %llu,\n        \"bw\" : %llu,\n",
		(unsigned long long)per_sec(s->bytes, runtime_ns),
		(unsigned long long)(per_sec(s->bytes, runtime_ns) / 1024));
	kprintf("        \"iops\" : %llu.%06llu,\n", (unsigned long long)(iops_micro / 1000000),
		(unsigned long long)(iops_micro % 1000000));
	kprintf("        \"runtime\" : %llu,\n        \"total_ios\" : %llu,\n"
		"        \"short_ios\" : 0,\n        \"drop_ios\" : 0,\n",
		(unsigned long long)(s->ios ? runtime_ns / NSEC_PER_MSEC : 0),
		(unsigned long long)s->ios);
	print_lat_json("slat_ns", &none, false);
	print_lat_json("clat_ns", s, true);
	print_lat_json("lat_ns", s, false);
	kprintf("        \"bw_min\" : 0,\n        \"bw_max\" : 0,\n        \"bw_agg\" : 0.000000,\n"
		"        \"bw_mean\" : 0.000000,\n        \"bw_dev\" : 0.000000,\n"
		"        \"bw_samples\" : 0,\n        \"iops_min\" : 0,\n        \"iops_max\" : 0,\n"
		"        \"iops_mean\" : 0.000000,\n        \"iops_stddev\" : 0.000000,\n"
		"        \"iops_samples\" : 0\n      },\n");
}

/* fio's "job options": what was asked, as option strings. */
static void print_job_options(const struct fio_opts *o)
{
	kprintf("      \"job options\" : {\n        \"name\" : \"%s\",\n"
		"        \"filename\" : \"%s\",\n        \"rw\" : \"%s\",\n"
		"        \"bs\" : \"%u\",\n        \"iodepth\" : \"%u\",\n"
		"        \"numjobs\" : \"%u\",\n        \"ioengine\" : \"%s\"\n      },\n",
		o->name, o->filename, rw_names[o->rw], o->bs, o->iodepth, o->numjobs,
		engine_names[o->ioengine]);
}

static void print_job(const struct fio_opts *o, const char *name, unsigned int jobs,
		      const struct fio_job_result *r, bool first)
{
	if (o->json) {
		static const struct fio_dir_stats none;

		kprintf("%s    {\n      \"jobname\" : \"%s\",\n      \"groupid\" : 0,\n"
			"      \"error\" : %d,\n      \"eta\" : 0,\n      \"elapsed\" : %llu,\n",
			first ? "" : ",\n", name, -r->error,
			(unsigned long long)DIV_ROUND_UP(r->runtime_ns, NSEC_PER_SEC));
		print_job_options(o);
		print_dir_json("read", &r->dir[0], r->runtime_ns);
		print_dir_json("write", &r->dir[1], r->runtime_ns);
		print_dir_json("trim", &none, r->runtime_ns);
		kprintf("      \"job_runtime\" : %llu\n    }",
			(unsigned long long)(r->runtime_ns / NSEC_PER_MSEC));
		return;
	}
	/* fio's job line, its date left out */
	kprintf("%s: (groupid=0, jobs=%u): err=%2d: pid=%d\n", name, jobs, -r->error, r->pid);
	print_dir_normal("read", &r->dir[0], r->runtime_ns);
	print_dir_normal("write", &r->dir[1], r->runtime_ns);
}

static void print_group(const struct fio_job *jobs, unsigned int n, const struct fio_job_result *g)
{
	static const char *const dn[] = { "READ", "WRITE" };

	kprintf("\nRun status group 0 (all jobs):\n");
	for (int d = 0; d < 2; d++) {
		u64 lo = U64_MAX, hi = 0, run_lo = U64_MAX, run_hi = 0;
		char a[16], b[16], c[16], e[16], f[16], h[16], io1[16], io2[16];

		if (!g->dir[d].ios)
			continue;
		for (unsigned int i = 0; i < n; i++) {
			u64 bw = per_sec(jobs[i].res.dir[d].bytes, jobs[i].res.runtime_ns);

			lo = MIN(lo, bw);
			hi = MAX(hi, bw);
			run_lo = MIN(run_lo, jobs[i].res.runtime_ns);
			run_hi = MAX(run_hi, jobs[i].res.runtime_ns);
		}
		fmt_num(a, sizeof(a), per_sec(g->dir[d].bytes, g->runtime_ns), 1024, "B/s");
		fmt_num(b, sizeof(b), per_sec(g->dir[d].bytes, g->runtime_ns), 1000, "B/s");
		fmt_num(c, sizeof(c), lo, 1024, "B/s");
		fmt_num(e, sizeof(e), hi, 1024, "B/s");
		fmt_num(f, sizeof(f), lo, 1000, "B/s");
		fmt_num(h, sizeof(h), hi, 1000, "B/s");
		fmt_num(io1, sizeof(io1), g->dir[d].bytes, 1024, "B");
		fmt_num(io2, sizeof(io2), g->dir[d].bytes, 1000, "B");
		kprintf("  %5s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", dn[d],
			a, b, c, e, f, h, io1, io2, (unsigned long long)(run_lo / NSEC_PER_MSEC),
			(unsigned long long)(run_hi / NSEC_PER_MSEC));
	}
}

int fio_run(const struct fio_opts *opts, struct fio_summary *sum)
{
	struct fio_opts o = *opts;
	struct block_device *bdev;
	struct fio_job *jobs;
	struct fio_job_result *g;
	unsigned int cpus[NR_CPUS], ncpu = 0, cpu;
	struct completion finished;
	atomic_t running;
	bool stop = false;
	u64 dev_bytes;
	int err = 0;

	bdev = blkdev_get_by_name(o.filename);
	if (IS_ERR(bdev)) {
		kprintf("fio: %s: no such block device (see lsblk)\n", o.filename);
		return -ENOENT;
	}
	dev_bytes = (u64)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
	if (o.bs % bdev_logical_block_size(bdev) || o.offset % bdev_logical_block_size(bdev)) {
		kprintf("fio: %s has %u-byte blocks: bs and offset must be multiples\n", o.filename,
			bdev_logical_block_size(bdev));
		blkdev_put(bdev);
		return -EINVAL;
	}
	if (o.offset >= dev_bytes) {
		kprintf("fio: --offset beyond the end of %s\n", o.filename);
		blkdev_put(bdev);
		return -EINVAL;
	}
	if (!o.size || o.size > dev_bytes - o.offset)
		o.size = dev_bytes - o.offset;
	o.size = ALIGN_DOWN(o.size, (u64)o.bs);
	if (!o.size) {
		kprintf("fio: --size is smaller than one --bs block\n");
		blkdev_put(bdev);
		return -EINVAL;
	}
	init_completion(&finished);
	jobs = kcalloc(o.numjobs, sizeof(*jobs), GFP_KERNEL);
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!jobs || !g) {
		err = -ENOMEM;
		goto out;
	}
	for_each_online_cpu(cpu)
		cpus[ncpu++] = cpu;
	for (unsigned int i = 0; i < o.numjobs; i++) {
		struct fio_job *j = &jobs[i];

		j->o = &o;
		j->bdev = bdev;
		j->index = i;
		j->cpu = cpus[i % ncpu];
		j->stop = &stop;
		j->finished = &finished;
		j->running = &running;
		init_waitqueue_head(&j->wait);
		rng_seed(&j->rng, get_random_u64());
		err = job_alloc_slots(j);
		if (!err) {
			j->task = kthread_create(job_fn, j, "fio/%u", i);
			if (!j->task)
				err = -ENOMEM;
		}
		if (err)
			goto out;
		set_cpus_allowed(j->task, 1ULL << j->cpu);
	}
	if (!o.quiet && !o.json) {
		/* fio's lines before a run ("processes": its jobs are threads here) */
		kprintf("%s: (g=0): rw=%s, bs=(R) %uB-%uB, (W) %uB-%uB, (T) %uB-%uB, "
			"ioengine=%s, iodepth=%u\npagoda-fio\nStarting %u process%s\n\n", o.name,
			rw_names[o.rw], o.bs, o.bs, o.bs, o.bs, o.bs, o.bs, engine_names[o.ioengine],
			o.iodepth, o.numjobs, o.numjobs > 1 ? "es" : "");
	}
	atomic_set(&running, (int)o.numjobs);
	for (unsigned int i = 0; i < o.numjobs; i++)
		wake_up_process(jobs[i].task);
	/* Ctrl-C ends every job at its next I/O; what was done is reported, as fio does. */
	while (!wait_for_completion_timeout(&finished, 50 * NSEC_PER_MSEC))
		if (!stop && shell_interrupted()) {
			WRITE_ONCE(stop, true);
			if (!o.quiet)
				kprintf("fio: terminating on signal 2\n");
		}
	for (unsigned int i = 0; i < o.numjobs; i++) {
		kthread_join(jobs[i].task);
		jobs[i].task = NULL;
	}
	/* The group: everything summed over the longest job's time. */
	for (unsigned int i = 0; i < o.numjobs; i++) {
		for (int d = 0; d < 2; d++)
			stats_merge(&g->dir[d], &jobs[i].res.dir[d]);
		g->runtime_ns = MAX(g->runtime_ns, jobs[i].res.runtime_ns);
		if (jobs[i].res.error && !g->error)
			g->error = jobs[i].res.error;
	}
	g->pid = jobs[0].res.pid;
	if (!o.quiet) {
		if (o.json) {
			u64 now_ms = ktime_get_real_ns() / NSEC_PER_MSEC;

			kprintf("{\n  \"fio version\" : \"pagoda-fio\",\n  \"timestamp\" : %llu,\n"
				"  \"timestamp_ms\" : %llu,\n  \"jobs\" : [\n",
				(unsigned long long)(now_ms / 1000), (unsigned long long)now_ms);
		}
		if (o.group_reporting) {
			print_job(&o, o.name, o.numjobs, g, true);
		} else {
			for (unsigned int i = 0; i < o.numjobs; i++)
				print_job(&o, o.name, 1, &jobs[i].res, i == 0);
		}
		if (o.json)
			kprintf("\n  ]\n}\n");
		else
			print_group(jobs, o.numjobs, g);
	}
	if (sum) {
		for (int d = 0; d < 2; d++) {
			sum->iops[d] = per_sec(g->dir[d].ios, g->runtime_ns);
			sum->bw_kib[d] = per_sec(g->dir[d].bytes, g->runtime_ns) / 1024;
			sum->lat_avg_ns[d] = g->dir[d].ios ? g->dir[d].lat_sum / g->dir[d].ios : 0;
			sum->lat_p50_ns[d] = g->dir[d].ios ? stats_percentile(&g->dir[d], 5000) : 0;
			sum->lat_p99_ns[d] = g->dir[d].ios ? stats_percentile(&g->dir[d], 9900) : 0;
		}
	}
	err = g->error;
out:
	for (unsigned int i = 0; jobs && i < o.numjobs; i++)
		job_free(&jobs[i]);
	kfree(jobs);
	kfree(g);
	blkdev_put(bdev);
	return err;
}

static int cmd_fio(int argc, char **argv)
{
	struct fio_opts o;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		kprintf("usage: fio --filename=DEV [--name=N] [--rw=read|write|randread|randwrite|rw|randrw]\n"
			"           [--rwmixread=PCT] [--bs=4k] [--size=SIZE] [--offset=SIZE]\n"
			"           [--iodepth=N] [--numjobs=N] [--runtime=SECONDS] [--time_based]\n"
			"           [--ioengine=psync|async] [--direct=1] [--group_reporting]\n"
			"           [--output-format=normal|json]\n");
		return argc < 2 ? -EINVAL : 0;
	}
	fio_default_opts(&o);
	if (fio_parse(&o, argc, argv))
		return -EINVAL;
	return fio_run(&o, NULL);
}
SHELL_CMD(fio, "fio --filename=DEV --rw=... --bs=... [--help]",
	  "flexible I/O tester: fio's options and report, jobs as kernel threads", cmd_fio);
