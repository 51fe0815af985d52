/* SPDX-License-Identifier: MIT */
/*
 * Names for errno values, so a failure reads "Invalid argument (EINVAL)"
 * rather than "-22". Both take the error either sign; an errno the table
 * does not know gives "E?" and "Unknown error".
 */
#ifndef PAGODA_ERRNAME_H
#define PAGODA_ERRNAME_H

/* "EINVAL" for -EINVAL or EINVAL. */
const char *errname(int err);
/* "Invalid argument", the C library's wording. */
const char *errmsg(int err);

#endif
