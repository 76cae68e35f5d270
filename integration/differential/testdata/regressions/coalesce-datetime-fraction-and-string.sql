-- lakesql differential case, written by hand
-- found by hand: a DATETIME(p) converted to the text type of a COALESCE,
-- CASE or UNION with a string lost its fraction's trailing zeros
-- ('2024-01-01 10:00:00.5' for MySQL's '2024-01-01 10:00:00.500000').
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, ts DATETIME(6), t3 DATETIME(3), t0 DATETIME, PRIMARY KEY (id));
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, ts DATETIME(6), t3 DATETIME(3), t0 DATETIME, PRIMARY KEY (id));
INSERT INTO t1 (id, ts, t3, t0) VALUES (1, '2024-01-01 10:00:00.5', '2024-01-01 10:00:00.5', '2024-01-01 10:00:00'), (2, '2024-02-29 23:59:59', '2024-02-29 23:59:59', NULL), (3, NULL, NULL, '1999-12-31 00:00:01');
/* check */ SELECT a1.id AS c0, COALESCE(a1.ts, 'none') AS c1, COALESCE(a1.t3, 'none') AS c2, COALESCE(a1.t0, 'none') AS c3 FROM t1 a1;
/* check */ SELECT a1.id AS c0, CASE WHEN a1.id > 1 THEN a1.ts ELSE 'no' END AS c1, IFNULL(a1.t3, 'x') AS c2 FROM t1 a1;
/* check */ SELECT a1.ts AS c0 FROM t1 a1 UNION ALL SELECT 'text' AS c0;
