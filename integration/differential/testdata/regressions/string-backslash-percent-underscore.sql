-- lakesql differential case, written by hand
-- found by hand: a string literal lost the backslash of \% and \_ (vitess
-- drops it), so '50\%' was stored as '50%' and LIKE '50\%' matched any
-- value starting with 50, where MySQL keeps both characters and LIKE reads
-- them as a literal % and _; and GMS turned a LIKE whose wildcards are all
-- escaped into an equality with the pattern as written. A bulk INSERT of
-- at least 8 rows takes lakesql's own VALUES scanner, which must agree.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (id INT NOT NULL, v VARCHAR(16), PRIMARY KEY (id));
/* mariadb */ CREATE TABLE t1 (id INT NOT NULL, v VARCHAR(16), PRIMARY KEY (id));
INSERT INTO t1 (id, v) VALUES (1, '50\%'), (2, '50x'), (3, 'a\_b');
INSERT INTO t1 (id, v) VALUES (4, 'a_b'), (5, 'axb'), (6, '50%'), (7, 'c\\%'), (8, 'd\%\_'), (9, '\\'), (10, 'e\q'), (11, '50\%1');
/* check */ SELECT a1.id AS c0, a1.v AS c1, LENGTH(a1.v) AS c2 FROM t1 a1;
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.v LIKE '50\%';
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.v LIKE 'a\_b';
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.v = '50\%';
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.id IN (SELECT a2.id FROM t1 a2 WHERE a2.v LIKE '50\%' OR a2.v LIKE 'd\\\%%');
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.v LIKE 'c\\\\%' OR a1.v LIKE '50\%_' OR a1.v LIKE '\\\\';
/* check */ SELECT '\%' AS c0, '\_' AS c1, 'a50x' LIKE 'a50\%' AS c2, CONCAT('\%', "\_") AS c3;
/* dump */ SELECT a1.id AS c0, a1.v AS c1 FROM t1 a1;
