-- lakesql differential case, seed 39 (internal/randsql)
-- Not a wrong answer: ordered by c0, an AVG of DOUBLEs equal in exact
-- arithmetic for every group, the engines' last digits (order of
-- addition) decided which group OFFSET 1 dropped. The generator now
-- orders by computed DOUBLEs rounded (doc.go), as the check below does;
-- it stays as a case of SUM(SUM(x)) OVER (PARTITION BY the GROUP BY key)
-- over a self-join on the executor. As found, with ORDER BY c0, c2, c1:
--   lakesql vs lakesql-rewrites-off: rows: 3 rows each, different values; only left: (1.8583333333333334, 24.5385, 22.3); only right: (1.8583333333333343, 24.5385, 223.0000000000001)
--   lakesql vs mariadb: rows: 3 rows each, different values; only left: (1.8583333333333334, 24.5385, 22.3); only right: (1.8583333333333334, 24.5385, 223)
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (region VARCHAR(8) NOT NULL, code CHAR(4), amt DECIMAL(12,2) NOT NULL, ts DATETIME, n BIGINT, KEY ix_n (n)) COMMENT 'paimon:{"num-sorted-run.compaction-trigger":"2","deletion-vectors.enabled":"true"}' PARTITION BY LIST COLUMNS (region);
/* mariadb */ CREATE TABLE t1 (region VARCHAR(8) NOT NULL, code CHAR(4), amt DECIMAL(12,2) NOT NULL, ts DATETIME, n BIGINT);
/* lakesql */ CREATE TABLE t2 (dt DATE, ts DATETIME, code CHAR(4), note VARCHAR(16), id BIGINT NOT NULL, score DOUBLE, PRIMARY KEY (id)) PARTITION BY KEY (id) PARTITIONS 4;
/* mariadb */ CREATE TABLE t2 (dt DATE, ts DATETIME, code CHAR(4), note VARCHAR(16), id BIGINT NOT NULL, score DOUBLE, PRIMARY KEY (id));
INSERT INTO t1 (region, code, amt, ts, n) VALUES ('latam', 'a1', -44.50, NULL, 18);
INSERT INTO t2 (dt, ts, code, note, id, score) VALUES ('2024-01-05', '2024-01-02 00:00:00', 'b', 'gmnpy', 26, 17.50), ('2024-01-03', '2024-01-03 06:00:00', '', '7c06', 15, 14.3), (NULL, '2024-01-02 00:59:00', 'a1', '89ln', 33, 16.75), ('2024-01-03', '2024-01-03 23:00:59', 'zzzz', 'l', 38, -12.75), (NULL, NULL, '', 'do4v', 40, -8.25), ('2024-01-03', '2024-01-03 00:30:00', 'zzzz', 'evkyh', 12, -13.25);
INSERT INTO t2 (dt, ts, code, note, id, score) VALUES ('2024-01-03', '2024-01-05 06:59:59', 'zz', 'x1td', 23, 12.25), ('2023-12-31', NULL, 'zzzz', 'mo', 17, NULL);
DELETE FROM t2 WHERE t2.score > 18.00;
INSERT INTO t2 (dt, ts, code, note, id, score) VALUES ('2024-02-29', '2024-01-05 06:30:59', 'zz', NULL, 14, -3.50);
/* lakesql */ CALL sys.compact('t1', 'region=latam');
INSERT INTO t2 (dt, ts, code, note, id, score) VALUES ('2024-01-01', '2024-01-02 06:59:00', '', 'c2t4', 18, -4.25), ('2023-12-31', NULL, 'zzzz', '0f', 30, -11.75) ON DUPLICATE KEY UPDATE dt = COALESCE(dt, VALUES(dt)), ts = COALESCE(ts, VALUES(ts));
REPLACE INTO t2 (dt, ts, code, note, id, score) VALUES (NULL, '2024-01-02 12:59:59', 'a1', NULL, 29, -13.50), ('2024-02-29', '2024-01-05 23:00:59', 'b', 'f', 24, 19.75);
UPDATE t2 SET score = score + 1, note = 'bc4' WHERE t2.id BETWEEN 14 AND 36;
UPDATE t2 SET ts = '2024-01-01 00:00:59', dt = '2023-12-31' WHERE t2.note <> 'meopn';
/* lakesql */ CALL sys.compact('t1', 'region=latam;region=latam', 'minor');
/* check sort=0,2,1 */ SELECT * FROM (SELECT AVG(a2.score) AS c0, AVG(a2.id) AS c1, SUM(SUM(a2.score)) OVER (PARTITION BY a1.note) AS c2 FROM t2 a1 JOIN t2 a2 ON a2.ts = a1.ts WHERE a1.note NOT IN ('ktd', '', 'n7uga') GROUP BY a1.note) AS ordered ORDER BY ROUND(c0, 9), ROUND(c2, 9), c1 DESC LIMIT 6 OFFSET 1;
-- answers at query 0:
-- lakesql:
--   c0 DOUBLE | c1 DECIMAL(scale 4) | c2 DOUBLE
--   1.8583333333333334 | 24.5385 | 22.3
--   1.8583333333333334 | 24.5385 | 22.3
--   1.8583333333333334 | 24.5385 | 22.3
--   (3 rows)
-- lakesql-rewrites-off:
--   c0 DOUBLE | c1 DECIMAL(scale 4) | c2 DOUBLE
--   1.8583333333333334 | 24.5385 | 22.3
--   1.8583333333333334 | 24.5385 | 22.3
--   1.8583333333333343 | 24.5385 | 223.0000000000001
--   (3 rows)
-- mariadb:
--   c0 DOUBLE | c1 DECIMAL(scale 4) | c2 DOUBLE
--   1.8583333333333332 | 24.5385 | 22.299999999999997
--   1.8583333333333332 | 24.5385 | 22.299999999999997
--   1.8583333333333334 | 24.5385 | 223
--   (3 rows)
