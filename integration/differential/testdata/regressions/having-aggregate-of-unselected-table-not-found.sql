-- lakesql differential case, seed 1 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1146 (42S02): table not found: a2 vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1146 (42S02): table not found: a2 vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id)) COMMENT 'paimon:{"write-only":"true","target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id));
/* lakesql */ CREATE TABLE t2 (k INT, tag VARCHAR(8), rate DECIMAL(9,3), id BIGINT NOT NULL, dt DATE, n BIGINT, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true","num-sorted-run.compaction-trigger":"2"}' PARTITION BY KEY (id) PARTITIONS 3;
/* mariadb */ CREATE TABLE t2 (k INT, tag VARCHAR(8), rate DECIMAL(9,3), id BIGINT NOT NULL, dt DATE, n BIGINT, PRIMARY KEY (id));
/* check */ SELECT AVG(a3.id) AS c0 FROM t2 a1 JOIN t2 a2 ON TRUE JOIN t1 a3 ON TRUE HAVING SUM(a2.rate) > 3.000;
-- answers at query 0:
-- lakesql:
--   error: Error 1146 (42S02): table not found: a2
-- lakesql-rewrites-off:
--   error: Error 1146 (42S02): table not found: a2
-- mariadb:
--   c0 DECIMAL(scale 4)
--   (0 rows)
