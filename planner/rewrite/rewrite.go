package rewrite

import "strings"

// Result is a query text ready for the go-mysql-server parser.
type Result struct {
	// Query is the text to parse. It is the input itself, byte for byte,
	// when no rewrite applied.
	Query string
	// Overwrite is set when the text is one INSERT OVERWRITE statement,
	// which Query now spells as a plain INSERT INTO; the backend runs that
	// INSERT as an overwrite commit.
	Overwrite *Overwrite
}

// Rewrite prepares one query text (possibly several statements separated by
// ';') for the go-mysql-server v0.20.0 parser; the package documentation
// lists the rewrites and rejections. On error the Result is empty and the
// error is an *Error.
func Rewrite(query string) (Result, error) {
	return RewriteAs(query, "")
}

// RewriteAs is Rewrite for a session of account ('user'@'host', quoted),
// whose SET PASSWORD without FOR changes that account's password.
func RewriteAs(query, account string) (Result, error) {
	rw := rewriter{src: query, asOfValue: -1, account: account}
	if err := rw.run(); err != nil {
		return Result{}, err
	}
	if rw.overwrite != nil && rw.statements > 1 {
		return Result{}, unsupported("INSERT OVERWRITE must be sent as a statement of its own, not as part of a multi-statement text")
	}
	if len(rw.edits) == 0 {
		return Result{Query: query, Overwrite: rw.overwrite}, nil
	}
	return Result{Query: rw.apply(0, len(query)), Overwrite: rw.overwrite}, nil
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// rewriter scans a text statement by statement and collects the edits and
// the INSERT OVERWRITE found. Edits are appended in text order, so they
// never overlap.
type rewriter struct {
	src        string
	edits      []edit
	overwrite  *Overwrite
	statements int
	// asOfValue is the offset of the value of the last AS OF clause read,
	// which typedLiteral leaves alone.
	asOfValue int
	// account is the session's own account, for SET PASSWORD without FOR.
	account string
}

func (rw *rewriter) replace(start, end int, text string) {
	rw.edits = append(rw.edits, edit{start: start, end: end, text: text})
}

// apply returns src[from:to] with the edits inside that range applied.
func (rw *rewriter) apply(from, to int) string {
	var b strings.Builder
	b.Grow(to - from + 16)
	at := from
	for _, e := range rw.edits {
		if e.start < from || e.end > to {
			continue
		}
		b.WriteString(rw.src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(rw.src[at:to])
	return b.String()
}

func (rw *rewriter) run() error {
	sc := newScanner(rw.src)
	for {
		first := sc.next()
		switch first.kind {
		case tokEnd:
			return nil
		case tokSemicolon:
			continue
		}
		rw.statements++
		if err := rw.statement(&sc, first); err != nil {
			return err
		}
	}
}

// statement handles one statement whose first token is first, and leaves
// sc after its terminating ';' (or at the end).
func (rw *rewriter) statement(sc *scanner, first token) error {
	st := statement{first: first, kind: statementKindOf(first, rw.src)}
	var ow *Overwrite
	var sourceStart int
	switch st.kind {
	case stmtInsert:
		var err error
		if ow, sourceStart, err = rw.insertOverwrite(sc); err != nil {
			return err
		}
	case stmtPrepare:
		if err := rw.prepare(sc); err != nil {
			return err
		}
	case stmtExplain:
		rw.explainPlan(sc)
	case stmtSet:
		if _, err := rw.setPassword(sc, first); err != nil {
			return err
		}
	}
	lastEnd, err := rw.body(sc, st)
	if err != nil {
		return err
	}
	if ow != nil {
		ow.Source = rw.apply(sourceStart, lastEnd)
		rw.overwrite = ow
	}
	return nil
}

// body scans the rest of a statement, applying the time-travel and
// partition rules, and returns the end of its last token.
func (rw *rewriter) body(sc *scanner, st statement) (lastEnd int, err error) {
	var before token
	prev := st.first
	lastEnd = prev.end
	for {
		t := sc.next()
		if t.kind == tokEnd || t.kind == tokSemicolon {
			return lastEnd, nil
		}
		switch t.kind {
		case tokWord:
			if err := rw.word(sc, st, before, prev, t); err != nil {
				return 0, err
			}
		case tokString:
			rw.keepPatternEscapes(t)
		}
		// sc.pos is the end of the last token read, which is past t when a
		// rule consumed a whole clause.
		before, prev, lastEnd = prev, t, sc.pos
	}
}

// word applies the rules that start at the bare word t; before and prev are
// the two tokens before it.
func (rw *rewriter) word(sc *scanner, st statement, before, prev, t token) error {
	switch {
	case t.is(rw.src, "TIMESTAMP"):
		at := sc.pos
		if err := rw.timeTravel(sc, t); err != nil || sc.pos != at {
			return err
		}
		rw.typedLiteral(sc, prev, t)
	case t.is(rw.src, "DATE") || t.is(rw.src, "TIME"):
		rw.typedLiteral(sc, prev, t)
	case t.is(rw.src, "FOR") || t.is(rw.src, "AS") || t.is(rw.src, "VERSION"):
		return rw.timeTravel(sc, t)
	case t.is(rw.src, "PARTITION") || t.is(rw.src, "PARTITIONING"):
		return rw.partition(sc, st, before, prev, t)
	}
	return nil
}
