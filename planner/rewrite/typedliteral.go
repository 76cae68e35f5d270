package rewrite

import "strings"

// typedLiteral rewrites the standard SQL typed literal starting at the word
// t, DATE 'str', TIME 'str' or TIMESTAMP 'str', into the CAST that has its
// MySQL type: DATE, TIME, and DATETIME with as many fractional digits as
// the string has (https://dev.mysql.com/doc/refman/8.0/en/date-and-time-literals.html).
// The vitess grammar go-mysql-server v0.20.0 uses drops the keyword
// (sql.y, rule value: DATE STRING is NewStrVal), so the literal would be
// typed as text: a union of it with a DATE column became text, and
// comparisons and functions saw a string.
//
// prev is the token before t. After '.' the word is a column name (t.date
// 'alias'); after DEFAULT it starts a column default, where MySQL wants an
// expression in parentheses; and the value of AS OF is read by lakesql
// itself (ParseAsOf), offsets included: those stay as they are.
func (rw *rewriter) typedLiteral(sc *scanner, prev, t token) {
	if prev.isPunct(rw.src, '.') || prev.is(rw.src, "DEFAULT") || t.start == rw.asOfValue {
		return
	}
	look := *sc
	lit := look.next()
	if lit.kind != tokString {
		return
	}
	var target string
	switch {
	case t.is(rw.src, "DATE"):
		target = "DATE"
	case t.is(rw.src, "TIME"):
		target = "TIME"
	default:
		target = "DATETIME" + fractionDigits(unquoteString(lit.text(rw.src)))
	}
	rw.replace(t.start, lit.end, "CAST("+lit.text(rw.src)+" AS "+target+")")
	*sc = look
}

// fractionDigits is "(n)" for a datetime string with n fractional second
// digits (at most 6, MySQL's limit), or "" without any.
func fractionDigits(s string) string {
	s = strings.TrimSpace(s)
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 || !strings.ContainsRune(s[:dot], ':') {
		return ""
	}
	n := 0
	for n < len(s)-dot-1 && isDigit(s[dot+1+n]) {
		n++
	}
	if n == 0 {
		return ""
	}
	return "(" + string(rune('0'+min(n, 6))) + ")"
}
