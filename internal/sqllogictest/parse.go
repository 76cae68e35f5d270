// Package sqllogictest reads scripts in the format of SQLite's sqllogictest
// and runs them over a database/sql connection, formatting, sorting and
// hashing results the way the original harness does through its ODBC
// driver, so the expected answers in the public corpus apply unchanged.
package sqllogictest

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is the type of a record.
type Kind int

const (
	// Statement runs SQL and expects it to succeed or fail.
	Statement Kind = iota + 1
	// Query runs SQL and compares its rows with the expected values.
	Query
	// HashThreshold changes how many values a result may have before it is
	// compared by hash.
	HashThreshold
	// Halt stops the script.
	Halt
)

// SortMode is how a query's values are ordered before they are compared.
type SortMode int

const (
	// NoSort keeps the engine's order.
	NoSort SortMode = iota
	// RowSort orders whole rows.
	RowSort
	// ValueSort orders every value independently of its row.
	ValueSort
)

// Condition is a skipif or onlyif modifier naming an engine.
type Condition struct {
	// Skip is true for skipif, false for onlyif.
	Skip   bool
	Engine string
}

// Record is one record of a script.
type Record struct {
	// Line is the script line the record starts on, its first modifier
	// included.
	Line       int
	Kind       Kind
	Conditions []Condition
	SQL        string
	// ExpectError is set for "statement error".
	ExpectError bool
	// Types has one character per result column: T text, I integer, R real.
	Types string
	Sort  SortMode
	// Label names the query's result; records with one label are
	// alternative spellings of one query with one answer.
	Label string
	// Expected is the lines after "----": one value per line, or a single
	// "N values hashing to H" line.
	Expected []string
	// Threshold is the argument of a hash-threshold record.
	Threshold int
}

// RunsOn reports whether the record's skipif and onlyif modifiers let it
// run on engine; engine names compare case-insensitively, as in the
// original harness.
func (r *Record) RunsOn(engine string) bool {
	for _, c := range r.Conditions {
		if strings.EqualFold(c.Engine, engine) == c.Skip {
			return false
		}
	}
	return true
}

// line is a script line that is neither a comment nor blank-only, or an
// empty line marking a record boundary.
type line struct {
	number int
	text   string
}

// Parse reads a whole script. Comment lines (starting with '#') are dropped
// wherever they appear, as the original harness does; blank lines separate
// records.
func Parse(r io.Reader) ([]Record, error) {
	lines, err := readLines(r)
	if err != nil {
		return nil, err
	}
	var records []Record
	for _, block := range splitBlocks(lines) {
		rec, err := parseBlock(block)
		if err != nil {
			return nil, err
		}
		records = append(records, rec)
	}
	return records, nil
}

// readLines returns the script's lines without comments, with \r removed
// and whitespace-only lines made empty.
func readLines(r io.Reader) ([]line, error) {
	var lines []line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			text = ""
		}
		if strings.HasPrefix(text, "#") {
			continue
		}
		lines = append(lines, line{number: n, text: text})
	}
	return lines, sc.Err()
}

// splitBlocks groups consecutive non-empty lines.
func splitBlocks(lines []line) [][]line {
	var blocks [][]line
	var cur []line
	for _, l := range lines {
		if l.text == "" {
			if len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		blocks = append(blocks, cur)
	}
	return blocks
}

func parseBlock(block []line) (Record, error) {
	rec := Record{Line: block[0].number}
	for {
		tokens := strings.Fields(block[0].text)
		if tokens[0] != "skipif" && tokens[0] != "onlyif" {
			break
		}
		if len(tokens) < 2 || len(block) < 2 {
			return rec, fmt.Errorf("line %d: %s needs an engine and a record", block[0].number, tokens[0])
		}
		rec.Conditions = append(rec.Conditions, Condition{Skip: tokens[0] == "skipif", Engine: tokens[1]})
		block = block[1:]
	}
	head, body := block[0], block[1:]
	tokens := strings.Fields(head.text)
	var err error
	switch tokens[0] {
	case "statement":
		err = parseStatement(&rec, tokens, body)
	case "query":
		err = parseQuery(&rec, tokens, body)
	case "hash-threshold":
		rec.Kind = HashThreshold
		if len(tokens) < 2 {
			return rec, fmt.Errorf("line %d: hash-threshold needs a number", head.number)
		}
		rec.Threshold, err = strconv.Atoi(tokens[1])
	case "halt":
		rec.Kind = Halt
	default:
		err = fmt.Errorf("unknown record type %q", tokens[0])
	}
	if err != nil {
		return rec, fmt.Errorf("line %d: %w", head.number, err)
	}
	return rec, nil
}

func parseStatement(rec *Record, tokens []string, body []line) error {
	rec.Kind = Statement
	if len(tokens) < 2 || (tokens[1] != "ok" && tokens[1] != "error") {
		return fmt.Errorf("statement must be followed by ok or error")
	}
	rec.ExpectError = tokens[1] == "error"
	rec.SQL = joinText(body)
	if rec.SQL == "" {
		return fmt.Errorf("statement without SQL")
	}
	return nil
}

func parseQuery(rec *Record, tokens []string, body []line) error {
	rec.Kind = Query
	if len(tokens) < 2 || strings.Trim(tokens[1], "TIR") != "" {
		return fmt.Errorf("query needs a type string of T, I and R")
	}
	rec.Types = tokens[1]
	if len(tokens) > 2 {
		mode, ok := map[string]SortMode{"nosort": NoSort, "rowsort": RowSort, "valuesort": ValueSort}[tokens[2]]
		if !ok {
			return fmt.Errorf("unknown sort mode %q", tokens[2])
		}
		rec.Sort = mode
	}
	if len(tokens) > 3 {
		rec.Label = tokens[3]
	}
	sql := body
	for i, l := range body {
		if l.text == "----" {
			sql = body[:i]
			rec.Expected = texts(body[i+1:])
			break
		}
	}
	rec.SQL = joinText(sql)
	if rec.SQL == "" {
		return fmt.Errorf("query without SQL")
	}
	return nil
}

func texts(lines []line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text
	}
	return out
}

func joinText(lines []line) string {
	return strings.Join(texts(lines), "\n")
}
