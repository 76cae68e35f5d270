package fileformat

import (
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/blobio"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// OpenBlob reads blob file p, open as file.
func OpenBlob(file fileio.File, p string) (Reader, error) {
	r, err := blobio.Open(file, file.Size(), p)
	if err != nil {
		return nil, err
	}
	return blobFile{r}, nil
}

// blobFile is a blob file: the values of one BLOB column (its write
// column) for a range of row ids, one row group without statistics. Only
// data-evolution reads open them (see package table's openEvolution).
type blobFile struct{ r blobSource }

// blobSource is the part of blobio.File the reader uses.
type blobSource interface {
	NumRows() int64
	Name() string
	Value(i int64) ([]byte, error)
}

func (f blobFile) RowGroups() []parquetio.RowGroup {
	return []parquetio.RowGroup{{NumRows: f.r.NumRows()}}
}

func (blobFile) ColumnStats(int, parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	return parquetio.ColumnStats{}, false, nil
}

func (blobFile) PageStats(int, parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return nil, false, nil
}

// rows reads the file's one column, which is each requested column.
func (f blobFile) Rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (RowBatches, error) {
	for _, c := range columns {
		if c.Type.Root != spec.Blob {
			return nil, fmt.Errorf("blob file %s read for column %s of type %v: %w", f.r.Name(), c.Name, c.Type.Root, lakeerr.ErrCorruption)
		}
	}
	b := &blobRows{f: f.r, width: len(columns), ranges: ranges}
	if len(ranges) > 0 {
		b.next = ranges[0].From
	}
	return b, nil
}

func (f blobFile) KeyValues([]string, []spec.DataField, []parquetio.RowRange) (KeyValueIterator, error) {
	return nil, fmt.Errorf("blob file %s in a primary-key read: %w", f.r.Name(), lakeerr.ErrCorruption)
}

func (blobFile) Close() {}

// blobRows returns the rows of some ranges of a blob file.
type blobRows struct {
	f        blobSource
	width    int
	ranges   []parquetio.RowRange
	next     int64 // next row of ranges[0]
	position int64
}

func (b *blobRows) NextBatch(dst [][]any) (int, error) {
	for len(b.ranges) > 0 {
		r := b.ranges[0]
		if b.next >= r.To {
			if b.ranges = b.ranges[1:]; len(b.ranges) > 0 {
				b.next = b.ranges[0].From
			}
			continue
		}
		b.position = b.next
		n := 0
		for ; n < len(dst) && b.next < r.To; n++ {
			v, err := b.f.Value(b.next)
			if err != nil {
				return 0, err
			}
			row := make([]any, b.width)
			for i := range row {
				if v != nil {
					row[i] = v
				}
			}
			dst[n] = row
			b.next++
		}
		return n, nil
	}
	return 0, io.EOF
}

func (b *blobRows) Position() int64 { return b.position }

func (b *blobRows) Close() error { return nil }
