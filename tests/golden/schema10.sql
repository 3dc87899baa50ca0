-- A census database of schema 10 as fsscan wrote it (tests/t_project_rows.py):
-- three snapshots of a small tree, its .dump without io_slot's constant
-- rows (every upgrade writes them), and its identity.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE snapshot (
  id            INTEGER PRIMARY KEY,
  fs            TEXT NOT NULL,     -- --fs NAME, default ROOT as given
  root          TEXT NOT NULL,     -- ROOT as given
  root_abs      TEXT,              -- absolute path of ROOT
  host          TEXT,
  fstype        TEXT,              -- from mountinfo
  fs_source     TEXT,              -- mount source (device)
  fs_uuid       TEXT,              -- libblkid, when readable
  fs_label      TEXT,
  mount_opts    TEXT,              -- per-mount options (atime mode)
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER,           -- NULL while running or after a crash
  now_ref       INTEGER NOT NULL,  -- reference time for ages (--now)
  status        TEXT NOT NULL CHECK (status IN
                  ('running', 'complete', 'interrupted', 'failed')),
  files         INTEGER, dirs INTEGER, symlinks INTEGER, others INTEGER,
  bytes, alloc_bytes,              -- exact
  all_size,                        -- exact; fsstats: st_size of every counted entry
  all_blocks,                      -- exact; fsstats: st_blocks of every counted entry
  hardlink_dups INTEGER, snapshot_dirs INTEGER,
  symlink_rel   INTEGER, symlink_abs INTEGER,
  mounts_skipped INTEGER, excluded INTEGER,
  errors        INTEGER,
  threads       INTEGER,
  options       TEXT,              -- the command line, for provenance
  entries_per_s REAL,
  version       TEXT,              -- fsscan version that wrote it
  -- Schema 6. statvfs(ROOT) at the scan: f_blocks, f_bfree and f_bavail
  -- times f_frsize, f_files, f_ffree; exact. NULL where unknown: a scan
  -- written before, statvfs failed or contradicted itself (more free than
  -- in all), or --as-of (statvfs of a file-system snapshot describes
  -- today's file system).
  fs_bytes, fs_free_bytes, fs_avail_bytes,                -- exact
  fs_inodes, fs_free_inodes,                              -- exact
  -- Schema 6. When the walk really started: started_at unless --as-of
  -- dated the scan.
  scanned_at     INTEGER,
  -- Schema 8. st_dev of ROOT as "MAJOR:MINOR": with fs_source (or
  -- fs_uuid), which file system holds ROOT (v_snapshot.fs_device).
  fs_dev         TEXT,
  -- Schema 10. The mount point of the mount that holds ROOT, from
  -- /proc/self/mountinfo as fstype and fs_source: node_exporter's
  -- mountpoint label. NULL where unknown (a scan written before).
  fs_mountpoint  TEXT
);
INSERT INTO snapshot VALUES(1,'fx','/srv/fixture/fs','/srv/fixture/fs','vm','tmpfs','fx',NULL,NULL,'rw,relatime',1700000000,1700000000,1700000000,'complete',12,12,0,0,'18446744073709758241',237568,'18446744073709759201',464,1,0,0,0,0,0,0,2,'fsscan --db /srv/fixture/census.db --quiet --fs fx --cold 1,7,30 --limits /srv/fixture/limits.csv --as-of 1700000000 /srv/fixture/fs',4892.4816012113788018,'0.1.0',NULL,NULL,NULL,NULL,NULL,1796496359,'0:39','/srv/fixture');
INSERT INTO snapshot VALUES(2,'fx','/srv/fixture/fs','/srv/fixture/fs','vm','tmpfs','fx',NULL,NULL,'rw,relatime',1700086400,1700086400,1700086400,'complete',12,12,0,0,'18446744073709758241',237568,'18446744073709759201',464,1,0,0,0,0,0,0,2,'fsscan --db /srv/fixture/census.db --quiet --fs fx --project depth:2 --as-of 1700086400 --dirs all /srv/fixture/fs',9092.6174008450070685,'0.1.0',NULL,NULL,NULL,NULL,NULL,1796496359,'0:39','/srv/fixture');
INSERT INTO snapshot VALUES(3,'fx','/srv/fixture/fs','/srv/fixture/fs','vm','tmpfs','fx',NULL,NULL,'rw,relatime',1700172800,1700172800,1700172800,'complete',12,12,0,0,'18446744073709758241',237568,'18446744073709759201',464,1,0,0,0,0,0,0,2,'fsscan --db /srv/fixture/census.db --quiet --fs fx --project depth:1 --cold 3652425 --as-of 1700172800 --dirs 1 /srv/fixture/fs',12156.10874854886606,'0.1.0',NULL,NULL,NULL,NULL,NULL,1796496359,'0:39','/srv/fixture');
CREATE TABLE project (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  source      TEXT NOT NULL,       -- rule(s) that attributed it: depth:1, projid, ...
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes NOT NULL, alloc_bytes NOT NULL,                 -- exact
  entries INTEGER,                 -- schema 6: every entry attributed
                                   -- (files once per inode, directories,
                                   -- symlinks, others): its inodes
  public INTEGER,                  -- schema 9: 1 when every user may know
                                   -- the name (a rule's name, or a
                                   -- depth:N path whose directories every
                                   -- user may list), 0 when it was read
                                   -- from a directory some may not list
  PRIMARY KEY (snapshot_id, name)
) WITHOUT ROWID;
INSERT INTO project VALUES(1,'(none)','none',1,1,42,4096,2,1);
INSERT INTO project VALUES(1,'alpha','depth:1',5,3,78100,90112,8,1);
INSERT INTO project VALUES(1,'beta','depth:1',3,1,'18446744073709551624',4096,4,1);
INSERT INTO project VALUES(1,'delta','depth:1',0,2,0,0,2,1);
INSERT INTO project VALUES(1,'gamma','depth:1',1,3,123456,126976,4,1);
INSERT INTO project VALUES(1,'secret','depth:1',2,2,5019,12288,4,1);
INSERT INTO project VALUES(2,'(none)','none',8,6,'18446744073709560543',28672,14,1);
INSERT INTO project VALUES(2,'alpha/sub','depth:2',2,2,70000,73728,4,1);
INSERT INTO project VALUES(2,'delta/empty','depth:2',0,1,0,0,1,1);
INSERT INTO project VALUES(2,'gamma/g','depth:2',0,1,0,0,1,1);
INSERT INTO project VALUES(2,'gamma/h','depth:2',1,1,123456,126976,2,1);
INSERT INTO project VALUES(2,'secret/inner','depth:2',1,1,4242,8192,2,0);
INSERT INTO project VALUES(3,'(none)','none',1,1,42,4096,2,1);
INSERT INTO project VALUES(3,'alpha','depth:1',5,3,78100,90112,8,1);
INSERT INTO project VALUES(3,'beta','depth:1',3,1,'18446744073709551624',4096,4,1);
INSERT INTO project VALUES(3,'delta','depth:1',0,2,0,0,2,1);
INSERT INTO project VALUES(3,'gamma','depth:1',1,3,123456,126976,4,1);
INSERT INTO project VALUES(3,'secret','depth:1',2,2,5019,12288,4,1);
CREATE TABLE project_limit (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project     TEXT NOT NULL,
  bytes       INTEGER, inodes INTEGER,
  source      TEXT NOT NULL CHECK (source IN ('file', 'quota')),
  PRIMARY KEY (snapshot_id, project)
) WITHOUT ROWID;
INSERT INTO project_limit VALUES(1,'alpha',1000000,100,'file');
INSERT INTO project_limit VALUES(1,'gamma',NULL,50,'file');
CREATE TABLE census_key (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  key BLOB NOT NULL CHECK (typeof(key) = 'blob' AND length(key) = 16)
);
INSERT INTO census_key VALUES(1,X'bed12ddc8e950a520dc85fb7fea89f29');
CREATE TABLE owner (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('user', 'group')),
  id          INTEGER NOT NULL,
  name        TEXT,                -- NULL when the id has no name here
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes NOT NULL, alloc_bytes NOT NULL,                 -- exact
  PRIMARY KEY (snapshot_id, kind, id)
) WITHOUT ROWID;
INSERT INTO owner VALUES(1,'group',0,'root',12,12,'18446744073709758241',237568);
INSERT INTO owner VALUES(1,'user',0,'root',12,12,'18446744073709758241',237568);
INSERT INTO owner VALUES(2,'group',0,'root',12,12,'18446744073709758241',237568);
INSERT INTO owner VALUES(2,'user',0,'root',12,12,'18446744073709758241',237568);
INSERT INTO owner VALUES(3,'group',0,'root',12,12,'18446744073709758241',237568);
INSERT INTO owner VALUES(3,'user',0,'root',12,12,'18446744073709758241',237568);
CREATE TABLE hist (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project     TEXT,
  metric      TEXT NOT NULL,
  slot        INTEGER NOT NULL,
  lo NOT NULL, hi NOT NULL,        -- exact
  n  INTEGER NOT NULL, w NOT NULL, -- w exact
  v  TEXT, vw TEXT
);
INSERT INTO hist VALUES(1,NULL,'size',1,0,2048,5,929,'929','615593');
INSERT INTO hist VALUES(1,NULL,'size',2,2048,4096,1,3000,'3000','9000000');
INSERT INTO hist VALUES(1,NULL,'size',3,4096,8192,2,9242,'9242','42994564');
INSERT INTO hist VALUES(1,NULL,'size',7,65536,131072,2,193456,'193456','20141383936');
INSERT INTO hist VALUES(1,NULL,'size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614','18446744073709551614','170141183460469231694793815568465002498');
INSERT INTO hist VALUES(1,NULL,'capacity',1,0,4,3,0,'0','0');
INSERT INTO hist VALUES(1,NULL,'capacity',3,8,16,5,0,'40','0');
INSERT INTO hist VALUES(1,NULL,'capacity',4,16,32,2,0,'32','0');
INSERT INTO hist VALUES(1,NULL,'capacity',7,128,256,2,0,'392','0');
INSERT INTO hist VALUES(1,NULL,'pos_overhead',1,0,2048,5,0,'15455','0');
INSERT INTO hist VALUES(1,NULL,'pos_overhead',2,2048,4096,1,0,'1096','0');
INSERT INTO hist VALUES(1,NULL,'pos_overhead',3,4096,8192,2,0,'7142','0');
INSERT INTO hist VALUES(1,NULL,'pos_overhead',7,65536,131072,2,0,'7248','0');
INSERT INTO hist VALUES(1,NULL,'neg_overhead',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(1,NULL,'neg_overhead',53,4611686018427387904,'9223372036854775808',2,0,'18446744073709551614','0');
INSERT INTO hist VALUES(1,NULL,'dir_entries',1,0,2,6,0,'5','0');
INSERT INTO hist VALUES(1,NULL,'dir_entries',2,2,4,4,0,'9','0');
INSERT INTO hist VALUES(1,NULL,'dir_entries',3,4,8,2,0,'10','0');
INSERT INTO hist VALUES(1,NULL,'dir_size',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(1,NULL,'name_len',1,0,8,24,0,'89','0');
INSERT INTO hist VALUES(1,NULL,'name_len',2,8,16,1,0,'15','0');
INSERT INTO hist VALUES(1,NULL,'link_count',1,0,2,11,0,'11','0');
INSERT INTO hist VALUES(1,NULL,'link_count',2,2,4,1,0,'2','0');
INSERT INTO hist VALUES(1,NULL,'mtime',0,-9223372036854775808,0,1,10,'-3600','-36000');
INSERT INTO hist VALUES(1,NULL,'mtime',1,0,172800,1,0,'0','0');
INSERT INTO hist VALUES(1,NULL,'mtime',3,345600,691200,1,3000,'604799','1814397000');
INSERT INTO hist VALUES(1,NULL,'mtime',4,691200,1382400,1,5000,'691200','3456000000');
INSERT INTO hist VALUES(1,NULL,'mtime',5,1382400,2764800,1,70000,'2678400','187488000000');
INSERT INTO hist VALUES(1,NULL,'mtime',6,2764800,5529600,3,4384,'11664000','17019936000');
INSERT INTO hist VALUES(1,NULL,'mtime',7,5529600,11059200,3,'18446744073709552391','25056000','159379868796850531986912000');
INSERT INTO hist VALUES(1,NULL,'mtime',11,88473600,176947200,1,123456,'172800000','21333196800000');
INSERT INTO hist VALUES(1,NULL,'ctime',0,-9223372036854775808,0,12,'18446744073709758241','-1157956308','-1780043638517819293026744519');
INSERT INTO hist VALUES(1,NULL,'atime',0,-9223372036854775808,0,1,10,'-432000','-4320000');
INSERT INTO hist VALUES(1,NULL,'atime',1,0,172800,1,0,'0','0');
INSERT INTO hist VALUES(1,NULL,'atime',2,172800,345600,1,5000,'172800','864000000');
INSERT INTO hist VALUES(1,NULL,'atime',3,345600,691200,1,3000,'604800','1814400000');
INSERT INTO hist VALUES(1,NULL,'atime',4,691200,1382400,2,'18446744073709551614','1728000','15937986879685052594496000');
INSERT INTO hist VALUES(1,NULL,'atime',5,1382400,2764800,1,70000,'2678400','187488000000');
INSERT INTO hist VALUES(1,NULL,'atime',6,2764800,5529600,2,4284,'8208000','16674336000');
INSERT INTO hist VALUES(1,NULL,'atime',7,5529600,11059200,1,777,'7776000','6041952000');
INSERT INTO hist VALUES(1,NULL,'atime',9,22118400,44236800,1,100,'34560000','3456000000');
INSERT INTO hist VALUES(1,NULL,'atime',10,44236800,88473600,1,123456,'86400000','10666598400000');
INSERT INTO hist VALUES(1,'(none)','size',1,0,2048,1,42,NULL,NULL);
INSERT INTO hist VALUES(1,'(none)','atime',6,2764800,5529600,1,42,NULL,NULL);
INSERT INTO hist VALUES(1,'(none)','mtime',6,2764800,5529600,1,42,NULL,NULL);
INSERT INTO hist VALUES(1,'(none)','ctime',0,-9223372036854775808,0,1,42,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','size',1,0,2048,2,100,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','size',2,2048,4096,1,3000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','size',3,4096,8192,1,5000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','size',7,65536,131072,1,70000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','atime',1,0,172800,1,0,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','atime',2,172800,345600,1,5000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','atime',3,345600,691200,1,3000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','atime',5,1382400,2764800,1,70000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','atime',9,22118400,44236800,1,100,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','mtime',1,0,172800,1,0,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','mtime',3,345600,691200,1,3000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','mtime',4,691200,1382400,1,5000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','mtime',5,1382400,2764800,1,70000,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','mtime',6,2764800,5529600,1,100,NULL,NULL);
INSERT INTO hist VALUES(1,'alpha','ctime',0,-9223372036854775808,0,5,78100,NULL,NULL);
INSERT INTO hist VALUES(1,'beta','size',1,0,2048,1,10,NULL,NULL);
INSERT INTO hist VALUES(1,'beta','size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(1,'beta','atime',0,-9223372036854775808,0,1,10,NULL,NULL);
INSERT INTO hist VALUES(1,'beta','atime',4,691200,1382400,2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(1,'beta','mtime',0,-9223372036854775808,0,1,10,NULL,NULL);
INSERT INTO hist VALUES(1,'beta','mtime',7,5529600,11059200,2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(1,'beta','ctime',0,-9223372036854775808,0,3,'18446744073709551624',NULL,NULL);
INSERT INTO hist VALUES(1,'gamma','size',7,65536,131072,1,123456,NULL,NULL);
INSERT INTO hist VALUES(1,'gamma','atime',10,44236800,88473600,1,123456,NULL,NULL);
INSERT INTO hist VALUES(1,'gamma','mtime',11,88473600,176947200,1,123456,NULL,NULL);
INSERT INTO hist VALUES(1,'gamma','ctime',0,-9223372036854775808,0,1,123456,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','size',1,0,2048,1,777,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','size',3,4096,8192,1,4242,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','atime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','atime',7,5529600,11059200,1,777,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','mtime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','mtime',7,5529600,11059200,1,777,NULL,NULL);
INSERT INTO hist VALUES(1,'secret','ctime',0,-9223372036854775808,0,2,5019,NULL,NULL);
INSERT INTO hist VALUES(2,NULL,'size',1,0,2048,5,929,'929','615593');
INSERT INTO hist VALUES(2,NULL,'size',2,2048,4096,1,3000,'3000','9000000');
INSERT INTO hist VALUES(2,NULL,'size',3,4096,8192,2,9242,'9242','42994564');
INSERT INTO hist VALUES(2,NULL,'size',7,65536,131072,2,193456,'193456','20141383936');
INSERT INTO hist VALUES(2,NULL,'size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614','18446744073709551614','170141183460469231694793815568465002498');
INSERT INTO hist VALUES(2,NULL,'capacity',1,0,4,3,0,'0','0');
INSERT INTO hist VALUES(2,NULL,'capacity',3,8,16,5,0,'40','0');
INSERT INTO hist VALUES(2,NULL,'capacity',4,16,32,2,0,'32','0');
INSERT INTO hist VALUES(2,NULL,'capacity',7,128,256,2,0,'392','0');
INSERT INTO hist VALUES(2,NULL,'pos_overhead',1,0,2048,5,0,'15455','0');
INSERT INTO hist VALUES(2,NULL,'pos_overhead',2,2048,4096,1,0,'1096','0');
INSERT INTO hist VALUES(2,NULL,'pos_overhead',3,4096,8192,2,0,'7142','0');
INSERT INTO hist VALUES(2,NULL,'pos_overhead',7,65536,131072,2,0,'7248','0');
INSERT INTO hist VALUES(2,NULL,'neg_overhead',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(2,NULL,'neg_overhead',53,4611686018427387904,'9223372036854775808',2,0,'18446744073709551614','0');
INSERT INTO hist VALUES(2,NULL,'dir_entries',1,0,2,6,0,'5','0');
INSERT INTO hist VALUES(2,NULL,'dir_entries',2,2,4,4,0,'9','0');
INSERT INTO hist VALUES(2,NULL,'dir_entries',3,4,8,2,0,'10','0');
INSERT INTO hist VALUES(2,NULL,'dir_size',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(2,NULL,'name_len',1,0,8,24,0,'89','0');
INSERT INTO hist VALUES(2,NULL,'name_len',2,8,16,1,0,'15','0');
INSERT INTO hist VALUES(2,NULL,'link_count',1,0,2,11,0,'11','0');
INSERT INTO hist VALUES(2,NULL,'link_count',2,2,4,1,0,'2','0');
INSERT INTO hist VALUES(2,NULL,'mtime',1,0,172800,2,10,'169200','828000');
INSERT INTO hist VALUES(2,NULL,'mtime',3,345600,691200,1,3000,'691199','2073597000');
INSERT INTO hist VALUES(2,NULL,'mtime',4,691200,1382400,1,5000,'777600','3888000000');
INSERT INTO hist VALUES(2,NULL,'mtime',6,2764800,5529600,4,74384,'14688000','210934713600');
INSERT INTO hist VALUES(2,NULL,'mtime',7,5529600,11059200,3,'18446744073709552391','25315200','160973667484819037313494400');
INSERT INTO hist VALUES(2,NULL,'mtime',11,88473600,176947200,1,123456,'172886400','21343863398400');
INSERT INTO hist VALUES(2,NULL,'ctime',0,-9223372036854775808,0,12,'18446744073709758241','-1156919508','-1778449839829850769914722119');
INSERT INTO hist VALUES(2,NULL,'atime',0,-9223372036854775808,0,1,10,'-345600','-3456000');
INSERT INTO hist VALUES(2,NULL,'atime',1,0,172800,1,0,'86400','0');
INSERT INTO hist VALUES(2,NULL,'atime',2,172800,345600,1,5000,'259200','1296000000');
INSERT INTO hist VALUES(2,NULL,'atime',4,691200,1382400,3,'18446744073709554614','2592000','17531785567653559927545600');
INSERT INTO hist VALUES(2,NULL,'atime',6,2764800,5529600,3,74284,'11145600','210580473600');
INSERT INTO hist VALUES(2,NULL,'atime',7,5529600,11059200,1,777,'7862400','6109084800');
INSERT INTO hist VALUES(2,NULL,'atime',9,22118400,44236800,1,100,'34646400','3464640000');
INSERT INTO hist VALUES(2,NULL,'atime',10,44236800,88473600,1,123456,'86486400','10677264998400');
INSERT INTO hist VALUES(2,'(none)','size',1,0,2048,4,929,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','size',2,2048,4096,1,3000,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','size',3,4096,8192,1,5000,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',0,-9223372036854775808,0,1,10,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',2,172800,345600,1,5000,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',4,691200,1382400,3,'18446744073709554614',NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',6,2764800,5529600,1,42,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',7,5529600,11059200,1,777,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','atime',9,22118400,44236800,1,100,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','mtime',1,0,172800,1,10,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','mtime',3,345600,691200,1,3000,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','mtime',4,691200,1382400,1,5000,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','mtime',6,2764800,5529600,2,142,NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','mtime',7,5529600,11059200,3,'18446744073709552391',NULL,NULL);
INSERT INTO hist VALUES(2,'(none)','ctime',0,-9223372036854775808,0,8,'18446744073709560543',NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','size',1,0,2048,1,0,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','size',7,65536,131072,1,70000,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','atime',1,0,172800,1,0,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','atime',6,2764800,5529600,1,70000,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','mtime',1,0,172800,1,0,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','mtime',6,2764800,5529600,1,70000,NULL,NULL);
INSERT INTO hist VALUES(2,'alpha/sub','ctime',0,-9223372036854775808,0,2,70000,NULL,NULL);
INSERT INTO hist VALUES(2,'gamma/h','size',7,65536,131072,1,123456,NULL,NULL);
INSERT INTO hist VALUES(2,'gamma/h','atime',10,44236800,88473600,1,123456,NULL,NULL);
INSERT INTO hist VALUES(2,'gamma/h','mtime',11,88473600,176947200,1,123456,NULL,NULL);
INSERT INTO hist VALUES(2,'gamma/h','ctime',0,-9223372036854775808,0,1,123456,NULL,NULL);
INSERT INTO hist VALUES(2,'secret/inner','size',3,4096,8192,1,4242,NULL,NULL);
INSERT INTO hist VALUES(2,'secret/inner','atime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(2,'secret/inner','mtime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(2,'secret/inner','ctime',0,-9223372036854775808,0,1,4242,NULL,NULL);
INSERT INTO hist VALUES(3,NULL,'size',1,0,2048,5,929,'929','615593');
INSERT INTO hist VALUES(3,NULL,'size',2,2048,4096,1,3000,'3000','9000000');
INSERT INTO hist VALUES(3,NULL,'size',3,4096,8192,2,9242,'9242','42994564');
INSERT INTO hist VALUES(3,NULL,'size',7,65536,131072,2,193456,'193456','20141383936');
INSERT INTO hist VALUES(3,NULL,'size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614','18446744073709551614','170141183460469231694793815568465002498');
INSERT INTO hist VALUES(3,NULL,'capacity',1,0,4,3,0,'0','0');
INSERT INTO hist VALUES(3,NULL,'capacity',3,8,16,5,0,'40','0');
INSERT INTO hist VALUES(3,NULL,'capacity',4,16,32,2,0,'32','0');
INSERT INTO hist VALUES(3,NULL,'capacity',7,128,256,2,0,'392','0');
INSERT INTO hist VALUES(3,NULL,'pos_overhead',1,0,2048,5,0,'15455','0');
INSERT INTO hist VALUES(3,NULL,'pos_overhead',2,2048,4096,1,0,'1096','0');
INSERT INTO hist VALUES(3,NULL,'pos_overhead',3,4096,8192,2,0,'7142','0');
INSERT INTO hist VALUES(3,NULL,'pos_overhead',7,65536,131072,2,0,'7248','0');
INSERT INTO hist VALUES(3,NULL,'neg_overhead',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(3,NULL,'neg_overhead',53,4611686018427387904,'9223372036854775808',2,0,'18446744073709551614','0');
INSERT INTO hist VALUES(3,NULL,'dir_entries',1,0,2,6,0,'5','0');
INSERT INTO hist VALUES(3,NULL,'dir_entries',2,2,4,4,0,'9','0');
INSERT INTO hist VALUES(3,NULL,'dir_entries',3,4,8,2,0,'10','0');
INSERT INTO hist VALUES(3,NULL,'dir_size',1,0,2048,12,0,'960','0');
INSERT INTO hist VALUES(3,NULL,'name_len',1,0,8,24,0,'89','0');
INSERT INTO hist VALUES(3,NULL,'name_len',2,8,16,1,0,'15','0');
INSERT INTO hist VALUES(3,NULL,'link_count',1,0,2,11,0,'11','0');
INSERT INTO hist VALUES(3,NULL,'link_count',2,2,4,1,0,'2','0');
INSERT INTO hist VALUES(3,NULL,'mtime',1,0,172800,1,10,'169200','1692000');
INSERT INTO hist VALUES(3,NULL,'mtime',2,172800,345600,1,0,'172800','0');
INSERT INTO hist VALUES(3,NULL,'mtime',4,691200,1382400,2,8000,'1641599','6652797000');
INSERT INTO hist VALUES(3,NULL,'mtime',6,2764800,5529600,4,74384,'15033600','217361491200');
INSERT INTO hist VALUES(3,NULL,'mtime',7,5529600,11059200,3,'18446744073709552391','25574400','162567466172787542640076800');
INSERT INTO hist VALUES(3,NULL,'mtime',11,88473600,176947200,1,123456,'172972800','21354529996800');
INSERT INTO hist VALUES(3,NULL,'ctime',0,-9223372036854775808,0,12,'18446744073709758241','-1155882708','-1776856041141882246802699719');
INSERT INTO hist VALUES(3,NULL,'atime',0,-9223372036854775808,0,1,10,'-259200','-2592000');
INSERT INTO hist VALUES(3,NULL,'atime',2,172800,345600,1,0,'172800','0');
INSERT INTO hist VALUES(3,NULL,'atime',3,345600,691200,1,5000,'345600','1728000000');
INSERT INTO hist VALUES(3,NULL,'atime',4,691200,1382400,3,'18446744073709554614','2851200','19125584255622065446195200');
INSERT INTO hist VALUES(3,NULL,'atime',6,2764800,5529600,3,74284,'11404800','216998611200');
INSERT INTO hist VALUES(3,NULL,'atime',7,5529600,11059200,1,777,'7948800','6176217600');
INSERT INTO hist VALUES(3,NULL,'atime',9,22118400,44236800,1,100,'34732800','3473280000');
INSERT INTO hist VALUES(3,NULL,'atime',10,44236800,88473600,1,123456,'86572800','10687931596800');
INSERT INTO hist VALUES(3,'(none)','size',1,0,2048,1,42,NULL,NULL);
INSERT INTO hist VALUES(3,'(none)','atime',6,2764800,5529600,1,42,NULL,NULL);
INSERT INTO hist VALUES(3,'(none)','mtime',6,2764800,5529600,1,42,NULL,NULL);
INSERT INTO hist VALUES(3,'(none)','ctime',0,-9223372036854775808,0,1,42,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','size',1,0,2048,2,100,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','size',2,2048,4096,1,3000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','size',3,4096,8192,1,5000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','size',7,65536,131072,1,70000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','atime',2,172800,345600,1,0,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','atime',3,345600,691200,1,5000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','atime',4,691200,1382400,1,3000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','atime',6,2764800,5529600,1,70000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','atime',9,22118400,44236800,1,100,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','mtime',2,172800,345600,1,0,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','mtime',4,691200,1382400,2,8000,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','mtime',6,2764800,5529600,2,70100,NULL,NULL);
INSERT INTO hist VALUES(3,'alpha','ctime',0,-9223372036854775808,0,5,78100,NULL,NULL);
INSERT INTO hist VALUES(3,'beta','size',1,0,2048,1,10,NULL,NULL);
INSERT INTO hist VALUES(3,'beta','size',53,4611686018427387904,'9223372036854775808',2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(3,'beta','atime',0,-9223372036854775808,0,1,10,NULL,NULL);
INSERT INTO hist VALUES(3,'beta','atime',4,691200,1382400,2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(3,'beta','mtime',1,0,172800,1,10,NULL,NULL);
INSERT INTO hist VALUES(3,'beta','mtime',7,5529600,11059200,2,'18446744073709551614',NULL,NULL);
INSERT INTO hist VALUES(3,'beta','ctime',0,-9223372036854775808,0,3,'18446744073709551624',NULL,NULL);
INSERT INTO hist VALUES(3,'gamma','size',7,65536,131072,1,123456,NULL,NULL);
INSERT INTO hist VALUES(3,'gamma','atime',10,44236800,88473600,1,123456,NULL,NULL);
INSERT INTO hist VALUES(3,'gamma','mtime',11,88473600,176947200,1,123456,NULL,NULL);
INSERT INTO hist VALUES(3,'gamma','ctime',0,-9223372036854775808,0,1,123456,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','size',1,0,2048,1,777,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','size',3,4096,8192,1,4242,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','atime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','atime',7,5529600,11059200,1,777,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','mtime',6,2764800,5529600,1,4242,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','mtime',7,5529600,11059200,1,777,NULL,NULL);
INSERT INTO hist VALUES(3,'secret','ctime',0,-9223372036854775808,0,2,5019,NULL,NULL);
CREATE TABLE hist_extent (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  metric TEXT NOT NULL, min NOT NULL, max NOT NULL,   -- exact
  PRIMARY KEY (snapshot_id, metric)
) WITHOUT ROWID;
INSERT INTO hist_extent VALUES(1,'atime',-432000,86400000);
INSERT INTO hist_extent VALUES(1,'capacity',0,248);
INSERT INTO hist_extent VALUES(1,'ctime',-96496359,-96496359);
INSERT INTO hist_extent VALUES(1,'dir_entries',0,6);
INSERT INTO hist_extent VALUES(1,'dir_size',40,160);
INSERT INTO hist_extent VALUES(1,'link_count',1,2);
INSERT INTO hist_extent VALUES(1,'mtime',-3600,172800000);
INSERT INTO hist_extent VALUES(1,'name_len',1,15);
INSERT INTO hist_extent VALUES(1,'neg_overhead',40,9223372036854775807);
INSERT INTO hist_extent VALUES(1,'pos_overhead',0,4086);
INSERT INTO hist_extent VALUES(1,'size',0,9223372036854775807);
INSERT INTO hist_extent VALUES(2,'atime',-345600,86486400);
INSERT INTO hist_extent VALUES(2,'capacity',0,248);
INSERT INTO hist_extent VALUES(2,'ctime',-96409959,-96409959);
INSERT INTO hist_extent VALUES(2,'dir_entries',0,6);
INSERT INTO hist_extent VALUES(2,'dir_size',40,160);
INSERT INTO hist_extent VALUES(2,'link_count',1,2);
INSERT INTO hist_extent VALUES(2,'mtime',82800,172886400);
INSERT INTO hist_extent VALUES(2,'name_len',1,15);
INSERT INTO hist_extent VALUES(2,'neg_overhead',40,9223372036854775807);
INSERT INTO hist_extent VALUES(2,'pos_overhead',0,4086);
INSERT INTO hist_extent VALUES(2,'size',0,9223372036854775807);
INSERT INTO hist_extent VALUES(3,'atime',-259200,86572800);
INSERT INTO hist_extent VALUES(3,'capacity',0,248);
INSERT INTO hist_extent VALUES(3,'ctime',-96323559,-96323559);
INSERT INTO hist_extent VALUES(3,'dir_entries',0,6);
INSERT INTO hist_extent VALUES(3,'dir_size',40,160);
INSERT INTO hist_extent VALUES(3,'link_count',1,2);
INSERT INTO hist_extent VALUES(3,'mtime',169200,172972800);
INSERT INTO hist_extent VALUES(3,'name_len',1,15);
INSERT INTO hist_extent VALUES(3,'neg_overhead',40,9223372036854775807);
INSERT INTO hist_extent VALUES(3,'pos_overhead',0,4086);
INSERT INTO hist_extent VALUES(3,'size',0,9223372036854775807);
CREATE TABLE project_extent (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project TEXT NOT NULL,
  metric TEXT NOT NULL, min NOT NULL, max NOT NULL,   -- exact
  PRIMARY KEY (snapshot_id, project, metric)
) WITHOUT ROWID;
INSERT INTO project_extent VALUES(1,'(none)','atime',4320000,4320000);
INSERT INTO project_extent VALUES(1,'(none)','ctime',-96496359,-96496359);
INSERT INTO project_extent VALUES(1,'(none)','mtime',4320000,4320000);
INSERT INTO project_extent VALUES(1,'(none)','size',42,42);
INSERT INTO project_extent VALUES(1,'alpha','atime',0,34560000);
INSERT INTO project_extent VALUES(1,'alpha','ctime',-96496359,-96496359);
INSERT INTO project_extent VALUES(1,'alpha','mtime',0,3456000);
INSERT INTO project_extent VALUES(1,'alpha','size',0,70000);
INSERT INTO project_extent VALUES(1,'beta','atime',-432000,864000);
INSERT INTO project_extent VALUES(1,'beta','ctime',-96496359,-96496359);
INSERT INTO project_extent VALUES(1,'beta','mtime',-3600,8640000);
INSERT INTO project_extent VALUES(1,'beta','size',10,9223372036854775807);
INSERT INTO project_extent VALUES(1,'gamma','atime',86400000,86400000);
INSERT INTO project_extent VALUES(1,'gamma','ctime',-96496359,-96496359);
INSERT INTO project_extent VALUES(1,'gamma','mtime',172800000,172800000);
INSERT INTO project_extent VALUES(1,'gamma','size',123456,123456);
INSERT INTO project_extent VALUES(1,'secret','atime',3888000,7776000);
INSERT INTO project_extent VALUES(1,'secret','ctime',-96496359,-96496359);
INSERT INTO project_extent VALUES(1,'secret','mtime',3888000,7776000);
INSERT INTO project_extent VALUES(1,'secret','size',777,4242);
INSERT INTO project_extent VALUES(2,'(none)','atime',-345600,34646400);
INSERT INTO project_extent VALUES(2,'(none)','ctime',-96409959,-96409959);
INSERT INTO project_extent VALUES(2,'(none)','mtime',82800,8726400);
INSERT INTO project_extent VALUES(2,'(none)','size',10,9223372036854775807);
INSERT INTO project_extent VALUES(2,'alpha/sub','atime',86400,2764800);
INSERT INTO project_extent VALUES(2,'alpha/sub','ctime',-96409959,-96409959);
INSERT INTO project_extent VALUES(2,'alpha/sub','mtime',86400,2764800);
INSERT INTO project_extent VALUES(2,'alpha/sub','size',0,70000);
INSERT INTO project_extent VALUES(2,'gamma/h','atime',86486400,86486400);
INSERT INTO project_extent VALUES(2,'gamma/h','ctime',-96409959,-96409959);
INSERT INTO project_extent VALUES(2,'gamma/h','mtime',172886400,172886400);
INSERT INTO project_extent VALUES(2,'gamma/h','size',123456,123456);
INSERT INTO project_extent VALUES(2,'secret/inner','atime',3974400,3974400);
INSERT INTO project_extent VALUES(2,'secret/inner','ctime',-96409959,-96409959);
INSERT INTO project_extent VALUES(2,'secret/inner','mtime',3974400,3974400);
INSERT INTO project_extent VALUES(2,'secret/inner','size',4242,4242);
INSERT INTO project_extent VALUES(3,'(none)','atime',4492800,4492800);
INSERT INTO project_extent VALUES(3,'(none)','ctime',-96323559,-96323559);
INSERT INTO project_extent VALUES(3,'(none)','mtime',4492800,4492800);
INSERT INTO project_extent VALUES(3,'(none)','size',42,42);
INSERT INTO project_extent VALUES(3,'alpha','atime',172800,34732800);
INSERT INTO project_extent VALUES(3,'alpha','ctime',-96323559,-96323559);
INSERT INTO project_extent VALUES(3,'alpha','mtime',172800,3628800);
INSERT INTO project_extent VALUES(3,'alpha','size',0,70000);
INSERT INTO project_extent VALUES(3,'beta','atime',-259200,1036800);
INSERT INTO project_extent VALUES(3,'beta','ctime',-96323559,-96323559);
INSERT INTO project_extent VALUES(3,'beta','mtime',169200,8812800);
INSERT INTO project_extent VALUES(3,'beta','size',10,9223372036854775807);
INSERT INTO project_extent VALUES(3,'gamma','atime',86572800,86572800);
INSERT INTO project_extent VALUES(3,'gamma','ctime',-96323559,-96323559);
INSERT INTO project_extent VALUES(3,'gamma','mtime',172972800,172972800);
INSERT INTO project_extent VALUES(3,'gamma','size',123456,123456);
INSERT INTO project_extent VALUES(3,'secret','atime',4060800,7948800);
INSERT INTO project_extent VALUES(3,'secret','ctime',-96323559,-96323559);
INSERT INTO project_extent VALUES(3,'secret','mtime',4060800,7948800);
INSERT INTO project_extent VALUES(3,'secret','size',777,4242);
CREATE TABLE cold (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project     TEXT,
  metric      TEXT NOT NULL CHECK (metric IN ('atime', 'mtime')),
  days        INTEGER NOT NULL,
  files       INTEGER NOT NULL,
  bytes       NOT NULL             -- exact
);
INSERT INTO cold VALUES(1,'(none)','atime',1,1,42);
INSERT INTO cold VALUES(1,'(none)','atime',7,1,42);
INSERT INTO cold VALUES(1,'(none)','atime',30,1,42);
INSERT INTO cold VALUES(1,'(none)','mtime',1,1,42);
INSERT INTO cold VALUES(1,'(none)','mtime',7,1,42);
INSERT INTO cold VALUES(1,'(none)','mtime',30,1,42);
INSERT INTO cold VALUES(1,'alpha','atime',1,4,78100);
INSERT INTO cold VALUES(1,'alpha','atime',7,3,73100);
INSERT INTO cold VALUES(1,'alpha','atime',30,2,70100);
INSERT INTO cold VALUES(1,'alpha','mtime',1,4,78100);
INSERT INTO cold VALUES(1,'alpha','mtime',7,3,75100);
INSERT INTO cold VALUES(1,'alpha','mtime',30,2,70100);
INSERT INTO cold VALUES(1,'beta','atime',1,2,'18446744073709551614');
INSERT INTO cold VALUES(1,'beta','atime',7,2,'18446744073709551614');
INSERT INTO cold VALUES(1,'beta','atime',30,0,0);
INSERT INTO cold VALUES(1,'beta','mtime',1,2,'18446744073709551614');
INSERT INTO cold VALUES(1,'beta','mtime',7,2,'18446744073709551614');
INSERT INTO cold VALUES(1,'beta','mtime',30,2,'18446744073709551614');
INSERT INTO cold VALUES(1,'gamma','atime',1,1,123456);
INSERT INTO cold VALUES(1,'gamma','atime',7,1,123456);
INSERT INTO cold VALUES(1,'gamma','atime',30,1,123456);
INSERT INTO cold VALUES(1,'gamma','mtime',1,1,123456);
INSERT INTO cold VALUES(1,'gamma','mtime',7,1,123456);
INSERT INTO cold VALUES(1,'gamma','mtime',30,1,123456);
INSERT INTO cold VALUES(1,'delta','atime',1,0,0);
INSERT INTO cold VALUES(1,'delta','atime',7,0,0);
INSERT INTO cold VALUES(1,'delta','atime',30,0,0);
INSERT INTO cold VALUES(1,'delta','mtime',1,0,0);
INSERT INTO cold VALUES(1,'delta','mtime',7,0,0);
INSERT INTO cold VALUES(1,'delta','mtime',30,0,0);
INSERT INTO cold VALUES(1,'secret','atime',1,2,5019);
INSERT INTO cold VALUES(1,'secret','atime',7,2,5019);
INSERT INTO cold VALUES(1,'secret','atime',30,2,5019);
INSERT INTO cold VALUES(1,'secret','mtime',1,2,5019);
INSERT INTO cold VALUES(1,'secret','mtime',7,2,5019);
INSERT INTO cold VALUES(1,'secret','mtime',30,2,5019);
INSERT INTO cold VALUES(1,NULL,'atime',1,10,'18446744073709758231');
INSERT INTO cold VALUES(1,NULL,'atime',7,9,'18446744073709753231');
INSERT INTO cold VALUES(1,NULL,'atime',30,6,198617);
INSERT INTO cold VALUES(1,NULL,'mtime',1,10,'18446744073709758231');
INSERT INTO cold VALUES(1,NULL,'mtime',7,9,'18446744073709755231');
INSERT INTO cold VALUES(1,NULL,'mtime',30,8,'18446744073709750231');
INSERT INTO cold VALUES(2,'(none)','atime',30,3,919);
INSERT INTO cold VALUES(2,'(none)','atime',90,2,877);
INSERT INTO cold VALUES(2,'(none)','atime',180,1,100);
INSERT INTO cold VALUES(2,'(none)','atime',365,1,100);
INSERT INTO cold VALUES(2,'(none)','mtime',30,5,'18446744073709552533');
INSERT INTO cold VALUES(2,'(none)','mtime',90,3,'18446744073709552391');
INSERT INTO cold VALUES(2,'(none)','mtime',180,0,0);
INSERT INTO cold VALUES(2,'(none)','mtime',365,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','atime',30,1,70000);
INSERT INTO cold VALUES(2,'alpha/sub','atime',90,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','atime',180,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','atime',365,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','mtime',30,1,70000);
INSERT INTO cold VALUES(2,'alpha/sub','mtime',90,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','mtime',180,0,0);
INSERT INTO cold VALUES(2,'alpha/sub','mtime',365,0,0);
INSERT INTO cold VALUES(2,'gamma/g','atime',30,0,0);
INSERT INTO cold VALUES(2,'gamma/g','atime',90,0,0);
INSERT INTO cold VALUES(2,'gamma/g','atime',180,0,0);
INSERT INTO cold VALUES(2,'gamma/g','atime',365,0,0);
INSERT INTO cold VALUES(2,'gamma/g','mtime',30,0,0);
INSERT INTO cold VALUES(2,'gamma/g','mtime',90,0,0);
INSERT INTO cold VALUES(2,'gamma/g','mtime',180,0,0);
INSERT INTO cold VALUES(2,'gamma/g','mtime',365,0,0);
INSERT INTO cold VALUES(2,'gamma/h','atime',30,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','atime',90,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','atime',180,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','atime',365,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','mtime',30,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','mtime',90,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','mtime',180,1,123456);
INSERT INTO cold VALUES(2,'gamma/h','mtime',365,1,123456);
INSERT INTO cold VALUES(2,'secret/inner','atime',30,1,4242);
INSERT INTO cold VALUES(2,'secret/inner','atime',90,0,0);
INSERT INTO cold VALUES(2,'secret/inner','atime',180,0,0);
INSERT INTO cold VALUES(2,'secret/inner','atime',365,0,0);
INSERT INTO cold VALUES(2,'secret/inner','mtime',30,1,4242);
INSERT INTO cold VALUES(2,'secret/inner','mtime',90,0,0);
INSERT INTO cold VALUES(2,'secret/inner','mtime',180,0,0);
INSERT INTO cold VALUES(2,'secret/inner','mtime',365,0,0);
INSERT INTO cold VALUES(2,'delta/empty','atime',30,0,0);
INSERT INTO cold VALUES(2,'delta/empty','atime',90,0,0);
INSERT INTO cold VALUES(2,'delta/empty','atime',180,0,0);
INSERT INTO cold VALUES(2,'delta/empty','atime',365,0,0);
INSERT INTO cold VALUES(2,'delta/empty','mtime',30,0,0);
INSERT INTO cold VALUES(2,'delta/empty','mtime',90,0,0);
INSERT INTO cold VALUES(2,'delta/empty','mtime',180,0,0);
INSERT INTO cold VALUES(2,'delta/empty','mtime',365,0,0);
INSERT INTO cold VALUES(2,NULL,'atime',30,6,198617);
INSERT INTO cold VALUES(2,NULL,'atime',90,3,124333);
INSERT INTO cold VALUES(2,NULL,'atime',180,2,123556);
INSERT INTO cold VALUES(2,NULL,'atime',365,2,123556);
INSERT INTO cold VALUES(2,NULL,'mtime',30,8,'18446744073709750231');
INSERT INTO cold VALUES(2,NULL,'mtime',90,4,'18446744073709675847');
INSERT INTO cold VALUES(2,NULL,'mtime',180,1,123456);
INSERT INTO cold VALUES(2,NULL,'mtime',365,1,123456);
INSERT INTO cold VALUES(3,'(none)','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'(none)','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,'alpha','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'alpha','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,'beta','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'beta','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,'gamma','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'gamma','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,'delta','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'delta','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,'secret','atime',3652425,0,0);
INSERT INTO cold VALUES(3,'secret','mtime',3652425,0,0);
INSERT INTO cold VALUES(3,NULL,'atime',3652425,0,0);
INSERT INTO cold VALUES(3,NULL,'mtime',3652425,0,0);
CREATE TABLE dir (
  id          INTEGER PRIMARY KEY,
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  parent      INTEGER,
  name        TEXT NOT NULL,       -- the bytes the file system returned
  depth INTEGER NOT NULL,          -- below ROOT, ROOT is 0
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes NOT NULL, alloc_bytes NOT NULL,                 -- exact
  max_mtime INTEGER
);
INSERT INTO dir VALUES(1,1,NULL,'.',0,12,12,'18446744073709758241',237568,1796496359);
INSERT INTO dir VALUES(2,1,1,'alpha',1,5,3,78100,90112,1796496359);
INSERT INTO dir VALUES(3,1,2,'sub',2,2,2,70000,73728,1796496359);
INSERT INTO dir VALUES(4,1,3,'deeper',3,1,1,0,0,1796496359);
INSERT INTO dir VALUES(5,1,1,'beta',1,3,1,'18446744073709551624',4096,1796496359);
INSERT INTO dir VALUES(6,1,1,'gamma',1,1,3,123456,126976,1796496359);
INSERT INTO dir VALUES(7,1,6,'g',2,0,1,0,0,1796496359);
INSERT INTO dir VALUES(8,1,6,'h',2,1,1,123456,126976,1796496359);
INSERT INTO dir VALUES(9,1,1,'delta',1,0,2,0,0,1796496359);
INSERT INTO dir VALUES(10,1,9,'empty',2,0,1,0,0,1796496359);
INSERT INTO dir VALUES(11,1,1,'secret',1,2,2,5019,12288,1796496359);
INSERT INTO dir VALUES(12,1,11,'inner',2,1,1,4242,8192,1796496359);
INSERT INTO dir VALUES(13,2,NULL,'.',0,12,12,'18446744073709758241',237568,1796496359);
INSERT INTO dir VALUES(14,2,13,'alpha',1,5,3,78100,90112,1796496359);
INSERT INTO dir VALUES(15,2,14,'sub',2,2,2,70000,73728,1796496359);
INSERT INTO dir VALUES(16,2,15,'deeper',3,1,1,0,0,1796496359);
INSERT INTO dir VALUES(17,2,13,'beta',1,3,1,'18446744073709551624',4096,1796496359);
INSERT INTO dir VALUES(18,2,13,'gamma',1,1,3,123456,126976,1796496359);
INSERT INTO dir VALUES(19,2,18,'g',2,0,1,0,0,1796496359);
INSERT INTO dir VALUES(20,2,18,'h',2,1,1,123456,126976,1796496359);
INSERT INTO dir VALUES(21,2,13,'secret',1,2,2,5019,12288,1796496359);
INSERT INTO dir VALUES(22,2,21,'inner',2,1,1,4242,8192,1796496359);
INSERT INTO dir VALUES(23,2,13,'delta',1,0,2,0,0,1796496359);
INSERT INTO dir VALUES(24,2,23,'empty',2,0,1,0,0,1796496359);
INSERT INTO dir VALUES(25,3,NULL,'.',0,12,12,'18446744073709758241',237568,1796496359);
INSERT INTO dir VALUES(26,3,25,'alpha',1,5,3,78100,90112,1796496359);
INSERT INTO dir VALUES(27,3,25,'beta',1,3,1,'18446744073709551624',4096,1796496359);
INSERT INTO dir VALUES(28,3,25,'gamma',1,1,3,123456,126976,1796496359);
INSERT INTO dir VALUES(29,3,25,'delta',1,0,2,0,0,1796496359);
INSERT INTO dir VALUES(30,3,25,'secret',1,2,2,5019,12288,1796496359);
CREATE TABLE dir_scope (
  snapshot_id INTEGER PRIMARY KEY REFERENCES snapshot(id) ON DELETE CASCADE,
  max_depth INTEGER
);
INSERT INTO dir_scope VALUES(1,3);
INSERT INTO dir_scope VALUES(2,NULL);
INSERT INTO dir_scope VALUES(3,1);
CREATE TABLE scan_rank (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  rank      INTEGER NOT NULL,
  host      TEXT,
  threads   INTEGER NOT NULL,      -- walker threads of this rank
  entries   INTEGER NOT NULL,      -- names it read and stat'ed
  dirs      INTEGER NOT NULL,      -- directories it visited
  items_in  INTEGER NOT NULL,      -- directories it received from others
  items_out INTEGER NOT NULL,      -- directories it handed to others
  steals    INTEGER NOT NULL,      -- its steal requests that brought work
  seconds   REAL NOT NULL,         -- its walk, wall clock
  PRIMARY KEY (snapshot_id, rank)
) WITHOUT ROWID;
INSERT INTO scan_rank VALUES(1,0,'vm',2,24,12,0,0,0,0.0049054859999999997008);
INSERT INTO scan_rank VALUES(2,0,'vm',2,24,12,0,0,0,0.0026395039999999999821);
INSERT INTO scan_rank VALUES(3,0,'vm',2,24,12,0,0,0,0.0019743159999999998314);
CREATE TABLE top (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'dir')),
  rank INTEGER NOT NULL,
  value NOT NULL,                  -- exact; file: st_size; dir: entries
  path TEXT NOT NULL,
  PRIMARY KEY (snapshot_id, kind, rank)
) WITHOUT ROWID;
INSERT INTO top VALUES(1,'dir',1,6,'/srv/fixture/fs');
INSERT INTO top VALUES(1,'dir',2,4,'/srv/fixture/fs/alpha');
INSERT INTO top VALUES(1,'dir',3,3,'/srv/fixture/fs/beta');
INSERT INTO top VALUES(1,'dir',4,2,'/srv/fixture/fs/alpha/sub');
INSERT INTO top VALUES(1,'dir',5,2,'/srv/fixture/fs/gamma');
INSERT INTO top VALUES(1,'dir',6,2,'/srv/fixture/fs/secret');
INSERT INTO top VALUES(1,'dir',7,1,'/srv/fixture/fs/alpha/sub/deeper');
INSERT INTO top VALUES(1,'dir',8,1,'/srv/fixture/fs/delta');
INSERT INTO top VALUES(1,'dir',9,1,'/srv/fixture/fs/gamma/g');
INSERT INTO top VALUES(1,'dir',10,1,'/srv/fixture/fs/gamma/h');
INSERT INTO top VALUES(1,'dir',11,1,'/srv/fixture/fs/secret/inner');
INSERT INTO top VALUES(1,'dir',12,0,'/srv/fixture/fs/delta/empty');
INSERT INTO top VALUES(1,'file',1,9223372036854775807,'/srv/fixture/fs/beta/huge1');
INSERT INTO top VALUES(1,'file',2,9223372036854775807,'/srv/fixture/fs/beta/huge2');
INSERT INTO top VALUES(1,'file',3,123456,'/srv/fixture/fs/gamma/h/x2');
INSERT INTO top VALUES(1,'file',4,70000,'/srv/fixture/fs/alpha/sub/a3');
INSERT INTO top VALUES(1,'file',5,5000,'/srv/fixture/fs/alpha/a2');
INSERT INTO top VALUES(1,'file',6,4242,'/srv/fixture/fs/secret/inner/s2');
INSERT INTO top VALUES(1,'file',7,3000,'/srv/fixture/fs/alpha/linked');
INSERT INTO top VALUES(1,'file',8,777,'/srv/fixture/fs/secret/s1');
INSERT INTO top VALUES(1,'file',9,100,'/srv/fixture/fs/alpha/a1');
INSERT INTO top VALUES(1,'file',10,42,'/srv/fixture/fs/loose');
INSERT INTO top VALUES(1,'file',11,10,'/srv/fixture/fs/beta/future');
INSERT INTO top VALUES(1,'file',12,0,'/srv/fixture/fs/alpha/sub/deeper/a4');
INSERT INTO top VALUES(2,'dir',1,6,'/srv/fixture/fs');
INSERT INTO top VALUES(2,'dir',2,4,'/srv/fixture/fs/alpha');
INSERT INTO top VALUES(2,'dir',3,3,'/srv/fixture/fs/beta');
INSERT INTO top VALUES(2,'dir',4,2,'/srv/fixture/fs/alpha/sub');
INSERT INTO top VALUES(2,'dir',5,2,'/srv/fixture/fs/gamma');
INSERT INTO top VALUES(2,'dir',6,2,'/srv/fixture/fs/secret');
INSERT INTO top VALUES(2,'dir',7,1,'/srv/fixture/fs/alpha/sub/deeper');
INSERT INTO top VALUES(2,'dir',8,1,'/srv/fixture/fs/delta');
INSERT INTO top VALUES(2,'dir',9,1,'/srv/fixture/fs/gamma/g');
INSERT INTO top VALUES(2,'dir',10,1,'/srv/fixture/fs/gamma/h');
INSERT INTO top VALUES(2,'dir',11,1,'/srv/fixture/fs/secret/inner');
INSERT INTO top VALUES(2,'dir',12,0,'/srv/fixture/fs/delta/empty');
INSERT INTO top VALUES(2,'file',1,9223372036854775807,'/srv/fixture/fs/beta/huge1');
INSERT INTO top VALUES(2,'file',2,9223372036854775807,'/srv/fixture/fs/beta/huge2');
INSERT INTO top VALUES(2,'file',3,123456,'/srv/fixture/fs/gamma/h/x2');
INSERT INTO top VALUES(2,'file',4,70000,'/srv/fixture/fs/alpha/sub/a3');
INSERT INTO top VALUES(2,'file',5,5000,'/srv/fixture/fs/alpha/a2');
INSERT INTO top VALUES(2,'file',6,4242,'/srv/fixture/fs/secret/inner/s2');
INSERT INTO top VALUES(2,'file',7,3000,'/srv/fixture/fs/alpha/linked');
INSERT INTO top VALUES(2,'file',8,777,'/srv/fixture/fs/secret/s1');
INSERT INTO top VALUES(2,'file',9,100,'/srv/fixture/fs/alpha/a1');
INSERT INTO top VALUES(2,'file',10,42,'/srv/fixture/fs/loose');
INSERT INTO top VALUES(2,'file',11,10,'/srv/fixture/fs/beta/future');
INSERT INTO top VALUES(2,'file',12,0,'/srv/fixture/fs/alpha/sub/deeper/a4');
INSERT INTO top VALUES(3,'dir',1,6,'/srv/fixture/fs');
INSERT INTO top VALUES(3,'dir',2,4,'/srv/fixture/fs/alpha');
INSERT INTO top VALUES(3,'dir',3,3,'/srv/fixture/fs/beta');
INSERT INTO top VALUES(3,'dir',4,2,'/srv/fixture/fs/alpha/sub');
INSERT INTO top VALUES(3,'dir',5,2,'/srv/fixture/fs/gamma');
INSERT INTO top VALUES(3,'dir',6,2,'/srv/fixture/fs/secret');
INSERT INTO top VALUES(3,'dir',7,1,'/srv/fixture/fs/alpha/sub/deeper');
INSERT INTO top VALUES(3,'dir',8,1,'/srv/fixture/fs/delta');
INSERT INTO top VALUES(3,'dir',9,1,'/srv/fixture/fs/gamma/g');
INSERT INTO top VALUES(3,'dir',10,1,'/srv/fixture/fs/gamma/h');
INSERT INTO top VALUES(3,'dir',11,1,'/srv/fixture/fs/secret/inner');
INSERT INTO top VALUES(3,'dir',12,0,'/srv/fixture/fs/delta/empty');
INSERT INTO top VALUES(3,'file',1,9223372036854775807,'/srv/fixture/fs/beta/huge1');
INSERT INTO top VALUES(3,'file',2,9223372036854775807,'/srv/fixture/fs/beta/huge2');
INSERT INTO top VALUES(3,'file',3,123456,'/srv/fixture/fs/gamma/h/x2');
INSERT INTO top VALUES(3,'file',4,70000,'/srv/fixture/fs/alpha/sub/a3');
INSERT INTO top VALUES(3,'file',5,5000,'/srv/fixture/fs/alpha/a2');
INSERT INTO top VALUES(3,'file',6,4242,'/srv/fixture/fs/secret/inner/s2');
INSERT INTO top VALUES(3,'file',7,3000,'/srv/fixture/fs/alpha/linked');
INSERT INTO top VALUES(3,'file',8,777,'/srv/fixture/fs/secret/s1');
INSERT INTO top VALUES(3,'file',9,100,'/srv/fixture/fs/alpha/a1');
INSERT INTO top VALUES(3,'file',10,42,'/srv/fixture/fs/loose');
INSERT INTO top VALUES(3,'file',11,10,'/srv/fixture/fs/beta/future');
INSERT INTO top VALUES(3,'file',12,0,'/srv/fixture/fs/alpha/sub/deeper/a4');
CREATE TABLE scan_error (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  errno   INTEGER NOT NULL,
  message TEXT NOT NULL,
  count   INTEGER NOT NULL,
  PRIMARY KEY (snapshot_id, errno)
) WITHOUT ROWID;
CREATE TABLE scan_error_path (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  errno INTEGER NOT NULL,
  seq   INTEGER NOT NULL,
  path  TEXT NOT NULL,
  PRIMARY KEY (snapshot_id, errno, seq)
) WITHOUT ROWID;
CREATE TABLE io_host (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE          -- the log header's host name
);
CREATE TABLE io_dev (
  id          INTEGER PRIMARY KEY,
  host_id     INTEGER NOT NULL REFERENCES io_host(id),
  name        TEXT NOT NULL,         -- kernel name, e.g. sdb, dm-3
  interval_ms INTEGER NOT NULL,      -- nominal sample interval (log header)
  first_ms    INTEGER NOT NULL,      -- earliest interval start, unix ms
  last_ms     INTEGER NOT NULL,      -- latest interval end, unix ms
  UNIQUE (host_id, name)
);
CREATE TABLE io_chunk (
  id      INTEGER PRIMARY KEY,
  dev_id  INTEGER NOT NULL REFERENCES io_dev(id),
  t0      INTEGER NOT NULL,          -- hour start, unix seconds
  n       INTEGER NOT NULL CHECK (n > 0),
  t1_ms   INTEGER NOT NULL,
  step_ms INTEGER NOT NULL,
  t_dev BLOB, s_dev BLOB,
  rd_ios BLOB, wr_ios BLOB,          -- completed reads, writes
  rd_sec BLOB, wr_sec BLOB,          -- 512-byte sectors
  rd_ms  BLOB, wr_ms  BLOB,          -- time spent reading, writing
  io_ms  BLOB,                       -- busy time (io_ticks)
  oth_ios BLOB                       -- completed discards + flushes
);
CREATE TABLE io_slot (i INTEGER PRIMARY KEY);
CREATE TABLE io_minute (
  t        INTEGER PRIMARY KEY,      -- minute start, unix seconds
  expected INTEGER NOT NULL,         -- devices expected in the minute
  valid    INTEGER NOT NULL,         -- devices with a value for it
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL,
  ios      INTEGER NOT NULL          -- completed requests of every kind
);
CREATE TABLE io_expect (
  dev_id INTEGER PRIMARY KEY REFERENCES io_dev(id),
  end_ms INTEGER NOT NULL            -- as the derived tables were built
);
CREATE TABLE io_host_hour (
  id       INTEGER PRIMARY KEY,
  host_id  INTEGER NOT NULL REFERENCES io_host(id),
  t0       INTEGER NOT NULL,
  expected INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  rd BLOB, wr BLOB, ios BLOB
);
CREATE TABLE io_dev_hour (
  dev_id     INTEGER NOT NULL REFERENCES io_dev(id),
  t0         INTEGER NOT NULL,
  minutes    INTEGER NOT NULL,       -- valid minutes of the device (> 0)
  samples    INTEGER NOT NULL,       -- bridged samples whose last ms is in one
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL,
  ios      INTEGER NOT NULL,         -- requests of every kind, as io_minute
  rd_ios INTEGER NOT NULL, wr_ios INTEGER NOT NULL, oth_ios INTEGER NOT NULL,
  rd_ms INTEGER NOT NULL, wr_ms INTEGER NOT NULL,
  io_ms INTEGER NOT NULL,            -- busy time (io_ticks)
  peak_bytes INTEGER NOT NULL,       -- max rd+wr bytes of a valid minute
  peak_t     INTEGER NOT NULL,       -- that minute's start (earliest)
  peak_ios   INTEGER NOT NULL,       -- max requests of a valid minute
  PRIMARY KEY (dev_id, t0)
) WITHOUT ROWID;
CREATE TABLE io_hour (
  t        INTEGER PRIMARY KEY,      -- hour start
  minutes  INTEGER NOT NULL,         -- complete minutes in the hour
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL, ios INTEGER NOT NULL,
  peak_bytes INTEGER, peak_rd INTEGER, peak_wr INTEGER
);
CREATE TABLE io_day (
  t        INTEGER PRIMARY KEY,      -- UTC day start
  minutes  INTEGER NOT NULL,
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL, ios INTEGER NOT NULL,
  peak_bytes INTEGER, peak_rd INTEGER, peak_wr INTEGER
);
CREATE TABLE io_dirty (
  t0 INTEGER PRIMARY KEY             -- hour start
);
CREATE TABLE io_source (
  name    TEXT PRIMARY KEY,          -- path, or archive.tar.gz:member
  host    TEXT,
  samples INTEGER NOT NULL,          -- device-samples read
  first_t INTEGER, last_t INTEGER,
  damaged INTEGER NOT NULL           -- damage events
) WITHOUT ROWID;
CREATE TABLE io_quarantine (
  host        TEXT NOT NULL,         -- the log header's host name
  device      TEXT NOT NULL,
  t_ms        INTEGER NOT NULL,      -- interval end, unix ms, as logged
  dur_ms      INTEGER NOT NULL,
  interval_ms INTEGER NOT NULL,      -- nominal interval (log header)
  rd_ios INTEGER NOT NULL, wr_ios INTEGER NOT NULL,
  rd_sec INTEGER NOT NULL, wr_sec INTEGER NOT NULL,
  rd_ms  INTEGER NOT NULL, wr_ms  INTEGER NOT NULL,
  io_ms  INTEGER NOT NULL, oth_ios INTEGER NOT NULL,
  PRIMARY KEY (host, device, t_ms)
) WITHOUT ROWID;
CREATE TABLE io_damage (
  source TEXT NOT NULL,
  offset INTEGER NOT NULL,           -- compressed byte offset
  reason TEXT NOT NULL,
  PRIMARY KEY (source, offset, reason)
) WITHOUT ROWID;
CREATE UNIQUE INDEX hist_key
  ON hist (snapshot_id, ifnull(project, ''), metric, slot);
CREATE UNIQUE INDEX cold_key
  ON cold (snapshot_id, ifnull(project, ''), metric, days);
CREATE INDEX dir_depth ON dir (snapshot_id, depth);
CREATE UNIQUE INDEX io_chunk_key ON io_chunk (dev_id, t0);
CREATE UNIQUE INDEX io_host_hour_key ON io_host_hour (t0, host_id);
CREATE VIEW v_snapshot AS
  SELECT id, fs, root, started_at, finished_at,
         (status = 'complete') AS complete,
         files, dirs, symlinks, others, bytes, alloc_bytes, errors,
         fs_bytes, fs_free_bytes, fs_avail_bytes, fs_inodes, fs_free_inodes,
         CASE WHEN fs_uuid <> '' THEN 'UUID=' || fs_uuid
              WHEN fs_dev IS NOT NULL THEN fs_dev
                || ifnull(' ' || fs_source, '') || ifnull(' on ' || host, '')
         END AS fs_device
  FROM snapshot;
CREATE VIEW v_limit AS
  SELECT snapshot_id, project, bytes, inodes, source
  FROM project_limit;
CREATE VIEW v_project AS
  SELECT snapshot_id, name AS project, files, dirs, bytes, alloc_bytes
  FROM project;
CREATE VIEW v_cold AS
  SELECT snapshot_id, project, metric, days, files, bytes
  FROM cold;
CREATE VIEW v_hist AS
  SELECT snapshot_id, project, metric, lo, hi, n AS files, w AS bytes
  FROM hist
  WHERE metric IN ('size', 'atime', 'mtime', 'ctime');
CREATE VIEW v_dir AS
  SELECT d.snapshot_id,
         CASE WHEN d.depth = 0 THEN d.name ELSE (
           WITH RECURSIVE up(parent, depth, name) AS (
             SELECT d.parent, d.depth, d.name
             UNION ALL
             SELECT p.parent, p.depth, p.name
             FROM up JOIN dir p ON p.id = up.parent
             WHERE p.depth > 0)
           SELECT group_concat(name, '/')
           FROM (SELECT name FROM up ORDER BY depth)) END AS path,
         d.depth, d.files, d.dirs, d.bytes, d.alloc_bytes, d.max_mtime
  FROM dir d;
CREATE VIEW v_io AS
  SELECT host, device,
         CASE WHEN t_ms % 1000 = 0 THEN t_ms / 1000
              ELSE t_ms / 1000.0 END AS t,
         CASE WHEN dur_ms % 1000 = 0 THEN dur_ms / 1000
              ELSE dur_ms / 1000.0 END AS seconds,
         rd_ios, wr_ios, rd_sec * 512 AS rd_bytes, wr_sec * 512 AS wr_bytes,
         io_ms AS busy_ms
  FROM (
    SELECT host, device,
           t0 * 1000 + t1_ms + i * step_ms + (CASE WHEN t_dev % 2 = 1 THEN -((t_dev + 1) / 2) ELSE t_dev / 2 END) AS t_ms,
           step_ms + (CASE WHEN s_dev % 2 = 1 THEN -((s_dev + 1) / 2) ELSE s_dev / 2 END) AS dur_ms,
           rd_ios, wr_ios, rd_sec, wr_sec, io_ms
    FROM (
      SELECT h.name AS host, d.name AS device, c.t0, c.t1_ms, c.step_ms,
         s.i,
         (coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.t_dev), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.t_dev), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.t_dev), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.t_dev), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.t_dev), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.t_dev), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.t_dev), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.t_dev), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.t_dev, s.i * (ifnull(length(c.t_dev), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.t_dev), 0) / c.n)) * 67675234241018881) AS t_dev,
         (coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.s_dev), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.s_dev), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.s_dev), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.s_dev), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.s_dev), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.s_dev), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.s_dev), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.s_dev), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.s_dev, s.i * (ifnull(length(c.s_dev), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.s_dev), 0) / c.n)) * 67675234241018881) AS s_dev,
         (coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.rd_ios), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.rd_ios), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.rd_ios), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.rd_ios), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.rd_ios), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.rd_ios), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.rd_ios), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.rd_ios), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.rd_ios, s.i * (ifnull(length(c.rd_ios), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.rd_ios), 0) / c.n)) * 67675234241018881) AS rd_ios,
         (coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.wr_ios), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.wr_ios), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.wr_ios), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.wr_ios), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.wr_ios), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.wr_ios), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.wr_ios), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.wr_ios), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.wr_ios, s.i * (ifnull(length(c.wr_ios), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.wr_ios), 0) / c.n)) * 67675234241018881) AS wr_ios,
         (coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.rd_sec), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.rd_sec), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.rd_sec), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.rd_sec), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.rd_sec), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.rd_sec), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.rd_sec), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.rd_sec), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.rd_sec, s.i * (ifnull(length(c.rd_sec), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.rd_sec), 0) / c.n)) * 67675234241018881) AS rd_sec,
         (coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.wr_sec), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.wr_sec), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.wr_sec), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.wr_sec), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.wr_sec), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.wr_sec), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.wr_sec), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.wr_sec), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.wr_sec, s.i * (ifnull(length(c.wr_sec), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.wr_sec), 0) / c.n)) * 67675234241018881) AS wr_sec,
         (coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 1, 1) AS TEXT)) - 1, 0) * (0 < (ifnull(length(c.io_ms), 0) / c.n))
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 2, 1) AS TEXT)) - 1, 0) * (1 < (ifnull(length(c.io_ms), 0) / c.n)) * 127
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 3, 1) AS TEXT)) - 1, 0) * (2 < (ifnull(length(c.io_ms), 0) / c.n)) * 16129
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 4, 1) AS TEXT)) - 1, 0) * (3 < (ifnull(length(c.io_ms), 0) / c.n)) * 2048383
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 5, 1) AS TEXT)) - 1, 0) * (4 < (ifnull(length(c.io_ms), 0) / c.n)) * 260144641
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 6, 1) AS TEXT)) - 1, 0) * (5 < (ifnull(length(c.io_ms), 0) / c.n)) * 33038369407
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 7, 1) AS TEXT)) - 1, 0) * (6 < (ifnull(length(c.io_ms), 0) / c.n)) * 4195872914689
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 8, 1) AS TEXT)) - 1, 0) * (7 < (ifnull(length(c.io_ms), 0) / c.n)) * 532875860165503
           + coalesce(unicode(CAST(substr(c.io_ms, s.i * (ifnull(length(c.io_ms), 0) / c.n) + 9, 1) AS TEXT)) - 1, 0) * (8 < (ifnull(length(c.io_ms), 0) / c.n)) * 67675234241018881) AS io_ms
      FROM io_chunk c
      JOIN io_dev d ON d.id = c.dev_id
      JOIN io_host h ON h.id = d.host_id
      JOIN io_slot s ON s.i < c.n
    )
  );
