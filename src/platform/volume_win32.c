// SPDX-License-Identifier: MIT
/*
 * volume_win32.c: volume.h on Windows: what a directory lives on (GetVolumePathNameW,
 * GetVolumeInformationW: NTFS or ReFS, cluster size), the device under it (sector sizes and
 * alignment from IOCTL_STORAGE_QUERY_PROPERTY, seek penalty, model), ReFS integrity streams
 * (FSCTL_GET_INTEGRITY_INFORMATION), and the volume's I/O counters (IOCTL_DISK_PERFORMANCE)
 * for write amplification and the cache-served check.
 */
#include "platform/volume.h"

#include <windows.h>
#include <winioctl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "os/osP.h"

/* winioctl.h of mingw-w64 10 lacks it: CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 159, BUFFERED, ANY) */
#ifndef FSCTL_GET_INTEGRITY_INFORMATION
#define FSCTL_GET_INTEGRITY_INFORMATION \
	CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 159, METHOD_BUFFERED, FILE_ANY_ACCESS)
typedef struct {
	WORD ChecksumAlgorithm; /* 0 none, 2 CRC64 */
	WORD Reserved;
	DWORD Flags;            /* 1: checksum enforcement off */
	DWORD ChecksumChunkSizeInBytes;
	DWORD ClusterSizeInBytes;
} FSCTL_GET_INTEGRITY_INFORMATION_BUFFER;
#endif

/* Device handle without data access (enough for the IOCTLs here), or INVALID_HANDLE_VALUE. */
static HANDLE open_device(const wchar_t *path)
{
	return CreateFileW(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			   OPEN_EXISTING, 0, NULL);
}

static bool query_prop(HANDLE h, STORAGE_PROPERTY_ID id, void *out, DWORD len)
{
	STORAGE_PROPERTY_QUERY q = { .PropertyId = id, .QueryType = PropertyStandardQuery };
	DWORD got;

	memset(out, 0, len);
	return DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q), out, len, &got,
			       NULL) && got >= 8;
}

/* Vendor and product from the storage device descriptor ("" when not told). */
static char *device_model(HANDLE h)
{
	union {
		STORAGE_DEVICE_DESCRIPTOR d;
		char raw[1024];
	} u;
	const char *vendor = "", *product = "";

	if (!query_prop(h, StorageDeviceProperty, &u, sizeof(u)))
		return xstrdup("");
	u.raw[sizeof(u.raw) - 1] = 0;
	if (u.d.VendorIdOffset && u.d.VendorIdOffset < sizeof(u.raw))
		vendor = u.raw + u.d.VendorIdOffset;
	if (u.d.ProductIdOffset && u.d.ProductIdOffset < sizeof(u.raw))
		product = u.raw + u.d.ProductIdOffset;
	while (*vendor == ' ')
		vendor++;
	return xasprintf("%s%s%s", vendor, *vendor && *product ? " " : "", product);
}

/* Facts of the device under a volume handle, into v and extra. */
static void probe_device(struct volume *v, HANDLE vol, json_t *extra)
{
	STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR al;
	DEVICE_SEEK_PENALTY_DESCRIPTOR sp;
	union {
		VOLUME_DISK_EXTENTS e;
		char raw[sizeof(VOLUME_DISK_EXTENTS) + 16 * sizeof(DISK_EXTENT)];
	} ext;
	HANDLE disk = INVALID_HANDLE_VALUE;
	DWORD got;

	if (DeviceIoControl(vol, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0, &ext, sizeof(ext),
			    &got, NULL) && ext.e.NumberOfDiskExtents >= 1) {
		wchar_t path[64];

		swprintf(path, ARRAY_SIZE(path), L"\\\\.\\PhysicalDrive%lu",
			 ext.e.Extents[0].DiskNumber);
		v->devname = xasprintf("PhysicalDrive%lu", ext.e.Extents[0].DiskNumber);
		json_object_set_new(extra, "partition_offset",
				    json_integer(ext.e.Extents[0].StartingOffset.QuadPart));
		json_object_set_new(extra, "disk_extents", json_integer(ext.e.NumberOfDiskExtents));
		disk = open_device(path);
	}
	/* the disk answers for sectors and seek penalty; the volume forwards where it can */
	if (query_prop(disk != INVALID_HANDLE_VALUE ? disk : vol, StorageAccessAlignmentProperty,
		       &al, sizeof(al))) {
		v->logical_sector = al.BytesPerLogicalSector;
		v->physical_sector = al.BytesPerPhysicalSector;
		json_object_set_new(extra, "sector_alignment_offset",
				    json_integer(al.BytesOffsetForSectorAlignment));
	}
	if (query_prop(disk != INVALID_HANDLE_VALUE ? disk : vol, StorageDeviceSeekPenaltyProperty,
		       &sp, sizeof(sp)))
		v->rotational = sp.IncursSeekPenalty;
	v->model = device_model(disk != INVALID_HANDLE_VALUE ? disk : vol);
	if (disk != INVALID_HANDLE_VALUE)
		CloseHandle(disk);
}

