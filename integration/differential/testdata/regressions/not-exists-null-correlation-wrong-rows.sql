-- lakesql differential case, seed 33 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 12 vs 14 rows; only left: none; only right: (2024-02-29) (2024-02-29)
--   lakesql-rewrites-off vs mariadb: rows: 12 vs 14 rows; only left: none; only right: (2024-02-29) (2024-02-29)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (dt DATE, region VARCHAR(8) NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0), score DOUBLE, k INT, id BIGINT NOT NULL, PRIMARY KEY (region, day, id)) PARTITION BY LIST COLUMNS (region, day) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (dt DATE, region VARCHAR(8) NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0), score DOUBLE, k INT, id BIGINT NOT NULL, PRIMARY KEY (region, day, id));
/* lakesql */ CREATE TABLE t3 (qty DECIMAL(6,0), ts DATETIME, k INT, dt DATE NOT NULL, day VARCHAR(10) NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (dt, day, id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (dt, day);
/* mariadb */ CREATE TABLE t3 (qty DECIMAL(6,0), ts DATETIME, k INT, dt DATE NOT NULL, day VARCHAR(10) NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (dt, day, id));
/* lakesql */ CREATE TABLE t4 (k INT, id BIGINT NOT NULL, ts DATETIME, n BIGINT, score DOUBLE, day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), dt DATE NOT NULL, PRIMARY KEY (dt, day, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (dt, day);
/* mariadb */ CREATE TABLE t4 (k INT, id BIGINT NOT NULL, ts DATETIME, n BIGINT, score DOUBLE, day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), dt DATE NOT NULL, PRIMARY KEY (dt, day, id));
INSERT INTO t2 (dt, region, day, qty, score, k, id) VALUES ('2024-02-29', 'apac', '2024-01-04', 27, 6.75, 6, 30), ('2024-02-29', 'apac', '2024-01-01', -18, -11.25, 1, 1);
INSERT INTO t3 (qty, ts, k, dt, day, id) VALUES (48, '2024-01-01 12:00:59', 3, '2024-01-01', '2024-01-03', 13), (13, NULL, -2, '2024-01-01', '2024-01-03', 37), (32, '2024-01-02 12:59:00', NULL, '2024-01-05', '2024-01-03', 6), (NULL, '2024-01-04 00:00:00', 8, '2023-12-31', '2024-01-05', 11), (15, '2024-01-01 06:30:59', 6, '2024-02-29', '2024-01-03', 34), (46, '2024-01-02 00:00:59', 3, '2024-01-05', '2024-01-04', 7), (-16, '2024-01-02 23:00:59', -1, '2024-01-04', '2024-01-02', 2);
INSERT INTO t4 (k, id, ts, n, score, day, rate, dt) VALUES (2, 4, '2024-01-03 06:30:00', 20, -18.75, '2024-01-01', -9.000, '2024-01-01'), (7, 14, '2024-01-05 12:30:00', 2, 6.25, '2024-01-05', -5.875, '2024-01-02');
/* check */ SELECT (SELECT MAX(a4.dt) AS c0 FROM t2 a4) AS c0 FROM t4 a1 JOIN t3 a2 ON TRUE WHERE NOT EXISTS (SELECT 1 AS c0 FROM t2 a3 WHERE a3.dt = a2.ts);
-- answers at query 0:
-- lakesql:
--   c0 DATE
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   (12 rows)
-- lakesql-rewrites-off:
--   c0 DATE
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   (12 rows)
-- mariadb:
--   c0 DATE
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   2024-02-29
--   (14 rows)
