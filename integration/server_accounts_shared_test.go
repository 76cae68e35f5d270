package integration

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestServersShareAccounts: two servers on one warehouse (a directory, or
// a bucket prefix with LAKESQL_IT_WAREHOUSE=s3) create users and grant
// privileges at the same time, one client per statement. No change is
// lost: every user authenticates on both servers with the privileges both
// servers granted it.
func TestServersShareAccounts(t *testing.T) {
	const perServer = 6
	warehouse := newWarehouse(t)
	servers := []*lakesqlServer{startServer(t, serverConfig(warehouse)), startServer(t, serverConfig(warehouse))}
	servertest.Exec(t, servers[0].Connect(t, "root", ""), "CREATE DATABASE sales", "CREATE TABLE sales.orders (id BIGINT PRIMARY KEY, amount BIGINT)",
		"INSERT INTO sales.orders VALUES (1, 100)")
	var wg sync.WaitGroup
	for i, s := range servers {
		root := s.Connect(t, "root", "")
		privilege := []string{"SELECT", "INSERT"}[i]
		for j := range perServer {
			wg.Go(func() {
				user := fmt.Sprintf("'u%d'@'%%'", j)
				for _, stmt := range []string{
					fmt.Sprintf("CREATE USER IF NOT EXISTS %s IDENTIFIED BY 'pw'", user),
					fmt.Sprintf("GRANT %s ON sales.* TO %s", privilege, user),
				} {
					if _, err := root.Exec(stmt); err != nil {
						t.Errorf("server %d: %s: %v", i, stmt, err)
					}
				}
			})
		}
	}
	wg.Wait()
	for i, s := range servers {
		for j := range perServer {
			user := fmt.Sprintf("u%d", j)
			db := s.Connect(t, user, "pw")
			var amount int64
			if err := db.QueryRow("SELECT amount FROM sales.orders WHERE id = 1").Scan(&amount); err != nil {
				t.Errorf("server %d, %s: SELECT: %v", i, user, err)
			}
			grants := servertest.Grants(t, s.Connect(t, "root", ""), fmt.Sprintf("'%s'@'%%'", user))
			if !slices.ContainsFunc(grants, func(g string) bool { return strings.Contains(g, "GRANT SELECT, INSERT ON `sales`.*") }) {
				t.Errorf("server %d: grants of %s %q; want SELECT and INSERT on sales.*, granted on different servers", i, user, grants)
			}
		}
	}
}
