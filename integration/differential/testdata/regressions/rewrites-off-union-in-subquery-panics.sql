-- lakesql differential case, seed 284 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: error: 0 rows vs error Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [6:2]
--   lakesql vs mariadb: types: column 0 (c0): TEXT vs DOUBLE
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [6:2] vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (rate DECIMAL(9,3), score DOUBLE, k INT NOT NULL, id BIGINT NOT NULL, qty DECIMAL(6,0), n BIGINT, PRIMARY KEY (k, id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (id) SUBPARTITIONS 1;
/* mariadb */ CREATE TABLE t2 (rate DECIMAL(9,3), score DOUBLE, k INT NOT NULL, id BIGINT NOT NULL, qty DECIMAL(6,0), n BIGINT, PRIMARY KEY (k, id));
/* lakesql */ CREATE TABLE t3 (score DOUBLE NOT NULL, k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, qty DECIMAL(6,0), ts DATETIME, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY KEY (id) PARTITIONS 1;
/* mariadb */ CREATE TABLE t3 (score DOUBLE NOT NULL, k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, qty DECIMAL(6,0), ts DATETIME, PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t4 (score DOUBLE, dt DATE NOT NULL, k INT, id BIGINT NOT NULL, note VARCHAR(16), amt DECIMAL(12,2), PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t4 (score DOUBLE, dt DATE NOT NULL, k INT, id BIGINT NOT NULL, note VARCHAR(16), amt DECIMAL(12,2), PRIMARY KEY (dt, id));
INSERT INTO t2 (rate, score, k, id, qty, n) VALUES (-7.500, -8.50, 7, 6, 7, 6), (10.000, -8.25, 5, 38, -13, 28), (7.125, -0.75, 4, 36, 36, 13);
INSERT INTO t3 (score, k, rate, id, qty, ts) VALUES (9.50, NULL, -3.125, 34, -6, '2024-01-02 06:30:00'), (-2.75, -2, 4.500, 33, -14, '2024-01-01 06:00:00'), (3.75, 3, NULL, 28, 14, NULL), (17.00, NULL, -4.750, 37, 33, '2024-01-03 23:59:00'), (-20.00, 4, NULL, 11, 29, '2024-01-01 06:59:59');
/* check */ SELECT CASE WHEN a1.score <= -16.50 THEN a1.score ELSE a1.k END AS c0 FROM t2 a1 WHERE a1.n IN (SELECT a2.qty AS c0 FROM t3 a2 JOIN t2 a3 ON a3.rate = a2.rate WHERE a3.qty = 21) UNION SELECT a5.id AS c0 FROM t4 a4 JOIN t4 a5 ON TRUE;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   (0 rows)
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [6:2]
-- mariadb:
--   c0 DOUBLE
--   (0 rows)
