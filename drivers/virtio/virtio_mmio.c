// SPDX-License-Identifier: MIT
/*
 * The virtio MMIO transport (virtio 1.x, 4.2): a 512-byte register window
 * per device, named by the device tree ("virtio,mmio" nodes: reg and one
 * interrupt). QEMU's arm64 virt has 32 such slots from 0x0a000000, 0x200
 * apart, and fills them from the highest down; an empty slot reads device
 * ID 0. Only version 2 (modern) windows are driven: QEMU makes legacy ones
 * unless told `-global virtio-mmio.force-legacy=false` (tools/qemu.py does).
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/fdt.h>
#include <pagoda/swiotlb.h>
#include <pagoda/io.h>
#include <pagoda/irq.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/vmalloc.h>
#include <pagoda/virtio.h>

#define VIRTIO_MMIO_MAGIC_VALUE 0x000
#define VIRTIO_MMIO_VERSION 0x004
#define VIRTIO_MMIO_DEVICE_ID 0x008
#define VIRTIO_MMIO_DEVICE_FEATURES 0x010
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL 0x014
#define VIRTIO_MMIO_DRIVER_FEATURES 0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL 0x024
#define VIRTIO_MMIO_QUEUE_SEL 0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX 0x034
#define VIRTIO_MMIO_QUEUE_NUM 0x038
#define VIRTIO_MMIO_QUEUE_READY 0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY 0x050
#define VIRTIO_MMIO_INTERRUPT_STATUS 0x060
#define VIRTIO_MMIO_INTERRUPT_ACK 0x064
#define VIRTIO_MMIO_STATUS 0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW 0x080
#define VIRTIO_MMIO_QUEUE_AVAIL_LOW 0x090
#define VIRTIO_MMIO_QUEUE_USED_LOW 0x0a0
#define VIRTIO_MMIO_CONFIG_GENERATION 0x0fc
#define VIRTIO_MMIO_CONFIG 0x100
#define VIRTIO_MMIO_INT_VRING 1

#define MMIO_MAGIC 0x74726976 /* "virt" */

struct virtio_mmio_device {
	struct virtio_device vdev;
	struct device dev;		/* the platform device: DMA is done for it */
	volatile u8 *base;
	unsigned int irq;
	struct virtqueue **vqs;
	unsigned int nvqs;
	char name[24];
};

#define to_vm(v) container_of(v, struct virtio_mmio_device, vdev)

static void vm_get(struct virtio_device *vdev, unsigned int off, void *buf, unsigned int len)
{
	struct virtio_mmio_device *vm = to_vm(vdev);
	u8 *b = buf;

	for (unsigned int i = 0; i < len; i++)
		b[i] = readb(vm->base + VIRTIO_MMIO_CONFIG + off + i);
}

static u32 vm_generation(struct virtio_device *vdev)
{
	return readl(to_vm(vdev)->base + VIRTIO_MMIO_CONFIG_GENERATION);
}

static u8 vm_get_status(struct virtio_device *vdev)
{
	return (u8)readl(to_vm(vdev)->base + VIRTIO_MMIO_STATUS);
}

static void vm_set_status(struct virtio_device *vdev, u8 status)
{
	writel(status, to_vm(vdev)->base + VIRTIO_MMIO_STATUS);
}

static void vm_reset(struct virtio_device *vdev)
{
	struct virtio_mmio_device *vm = to_vm(vdev);

	writel(0, vm->base + VIRTIO_MMIO_STATUS);
	while (readl(vm->base + VIRTIO_MMIO_STATUS))
		arch_cpu_relax();
}

static u64 vm_get_features(struct virtio_device *vdev)
{
	struct virtio_mmio_device *vm = to_vm(vdev);
	u64 f;

	writel(1, vm->base + VIRTIO_MMIO_DEVICE_FEATURES_SEL);
	f = (u64)readl(vm->base + VIRTIO_MMIO_DEVICE_FEATURES) << 32;
	writel(0, vm->base + VIRTIO_MMIO_DEVICE_FEATURES_SEL);
	return f | readl(vm->base + VIRTIO_MMIO_DEVICE_FEATURES);
}

