//go:build interop

package interop

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// kind is how a column's values are compared, from the MySQL type lakesql
// reports for it (see README.md, "Row encoding").
type kind int

const (
	kindExact     kind = iota // DECIMAL, strings, DATE, DATETIME, TIMESTAMP: the exact text
	kindInt                   // integers and BOOLEAN (tinyint(1)): true/false are 1/0
	kindFloat                 // FLOAT: the shortest float32 decimal
	kindDouble                // DOUBLE: the shortest float64 decimal
	kindBytes                 // BINARY, VARBINARY, BLOB: base64
	kindTime                  // TIME: HH:MM:SS.mmm
	kindJSON                  // ARRAY, MAP, ROW, shown as JSON: the parsed document
	kindTimestamp             // DATETIME, TIMESTAMP: the text, 7-9 digit fractions cut to MySQL's 6
)

func kindOf(mysqlType string) kind {
	switch mysqlType {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT", "UNSIGNED TINYINT", "UNSIGNED SMALLINT",
		"UNSIGNED MEDIUMINT", "UNSIGNED INT", "UNSIGNED BIGINT", "BIT", "YEAR":
		return kindInt
	case "FLOAT":
		return kindFloat
	case "DOUBLE":
		return kindDouble
	case "BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB":
		return kindBytes
	case "TIME":
		return kindTime
	case "JSON":
		return kindJSON
	case "DATETIME", "TIMESTAMP":
		return kindTimestamp
	}
	return kindExact
}

// table is a set of rows in canonical form: each row one JSON object with
// sorted keys, the rows sorted, so two tables compare as string slices.
type table struct {
	columns []string
	rows    []string
}

// canonical brings one value, as lakesql's wire text or as a reader's JSON
// value, to the canonical JSON value of its kind.
func canonical(k kind, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case kindInt:
		switch x := v.(type) {
		case bool:
			if x {
				return json.Number("1"), nil
			}
			return json.Number("0"), nil
		case json.Number:
			return x, nil
		case string:
			if _, err := strconv.ParseInt(x, 10, 64); err != nil {
				return nil, fmt.Errorf("integer %q: %v", x, err)
			}
			return json.Number(x), nil
		}
	case kindFloat, kindDouble:
		bits := 64
		if k == kindFloat {
			bits = 32
		}
		s := fmt.Sprint(v)
		switch s {
		case "NaN", "Infinity", "-Infinity":
			return s, nil
		case "+Inf", "-Inf":
			return strings.TrimPrefix(s, "+") + "inity", nil
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, fmt.Errorf("float %q: %v", s, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Sprint(f), nil
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, bits)), nil
	case kindTime:
		s, _ := v.(string)
		return canonicalTime(s)
	case kindJSON:
		return canonicalJSON(v)
	case kindTimestamp:
		// lakesql shows TIMESTAMP(7..9) as datetime(6) (planner/sqltypes);
		// what is stored past microseconds is checked with javaExpect.
		// Trailing fraction zeros are dropped: lakesql sends TIMESTAMP(p)
		// values unpadded (FINDINGS.md, F3), so values are compared, not
		// their padding.
		s, _ := v.(string)
		if dot := strings.LastIndexByte(s, '.'); dot >= 0 {
			if len(s)-dot-1 > 6 {
				s = s[:dot+7]
			}
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s, nil
	}
	// kindExact and kindBytes are compared as text (bytes are base64 on both
	// sides by then); nested values as their JSON.
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x, nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// canonicalJSON brings a nested value to one JSON text: lakesql sends the
// document text (a MAP as an object keyed by the key's text), a reader a
// decoded value (a MAP as an array of {"key", "value"} objects).
func canonicalJSON(v any) (any, error) {
	if s, ok := v.(string); ok {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("json %q: %v", s, err)
		}
		v = doc
	}
	b, err := json.Marshal(mapsAsObjects(v))
	return string(b), err
}

// mapsAsObjects turns the interop encoding's MAP arrays into objects, and
// empty MAPs into empty arrays.
func mapsAsObjects(v any) any {
	switch x := v.(type) {
	case []any:
		isMap := len(x) > 0
		for _, e := range x {
			m, ok := e.(map[string]any)
			_, hasKey := m["key"]
			_, hasValue := m["value"]
			isMap = isMap && ok && len(m) == 2 && hasKey && hasValue
		}
		if isMap {
			out := map[string]any{}
			for _, e := range x {
				m := e.(map[string]any)
				out[fmt.Sprint(m["key"])] = mapsAsObjects(m["value"])
			}
			return out
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapsAsObjects(e)
		}
		return out
	case map[string]any:
		if len(x) == 0 {
			// An empty MAP: lakesql shows one with string keys as {},
			// a reader dumps it as []; no ROW is empty.
			return []any{}
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = mapsAsObjects(e)
		}
		return out
	}
	return v
}

