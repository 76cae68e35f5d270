package ddl

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

func alterFixture(t *testing.T) *spec.TableSchema {
	t.Helper()
	comment := "old"
	return &spec.TableSchema{
		Fields: []spec.DataField{
			{ID: 0, Name: "id", Type: mustType(t, "BIGINT NOT NULL")},
			{ID: 1, Name: "ts", Type: mustType(t, "TIMESTAMP(9)"), Description: "event time"},
			{ID: 2, Name: "note", Type: mustType(t, "VARCHAR(20)")},
			{ID: 3, Name: "n", Type: mustType(t, "INT")},
		},
		PrimaryKeys: []string{"id"},
		Options:     map[string]string{"bucket": "4", "merge-engine": "deduplicate", "write-only": "true"},
		Comment:     &comment,
	}
}

func TestAlterChangesOfTableOptions(t *testing.T) {
	cases := []struct {
		query string
		want  []catalog.SchemaChange
	}{
		{"ALTER TABLE t COMMENT 'new'", []catalog.SchemaChange{catalog.UpdateComment{Comment: "new"}}},
		{"ALTER TABLE t COMMENT 'old'", nil},
		{"alter table db.t comment = 'it\\'s new'", []catalog.SchemaChange{catalog.UpdateComment{Comment: "it's new"}}},
		{`ALTER TABLE t COMMENT 'paimon:{"snapshot.num-retained.max":"20","merge-engine":"deduplicate","write-only":null,"absent":null} old'`,
			[]catalog.SchemaChange{
				catalog.SetOption{Key: "snapshot.num-retained.max", Value: "20"},
				catalog.RemoveOption{Key: "write-only"},
			}},
		{`ALTER TABLE t COMMENT 'paimon:{"bucket":8}'`,
			[]catalog.SchemaChange{catalog.UpdateComment{Comment: ""}, catalog.SetOption{Key: "bucket", Value: "8"}}},
		{"ALTER TABLE t ADD COLUMN c int COMMENT 'a column comment'", nil},
		{"ALTER TABLE t MODIFY COLUMN n int COMMENT 'x', COMMENT 'table'",
			[]catalog.SchemaChange{catalog.UpdateComment{Comment: "table"}}},
		{"ALTER TABLE t ADD COLUMN c int, COMMENT='table' , ENGINE=InnoDB",
			[]catalog.SchemaChange{catalog.UpdateComment{Comment: "table"}}},
		{"ALTER TABLE t ADD COLUMN `comment` int", nil},
	}
	for _, c := range cases {
		got, err := AlterChanges(c.query, alterFixture(t))
		if err != nil {
			t.Errorf("%s: %v", c.query, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.query, got, c.want)
		}
	}
}

func TestAlterChangesRefusals(t *testing.T) {
	cases := []struct {
		query   string
		class   error
		mention string
	}{
		{"ALTER TABLE t ENGINE=MyISAM", lakeerr.ErrUnsupported, "ENGINE=MyISAM"},
		{"ALTER TABLE t PARTITION BY KEY (id) PARTITIONS 8", lakeerr.ErrUnsupported, "partitioning"},
		{"ALTER TABLE t REMOVE PARTITIONING", lakeerr.ErrUnsupported, "partitioning"},
		{`ALTER TABLE t COMMENT 'paimon:{"bucket":[1]}'`, ErrSyntax, "bucket"},
		{"SELECT 1", ErrSyntax, "ALTER TABLE"},
		{"ALTER TABLE t COMMENT", ErrSyntax, ""},
	}
	for _, c := range cases {
		_, err := AlterChanges(c.query, alterFixture(t))
		if !errors.Is(err, c.class) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: got %v, want %v mentioning %q", c.query, err, c.class, c.mention)
		}
	}
}

// alterViaGMS runs ALTER TABLE statements through GMS against a table shown
// as lakesql shows the Paimon schema, and returns the callbacks GMS made.
func alterViaGMS(t *testing.T, s *spec.TableSchema, query string) []modifyCall {
	t.Helper()
	g := newGMS()
	table := g.addPaimonTable(t, "t", s)
	if err := g.exec(query); err != nil {
		t.Fatalf("GMS refused %q: %v", query, err)
	}
	return table.calls
}

