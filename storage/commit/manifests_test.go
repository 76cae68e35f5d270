package commit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestSmallManifestsMergeAndCancel(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false, "manifest.merge-min-count=3")
	h.commitFiles("w", 1, h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 1}))
	h.commitFiles("w", 2, h.appendMsg("2024-01-01", fileSpec{name: "f2", rows: 2}))
	compaction := Message{Partition: partition("2024-01-01"), TotalBuckets: -1,
		CompactBefore: []spec.DataFileMeta{h.file(fileSpec{name: "f1", rows: 1}), h.file(fileSpec{name: "f2", rows: 2})},
		CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "f3", rows: 3, compacted: true})}}
	h.commitFiles("w", 3, compaction)
	h.commitFiles("w", 4, h.appendMsg("2024-01-02", fileSpec{name: "f4", rows: 4}))

	// Snapshot 4's base merges the three manifests of snapshot 3 (base
	// m1, m2, delta m3), in which f1 and f2 were added and deleted.
	view := inspect(t, h.mem)
	reader := manifest.NewReader(h.mem, tableDir)
	base, err := reader.ManifestList(ctx, view.latest.BaseManifestList)
	if err != nil || len(base) != 1 {
		t.Fatalf("base list %v, %v; want one merged manifest", base, err)
	}
	entries, err := reader.Entries(ctx, base[0].FileName)
	if err != nil || len(entries) != 1 || entries[0].File.FileName != "f3" || base[0].NumDeletedFiles != 0 {
		t.Fatalf("merged manifest %+v holds %d entries (%v); want only the ADD of f3", base[0], len(entries), err)
	}
	if fmt.Sprint(view.live) != "[f3 f4]" || *view.latest.TotalRecordCount != 7 {
		t.Fatalf("live %v with %d records", view.live, *view.latest.TotalRecordCount)
	}
}

func TestFoldEntries(t *testing.T) {
	entry := func(kind spec.FileKind, name string) spec.ManifestEntry {
		return spec.ManifestEntry{Kind: kind, Partition: partition("p"), File: spec.DataFileMeta{FileName: name}}
	}
	add, del := spec.FileKindAdd, spec.FileKindDelete
	folded, err := foldEntries([]spec.ManifestEntry{entry(del, "x"), entry(add, "y"), entry(add, "z"), entry(del, "y")})
	if want := []spec.ManifestEntry{entry(del, "x"), entry(add, "z")}; err != nil || !reflect.DeepEqual(folded, want) {
		t.Fatalf("fold = %v, %v; want the DELETE of x (its ADD is in another manifest) and the ADD of z", folded, err)
	}
	for _, bad := range [][]spec.ManifestEntry{
		{entry(add, "x"), entry(add, "x")},
		{entry(del, "x"), entry(del, "x")},
		{entry(del, "x"), entry(add, "x")},
	} {
		if _, err := foldEntries(bad); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("fold(%v) = %v; want corruption", bad, err)
		}
	}
}

