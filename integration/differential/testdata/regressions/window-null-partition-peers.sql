-- lakesql differential case, seed 3 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 2 rows each, different values; only left: (65.75); only right: (87.75)
--   lakesql-rewrites-off vs mariadb: rows: 2 rows each, different values; only left: (65.75); only right: (87.75)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t3 (amt DECIMAL(12,2), id BIGINT, k INT, dt DATE, rate DECIMAL(9,3), ts DATETIME, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t3 (amt DECIMAL(12,2), id BIGINT, k INT, dt DATE, rate DECIMAL(9,3), ts DATETIME, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0));
INSERT INTO t3 (amt, id, k, dt, rate, ts, region, qty) VALUES (65.75, 9, 5, NULL, NULL, '2024-01-03 23:59:59', 'apac', NULL);
INSERT INTO t3 (amt, id, k, dt, rate, ts, region, qty) VALUES (22.00, 4, 6, '2024-01-04', NULL, '2024-01-05 23:59:59', 'eu', NULL);
/* check */ SELECT SUM(a1.amt) OVER (PARTITION BY a1.rate ORDER BY a1.rate) AS c0 FROM t3 a1;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 2)
--   65.75
--   87.75
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 2)
--   65.75
--   87.75
--   (2 rows)
-- mariadb:
--   c0 DECIMAL(scale 2)
--   87.75
--   87.75
--   (2 rows)
