package ingest

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// readAll renders every line's fields: NULL for a null field, each text
// quoted with %q.
func readAll(t *testing.T, input string, f Format) []string {
	t.Helper()
	r, err := NewReader(strings.NewReader(input), f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for {
		fields, err := r.Next()
		if err == io.EOF {
			return lines
		}
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, field := range fields {
			if field.Null {
				parts = append(parts, "NULL")
			} else {
				parts = append(parts, fmt.Sprintf("%q", field.Text))
			}
		}
		lines = append(lines, strings.Join(parts, " "))
	}
}

func csv() Format {
	f := DefaultFormat()
	f.FieldsTerminatedBy, f.EnclosedBy = ",", '"'
	return f
}

// The cases follow MySQL's READ_INFO (sql/sql_load.cc) and its manual's
// LOAD DATA section; the differential test in sqlbackend checks the
// same inputs against MariaDB.
func TestReaderFollowsMySQL(t *testing.T) {
	crlf := DefaultFormat()
	crlf.LinesTerminatedBy = "\r\n"
	prefixed := DefaultFormat()
	prefixed.LinesStartingBy = "xxx"
	noEscape := DefaultFormat()
	noEscape.EscapedBy = 0
	skipTwo := csv()
	skipTwo.IgnoreLines = 2
	for _, c := range []struct {
		name   string
		input  string
		format Format
		want   []string
	}{
		{"tab separated", "a\tb\nc\td\n", DefaultFormat(), []string{`"a" "b"`, `"c" "d"`}},
		{"no final terminator", "a\tb\nc\td", DefaultFormat(), []string{`"a" "b"`, `"c" "d"`}},
		{"empty fields and lines", "\t\n\n", DefaultFormat(), []string{`"" ""`, `""`}},
		{"escapes", `a\tb\\c\nd\0e\Zf\qg` + "\n", DefaultFormat(), []string{`"a\tb\\c\nd\x00e\x1afqg"`}},
		{"escaped terminators", "a\\\tb\tc\\\nd\n", DefaultFormat(), []string{`"a\tb" "c\nd"`}},
		{"escaped N is NULL alone", `\N` + "\t" + `\NN` + "\tN\t" + `\\N` + "\n", DefaultFormat(), []string{`NULL "NN" "N" "\\N"`}},
		{"the word NULL is text without enclosing", "NULL\n", DefaultFormat(), []string{`"NULL"`}},
		{"no escape character", `a\Nb` + "\t" + `\N` + "\n", noEscape, []string{`"a\\Nb" "\\N"`}},
		{"crlf lines", "a\tb\r\nc\td\r\n", crlf, []string{`"a" "b"`, `"c" "d"`}},
		{"enclosed fields", `"a,b","c""d",e,"",NULL,"NULL",\N` + "\n", csv(), []string{`"a,b" "c\"d" "e" "" NULL "NULL" NULL`}},
		{"enclosed newline", "\"a\nb\",c\n", csv(), []string{`"a\nb" "c"`}},
		{"quote inside an unquoted field", `a"b,c` + "\n", csv(), []string{`"a\"b" "c"`}},
		{"stray quote inside a quoted field", `"a"b",c` + "\n", csv(), []string{`"a\"b" "c"`}},
		{"enclosed last field without terminator", `x,"y"`, csv(), []string{`"x" "y"`}},
		{"escaped quote", `"a\"b",c` + "\n", csv(), []string{`"a\"b" "c"`}},
		{"lines starting by", "xxxa\tb\nnoise\nyyxxxc\n", prefixed, []string{`"a" "b"`, `"c"`}},
		{"ignore lines", "h1,h2\nh3\n1,2\n", skipTwo, []string{`"1" "2"`}},
		{"empty input", "", DefaultFormat(), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := readAll(t, c.input, c.format); !slices.Equal(got, c.want) {
				t.Errorf("input %q:\n got %q\nwant %q", c.input, got, c.want)
			}
		})
	}
}
