-- lakesql differential case, seed 130 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 8 vs 7 rows; only left: (39); only right: none
--   lakesql vs mariadb: rows: 8 vs 7 rows; only left: (39); only right: none
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (k INT NOT NULL, id BIGINT, qty DECIMAL(6,0), note VARCHAR(16), tag VARCHAR(8), rate DECIMAL(9,3), n BIGINT) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t1 (k INT NOT NULL, id BIGINT, qty DECIMAL(6,0), note VARCHAR(16), tag VARCHAR(8), rate DECIMAL(9,3), n BIGINT);
/* lakesql */ CREATE TABLE t2 (ts DATETIME, qty DECIMAL(6,0), n BIGINT NOT NULL, note VARCHAR(16) NOT NULL, id BIGINT, k INT) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t2 (ts DATETIME, qty DECIMAL(6,0), n BIGINT NOT NULL, note VARCHAR(16) NOT NULL, id BIGINT, k INT);
INSERT INTO t1 (k, id, qty, note, tag, rate, n) VALUES (7, 26, 47, 'dak', 'ab', NULL, NULL), (-2, 5, 39, NULL, 'x1', 1.375, 20), (5, 28, NULL, '2rog', NULL, -4.500, 22), (4, 39, NULL, 'i', 'ba', NULL, 19), (8, 38, NULL, 'a4il', 'ba', 7.625, 23), (6, 3, 45, NULL, NULL, 6.625, NULL);
INSERT INTO t2 (ts, qty, n, note, id, k) VALUES (NULL, 1, 22, 'zim44', 18, 3), ('2024-01-04 12:30:00', 50, 11, 'v06kv', 40, NULL), (NULL, 14, 13, 'e4y', 35, 7);
INSERT INTO t1 (k, id, qty, note, tag, rate, n) VALUES (-1, 25, -8, 'ddijv', 'ab', 9.000, 22);
/* check */ SELECT (a2.id * 1.25) AS c0 FROM t1 a1 JOIN t1 a2 ON TRUE UNION SELECT a3.qty AS c0 FROM t1 a3 JOIN t2 a4 ON a4.qty = a3.rate WHERE a4.id = 18;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 30)
--   48.75
--   35.00
--   3.75
--   32.50
--   47.50
--   6.25
--   31.25
--   39
--   (8 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 30)
--   48.75
--   35.00
--   3.75
--   32.50
--   47.50
--   6.25
--   31.25
--   (7 rows)
-- mariadb:
--   c0 DECIMAL(scale 2)
--   32.50
--   6.25
--   35.00
--   48.75
--   47.50
--   3.75
--   31.25
--   (7 rows)
