package predicate

import (
	"errors"

	"github.com/lakesql/lakesql/storage/spec"
)

// ErrLiteral marks a literal that cannot be converted to the type of the
// column it is compared with. See the package documentation for the casts.
var ErrLiteral = errors.New("predicate: literal does not convert to the column type")

// Tri is a truth value of SQL's three-valued logic. The order
// False < Unknown < True makes AND the minimum and OR the maximum.
type Tri int8

const (
	False Tri = iota
	Unknown
	True
)

// Not is three-valued negation: NOT UNKNOWN is UNKNOWN.
func (t Tri) Not() Tri { return True - t }

// String returns TRUE, FALSE or UNKNOWN.
func (t Tri) String() string {
	switch t {
	case True:
		return "TRUE"
	case False:
		return "FALSE"
	}
	return "UNKNOWN"
}

func triOf(b bool) Tri {
	if b {
		return True
	}
	return False
}

// Maybe is the answer of a pruning test. The zero value is Might, the
// answer that is always safe.
type Maybe int8

const (
	// Might says the data might hold a row for which the predicate is TRUE.
	Might Maybe = iota
	// Cannot says it is proven that no row makes the predicate TRUE, so the
	// data can be skipped.
	Cannot
)

// String returns "might" or "cannot".
func (m Maybe) String() string {
	if m == Cannot {
		return "cannot"
	}
	return "might"
}

// Stats describes the rows of a file, a partition or a manifest for Test.
// Columns is indexed like the rows the predicate evaluates (see Remap); a
// column beyond its end has unknown statistics. RowCount must be the exact
// number of rows the statistics cover, because a null count equal to it
// proves a column all-null; pass a negative RowCount when it is unknown.
type Stats struct {
	RowCount int64
	Columns  []spec.ColumnStats
}

func (s Stats) column(index int) (spec.ColumnStats, bool) {
	if index < 0 || index >= len(s.Columns) {
		return spec.ColumnStats{}, false
	}
	return s.Columns[index], true
}

// Column is the column a leaf reads: its position in the rows the predicate
// evaluates, plus the identity and type of the schema field it was built
// against (the type decides how literals convert and values compare).
type Column struct {
	Index int
	ID    int
	Name  string
	Type  spec.DataType
}

// ColumnOf returns the column for field f at position index of a row.
func ColumnOf(index int, f spec.DataField) Column {
	return Column{Index: index, ID: f.ID, Name: f.Name, Type: f.Type}
}

// Predicate is a filter over rows. Implementations are *LeafPredicate,
// *Compound and Constant; build them with Leaf, Like, And, Or, Not. A
// Predicate is immutable and safe for concurrent use.
type Predicate interface {
	// Eval evaluates the predicate on a full row, indexed by Column.Index.
	// A row shorter than an index reads that column as NULL (a column added
	// after the row was written). Values must have the Go types of
	// spec/values.go for the column type.
	Eval(row []any) Tri
	// Test reports whether rows described by stats might make the
	// predicate TRUE.
	Test(stats Stats) Maybe
	// String renders the predicate as SQL, for EXPLAIN.
	String() string

	negate() Predicate
	appendColumns(dst []int) []int
	remap(to []int) (Predicate, bool)
}

// Constant is a predicate with the same value for every row, produced when
// literals fold (x = NULL is Constant(Unknown)) and by empty AND/OR.
type Constant Tri

// Eval returns the constant.
func (c Constant) Eval([]any) Tri { return Tri(c) }

// Test returns Might only for a TRUE constant.
func (c Constant) Test(Stats) Maybe {
	if Tri(c) == True {
		return Might
	}
	return Cannot
}

// String returns TRUE, FALSE or NULL.
func (c Constant) String() string {
	if Tri(c) == Unknown {
		return "NULL"
	}
	return Tri(c).String()
}

func (c Constant) negate() Predicate             { return Constant(Tri(c).Not()) }
func (c Constant) appendColumns(dst []int) []int { return dst }
func (c Constant) remap([]int) (Predicate, bool) { return c, true }
