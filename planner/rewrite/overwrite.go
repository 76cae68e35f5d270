package rewrite

import "strings"

// Overwrite describes an INSERT OVERWRITE statement (Hive, Spark and Flink
// syntax), which the go-mysql-server v0.20.0 parser rejects
// (go-mysql-server.md §4.3):
//
//	INSERT OVERWRITE [INTO] [TABLE] t [PARTITION (k = 'v', k2 = 2, dyn, …)] [(c1, c2, …)]
//	  {VALUES … | SELECT … | WITH … | (SELECT …)}
//
// Result.Query spells the statement as INSERT INTO t [(c1, c2, …)] <source>,
// without the PARTITION clause; the backend runs that INSERT as one commit
// that replaces what the overwrite covers.
type Overwrite struct {
	// Database is the qualifier of the table name, or "" when the name has
	// none. Database and Table are unquoted.
	Database string
	Table    string
	// StaticPartition holds the PARTITION columns given a value, in the
	// order written. Their values come from the PARTITION clause, not from
	// the inserted rows, and are typed by the backend against the schema.
	StaticPartition []KV
	// Dynamic is true when the PARTITION clause names a column without a
	// value (PARTITION (dt = '…', hr)): Hive's dynamic partition, whose
	// value each row carries.
	Dynamic bool
	// Columns is the column list as written (unquoted), nil when there is
	// none. It may leave out the static partition columns; adding them is
	// the backend's job, since only it knows the schema.
	Columns []string
	// Source is the VALUES or query part of the rewritten statement, so the
	// backend can build its own INSERT around it.
	Source string
}

// KV is one static partition column and its literal value: the unquoted
// content of a string literal, or a number as written (with its sign).
type KV struct {
	Column string
	Value  string
}

// insertOverwrite reads the head of an INSERT statement whose INSERT was
// just read. For INSERT OVERWRITE it records the rewrite to INSERT INTO,
// leaves sc before the first token of the source and returns where the
// source starts; for any other INSERT it returns nil and leaves sc alone.
func (rw *rewriter) insertOverwrite(sc *scanner) (*Overwrite, int, error) {
	look := *sc
	overwrite := look.next()
	if !overwrite.is(rw.src, "OVERWRITE") {
		return nil, 0, nil
	}
	p := overwriteParser{text: rw.src, sc: look, ow: &Overwrite{}}
	sourceStart, err := p.parse(overwrite)
	if err != nil {
		return nil, 0, err
	}
	for _, e := range p.edits {
		if e.end > 0 {
			rw.replace(e.start, e.end, e.text)
		}
	}
	*sc = p.sc
	return p.ow, sourceStart, nil
}

// overwriteParser reads the head of an INSERT OVERWRITE. It holds no
// pointer to the rewriter, so that escape analysis keeps the rewriter of a
// text without INSERT OVERWRITE on the stack.
type overwriteParser struct {
	text string
	sc   scanner
	ow   *Overwrite
	// dynamicColumns are the PARTITION columns given without a value.
	dynamicColumns []string
	// edits turn OVERWRITE [INTO] [TABLE] into INTO and drop the
	// PARTITION clause; an edit with end 0 is unused.
	edits [2]edit
}

func (p *overwriteParser) src() string { return p.text }

// peek returns the next token without consuming it.
func (p *overwriteParser) peek() token {
	look := p.sc
	return look.next()
}

func (p *overwriteParser) parse(overwrite token) (sourceStart int, err error) {
	p.skipWord("INTO")
	p.skipWord("TABLE")
	table, err := p.table()
	if err != nil {
		return 0, err
	}
	p.edits[0] = edit{start: overwrite.start, end: table.start, text: "INTO "}
	if p.peek().is(p.src(), "PARTITION") {
		if err := p.partitionClause(); err != nil {
			return 0, err
		}
	}
	if p.peek().is(p.src(), "IF") {
		return 0, unsupported("INSERT OVERWRITE … IF NOT EXISTS is not supported; check the partition first with SELECT")
	}
	return p.source()
}

func (p *overwriteParser) skipWord(kw string) {
	look := p.sc
	if look.next().is(p.src(), kw) {
		p.sc = look
	}
}

// sourceWords begin the VALUES or query part, so they cannot be a table
// name here.
var sourceWords = []string{"VALUES", "VALUE", "SELECT", "WITH", "PARTITION", "SET", "IF", "INTO", "TABLE"}

func (p *overwriteParser) table() (qualifiedName, error) {
	next := p.peek()
	for _, w := range sourceWords {
		if next.is(p.src(), w) {
			return qualifiedName{}, syntaxError("INSERT OVERWRITE: expected a table name, found %s", describe(next, p.src()))
		}
	}
	qn, ok := scanQualifiedName(&p.sc, p.src())
	if !ok {
		return qualifiedName{}, syntaxError("INSERT OVERWRITE: expected a table name, found %s", describe(next, p.src()))
	}
	p.ow.Database, p.ow.Table = qn.db, qn.name
	return qn, nil
}

