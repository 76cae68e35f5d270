package table

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/lakesql/lakesql/storage/spec"
)

// dvFiles caches the deletion-vector index files a read has loaded: a
// bucket's vectors share one index file, which is read once per read even
// when splits of the bucket are read in parallel.
type dvFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (c *dvFiles) get(path string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.files[path]
	return data, ok
}

func (c *dvFiles) put(path string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string][]byte{}
	}
	c.files[path] = data
}

// deletionVector loads the deletion vector of a data file, or nil when the
// file has none.
func (r *reader) deletionVector(ctx context.Context, b *BucketPlan, dataFile string) (deletionVector, error) {
	df, ok := b.DeletionFiles[dataFile]
	if !ok {
		return nil, nil
	}
	data, ok := r.dvFiles.get(df.Path)
	if !ok {
		var err error
		if data, err = r.table.io.ReadFile(ctx, df.Path); err != nil {
			return nil, fmt.Errorf("read deletion vectors of %s: %w", dataFile, err)
		}
		r.dvFiles.put(df.Path, data)
	}
	return decodeDeletionVector(data, df, dataFile)
}

// DeletionVector reads the deletion vector of data file dataFile from
// where df says it is.
func (t *Table) DeletionVector(ctx context.Context, df DeletionFile, dataFile string) (*spec.DeletionVector, error) {
	data, err := t.io.ReadFile(ctx, df.Path)
	if err != nil {
		return nil, fmt.Errorf("read deletion vectors of %s: %w", dataFile, err)
	}
	return decodeDeletionVector(data, df, dataFile)
}

func decodeDeletionVector(indexFile []byte, df DeletionFile, dataFile string) (*spec.DeletionVector, error) {
	dv, err := spec.ReadDeletionVector(indexFile, int64(df.Meta.Offset), int64(df.Meta.Length))
	if err != nil {
		return nil, fmt.Errorf("deletion vector of %s in %s: %w", dataFile, df.Path, err)
	}
	return dv, nil
}

// positionSet is a deletion vector of ascending positions.
type positionSet []int64

func (p positionSet) IsDeleted(position int64) bool {
	_, found := slices.BinarySearch(p, position)
	return found
}

func (p positionSet) Positions() []int64 { return p }
