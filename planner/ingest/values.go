package ingest

import (
	"errors"
	"strings"
)

// ValuesInsert is an INSERT INTO t [(columns)] VALUES of literal tuples,
// scanned without a SQL parser: a multi-row INSERT of a 50 MB statement
// would otherwise become an AST of millions of expression nodes before
// any row is written. Only the plainest spelling is taken; anything else
// (IGNORE, ON DUPLICATE KEY UPDATE, functions, comments, hex, exponents,
// adjacent strings, several statements) makes ScanValuesInsert refuse,
// and the caller parses the statement as SQL.
type ValuesInsert struct {
	// Database is the qualifier of the table, "" when there is none.
	Database string
	Table    string
	// Columns is the column list, nil when there is none.
	Columns []string
	// Head is the statement up to and including its first tuple: an
	// INSERT of that row alone, which a SQL parser can check.
	Head string
	// Rows counts the tuples; Width is the number of values of each.
	Rows, Width int

	query    string
	tuplesAt int
}

// ValueKind says how a literal was spelled, which decides the column
// types MySQL reads it into as it is (see Literal).
type ValueKind uint8

const (
	// Null is NULL.
	Null ValueKind = iota
	// Integer is an optionally signed run of digits.
	Integer
	// DecimalNumber is a number with a decimal point.
	DecimalNumber
	// String is a quoted string; Text holds its value, escapes resolved.
	String
)

// Literal is one value of a tuple. Text is only valid until the next row.
type Literal struct {
	Kind ValueKind
	Text []byte
}

// ScanValuesInsert recognizes query as a ValuesInsert and checks every
// tuple, or returns false.
func ScanValuesInsert(query string) (*ValuesInsert, bool) {
	s := &sqlScanner{text: query}
	v := &ValuesInsert{query: query}
	if !s.keyword("INSERT") || !s.keyword("INTO") {
		return nil, false
	}
	name, ok := s.identifier()
	if !ok {
		return nil, false
	}
	if s.punct('.') {
		v.Database = name
		if name, ok = s.identifier(); !ok {
			return nil, false
		}
	}
	v.Table = name
	if s.punct('(') {
		if v.Columns, ok = s.columnList(); !ok {
			return nil, false
		}
	}
	if !s.keyword("VALUES") && !s.keyword("VALUE") {
		return nil, false
	}
	v.tuplesAt = s.pos
	firstEnd := 0
	err := v.scan(func(row []Literal, end int) error {
		if v.Rows == 0 {
			v.Width, firstEnd = len(row), end
		} else if len(row) != v.Width {
			return errNotValues
		}
		v.Rows++
		return nil
	})
	if err != nil || v.Rows == 0 {
		return nil, false
	}
	v.Head = query[:firstEnd]
	return v, true
}

// Each calls fn with the literals of each tuple in turn, in a slice it
// reuses; it stops at fn's first error. A ValuesInsert that
// ScanValuesInsert returned scans without an error of its own.
func (v *ValuesInsert) Each(fn func([]Literal) error) error {
	return v.scan(func(row []Literal, _ int) error { return fn(row) })
}

// scan reads the tuples, calling fn with each and the offset in the
// statement where it ends.
func (v *ValuesInsert) scan(fn func(row []Literal, end int) error) error {
	s := &sqlScanner{text: v.query, pos: v.tuplesAt}
	var row []Literal
	var spans [][2]int
	var scratch []byte
	for {
		if !s.punct('(') {
			return errNotValues
		}
		row, spans, scratch = row[:0], spans[:0], scratch[:0]
		for {
			lit, span, ok := s.literal(&scratch)
			if !ok {
				return errNotValues
			}
			row, spans = append(row, lit), append(spans, span)
			if s.punct(')') {
				break
			}
			if !s.punct(',') {
				return errNotValues
			}
		}
		for i := range row {
			if row[i].Kind != Null {
				row[i].Text = scratch[spans[i][0]:spans[i][1]:spans[i][1]]
			}
		}
		if err := fn(row, s.pos); err != nil {
			return err
		}
		if s.punct(',') {
			continue
		}
		s.punct(';')
		if s.space(); s.pos != len(s.text) {
			return errNotValues
		}
		return nil
	}
}

var errNotValues = errors.New("not a plain INSERT … VALUES of literals")

// sqlScanner reads the few tokens of a ValuesInsert from text at pos.
type sqlScanner struct {
	text string
	pos  int
}

