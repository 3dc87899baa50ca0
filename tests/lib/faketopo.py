"""faketopo: fake /proc and /sys trees of block-device topologies.

    python3 tests/lib/faketopo.py SCENARIO DIR    writes DIR/proc and DIR/sys

The tree has what iostatmon's device selection reads, laid out as Linux
does: node directories under sys/devices/..., partitions inside their
disk's directory, and relative symlinks from sys/class/block/NAME,
sys/block/NAME (whole disks) and sys/dev/block/MAJ:MIN; slaves/ and
holders/ hold symlinks to the nodes they name. Names with '/' (cciss/c0d0)
are spelled with '!' in sysfs. Expected decisions live in the tests, not
here: this file only describes machines.
"""
import os
import sys

SATA = "/devices/pci0000:00/0000:00:1f.2/ata%d/host%d/target%d:0:0/%d:0:0:0/block"
USB = "/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block"
VIRT = "/devices/virtual/block"


class Topo:
    def __init__(self, root):
        self.root = root
        self.sys = os.path.join(root, "sys")
        self.proc = os.path.join(root, "proc")
        self.devs = []          # in diskstats order
        self.by_name = {}

    def _add(self, d):
        self.devs.append(d)
        self.by_name[d["name"]] = d
        return d

    def disk(self, name, major, minor, path=None, size=2000000, removable=0,
             hidden=None, rotational=1, diskseq=None, attrs=None,
             device=None, slaves=(), diskstats=True, sysfs=True):
        """A whole device. attrs: extra files in its directory ("dm/name");
        device: files in its device/ directory ("model")."""
        return self._add(dict(name=name, major=major, minor=minor,
                              path=path or SATA % (0, 0, 0, 0), size=size,
                              removable=removable, hidden=hidden,
                              rotational=rotational, diskseq=diskseq,
                              attrs=attrs or {}, device=device,
                              slaves=list(slaves), whole=None,
                              diskstats=diskstats, sysfs=sysfs))

    def part(self, name, major, minor, whole, number, size=100000,
             diskstats=True):
        return self._add(dict(name=name, major=major, minor=minor,
                              whole=whole, number=number, size=size,
                              slaves=[], attrs={}, diskstats=diskstats,
                              sysfs=True))

    def node_dir(self, d):
        kname = d["name"].replace("/", "!")
        if d["whole"]:
            return os.path.join(self.node_dir(self.by_name[d["whole"]]), kname)
        return os.path.join(self.sys, d["path"].lstrip("/"), kname)

    @staticmethod
    def _write(path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def _link(self, target, link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(target, os.path.dirname(link)), link)

    def _write_node(self, d):
        nd = self.node_dir(d)
        kname = d["name"].replace("/", "!")
        os.makedirs(nd)
        self._write(os.path.join(nd, "dev"), "%d:%d\n" % (d["major"], d["minor"]))
        self._write(os.path.join(nd, "size"), "%d\n" % d["size"])
        os.makedirs(os.path.join(nd, "holders"))
        if d["whole"]:
            self._write(os.path.join(nd, "partition"), "%d\n" % d["number"])
        else:
            os.makedirs(os.path.join(nd, "slaves"))
            self._write(os.path.join(nd, "removable"), "%d\n" % d["removable"])
            self._write(os.path.join(nd, "queue", "rotational"),
                        "%d\n" % d["rotational"])
            if d["hidden"] is not None:
                self._write(os.path.join(nd, "hidden"), "%d\n" % d["hidden"])
            if d["diskseq"] is not None:
                self._write(os.path.join(nd, "diskseq"), "%d\n" % d["diskseq"])
            for k, v in d["attrs"].items():
                self._write(os.path.join(nd, k), v)
            if d["device"] is not None:
                os.makedirs(os.path.join(nd, "device"))
                for k, v in d["device"].items():
                    self._write(os.path.join(nd, "device", k), v)
            self._link(nd, os.path.join(self.sys, "block", kname))
        self._link(nd, os.path.join(self.sys, "class", "block", kname))
        if (d["major"], d["minor"]) != (0, 0):
            self._link(nd, os.path.join(self.sys, "dev", "block",
                                        "%d:%d" % (d["major"], d["minor"])))

    def write(self, mountinfo, swaps=None, btrfs=None):
        """mountinfo: its lines; swaps: (filename, type) pairs, None for no
        PROC/swaps at all; btrfs: {fsid: [member kernel names]}."""
        for d in self.devs:
            if d["sysfs"]:
                self._write_node(d)
        for d in self.devs:
            for s in d["slaves"]:
                sd = self.by_name[s]
                kn, ks = d["name"].replace("/", "!"), s.replace("/", "!")
                self._link(self.node_dir(sd),
                           os.path.join(self.node_dir(d), "slaves", ks))
                self._link(self.node_dir(d),
                           os.path.join(self.node_dir(sd), "holders", kn))
        for fsid, members in (btrfs or {}).items():
            for m in members:
                self._link(self.node_dir(self.by_name[m]),
                           os.path.join(self.sys, "fs", "btrfs", fsid,
                                        "devices", m))
        lines = []
        for i, d in enumerate(self.devs):
            if not d["diskstats"]:
                continue
            # Mix 14-, 18- and 20-column lines; the counters do not matter.
            ncount = (11, 15, 17)[i % 3]
            lines.append("%4d %7d %s %s" % (
                d["major"], d["minor"], d["name"],
                " ".join(str(i * 100 + k) for k in range(ncount))))
        self._write(os.path.join(self.proc, "diskstats"), "\n".join(lines) + "\n")
        self._write(os.path.join(self.proc, "self", "mountinfo"),
                    "".join(l + "\n" for l in mountinfo))
        if swaps is not None:
            text = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
            for name, typ in swaps:
                text += "%-40s%s\t1048572\t\t0\t\t-2\n" % (name, typ)
            self._write(os.path.join(self.proc, "swaps"), text)


def main_machine(root):
    """Root on LVM on md RAID1 over sda2+sdb2, /boot on sda1, swap on sdb3,
    data disks, NVMe multipath, virtual devices, cciss, USB stick, dm-crypt."""
    t = Topo(root)
    t.disk("sda", 8, 0, diskseq=1, attrs={"wwid": "naa.5000c500a1b2c3d4\n"},
           device={"model": "ST4000NM0035-1V4\n", "serial": "ZC1A2B3C\n"})
    t.part("sda1", 8, 1, "sda", 1)
    t.part("sda2", 8, 2, "sda", 2)
    t.disk("sdb", 8, 16, path=SATA % (1, 1, 1, 1), diskseq=2)
    t.part("sdb1", 8, 17, "sdb", 1)
    t.part("sdb2", 8, 18, "sdb", 2)
    t.part("sdb3", 8, 19, "sdb", 3)
    t.disk("sdc", 8, 32, path=SATA % (2, 2, 2, 2), rotational=0, diskseq=3,
           device={"wwid": "t10.ATA     SAMSUNG SSD  S3Z9\n"})
    t.part("sdc1", 8, 33, "sdc", 1)
    t.part("sdc2", 8, 34, "sdc", 2, size=0)
    t.disk("sdd", 8, 48, path=SATA % (3, 3, 3, 3))
    t.part("sdd1", 8, 49, "sdd", 1)
    t.disk("sde", 8, 64, path=SATA % (4, 4, 4, 4))
    t.disk("sdf", 8, 80, path=USB, removable=1)
    t.part("sdf1", 8, 81, "sdf", 1)
    t.disk("md0", 9, 0, path=VIRT, slaves=["sda2", "sdb2"], rotational=0,
           attrs={"md/level": "raid1\n"})
    t.disk("md1", 9, 1, path=VIRT, slaves=["sdc1", "sdd1"],
           attrs={"md/level": "raid0\n"})
    t.disk("dm-0", 253, 0, path=VIRT, slaves=["md0"], diskseq=20,
           attrs={"dm/name": "vg0-root\n", "dm/uuid": "LVM-aaaa-root\n"})
    t.disk("dm-1", 253, 1, path=VIRT, slaves=["md0"],
           attrs={"dm/name": "vg0-home\n", "dm/uuid": "LVM-aaaa-home\n"})
    t.disk("dm-2", 253, 2, path=VIRT, slaves=["sde"],
           attrs={"dm/name": "data-crypt\n",
                  "dm/uuid": "CRYPT-LUKS2-0123abcd-data-crypt\n"})
    t.disk("nvme0n1", 259, 0,
           path="/devices/virtual/nvme-subsystem/nvme-subsys0", rotational=0,
           attrs={"wwid": "eui.0025388b71b2c3d4\n"}, device=None)
    t.part("nvme0n1p1", 259, 1, "nvme0n1", 1)
    t.disk("nvme0c0n1", 259, 2, hidden=1,
           path="/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0")
    t.disk("nvme0c1n1", 0, 0, hidden=1,
           path="/devices/pci0000:00/0000:00:1d.1/0000:3e:00.0/nvme/nvme1")
    t.disk("cciss/c0d0", 104, 0, path="/devices/pci0000:00/0000:00:05.0/cciss0")
    t.part("cciss/c0d0p1", 104, 1, "cciss/c0d0", 1)
    t.disk("loop0", 7, 0, path=VIRT, size=0)
    t.disk("ram0", 1, 0, path=VIRT, size=8192)
    t.disk("zram0", 252, 0, path=VIRT, size=4194304)
    t.disk("nbd0", 43, 0, path=VIRT, size=0)
    t.disk("sr0", 11, 0, path=SATA % (5, 5, 5, 5), removable=1)
    t.disk("zd0", 230, 0, path=VIRT)
    t.disk("sdg", 8, 96, path=SATA % (6, 6, 6, 6), sysfs=False)
    t.write([
        "21 1 0:20 / /proc rw,nosuid - proc proc rw",
        "22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw",
        "25 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/vg0-root rw",
        "26 25 8:1 / /boot rw,relatime shared:2 - ext4 /dev/sda1 rw",
        "27 25 253:1 / /home rw,relatime shared:3 - xfs /dev/mapper/vg0-home rw",
        "28 25 253:2 / /srv/data rw,relatime shared:4 - xfs /dev/mapper/data-crypt rw",
        # /usr on a data disk, then covered by a tmpfs: the later one counts.
        "29 25 8:48 / /usr rw,relatime - ext4 /dev/sdd rw",
        "30 25 0:50 / /usr rw,relatime - tmpfs tmpfs rw",
        # escaped names that only look like OS mount points
        "31 25 104:1 / /var\\040old rw,relatime - ext4 /dev/cciss/c0d0p1 rw",
        "32 25 259:1 / /boot\\134efi rw,relatime - vfat /dev/nvme0n1p1 rw",
    ], swaps=[("/dev/sdb3", "partition")])
    return t


def btrfs_machine(root):
    """/ on a two-device btrfs (major 0), /usr on overlay, swap file with a
    space in its name on /srv (sdd), /var on sde1 listed by source only."""
    t = Topo(root)
    t.disk("sda", 8, 0)
    t.part("sda1", 8, 1, "sda", 1)
    t.part("sda2", 8, 2, "sda", 2)
    t.disk("sdb", 8, 16, path=SATA % (1, 1, 1, 1))
    t.disk("sdc", 8, 32, path=SATA % (2, 2, 2, 2))
    t.disk("sdd", 8, 48, path=SATA % (3, 3, 3, 3))
    t.disk("sde", 8, 64, path=SATA % (4, 4, 4, 4))
    t.part("sde1", 8, 65, "sde", 1)
    t.write([
        "25 1 0:30 /@ / rw,relatime - btrfs /dev/sda2 rw,subvol=/@",
        "26 25 0:40 / /usr rw,relatime - overlay overlay rw,lowerdir=/a",
        "27 25 8:48 / /srv rw,relatime - ext4 /dev/sdd rw",
        "28 25 0:41 / /var rw,relatime - xfs /dev/sde1 rw",
    ], swaps=[("/srv/swap\\040file", "file")],
        btrfs={"0c1d2e3f-btrfs": ["sda2", "sdb"]})
    return t


def storage_machine(root):
    """A storage server: the OS on sda; md0 RAID1 over sdb+sdc, md1 RAID6
    over sdd-sdg with an LVM volume on it, md2 RAID10 (2 near copies)
    over sdh-sdk, a multipath LUN dm-2 over the paths sdl+sdm, an NVMe
    data disk."""
    t = Topo(root)
    t.disk("sda", 8, 0)
    t.part("sda1", 8, 1, "sda", 1)
    t.part("sda2", 8, 2, "sda", 2)
    for i, n in enumerate("bcdefghijklm", 1):
        t.disk("sd" + n, 8, 16 * i, path=SATA % (i, i, i, i))
    t.disk("nvme0n1", 259, 0,
           path="/devices/virtual/nvme-subsystem/nvme-subsys0", rotational=0)
    t.disk("md0", 9, 0, path=VIRT, slaves=["sdb", "sdc"],
           attrs={"md/level": "raid1\n"})
    t.disk("md1", 9, 1, path=VIRT, slaves=["sdd", "sde", "sdf", "sdg"],
           attrs={"md/level": "raid6\n"})
    t.disk("md2", 9, 2, path=VIRT, slaves=["sdh", "sdi", "sdj", "sdk"],
           attrs={"md/level": "raid10\n", "md/layout": "258\n"})
    t.disk("dm-0", 253, 0, path=VIRT, slaves=["md1"],
           attrs={"dm/name": "vgdata-lv0\n", "dm/uuid": "LVM-bbbb-lv0\n"})
    t.disk("dm-2", 253, 2, path=VIRT, slaves=["sdl", "sdm"],
           attrs={"dm/name": "mpatha\n",
                  "dm/uuid": "mpath-3600508b400105e210000900000490000\n"})
    t.write([
        "25 1 8:2 / / rw,relatime - ext4 /dev/sda2 rw",
        "26 25 8:1 / /boot rw,relatime - ext4 /dev/sda1 rw",
        "27 25 9:0 / /srv/mirror rw,relatime - xfs /dev/md0 rw",
        "28 25 253:0 / /srv/data rw,relatime - xfs /dev/mapper/vgdata-lv0 rw",
    ], swaps=[])
    return t


SCENARIOS = {"main": main_machine, "btrfs": btrfs_machine,
             "storage": storage_machine}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        sys.exit("usage: faketopo.py %s DIR" % "|".join(SCENARIOS))
    SCENARIOS[sys.argv[1]](sys.argv[2])
