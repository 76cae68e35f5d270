package spec

// Test helpers that read the Java-written fixture tables generically, so the
// codec tests in this package can check themselves against real bytes
// without depending on the typed manifest or schema codecs.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/parquet-go/parquet-go"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
)

// fxReadAvro decodes every record of an Avro object container file into
// generic maps.
func fxReadAvro(t testing.TB, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer dec.Close()
	var out []map[string]any
	for dec.HasNext() {
		var rec any
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, fxUnwrapUnion(rec).(map[string]any))
	}
	if err := dec.Error(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// fxUnwrapUnion strips hamba's {"<type name>": value} wrapper that it puts
// around non-null union branches when decoding into any.
func fxUnwrapUnion(v any) any {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return v
	}
	for k, inner := range m {
		if k == "array" || k == "long" || k == "int" || k == "string" || k == "bytes" ||
			strings.HasPrefix(k, "org.apache.paimon.") {
			return inner
		}
	}
	return v
}

// fxTable is the part of a fixture table's schema the codec tests need.
type fxTable struct {
	Name          string
	Dir           string
	Fields        []DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
}

// fxLoadTable reads schema/schema-<id> of a bundled table.
func fxLoadTable(t testing.TB, name string, schemaID int) fxTable {
	t.Helper()
	dir := fixtures.TableDir(name)
	return fxLoadSchema(t, name, dir, filepath.Join(dir, "schema", "schema-"+strconv.Itoa(schemaID)))
}

// schemasWithID loads schema-<id> of the main branch and of every branch:
// branches share the manifest directory, so an entry's _SCHEMA_ID may name
// a branch schema.
func (tb fxTable) schemasWithID(t testing.TB, id int64) []fxTable {
	t.Helper()
	name := "schema-" + strconv.FormatInt(id, 10)
	var out []fxTable
	for _, f := range append(tb.glob(t, "schema/"+name), tb.glob(t, "branch/*/schema/"+name)...) {
		out = append(out, fxLoadSchema(t, tb.Name, tb.Dir, f))
	}
	return out
}

func fxLoadSchema(t testing.TB, name, dir, path string) fxTable {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Fields []struct {
			ID   int             `json:"id"`
			Name string          `json:"name"`
			Type json.RawMessage `json:"type"`
		} `json:"fields"`
		PartitionKeys []string          `json:"partitionKeys"`
		PrimaryKeys   []string          `json:"primaryKeys"`
		Options       map[string]string `json:"options"`
	}
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	tb := fxTable{Name: name, Dir: dir, PartitionKeys: js.PartitionKeys,
		PrimaryKeys: js.PrimaryKeys, Options: js.Options}
	for _, f := range js.Fields {
		tb.Fields = append(tb.Fields, DataField{ID: f.ID, Name: f.Name, Type: fxParseType(t, f.Type)})
	}
	return tb
}

// types returns the types of the named columns, in the given order.
func (tb fxTable) types(t testing.TB, names []string) []DataType {
	t.Helper()
	var out []DataType
	for _, n := range names {
		found := false
		for _, f := range tb.Fields {
			if f.Name == n {
				out = append(out, f.Type)
				found = true
			}
		}
		if !found && (n == "_ROW_ID" || n == "_SEQUENCE_NUMBER") {
			// Row-tracking system columns (SpecialFields), listed in _WRITE_COLS.
			out = append(out, DataType{Root: BigInt, Nullable: true})
		} else if !found {
			t.Fatalf("%s: no column %q", tb.Name, n)
		}
	}
	return out
}

func (tb fxTable) columnNames() []string {
	var out []string
	for _, f := range tb.Fields {
		out = append(out, f.Name)
	}
	return out
}

// trimmedPrimaryKeys is the primary key minus the partition keys.
func (tb fxTable) trimmedPrimaryKeys() []string {
	var out []string
	for _, k := range tb.PrimaryKeys {
		isPartition := false
		for _, p := range tb.PartitionKeys {
			isPartition = isPartition || p == k
		}
		if !isPartition {
			out = append(out, k)
		}
	}
	return out
}

