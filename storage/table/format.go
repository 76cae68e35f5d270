package table

import (
	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// footerCacheBytes bounds the memory of a table's cached Parquet footers:
// a few hundred data files' (25 to 50 KB each).
const footerCacheBytes = 16 << 20

// openFormat reads the header or footer of data file p, open as file,
// with the reader of its format; a Parquet footer comes from t's cache
// when it holds one for a file of the same size, and its pages from t's
// page cache.
func (t *Table) openFormat(format string, file fileio.File, p string, meta *spec.DataFileMeta) (fileformat.Reader, error) {
	if format != fileformat.Parquet {
		return fileformat.Open(format, file, p, meta.RowCount)
	}
	pq, err := t.openParquet(file, p)
	if err != nil {
		return nil, err
	}
	if t.pages != nil {
		pq.CachePages(t.pages)
	}
	return fileformat.NewParquet(pq), nil
}

func (t *Table) openParquet(file fileio.File, p string) (*parquetio.Reader, error) {
	if f, ok := t.footers.Get(p); ok && f.FileSize() == file.Size() {
		return parquetio.OpenFooter(file, p, f)
	}
	pq, err := parquetio.Open(file, p)
	if err != nil {
		return nil, err
	}
	t.footers.Put(p, pq.Footer)
	return pq, nil
}
