-- iocensus census database (lib/db.h DB_SCHEMA_VERSION).
-- Tables are private; the views in views.sql are the stable interface.
-- Each table has one writer: fsscan writes snapshots and everything keyed
-- by snapshot_id. Sizes are bytes, times are unix seconds.
--
-- Columns marked "exact" have no type: they hold an INTEGER, or beyond
-- the signed 64-bit range the exact decimal TEXT (lib/db.h
-- db_bind_i128; docs/census-db.md, "Exact totals"). A typed INTEGER
-- column would turn such text into an approximate REAL.

CREATE TABLE IF NOT EXISTS snapshot (
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

CREATE TABLE IF NOT EXISTS project (
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
  id INTEGER NOT NULL,             -- schema 11: the project's number in its
                                   -- snapshot, 1 up in the order of names:
                                   -- the key of its rows in project_hist,
                                   -- project_extent and project_cold
  PRIMARY KEY (snapshot_id, name)
) WITHOUT ROWID;

-- Schema 6: each project's limit at the snapshot, from fsscan --limits
-- FILE ('file') or the file system's project quota ('quota'): bytes and
-- inodes, NULL when that one has no limit.
CREATE TABLE IF NOT EXISTS project_limit (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project     TEXT NOT NULL,
  bytes       INTEGER, inodes INTEGER,
  source      TEXT NOT NULL CHECK (source IN ('file', 'quota')),
  PRIMARY KEY (snapshot_id, project)
) WITHOUT ROWID;

-- Schema 9: the database's secret, 16 random bytes made once
-- (getrandom), the SipHash-2-4 key of the opaque labels that stand for
-- private project names in world-readable outputs (docs/census-db.md).
CREATE TABLE IF NOT EXISTS census_key (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  key BLOB NOT NULL CHECK (typeof(key) = 'blob' AND length(key) = 16)
);

CREATE TABLE IF NOT EXISTS owner (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('user', 'group')),
  id          INTEGER NOT NULL,
  name        TEXT,                -- NULL when the id has no name here
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes NOT NULL, alloc_bytes NOT NULL,                 -- exact
  PRIMARY KEY (snapshot_id, kind, id)
) WITHOUT ROWID;

-- Histograms of the whole file system, all fsstats metrics, non-empty
-- buckets only. slot is the position in lib/hist.h, bucket [lo, hi) of
-- hist_slot in base units (bytes, 512-byte blocks, seconds, counts). n
-- items, w their bytes, v the sum of values and vw the sum of
-- value*bytes, as decimal text (128-bit exact). Schema 11; before, each
-- row held its lo and hi, and the projects' rows were here too.
CREATE TABLE IF NOT EXISTS hist (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  metric      TEXT NOT NULL,
  slot        INTEGER NOT NULL,
  n  INTEGER NOT NULL, w NOT NULL, -- w exact
  v  TEXT, vw TEXT,
  PRIMARY KEY (snapshot_id, metric, slot)
) WITHOUT ROWID;

-- Schema 11: each project's size, atime, mtime and ctime histograms,
-- non-empty buckets only: n files, w their bytes (exact). project_id is
-- project.id, metric file_metric.id.
CREATE TABLE IF NOT EXISTS project_hist (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project_id  INTEGER NOT NULL,
  metric      INTEGER NOT NULL,
  slot        INTEGER NOT NULL,
  n INTEGER NOT NULL, w NOT NULL,  -- w exact
  PRIMARY KEY (snapshot_id, project_id, metric, slot)
) WITHOUT ROWID;

