-- lakesql differential case, seed 11 (internal/randsql)
-- found at setup 3:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (1); only right: (2)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE, n BIGINT, note VARCHAR(16), id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), ts DATETIME, dt DATE, n BIGINT, note VARCHAR(16), id BIGINT NOT NULL, PRIMARY KEY (id));
INSERT INTO t1 (qty, ts, dt, n, note, id) VALUES (-14, '2024-01-04 23:30:00', '2024-02-29', 28, NULL, 34);
REPLACE INTO t1 (qty, ts, dt, n, note, id) VALUES (NULL, '2024-01-04 23:00:59', '2024-01-05', 11, 'w8g68', 34);
/* dump sort=0,1,2,3,4,5 */ SELECT qty, ts, dt, n, note, id FROM t1 ORDER BY qty, ts, dt, n, note, id;
-- answers at setup 3:
-- lakesql:
--   rows affected BIGINT
--   1
--   (1 rows)
-- mariadb:
--   rows affected BIGINT
--   2
--   (1 rows)
