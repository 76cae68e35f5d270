package sqlbackend

import "testing"

// The empty string is a value like any other: a filter on it finds the
// rows holding it, though it is the smallest value of their data file.
func TestFilterOnEmptyString(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE keyed (k VARCHAR(6) PRIMARY KEY, v INT)",
		"CREATE TABLE plain (k VARCHAR(6), v INT)",
		"INSERT INTO keyed VALUES ('', 0), ('a', 1)",
		"INSERT INTO plain VALUES ('', 0), ('a', 1)")
	for _, tbl := range []string{"keyed", "plain"} {
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k = ''", "[0]")
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k IN ('', 'b')", "[0]")
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k < 'a'", "[0]")
	}
}
