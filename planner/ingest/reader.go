// Package loaddata reads the input of LOAD DATA INFILE as MySQL does
// (sql/sql_load.cc, READ_INFO) and converts its fields into Paimon values
// exactly, for the backend to stream into a table writer without
// evaluating SQL per row.
package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Format is a LOAD DATA statement's FIELDS, LINES and IGNORE clauses.
// The zero Format is not MySQL's default: use DefaultFormat.
type Format struct {
	// FieldsTerminatedBy separates fields; never empty (fixed-width rows
	// are not supported).
	FieldsTerminatedBy string
	// EnclosedBy quotes a field when it is its first byte; 0 is none.
	// MySQL reads OPTIONALLY ENCLOSED BY the same way.
	EnclosedBy byte
	// EscapedBy starts an escape sequence; 0 is none.
	EscapedBy byte
	// LinesStartingBy, when set, is skipped up to and including its
	// first occurrence before each line: text before it is dropped.
	LinesStartingBy string
	// LinesTerminatedBy ends a line; never empty.
	LinesTerminatedBy string
	// IgnoreLines is the number of lines skipped first (IGNORE n LINES).
	IgnoreLines int64
}

// DefaultFormat is MySQL's: fields terminated by a tab, not enclosed,
// escaped by a backslash; lines terminated by a newline, with no prefix.
func DefaultFormat() Format {
	return Format{FieldsTerminatedBy: "\t", EscapedBy: '\\', LinesTerminatedBy: "\n"}
}

// ErrFormat marks a Format the reader cannot follow.
var ErrFormat = errors.New("unsupported LOAD DATA format")

// Field is one input field.
type Field struct {
	// Text is the field after quotes and escapes are resolved. It is
	// valid until the next call of Reader.Next.
	Text []byte
	// Null is a field that reads as NULL: \N (with an escape character),
	// or the unquoted word NULL when fields may be enclosed.
	Null bool
}

// Reader reads the lines of a LOAD DATA input as fields.
type Reader struct {
	in      *bufio.Reader
	format  Format
	buf     []byte // the current line's field texts, back to back
	fields  []Field
	ends    []int // end of each field's text in buf
	nulls   []bool
	skipped bool
}

// NewReader reads r in format f.
func NewReader(r io.Reader, f Format) (*Reader, error) {
	if f.FieldsTerminatedBy == "" || f.LinesTerminatedBy == "" {
		return nil, ErrFormat
	}
	return &Reader{in: bufio.NewReaderSize(r, 1<<20), format: f}, nil
}

// Next returns the next line's fields, or io.EOF after the last line. A
// line is only as long as its fields: the final line needs no
// terminator, and an input that ends with a terminator has no empty line
// after it.
func (r *Reader) Next() ([]Field, error) {
	if !r.skipped {
		r.skipped = true
		for range r.format.IgnoreLines {
			if _, err := r.Next(); err != nil {
				return nil, err
			}
		}
	}
	r.buf, r.ends, r.nulls = r.buf[:0], r.ends[:0], r.nulls[:0]
	if r.format.LinesStartingBy != "" {
		if err := r.skipPast(r.format.LinesStartingBy); err != nil {
			return nil, err
		}
	} else if _, err := r.in.Peek(1); err != nil {
		return nil, err
	}
	for {
		lineEnd, err := r.readField()
		if err != nil {
			return nil, err
		}
		if lineEnd {
			break
		}
	}
	return r.collect(), nil
}

// collect turns the line's field ends into Fields over buf.
func (r *Reader) collect() []Field {
	r.fields = r.fields[:0]
	start := 0
	for i, end := range r.ends {
		r.fields = append(r.fields, Field{Text: r.buf[start:end:end], Null: r.nulls[i]})
		start = end
	}
	return r.fields
}

// skipPast drops input up to and including the first occurrence of s.
func (r *Reader) skipPast(s string) error {
	for {
		c, err := r.in.ReadByte()
		if err != nil {
			return err
		}
		if c == s[0] && r.consume(s[1:]) {
			return nil
		}
	}
}