-- Schema 11: constants that lib/db.c writes with the schema. hist_slot:
-- the bucket [lo, hi) of every slot of every metric (lib/hist.h
-- hist_bounds_base; exact). file_metric: the code of each file metric in
-- project_hist: 0 size, 1 atime, 2 mtime, 3 ctime (lib/metric.h
-- metric_file[]).
CREATE TABLE IF NOT EXISTS hist_slot (
  metric TEXT NOT NULL, slot INTEGER NOT NULL,
  lo NOT NULL, hi NOT NULL,        -- exact
  PRIMARY KEY (metric, slot)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS file_metric (
  id INTEGER PRIMARY KEY, metric TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS hist_extent (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  metric TEXT NOT NULL, min NOT NULL, max NOT NULL,   -- exact
  PRIMARY KEY (snapshot_id, metric)
) WITHOUT ROWID;

-- Per-project extremes of the size and age histograms (bytes; seconds of
-- age before now_ref), as hist_extent for the whole file system: one row
-- per project with regular files, the project by its project.id. Schema
-- 3; schema 11 made its four rows per project (one per metric) one; a
-- snapshot written before schema 3 has none.
CREATE TABLE IF NOT EXISTS project_extent (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL,
  size_min, size_max, atime_min, atime_max,             -- exact
  mtime_min, mtime_max, ctime_min, ctime_max,           -- exact
  PRIMARY KEY (snapshot_id, project_id)
) WITHOUT ROWID;

-- Schema 8: cold data. The regular files whose atime, or mtime, is at
-- least `days` days before now_ref (now_ref - time >= days * 86400),
-- each hard-linked inode once under its owning link: their count and
-- bytes (st_size). cold: the whole file system's, a row for every
-- threshold of the scan (fsscan --cold), zero included, numbered k from
-- 0 in its snapshot; project_cold: a project's (project.id) at threshold
-- k, where it differs from its row at the next threshold of the metric,
-- zero past the last (schema 11; before, cold held a row for every
-- project and threshold). v_cold shows every row. A snapshot written
-- before schema 8 has none.
CREATE TABLE IF NOT EXISTS cold (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  k           INTEGER NOT NULL,
  metric      TEXT NOT NULL CHECK (metric IN ('atime', 'mtime')),
  days        INTEGER NOT NULL,
  files       INTEGER NOT NULL,
  bytes       NOT NULL,            -- exact
  PRIMARY KEY (snapshot_id, k)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS project_cold (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  project_id  INTEGER NOT NULL,
  k           INTEGER NOT NULL,
  files       INTEGER NOT NULL,
  bytes       NOT NULL,            -- exact
  PRIMARY KEY (snapshot_id, project_id, k)
) WITHOUT ROWID;

-- Schema 12: cold data per owner. An owner's (kind, id: the uid or gid
-- of owner) cold files and bytes at threshold k of cold, counted as
-- cold counts them, each hard-linked inode once under its owner; stored
-- as project_cold is, where it differs from its row at the next
-- threshold of the metric, zero past the last. v_cold_owner shows every
-- row. A snapshot written before schema 12 has none.
CREATE TABLE IF NOT EXISTS owner_cold (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('user', 'group')),
  id          INTEGER NOT NULL,
  k           INTEGER NOT NULL,
  files       INTEGER NOT NULL,
  bytes       NOT NULL,            -- exact
  PRIMARY KEY (snapshot_id, kind, id, k)
) WITHOUT ROWID;
-- End of schema 12's owner_cold.

-- Subtree totals, one row per directory kept (fsscan --dirs): its own name
-- and its parent's row, never its path, so that the rows of a deep tree
-- take space linear in its size; v_dir joins the names into paths. parent
-- is the id of the parent directory's row in the same snapshot, NULL for
-- ROOT (named '.'). Schema 4; before, each row held its path (lib/db.c
-- upgrades such rows in place).
CREATE TABLE IF NOT EXISTS dir (
  id          INTEGER PRIMARY KEY,
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  parent      INTEGER,
  name        TEXT NOT NULL,       -- the bytes the file system returned
  depth INTEGER NOT NULL,          -- below ROOT, ROOT is 0
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes NOT NULL, alloc_bytes NOT NULL,                 -- exact
  max_mtime INTEGER,
  -- Schema 12 (per-directory cold bytes): the bytes of the regular files
  -- of the subtree not read since the longest atime threshold of the scan
  -- (fsscan --cold) with each hard-linked inode once as cold counts them.
  -- Exact. NULL where the scan recorded no cold data or was written
  -- before schema 12 (lib/db.c adds the column to an older table). No
  -- comma in these lines: ALTER TABLE DROP COLUMN would take it for one.
  cold_bytes
  -- end of schema 12 (per-directory cold bytes)
);
CREATE INDEX IF NOT EXISTS dir_depth ON dir (snapshot_id, depth);

-- How deep dir goes: fsscan --dirs DEPTH, max_depth NULL for --dirs all.
-- Schema 3; a snapshot written before has no row.
CREATE TABLE IF NOT EXISTS dir_scope (
  snapshot_id INTEGER PRIMARY KEY REFERENCES snapshot(id) ON DELETE CASCADE,
  max_depth INTEGER
);

-- One row per process of a scan: fsscan is rank 0 of 1, fsscan-mpi writes
-- one per MPI rank (docs/census-db.md). Schema 5; a snapshot written
-- before has none.
CREATE TABLE IF NOT EXISTS scan_rank (
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

CREATE TABLE IF NOT EXISTS top (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'dir')),
  rank INTEGER NOT NULL,
  value NOT NULL,                  -- exact; file: st_size; dir: entries
  path TEXT NOT NULL,
  PRIMARY KEY (snapshot_id, kind, rank)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS scan_error (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  errno   INTEGER NOT NULL,
  message TEXT NOT NULL,
  count   INTEGER NOT NULL,
  PRIMARY KEY (snapshot_id, errno)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS scan_error_path (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  errno INTEGER NOT NULL,
  seq   INTEGER NOT NULL,
  path  TEXT NOT NULL,
  PRIMARY KEY (snapshot_id, errno, seq)
) WITHOUT ROWID;
