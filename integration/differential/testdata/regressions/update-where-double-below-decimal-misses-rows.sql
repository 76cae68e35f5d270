-- lakesql differential case, seed 252 (internal/randsql)
-- found at dump t2:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (24, 8, 2.000, 7.5, 2024-01-04 00:59:59, 5, 17); only right: (24, 8, 2.000, 18.75, 2024-01-02 00:00:00, 5, 17)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (24, 8, 2.000, 7.5, 2024-01-04 00:59:59, 5, 17); only right: (24, 8, 2.000, 18.75, 2024-01-02 00:00:00, 5, 17)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (n BIGINT, qty DECIMAL(6,0), rate DECIMAL(9,3), score DOUBLE, ts DATETIME, k INT, id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t2 (n BIGINT, qty DECIMAL(6,0), rate DECIMAL(9,3), score DOUBLE, ts DATETIME, k INT, id BIGINT NOT NULL, PRIMARY KEY (id));
INSERT INTO t2 (n, qty, rate, score, ts, k, id) VALUES (24, 8, 2.000, 7.50, '2024-01-04 00:59:59', 5, 17);
UPDATE t2 SET score = 18.75, ts = '2024-01-02 00:00:00' WHERE t2.score < t2.qty;
/* dump sort=0,1,2,3,4,5,6 */ SELECT n, qty, rate, score, ts, k, id FROM t2 ORDER BY n, qty, rate, score, ts, k, id;
-- answers at dump t2:
-- lakesql:
--   n BIGINT | qty DECIMAL(scale 0) | rate DECIMAL(scale 3) | score DOUBLE | ts DATETIME | k INT | id BIGINT
--   24 | 8 | 2.000 | 7.5 | 2024-01-04 00:59:59 | 5 | 17
--   (1 rows)
-- lakesql-rewrites-off:
--   n BIGINT | qty DECIMAL(scale 0) | rate DECIMAL(scale 3) | score DOUBLE | ts DATETIME | k INT | id BIGINT
--   24 | 8 | 2.000 | 7.5 | 2024-01-04 00:59:59 | 5 | 17
--   (1 rows)
-- mariadb:
--   n BIGINT | qty DECIMAL(scale 0) | rate DECIMAL(scale 3) | score DOUBLE | ts DATETIME | k INT | id BIGINT
--   24 | 8 | 2.000 | 18.75 | 2024-01-02 00:00:00 | 5 | 17
--   (1 rows)
