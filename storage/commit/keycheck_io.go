package commit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/avroio"
	"github.com/lakesql/lakesql/storage/fileio/footercache"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/orcio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// checkKeys runs the key-level check of part p (see KeyCheck) against the
// snapshots after the newer of its base and what an earlier check of the
// part covered, up to latest. It runs twice per attempt path: before the
// part queues for a batch, against the latest published snapshot
// (precheckKeys), so that reading other writers' keys does not hold up a
// batch; then inside the batch against what was published since and the
// snapshots the batch plans before this one.
func (r *run) checkKeys(ctx context.Context, p *part, latest *spec.Snapshot, attempt int) error {
	kc := r.req.KeyCheck
	if kc == nil || !r.keyChecked(p) {
		return nil
	}
	from := max(kc.BaseSnapshotID, p.keysCheckedUpTo)
	if idOf(latest) <= from {
		return nil
	}
	since, err := r.keyHistory(ctx, from, latest)
	if err != nil {
		return err
	}
	in := KeyCheckInput{
		CommitUser: r.req.CommitUser, CommitIdentifier: r.req.Identifier, Attempt: attempt,
		BaseSnapshotID: kc.BaseSnapshotID, CheckedUpTo: from, Latest: RefOf(latest),
		Mine: p.entries, Since: since, Scope: r.table.keyScope,
		KeyTypes: r.table.keyTypes, KeyNames: r.table.keyNames, FormatPartition: r.table.formatPartition,
	}
	candidates, err := PlanKeyCheck(in)
	if err != nil || len(candidates) == 0 {
		return err
	}
	return DecideKeyCheck(in, candidates, func(e *spec.ManifestEntry) ([][]any, error) { return r.fileKeys(ctx, e) })
}

// keyChecked reports whether part p writes keys the check covers: the data
// part of a primary-key table. An overwrite has a check of its own
// (OverwriteTargetChanged), stricter than keys.
func (r *run) keyChecked(p *part) bool {
	return r.table.primaryKey && p.overwrite == nil && p.kind != spec.CommitKindCompact
}

// precheckKeys checks part p against the latest published snapshot before
// its first attempt, and records how far the check got: a conflict found
// here costs no batch slot, and the attempt only checks what came after.
func (r *run) precheckKeys(ctx context.Context, p *part) error {
	if r.req.KeyCheck == nil || !r.keyChecked(p) {
		return nil
	}
	latest, err := r.readLatest(ctx)
	if err != nil {
		return err
	}
	if err := r.checkKeys(ctx, p, latest, 0); err != nil {
		return err
	}
	p.keysCheckedUpTo = max(p.keysCheckedUpTo, idOf(latest))
	return nil
}

