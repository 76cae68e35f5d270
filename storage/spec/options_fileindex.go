package spec

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Data-file index options, as spelled in org.apache.paimon.CoreOptions and
// org.apache.paimon.fileindex.FileIndexOptions.
const (
	// OptionFileIndexInManifestThreshold: an index whose bytes exceed it is
	// written beside the data file (<file>.index, listed in _EXTRA_FILES);
	// a smaller one is embedded in the manifest entry.
	OptionFileIndexInManifestThreshold = "file-index.in-manifest-threshold"
	// OptionFileIndexReadEnabled: whether reads use the indexes.
	OptionFileIndexReadEnabled = "file-index.read.enabled"

	fileIndexPrefix        = "file-index."
	fileIndexColumnsSuffix = ".columns"
)

// File index types, the names Paimon's FileIndexerFactory registers.
const (
	FileIndexBloomFilter = "bloom-filter"
	FileIndexBitmap      = "bitmap"
)

// FileIndexColumnsOption is the option listing the columns that get an
// index of the given type: file-index.<type>.columns.
func FileIndexColumnsOption(indexType string) string {
	return fileIndexPrefix + indexType + fileIndexColumnsSuffix
}

// FileIndexColumn is one (column, index type) a table's options declare,
// with that index's own options (file-index.<type>.<column>.<key>).
// Mirrors org.apache.paimon.fileindex.FileIndexOptions.
type FileIndexColumn struct {
	Column  string
	Type    string
	Options map[string]string
}

// FileIndexColumns lists the indexes the options declare, ordered by index
// type and then as the columns option lists them. Names are trimmed, as
// Java does; an empty name is an error, as in Java. Nested map-key
// columns ("m[k]") are listed as spelled.
func (o CoreOptions) FileIndexColumns() ([]FileIndexColumn, error) {
	var out []FileIndexColumn
	at := map[[2]string]int{}
	for _, key := range slices.Sorted(maps.Keys(o.options)) {
		indexType, ok := fileIndexColumnsType(key)
		if !ok {
			continue
		}
		for _, name := range strings.Split(o.options[key], ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, invalidOption(key, o.options[key], fmt.Errorf("an empty column name"))
			}
			if _, dup := at[[2]string{name, indexType}]; dup {
				continue
			}
			at[[2]string{name, indexType}] = len(out)
			out = append(out, FileIndexColumn{Column: name, Type: indexType, Options: map[string]string{}})
		}
	}
	for key, value := range o.options {
		rest, ok := strings.CutPrefix(key, fileIndexPrefix)
		parts := strings.Split(rest, ".")
		if !ok || len(parts) != 3 {
			continue
		}
		if i, declared := at[[2]string{parts[1], parts[0]}]; declared {
			out[i].Options[parts[2]] = value
		}
	}
	return out, nil
}

// fileIndexColumnsType returns <type> of a file-index.<type>.columns key.
func fileIndexColumnsType(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, fileIndexPrefix)
	if !ok {
		return "", false
	}
	indexType, ok := strings.CutSuffix(rest, fileIndexColumnsSuffix)
	return indexType, ok && indexType != ""
}

// FileIndexInManifestThreshold is the largest index, in bytes, embedded in
// the manifest; Java's default is 500 bytes.
func (o CoreOptions) FileIndexInManifestThreshold() (int64, error) {
	return o.memoryOption(OptionFileIndexInManifestThreshold, 500)
}

// FileIndexReadEnabled reports whether reads may skip by file indexes.
func (o CoreOptions) FileIndexReadEnabled() (bool, error) {
	return o.boolOption(true, OptionFileIndexReadEnabled)
}

// FileIndexOption parses one numeric option of an index (items, fpp).
func (c FileIndexColumn) FileIndexOption(key string, def float64) (float64, error) {
	v, ok := c.Options[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, invalidOption(fileIndexPrefix+c.Type+"."+c.Column+"."+key, v, err)
	}
	return f, nil
}
