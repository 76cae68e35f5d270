// Package rewrite adapts query texts to the go-mysql-server (GMS) v0.20.0
// parser before GMS sees them, and turns the AS OF values GMS passes on into
// the snapshot a read pins (ParseAsOf).
//
// Rewrite runs on every query text. Its tokenizer follows the vitess
// tokenizer GMS uses wherever that matters for safety: string literals
// ('…' and "…", with backslash escapes and doubled quotes), `quoted`
// identifiers, and comments ("-- " and "--", "#", "//", "/* */"). Nothing
// inside a string, a quoted identifier or a comment is read as SQL, so none
// of it is rewritten or refused; only a comment lying inside a clause that
// is rewritten (FOR /* c */ TIMESTAMP AS OF, INSERT OVERWRITE … PARTITION
// (…)) goes away with the clause. The body of a MySQL /*! … */ comment is
// treated as SQL, because vitess parses it as SQL. Keywords match only bare words, case-insensitively. Each
// statement of a multi-statement text (a; b) is handled on its own. A text
// that needs nothing is returned as it is, without allocating.
//
// What each rewrite fixes, with the section of
// /work/shared/docs/go-mysql-server.md that records the GMS behaviour:
//
//   - Time travel (§3). The parser accepts AS OF, FOR SYSTEM_TIME AS OF and
//     FOR VERSION AS OF and rejects the other dialects' spellings with a
//     syntax error. FOR TIMESTAMP AS OF (StarRocks, Trino), FOR TIME AS OF
//     (Doris) and TIMESTAMP AS OF (Spark) become FOR SYSTEM_TIME AS OF, and
//     VERSION AS OF (Spark) becomes FOR VERSION AS OF. GMS passes only the
//     value on, so where the spelling contradicts a literal value the
//     statement is refused instead of reading the wrong snapshot: a whole
//     number after a timestamp spelling (it would be read as a snapshot id)
//     and a datetime string after a VERSION spelling (it would be read as a
//     time, not a tag).
//
//   - AS OF with a bind parameter (§0 item 6, §8 item 3). AS OF ? (with any
//     spelling, also inside PREPARE … FROM '…', and the :name form) makes
//     GMS dereference a nil expression: in process the server crashes, over
//     the wire the client loses its connection. It is refused with
//     "AS OF with a bind parameter is not supported; inline the snapshot
//     id, tag or timestamp". Supporting it would need GMS to evaluate the
//     AS OF expression after binding, which v0.20.0 does at plan time
//     (fixed upstream later, GMS PR #3730); a text rewrite cannot supply a
//     value that arrives only with COM_STMT_EXECUTE.
//
//   - INSERT OVERWRITE (§4.3). Every form is a syntax error in GMS. Rewrite
//     recognises the Hive/Spark/Flink statement, reports it as
//     Result.Overwrite and hands GMS the equivalent INSERT INTO without the
//     PARTITION clause, which the backend runs as an overwrite commit. It
//     must be the only statement of its text.
//
//   - Partition selection and management (§0 item 8, §4.3, §8 item 5). GMS
//     parses SELECT/DELETE/UPDATE/INSERT … t PARTITION (p…) and ignores the
//     list, so such a DELETE deletes from every partition; it accepts ALTER
//     TABLE … DROP/EXCHANGE/TRUNCATE … PARTITION and does nothing. These
//     are refused with an error naming what to use instead: WHERE on the
//     partition columns, DELETE … WHERE, or INSERT OVERWRITE.
//
//   - Typed date and time literals. The grammar drops the keyword of DATE
//     '…', TIME '…' and TIMESTAMP '…' and keeps a string, so GMS typed them
//     as text. They become CAST('…' AS DATE), CAST('…' AS TIME) and
//     CAST('…' AS DATETIME(fsp)), their MySQL types, which GMS folds into
//     typed constants (filters on them still prune). An unaliased select
//     item is then named by the CAST. Not rewritten: the value of AS OF,
//     a DEFAULT, and a name after '.'.
//
// Errors are *Error values whose message is meant for the SQL user and
// whose class (lakeerr.ErrUnsupported, ErrSyntax, ErrInvalidAsOf) the
// backend maps to a MySQL error code.
//
// Known limits: double quotes are always string quotes (sql_mode
// ANSI_QUOTES is not followed); PREPARE … FROM @variable is not checked;
// a table alias written before the time-travel clause (t x FOR … AS OF …)
// stays a GMS syntax error, as in GMS the alias must follow the clause; and
// since GMS passes only the AS OF value, a tag whose name reads as a whole
// number or a date (Paimon's daily auto-tags are named like 2026-04-16)
// cannot be selected with AS OF.
package rewrite
