-- lakesql differential case, seed 10 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 2 rows each, different values; only left: (6); only right: (4)
--   lakesql-rewrites-off vs mariadb: rows: 2 rows each, different values; only left: (6); only right: (4)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t4 (amt DECIMAL(12,2), note VARCHAR(16), region VARCHAR(8) NOT NULL, id BIGINT, k INT NOT NULL, ts DATETIME) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (k, region);
/* mariadb */ CREATE TABLE t4 (amt DECIMAL(12,2), note VARCHAR(16), region VARCHAR(8) NOT NULL, id BIGINT, k INT NOT NULL, ts DATETIME);
INSERT INTO t4 (amt, note, region, id, k, ts) VALUES (136.50, '4yg', 'apac', 31, 6, '2024-01-05 12:30:00'), (139.00, 'dk', 'latam', 31, -2, NULL);
/* check */ SELECT SUM(a1.k) OVER (ORDER BY a1.id) AS c0 FROM t4 a1;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 0)
--   6
--   4
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 0)
--   6
--   4
--   (2 rows)
-- mariadb:
--   c0 DECIMAL(scale 0)
--   4
--   4
--   (2 rows)
