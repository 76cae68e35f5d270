package parquetio

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// System columns of primary-key data files and their field ids (Java
// KeyValue and SpecialFields).
const (
	KeyColumnPrefix      = "_KEY_"
	SequenceNumberColumn = "_SEQUENCE_NUMBER"
	ValueKindColumn      = "_VALUE_KIND"

	KeyFieldIDOffset      = 1073741823 // Integer.MAX_VALUE / 2
	SequenceNumberFieldID = 2147483646 // Integer.MAX_VALUE - 1
	ValueKindFieldID      = 2147483645 // Integer.MAX_VALUE - 2
)

// KeyValue is one record of a primary-key data file.
type KeyValue struct {
	Key   []any
	Seq   int64
	Kind  spec.RowKind
	Value []any
	// Position is the record's row index in the file, the address that
	// deletion vectors use.
	Position int64
}

// KeyValueLayout maps the physical columns of a primary-key data file,
// `_KEY_<k>`…, _SEQUENCE_NUMBER, _VALUE_KIND, then every table column, to
// KeyValue records. In thin mode (data-file.thin-mode) the file has no
// _KEY_ columns and keys are copied from the value columns.
type KeyValueLayout struct {
	keyFields   []spec.DataField
	keyInValue  []int // position of each key field among the value fields
	valueFields []spec.DataField
	thin        bool
}

// NewKeyValueLayout describes files whose key columns are keyNames (the
// trimmed primary keys: primary keys minus partition keys, in order) and
// whose value columns are valueFields (the table fields of the schema the
// file was written with).
func NewKeyValueLayout(keyNames []string, valueFields []spec.DataField, thin bool) (*KeyValueLayout, error) {
	l := &KeyValueLayout{valueFields: valueFields, thin: thin}
	for _, name := range keyNames {
		i := fieldIndex(valueFields, name)
		if i < 0 {
			return nil, fmt.Errorf("parquetio: primary key %q is not a value field", name)
		}
		l.keyFields = append(l.keyFields, valueFields[i])
		l.keyInValue = append(l.keyInValue, i)
	}
	return l, nil
}

func fieldIndex(fields []spec.DataField, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Columns returns the column requests that Split expects rows of.
func (l *KeyValueLayout) Columns() []ColumnRequest {
	fields := l.Fields()
	out := make([]ColumnRequest, len(fields))
	for i, f := range fields {
		out[i] = ColumnRequest{Name: f.Name, Type: f.Type}
	}
	return out
}

// Fields returns the physical fields of the file, in order, with the
// field ids Java gives them: the schema of a Writer for such files.
func (l *KeyValueLayout) Fields() []spec.DataField {
	var out []spec.DataField
	if !l.thin {
		for _, f := range l.keyFields {
			out = append(out, spec.DataField{ID: f.ID + KeyFieldIDOffset, Name: KeyColumnPrefix + f.Name, Type: f.Type.WithNullable(false)})
		}
	}
	out = append(out,
		spec.DataField{ID: SequenceNumberFieldID, Name: SequenceNumberColumn, Type: spec.DataType{Root: spec.BigInt}},
		spec.DataField{ID: ValueKindFieldID, Name: ValueKindColumn, Type: spec.DataType{Root: spec.TinyInt}})
	return append(out, l.valueFields...)
}

// Row builds the physical row of a record for a Writer with Fields; the
// key columns are taken from kv.Key.
func (l *KeyValueLayout) Row(kv KeyValue) []any {
	var row []any
	if !l.thin {
		row = append(row, kv.Key...)
	}
	row = append(row, kv.Seq, int8(kv.Kind))
	return append(row, kv.Value...)
}

// Split divides a row read with Columns into its parts. Key and Value
// share row's backing array.
func (l *KeyValueLayout) Split(row []any) (KeyValue, error) {
	numKeys := len(l.keyFields)
	if l.thin {
		numKeys = 0
	}
	if len(row) != numKeys+2+len(l.valueFields) {
		return KeyValue{}, fmt.Errorf("parquetio: row of %d values does not match the key-value layout", len(row))
	}
	seq, ok := row[numKeys].(int64)
	if !ok {
		return KeyValue{}, fmt.Errorf("parquetio: %w: record without %s", lakeerr.ErrCorruption, SequenceNumberColumn)
	}
	kind, ok := row[numKeys+1].(int8)
	if !ok || kind < int8(spec.RowKindInsert) || kind > int8(spec.RowKindDelete) {
		return KeyValue{}, fmt.Errorf("parquetio: %w: invalid %s %v", lakeerr.ErrCorruption, ValueKindColumn, row[numKeys+1])
	}
	kv := KeyValue{Key: row[:numKeys:numKeys], Seq: seq, Kind: spec.RowKind(kind), Value: row[numKeys+2:]}
	if l.thin {
		kv.Key = make([]any, len(l.keyInValue))
		for i, j := range l.keyInValue {
			kv.Key[i] = kv.Value[j]
		}
	}
	return kv, nil
}

// KeyValueIterator streams the records of a primary-key data file.
type KeyValueIterator struct {
	rows   *RowIterator
	layout *KeyValueLayout
}

// NewKeyValueIterator reads the file as a primary-key data file with the
// given trimmed primary keys and value fields. Thin-mode files, which lack
// the _KEY_ columns, are recognised from the file schema.
func (r *Reader) NewKeyValueIterator(keyNames []string, valueFields []spec.DataField) (*KeyValueIterator, error) {
	all := make([]int, len(r.rowGroups))
	for i := range all {
		all[i] = i
	}
	return r.NewKeyValueRangeIterator(keyNames, valueFields, r.wholeGroups(all))
}

// NewKeyValueRangeIterator is NewKeyValueIterator over the given row
// ranges only, in the given order (see NewRowRangeIterator); positions
// stay file positions.
func (r *Reader) NewKeyValueRangeIterator(keyNames []string, valueFields []spec.DataField, ranges []RowRange) (*KeyValueIterator, error) {
	thin := len(keyNames) > 0 && r.root.child(KeyColumnPrefix+keyNames[0]) == nil
	layout, err := NewKeyValueLayout(keyNames, valueFields, thin)
	if err != nil {
		return nil, err
	}
	rows, err := r.NewRowRangeIterator(layout.Columns(), ranges)
	if err != nil {
		return nil, err
	}
	return &KeyValueIterator{rows: rows, layout: layout}, nil
}

// Next returns the next record, or io.EOF after the last one.
func (it *KeyValueIterator) Next() (KeyValue, error) {
	row, err := it.rows.Next()
	if err != nil {
		return KeyValue{}, err
	}
	kv, err := it.layout.Split(row)
	if err != nil {
		return KeyValue{}, fmt.Errorf("%w (file %s, row %d)", err, it.rows.reader.name, it.rows.Position())
	}
	kv.Position = it.rows.Position()
	return kv, nil
}

// Close releases the iterator's buffers.
func (it *KeyValueIterator) Close() error { return it.rows.Close() }
