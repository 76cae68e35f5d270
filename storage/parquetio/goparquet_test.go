package parquetio

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Rows written by parquet-go cover layouts Java does not write: bare
// repeated fields, repeated groups, data page v2 and many small pages.
type nestedPoint struct {
	X int32    `parquet:"x"`
	Y *float64 `parquet:"y,optional"`
}

type nestedInner struct {
	Names []*string    `parquet:"names,list"`
	Deep  *nestedPoint `parquet:"deep,optional"`
}

type nestedRow struct {
	ID     int64             `parquet:"id"`
	Bare   []int32           `parquet:"bare"`
	Tags   []string          `parquet:"tags,optional,list"`
	Points []nestedPoint     `parquet:"points"`
	Attrs  map[string]*int64 `parquet:"attrs"`
	Nested *nestedInner      `parquet:"nested,optional"`
}

func ptr[T any](v T) *T { return &v }

var (
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}
	pointType  = spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{Name: "x", Type: intType}, {Name: "y", Type: spec.DataType{Root: spec.Double, Nullable: true}},
	}}
)

func arrayOf(t spec.DataType) spec.DataType { return spec.DataType{Root: spec.Array, Element: &t} }

var nestedColumns = []ColumnRequest{
	{Name: "id", Type: bigintType},
	{Name: "bare", Type: arrayOf(intType)},
	{Name: "tags", Type: arrayOf(stringType)},
	{Name: "points", Type: arrayOf(pointType)},
	{Name: "attrs", Type: spec.DataType{Root: spec.Map, Key: &stringType, Value: &bigintType}},
	{Name: "nested", Type: spec.DataType{Root: spec.Row, Fields: []spec.DataField{
		{Name: "names", Type: arrayOf(stringType)},
		{Name: "deep", Type: pointType},
		{Name: "absent", Type: intType},
	}}},
	{Name: "no_such_column", Type: intType},
}

func nestedRows() ([]nestedRow, [][]any) {
	in := []nestedRow{
		{ID: 0},
		{ID: 1, Bare: []int32{1, 2, 3}, Tags: []string{}, Points: []nestedPoint{{X: 1}, {X: 2, Y: ptr(2.5)}},
			Attrs:  map[string]*int64{"a": ptr[int64](7)},
			Nested: &nestedInner{Names: []*string{ptr("n"), nil}, Deep: &nestedPoint{X: 9}}},
		{ID: 2, Tags: []string{"x", "y"}, Attrs: map[string]*int64{"k": nil},
			Nested: &nestedInner{}},
		{ID: 3, Bare: []int32{4}, Points: []nestedPoint{{X: 3, Y: ptr(-1.0)}}},
	}
	out := [][]any{
		{int64(0), []any{}, nil, []any{}, spec.MapValue{Keys: []any{}, Values: []any{}}, nil, nil},
		{int64(1), []any{int32(1), int32(2), int32(3)}, []any{}, []any{[]any{int32(1), nil}, []any{int32(2), 2.5}},
			spec.MapValue{Keys: []any{"a"}, Values: []any{int64(7)}},
			[]any{[]any{"n", nil}, []any{int32(9), nil}, nil}, nil},
		{int64(2), []any{}, []any{"x", "y"}, []any{}, spec.MapValue{Keys: []any{"k"}, Values: []any{nil}},
			[]any{[]any{}, nil, nil}, nil},
		{int64(3), []any{int32(4)}, nil, []any{[]any{int32(3), -1.0}}, spec.MapValue{Keys: []any{}, Values: []any{}}, nil, nil},
	}
	return in, out
}

// writeGoParquet writes rows with parquet-go in row groups of groupRows.
func writeGoParquet[T any](t testing.TB, rows []T, groupRows int64, options ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	options = append(options, parquet.MaxRowsPerRowGroup(groupRows), parquet.PageBufferSize(64))
	w := parquet.NewGenericWriter[T](&buf, options...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestNestedLayoutsWrittenByParquetGo(t *testing.T) {
	in, want := nestedRows()
	for _, version := range []int{1, 2} {
		data := writeGoParquet(t, in, 3, parquet.DataPageVersion(version))
		r, err := Open(bytes.NewReader(data), "nested.parquet")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.RowGroups()) != 2 {
			t.Fatalf("want 2 row groups, got %+v", r.RowGroups())
		}
		got, positions, err := readAll(t, r, nestedColumns)
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, got, want)
		if !reflect.DeepEqual(positions, []int64{0, 1, 2, 3}) {
			t.Errorf("positions %v", positions)
		}
	}
}

