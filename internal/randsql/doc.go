// Package randsql is lakesql's randomized differential tester: from a
// seed it draws tables, data changes and queries, runs them on lakesql
// with its planner rewrites on, on the same database with them off (plain
// go-mysql-server plans over full scans), and on MariaDB, compares the
// answers by MySQL 8.0's rules, and shrinks every disagreement into a
// self-contained SQL script. integration/differential is the test that
// drives it.
//
// # Pipeline
//
//   - Generate draws a Case from a seed (math/rand/v2's PCG, nothing else):
//     2 to 4 tables (Table: primary-key or append, partitioned by LIST
//     COLUMNS, bucketed by KEY, Paimon options in the comment; DECIMAL,
//     DATE, DATETIME, VARCHAR, DOUBLE, BIGINT and INT columns with NULLs),
//     an initial load, 6 to 14 INSERTs, REPLACEs, INSERT … ON DUPLICATE
//     KEY UPDATEs, UPDATEs and DELETEs with compactions in between
//     (lakesql only), and 20 to 50 queries (Query, an AST that knows each
//     expression's MySQL type).
//   - Case.Program lowers it to SQL per engine: MariaDB gets the same
//     columns and primary key without partitioning. Engines.Run executes
//     a program in a fresh database: each write on both engines (their
//     errors and affected-row counts must agree), a full ordered dump of
//     every table (must agree before any query runs), then each query on
//     all three sessions.
//   - The comparator checks column count, column types by class
//     (integer, DECIMAL, DOUBLE, text, DATE, DATETIME; exactly between
//     lakesql's two modes), and rows: as multisets without ORDER BY; with
//     it, the sequence of sort-key values and each tie group as a
//     multiset. DECIMALs compare as text (the scale is part of the
//     answer), DOUBLEs within a relative 1e-9.
//   - Minimizer shrinks a finding's case while its Signature stays: the
//     query first (on the data set up once), then tables, statements and
//     rows, then the query again; Script prints the result with every
//     session's answers, and ParseScript reads it back for replay.
//
// # MariaDB and MySQL 8.0
//
// MySQL 8.0's documented behaviour is the reference; MariaDB 10.11 stands
// in for it. Where the two differ the generator avoids the difference or
// the comparator normalizes it:
//
//   - Collation. MySQL 8.0's default utf8mb4_0900_ai_ci compares case- and
//     accent-insensitively and NO PAD
//     (https://dev.mysql.com/doc/refman/8.0/en/charset-unicode-sets.html);
//     .ci/mariadb runs utf8mb4_bin, which pads, and go-mysql-server
//     compares bytes. Avoided: strings are lowercase ASCII letters, digits
//     and '-' in fixed formats, without trailing spaces, where all three
//     orders and equalities coincide (values.go).
//   - Integer result types. The manual fixes integer results as 64-bit
//     integers, not the width and signedness a driver reports
//     (https://dev.mysql.com/doc/refman/8.0/en/arithmetic-functions.html);
//     MariaDB reports RANK() as BIGINT, go-mysql-server as UNSIGNED
//     BIGINT. Normalized: integer types compare as one class, their values
//     exactly.
//   - DOUBLE text. MySQL and MariaDB print the same DOUBLE with different
//     digits, and the last digits of a sum depend on the order of
//     addition (https://dev.mysql.com/doc/refman/8.0/en/problems-with-float.html).
//     Normalized: DOUBLEs compare numerically within a relative 1e-9; the
//     data are mostly multiples of 1/4, whose sums are exact. Avoided: a
//     query ordered by a computed DOUBLE orders by ROUND(c, 9), as a
//     derived table, so that such digits neither reorder rows nor move
//     a LIMIT's window (differential seed 39).
//   - DECIMAL precision. The reported precision of a DECIMAL expression
//     differs (amt*2 is DECIMAL(13,2) in MariaDB); the manual fixes the
//     scale (https://dev.mysql.com/doc/refman/8.0/en/precision-math-expressions.html).
//     Normalized: the precision is not compared; the scale is, through the
//     value's text.
//   - GROUP_CONCAT length. MySQL 8.0 cuts the result at group_concat_max_len,
//     1,024 bytes by default, MariaDB 10.11 at 1 MB
//     (https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_group_concat_max_len).
//     Normalized: the MariaDB session sets 1,024.
//   - GROUP BY order. MariaDB sorts grouped results, MySQL 8.0 does not
//     (https://dev.mysql.com/doc/refman/8.0/en/order-by-optimization.html).
//     Normalized: without ORDER BY rows compare as multisets.
//   - ONLY_FULL_GROUP_BY. MySQL 8.0 accepts columns functionally dependent
//     on the GROUP BY columns, MariaDB does not
//     (https://dev.mysql.com/doc/refman/8.0/en/group-by-functional-dependence.html).
//     Avoided: grouped blocks select only GROUP BY expressions and
//     aggregates.
//   - HAVING on a grouping column. MySQL resolves a qualified column of
//     HAVING against the GROUP BY columns
//     (https://dev.mysql.com/doc/refman/8.0/en/group-by-handling.html);
//     MariaDB 10.11 matches by name alone and refuses `GROUP BY a1.k,
//     a2.k HAVING a1.k IS NULL` with 1463. Avoided: HAVING uses a grouping
//     column only when no other one has its name.
//   - Grouped blocks with window functions. MariaDB 10.11 returns no rows
//     for `SELECT COUNT(DISTINCT x), SUM(SUM(y)) OVER (…) … GROUP BY g
//     HAVING …` where MySQL returns the groups HAVING keeps (the same with
//     `GROUP_CONCAT(a, b ORDER BY a, b)` in place of COUNT(DISTINCT x):
//     one row without the window function, none with it), and ignores
//     `ORDER BY c0 DESC` of `SELECT k AS c0, ROW_NUMBER() OVER (ORDER BY
//     k) … GROUP BY k` over two rows; MySQL applies ORDER BY to the
//     window functions' result
//     (https://dev.mysql.com/doc/refman/8.0/en/window-functions-usage.html).
//     MariaDB also ranks a group whose AVG of a DECIMAL or integer is
//     NULL as a peer of the first group in `RANK() OVER (ORDER BY AVG(x)
//     DESC)`, where MySQL sorts NULL after every value in descending order
//     (https://dev.mysql.com/doc/refman/8.0/en/sorting-rows.html).
//     Avoided: such a block has no DISTINCT aggregates and no GROUP_CONCAT
//     when it has HAVING, is ordered and limited as a derived table, SELECT * FROM
//     (…) AS ordered ORDER BY …, and its windows order by no AVG of an
//     exact type (gen_query.go).
//   - VALUES() in ON DUPLICATE KEY UPDATE. MySQL 8.0.20 deprecates it for
//     row aliases, which MariaDB lacks
//     (https://dev.mysql.com/doc/refman/8.0/en/insert-on-duplicate.html).
//     Avoided: only VALUES(), which both accept.
//
// Queries are deterministic under MySQL's rules: LIMIT only under an
// ORDER BY of every output column; ROW_NUMBER only over an order unique
// per row; no DISTINCT window aggregates (MySQL refuses them,
// https://dev.mysql.com/doc/refman/8.0/en/window-function-descriptions.html);
// scalar subqueries are aggregates without GROUP BY (one row); divisions
// only by non-zero literals; comparisons only between numbers, between
// strings, or between dates and datetimes.
//
// # Documented lakesql limitations the generator avoids
//
//   - README, Writes: "On a primary-key table INSERT of an existing key
//     replaces the row (Paimon's upsert)" where MySQL fails: a plain INSERT
//     only writes ids never written to the table (gen_write.go); REPLACE
//     and ON DUPLICATE KEY UPDATE, which lakesql implements as MySQL does,
//     hit existing keys on purpose.
//   - REPLACE and ON DUPLICATE KEY UPDATE only write primary-key tables:
//     an append table has no key they could hit. UPDATE and DELETE write
//     both kinds, half of the append tables with deletion vectors.
//   - README, Not supported yet: "AVG(…) OVER (…) of a DECIMAL is a
//     DOUBLE": normalized (Plan.AvgDecimal: such a column may be a DOUBLE
//     equal within the DECIMAL's last place); window functions appear only
//     as output columns.
//   - README, Not supported yet: secondary indexes and CHECK constraints
//     are refused: the DDL has none.
//   - README, Not supported yet: "a transaction may write one table": every
//     statement runs in autocommit.
package randsql
