package parquetio

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/encoding/thrift"
)

// footerFieldIDs lists the schema elements of a Parquet file in footer
// order as "name=id", or "name=-" for an element without a field id. It
// decodes the footer with the writer's own schemaElement, which tells
// field id 0 from no id; format.SchemaElement cannot.
func footerFieldIDs(t *testing.T, data []byte) []string {
	t.Helper()
	n := binary.LittleEndian.Uint32(data[len(data)-8:])
	var meta fileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-int(n):len(data)-8], &meta); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(meta.Schema))
	for i, e := range meta.Schema {
		out[i] = e.Name + "=-"
		if id, ok := e.FieldID.Get(); ok {
			out[i] = fmt.Sprintf("%s=%d", e.Name, id)
		}
	}
	return out
}

// Every field node carries its Paimon field id, 0 included; collection
// parts carry the ids Java's SpecialFields derives from the enclosing
// field and the depth; the root and the repeated list and key_value
// groups carry none (ParquetSchemaConverter.convertToParquetType).
func TestWriterFieldIDs(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}
	integer := typ(spec.Int, true)
	innerArray := nullableArray(integer)
	row := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{{ID: 9, Name: "a", Type: integer}}}
	values := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 7, Name: "aa", Type: nullableArray(innerArray)},
		{ID: 8, Name: "m", Type: spec.DataType{Root: spec.Map, Nullable: true, Key: &str, Value: &row}},
		{ID: 10, Name: "ms", Type: spec.DataType{Root: spec.Multiset, Nullable: true, Element: &str}},
	}
	layout, err := NewKeyValueLayout([]string{"id"}, values, false)
	if err != nil {
		t.Fatal(err)
	}
	valueIDs := []string{
		"id=0",
		"aa=7", "list=-", "element=536878080", "list=-", "element=536878081",
		"m=8", "key_value=-", "key=536862718", "value=536879104", "a=9",
		"ms=10", "key_value=-", "key=536860670", "value=536881152",
	}
	cases := []struct {
		name   string
		fields []spec.DataField
		want   []string
	}{
		{"append", values, append([]string{"paimon_schema=-"}, valueIDs...)},
		{"key-value", layout.Fields(), append([]string{"paimon_schema=-",
			"_KEY_id=1073741823", "_SEQUENCE_NUMBER=2147483646", "_VALUE_KIND=2147483645"}, valueIDs...)},
	}
	for _, c := range cases {
		got := footerFieldIDs(t, writeFile(t, c.fields, nil, WriterOptions{}))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got  %v\n want %v", c.name, got, c.want)
		}
	}
}
