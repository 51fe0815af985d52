// SPDX-License-Identifier: MIT
/*
 * The in-order policy: no hooks at all, so the buddy core decides alone, as
 * Linux did before the shuffle. Memory is freed into the lists in address
 * order at boot, so a fresh node hands it out in address order; later the
 * order is whatever the history of frees made it.
 */
#include "policy.h"

const struct page_alloc_policy policy_inorder = {
	.name = "inorder",
	.desc = "no shuffle: the buddy allocator's own order (Linux's default)",
};
