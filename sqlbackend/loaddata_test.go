package sqlbackend

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// loadFile writes content to a file and returns its name.
func loadFile(t *testing.T, content string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// LOAD DATA reads MySQL's input format into Paimon values: escapes,
// quoted fields, NULLs, a column list in another order, IGNORE LINES.
func TestLoadDataReadsMySQLFormat(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	tsv := loadFile(t, "2026-04-16\t1\t1.50\tOK\\tNOW\n2026-04-16\t2\t\\N\tNULL\n")
	c.mustExec("LOAD DATA INFILE '" + tsv + "' INTO TABLE payments")
	csv := loadFile(t, "pay_id,dt,status,amount\n3,2026-04-17,\"a,b\"\"c\",0.005\n4,2026-04-17,NULL,-7\n")
	c.mustExec("LOAD DATA INFILE '" + csv + "' INTO TABLE payments FIELDS TERMINATED BY ',' ENCLOSED BY '\"' IGNORE 1 LINES (pay_id, dt, status, amount)")
	wantRows(t, c, "SELECT dt, pay_id, amount, status, status IS NULL FROM payments ORDER BY pay_id",
		"[2026-04-16 1 1.50 OK\tNOW false]",
		"[2026-04-16 2 <nil> NULL false]",
		"[2026-04-17 3 0.01 a,b\"c false]",
		"[2026-04-17 4 -7.00 <nil> true]")
}

// A field the column cannot hold exactly fails the statement with MySQL's
// error number, naming the column and row, and nothing of it stays.
func TestLoadDataRefusesInexactValues(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	for _, bad := range []struct {
		line string
		code int
		text string
	}{
		{"2026-04-16\tx\t1.00\tOK", 1366, "Incorrect integer value: 'x' for column 'pay_id' at row 2"},
		{"2026-04-16\t9\t1e3\tOK", 1366, "Incorrect decimal value: '1e3' for column 'amount' at row 2"},
		{"2026-04-16\t9\t1.00", 1261, "Row 2 doesn't contain data for all columns"},
		{"2026-04-16\t\\N\t1.00\tOK", 1048, "Column 'pay_id' cannot be null"},
	} {
		name := loadFile(t, "2026-04-16\t1\t1.00\tOK\n"+bad.line+"\n")
		_, err := c.query("LOAD DATA INFILE '" + name + "' INTO TABLE payments")
		var se *mysql.SQLError
		if !errors.As(err, &se) || se.Num != bad.code || !strings.Contains(se.Message, bad.text) {
			t.Errorf("%q: got %v, want %d %s", bad.line, err, bad.code, bad.text)
		}
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[0]")
}

// Under secure_file_priv, LOAD DATA reads only files inside that
// directory: not a sibling sharing its name as a prefix, nor a link out.
func TestLoadDataStaysUnderSecureFilePriv(t *testing.T) {
	root := t.TempDir()
	files, sibling := filepath.Join(root, "files"), filepath.Join(root, "files2")
	for _, d := range []string{files, sibling} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	row := []byte("2026-04-16\t1\t1.00\tOK\n")
	for _, f := range []string{filepath.Join(files, "in.tsv"), filepath.Join(sibling, "in.tsv")} {
		if err := os.WriteFile(f, row, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(sibling, "in.tsv"), filepath.Join(files, "link.tsv")); err != nil {
		t.Fatal(err)
	}
	_, old, _ := sql.SystemVariables.GetGlobal("secure_file_priv")
	setSecureFilePriv(t, files)
	t.Cleanup(func() { setSecureFilePriv(t, old) })

	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	// A missing file outside is refused the same way: the error says
	// nothing of what exists there.
	for _, outside := range []string{filepath.Join(sibling, "in.tsv"), filepath.Join(files, "..", "files2", "in.tsv"),
		filepath.Join(files, "link.tsv"), filepath.Join(sibling, "missing.tsv")} {
		// The second statement sets a column: GMS runs it.
		for _, q := range []string{"LOAD DATA INFILE '" + outside + "' INTO TABLE payments",
			"LOAD DATA INFILE '" + outside + "' INTO TABLE payments SET status = 'X'"} {
			if _, err := c.query(q); err == nil || !sql.ErrSecureFilePriv.Is(err) {
				t.Errorf("%s: got %v, want the secure_file_priv error", q, err)
			}
		}
	}
	c.mustExec("LOAD DATA INFILE '" + filepath.Join(files, "in.tsv") + "' INTO TABLE payments")
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[1]")
}

func setSecureFilePriv(t *testing.T, dir any) {
	if err := sql.SystemVariables.AssignValues(map[string]any{"secure_file_priv": dir}); err != nil {
		t.Fatal(err)
	}
}

// A bad line after several batches of good ones fails the load, numbered
// by its row, and leaves nothing of it.
func TestLoadDataFailingLateLeavesNothing(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		amount := "1.00"
		if i == 4000 {
			amount = "one"
		}
		fmt.Fprintf(&b, "2026-04-16\t%d\t%s\tOK\n", i, amount)
	}
	_, err := c.query("LOAD DATA INFILE '" + loadFile(t, b.String()) + "' INTO TABLE payments")
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != 1366 || !strings.Contains(se.Message, "for column 'amount' at row 4000") {
		t.Fatalf("got %v", err)
	}
	wantRows(t, c, "SELECT COUNT(*) FROM payments", "[0]")
	c.mustExec("LOAD DATA INFILE '" + loadFile(t, strings.ReplaceAll(b.String(), "one", "2.00")) + "' INTO TABLE payments")
	wantRows(t, c, "SELECT COUNT(*), SUM(amount) FROM payments", "[5000 5001.00]")
}

// An append table (no primary key) takes a load too, duplicates kept.
func TestLoadDataIntoAppendTable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, false)
	c := h.connect()
	c.mustExec("USE pay")
	name := loadFile(t, "2026-04-16\t1\t1.00\tOK\n2026-04-16\t1\t1.00\tOK\n2026-04-17\t2\t\\N\t\\N\n")
	c.mustExec("LOAD DATA INFILE '" + name + "' INTO TABLE payments")
	wantRows(t, c, "SELECT dt, pay_id, amount, status FROM payments ORDER BY dt, pay_id",
		"[2026-04-16 1 1.00 OK]", "[2026-04-16 1 1.00 OK]", "[2026-04-17 2 <nil> <nil>]")
}
