package randsql

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Stmt is one statement of a case's data changes. Inserts keep their
// rows apart, so that the minimizer can drop rows.
type Stmt struct {
	Table       string
	LakeSQLOnly bool    // a maintenance procedure, which changes no rows
	Insert      *Insert // nil: Text
	Text        string
}

// SQL renders the statement on one line.
func (s *Stmt) SQL() string {
	if s.Insert != nil {
		return s.Insert.SQL()
	}
	return s.Text
}

// Insert is INSERT or REPLACE of literal rows, maybe with ON DUPLICATE
// KEY UPDATE.
type Insert struct {
	Verb        string // INSERT or REPLACE
	Table       string
	Columns     []string
	Rows        [][]string
	OnDuplicate string // the assignments after ON DUPLICATE KEY UPDATE
}

// SQL renders the statement.
func (in *Insert) SQL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s INTO %s (%s) VALUES ", in.Verb, in.Table, strings.Join(in.Columns, ", "))
	for i, row := range in.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + strings.Join(row, ", ") + ")")
	}
	if in.OnDuplicate != "" {
		b.WriteString(" ON DUPLICATE KEY UPDATE " + in.OnDuplicate)
	}
	return b.String()
}

// writeGen draws the data changes of a case. It keeps, per table, every
// id it ever wrote, so that a plain INSERT into a primary-key table only
// ever inserts new keys: lakesql upserts an existing key where MySQL
// fails (README, Writes), and the generator must only write what both
// engines mean the same way. REPLACE and ON DUPLICATE KEY UPDATE, which
// lakesql implements as MySQL does, hit existing keys on purpose.
type writeGen struct {
	r      *rand.Rand
	tables []*tableState
}

type tableState struct {
	*Table
	usedIDs map[string]bool
	keys    [][]string // the primary key of every row written, in column order
}

// stmts draws an initial load of every table, then a mix of inserts,
// upserts, updates, deletes and compactions.
func (g *writeGen) stmts() []*Stmt {
	var out []*Stmt
	for _, t := range g.tables {
		out = append(out, g.insert(t, 4+g.r.IntN(10)))
	}
	for range 6 + g.r.IntN(9) {
		t := g.tables[g.r.IntN(len(g.tables))]
		out = append(out, g.change(t))
	}
	return out
}

// change is one data change of t, or a compaction.
func (g *writeGen) change(t *tableState) *Stmt {
	pk := len(t.PrimaryKey) > 0
	switch weighted(g.r, 4, 3, 3, 3, 3, 3) {
	case 0:
		return g.insert(t, 1+g.r.IntN(5))
	case 1:
		if pk {
			return g.upsert(t, "REPLACE", "")
		}
	case 2:
		if pk {
			return g.upsert(t, "INSERT", g.onDuplicate(t))
		}
	case 3:
		return g.update(t)
	case 4:
		return g.delete(t)
	default:
		return g.compact(t)
	}
	return g.insert(t, 1+g.r.IntN(5))
}

// insert is a plain INSERT of n rows; in a primary-key table each with an
// id never written before (fewer rows when the ids run out).
func (g *writeGen) insert(t *tableState, n int) *Stmt {
	in := &Insert{Verb: "INSERT", Table: t.Name, Columns: t.columnNames()}
	for range n {
		id, ok := t.newID(g.r)
		if !ok {
			break
		}
		in.Rows = append(in.Rows, t.row(g.r, id, nil))
	}
	if len(in.Rows) == 0 {
		return g.upsert(t, "REPLACE", "")
	}
	return &Stmt{Table: t.Name, Insert: in}
}

// upsert is REPLACE or INSERT … ON DUPLICATE KEY UPDATE of 1 to 4 rows,
// about half of them with keys written before; a key may repeat within
// the statement, which MySQL applies row by row.
func (g *writeGen) upsert(t *tableState, verb, onDuplicate string) *Stmt {
	in := &Insert{Verb: verb, Table: t.Name, Columns: t.columnNames(), OnDuplicate: onDuplicate}
	for range 1 + g.r.IntN(4) {
		if len(t.keys) > 0 && g.r.IntN(2) == 0 {
			in.Rows = append(in.Rows, t.row(g.r, "", t.keys[g.r.IntN(len(t.keys))]))
			continue
		}
		id, ok := t.newID(g.r)
		if !ok {
			id = t.Column("id").values(g.r)
		}
		in.Rows = append(in.Rows, t.row(g.r, id, nil))
	}
	return &Stmt{Table: t.Name, Insert: in}
}

