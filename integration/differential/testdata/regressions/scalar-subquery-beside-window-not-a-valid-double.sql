-- lakesql differential case, seed 1263 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1366 (HY000): error: 'x1' is not a valid value for 'double' vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1366 (HY000): error: 'x1' is not a valid value for 'double' vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT, k INT, tag VARCHAR(8), score DOUBLE, rate DECIMAL(9,3), dt DATE NOT NULL) PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (id BIGINT, k INT, tag VARCHAR(8), score DOUBLE, rate DECIMAL(9,3), dt DATE NOT NULL);
/* lakesql */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, qty DECIMAL(6,0), amt DECIMAL(12,2), id BIGINT, day VARCHAR(10) NOT NULL, note VARCHAR(16)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (day) SUBPARTITION BY KEY (ts) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, qty DECIMAL(6,0), amt DECIMAL(12,2), id BIGINT, day VARCHAR(10) NOT NULL, note VARCHAR(16));
INSERT INTO t1 (id, k, tag, score, rate, dt) VALUES (30, 2, 'x1', 3.25, 8.875, '2024-01-02');
INSERT INTO t2 (ts, score, qty, amt, id, day, note) VALUES ('2024-01-01 12:59:59', -19.75, -14, NULL, 25, '2024-01-05', 's0z');
/* check */ SELECT a2.score AS c0, (SELECT MIN(a3.tag) AS c0 FROM t1 a3 WHERE a3.score = a1.score) AS c1, SUM(a1.score) OVER (PARTITION BY a1.ts ORDER BY a2.ts DESC) AS c2 FROM t2 a1 JOIN t2 a2 ON TRUE;
-- answers at query 0:
-- lakesql:
--   error: Error 1366 (HY000): error: 'x1' is not a valid value for 'double'
-- lakesql-rewrites-off:
--   error: Error 1366 (HY000): error: 'x1' is not a valid value for 'double'
-- mariadb:
--   c0 DOUBLE | c1 VARCHAR | c2 DOUBLE
--   -19.75 | NULL | -19.75
--   (1 rows)
