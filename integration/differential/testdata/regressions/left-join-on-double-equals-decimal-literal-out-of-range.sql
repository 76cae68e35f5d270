-- lakesql differential case, seed 108 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): Out of range value for column of Decimal type vs 5 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): Out of range value for column of Decimal type vs 5 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT, score DOUBLE, rate DECIMAL(9,3), n BIGINT, k INT NOT NULL, amt DECIMAL(12,2)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t1 (id BIGINT, score DOUBLE, rate DECIMAL(9,3), n BIGINT, k INT NOT NULL, amt DECIMAL(12,2));
/* lakesql */ CREATE TABLE t2 (qty DECIMAL(6,0), score DOUBLE, n BIGINT, rate DECIMAL(9,3), id BIGINT NOT NULL, k INT NOT NULL, PRIMARY KEY (k, id)) PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t2 (qty DECIMAL(6,0), score DOUBLE, n BIGINT, rate DECIMAL(9,3), id BIGINT NOT NULL, k INT NOT NULL, PRIMARY KEY (k, id));
INSERT INTO t2 (qty, score, n, rate, id, k) VALUES (31, -20.00, NULL, -5.625, 29, -2), (49, 4.75, 19, NULL, 40, 1), (43, -7.50, 17, -0.875, 24, -1);
INSERT INTO t1 (id, score, rate, n, k, amt) VALUES (27, 12.50, 3.125, 12, 7, NULL), (12, -8.75, 0.625, 24, 6, 16.50), (21, -1.25, 8.875, 0, 7, -10.25);
INSERT INTO t1 (id, score, rate, n, k, amt) VALUES (30, -1.75, 0.125, 27, 5, 85.00), (31, -7.25, -3.875, 18, 2, 168.00);
/* check */ SELECT a2.id AS c0 FROM t1 a1 LEFT JOIN t2 a2 ON a2.score = 3.50;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): Out of range value for column of Decimal type
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): Out of range value for column of Decimal type
-- mariadb:
--   c0 BIGINT
--   NULL
--   NULL
--   NULL
--   NULL
--   NULL
--   (5 rows)