func (tb fxTable) glob(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(tb.Dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// manifestEntries decodes every data-manifest record of the table (all
// snapshots' manifests; ADD and DELETE entries alike).
func (tb fxTable) manifestEntries(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, f := range tb.glob(t, "manifest/manifest-*") {
		if strings.Contains(filepath.Base(f), "manifest-list-") {
			continue
		}
		out = append(out, fxReadAvro(t, f)...)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no manifest entries", tb.Name)
	}
	return out
}

var fxParameterizedType = regexp.MustCompile(`^([A-Z_ ]+?)(?:\((\d+)(?:,\s*(\d+))?\))?( WITH LOCAL TIME ZONE)?$`)

// fxParseType understands the schema-file type forms used by the fixtures.
// fxJSONType is a nested type object of a schema file.
type fxJSONType struct {
	Type    string          `json:"type"`
	Element json.RawMessage `json:"element"`
	Key     json.RawMessage `json:"key"`
	Value   json.RawMessage `json:"value"`
	Fields  []struct {
		ID   int             `json:"id"`
		Name string          `json:"name"`
		Type json.RawMessage `json:"type"`
	} `json:"fields"`
}

func fxParseType(t testing.TB, raw json.RawMessage) DataType {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return fxParseAtomicType(t, s)
	}
	var obj fxJSONType
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	root, notNull := strings.CutSuffix(obj.Type, " NOT NULL")
	dt := DataType{Nullable: !notNull}
	switch root {
	case "ARRAY", "MULTISET":
		dt.Root = map[string]TypeRoot{"ARRAY": Array, "MULTISET": Multiset}[root]
		el := fxParseType(t, obj.Element)
		dt.Element = &el
	case "MAP":
		k, v := fxParseType(t, obj.Key), fxParseType(t, obj.Value)
		dt.Root, dt.Key, dt.Value = Map, &k, &v
	case "ROW":
		dt.Root = Row
		for _, f := range obj.Fields {
			dt.Fields = append(dt.Fields, DataField{ID: f.ID, Name: f.Name, Type: fxParseType(t, f.Type)})
		}
	default:
		// Types lakesql has no root for (VECTOR) only appear in columns
		// without stats; Root 0 makes any use of them fail loudly.
		return DataType{}
	}
	return dt
}

func fxParseAtomicType(t testing.TB, s string) DataType {
	t.Helper()
	body, notNull := strings.CutSuffix(s, " NOT NULL")
	m := fxParameterizedType.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("unsupported type %q", s)
	}
	roots := map[string]TypeRoot{"BOOLEAN": Boolean, "TINYINT": TinyInt, "SMALLINT": SmallInt,
		"INT": Int, "BIGINT": BigInt, "FLOAT": Float, "DOUBLE": Double, "DECIMAL": Decimal,
		"CHAR": Char, "VARCHAR": VarChar, "STRING": VarChar, "BINARY": Binary, "VARBINARY": VarBinary,
		"BYTES": VarBinary, "DATE": Date, "TIME": Time, "TIMESTAMP": Timestamp, "BLOB": Blob}
	root, ok := roots[m[1]]
	if !ok {
		t.Fatalf("unsupported type %q", s)
	}
	dt := DataType{Root: root, Nullable: !notNull}
	first, second := fxDefaultPrecision(root), 0
	if m[2] != "" {
		first, _ = strconv.Atoi(m[2])
		second, _ = strconv.Atoi(m[3])
	}
	switch root {
	case Decimal:
		dt.Precision, dt.Scale = first, second
	case Time, Timestamp:
		dt.Precision = first
		if m[4] != "" {
			dt.Root = TimestampLTZ
		}
	case Char, VarChar, Binary, VarBinary:
		dt.Length = first
	}
	if m[1] == "STRING" || m[1] == "BYTES" {
		dt.Length = MaxVarLength
	}
	return dt
}

// fxDefaultPrecision is the precision of a type written without one.
func fxDefaultPrecision(root TypeRoot) int {
	switch root {
	case Decimal:
		return 10
	case Timestamp, TimestampLTZ:
		return 6
	case Char, Binary:
		return 1
	}
	return 0
}

// fxRow is one serialized BinaryRow found in a fixture manifest, with the
// column types Java wrote it for.
type fxRow struct {
	Where  string
	Types  []DataType
	Framed []byte
}

