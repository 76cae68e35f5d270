-- lakesql differential case, seed 1012 (internal/randsql)
-- found at query 0:
--   lakesql vs mariadb: error: error Error 1105 (HY000): rule 'hoistOutOfScopeFilters' tried to hoist filters above root node vs 0 rows
--   lakesql-rewrites-off vs mariadb: error: error Error 1105 (HY000): rule 'hoistOutOfScopeFilters' tried to hoist filters above root node vs 0 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (qty DECIMAL(6,0), note VARCHAR(16), dt DATE NOT NULL, score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t1 (qty DECIMAL(6,0), note VARCHAR(16), dt DATE NOT NULL, score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t2 (ts DATETIME, id BIGINT NOT NULL, score DOUBLE, dt DATE NOT NULL, amt DECIMAL(12,2), tag VARCHAR(8), n BIGINT, PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt);
/* mariadb */ CREATE TABLE t2 (ts DATETIME, id BIGINT NOT NULL, score DOUBLE, dt DATE NOT NULL, amt DECIMAL(12,2), tag VARCHAR(8), n BIGINT, PRIMARY KEY (dt, id));
/* lakesql */ CREATE TABLE t3 (qty DECIMAL(6,0), tag VARCHAR(8), rate DECIMAL(9,3), amt DECIMAL(12,2), dt DATE, id BIGINT NOT NULL, note VARCHAR(16), PRIMARY KEY (id)) COMMENT 'paimon:{"source.split.target-size":"1 kb"}' PARTITION BY KEY (id) PARTITIONS 3;
/* mariadb */ CREATE TABLE t3 (qty DECIMAL(6,0), tag VARCHAR(8), rate DECIMAL(9,3), amt DECIMAL(12,2), dt DATE, id BIGINT NOT NULL, note VARCHAR(16), PRIMARY KEY (id));
/* check */ SELECT * FROM (SELECT ROW_NUMBER() OVER (ORDER BY a2.score DESC, a1.amt) AS c0 FROM t3 a1 JOIN t1 a2 ON TRUE WHERE a1.tag NOT IN (SELECT a3.tag AS c0 FROM t2 a3 WHERE a3.amt = a1.amt) AND EXISTS (SELECT 1 AS c0 FROM t3 a4) GROUP BY a1.amt) AS ordered;
-- answers at query 0:
-- lakesql:
--   error: Error 1105 (HY000): rule 'hoistOutOfScopeFilters' tried to hoist filters above root node
-- lakesql-rewrites-off:
--   error: Error 1105 (HY000): rule 'hoistOutOfScopeFilters' tried to hoist filters above root node
-- mariadb:
--   c0 BIGINT
--   (0 rows)
