-- lakesql differential case, seed 14 (internal/randsql)
-- found at setup 2:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (2); only right: (3)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (tag VARCHAR(8), dt DATE, score DOUBLE, k INT NOT NULL, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), id BIGINT NOT NULL, PRIMARY KEY (k, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (id) SUBPARTITIONS 1;
/* mariadb */ CREATE TABLE t2 (tag VARCHAR(8), dt DATE, score DOUBLE, k INT NOT NULL, qty DECIMAL(6,0) NOT NULL, amt DECIMAL(12,2), id BIGINT NOT NULL, PRIMARY KEY (k, id));
REPLACE INTO t2 (tag, dt, score, k, qty, amt, id) VALUES ('ba', '2024-01-03', 17.8, 3, -2, -12.00, 37), ('x10', '2024-01-04', -5.50, 3, 42, 160.25, 37);
/* dump sort=0,1,2,3,4,5,6 */ SELECT tag, dt, score, k, qty, amt, id FROM t2 ORDER BY tag, dt, score, k, qty, amt, id;
-- answers at setup 2:
-- lakesql:
--   rows affected BIGINT
--   2
--   (1 rows)
-- mariadb:
--   rows affected BIGINT
--   3
--   (1 rows)
