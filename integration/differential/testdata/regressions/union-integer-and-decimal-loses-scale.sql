-- lakesql differential case, seed 8 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (22); only right: (22.00)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (22); only right: (22.00)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE, qty DECIMAL(6,0), k INT NOT NULL, n BIGINT NOT NULL, id BIGINT, score DOUBLE, amt DECIMAL(12,2) NOT NULL) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (score) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (dt DATE, qty DECIMAL(6,0), k INT NOT NULL, n BIGINT NOT NULL, id BIGINT, score DOUBLE, amt DECIMAL(12,2) NOT NULL);
/* lakesql */ CREATE TABLE t4 (k INT NOT NULL, ts DATETIME, n BIGINT, note VARCHAR(16), tag VARCHAR(8), dt DATE) PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (note) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t4 (k INT NOT NULL, ts DATETIME, n BIGINT, note VARCHAR(16), tag VARCHAR(8), dt DATE);
INSERT INTO t4 (k, ts, n, note, tag, dt) VALUES (3, '2024-01-04 12:00:00', 22, 'ad6sd', 'ab', '2024-01-05');
/* check */ SELECT a2.n AS c0 FROM t4 a1 JOIN t4 a2 ON TRUE UNION SELECT a3.amt AS c0 FROM t1 a3;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 30)
--   22
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 30)
--   22
--   (1 rows)
-- mariadb:
--   c0 DECIMAL(scale 2)
--   22.00
--   (1 rows)
