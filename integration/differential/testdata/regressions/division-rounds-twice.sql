-- lakesql differential case, written by hand (gmsfix.exactDiv)
--   lakesql vs mariadb: GMS rounded an integer quotient twice (to 11
--   decimals, truncated to 9, then to 4): 499999995 / 10000000000000 was
--   0.0001 where MySQL's is 0.0000.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
CREATE TABLE t1 (a BIGINT, b BIGINT, d DECIMAL(10,5));
INSERT INTO t1 (a, b, d) VALUES (499999995, 10000000000000, 0.00005), (-499999995, 10000000000000, -0.00005), (500000000, -10000000000000, 1.00000), (9223372036854775807, -3, NULL), (7, 0, 2.5);
/* check */ SELECT a1.a / a1.b AS c0, a1.d / 3 AS c1, a1.a / 3 AS c2 FROM t1 a1;
/* check */ SELECT a1.a AS c0 FROM t1 a1 WHERE a1.a / a1.b = 0;
/* check */ SELECT CAST(a1.a / a1.b AS DECIMAL(34,12)) AS c0, ROUND(a1.d / 7, 7) AS c1 FROM t1 a1;
/* check */ SELECT SUM(a1.d / 7) AS c0, AVG(a1.a / 3) AS c1, SUM(a1.a / a1.b) AS c2 FROM t1 a1;
