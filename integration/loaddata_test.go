package integration

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/mariadbtest"
	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// LOAD DATA LOCAL over the wire: refused with MySQL's 3948 while
// local_infile is off (MySQL 8.0's default), loaded once it is on, and
// counted in the OK packet.
func TestLoadDataLocalOverTheWire(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	db := mariadbtest.OpenLoader(t, "root@tcp("+s.Addr+")/")
	servertest.Exec(t, db, "CREATE DATABASE pay", "USE pay",
		"CREATE TABLE p (id BIGINT NOT NULL, note VARCHAR(20), PRIMARY KEY (id))")
	name := filepath.Join(t.TempDir(), "p.tsv")
	if err := os.WriteFile(name, []byte("1\tone\n2\t\\N\n3\tthree\\tthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	load := "LOAD DATA LOCAL INFILE '" + name + "' INTO TABLE p"
	var se *mysql.MySQLError
	if _, err := db.Exec(load); !errors.As(err, &se) || se.Number != 3948 {
		t.Fatalf("with local_infile off: %v, want 3948", err)
	}
	servertest.Exec(t, db, "SET GLOBAL local_infile = 1")
	t.Cleanup(func() { db.Exec("SET GLOBAL local_infile = 0") })
	res, err := db.Exec(load)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 3 {
		t.Errorf("%d rows affected, want 3", n)
	}
	got := servertest.Column[string](t, db, "SELECT CONCAT(id, ':', COALESCE(note, 'NULL')) FROM p ORDER BY id")
	if want := []string{"1:one", "2:NULL", "3:three\tthree"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}
