-- lakesql differential case, seed 8 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 2 vs 4 rows; only left: (1) (1); only right: (0) (0) (2) (2)
--   lakesql-rewrites-off vs mariadb: rows: 2 vs 4 rows; only left: (1) (1); only right: (0) (0) (2) (2)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t4 (k INT NOT NULL, ts DATETIME, n BIGINT, note VARCHAR(16), tag VARCHAR(8), dt DATE) PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (note) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t4 (k INT NOT NULL, ts DATETIME, n BIGINT, note VARCHAR(16), tag VARCHAR(8), dt DATE);
INSERT INTO t4 (k, ts, n, note, tag, dt) VALUES (6, '2024-01-04 06:00:59', NULL, 'rf1e', NULL, '2024-01-04'), (3, '2024-01-04 12:00:00', 22, 'ad6sd', 'ab', '2024-01-05');
/* check */ SELECT COUNT(a2.n) OVER (ORDER BY a2.tag) AS c0 FROM t4 a1 JOIN t4 a2 ON TRUE WHERE a2.ts NOT IN (SELECT a3.dt AS c0 FROM t4 a3 WHERE a3.k = a1.k);
-- answers at query 0:
-- lakesql:
--   c0 BIGINT
--   1
--   1
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 BIGINT
--   1
--   1
--   (2 rows)
-- mariadb:
--   c0 BIGINT
--   0
--   0
--   2
--   2
--   (4 rows)
