-- lakesql differential case, written by hand
-- LAG and LEAD run on DuckDB as on go-mysql-server and MySQL: the value
-- offset rows before or after in the partition's order, NULL past its
-- ends, of every type (MariaDB has no default argument to compare).
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), score DOUBLE, ts DATETIME, PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, dt DATE NOT NULL, amt DECIMAL(12,2), note VARCHAR(16), score DOUBLE, ts DATETIME, PRIMARY KEY (dt, id));
INSERT INTO t1 (id, dt, amt, note, score, ts) VALUES (1, '2024-01-01', 10.50, 'a', 1.5, '2024-01-01 10:00:00'), (2, '2024-01-01', NULL, 'b', NULL, NULL), (3, '2024-01-01', -3.25, NULL, -0.5, '2024-01-01 23:59:59'), (4, '2024-01-02', 7.00, 'd', 2.0, '2024-01-02 00:00:00'), (5, '2024-01-02', 0.01, 'e', 0.25, '2024-01-02 12:30:00'), (6, '2024-01-03', 99.99, 'f', 9.0, NULL);
/* check */ SELECT a1.id AS c0, LAG(a1.amt) OVER (PARTITION BY a1.dt ORDER BY a1.id) AS c1, LEAD(a1.note) OVER (PARTITION BY a1.dt ORDER BY a1.id) AS c2, LAG(a1.score, 2) OVER (ORDER BY a1.id) AS c3 FROM t1 a1;
/* check */ SELECT a1.id AS c0, LEAD(a1.ts, 1) OVER (ORDER BY a1.id DESC) AS c1, LAG(a1.dt, 0) OVER (ORDER BY a1.id) AS c2, LEAD(a1.id, 3) OVER (ORDER BY a1.id) AS c3 FROM t1 a1;
/* check */ SELECT a1.dt AS c0, SUM(a1.amt) AS c1, LAG(SUM(a1.amt)) OVER (ORDER BY a1.dt) AS c2 FROM t1 a1 GROUP BY a1.dt;
