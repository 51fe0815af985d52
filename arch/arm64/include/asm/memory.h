/* SPDX-License-Identifier: MIT */
/* The arm64 virtual memory layout as portable code sees it (layout.h). */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include "../../layout.h"

#endif
