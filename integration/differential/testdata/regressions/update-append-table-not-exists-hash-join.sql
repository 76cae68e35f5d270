-- lakesql differential case, seed 103 (internal/randsql)
-- found at setup 6:
--   lakesql vs mariadb: error: error Error 1105 (HY000): unsupported feature: error: keyless tables unsupported for UPDATE JOIN vs 1 rows
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t3 (amt DECIMAL(12,2), tag VARCHAR(8), rate DECIMAL(9,3) NOT NULL, note VARCHAR(16), score DOUBLE, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"target-file-size":"1 kb"}' PARTITION BY KEY (id) PARTITIONS 4;
/* mariadb */ CREATE TABLE t3 (amt DECIMAL(12,2), tag VARCHAR(8), rate DECIMAL(9,3) NOT NULL, note VARCHAR(16), score DOUBLE, ts DATETIME, id BIGINT NOT NULL, PRIMARY KEY (id));
/* lakesql */ CREATE TABLE t4 (code CHAR(4), amt DECIMAL(12,2), k INT, id BIGINT, tag VARCHAR(8), qty DECIMAL(6,0), rate DECIMAL(9,3)) COMMENT 'paimon:{"source.split.target-size":"1 kb","deletion-vectors.enabled":"true"}';
/* mariadb */ CREATE TABLE t4 (code CHAR(4), amt DECIMAL(12,2), k INT, id BIGINT, tag VARCHAR(8), qty DECIMAL(6,0), rate DECIMAL(9,3));
INSERT INTO t4 (code, amt, k, id, tag, qty, rate) VALUES ('zz', -6.50, -1, 26, NULL, 18, NULL), (NULL, -9.00, NULL, 24, 'ba', 44, NULL), ('a1', 47.00, NULL, 29, 'x2', -13, 0.000), ('zzzz', 58.00, NULL, 1, 'ab', -19, 2.000), ('zzzz', 114.75, 2, 36, 'z', 37, 0.250);
REPLACE INTO t3 (amt, tag, rate, note, score, ts, id) VALUES (NULL, 'b', -5.750, 'l', 13.50, '2024-01-04 00:30:00', 4), (158.50, 'x10', 7.125, NULL, -6.00, '2024-01-04 06:30:59', 8), (NULL, '', 8.750, NULL, 6.8, '2024-01-02 06:59:00', 35);
UPDATE t4 SET amt = amt + 1, rate = COALESCE(rate, -10.000) WHERE NOT EXISTS (SELECT 1 AS c0 FROM t3 a1 WHERE a1.id = t4.id);
/* dump sort=0,1,2,3,4,5,6 */ SELECT amt, tag, rate, note, score, ts, id FROM t3 ORDER BY amt, tag, rate, note, score, ts, id;
/* dump sort=0,1,2,3,4,5,6 */ SELECT code, amt, k, id, tag, qty, rate FROM t4 ORDER BY code, amt, k, id, tag, qty, rate;
-- answers at setup 6:
-- lakesql:
--   error: Error 1105 (HY000): unsupported feature: error: keyless tables unsupported for UPDATE JOIN
-- mariadb:
--   rows affected BIGINT
--   5
--   (1 rows)
