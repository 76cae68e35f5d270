-- lakesql differential case, seed 3 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): DECIMAL(scale 30) vs DOUBLE
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): DECIMAL(scale 30) vs DOUBLE
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (score DOUBLE, rate DECIMAL(9,3), day VARCHAR(10) NOT NULL, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (day, id)) PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t1 (score DOUBLE, rate DECIMAL(9,3), day VARCHAR(10) NOT NULL, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (day, id));
/* lakesql */ CREATE TABLE t3 (amt DECIMAL(12,2), id BIGINT, k INT, dt DATE, rate DECIMAL(9,3), ts DATETIME, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t3 (amt DECIMAL(12,2), id BIGINT, k INT, dt DATE, rate DECIMAL(9,3), ts DATETIME, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0));
/* lakesql */ CREATE TABLE t4 (note VARCHAR(16), amt DECIMAL(12,2), dt DATE, rate DECIMAL(9,3), n BIGINT, id BIGINT NOT NULL, ts DATETIME, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY KEY (id) PARTITIONS 4;
/* mariadb */ CREATE TABLE t4 (note VARCHAR(16), amt DECIMAL(12,2), dt DATE, rate DECIMAL(9,3), n BIGINT, id BIGINT NOT NULL, ts DATETIME, PRIMARY KEY (id));
/* check */ SELECT a1.score AS c0 FROM t1 a1 UNION SELECT a4.rate AS c0 FROM t4 a3 JOIN t3 a4 ON TRUE UNION SELECT a5.rate AS c0 FROM t1 a5;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 30)
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 30)
--   (0 rows)
-- mariadb:
--   c0 DOUBLE
--   (0 rows)
