-- lakesql differential case, seed 7 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): TEXT vs DOUBLE
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): TEXT vs DOUBLE
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, rate DECIMAL(9,3), score DOUBLE, note VARCHAR(16), PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, rate DECIMAL(9,3), score DOUBLE, note VARCHAR(16), PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t3 (tag VARCHAR(8), dt DATE, score DOUBLE NOT NULL, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 2;
/* mariadb */ CREATE TABLE t3 (tag VARCHAR(8), dt DATE, score DOUBLE NOT NULL, rate DECIMAL(9,3), id BIGINT NOT NULL, PRIMARY KEY (id));
/* check */ SELECT a1.score AS c0 FROM t1 a1 UNION ALL SELECT a2.id AS c0 FROM t3 a2;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   (0 rows)
-- mariadb:
--   c0 DOUBLE
--   (0 rows)
