package sqlbackend

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/scan"
)

// summarize is the one-line plan summary EXPLAIN shows for a scan: the
// pinned snapshot and how much of the table it keeps. The per-file reasons
// are in the storage explanation (lakesql inspect prints them).
func summarize(e scan.Explanation) string {
	t := e.Totals()
	text := fmt.Sprintf("snapshot=%d partitions=%d/%d buckets=%d/%d files=%d/%d",
		e.SnapshotID, t.Partitions.Kept, t.Partitions.Total, t.Buckets.Kept, t.Buckets.Total,
		t.Files.Kept, t.Files.Total+int(t.UnreadFiles))
	if t.SkippedByIndex > 0 {
		text += fmt.Sprintf(" index-skipped=%d", t.SkippedByIndex)
	}
	return text + fmt.Sprintf(" splits=%d", e.Splits)
}
