-- lakesql differential case, seed 209 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): value 2024-01-01 23:30:00 +0000 UTC is not a valid Decimal vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): value 2024-01-01 23:30:00 +0000 UTC is not a valid Decimal vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (id BIGINT, tag VARCHAR(8), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), note VARCHAR(16), k INT NOT NULL, ts DATETIME NOT NULL) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (day, k) SUBPARTITION BY KEY (id) SUBPARTITIONS 3;
/* mariadb */ CREATE TABLE t2 (id BIGINT, tag VARCHAR(8), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), note VARCHAR(16), k INT NOT NULL, ts DATETIME NOT NULL);
INSERT INTO t2 (id, tag, day, rate, note, k, ts) VALUES (7, 'x1', '2024-01-05', 2.875, 'xeta9', 7, '2024-01-01 23:30:00');
/* check */ SELECT (SELECT MAX(a2.day) AS c0 FROM t2 a2 WHERE a2.rate = a1.rate) AS c0, a1.ts AS c1, a1.id AS c2, ROW_NUMBER() OVER (PARTITION BY a1.k ORDER BY a1.id, a1.tag, a1.day, a1.rate, a1.note, a1.k DESC, a1.ts) AS c3 FROM t2 a1;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): value 2024-01-01 23:30:00 +0000 UTC is not a valid Decimal
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): value 2024-01-01 23:30:00 +0000 UTC is not a valid Decimal
-- mariadb:
--   c0 VARCHAR | c1 DATETIME | c2 BIGINT | c3 BIGINT
--   2024-01-05 | 2024-01-01 23:30:00 | 7 | 1
--   (1 rows)
