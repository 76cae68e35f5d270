package server_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// The 51 queries BI tools and drivers send at connect
// (testdata/bi_connect_queries.sql, one a line, from Appendix A of the
// team's clients-and-infra notes) all answer on a database with a table.
// The two AS OF a time before the table's first snapshot may instead fail
// with 1210, naming the earliest snapshot.
func TestBIConnectQueriesAnswer(t *testing.T) {
	data, err := os.ReadFile("testdata/bi_connect_queries.sql")
	if err != nil {
		t.Fatal(err)
	}
	queries := strings.Split(strings.TrimSpace(string(data)), ";\n")
	if len(queries) != 51 {
		t.Fatalf("%d queries, want Appendix A's 51", len(queries))
	}
	r := start(t, testConfig(t))
	root := r.Connect(t, "root", "")
	for _, stmt := range []string{
		"CREATE DATABASE mydb", "CREATE TABLE mydb.t2 (id INT PRIMARY KEY, amt DECIMAL(10,2), d DATE)",
		"INSERT INTO mydb.t2 VALUES (1, 2.50, '2026-01-02'), (2, 3.25, '2026-02-03')",
	} {
		if _, err := root.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db := r.Connect(t, "root", "", func(c *mysql.Config) { c.DBName = "mydb" })
	db.SetMaxOpenConns(1)
	for i, q := range queries {
		rows, err := db.Query(strings.TrimSuffix(q, ";"))
		if err == nil {
			for rows.Next() {
			}
			err = errors.Join(rows.Err(), rows.Close())
		}
		var me *mysql.MySQLError
		if strings.Contains(q, "AS OF '2024-01-01'") && errors.As(err, &me) && me.Number == 1210 &&
			strings.Contains(me.Message, "earliest available snapshot is 1") {
			continue
		}
		if err != nil {
			t.Errorf("query %d, %s: %v", i+1, q, err)
		}
	}
}
