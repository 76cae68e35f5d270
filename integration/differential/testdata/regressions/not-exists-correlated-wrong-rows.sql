-- lakesql differential case, seed 5 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (NULL); only right: (7)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (NULL); only right: (7)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, n BIGINT, qty DECIMAL(6,0), dt DATE, k INT NOT NULL, note VARCHAR(16)) PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (n) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, n BIGINT, qty DECIMAL(6,0), dt DATE, k INT NOT NULL, note VARCHAR(16));
INSERT INTO t2 (ts, score, n, qty, dt, k, note) VALUES ('2024-01-02 06:00:59', -6.75, 3, 45, '2024-01-02', 5, '5be'), (NULL, -15.25, 21, NULL, '2024-01-04', 7, NULL), (NULL, NULL, 20, 14, '2024-02-29', 4, 'cw9c');
/* check */ SELECT SUM(a1.k) AS c0 FROM t2 a1 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t2 a2 WHERE a2.qty = a1.qty);
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 0)
--   NULL
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 0)
--   NULL
--   (1 rows)
-- mariadb:
--   c0 DECIMAL(scale 0)
--   7
--   (1 rows)
