-- lakesql differential case, written by hand (gmsfix.rangeFramer)
--   lakesql vs mariadb: GMS framed an explicit RANGE frame (CURRENT ROW,
--   n PRECEDING, n FOLLOWING) over the whole partition, not by value.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
CREATE TABLE t1 (i INT, dt DATE, d DECIMAL(6,2));
INSERT INTO t1 (i, dt, d) VALUES (1, '2024-01-01', 1.5), (2, '2024-01-01', 2), (4, '2024-01-02', NULL), (8, '2024-01-04', 3.25), (16, NULL, 4), (32, NULL, 7);
/* check */ SELECT a1.i AS c0, SUM(a1.i) OVER (ORDER BY a1.dt RANGE CURRENT ROW) AS c1 FROM t1 a1;
/* check */ SELECT a1.i AS c0, SUM(a1.i) OVER (ORDER BY a1.d RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS c1 FROM t1 a1;
/* check */ SELECT a1.i AS c0, COUNT(*) OVER (ORDER BY a1.d DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS c1 FROM t1 a1;
/* check */ SELECT a1.i AS c0, SUM(a1.i) OVER (ORDER BY a1.d RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS c1 FROM t1 a1;
/* check */ SELECT a1.i AS c0, MAX(a1.d) OVER (ORDER BY a1.i DESC RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING) AS c1 FROM t1 a1;
