// SPDX-License-Identifier: MIT
/*
 * Tags: the numbers of a hardware queue's in-flight requests (Linux:
 * block/blk-mq-tag.c, on an sbitmap there; one bitmap here).
 *
 * A tag is both a request's name on the device (virtio's descriptor head,
 * a command slot) and the bound on how many requests are in flight. Taking
 * one is a test-and-set on a bit, searched from a rotating hint so that
 * CPUs do not all fight over bit 0; a submitter that finds none sleeps on
 * `wait` (blk-mq.c) and blk_mq_put_tag() wakes it.
 *
 * Pure code: runs on the host in the ktest host runner.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/slab.h>

#define BITS_PER_LONG_ (8 * sizeof(unsigned long))

int blk_mq_init_tags(struct blk_mq_tags *tags, unsigned int nr_tags)
{
	if (!nr_tags || nr_tags > BLK_MQ_MAX_DEPTH)
		return -EINVAL;
	tags->nr_tags = nr_tags;
	tags->alloc_hint = 0;
	atomic_set(&tags->active, 0);
	tags->bitmap = kcalloc(DIV_ROUND_UP(nr_tags, BITS_PER_LONG_), sizeof(unsigned long),
			       GFP_KERNEL);
	tags->static_rqs = kcalloc(nr_tags, sizeof(struct request *), GFP_KERNEL);
	init_waitqueue_head(&tags->wait);
	if (!tags->bitmap || !tags->static_rqs) {
		blk_mq_free_tags(tags);
		return -ENOMEM;
	}
	return 0;
}

void blk_mq_free_tags(struct blk_mq_tags *tags)
{
	kfree(tags->bitmap);
	kfree(tags->static_rqs);
	tags->bitmap = NULL;
	tags->static_rqs = NULL;
}

int blk_mq_get_tag_nowait(struct blk_mq_tags *tags)
{
	unsigned int n = tags->nr_tags;
	unsigned int start = READ_ONCE(tags->alloc_hint) % n;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int tag = (start + i) % n;

		if (test_bit(tag, tags->bitmap))
			continue;
		if (!test_and_set_bit_lock(tag, tags->bitmap)) {
			WRITE_ONCE(tags->alloc_hint, tag + 1);
			atomic_inc(&tags->active);
			return (int)tag;
		}
	}
	return -1;
}

void blk_mq_put_tag(struct blk_mq_tags *tags, unsigned int tag)
{
	atomic_dec(&tags->active);
	clear_bit_unlock(tag, tags->bitmap);
	/* Pairs with the barrier in prepare_to_wait(): a sleeper sees the bit or we see it. */
	smp_mb();
	if (!list_empty(&tags->wait.head))
		wake_up_all(&tags->wait);
}
