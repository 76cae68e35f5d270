package rewrite

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// overwriteCases: parse_test.go parses every "query" with the real parser.
var overwriteCases = []struct {
	name, in, query string
	want            Overwrite
}{
	{
		name:  "values",
		in:    "INSERT OVERWRITE t VALUES (1, 'a'), (2, 'b')",
		query: "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
		want:  Overwrite{Table: "t", Source: "VALUES (1, 'a'), (2, 'b')"},
	},
	{
		name:  "hive static partition",
		in:    "INSERT OVERWRITE TABLE lake.payments PARTITION (dt='2026-04-16') SELECT id, amount FROM staging WHERE day = '2026-04-16'",
		query: "INSERT INTO lake.payments SELECT id, amount FROM staging WHERE day = '2026-04-16'",
		want: Overwrite{Database: "lake", Table: "payments", StaticPartition: []KV{{"dt", "2026-04-16"}},
			Source: "SELECT id, amount FROM staging WHERE day = '2026-04-16'"},
	},
	{
		name:  "flink overwrite into with quoted names, mixed partition, columns and a parenthesised query",
		in:    "insert overwrite into `my db`.`pay``ments` partition (`dt` = '2026-04-16', hr = 10, region) (id, `amount`) (SELECT id, amount, region FROM s)",
		query: "insert INTO `my db`.`pay``ments` (id, `amount`) (SELECT id, amount, region FROM s)",
		want: Overwrite{Database: "my db", Table: "pay`ments", StaticPartition: []KV{{"dt", "2026-04-16"}, {"hr", "10"}},
			Dynamic: true, Columns: []string{"id", "amount"}, Source: "(SELECT id, amount, region FROM s)"},
	},
	{
		name:  "signed number and escaped string values",
		in:    `INSERT OVERWRITE t PARTITION (k = -1, s = 'it''s', u = "a\"b", f = +2.5) VALUE (1)`,
		query: "INSERT INTO t VALUE (1)",
		want:  Overwrite{Table: "t", StaticPartition: []KV{{"k", "-1"}, {"s", "it's"}, {"u", `a"b`}, {"f", "+2.5"}}, Source: "VALUE (1)"},
	},
	{
		name:  "dynamic partition only",
		in:    "INSERT OVERWRITE t PARTITION (dt) SELECT a, dt FROM s",
		query: "INSERT INTO t SELECT a, dt FROM s",
		want:  Overwrite{Table: "t", Dynamic: true, Source: "SELECT a, dt FROM s"},
	},
	{
		name:  "with query and time travel in the source",
		in:    "INSERT OVERWRITE t PARTITION (dt='2026-04-16') WITH c AS (SELECT a FROM t FOR TIMESTAMP AS OF '2026-04-16 00:00:00') SELECT a FROM c",
		query: "INSERT INTO t WITH c AS (SELECT a FROM t FOR SYSTEM_TIME AS OF '2026-04-16 00:00:00') SELECT a FROM c",
		want: Overwrite{Table: "t", StaticPartition: []KV{{"dt", "2026-04-16"}},
			Source: "WITH c AS (SELECT a FROM t FOR SYSTEM_TIME AS OF '2026-04-16 00:00:00') SELECT a FROM c"},
	},
	{
		name:  "empty column list",
		in:    "INSERT OVERWRITE t () VALUES ()",
		query: "INSERT INTO t () VALUES ()",
		want:  Overwrite{Table: "t", Columns: []string{}, Source: "VALUES ()"},
	},
	{
		name:  "no blanks around the partition clause",
		in:    "INSERT OVERWRITE`t`PARTITION(dt='x')VALUES(1)",
		query: "INSERT INTO `t` VALUES(1)",
		want:  Overwrite{Table: "t", StaticPartition: []KV{{"dt", "x"}}, Source: "VALUES(1)"},
	},
	{
		name:  "comments, trailing semicolon and comment",
		in:    "/* nightly */ INSERT /*+ hint */ OVERWRITE t PARTITION (dt = '2026-04-16') -- the day\nSELECT 1 ; -- done",
		query: "/* nightly */ INSERT /*+ hint */ INTO t -- the day\nSELECT 1 ; -- done",
		want:  Overwrite{Table: "t", StaticPartition: []KV{{"dt", "2026-04-16"}}, Source: "SELECT 1"},
	},
}

