package parquetio

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Pages are compressed one at a time with EncodeAll, so an encoder is
// needed only while a page is compressed, not for a writer's life. Each
// level's encoders are pooled: a server flushing many buckets at once
// holds one per page in flight instead of one per open file.
//
// zstd's default 8 MiB window makes every encoder keep a 16 MiB history
// buffer. A page is cut at 1 MiB (parquet.page.size) and compressed on
// its own, so a match can never reach further back than the page: a
// 1 MiB window compresses such pages as well at an eighth of the memory
// (a larger dictionary page only finds no matches further back than
// 1 MiB), and every zstd decoder reads it.
const zstdWindow = 1 << 20

// zstdEncoders holds a *sync.Pool of encoders per compression level.
var zstdEncoders sync.Map

func zstdPool(level int) *sync.Pool {
	if pool, ok := zstdEncoders.Load(level); ok {
		return pool.(*sync.Pool)
	}
	pool, _ := zstdEncoders.LoadOrStore(level, &sync.Pool{})
	return pool.(*sync.Pool)
}

// compressPage is body compressed as one zstd frame at level, by an
// encoder of the level's pool.
func compressPage(level int, body []byte) ([]byte, error) {
	pool := zstdPool(level)
	enc, _ := pool.Get().(*zstd.Encoder)
	if enc == nil {
		var err error
		// EncoderLevelFromZstd clamps any level into zstd's range, so
		// the options cannot be refused; the error is kept regardless.
		enc, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow))
		if err != nil {
			return nil, fmt.Errorf("parquetio: zstd level %d: %w", level, err)
		}
	}
	compressed := enc.EncodeAll(body, nil)
	pool.Put(enc)
	return compressed, nil
}