func (s *sqlScanner) space() {
	for s.pos < len(s.text) && isSpace(s.text[s.pos]) {
		s.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// keyword consumes word, case-insensitively, if it comes next as a whole
// word.
func (s *sqlScanner) keyword(word string) bool {
	s.space()
	end := s.pos + len(word)
	if end > len(s.text) || !strings.EqualFold(s.text[s.pos:end], word) || (end < len(s.text) && isWordByte(s.text[end])) {
		return false
	}
	s.pos = end
	return true
}

func (s *sqlScanner) punct(c byte) bool {
	s.space()
	if s.pos < len(s.text) && s.text[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// identifier reads a bare word that is not a reserved word of the
// statement, or a backquoted name.
func (s *sqlScanner) identifier() (string, bool) {
	s.space()
	if s.pos < len(s.text) && s.text[s.pos] == '`' {
		return s.quotedIdentifier()
	}
	start := s.pos
	for s.pos < len(s.text) && isWordByte(s.text[s.pos]) {
		s.pos++
	}
	word := s.text[start:s.pos]
	if word == "" || allDigits([]byte(word)) || isStatementKeyword(word) {
		return "", false
	}
	return word, true
}

// isStatementKeyword reports the words that would make a bare identifier
// position part of another statement shape.
func isStatementKeyword(word string) bool {
	for _, k := range []string{"VALUES", "VALUE", "SELECT", "SET", "PARTITION", "IGNORE", "INTO", "TABLE", "WITH"} {
		if strings.EqualFold(word, k) {
			return true
		}
	}
	return false
}

func (s *sqlScanner) quotedIdentifier() (string, bool) {
	var b strings.Builder
	for i := s.pos + 1; i < len(s.text); i++ {
		c := s.text[i]
		if c != '`' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s.text) && s.text[i+1] == '`' {
			b.WriteByte('`')
			i++
			continue
		}
		s.pos = i + 1
		return b.String(), b.Len() > 0
	}
	return "", false
}

// columnList reads "a, b, c)" after its opening parenthesis.
func (s *sqlScanner) columnList() ([]string, bool) {
	var cols []string
	for {
		name, ok := s.identifier()
		if !ok {
			return nil, false
		}
		cols = append(cols, name)
		if s.punct(')') {
			return cols, true
		}
		if !s.punct(',') {
			return nil, false
		}
	}
}

// literal reads NULL, a number or a quoted string. The text of a number
// or the value of a string is appended to scratch, and span says where;
// its Text is set once the row is read, since scratch may move as it
// grows.
func (s *sqlScanner) literal(scratch *[]byte) (lit Literal, span [2]int, ok bool) {
	s.space()
	if s.pos >= len(s.text) {
		return Literal{}, span, false
	}
	span[0] = len(*scratch)
	switch c := s.text[s.pos]; {
	case c == '\'':
		lit.Kind, ok = String, s.quoted(scratch)
	case c == 'n' || c == 'N':
		lit.Kind, ok = Null, s.keyword("NULL")
	default:
		lit.Kind, ok = s.number(scratch)
	}
	span[1] = len(*scratch)
	return lit, span, ok
}

// quoted reads a single-quoted string with MySQL's escapes (the default
// sql_mode, without NO_BACKSLASH_ESCAPES) and appends its value to out.
// Another string right after it would be concatenated by MySQL, so it
// is refused.
func (s *sqlScanner) quoted(out *[]byte) bool {
	for i := s.pos + 1; i < len(s.text); i++ {
		switch c := s.text[i]; c {
		case '\\':
			if i+1 == len(s.text) {
				return false
			}
			i++
			*out = appendEscaped(*out, s.text[i])
		case '\'':
			if i+1 < len(s.text) && s.text[i+1] == '\'' {
				*out = append(*out, '\'')
				i++
				continue
			}
			s.pos = i + 1
			s.space()
			return s.pos == len(s.text) || s.text[s.pos] != '\'' && s.text[s.pos] != '"'
		default:
			*out = append(*out, c)
		}
	}
	return false
}

// appendEscaped appends what backslash-c stands for in a MySQL string:
// \% and \_ keep their backslash (they are LIKE escapes), an unknown
// escape is the character itself.
func appendEscaped(out []byte, c byte) []byte {
	switch c {
	case '0':
		return append(out, 0)
	case 'b':
		return append(out, '\b')
	case 'n':
		return append(out, '\n')
	case 'r':
		return append(out, '\r')
	case 't':
		return append(out, '\t')
	case 'Z':
		return append(out, 0x1a)
	case '%', '_':
		return append(out, '\\', c)
	}
	return append(out, c)
}

// number reads [-]digits[.digits], [-].digits or [-]digits. as an
// integer or a decimal literal and appends its text to out. Exponents,
// hex and a leading + are refused: MySQL reads them as other types or as
// expressions.
func (s *sqlScanner) number(out *[]byte) (ValueKind, bool) {
	start := s.pos
	if s.pos < len(s.text) && s.text[s.pos] == '-' {
		s.pos++
	}
	digits := s.digits()
	kind := Integer
	if s.pos < len(s.text) && s.text[s.pos] == '.' {
		s.pos++
		kind = DecimalNumber
		digits += s.digits()
	}
	if digits == 0 || s.pos < len(s.text) && isWordByte(s.text[s.pos]) {
		return kind, false
	}
	*out = append(*out, s.text[start:s.pos]...)
	return kind, true
}

func (s *sqlScanner) digits() int {
	start := s.pos
	for s.pos < len(s.text) && s.text[s.pos] >= '0' && s.text[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}