// partitionClause reads PARTITION (…) and removes it from the query.
func (p *overwriteParser) partitionClause() error {
	partition := p.sc.next()
	if open := p.sc.next(); !open.isPunct(p.src(), '(') {
		return syntaxError("INSERT OVERWRITE %s PARTITION: expected '(', found %s", p.ow.Table, describe(open, p.src()))
	}
	for {
		if err := p.partitionColumn(); err != nil {
			return err
		}
		sep := p.sc.next()
		if sep.isPunct(p.src(), ')') {
			p.edits[1] = p.removal(partition.start, sep.end)
			return nil
		}
		if !sep.isPunct(p.src(), ',') {
			return syntaxError("INSERT OVERWRITE %s PARTITION (…): expected ',' or ')', found %s", p.ow.Table, describe(sep, p.src()))
		}
	}
}

// removal deletes src[start:end] and the blanks after it, keeping a blank
// where the next word would otherwise run into the previous token.
func (p *overwriteParser) removal(start, end int) edit {
	src := p.src()
	blankEnd := end
	for blankEnd < len(src) && isBlank(src[blankEnd]) {
		blankEnd++
	}
	if blankEnd == end && end < len(src) && isWordByte(src[end]) {
		return edit{start: start, end: end, text: " "}
	}
	return edit{start: start, end: blankEnd}
}

// partitionColumn reads one "column = literal" or a bare dynamic "column".
func (p *overwriteParser) partitionColumn() error {
	col := p.sc.next()
	if !col.isName() {
		return syntaxError("INSERT OVERWRITE %s PARTITION (…): expected a partition column name, found %s", p.ow.Table, describe(col, p.src()))
	}
	name := unquoteIdent(col, p.src())
	if p.mentions(name) {
		return syntaxError("INSERT OVERWRITE %s PARTITION (…): column %s is given twice", p.ow.Table, name)
	}
	if !p.peek().isPunct(p.src(), '=') {
		p.ow.Dynamic = true
		p.dynamicColumns = append(p.dynamicColumns, name)
		return nil
	}
	p.sc.next() // =
	value, err := p.literal(name)
	if err != nil {
		return err
	}
	p.ow.StaticPartition = append(p.ow.StaticPartition, KV{Column: name, Value: value})
	return nil
}

// mentions reports whether the PARTITION clause already named column;
// column names are case-insensitive, as in MySQL.
func (p *overwriteParser) mentions(column string) bool {
	for _, kv := range p.ow.StaticPartition {
		if strings.EqualFold(kv.Column, column) {
			return true
		}
	}
	for _, c := range p.dynamicColumns {
		if strings.EqualFold(c, column) {
			return true
		}
	}
	return false
}

// literal reads a static partition value: a string, or a number with an
// optional sign.
func (p *overwriteParser) literal(column string) (string, error) {
	t := p.sc.next()
	sign := ""
	if t.isPunct(p.src(), '-') || t.isPunct(p.src(), '+') {
		sign = t.text(p.src())
		t = p.sc.next()
		if t.kind != tokNumber {
			return "", p.badLiteral(column, t)
		}
	}
	switch t.kind {
	case tokString:
		return unquoteString(t.text(p.src())), nil
	case tokNumber:
		return sign + t.text(p.src()), nil
	case tokParam:
		return "", unsupported("INSERT OVERWRITE %s PARTITION (%s = ?): a bind parameter cannot be a partition value; inline the value",
			p.ow.Table, column)
	}
	return "", p.badLiteral(column, t)
}

func (p *overwriteParser) badLiteral(column string, t token) error {
	return syntaxError("INSERT OVERWRITE %s PARTITION (%s = …): a partition value must be a string or number literal, found %s",
		p.ow.Table, column, describe(t, p.src()))
}

// source reads an optional column list and checks that VALUES or a query
// follows; it returns where that part starts.
func (p *overwriteParser) source() (int, error) {
	next := p.peek()
	if next.isPunct(p.src(), '(') && !p.queryInParentheses() {
		if err := p.columnList(); err != nil {
			return 0, err
		}
		next = p.peek()
	}
	src := p.src()
	if next.is(src, "VALUES") || next.is(src, "VALUE") || next.is(src, "SELECT") || next.is(src, "WITH") ||
		next.isPunct(src, '(') && p.queryInParentheses() {
		return next.start, nil
	}
	return 0, syntaxError("INSERT OVERWRITE %s: expected VALUES or a SELECT, found %s", p.ow.Table, describe(next, src))
}

// queryInParentheses reports whether the next '(' opens a query rather than
// a column list.
func (p *overwriteParser) queryInParentheses() bool {
	look := p.sc
	look.next() // (
	inner := look.next()
	return inner.is(p.src(), "SELECT") || inner.is(p.src(), "WITH") || inner.isPunct(p.src(), '(')
}

// columnList reads (c1, c2, …); an empty list () is kept as an empty,
// non-nil slice.
func (p *overwriteParser) columnList() error {
	p.sc.next() // (
	p.ow.Columns = []string{}
	if p.peek().isPunct(p.src(), ')') {
		p.sc.next()
		return nil
	}
	for {
		col := p.sc.next()
		if !col.isName() {
			return syntaxError("INSERT OVERWRITE %s (…): expected a column name, found %s", p.ow.Table, describe(col, p.src()))
		}
		p.ow.Columns = append(p.ow.Columns, unquoteIdent(col, p.src()))
		sep := p.sc.next()
		if sep.isPunct(p.src(), ')') {
			return nil
		}
		if !sep.isPunct(p.src(), ',') {
			return syntaxError("INSERT OVERWRITE %s (…): expected ',' or ')', found %s", p.ow.Table, describe(sep, p.src()))
		}
	}
}
