-- lakesql differential case, found by internal/randsql, minimized by hand
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 vs 0 rows; only left: (); only right: none
--   lakesql vs mariadb: rows: 1 vs 0 rows; only left: (); only right: none
--
-- The NOT EXISTS became a left join with an IS NULL filter under the
-- EXISTS's semi join; GMS's join reordering put the semi join below the
-- left join and dropped the filter (memo join order builder). The planner
-- rewrites only changed the costs: with them on, a1.tag = 'ab' is pushed
-- into a1's scan, and that order came out cheapest.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (code CHAR(4) NOT NULL, tsu DATETIME(6), tag VARCHAR(8), rate DECIMAL(9,3)) PARTITION BY KEY (tsu) PARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (code CHAR(4) NOT NULL, tsu DATETIME(6), tag VARCHAR(8), rate DECIMAL(9,3));
INSERT INTO t2 (code, tsu, tag, rate) VALUES ('', '2024-01-01 12:30:00.5', 'ab', -6.5), ('zz', '1969-12-31', NULL, 9), ('b', '1969-12-31', 'x1', NULL);
/* check */ SELECT a1.code AS c0 FROM t2 a1 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t2 a2 WHERE a2.tag = a1.tag) AND EXISTS (SELECT 1 AS c0 FROM t2 a3 WHERE a3.rate = a1.rate) AND a1.tag = 'ab';
/* check */ SELECT a1.code AS c0 FROM t2 a1 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t2 a2 WHERE a2.tag = a1.tag) AND EXISTS (SELECT 1 AS c0 FROM t2 a3 WHERE a3.rate = a1.rate) AND (a1.tag = 'ab' OR a1.tag IS NULL);
-- answers at query 0:
-- lakesql:
--   c0 CHAR
--   ''
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 CHAR
--   (0 rows)
-- mariadb:
--   c0 CHAR
--   (0 rows)
