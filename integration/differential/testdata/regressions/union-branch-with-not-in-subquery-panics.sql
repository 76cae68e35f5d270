-- lakesql differential case, seed 52 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [8:1] vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [8:1] vs 1 rows
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
INSERT INTO t1 (id, score, region, k, note, day, rate, ts) VALUES (20, 12.50, 'latam', -2, 'sur', '2024-01-01', -7.750, '2024-01-04 00:00:59');
/* check */ SELECT a1.day AS c0 FROM t2 a1 UNION ALL SELECT a2.note AS c0 FROM t1 a2 WHERE a2.k NOT IN (SELECT a4.k AS c0 FROM t1 a3 JOIN t1 a4 ON TRUE) UNION ALL SELECT a5.note AS c0 FROM t1 a5;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [8:1]
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): handler caught panic: runtime error: slice bounds out of range [8:1]
-- mariadb:
--   c0 VARCHAR
--   sur
--   (1 rows)
