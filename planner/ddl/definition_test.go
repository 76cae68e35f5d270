package ddl

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// defineViaGMS runs a CREATE TABLE through GMS and builds the definition
// from what GMS hands to CreateTable, as the lakesql backend does.
func defineViaGMS(t *testing.T, query string) (catalog.TableDefinition, error) {
	t.Helper()
	call := newGMS().create(t, query)
	s, err := ParseCreateTable(call.query)
	if err != nil {
		return catalog.TableDefinition{}, err
	}
	return Definition(call.schema, s, call.comment)
}

func mustType(t *testing.T, s string) spec.DataType {
	t.Helper()
	typ, err := spec.ParseDataType(s)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestDefinitionOfPartitionedBucketedTable(t *testing.T) {
	def, err := defineViaGMS(t, "CREATE TABLE orders ("+
		"id bigint NOT NULL COMMENT 'order id', "+
		"dt varchar(10), "+
		"paid boolean, "+
		"amount decimal(12,2), "+
		"note text DEFAULT NULL, "+
		"PRIMARY KEY (id, dt)) "+
		`COMMENT 'paimon:{"merge-engine":"partial-update","sequence.field":"amount"} orders by day' `+
		"PARTITION BY LIST COLUMNS (DT) SUBPARTITION BY KEY (ID) SUBPARTITIONS 4")
	if err != nil {
		t.Fatal(err)
	}
	want := catalog.TableDefinition{
		Fields: []spec.DataField{
			{ID: 0, Name: "id", Type: mustType(t, "BIGINT NOT NULL"), Description: "order id"},
			{ID: 1, Name: "dt", Type: mustType(t, "VARCHAR(10) NOT NULL")},
			{ID: 2, Name: "paid", Type: mustType(t, "BOOLEAN")},
			{ID: 3, Name: "amount", Type: mustType(t, "DECIMAL(12, 2)")},
			{ID: 4, Name: "note", Type: mustType(t, "STRING")},
		},
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"id", "dt"},
		Options: map[string]string{
			"merge-engine": "partial-update", "sequence.field": "amount", "bucket": "4", "bucket-key": "id",
		},
		Comment: "orders by day",
	}
	if !reflect.DeepEqual(def, want) {
		t.Errorf("got  %+v\nwant %+v", def, want)
	}
}

func TestDefinitionOfAppendTables(t *testing.T) {
	cases := []struct {
		query       string
		partitions  []string
		options     map[string]string
		primaryKeys []string
	}{
		{"CREATE TABLE e (ts datetime(3), kind varchar(8), payload json)", nil, nil, nil},
		{"CREATE TABLE e (ts datetime(3), kind varchar(8)) PARTITION BY KEY (kind) PARTITIONS 3",
			nil, map[string]string{"bucket": "3", "bucket-key": "kind"}, nil},
		{"CREATE TABLE e (dt date, kind varchar(8), n int) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (kind) SUBPARTITIONS 2",
			[]string{"dt"}, map[string]string{"bucket": "2", "bucket-key": "kind"}, nil},
		{"CREATE TABLE e (id int PRIMARY KEY, v int) COMMENT 'just text'", nil, nil, []string{"id"}},
	}
	for _, c := range cases {
		def, err := defineViaGMS(t, c.query)
		if err != nil {
			t.Errorf("%s: %v", c.query, err)
			continue
		}
		if !reflect.DeepEqual(def.PartitionKeys, c.partitions) || !reflect.DeepEqual(def.Options, c.options) ||
			!reflect.DeepEqual(def.PrimaryKeys, c.primaryKeys) {
			t.Errorf("%s: got partitions %v, options %v, keys %v", c.query, def.PartitionKeys, def.Options, def.PrimaryKeys)
		}
	}
}

