package randsql

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// Mismatch is how two answers to one statement differ.
type Mismatch struct {
	Kind   string // "error", "columns", "types" or "rows"
	Detail string
	// class is what kind of difference it is, for finding signatures:
	// for types the two types (without the column), for rows one of
	// count, order, format (the same numbers written differently) or
	// values.
	class string
}

func (m *Mismatch) String() string { return m.Kind + ": " + m.Detail }

// comparison says how to compare two answers.
type comparison struct {
	plan Plan
	// sameEngine is set when both answers come from lakesql (rewrites on
	// and off): then the exact column types must agree too.
	sameEngine bool
}

// columnRule is how one result column's values compare.
type columnRule int

const (
	exactText  columnRule = iota // integers, DECIMALs with their scale, strings, dates
	floatClose                   // DOUBLEs, within a relative tolerance
	avgClose                     // lakesql's DOUBLE AVG OVER of a DECIMAL against MySQL's DECIMAL
)

// compare compares answers a and b of one query with the plan's ordering
// and MySQL's type rules; nil means they agree. Two errors agree (the
// runner reports statements every engine refuses separately).
func (c comparison) compare(a, b *Result) *Mismatch {
	switch {
	case a.Err != nil && b.Err != nil:
		return nil
	case a.Err != nil || b.Err != nil:
		return &Mismatch{Kind: "error", Detail: fmt.Sprintf("%s vs %s", summary(a), summary(b))}
	case len(a.Columns) != len(b.Columns):
		return &Mismatch{Kind: "columns", Detail: fmt.Sprintf("%d vs %d columns", len(a.Columns), len(b.Columns))}
	}
	rules, m := c.rules(a.Columns, b.Columns)
	if m != nil {
		return m
	}
	if len(c.plan.SortKeys) > 0 {
		return compareOrdered(a.Rows, b.Rows, rules, c.plan.SortKeys)
	}
	return compareMultisets(a.Rows, b.Rows, rules)
}

// rules checks the column types and picks each column's value rule.
// Types compare by class (doc.go: MariaDB and MySQL 8.0), exactly
// between lakesql's two modes; AVG over a window of a DECIMAL may be a
// DOUBLE on one side (README, Not supported yet).
func (c comparison) rules(a, b []ResultColumn) ([]columnRule, *Mismatch) {
	rules := make([]columnRule, len(a))
	for i := range a {
		ca, cb := driverClass(a[i].Type), driverClass(b[i].Type)
		switch {
		case c.sameEngine && (a[i].Type != b[i].Type || a[i].Scale != b[i].Scale):
			return nil, typeMismatch(i, a[i], b[i])
		case ca == cb && ca == ClassFloat:
			rules[i] = floatClose
		case ca == cb:
			rules[i] = exactText
		case slices.Contains(c.plan.AvgDecimal, i) && (ca == ClassFloat || cb == ClassFloat) && (ca == ClassDecimal || cb == ClassDecimal):
			rules[i] = avgClose
		default:
			return nil, typeMismatch(i, a[i], b[i])
		}
	}
	return rules, nil
}

func typeMismatch(i int, a, b ResultColumn) *Mismatch {
	pair := typeName(a) + " vs " + typeName(b)
	return &Mismatch{Kind: "types", Detail: fmt.Sprintf("column %d (%s): %s", i, a.Name, pair), class: pair}
}

func typeName(c ResultColumn) string {
	if c.Type == "DECIMAL" {
		return fmt.Sprintf("DECIMAL(scale %d)", c.Scale)
	}
	return c.Type
}

// summary is an answer in a few words, for a mismatch's detail.
func summary(r *Result) string {
	if r.Err != nil {
		return "error " + oneLine(r.Err.Error())
	}
	return fmt.Sprintf("%d rows", len(r.Rows))
}

// errorCode is the MySQL error number of a failed answer, 0 when the
// error did not come from the server.
func errorCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// compareMultisets compares rows regardless of order.
func compareMultisets(a, b [][]Cell, rules []columnRule) *Mismatch {
	if len(a) != len(b) {
		return rowsMismatch(a, b, rules, "count", fmt.Sprintf("%d vs %d rows", len(a), len(b)))
	}
	if sameMultiset(a, b, rules) {
		return nil
	}
	class := "values"
	if sameMultiset(numbersOnly(a), numbersOnly(b), rules) {
		class = "format"
	}
	return rowsMismatch(a, b, rules, class, fmt.Sprintf("%d rows each, different values", len(a)))
}

func sameMultiset(a, b [][]Cell, rules []columnRule) bool {
	sa, sb := sortedRows(a, rules), sortedRows(b, rules)
	return rowsEqual(sa, sb, rules) || matchGreedily(sa, sb, rules)
}

// numbersOnly rewrites every number as its shortest float text, so that
// 27 and 27.00 compare equal: a difference that remains is in the values,
// one that goes away only in how they are written.
func numbersOnly(rows [][]Cell) [][]Cell {
	out := make([][]Cell, len(rows))
	for i, row := range rows {
		out[i] = make([]Cell, len(row))
		for j, c := range row {
			if f, err := strconv.ParseFloat(c.Text, 64); err == nil && !c.Null {
				c.Text = strconv.FormatFloat(f, 'g', -1, 64)
			}
			out[i][j] = c
		}
	}
	return out
}

