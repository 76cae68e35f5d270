package table

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// avroFixtures holds tables Java Paimon wrote with file.format = avro, and
// what Java's dump printed for each of their snapshots (see its NOTICE).
const avroFixtures = "../avroio/testdata"

func avroTables(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(avroFixtures, "warehouse", "avro.db", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no avro fixture tables: %v", err)
	}
	return dirs
}

// TestJavaAvroTablesReadExactly reads every snapshot of every Java-written
// avro table (all types, primary keys with updates, deletes and Java's
// compaction, deletion vectors, thin mode, schema evolution, codecs) and
// compares the rows with Java's dump of that snapshot.
func TestJavaAvroTablesReadExactly(t *testing.T) {
	for _, dir := range avroTables(t) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			tbl, err := Open(context.Background(), localio.New(), dir)
			if err != nil {
				t.Fatal(err)
			}
			dumps, _ := filepath.Glob(filepath.Join(avroFixtures, "expected", name, "snapshot-*.jsonl"))
			if len(dumps) == 0 {
				t.Fatal("no expected snapshots")
			}
			for _, dump := range dumps {
				var id int64
				fmt.Sscanf(filepath.Base(dump), "snapshot-%d.jsonl", &id)
				all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{SnapshotID: id})
				if err != nil {
					t.Fatalf("snapshot %d: %v", id, err)
				}
				got := javaDumpForm(t, fields, toJSON(t, fields, all))
				compareRows(t, fmt.Sprintf("snapshot %d", id), got, javaDumpForm(t, fields, dumpLines(t, dump)))
			}
		})
	}
}

// TestJavaAvroTablesFilteredAndProjected: filters on the partition and
// bucket keys and on value columns, projections, and storage-side
// aggregates over avro files return what the full read implies. Avro
// files carry no statistics of their own, so the filters are applied to
// rows after the manifests' statistics pruned files.
func TestJavaAvroTablesFilteredAndProjected(t *testing.T) {
	for _, dir := range avroTables(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tbl, err := Open(context.Background(), localio.New(), dir)
			if err != nil {
				t.Fatal(err)
			}
			all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := tbl.LatestSchema(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range append(filterColumns(s), "id", "v", "s", "amount") {
				for _, p := range equalities(t, fields, all, name) {
					checkFilteredRead(t, tbl, fields, all, p)
					checkAggregate(t, tbl, ReadOptions{Filter: p}, []AggSpec{{Func: AggCountStar}, {Func: AggMax, Column: "id"}})
				}
			}
			checkProjection(t, tbl, fields, all)
		})
	}
}

// checkProjection reads the columns in reverse order.
func checkProjection(t *testing.T, tbl *Table, fields []spec.DataField, all [][]any) {
	t.Helper()
	names := make([]string, len(fields))
	for i, f := range fields {
		names[len(fields)-1-i] = f.Name
	}
	got := mustRead(t, tbl, ReadOptions{Columns: names})
	reversed := slices.Clone(fields)
	slices.Reverse(reversed)
	want := make([][]any, len(all))
	for i, row := range all {
		want[i] = slices.Clone(row)
		slices.Reverse(want[i])
	}
	compareRows(t, "reversed columns", toJSON(t, reversed, got), toJSON(t, reversed, want))
}

func dumpLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range bytes.Lines(data) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			out = append(out, canonicalJSON(t, line))
		}
	}
	return out
}

// javaDumpForm brings rows in the interop encoding to the form Java's
// dump prints, so that lakesql's rows compare with Java's: a TIME always
// with its milliseconds, and MAP entries in key order (Java's reader
// builds hash maps; lakesql keeps the file's order).
func javaDumpForm(t *testing.T, fields []spec.DataField, lines []string) []string {
	t.Helper()
	out := make([]string, len(lines))
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		for _, f := range fields {
			row[f.Name] = dumpValue(f.Type, row[f.Name])
		}
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

func dumpValue(typ spec.DataType, v any) any {
	switch x := v.(type) {
	case string:
		if typ.Root == spec.Time && !strings.Contains(x, ".") {
			return x + ".000"
		}
	case []any:
		return dumpList(typ, x)
	case map[string]any:
		for _, f := range typ.Fields {
			x[f.Name] = dumpValue(f.Type, x[f.Name])
		}
	}
	return v
}

func dumpList(typ spec.DataType, items []any) any {
	if typ.Root == spec.Array {
		for i := range items {
			items[i] = dumpValue(*typ.Element, items[i])
		}
		return items
	}
	key, value := jsonMapTypes(typ)
	for _, e := range items {
		if m, ok := e.(map[string]any); ok {
			m["key"], m["value"] = dumpValue(key, m["key"]), dumpValue(value, m["value"])
		}
	}
	slices.SortFunc(items, func(a, b any) int {
		ka, _ := json.Marshal(a.(map[string]any)["key"])
		kb, _ := json.Marshal(b.(map[string]any)["key"])
		return bytes.Compare(ka, kb)
	})
	return items
}

func jsonMapTypes(typ spec.DataType) (key, value spec.DataType) {
	if typ.Root == spec.Multiset {
		return *typ.Element, spec.DataType{Root: spec.Int}
	}
	return *typ.Key, *typ.Value
}

// TestJavaAvroAggregatesMatchRowRead sums the numeric columns of every
// snapshot of every Java-written avro table, whose merged splits (updates
// and deletes not yet compacted) the key-only merge reads through the row
// reader, Avro having no column vectors, and compares with the sums of a
// row read.
func TestJavaAvroAggregatesMatchRowRead(t *testing.T) {
	for _, dir := range avroTables(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			ctx := context.Background()
			tbl, err := Open(ctx, localio.New(), dir)
			if err != nil {
				t.Fatal(err)
			}
			ids, err := tbl.Snapshots().IDs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				at := snapshot.TimeTravel{SnapshotID: id}
				plan, err := tbl.PlanScan(ctx, at, nil)
				if err != nil {
					t.Fatal(err)
				}
				specs := []AggSpec{{Func: AggCountStar}}
				for _, f := range plan.Schema.Fields {
					if _, ok := sumDigits[f.Type.Root]; ok {
						specs = append(specs, AggSpec{AggCount, f.Name}, AggSpec{AggSum, f.Name}, AggSpec{AggMin, f.Name}, AggSpec{AggMax, f.Name})
					}
				}
				checkAggregate(t, tbl, ReadOptions{At: at}, specs)
			}
		})
	}
}
