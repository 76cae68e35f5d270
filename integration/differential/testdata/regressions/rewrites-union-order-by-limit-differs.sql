-- lakesql differential case, seed 194 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 rows each, different values; only left: (-3.625); only right: (NULL)
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (-3.625); only right: (NULL)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT, note VARCHAR(16), region VARCHAR(8) NOT NULL, dt DATE, k INT NOT NULL, qty DECIMAL(6,0), rate DECIMAL(9,3), ts DATETIME) PARTITION BY LIST COLUMNS (k, region);
/* mariadb */ CREATE TABLE t1 (id BIGINT, note VARCHAR(16), region VARCHAR(8) NOT NULL, dt DATE, k INT NOT NULL, qty DECIMAL(6,0), rate DECIMAL(9,3), ts DATETIME);
/* lakesql */ CREATE TABLE t2 (ts DATETIME, id BIGINT NOT NULL, k INT NOT NULL, region VARCHAR(8) NOT NULL, dt DATE, n BIGINT NOT NULL, tag VARCHAR(8), PRIMARY KEY (k, region, id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (k, region) SUBPARTITION BY KEY (id) SUBPARTITIONS 3;
/* mariadb */ CREATE TABLE t2 (ts DATETIME, id BIGINT NOT NULL, k INT NOT NULL, region VARCHAR(8) NOT NULL, dt DATE, n BIGINT NOT NULL, tag VARCHAR(8), PRIMARY KEY (k, region, id));
/* lakesql */ CREATE TABLE t3 (ts DATETIME, n BIGINT, tag VARCHAR(8), score DOUBLE, k INT NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (k, id)) PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t3 (ts DATETIME, n BIGINT, tag VARCHAR(8), score DOUBLE, k INT NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (k, id));
INSERT INTO t2 (ts, id, k, region, dt, n, tag) VALUES ('2024-01-01 12:00:00', 27, 4, 'apac', '2024-01-03', 1, 'abc'), ('2024-01-01 06:30:00', 23, 3, 'eu', '2024-01-01', 2, 'abc'), ('2024-01-05 00:59:00', 6, 1, 'us', '2024-02-29', 3, 'b'), (NULL, 33, 1, 'us', '2024-01-02', 29, 'ab'), ('2024-01-04 06:59:59', 21, 6, 'apac', '2024-01-03', 20, 'b'), ('2024-01-02 23:59:59', 34, 3, 'apac', '2024-01-04', 25, 'x2'), (NULL, 26, 6, 'us', '2024-01-01', 8, ''), ('2024-01-02 12:30:00', 2, 0, 'latam', '2024-01-04', 13, '');
INSERT INTO t1 (id, note, region, dt, k, qty, rate, ts) VALUES (13, '', 'eu', NULL, 6, 17, NULL, '2024-01-01 00:30:59');
INSERT INTO t2 (ts, id, k, region, dt, n, tag) VALUES ('2024-01-04 23:30:59', 18, 8, 'latam', '2024-02-29', 24, 'z');
INSERT INTO t1 (id, note, region, dt, k, qty, rate, ts) VALUES (24, 'y2eng', 'latam', '2024-01-02', -2, NULL, -3.625, '2024-01-02 00:59:00'), (20, '9', 'latam', '2024-01-04', 6, NULL, 9.125, '2024-01-03 06:30:00');
/* check sort=0 */ SELECT (a1.n - 0.5) AS c0 FROM t3 a1 UNION SELECT a3.rate AS c0 FROM t2 a2 JOIN t1 a3 ON a3.region = a2.region WHERE a2.region IN ('latam', 'eu', 'eu') UNION SELECT a4.id AS c0 FROM t3 a4 ORDER BY c0 DESC LIMIT 5 OFFSET 2;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 30)
--   -3.625
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 30)
--   NULL
--   (1 rows)
-- mariadb:
--   c0 DECIMAL(scale 3)
--   NULL
--   (1 rows)
