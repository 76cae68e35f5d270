-- lakesql differential case, seed 21 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): unable to find field with index 5 in row of 3 columns vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): unable to find field with index 5 in row of 3 columns vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE, note VARCHAR(16), id BIGINT, k INT, tag VARCHAR(8)) COMMENT 'paimon:{"target-file-size":"1 kb","num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t1 (dt DATE, note VARCHAR(16), id BIGINT, k INT, tag VARCHAR(8));
INSERT INTO t1 (dt, note, id, k, tag) VALUES ('2024-01-02', 'euum8', 37, NULL, 'abc');
/* check */ SELECT (SELECT MAX(a2.note) AS c0 FROM t1 a2 WHERE a2.tag = a1.tag) AS c0, COUNT(*) OVER () AS c1 FROM t1 a1;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): unable to find field with index 5 in row of 3 columns
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): unable to find field with index 5 in row of 3 columns
-- mariadb:
--   c0 VARCHAR | c1 BIGINT
--   euum8 | 1
--   (1 rows)
