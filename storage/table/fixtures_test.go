package table

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/jsonrow"
	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestJavaFixturesReadExactly reads every snapshot of every Java-written
// fixture table and compares the rows with the rows Java returns.
func TestJavaFixturesReadExactly(t *testing.T) {
	m := fixtures.LoadExpected(t)
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != len(m.Tables) {
		t.Fatalf("%d fixture tables but %d in manifest.json", len(tables), len(m.Tables))
	}
	for _, ft := range tables {
		want, ok := m.Tables[ft.Name]
		if !ok {
			t.Errorf("%s: no expected rows", ft.Name)
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			tbl := openFixture(t, ft.Dir)
			if want.Exempt != nil {
				checkRefusedOrExact(t, tbl, ft.Name, want.Snapshots)
				return
			}
			for _, id := range want.Snapshots {
				got := readJSON(t, tbl, snapshot.TimeTravel{SnapshotID: id})
				compareRows(t, fmt.Sprintf("snapshot %d", id), got, expectedRows(t, ft.Name, fmt.Sprintf("snapshot-%d.jsonl", id)))
			}
			latestFile := "latest-schema.jsonl"
			if _, err := os.Stat(filepath.Join(fixtures.ExpectedDir(), ft.Name, latestFile)); err != nil {
				latestFile = fmt.Sprintf("snapshot-%d.jsonl", want.Snapshots[len(want.Snapshots)-1])
			}
			compareRows(t, "latest", readJSON(t, tbl, snapshot.TimeTravel{}), expectedRows(t, ft.Name, latestFile))
			checkBranches(t, ft)
		})
	}
}

// checkBranches reads each branch that has expected rows (a branch-<name>
// directory next to the table's expected snapshots) at every snapshot.
func checkBranches(t *testing.T, ft fixtures.Table) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(fixtures.ExpectedDir(), ft.Name, "branch-*"))
	for _, dir := range dirs {
		branch := strings.TrimPrefix(filepath.Base(dir), "branch-")
		tbl, err := OpenBranch(context.Background(), localio.New(), ft.Dir, branch)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "snapshot-*.jsonl"))
		if len(files) == 0 {
			t.Fatalf("branch %s: no expected snapshots", branch)
		}
		for _, f := range files {
			var id int64
			fmt.Sscanf(filepath.Base(f), "snapshot-%d.jsonl", &id)
			got := readJSON(t, tbl, snapshot.TimeTravel{SnapshotID: id})
			rel, _ := filepath.Rel(filepath.Join(fixtures.ExpectedDir(), ft.Name), f)
			compareRows(t, "branch "+branch+" snapshot "+fmt.Sprint(id), got, expectedRows(t, ft.Name, rel))
		}
	}
}

// checkRefusedOrExact checks the snapshots of a table that uses a feature
// lakesql lacks: each read either fails with an "unsupported" error or, when
// that snapshot does not depend on the feature (a global index created in a
// later snapshot, say), returns exactly the expected rows. The latest
// snapshot, which carries the feature, must be refused.
func checkRefusedOrExact(t *testing.T, tbl *Table, name string, ids []int64) {
	t.Helper()
	for _, id := range ids {
		all, fields, err := readSnapshot(tbl, snapshot.TimeTravel{SnapshotID: id})
		if err == nil {
			compareRows(t, fmt.Sprintf("snapshot %d", id), toJSON(t, fields, all), expectedRows(t, name, fmt.Sprintf("snapshot-%d.jsonl", id)))
			continue
		}
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "unsupported: ") {
			t.Errorf("snapshot %d: got error %v, want an unsupported error", id, err)
		}
	}
	if _, _, err := readSnapshot(tbl, snapshot.TimeTravel{}); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("latest snapshot: got error %v, want an unsupported error", err)
	}
}

func readSnapshot(tbl *Table, tt snapshot.TimeTravel) ([][]any, []spec.DataField, error) {
	rows, err := tbl.Read(context.Background(), ReadOptions{At: tt})
	if err != nil {
		return nil, nil, err
	}
	all, err := ReadAll(rows)
	return all, rows.Fields(), err
}

func openFixture(t *testing.T, dir string) *Table {
	t.Helper()
	tbl, err := Open(context.Background(), fixtures.RemapExternal(localio.New(), filepath.Dir(dir)), dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func readJSON(t *testing.T, tbl *Table, tt snapshot.TimeTravel) []string {
	t.Helper()
	all, fields, err := readSnapshot(tbl, tt)
	if err != nil {
		t.Fatalf("read %+v: %v", tt, err)
	}
	return toJSON(t, fields, all)
}

func toJSON(t *testing.T, fields []spec.DataField, all [][]any) []string {
	t.Helper()
	var out []string
	for _, row := range all {
		line, err := jsonrow.Append(nil, fields, row)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, canonicalJSON(t, line))
	}
	return out
}

func expectedRows(t *testing.T, table, file string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures.ExpectedDir(), table, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			out = append(out, canonicalJSON(t, line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// canonicalJSON re-encodes a JSON object with sorted keys and numbers in a
// canonical form, so 11.0 and 11 (or 1e1 and 10) compare equal.
func canonicalJSON(t *testing.T, line []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad JSON %s: %v", line, err)
	}
	out, err := json.Marshal(canonicalNumbers(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func canonicalNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return x
		}
		f, _, err := big.ParseFloat(string(x), 10, 64, big.ToNearestEven)
		if err != nil {
			return x
		}
		f64, _ := f.Float64()
		return json.Number(strconv.FormatFloat(f64, 'g', -1, 64))
	case []any:
		for i := range x {
			x[i] = canonicalNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = canonicalNumbers(x[k])
		}
	}
	return v
}

// compareRows compares two row multisets and reports the differences.
func compareRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	t.Errorf("%s: rows differ\n got (%d):\n  %s\nwant (%d):\n  %s", what,
		len(got), strings.Join(got, "\n  "), len(want), strings.Join(want, "\n  "))
}
