-- lakesql differential case, seed 1 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1140 (HY000): in aggregated query without GROUP BY, expression #%!d(MISSING) of SELECT list contains nonaggregated column '%!s(MISSING)'; this is incompatible with sql_mode=only_full_group_by vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1140 (HY000): in aggregated query without GROUP BY, expression #%!d(MISSING) of SELECT list contains nonaggregated column '%!s(MISSING)'; this is incompatible with sql_mode=only_full_group_by vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id)) COMMENT 'paimon:{"write-only":"true","target-file-size":"1 kb"}' PARTITION BY LIST COLUMNS (day);
/* mariadb */ CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), n BIGINT, k INT, PRIMARY KEY (day, id));
/* check */ SELECT SUM(a1.k) AS c0, ROW_NUMBER() OVER (ORDER BY a1.k DESC) AS c1 FROM t1 a1 GROUP BY a1.k;
-- answers at query 0:
-- lakesql:
--   error: Error 1140 (HY000): in aggregated query without GROUP BY, expression #%!d(MISSING) of SELECT list contains nonaggregated column '%!s(MISSING)'; this is incompatible with sql_mode=only_full_group_by
-- lakesql-rewrites-off:
--   error: Error 1140 (HY000): in aggregated query without GROUP BY, expression #%!d(MISSING) of SELECT list contains nonaggregated column '%!s(MISSING)'; this is incompatible with sql_mode=only_full_group_by
-- mariadb:
--   c0 DECIMAL(scale 0) | c1 BIGINT
--   (0 rows)
