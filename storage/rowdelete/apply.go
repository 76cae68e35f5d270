package rowdelete

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// Options configure Apply.
type Options struct {
	FileIO fileio.FileIO
	Table  *table.Table
	// Schema is the schema the statement writes in; the plans the
	// selection was found with must read in it.
	Schema *spec.TableSchema
	// Index is the live index files the selection's plans read
	// (table.Plan.Index): the deletion vectors a new index file replaces.
	Index []spec.IndexManifestEntry
	// Now stamps rewritten files; NewUUID names new files. Defaults:
	// time.Now and random UUIDs.
	Now     func() time.Time
	NewUUID func() string
	// Lease, when set, is the write lease that keeps orphan removal off
	// the new files until their commit; the messages carry it.
	Lease *lease.Handle
}

// Result is what Apply wrote.
type Result struct {
	// Messages are the commit messages of the deletion, one per bucket.
	Messages []commit.Message
	// Written are the paths of every file Apply wrote or may have
	// written, to delete when no commit will name them.
	Written []string
}

// Apply removes the selected rows: by deletion vectors when the table
// enables them, else by rewriting the files that hold them. On error,
// Result.Written still lists what was written.
func Apply(ctx context.Context, opts Options, s *Selection) (Result, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewUUID == nil {
		opts.NewUUID = ids.NewUUID
	}
	o := opts.Schema.CoreOptions()
	vectors, err := o.DeletionVectorsEnabled()
	if err != nil {
		return Result{}, err
	}
	bitmap64, err := o.DeletionVectorsBitmap64()
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, targets := range s.byBucket() {
		var msg commit.Message
		if vectors {
			msg, err = writeVectors(ctx, &opts, targets, bitmap64, &res)
		} else {
			msg, err = rewriteFiles(ctx, &opts, targets, &res)
		}
		if err != nil {
			return res, err
		}
		msg.Lease = opts.Lease
		res.Messages = append(res.Messages, msg)
	}
	return res, nil
}

// bucketMessage starts the message of the targets' bucket.
func bucketMessage(b *table.BucketPlan) commit.Message {
	return commit.Message{Partition: b.Partition, Bucket: b.Bucket, TotalBuckets: b.TotalBuckets}
}

// writeVectors adds the targets' positions to their files' deletion
// vectors and writes every vector of the bucket into one new index file,
// which replaces the bucket's old ones.
func writeVectors(ctx context.Context, opts *Options, targets []*target, bitmap64 bool, res *Result) (commit.Message, error) {
	b := targets[0].bucket
	msg := bucketMessage(b)
	msg.DeletedIndexFiles = VectorFiles(opts.Index, b)
	vectors, order, err := readVectors(ctx, opts, b, msg.DeletedIndexFiles)
	if err != nil {
		return msg, err
	}
	for _, t := range targets {
		dv := vectors[t.file.FileName]
		if dv == nil {
			dv = spec.NewDeletionVector(bitmap64)
			vectors[t.file.FileName] = dv
			order = append(order, t.file.FileName)
		}
		for _, pos := range t.positions {
			if err := dv.Delete(pos); err != nil {
				return msg, fmt.Errorf("row %d of %s: %w", pos, t.file.FileName, err)
			}
		}
	}
	meta, err := writeIndexFile(ctx, opts, b, vectors, order, res)
	if err != nil {
		return msg, err
	}
	msg.NewIndexFiles = []spec.IndexFileMeta{meta}
	return msg, nil
}

// writeIndexFile writes vectors, in order, as a new index file of bucket b.
func writeIndexFile(ctx context.Context, opts *Options, b *table.BucketPlan, vectors map[string]*spec.DeletionVector, order []string, res *Result) (spec.IndexFileMeta, error) {
	meta, data, err := encodeVectors(vectors, order)
	if err != nil {
		return meta, err
	}
	meta.FileName = fmt.Sprintf("index-%s-0", opts.NewUUID())
	p := path.Join(opts.Table.IndexFileDir(opts.Schema, b.Dir), meta.FileName)
	res.Written = append(res.Written, p)
	if err := opts.FileIO.PutIfAbsent(ctx, p, data); err != nil {
		return meta, fmt.Errorf("write deletion vectors %s: %w", p, err)
	}
	return meta, nil
}

