-- lakesql differential case, written by hand (found reading `t$files` in the interop harness): GROUP_CONCAT of an IFNULL, IF or COALESCE failed with "unable to find field with index 5 in row of 1 columns". typeFlowFunctions rewrote the argument, and GMS v0.20.0's GroupConcat.WithChildren drops the aggregate's column id, so the projection above it lost its column; fixed by keepExpressionIds.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id BIGINT NOT NULL, k INT, amt DECIMAL(12,2), note VARCHAR(16), PRIMARY KEY (id));
/* mariadb */ CREATE TABLE t1 (id BIGINT NOT NULL, k INT, amt DECIMAL(12,2), note VARCHAR(16), PRIMARY KEY (id));
INSERT INTO t1 (id, k, amt, note) VALUES (1, 1, 10.50, 'a'), (2, 1, NULL, NULL), (3, 2, 5.00, 'c');
/* check */ SELECT GROUP_CONCAT(IFNULL(amt, 'n') ORDER BY id) AS c0 FROM t1;
/* check sort=0 */ SELECT k, GROUP_CONCAT(IFNULL(note, 'none') ORDER BY id SEPARATOR '/') AS c1 FROM t1 GROUP BY k ORDER BY k;
/* check */ SELECT GROUP_CONCAT(IF(amt IS NULL, 0, amt) ORDER BY id) AS c0, GROUP_CONCAT(COALESCE(note, k) ORDER BY id) AS c1 FROM t1;
