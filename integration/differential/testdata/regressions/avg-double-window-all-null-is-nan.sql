-- lakesql differential case, seed 120 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 rows each, different values
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (NaN); only right: (NULL)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (NaN); only right: (NULL)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (note VARCHAR(16), score DOUBLE, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), k INT, dt DATE) COMMENT 'paimon:{"target-file-size":"1 kb"}';
/* mariadb */ CREATE TABLE t2 (note VARCHAR(16), score DOUBLE, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), k INT, dt DATE);
INSERT INTO t2 (note, score, qty, amt, k, dt) VALUES ('vc', NULL, -6, NULL, 6, '2023-12-31');
/* check */ SELECT AVG(a1.score) OVER (PARTITION BY a1.note) AS c0 FROM t2 a1;
-- answers at query 0:
-- lakesql:
--   c0 DOUBLE
--   NaN
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DOUBLE
--   NaN
--   (1 rows)
-- mariadb:
--   c0 DOUBLE
--   NULL
--   (1 rows)
