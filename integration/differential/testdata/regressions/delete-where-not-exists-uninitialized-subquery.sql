-- lakesql differential case, seed 23 (internal/randsql)
-- found at setup 6:
--   lakesql vs mariadb: error: error Error 1105 (HY000): attempted to evaluate uninitialized subquery vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (n BIGINT, region VARCHAR(8) NOT NULL, tag VARCHAR(8), k INT, id BIGINT NOT NULL, ts DATETIME, dt DATE, PRIMARY KEY (region, id)) PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (n BIGINT, region VARCHAR(8) NOT NULL, tag VARCHAR(8), k INT, id BIGINT NOT NULL, ts DATETIME, dt DATE, PRIMARY KEY (region, id));
/* lakesql */ CREATE TABLE t4 (dt DATE NOT NULL, tag VARCHAR(8), n BIGINT NOT NULL, note VARCHAR(16), rate DECIMAL(9,3), amt DECIMAL(12,2) NOT NULL, day VARCHAR(10) NOT NULL) PARTITION BY LIST COLUMNS (dt, day);
/* mariadb */ CREATE TABLE t4 (dt DATE NOT NULL, tag VARCHAR(8), n BIGINT NOT NULL, note VARCHAR(16), rate DECIMAL(9,3), amt DECIMAL(12,2) NOT NULL, day VARCHAR(10) NOT NULL);
INSERT INTO t1 (n, region, tag, k, id, ts, dt) VALUES (15, 'us', NULL, NULL, 22, '2024-01-05 12:59:00', '2024-01-05');
INSERT INTO t4 (dt, tag, n, note, rate, amt, day) VALUES ('2024-02-29', 'ba', 15, NULL, -4.000, 64.25, '2024-01-03');
DELETE FROM t1 WHERE NOT EXISTS (SELECT 1 AS c0 FROM t4 a1 WHERE a1.tag = t1.tag);
/* dump sort=0,1,2,3,4,5,6 */ SELECT n, region, tag, k, id, ts, dt FROM t1 ORDER BY n, region, tag, k, id, ts, dt;
/* dump sort=0,1,2,3,4,5,6 */ SELECT dt, tag, n, note, rate, amt, day FROM t4 ORDER BY dt, tag, n, note, rate, amt, day;
-- answers at setup 6:
-- lakesql:
--   error: Error 1105 (HY000): attempted to evaluate uninitialized subquery
-- mariadb:
--   rows affected BIGINT
--   1
--   (1 rows)
