package parquetio

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go/format"
)

// Pages larger than the encoders' window (a big dictionary page) and
// repeating themselves further back than it still round-trip, at every
// level a table may set, from writers compressing concurrently.
func TestCompressedPagesBeyondTheWindowRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	block := make([]byte, zstdWindow+zstdWindow/2)
	for i := range block {
		block[i] = byte(rng.IntN(16))
	}
	page := bytes.Repeat(block, 2)
	var wg sync.WaitGroup
	for _, level := range []int{1, 3, 7} {
		for range 3 {
			wg.Go(func() {
				compressed, err := compressPage(level, page)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := decompress(format.Zstd, nil, compressed, len(page))
				if err != nil || !bytes.Equal(got, page) {
					t.Errorf("level %d: page of %d bytes came back as %d bytes, %v", level, len(page), len(got), err)
				}
			})
		}
	}
	wg.Wait()
}
