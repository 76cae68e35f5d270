-- lakesql differential case, seed 1 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): DOUBLE vs DECIMAL(scale 4)
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): DOUBLE vs DECIMAL(scale 4)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (k INT, tag VARCHAR(8), rate DECIMAL(9,3), id BIGINT NOT NULL, dt DATE, n BIGINT, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true","num-sorted-run.compaction-trigger":"2"}' PARTITION BY KEY (id) PARTITIONS 3;
/* mariadb */ CREATE TABLE t2 (k INT, tag VARCHAR(8), rate DECIMAL(9,3), id BIGINT NOT NULL, dt DATE, n BIGINT, PRIMARY KEY (id));
/* check */ SELECT AVG(a1.k) AS c0 FROM t2 a1;
-- answers at query 0:
-- lakesql:
--   c0 DOUBLE
--   NULL
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DOUBLE
--   NULL
--   (1 rows)
-- mariadb:
--   c0 DECIMAL(scale 4)
--   NULL
--   (1 rows)