// Manifests roll, as Java's rolling writer does, at the first check (every
// 1000 entries) where they reached manifest.target-file-size.
func TestManifestsRollAtTargetSize(t *testing.T) {
	h := newHarness(t, false, "manifest.target-file-size=1 b")
	m := Message{Partition: partition("2024-01-01"), TotalBuckets: -1}
	for i := range 2500 {
		m.NewFiles = append(m.NewFiles, h.file(fileSpec{name: fmt.Sprintf("f%04d", i), rows: 1}))
	}
	h.commit(Request{CommitUser: "w", Identifier: 1, Messages: []Message{m}})
	c := h.committer(nil)
	s, err := c.snapshots.Snapshot(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	metas, err := c.manifests.ManifestList(context.Background(), s.DeltaManifestList)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, meta := range metas {
		sizes = append(sizes, meta.NumAddedFiles)
	}
	if fmt.Sprint(sizes) != "[1000 1000 500]" {
		t.Fatalf("manifests of %v entries; want [1000 1000 500]", sizes)
	}
}

func TestPartitionStats(t *testing.T) {
	h := newHarness(t, false)
	h.commitFiles("w", 1,
		h.appendMsg("2024-01-03", fileSpec{name: "a", rows: 1}),
		h.appendMsg("null", fileSpec{name: "b", rows: 1}, fileSpec{name: "c", rows: 1}),
		h.appendMsg("2024-01-01", fileSpec{name: "d", rows: 1}))
	c := h.committer(nil)
	s, err := c.snapshots.Snapshot(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	metas, err := c.manifests.ManifestList(context.Background(), s.DeltaManifestList)
	if err != nil || len(metas) != 1 {
		t.Fatalf("delta list %v, %v", metas, err)
	}
	// Null counts count entries, as Java's SimpleStatsCollector does.
	if got := describeStats(metas[0].PartitionStats); got != "2024-01-01..2024-01-03(nulls=2)" {
		t.Fatalf("partition stats %s", got)
	}
	unpartitioned, err := partitionStats(&tableLayout{}, []spec.ManifestEntry{{Partition: spec.EmptyStats().MinValues}})
	if err != nil || !reflect.DeepEqual(unpartitioned, spec.EmptyStats()) {
		t.Fatalf("stats of an unpartitioned table = %+v, %v; want Java's EMPTY_STATS", unpartitioned, err)
	}
}

func TestIndexManifestIsAFullList(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, true)
	index := func(name string) spec.IndexFileMeta {
		return spec.IndexFileMeta{IndexType: spec.IndexTypeDeletionVectors, FileName: name, FileSize: 10, RowCount: 1}
	}
	first := h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 5, minK: 1, maxK: 5})
	first.NewIndexFiles = []spec.IndexFileMeta{index("index-1")}
	h.commitFiles("w", 1, first)
	replace := Message{Partition: partition("2024-01-01"), TotalBuckets: 1,
		NewIndexFiles: []spec.IndexFileMeta{index("index-2")}, DeletedIndexFiles: []spec.IndexFileMeta{index("index-1")}}
	h.commitFiles("w", 2, replace)

	c := h.committer(nil)
	s, err := c.snapshots.Snapshot(ctx, 2)
	if err != nil || s.CommitKind != spec.CommitKindOverwrite || s.IndexManifest == nil {
		t.Fatalf("snapshot 2 = %+v, %v; want an OVERWRITE (deletion vectors changed) with an index manifest", s, err)
	}
	live, err := c.manifests.IndexEntries(ctx, *s.IndexManifest)
	if err != nil || len(live) != 1 || live[0].IndexFile.FileName != "index-2" {
		t.Fatalf("index files %+v, %v; want only index-2", live, err)
	}
	_, err = c.Commit(ctx, Request{CommitUser: "w", Identifier: 3, Messages: []Message{replace}})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || fmt.Sprint(ce.Files) != "[index-1]" {
		t.Fatalf("deleting index-1 again: %v; want DeletedFileNotLive naming it", err)
	}
}

func TestChangelogManifestList(t *testing.T) {
	h := newHarness(t, true)
	m := h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 5, minK: 1, maxK: 5})
	m.ChangelogFiles = []spec.DataFileMeta{h.file(fileSpec{name: "changelog-1", rows: 7, minK: 1, maxK: 5})}
	h.commitFiles("w", 1, m)
	s := inspect(t, h.mem).latest
	if s.ChangelogManifestList == nil || s.ChangelogRecordCount == nil || *s.ChangelogRecordCount != 7 || *s.TotalRecordCount != 5 {
		t.Fatalf("snapshot %+v; want a changelog list of 7 records apart from the 5 data records", s)
	}
}

