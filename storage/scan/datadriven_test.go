package scan

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestPlanDataDriven runs testdata/plan_*: tables are described by their
// schema and by file metadata alone, so each case shows exactly which files
// a filter keeps and why.
//
//	define-table                      schema and options, one "key: value" per line
//	alter-options k=v ...             a new schema with these options changed
//	add-files                         one file per line; commits one snapshot
//	                                  (words: part, bucket, total, level, rows, size,
//	                                  deletes, seq, key, firstrow, writecols, col=lo..hi,
//	                                  col.nulls)
//	delete-files                      file names; commits one snapshot
//	deletion-vector file=f rows=n     deletion vector of f in the current snapshot
//	plan [snapshot=n] [limit=n]       filter on the input line
//	count / extremes col=c            metadata answers of the plan of the filter
func TestPlanDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &ddHarness{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			h.t = t
			out, err := h.run(d)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

// ddHarness is one table in memory: schemas and one snapshot per commit,
// each a list of manifests.
type ddHarness struct {
	t         *testing.T
	schema    *spec.TableSchema
	schemas   []*spec.TableSchema // by id; schema is the last
	manifests map[string][]spec.ManifestEntry
	snapshots [][]spec.ManifestFileMeta // snapshots[i] is snapshot i+1
	index     [][]spec.IndexManifestEntry
	files     map[string]spec.ManifestEntry
	seq       int64
}

func (h *ddHarness) run(d *datadriven.TestData) (string, error) {
	switch d.Cmd {
	case "define-table":
		return h.defineTable(d.Input)
	case "alter-options":
		return h.alterOptions(d.CmdArgs)
	case "add-files":
		return h.addFiles(d.Input)
	case "delete-files":
		return h.deleteFiles(strings.Fields(d.Input))
	case "deletion-vector":
		return h.deletionVector(d)
	case "plan", "count", "extremes":
		return h.plan(d)
	}
	return "", fmt.Errorf("unknown command %s", d.Cmd)
}

func (h *ddHarness) defineTable(input string) (string, error) {
	s := &spec.TableSchema{Version: spec.CurrentSchemaVersion, Options: map[string]string{}}
	for _, line := range strings.Split(input, "\n") {
		key, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "columns":
			for i, col := range splitList(value) {
				name, typ, _ := strings.Cut(col, " ")
				dt, err := spec.ParseDataType(typ)
				if err != nil {
					return "", err
				}
				s.Fields = append(s.Fields, spec.DataField{ID: i, Name: name, Type: dt})
			}
		case "partition":
			s.PartitionKeys = splitList(value)
		case "primary-key":
			s.PrimaryKeys = splitList(value)
		case "options":
			for _, kv := range strings.Fields(value) {
				k, v, _ := strings.Cut(kv, "=")
				s.Options[k] = v
			}
		}
	}
	for _, pk := range s.PrimaryKeys {
		i := s.FieldIndex(pk)
		s.Fields[i].Type = s.Fields[i].Type.WithNullable(false)
	}
	h.schema, h.schemas = s, []*spec.TableSchema{s}
	h.manifests, h.files = map[string][]spec.ManifestEntry{}, map[string]spec.ManifestEntry{}
	h.snapshots, h.index = nil, nil
	return "ok\n", nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// alterOptions commits a new schema whose options differ by args; files
// added after it are written under it.
func (h *ddHarness) alterOptions(args []datadriven.CmdArg) (string, error) {
	s := *h.schema
	s.ID++
	s.Options = maps.Clone(s.Options)
	for _, a := range args {
		s.Options[a.Key] = strings.Join(a.Vals, ",")
	}
	h.schema, h.schemas = &s, append(h.schemas, &s)
	return fmt.Sprintf("schema %d\n", s.ID), nil
}

func (h *ddHarness) schemaOf(id int64) (*spec.TableSchema, error) {
	if id < 0 || int(id) >= len(h.schemas) {
		return nil, fmt.Errorf("no schema %d", id)
	}
	return h.schemas[id], nil
}

func (h *ddHarness) addFiles(input string) (string, error) {
	var entries []spec.ManifestEntry
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		e, err := h.parseFile(line)
		if err != nil {
			return "", fmt.Errorf("%s: %w", line, err)
		}
		entries = append(entries, e)
		h.files[e.File.FileName] = e
	}
	return h.commit(entries)
}

