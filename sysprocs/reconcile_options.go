package sysprocs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/sysprocs/reconcile"
)

// reconcileOptions are sys.reconcile's options argument:
// 'name=value; name=value', semicolon-separated so that values may hold
// commas:
//
//	chunk_rows=N          lake rows per chunk (default 1000)
//	limit=N               differences listed (default 100; all are counted)
//	where=<condition>     SQL condition on the source's rows
//	map.<column>=<expr>   the source's SQL expression for a lake column,
//	                      when its name or type differs there
//	ignore=<col>,<col>    lake columns not compared (not key columns)
//	key_order=source      compare string keys in the source's collation
//	                      (see reconcile.Column.BinaryOrder)
type reconcileOptions struct {
	compare reconcile.Options
	where   string
	mapping map[string]string
	ignore  []string
	// sourceOrder trusts the source's collation to order string keys as
	// the lake does (byte by byte), so that chunks are index ranges.
	sourceOrder bool
}

func parseReconcileOptions(text string) (reconcileOptions, error) {
	o := reconcileOptions{mapping: map[string]string{}}
	if isDefault(text) {
		return o, nil
	}
	for _, pair := range strings.Split(text, ";") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		name, value, ok := strings.Cut(pair, "=")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if !ok || name == "" {
			return o, fmt.Errorf("%q is not name=value", pair)
		}
		if err := o.set(name, value); err != nil {
			return o, err
		}
	}
	return o, nil
}

func (o *reconcileOptions) set(name, value string) error {
	var err error
	switch {
	case name == "chunk_rows":
		o.compare.ChunkRows, err = positive(name, value)
	case name == "limit":
		o.compare.Limit, err = positive(name, value)
	case name == "where":
		o.where = value
	case name == "ignore":
		for _, c := range strings.Split(value, ",") {
			o.ignore = append(o.ignore, strings.TrimSpace(c))
		}
	case name == "key_order":
		switch strings.ToLower(value) {
		case "binary":
			o.sourceOrder = false
		case "source":
			o.sourceOrder = true
		default:
			return fmt.Errorf("key_order %q: want binary or source", value)
		}
	case strings.HasPrefix(name, "map.") && len(name) > len("map."):
		o.mapping[name[len("map."):]] = value
	default:
		return fmt.Errorf("unknown option %s (options: chunk_rows, limit, where, map.<column>, ignore, key_order)", name)
	}
	return err
}

func positive(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s %q is not a positive whole number", name, value)
	}
	return n, nil
}

// columns are the compared columns of a lake table of schema s: its
// primary key in key order, which the comparison walks, then its other
// columns, less those ignored, each with the source's expression.
func (o reconcileOptions) columns(s *spec.TableSchema) ([]reconcile.Column, error) {
	for _, name := range o.ignore {
		switch {
		case s.FieldIndex(name) < 0:
			return nil, fmt.Errorf("ignore: %s is not a column", name)
		case slices.Contains(s.PrimaryKeys, name):
			return nil, fmt.Errorf("ignore: %s is a key column, which the comparison needs", name)
		}
	}
	for name := range o.mapping {
		if fieldIndexFold(s, name) < 0 {
			return nil, fmt.Errorf("map.%s: not a column", name)
		}
	}
	var cols []reconcile.Column
	for _, name := range s.PrimaryKeys {
		f := s.Fields[s.FieldIndex(name)]
		cols = append(cols, reconcile.Column{Name: name, Source: o.sourceExpr(f), Key: true, BinaryOrder: isText(f.Type) && !o.sourceOrder})
	}
	for _, f := range s.Fields {
		if !slices.Contains(s.PrimaryKeys, f.Name) && !slices.Contains(o.ignore, f.Name) {
			cols = append(cols, reconcile.Column{Name: f.Name, Source: o.sourceExpr(f)})
		}
	}
	return cols, nil
}

// sourceExpr is the source's expression of lake column f: the column of
// the same name, or what the options map it to. A FLOAT is compared as
// the DOUBLE of its value, because MySQL and MariaDB print a FLOAT rounded
// to 6 significant digits, where the DOUBLE's shortest digits are exact
// (lakeTexts prints the lake's FLOAT the same way).
func (o reconcileOptions) sourceExpr(f spec.DataField) string {
	expr, ok := o.mapping[strings.ToLower(f.Name)]
	if !ok {
		expr = reconcile.QuoteName(f.Name)
	}
	if f.Type.Root == spec.Float {
		return "CAST(" + expr + " AS DOUBLE)"
	}
	return expr
}

func fieldIndexFold(s *spec.TableSchema, name string) int {
	return slices.IndexFunc(s.Fields, func(f spec.DataField) bool { return strings.EqualFold(f.Name, name) })
}

// isText reports whether a column's values are strings, which the source
// may order by a collation rather than byte by byte.
func isText(t spec.DataType) bool {
	switch t.Root {
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return true
	}
	return false
}