CREATE VIEW v_io_quarantine AS
  SELECT host, device,
         CASE WHEN t_ms % 1000 = 0 THEN t_ms / 1000
              ELSE t_ms / 1000.0 END AS t,
         CASE WHEN dur_ms % 1000 = 0 THEN dur_ms / 1000
              ELSE dur_ms / 1000.0 END AS seconds,
         rd_ios, wr_ios, rd_sec * 512 AS rd_bytes, wr_sec * 512 AS wr_bytes,
         io_ms AS busy_ms
  FROM io_quarantine;
CREATE VIEW v_io_minute AS
  SELECT t, expected, valid, (valid = expected) AS complete,
         CASE WHEN valid = expected THEN rd_bytes END AS rd_bytes,
         CASE WHEN valid = expected THEN wr_bytes END AS wr_bytes,
         CASE WHEN valid = expected THEN ios END AS ios
  FROM io_minute;
CREATE VIEW v_io_hour AS
  SELECT t, minutes, rd_bytes, wr_bytes, ios, peak_bytes, peak_rd, peak_wr
  FROM io_hour;
CREATE VIEW v_io_day AS
  SELECT t, minutes, rd_bytes, wr_bytes, ios, peak_bytes, peak_rd, peak_wr
  FROM io_day;
CREATE VIEW v_io_dev_hour AS
  SELECT h.name AS host, d.name AS device, dh.t0 AS t, dh.minutes,
         dh.samples, dh.rd_bytes, dh.wr_bytes, dh.ios, dh.rd_ios, dh.wr_ios,
         dh.oth_ios, dh.rd_ms, dh.wr_ms, dh.io_ms AS busy_ms, dh.peak_bytes,
         dh.peak_t, dh.peak_ios
  FROM io_host h
  JOIN io_dev d ON d.host_id = h.id
  JOIN io_dev_hour dh ON dh.dev_id = d.id;
