package server

import "testing"

// Only the mysql database's own tables are answered, and only where the
// statement names the mysql database or runs in it.
func TestSystemSchemaResult(t *testing.T) {
	for _, c := range []struct {
		database, query string
		answered        bool
		rows            int
	}{
		{"mysql", "SHOW CREATE TABLE `general_log`", true, 1},
		{"shop", "show create table mysql.slow_log;", true, 1},
		{"shop", "SHOW CREATE TABLE general_log", false, 0},
		{"mysql", "CREATE TABLE IF NOT EXISTS `general_log` (\n  `event_time` timestamp(6) NOT NULL", true, 0},
		{"mysql", "DROP TABLE IF EXISTS `user`", true, 0},
		{"mysql", "CREATE TABLE `db` (\n  `Host` char(255)", true, 0},
		{"", "DROP TABLE IF EXISTS mysql.tables_priv;", true, 0},
		{"mysql", "CREATE TABLE mine (a INT)", false, 0},
		{"mysql", "DROP TABLE user", false, 0},
		{"shop", "DROP TABLE IF EXISTS user", false, 0},
		{"mysql", "SELECT * FROM user", false, 0},
	} {
		res, ok := systemSchemaResult(c.database, c.query)
		if ok != c.answered || (ok && len(res.Rows) != c.rows) {
			t.Errorf("in %q, %q: answered %v, %v; want %v with %d rows", c.database, c.query, ok, res, c.answered, c.rows)
		}
	}
}
