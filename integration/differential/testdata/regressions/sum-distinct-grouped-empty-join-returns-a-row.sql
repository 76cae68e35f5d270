-- lakesql differential case, seed 14 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 vs 0 rows; only left: (-2.25); only right: none
--   lakesql-rewrites-off vs mariadb: rows: 1 vs 0 rows; only left: (-2.25); only right: none
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (tag VARCHAR(8), dt DATE, score DOUBLE, k INT NOT NULL, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), id BIGINT NOT NULL, PRIMARY KEY (k, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (id) SUBPARTITIONS 1;
/* mariadb */ CREATE TABLE t2 (tag VARCHAR(8), dt DATE, score DOUBLE, k INT NOT NULL, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), id BIGINT NOT NULL, PRIMARY KEY (k, id));
INSERT INTO t2 (tag, dt, score, k, qty, amt, id) VALUES ('abc', '2024-02-29', -2.25, 8, 20, 183.50, 28) ON DUPLICATE KEY UPDATE score = COALESCE(score, VALUES(score));
REPLACE INTO t2 (tag, dt, score, k, qty, amt, id) VALUES ('x10', '2024-01-04', 18.25, 4, -2, 163.75, 20);
/* check */ SELECT SUM(DISTINCT a2.score) AS c0 FROM t2 a1 JOIN t2 a2 ON a2.score = a1.qty GROUP BY a1.score;
-- answers at query 0:
-- lakesql:
--   c0 DOUBLE
--   -2.25
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DOUBLE
--   -2.25
--   (1 rows)
-- mariadb:
--   c0 DOUBLE
--   (0 rows)
