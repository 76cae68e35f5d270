package spec

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func ptrType(t DataType) *DataType { return &t }

// TestParseDataTypeForms covers every atomic spelling Java's
// DataTypeJsonParser accepts, the type it denotes and the string Java's
// asSQLString prints for it.
func TestParseDataTypeForms(t *testing.T) {
	tests := []struct {
		input string
		want  DataType
		sql   string
	}{
		{"BOOLEAN", DataType{Root: Boolean, Nullable: true}, "BOOLEAN"},
		{"TINYINT", DataType{Root: TinyInt, Nullable: true}, "TINYINT"},
		{"SMALLINT NOT NULL", DataType{Root: SmallInt}, "SMALLINT NOT NULL"},
		{"INT", DataType{Root: Int, Nullable: true}, "INT"},
		{"INTEGER", DataType{Root: Int, Nullable: true}, "INT"},
		{"int not null", DataType{Root: Int}, "INT NOT NULL"},
		{"INT NULL", DataType{Root: Int, Nullable: true}, "INT"},
		{"BIGINT", DataType{Root: BigInt, Nullable: true}, "BIGINT"},
		{"FLOAT", DataType{Root: Float, Nullable: true}, "FLOAT"},
		{"DOUBLE", DataType{Root: Double, Nullable: true}, "DOUBLE"},
		{"DOUBLE PRECISION NOT NULL", DataType{Root: Double}, "DOUBLE NOT NULL"},
		{"DATE", DataType{Root: Date, Nullable: true}, "DATE"},
		{"VARIANT", DataType{Root: Variant, Nullable: true}, "VARIANT"},
		{"BLOB NOT NULL", DataType{Root: Blob}, "BLOB NOT NULL"},
		{"CHAR", DataType{Root: Char, Nullable: true, Length: 1}, "CHAR(1)"},
		{"CHAR(8)", DataType{Root: Char, Nullable: true, Length: 8}, "CHAR(8)"},
		{"VARCHAR", DataType{Root: VarChar, Nullable: true, Length: 1}, "VARCHAR(1)"},
		{"VARCHAR(64)", DataType{Root: VarChar, Nullable: true, Length: 64}, "VARCHAR(64)"},
		{"VARCHAR(2147483647)", DataType{Root: VarChar, Nullable: true, Length: MaxVarLength}, "STRING"},
		{"STRING", DataType{Root: VarChar, Nullable: true, Length: MaxVarLength}, "STRING"},
		{"STRING NOT NULL", DataType{Root: VarChar, Length: MaxVarLength}, "STRING NOT NULL"},
		{"BINARY", DataType{Root: Binary, Nullable: true, Length: 1}, "BINARY(1)"},
		{"BINARY(16)", DataType{Root: Binary, Nullable: true, Length: 16}, "BINARY(16)"},
		{"VARBINARY", DataType{Root: VarBinary, Nullable: true, Length: 1}, "VARBINARY(1)"},
		{"VARBINARY(2147483647)", DataType{Root: VarBinary, Nullable: true, Length: MaxVarLength}, "BYTES"},
		{"BYTES", DataType{Root: VarBinary, Nullable: true, Length: MaxVarLength}, "BYTES"},
		{"DECIMAL", DataType{Root: Decimal, Nullable: true, Precision: 10}, "DECIMAL(10, 0)"},
		{"DECIMAL(5)", DataType{Root: Decimal, Nullable: true, Precision: 5}, "DECIMAL(5, 0)"},
		{"DECIMAL(10,2)", DataType{Root: Decimal, Nullable: true, Precision: 10, Scale: 2}, "DECIMAL(10, 2)"},
		{"NUMERIC(38, 18)", DataType{Root: Decimal, Nullable: true, Precision: 38, Scale: 18}, "DECIMAL(38, 18)"},
		{"DEC(3, 3) NOT NULL", DataType{Root: Decimal, Precision: 3, Scale: 3}, "DECIMAL(3, 3) NOT NULL"},
		{"TIME", DataType{Root: Time, Nullable: true}, "TIME(0)"},
		{"TIME(3) WITHOUT TIME ZONE", DataType{Root: Time, Nullable: true, Precision: 3}, "TIME(3)"},
		{"TIMESTAMP", DataType{Root: Timestamp, Nullable: true, Precision: 6}, "TIMESTAMP(6)"},
		{"TIMESTAMP(9)", DataType{Root: Timestamp, Nullable: true, Precision: 9}, "TIMESTAMP(9)"},
		{"TIMESTAMP(0) WITHOUT TIME ZONE", DataType{Root: Timestamp, Nullable: true}, "TIMESTAMP(0)"},
		{"TIMESTAMP WITH LOCAL TIME ZONE", DataType{Root: TimestampLTZ, Nullable: true, Precision: 6},
			"TIMESTAMP(6) WITH LOCAL TIME ZONE"},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", DataType{Root: TimestampLTZ, Precision: 3},
			"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL"},
		{"TIMESTAMP_LTZ", DataType{Root: TimestampLTZ, Nullable: true, Precision: 6}, "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
		{"timestamp_ltz(3)", DataType{Root: TimestampLTZ, Nullable: true, Precision: 3}, "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{"INT ARRAY", DataType{Root: Array, Nullable: true, Element: ptrType(DataType{Root: Int, Nullable: true})},
			"ARRAY<INT>"},
		{"INT NOT NULL MULTISET NOT NULL", DataType{Root: Multiset, Element: ptrType(DataType{Root: Int})},
			"MULTISET<INT NOT NULL> NOT NULL"},
	}
	for _, tt := range tests {
		got, err := ParseDataType(tt.input)
		if err != nil {
			t.Errorf("ParseDataType(%q): %v", tt.input, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDataType(%q) = %#v, want %#v", tt.input, got, tt.want)
		}
		if got.String() != tt.sql {
			t.Errorf("ParseDataType(%q).String() = %q, want %q", tt.input, got.String(), tt.sql)
		}
	}
}

// TestDataTypeStringRoundTrip checks that Java's printed forms read back
// to a type that prints identically.
func TestDataTypeStringRoundTrip(t *testing.T) {
	for _, s := range []string{
		"BOOLEAN", "TINYINT NOT NULL", "SMALLINT", "INT NOT NULL", "BIGINT", "FLOAT", "DOUBLE",
		"DATE NOT NULL", "VARIANT", "BLOB", "CHAR(1)", "CHAR(255) NOT NULL", "VARCHAR(64)", "STRING",
		"STRING NOT NULL", "BINARY(8)", "VARBINARY(100)", "BYTES", "DECIMAL(10, 0)", "DECIMAL(38, 38)",
		"DECIMAL(1, 0) NOT NULL", "TIME(0)", "TIME(9)", "TIMESTAMP(0)", "TIMESTAMP(3) NOT NULL",
		"TIMESTAMP(9)", "TIMESTAMP(0) WITH LOCAL TIME ZONE", "TIMESTAMP(9) WITH LOCAL TIME ZONE NOT NULL",
	} {
		got, err := ParseDataType(s)
		if err != nil {
			t.Errorf("ParseDataType(%q): %v", s, err)
		} else if got.String() != s {
			t.Errorf("ParseDataType(%q).String() = %q", s, got.String())
		}
	}
}

// TestDataTypeJSONRoundTrip covers the object forms of complex types,
// including nested ROW field ids, descriptions and default values: the JSON
// Java writes reads back to the expected type and re-encodes identically.
func TestDataTypeJSONRoundTrip(t *testing.T) {
	defaultValue := "55"
	tests := []struct {
		json string
		want DataType
		sql  string
	}{
		{`"INT NOT NULL"`, DataType{Root: Int}, "INT NOT NULL"},
		{"{\n  \"type\" : \"ARRAY NOT NULL\",\n  \"element\" : \"INT\"\n}",
			DataType{Root: Array, Element: ptrType(DataType{Root: Int, Nullable: true})}, "ARRAY<INT> NOT NULL"},
		{"{\n  \"type\" : \"MULTISET\",\n  \"element\" : \"TIMESTAMP(3) WITH LOCAL TIME ZONE\"\n}",
			DataType{Root: Multiset, Nullable: true, Element: ptrType(DataType{Root: TimestampLTZ, Nullable: true, Precision: 3})},
			"MULTISET<TIMESTAMP(3) WITH LOCAL TIME ZONE>"},
		{"{\n  \"type\" : \"MAP\",\n  \"key\" : \"STRING NOT NULL\",\n  \"value\" : {\n    \"type\" : \"ARRAY\",\n    \"element\" : \"BIGINT\"\n  }\n}",
			DataType{Root: Map, Nullable: true, Key: ptrType(DataType{Root: VarChar, Length: MaxVarLength}),
				Value: ptrType(DataType{Root: Array, Nullable: true, Element: ptrType(DataType{Root: BigInt, Nullable: true})})},
			"MAP<STRING NOT NULL, ARRAY<BIGINT>>"},
		{"{\n  \"type\" : \"ROW\",\n  \"fields\" : [ ]\n}", DataType{Root: Row, Nullable: true, Fields: []DataField{}}, "ROW<>"},
		{"{\n  \"type\" : \"ROW NOT NULL\",\n  \"fields\" : [ {\n    \"id\" : 4,\n    \"name\" : \"a`b\",\n    \"type\" : \"INT NOT NULL\",\n    \"description\" : \"it's\",\n    \"defaultValue\" : \"55\"\n  }, {\n    \"id\" : 7,\n    \"name\" : \"inner\",\n    \"type\" : {\n      \"type\" : \"ROW\",\n      \"fields\" : [ {\n        \"id\" : 5,\n        \"name\" : \"c\",\n        \"type\" : \"DECIMAL(10, 2)\"\n      } ]\n    }\n  } ]\n}",
			DataType{Root: Row, Fields: []DataField{
				{ID: 4, Name: "a`b", Type: DataType{Root: Int}, Description: "it's", DefaultValue: &defaultValue},
				{ID: 7, Name: "inner", Type: DataType{Root: Row, Nullable: true, Fields: []DataField{
					{ID: 5, Name: "c", Type: DataType{Root: Decimal, Nullable: true, Precision: 10, Scale: 2}},
				}}},
			}},
			"ROW<`a``b` INT NOT NULL COMMENT 'it''s' DEFAULT 55, `inner` ROW<`c` DECIMAL(10, 2)>> NOT NULL"},
	}
	for _, tt := range tests {
		var got DataType
		if err := json.Unmarshal([]byte(tt.json), &got); err != nil {
			t.Errorf("unmarshal %s: %v", tt.json, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("unmarshal %s = %#v, want %#v", tt.json, got, tt.want)
		}
		if got.String() != tt.sql {
			t.Errorf("String() = %q, want %q", got.String(), tt.sql)
		}
		encoded, err := got.MarshalJSON()
		if err != nil || string(encoded) != tt.json {
			t.Errorf("MarshalJSON = %s, %v; want %s", encoded, err, tt.json)
		}
	}
}

// TestDataTypeJSONAssignsMissingFieldIDs mirrors Java's standalone type
// parsing: ROW fields without ids are numbered in pre-order.
func TestDataTypeJSONAssignsMissingFieldIDs(t *testing.T) {
	var got DataType
	in := `{"type":"ROW","fields":[{"name":"a","type":"INT"},{"name":"b","type":{"type":"ROW","fields":[{"name":"c","type":"INT"}]}},{"name":"d","type":"INT"}]}`
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	ids := []int{got.Fields[0].ID, got.Fields[1].ID, got.Fields[1].Type.Fields[0].ID, got.Fields[2].ID}
	if !reflect.DeepEqual(ids, []int{0, 1, 2, 3}) {
		t.Errorf("assigned ids = %v, want [0 1 2 3]", ids)
	}
	partial := `{"type":"ROW","fields":[{"name":"a","type":"INT"},{"id":5,"name":"b","type":"INT"}]}`
	if err := json.Unmarshal([]byte(partial), &got); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("partial ids: err = %v, want corruption", err)
	}
}

func TestParseDataTypeErrors(t *testing.T) {
	corrupt := []string{
		"", "FOO", "INT(3)", "VARCHAR(", "VARCHAR(test)", "VARCHAR(33333333333)", "VARCHAR(0)",
		"CHAR(0)", "DECIMAL(0)", "DECIMAL(39, 0)", "DECIMAL(5, 6)", "TIME(10)", "TIMESTAMP(12)",
		"TIMESTAMP WITH TIME ZONE", "TIMESTAMP(3) WITHOUT", "INT NOT", "INT ARRAY ARRAY",
		"ARRAY<INT>", "MAP<INT, INT>", "ROW<a INT>", "INTERVAL", "INT, INT", "`INT`",
	}
	for _, s := range corrupt {
		if _, err := ParseDataType(s); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("ParseDataType(%q) err = %v, want corruption", s, err)
		}
	}
	for _, s := range []string{"VECTOR<FLOAT, 3>", "GEOMETRY", "geography(EPSG:4326, karney)"} {
		if _, err := ParseDataType(s); !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("ParseDataType(%q) err = %v, want unsupported", s, err)
		}
	}
}

