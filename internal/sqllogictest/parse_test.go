package sqllogictest

import (
	"reflect"
	"strings"
	"testing"
)

// script is assembled from records of the corpus (random/aggregates,
// select1, evidence/in1), with a comment inside a record and CRLF line
// ends as the harness tolerates them.
const script = "hash-threshold 8\n" +
	"\n" +
	"statement ok\n" +
	"CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)\n" +
	"\n" +
	"# a comment between records\n" +
	"statement error\r\n" +
	"CREATE TABLE tab1(col0 INTEGER)\r\n" +
	"   \n" +
	"onlyif mysql # DIV for integer division: \n" +
	"query I rowsort label-1\n" +
	"SELECT DISTINCT 20 DIV - 97 FROM tab0\n" +
	"----\n" +
	"0\n" +
	"\n" +
	"skipif mysql # not compatible\n" +
	"skipif postgresql # PostgreSQL requires AS when renaming output columns\n" +
	"query I rowsort label-1\n" +
	"SELECT DISTINCT 20 / - 97 FROM tab0\n" +
	"----\n" +
	"0\n" +
	"\n" +
	"query II nosort\n" +
	"SELECT a+b*2+c*3+d*4+e*5,\n" +
	"# a comment inside a record is dropped, not a boundary\n" +
	"       (a+b+c+d+e)/5\n" +
	"  FROM t1\n" +
	" ORDER BY 1,2\n" +
	"----\n" +
	"60 values hashing to 808146289313018fce25f1a280bd8c30\n" +
	"\n" +
	"query T valuesort\n" +
	"SELECT 'x'\n" +
	"\n" +
	"onlyif mssql\n" +
	"halt\n" +
	"\n" +
	"halt\n"

func TestParse(t *testing.T) {
	got, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Line: 1, Kind: HashThreshold, Threshold: 8},
		{Line: 3, Kind: Statement, SQL: "CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)"},
		{Line: 7, Kind: Statement, ExpectError: true, SQL: "CREATE TABLE tab1(col0 INTEGER)"},
		{
			Line: 10, Kind: Query, Conditions: []Condition{{Skip: false, Engine: "mysql"}},
			Types: "I", Sort: RowSort, Label: "label-1",
			SQL: "SELECT DISTINCT 20 DIV - 97 FROM tab0", Expected: []string{"0"},
		},
		{
			Line: 16, Kind: Query, Conditions: []Condition{{Skip: true, Engine: "mysql"}, {Skip: true, Engine: "postgresql"}},
			Types: "I", Sort: RowSort, Label: "label-1",
			SQL: "SELECT DISTINCT 20 / - 97 FROM tab0", Expected: []string{"0"},
		},
		{
			Line: 23, Kind: Query, Types: "II", Sort: NoSort,
			SQL:      "SELECT a+b*2+c*3+d*4+e*5,\n       (a+b+c+d+e)/5\n  FROM t1\n ORDER BY 1,2",
			Expected: []string{"60 values hashing to 808146289313018fce25f1a280bd8c30"},
		},
		{Line: 32, Kind: Query, Types: "T", Sort: ValueSort, SQL: "SELECT 'x'"},
		{Line: 35, Kind: Halt, Conditions: []Condition{{Skip: false, Engine: "mssql"}}},
		{Line: 38, Kind: Halt},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		script, want string
	}{
		{"statement ok\nSELECT 1\n\nquery IX\nSELECT 1\n", "line 4: query needs a type string"},
		{"query I random\nSELECT 1\n", `line 1: unknown sort mode "random"`},
		{"statement maybe\nSELECT 1\n", "line 1: statement must be followed by ok or error"},
		{"statement ok\n", "line 1: statement without SQL"},
		{"hash-threshold\n", "line 1: hash-threshold needs a number"},
		{"skipif mysql\n", "line 1: skipif needs an engine and a record"},
		{"\n\nselect 1\n", `line 3: unknown record type "select"`},
	} {
		_, err := Parse(strings.NewReader(tc.script))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.script, err, tc.want)
		}
	}
}

func TestRunsOn(t *testing.T) {
	for _, tc := range []struct {
		conditions []Condition
		want       bool
	}{
		{nil, true},
		{[]Condition{{Skip: true, Engine: "mysql"}}, false},
		{[]Condition{{Skip: true, Engine: "MySQL"}}, false},
		{[]Condition{{Skip: true, Engine: "postgresql"}}, true},
		{[]Condition{{Skip: false, Engine: "mysql"}}, true},
		{[]Condition{{Skip: false, Engine: "sqlite"}}, false},
		{[]Condition{{Skip: true, Engine: "mssql"}, {Skip: true, Engine: "mysql"}}, false},
		{[]Condition{{Skip: false, Engine: "mysql"}, {Skip: true, Engine: "oracle"}}, true},
	} {
		rec := Record{Conditions: tc.conditions}
		if got := rec.RunsOn("mysql"); got != tc.want {
			t.Errorf("RunsOn(mysql) with %+v = %v, want %v", tc.conditions, got, tc.want)
		}
	}
}