/* The integrity streams of the directory (its new files inherit them), on a filesystem that
 * has them (ReFS). */
static void probe_integrity(const wchar_t *dir, json_t *extra)
{
	FSCTL_GET_INTEGRITY_INFORMATION_BUFFER ib;
	HANDLE h = CreateFileW(dir, FILE_READ_ATTRIBUTES,
			       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	DWORD got;

	if (h == INVALID_HANDLE_VALUE)
		return;
	if (DeviceIoControl(h, FSCTL_GET_INTEGRITY_INFORMATION, NULL, 0, &ib, sizeof(ib), &got,
			    NULL)) {
		json_object_set_new(extra, "integrity_streams", json_boolean(ib.ChecksumAlgorithm));
		json_object_set_new(extra, "integrity_enforced",
				    json_boolean(ib.ChecksumAlgorithm && !(ib.Flags & 1)));
	}
	CloseHandle(h);
}

/* The volume mounted at mp through its GUID name: the device under it (probe_device()) and
 * whether its I/O counters answer (the sampler reads them then). */
static void probe_volume_device(struct volume *v, const wchar_t *mp, DWORD serial, json_t *extra)
{
	wchar_t guid[64];
	DISK_PERFORMANCE dp;
	DWORD got;
	HANDLE vol;
	size_t n;

	/* "\\?\Volume{GUID}\" names the volume; without the slash it opens the device */
	if (!GetVolumeNameForVolumeMountPointW(mp, guid, ARRAY_SIZE(guid)))
		return;
	n = wcslen(guid);
	v->source = volume_path_slashes(os_narrow(guid));
	if (n && guid[n - 1] == L'\\')
		guid[n - 1] = 0;
	if (n > 4 && guid[2] == L'?')
		guid[2] = L'.';
	vol = open_device(guid);
	if (vol == INVALID_HANDLE_VALUE)
		return;
	probe_device(v, vol, extra);
	if (DeviceIoControl(vol, IOCTL_DISK_PERFORMANCE, NULL, 0, &dp, sizeof(dp), &got, NULL)) {
		v->stat_path = os_narrow(guid);
		v->bdev = (dev_t)serial;
	}
	json_object_set_new(extra, "device_counters", json_boolean(v->stat_path));
	CloseHandle(vol);
}

int volume_probe(struct volume *v, const char *role, const char *dir)
{
	wchar_t *wd = os_widen(dir), full[MAX_PATH * 2], mp[MAX_PATH * 2];
	wchar_t fsname[MAX_PATH + 1], label[MAX_PATH + 1];
	DWORD serial = 0, maxcomp = 0, fsflags = 0, spc, bps = 0, nfree, ntotal;
	ULARGE_INTEGER avail, total, tfree;
	json_t *extra;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	v->o_direct = -1;
	v->nowait = -1;
	if (!wd)
		return -EINVAL;
	ret = os_dirh_open(dir, &v->dh);
	if (ret) {
		free(wd);
		return ret;
	}
	if (!GetFullPathNameW(wd, ARRAY_SIZE(full), full, NULL) ||
	    !GetVolumePathNameW(full, mp, ARRAY_SIZE(mp))) {
		ret = os_errno_from_win(GetLastError());
		free(wd);
		return ret;
	}
	free(wd);
	v->role = xstrdup(role);
	v->dir = volume_path_slashes(os_narrow(full));
	v->mountpoint = volume_path_slashes(os_narrow(mp));
	if (!GetVolumeInformationW(mp, label, ARRAY_SIZE(label), &serial, &maxcomp, &fsflags,
				   fsname, ARRAY_SIZE(fsname)))
		wcscpy(fsname, L"unknown");
	v->fstype = os_narrow(fsname);
	for (char *p = v->fstype; *p; p++) /* "NTFS" -> "ntfs", as on Linux */
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	v->fsname = xstrdup(v->fstype);
	v->options = xstrdup("");
	v->fs_dev = (dev_t)serial;
	extra = json_object();
	json_object_set_new(extra, "os", json_string("windows"));
	json_object_set_new(extra, "volume_serial", json_integer(serial));
	json_object_set_new(extra, "fs_flags", json_integer(fsflags));
	if (GetDiskFreeSpaceW(mp, &spc, &bps, &nfree, &ntotal)) {
		v->block_size = (uint64_t)spc * bps; /* the cluster (allocation unit) */
		json_object_set_new(extra, "cluster_size", json_integer(v->block_size));
	}
	if (GetDiskFreeSpaceExW(mp, &avail, &total, &tfree)) {
		v->fs_size = total.QuadPart;
		v->fs_free = tfree.QuadPart;
		v->fs_avail = avail.QuadPart;
	}
	probe_volume_device(v, mp, serial, extra);
	if (!v->source)
		v->source = xstrdup(v->mountpoint);
	if (!v->model)
		v->model = xstrdup("");
	if (!v->logical_sector)
		v->logical_sector = bps ? bps : 512;
	if (!v->physical_sector)
		v->physical_sector = v->logical_sector;
	if (fsflags & FILE_SUPPORTS_INTEGRITY_STREAMS) /* ReFS: asked of the filesystem */
		probe_integrity(full, extra);
	v->extra = extra;
	return 0;
}

int volume_probe_raw(struct volume *v, const char *role, const char *dev, bool force)
{
	(void)v;
	(void)role;
	(void)force;
	return input_error("%s: raw devices are not supported on Windows yet; give directories "
			   "on the volumes under test (fslab prep --db-disk N --log-disk M makes "
			   "them)", dev);
}

int volume_raw_separate(const struct volume *a, const struct volume *b)
{
	(void)a;
	(void)b;
	return 0; /* volume_probe_raw() refused them */
}

int volume_statfs(struct volume *v)
{
	ULARGE_INTEGER avail, total, tfree;
	wchar_t *w = os_widen(v->mountpoint);
	BOOL ok;

	if (!w)
		return -EINVAL;
	ok = GetDiskFreeSpaceExW(w, &avail, &total, &tfree);
	free(w);
	if (!ok)
		return os_errno_from_win(GetLastError());
	v->fs_size = total.QuadPart;
	v->fs_free = tfree.QuadPart;
	v->fs_avail = avail.QuadPart;
	return 0;
}

/*
 * The volume's counters since boot: bytes and I/Os read and written; busy time = query time -
 * idle time, so differences between two snapshots give the busy milliseconds of the window.
 * Counted in 512-byte sectors as the Linux counters are.
 */
int devstat_read(const char *path, struct devstat *d)
{
	wchar_t *w = os_widen(path);
	DISK_PERFORMANCE dp;
	DWORD got;
	HANDLE h;
	BOOL ok;

	if (!w)
		return -EINVAL;
	h = open_device(w);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return os_errno_from_win(GetLastError());
	ok = DeviceIoControl(h, IOCTL_DISK_PERFORMANCE, NULL, 0, &dp, sizeof(dp), &got, NULL);
	CloseHandle(h);
	if (!ok)
		return os_errno_from_win(GetLastError());
	d->rd_ios = dp.ReadCount;
	d->rd_sect = (uint64_t)dp.BytesRead.QuadPart / 512;
	d->wr_ios = dp.WriteCount;
	d->wr_sect = (uint64_t)dp.BytesWritten.QuadPart / 512;
	d->io_ticks = (uint64_t)(dp.QueryTime.QuadPart - dp.IdleTime.QuadPart) / 10000;
	d->discard_ios = 0;
	return 0;
}