// consume reads s if the input continues with it.
func (r *Reader) consume(s string) bool {
	if s == "" {
		return true
	}
	next, _ := r.in.Peek(len(s))
	if string(next) != s {
		return false
	}
	_, _ = r.in.Discard(len(s))
	return true
}

// terminator reads a field or line terminator starting with c, already
// read, and says which one ended the field, if any. MySQL checks the line
// terminator first.
func (r *Reader) terminator(c byte) (fieldEnd, lineEnd bool) {
	f := &r.format
	if c == f.LinesTerminatedBy[0] && r.consume(f.LinesTerminatedBy[1:]) {
		return true, true
	}
	if c == f.FieldsTerminatedBy[0] && r.consume(f.FieldsTerminatedBy[1:]) {
		return true, false
	}
	return false, false
}

// readField reads one field into buf and says whether it ended its line
// (or the input).
func (r *Reader) readField() (lineEnd bool, err error) {
	start := len(r.buf)
	c, err := r.in.ReadByte()
	if err == io.EOF {
		r.endField(start, false, false)
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if q := r.format.EnclosedBy; q != 0 && c == q {
		return r.readEnclosed(start)
	}
	foundNull := false
	for {
		if fieldEnd, lineEnd := r.terminator(c); fieldEnd {
			r.endField(start, foundNull, false)
			return lineEnd, nil
		}
		if e := r.format.EscapedBy; e != 0 && c == e {
			n, err := r.readEscape()
			if err != nil {
				return false, err
			}
			foundNull = foundNull || n
		} else {
			r.buf = append(r.buf, c)
		}
		if c, err = r.in.ReadByte(); err == io.EOF {
			r.endField(start, foundNull, false)
			return true, nil
		} else if err != nil {
			return false, err
		}
	}
}

// readEnclosed reads a quoted field after its opening quote. A doubled
// quote is one quote; a quote followed by a terminator (or the end)
// closes the field; any other quote is text, as in MySQL.
func (r *Reader) readEnclosed(start int) (lineEnd bool, err error) {
	q := r.format.EnclosedBy
	foundNull := false
	for {
		c, err := r.in.ReadByte()
		if err == io.EOF {
			r.endField(start, foundNull, true)
			return true, nil
		}
		if err != nil {
			return false, err
		}
		switch {
		case r.format.EscapedBy != 0 && c == r.format.EscapedBy:
			n, err := r.readEscape()
			if err != nil {
				return false, err
			}
			foundNull = foundNull || n
		case c == q && r.consume(string(q)):
			r.buf = append(r.buf, q)
		case c == q:
			next, err := r.in.ReadByte()
			if err == io.EOF {
				r.endField(start, foundNull, true)
				return true, nil
			}
			if err != nil {
				return false, err
			}
			if fieldEnd, lineEnd := r.terminator(next); fieldEnd {
				r.endField(start, foundNull, true)
				return lineEnd, nil
			}
			r.buf = append(r.buf, q)
			_ = r.in.UnreadByte()
		default:
			r.buf = append(r.buf, c)
		}
	}
}

// readEscape reads the byte after an escape character: \0 \b \n \r \t \Z
// are control characters and any other byte stands for itself. It
// reports an escaped N, which makes a field of that one N read as NULL.
// An escape character at the end of the input is itself.
func (r *Reader) readEscape() (escapedN bool, err error) {
	c, err := r.in.ReadByte()
	if err == io.EOF {
		r.buf = append(r.buf, r.format.EscapedBy)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch c {
	case '0':
		c = 0
	case 'b':
		c = '\b'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'Z':
		c = 0x1a
	}
	r.buf = append(r.buf, c)
	return c == 'N', nil
}

// endField ends the field that started at start. As in MySQL
// (read_sep_field), it is NULL when it is the one N of an escaped N, or
// the unquoted word NULL when fields may be enclosed.
func (r *Reader) endField(start int, foundNull, enclosed bool) {
	text := r.buf[start:]
	null := foundNull && len(text) == 1 ||
		!enclosed && r.format.EnclosedBy != 0 && bytes.Equal(text, []byte("NULL"))
	if null {
		r.buf = r.buf[:start]
	}
	r.ends = append(r.ends, len(r.buf))
	r.nulls = append(r.nulls, null)
}
