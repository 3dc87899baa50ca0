-- iocensus census database: block-device samples (lib/db.h DB_SCHEMA_VERSION).
-- Written only by `iocensus ingest`. Tables are private; v_io and the
-- v_io_* views in views.sql are the interface. docs/census-db.md documents
-- the chunk encoding byte for byte.

CREATE TABLE IF NOT EXISTS io_host (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE          -- the log header's host name
);

CREATE TABLE IF NOT EXISTS io_dev (
  id          INTEGER PRIMARY KEY,
  host_id     INTEGER NOT NULL REFERENCES io_host(id),
  name        TEXT NOT NULL,         -- kernel name, e.g. sdb, dm-3
  interval_ms INTEGER NOT NULL,      -- nominal sample interval (log header)
  first_ms    INTEGER NOT NULL,      -- earliest interval start, unix ms
  last_ms     INTEGER NOT NULL,      -- latest interval end, unix ms
  UNIQUE (host_id, name)
);

-- A device's identity as its logs' device tables give it (the attributes
-- wwid, serial, model and slot; '' where a log has none), one row per
-- distinct identity of a device, with the earliest interval start and the
-- latest interval end of its samples under that identity: a replaced disk
-- that keeps its kernel name is a second row. Written by ingest as a set
-- (ingesting again widens nothing); v_io_device shows it.
CREATE TABLE IF NOT EXISTS io_dev_ident (
  dev_id   INTEGER NOT NULL REFERENCES io_dev(id),
  wwn      TEXT NOT NULL,            -- the log's wwid attribute
  serial   TEXT NOT NULL,
  model    TEXT NOT NULL,
  slot     TEXT NOT NULL,            -- enclosure slot, else by-path name
  first_ms INTEGER NOT NULL,         -- earliest interval start, unix ms
  last_ms  INTEGER NOT NULL,         -- latest interval end, unix ms
  PRIMARY KEY (dev_id, wwn, serial, model, slot)
) WITHOUT ROWID;

-- One row per device per UTC hour: the samples whose interval ends in
-- [t0, t0 + 3600). n samples, in time order. Sample i ends at unix ms
--   t0*1000 + t1_ms + i*step_ms + zz(t_dev[i])
-- and lasts step_ms + zz(s_dev[i]) ms. Every other column holds one
-- unsigned value per sample. Each such BLOB column is "r127": n fixed-width
-- little-endian base-127 numbers, digit d stored as the byte d + 1,
-- width = length(column) / n (NULL or empty when every value is 0). zz()
-- is zigzag: z even -> z/2, z odd -> -(z+1)/2.
CREATE TABLE IF NOT EXISTS io_chunk (
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
CREATE UNIQUE INDEX IF NOT EXISTS io_chunk_key ON io_chunk (dev_id, t0);

-- Integers 0..3599: the sample index of a chunk, for v_io.
CREATE TABLE IF NOT EXISTS io_slot (i INTEGER PRIMARY KEY);

-- Derived by ingest from io_chunk (rebuilt for the hours an ingest
-- changed). A minute [t, t + 60) of a device is valid when samples cover
-- all of it without a reset or a gap. A device is expected from the start
-- of its first interval to its io_expect.end_ms; a minute in which it is
-- expected but not valid is missing, never idle. Sums are over valid
-- devices only.
CREATE TABLE IF NOT EXISTS io_minute (
  t        INTEGER PRIMARY KEY,      -- minute start, unix seconds
  expected INTEGER NOT NULL,         -- devices expected in the minute
  valid    INTEGER NOT NULL,         -- devices with a value for it
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL,
  ios      INTEGER NOT NULL          -- completed requests of every kind
);

-- The expected end. G is the latest interval end of any device in the
-- database, a host's end the latest of its devices'. A device whose last
-- interval ends within one of its intervals (plus 1 s of clock jitter) of
-- its host's end is still there when the host stops: it is expected up to
-- G, so a host that stops logging (daemon stopped, server down, a log
-- truncated or lost) is missing until the end of the data. A device whose
-- host went on without it was removed: it is expected only to its own
-- last interval end. Every term is a maximum over the samples, so the end
-- does not depend on the order of the ingests.
CREATE TABLE IF NOT EXISTS io_expect (
  dev_id INTEGER PRIMARY KEY REFERENCES io_dev(id),
  end_ms INTEGER NOT NULL            -- as the derived tables were built
);

-- Per host and UTC hour: the host's minute values (r127, 60 values each,
-- minute i = [t0 + 60 i, t0 + 60 i + 60)), and `complete`, a 60-bit mask
-- of the minutes in which every expected device of the host was valid.
-- `expected` is the mask of minutes in which the host had any expected
-- device. Values of minutes outside `complete` are 0 and mean nothing.
CREATE TABLE IF NOT EXISTS io_host_hour (
  id       INTEGER PRIMARY KEY,
  host_id  INTEGER NOT NULL REFERENCES io_host(id),
  t0       INTEGER NOT NULL,
  expected INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  rd BLOB, wr BLOB, ios BLOB
);
CREATE UNIQUE INDEX IF NOT EXISTS io_host_hour_key ON io_host_hour (t0, host_id);

