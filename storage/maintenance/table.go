package maintenance

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// tableCtx is the main branch of one table as the maintenance operations
// see it: its managers, its latest schema and a path resolver.
type tableCtx struct {
	io        fileio.FileIO
	dir       string
	snapshots *snapshot.Manager
	schemas   *schema.Manager
	manifests *manifest.Reader
	schema    *spec.TableSchema
	core      spec.CoreOptions
	paths     *pathResolver
}

func openTable(ctx context.Context, fio fileio.FileIO, dir string) (*tableCtx, error) {
	if fio == nil {
		return nil, fmt.Errorf("maintenance: FileIO is nil: %w", ErrInvalidArgument)
	}
	return openBranch(ctx, fio, dir, "")
}

// branch opens another branch of the same table.
func (t *tableCtx) branch(ctx context.Context, name string) (*tableCtx, error) {
	return openBranch(ctx, t.io, t.dir, name)
}

func openBranch(ctx context.Context, fio fileio.FileIO, dir, branch string) (*tableCtx, error) {
	schemas := schema.NewManager(fio, dir, branch)
	latest, err := schemas.Latest(ctx)
	if err != nil && branch != "" {
		return nil, fmt.Errorf("table %s, branch %s: %w", dir, branch, err)
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", dir, err)
	}
	core := latest.CoreOptions()
	indexInDataDir, _ := core.Get(optionIndexFileInDataDir)
	t := &tableCtx{
		io:        fio,
		dir:       dir,
		snapshots: snapshot.NewManager(fio, dir, branch),
		schemas:   schemas,
		manifests: manifest.NewReader(fio, dir),
		schema:    latest,
		core:      core,
	}
	t.paths = &pathResolver{dir: dir, schemas: schemas, latest: latest,
		indexInDataDir: strings.EqualFold(indexInDataDir, "true"), bucketDirs: map[bucketKey]string{}}
	return t, nil
}

func (t *tableCtx) snapshotDir() string { return path.Join(t.snapshots.BranchDir(), "snapshot") }

// writeHint replaces the LATEST or EARLIEST hint. Hints are advisory
// (readers verify them and fall back to listing), so they are written
// without waiting for durability where the FileIO allows.
func (t *tableCtx) writeHint(ctx context.Context, name string, id int64) error {
	p := path.Join(t.snapshotDir(), name)
	if err := fileio.OverwriteHint(ctx, t.io, p, []byte(strconv.FormatInt(id, 10))); err != nil {
		return fmt.Errorf("write %s hint: %w", name, err)
	}
	return nil
}

// hintExists reports whether a hint file is present.
func (t *tableCtx) hintExists(ctx context.Context, name string) (bool, error) {
	return fileio.Exists(ctx, t.io, path.Join(t.snapshotDir(), name))
}

// deleteIfExists deletes p and reports whether this call removed it. A file
// that is already gone is not an error: every maintenance deletion may race
// with the same deletion from another process, or repeat one a crashed run
// already made.
func deleteIfExists(ctx context.Context, fio fileio.FileIO, p string) (bool, error) {
	err := fio.Delete(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete %s: %w", p, err)
	}
	return true, nil
}

// nowOrDefault returns the injected clock, or time.Now.
func nowOrDefault(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

const (
	hintLatest   = "LATEST"
	hintEarliest = "EARLIEST"
	// optionIndexFileInDataDir is CoreOptions.INDEX_FILE_IN_DATA_FILE_DIR:
	// index files live in their bucket directory instead of index/.
	optionIndexFileInDataDir = "index-file-in-data-file-dir"
	// postponeBucket is BucketMode.POSTPONE_BUCKET, whose directory is
	// bucket-postpone.
	postponeBucket = -2
)

type bucketKey struct {
	schemaID  int64
	partition string
	bucket    int32
}

// pathResolver turns manifest entries into the paths of their files,
// laid out as Java's FileStorePathFactory lays them out.
type pathResolver struct {
	dir            string
	schemas        *schema.Manager
	latest         *spec.TableSchema
	indexInDataDir bool
	bucketDirs     map[bucketKey]string
}

// bucketDir is <table>/<k1=v1>/.../bucket-<n>. The partition is formatted
// with the options of the schema the file was written with, which decided
// its directory name.
func (r *pathResolver) bucketDir(ctx context.Context, schemaID int64, partition []byte, bucket int32) (string, error) {
	key := bucketKey{schemaID, string(partition), bucket}
	if dir, ok := r.bucketDirs[key]; ok {
		return dir, nil
	}
	s, err := r.schemas.Schema(ctx, schemaID)
	if err != nil {
		return "", err
	}
	rel, err := s.PartitionDir(partition)
	if err != nil {
		return "", err
	}
	name := "bucket-" + strconv.Itoa(int(bucket))
	if bucket == postponeBucket {
		name = "bucket-postpone"
	}
	dir := path.Join(r.dir, rel, name)
	r.bucketDirs[key] = dir
	return dir, nil
}

// dataFiles returns the path of an entry's file and of its extra files
// (file indexes). A file outside the table whose location this FileIO
// cannot address is left out: it can only leak, never be deleted wrongly.
func (r *pathResolver) dataFiles(ctx context.Context, e *spec.ManifestEntry) ([]string, error) {
	dir, err := r.bucketDir(ctx, e.File.SchemaID, e.Partition, e.Bucket)
	if err != nil {
		return nil, err
	}
	var out []string
	if e.File.ExternalPath == nil {
		out = append(out, path.Join(dir, e.File.FileName))
	} else if p, ok := localPath(*e.File.ExternalPath); ok {
		out = append(out, p)
	}
	for _, extra := range e.File.ExtraFiles {
		out = append(out, path.Join(dir, extra))
	}
	return out, nil
}

// indexFile returns the path of an index file (deletion vectors, hash
// index), or false if it lives where this FileIO cannot reach.
func (r *pathResolver) indexFile(ctx context.Context, e *spec.IndexManifestEntry) (string, bool, error) {
	switch {
	case e.IndexFile.ExternalPath != nil:
		p, ok := localPath(*e.IndexFile.ExternalPath)
		return p, ok, nil
	case r.indexInDataDir:
		dir, err := r.bucketDir(ctx, r.latest.ID, e.Partition, e.Bucket)
		return path.Join(dir, e.IndexFile.FileName), err == nil, err
	}
	return path.Join(r.dir, "index", e.IndexFile.FileName), true, nil
}

func (r *pathResolver) statistics(name string) string { return path.Join(r.dir, "statistics", name) }

// localPath turns a "file:" URI, as Java records external paths, into a
// local path. Other schemes are not reachable through a warehouse FileIO.
func localPath(uri string) (string, bool) {
	if strings.HasPrefix(strings.ToLower(uri), "file:") {
		return "/" + strings.TrimLeft(uri[len("file:"):], "/"), true
	}
	return uri, strings.HasPrefix(uri, "/")
}
