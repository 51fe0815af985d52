/* SPDX-License-Identifier: MIT */
/* The host build is x86-64 Linux: its open flags are x86-64's. */
#include "../../../../arch/x86_64/include/asm/fcntl.h"