func (h *ddHarness) deleteFiles(names []string) (string, error) {
	var entries []spec.ManifestEntry
	for _, name := range names {
		e, ok := h.files[name]
		if !ok {
			return "", fmt.Errorf("no file %s", name)
		}
		e.Kind = spec.FileKindDelete
		entries = append(entries, e)
	}
	return h.commit(entries)
}

// commit writes entries to a new manifest and publishes a snapshot of all
// manifests so far.
func (h *ddHarness) commit(entries []spec.ManifestEntry) (string, error) {
	id := len(h.snapshots) + 1
	name := fmt.Sprintf("manifest-%d", id)
	h.manifests[name] = entries
	meta, err := h.manifestMeta(name, entries)
	if err != nil {
		return "", err
	}
	var prev []spec.ManifestFileMeta
	var index []spec.IndexManifestEntry
	if id > 1 {
		prev, index = h.snapshots[id-2], h.index[id-2]
	}
	h.snapshots = append(h.snapshots, append(append([]spec.ManifestFileMeta{}, prev...), meta))
	h.index = append(h.index, index)
	return fmt.Sprintf("snapshot %d\n", id), nil
}

func (h *ddHarness) partitionTypes() []spec.DataType {
	var types []spec.DataType
	for _, k := range h.schema.PartitionKeys {
		types = append(types, h.schema.Fields[h.schema.FieldIndex(k)].Type.WithNullable(true))
	}
	return types
}

// manifestMeta computes a manifest's partition statistics from its
// entries, as a writer does.
func (h *ddHarness) manifestMeta(name string, entries []spec.ManifestEntry) (spec.ManifestFileMeta, error) {
	types := h.partitionTypes()
	lo, hi := make([]any, len(types)), make([]any, len(types))
	nulls := make([]*int64, len(types))
	for i := range nulls {
		nulls[i] = new(int64)
	}
	meta := spec.ManifestFileMeta{FileName: name}
	for _, e := range entries {
		if e.Kind == spec.FileKindAdd {
			meta.NumAddedFiles++
		} else {
			meta.NumDeletedFiles++
		}
		values, err := spec.DeserializeBinaryRow(types, e.Partition)
		if err != nil {
			return meta, err
		}
		for i, v := range values {
			if v == nil {
				*nulls[i]++
				continue
			}
			if lo[i] == nil || spec.CompareValues(types[i], v, lo[i]) < 0 {
				lo[i] = v
			}
			if hi[i] == nil || spec.CompareValues(types[i], v, hi[i]) > 0 {
				hi[i] = v
			}
		}
	}
	var err error
	meta.PartitionStats, err = spec.NewSimpleStats(types, lo, hi, nulls)
	return meta, err
}

func (h *ddHarness) deletionVector(d *datadriven.TestData) (string, error) {
	var name string
	var rows int
	d.ScanArgs(h.t, "file", &name)
	d.ScanArgs(h.t, "rows", &rows)
	e, ok := h.files[name]
	if !ok || len(h.index) == 0 {
		return "", fmt.Errorf("no file %s", name)
	}
	n := int64(rows)
	last := len(h.index) - 1
	h.index[last] = append(h.index[last], spec.IndexManifestEntry{
		Kind: spec.FileKindAdd, Partition: e.Partition, Bucket: e.Bucket,
		IndexFile: spec.IndexFileMeta{IndexType: IndexTypeDeletionVectors, FileName: "index-" + name,
			DeletionVectorRanges: []spec.DeletionVectorMeta{{DataFileName: name, Cardinality: &n}}},
	})
	return "ok\n", nil
}

