-- lakesql differential case, seed 36 (internal/randsql)
-- found at setup 3:
--   lakesql vs mariadb: error: error Error 1105 (HY000): Out of range value for column of Decimal type vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (amt DECIMAL(12,2), score DOUBLE, dt DATE, k INT, id BIGINT NOT NULL, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 1;
/* mariadb */ CREATE TABLE t1 (amt DECIMAL(12,2), score DOUBLE, dt DATE, k INT, id BIGINT NOT NULL, PRIMARY KEY (id));
INSERT INTO t1 (amt, score, dt, k, id) VALUES (156.75, -14.25, '2024-01-02', NULL, 13);
UPDATE t1 SET amt = COALESCE(amt, 98.75) WHERE (t1.id > 8 AND t1.id < 14);
/* dump sort=0,1,2,3,4 */ SELECT amt, score, dt, k, id FROM t1 ORDER BY amt, score, dt, k, id;
-- answers at setup 3:
-- lakesql:
--   error: Error 1105 (HY000): Out of range value for column of Decimal type
-- mariadb:
--   rows affected BIGINT
--   0
--   (1 rows)
