package spec

import (
	"maps"
	"testing"
)

// TestFileIndexColumnEdits: renaming and dropping an indexed column edit
// every option that names it, and only those.
func TestFileIndexColumnEdits(t *testing.T) {
	base := map[string]string{
		"file-index.bloom-filter.columns":  "a, enabled,b",
		"file-index.bitmap.columns":        "a",
		"file-index.bloom-filter.a.fpp":    "0.01",
		"file-index.bloom-filter.ab.items": "9",
		"file-index.read.enabled":          "true",
		"file-index.in-manifest-threshold": "1kb",
		"lakesql.index-name.bitmap.a":      "by_a",
		"lakesql.index-name.bitmap.a.b":    "dotted",
		"fields.a.aggregate-function":      "sum",
	}
	renamed := maps.Clone(base)
	RenameFileIndexColumn(renamed, "a", "z")
	want := map[string]string{
		"file-index.bloom-filter.columns":  "z, enabled,b",
		"file-index.bitmap.columns":        "z",
		"file-index.bloom-filter.z.fpp":    "0.01",
		"file-index.bloom-filter.ab.items": "9",
		"file-index.read.enabled":          "true",
		"file-index.in-manifest-threshold": "1kb",
		"lakesql.index-name.bitmap.z":      "by_a",
		"lakesql.index-name.bitmap.a.b":    "dotted",
		"fields.a.aggregate-function":      "sum",
	}
	if !maps.Equal(renamed, want) {
		t.Errorf("rename a to z:\n got %v\nwant %v", renamed, want)
	}
	dropped := maps.Clone(base)
	DropFileIndexColumn(dropped, "a")
	DropFileIndexColumn(dropped, "enabled")
	want = map[string]string{
		"file-index.bloom-filter.columns":  "b",
		"file-index.bloom-filter.ab.items": "9",
		"file-index.read.enabled":          "true",
		"file-index.in-manifest-threshold": "1kb",
		"lakesql.index-name.bitmap.a.b":    "dotted",
		"fields.a.aggregate-function":      "sum",
	}
	if !maps.Equal(dropped, want) {
		t.Errorf("drop a and enabled:\n got %v\nwant %v", dropped, want)
	}
	cols, err := CoreOptions{options: dropped}.FileIndexColumns()
	if err != nil || len(cols) != 1 || cols[0].Column != "b" {
		t.Errorf("declared after the drops: %+v, %v", cols, err)
	}
}
