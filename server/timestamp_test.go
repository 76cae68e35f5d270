package server_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestTimestampColumnsOverTheWire covers findings F3 and F8 of the interop
// tests (integration/interop/FINDINGS.md) over the wire. A column declared
// TIMESTAMP(3) (Paimon TIMESTAMP(3) WITH LOCAL TIME ZONE) arrives, in text
// and binary results, with exactly three fraction digits and 3 decimals in
// its column definition, as a DATETIME(3) column does; and values outside
// MySQL's TIMESTAMP range (1970–2038), which Flink and Java write, are
// written and read back instead of failing every read of the row.
func TestTimestampColumnsOverTheWire(t *testing.T) {
	r := start(t, testConfig(t))
	db := r.Connect(t, "root", "", func(c *mysql.Config) { c.DBName = "" })
	servertest.Exec(t, db,
		"CREATE DATABASE d",
		"CREATE TABLE d.t (id INT NOT NULL, ts TIMESTAMP(3), dt DATETIME(3), PRIMARY KEY (id))",
		"INSERT INTO d.t VALUES (1, '2026-04-15 16:00:00.5', '2026-04-15 16:00:00.5'),"+
			" (2, '2026-04-16 00:00:00', '2026-04-16 00:00:00'),"+
			" (3, '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999'),"+
			" (4, '1969-07-20 20:17:40', '1969-07-20 20:17:40')")
	want := map[int]string{
		1: "2026-04-15 16:00:00.500",
		2: "2026-04-16 00:00:00.000",
		3: "9999-12-31 23:59:59.999",
		4: "1969-07-20 20:17:40.000",
	}
	check := func(t *testing.T, rows *sql.Rows, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols[1:] {
			if _, scale, ok := c.DecimalSize(); !ok || scale != 3 {
				t.Errorf("column %s (%s): DecimalSize scale %d %v, want 3", c.Name(), c.DatabaseTypeName(), scale, ok)
			}
		}
		n := 0
		for rows.Next() {
			var id int
			var ts, dt string
			if err := rows.Scan(&id, &ts, &dt); err != nil {
				t.Fatal(err)
			}
			if ts != want[id] || dt != want[id] {
				t.Errorf("row %d: ts %q dt %q, want %q", id, ts, dt, want[id])
			}
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if n != len(want) {
			t.Errorf("%d rows, want %d", n, len(want))
		}
	}
	t.Run("text", func(t *testing.T) {
		rows, err := db.Query("SELECT id, ts, dt FROM d.t ORDER BY id")
		check(t, rows, err)
	})
	t.Run("prepared", func(t *testing.T) {
		prepared := r.Connect(t, "root", "", func(c *mysql.Config) { c.InterpolateParams = false })
		rows, err := prepared.Query("SELECT id, ts, dt FROM d.t WHERE id > ? ORDER BY id", 0)
		check(t, rows, err)
	})
	t.Run("ddl", func(t *testing.T) {
		// DDL declares the column as it was created; DESCRIBE and the
		// result metadata show the datetime it is read as.
		var name, ddl string
		if err := db.QueryRow("SHOW CREATE TABLE d.t").Scan(&name, &ddl); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ddl, "`ts` timestamp(3)") || !strings.Contains(ddl, "`dt` datetime(3)") {
			t.Errorf("SHOW CREATE TABLE:\n%s", ddl)
		}
		servertest.Exec(t, db, "ALTER TABLE d.t MODIFY ts TIMESTAMP(3)", "ALTER TABLE d.t MODIFY dt DATETIME(3)")
		if err := db.QueryRow("SHOW CREATE TABLE d.t").Scan(&name, &ddl); err != nil || !strings.Contains(ddl, "`ts` timestamp(3)") {
			t.Errorf("after a MODIFY to the same type: %v\n%s", err, ddl)
		}
		if got := queryString(t, db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'd' AND TABLE_NAME = 't' AND COLUMN_NAME = 'ts'"); got != "datetime(3)" {
			t.Errorf("information_schema COLUMN_TYPE %s, want datetime(3)", got)
		}
	})
	t.Run("filters", func(t *testing.T) {
		if got := queryString(t, db, "SELECT COUNT(*) FROM d.t WHERE ts > '2038-01-20' OR ts < '1970-01-01'"); got != "2" {
			t.Errorf("out-of-range rows: %s, want 2", got)
		}
	})
}