static int vm_finalize_features(struct virtio_device *vdev)
{
	struct virtio_mmio_device *vm = to_vm(vdev);

	writel(1, vm->base + VIRTIO_MMIO_DRIVER_FEATURES_SEL);
	writel((u32)(vdev->features >> 32), vm->base + VIRTIO_MMIO_DRIVER_FEATURES);
	writel(0, vm->base + VIRTIO_MMIO_DRIVER_FEATURES_SEL);
	writel((u32)vdev->features, vm->base + VIRTIO_MMIO_DRIVER_FEATURES);
	return 0;
}

static bool vm_notify(struct virtqueue *vq)
{
	writel(vq->index, to_vm(vq->vdev)->base + VIRTIO_MMIO_QUEUE_NOTIFY);
	return true;
}

static void vm_interrupt(unsigned int irq, void *data)
{
	struct virtio_mmio_device *vm = data;
	u32 status = readl(vm->base + VIRTIO_MMIO_INTERRUPT_STATUS);

	(void)irq;
	writel(status, vm->base + VIRTIO_MMIO_INTERRUPT_ACK);
	if (status & VIRTIO_MMIO_INT_VRING)
		for (unsigned int i = 0; i < vm->nvqs; i++)
			vring_interrupt(vm->vqs[i]);
}

static void vm_del_vqs(struct virtio_device *vdev)
{
	struct virtio_mmio_device *vm = to_vm(vdev);

	if (vm->nvqs)
		free_irq(vm->irq, vm);
	for (unsigned int i = 0; i < vm->nvqs; i++) {
		if (!vm->vqs[i])
			continue;
		writel(i, vm->base + VIRTIO_MMIO_QUEUE_SEL);
		writel(0, vm->base + VIRTIO_MMIO_QUEUE_READY);
		vring_del_virtqueue(vm->vqs[i]);
	}
	kfree(vm->vqs);
	vm->vqs = NULL;
	vm->nvqs = 0;
}

static int setup_vq(struct virtio_mmio_device *vm, unsigned int i, vq_callback_t *cb,
		    const char *name)
{
	volatile u8 *b = vm->base;
	struct virtqueue *vq;
	u32 num;

	writel(i, b + VIRTIO_MMIO_QUEUE_SEL);
	if (readl(b + VIRTIO_MMIO_QUEUE_READY))
		return -EBUSY;
	num = readl(b + VIRTIO_MMIO_QUEUE_NUM_MAX);
	if (!num)
		return -ENOENT;
	while (num & (num - 1))
		num &= num - 1;
	num = MIN(num, 32768u);
	vq = vring_create_virtqueue(i, num, &vm->vdev, &vm->dev, vm_notify, cb, name);
	if (!vq)
		return -ENOMEM;
	writel(num, b + VIRTIO_MMIO_QUEUE_NUM);
	lo_hi_writeq(virtqueue_get_desc_addr(vq), b + VIRTIO_MMIO_QUEUE_DESC_LOW);
	lo_hi_writeq(virtqueue_get_avail_addr(vq), b + VIRTIO_MMIO_QUEUE_AVAIL_LOW);
	lo_hi_writeq(virtqueue_get_used_addr(vq), b + VIRTIO_MMIO_QUEUE_USED_LOW);
	writel(1, b + VIRTIO_MMIO_QUEUE_READY);
	vm->vqs[i] = vq;
	return 0;
}

static int vm_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
		       vq_callback_t *callbacks[], const char *const names[])
{
	struct virtio_mmio_device *vm = to_vm(vdev);
	int err;

	vm->vqs = kcalloc(nvqs, sizeof(*vm->vqs), GFP_KERNEL);
	if (!vm->vqs)
		return -ENOMEM;
	vm->nvqs = nvqs;
	for (unsigned int i = 0; i < nvqs; i++) {
		err = setup_vq(vm, i, callbacks[i], names[i]);
		if (err) {
			vm->nvqs = 0; /* the line was not requested yet */
			for (unsigned int j = 0; j < i; j++)
				vring_del_virtqueue(vm->vqs[j]);
			kfree(vm->vqs);
			vm->vqs = NULL;
			return err;
		}
		vqs[i] = vm->vqs[i];
	}
	/* One interrupt line for the whole device. */
	err = request_irq(vm->irq, vm_interrupt, vm->name, vm);
	if (err) {
		vm_del_vqs(vdev);
		return err;
	}
	return 0;
}

