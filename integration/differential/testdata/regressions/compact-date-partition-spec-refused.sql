-- lakesql differential case, seed 7 (internal/randsql)
-- found at setup 2:
--   lakesql vs (nothing to compare with): error: error Error 1296 (HY000): sys.compact: compact: partition value dt=2024-02-29: spec: partition value "2024-02-29" of dt: strconv.ParseInt: parsing "2024-02-29": invalid syntax: corruption
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, rate DECIMAL(9,3), score DOUBLE, note VARCHAR(16), PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 4;
/* mariadb */ CREATE TABLE t1 (dt DATE NOT NULL, id BIGINT NOT NULL, rate DECIMAL(9,3), score DOUBLE, note VARCHAR(16), PRIMARY KEY (dt, id));
/* lakesql */ CALL sys.compact('t1', 'dt=2024-02-29');
/* dump sort=0,1,2,3,4 */ SELECT dt, id, rate, score, note FROM t1 ORDER BY dt, id, rate, score, note;
-- answers at setup 2:
-- lakesql:
--   error: Error 1296 (HY000): sys.compact: compact: partition value dt=2024-02-29: spec: partition value "2024-02-29" of dt: strconv.ParseInt: parsing "2024-02-29": invalid syntax: corruption
