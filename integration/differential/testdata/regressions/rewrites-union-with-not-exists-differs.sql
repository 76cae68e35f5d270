-- lakesql differential case, seed 6 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 2 vs 1 rows; only left: (2.7); only right: none
--   lakesql vs mariadb: types: column 0 (c0): TEXT vs DOUBLE
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): TEXT vs DOUBLE
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t3 (region VARCHAR(8) NOT NULL, score DOUBLE, dt DATE, k INT NOT NULL, note VARCHAR(16)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (k, region);
/* mariadb */ CREATE TABLE t3 (region VARCHAR(8) NOT NULL, score DOUBLE, dt DATE, k INT NOT NULL, note VARCHAR(16));
INSERT INTO t3 (region, score, dt, k, note) VALUES ('apac', -1.00, '2024-02-29', -2, '');
INSERT INTO t3 (region, score, dt, k, note) VALUES ('apac', NULL, '2024-01-03', -2, 'r4m'), ('eu', 2.7, NULL, 0, 'sta'), ('us', 9.1, '2023-12-31', 8, '');
/* check */ SELECT a1.id AS c0 FROM t1 a1 UNION SELECT a3.score AS c0 FROM t3 a3 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t3 a5 WHERE a5.dt = a3.dt AND a5.k IS NOT NULL) UNION SELECT a7.score AS c0 FROM t3 a6 JOIN t3 a7 ON TRUE WHERE a7.region NOT BETWEEN 'apac' AND 'eu';
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   2.7
--   9.1
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   9.1
--   (1 rows)
-- mariadb:
--   c0 DOUBLE
--   2.7
--   9.1
--   (2 rows)
