package server_test

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Clients get MySQL's numbers and SQLSTATEs for the errors they act on,
// over the wire (COM_QUERY, and COM_INIT_DB when connecting to a
// database), including errors lakesql raises while go-mysql-server parses.
func TestErrorNumbersAtTheWire(t *testing.T) {
	r := start(t, testConfig(t))
	root := r.Connect(t, "root", "")
	for _, stmt := range []string{
		"CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, v INT)",
		"CREATE USER reader IDENTIFIED BY 'pw'", "GRANT SELECT ON d.t TO reader",
	} {
		if _, err := root.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	reader := r.Connect(t, "reader", "pw")
	long := strings.Repeat("x", 65)
	for _, c := range []struct {
		db    *sql.DB
		stmt  string
		code  uint16
		state string
	}{
		{root, "SELEC 1", 1064, "42000"},
		{root, "SELECT * FROM d.nosuch", 1146, "42S02"},
		{root, "SELECT * FROM d.t FOR TIMESTAMP AS OF ?", 1235, "42000"},
		{root, "SELECT nosuch FROM d.t", 1054, "42S22"},
		{root, "UPDATE d.t SET nosuch = 1", 1054, "42S22"},
		{root, "USE nosuchdb", 1049, "42000"},
		{root, "CREATE DATABASE " + long, 1059, "42000"},
		{root, "CREATE TABLE d." + long + " (a INT)", 1059, "42000"},
		{root, "CALL d.nosuch()", 1305, "42000"},
		{root, "CREATE PROCEDURE d.p() SELECT 1", 1235, "42000"},
		{reader, "INSERT INTO d.t VALUES (1, 1)", 1142, "42000"},
		{reader, "CREATE USER other", 1227, "42000"},
		{reader, "DROP DATABASE d", 1044, "42000"},
	} {
		_, err := c.db.Exec(c.stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.code || string(me.SQLState[:]) != c.state {
			t.Errorf("%s: %v, want %d (%s)", c.stmt, err, c.code, c.state)
		}
	}
	err := r.Connect(t, "root", "", func(c *mysql.Config) { c.DBName = "nosuchdb" }).Ping()
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1049 || string(me.SQLState[:]) != "42000" || me.Message != "Unknown database 'nosuchdb'" {
		t.Errorf("connecting to an unknown database: %v, want 1049 (42000) Unknown database 'nosuchdb'", err)
	}
}
