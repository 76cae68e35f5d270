-- lakesql differential case, seed 419 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 vs 0 rows; only left: (2024-01-03); only right: none
--   lakesql-rewrites-off vs mariadb: rows: 1 vs 0 rows; only left: (2024-01-03); only right: none
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (rate DECIMAL(9,3) NOT NULL, ts DATETIME, id BIGINT, score DOUBLE, day VARCHAR(10) NOT NULL, tag VARCHAR(8), k INT) COMMENT 'paimon:{"write-only":"true","num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (day) SUBPARTITION BY KEY (ts) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (rate DECIMAL(9,3) NOT NULL, ts DATETIME, id BIGINT, score DOUBLE, day VARCHAR(10) NOT NULL, tag VARCHAR(8), k INT);
/* lakesql */ CREATE TABLE t2 (day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), qty DECIMAL(6,0) NOT NULL, id BIGINT NOT NULL, k INT, score DOUBLE, note VARCHAR(16), amt DECIMAL(12,2), PRIMARY KEY (day, id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t2 (day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), qty DECIMAL(6,0) NOT NULL, id BIGINT NOT NULL, k INT, score DOUBLE, note VARCHAR(16), amt DECIMAL(12,2), PRIMARY KEY (day, id));
INSERT INTO t2 (day, rate, qty, id, k, score, note, amt) VALUES ('2024-01-03', 2.625, 21, 28, 5, 11.00, '', 50.50);
INSERT INTO t1 (rate, ts, id, score, day, tag, k) VALUES (0.625, '2024-01-05 00:00:00', 30, 3.75, '2024-01-05', NULL, 8);
/* check */ SELECT MAX(a1.day) OVER (PARTITION BY a2.day) AS c0 FROM t2 a1 JOIN t2 a2 ON TRUE WHERE a2.day NOT IN (SELECT a4.tag AS c0 FROM t1 a4);
-- answers at query 0:
-- lakesql:
--   c0 VARCHAR
--   2024-01-03
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 VARCHAR
--   2024-01-03
--   (1 rows)
-- mariadb:
--   c0 VARCHAR
--   (0 rows)
