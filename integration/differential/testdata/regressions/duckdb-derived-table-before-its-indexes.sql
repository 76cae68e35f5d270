-- lakesql differential case, seed 18 (internal/randsql), found with the
-- vectorized executor on (-tags duckdb_arrow):
--   lakesql vs lakesql-rewrites-off: error: duckexec: Conversion Error:
--   Unimplemented type for cast (INTEGER -> DATE) ... WHERE (q.o4 = DATE '2023-12-31')
-- GMS runs the analyzer's last batch over a derived table on its own,
-- before it assigns the statement's execution indexes; the derived table
-- was translated with the column ids GMS had not yet renumbered.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), score DOUBLE NOT NULL, id BIGINT NOT NULL, dt DATE NOT NULL, k INT NOT NULL, tag VARCHAR(8), PRIMARY KEY (k, dt, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY LIST COLUMNS (k, dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 1;
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), score DOUBLE NOT NULL, id BIGINT NOT NULL, dt DATE NOT NULL, k INT NOT NULL, tag VARCHAR(8), PRIMARY KEY (k, dt, id));
REPLACE INTO t1 (qty, score, id, dt, k, tag) VALUES (35, -3.25, 25, '2024-01-04', -1, 'x10'), (36, 1.5, 26, '2023-12-31', 2, 'y');
/* check */ SELECT * FROM (SELECT RANK() OVER (ORDER BY COUNT(a1.id)) AS c0 FROM t1 a1 WHERE a1.dt = '2023-12-31' HAVING COUNT(*) > 2) AS ordered;
/* check */ SELECT * FROM (SELECT COUNT(a1.id) AS c0, MAX(a1.k) AS c1 FROM t1 a1 WHERE a1.dt = '2023-12-31') AS d;
