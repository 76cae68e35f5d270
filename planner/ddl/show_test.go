package ddl

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// roundTrip feeds ShowCreateTable's text through GMS, ParseCreateTable and
// Definition, as a user re-running SHOW CREATE TABLE's output would.
func roundTrip(t *testing.T, name string, s *spec.TableSchema) (catalog.TableDefinition, string, error) {
	t.Helper()
	text, err := ShowCreateTable(name, s)
	if err != nil {
		return catalog.TableDefinition{}, "", err
	}
	call := newGMS().create(t, text)
	parsed, err := ParseCreateTable(call.query)
	if err != nil {
		t.Fatalf("%s: ParseCreateTable of\n%s\n%v", name, text, err)
	}
	def, err := Definition(call.schema, parsed, call.comment)
	if err != nil {
		t.Fatalf("%s: Definition of\n%s\n%v", name, text, err)
	}
	return def, text, nil
}

// inexpressible reports whether no MySQL column type maps back to t. It
// restates the list in ShowCreateTable's documentation independently of
// the code under test.
func inexpressible(t spec.DataType) bool {
	switch t.Root {
	case spec.Timestamp, spec.TimestampLTZ:
		return t.Precision > 6
	case spec.Time:
		return t.Precision != 0
	case spec.Char, spec.Binary:
		return t.Length > 255
	case spec.VarChar:
		return t.Length > 16383 && t.Length != spec.MaxVarLength
	case spec.VarBinary:
		return t.Length > 65535 && t.Length != spec.MaxVarLength
	case spec.Decimal:
		return t.Scale > 30
	case spec.Array, spec.Map, spec.Multiset, spec.Row, spec.Variant, spec.Blob:
		return true
	}
	return false
}

// withCreateDefaults applies what the catalog and Java fill in for options
// a definition leaves out (see catalog.TableDefinition): the file format,
// and the bucket count, which is Java's -1 in a Java schema and lakesql's
// default in a new definition.
func withCreateDefaults(options map[string]string, hasPrimaryKey, javaSchema bool) map[string]string {
	out := maps.Clone(options)
	if out == nil {
		out = map[string]string{}
	}
	delete(out, "path")
	if _, ok := out[spec.OptionFileFormat]; !ok {
		out[spec.OptionFileFormat] = "parquet"
	}
	if _, ok := out[spec.OptionBucket]; !ok {
		out[spec.OptionBucket] = "-1"
		if hasPrimaryKey && !javaSchema {
			out[spec.OptionBucket] = "1"
		}
	}
	return out
}

// sameTable compares a definition with the schema it should recreate.
func sameTable(def catalog.TableDefinition, s *spec.TableSchema) []string {
	var diffs []string
	if len(def.Fields) != len(s.Fields) {
		return []string{"field count"}
	}
	for i, f := range s.Fields {
		got := def.Fields[i]
		if got.Name != f.Name || !reflect.DeepEqual(got.Type, f.Type) || got.Description != f.Description {
			diffs = append(diffs, "field "+f.Name+": "+got.Name+" "+got.Type.String()+" "+got.Description)
		}
	}
	if !slices.Equal(def.PrimaryKeys, s.PrimaryKeys) {
		diffs = append(diffs, "primary keys")
	}
	if !slices.Equal(def.PartitionKeys, s.PartitionKeys) {
		diffs = append(diffs, "partition keys")
	}
	want := withCreateDefaults(s.Options, len(s.PrimaryKeys) > 0, true)
	got := withCreateDefaults(def.Options, len(def.PrimaryKeys) > 0, false)
	if !reflect.DeepEqual(got, want) {
		diffs = append(diffs, "options")
	}
	if comment := s.Comment; (comment == nil && def.Comment != "") || (comment != nil && *comment != def.Comment) {
		diffs = append(diffs, "comment")
	}
	return diffs
}

