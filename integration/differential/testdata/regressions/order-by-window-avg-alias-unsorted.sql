-- lakesql differential case, seed 911 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: rows: the same rows in another order: sort-key group 0 is (20.0000) vs (19.5000)
--   lakesql-rewrites-off vs mariadb: rows: the same rows in another order: sort-key group 0 is (20.0000) vs (19.5000)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t2 (dt DATE, id BIGINT, day VARCHAR(10) NOT NULL, note VARCHAR(16), region VARCHAR(8) NOT NULL, qty DECIMAL(6,0)) PARTITION BY LIST COLUMNS (day, region);
/* mariadb */ CREATE TABLE t2 (dt DATE, id BIGINT, day VARCHAR(10) NOT NULL, note VARCHAR(16), region VARCHAR(8) NOT NULL, qty DECIMAL(6,0));
INSERT INTO t2 (dt, id, day, note, region, qty) VALUES ('2024-01-05', 10, '2024-01-03', '8iym', 'eu', 28);
INSERT INTO t2 (dt, id, day, note, region, qty) VALUES ('2024-01-02', 29, '2024-01-05', 'g2s8', 'eu', 8), (NULL, 20, '2024-01-01', '', 'apac', -9);
/* check sort=0 */ SELECT AVG(a1.id) OVER (PARTITION BY a1.region ORDER BY a1.dt) AS c0 FROM t2 a1 ORDER BY c0;
-- answers at query 0:
-- lakesql:
--   c0 DECIMAL(scale 4)
--   20.0000
--   19.5000
--   29.0000
--   (3 rows)
-- lakesql-rewrites-off:
--   c0 DECIMAL(scale 4)
--   20.0000
--   19.5000
--   29.0000
--   (3 rows)
-- mariadb:
--   c0 DECIMAL(scale 4)
--   19.5000
--   20.0000
--   29.0000
--   (3 rows)