// compareOrdered compares rows ordered by the sort keys: the sequence of
// sort-key values must agree, and the rows that tie on them form
// multisets that must agree. (With LIMIT the generator orders by every
// column, so ties are identical rows.)
func compareOrdered(a, b [][]Cell, rules []columnRule, keys []int) *Mismatch {
	if m := compareMultisets(a, b, rules); m != nil {
		return m
	}
	ga, gb := tieGroups(a, rules, keys), tieGroups(b, rules, keys)
	for i := range min(len(ga), len(gb)) {
		if !cellsEqual(ga[i][0], gb[i][0], rules, keys) || compareMultisets(ga[i], gb[i], rules) != nil {
			return rowsMismatch(a, b, rules, "order", fmt.Sprintf("the same rows in another order: sort-key group %d is (%s) vs (%s)",
				i, formatRow(project(ga[i][0], keys)), formatRow(project(gb[i][0], keys))))
		}
	}
	return nil
}

// tieGroups splits rows into runs of equal sort-key values.
func tieGroups(rows [][]Cell, rules []columnRule, keys []int) [][][]Cell {
	var groups [][][]Cell
	for _, row := range rows {
		if n := len(groups); n > 0 && cellsEqual(groups[n-1][0], row, rules, keys) {
			groups[n-1] = append(groups[n-1], row)
			continue
		}
		groups = append(groups, [][]Cell{row})
	}
	return groups
}

// cellsEqual compares two rows on the given columns.
func cellsEqual(a, b []Cell, rules []columnRule, cols []int) bool {
	for _, i := range cols {
		if !cellEqual(a[i], b[i], rules[i]) {
			return false
		}
	}
	return true
}

func rowsEqual(a, b [][]Cell, rules []columnRule) bool {
	all := allColumns(len(rules))
	for i := range a {
		if !cellsEqual(a[i], b[i], rules, all) {
			return false
		}
	}
	return true
}

// matchGreedily pairs each row of a with an equal unused row of b: the
// fallback when float tolerance makes sorted order disagree.
func matchGreedily(a, b [][]Cell, rules []columnRule) bool {
	if !slices.Contains(rules, floatClose) && !slices.Contains(rules, avgClose) {
		return false
	}
	all := allColumns(len(rules))
	used := make([]bool, len(b))
	for _, ra := range a {
		found := false
		for j, rb := range b {
			if !used[j] && cellsEqual(ra, rb, rules, all) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func cellEqual(a, b Cell, rule columnRule) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	switch rule {
	case floatClose:
		return floatsClose(a.Text, b.Text, 0)
	case avgClose:
		return floatsClose(a.Text, b.Text, math.Max(decimalUnit(a.Text), decimalUnit(b.Text)))
	default:
		return a.Text == b.Text
	}
}

// floatsClose compares two numbers within a relative tolerance of 1e-9
// (the last digits of a DOUBLE sum depend on the order of addition),
// plus abs.
func floatsClose(a, b string, abs float64) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA != nil || errB != nil {
		return a == b
	}
	return math.Abs(x-y) <= abs+1e-9*math.Max(math.Abs(x), math.Abs(y))+1e-12
}

// decimalUnit is one unit of the last place of a decimal's text, zero for
// a DOUBLE's text: MySQL rounds AVG of a DECIMAL to that place.
func decimalUnit(s string) float64 {
	i := strings.IndexByte(s, '.')
	if i < 0 || strings.ContainsAny(s, "eE") {
		return 0
	}
	return math.Pow10(-(len(s) - i - 1))
}

// sortedRows orders rows by their canonical text, floats rounded to 9
// significant digits, so that equal multisets line up.
func sortedRows(rows [][]Cell, rules []columnRule) [][]Cell {
	type keyed struct {
		key string
		row []Cell
	}
	ks := make([]keyed, len(rows))
	for i, row := range rows {
		ks[i] = keyed{canonicalKey(row, rules), row}
	}
	slices.SortStableFunc(ks, func(x, y keyed) int { return strings.Compare(x.key, y.key) })
	out := make([][]Cell, len(rows))
	for i, k := range ks {
		out[i] = k.row
	}
	return out
}

func canonicalKey(row []Cell, rules []columnRule) string {
	var b strings.Builder
	for i, c := range row {
		switch {
		case c.Null:
			b.WriteString("\x00N")
		case rules[i] != exactText:
			f, err := strconv.ParseFloat(c.Text, 64)
			if err != nil {
				b.WriteString(c.Text)
			} else {
				b.WriteString(strconv.FormatFloat(f, 'e', 8, 64))
			}
		default:
			b.WriteString(c.Text)
		}
		b.WriteString("\x01")
	}
	return b.String()
}

// rowsMismatch describes a rows mismatch: what happened, and the rows
// only one side has (as multisets).
func rowsMismatch(a, b [][]Cell, rules []columnRule, class, what string) *Mismatch {
	onlyA, onlyB := multisetDiff(a, b, rules), multisetDiff(b, a, rules)
	detail := what
	if len(onlyA)+len(onlyB) > 0 {
		detail += fmt.Sprintf("; only left: %s; only right: %s", formatRows(onlyA, 5), formatRows(onlyB, 5))
	}
	return &Mismatch{Kind: "rows", Detail: detail, class: class}
}

// multisetDiff is the rows of a that b lacks, counting duplicates.
func multisetDiff(a, b [][]Cell, rules []columnRule) [][]Cell {
	have := map[string]int{}
	for _, row := range b {
		have[canonicalKey(row, rules)]++
	}
	var out [][]Cell
	for _, row := range a {
		k := canonicalKey(row, rules)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, row)
	}
	return out
}

func formatRows(rows [][]Cell, limit int) string {
	var parts []string
	for i, row := range rows {
		if i == limit {
			parts = append(parts, fmt.Sprintf("… %d more", len(rows)-limit))
			break
		}
		parts = append(parts, "("+formatRow(row)+")")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

func formatRow(row []Cell) string {
	var cells []string
	for _, c := range row {
		cells = append(cells, c.String())
	}
	return strings.Join(cells, ", ")
}

func project(row []Cell, cols []int) []Cell {
	out := make([]Cell, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

func allColumns(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
