package catalog

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestCreateTableValidation(t *testing.T) {
	cols := func(nameTypes ...string) []spec.DataField { return columns(t, nameTypes...) }
	kv := cols("k", "INT", "v", "STRING")
	pkv := cols("k", "INT", "dt", "STRING", "v", "STRING")
	opts := func(kvs ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kvs); i += 2 {
			m[kvs[i]] = kvs[i+1]
		}
		return m
	}
	invalid, unsupported := ErrInvalidDefinition, lakeerr.ErrUnsupported
	tests := []struct {
		name string
		def  TableDefinition
		want error
	}{
		{"no columns", TableDefinition{}, invalid},
		{"duplicate column", TableDefinition{Fields: cols("a", "INT", "a", "INT")}, invalid},
		{"blank column", TableDefinition{Fields: cols(" ", "INT")}, invalid},
		{"system column", TableDefinition{Fields: cols("_SEQUENCE_NUMBER", "BIGINT")}, invalid},
		{"rowkind column", TableDefinition{Fields: cols("rowkind", "STRING")}, invalid},
		{"key prefix column", TableDefinition{Fields: cols("_KEY_k", "INT")}, invalid},
		{"type out of range", TableDefinition{Fields: []spec.DataField{{Name: "d", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 50}}}}, invalid},
		{"missing primary key", TableDefinition{Fields: kv, PrimaryKeys: []string{"x"}}, invalid},
		{"primary key twice", TableDefinition{Fields: kv, PrimaryKeys: []string{"k", "k"}}, invalid},
		{"nested primary key", TableDefinition{Fields: cols("k", "INT ARRAY"), PrimaryKeys: []string{"k"}}, invalid},
		{"missing partition key", TableDefinition{Fields: kv, PartitionKeys: []string{"x"}}, invalid},
		{"partition key twice", TableDefinition{Fields: kv, PartitionKeys: []string{"v", "v"}}, invalid},
		{"nested partition key", TableDefinition{Fields: cols("p", "INT MULTISET", "v", "INT"), PartitionKeys: []string{"p"}}, invalid},
		{"primary key only partition keys", TableDefinition{Fields: pkv, PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt"}}, invalid},
		{"primary key twice declared", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("primary-key", "k")}, invalid},
		{"partition twice declared", TableDefinition{Fields: kv, PartitionKeys: []string{"v"}, Options: opts("partition", "v")}, invalid},
		{"bucket not a number", TableDefinition{Fields: kv, Options: opts("bucket", "four")}, invalid},
		{"bucket zero", TableDefinition{Fields: kv, Options: opts("bucket", "0")}, invalid},
		{"bucket below -2", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("bucket", "-3")}, invalid},
		{"append bucket without bucket-key", TableDefinition{Fields: kv, Options: opts("bucket", "4")}, invalid},
		{"append postpone bucket", TableDefinition{Fields: kv, Options: opts("bucket", "-2")}, invalid},
		{"bucket-key with bucket -1", TableDefinition{Fields: kv, Options: opts("bucket", "-1", "bucket-key", "k")}, invalid},
		{"missing bucket-key", TableDefinition{Fields: kv, Options: opts("bucket", "2", "bucket-key", "x")}, invalid},
		{"bucket-key is a partition key", TableDefinition{Fields: pkv, PartitionKeys: []string{"dt"}, Options: opts("bucket", "2", "bucket-key", "dt")}, invalid},
		{"bucket-key outside primary key", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("bucket", "2", "bucket-key", "v")}, invalid},
		{"nested bucket-key", TableDefinition{Fields: cols("k", "INT ARRAY"), Options: opts("bucket", "2", "bucket-key", "k")}, invalid},
		{"merge-engine", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("merge-engine", "newest")}, invalid},
		{"changelog-producer value", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("changelog-producer", "always")}, invalid},
		{"changelog-producer without primary key", TableDefinition{Fields: kv, Options: opts("changelog-producer", "input")}, invalid},
		{"sequence.field sort order", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("sequence.field.sort-order", "up")}, invalid},
		{"missing sequence.field", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("sequence.field", "x")}, invalid},
		{"sequence.field twice", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("sequence.field", "v,v")}, invalid},
		{"aggregated sequence.field", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("sequence.field", "v", "fields.v.aggregate-function", "max")}, invalid},
		{"sequence.field with first-row", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("sequence.field", "v", "merge-engine", "first-row")}, invalid},
		{"field option of missing column", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("fields.x.aggregate-function", "sum")}, invalid},
		{"aggregate function on a type it cannot take", TableDefinition{Fields: cols("k", "INT", "n", "INT"), PrimaryKeys: []string{"k"},
			Options: opts("merge-engine", "aggregation", "fields.n.aggregate-function", "listagg")}, invalid},
		{"dynamic bucket primary key", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("bucket", "-1")}, unsupported},
		{"postpone bucket", TableDefinition{Fields: kv, PrimaryKeys: []string{"k"}, Options: opts("bucket", "-2")}, unsupported},
		{"orc", TableDefinition{Fields: kv, Options: opts("file.format", "orc")}, unsupported},
		{"format table", TableDefinition{Fields: kv, Options: opts("type", "format-table")}, unsupported},
		{"custom path", TableDefinition{Fields: kv, Options: opts("path", "/elsewhere")}, unsupported},
		{"row tracking", TableDefinition{Fields: kv, Options: opts("row-tracking.enabled", "true")}, unsupported},
		{"data evolution", TableDefinition{Fields: kv, Options: opts("data-evolution.enabled", "true")}, unsupported},
		{"blob column", TableDefinition{Fields: cols("b", "BLOB")}, unsupported},
	}
	ctx := context.Background()
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := c.CreateTable(ctx, "db", "t", tc.def, false)
			assertIs(t, err, tc.want)
			if len(fs.Files()) != 1 {
				t.Fatalf("a refused CREATE TABLE wrote files: %q", fs.Files())
			}
		})
	}
}

func TestCreateTableAcceptsJavaValidDefinitions(t *testing.T) {
	tests := map[string]TableDefinition{
		"bucketed append": {Fields: columns(t, "k", "INT", "v", "STRING"), Options: map[string]string{"bucket": "3", "bucket-key": "k"}},
		"bucket-key subset of primary key": {Fields: columns(t, "a", "INT", "b", "INT", "v", "STRING"), PrimaryKeys: []string{"a", "b"},
			Options: map[string]string{"bucket": "2", "bucket-key": "b"}},
		"partial-update with sequence group": {Fields: columns(t, "k", "INT", "a", "INT", "s", "BIGINT"), PrimaryKeys: []string{"k"},
			Options: map[string]string{"merge-engine": "partial-update", "fields.s.sequence-group": "a"}},
		"aggregation": {Fields: columns(t, "k", "INT", "n", "BIGINT"), PrimaryKeys: []string{"k"},
			Options: map[string]string{"merge-engine": "Aggregation", "fields.n.aggregate-function": "sum",
				"fields.default-aggregate-function": "last_value"}},
		"cross-partition primary key": {Fields: columns(t, "k", "INT", "dt", "STRING"), PrimaryKeys: []string{"k"}, PartitionKeys: []string{"dt"}},
	}
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	for name, def := range tests {
		t.Run(name, func(t *testing.T) {
			if err := c.CreateTable(context.Background(), "db", name, def, false); err != nil {
				t.Fatal(err)
			}
		})
	}
}
