package maintenance

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	t0         = time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

// fixture is one table in a memio warehouse, written through the real
// write and commit paths on a clock the test moves (tabletest.Table says
// how two fixtures built by the same steps hold identical files). Its
// FileIO stamps files with that clock, so that the test decides how old
// they are.
type fixture struct {
	*tabletest.Table
	mem   *memio.FS
	aged  *filetest.AgedFS
	clock *clocktest.Clock
}

// pkTable is a partitioned primary-key table with two buckets, whose
// commits merge manifests often, so that expiry has manifests to delete.
var pkTable = catalog.TableDefinition{
	Fields:        []spec.DataField{{Name: "dt", Type: stringType}, {Name: "id", Type: bigintType}, {Name: "v", Type: stringType}},
	PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "id"},
	Options: map[string]string{"bucket": "2", "manifest.merge-min-count": "3"},
}

func newFixture(t testing.TB, def catalog.TableDefinition) *fixture {
	t.Helper()
	clock := clocktest.New(t0)
	mem := memio.New()
	aged := filetest.NewAgedFS(mem, clock.Now)
	return &fixture{Table: tabletest.Create(t, tabletest.Config{FS: aged, Now: clock.Now}, def), mem: mem, aged: aged, clock: clock}
}

// clone returns a fixture on mem, a copy of f's warehouse, that goes on
// from f's clock, file times, uuids and identifiers.
func (f *fixture) clone(mem *memio.FS) *fixture {
	clock := clocktest.New(f.clock.Now())
	aged := f.aged.Over(mem, clock.Now)
	return &fixture{Table: f.Table.On(f.T, aged, clock.Now), mem: mem, aged: aged, clock: clock}
}

// prepare writes rows (dt, id, v) and returns the commit messages, without
// committing them.
func (f *fixture) prepare(rows [][]any, ignorePrevious bool) []commit.Message {
	f.T.Helper()
	opts := writetest.Options(f.Table)
	opts.IgnorePreviousFiles = ignorePrevious
	return writetest.Prepare(f.Table, opts, tabletest.Inserts(rows...)...)
}

// commit publishes a request as user's next identifier, one minute after
// the previous commit, and returns the snapshots it published.
func (f *fixture) commit(user string, req commit.Request) []int64 {
	f.T.Helper()
	f.clock.Advance(time.Minute)
	return f.Commit(user, req).Snapshots
}

func (f *fixture) insert(user string, rows ...[]any) []int64 {
	f.T.Helper()
	return f.commit(user, commit.Request{Messages: f.prepare(rows, false)})
}

// overwrite replaces partition dt with rows.
func (f *fixture) overwrite(user, dt string, rows ...[]any) []int64 {
	f.T.Helper()
	return f.commit(user, commit.Request{Messages: f.prepare(rows, true),
		Overwrite: &commit.Overwrite{BaseSnapshotID: f.LatestID(), Static: map[string]any{"dt": dt}}})
}

// dropFile commits a row-level delete of one whole live file.
func (f *fixture) dropFile(user string, e spec.ManifestEntry) []int64 {
	f.T.Helper()
	return f.commit(user, commit.Request{Messages: []commit.Message{{Partition: e.Partition, Bucket: e.Bucket,
		TotalBuckets: e.TotalBuckets, DeletedFiles: []spec.DataFileMeta{e.File}}}})
}

// upgrade commits a compaction that moves a level-0 file to the top level
// without rewriting it: the same file is deleted at one level and added
// at another.
func (f *fixture) upgrade(user string, e spec.ManifestEntry, level int32) []int64 {
	f.T.Helper()
	after := e.File
	after.Level = level
	return f.commit(user, commit.Request{Messages: []commit.Message{{Partition: e.Partition, Bucket: e.Bucket,
		TotalBuckets: e.TotalBuckets, CompactBefore: []spec.DataFileMeta{e.File}, CompactAfter: []spec.DataFileMeta{after}}}})
}

