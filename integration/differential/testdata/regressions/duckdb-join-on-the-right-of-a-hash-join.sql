-- lakesql differential case, seed 9 (internal/randsql), found with the
-- vectorized executor on (-tags duckdb_arrow):
--   lakesql vs lakesql-rewrites-off: error: duckexec: Conversion Error:
--   Could not convert string "b" to DECIMAL(9,3) ... ON (r.o2 = r.o1)
-- GMS numbers the ON columns of a join on the right side of a hash join
-- after the hash join's left side; the translation read them as its own.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (n BIGINT, dt DATE, region VARCHAR(8) NOT NULL, id BIGINT NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), ts DATETIME NOT NULL, k INT, PRIMARY KEY (region, id)) PARTITION BY LIST COLUMNS (region) SUBPARTITION BY KEY (id) SUBPARTITIONS 2;
/* mariadb */ CREATE TABLE t1 (n BIGINT, dt DATE, region VARCHAR(8) NOT NULL, id BIGINT NOT NULL, note VARCHAR(16), qty DECIMAL(6,0), ts DATETIME NOT NULL, k INT, PRIMARY KEY (region, id));
/* lakesql */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id)) COMMENT 'paimon:{"write-only":"true"}' PARTITION BY KEY (id) PARTITIONS 2;
/* mariadb */ CREATE TABLE t2 (qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), tag VARCHAR(8), score DOUBLE, id BIGINT NOT NULL, PRIMARY KEY (id));
INSERT INTO t2 (qty, amt, rate, tag, score, id) VALUES (12, 50.50, -3.625, 'b', NULL, 3), (20, 17.75, -9.750, NULL, -9.00, 12), (23, NULL, 2.750, NULL, 0.7, 32), (NULL, 9.25, -6.750, 'a', 8.75, 15);
REPLACE INTO t1 (n, dt, region, id, note, qty, ts, k) VALUES (1, NULL, 'latam', 14, '', 23, '2024-01-04 12:30:59', NULL), (NULL, '2024-02-29', 'us', 11, NULL, -14, '2024-01-01 00:59:59', NULL), (30, '2024-01-05', 'eu', 9, 'lv', -2, '2024-01-03 23:30:00', 4);
/* check */ SELECT AVG(a3.qty) AS c0, GROUP_CONCAT(DISTINCT a2.tag ORDER BY a2.tag SEPARATOR '|') AS c1 FROM t1 a1 LEFT JOIN t2 a2 ON a2.qty = a1.qty JOIN t2 a3 ON a3.score = a2.rate;
/* check */ SELECT COUNT(*) AS c0 FROM t1 a1 LEFT JOIN t2 a2 ON a2.qty = a1.qty JOIN t2 a3 ON a3.score = a2.rate;
