// SPDX-License-Identifier: MIT
/*
 * The virtio PCI transport, modern interface (virtio 1.x, 4.1). The
 * function's vendor-specific capabilities point into its BARs: the common
 * configuration (features, status, queue setup), the notification area (a
 * queue's doorbell is at queue_notify_off * multiplier), the ISR byte (for
 * INTx) and the device-specific configuration.
 *
 * Interrupts: MSI-X with one vector for configuration changes and one per
 * queue when the function has enough; otherwise all queues share one
 * vector; without MSI-X, the INTx line, where the ISR byte (cleared by
 * reading it) says whether the device raised it.
 */
#include <pagoda/dma-mapping.h>
#include <pagoda/io.h>
#include <pagoda/irq.h>
#include <pagoda/pci.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/virtio.h>

#define PCI_VENDOR_ID_REDHAT_QUMRANET 0x1af4

#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4

#define VIRTIO_MSI_NO_VECTOR 0xffff

/* struct virtio_pci_common_cfg, by offset. */
#define VP_DFSELECT 0x00
#define VP_DF 0x04
#define VP_GFSELECT 0x08
#define VP_GF 0x0c
#define VP_MSIX_CONFIG 0x10
#define VP_NUM_QUEUES 0x12
#define VP_STATUS 0x14
#define VP_CFG_GENERATION 0x15
#define VP_Q_SELECT 0x16
#define VP_Q_SIZE 0x18
#define VP_Q_MSIX_VECTOR 0x1a
#define VP_Q_ENABLE 0x1c
#define VP_Q_NOTIFY_OFF 0x1e
#define VP_Q_DESCLO 0x20
#define VP_Q_AVAILLO 0x28
#define VP_Q_USEDLO 0x30

struct virtio_pci_device {
	struct virtio_device vdev;
	struct pci_dev *pci;
	volatile u8 *common, *isr, *device, *notify_base;
	u32 notify_off_multiplier;
	u64 notify_len, device_len;
	struct virtqueue **vqs;
	unsigned int nvqs;
	volatile u8 **notify;		/* per queue: its doorbell */
	bool per_vq_vectors, intx;
};

#define to_vp(v) container_of(v, struct virtio_pci_device, vdev)

static void vp_get(struct virtio_device *vdev, unsigned int off, void *buf, unsigned int len)
{
	struct virtio_pci_device *vp = to_vp(vdev);
	u8 *b = buf;

	if (off + len > vp->device_len) {
		memset(buf, 0, len);
		return;
	}
	for (unsigned int i = 0; i < len; i++)
		b[i] = readb(vp->device + off + i);
}

static u32 vp_generation(struct virtio_device *vdev)
{
	return readb(to_vp(vdev)->common + VP_CFG_GENERATION);
}

static u8 vp_get_status(struct virtio_device *vdev)
{
	return readb(to_vp(vdev)->common + VP_STATUS);
}

static void vp_set_status(struct virtio_device *vdev, u8 status)
{
	writeb(status, to_vp(vdev)->common + VP_STATUS);
}

static void vp_reset(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = to_vp(vdev);

	writeb(0, vp->common + VP_STATUS);
	/* The reset is done when the device reads back 0 (4.1.4.3.2). */
	while (readb(vp->common + VP_STATUS))
		arch_cpu_relax();
}

static u64 vp_get_features(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = to_vp(vdev);
	u64 f;

	writel(0, vp->common + VP_DFSELECT);
	f = readl(vp->common + VP_DF);
	writel(1, vp->common + VP_DFSELECT);
	return f | (u64)readl(vp->common + VP_DF) << 32;
}

static int vp_finalize_features(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = to_vp(vdev);

	writel(0, vp->common + VP_GFSELECT);
	writel((u32)vdev->features, vp->common + VP_GF);
	writel(1, vp->common + VP_GFSELECT);
	writel((u32)(vdev->features >> 32), vp->common + VP_GF);
	return 0;
}

static bool vp_notify(struct virtqueue *vq)
{
	struct virtio_pci_device *vp = to_vp(vq->vdev);

	writew((u16)vq->index, vp->notify[vq->index]);
	return true;
}

static void vp_vring_irq(unsigned int irq, void *data)
{
	(void)irq;
	vring_interrupt(data);
}

static void vp_shared_irq(unsigned int irq, void *data)
{
	struct virtio_pci_device *vp = data;

	(void)irq;
	/* INTx may be shared: the ISR byte says whether it was us. */
	if (vp->intx && !(readb(vp->isr) & 1))
		return;
	for (unsigned int i = 0; i < vp->nvqs; i++)
		vring_interrupt(vp->vqs[i]);
}

static void vp_config_irq(unsigned int irq, void *data)
{
	(void)irq;
	(void)data; /* configuration changes (a resize) are not acted on */
}

