-- lakesql differential case, seed 52 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): handler caught panic: runtime error: index out of range [0] with length 0 vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): handler caught panic: runtime error: index out of range [0] with length 0 vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT, score DOUBLE, region VARCHAR(8) NOT NULL, k INT, note VARCHAR(16), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3) NOT NULL, ts DATETIME) PARTITION BY LIST COLUMNS (day, region) SUBPARTITION BY KEY (rate) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (id BIGINT, score DOUBLE, region VARCHAR(8) NOT NULL, k INT, note VARCHAR(16), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3) NOT NULL, ts DATETIME);
/* lakesql */ CREATE TABLE t2 (score DOUBLE, ts DATETIME, id BIGINT NOT NULL, qty DECIMAL(6,0), day VARCHAR(10) NOT NULL, PRIMARY KEY (day, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t2 (score DOUBLE, ts DATETIME, id BIGINT NOT NULL, qty DECIMAL(6,0), day VARCHAR(10) NOT NULL, PRIMARY KEY (day, id));
/* check */ SELECT COUNT(*) OVER (ORDER BY a1.score) AS c0 FROM t1 a1;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): handler caught panic: runtime error: index out of range [0] with length 0
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): handler caught panic: runtime error: index out of range [0] with length 0
-- mariadb:
--   c0 BIGINT
--   (0 rows)