// RewriteVectors rewrites the deletion vectors of index files files of
// bucket b into one new index file, without those of the data files
// dropped names and with the row positions added deleted: what a
// compaction leaves that rewrote those data files and found older
// records of the keys it wrote in others (a lookup compaction). It
// returns the new file, none when no vector is left; Result.Written lists
// what it wrote, also on error.
func RewriteVectors(ctx context.Context, opts Options, b *table.BucketPlan, files []spec.IndexFileMeta, dropped func(dataFile string) bool, added map[string][]int64) ([]spec.IndexFileMeta, Result, error) {
	if opts.NewUUID == nil {
		opts.NewUUID = ids.NewUUID
	}
	var res Result
	vectors, order, err := readVectors(ctx, &opts, b, files)
	if err != nil {
		return nil, res, err
	}
	if order, err = addPositions(opts.Schema, vectors, order, added); err != nil {
		return nil, res, err
	}
	order = slices.DeleteFunc(order, dropped)
	if len(order) == 0 {
		return nil, res, nil
	}
	meta, err := writeIndexFile(ctx, &opts, b, vectors, order, &res)
	if err != nil {
		return nil, res, err
	}
	return []spec.IndexFileMeta{meta}, res, nil
}

// addPositions deletes the added positions in vectors, creating the
// vectors of data files that have none, in the order of the data files'
// names (so that equal inputs write equal index files).
func addPositions(schema *spec.TableSchema, vectors map[string]*spec.DeletionVector, order []string, added map[string][]int64) ([]string, error) {
	if len(added) == 0 {
		return order, nil
	}
	bitmap64, err := schema.CoreOptions().DeletionVectorsBitmap64()
	if err != nil {
		return nil, err
	}
	names := slices.Sorted(maps.Keys(added))
	for _, name := range names {
		dv := vectors[name]
		if dv == nil {
			dv = spec.NewDeletionVector(bitmap64)
			vectors[name] = dv
			order = append(order, name)
		}
		for _, pos := range added[name] {
			if err := dv.Delete(pos); err != nil {
				return nil, fmt.Errorf("row %d of %s: %w", pos, name, err)
			}
		}
	}
	return order, nil
}

// VectorFiles are the deletion-vector index files of bucket b among the
// live index files index.
func VectorFiles(index []spec.IndexManifestEntry, b *table.BucketPlan) []spec.IndexFileMeta {
	var out []spec.IndexFileMeta
	for _, e := range index {
		if e.Kind == spec.FileKindAdd && e.IndexFile.IndexType == spec.IndexTypeDeletionVectors &&
			e.Bucket == b.Bucket && string(e.Partition) == string(b.Partition) {
			out = append(out, e.IndexFile)
		}
	}
	return out
}

// readVectors decodes every deletion vector of files, by data file name,
// with the names in file order.
func readVectors(ctx context.Context, opts *Options, b *table.BucketPlan, files []spec.IndexFileMeta) (map[string]*spec.DeletionVector, []string, error) {
	vectors := map[string]*spec.DeletionVector{}
	var order []string
	for i := range files {
		p := opts.Table.BucketIndexFilePath(opts.Schema, b.Dir, &files[i])
		data, err := opts.FileIO.ReadFile(ctx, p)
		if err != nil {
			return nil, nil, fmt.Errorf("read deletion vectors %s: %w", p, err)
		}
		for _, r := range files[i].DeletionVectorRanges {
			dv, err := spec.ReadDeletionVector(data, int64(r.Offset), int64(r.Length))
			if err != nil {
				return nil, nil, fmt.Errorf("deletion vector of %s in %s: %w", r.DataFileName, p, err)
			}
			if vectors[r.DataFileName] != nil {
				return nil, nil, fmt.Errorf("%w: two deletion vectors of data file %s in bucket %d", lakeerr.ErrCorruption, r.DataFileName, b.Bucket)
			}
			vectors[r.DataFileName] = dv
			order = append(order, r.DataFileName)
		}
	}
	return vectors, order, nil
}

