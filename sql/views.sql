-- Stable views: the public interface of the census database.
-- Created with the schema; a schema upgrade recreates them.
-- The marker in v_hist's IN list becomes the file metrics of lib/metric.c
-- ('size', 'atime', 'mtime', 'ctime'); lib/db.c puts them in.

-- Schema 6 added the fs_* columns, schema 8 fs_device: an upgrade
-- replaces the view. fs_device names the file system that holds ROOT:
-- 'UUID=' and its UUID where libblkid read one, else the device number
-- of ROOT, its mount source and the host ("0:52 tmpfs on node1": such a
-- number means nothing on another host); NULL where neither is known
-- (a snapshot written before schema 8 without a UUID). Snapshots with the
-- same fs_device measure one capacity (docs/census-db.md).
DROP VIEW IF EXISTS v_snapshot;
CREATE VIEW IF NOT EXISTS v_snapshot AS
  SELECT id, fs, root, started_at, finished_at,
         (status = 'complete') AS complete,
         files, dirs, symlinks, others, bytes, alloc_bytes, errors,
         fs_bytes, fs_free_bytes, fs_avail_bytes, fs_inodes, fs_free_inodes,
         CASE WHEN fs_uuid <> '' THEN 'UUID=' || fs_uuid
              WHEN fs_dev IS NOT NULL THEN fs_dev
                || ifnull(' ' || fs_source, '') || ifnull(' on ' || host, '')
         END AS fs_device
  FROM snapshot;

CREATE VIEW IF NOT EXISTS v_limit AS
  SELECT snapshot_id, project, bytes, inodes, source
  FROM project_limit;


CREATE VIEW IF NOT EXISTS v_project AS
  SELECT snapshot_id, name AS project, files, dirs, bytes, alloc_bytes
  FROM project;


-- Schema 8: cold data per project and threshold (fsscan --cold). Schema
-- 11 keeps a project's row only where it differs from the next
-- threshold's of the same metric, zero past the last (project_cold): the
-- view gives each project of a snapshot a row for every threshold the
-- snapshot recorded (cold), that of the first row kept at or past it
-- when that row is of the same metric, else zero. CROSS JOIN keeps the
-- thresholds the outer loop: a project's rows are found by their key.
DROP VIEW IF EXISTS v_cold;
CREATE VIEW IF NOT EXISTS v_cold AS
  SELECT snapshot_id, NULL AS project, metric, days, files, bytes
  FROM cold
  UNION ALL
  SELECT t.snapshot_id, p.name, t.metric, t.days,
         CASE WHEN x.metric = t.metric THEN c.files ELSE 0 END,
         CASE WHEN x.metric = t.metric THEN c.bytes ELSE 0 END
  FROM cold t CROSS JOIN project p ON p.snapshot_id = t.snapshot_id
  LEFT JOIN project_cold c ON c.snapshot_id = t.snapshot_id
    AND c.project_id = p.id
    AND c.k = (SELECT min(n.k) FROM project_cold n
               WHERE n.snapshot_id = t.snapshot_id AND n.project_id = p.id
                 AND n.k >= t.k)
  LEFT JOIN cold x ON x.snapshot_id = t.snapshot_id AND x.k = c.k;

-- Schema 12: v_cold_owner, each owner's cold data as v_cold gives each
-- project's: a row for every owner of the snapshot (owner) and every
-- threshold (cold), zero included. A snapshot written before schema 12
-- has no owner_cold rows: it has no rows here (unknown, never zero),
-- unless none of its files was cold at any threshold (its cold rows all
-- 0), when every owner's 0 is known.
DROP VIEW IF EXISTS v_cold_owner;
CREATE VIEW IF NOT EXISTS v_cold_owner AS
  SELECT t.snapshot_id, o.kind, o.id AS owner, t.metric, t.days,
         CASE WHEN x.metric = t.metric THEN c.files ELSE 0 END AS files,
         CASE WHEN x.metric = t.metric THEN c.bytes ELSE 0 END AS bytes
  FROM cold t CROSS JOIN owner o ON o.snapshot_id = t.snapshot_id
  LEFT JOIN owner_cold c ON c.snapshot_id = t.snapshot_id
    AND c.kind = o.kind AND c.id = o.id
    AND c.k = (SELECT min(n.k) FROM owner_cold n
               WHERE n.snapshot_id = t.snapshot_id AND n.kind = o.kind
                 AND n.id = o.id AND n.k >= t.k)
  LEFT JOIN cold x ON x.snapshot_id = t.snapshot_id AND x.k = c.k
  WHERE EXISTS (SELECT 1 FROM owner_cold e
                WHERE e.snapshot_id = t.snapshot_id)
     OR NOT EXISTS (SELECT 1 FROM cold z
                    WHERE z.snapshot_id = t.snapshot_id AND z.files > 0);
-- End of schema 12's v_cold_owner.


