-- lakesql differential case, seed 53 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): INT vs DECIMAL(scale 4)
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): INT vs DECIMAL(scale 4)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (qty DECIMAL(6,0), note VARCHAR(16), k INT NOT NULL, score DOUBLE, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (k, id)) PARTITION BY LIST COLUMNS (k);
/* mariadb */ CREATE TABLE t2 (qty DECIMAL(6,0), note VARCHAR(16), k INT NOT NULL, score DOUBLE, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (k, id));
/* check */ SELECT AVG(a1.k) OVER () AS c0 FROM t2 a1;
-- answers at query 0:
-- lakesql:
--   c0 INT
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 INT
--   (0 rows)
-- mariadb:
--   c0 DECIMAL(scale 4)
--   (0 rows)
