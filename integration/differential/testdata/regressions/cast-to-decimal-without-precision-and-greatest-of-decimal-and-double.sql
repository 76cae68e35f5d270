-- lakesql differential case, written by hand
-- found by hand: CAST(x AS DECIMAL) kept x whole (1.7 for MySQL's 2: a
-- DECIMAL without precision is DECIMAL(10,0)), and GREATEST or LEAST of
-- a DECIMAL and a DOUBLE failed ("unsupported type for greatest/least
-- argument: decimal.Decimal") where MySQL compares them as doubles.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, amt DECIMAL(12,2), score DOUBLE, note VARCHAR(16), PRIMARY KEY (id));
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, amt DECIMAL(12,2), score DOUBLE, note VARCHAR(16), PRIMARY KEY (id));
INSERT INTO t1 (id, amt, score, note) VALUES (1, 1.70, 2.5, '1.5'), (2, -1.50, -3.25, '-2.5'), (3, 123456789.49, NULL, '9.5'), (4, NULL, 0.5, NULL), (5, 0.49, 0.5, '0.5');
/* check */ SELECT a1.id AS c0, CAST(a1.amt AS DECIMAL) AS c1, CAST(a1.note AS DECIMAL) AS c2, CAST(a1.amt AS DECIMAL) + 0.25 AS c3 FROM t1 a1;
/* check */ SELECT a1.id AS c0, GREATEST(a1.amt, a1.score) AS c1, LEAST(a1.amt, a1.score, 2) AS c2 FROM t1 a1;
/* check */ SELECT SUM(CAST(a1.amt AS DECIMAL)) AS c0, MAX(GREATEST(a1.amt, a1.score)) AS c1 FROM t1 a1;
