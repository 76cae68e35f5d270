package rewrite

// stmtKind is what a statement's first word says it is, as far as the rules
// and their error messages need to know.
type stmtKind uint8

const (
	stmtOther stmtKind = iota
	stmtInsert
	stmtReplace
	stmtUpdate
	stmtDelete
	stmtAlter
	stmtPrepare
	stmtExplain
	stmtSet
)

type statement struct {
	first token
	kind  stmtKind
}

func statementKindOf(first token, src string) stmtKind {
	switch {
	case first.is(src, "INSERT"):
		return stmtInsert
	case first.is(src, "REPLACE"):
		return stmtReplace
	case first.is(src, "UPDATE"):
		return stmtUpdate
	case first.is(src, "DELETE"):
		return stmtDelete
	case first.is(src, "ALTER"):
		return stmtAlter
	case first.is(src, "PREPARE"):
		return stmtPrepare
	case first.is(src, "EXPLAIN") || first.is(src, "DESCRIBE") || first.is(src, "DESC"):
		return stmtExplain
	case first.is(src, "SET"):
		return stmtSet
	}
	return stmtOther
}

// isName reports whether t can be an identifier: a bare word or a `quoted`
// one.
func (t token) isName() bool { return t.kind == tokWord || t.kind == tokIdent }

// qualifiedName is a table reference: name or db.name.
type qualifiedName struct {
	db, name   string
	start, end int
}

// scanQualifiedName reads name or db.name from sc; ok is false, with sc
// unmoved, when the next token is not a name.
func scanQualifiedName(sc *scanner, src string) (qualifiedName, bool) {
	look := *sc
	first := look.next()
	if !first.isName() {
		return qualifiedName{}, false
	}
	qn := qualifiedName{name: unquoteIdent(first, src), start: first.start, end: first.end}
	afterFirst := look
	if dot := look.next(); dot.isPunct(src, '.') {
		if second := look.next(); second.isName() {
			qn.db, qn.name, qn.end = qn.name, unquoteIdent(second, src), second.end
			*sc = look
			return qn, true
		}
	}
	*sc = afterFirst
	return qn, true
}

// describe renders t for an error message.
func describe(t token, src string) string {
	if t.kind == tokEnd || t.kind == tokSemicolon {
		return "the end of the statement"
	}
	return "'" + t.text(src) + "'"
}
