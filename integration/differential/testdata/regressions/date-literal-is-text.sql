-- lakesql differential case, seed 1 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): TEXT vs DATE
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): TEXT vs DATE
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id)) COMMENT 'paimon:{"write-only":"true","target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id));
/* check */ SELECT DATE '2024-01-02' AS c0 FROM t1 a2;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   (0 rows)
-- mariadb:
--   c0 DATE
--   (0 rows)