func TestRewriteInsertOverwrite(t *testing.T) {
	for _, tc := range overwriteCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rewrite(tc.in)
			if err != nil {
				t.Fatalf("Rewrite(%q): %v", tc.in, err)
			}
			if got.Query != tc.query {
				t.Errorf("Query\n got %q\nwant %q", got.Query, tc.query)
			}
			if got.Overwrite == nil {
				t.Fatal("Overwrite = nil")
			}
			if !reflect.DeepEqual(*got.Overwrite, tc.want) {
				t.Errorf("Overwrite\n got %+v\nwant %+v", *got.Overwrite, tc.want)
			}
			if !strings.Contains(got.Query, got.Overwrite.Source) {
				t.Errorf("Source %q is not part of Query %q", got.Overwrite.Source, got.Query)
			}
		})
	}
}

func TestRewriteInsertOverwriteErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		class    error
		want     string
	}{
		{"no table", "INSERT OVERWRITE VALUES (1)", ErrSyntax, "expected a table name, found 'VALUES'"},
		{"table as a string", `INSERT OVERWRITE "t" VALUES (1)`, ErrSyntax, `expected a table name, found '"t"'`},
		{"nothing after the table", "INSERT OVERWRITE t", ErrSyntax, "expected VALUES or a SELECT, found the end of the statement"},
		{"insert set form", "INSERT OVERWRITE t SET a = 1", ErrSyntax, "expected VALUES or a SELECT, found 'SET'"},
		{"partition without parentheses", "INSERT OVERWRITE t PARTITION dt='x' SELECT 1", ErrSyntax, "expected '(', found 'dt'"},
		{"empty partition", "INSERT OVERWRITE t PARTITION () VALUES (1)", ErrSyntax, "expected a partition column name, found ')'"},
		{"expression value", "INSERT OVERWRITE t PARTITION (dt = now()) VALUES (1)", ErrSyntax,
			"PARTITION (dt = …): a partition value must be a string or number literal, found 'now'"},
		{"bind parameter value", "INSERT OVERWRITE t PARTITION (dt = ?) VALUES (1)", lakeerr.ErrUnsupported, "a bind parameter cannot be a partition value"},
		{"column given twice", "INSERT OVERWRITE t PARTITION (dt = 'a', DT) VALUES (1)", ErrSyntax, "column DT is given twice"},
		{"unclosed partition", "INSERT OVERWRITE t PARTITION (dt = 'a' VALUES (1)", ErrSyntax, "expected ',' or ')', found 'VALUES'"},
		{"bad column list", "INSERT OVERWRITE t (a, 1) VALUES (1)", ErrSyntax, "expected a column name, found '1'"},
		{"if not exists", "INSERT OVERWRITE TABLE t PARTITION (dt = 'a') IF NOT EXISTS SELECT 1", lakeerr.ErrUnsupported, "IF NOT EXISTS is not supported"},
		{"multi statement", "INSERT OVERWRITE t VALUES (1); SELECT 1", lakeerr.ErrUnsupported, "must be sent as a statement of its own"},
		{"second of two statements", "SELECT 1; INSERT OVERWRITE t VALUES (1)", lakeerr.ErrUnsupported, "must be sent as a statement of its own"},
		{"partition selection in the source", "INSERT OVERWRITE t SELECT * FROM s PARTITION (p1)", lakeerr.ErrUnsupported, "s PARTITION (p1): selecting partitions"},
		{"bind parameter in source as of", "INSERT OVERWRITE t SELECT * FROM s AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
		{"prepared", "PREPARE ps FROM 'INSERT OVERWRITE t VALUES (?)'", lakeerr.ErrUnsupported, "INSERT OVERWRITE cannot be prepared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rewrite(tc.in)
			if err == nil {
				t.Fatalf("Rewrite(%q) = %+v, want an error", tc.in, got)
			}
			if !errors.Is(err, tc.class) {
				t.Errorf("error %q is not %v", err, tc.class)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
