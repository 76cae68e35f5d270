-- lakesql differential case, seed 589 (internal/randsql)
-- found at query 0:
--   lakesql vs lakesql-rewrites-off: rows: 1 vs 0 rows; only left: (34); only right: none
--   lakesql vs mariadb: rows: 1 vs 0 rows; only left: (34); only right: none
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, tag VARCHAR(8), k INT NOT NULL, score DOUBLE, qty DECIMAL(6,0), PRIMARY KEY (id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}';
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, tag VARCHAR(8), k INT NOT NULL, score DOUBLE, qty DECIMAL(6,0), PRIMARY KEY (id));
INSERT INTO t1 (id, tag, k, score, qty) VALUES (11, 'a', -1, -5.75, -14), (38, 'a', 4, -14.4, 34), (34, 'x2', 4, -11.00, NULL), (4, 'b', 5, -12.50, 13);
/* check */ SELECT a2.qty AS c0 FROM t1 a1 JOIN t1 a2 ON a2.score = a1.qty WHERE a1.id IN (11);
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 0)
--   34
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 0)
--   (0 rows)
-- mariadb:
--   c0 DECIMAL(scale 0)
--   (0 rows)
