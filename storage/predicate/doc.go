// Package predicate is the filter type storage owns: the SQL layer translates
// its WHERE conjuncts into it, and the scan planner prunes manifests,
// partitions, buckets and files with it. It mirrors the role of Paimon's
// org.apache.paimon.predicate package and imports nothing from SQL.
//
// # Semantics
//
// A predicate is exact under SQL's three-valued logic: Eval returns TRUE,
// FALSE or UNKNOWN for a row, and a row passes a filter only when it is TRUE.
// Not is pushed down to the leaves when a predicate is built (De Morgan, and
// every leaf operator has an exact negation: = and <>, < and >=, IN and
// NOT IN, IS NULL and IS NOT NULL, ...), so trees never hold a NOT node and
// Not(p) evaluates to exactly NOT p, UNKNOWN included.
//
// Test answers whether data described by min/max/null-count statistics
// might hold a row for which the predicate is TRUE. Might is always a safe
// answer; Cannot is returned only when it is proven from the statistics, read
// as bounds: the real minimum is >= Min and the real maximum is <= Max. That
// reading keeps Paimon's truncated string statistics (truncate(16): a
// prefix as min, a rounded-up prefix as max) correct without special cases.
//
// # Ordering
//
// Values compare as spec.CompareValues orders them (Paimon's order: strings
// and bytes by unsigned bytes, i.e. a binary, NO PAD collation such as
// utf8mb4_0900_bin), with one deliberate difference: FLOAT and DOUBLE treat
// -0.0 and 0.0 as equal, as SQL does, and Parquet statistics may carry
// either zero as the bound for both. NaN stays above +Inf and equal to itself
// (Java's Double.compare), which keeps negation exact. Statistics are not
// trusted about NaN: writers that follow the Parquet spec leave NaN out of
// min/max, so on float columns the operators that NaN satisfies (>, >=, <>,
// NOT IN, NOT BETWEEN) never prune on bounds, and a NaN bound means unknown.
//
// Comparisons on strings are byte-wise and case-sensitive. The SQL layer
// must not translate comparisons made under another collation.
//
// # Literals
//
// Leaf converts Go literals, as a SQL layer hands them over, to the column
// type with the casts MySQL users expect, and never approximates: a literal
// that falls between two column values is rewritten to the exact equivalent
// over column values.
//
//   - Numbers against TINYINT..BIGINT, DECIMAL(p,s) and BOOLEAN compare by
//     exact value. Integers, decimal strings ('5', '1.50', '1e3'),
//     spec.DecimalValue, *big.Rat, values with a Rat() *big.Rat method
//     (shopspring/decimal, go-mysql-server's DECIMAL literal) and bool
//     (TRUE = 1) are exact; a float64 is taken as the shortest decimal that
//     prints it (0.1 is 1/10). So on an
//     INT column x = 1.5 and x = 300 (on TINYINT) become x IN (), which is
//     never TRUE and is UNKNOWN for a NULL x; x < 1.5 becomes x <= 1,
//     x < 300 becomes x <= 127, x >= 1.5 becomes x > 1.
//   - Against FLOAT and DOUBLE the literal is rounded to a double, as MySQL
//     compares them; on a FLOAT column a double that is not a float32 value
//     (0.1) equals nothing, and ranges move to the neighbouring float32.
//   - DATE, TIMESTAMP(p) and TIME accept 'YYYY-MM-DD', 'YYYY-MM-DD
//     hh:mm:ss[.fraction]' (or with a T), 'hh:mm[:ss[.fraction]]',
//     time.Time (its wall clock) and the spec value types. Mixed forms compare
//     as DATETIME, as MySQL does: DATE d = '2026-04-16 10:00:00' is never
//     TRUE and d < '2026-04-16 10:00:00' is d <= DATE '2026-04-16'. A
//     fraction finer than the column precision is not rounded.
//   - TIMESTAMP WITH LOCAL TIME ZONE accepts only instants (time.Time,
//     spec.TimestampValue): a string's time zone is the session's, which
//     storage does not know.
//   - CHAR/VARCHAR accept strings and []byte; BINARY/VARBINARY accept []byte
//     and strings.
//   - A nil literal is SQL NULL: x = NULL is UNKNOWN, x IN (1, NULL) is TRUE
//     for 1 and UNKNOWN otherwise, x NOT IN (1, NULL) is never TRUE.
//
// Everything else fails with an error wrapping ErrLiteral instead of
// guessing: 'abc' or 5 against a DATE, 5 against a VARCHAR (MySQL would
// compare as DOUBLE), '5abc' against an INT (MySQL would read 5 with a
// warning). The SQL layer may report the error or keep the conjunct as a
// residual filter that it evaluates itself; both are correct, and pruning
// with what is left stays safe.
package predicate
