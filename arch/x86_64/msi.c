// SPDX-License-Identifier: MIT
/*
 * Message-signalled interrupts on x86: a PCI function raises one by writing
 * a 32-bit value to an address in the local APICs' window at 0xfee00000.
 * The address names the destination APIC, the value the vector, so an MSI
 * reaches a CPU without passing through the I/O APIC at all.
 *
 * Pagoda numbers MSI lines in the same space as GSIs: the vectors
 * IRQ_VECTOR_BASE + n for n beyond the I/O APICs' pins are free, and the
 * existing dispatch (handle_irq(vector - IRQ_VECTOR_BASE)) already serves
 * them. Every message goes to the boot CPU, like every I/O APIC line,
 * unless the driver aims it elsewhere (arch_msi_target(): a queue's
 * completions on the CPU that submits to it).
 */
#include <pagoda/arch.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <asm/x86.h>

#define MSI_ADDR_BASE 0xfee00000ULL

static u64 allocated; /* bit n: line n is an MSI line */
static DEFINE_SPINLOCK(msi_lock);

bool msi_line_allocated(unsigned int irq)
{
	return irq < 64 && (READ_ONCE(allocated) >> irq & 1);
}

int arch_msi_alloc(unsigned int *irq, u64 *addr, u32 *data)
{
	unsigned long flags;
	int found = -ENOSPC;

	spin_lock_irqsave(&msi_lock, flags);
	/* From the top down, well clear of the I/O APIC's pins. */
	for (int n = NR_GSI_VECTORS - 1; n >= 24; n--) {
		if ((allocated >> n & 1) || ioapic_has_gsi((unsigned int)n))
			continue;
		allocated |= 1ULL << n;
		found = n;
		break;
	}
	spin_unlock_irqrestore(&msi_lock, flags);
	if (found < 0)
		return found;
	*irq = (unsigned int)found;
	/* Physical destination mode, the boot CPU's APIC id in bits 19:12. */
	*addr = MSI_ADDR_BASE | (u64)(x86_apic_ids[0] & 0xff) << 12;
	/* Fixed delivery, edge triggered: only the vector. */
	*data = IRQ_VECTOR_BASE + (u32)found;
	return 0;
}

bool arch_msi_target(u64 *addr, unsigned int cpu)
{
	if (cpu >= x86_nr_cpus || !cpu_online(cpu))
		return false;
	*addr = MSI_ADDR_BASE | (u64)(x86_apic_ids[cpu] & 0xff) << 12;
	return true;
}

void arch_msi_free(unsigned int irq)
{
	unsigned long flags;

	if (irq >= 64)
		return;
	spin_lock_irqsave(&msi_lock, flags);
	allocated &= ~(1ULL << irq);
	spin_unlock_irqrestore(&msi_lock, flags);
}