// liveFiles returns the live entries of a snapshot, read afresh.
func liveFiles(t testing.TB, fio fileio.FileIO, dir string, s *spec.Snapshot) []spec.ManifestEntry {
	t.Helper()
	tbl, err := table.Open(context.Background(), fio, dir)
	if err != nil {
		t.Fatal(err)
	}
	live, err := tbl.LiveFiles(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return live
}

// readAt returns the rows a fresh reader sees at tt, rendered as the
// golden files print them (values separated by spaces) and sorted.
func readAt(fio fileio.FileIO, dir string, tt snapshot.TimeTravel) ([]string, error) {
	ctx := context.Background()
	tbl, err := table.Open(ctx, fio, dir)
	if err != nil {
		return nil, err
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{At: tt})
	if err != nil {
		return nil, err
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(all))
	for i, r := range all {
		out[i] = strings.TrimSpace(fmt.Sprintln(r...))
	}
	slices.Sort(out)
	return out, nil
}

func row(dt string, id int64, v string) []any { return []any{dt, id, v} }

// tableState is what every snapshot and tag of a table reads.
type tableState struct {
	snapshots map[int64][]string
	tags      map[string][]string
}

func captureState(t testing.TB, fio fileio.FileIO, dir string) tableState {
	t.Helper()
	ctx := context.Background()
	mgr := snapshot.NewManager(fio, dir, "")
	st := tableState{snapshots: map[int64][]string{}, tags: map[string][]string{}}
	ids, err := mgr.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if st.snapshots[id], err = readAt(fio, dir, snapshot.TimeTravel{SnapshotID: id}); err != nil {
			t.Fatalf("read snapshot %d: %v", id, err)
		}
	}
	names, err := mgr.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if st.tags[name], err = readAt(fio, dir, snapshot.TimeTravel{Tag: name}); err != nil {
			t.Fatalf("read tag %s: %v", name, err)
		}
	}
	return st
}

// from returns the ids from id on.
func from(id int64) func(int64) bool { return func(n int64) bool { return n >= id } }

// upTo returns the ids up to id.
func upTo(id int64) func(int64) bool { return func(n int64) bool { return n <= id } }

// checkRetained checks that every snapshot keep accepts and every tag of
// before reads exactly as in before, that the latest snapshot is
// readable, and that every file a snapshot keep accepts or a tag
// references exists. Other snapshots may be half deleted and are not read.
func checkRetained(t testing.TB, fio fileio.FileIO, dir string, before tableState, keep func(int64) bool) {
	t.Helper()
	ctx := context.Background()
	mgr := snapshot.NewManager(fio, dir, "")
	ids, err := mgr.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range before.snapshots {
		if !keep(id) {
			continue
		}
		if !slices.Contains(ids, id) {
			t.Errorf("snapshot %d was retained but is gone", id)
			continue
		}
		if got, err := readAt(fio, dir, snapshot.TimeTravel{SnapshotID: id}); err != nil || !slices.Equal(got, want) {
			t.Errorf("snapshot %d reads\n%v (%v)\nwant\n%v", id, got, err, want)
		}
	}
	names, err := mgr.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range before.tags {
		if !slices.Contains(names, name) {
			t.Errorf("tag %s is gone", name)
			continue
		}
		if got, err := readAt(fio, dir, snapshot.TimeTravel{Tag: name}); err != nil || !slices.Equal(got, want) {
			t.Errorf("tag %s reads\n%v (%v)\nwant\n%v", name, got, err, want)
		}
	}
	if _, err := readAt(fio, dir, snapshot.TimeTravel{}); err != nil {
		t.Errorf("latest snapshot unreadable: %v", err)
	}
	missing := referencedNames(t, fio, dir, keep)
	for name := range diskNames(t, fio, dir) {
		delete(missing, name)
	}
	if len(missing) > 0 {
		t.Errorf("referenced files missing: %v", slices.Sorted(maps.Keys(missing)))
	}
}

