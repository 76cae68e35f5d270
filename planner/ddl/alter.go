package ddl

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// AlterChanges returns the schema changes of the table-level clauses of an
// ALTER TABLE statement, which GMS v0.20.0 parses and then drops without
// calling the table (its parser does not even keep the comment):
//
//   - COMMENT [=] '…' replaces the table comment with the comment's free
//     text and sets the options it carries; an option given as null is
//     removed, and options it does not name are kept;
//   - ENGINE [=] name is checked as in CREATE TABLE and changes nothing;
//   - PARTITION BY and REMOVE PARTITIONING fail with
//     lakeerr.ErrUnsupported: Paimon fixes partition keys at creation, and
//     the bucket count changes with option "bucket" (in the comment).
//
// Column clauses are left to GMS, which calls sql.AlterableTable; see
// AddColumnChange and ModifyColumnChanges. Changes to options the
// statement sets to their current value are left out; the catalog decides
// which other changes the table allows.
func AlterChanges(query string, current *spec.TableSchema) ([]catalog.SchemaChange, error) {
	stmt, err := sqlparser.Parse(query)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if _, ok := stmt.(*sqlparser.AlterTable); !ok {
		return nil, fmt.Errorf("%w: not an ALTER TABLE statement: %.60q", ErrSyntax, query)
	}
	tokens, _, err := scan(query)
	if err != nil {
		return nil, err
	}
	var changes []catalog.SchemaChange
	for _, clause := range alterClauses(tokens) {
		clauseChanges, err := clauseChanges(clause, current)
		if err != nil {
			return nil, err
		}
		changes = append(changes, clauseChanges...)
	}
	return changes, nil
}

// alterClauses splits the tokens after ALTER [IGNORE] TABLE name at the
// top-level commas. A PARTITION BY clause, which follows the name without
// a comma, starts a clause of its own.
func alterClauses(tokens []token) [][]token {
	c := &tokenCursor{tokens: tokens}
	c.accept("alter")
	c.accept("ignore")
	c.accept("table")
	c.pos++ // the table name …
	if c.accept(".") {
		c.pos++ // … or database.table
	}
	var clauses [][]token
	start, depth := c.pos, 0
	for i := c.pos; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && (t.is(",") || t.is(";")):
			clauses = append(clauses, tokens[start:i])
			start = i + 1
		case depth == 0 && t.is("partition") && i > start && i+1 < len(tokens) && tokens[i+1].is("by"):
			clauses = append(clauses, tokens[start:i])
			start = i
		}
	}
	return append(clauses, tokens[start:])
}

// clauseChanges handles one clause. Vitess takes one table option per
// clause, so a clause is one option or a column clause.
func clauseChanges(clause []token, current *spec.TableSchema) ([]catalog.SchemaChange, error) {
	c := &tokenCursor{tokens: clause}
	switch {
	case c.accept("comment"):
		c.accept("=")
		comment, err := stringLiteral(c)
		if err != nil {
			return nil, err
		}
		return commentChanges(comment, current)
	case c.accept("engine"):
		c.accept("=")
		engine, _ := c.peek().ident()
		return nil, checkEngineName(engine)
	case c.peek().is("partition") && len(clause) > 1 && clause[1].is("by"),
		c.peek().is("remove") && len(clause) > 1 && clause[1].is("partitioning"):
		return nil, fmt.Errorf("%w: changing partitioning: a Paimon table's partition keys are fixed when it is "+
			"created; change the bucket count with COMMENT 'paimon:{\"bucket\":\"n\"}'", lakeerr.ErrUnsupported)
	}
	// Column clauses are GMS's; other table options change nothing in Paimon.
	return nil, nil
}

// stringLiteral returns the value of the string literal at the cursor,
// unescaped by vitess's own lexer so that it reads exactly as GMS would.
func stringLiteral(c *tokenCursor) (string, error) {
	t := c.peek()
	if t.kind != stringToken {
		return "", c.errorf("expected a string literal")
	}
	typ, value := sqlparser.NewStringTokenizer(t.text).Scan()
	if typ != sqlparser.STRING {
		return "", c.errorf("expected a string literal")
	}
	return string(value), nil
}

// commentChanges turns a new table comment into changes of the comment
// and options.
func commentChanges(comment string, current *spec.TableSchema) ([]catalog.SchemaChange, error) {
	parsed, err := parseComment(comment)
	if err != nil {
		return nil, err
	}
	var changes []catalog.SchemaChange
	if current.Comment == nil || *current.Comment != parsed.text {
		changes = append(changes, catalog.UpdateComment{Comment: parsed.text})
	}
	for _, key := range slices.Sorted(maps.Keys(parsed.set)) {
		if value, ok := current.Options[key]; !ok || value != parsed.set[key] {
			changes = append(changes, catalog.SetOption{Key: key, Value: parsed.set[key]})
		}
	}
	for _, key := range parsed.remove {
		if _, ok := current.Options[key]; ok {
			changes = append(changes, catalog.RemoveOption{Key: key})
		}
	}
	return changes, nil
}

