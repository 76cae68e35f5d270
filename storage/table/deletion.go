package table

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// deletionVector loads the deletion vector of a data file, or nil when the
// file has none. A bucket's vectors share one index file, which is read once
// per reader.
func (r *reader) deletionVector(ctx context.Context, b *BucketPlan, dataFile string) (deletionVector, error) {
	df, ok := b.DeletionFiles[dataFile]
	if !ok {
		return nil, nil
	}
	data, ok := r.dvFiles[df.Path]
	if !ok {
		var err error
		if data, err = r.table.io.ReadFile(ctx, df.Path); err != nil {
			return nil, fmt.Errorf("read deletion vectors of %s: %w", dataFile, err)
		}
		r.dvFiles[df.Path] = data
	}
	dv, err := spec.ReadDeletionVector(data, int64(df.Meta.Offset), int64(df.Meta.Length))
	if err != nil {
		return nil, fmt.Errorf("deletion vector of %s in %s: %w", dataFile, df.Path, err)
	}
	return dv, nil
}
