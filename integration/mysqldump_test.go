//go:build clients

package integration

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// dumpedTables are the tables TestMysqldumpAllDatabasesReloads dumps,
// with the statements that fill them: a partitioned primary-key table,
// an append table, and values mysqldump must quote and format (DECIMAL,
// DATE, DATETIME(6), quotes, backslashes, NULLs).
var dumpedTables = []struct{ name, create, insert string }{
	{"shop.orders",
		"CREATE TABLE shop.orders (region VARCHAR(8) NOT NULL, id BIGINT NOT NULL, amount DECIMAL(12,2), placed DATE, updated DATETIME(6), note VARCHAR(32), PRIMARY KEY (region, id)) PARTITION BY LIST COLUMNS (region)",
		`INSERT INTO shop.orders VALUES ('eu', 1, 10.50, '2026-04-16', '2026-04-16 10:11:12.345678', 'it''s'), ('us', 2, -0.05, '2026-12-31', NULL, 'back\\slash'), ('eu', 3, NULL, NULL, NULL, NULL)`},
	{"shop.events",
		"CREATE TABLE shop.events (ts DATETIME, kind VARCHAR(16), n INT, ratio DOUBLE)",
		"INSERT INTO shop.events VALUES ('2026-04-16 00:00:01', 'a', 1, 0.5), ('2026-04-16 00:00:01', 'a', 1, 0.5), (NULL, '', -7, NULL)"},
	{"zz_last.t",
		"CREATE TABLE zz_last.t (id INT PRIMARY KEY, v VARCHAR(16))",
		"INSERT INTO zz_last.t VALUES (1, 'after mysql')"},
}

// mysqldump --all-databases of one warehouse, loaded with the mariadb
// client into a fresh one, gives the same tables with the same rows. The
// mysql database is dumped in between (its grant and log tables), so a
// database sorted after it is dumped too.
func TestMysqldumpAllDatabasesReloads(t *testing.T) {
	for _, program := range []string{"mysqldump", "mariadb"} {
		if why := lookPath(program); why != "" {
			t.Skipf("%s is not installed (run .ci/clients): %s", program, why)
		}
	}
	source := startServer(t, serverConfig(newWarehouse(t)))
	src := source.Connect(t, "root", "")
	servertest.Exec(t, src, "CREATE DATABASE shop", "CREATE DATABASE zz_last")
	for _, tbl := range dumpedTables {
		servertest.Exec(t, src, tbl.create, tbl.insert)
	}
	dump := runTool(t, nil, "mysqldump", source.Addr, "--all-databases")

	target := startServer(t, serverConfig(newWarehouse(t)))
	runTool(t, dump, "mariadb", target.Addr)
	dst := target.Connect(t, "root", "")
	for _, tbl := range dumpedTables {
		for _, q := range []string{"SHOW CREATE TABLE " + tbl.name, "SELECT * FROM " + tbl.name + " ORDER BY 1, 2"} {
			_, want := queryStrings(t, src, q)
			_, got := queryStrings(t, dst, q)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
				t.Errorf("%s after the reload:\n%q\nwant\n%q", q, got, want)
			}
		}
	}
}

// runTool runs a MariaDB client program against addr with stdin and
// returns its output; any failure or message on stderr fails the test,
// except mysqldump's notes that SHOW TABLE STATUS lists no mysql table.
func runTool(t *testing.T, stdin []byte, program, addr string, args ...string) []byte {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	argv := append([]string{"--no-defaults", "-h", host, "-P", port, "-u", "root", "--skip-ssl"}, args...)
	ctx, cancel := context.WithTimeout(context.Background(), clientsTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, argv...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", program, err, errOut.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
		if line != "" && !strings.HasPrefix(line, "Error: Couldn't read status information for table ") {
			t.Errorf("%s: %s", program, line)
		}
	}
	return out.Bytes()
}
