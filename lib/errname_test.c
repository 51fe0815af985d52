// SPDX-License-Identifier: MIT
/* errno names: both signs, every errno the kernel defines, and the unknown. */
#include <pagoda/errname.h>
#include <pagoda/ktest.h>
#include <pagoda/string.h>

static void test_names_and_messages(struct ktest *t)
{
	KEXPECT_STREQ(t, errname(-EINVAL), "EINVAL");
	KEXPECT_STREQ(t, errname(EINVAL), "EINVAL");
	KEXPECT_STREQ(t, errmsg(-EINVAL), "Invalid argument");
	KEXPECT_STREQ(t, errname(-ENODEV), "ENODEV");
	KEXPECT_STREQ(t, errmsg(-ENOMEM), "Cannot allocate memory");
}

static void test_every_errno_named(struct ktest *t)
{
	static const int all[] = { EPERM, ENOENT, EINTR, EIO, E2BIG, EAGAIN, ENOMEM,
				   EFAULT, EBUSY, EEXIST, ENODEV, EINVAL, ENOSPC,
				   ERANGE, EDEADLK, ENOSYS, EOVERFLOW, ETIMEDOUT };

	for (unsigned int i = 0; i < ARRAY_SIZE(all); i++) {
		KEXPECT_TRUE(t, strcmp(errname(-all[i]), "E?") != 0);
		KEXPECT_TRUE(t, strcmp(errmsg(-all[i]), "Unknown error") != 0);
	}
}

static void test_unknown(struct ktest *t)
{
	KEXPECT_STREQ(t, errname(-9999), "E?");
	KEXPECT_STREQ(t, errmsg(0), "Unknown error");
}

static struct ktest_case errname_cases[] = {
	KTEST_CASE(test_names_and_messages),
	KTEST_CASE(test_every_errno_named),
	KTEST_CASE(test_unknown),
	{}
};
KTEST_SUITE(errname, errname_cases);
