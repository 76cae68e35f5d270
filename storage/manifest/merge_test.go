package manifest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func entry(kind spec.FileKind, name string, level int32) spec.ManifestEntry {
	return spec.ManifestEntry{Kind: kind, Partition: []byte{0, 0, 0, 0}, File: spec.DataFileMeta{FileName: name, Level: level}}
}

func names(entries []spec.ManifestEntry) []string {
	out := []string{}
	for _, e := range entries {
		out = append(out, e.File.FileName)
	}
	return out
}

func TestMergerFoldsEntriesInCommitOrder(t *testing.T) {
	add, del := spec.FileKindAdd, spec.FileKindDelete
	cases := []struct {
		name     string
		batches  [][]spec.ManifestEntry
		live     []string
		dangling []string
	}{
		{"adds keep order", [][]spec.ManifestEntry{{entry(add, "b", 0), entry(add, "a", 0)}}, []string{"b", "a"}, []string{}},
		{"delete cancels add", [][]spec.ManifestEntry{{entry(add, "a", 0)}, {entry(del, "a", 0), entry(add, "c", 1)}}, []string{"c"}, []string{}},
		{"upgrade is delete plus add of the same file", [][]spec.ManifestEntry{{entry(add, "a", 0)}, {entry(del, "a", 0), entry(add, "a", 5)}}, []string{"a"}, []string{}},
		{"delete at another level does not match", [][]spec.ManifestEntry{{entry(add, "a", 0)}, {entry(del, "a", 1)}}, []string{"a"}, []string{"a"}},
		{"delete of unseen file is dangling", [][]spec.ManifestEntry{{entry(del, "x", 0)}}, []string{}, []string{"x"}},
	}
	for _, c := range cases {
		m := NewMerger()
		for _, b := range c.batches {
			if err := m.Add(b); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if got := names(m.Live()); !reflect.DeepEqual(got, c.live) {
			t.Errorf("%s: live %v, want %v", c.name, got, c.live)
		}
		if got := names(m.DanglingDeletes()); !reflect.DeepEqual(got, c.dangling) {
			t.Errorf("%s: dangling %v, want %v", c.name, got, c.dangling)
		}
	}
}

func TestMergerRejectsAddOfLiveFile(t *testing.T) {
	m := NewMerger()
	err := m.Add([]spec.ManifestEntry{entry(spec.FileKindAdd, "a", 0), entry(spec.FileKindAdd, "a", 0)})
	if !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("got %v, want a corruption error", err)
	}
}

func TestIdentifierSeparatesPartitionsAndBuckets(t *testing.T) {
	a := entry(spec.FileKindAdd, "f", 0)
	b := a
	b.Bucket = 1
	c := a
	c.Partition = []byte{0, 0, 0, 1}
	if IdentifierOf(&a) == IdentifierOf(&b) || IdentifierOf(&a) == IdentifierOf(&c) {
		t.Fatal("entries in different buckets or partitions share an identifier")
	}
}
