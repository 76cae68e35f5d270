-- lakesql differential case, seed 436 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): internal error: runtime error: index out of range [4] with length 2 vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): internal error: runtime error: index out of range [4] with length 2 vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (day VARCHAR(10) NOT NULL, k INT, amt DECIMAL(12,2) NOT NULL, tag VARCHAR(8), n BIGINT, score DOUBLE, note VARCHAR(16), id BIGINT, region VARCHAR(8) NOT NULL) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (region, day) SUBPARTITION BY KEY (score) SUBPARTITIONS 3;
/* mariadb */ CREATE TABLE t1 (day VARCHAR(10) NOT NULL, k INT, amt DECIMAL(12,2) NOT NULL, tag VARCHAR(8), n BIGINT, score DOUBLE, note VARCHAR(16), id BIGINT, region VARCHAR(8) NOT NULL);
/* lakesql */ CREATE TABLE t2 (n BIGINT, k INT NOT NULL, id BIGINT NOT NULL, dt DATE, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0), note VARCHAR(16) NOT NULL, PRIMARY KEY (k, region, id)) PARTITION BY LIST COLUMNS (k, region);
/* mariadb */ CREATE TABLE t2 (n BIGINT, k INT NOT NULL, id BIGINT NOT NULL, dt DATE, region VARCHAR(8) NOT NULL, qty DECIMAL(6,0), note VARCHAR(16) NOT NULL, PRIMARY KEY (k, region, id));
/* check */ SELECT COUNT(*) AS c0 FROM t1 a1 WHERE EXISTS (SELECT 1 AS c0 FROM t2 a2 WHERE a2.region = a2.note) AND EXISTS (SELECT 1 AS c0 FROM t2 a3 WHERE a3.n = a1.n);
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): internal error: runtime error: index out of range [4] with length 2
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): internal error: runtime error: index out of range [4] with length 2
-- mariadb:
--   c0 BIGINT
--   0
--   (1 rows)
