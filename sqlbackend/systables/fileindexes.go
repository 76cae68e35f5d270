package systables

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/spec"
)

// fileIndexesFields mirrors FileIndexesTable.TABLE_TYPE: one row per index
// of a live data file, with where the index is stored.
var fileIndexesFields = columns(
	column("partition", stringType(true)),
	column("bucket", intType(false)),
	column("file_path", stringType(false)),
	column("file_size_in_bytes", bigintType(false)),
	column("record_count", bigintType(false)),
	column("schema_id", bigintType(false)),
	column("column_name", stringType(false)),
	column("index_type", stringType(false)),
	column("storage_type", stringType(false)),
	column("index_file_path", stringType(true)),
	column("index_size_in_bytes", bigintType(false)),
	column("index_container_size_in_bytes", bigintType(false)),
	column("is_empty", booleanType(false)),
)

// fileIndexesRows lists the indexes of the live data files, as Java's
// $file_indexes: reading only the head of each .index file.
func fileIndexesRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	if src.snapshot == nil {
		return nil, nil
	}
	live, err := src.t.LiveFiles(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	fd, err := newFileDescriber(src)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, e := range realBucketsOnly(src, live) {
		fileRows, err := fd.indexRows(ctx, &e)
		if err != nil {
			return nil, fmt.Errorf("file index of %s: %w", e.File.FileName, err)
		}
		rows = append(rows, fileRows...)
	}
	slices.SortStableFunc(rows, byPartitionAndBucket)
	return rows, nil
}

// indexRows are the rows of one data file's indexes: none without any.
func (fd *fileDescriber) indexRows(ctx context.Context, e *spec.ManifestEntry) ([][]any, error) {
	container, storage, indexPath, size, err := fd.readIndexHead(ctx, e)
	if container == nil || err != nil {
		return nil, err
	}
	fileSchema, err := fd.schemaOf(ctx, e.File.SchemaID)
	if err != nil {
		return nil, err
	}
	partition, err := fd.partitionRow(e.Partition)
	if err != nil {
		return nil, err
	}
	filePath, err := fd.filePath(fileSchema, e)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(container.Entries))
	for i, ix := range container.Entries {
		rows[i] = []any{partition, e.Bucket, filePath, e.File.FileSize, e.File.RowCount, e.File.SchemaID,
			ix.Column, ix.Type, storage, indexPath, int64(ix.Size), size, ix.Empty}
	}
	return rows, nil
}

// readIndexHead reads the head of a file's index container: embedded in
// the manifest (storage EMBEDDED, no path) or its .index file (FILE).
func (fd *fileDescriber) readIndexHead(ctx context.Context, e *spec.ManifestEntry) (c *fileindex.Container, storage string, indexPath any, size int64, err error) {
	if embedded := e.File.EmbeddedIndex; embedded != nil {
		c, err = fileindex.ReadHead(bytes.NewReader(embedded), int64(len(embedded)))
		return c, "EMBEDDED", nil, int64(len(embedded)), err
	}
	p, err := fd.src.t.IndexFilePath(ctx, e.Partition, e.Bucket, &e.File)
	if p == "" || err != nil {
		return nil, "", nil, 0, err
	}
	f, err := fd.src.io.Open(ctx, p)
	if err != nil {
		return nil, "", nil, 0, err
	}
	defer f.Close()
	c, err = fileindex.ReadHead(f, f.Size())
	return c, "FILE", p, f.Size(), err
}
