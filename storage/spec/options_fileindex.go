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

// OptionIndexNamePrefix starts lakesql's own option keeping the MySQL name
// of a file index: lakesql.index-name.<type>.<column>. Java Paimon stores
// it and ignores it; it must not start with "file-index.", whose
// undeclared per-column keys Java refuses.
const OptionIndexNamePrefix = "lakesql.index-name."

// RenameFileIndexColumn renames a column in the file-index options that
// name it, as MySQL renames it in its indexes: in every
// file-index.<type>.columns list, and in the keys of its per-index
// options and index names. Java validates that every indexed column
// exists, so a rename that left them would make the table unwritable.
func RenameFileIndexColumn(options map[string]string, from, to string) {
	editFileIndexColumn(options, from, func(string) string { return to })
}

// DropFileIndexColumn removes a dropped column's file indexes, as MySQL
// drops a column from its indexes (here, each index has one column), with
// their per-index options and names; a columns option left empty goes.
func DropFileIndexColumn(options map[string]string, column string) {
	editFileIndexColumn(options, column, func(string) string { return "" })
}

// editFileIndexColumn replaces column by to(column) in the file-index
// options, removing it where to returns "".
func editFileIndexColumn(options map[string]string, column string, to func(string) string) {
	renamed := to(column)
	for _, key := range slices.Sorted(maps.Keys(options)) {
		if _, ok := fileIndexColumnsType(key); ok {
			editColumnsList(options, key, column, renamed)
			continue
		}
		prefix, name, suffix, ok := perIndexKey(key)
		if !ok || name != column {
			continue
		}
		value := options[key]
		delete(options, key)
		if renamed != "" {
			options[prefix+renamed+suffix] = value
		}
	}
}

func editColumnsList(options map[string]string, key, column, renamed string) {
	var names []string
	for _, name := range strings.Split(options[key], ",") {
		switch {
		case strings.TrimSpace(name) != column:
			names = append(names, name)
		case renamed != "":
			names = append(names, renamed)
		}
	}
	if len(names) == 0 {
		delete(options, key)
		return
	}
	options[key] = strings.Join(names, ",")
}

// perIndexKey splits a per-index key into "<prefix><type>.", the column
// and what follows it: file-index.<type>.<column>.<key>, whose column has
// no dot (Java splits these keys on dots), or
// lakesql.index-name.<type>.<column>. file-index.read.enabled is neither.
func perIndexKey(key string) (prefix, column, suffix string, ok bool) {
	if tail, found := strings.CutPrefix(key, OptionIndexNamePrefix); found {
		indexType, column, found := strings.Cut(tail, ".")
		return OptionIndexNamePrefix + indexType + ".", column, "", found && indexType != ""
	}
	tail, found := strings.CutPrefix(key, fileIndexPrefix)
	parts := strings.Split(tail, ".")
	if !found || len(parts) != 3 {
		return "", "", "", false
	}
	return fileIndexPrefix + parts[0] + ".", parts[1], "." + parts[2], true
}
