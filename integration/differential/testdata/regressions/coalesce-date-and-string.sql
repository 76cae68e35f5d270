-- lakesql differential case, seed 6 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (2024-01-01 00:00:00); only right: (2024-01-01)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (2024-01-01 00:00:00); only right: (2024-01-01)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t2 (id BIGINT NOT NULL, ts DATETIME, k INT NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0) NOT NULL, PRIMARY KEY (day, id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (id BIGINT NOT NULL, ts DATETIME, k INT NOT NULL, day VARCHAR(10) NOT NULL, qty DECIMAL(6,0) NOT NULL, PRIMARY KEY (day, id));
INSERT INTO t1 (qty, ts, dt, amt, note, k, rate, id) VALUES (NULL, '2024-01-05 23:59:00', '2024-01-01', 39.25, NULL, -2, 10.000, 36);
REPLACE INTO t2 (id, ts, k, day, qty) VALUES (29, NULL, 2, '2024-01-04', 21);
/* check */ SELECT COALESCE(a2.dt, '2024-02-29') AS c0 FROM t2 a1 JOIN t1 a2 ON TRUE;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   2024-01-01 00:00:00
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   2024-01-01 00:00:00
--   (1 rows)
-- mariadb:
--   c0 VARCHAR
--   2024-01-01
--   (1 rows)