-- Per device and UTC hour with a valid minute: sums over the device's
-- valid minutes in [t0, t0 + 3600). Each bridged sample's counters are
-- split over the minutes it covers as the minute values are (floor parts
-- that add up to the whole), and only the parts in valid minutes count:
-- a sample across a gap or a reset, or a minute partly covered, adds
-- nothing. The device's covered time is 60 s per valid minute.
CREATE TABLE IF NOT EXISTS io_dev_hour (
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

-- Whole-system roll-ups over complete minutes (io_minute.valid = expected).
CREATE TABLE IF NOT EXISTS io_hour (
  t        INTEGER PRIMARY KEY,      -- hour start
  minutes  INTEGER NOT NULL,         -- complete minutes in the hour
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL, ios INTEGER NOT NULL,
  peak_bytes INTEGER, peak_rd INTEGER, peak_wr INTEGER
);
CREATE TABLE IF NOT EXISTS io_day (
  t        INTEGER PRIMARY KEY,      -- UTC day start
  minutes  INTEGER NOT NULL,
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL, ios INTEGER NOT NULL,
  peak_bytes INTEGER, peak_rd INTEGER, peak_wr INTEGER
);

-- Hours whose derived rows (io_minute, io_host_hour, io_dev_hour, io_hour,
-- io_day) are stale: each ingest transaction adds the hours it changed, and
-- the roll-up that rebuilds them deletes the rows in the same transaction,
-- so an ingest killed between the two leaves a record, never a silent gap.
-- The same roll-up also rebuilds the hours between a device's old and new
-- expected end, and stores the new one in io_expect. Upgrading a version-2
-- database marks every hour with samples here (the derived tables of
-- version 3 follow the rules above), so the next ingest rebuilds them.
CREATE TABLE IF NOT EXISTS io_dirty (
  t0 INTEGER PRIMARY KEY             -- hour start
);

-- What was ingested, for idempotency checks and messages. Re-ingesting a
-- source replaces its row; nothing here depends on when ingest ran.
CREATE TABLE IF NOT EXISTS io_source (
  name    TEXT PRIMARY KEY,          -- path, or archive.tar.gz:member
  host    TEXT,
  samples INTEGER NOT NULL,          -- device-samples read
  first_t INTEGER, last_t INTEGER,
  damaged INTEGER NOT NULL           -- damage events
) WITHOUT ROWID;

-- Samples whose times cannot be real: the interval starts before
-- 2003-01-01 (before any kernel had /proc/diskstats: a clock reset to
-- 1970 or 2000) or ends more than a day after the ingest that read them
-- (a clock set years ahead). Kept apart and whole, so nothing is lost,
-- and never analysed: they move no expected end, no window, no roll-up.
-- A set, like io_chunk: one row per device and end time, the first kept.
CREATE TABLE IF NOT EXISTS io_quarantine (
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

CREATE TABLE IF NOT EXISTS io_damage (
  source TEXT NOT NULL,
  offset INTEGER NOT NULL,           -- compressed byte offset
  reason TEXT NOT NULL,
  PRIMARY KEY (source, offset, reason)
) WITHOUT ROWID;