// TestShowCreateTableRoundTripsJavaFixtures recreates the latest schema of
// every bundled Java table from its SHOW CREATE TABLE text. Tables with a
// column MySQL cannot declare must fail naming such a column.
func TestShowCreateTableRoundTripsJavaFixtures(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	roundTripped := map[string]bool{}
	for _, tb := range tables {
		s, err := schema.NewManager(localio.New(), tb.Dir, "").Latest(context.Background())
		if err != nil {
			// Schemas the storage layer cannot decode (VECTOR columns) never reach SHOW CREATE TABLE.
			if !errors.Is(err, lakeerr.ErrUnsupported) {
				t.Errorf("%s: %v", tb.Name, err)
			}
			continue
		}
		name := tb.Name[strings.Index(tb.Name, "/")+1:]
		def, text, err := roundTrip(t, name, s)
		if err != nil {
			if !errors.Is(err, lakeerr.ErrUnsupported) || !namesInexpressibleColumn(err, s) {
				t.Errorf("%s: %v", tb.Name, err)
			}
			continue
		}
		if diffs := sameTable(def, s); len(diffs) > 0 {
			t.Errorf("%s: %v differ after round trip through\n%s", tb.Name, diffs, text)
			continue
		}
		roundTripped[name] = true
	}
	for _, name := range []string{"pk_table_scan_and_read_mor", "pk_table_with_mor", "append_09",
		"append_table_with_alter_table", "pk_table_scan_and_read_first_row", "test_pk_global_index_golden"} {
		if !roundTripped[name] {
			t.Errorf("%s did not round-trip", name)
		}
	}
	t.Logf("%d of %d fixture tables round-trip", len(roundTripped), len(tables))
}

func namesInexpressibleColumn(err error, s *spec.TableSchema) bool {
	for _, f := range s.Fields {
		if inexpressible(f.Type) && strings.Contains(err.Error(), "column "+f.Name+":") {
			return true
		}
	}
	return false
}

