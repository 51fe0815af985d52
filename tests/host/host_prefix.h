/* SPDX-License-Identifier: MIT */
/*
 * Force-included into every kernel source compiled for the host test
 * runner: the kernel's own string and formatting routines get a pg_ prefix
 * so they neither clash with nor are replaced by the C library's, and the
 * tests exercise Pagoda's code, not glibc's.
 */
#ifndef PAGODA_HOST_PREFIX_H
#define PAGODA_HOST_PREFIX_H

#define PAGODA_HOST 1

#define memcpy pg_memcpy
#define memmove pg_memmove
#define memset pg_memset
#define memcmp pg_memcmp
#define memchr pg_memchr
#define strlen pg_strlen
#define strnlen pg_strnlen
#define strcmp pg_strcmp
#define strncmp pg_strncmp
#define strchr pg_strchr
#define strrchr pg_strrchr
#define strlcpy pg_strlcpy
#define strlcat pg_strlcat
#define strstr pg_strstr
#define strsep pg_strsep
#define skip_spaces pg_skip_spaces
#define strim pg_strim
#define strlist_has pg_strlist_has
#define kstrtou64 pg_kstrtou64
#define kstrtos64 pg_kstrtos64
#define kstrtosize pg_kstrtosize
#define kstrtobool pg_kstrtobool
#define vsnprintf pg_vsnprintf
#define snprintf pg_snprintf
#define vscnprintf pg_vscnprintf
#define scnprintf pg_scnprintf
#define isdigit pg_isdigit
#define isspace pg_isspace
#define isxdigit pg_isxdigit
#define isalpha pg_isalpha
#define isprint pg_isprint
#define tolower pg_tolower
#define panic pg_panic

#endif