static int setup_vq(struct virtio_pci_device *vp, unsigned int i, vq_callback_t *cb,
		    const char *name, u16 vector)
{
	volatile u8 *c = vp->common;
	struct virtqueue *vq;
	u16 num, off;

	writew((u16)i, c + VP_Q_SELECT);
	num = readw(c + VP_Q_SIZE);
	if (!num || readw(c + VP_Q_ENABLE))
		return -ENOENT;
	/* Modern queue sizes need not be powers of two; ours must be. */
	while (num & (num - 1))
		num &= num - 1;
	off = readw(c + VP_Q_NOTIFY_OFF);
	if ((u64)off * vp->notify_off_multiplier + 2 > vp->notify_len)
		return -EINVAL;
	vp->notify[i] = vp->notify_base + off * vp->notify_off_multiplier;
	vq = vring_create_virtqueue(i, num, &vp->vdev, &vp->pci->dev, vp_notify, cb, name);
	if (!vq)
		return -ENOMEM;
	writew(num, c + VP_Q_SIZE);
	lo_hi_writeq(virtqueue_get_desc_addr(vq), c + VP_Q_DESCLO);
	lo_hi_writeq(virtqueue_get_avail_addr(vq), c + VP_Q_AVAILLO);
	lo_hi_writeq(virtqueue_get_used_addr(vq), c + VP_Q_USEDLO);
	if (vector != VIRTIO_MSI_NO_VECTOR) {
		writew(vector, c + VP_Q_MSIX_VECTOR);
		if (readw(c + VP_Q_MSIX_VECTOR) != vector) {
			vring_del_virtqueue(vq);
			return -EBUSY;
		}
	}
	writew(1, c + VP_Q_ENABLE);
	vp->vqs[i] = vq;
	return 0;
}

/* The vector queue i was given by vp_find_vqs(). */
static u16 vq_vector(struct virtio_pci_device *vp, unsigned int i)
{
	if (vp->intx)
		return VIRTIO_MSI_NO_VECTOR;
	if (vp->per_vq_vectors)
		return (u16)(i + 1);
	return vp->pci->nr_irqs > 1 ? 1 : 0;
}

static int vp_restore_vqs(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = to_vp(vdev);
	volatile u8 *c = vp->common;

	pci_msix_restore(vp->pci);
	if (vp->pci->msix_enabled)
		writew(0, c + VP_MSIX_CONFIG);
	for (unsigned int i = 0; i < vp->nvqs; i++) {
		struct virtqueue *vq = vp->vqs[i];
		u16 vector = vq_vector(vp, i);

		if (!vq)
			continue;
		virtqueue_reset_indices(vq);
		writew((u16)i, c + VP_Q_SELECT);
		writew((u16)virtqueue_get_vring_size(vq), c + VP_Q_SIZE);
		lo_hi_writeq(virtqueue_get_desc_addr(vq), c + VP_Q_DESCLO);
		lo_hi_writeq(virtqueue_get_avail_addr(vq), c + VP_Q_AVAILLO);
		lo_hi_writeq(virtqueue_get_used_addr(vq), c + VP_Q_USEDLO);
		if (vector != VIRTIO_MSI_NO_VECTOR) {
			writew(vector, c + VP_Q_MSIX_VECTOR);
			if (readw(c + VP_Q_MSIX_VECTOR) != vector)
				return -EBUSY;
		}
		writew(1, c + VP_Q_ENABLE);
	}
	return 0;
}

static void vp_del_vqs(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = to_vp(vdev);

	for (unsigned int i = 0; i < vp->nvqs; i++)
		if (vp->vqs[i])
			vring_del_virtqueue(vp->vqs[i]);
	kfree(vp->vqs);
	kfree((void *)vp->notify);
	vp->vqs = NULL;
	vp->notify = NULL;
	vp->nvqs = 0;
}

static int vp_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
		       vq_callback_t *callbacks[], const char *const names[])
{
	struct virtio_pci_device *vp = to_vp(vdev);
	struct pci_dev *pci = vp->pci;
	int n, err;

	if (nvqs > readw(vp->common + VP_NUM_QUEUES))
		return -ENOENT;
	vp->vqs = kcalloc(nvqs, sizeof(*vp->vqs), GFP_KERNEL);
	vp->notify = kcalloc(nvqs, sizeof(*vp->notify), GFP_KERNEL);
	if (!vp->vqs || !vp->notify) {
		vp_del_vqs(vdev);
		return -ENOMEM;
	}
	vp->nvqs = nvqs;
	n = pci_alloc_irq_vectors(pci, 1, nvqs + 1, PCI_IRQ_ALL_TYPES);
	if (n < 0) {
		vp_del_vqs(vdev);
		return n;
	}
	vp->intx = !pci->msix_enabled;
	vp->per_vq_vectors = pci->msix_enabled && (unsigned int)n >= nvqs + 1;
	if (pci->msix_enabled) {
		writew(0, vp->common + VP_MSIX_CONFIG);
		request_irq(pci_irq_vector(pci, 0), vp_config_irq, "virtio-config", vp);
	}
	for (unsigned int i = 0; i < nvqs; i++) {
		u16 vector = vq_vector(vp, i);

		err = setup_vq(vp, i, callbacks[i], names[i], vector);
		if (err)
			goto fail;
		vqs[i] = vp->vqs[i];
		if (vp->per_vq_vectors) {
			err = request_irq(pci_irq_vector(pci, i + 1), vp_vring_irq, names[i],
					  vqs[i]);
			if (err)
				goto fail;
			/*
			 * Queue i's completions on CPU i (wrapping), the CPU
			 * blk-mq submits to it from (block/blk-mq.c: cpu % nr):
			 * the woken task is then on the CPU that takes the
			 * interrupt, with no IPI, as Linux's managed affinity.
			 */
			pci_irq_set_cpu(pci, i + 1, i % num_online_cpus());
		}
	}
	if (!vp->per_vq_vectors) {
		/* One line for every queue: vector 1 (or 0 when that is all), or INTx. */
		err = request_irq(pci_irq_vector(pci, vp->intx || n == 1 ? 0 : 1),
				  vp_shared_irq, "virtio-queues", vp);
		if (err && !vp->intx)
			goto fail;
		if (err)
			pr_warn("virtio %s: INTx line busy (%d)\n", vdev->name, err);
	}
	pr_info("virtio %s: %u queue(s), %s\n", vdev->name, nvqs,
		vp->per_vq_vectors ? "an MSI-X vector each" :
		vp->intx ? "INTx" : "one shared MSI-X vector");
	return 0;
fail:
	vp_del_vqs(vdev);
	return err;
}

