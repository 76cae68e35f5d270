package parquetio

import (
	"bytes"
	"fmt"
	"sort"
	"testing"
	"time"
)

func TestSlowFlips(t *testing.T) {
	data := smallFixture(t)
	type res struct {
		i    int
		mask byte
		d    time.Duration
		err  error
	}
	var all []res
	for i := range data {
		for _, mask := range []byte{0x01, 0xff} {
			corrupt := bytes.Clone(data)
			corrupt[i] ^= mask
			start := time.Now()
			err := decodeBytes(corrupt)
			all = append(all, res{i, mask, time.Since(start), err})
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].d > all[b].d })
	for _, r := range all[:8] {
		fmt.Println(r.i, r.mask, r.d, r.err)
	}
}