func (h *ddHarness) plan(d *datadriven.TestData) (string, error) {
	id := len(h.snapshots)
	if d.HasArg("snapshot") {
		d.ScanArgs(h.t, "snapshot", &id)
	}
	filter, err := parsePredicate(h.schema.Fields, strings.TrimSpace(d.Input))
	if err != nil {
		return "", err
	}
	in := Input{Schema: h.schema, SchemaOf: h.schemaOf, Filter: filter}
	var metas []spec.ManifestFileMeta
	if id > 0 {
		in.Snapshot = &spec.Snapshot{ID: int64(id), SchemaID: h.schema.ID}
		metas, in.Index = h.snapshots[id-1], h.index[id-1]
	}
	pl, err := Prepare(in)
	if err != nil {
		return "", err
	}
	var entries [][]spec.ManifestEntry
	for _, m := range pl.PruneManifests(metas) {
		entries = append(entries, h.manifests[m.FileName])
	}
	plan, err := pl.Finish(entries)
	if err != nil {
		return "", err
	}
	return h.render(d, plan)
}

func (h *ddHarness) render(d *datadriven.TestData, plan *Plan) (string, error) {
	switch d.Cmd {
	case "count":
		n, err := plan.CountRows()
		if err != nil {
			return "cannot: " + err.Error() + "\n", nil
		}
		return fmt.Sprintf("count: %d\n", n), nil
	case "extremes":
		var col string
		d.ScanArgs(h.t, "col", &col)
		lo, hi, err := plan.Extremes(col)
		if err != nil {
			return "cannot: " + err.Error() + "\n", nil
		}
		return fmt.Sprintf("min: %v\nmax: %v\n", lo, hi), nil
	}
	if d.HasArg("limit") {
		var limit int
		d.ScanArgs(h.t, "limit", &limit)
		plan.LimitSplits(int64(limit))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "filter: %s\n", plan.Filter.Full)
	b.WriteString(plan.Explain.String())
	for _, s := range plan.Splits {
		kind := "merge"
		if s.RawConvertible {
			kind = "raw"
		}
		var names []string
		for _, f := range s.Files {
			names = append(names, f.FileName)
		}
		fmt.Fprintf(&b, "split bucket-%d %s: %s", s.Bucket, kind, strings.Join(names, " "))
		if len(s.DeletionFiles) > 0 {
			fmt.Fprintf(&b, " (%d deletion vectors)", len(s.DeletionFiles))
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// parseFile reads one add-files line:
//
//	name part=k=v/k2=v2 bucket=n total=n level=n rows=n size=n seq=lo..hi
//	     deletes=n key=lo..hi col=min..max col.nulls=n
//
// Composite keys separate columns with '|'; "null" is a null value or
// bound. Value statistics of columns not given are unknown; key columns
// default to the key range.
func (h *ddHarness) parseFile(line string) (spec.ManifestEntry, error) {
	words := strings.Fields(line)
	e := spec.ManifestEntry{Kind: spec.FileKindAdd, File: spec.DataFileMeta{FileName: words[0], FileSize: 1 << 20, Level: 0,
		SchemaID: h.schema.ID}}
	bucket, _ := h.schema.CoreOptions().Bucket()
	e.TotalBuckets = int32(max(bucket, 1))
	f := &e.File
	zero := int64(0)
	f.DeleteRowCount = &zero
	n := len(h.schema.Fields)
	lo, hi, nulls := make([]any, n), make([]any, n), make([]*int64, n)
	var part string
	var keyLo, keyHi []any
	h.seq++
	f.MinSequenceNumber, f.MaxSequenceNumber = h.seq, h.seq
	for _, w := range words[1:] {
		k, v, _ := strings.Cut(w, "=")
		var err error
		switch {
		case k == "part":
			part = v
		case k == "bucket" || k == "total" || k == "level":
			x, _ := strconv.Atoi(v)
			map[string]func(){"bucket": func() { e.Bucket = int32(x) }, "total": func() { e.TotalBuckets = int32(x) },
				"level": func() { f.Level = int32(x) }}[k]()
		case k == "rows" || k == "size" || k == "deletes":
			x, _ := strconv.ParseInt(v, 10, 64)
			map[string]func(){"rows": func() { f.RowCount = x }, "size": func() { f.FileSize = x },
				"deletes": func() { f.DeleteRowCount = &x }}[k]()
		case k == "seq":
			a, b, _ := strings.Cut(v, "..")
			f.MinSequenceNumber, _ = strconv.ParseInt(a, 10, 64)
			f.MaxSequenceNumber, _ = strconv.ParseInt(b, 10, 64)
		case k == "key":
			keyLo, keyHi, err = h.parseKeyRange(v)
		case k == "firstrow":
			x, _ := strconv.ParseInt(v, 10, 64)
			f.FirstRowID = &x
		case k == "writecols":
			f.WriteCols = strings.Split(v, "|")
		case strings.HasSuffix(k, ".nulls"):
			i := h.schema.FieldIndex(strings.TrimSuffix(k, ".nulls"))
			c, _ := strconv.ParseInt(v, 10, 64)
			nulls[i] = &c
		default:
			i := h.schema.FieldIndex(k)
			if i < 0 {
				return e, fmt.Errorf("unknown word %q", w)
			}
			a, b, _ := strings.Cut(v, "..")
			if lo[i], err = parseValue(h.schema.Fields[i], a); err == nil {
				hi[i], err = parseValue(h.schema.Fields[i], b)
			}
		}
		if err != nil {
			return e, err
		}
	}
	return e, h.fillFile(&e, part, keyLo, keyHi, lo, hi, nulls)
}

func (h *ddHarness) parseKeyRange(v string) (lo, hi []any, err error) {
	a, b, _ := strings.Cut(v, "..")
	keys := keyFields(h.schema)
	parse := func(s string) ([]any, error) {
		parts := strings.Split(s, "|")
		out := make([]any, len(keys))
		for i := range keys {
			var err error
			if out[i], err = parseValue(keys[i], parts[min(i, len(parts)-1)]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if lo, err = parse(a); err != nil {
		return nil, nil, err
	}
	hi, err = parse(b)
	return lo, hi, err
}

// parseValue reads a value of the field's type in the partition path form.
func parseValue(f spec.DataField, s string) (any, error) {
	if s == "null" {
		return nil, nil
	}
	values, err := spec.ParsePartitionPath(f.Name+"="+s, []string{f.Name}, []spec.DataType{f.Type}, "__DEFAULT__", false)
	if err != nil {
		return nil, err
	}
	return values[0], nil
}

func (h *ddHarness) fillFile(e *spec.ManifestEntry, part string, keyLo, keyHi, lo, hi []any, nulls []*int64) error {
	values, err := spec.ParsePartitionPath(part, h.schema.PartitionKeys, h.partitionTypes(),
		h.schema.CoreOptions().PartitionDefaultName(), false)
	if err != nil {
		return err
	}
	if e.Partition, err = spec.SerializeBinaryRow(h.partitionTypes(), values); err != nil {
		return err
	}
	keys := keyFields(h.schema)
	keyTypes := typesOf(keys)
	zeros := make([]*int64, len(keys))
	kLo, kHi := make([]any, len(keys)), make([]any, len(keys))
	for i, k := range keys {
		zeros[i] = new(int64)
		j := h.schema.FieldIndex(k.Name)
		if lo[j] == nil && keyLo != nil {
			lo[j], hi[j], nulls[j] = keyLo[i], keyHi[i], new(int64)
			if i > 0 && spec.CompareValues(k.Type, keyLo[0], keyHi[0]) != 0 {
				lo[j], hi[j], nulls[j] = nil, nil, nil
			}
		}
		kLo[i], kHi[i] = lo[j], hi[j]
	}
	for i, k := range h.schema.PartitionKeys {
		j := h.schema.FieldIndex(k)
		lo[j], hi[j], nulls[j] = values[i], values[i], new(int64)
		if values[i] == nil {
			lo[j], hi[j], nulls[j] = nil, nil, &e.File.RowCount
		}
	}
	f := &e.File
	if len(keys) > 0 {
		if f.MinKey, err = spec.SerializeBinaryRow(keyTypes, keyLo); err != nil {
			return err
		}
		if f.MaxKey, err = spec.SerializeBinaryRow(keyTypes, keyHi); err != nil {
			return err
		}
		if f.KeyStats, err = spec.NewSimpleStats(keyTypes, kLo, kHi, zeros); err != nil {
			return err
		}
	} else {
		f.KeyStats = spec.EmptyStats()
	}
	f.ValueStats, err = spec.NewSimpleStats(typesOf(h.schema.Fields), lo, hi, nulls)
	return err
}
