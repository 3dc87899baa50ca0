-- Stable views: the public interface of the census database.
-- Created with the schema; a schema upgrade recreates them.

CREATE VIEW IF NOT EXISTS v_snapshot AS
  SELECT id, fs, root, started_at, finished_at,
         (status = 'complete') AS complete,
         files, dirs, symlinks, others, bytes, alloc_bytes, errors
  FROM snapshot;


CREATE VIEW IF NOT EXISTS v_project AS
  SELECT snapshot_id, name AS project, files, dirs, bytes, alloc_bytes
  FROM project;


CREATE VIEW IF NOT EXISTS v_hist AS
  SELECT snapshot_id, project, metric, lo, hi, n AS files, w AS bytes
  FROM hist
  WHERE metric IN ('size', 'atime', 'mtime', 'ctime');


CREATE VIEW IF NOT EXISTS v_dir AS
  SELECT snapshot_id, path, depth, files, dirs, bytes, alloc_bytes, max_mtime
  FROM dir;
