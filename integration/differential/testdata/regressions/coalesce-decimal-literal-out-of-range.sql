-- lakesql differential case, seed 28 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): Out of range value for column of Decimal type vs 1 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): Out of range value for column of Decimal type vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t4 (id BIGINT NOT NULL, qty DECIMAL(6,0), k INT, n BIGINT, note VARCHAR(16), amt DECIMAL(12,2) NOT NULL, dt DATE NOT NULL, PRIMARY KEY (dt, id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t4 (id BIGINT NOT NULL, qty DECIMAL(6,0), k INT, n BIGINT, note VARCHAR(16), amt DECIMAL(12,2) NOT NULL, dt DATE NOT NULL, PRIMARY KEY (dt, id));
REPLACE INTO t4 (id, qty, k, n, note, amt, dt) VALUES (7, -18, 0, 23, 'ic', 115.25, '2024-01-03');
/* check */ SELECT COALESCE(a1.amt, 53.50) AS c0 FROM t4 a1;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): Out of range value for column of Decimal type
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): Out of range value for column of Decimal type
-- mariadb:
--   c0 DECIMAL(scale 2)
--   115.25
--   (1 rows)
