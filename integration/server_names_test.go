package integration

import (
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestServerRejectsNamesThatEscapeTheWarehouse: database and table names
// that are paths out of the warehouse fail, create nothing, and leave the
// connection usable.
func TestServerRejectsNamesThatEscapeTheWarehouse(t *testing.T) {
	warehouse := newWarehouse(t)
	root := parentLocation(warehouse)
	s := startServer(t, serverConfig(warehouse))
	db := s.Connect(t, "root", "")
	servertest.Exec(t, db, "CREATE DATABASE ok")
	before := listTree(t, root)

	for _, statement := range []string{
		"CREATE DATABASE `..`",
		"CREATE DATABASE `../escaped`",
		"CREATE DATABASE `a/b`",
		"CREATE DATABASE `.hidden`",
		"CREATE DATABASE `nul\x00byte`",
		"CREATE TABLE ok.`..` (id BIGINT PRIMARY KEY)",
		"CREATE TABLE ok.`../../escaped` (id BIGINT PRIMARY KEY)",
		"CREATE TABLE ok.`a/b` (id BIGINT PRIMARY KEY)",
		"CREATE TABLE ok.`nul\x00byte` (id BIGINT PRIMARY KEY)",
	} {
		if _, err := db.Exec(statement); err == nil || !strings.Contains(err.Error(), "invalid") {
			t.Errorf("%q: %v, want an invalid-name error", statement, err)
		}
	}
	if after := listTree(t, root); !slices.Equal(before, after) {
		t.Errorf("rejected names changed the file system:\nbefore %q\nafter  %q", before, after)
	}
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Errorf("server after the rejected names: %v", err)
	}
}
