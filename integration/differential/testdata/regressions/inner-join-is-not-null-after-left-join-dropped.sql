-- lakesql differential case, seed 149 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 3 rows each, different values; only left: (2); only right: (1)
--   lakesql-rewrites-off vs mariadb: rows: 3 rows each, different values; only left: (2); only right: (1)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (score DOUBLE, note VARCHAR(16), n BIGINT, k INT NOT NULL, id BIGINT) PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t1 (score DOUBLE, note VARCHAR(16), n BIGINT, k INT NOT NULL, id BIGINT);
/* lakesql */ CREATE TABLE t2 (score DOUBLE, id BIGINT NOT NULL, amt DECIMAL(12,2), ts DATETIME NOT NULL, qty DECIMAL(6,0), k INT NOT NULL, PRIMARY KEY (k, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (score DOUBLE, id BIGINT NOT NULL, amt DECIMAL(12,2), ts DATETIME NOT NULL, qty DECIMAL(6,0), k INT NOT NULL, PRIMARY KEY (k, id));
INSERT INTO t1 (score, note, n, k, id) VALUES (4.25, '0', 20, 7, 7), (NULL, 'r', 0, 8, 14);
INSERT INTO t2 (score, id, amt, ts, qty, k) VALUES (NULL, 24, 160.00, '2024-01-05 06:59:59', 47, -1), (-18.75, 25, 57.00, '2024-01-02 00:00:00', 43, 1), (-10.75, 39, -38.75, '2024-01-02 12:59:00', 30, 8), (2.25, 26, -12.25, '2024-01-05 23:59:59', 13, 2);
INSERT INTO t1 (score, note, n, k, id) VALUES (2.25, 'w', 24, 8, 9);
/* check sort=0 */ SELECT COUNT(*) OVER (PARTITION BY a4.k ORDER BY a1.n) AS c0 FROM t1 a1 JOIN t1 a2 ON a2.note = a1.note LEFT JOIN t2 a3 ON a3.score = a2.score JOIN t1 a4 ON a4.k = a1.k AND a4.score IS NOT NULL ORDER BY c0 LIMIT 3;
-- answers at query 0:
-- lakesql:
--   c0 BIGINT
--   1
--   2
--   2
--   (3 rows)
-- lakesql-rewrites-off:
--   c0 BIGINT
--   1
--   2
--   2
--   (3 rows)
-- mariadb:
--   c0 BIGINT
--   1
--   1
--   2
--   (3 rows)