static const struct virtio_config_ops vp_config_ops = {
	.get = vp_get,
	.get_status = vp_get_status,
	.set_status = vp_set_status,
	.reset = vp_reset,
	.get_features = vp_get_features,
	.finalize_features = vp_finalize_features,
	.find_vqs = vp_find_vqs,
	.del_vqs = vp_del_vqs,
	.generation = vp_generation,
	.restore_vqs = vp_restore_vqs,
};

/* Map the region a virtio capability names; its length through *len. */
static volatile u8 *map_cap(struct pci_dev *pci, u8 pos, u64 *len)
{
	u8 bar = pci_read_config_byte(pci, pos + 4);
	u32 off = pci_read_config_dword(pci, pos + 8);
	u32 length = pci_read_config_dword(pci, pos + 12);

	if (bar >= PCI_NUM_RESOURCES || !length)
		return NULL;
	if (len)
		*len = length;
	return pci_iomap_range(pci, bar, off, length);
}

static int virtio_pci_probe(struct pci_dev *pci, const struct pci_device_id *id)
{
	struct virtio_pci_device *vp;
	u8 pos;

	(void)id;
	if (pci->device < 0x1000 || pci->device > 0x107f)
		return -ENODEV; /* Red Hat's other functions are not virtio */
	vp = kzalloc(sizeof(*vp), GFP_KERNEL);
	if (!vp)
		return -ENOMEM;
	vp->pci = pci;
	pci_enable_device(pci);
	for (pos = pci_find_capability(pci, PCI_CAP_ID_VNDR); pos;
	     pos = pci_find_next_capability(pci, pci_read_config_byte(pci, pos + 1) & ~3,
					    PCI_CAP_ID_VNDR)) {
		u8 type = pci_read_config_byte(pci, pos + 3);

		if (type == VIRTIO_PCI_CAP_COMMON_CFG && !vp->common)
			vp->common = map_cap(pci, pos, NULL);
		else if (type == VIRTIO_PCI_CAP_NOTIFY_CFG && !vp->notify_base) {
			vp->notify_base = map_cap(pci, pos, &vp->notify_len);
			vp->notify_off_multiplier = pci_read_config_dword(pci, pos + 16);
		} else if (type == VIRTIO_PCI_CAP_ISR_CFG && !vp->isr)
			vp->isr = map_cap(pci, pos, NULL);
		else if (type == VIRTIO_PCI_CAP_DEVICE_CFG && !vp->device)
			vp->device = map_cap(pci, pos, &vp->device_len);
	}
	if (!vp->common || !vp->notify_base || !vp->isr) {
		pr_warn("pci %s: no modern virtio capabilities (legacy-only device?)\n", pci->name);
		kfree(vp);
		return -ENODEV;
	}
	pci_set_master(pci);
	/* Modern IDs are 0x1040 + type; transitional ones carry it in the subsystem. */
	vp->vdev.id.device = pci->device >= 0x1040 ? pci->device - 0x1040u :
						     pci->subsystem_device;
	vp->vdev.config = &vp_config_ops;
	vp->vdev.dma_dev = &pci->dev;
	dma_set_mask_and_coherent(&pci->dev, DMA_BIT_MASK(64));
	pci->driver_data = vp;
	return register_virtio_device(&vp->vdev);
}

static const struct pci_device_id virtio_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, PCI_ANY_ID) },
	{}
};

static struct pci_driver virtio_pci_driver = {
	.name = "virtio-pci",
	.id_table = virtio_pci_ids,
	.probe = virtio_pci_probe,
};

void virtio_pci_init(void)
{
	pci_register_driver(&virtio_pci_driver);
}
