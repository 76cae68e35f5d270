package ddl

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestParseCreateTableReadsPartitioning(t *testing.T) {
	const cols = "(id bigint, dt varchar(10), region varchar(8), amount int, PRIMARY KEY (id, dt))"
	cases := []struct {
		name, query string
		want        Spec
	}{
		{"no partitioning", "CREATE TABLE t " + cols,
			Spec{}},
		{"list columns", "CREATE TABLE t " + cols + " PARTITION BY LIST COLUMNS (dt)",
			Spec{PartitionKeys: []string{"dt"}}},
		{"list columns, two keys, backquoted", "CREATE TABLE t " + cols + " PARTITION BY LIST COLUMNS (`dt`, `region`)",
			Spec{PartitionKeys: []string{"dt", "region"}}},
		{"list columns with a partition list", "CREATE TABLE t " + cols +
			" PARTITION BY LIST COLUMNS (dt) (PARTITION p0 VALUES IN ('2026-01-01', 'a)b'), PARTITION p1 VALUES IN ('x'))",
			Spec{PartitionKeys: []string{"dt"}}},
		{"after table options", "CREATE TABLE t " + cols + " ENGINE=InnoDB COMMENT='c' PARTITION BY LIST COLUMNS (dt);",
			Spec{PartitionKeys: []string{"dt"}}},
		{"key buckets", "CREATE TABLE t " + cols + " PARTITION BY KEY (id) PARTITIONS 8",
			Spec{BucketKey: []string{"id"}, Buckets: 8}},
		{"key buckets, two columns", "create table t " + cols + " partition by key (id, amount) partitions 2",
			Spec{BucketKey: []string{"id", "amount"}, Buckets: 2}},
		{"key () is the primary key", "CREATE TABLE t " + cols + " PARTITION BY KEY () PARTITIONS 3",
			Spec{Buckets: 3}},
		{"list columns and subpartitions", "CREATE TABLE t " + cols +
			" PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 4",
			Spec{PartitionKeys: []string{"dt"}, BucketKey: []string{"id"}, Buckets: 4}},
		{"multi-column subpartition key", "CREATE TABLE t " + cols +
			" PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id, amount) SUBPARTITIONS 4",
			Spec{PartitionKeys: []string{"dt"}, BucketKey: []string{"id", "amount"}, Buckets: 4}},
		{"mysqldump executable comment", "CREATE TABLE t " + cols + " /*!50100 PARTITION BY LIST COLUMNS (dt) */",
			Spec{PartitionKeys: []string{"dt"}}},
		{"comments around", "CREATE TABLE t " + cols + " -- partitioned\n /* by day */ PARTITION # here\n BY LIST COLUMNS (dt)",
			Spec{PartitionKeys: []string{"dt"}}},
		{"if not exists, qualified", "CREATE TABLE IF NOT EXISTS db.t " + cols,
			Spec{Name: TableName{Database: "db", Name: "t"}, IfNotExists: true}},
		{"partition words inside a comment string", "CREATE TABLE t " + cols + " COMMENT 'PARTITION BY RANGE (id)'",
			Spec{}},
		{"as select", "CREATE TABLE t AS SELECT 1 AS a",
			Spec{AsSelect: true}},
		{"like", "CREATE TABLE t LIKE db2.u",
			Spec{Like: &TableName{Database: "db2", Name: "u"}}},
	}
	for _, c := range cases {
		got, err := ParseCreateTable(c.query)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want := c.want
		if want.Name.Name == "" {
			want.Name.Name = "t"
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, want)
		}
	}
}

