-- lakesql differential case, seed 150 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1146 (42S02): table not found: a3 vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1146 (42S02): table not found: a3 vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (n BIGINT, ts DATETIME, id BIGINT NOT NULL, note VARCHAR(16) NOT NULL, qty DECIMAL(6,0), dt DATE, PRIMARY KEY (id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t1 (n BIGINT, ts DATETIME, id BIGINT NOT NULL, note VARCHAR(16) NOT NULL, qty DECIMAL(6,0), dt DATE, PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t3 (day VARCHAR(10) NOT NULL, n BIGINT, qty DECIMAL(6,0) NOT NULL, k INT, dt DATE, amt DECIMAL(12,2), tag VARCHAR(8), id BIGINT NOT NULL, PRIMARY KEY (day, id)) PARTITION BY LIST COLUMNS (day) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t3 (day VARCHAR(10) NOT NULL, n BIGINT, qty DECIMAL(6,0) NOT NULL, k INT, dt DATE, amt DECIMAL(12,2), tag VARCHAR(8), id BIGINT NOT NULL, PRIMARY KEY (day, id));
/* lakesql */ CREATE TABLE t4 (k INT, amt DECIMAL(12,2), note VARCHAR(16), region VARCHAR(8) NOT NULL) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (note) SUBPARTITIONS 3;
/* mariadb */ CREATE TABLE t4 (k INT, amt DECIMAL(12,2), note VARCHAR(16), region VARCHAR(8) NOT NULL);
/* check */ SELECT * FROM (SELECT RANK() OVER (ORDER BY MAX(a1.note) DESC) AS c0 FROM t4 a1 JOIN t3 a2 ON TRUE JOIN t1 a3 ON TRUE HAVING MIN(a3.dt) <=> '2023-12-31') AS ordered;
-- answers at query 0:
-- lakesql:
--   error: Error 1146 (42S02): table not found: a3
-- lakesql-rewrites-off:
--   error: Error 1146 (42S02): table not found: a3
-- mariadb:
--   c0 BIGINT
--   (0 rows)