func TestColumnChangesFromGMSCallbacks(t *testing.T) {
	cases := []struct {
		query string
		want  []catalog.SchemaChange
	}{
		{"ALTER TABLE t RENAME COLUMN ts TO event_ts",
			[]catalog.SchemaChange{catalog.RenameColumn{Name: "ts", NewName: "event_ts"}}},
		{"ALTER TABLE t MODIFY COLUMN n bigint",
			[]catalog.SchemaChange{catalog.UpdateColumnType{Name: "n", NewType: mustType(t, "BIGINT")}}},
		{"ALTER TABLE t MODIFY COLUMN note varchar(20) COMMENT 'hello'",
			[]catalog.SchemaChange{catalog.UpdateColumnComment{Name: "note", Comment: "hello"}}},
		{"ALTER TABLE t MODIFY COLUMN ts datetime(6)",
			[]catalog.SchemaChange{catalog.UpdateColumnComment{Name: "ts", Comment: ""}}},
		{"ALTER TABLE t CHANGE COLUMN N m bigint COMMENT 'c'",
			[]catalog.SchemaChange{
				catalog.UpdateColumnType{Name: "n", NewType: mustType(t, "BIGINT")},
				catalog.UpdateColumnComment{Name: "n", Comment: "c"},
				catalog.RenameColumn{Name: "n", NewName: "m"},
			}},
		{"ALTER TABLE t ALTER COLUMN n DROP DEFAULT", nil},
		{"ALTER TABLE t ADD COLUMN c varchar(5) COMMENT 'cc' AFTER id",
			[]catalog.SchemaChange{catalog.AddColumn{Name: "c", Type: mustType(t, "VARCHAR(5)"), Comment: "cc", After: "id"}}},
		{"ALTER TABLE t ADD COLUMN c int FIRST",
			[]catalog.SchemaChange{catalog.AddColumn{Name: "c", Type: mustType(t, "INT"), First: true}}},
		{"ALTER TABLE t ADD COLUMN flag boolean",
			[]catalog.SchemaChange{catalog.AddColumn{Name: "flag", Type: mustType(t, "BOOLEAN")}}},
	}
	for _, c := range cases {
		s := alterFixture(t)
		got, err := columnChanges(s, alterViaGMS(t, s, c.query))
		if err != nil {
			t.Errorf("%s: %v", c.query, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.query, got, c.want)
		}
	}
}

// columnChanges maps recorded callbacks as a backend would.
func columnChanges(s *spec.TableSchema, calls []modifyCall) ([]catalog.SchemaChange, error) {
	var changes []catalog.SchemaChange
	for _, call := range calls {
		switch call.kind {
		case "add":
			add, err := AddColumnChange(call.column, call.order)
			if err != nil {
				return nil, err
			}
			changes = append(changes, add)
		case "modify":
			modify, err := ModifyColumnChanges(s, call.name, call.column, call.order)
			if err != nil {
				return nil, err
			}
			changes = append(changes, modify...)
		}
	}
	return changes, nil
}

func TestColumnChangesRefusals(t *testing.T) {
	cases := []struct{ query, mention string }{
		{"ALTER TABLE t MODIFY COLUMN n int NOT NULL", "NULL / NOT NULL"},
		{"ALTER TABLE t MODIFY COLUMN n int AFTER note", "moving"},
		{"ALTER TABLE t ALTER COLUMN n SET DEFAULT 3", "DEFAULT"},
		{"ALTER TABLE t MODIFY COLUMN n year", "column n: "},
		{"ALTER TABLE t ADD COLUMN c int NOT NULL", "nullable"},
		{"ALTER TABLE t ADD COLUMN c int DEFAULT 1", "DEFAULT"},
		{"ALTER TABLE t ADD COLUMN c set('a')", "column c: "},
	}
	for _, c := range cases {
		s := alterFixture(t)
		_, err := columnChanges(s, alterViaGMS(t, s, c.query))
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: got %v, want ErrUnsupported mentioning %q", c.query, err, c.mention)
		}
	}
	if _, err := ModifyColumnChanges(alterFixture(t), "missing", nil, nil); !errors.Is(err, catalog.ErrColumnNotFound) {
		t.Errorf("missing column: got %v", err)
	}
}

// TestAlterChangesApplyInCatalog applies the changes of ALTER statements to
// a real catalog table and checks the schema it ends with.
func TestAlterChangesApplyInCatalog(t *testing.T) {
	ctx := context.Background()
	fs := memio.New()
	cat := catalog.New(fs, "wh", nil)
	if err := cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	s := createInCatalog(t, fs, cat, "t", 0,
		"CREATE TABLE t (id bigint PRIMARY KEY, n int, note varchar(10)) COMMENT 'paimon:{\"write-only\":\"true\"} v1'")
	dir, err := cat.TablePath("db", "ta")
	if err != nil {
		t.Fatal(err)
	}
	for _, query := range []string{
		"ALTER TABLE t MODIFY COLUMN n bigint COMMENT 'count'",
		"ALTER TABLE t RENAME COLUMN note TO remark",
		"ALTER TABLE t ADD COLUMN at datetime(3) AFTER id",
		`ALTER TABLE t COMMENT 'paimon:{"write-only":null,"snapshot.num-retained.max":"5"} v2'`,
	} {
		changes, err := columnChanges(s, alterViaGMS(t, s, query))
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		tableChanges, err := AlterChanges(query, s)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if _, err := cat.AlterTable(ctx, "db", "ta", append(changes, tableChanges...)...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if s, err = schema.NewManager(fs, dir, "").Latest(ctx); err != nil {
			t.Fatal(err)
		}
	}
	text, err := ShowCreateTable("t", s)
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `t` (\n" +
		"  `id` bigint NOT NULL,\n" +
		"  `at` datetime(3),\n" +
		"  `n` bigint COMMENT 'count',\n" +
		"  `remark` varchar(10),\n" +
		"  PRIMARY KEY (`id`)\n" +
		`) COMMENT='paimon:{"snapshot.num-retained.max":"5"} v2'`
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}
