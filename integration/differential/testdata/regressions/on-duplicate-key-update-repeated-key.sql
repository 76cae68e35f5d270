-- lakesql differential case, seed 99 (internal/randsql)
-- found at dump t1:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (2024-01-02 12:59:00, 2024-01-04, 7, 32, 7); only right: (2024-01-02 12:59:00, 2024-01-04, 7, 57, 7)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (2024-01-02 12:59:00, 2024-01-04, 7, 32, 7); only right: (2024-01-02 12:59:00, 2024-01-04, 7, 57, 7)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (ts DATETIME, dt DATE NOT NULL, id BIGINT NOT NULL, n BIGINT, k INT NOT NULL, PRIMARY KEY (dt, k, id)) PARTITION BY LIST COLUMNS (dt, k) SUBPARTITION BY KEY (id) SUBPARTITIONS 3;
/* mariadb */ CREATE TABLE t1 (ts DATETIME, dt DATE NOT NULL, id BIGINT NOT NULL, n BIGINT, k INT NOT NULL, PRIMARY KEY (dt, k, id));
INSERT INTO t1 (ts, dt, id, n, k) VALUES ('2024-01-02 12:59:00', '2024-01-04', 7, 4, 7);
INSERT INTO t1 (ts, dt, id, n, k) VALUES ('2024-01-01 06:00:59', '2024-01-04', 7, 25, 7), ('2024-01-02 12:30:00', '2024-01-04', 7, 28, 7) ON DUPLICATE KEY UPDATE n = n + VALUES(n);
/* dump sort=0,1,2,3,4 */ SELECT ts, dt, id, n, k FROM t1 ORDER BY ts, dt, id, n, k;
-- answers at dump t1:
-- lakesql:
--   ts DATETIME | dt DATE | id BIGINT | n BIGINT | k INT
--   2024-01-02 12:59:00 | 2024-01-04 | 7 | 32 | 7
--   (1 rows)
-- lakesql-rewrites-off:
--   ts DATETIME | dt DATE | id BIGINT | n BIGINT | k INT
--   2024-01-02 12:59:00 | 2024-01-04 | 7 | 32 | 7
--   (1 rows)
-- mariadb:
--   ts DATETIME | dt DATE | id BIGINT | n BIGINT | k INT
--   2024-01-02 12:59:00 | 2024-01-04 | 7 | 57 | 7
--   (1 rows)
