-- lakesql differential case, seed 283 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 rows each, different values; only left: (-16.00); only right: (-15.75)
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (-16.00); only right: (-15.75)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (note VARCHAR(16), tag VARCHAR(8), id BIGINT, code CHAR(4), amt DECIMAL(12,2), KEY ix_code (code), KEY ix_tag (tag), KEY ix_id (id) USING BITMAP) COMMENT 'paimon:{"write-only":"true","target-file-size":"1 kb"}';
/* mariadb */ CREATE TABLE t1 (note VARCHAR(16), tag VARCHAR(8), id BIGINT, code CHAR(4), amt DECIMAL(12,2));
/* lakesql */ CREATE TABLE t2 (rate DECIMAL(9,3), qty DECIMAL(6,0), id BIGINT NOT NULL, ts DATETIME, tag VARCHAR(8), amt DECIMAL(12,2), PRIMARY KEY (id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t2 (rate DECIMAL(9,3), qty DECIMAL(6,0), id BIGINT NOT NULL, ts DATETIME, tag VARCHAR(8), amt DECIMAL(12,2), PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t3 (ts DATETIME, region VARCHAR(8) NOT NULL, code CHAR(4), id BIGINT NOT NULL, tag VARCHAR(8), PRIMARY KEY (region, id), KEY ix_ts (ts)) PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t3 (ts DATETIME, region VARCHAR(8) NOT NULL, code CHAR(4), id BIGINT NOT NULL, tag VARCHAR(8), PRIMARY KEY (region, id));
INSERT INTO t1 (note, tag, id, code, amt) VALUES ('ywqk', 'x10', 24, '', -15.75);
/* check */ SELECT (a2.qty * 2) AS c0 FROM t3 a1 JOIN t2 a2 ON TRUE UNION SELECT a3.amt AS c0 FROM t1 a3;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 2)
--   -16.00
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 2)
--   -15.75
--   (1 rows)
-- mariadb:
--   c0 DECIMAL(scale 2)
--   -15.75
--   (1 rows)
