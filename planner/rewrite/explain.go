package rewrite

// IsExplain reports whether a statement text is an EXPLAIN or DESCRIBE (DESC)
// statement: its first word, after blanks and comments, is one of those.
// The engine needs to know because GMS analyzes only the explained query,
// and flags that describe that query's result must not be applied to the
// plan text EXPLAIN returns.
func IsExplain(query string) bool {
	sc := newScanner(query)
	first := sc.next()
	return first.is(query, "EXPLAIN") || first.is(query, "DESCRIBE") || first.is(query, "DESC")
}
