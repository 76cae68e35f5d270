package sqlbackend

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// GMS completes an INSERT IGNORE after every row. Each row used to become
// its own data file, compacted inline at once: a statement of n rows wrote
// about 2n files. The statement's rows now become files when it ends.
func TestInsertIgnoreWritesFilesOncePerStatement(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	var values []string
	for i := range int64(200) {
		values = append(values, "('2026-04-16', "+itoa(i)+", 1.00, 'SUCCESS')")
	}
	c.mustExec("INSERT IGNORE INTO payments VALUES " + strings.Join(values, ","))
	wantRows(t, c, "SELECT COUNT(*), COUNT(DISTINCT pay_id), SUM(amount) FROM payments", "[200 200 200.00]")
	// Two buckets: one file each; the inline compaction has nothing to
	// merge in a bucket of one file.
	if files := dataFiles(t, warehouse); len(files) > 2 {
		t.Fatalf("one INSERT IGNORE of 200 rows wrote %d data files: %v", len(files), files)
	}
}

// A statement that fails changes nothing, as in InnoDB, also under
// IGNORE, where GMS checkpoints after every row: the rows before the
// failing one are undone with it, and the transaction's earlier
// statements stay.
func TestFailedInsertIgnoreIsUndoneWhole(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", "INSERT INTO payments VALUES ('2026-04-16', 1, 1.00, '{}'), ('2026-04-16', 2, 2.00, 'x')")
	c.mustExec("BEGIN", "INSERT INTO payments VALUES ('2026-04-16', 3, 3.00, '[]')")
	// Row 1's status is JSON, row 2's is not: the statement fails on its
	// second row, an error IGNORE does not turn into a warning.
	if _, err := c.query("INSERT IGNORE INTO payments SELECT dt, pay_id + 10, amount, JSON_EXTRACT(status, '$') FROM payments WHERE pay_id < 3 ORDER BY pay_id"); err == nil {
		t.Fatal("JSON_EXTRACT of text that is not JSON succeeded")
	}
	c.mustExec("COMMIT")
	wantRows(t, c, "SELECT pay_id FROM payments ORDER BY pay_id", "[1]", "[2]", "[3]")
}

// dataFiles lists the data files under dir.
func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	var data []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "data-") {
			data = append(data, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}