// With manifest.format = parquet every manifest list, manifest (merged
// ones included) and index manifest a commit writes is Parquet, as Java
// 1.x writes them; the table reads as with Avro ones.
func TestManifestFormatParquet(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, true, "manifest.format=parquet", "manifest.merge-min-count=2")
	index := spec.IndexFileMeta{IndexType: spec.IndexTypeDeletionVectors, FileName: "index-1", FileSize: 10, RowCount: 1,
		DeletionVectorRanges: []spec.DeletionVectorMeta{{DataFileName: "f1", Offset: 1, Length: 9, Cardinality: new(int64(1))}}}
	first := h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 5, minK: 1, maxK: 5})
	first.NewIndexFiles = []spec.IndexFileMeta{index}
	h.commitFiles("w", 1, first)
	h.commitFiles("w", 2, h.appendMsg("2024-01-02", fileSpec{name: "f2", rows: 2, minK: 1, maxK: 2}))
	h.commitFiles("w", 3, h.appendMsg("2024-01-02", fileSpec{name: "f3", rows: 2, minK: 3, maxK: 4}))

	view := inspect(t, h.mem)
	if fmt.Sprint(view.live) != "[f1 f2 f3]" || view.latest.IndexManifest == nil {
		t.Fatalf("live %v, index manifest %v", view.live, view.latest.IndexManifest)
	}
	listed, err := h.mem.List(ctx, tableDir+"/manifest")
	if err != nil || len(listed) == 0 {
		t.Fatalf("manifest directory: %v, %v", listed, err)
	}
	for _, f := range listed {
		data, err := h.mem.ReadFile(ctx, f.Path)
		if err != nil || !bytes.HasPrefix(data, []byte("PAR1")) {
			t.Errorf("%s: starts %q (%v), want a Parquet file", f.Path, data[:min(4, len(data))], err)
		}
	}
	live, err := h.committer(nil).manifests.IndexEntries(ctx, *view.latest.IndexManifest)
	if err != nil || len(live) != 1 || !reflect.DeepEqual(live[0].IndexFile, index) {
		t.Fatalf("index files %+v, %v; want %+v", live, err, index)
	}
}

// A table whose manifest.format changed holds manifests of both formats:
// they read, and the commits after the change write the new one, merges
// of the old manifests included.
func TestManifestFormatChange(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false, "manifest.merge-min-count=3")
	h.commitFiles("w", 1, h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 1}))
	h.commitFiles("w", 2, h.appendMsg("2024-01-01", fileSpec{name: "f2", rows: 1}))
	h.options["manifest.format"] = "parquet"
	h.commitFiles("w", 3, h.appendMsg("2024-01-02", fileSpec{name: "f3", rows: 1}))
	h.commitFiles("w", 4, h.appendMsg("2024-01-02", fileSpec{name: "f4", rows: 1}))

	view := inspect(t, h.mem)
	if fmt.Sprint(view.live) != "[f1 f2 f3 f4]" {
		t.Fatalf("live %v", view.live)
	}
	formats := map[string]int{}
	for p := range view.referenced {
		if path.Dir(p) != tableDir+"/manifest" {
			continue
		}
		data, err := h.mem.ReadFile(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		formats[string(data[:4])]++
	}
	if formats["Obj\x01"] == 0 || formats["PAR1"] == 0 {
		t.Fatalf("manifest files by magic %v; want Avro ones from before the change and Parquet ones after", formats)
	}
	for _, name := range []string{view.latest.BaseManifestList, view.latest.DeltaManifestList} {
		data, err := h.mem.ReadFile(ctx, tableDir+"/manifest/"+name)
		if err != nil || !bytes.HasPrefix(data, []byte("PAR1")) {
			t.Errorf("latest list %s is not Parquet (%v)", name, err)
		}
	}
}

// A table whose manifests are ORC (manifest.format = orc) is refused
// before anything is written, naming the option.
func TestManifestFormatOrcRefused(t *testing.T) {
	_, err := New(Options{FileIO: memio.New(), TableDir: tableDir, Core: spec.NewCoreOptions(map[string]string{"manifest.format": "orc"})})
	if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "manifest.format=orc") {
		t.Fatalf("New = %v; want an unsupported error naming manifest.format=orc", err)
	}
}