func TestShowCreateTableText(t *testing.T) {
	comment := "orders by day"
	s := &spec.TableSchema{
		Fields: []spec.DataField{
			{Name: "id", Type: mustType(t, "BIGINT NOT NULL"), Description: "it's the id"},
			{Name: "dt", Type: mustType(t, "STRING NOT NULL")},
			{Name: "paid", Type: mustType(t, "BOOLEAN")},
			{Name: "odd`name", Type: mustType(t, "TIMESTAMP(3) WITH LOCAL TIME ZONE")},
		},
		PrimaryKeys:   []string{"id", "dt"},
		PartitionKeys: []string{"dt"},
		Options: map[string]string{"bucket": "4", "bucket-key": "id", "file.format": "parquet",
			"merge-engine": "deduplicate", "path": "/wh/db.db/orders"},
		Comment: &comment,
	}
	got, err := ShowCreateTable("orders", s)
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `orders` (\n" +
		"  `id` bigint NOT NULL COMMENT 'it''s the id',\n" +
		"  `dt` longtext NOT NULL,\n" +
		"  `paid` tinyint(1),\n" +
		"  `odd``name` timestamp(3),\n" +
		"  PRIMARY KEY (`id`,`dt`(255))\n" +
		`) COMMENT='paimon:{"merge-engine":"deduplicate"} orders by day'` + "\n" +
		"PARTITION BY LIST COLUMNS (`dt`)\n" +
		"SUBPARTITION BY KEY (`id`) SUBPARTITIONS 4"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestShowCreateTableLayouts covers how buckets are shown for each kind
// of table, and that each form round-trips.
func TestShowCreateTableLayouts(t *testing.T) {
	fields := []spec.DataField{
		{Name: "a", Type: mustType(t, "INT NOT NULL")},
		{Name: "b", Type: mustType(t, "INT NOT NULL")},
		{Name: "dt", Type: mustType(t, "DATE NOT NULL")},
	}
	cases := []struct {
		name                 string
		primaryKeys, parts   []string
		options              map[string]string
		wantClause, wantNote string
	}{
		{"append, unaware", nil, nil, map[string]string{"bucket": "-1"}, "", ""},
		{"append, keyed", nil, nil, map[string]string{"bucket": "3", "bucket-key": "a,b"}, "PARTITION BY KEY (`a`,`b`) PARTITIONS 3", ""},
		{"pk, default bucket", []string{"a"}, nil, map[string]string{"bucket": "1"}, "", ""},
		{"pk, buckets by primary key", []string{"a"}, nil, map[string]string{"bucket": "8"}, "", `{"bucket":"8"}`},
		{"pk, dynamic (no bucket option)", []string{"a"}, nil, map[string]string{}, "", `{"bucket":"-1"}`},
		{"pk, two-column key under partitions", []string{"a", "b", "dt"}, []string{"dt"},
			map[string]string{"bucket": "2", "bucket-key": "a,b"}, "PARTITION BY LIST COLUMNS (`dt`)", `{"bucket":"2","bucket-key":"a,b"}`},
		{"bucket-key with a trailing comma", []string{"a", "b"}, nil,
			map[string]string{"bucket": "2", "bucket-key": "a,b,"}, "", `{"bucket":"2","bucket-key":"a,b,"}`},
	}
	for _, c := range cases {
		s := &spec.TableSchema{Fields: fields, PrimaryKeys: c.primaryKeys, PartitionKeys: c.parts, Options: c.options}
		text, err := ShowCreateTable("t", s)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		_, clause, _ := strings.Cut(text, ")\n")
		if c.wantClause != "" && !strings.Contains(text, c.wantClause) || c.wantClause == "" && strings.Contains(clause, "KEY") {
			t.Errorf("%s: clause missing or unexpected in\n%s", c.name, text)
		}
		if c.wantNote != "" && !strings.Contains(text, "COMMENT='paimon:"+c.wantNote+"'") ||
			c.wantNote == "" && strings.Contains(text, "COMMENT=") {
			t.Errorf("%s: comment is not %s in\n%s", c.name, c.wantNote, text)
		}
		def, _, err := roundTrip(t, "t", s)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if diffs := sameTable(def, s); len(diffs) > 0 {
			t.Errorf("%s: %v differ after round trip through\n%s", c.name, diffs, text)
		}
	}
}

func TestShowCreateTableRefusesDefaults(t *testing.T) {
	zero := "0"
	s := &spec.TableSchema{Fields: []spec.DataField{{Name: "n", Type: mustType(t, "INT"), DefaultValue: &zero}}}
	if _, err := ShowCreateTable("t", s); !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "column n") {
		t.Errorf("got %v, want ErrUnsupported naming column n", err)
	}
}

// TestCatalogRoundTrip creates tables in a real catalog from DDL, prints
// them with ShowCreateTable and creates them again from that text: both
// schemas must be equal.
func TestCatalogRoundTrip(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return time.UnixMilli(1_700_000_000_000) }
	fs := memio.New()
	cat := catalog.New(fs, "wh", now)
	if err := cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	for i, query := range []string{
		"CREATE TABLE t (id bigint unsigned NOT NULL COMMENT 'the id', dt char(10), flag bool, price decimal(18,4), " +
			"at datetime(6), seen timestamp, d date, tm time, raw varbinary(32), body longtext, bin blob, doc json, " +
			"f float, g double, PRIMARY KEY (id, dt)) " +
			`COMMENT 'paimon:{"merge-engine":"aggregation","fields.price.aggregate-function":"sum","changelog-producer":"input"} prices' ` +
			"PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 3",
		"CREATE TABLE t (k varchar(20) PRIMARY KEY, v int)",
		"CREATE TABLE t (ts datetime(3), kind varchar(10), n smallint) PARTITION BY KEY (kind) PARTITIONS 5",
		"CREATE TABLE t (ts datetime(3), dt date) COMMENT 'paimon: logs' PARTITION BY LIST COLUMNS (dt)",
	} {
		first := createInCatalog(t, fs, cat, "first", i, query)
		text, err := ShowCreateTable("second", first)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		second := createInCatalog(t, fs, cat, "second", i, text)
		if !reflect.DeepEqual(exported(first), exported(second)) {
			t.Errorf("%s\nrecreated through\n%s\ngot  %+v\nwant %+v", query, text, exported(second), exported(first))
		}
	}
}

func createInCatalog(t *testing.T, fs fileio.FileIO, cat *catalog.Catalog, prefix string, i int, query string) *spec.TableSchema {
	t.Helper()
	ctx := context.Background()
	call := newGMS().create(t, query)
	parsed, err := ParseCreateTable(call.query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	def, err := Definition(call.schema, parsed, call.comment)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	name := prefix + string(rune('a'+i))
	if err := cat.CreateTable(ctx, "db", name, def, false); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	dir, err := cat.TablePath("db", name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewManager(fs, dir, "").Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type exportedSchema struct {
	Fields        []spec.DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
	Comment       *string
}

func exported(s *spec.TableSchema) exportedSchema {
	return exportedSchema{s.Fields, s.PartitionKeys, s.PrimaryKeys, s.Options, s.Comment}
}
