package randsql

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Result is one session's answer to a statement: its columns and rows,
// or the error it failed with.
type Result struct {
	Columns []ResultColumn
	Rows    [][]Cell
	Err     error
}

// ResultColumn is a result column as the driver reports it.
type ResultColumn struct {
	Name  string
	Type  string // go-sql-driver/mysql's DatabaseTypeName
	Scale int64  // of a DECIMAL; 0 otherwise
}

// Cell is one value in the text protocol's form.
type Cell struct {
	Null bool
	Text string
}

func (c Cell) String() string {
	if c.Null {
		return "NULL"
	}
	return c.Text
}

// query runs q on conn and reads the whole answer as text.
func query(ctx context.Context, conn *sql.Conn, q string) *Result {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return &Result{Err: err}
	}
	defer rows.Close()
	res, err := readRows(rows)
	if err != nil {
		return &Result{Err: err}
	}
	return res
}

func readRows(rows *sql.Rows) (*Result, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, t := range types {
		col := ResultColumn{Name: t.Name(), Type: t.DatabaseTypeName()}
		if col.Type == "DECIMAL" {
			_, col.Scale, _ = t.DecimalSize()
		}
		res.Columns = append(res.Columns, col)
	}
	raw := make([]sql.RawBytes, len(types))
	dest := make([]any, len(types))
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		row := make([]Cell, len(raw))
		for i, v := range raw {
			row[i] = Cell{Null: v == nil, Text: string(v)}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

// Format writes the answer as comment lines of a script: the column
// names and types, then one line per row (or the error).
func (r *Result) Format(indent string) string {
	if r.Err != nil {
		return indent + "error: " + oneLine(r.Err.Error()) + "\n"
	}
	var b strings.Builder
	var head []string
	for _, c := range r.Columns {
		t := c.Type
		if c.Type == "DECIMAL" {
			t = fmt.Sprintf("DECIMAL(scale %d)", c.Scale)
		}
		head = append(head, c.Name+" "+t)
	}
	b.WriteString(indent + strings.Join(head, " | ") + "\n")
	for _, row := range r.Rows {
		var cells []string
		for _, c := range row {
			cells = append(cells, c.String())
		}
		b.WriteString(indent + strings.Join(cells, " | ") + "\n")
	}
	fmt.Fprintf(&b, "%s(%d rows)\n", indent, len(r.Rows))
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
