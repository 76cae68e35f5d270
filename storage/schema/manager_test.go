package schema

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestManagerReadsEveryFixture(t *testing.T) {
	ctx := context.Background()
	tables, err := fixtures.Tables()
	if err != nil || len(tables) == 0 {
		t.Fatalf("fixtures: %v (%d tables)", err, len(tables))
	}
	for _, table := range tables {
		m := NewManager(localio.New(), table.Dir, "")
		ids, err := m.IDs(ctx)
		if err != nil || len(ids) == 0 {
			t.Errorf("%s: ids %v, %v", table.Name, ids, err)
			continue
		}
		for _, id := range ids {
			s, err := m.Schema(ctx, id)
			if err != nil {
				t.Errorf("%s: schema %d: %v", table.Name, id, err)
				continue
			}
			if again, _ := m.Schema(ctx, id); again != s {
				t.Errorf("%s: schema %d was decoded twice instead of cached", table.Name, id)
			}
		}
		latest, err := m.Latest(ctx)
		if err != nil || latest.ID != ids[len(ids)-1] {
			t.Errorf("%s: latest = %v, %v; want id %d", table.Name, latest, err, ids[len(ids)-1])
		}
	}
}

func fieldNames(t *testing.T, m *Manager, id int64) []string {
	t.Helper()
	s, err := m.Schema(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	return names
}

func TestManagerBranches(t *testing.T) {
	ctx := context.Background()
	dir := fixtures.TableDir("paimon-java/append_table_with_append_pt_branch")
	for _, branch := range []string{"", "main", "  "} {
		m := NewManager(localio.New(), dir, branch)
		if ids, err := m.IDs(ctx); err != nil || !reflect.DeepEqual(ids, []int64{0, 1, 2}) {
			t.Errorf("branch %q: ids %v, %v", branch, ids, err)
		}
	}
	test := NewManager(localio.New(), dir, "test")
	if ids, err := test.IDs(ctx); err != nil || !reflect.DeepEqual(ids, []int64{0, 1}) {
		t.Errorf("branch test: ids %v, %v", ids, err)
	}
	// Schema 1 differs between the branches: the branch added value2 in its
	// own schema-1, the main table in schema-2.
	if got := fieldNames(t, NewManager(localio.New(), dir, ""), 1); !reflect.DeepEqual(got, []string{"pt", "value"}) {
		t.Errorf("main schema 1 fields %v", got)
	}
	if got := fieldNames(t, test, 1); !reflect.DeepEqual(got, []string{"pt", "value", "value2"}) {
		t.Errorf("branch schema 1 fields %v", got)
	}
	if want := dir + "/branch/branch-test/schema/schema-1"; test.SchemaPath(1) != want {
		t.Errorf("branch schema path %s, want %s", test.SchemaPath(1), want)
	}
	if _, err := NewManager(localio.New(), dir, "nope").Latest(ctx); !errors.Is(err, lakeerr.ErrNotFound) {
		t.Errorf("unknown branch: latest err = %v", err)
	}
}

// writeSchemaDir creates a table directory whose schema/ holds a valid
// schema-0, an unparsable schema-1, a schema-4 that claims id 7, and names
// that are not schema files: temp files, a non-numeric suffix, a README and
// a directory.
func writeSchemaDir(t *testing.T) string {
	t.Helper()
	valid, err := os.ReadFile(filepath.Join(fixtures.TableDir("paimon-java/append_09"), "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schemaDir := filepath.Join(dir, "schema")
	if err := os.MkdirAll(filepath.Join(schemaDir, "schema-9"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"schema-0":               string(valid),
		"schema-1":               `{"version": 3, "id": 1, "fields": [`,
		"schema-4":               strings.Replace(string(valid), `"id" : 0,`, `"id" : 7,`, 1),
		".schema-2.1c9b4ab0.tmp": string(valid),
		"schema-3abc.tmp":        string(valid),
		"schema-x":               string(valid),
		"README":                 "not a schema",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(schemaDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestManagerErrorsAndTempFiles(t *testing.T) {
	ctx := context.Background()
	dir := writeSchemaDir(t)
	m := NewManager(localio.New(), dir, "")
	if ids, err := m.IDs(ctx); err != nil || !reflect.DeepEqual(ids, []int64{0, 1, 4}) {
		t.Errorf("ids %v, %v; want [0 1 4]", ids, err)
	}
	if s, err := m.Schema(ctx, 0); err != nil || s.ID != 0 {
		t.Errorf("schema 0: %v, %v", s, err)
	}
	for _, id := range []int64{1, 4} {
		_, err := m.Schema(ctx, id)
		if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), m.SchemaPath(id)) {
			t.Errorf("schema %d: err = %v, want corruption naming the file", id, err)
		}
	}
	if _, err := m.Latest(ctx); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("latest over a corrupt newest schema: err = %v", err)
	}
	_, err := m.Schema(ctx, 5)
	if !errors.Is(err, lakeerr.ErrNotFound) || !strings.Contains(err.Error(), m.SchemaPath(5)) {
		t.Errorf("schema 5: err = %v, want not found naming the file", err)
	}
	empty := NewManager(localio.New(), filepath.Join(dir, "no-such-table"), "")
	if _, err := empty.Latest(ctx); !errors.Is(err, lakeerr.ErrNotFound) {
		t.Errorf("table without schemas: err = %v", err)
	}
}

func TestManagerConcurrentReadsShareOneSchema(t *testing.T) {
	m := NewManager(localio.New(), fixtures.TableDir("paimon-java/append_table_alter_table_with_cast"), "")
	results := make(chan any, 16)
	for range 16 {
		go func() {
			s, err := m.Schema(context.Background(), 1)
			if err != nil {
				results <- err
				return
			}
			results <- s
		}()
	}
	first := <-results
	for range 15 {
		if got := <-results; got != first {
			t.Fatalf("concurrent reads returned %v and %v", first, got)
		}
	}
}

// listCounter counts the listings that reach a FileIO.
type listCounter struct {
	fileio.FileIO
	lists int
}

func (l *listCounter) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	l.lists++
	return l.FileIO.List(ctx, dir)
}

// TestLatestListsOnlyWhenSchemasChanged: Latest lists the schema
// directory the first time, not again while the newest schema stays the
// newest, and finds a schema another process added.
func TestLatestListsOnlyWhenSchemasChanged(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(fixtures.Root(), "paimon-java", "pk_table_with_mor.db", "pk_table_with_mor", "schema")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "schema"), 0o755); err != nil {
		t.Fatal(err)
	}
	copySchema := func(id string) {
		data, err := os.ReadFile(filepath.Join(src, "schema-"+id))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "schema", "schema-"+id), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copySchema("0")
	copySchema("1")
	fs := &listCounter{FileIO: localio.New()}
	m := NewManager(fs, dir, "")
	latest := func(want int64, wantLists int) {
		t.Helper()
		s, err := m.Latest(ctx)
		if err != nil || s.ID != want || fs.lists != wantLists {
			t.Fatalf("latest = %v, %v after %d listings; want schema %d after %d", s, err, fs.lists, want, wantLists)
		}
	}
	latest(1, 1)
	latest(1, 1)
	copySchema("2")
	latest(2, 2)
	latest(2, 2)
}
