-- lakesql differential case, seed 403 (internal/randsql)
-- found at dump t1:
--   lakesql vs mariadb: rows: 0 vs 1 rows; only left: none; only right: (25, us, 2024-01-04 23:30:59, 27, NULL, -2)
--   lakesql-rewrites-off vs mariadb: rows: 0 vs 1 rows; only left: none; only right: (25, us, 2024-01-04 23:30:59, 27, NULL, -2)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, region VARCHAR(8) NOT NULL, ts DATETIME, n BIGINT, score DOUBLE, k INT NOT NULL, PRIMARY KEY (k, region, id)) PARTITION BY LIST COLUMNS (k, region) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, region VARCHAR(8) NOT NULL, ts DATETIME, n BIGINT, score DOUBLE, k INT NOT NULL, PRIMARY KEY (k, region, id));
/* lakesql */ CREATE TABLE t2 (dt DATE NOT NULL, rate DECIMAL(9,3), k INT, qty DECIMAL(6,0) NOT NULL) COMMENT 'paimon:{"source.split.target-size":"1 kb","write-only":"true"}' PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (qty) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (dt DATE NOT NULL, rate DECIMAL(9,3), k INT, qty DECIMAL(6,0) NOT NULL);
INSERT INTO t2 (dt, rate, k, qty) VALUES ('2024-01-04', -3.125, -2, -18);
REPLACE INTO t1 (id, region, ts, n, score, k) VALUES (25, 'us', '2024-01-04 23:30:59', 27, NULL, -2);
DELETE FROM t1 WHERE t1.ts IN (SELECT a1.dt AS c0 FROM t2 a1 WHERE a1.k = t1.k AND (a1.k IN (-2) OR a1.k BETWEEN 7 AND 0));
/* dump sort=0,1,2,3,4,5 */ SELECT id, region, ts, n, score, k FROM t1 ORDER BY id, region, ts, n, score, k;
/* dump sort=0,1,2,3 */ SELECT dt, rate, k, qty FROM t2 ORDER BY dt, rate, k, qty;
-- answers at dump t1:
-- lakesql:
--   id BIGINT | region VARCHAR | ts DATETIME | n BIGINT | score DOUBLE | k INT
--   (0 rows)
-- lakesql-rewrites-off:
--   id BIGINT | region VARCHAR | ts DATETIME | n BIGINT | score DOUBLE | k INT
--   (0 rows)
-- mariadb:
--   id BIGINT | region VARCHAR | ts DATETIME | n BIGINT | score DOUBLE | k INT
--   25 | us | 2024-01-04 23:30:59 | 27 | NULL | -2
--   (1 rows)