// AddColumnChange is the change for sql.AlterableTable.AddColumn, which
// GMS calls for ALTER TABLE … ADD COLUMN with the declared column and its
// FIRST / AFTER position (order is nil when none is given). Paimon adds
// nullable columns only, as existing rows read the new column as NULL;
// NOT NULL, DEFAULT, AUTO_INCREMENT, generated columns and PRIMARY KEY
// fail with lakeerr.ErrUnsupported.
func AddColumnChange(col *sql.Column, order *sql.ColumnOrder) (catalog.AddColumn, error) {
	if err := checkColumn(col); err != nil {
		return catalog.AddColumn{}, err
	}
	if !col.Nullable || col.PrimaryKey {
		return catalog.AddColumn{}, fmt.Errorf("%w: column %s: Paimon adds nullable non-key columns only; "+
			"rows written before read it as NULL", lakeerr.ErrUnsupported, col.Name)
	}
	typ, err := sqltypes.PaimonType(col.Type, true)
	if err != nil {
		return catalog.AddColumn{}, fmt.Errorf("column %s: %w", col.Name, err)
	}
	add := catalog.AddColumn{Name: col.Name, Type: typ, Comment: col.Comment}
	if order != nil {
		add.First, add.After = order.First, order.AfterColumn
	}
	return add, nil
}

// ModifyColumnChanges is the changes for sql.AlterableTable.ModifyColumn,
// which GMS calls with the column's complete new definition for MODIFY
// COLUMN, CHANGE COLUMN, RENAME COLUMN and ALTER COLUMN … SET/DROP
// DEFAULT. They are told apart by comparing with the current field:
//
//   - a new name gives RenameColumn;
//   - a type whose Paimon type differs from that of the type the field is
//     shown as gives UpdateColumnType; comparing with the shown type keeps
//     the type of a renamed TIMESTAMP(9) column, which GMS shows as
//     datetime(6), and ignores collation changes, which Paimon lacks;
//   - another comment gives UpdateColumnComment: MODIFY replaces the whole
//     definition, so leaving COMMENT out removes the comment, as in MySQL.
//
// Moving a column (FIRST / AFTER), changing NULL / NOT NULL and setting a
// default fail with lakeerr.ErrUnsupported. The changes name the column
// by its old name and rename it last.
func ModifyColumnChanges(current *spec.TableSchema, name string, col *sql.Column, order *sql.ColumnOrder) ([]catalog.SchemaChange, error) {
	i := slices.IndexFunc(current.Fields, func(f spec.DataField) bool { return strings.EqualFold(f.Name, name) })
	if i < 0 {
		return nil, fmt.Errorf("%w: %s", catalog.ErrColumnNotFound, name)
	}
	field := current.Fields[i]
	if err := checkModification(field, col, order); err != nil {
		return nil, err
	}
	changes, err := typeChange(field, col)
	if err != nil {
		return nil, err
	}
	if col.Comment != field.Description {
		changes = append(changes, catalog.UpdateColumnComment{Name: field.Name, Comment: col.Comment})
	}
	if col.Name != field.Name {
		changes = append(changes, catalog.RenameColumn{Name: field.Name, NewName: col.Name})
	}
	return changes, nil
}

// typeChange returns the type change of a modified column, if any.
func typeChange(field spec.DataField, col *sql.Column) ([]catalog.SchemaChange, error) {
	shown, err := sqltypes.DeclaredType(field.Type)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", field.Name, err)
	}
	shownAs, err := sqltypes.PaimonType(shown, field.Type.Nullable)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", field.Name, err)
	}
	typ, err := sqltypes.PaimonType(col.Type, field.Type.Nullable)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", col.Name, err)
	}
	if reflect.DeepEqual(typ, shownAs) {
		return nil, nil
	}
	return []catalog.SchemaChange{catalog.UpdateColumnType{Name: field.Name, NewType: typ}}, nil
}

func checkModification(field spec.DataField, col *sql.Column, order *sql.ColumnOrder) error {
	if err := checkColumn(col); err != nil {
		return err
	}
	switch {
	case order != nil:
		return fmt.Errorf("%w: column %s: moving columns (FIRST / AFTER)", lakeerr.ErrUnsupported, field.Name)
	case col.Nullable != field.Type.Nullable:
		return fmt.Errorf("%w: column %s: changing NULL / NOT NULL", lakeerr.ErrUnsupported, field.Name)
	}
	return nil
}
