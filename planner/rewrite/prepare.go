package rewrite

import (
	"errors"
	"strings"
)

// prepare applies the rules to the statement text of
// PREPARE name FROM '<text>', which the outer scan sees only as a string:
// PREPARE … FROM 'SELECT * FROM t AS OF ?' is exactly the case that panics
// go-mysql-server v0.20.0 (go-mysql-server.md §3). A rewritten text is put
// back as a new literal. PREPARE name FROM @variable cannot be checked here.
func (rw *rewriter) prepare(sc *scanner) error {
	look := *sc
	name := look.next()
	if !name.isName() || !look.next().is(rw.src, "FROM") {
		return nil
	}
	first := look.next()
	if first.kind != tokString {
		return nil
	}
	text, last := rw.adjacentStrings(&look, first)
	inner := rewriter{src: text, asOfValue: -1}
	if err := inner.run(); err != nil {
		return inPrepare(name.text(rw.src), err)
	}
	if inner.overwrite != nil {
		return unsupported("PREPARE %s: INSERT OVERWRITE cannot be prepared; send it as a query of its own", name.text(rw.src))
	}
	if len(inner.edits) > 0 {
		rw.replace(first.start, last.end, quoteString(inner.apply(0, len(text))))
	}
	*sc = look
	return nil
}

// adjacentStrings joins the string literal first with the ones directly
// after it, as vitess does ('SELECT ' 'AS OF 1'), and returns the joined
// value and the last literal.
func (rw *rewriter) adjacentStrings(look *scanner, first token) (string, token) {
	value := unquoteString(first.text(rw.src))
	last := first
	for {
		ahead := *look
		t := ahead.next()
		if t.kind != tokString {
			return value, last
		}
		value += unquoteString(t.text(rw.src))
		last, *look = t, ahead
	}
}

// inPrepare prefixes the message of an error found in a prepared text.
func inPrepare(name string, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	return &Error{Class: e.Class, Msg: "PREPARE " + strings.TrimSpace(name) + ": " + e.Msg}
}
