package sqlbackend

import (
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
)

// detached rows stay as they were when the batch they came from is
// overwritten, as TextRows overwrites it with the next, NULLs included.
func TestDetachedRowsOwnTheirMemory(t *testing.T) {
	text := []byte("12abc")
	batch := [][]sqltypes.Value{
		{sqltypes.MakeTrusted(sqltypes.Int64, text[0:2]), sqltypes.NULL},
		{sqltypes.MakeTrusted(sqltypes.VarChar, text[2:5]), sqltypes.MakeTrusted(sqltypes.VarChar, text[5:5])},
	}
	copied := detached(batch)
	// The next batch reuses the memory.
	copy(text, "34xyz")
	want := [][]string{{"12", `\N`}, {"abc", ""}}
	for i, row := range copied {
		for j, v := range row {
			got := string(v.Raw())
			if v.IsNull() {
				got = `\N`
			}
			if got != want[i][j] || v.Type() != batch[i][j].Type() {
				t.Fatalf("row %d column %d: %q of %v, want %q of %v", i, j, got, v.Type(), want[i][j], batch[i][j].Type())
			}
		}
	}
}
