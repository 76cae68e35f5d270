-- lakesql differential case, seed 186 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 6 rows each, different values; only left: (4) (4) (4); only right: (1) (1) (1)
--   lakesql vs mariadb: rows: 6 rows each, different values; only left: (4) (4) (4); only right: (1) (1) (1)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (amt DECIMAL(12,2), rate DECIMAL(9,3), id BIGINT NOT NULL, score DOUBLE, ts DATETIME, n BIGINT, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 1;
/* mariadb */ CREATE TABLE t1 (amt DECIMAL(12,2), rate DECIMAL(9,3), id BIGINT NOT NULL, score DOUBLE, ts DATETIME, n BIGINT, PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t2 (k INT, qty DECIMAL(6,0) NOT NULL, dt DATE NOT NULL, id BIGINT, note VARCHAR(16)) PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t2 (k INT, qty DECIMAL(6,0) NOT NULL, dt DATE NOT NULL, id BIGINT, note VARCHAR(16));
INSERT INTO t1 (amt, rate, id, score, ts, n) VALUES (17.25, -6.500, 10, 5.50, '2024-01-04 06:59:59', 12), (134.25, 3.750, 15, 19.6, '2024-01-04 06:00:00', 29), (NULL, -6.500, 6, -19.50, '2024-01-04 12:30:00', 16), (NULL, -7.250, 4, -14.00, '2024-01-05 23:59:00', 16), (22.50, -2.750, 8, 16.00, '2024-01-03 06:30:00', 28), (-21.25, 1.875, 26, 2.25, NULL, 18), (36.00, 2.625, 22, NULL, '2024-01-05 23:00:59', 18);
INSERT INTO t2 (k, qty, dt, id, note) VALUES (0, -5, '2023-12-31', 35, 'v'), (2, -17, '2024-01-02', 35, 'plv'), (7, 48, '2024-01-02', 9, 'hmo');
INSERT INTO t1 (amt, rate, id, score, ts, n) VALUES (NULL, 2.625, 35, NULL, NULL, 16);
/* check */ SELECT RANK() OVER (ORDER BY a2.rate DESC) AS c0 FROM t2 a1 JOIN t1 a2 ON TRUE JOIN t2 a3 ON a3.id = a2.id;
-- answers at query 0:
-- lakesql:
--   c0 UNSIGNED BIGINT
--   1
--   1
--   1
--   4
--   4
--   4
--   (6 rows)
-- lakesql-rewrites-off:
--   c0 UNSIGNED BIGINT
--   1
--   1
--   1
--   1
--   1
--   1
--   (6 rows)
-- mariadb:
--   c0 BIGINT
--   1
--   1
--   1
--   1
--   1
--   1
--   (6 rows)