static int vm_restore_vqs(struct virtio_device *vdev)
{
	struct virtio_mmio_device *vm = to_vm(vdev);
	volatile u8 *b = vm->base;

	for (unsigned int i = 0; i < vm->nvqs; i++) {
		struct virtqueue *vq = vm->vqs[i];

		virtqueue_reset_indices(vq);
		writel(i, b + VIRTIO_MMIO_QUEUE_SEL);
		writel(virtqueue_get_vring_size(vq), b + VIRTIO_MMIO_QUEUE_NUM);
		lo_hi_writeq(virtqueue_get_desc_addr(vq), b + VIRTIO_MMIO_QUEUE_DESC_LOW);
		lo_hi_writeq(virtqueue_get_avail_addr(vq), b + VIRTIO_MMIO_QUEUE_AVAIL_LOW);
		lo_hi_writeq(virtqueue_get_used_addr(vq), b + VIRTIO_MMIO_QUEUE_USED_LOW);
		writel(1, b + VIRTIO_MMIO_QUEUE_READY);
	}
	return 0;
}

static const struct virtio_config_ops vm_config_ops = {
	.get = vm_get,
	.get_status = vm_get_status,
	.set_status = vm_set_status,
	.reset = vm_reset,
	.get_features = vm_get_features,
	.finalize_features = vm_finalize_features,
	.find_vqs = vm_find_vqs,
	.del_vqs = vm_del_vqs,
	.generation = vm_generation,
	.restore_vqs = vm_restore_vqs,
};

static void probe_node(const void *fdt, int node)
{
	struct virtio_mmio_device *vm;
	volatile u8 *base;
	u64 pa, size;
	int irq;
	u32 version, id;

	if (!fdt_node_enabled(fdt, node) || fdt_reg_cpu(fdt, node, 0, &pa, &size))
		return;
	base = ioremap(pa, size);
	if (!base)
		return;
	if (readl(base + VIRTIO_MMIO_MAGIC_VALUE) != MMIO_MAGIC ||
	    !(id = readl(base + VIRTIO_MMIO_DEVICE_ID))) {
		iounmap((void *)base); /* not virtio, or an empty slot */
		return;
	}
	version = readl(base + VIRTIO_MMIO_VERSION);
	irq = arch_fdt_irq(fdt, node, 0);
	if (version != 2 || irq < 0) {
		pr_warn("virtio-mmio %llx: %s; ignored\n", (unsigned long long)pa,
			version != 2 ? "a legacy (version 1) device: give QEMU "
				       "-global virtio-mmio.force-legacy=false" :
				       "no usable interrupt");
		iounmap((void *)base);
		return;
	}
	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	if (!vm) {
		iounmap((void *)base);
		return;
	}
	vm->base = base;
	vm->irq = (unsigned int)irq;
	snprintf(vm->name, sizeof(vm->name), "virtio-mmio@%llx", (unsigned long long)pa);
	device_initialize(&vm->dev, vm->name);
	vm->dev.dma_coherent = fdt_getprop(fdt, node, "dma-coherent", NULL) != NULL;
	dma_set_mask_and_coherent(&vm->dev, DMA_BIT_MASK(64));
	of_swiotlb_dev_init(&vm->dev, fdt, node);
	vm->vdev.id.device = id;
	vm->vdev.config = &vm_config_ops;
	vm->vdev.dma_dev = &vm->dev;
	register_virtio_device(&vm->vdev);
}

void virtio_mmio_init(void)
{
	const void *fdt = boot_info.dtb ? __va(boot_info.dtb) : NULL;

	if (!fdt)
		return;
	for (int n = fdt_node_by_compatible(fdt, -1, "virtio,mmio"); n >= 0;
	     n = fdt_node_by_compatible(fdt, n, "virtio,mmio"))
		probe_node(fdt, n);
}