// referencedNames is the name of every file a snapshot or tag of the
// table needs: manifest lists, manifests, index manifests and files, live
// data files with their extra files, changelog files; of the snapshots
// keep accepts. It is computed here with the read path's own readers,
// independently of the package.
func referencedNames(t testing.TB, fio fileio.FileIO, dir string, keep func(int64) bool) map[string]bool {
	t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, fio, dir)
	if err != nil {
		t.Fatal(err)
	}
	mgr := tbl.Snapshots()
	var all []*spec.Snapshot
	ids, err := mgr.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !keep(id) {
			continue
		}
		s, err := mgr.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	names, err := mgr.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		tag, err := mgr.Tag(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, &tag.Snapshot)
	}
	used := map[string]bool{}
	for _, s := range all {
		lists := []string{s.BaseManifestList, s.DeltaManifestList}
		if s.ChangelogManifestList != nil {
			lists = append(lists, *s.ChangelogManifestList)
		}
		for _, l := range lists {
			used[l] = true
			metas, err := tbl.Manifests().ManifestList(ctx, l)
			if err != nil {
				used["<unreadable "+l+">"] = true
				continue
			}
			for _, m := range metas {
				used[m.FileName] = true
			}
		}
		if s.IndexManifest != nil {
			used[*s.IndexManifest] = true
			index, err := tbl.IndexFiles(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range index {
				used[e.IndexFile.FileName] = true
			}
		}
		live, err := tbl.LiveFiles(ctx, s)
		if err != nil {
			used[fmt.Sprintf("<live files of snapshot %d: %v>", s.ID, err)] = true
			continue
		}
		for _, e := range live {
			used[e.File.FileName] = true
			for _, x := range e.File.ExtraFiles {
				used[x] = true
			}
		}
	}
	return used
}

// diskNames is the name of every file in manifest/, index/, statistics/ and
// the bucket directories.
func diskNames(t testing.TB, fio fileio.FileIO, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	var walk func(d string)
	walk = func(d string) {
		infos, err := fio.List(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		for _, fi := range infos {
			rel := strings.TrimPrefix(fi.Path, dir+"/")
			switch {
			case fi.IsDir:
				walk(fi.Path)
			case strings.HasPrefix(rel, "manifest/") || strings.HasPrefix(rel, "index/") ||
				strings.HasPrefix(rel, "statistics/") || strings.Contains(rel, "bucket-"):
				names[path.Base(fi.Path)] = true
			}
		}
	}
	walk(dir)
	return names
}

// checkNoLeak checks that the table holds no data or metadata file that
// no snapshot or tag needs.
func checkNoLeak(t testing.TB, fio fileio.FileIO, dir string) {
	t.Helper()
	used := referencedNames(t, fio, dir, from(0))
	var leaked []string
	for name := range diskNames(t, fio, dir) {
		if !used[name] {
			leaked = append(leaked, name)
		}
	}
	slices.Sort(leaked)
	if len(leaked) > 0 {
		t.Errorf("files no snapshot or tag needs: %v", leaked)
	}
}

// hookFS runs a hook once, just before its at-th operation (counting from
// 0): a deterministic way to run another process's work at every point of
// an operation.
type hookFS struct {
	fileio.FileIO
	mu    sync.Mutex
	n, at int
	hook  func()
	fired bool
}

func (h *hookFS) before() {
	h.mu.Lock()
	fire := h.n == h.at && !h.fired
	h.n++
	h.fired = h.fired || fire
	h.mu.Unlock()
	if fire {
		h.hook()
	}
}

func (h *hookFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	h.before()
	return h.FileIO.ReadFile(ctx, p)
}

func (h *hookFS) Open(ctx context.Context, p string) (fileio.File, error) {
	h.before()
	return h.FileIO.Open(ctx, p)
}

func (h *hookFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	h.before()
	return h.FileIO.Stat(ctx, p)
}

func (h *hookFS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	h.before()
	return h.FileIO.List(ctx, dir)
}

func (h *hookFS) Delete(ctx context.Context, p string) error {
	h.before()
	return h.FileIO.Delete(ctx, p)
}

func (h *hookFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	h.before()
	return h.FileIO.PutIfAbsent(ctx, p, data)
}

func (h *hookFS) Overwrite(ctx context.Context, p string, data []byte) error {
	h.before()
	return h.FileIO.Overwrite(ctx, p, data)
}

func (h *hookFS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	h.before()
	return fileio.OverwriteHint(ctx, h.FileIO, p, data)
}

func commitRequest(user string, identifier int64, msgs []commit.Message) commit.Request {
	return commit.Request{CommitUser: user, Identifier: identifier, Messages: msgs}
}