func TestRowGroupSubsetKeepsFilePositions(t *testing.T) {
	in, want := nestedRows()
	r, err := Open(bytes.NewReader(writeGoParquet(t, in, 1)), "groups.parquet")
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.NewRowGroupIterator(nestedColumns, []int{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for _, pos := range []int64{3, 1} {
		row, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if it.Position() != pos || !reflect.DeepEqual(row, want[pos]) {
			t.Errorf("position %d: got %v at %d", pos, row, it.Position())
		}
	}
	if _, err := it.Next(); err == nil {
		t.Fatal("expected io.EOF")
	}
}

func TestColumnStats(t *testing.T) {
	in, _ := nestedRows()
	r, err := Open(bytes.NewReader(writeGoParquet(t, in, 2)), "stats.parquet")
	if err != nil {
		t.Fatal(err)
	}
	stats, ok, err := r.ColumnStats(1, ColumnRequest{Name: "id", Type: bigintType})
	if err != nil || !ok {
		t.Fatalf("stats: %v %v", ok, err)
	}
	if stats.Min != int64(2) || stats.Max != int64(3) || stats.NullCount != 0 {
		t.Errorf("stats %+v", stats)
	}
	if _, ok, _ := r.ColumnStats(0, ColumnRequest{Name: "bare", Type: arrayOf(intType)}); ok {
		t.Error("stats of a repeated column")
	}
}

// A ROW whose requested fields are all absent still tells null rows from
// rows of nulls, using a leaf it does not decode.
func TestRowWithOnlyAbsentFields(t *testing.T) {
	in, _ := nestedRows()
	r, err := Open(bytes.NewReader(writeGoParquet(t, in, 10)), "absent.parquet")
	if err != nil {
		t.Fatal(err)
	}
	absentRow := spec.DataType{Root: spec.Row, Fields: []spec.DataField{{Name: "zz", Type: intType}}}
	got, _, err := readAll(t, r, []ColumnRequest{
		{Name: "nested", Type: absentRow},
		{Name: "points", Type: arrayOf(absentRow)},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, [][]any{
		{nil, []any{}},
		{[]any{nil}, []any{[]any{nil}, []any{nil}}},
		{[]any{nil}, []any{}},
		{nil, []any{[]any{nil}}},
	})
}

func TestTypeMismatchIsUnsupported(t *testing.T) {
	in, _ := nestedRows()
	r, err := Open(bytes.NewReader(writeGoParquet(t, in, 10)), "mismatch.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []ColumnRequest{
		{Name: "id", Type: stringType},
		{Name: "tags", Type: stringType},
		{Name: "id", Type: arrayOf(intType)},
		{Name: "attrs", Type: arrayOf(intType)},
	} {
		if _, err := r.NewRowIterator([]ColumnRequest{req}); !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%s as %s: got %v", req.Name, typeName(req.Type), err)
		}
	}
}

// listNode builds a schema tree and returns the root's only child.
func listNode(t *testing.T, elems ...format.SchemaElement) *schemaNode {
	t.Helper()
	root, _, err := buildSchemaTree("test", elems)
	if err != nil {
		t.Fatal(err)
	}
	return root.children[0]
}

func group(name string, rep format.FieldRepetitionType, children int32, list bool) format.SchemaElement {
	e := format.SchemaElement{Name: name}
	e.RepetitionType.V, e.RepetitionType.Valid = rep, true
	e.NumChildren.V, e.NumChildren.Valid = children, true
	if list {
		e.LogicalType.Value = &format.ListType{}
	}
	return e
}

func leaf(name string, rep format.FieldRepetitionType) format.SchemaElement {
	e := format.SchemaElement{Name: name}
	e.Type.V, e.Type.Valid = format.Int32, true
	e.RepetitionType.V, e.RepetitionType.Valid = rep, true
	return e
}

// The backward-compatibility rules of the Parquet LIST spec decide whether
// the repeated field or its child is the element.
func TestLegacyListLayouts(t *testing.T) {
	root := format.SchemaElement{Name: "m"}
	root.NumChildren.V, root.NumChildren.Valid = 1, true
	cases := map[string]struct {
		elems           []format.SchemaElement
		elementIsRepeat bool
	}{
		"three-level":       {[]format.SchemaElement{root, group("l", format.Optional, 1, true), group("list", format.Repeated, 1, false), leaf("element", format.Optional)}, false},
		"two-level":         {[]format.SchemaElement{root, group("l", format.Optional, 1, true), leaf("element", format.Repeated)}, true},
		"array group":       {[]format.SchemaElement{root, group("l", format.Optional, 1, true), group("array", format.Repeated, 1, false), leaf("x", format.Required)}, true},
		"tuple group":       {[]format.SchemaElement{root, group("l", format.Optional, 1, true), group("l_tuple", format.Repeated, 1, false), leaf("x", format.Required)}, true},
		"multi-field group": {[]format.SchemaElement{root, group("l", format.Optional, 1, true), group("pair", format.Repeated, 2, false), leaf("a", format.Required), leaf("b", format.Required)}, true},
	}
	for name, c := range cases {
		repeated, element, ok := listNode(t, c.elems...).listParts()
		if !ok || (element == repeated) != c.elementIsRepeat {
			t.Errorf("%s: ok=%v element=%s repeated=%s", name, ok, element.name(), repeated.name())
		}
	}
}