func TestParseCreateTableRefusesWhatPaimonCannotExpress(t *testing.T) {
	const cols = "(id int, dt varchar(10))"
	cases := []struct {
		name, query string
		class       error
		mention     string
	}{
		{"range", "CREATE TABLE t " + cols + " PARTITION BY RANGE (id) (PARTITION p VALUES LESS THAN (10))",
			lakeerr.ErrUnsupported, "RANGE"},
		{"range columns", "CREATE TABLE t " + cols + " PARTITION BY RANGE COLUMNS (dt) (PARTITION p VALUES LESS THAN ('b'))",
			lakeerr.ErrUnsupported, "RANGE COLUMNS"},
		{"hash", "CREATE TABLE t " + cols + " PARTITION BY HASH (id) PARTITIONS 4",
			lakeerr.ErrUnsupported, "HASH"},
		{"linear key", "CREATE TABLE t " + cols + " PARTITION BY LINEAR KEY (id) PARTITIONS 4",
			lakeerr.ErrUnsupported, "LINEAR KEY"},
		{"list without columns", "CREATE TABLE t " + cols + " PARTITION BY LIST (id) (PARTITION p VALUES IN (1))",
			lakeerr.ErrUnsupported, "LIST COLUMNS (cols) for partition keys"},
		{"hash subpartitions", "CREATE TABLE t " + cols + " PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY HASH (id) SUBPARTITIONS 2",
			lakeerr.ErrUnsupported, "HASH"},
		{"key algorithm", "CREATE TABLE t " + cols + " PARTITION BY KEY ALGORITHM=2 (id) PARTITIONS 4",
			lakeerr.ErrUnsupported, "ALGORITHM"},
		{"subpartitions under key", "CREATE TABLE t " + cols + " PARTITION BY KEY (id) PARTITIONS 2 SUBPARTITION BY KEY (id) SUBPARTITIONS 2",
			lakeerr.ErrUnsupported, "SUBPARTITION"},
		{"key without count", "CREATE TABLE t " + cols + " PARTITION BY KEY (id)",
			ErrSyntax, "PARTITIONS n"},
		{"zero buckets", "CREATE TABLE t " + cols + " PARTITION BY KEY (id) PARTITIONS 0",
			ErrSyntax, "at least 1"},
		{"temporary", "CREATE TEMPORARY TABLE t " + cols,
			lakeerr.ErrUnsupported, "temporary"},
		{"engine", "CREATE TABLE t " + cols + " ENGINE=MEMORY",
			lakeerr.ErrUnsupported, "ENGINE=MEMORY"},
		{"dollar name", "CREATE TABLE `t$snapshots` " + cols,
			catalog.ErrInvalidName, "system tables"},
		{"like with partitioning", "CREATE TABLE t LIKE u PARTITION BY LIST COLUMNS (dt)",
			lakeerr.ErrUnsupported, "LIKE"},
		{"not create table", "CREATE VIEW v AS SELECT 1",
			ErrSyntax, "CREATE TABLE"},
		{"garbage", "CREATE TABLE t (id int",
			ErrSyntax, ""},
		{"unterminated string", "CREATE TABLE t (id int) COMMENT 'x",
			ErrSyntax, "unterminated"},
	}
	for _, c := range cases {
		_, err := ParseCreateTable(c.query)
		if !errors.Is(err, c.class) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.class)
			continue
		}
		if !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: %q does not mention %q", c.name, err, c.mention)
		}
	}
}

func TestParseCreateTableAcceptsEnginesShownByTools(t *testing.T) {
	for _, engine := range []string{"InnoDB", "innodb", "paimon", "PAIMON"} {
		if _, err := ParseCreateTable("CREATE TABLE t (a int) ENGINE=" + engine); err != nil {
			t.Errorf("ENGINE=%s: %v", engine, err)
		}
	}
}

func TestCheckTableName(t *testing.T) {
	for _, name := range []string{"orders", "Orders_2026", "дата", "a.b"} {
		if err := CheckTableName(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"", "a$b", "a/b", `a\b`, "..", "a..b", "a\x00b"} {
		if err := CheckTableName(name); !errors.Is(err, catalog.ErrInvalidName) {
			t.Errorf("%q: got %v, want ErrInvalidName", name, err)
		}
	}
}
