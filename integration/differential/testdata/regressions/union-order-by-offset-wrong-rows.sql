-- lakesql differential case, seed 9 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (us); only right: (eu)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (us); only right: (eu)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (n BIGINT, dt DATE, region VARCHAR(8) NOT NULL, id BIGINT NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), ts DATETIME NOT NULL, k INT, PRIMARY KEY (region, id)) PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (n BIGINT, dt DATE, region VARCHAR(8) NOT NULL, id BIGINT NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), ts DATETIME NOT NULL, k INT, PRIMARY KEY (region, id));
/* lakesql */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY KEY (id) PARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id));
REPLACE INTO t1 (n, dt, region, id, note, qty, ts, k) VALUES (NULL, '2024-02-29', 'us', 11, NULL, -14, '2024-01-01 00:59:59', NULL), (30, '2024-01-05', 'eu', 9, 'lv', -2, '2024-01-03 23:30:00', 4);
/* check sort=0 */ SELECT a1.region AS c0 FROM t1 a1 UNION SELECT a3.region AS c0 FROM t2 a2 JOIN t1 a3 ON TRUE ORDER BY c0 DESC LIMIT 4 OFFSET 1;
-- answers at query 0:
-- lakesql:
--   c0 VARCHAR
--   us
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 VARCHAR
--   us
--   (1 rows)
-- mariadb:
--   c0 VARCHAR
--   eu
--   (1 rows)