// canonicalTime reads "HH:MM:SS[.fraction]" (MySQL may print up to six
// digits) and prints milliseconds, which is all Paimon's TIME keeps.
func canonicalTime(s string) (string, error) {
	t, err := time.Parse("15:04:05.999999999", s)
	if err != nil {
		return "", fmt.Errorf("time %q: %v", s, err)
	}
	return t.Format("15:04:05.000"), nil
}

func (tb *table) add(row map[string]any) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	tb.rows = append(tb.rows, string(b))
	return nil
}

func (tb *table) sort() { sort.Strings(tb.rows) }

// lakesqlTable reads rows the server sent, keeping each column's kind for
// the readers' side.
func lakesqlTable(rows *sql.Rows) (*table, map[string]kind, error) {
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	kinds := map[string]kind{}
	tb := &table{}
	for _, ct := range types {
		kinds[ct.Name()] = kindOf(ct.DatabaseTypeName())
		tb.columns = append(tb.columns, ct.Name())
	}
	raw := make([]sql.RawBytes, len(types))
	dest := make([]any, len(types))
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, nil, err
		}
		row := map[string]any{}
		for i, name := range tb.columns {
			var v any
			if raw[i] != nil {
				if kinds[name] == kindBytes {
					v = base64.StdEncoding.EncodeToString(raw[i])
				} else {
					v = string(raw[i])
				}
			}
			c, err := canonical(kinds[name], v)
			if err != nil {
				return nil, nil, fmt.Errorf("lakesql column %s: %v", name, err)
			}
			row[name] = c
		}
		if err := tb.add(row); err != nil {
			return nil, nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	tb.sort()
	return tb, kinds, nil
}

// readerTable reads a reader's JSON lines; columns lakesql did not return
// are compared as their exact JSON.
func readerTable(output string, kinds map[string]kind) (*table, error) {
	tb := &table{}
	dec := json.NewDecoder(strings.NewReader(output))
	dec.UseNumber()
	for dec.More() {
		var raw map[string]any
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("reader output: %v", err)
		}
		row := map[string]any{}
		for name, v := range raw {
			c, err := canonical(kinds[name], v)
			if err != nil {
				return nil, fmt.Errorf("reader column %s: %v", name, err)
			}
			row[name] = c
		}
		if err := tb.add(row); err != nil {
			return nil, err
		}
	}
	tb.sort()
	return tb, nil
}

// firstDifference describes how got differs from want, naming the first
// differing row of each, or "" when they are equal.
func firstDifference(want, got *table) string {
	i, j := 0, 0
	for i < len(want.rows) && j < len(got.rows) && want.rows[i] == got.rows[j] {
		i, j = i+1, j+1
	}
	if i == len(want.rows) && j == len(got.rows) {
		return ""
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "lakesql has %d rows, the reader %d", len(want.rows), len(got.rows))
	onlyWant, onlyGot := minus(want.rows, got.rows), minus(got.rows, want.rows)
	fmt.Fprintf(&b, "; %d rows only in lakesql, %d only in the reader\n", len(onlyWant), len(onlyGot))
	if len(onlyWant) > 0 && len(onlyGot) > 0 {
		if cols := differingColumns(onlyWant[0], onlyGot[0]); cols != "" {
			fmt.Fprintf(&b, "  first pair differs in %s\n", cols)
		}
	}
	for i := 0; i < len(onlyWant) && i < 3; i++ {
		fmt.Fprintf(&b, "  only in lakesql: %s\n", clip(onlyWant[i]))
	}
	for i := 0; i < len(onlyGot) && i < 3; i++ {
		fmt.Fprintf(&b, "  only in reader:  %s\n", clip(onlyGot[i]))
	}
	return b.String()
}

// differingColumns names the columns whose values differ between two
// canonical rows, with both values.
func differingColumns(a, b string) string {
	var ma, mb map[string]any
	if json.Unmarshal([]byte(a), &ma) != nil || json.Unmarshal([]byte(b), &mb) != nil {
		return ""
	}
	var out []string
	for k := range ma {
		if va, vb := fmt.Sprint(ma[k]), fmt.Sprint(mb[k]); va != vb {
			out = append(out, fmt.Sprintf("%s (lakesql %s, reader %s)", k, clip(va), clip(vb)))
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, fmt.Sprintf("%s (only the reader has it: %s)", k, clip(fmt.Sprint(mb[k]))))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// minus is the rows of a not in b, as multisets.
func minus(a, b []string) []string {
	count := map[string]int{}
	for _, r := range b {
		count[r]++
	}
	var out []string
	for _, r := range a {
		if count[r] > 0 {
			count[r]--
			continue
		}
		out = append(out, r)
	}
	return out
}
