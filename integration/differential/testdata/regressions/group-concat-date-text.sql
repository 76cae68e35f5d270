-- lakesql differential case, seed 17 (internal/randsql): GROUP_CONCAT of a DATE printed it as a DATETIME ("2024-01-05 00:00:00"); fixed by textOfTemporals and the CONCAT concatGroupConcatArguments puts around every GROUP_CONCAT argument
-- found at query 0:
--   lakesql vs mariadb: rows: 1 rows each, different values; only left: (2024-01-05 00:00:00|-1); only right: (2024-01-05|-1)
--   lakesql-rewrites-off vs mariadb: rows: 1 rows each, different values; only left: (2024-01-05 00:00:00|-1); only right: (2024-01-05|-1)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE NOT NULL, n BIGINT, tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, amt DECIMAL(12,2), k INT NOT NULL, PRIMARY KEY (k, dt, id)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2"}' PARTITION BY LIST COLUMNS (k, dt);
/* mariadb */ CREATE TABLE t1 (dt DATE NOT NULL, n BIGINT, tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, amt DECIMAL(12,2), k INT NOT NULL, PRIMARY KEY (k, dt, id));
INSERT INTO t1 (dt, n, tag, score, id, amt, k) VALUES ('2024-01-05', 18, 'x10', -9.50, 4, 79.75, -1) ON DUPLICATE KEY UPDATE tag = COALESCE(tag, VALUES(tag)), amt = VALUES(amt);
/* check */ SELECT GROUP_CONCAT(DISTINCT a1.dt, '|', a1.k ORDER BY a1.dt, a1.k) AS c0 FROM t1 a1;
-- answers at query 0:
-- lakesql:
--   c0 TEXT
--   2024-01-05 00:00:00|-1
--   (1 rows)
-- lakesql-rewrites-off:
--   c0 TEXT
--   2024-01-05 00:00:00|-1
--   (1 rows)
-- mariadb:
--   c0 TEXT
--   2024-01-05|-1
--   (1 rows)