CREATE VIEW v_io_host_minute AS
  SELECT h.name AS host, m.t AS t,
         (hh.complete >> ((m.t - hh.t0) / 60)) & 1 AS complete,
         CASE WHEN (hh.complete >> ((m.t - hh.t0) / 60)) & 1 THEN (CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 0 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 1, 1) AS TEXT)) - 1, 0) ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 1 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 2, 1) AS TEXT)) - 1, 0) * 127 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 2 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 3, 1) AS TEXT)) - 1, 0) * 16129 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 3 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 4, 1) AS TEXT)) - 1, 0) * 2048383 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 4 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 5, 1) AS TEXT)) - 1, 0) * 260144641 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 5 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 6, 1) AS TEXT)) - 1, 0) * 33038369407 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 6 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 7, 1) AS TEXT)) - 1, 0) * 4195872914689 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 7 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 8, 1) AS TEXT)) - 1, 0) * 532875860165503 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.rd), 0) / 60) > 8 THEN coalesce(unicode(CAST(substr(hh.rd, ((m.t - hh.t0) / 60) * (ifnull(length(hh.rd), 0) / 60) + 9, 1) AS TEXT)) - 1, 0) * 67675234241018881 ELSE 0 END) END AS rd_bytes,
         CASE WHEN (hh.complete >> ((m.t - hh.t0) / 60)) & 1 THEN (CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 0 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 1, 1) AS TEXT)) - 1, 0) ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 1 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 2, 1) AS TEXT)) - 1, 0) * 127 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 2 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 3, 1) AS TEXT)) - 1, 0) * 16129 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 3 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 4, 1) AS TEXT)) - 1, 0) * 2048383 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 4 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 5, 1) AS TEXT)) - 1, 0) * 260144641 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 5 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 6, 1) AS TEXT)) - 1, 0) * 33038369407 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 6 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 7, 1) AS TEXT)) - 1, 0) * 4195872914689 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 7 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 8, 1) AS TEXT)) - 1, 0) * 532875860165503 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.wr), 0) / 60) > 8 THEN coalesce(unicode(CAST(substr(hh.wr, ((m.t - hh.t0) / 60) * (ifnull(length(hh.wr), 0) / 60) + 9, 1) AS TEXT)) - 1, 0) * 67675234241018881 ELSE 0 END) END AS wr_bytes,
         CASE WHEN (hh.complete >> ((m.t - hh.t0) / 60)) & 1 THEN (CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 0 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 1, 1) AS TEXT)) - 1, 0) ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 1 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 2, 1) AS TEXT)) - 1, 0) * 127 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 2 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 3, 1) AS TEXT)) - 1, 0) * 16129 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 3 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 4, 1) AS TEXT)) - 1, 0) * 2048383 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 4 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 5, 1) AS TEXT)) - 1, 0) * 260144641 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 5 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 6, 1) AS TEXT)) - 1, 0) * 33038369407 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 6 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 7, 1) AS TEXT)) - 1, 0) * 4195872914689 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 7 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 8, 1) AS TEXT)) - 1, 0) * 532875860165503 ELSE 0 END
           + CASE WHEN (ifnull(length(hh.ios), 0) / 60) > 8 THEN coalesce(unicode(CAST(substr(hh.ios, ((m.t - hh.t0) / 60) * (ifnull(length(hh.ios), 0) / 60) + 9, 1) AS TEXT)) - 1, 0) * 67675234241018881 ELSE 0 END) END AS ios
  FROM io_minute m
  JOIN io_host_hour hh ON hh.t0 = m.t - m.t % 3600
  JOIN io_host h ON h.id = hh.host_id
  WHERE (hh.expected >> ((m.t - hh.t0) / 60)) & 1;

PRAGMA application_id=1768907635;
PRAGMA user_version=10;
COMMIT;
