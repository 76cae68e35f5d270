-- lakesql differential case, written by hand (gmsfix.decimalCast,
-- gmsfix.decimalExtreme)
--   lakesql vs mariadb: GMS gave 0 for a CAST to DECIMAL(M,D) that
--   overflows (MySQL clamps to 99.99 with warning 1264), 99999 for
--   CAST('99999' AS DECIMAL(3,0)), 0 for CAST(' 12abc' AS DECIMAL(5,1))
--   (MySQL 12.0), and failed on GREATEST and LEAST of DECIMALs
--   ("unsupported type for greatest/least argument: decimal.Decimal").
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
CREATE TABLE t1 (id BIGINT, n BIGINT, d DECIMAL(12,3), s VARCHAR(20));
INSERT INTO t1 (id, n, d, s) VALUES (1, 123456, 1.005, '99999'), (2, -123456, -99.995, '-99999'), (3, NULL, NULL, NULL), (4, 7, 2.250, ' 12abc');
/* check */ SELECT a1.id AS c0, CAST(a1.n AS DECIMAL(4,2)) AS c1, CAST(a1.d AS DECIMAL(3,2)) AS c2, CAST(a1.d AS DECIMAL(4,2)) AS c3, CAST(a1.s AS DECIMAL(3,0)) AS c4, CAST(a1.s AS DECIMAL(5,1)) AS c5 FROM t1 a1;
/* check */ SELECT CAST(123456 AS DECIMAL(4,2)) AS c0, CAST(-123456.789 AS DECIMAL(5,1)) AS c1, CAST(1e10 AS DECIMAL(4,2)) AS c2, CAST('99999' AS DECIMAL(3,0)) AS c3, CAST(1.005 AS DECIMAL(3,2)) AS c4, CAST(-1.005 AS DECIMAL(3,2)) AS c5;
/* check */ SELECT a1.id AS c0, GREATEST(a1.n, a1.d) AS c1, LEAST(a1.n, a1.d, 1) AS c2, GREATEST(a1.d, 2.25) AS c3, LEAST(1.5, 2.25) AS c4, GREATEST(1, 2.5) AS c5 FROM t1 a1;
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE GREATEST(a1.d, 0.5) > 1 AND CAST(a1.n AS DECIMAL(4,2)) < 100;
