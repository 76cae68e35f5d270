package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestRowMapping(t *testing.T) {
	intT, bigintT, strT := typ(t, "INT"), typ(t, "BIGINT"), typ(t, "STRING")
	tests := []struct {
		name      string
		file      []spec.DataField
		read      []spec.DataField
		wantNames []string
		identity  bool
		in, want  []any
	}{
		{
			name: "unchanged", identity: true,
			file:      []spec.DataField{field(0, "a", intT), field(1, "b", strT)},
			read:      []spec.DataField{field(0, "a", intT), field(1, "b", strT)},
			wantNames: []string{"a", "b"}, in: []any{int32(1), "x"}, want: []any{int32(1), "x"},
		},
		{
			name: "rename keeps the old file name", identity: true,
			file:      []spec.DataField{field(0, "a", intT)},
			read:      []spec.DataField{field(0, "renamed", intT)},
			wantNames: []string{"a"}, in: []any{int32(1)}, want: []any{int32(1)},
		},
		{
			name:      "added column is null",
			file:      []spec.DataField{field(0, "a", intT)},
			read:      []spec.DataField{field(0, "a", intT), field(1, "b", strT)},
			wantNames: []string{"a"}, in: []any{int32(1)}, want: []any{int32(1), nil},
		},
		{
			name: "dropped column is not read", identity: true,
			file:      []spec.DataField{field(0, "a", intT), field(1, "b", intT), field(2, "c", intT)},
			read:      []spec.DataField{field(0, "a", intT), field(2, "c", intT)},
			wantNames: []string{"a", "c"}, in: []any{int32(1), int32(3)}, want: []any{int32(1), int32(3)},
		},
		{
			name:      "reorder reads in file order",
			file:      []spec.DataField{field(0, "a", intT), field(1, "b", strT)},
			read:      []spec.DataField{field(1, "b", strT), field(0, "a", intT)},
			wantNames: []string{"a", "b"}, in: []any{int32(1), "x"}, want: []any{"x", int32(1)},
		},
		{
			name:      "re-added name gets null for old files",
			file:      []spec.DataField{field(0, "a", intT), field(1, "b", intT)},
			read:      []spec.DataField{field(0, "a", intT), field(2, "b", intT)},
			wantNames: []string{"a"}, in: []any{int32(1)}, want: []any{int32(1), nil},
		},
		{
			name:      "type change with rename",
			file:      []spec.DataField{field(0, "a", intT)},
			read:      []spec.DataField{field(0, "x", bigintT)},
			wantNames: []string{"a"}, in: []any{int32(7)}, want: []any{int64(7)},
		},
		{
			name:      "projection reads only the projected column",
			file:      []spec.DataField{field(0, "a", intT), field(1, "b", intT), field(2, "c", strT)},
			read:      []spec.DataField{field(2, "c", strT)},
			wantNames: []string{"c"}, in: []any{"z"}, want: []any{"z"}, identity: true,
		},
		{
			name: "null passes through a cast",
			file: []spec.DataField{field(0, "a", strT)}, read: []spec.DataField{field(0, "a", intT)},
			wantNames: []string{"a"}, in: []any{nil}, want: []any{nil},
		},
	}
	for _, tt := range tests {
		m, err := NewRowMapping(tt.file, tt.read, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := m.FileColumnNames(); !reflect.DeepEqual(got, tt.wantNames) {
			t.Errorf("%s: file columns %v, want %v", tt.name, got, tt.wantNames)
		}
		if m.Identity() != tt.identity {
			t.Errorf("%s: identity = %v", tt.name, m.Identity())
		}
		got, err := m.Apply(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Apply = %#v, %v; want %#v", tt.name, got, err, tt.want)
		}
	}
}

func TestRowMappingNestedRow(t *testing.T) {
	intT, bigintT, strT := typ(t, "INT"), typ(t, "BIGINT"), typ(t, "STRING")
	file := []spec.DataField{
		field(0, "id", intT),
		field(1, "s", rowOf(field(2, "x", intT), field(3, "y", strT), field(4, "z", intT))),
	}
	// z widened and moved first, y dropped, w added, x renamed to x2.
	read := []spec.DataField{
		field(1, "s", rowOf(field(4, "z", bigintT), field(5, "w", intT), field(2, "x2", intT))),
	}
	m, err := NewRowMapping(file, read, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The file type is pruned to the read fields, in read order, with the
	// file's names and types.
	wantFile := []spec.DataField{field(1, "s", rowOf(field(4, "z", intT), field(2, "x", intT)))}
	if got := m.FileFields(); !reflect.DeepEqual(got, wantFile) {
		t.Errorf("file fields %v, want %v", got, wantFile)
	}
	got, err := m.Apply([]any{[]any{int32(4), int32(2)}})
	if want := []any{[]any{int64(4), nil, int32(2)}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Apply = %#v, %v; want %#v", got, err, want)
	}
	if got, err := m.Apply([]any{nil}); err != nil || !reflect.DeepEqual(got, []any{nil}) {
		t.Errorf("Apply(null row) = %#v, %v", got, err)
	}
}

func TestRowMappingNestedPruning(t *testing.T) {
	intT, bigintT := typ(t, "INT"), typ(t, "BIGINT")
	tests := []struct {
		name     string
		file     spec.DataType
		read     spec.DataType
		wantFile []spec.DataField
		in, want []any
	}{
		{
			name: "row with no read field left is not read",
			file: rowOf(field(2, "x", intT)), read: rowOf(field(5, "w", intT)),
			wantFile: nil, in: []any{}, want: []any{nil},
		},
		{
			name:     "array of rows",
			file:     arrayOf(rowOf(field(2, "x", intT), field(3, "y", intT))),
			read:     arrayOf(rowOf(field(3, "y", bigintT))),
			wantFile: []spec.DataField{field(1, "c", arrayOf(rowOf(field(3, "y", intT))))},
			in:       []any{[]any{[]any{int32(7)}, nil}}, want: []any{[]any{[]any{int64(7)}, nil}},
		},
		{
			name:     "map of rows",
			file:     mapOf(intT, rowOf(field(2, "x", intT), field(3, "y", intT))),
			read:     mapOf(intT, rowOf(field(2, "x", intT))),
			wantFile: []spec.DataField{field(1, "c", mapOf(intT, rowOf(field(2, "x", intT))))},
			in:       []any{spec.MapValue{Keys: []any{int32(1)}, Values: []any{[]any{int32(9)}}}},
			want:     []any{spec.MapValue{Keys: []any{int32(1)}, Values: []any{[]any{int32(9)}}}},
		},
	}
	for _, tt := range tests {
		m, err := NewRowMapping([]spec.DataField{field(1, "c", tt.file)}, []spec.DataField{field(1, "c", tt.read)}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := m.FileFields(); !reflect.DeepEqual(got, tt.wantFile) {
			t.Errorf("%s: file fields %v, want %v", tt.name, got, tt.wantFile)
		}
		got, err := m.Apply(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Apply = %#v, %v; want %#v", tt.name, got, err, tt.want)
		}
	}
}

func TestRowMappingErrors(t *testing.T) {
	intT, strT := typ(t, "INT"), typ(t, "STRING")
	_, err := NewRowMapping([]spec.DataField{field(0, "d", typ(t, "DATE"))}, []spec.DataField{field(0, "d", intT)}, Options{})
	if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), `column "d"`) {
		t.Errorf("DATE -> INT: err = %v", err)
	}
	_, err = NewRowMapping([]spec.DataField{field(0, "r", intT)}, []spec.DataField{field(0, "r", rowOf(field(1, "x", intT)))}, Options{})
	if !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("INT -> ROW: err = %v", err)
	}

	m, err := NewRowMapping([]spec.DataField{field(0, "n", strT)}, []spec.DataField{field(0, "n", intT)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Apply([]any{"12x"})
	if !errors.Is(err, ErrCastFailed) || !strings.Contains(err.Error(), "failed to cast value for field 'n'") ||
		!strings.Contains(err.Error(), "For input string: '12x'. Invalid character found.") {
		t.Errorf("bad string: err = %v", err)
	}
	if _, err := m.Apply([]any{"1", "2"}); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("wrong width: err = %v", err)
	}
}
