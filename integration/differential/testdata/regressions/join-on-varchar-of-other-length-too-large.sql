-- lakesql differential case, seed 102 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): string '[50 48 50 52 45 48 49 45 48 49]' is too large for column 'varchar(8)' vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): string '[50 48 50 52 45 48 49 45 48 49]' is too large for column 'varchar(8)' vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (amt DECIMAL(12,2) NOT NULL, rate DECIMAL(9,3), tag VARCHAR(8), id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, PRIMARY KEY (day, id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t2 (amt DECIMAL(12,2) NOT NULL, rate DECIMAL(9,3), tag VARCHAR(8), id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, PRIMARY KEY (day, id));
INSERT INTO t2 (amt, rate, tag, id, day) VALUES (163.00, 3.000, NULL, 6, '2024-01-03'), (-3.50, -6.250, 'x10', 15, '2024-01-05'), (111.50, 5.750, 'ba', 16, '2024-01-01'), (-17.00, -6.625, 'x2', 21, '2024-01-04');
/* check */ SELECT a2.id AS c0 FROM t2 a1 JOIN t2 a2 ON a2.day = a1.tag;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): string '[50 48 50 52 45 48 49 45 48 49]' is too large for column 'varchar(8)'
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): string '[50 48 50 52 45 48 49 45 48 49]' is too large for column 'varchar(8)'
-- mariadb:
--   c0 BIGINT
--   (0 rows)
