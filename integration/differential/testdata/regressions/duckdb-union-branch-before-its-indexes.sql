-- Found with the vectorized executor on (-tags duckdb_arrow): GMS analyses
-- each branch of a union on its own before the statement's indexes are
-- final; a branch replaced there left GMS numbering the scalar subquery
-- above it without the replaced columns' ids, so it read the first column
-- of the outer row, and which one that was depended on DuckDB's row order.
-- lakesql differential case, seed 5 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 2 vs 4 rows; only left: none; only right: (5) (10)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), id BIGINT NOT NULL, score DOUBLE, ts DATETIME, rate DECIMAL(9,3), k INT, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 1;
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), id BIGINT NOT NULL, score DOUBLE, ts DATETIME, rate DECIMAL(9,3), k INT, PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, n BIGINT, qty DECIMAL(6,0), dt DATE, k INT NOT NULL, note VARCHAR(16)) PARTITION BY LIST COLUMNS (k) SUBPARTITION BY KEY (n) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (ts DATETIME, score DOUBLE, n BIGINT, qty DECIMAL(6,0), dt DATE, k INT NOT NULL, note VARCHAR(16));
/* lakesql */ CREATE TABLE t4 (k INT, id BIGINT NOT NULL, amt DECIMAL(12,2), qty DECIMAL(6,0), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), n BIGINT NOT NULL, note VARCHAR(16), PRIMARY KEY (day, id)) COMMENT 'paimon:{"source.split.target-size":"1 kb","target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t4 (k INT, id BIGINT NOT NULL, amt DECIMAL(12,2), qty DECIMAL(6,0), day VARCHAR(10) NOT NULL, rate DECIMAL(9,3), n BIGINT NOT NULL, note VARCHAR(16), PRIMARY KEY (day, id));
INSERT INTO t4 (k, id, amt, qty, day, rate, n, note) VALUES (NULL, 31, -4.50, 13, '2024-01-02', -9.500, 5, ''), (2, 35, 33.50, 49, '2024-01-03', 3.250, 10, 'a10o2');
INSERT INTO t2 (ts, score, n, qty, dt, k, note) VALUES ('2024-01-03 06:00:59', -5.25, 13, -13, '2024-01-04', -1, '14lch'), ('2024-01-01 00:30:00', -5.75, 1, 29, '2024-01-03', -1, 'a');
/* check */ SELECT a1.n AS c0 FROM t2 a1 UNION ALL SELECT a3.n AS c0 FROM t1 a2 JOIN t2 a3 ON TRUE UNION ALL SELECT a6.n AS c0 FROM t4 a5 JOIN t4 a6 ON TRUE WHERE a5.k <= (SELECT COUNT(a8.k) AS c0 FROM t2 a8);
-- answers at query 0:
-- lakesql:
--   c0 BIGINT
--   1
--   13
--   (2 rows)
-- lakesql-rewrites-off:
--   c0 BIGINT
--   1
--   13
--   5
--   10
--   (4 rows)
