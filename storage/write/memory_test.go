package write

import (
	"context"
	"runtime"
	"testing"
)

// TestMemoryEstimateIsConservative buffers payment rows and checks that
// the estimated memory of the buffer is at least the heap it retains.
func TestMemoryEstimateIsConservative(t *testing.T) {
	tt := newTestTable(t, paymentTable())
	w := tt.writer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// The caller's rows become garbage once written; the values in them are
	// what the buffer keeps.
	rows := paymentRows(20_000)
	writer := newMergeTreeWriter(w.env, "unused", 0)
	var estimated int64
	for _, r := range rows {
		own, err := w.accept(r.Row, r.Kind)
		if err != nil {
			t.Fatal(err)
		}
		size, err := writer.write(context.Background(), own, r.Kind)
		if err != nil {
			t.Fatal(err)
		}
		estimated += size
	}
	rows = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(writer)
	if estimated < retained {
		t.Fatalf("estimated %d bytes for a buffer retaining %d", estimated, retained)
	}
	t.Logf("estimated %d bytes, retained %d (%.2fx)", estimated, retained, float64(estimated)/float64(retained))
}
