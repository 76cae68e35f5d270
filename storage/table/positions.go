package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// ReadPositions streams the live rows of data file f of bucket b of a
// plan of an append table, each with its position in the file, which is
// what a deletion vector names. Rows have every column of schema, the
// plan's. Rows the file's deletion vector deletes are skipped; no filter
// is applied, so that a rewrite of the file keeps every other row.
func (t *Table) ReadPositions(ctx context.Context, schema *spec.TableSchema, b *BucketPlan, f *spec.DataFileMeta, visit func(pos int64, row []any) error) (err error) {
	if len(schema.PrimaryKeys) > 0 {
		return fmt.Errorf("%w: row positions of primary-key table %s", lakeerr.ErrUnsupported, t.dir)
	}
	all, err := scan.CompileFilter(schema, nil)
	if err != nil {
		return err
	}
	r, err := newReader(t, &Plan{Schema: schema, Scan: &scan.Plan{Filter: all}}, nil)
	if err != nil {
		return err
	}
	if r.dataEvolution {
		return fmt.Errorf("%w: row positions of data-evolution table %s", lakeerr.ErrUnsupported, t.dir)
	}
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return err
	}
	it, err := r.rawRows(d)
	if err != nil {
		return errors.Join(err, d.Close())
	}
	defer func() { err = errors.Join(err, it.Close()) }()
	for {
		row, pos, err := it.nextAt()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := visit(pos, row); err != nil {
			return err
		}
	}
}