-- Schema 11: the whole file system's rows (hist) and the projects'
-- (project_hist), their bounds from hist_slot. CROSS JOIN keeps project
-- the outer loop: its rows are found by their key, (snapshot_id, id)
-- needs no index of its own.
DROP VIEW IF EXISTS v_hist;
CREATE VIEW IF NOT EXISTS v_hist AS
  SELECT h.snapshot_id, NULL AS project, h.metric, b.lo, b.hi,
         h.n AS files, h.w AS bytes
  FROM hist h JOIN hist_slot b ON b.metric = h.metric AND b.slot = h.slot
  WHERE h.metric IN (@FILE_METRICS@)
  UNION ALL
  SELECT p.snapshot_id, p.name, m.metric, b.lo, b.hi, h.n, h.w
  FROM project p CROSS JOIN project_hist h ON h.snapshot_id = p.snapshot_id
    AND h.project_id = p.id
  CROSS JOIN file_metric m ON m.id = h.metric
  CROSS JOIN hist_slot b ON b.metric = m.metric AND b.slot = h.slot;


-- v_dir: a row's path is the names of its ancestors below ROOT and its
-- own, joined with '/', built by walking up the parent rows (one lookup
-- per level), so a query for one snapshot and depth reads only its rows.
-- Built top down instead (each path from its parent's), the view would
-- read every snapshot's tree for any query. A path is built for each row
-- a query sorts: choose rows by their totals first (docs/census-db.md).
-- Schema 12 (per-directory cold bytes) adds cold_bytes at the end: the
-- upgrade replaces the view.
DROP VIEW IF EXISTS v_dir;
CREATE VIEW IF NOT EXISTS v_dir AS
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
         d.depth, d.files, d.dirs, d.bytes, d.alloc_bytes, d.max_mtime,
         d.cold_bytes
  FROM dir d;

-- v_io: one row per device per sample interval (a stable view). It decodes
-- the r127 columns of io_chunk (sql/io.sql, docs/census-db.md) with core
-- SQL functions only, so the stock sqlite3 shell reads it. t and seconds
-- are exact: an integer when whole, else a real (millisecond precision).
-- Generated by scripts/gen-io-view; do not edit by hand.
CREATE VIEW IF NOT EXISTS v_io AS
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

-- Quarantined samples (io_quarantine: times before 2003 or more than a
-- day after their ingest), as v_io shows samples; no analysis reads them.
CREATE VIEW IF NOT EXISTS v_io_quarantine AS
  SELECT host, device,
         CASE WHEN t_ms % 1000 = 0 THEN t_ms / 1000
              ELSE t_ms / 1000.0 END AS t,
         CASE WHEN dur_ms % 1000 = 0 THEN dur_ms / 1000
              ELSE dur_ms / 1000.0 END AS seconds,
         rd_ios, wr_ios, rd_sec * 512 AS rd_bytes, wr_sec * 512 AS wr_bytes,
         io_ms AS busy_ms
  FROM io_quarantine;

-- Each device's identities: one row per distinct identity a log gave it,
-- absent values NULL, first and last the time its samples under it span
-- (unix seconds, as v_io's t). `current` is 1 on the identity seen last
-- (the latest last, then the latest first): the disk there now.
CREATE VIEW IF NOT EXISTS v_io_device AS
  SELECT h.name AS host, d.name AS device,
         nullif(i.wwn, '') AS wwn, nullif(i.serial, '') AS serial,
         nullif(i.model, '') AS model, nullif(i.slot, '') AS slot,
         CASE WHEN i.first_ms % 1000 = 0 THEN i.first_ms / 1000
              ELSE i.first_ms / 1000.0 END AS first,
         CASE WHEN i.last_ms % 1000 = 0 THEN i.last_ms / 1000
              ELSE i.last_ms / 1000.0 END AS last,
         NOT EXISTS (SELECT 1 FROM io_dev_ident o WHERE o.dev_id = i.dev_id
                     AND (o.last_ms > i.last_ms OR (o.last_ms = i.last_ms
                     AND (o.first_ms > i.first_ms OR (o.first_ms =
                     i.first_ms AND (o.wwn, o.serial, o.model, o.slot) >
                     (i.wwn, i.serial, i.model, i.slot)))))) AS current
  FROM io_dev_ident i JOIN io_dev d ON d.id = i.dev_id
  JOIN io_host h ON h.id = d.host_id;

-- Whole-system minutes: values only for complete minutes (every expected
-- device reported); NULL otherwise, never 0.
CREATE VIEW IF NOT EXISTS v_io_minute AS
  SELECT t, expected, valid, (valid = expected) AS complete,
         CASE WHEN valid = expected THEN rd_bytes END AS rd_bytes,
         CASE WHEN valid = expected THEN wr_bytes END AS wr_bytes,
         CASE WHEN valid = expected THEN ios END AS ios
  FROM io_minute;

-- Hourly and daily roll-ups over complete minutes; `minutes` says how many.
CREATE VIEW IF NOT EXISTS v_io_hour AS
  SELECT t, minutes, rd_bytes, wr_bytes, ios, peak_bytes, peak_rd, peak_wr
  FROM io_hour;

CREATE VIEW IF NOT EXISTS v_io_day AS
  SELECT t, minutes, rd_bytes, wr_bytes, ios, peak_bytes, peak_rd, peak_wr
  FROM io_day;
