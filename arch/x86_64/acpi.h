/* SPDX-License-Identifier: MIT */
#ifndef X86_64_ACPI_H
#define X86_64_ACPI_H

#include <pagoda/types.h>

struct acpi_header {
	char sig[4];
	u32 length;
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, creator_id, creator_revision;
} __packed;

/* A checksummed ACPI table by signature ("FACP", "APIC", "HMAT"), or NULL. */
const struct acpi_header *acpi_find_table(const char sig[4]);
bool acpi_poweroff(void);
bool acpi_reset(void);

#endif