// onDuplicate is 1 or 2 assignments of non-key columns: the new value,
// the old one combined with it, or a literal.
func (g *writeGen) onDuplicate(t *tableState) string {
	var sets []string
	for _, c := range sample(g.r, t.valueColumns(), 1+g.r.IntN(2)) {
		switch {
		case c.Type.numeric() && g.r.IntN(2) == 0:
			sets = append(sets, fmt.Sprintf("%s = %s + VALUES(%s)", c.Name, c.Name, c.Name))
		case g.r.IntN(2) == 0:
			sets = append(sets, fmt.Sprintf("%s = COALESCE(%s, VALUES(%s))", c.Name, c.Name, c.Name))
		case g.r.IntN(2) == 0:
			sets = append(sets, fmt.Sprintf("%s = %s", c.Name, c.values(g.r)))
		default:
			sets = append(sets, fmt.Sprintf("%s = VALUES(%s)", c.Name, c.Name))
		}
	}
	return strings.Join(sets, ", ")
}

// update sets 1 or 2 non-key columns of the rows a predicate selects, or
// moves the rows of one id to a new id (which collides with no key).
func (g *writeGen) update(t *tableState) *Stmt {
	if id, ok := t.newID(g.r); ok && id != "" && g.r.IntN(6) == 0 {
		old := t.Column("id").values(g.r)
		return &Stmt{Table: t.Name, Text: fmt.Sprintf("UPDATE %s SET id = %s WHERE id = %s", t.Name, id, old)}
	}
	var sets []string
	for _, c := range sample(g.r, t.valueColumns(), 1+g.r.IntN(2)) {
		sets = append(sets, c.Name+" = "+g.newValue(t, c))
	}
	return &Stmt{Table: t.Name, Text: fmt.Sprintf("UPDATE %s SET %s WHERE %s", t.Name, strings.Join(sets, ", "), g.rowPred(t))}
}

// newValue is what an UPDATE sets c to: a literal, NULL, or arithmetic on
// the old value that stays in c's range.
func (g *writeGen) newValue(t *tableState, c Column) string {
	switch {
	case !c.NotNull && g.r.IntN(5) == 0:
		return "NULL"
	case c.Type.numeric() && g.r.IntN(2) == 0:
		return fmt.Sprintf("%s + %s", c.Name, []string{"1", "2", "-1"}[g.r.IntN(3)])
	case !c.NotNull && g.r.IntN(3) == 0:
		return fmt.Sprintf("COALESCE(%s, %s)", c.Name, c.values(g.r))
	default:
		return c.values(g.r)
	}
}

// delete removes the rows a predicate selects; from an append table also
// whole partitions, which lakesql deletes file by file, or every row.
func (g *writeGen) delete(t *tableState) *Stmt {
	if len(t.PrimaryKey) > 0 || g.r.IntN(2) == 0 {
		return &Stmt{Table: t.Name, Text: fmt.Sprintf("DELETE FROM %s WHERE %s", t.Name, g.rowPred(t))}
	}
	if len(t.PartitionKeys) == 0 {
		return &Stmt{Table: t.Name, Text: "DELETE FROM " + t.Name}
	}
	qg := &queryGen{r: g.r}
	f := &From{Table: t.Table, Alias: t.Name}
	var keys []*Col
	for _, c := range colsOf(f) {
		if t.isPartitionKey(c.Name) {
			keys = append(keys, c)
		}
	}
	return &Stmt{Table: t.Name, Text: fmt.Sprintf("DELETE FROM %s WHERE %s", t.Name, sqlOf(qg.valuePred(qg.pickCol(keys))))}
}