// encodeVectors lays vectors out as one index file, in order.
// Mirrors org.apache.paimon.deletionvectors.DeletionVectorIndexFileWriter.
func encodeVectors(vectors map[string]*spec.DeletionVector, order []string) (spec.IndexFileMeta, []byte, error) {
	var data []byte
	ranges := make([]spec.DeletionVectorMeta, 0, len(order))
	for _, name := range order {
		dv := vectors[name]
		var offset, length int32
		var err error
		if data, offset, length, err = spec.AppendDeletionVector(data, dv); err != nil {
			return spec.IndexFileMeta{}, nil, fmt.Errorf("deletion vector of %s: %w", name, err)
		}
		cardinality := dv.Cardinality()
		ranges = append(ranges, spec.DeletionVectorMeta{DataFileName: name, Offset: offset, Length: length, Cardinality: &cardinality})
	}
	meta := spec.IndexFileMeta{
		IndexType: spec.IndexTypeDeletionVectors, FileSize: int64(len(data)),
		RowCount: int64(len(ranges)), DeletionVectorRanges: ranges,
	}
	return meta, data, nil
}

// rewriteFiles rewrites each target file without its selected rows, as
// files of the same bucket whose rows keep their sequence numbers' range.
func rewriteFiles(ctx context.Context, opts *Options, targets []*target, res *Result) (commit.Message, error) {
	msg := bucketMessage(targets[0].bucket)
	for _, t := range targets {
		if _, ok := t.bucket.DeletionFiles[t.file.FileName]; ok {
			return msg, fmt.Errorf("%w: data file %s has a deletion vector, but deletion-vectors.enabled is off", lakeerr.ErrUnsupported, t.file.FileName)
		}
		files, err := rewriteFile(ctx, opts, t, res)
		if err != nil {
			return msg, err
		}
		msg.DeletedFiles = append(msg.DeletedFiles, t.file)
		msg.NewFiles = append(msg.NewFiles, files...)
	}
	return msg, nil
}

func rewriteFile(ctx context.Context, opts *Options, t *target, res *Result) ([]spec.DataFileMeta, error) {
	w, err := write.NewCompactionWriter(write.CompactionWriterOptions{
		FileIO: opts.FileIO, Schema: opts.Schema, BucketDir: t.bucket.Dir,
		FirstSequence: t.file.MinSequenceNumber, Now: opts.Now, NewUUID: opts.NewUUID,
	})
	if err != nil {
		return nil, err
	}
	deleted := t.positions
	err = opts.Table.ReadPositions(ctx, opts.Schema, t.bucket, &t.file, func(pos int64, row []any) error {
		if len(deleted) > 0 && deleted[0] == pos {
			deleted = deleted[1:]
			return nil
		}
		return w.WriteRow(ctx, row)
	})
	if err == nil && len(deleted) > 0 {
		err = fmt.Errorf("%w: rows %v of %s to delete were not found on rewriting it", lakeerr.ErrCorruption, deleted, t.file.FileName)
	}
	if err != nil {
		return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
	}
	files, err := w.Finish(ctx)
	if err != nil {
		return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
	}
	for _, f := range files {
		res.Written = append(res.Written, t.bucket.DataFilePath(&f))
		for _, extra := range f.ExtraFiles {
			res.Written = append(res.Written, path.Join(t.bucket.Dir, extra))
		}
	}
	return files, nil
}
