package rewrite

// IsExplain reports whether a statement text is an EXPLAIN or DESCRIBE (DESC)
// statement: its first word, after blanks and comments, is one of those.
// The engine needs to know because GMS analyzes only the explained query,
// and flags that describe that query's result must not be applied to the
// plan text EXPLAIN returns.
func IsExplain(query string) bool {
	sc := newScanner(query)
	return statementKindOf(sc.next(), query) == stmtExplain
}

// explainPlan makes a plain EXPLAIN of a statement an EXPLAIN PLAN. GMS
// v0.20.0 answers plain EXPLAIN with a fixed placeholder row (every column
// the text "NULL", which drivers fail to scan into the numeric columns)
// and a warning; EXPLAIN PLAN prints the real plan, with the snapshot and
// the files a scan keeps. EXPLAIN FORMAT=…, EXPLAIN PLAN, EXPLAIN ANALYZE
// and DESCRIBE of a table are left alone. sc is after the EXPLAIN word.
func (rw *rewriter) explainPlan(sc *scanner) {
	look := *sc
	next := look.next()
	for _, kw := range []string{"SELECT", "WITH", "INSERT", "REPLACE", "UPDATE", "DELETE", "TABLE", "VALUES"} {
		if next.is(rw.src, kw) {
			rw.replace(next.start, next.start, "PLAN ")
			return
		}
	}
	if next.isPunct(rw.src, '(') {
		rw.replace(next.start, next.start, "PLAN ")
	}
}

// IsExplainAnalyze reports whether a statement text is an EXPLAIN ANALYZE,
// which runs the query it explains.
func IsExplainAnalyze(query string) bool {
	sc := newScanner(query)
	if statementKindOf(sc.next(), query) != stmtExplain {
		return false
	}
	return sc.next().is(query, "ANALYZE")
}
