/* SPDX-License-Identifier: MIT */
/*
 * Virtio 1.x (drivers/virtio/): a device (block, net...) reached through a
 * transport (PCI, MMIO) and talked to through virtqueues. Linux's names:
 *
 *	transport:  register_virtio_device(vdev)   after filling vdev->config
 *	driver:     register_virtio_driver(&drv)   probe(vdev) for each match
 *	in probe:   virtio_find_vqs(vdev, n, vqs, callbacks, names)
 *	            virtqueue_add_sgs(vq, sgs, out, in, data); virtqueue_kick(vq)
 *	in the vq callback: while ((data = virtqueue_get_buf(vq, &len))) ...
 *
 * The core negotiates features (the device's offer AND the driver's table,
 * VIRTIO_F_VERSION_1 required: no legacy devices) and walks the status
 * byte: ACKNOWLEDGE, DRIVER, FEATURES_OK, DRIVER_OK, or FAILED.
 */
#ifndef PAGODA_VIRTIO_H
#define PAGODA_VIRTIO_H

#include <pagoda/device.h>
#include <pagoda/gfp.h>
#include <pagoda/list.h>
#include <pagoda/scatterlist.h>

#define VIRTIO_CONFIG_S_ACKNOWLEDGE 1
#define VIRTIO_CONFIG_S_DRIVER 2
#define VIRTIO_CONFIG_S_DRIVER_OK 4
#define VIRTIO_CONFIG_S_FEATURES_OK 8
#define VIRTIO_CONFIG_S_NEEDS_RESET 0x40
#define VIRTIO_CONFIG_S_FAILED 0x80

#define VIRTIO_F_VERSION_1 32
#define VIRTIO_F_ACCESS_PLATFORM 33

#define VIRTIO_ID_BLOCK 2

struct virtio_device;
struct virtqueue;
typedef void vq_callback_t(struct virtqueue *vq);

struct virtio_config_ops {
	void (*get)(struct virtio_device *vdev, unsigned int off, void *buf, unsigned int len);
	u8 (*get_status)(struct virtio_device *vdev);
	void (*set_status)(struct virtio_device *vdev, u8 status);
	void (*reset)(struct virtio_device *vdev);
	u64 (*get_features)(struct virtio_device *vdev);
	/* Write vdev->features to the device. */
	int (*finalize_features)(struct virtio_device *vdev);
	int (*find_vqs)(struct virtio_device *vdev, unsigned int nvqs,
			struct virtqueue *vqs[], vq_callback_t *callbacks[],
			const char *const names[]);
	void (*del_vqs)(struct virtio_device *vdev);
	/* Read the device config generation counter (0 where there is none). */
	u32 (*generation)(struct virtio_device *vdev);
	/*
	 * After a resume from hibernation: give the (reset) device the queues
	 * this kernel already has, and their interrupt vectors.
	 */
	int (*restore_vqs)(struct virtio_device *vdev);
};

struct virtio_device_id {
	u32 device;
};

struct virtio_device {
	struct device dev;
	/* The transport's device: what DMA mappings are made for. */
	struct device *dma_dev;
	int index;			/* virtio0, virtio1... */
	struct virtio_device_id id;
	const struct virtio_config_ops *config;
	u64 features;			/* negotiated */
	struct list_head vqs;
	struct list_head node;
	struct virtio_driver *driver;
	void *priv;			/* the driver's */
	char name[16];
};

struct virtio_driver {
	const char *name;
	const struct virtio_device_id *id_table;	/* ends with device 0 */
	const unsigned int *feature_table;		/* bit numbers it knows */
	unsigned int feature_table_size;
	int (*probe)(struct virtio_device *vdev);
	struct list_head node;
};

static inline bool virtio_has_feature(const struct virtio_device *vdev, unsigned int f)
{
	return f < 64 && (vdev->features >> f & 1);
}

/* Device-specific configuration, read consistently across a change. */
void virtio_cread_bytes(struct virtio_device *vdev, unsigned int off, void *buf,
			unsigned int len);
#define virtio_cread_le(vdev, structname, member, ptr)                        \
	virtio_cread_bytes(vdev, offsetof(structname, member), ptr,           \
			   sizeof(*(ptr)))

int register_virtio_device(struct virtio_device *vdev);
int register_virtio_driver(struct virtio_driver *drv);
/* Set DRIVER_OK: the device may now use the queues (end of probe). */
void virtio_device_ready(struct virtio_device *vdev);

static inline int virtio_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
				  struct virtqueue *vqs[], vq_callback_t *callbacks[],
				  const char *const names[])
{
	return vdev->config->find_vqs(vdev, nvqs, vqs, callbacks, names);
}

/* ---- virtqueues (drivers/virtio/virtio_ring.c) ------------------------- */

struct virtqueue {
	struct list_head list;
	vq_callback_t *callback;
	const char *name;
	struct virtio_device *vdev;
	unsigned int index;
	unsigned int num_free;		/* descriptors not in use */
	unsigned int num_max;
	void *priv;			/* the transport's */
};

/*
 * Queue one request: out_sgs scatterlists the device reads, then in_sgs it
 * writes; data comes back from virtqueue_get_buf() when it completes.
 * -ENOSPC when too few descriptors are free (the caller waits for
 * completions and retries), -ENOMEM when a buffer cannot be mapped.
 */
int virtqueue_add_sgs(struct virtqueue *vq, struct scatterlist *sgs[],
		      unsigned int out_sgs, unsigned int in_sgs, void *data, gfp_t gfp);
/* Tell the device about queued requests (unless it asked not to be told). */
bool virtqueue_kick_prepare(struct virtqueue *vq);
bool virtqueue_notify(struct virtqueue *vq);
bool virtqueue_kick(struct virtqueue *vq);
/* The next completed request's data (and bytes written), or NULL. */
void *virtqueue_get_buf(struct virtqueue *vq, unsigned int *len);
void virtqueue_disable_cb(struct virtqueue *vq);
/* No request in flight (every descriptor free). */
bool virtqueue_idle(const struct virtqueue *vq);
/* After a device reset with nothing in flight: both rings start again at index 0. */
void virtqueue_reset_indices(struct virtqueue *vq);
/* Re-enable callbacks; false when completions arrived meanwhile (poll again). */
bool virtqueue_enable_cb(struct virtqueue *vq);
bool virtqueue_is_broken(struct virtqueue *vq);
unsigned int virtqueue_get_vring_size(const struct virtqueue *vq);
/* The transport's interrupt for this queue: runs the callback. */
void vring_interrupt(struct virtqueue *vq);

/*
 * For transports: a queue of num entries (a power of two) in one coherent
 * allocation for dma_dev; notify() rings the doorbell.
 */
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev,
					 struct device *dma_dev,
					 bool (*notify)(struct virtqueue *),
					 vq_callback_t *callback, const char *name);
void vring_del_virtqueue(struct virtqueue *vq);
/* Bus addresses of the three areas, for the transport to program. */
dma_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq);
dma_addr_t virtqueue_get_avail_addr(const struct virtqueue *vq);
dma_addr_t virtqueue_get_used_addr(const struct virtqueue *vq);

#endif
