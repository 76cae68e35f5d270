package table

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaFixturesReadModes checks the $audit_log and $ro reads of every
// readable Java fixture snapshot against the rows Java returns for the
// table itself: the audit rows that are not retractions are exactly those
// rows (an append table's all +I), and the read-optimized rows are exactly
// those of an append table, or of a primary-key table whose live files are
// all on the highest level.
func TestJavaFixturesReadModes(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	var checkedRO int
	for _, ft := range tables {
		want := m.Tables[ft.Name]
		if want.Exempt != nil {
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			tbl := openFixture(t, ft.Dir)
			for _, id := range want.Snapshots {
				expected := expectedRows(t, ft.Name, fmt.Sprintf("snapshot-%d.jsonl", id))
				tt := snapshot.TimeTravel{SnapshotID: id}
				plan, err := tbl.PlanTimeTravel(context.Background(), tt, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkAuditFixture(t, tbl, tt, len(plan.Schema.PrimaryKeys) > 0, expected)
				if allOnTopLevel(t, plan) && checkROFixture(t, tbl, tt, expected) {
					checkedRO++
				}
			}
		})
	}
	if checkedRO == 0 {
		t.Error("no fixture snapshot had its read-optimized rows checked")
	}
}

func checkAuditFixture(t *testing.T, tbl *Table, tt snapshot.TimeTravel, primaryKey bool, expected []string) {
	t.Helper()
	rows, err := tbl.Read(context.Background(), ReadOptions{At: tt, WithRowKind: true})
	if err != nil {
		t.Fatalf("audit read %+v: %v", tt, err)
	}
	all, err := ReadAll(rows)
	if err != nil {
		t.Fatalf("audit read %+v: %v", tt, err)
	}
	var live [][]any
	for _, row := range all {
		switch kind := row[0]; {
		case kind == "+I" || kind == "+U":
			live = append(live, row[1:])
		case primaryKey && (kind == "-U" || kind == "-D"):
		default:
			t.Fatalf("audit read %+v: row kind %v in %v", tt, kind, row)
		}
	}
	compareRows(t, fmt.Sprintf("audit %+v without retractions", tt), toJSON(t, rows.Fields()[1:], live), expected)
}

// allOnTopLevel reports whether a read-optimized read of the plan reads
// every file the plan reads: an append table, or primary-key files all on
// the highest level (the fallback branch's part too).
func allOnTopLevel(t *testing.T, plan *Plan) bool {
	t.Helper()
	if plan.Fallback != nil && !allOnTopLevel(t, plan.Fallback.Plan) {
		return false
	}
	if len(plan.Schema.PrimaryKeys) == 0 {
		return true
	}
	numLevels, err := plan.Schema.CoreOptions().NumLevels()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range plan.Buckets {
		if slices.ContainsFunc(b.Files, func(f spec.DataFileMeta) bool { return f.Level != int32(numLevels-1) }) {
			return false
		}
	}
	return true
}

// checkROFixture compares the read-optimized rows with Java's rows of the
// table; the caller knows they must be equal.
func checkROFixture(t *testing.T, tbl *Table, tt snapshot.TimeTravel, expected []string) bool {
	t.Helper()
	rows, err := tbl.Read(context.Background(), ReadOptions{At: tt, ReadOptimized: true})
	if err != nil {
		t.Fatalf("ro read %+v: %v", tt, err)
	}
	all, err := ReadAll(rows)
	if err != nil {
		t.Fatalf("ro read %+v: %v", tt, err)
	}
	compareRows(t, fmt.Sprintf("ro %+v", tt), toJSON(t, rows.Fields(), all), expected)
	return true
}