func TestDefinitionRefusesWhatPaimonRefuses(t *testing.T) {
	cases := []struct {
		name, query string
		class       error
		mention     string
	}{
		{"partition key not a column", "CREATE TABLE t (id int PRIMARY KEY) PARTITION BY LIST COLUMNS (dt)",
			catalog.ErrInvalidDefinition, "dt is not a column"},
		{"partition key outside the primary key", "CREATE TABLE t (id int PRIMARY KEY, dt date) PARTITION BY LIST COLUMNS (dt)",
			catalog.ErrInvalidDefinition, "not part of the primary key"},
		{"partition key listed twice", "CREATE TABLE t (id int, dt date) PARTITION BY LIST COLUMNS (dt, DT)",
			catalog.ErrInvalidDefinition, "twice"},
		{"bucket key is a partition key", "CREATE TABLE t (id int, dt date, PRIMARY KEY (id, dt)) " +
			"PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (dt) SUBPARTITIONS 2",
			catalog.ErrInvalidDefinition, "bucket key dt is a partition key"},
		{"bucket key outside the primary key", "CREATE TABLE t (id int PRIMARY KEY, v int) PARTITION BY KEY (v) PARTITIONS 2",
			catalog.ErrInvalidDefinition, "bucket key v is not part of the primary key"},
		{"bucket twice", `CREATE TABLE t (id int PRIMARY KEY) COMMENT 'paimon:{"bucket":"3"}' PARTITION BY KEY (id) PARTITIONS 2`,
			catalog.ErrInvalidDefinition, "both"},
		{"partition option in the comment", `CREATE TABLE t (id int, dt date) COMMENT 'paimon:{"partition":"dt"}'`,
			catalog.ErrInvalidDefinition, "PARTITION BY LIST COLUMNS"},
		{"null option", `CREATE TABLE t (id int) COMMENT 'paimon:{"bucket":null}'`,
			ErrSyntax, "ALTER TABLE"},
		{"bad options", `CREATE TABLE t (id int) COMMENT 'paimon:{bucket}'`,
			ErrSyntax, "JSON object"},
		{"auto increment", "CREATE TABLE t (id int AUTO_INCREMENT PRIMARY KEY)",
			lakeerr.ErrUnsupported, "AUTO_INCREMENT"},
		{"default", "CREATE TABLE t (id int, n int DEFAULT 5)",
			lakeerr.ErrUnsupported, "column n: DEFAULT"},
		{"generated", "CREATE TABLE t (id int, n int AS (id + 1))",
			lakeerr.ErrUnsupported, "generated"},
		{"year", "CREATE TABLE t (id int, y year)",
			lakeerr.ErrUnsupported, "column y: "},
		{"enum", "CREATE TABLE t (id int, e enum('a','b'))",
			lakeerr.ErrUnsupported, "column e: "},
		{"wide decimal", "CREATE TABLE t (id int, d decimal(50,2))",
			lakeerr.ErrUnsupported, "at most 38"},
		{"like", "CREATE TABLE t2 LIKE t",
			lakeerr.ErrUnsupported, "LikeDefinition"},
	}
	for _, c := range cases {
		g := newGMS()
		if err := g.exec("CREATE TABLE t (id int, dt date)"); err != nil {
			t.Fatal(err)
		}
		call := g.create(t, c.query)
		s, err := ParseCreateTable(call.query)
		if err == nil {
			_, err = Definition(call.schema, s, call.comment)
		}
		if !errors.Is(err, c.class) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.class)
			continue
		}
		if !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: %q does not mention %q", c.name, err, c.mention)
		}
	}
}

// TestDefinitionOfKeyFormsGMSCannotParse covers KEY () and multi-column
// subpartition keys, which GMS's parser refuses but MySQL accepts: the
// schema comes from the statement without its partition clause.
func TestDefinitionOfKeyFormsGMSCannotParse(t *testing.T) {
	const table = "CREATE TABLE t (id int, k int, dt date, v int, PRIMARY KEY (id, k, dt))"
	cases := []struct {
		clause  string
		options map[string]string
		err     error
	}{
		{"PARTITION BY KEY () PARTITIONS 4", map[string]string{"bucket": "4"}, nil},
		{"PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id, k) SUBPARTITIONS 2",
			map[string]string{"bucket": "2", "bucket-key": "id,k"}, nil},
	}
	for _, c := range cases {
		call := newGMS().create(t, table)
		s, err := ParseCreateTable(table + " " + c.clause)
		if err != nil {
			t.Fatalf("%s: %v", c.clause, err)
		}
		def, err := Definition(call.schema, s, call.comment)
		if err != nil {
			t.Errorf("%s: %v", c.clause, err)
			continue
		}
		if !reflect.DeepEqual(def.Options, c.options) {
			t.Errorf("%s: options %v, want %v", c.clause, def.Options, c.options)
		}
	}
	appendTable := newGMS().create(t, "CREATE TABLE t (id int, v int)")
	s, err := ParseCreateTable("CREATE TABLE t (id int, v int) PARTITION BY KEY () PARTITIONS 4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Definition(appendTable.schema, s, ""); !errors.Is(err, catalog.ErrInvalidDefinition) {
		t.Errorf("KEY () on an append table: got %v, want ErrInvalidDefinition", err)
	}
}

func TestLikeDefinitionCopiesThePaimonSchema(t *testing.T) {
	comment := "facts"
	source := &spec.TableSchema{
		Fields: []spec.DataField{
			{ID: 3, Name: "id", Type: mustType(t, "INT NOT NULL")},
			{ID: 7, Name: "ts", Type: mustType(t, "TIMESTAMP(9)"), Description: "nanos"},
		},
		PrimaryKeys: []string{"id"},
		Options:     map[string]string{"bucket": "2", "path": "/elsewhere", "merge-engine": "first-row"},
		Comment:     &comment,
	}
	def := LikeDefinition(source)
	want := catalog.TableDefinition{
		Fields:      source.Fields,
		PrimaryKeys: []string{"id"},
		Options:     map[string]string{"bucket": "2", "merge-engine": "first-row"},
		Comment:     "facts",
	}
	if !reflect.DeepEqual(def, want) {
		t.Errorf("got %+v, want %+v", def, want)
	}
	if source.Options["path"] != "/elsewhere" {
		t.Error("LikeDefinition changed the source options")
	}
}