func TestDataTypeJSONErrors(t *testing.T) {
	for _, in := range []string{
		`{"type":"ARRAY"}`, `{"type":"MAP","key":"INT"}`, `{"type":"ROW"}`, `{"type":"ROW","fields":{}}`,
		`{"type":"ROW","fields":[{"name":"a","type":"INT","id":"x"}]}`, `{"type":"STRUCT"}`, `{"element":"INT"}`,
		`{"type":"ARRAY","element":"FOO"}`, `42`, `{"type":"ARRAY","element":`, `[]`,
	} {
		var got DataType
		if err := got.UnmarshalJSON([]byte(in)); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("UnmarshalJSON(%s) err = %v, want corruption", in, err)
		}
	}
	for _, in := range []string{`{"type":"VECTOR","element":"FLOAT"}`, `{"type":"VECTOR","element":"FLOAT","length":0}`} {
		var got DataType
		if err := got.UnmarshalJSON([]byte(in)); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("UnmarshalJSON(%s) err = %v, want corruption", in, err)
		}
	}
}

// TestVectorJSON: a VECTOR is an ARRAY of its dimension, written back as
// Java's VectorType writes it.
func TestVectorJSON(t *testing.T) {
	in := `{"type":"VECTOR NOT NULL","element":"FLOAT","length":4}`
	var got DataType
	if err := got.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	want := DataType{Root: Array, Vector: true, Length: 4, Element: &DataType{Root: Float, Nullable: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	out, err := got.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if compact := strings.Join(strings.Fields(string(out)), ""); compact != `{"type":"VECTORNOTNULL","element":"FLOAT","length":4}` {
		t.Errorf("written back as %s", out)
	}
	if got.String() != "VECTOR<FLOAT, 4> NOT NULL" {
		t.Errorf("SQL form %q", got.String())
	}
}

func TestMarshalJSONRejectsInvalidTypes(t *testing.T) {
	for _, dt := range []DataType{
		{Root: Decimal, Precision: 0}, {Root: VarChar}, {Root: Array}, {Root: TypeRoot(99)},
		{Root: Row, Fields: []DataField{{Name: "x", Type: DataType{Root: Timestamp, Precision: 10}}}},
	} {
		if _, err := dt.MarshalJSON(); err == nil {
			t.Errorf("MarshalJSON(%v) succeeded, want an error", dt)
		}
	}
}

func TestJacksonStringEscaping(t *testing.T) {
	got := string(printJackson("a\"b\\c\n\t\x01é/<>"))
	want := `"a\"b\\c\n\t\u0001é/<>"`
	if got != want {
		t.Errorf("printJackson = %s, want %s", got, want)
	}
	if strings.Contains(string(printJackson([]any{})), "\n") {
		t.Error("empty array must print inline")
	}
}

func TestRowFieldNamesValidated(t *testing.T) {
	for _, in := range []string{
		`{"type":"ROW","fields":[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"a","type":"INT"}]}`,
		`{"type":"ROW","fields":[{"id":0,"name":" ","type":"INT"}]}`,
	} {
		var got DataType
		if err := got.UnmarshalJSON([]byte(in)); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("UnmarshalJSON(%s) err = %v, want corruption", in, err)
		}
	}
}