// rowPred is a predicate over t's columns, as queries filter: on keys
// (lookups, pruning), on other columns, or a subquery into the other
// tables (MySQL refuses one into the table being changed, error 1093).
func (g *writeGen) rowPred(t *tableState) string {
	qg := &queryGen{r: g.r, tables: g.otherTables(t)}
	f := &From{Table: t.Table, Alias: t.Name}
	switch {
	case len(qg.tables) > 0 && g.r.IntN(5) == 0:
		return sqlOf(qg.subqueryPred(&scope{from: []*From{f}}))
	case g.r.IntN(2) == 0:
		return sqlOf(qg.keyPred(f))
	default:
		return sqlOf(qg.pred(colsOf(f), 0))
	}
}

func (g *writeGen) otherTables(t *tableState) []*Table {
	var out []*Table
	for _, o := range g.tables {
		if o != t {
			out = append(out, o.Table)
		}
	}
	return out
}

// compact is CALL sys.compact on lakesql: the whole table, or some
// partitions, fully or as the universal picker chooses.
func (g *writeGen) compact(t *tableState) *Stmt {
	args := []string{quote(t.Name)}
	if len(t.PartitionKeys) > 0 && g.r.IntN(2) == 0 {
		var specs []string
		for range 1 + g.r.IntN(2) {
			specs = append(specs, t.partitionSpec(g.r))
		}
		args = append(args, quote(strings.Join(specs, ";")))
	}
	if g.r.IntN(3) == 0 {
		if len(args) == 1 {
			args = append(args, "NULL")
		}
		args = append(args, "'minor'")
	}
	return &Stmt{Table: t.Name, LakeSQLOnly: true, Text: fmt.Sprintf("CALL sys.compact(%s)", strings.Join(args, ", "))}
}

// partitionSpec is 'k=v,k2=v2' for one partition (that may be empty).
func (t *tableState) partitionSpec(r *rand.Rand) string {
	var parts []string
	for _, k := range t.PartitionKeys {
		v := t.Column(k).values(r)
		parts = append(parts, k+"="+strings.Trim(v, "'"))
	}
	return strings.Join(parts, ",")
}

// newID is the id of a new row: in a primary-key table one never written
// to it, or false when none is left; in an append table any id, or "" when
// it has no id column.
func (t *tableState) newID(r *rand.Rand) (string, bool) {
	switch {
	case !t.hasColumn("id"):
		return "", true
	case len(t.PrimaryKey) == 0:
		return t.Column("id").values(r), true
	}
	for range 100 {
		id := t.Column("id").values(r)
		if !t.usedIDs[id] {
			t.usedIDs[id] = true
			return id, true
		}
	}
	return "", false
}

// row is the literals of one row: id (when not empty) or the key values,
// then values of each column's domain, NULL in one of six nullable
// values.
func (t *tableState) row(r *rand.Rand, id string, key []string) []string {
	var row []string
	for i, c := range t.Columns {
		switch {
		case key != nil && t.isKey(c.Name):
			row = append(row, key[i])
		case c.Name == "id" && id != "":
			row = append(row, id)
		case !c.NotNull && r.IntN(6) == 0:
			row = append(row, "NULL")
		default:
			row = append(row, c.values(r))
		}
	}
	if len(t.PrimaryKey) > 0 {
		t.keys = append(t.keys, t.keyOf(row))
	}
	return row
}

// keyOf is the row with only its key columns kept (others empty), the
// form row takes a key in.
func (t *tableState) keyOf(row []string) []string {
	key := make([]string, len(row))
	for i, c := range t.Columns {
		if t.isKey(c.Name) {
			key[i] = row[i]
		}
	}
	return key
}

func (t *tableState) hasColumn(name string) bool {
	for _, c := range t.Columns {
		if c.Name == name {
			return true
		}
	}
	return false
}

func (t *tableState) columnNames() []string {
	var names []string
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	return names
}

// valueColumns are the columns that are neither key nor partition key.
func (t *tableState) valueColumns() []Column {
	var out []Column
	for _, c := range t.Columns {
		if !t.isKey(c.Name) && !t.isPartitionKey(c.Name) {
			out = append(out, c)
		}
	}
	return out
}