// keyHistory returns the deltas of the snapshots after from up to latest,
// in id order, without reading the entries of COMPACT and ANALYZE
// snapshots, which the check skips. It stops at the first missing
// snapshot, which the check takes for a gap.
func (r *run) keyHistory(ctx context.Context, from int64, latest *spec.Snapshot) ([]SnapshotDelta, error) {
	var out []SnapshotDelta
	for id := from + 1; id <= latest.ID; id++ {
		s, found, err := r.readSnapshot(ctx, id)
		if err != nil || !found {
			return out, err
		}
		d := SnapshotDelta{Snapshot: RefOf(s)}
		if s.CommitKind != spec.CommitKindCompact && s.CommitKind != spec.CommitKindAnalyze {
			if d.Entries, err = r.deltaEntries(ctx, s); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// fileKeys returns the primary keys of a data file, sorted, read once per
// Commit call: data files never change.
func (r *run) fileKeys(ctx context.Context, e *spec.ManifestEntry) ([][]any, error) {
	if keys, ok := r.keys[e.File.FileName]; ok {
		return keys, nil
	}
	keys, err := r.c.readKeys(ctx, r.table, e)
	if err != nil {
		return nil, fmt.Errorf("commit: read the keys of data file %s for the write-write check: %w", e.File.FileName, err)
	}
	r.keys[e.File.FileName] = keys
	return keys, nil
}

// readKeys reads the primary key of every record of a data file, in the
// key types of the latest schema. Keys are the file's _KEY_ columns (Java
// KeyValue), or the key value columns of a thin-mode file; columns are
// matched by field id, so keys of files written before a rename or a type
// change compare with new ones.
func (c *Committer) readKeys(ctx context.Context, t *tableLayout, e *spec.ManifestEntry) ([][]any, error) {
	format := path.Ext(e.File.FileName)
	if format != ".parquet" && format != ".orc" && format != ".avro" {
		return nil, fmt.Errorf("data file %s is not Parquet, ORC or Avro: %w", e.File.FileName, lakeerr.ErrUnsupported)
	}
	fileSchema, err := c.schemas.Schema(ctx, e.File.SchemaID)
	if err != nil {
		return nil, err
	}
	mapping, err := schema.NewRowMapping(fileSchema.Fields, t.keyFields, schema.Options{})
	if err != nil {
		return nil, err
	}
	p, err := c.dataFilePath(fileSchema, e)
	if err != nil {
		return nil, err
	}
	switch format {
	case ".orc":
		return c.orcKeys(ctx, p, mapping, t.keyTypes)
	case ".avro":
		return c.avroKeys(ctx, p, mapping, t.keyTypes)
	}
	file, err := footercache.Open(ctx, c.io, p, e.File.FileSize)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	pq, err := parquetio.Open(file, p)
	if err != nil {
		return nil, err
	}
	return scanKeys(pq, mapping, t.keyTypes)
}

// orcKeys reads the keys of an ORC data file (a table whose file.format
// is orc, written by Java) as scanKeys reads a Parquet one.
func (c *Committer) orcKeys(ctx context.Context, p string, mapping *schema.RowMapping, keyTypes []spec.DataType) ([][]any, error) {
	file, err := c.io.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	orc, err := orcio.Open(file, file.Size(), p)
	if err != nil {
		return nil, err
	}
	rows, err := orc.ReadRows(keyFields(mapping, orc.HasField))
	if err != nil {
		return nil, err
	}
	return mappedKeys(rows, mapping, keyTypes)
}

// avroKeys reads the keys of an Avro data file (a table whose file.format
// is avro, written by Java) as scanKeys reads a Parquet one.
func (c *Committer) avroKeys(ctx context.Context, p string, mapping *schema.RowMapping, keyTypes []spec.DataType) ([][]any, error) {
	file, err := c.io.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	avro, err := avroio.Open(file, p)
	if err != nil {
		return nil, err
	}
	defer avro.Close()
	fields := keyFields(mapping, avro.HasField)
	columns := make([]avroio.Column, len(fields))
	for i, f := range fields {
		columns[i] = avroio.Column{Name: f.Name, Type: f.Type}
	}
	it, err := avro.NewRowIterator(columns)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var rows [][]any
	for {
		row, err := it.Next()
		if err == io.EOF {
			return mappedKeys(rows, mapping, keyTypes)
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
}

// keyFields are the columns that hold the keys of a data file of a
// format other than Parquet: its _KEY_ columns (Java's KeyValue layout),
// or in thin mode the key value columns themselves.
func keyFields(mapping *schema.RowMapping, hasField func(string) bool) []spec.DataField {
	fields := mapping.FileFields()
	columns := make([]spec.DataField, len(fields))
	thin := len(fields) > 0 && !hasField(parquetio.KeyColumnPrefix+fields[0].Name)
	for i, f := range fields {
		columns[i] = f
		if !thin {
			columns[i] = spec.DataField{Name: parquetio.KeyColumnPrefix + f.Name, Type: f.Type.WithNullable(false)}
		}
	}
	return columns
}

// mappedKeys maps the key rows of a file to the latest schema, sorted.
func mappedKeys(rows [][]any, mapping *schema.RowMapping, keyTypes []spec.DataType) ([][]any, error) {
	keys := make([][]any, len(rows))
	for i, row := range rows {
		var err error
		if keys[i], err = mapping.Apply(row); err != nil {
			return nil, err
		}
	}
	return sortedKeys(keys, keyTypes), nil
}

// dataFilePath is where a data file of the entry lives: its bucket
// directory, named with the partition options of the schema it was written
// with, or its external path.
func (c *Committer) dataFilePath(fileSchema *spec.TableSchema, e *spec.ManifestEntry) (string, error) {
	if e.File.ExternalPath != nil {
		return localPath(*e.File.ExternalPath), nil
	}
	rel, err := fileSchema.PartitionDir(e.Partition)
	if err != nil {
		return "", err
	}
	return path.Join(c.tableDir, rel, fmt.Sprintf("bucket-%d", e.Bucket), e.File.FileName), nil
}

// localPath turns a Hadoop-style "file:" URI, as Java records external
// paths, into a local path; other strings are returned unchanged.
func localPath(uri string) string {
	if strings.HasPrefix(strings.ToLower(uri), "file:") {
		return "/" + strings.TrimLeft(uri[len("file:"):], "/")
	}
	return uri
}

// keyBatch is how many records scanKeys decodes at once.
const keyBatch = 256

// scanKeys decodes the key columns of every record of pq and returns the
// keys sorted.
func scanKeys(pq *parquetio.Reader, mapping *schema.RowMapping, keyTypes []spec.DataType) ([][]any, error) {
	it, err := pq.NewRowIterator(keyColumns(pq, mapping.FileFields()))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	keys := make([][]any, 0, pq.NumRows())
	buf := make([][]any, keyBatch)
	for {
		n, err := it.NextBatch(buf)
		for _, row := range buf[:n] {
			key, err := mapping.Apply(row)
			if err != nil {
				return nil, err
			}
			keys = append(keys, key)
		}
		if errors.Is(err, io.EOF) || n == 0 && err == nil {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return sortedKeys(keys, keyTypes), nil
}

// sortedKeys sorts keys, which Paimon's data files hold sorted already, so
// it costs one pass unless a writer broke that.
func sortedKeys(keys [][]any, keyTypes []spec.DataType) [][]any {
	cmpKeys := func(a, b []any) int { return spec.CompareRows(keyTypes, a, b) }
	if !slices.IsSortedFunc(keys, cmpKeys) {
		slices.SortFunc(keys, cmpKeys)
	}
	return keys
}

// keyColumns requests the _KEY_ columns of the key fields, or the value
// columns themselves when the file has none (data-file.thin-mode).
func keyColumns(pq *parquetio.Reader, fields []spec.DataField) []parquetio.ColumnRequest {
	thin := true
	for _, col := range pq.Schema() {
		if strings.HasPrefix(col.Name, parquetio.KeyColumnPrefix) {
			thin = false
			break
		}
	}
	out := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		out[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
		if !thin {
			out[i] = parquetio.ColumnRequest{Name: parquetio.KeyColumnPrefix + f.Name, Type: f.Type.WithNullable(false)}
		}
	}
	return out
}
