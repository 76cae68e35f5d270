package rewrite

import (
	"errors"
	"testing"
)

// SET PASSWORD becomes the ALTER USER go-mysql-server parses, for a named
// account and for the session's own; other SETs are left alone.
func TestRewriteSetPassword(t *testing.T) {
	const own = "'analyst'@'%'"
	for _, c := range []struct{ in, want string }{
		{"SET PASSWORD FOR 'u'@'%' = 'new'", "ALTER USER 'u'@'%' IDENTIFIED BY 'new'"},
		{"set password for u@localhost='it''s'", "ALTER USER u@localhost IDENTIFIED BY 'it''s'"},
		{"SET PASSWORD FOR `u` = \"pw\";", "ALTER USER `u` IDENTIFIED BY \"pw\";"},
		{"SET PASSWORD = 'mine'", "ALTER USER " + own + " IDENTIFIED BY 'mine'"},
		{"SELECT 1; SET PASSWORD = 'mine'", "SELECT 1; ALTER USER " + own + " IDENTIFIED BY 'mine'"},
		{"SET @password = 'x'", "SET @password = 'x'"},
		{"SET autocommit = 1", "SET autocommit = 1"},
	} {
		got, err := RewriteAs(c.in, own)
		if err != nil || got.Query != c.want {
			t.Errorf("RewriteAs(%q) = %q, %v; want %q", c.in, got.Query, err, c.want)
		}
	}
}

func TestRewriteSetPasswordErrors(t *testing.T) {
	for in, class := range map[string]error{
		"SET PASSWORD FOR u = PASSWORD('x')": ErrSyntax,
		"SET PASSWORD FOR = 'x'":             ErrSyntax,
		"SET PASSWORD FOR u 'x'":             ErrSyntax,
		"SET PASSWORD = 'x' 'y'":             ErrSyntax,
	} {
		if _, err := RewriteAs(in, "'a'@'%'"); !errors.Is(err, class) {
			t.Errorf("RewriteAs(%q): %v, want %v", in, err, class)
		}
	}
	if _, err := Rewrite("SET PASSWORD = 'x'"); err == nil {
		t.Error("SET PASSWORD without FOR and without a session: no error")
	}
}
