-- lakesql differential case, seed 9 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: types: column 0 (c0): TEXT vs DATETIME
--   lakesql-rewrites-off vs mariadb: types: column 0 (c0): TEXT vs DATETIME
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY KEY (id) PARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id));
/* check */ SELECT TIMESTAMP '2024-01-02 06:30:00' AS c0 FROM t2 a3;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   (0 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   (0 rows)
-- mariadb:
--   c0 DATETIME
--   (0 rows)
