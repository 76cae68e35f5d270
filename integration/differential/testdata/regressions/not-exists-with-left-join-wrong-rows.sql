-- lakesql differential case, seed 6 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 0 vs 2 rows; only left: none; only right: (2) (-1)
--   lakesql-rewrites-off vs mariadb: rows: 0 vs 2 rows; only left: none; only right: (2) (-1)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t2 (id BIGINT NOT NULL, ts DATETIME, k INT NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0) NOT NULL, PRIMARY KEY (day, id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (id BIGINT NOT NULL, ts DATETIME, k INT NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0) NOT NULL, PRIMARY KEY (day, id));
/* lakesql */ CREATE TABLE t3 (region VARCHAR(8) NOT NULL, score DOUBLE, dt DATE, k INT NOT NULL, note VARCHAR(16)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (k, region);
/* mariadb */ CREATE TABLE t3 (region VARCHAR(8) NOT NULL, score DOUBLE, dt DATE, k INT NOT NULL, note VARCHAR(16));
INSERT INTO t1 (qty, ts, dt, amt, note, k, rate, id) VALUES (NULL, '2024-01-03 06:30:59', '2024-02-29', NULL, 'ha', 7, -9.375, 30), (48, '2024-01-04 12:30:00', '2024-01-03', -6.25, 'nxohh', NULL, 8.750, 9), (NULL, '2024-01-05 23:59:00', '2024-01-01', 39.25, NULL, -2, 10.000, 36);
INSERT INTO t3 (region, score, dt, k, note) VALUES ('apac', NULL, '2024-01-03', -2, 'r4m'), ('eu', 2.7, NULL, 0, 'sta'), ('us', 9.1, '2023-12-31', 8, '');
REPLACE INTO t2 (id, ts, k, day, qty) VALUES (5, '2024-01-02 00:59:59', -1, '2024-01-05', 11), (29, NULL, 2, '2024-01-04', 21);
/* check */ SELECT a4.k AS c0 FROM t2 a4 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t1 a6 LEFT JOIN t3 a7 ON a7.note = 'x8728' WHERE a7.k = a4.k);
-- answers at query 0:
-- lakesql:
--   c0 INT
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 INT
--   (0 rows)
-- mariadb:
--   c0 INT
--   2
--   -1
--   (2 rows)
