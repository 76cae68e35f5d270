-- lakesql differential case, seed 283 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): handler caught panic: Cannot create a Decimal from NaN vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): handler caught panic: Cannot create a Decimal from NaN vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (amt DECIMAL(12,2), k INT, ts DATETIME, id BIGINT NOT NULL, rate DECIMAL(9,3), note VARCHAR(16), score DOUBLE, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}';
/* mariadb */ CREATE TABLE t2 (amt DECIMAL(12,2), k INT, ts DATETIME, id BIGINT NOT NULL, rate DECIMAL(9,3), note VARCHAR(16), score DOUBLE, PRIMARY KEY (id));
INSERT INTO t2 (amt, k, ts, id, rate, note, score) VALUES (143.50, NULL, '2024-01-05 23:00:59', 34, NULL, 'qw4', 6.50);
/* check avg=0 */ SELECT AVG(a1.rate) OVER (PARTITION BY a1.amt) AS c0 FROM t2 a1;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): handler caught panic: Cannot create a Decimal from NaN
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): handler caught panic: Cannot create a Decimal from NaN
-- mariadb:
--   c0 DECIMAL(scale 7)
--   NULL
--   (1 rows)
