-- lakesql differential case, seed 35 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): failed to replan join: unknown type for rel output cols: *memo.TableAlias vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): failed to replan join: unknown type for rel output cols: *memo.TableAlias vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (k INT, note VARCHAR(16) NOT NULL, ts DATETIME NOT NULL, dt DATE, score DOUBLE) PARTITION BY KEY (ts) PARTITIONS 3;
/* mariadb */ CREATE TABLE t1 (k INT, note VARCHAR(16) NOT NULL, ts DATETIME NOT NULL, dt DATE, score DOUBLE);
/* lakesql */ CREATE TABLE t3 (dt DATE, k INT, region VARCHAR(8) NOT NULL, rate DECIMAL(9,3), score DOUBLE, tag VARCHAR(8), n BIGINT, id BIGINT) COMMENT 'paimon:{"source.split.target-size":"1 kb","num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (region);
/* mariadb */ CREATE TABLE t3 (dt DATE, k INT, region VARCHAR(8) NOT NULL, rate DECIMAL(9,3), score DOUBLE, tag VARCHAR(8), n BIGINT, id BIGINT);
/* check */ SELECT COUNT(*) AS c0 FROM t3 a1 WHERE EXISTS (SELECT 1 AS c0 FROM t1 a2) AND NOT EXISTS (SELECT 1 AS c0 FROM t1 a3);
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): failed to replan join: unknown type for rel output cols: *memo.TableAlias
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): failed to replan join: unknown type for rel output cols: *memo.TableAlias
-- mariadb:
--   c0 BIGINT
--   0
--   (1 rows)
