-- lakesql differential case, seed 1005 (internal/randsql)
-- found at setup 3:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (2); only right: (1)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (code CHAR(4), tag VARCHAR(8) NOT NULL, dt DATE NOT NULL, id BIGINT NOT NULL, k INT, PRIMARY KEY (dt, id), KEY ix_tag (tag)) COMMENT 'paimon:{"target-file-size":"1 kb","write-only":"true"}' PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t2 (code CHAR(4), tag VARCHAR(8) NOT NULL, dt DATE NOT NULL, id BIGINT NOT NULL, k INT, PRIMARY KEY (dt, id));
INSERT INTO t2 (code, tag, dt, id, k) VALUES ('a1', '', '2024-01-04', 37, 8);
REPLACE INTO t2 (code, tag, dt, id, k) VALUES ('a1', '', '2024-01-04', 37, 8);
/* dump sort=0,1,2,3,4 */ SELECT code, tag, dt, id, k FROM t2 ORDER BY code, tag, dt, id, k;
-- answers at setup 3:
-- lakesql:
--   rows affected BIGINT
--   2
--   (1 rows)
-- mariadb:
--   rows affected BIGINT
--   1
--   (1 rows)
