// SPDX-License-Identifier: MIT
/*
 * The virtio bus: transports register devices, drivers register for
 * device types, and the core introduces them (virtio 1.x, 3.1.1): reset,
 * ACKNOWLEDGE, DRIVER, agree on features, FEATURES_OK (and check the
 * device kept it: it clears the bit when it refuses the subset), the
 * driver's probe sets up its queues, DRIVER_OK. A failure at any step sets
 * FAILED and the device is left alone.
 */
#include <pagoda/pm.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/shell.h>
#include <pagoda/swiotlb.h>
#include <pagoda/virtio.h>

static LIST_HEAD(virtio_devices);
static LIST_HEAD(virtio_drivers);
static int next_index;

static void add_status(struct virtio_device *vdev, u8 bits)
{
	vdev->config->set_status(vdev, vdev->config->get_status(vdev) | bits);
}

void virtio_device_ready(struct virtio_device *vdev)
{
	add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
}

void virtio_cread_bytes(struct virtio_device *vdev, unsigned int off, void *buf,
			unsigned int len)
{
	u32 gen;

	/* A config change mid-read shows as a new generation: read again. */
	do {
		gen = vdev->config->generation(vdev);
		vdev->config->get(vdev, off, buf, len);
	} while (gen != vdev->config->generation(vdev));
}

static bool id_match(const struct virtio_driver *drv, const struct virtio_device *vdev)
{
	for (const struct virtio_device_id *id = drv->id_table; id->device; id++)
		if (id->device == vdev->id.device)
			return true;
	return false;
}

static int virtio_dev_probe(struct virtio_device *vdev, struct virtio_driver *drv)
{
	u64 offered = vdev->config->get_features(vdev), wanted = 1ULL << VIRTIO_F_VERSION_1;
	int err;

	add_status(vdev, VIRTIO_CONFIG_S_DRIVER);
	for (unsigned int i = 0; i < drv->feature_table_size; i++)
		wanted |= 1ULL << drv->feature_table[i];
	/*
	 * A device behind an IOMMU or that needs bounce buffers says so with
	 * ACCESS_PLATFORM; all our mappings already go through the DMA API,
	 * so accepting it costs nothing and refusing it would fail the device.
	 */
	wanted |= 1ULL << VIRTIO_F_ACCESS_PLATFORM;
	vdev->features = offered & wanted;
	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1)) {
		pr_err("virtio %s: a legacy device (no VERSION_1); not supported\n", vdev->name);
		return -ENODEV;
	}
	err = vdev->config->finalize_features(vdev);
	if (err)
		return err;
	add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK)) {
		pr_err("virtio %s: device refused features %#llx\n", vdev->name,
		       (unsigned long long)vdev->features);
		return -ENODEV;
	}
	vdev->driver = drv;
	err = drv->probe(vdev);
	if (err) {
		vdev->driver = NULL;
		return err;
	}
	/* Drivers normally say ready themselves; make sure. */
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_DRIVER_OK))
		virtio_device_ready(vdev);
	return 0;
}

static void try_bind(struct virtio_device *vdev, struct virtio_driver *drv)
{
	int err;

	if (vdev->driver || !id_match(drv, vdev))
		return;
	err = virtio_dev_probe(vdev, drv);
	if (err) {
		pr_warn("virtio %s: %s: probe failed (%d)\n", vdev->name, drv->name, err);
		add_status(vdev, VIRTIO_CONFIG_S_FAILED);
	}
}

int register_virtio_device(struct virtio_device *vdev)
{
	struct virtio_driver *drv;

	vdev->index = next_index++;
	snprintf(vdev->name, sizeof(vdev->name), "virtio%d", vdev->index);
	vdev->dev.name = vdev->name;
	/* swiotlb.restricted=...@virtio0: the transport's device does its DMA */
	if (vdev->dma_dev)
		swiotlb_restricted_alias(vdev->dma_dev, vdev->name);
	INIT_LIST_HEAD(&vdev->vqs);
	vdev->config->reset(vdev);
	add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	list_add_tail(&vdev->node, &virtio_devices);
	list_for_each_entry(drv, &virtio_drivers, node)
		try_bind(vdev, drv);
	return 0;
}

int register_virtio_driver(struct virtio_driver *drv)
{
	struct virtio_device *vdev;

	list_add_tail(&drv->node, &virtio_drivers);
	list_for_each_entry(vdev, &virtio_devices, node)
		try_bind(vdev, drv);
	return 0;
}

/* --- hibernation (pagoda/pm.h) ------------------------------------------ */

/* Before the snapshot: every request the drivers queued must have completed. */
static int virtio_pm_freeze(void)
{
	u64 deadline = ktime_get_ns() + 5 * NSEC_PER_SEC;
	struct virtio_device *vdev;
	struct virtqueue *vq;

	list_for_each_entry(vdev, &virtio_devices, node)
		list_for_each_entry(vq, &vdev->vqs, list)
			while (!virtqueue_idle(vq)) {
				if (ktime_get_ns() > deadline) {
					pr_err("virtio %s: queue %s still busy\n", vdev->name, vq->name);
					return -EBUSY;
				}
				msleep(1);
			}
	return 0;
}

/* The boot kernel, before it jumps into an image: no device may DMA on. */
static void virtio_pm_quiesce(void)
{
	struct virtio_device *vdev;

	list_for_each_entry(vdev, &virtio_devices, node)
		vdev->config->reset(vdev);
}

/*
 * The resumed kernel: the device was last driven by the boot kernel (and
 * reset by it). Walk the status byte again with this kernel's features
 * and queues, as a probe would, without making anything new.
 */
static void virtio_pm_restore(void)
{
	struct virtio_device *vdev;

	list_for_each_entry(vdev, &virtio_devices, node) {
		int err = 0;

		vdev->config->reset(vdev);
		add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
		if (!vdev->driver)
			continue;
		add_status(vdev, VIRTIO_CONFIG_S_DRIVER);
		err = vdev->config->finalize_features(vdev);
		if (!err) {
			add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
			if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK))
				err = -ENODEV;
		}
		if (!err && vdev->config->restore_vqs)
			err = vdev->config->restore_vqs(vdev);
		if (err) {
			pr_err("virtio %s: could not be set up again after resume (%d)\n",
			       vdev->name, err);
			add_status(vdev, VIRTIO_CONFIG_S_FAILED);
			continue;
		}
		virtio_device_ready(vdev);
	}
}

DEV_PM_HOOKS(virtio, .freeze = virtio_pm_freeze, .quiesce = virtio_pm_quiesce,
	     .restore = virtio_pm_restore);

static int cmd_virtio(int argc, char **argv)
{
	struct virtio_device *vdev;

	(void)argc;
	(void)argv;
	list_for_each_entry(vdev, &virtio_devices, node)
		kprintf("%-8s type %2u  via %-14s status %#04x features %#llx  %s\n", vdev->name,
			vdev->id.device, dev_name(vdev->dma_dev),
			vdev->config->get_status(vdev), (unsigned long long)vdev->features,
			vdev->driver ? vdev->driver->name : "-");
	return 0;
}
SHELL_CMD(virtio, "virtio", "virtio devices: type, transport, status, features, driver",
	  cmd_virtio);