// fxStats is one SimpleStats record of a fixture manifest with its columns.
type fxStats struct {
	Where    string
	Columns  []string
	Types    []DataType
	Stats    SimpleStats
	RowCount int64
}

// fxAvroTables lists the bundled tables whose manifests are Avro (six use ORC).
func fxAvroTables(t testing.TB) []fxTable {
	t.Helper()
	all, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	var out []fxTable
	for _, info := range all {
		tb := fxLoadTable(t, info.Name, 0)
		lists := tb.glob(t, "manifest/manifest-list-*")
		if len(lists) == 0 {
			continue
		}
		head, err := os.ReadFile(lists[0])
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(head, []byte("Obj\x01")) {
			out = append(out, tb)
		}
	}
	return out
}

// fxStatsOf converts a decoded Avro SimpleStats record.
func fxStatsOf(rec any) SimpleStats {
	m := fxUnwrapUnion(rec).(map[string]any)
	s := SimpleStats{MinValues: m["_MIN_VALUES"].([]byte), MaxValues: m["_MAX_VALUES"].([]byte)}
	if counts, ok := fxUnwrapUnion(m["_NULL_COUNTS"]).([]any); ok {
		s.NullCounts = make([]*int64, len(counts))
		for i, c := range counts {
			if c := fxUnwrapUnion(c); c != nil {
				n := c.(int64)
				s.NullCounts[i] = &n
			}
		}
	}
	return s
}

func fxStrings(v any) []string {
	list, ok := fxUnwrapUnion(v).([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.(string)
	}
	return out
}

// statsOfEntries returns every key and value SimpleStats of the table's
// data-manifest entries, typed by the schema each file was written with.
func (tb fxTable) statsOfEntries(t testing.TB) []fxStats {
	t.Helper()
	var out []fxStats
	for i, e := range tb.manifestEntries(t) {
		file := fxUnwrapUnion(e["_FILE"]).(map[string]any)
		schema := tb.schemaOfFile(t, file)
		where := fmt.Sprintf("%s entry %d (%s)", tb.Name, i, file["_FILE_NAME"])
		keys := schema.trimmedPrimaryKeys()
		out = append(out, fxStats{Where: where + " key stats", Columns: keys, Types: schema.types(t, keys),
			Stats: fxStatsOf(file["_KEY_STATS"]), RowCount: file["_ROW_COUNT"].(int64)})
		cols := schema.statsColumns(file)
		out = append(out, fxStats{Where: where + " value stats", Columns: cols, Types: schema.types(t, cols),
			Stats: fxStatsOf(file["_VALUE_STATS"]), RowCount: file["_ROW_COUNT"].(int64)})
	}
	return out
}

// statsColumns names the columns of a file's value stats: the dense
// _VALUE_STATS_COLS, else the data-evolution _WRITE_COLS, else all columns.
func (tb fxTable) statsColumns(file map[string]any) []string {
	if cols := fxStrings(file["_VALUE_STATS_COLS"]); cols != nil {
		return cols
	}
	if cols := fxStrings(file["_WRITE_COLS"]); cols != nil {
		return cols
	}
	return tb.columnNames()
}

// schemaOfFile picks the schema a data file was written with; of same-id
// schemas on different branches, the one whose key and stats arity fit.
func (tb fxTable) schemaOfFile(t testing.TB, file map[string]any) fxTable {
	t.Helper()
	candidates := tb.schemasWithID(t, file["_SCHEMA_ID"].(int64))
	keyArity, _, _ := ParseSerializedBinaryRow(file["_MIN_KEY"].([]byte))
	statsArity, _, _ := ParseSerializedBinaryRow(fxStatsOf(file["_VALUE_STATS"]).MinValues)
	for _, c := range candidates {
		if len(c.trimmedPrimaryKeys()) == keyArity && len(c.statsColumns(file)) == statsArity {
			return c
		}
	}
	t.Fatalf("%s: no schema fits file %s", tb.Name, file["_FILE_NAME"])
	return fxTable{}
}

// binaryRows returns every BinaryRow in the table's manifests and manifest
// lists: partitions, min/max keys and stats rows.
func (tb fxTable) binaryRows(t testing.TB) []fxRow {
	t.Helper()
	partTypes := tb.types(t, tb.PartitionKeys)
	var out []fxRow
	for i, e := range tb.manifestEntries(t) {
		file := fxUnwrapUnion(e["_FILE"]).(map[string]any)
		schema := tb.schemaOfFile(t, file)
		keyTypes := schema.types(t, schema.trimmedPrimaryKeys())
		where := fmt.Sprintf("%s entry %d", tb.Name, i)
		out = append(out,
			fxRow{where + " _PARTITION", partTypes, e["_PARTITION"].([]byte)},
			fxRow{where + " _MIN_KEY", keyTypes, file["_MIN_KEY"].([]byte)},
			fxRow{where + " _MAX_KEY", keyTypes, file["_MAX_KEY"].([]byte)})
	}
	for _, s := range tb.statsOfEntries(t) {
		out = append(out, fxRow{s.Where + " min", s.Types, s.Stats.MinValues},
			fxRow{s.Where + " max", s.Types, s.Stats.MaxValues})
	}
	for _, f := range tb.glob(t, "manifest/manifest-list-*") {
		for i, rec := range fxReadAvro(t, f) {
			s := fxStatsOf(rec["_PARTITION_STATS"])
			where := fmt.Sprintf("%s %s record %d _PARTITION_STATS", tb.Name, filepath.Base(f), i)
			out = append(out, fxRow{where + " min", partTypes, s.MinValues}, fxRow{where + " max", partTypes, s.MaxValues})
		}
	}
	return out
}

// fxParquetRows reads the named top-level columns of a Java-written Parquet
// data file as lakesql values (only the atomic types the fixture keys use).
func fxParquetRows(t testing.TB, path string, columns []string, types []DataType) [][]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	index := make([]int, len(columns))
	for i, c := range columns {
		leaf, ok := pf.Schema().Lookup(c)
		if !ok {
			t.Fatalf("%s: no column %s", path, c)
		}
		index[i] = leaf.ColumnIndex
	}
	var out [][]any
	for _, rg := range pf.RowGroups() {
		out = append(out, fxReadRowGroup(t, rg, index, types)...)
	}
	return out
}

