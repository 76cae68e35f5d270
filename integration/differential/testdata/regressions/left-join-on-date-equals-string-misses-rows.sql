-- lakesql differential case, seed 286 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 2 vs 1 rows; only left: (17.0000) (16.6667); only right: (16.7500)
--   lakesql-rewrites-off vs mariadb: rows: 2 vs 1 rows; only left: (17.0000) (16.6667); only right: (16.7500)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE NOT NULL, note VARCHAR(16), score DOUBLE, qty DECIMAL(6,0), tag VARCHAR(8) NOT NULL, ts DATETIME, n BIGINT) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (tag) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (dt DATE NOT NULL, note VARCHAR(16), score DOUBLE, qty DECIMAL(6,0), tag VARCHAR(8) NOT NULL, ts DATETIME, n BIGINT);
INSERT INTO t1 (dt, note, score, qty, tag, ts, n) VALUES ('2024-01-02', 'u4', 6.25, 20, 'x10', '2024-01-05 06:00:59', 17);
INSERT INTO t1 (dt, note, score, qty, tag, ts, n) VALUES ('2024-02-29', 'pg', 4.25, -14, 'abc', NULL, 1), ('2024-01-02', '18', 5.4, 20, 'x10', '2024-01-02 23:30:00', 27), ('2024-01-02', '8ec92', -3.75, 36, 'z', '2024-01-01 12:59:59', NULL), ('2024-01-05', 'c3', -15.75, -11, 'x10', '2024-01-05 00:59:00', 22);
/* check */ SELECT AVG(a1.n) AS c0 FROM t1 a1 LEFT JOIN t1 a3 ON a3.dt = '2024-02-29' GROUP BY a3.score;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 4)
--   17.0000
--   16.6667
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 4)
--   17.0000
--   16.6667
--   (2 rows)
-- mariadb:
--   c0 DECIMAL(scale 4)
--   16.7500
--   (1 rows)
