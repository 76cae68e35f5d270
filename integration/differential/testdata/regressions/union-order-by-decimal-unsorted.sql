-- lakesql differential case, seed 470 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: the same rows in another order: sort-key group 0 is (62.25) vs (61.75)
--   lakesql-rewrites-off vs mariadb: rows: the same rows in another order: sort-key group 0 is (62.25) vs (61.75)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, rate DECIMAL(9,3), k INT NOT NULL, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), PRIMARY KEY (k, dt, id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY LIST COLUMNS (k, dt);
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, rate DECIMAL(9,3), k INT NOT NULL, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), PRIMARY KEY (k, dt, id));
/* lakesql */ CREATE TABLE t2 (amt DECIMAL(12,2) NOT NULL, ts DATETIME, rate DECIMAL(9,3), note VARCHAR(16), id BIGINT) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}';
/* mariadb */ CREATE TABLE t2 (amt DECIMAL(12,2) NOT NULL, ts DATETIME, rate DECIMAL(9,3), note VARCHAR(16), id BIGINT);
INSERT INTO t1 (id, rate, k, dt, amt, note) VALUES (27, 8.000, 3, '2024-01-01', 62.25, '');
INSERT INTO t1 (id, rate, k, dt, amt, note) VALUES (37, -4.000, 3, '2024-01-01', 61.75, 'bol6') ON DUPLICATE KEY UPDATE amt = amt + VALUES(amt);
/* check sort=0 */ SELECT a1.k AS c0 FROM t1 a1 WHERE a1.id BETWEEN 10 AND 9 UNION SELECT a3.id AS c0 FROM t2 a3 UNION SELECT a4.amt AS c0 FROM t1 a4 ORDER BY c0;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 30)
--   62.25
--   61.75
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 30)
--   62.25
--   61.75
--   (2 rows)
-- mariadb:
--   c0 DECIMAL(scale 2)
--   61.75
--   62.25
--   (2 rows)
