package write

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// CompactionWriterOptions configures a CompactionWriter.
type CompactionWriterOptions struct {
	FileIO fileio.FileIO
	// Schema is the schema records are written in: the table's latest.
	Schema *spec.TableSchema
	// BucketDir is the directory of the bucket the files belong to.
	BucketDir string
	// Level is the LSM level of the new files (always 0 for append tables).
	Level int
	// FirstSequence numbers the rows of an append table: Java's compaction
	// rewriter counts up from the smallest sequence number of its inputs.
	// Primary-key records keep their own sequence numbers.
	FirstSequence int64
	// Now stamps _CREATION_TIME; NewUUID names the files. Defaults as in
	// Options.
	Now     func() time.Time
	NewUUID func() string
}

// CompactionWriter writes the output of a compaction into one bucket:
// Parquet files in the table's layout (the key-value layout for
// primary-key tables), named and rolled at target-file-size as the write
// path does, with the stats modes of the output level, at that level and with
// file source COMPACT. Mirrors the rolling writers Java's
// MergeTreeCompactRewriter and append compactRewrite create. It is not safe
// for concurrent use.
type CompactionWriter struct {
	level int
	files *bucketFiles
	kv    *mergeTreeWriter
	rows  *appendWriter
}

// NewCompactionWriter returns a writer of compaction output. Tables whose
// files lakesql cannot write are refused with an error wrapping
// lakeerr.ErrUnsupported. Unlike Open, merge engines and table features
// whose new level-0 files Java would read differently are accepted: a
// compaction writes above level 0 what the files already held.
func NewCompactionWriter(opts CompactionWriterOptions) (*CompactionWriter, error) {
	if opts.FileIO == nil || opts.Schema == nil {
		return nil, errors.New("write: CompactionWriterOptions needs a FileIO and a schema")
	}
	settings, err := parseCompactionSettings(opts.Schema, opts.Level)
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewUUID == nil {
		opts.NewUUID = ids.NewUUID
	}
	env := &writerEnv{io: opts.FileIO, settings: settings, now: opts.Now, newUUID: opts.NewUUID}
	w := &CompactionWriter{level: opts.Level}
	if settings.primaryKey {
		w.kv = newMergeTreeWriter(env, opts.BucketDir, 0)
		w.files = w.kv.files
	} else {
		w.rows = newAppendWriter(env, opts.BucketDir, opts.FirstSequence)
		w.files = w.rows.files
	}
	return w, nil
}

// parseCompactionSettings derives the write settings of a table whose
// existing files are rewritten into files at level.
func parseCompactionSettings(s *spec.TableSchema, level int) (*tableSettings, error) {
	ts := &tableSettings{schema: s, primaryKey: len(s.PrimaryKeys) > 0}
	steps := []func() error{ts.checkRewritable, ts.parseColumns, ts.parseSizes, ts.parseBehaviour,
		func() error { return ts.parseStats(level) }, ts.parseFileIndexes}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// checkRewritable refuses the tables whose rewrites must maintain more
// than data files: row ids (row tracking, data evolution). It writes
// Parquet files into tables of any format Java reads them in (see
// checkSupported); whether a compaction may read a table's files is the
// compactor's call.
func (ts *tableSettings) checkRewritable() error {
	o := ts.schema.CoreOptions()
	if f := o.FileFormat(); f != "parquet" && f != "orc" && f != "avro" {
		return unsupportedf("file.format %s (only parquet, orc and avro)", f)
	}
	if on, err := o.RowTrackingEnabled(); err != nil || on {
		return orUnsupported(err, "row tracking (row-tracking.enabled)")
	}
	if on, err := o.DataEvolutionEnabled(); err != nil || on {
		return orUnsupported(err, "data evolution (data-evolution.enabled)")
	}
	if ts.primaryKey && len(ts.schema.TrimmedPrimaryKeys()) == 0 {
		return fmt.Errorf("%w: the primary key %v consists of partition keys only", lakeerr.ErrCorruption, ts.schema.PrimaryKeys)
	}
	return nil
}

// WriteKeyValue appends one merged record of a primary-key table. Records
// must come in key order, each key once.
func (w *CompactionWriter) WriteKeyValue(ctx context.Context, kv lsm.KeyValue) error {
	if w.kv == nil {
		return errors.New("write: WriteKeyValue on an append table")
	}
	return w.kv.writeRecord(ctx, kv)
}

// WriteRow appends one row of an append table, numbered with the next
// sequence number.
func (w *CompactionWriter) WriteRow(ctx context.Context, row []any) error {
	if w.rows == nil {
		return errors.New("write: WriteRow on a primary-key table")
	}
	_, err := w.rows.write(ctx, row, spec.RowKindInsert)
	return err
}

// Finish closes the open file and returns the metadata of every file
// written, at the writer's level and with file source COMPACT. The files
// are then the caller's: commit them, or delete them.
func (w *CompactionWriter) Finish(ctx context.Context) ([]spec.DataFileMeta, error) {
	if err := w.files.closeFile(ctx); err != nil {
		return nil, err
	}
	files := w.files.drain()
	for i := range files {
		source := spec.FileSourceCompact
		files[i].Level = int32(w.level)
		files[i].FileSource = &source
	}
	return files, nil
}

// Abort drops the open file and deletes the files written since the last
// Finish and those whose put failed but may have landed (not one whose put
// failed because the path existed). The deletes run even when ctx is
// cancelled.
func (w *CompactionWriter) Abort(ctx context.Context) error {
	return w.files.discard(context.WithoutCancel(ctx))
}