func fxReadRowGroup(t testing.TB, rg parquet.RowGroup, index []int, types []DataType) [][]any {
	t.Helper()
	rows := rg.Rows()
	defer rows.Close()
	var out [][]any
	buf := make([]parquet.Row, 64)
	for {
		n, err := rows.ReadRows(buf)
		for _, row := range buf[:n] {
			values := make([]any, len(index))
			for i, col := range index {
				values[i] = fxParquetValue(t, row, col, types[i])
			}
			out = append(out, values)
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func fxParquetValue(t testing.TB, row parquet.Row, column int, dt DataType) any {
	t.Helper()
	for _, v := range row {
		if v.Column() != column {
			continue
		}
		if v.IsNull() {
			return nil
		}
		switch dt.Root {
		case Int:
			return v.Int32()
		case BigInt:
			return v.Int64()
		case VarChar:
			return string(v.ByteArray())
		case Double:
			return v.Double()
		}
		t.Fatalf("fxParquetValue: unsupported type root %d", dt.Root)
	}
	t.Fatalf("column %d not in row", column)
	return nil
}

// dataFiles lists the table's Parquet data files with the bucket number of
// the bucket-<N> directory holding them, including external data paths.
func (tb fxTable) dataFiles(t testing.TB) map[string]int {
	t.Helper()
	out := map[string]int{}
	visit := func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		bucketDir := filepath.Base(filepath.Dir(path))
		if n, ok := strings.CutPrefix(bucketDir, "bucket-"); ok {
			out[path], err = strconv.Atoi(n)
		}
		return err
	}
	// Tables written with data-file.external-paths keep data in ../external.
	for _, root := range []string{tb.Dir, filepath.Join(filepath.Dir(tb.Dir), "external")} {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		if err := filepath.WalkDir(root, visit); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// fxAllTables names every bundled table ("<set>/<table>").
func fxAllTables(t testing.TB) []string {
	t.Helper()
	all, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(all))
	for i, info := range all {
		names[i] = info.Name
	}
	return names
}

// fxInt converts an Avro int or long decoded into any.
func fxInt(v any) int64 {
	switch x := fxUnwrapUnion(v).(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	}
	panic(fmt.Sprintf("not an Avro integer: %T", v))
}
