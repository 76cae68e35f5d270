package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
)

// pendingOverwrite is an INSERT OVERWRITE the session is parsing: the
// INSERT it became writes into the transaction, and the commit replaces
// what the overwrite covers.
type pendingOverwrite struct {
	db, table string
	// static maps static partition columns to their typed values; nil for a
	// dynamic overwrite (the partitions of the rows written).
	static map[string]any
}

// setPendingOverwrite records the overwrite of the statement being parsed;
// nil clears it, so that a statement that failed before writing leaves
// nothing behind for the next one.
func (s *Session) setPendingOverwrite(o *pendingOverwrite) {
	s.overwriteMu.Lock()
	s.overwrite = o
	s.overwriteMu.Unlock()
}

// takePendingOverwrite returns and clears the pending overwrite if it
// targets the table.
func (s *Session) takePendingOverwrite(db, table string) *pendingOverwrite {
	s.overwriteMu.Lock()
	defer s.overwriteMu.Unlock()
	o := s.overwrite
	if o == nil || !strings.EqualFold(o.db, db) || !strings.EqualFold(o.table, table) {
		return nil
	}
	s.overwrite = nil
	return o
}

// prepareOverwrite types an INSERT OVERWRITE against its table and returns
// the INSERT to run. Static partition values come from the PARTITION
// clause, not from the rows, so the INSERT selects them as constants after
// the source's columns: `INSERT INTO t (c…, p…) SELECT src.*, 'v'… FROM
// (source) AS src`.
func (s *Session) prepareOverwrite(ctx *sql.Context, o *rewrite.Overwrite, rewritten string) (string, *pendingOverwrite, error) {
	db := o.Database
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	t, err := s.backend.OpenTable(ctx, db, o.Table)
	if err != nil {
		return "", nil, mysqlerr.From(err)
	}
	schema, err := t.LatestSchema(ctx)
	if err != nil {
		return "", nil, mysqlerr.From(err)
	}
	pending := &pendingOverwrite{db: db, table: o.Table}
	if o.Dynamic || len(o.StaticPartition) == 0 {
		return rewritten, pending, nil
	}
	pending.static = map[string]any{}
	var names, constants []string
	for _, kv := range o.StaticPartition {
		f, err := partitionField(schema, kv.Column)
		if err != nil {
			return "", nil, err
		}
		v, err := typedLiteral(ctx, f, kv.Value)
		if err != nil {
			return "", nil, err
		}
		pending.static[f.Name] = v
		names = append(names, quoteIdent(f.Name))
		constants = append(constants, quoteString(kv.Value))
	}
	columns := o.Columns
	if columns == nil {
		columns = columnsExcept(schema, pending.static)
	}
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = quoteIdent(c)
	}
	insert := fmt.Sprintf("INSERT INTO %s.%s (%s) SELECT src.*, %s FROM (%s) AS src",
		quoteIdent(db), quoteIdent(o.Table), strings.Join(append(quoted, names...), ", "),
		strings.Join(constants, ", "), derivedSource(o.Source))
	return insert, pending, nil
}

func partitionField(schema *spec.TableSchema, column string) (spec.DataField, error) {
	for _, k := range schema.PartitionKeys {
		if strings.EqualFold(k, column) {
			return schema.Fields[schema.FieldIndex(k)], nil
		}
	}
	return spec.DataField{}, unsupportedf("INSERT OVERWRITE … PARTITION (%s): %s is not a partition column; the partition columns are %v", column, column, schema.PartitionKeys)
}

// typedLiteral converts a PARTITION clause literal to the column's value,
// the way MySQL converts a literal assigned to the column.
func typedLiteral(ctx *sql.Context, f spec.DataField, literal string) (any, error) {
	typ, err := sqltypes.Type(f.Type)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	v, _, err := typ.Convert(ctx, literal)
	if err != nil {
		return nil, fmt.Errorf("partition value %q for %s: %w", literal, f.Name, err)
	}
	out, err := sqltypes.FromSQL(f.Type, v)
	return out, mysqlerr.From(err)
}

func columnsExcept(schema *spec.TableSchema, static map[string]any) []string {
	var out []string
	for _, f := range schema.Fields {
		if _, ok := static[f.Name]; !ok {
			out = append(out, f.Name)
		}
	}
	return out
}

// derivedSource spells the overwrite's source as a derived table: a query
// as it is, a VALUES list with the ROW constructors MySQL requires there.
func derivedSource(source string) string {
	trimmed := strings.TrimSpace(source)
	if len(trimmed) < 6 || !strings.EqualFold(trimmed[:6], "VALUES") {
		return trimmed
	}
	return "VALUES " + rowConstructors(trimmed[6:])
}

// rowConstructors prefixes each top-level parenthesised tuple with ROW.
func rowConstructors(tuples string) string {
	var b strings.Builder
	depth := 0
	var quote byte
	for i := 0; i < len(tuples); i++ {
		c := tuples[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(tuples) {
				b.WriteByte(c)
				i++
				c = tuples[i]
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			if depth == 0 && !hasRowPrefix(b.String()) {
				b.WriteString("ROW")
			}
			depth++
		case c == ')':
			depth--
		}
		b.WriteByte(c)
	}
	return b.String()
}

func hasRowPrefix(before string) bool {
	t := strings.TrimRight(before, " \t\r\n")
	return len(t) >= 3 && strings.EqualFold(t[len(t)-3:], "ROW")
}

func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// overwriteFor is the commit.Overwrite of a pending overwrite, against the
// snapshot the transaction read.
func (o *pendingOverwrite) overwriteFor(base int64) *commit.Overwrite {
	return &commit.Overwrite{BaseSnapshotID: base, Static: o.static}
}
