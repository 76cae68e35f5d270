-- lakesql differential case, seed 444 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 rows each, different values; only left: (5); only right: (3)
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (5); only right: (3)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (amt DECIMAL(12,2), id BIGINT NOT NULL, rate DECIMAL(9,3), day VARCHAR(10) NOT NULL, region VARCHAR(8) NOT NULL, tag VARCHAR(8), PRIMARY KEY (day, region, id)) PARTITION BY LIST COLUMNS (day, region) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (amt DECIMAL(12,2), id BIGINT NOT NULL, rate DECIMAL(9,3), day VARCHAR(10) NOT NULL, region VARCHAR(8) NOT NULL, tag VARCHAR(8), PRIMARY KEY (day, region, id));
/* lakesql */ CREATE TABLE t3 (id BIGINT NOT NULL, qty DECIMAL(6,0), k INT, amt DECIMAL(12,2) NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"target-file-size":"1 kb","num-sorted-run.compaction-trigger":"2"}' PARTITION BY KEY (id) PARTITIONS 4;
/* mariadb */ CREATE TABLE t3 (id BIGINT NOT NULL, qty DECIMAL(6,0), k INT, amt DECIMAL(12,2) NOT NULL, PRIMARY KEY (id));
INSERT INTO t2 (amt, id, rate, day, region, tag) VALUES (44.50, 29, 2.750, '2024-01-03', 'apac', 'z');
INSERT INTO t2 (amt, id, rate, day, region, tag) VALUES (NULL, 17, -5.875, '2024-01-05', 'eu', 'b'), (13.00, 14, 4.750, '2024-01-03', 'us', '');
INSERT INTO t3 (id, qty, k, amt) VALUES (29, 21, 0, 129.75);
REPLACE INTO t3 (id, qty, k, amt) VALUES (17, NULL, -1, 148.50);
INSERT INTO t3 (id, qty, k, amt) VALUES (14, 27, 6, 80.75) ON DUPLICATE KEY UPDATE amt = COALESCE(amt, VALUES(amt));
/* check */ SELECT COUNT(*) AS c0 FROM t2 a1 WHERE EXISTS (SELECT 1 AS c0 FROM t3 a3 JOIN t2 a4 ON TRUE WHERE a4.day = a1.day);
-- answers at query 0:
-- lakesql:
--   c0 BIGINT
--   5
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 BIGINT
--   3
--   (1 rows)
-- mariadb:
--   c0 BIGINT
--   3
--   (1 rows)
