/* SPDX-License-Identifier: MIT */
/*
 * Linux's native asynchronous I/O, shared by fs/aio.c (the contexts and
 * their events) and fs/aio_rw.c (what io_submit starts). The structures a
 * program sees are laid out as Linux's <linux/aio_abi.h>.
 */
#ifndef FS_AIO_H
#define FS_AIO_H

#include <pagoda/list.h>
#include <pagoda/types.h>
#include <pagoda/uio.h>
#include <pagoda/wait.h>

/* iocb.aio_lio_opcode */
#define IOCB_CMD_PREAD 0
#define IOCB_CMD_PWRITE 1
#define IOCB_CMD_FSYNC 2
#define IOCB_CMD_FDSYNC 3
#define IOCB_CMD_POLL 5
#define IOCB_CMD_NOOP 6
#define IOCB_CMD_PREADV 7
#define IOCB_CMD_PWRITEV 8

/* iocb.aio_flags */
#define IOCB_FLAG_RESFD 1  /* signal an eventfd on completion */
#define IOCB_FLAG_IOPRIO 2 /* aio_reqprio is an I/O priority */

/* What io_submit writes into each iocb's aio_key (Linux's KIOCB_KEY). */
#define KIOCB_KEY 0

/* A request as the program writes it: 64 bytes, little-endian layout. */
struct iocb {
	u64 aio_data;       /* handed back in the event's data */
	u32 aio_key;        /* the kernel's */
	s32 aio_rw_flags;   /* RWF_* */
	u16 aio_lio_opcode; /* IOCB_CMD_* */
	s16 aio_reqprio;
	u32 aio_fildes;
	u64 aio_buf;        /* the buffer, or for PREADV/PWRITEV the iovec array */
	u64 aio_nbytes;     /* its length, or the number of iovecs */
	s64 aio_offset;
	u64 aio_reserved2;  /* must be 0 */
	u32 aio_flags;      /* IOCB_FLAG_* */
	u32 aio_resfd;
};

/* A completion as io_getevents hands it over: 32 bytes. */
struct io_event {
	u64 data; /* the iocb's aio_data */
	u64 obj;  /* the iocb's user address */
	s64 res;  /* bytes moved, or a negative errno */
	s64 res2;
};

/*
 * The head of the ring io_setup maps into the program (Linux's struct
 * aio_ring, 32 bytes); the context's id is its address.
 */
struct aio_ring {
	u32 id;
	u32 nr;
	u32 head;
	u32 tail;
	u32 magic;
	u32 compat_features;
	u32 incompat_features;
	u32 header_length;
};

/*
 * One context (Linux's struct kioctx), on the list of all of them with its
 * process. reqs_active counts requests from io_submit until io_getevents
 * hands their event over: at most nr_events, so a program that never
 * reaps is told -EAGAIN rather than growing the kernel's memory.
 * inflight counts the ones a device still holds; teardown waits for it to
 * reach 0. wait.lock guards done and inflight; completions take it from
 * the block layer's completion (an interrupt).
 */
struct kioctx {
	struct list_head list;
	struct process *owner;
	u64 user_id;             /* the ring's address */
	unsigned int max_reqs;   /* what io_setup asked: counted against AIO_MAX_NR */
	unsigned int nr_events;  /* what may be outstanding at once */
	unsigned int reqs_active;
	unsigned int inflight;
	unsigned int users;      /* lookups holding it, and the list's own */
	bool dead;               /* io_destroy or exit: no new lookups */
	struct list_head done;   /* completed requests, oldest first */
	wait_queue_head_t wait;  /* io_getevents, and teardown */
};

/*
 * One request (Linux's struct aio_kiocb). A direct transfer to or from a
 * block device goes through pages of the kernel's own (pages[]): a write
 * is copied in at submission, a read copied out to the program's buffers
 * (iov, in the submitter's address space) when its event is handed over.
 * The program's pages are never pinned, so nothing the program does to
 * its memory meanwhile can reach the kernel's.
 */
struct aio_kiocb {
	struct kioctx *ctx;
	struct list_head ki_list; /* on ctx->done */
	struct io_event ev;
	struct page **pages;
	unsigned int nr_pages;
	size_t len;               /* bytes the device moves */
	struct iovec *iov;        /* a read's destination, to copy out to */
	unsigned long nr_segs;
	bool copy_out;            /* iov still waits for the data */
	bool in_device;           /* counted in ctx->inflight */
	int error;                /* a direct transfer's: the bio's status */
};

/* fs/aio.c */
struct kioctx *lookup_ioctx(u64 ctx_id);
void put_ioctx(struct kioctx *ctx);
/*
 * Room for nr bounce pages (false: the kernel's pages held by requests
 * would pass an eighth of memory; the caller goes the synchronous way).
 * aio_free_req() gives a request's nr_pages back.
 */
bool aio_bounce_reserve(unsigned int nr);
/* A request slot (NULL: nr_events are outstanding already), and its return. */
struct aio_kiocb *aio_get_req(struct kioctx *ctx);
void aio_free_req(struct aio_kiocb *req);
/* The request is done: res as its event's result (any context). */
void aio_complete(struct aio_kiocb *req, long res);
/* A request handed to a device: counted until aio_complete(). */
void aio_inflight(struct aio_kiocb *req);

/* fs/aio_rw.c: one iocb; 0 when it is started or done, or the errno io_submit answers. */
int io_submit_one(struct kioctx *ctx, u64 user_iocb);

#endif
