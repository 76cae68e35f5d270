package parquetio

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// testSchema is the part of a schema/schema-N file the tests need. The
// real codec belongs to another package; this minimal parser only serves
// to know the types of the fixture columns.
type testSchema struct {
	ID          int
	Fields      []spec.DataField
	PrimaryKeys []string
	Partitions  []string
}

type jsonField struct {
	ID   int             `json:"id"`
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

type jsonSchema struct {
	ID            int         `json:"id"`
	Fields        []jsonField `json:"fields"`
	PrimaryKeys   []string    `json:"primaryKeys"`
	PartitionKeys []string    `json:"partitionKeys"`
}

// loadSchemas returns the schemas of a table directory, newest first.
func loadSchemas(t testing.TB, tableDir string) []testSchema {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(tableDir, "schema", "schema-*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schema files under %s: %v", tableDir, err)
	}
	var out []testSchema
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var js jsonSchema
		if err := json.Unmarshal(data, &js); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		fields, err := parseFields(js.Fields)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, testSchema{ID: js.ID, Fields: fields, PrimaryKeys: js.PrimaryKeys, Partitions: js.PartitionKeys})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out
}

func parseFields(in []jsonField) ([]spec.DataField, error) {
	var out []spec.DataField
	for _, f := range in {
		t, err := parseType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		out = append(out, spec.DataField{ID: f.ID, Name: f.Name, Type: t})
	}
	return out, nil
}

func parseType(raw json.RawMessage) (spec.DataType, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return parseAtomic(s)
	}
	var obj struct {
		Type    string          `json:"type"`
		Element json.RawMessage `json:"element"`
		Key     json.RawMessage `json:"key"`
		Value   json.RawMessage `json:"value"`
		Fields  []jsonField     `json:"fields"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return spec.DataType{}, err
	}
	kind, nullable := strings.CutSuffix(obj.Type, " NOT NULL")
	t := spec.DataType{Nullable: !nullable}
	var err error
	switch kind {
	case "ARRAY", "VECTOR": // the tests read a VECTOR as the list Java stores
		t.Root = spec.Array
		t.Element, err = parseTypePtr(obj.Element)
	case "MULTISET":
		t.Root = spec.Multiset
		t.Element, err = parseTypePtr(obj.Element)
	case "MAP":
		t.Root = spec.Map
		if t.Key, err = parseTypePtr(obj.Key); err == nil {
			t.Value, err = parseTypePtr(obj.Value)
		}
	case "ROW":
		t.Root = spec.Row
		t.Fields, err = parseFields(obj.Fields)
	default:
		err = fmt.Errorf("unknown complex type %q", obj.Type)
	}
	return t, err
}

func parseTypePtr(raw json.RawMessage) (*spec.DataType, error) {
	t, err := parseType(raw)
	return &t, err
}

var atomicPattern = regexp.MustCompile(`^([A-Z_]+)(?:\((\d+)(?:, (\d+))?\))?( WITH LOCAL TIME ZONE)?$`)

var atomicRoots = map[string]spec.TypeRoot{
	"BOOLEAN": spec.Boolean, "TINYINT": spec.TinyInt, "SMALLINT": spec.SmallInt, "INT": spec.Int,
	"BIGINT": spec.BigInt, "FLOAT": spec.Float, "DOUBLE": spec.Double, "DECIMAL": spec.Decimal,
	"CHAR": spec.Char, "VARCHAR": spec.VarChar, "STRING": spec.VarChar, "BINARY": spec.Binary,
	"VARBINARY": spec.VarBinary, "BYTES": spec.VarBinary, "DATE": spec.Date, "TIME": spec.Time,
	"TIMESTAMP": spec.Timestamp, "BLOB": spec.Blob,
}

func parseAtomic(s string) (spec.DataType, error) {
	body, notNull := strings.CutSuffix(s, " NOT NULL")
	m := atomicPattern.FindStringSubmatch(body)
	if m == nil || atomicRoots[m[1]] == 0 {
		return spec.DataType{}, fmt.Errorf("unknown type %q", s)
	}
	t := spec.DataType{Root: atomicRoots[m[1]], Nullable: !notNull}
	first, _ := strconv.Atoi(m[2])
	second, _ := strconv.Atoi(m[3])
	switch t.Root {
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		t.Length = first
	case spec.Decimal:
		t.Precision, t.Scale = first, second
	case spec.Time, spec.Timestamp:
		t.Precision = first
		if m[2] == "" && t.Root == spec.Timestamp {
			t.Precision = 6
		}
	}
	if m[4] != "" {
		t.Root = spec.TimestampLTZ
	}
	return t, nil
}
