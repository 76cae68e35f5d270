-- lakesql differential case, written by hand
-- found by hand: a CHAR column returned the trailing spaces it was given
-- ('x   ' for 'x   ', LENGTH 4) and compared with them ('x   ' = 'x' was
-- false), where MySQL strips a CHAR's trailing spaces on retrieval.
--
-- Run in an empty database (CREATE DATABASE rq; USE rq;). Lines tagged
-- /* lakesql */ run on lakesql only, /* mariadb */ on MariaDB only, the
-- others on both. Each /* check */ and /* dump */ statement's answers
-- must agree: on lakesql with its planner rewrites on and off (SET
-- lakesql_planner_rewrites = OFF) and on MariaDB, by MySQL 8.0's rules
-- (sort=: the ORDER BY output columns; avg=: AVG of a DECIMAL columns).
/* lakesql */ CREATE TABLE t1 (code CHAR(4) NOT NULL, id INT NOT NULL, note VARCHAR(8), PRIMARY KEY (code, id));
/* mariadb */ CREATE TABLE t1 (code CHAR(4) NOT NULL, id INT NOT NULL, note VARCHAR(8), PRIMARY KEY (code, id));
/* lakesql */ CREATE TABLE t2 (v VARCHAR(8) NOT NULL, k INT NOT NULL, PRIMARY KEY (k));
/* mariadb */ CREATE TABLE t2 (v VARCHAR(8) NOT NULL, k INT NOT NULL, PRIMARY KEY (k));
INSERT INTO t1 (code, id, note) VALUES ('x   ', 1, 'a'), ('x', 2, 'b'), (' y  ', 3, 'c'), ('ab', 4, 'd'), ('', 5, 'e');
INSERT INTO t2 (v, k) VALUES ('x', 1), ('ab', 2), (' y', 3);
/* check */ SELECT CONCAT('[', a1.code, ']') AS c0, LENGTH(a1.code) AS c1, CHAR_LENGTH(a1.code) AS c2, a1.id AS c3 FROM t1 a1;
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.code = 'x';
/* check */ SELECT a1.note AS c0 FROM t1 a1 WHERE a1.code = 'x' AND a1.id = 1;
/* check */ SELECT a1.id AS c0 FROM t1 a1 WHERE a1.code LIKE '%x' OR a1.code > 'x' OR a1.code = '';
/* check */ SELECT a1.code AS c0, COUNT(*) AS c1 FROM t1 a1 GROUP BY a1.code;
/* check */ SELECT DISTINCT CONCAT(a1.code, '|') AS c0 FROM t1 a1;
/* check */ SELECT a1.id AS c0, a2.k AS c1 FROM t1 a1 JOIN t2 a2 ON a1.code = a2.v;
/* check */ SELECT a2.k AS c0 FROM t2 a2 WHERE a2.v NOT IN (SELECT a1.code FROM t1 a1);
/* dump */ SELECT CONCAT('[', a1.code, ']') AS c0, a1.id AS c1 FROM t1 a1;
