package differential

import (
	gosql "database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// LOAD DATA LOCAL reads the same files into the same rows as MariaDB:
// escapes, \N and the word NULL, quoted fields with separators, doubled
// quotes and line breaks, CRLF lines, IGNORE LINES, LINES STARTING BY, a
// column list in another order and decimals rounded to the scale.
func TestLoadDataMatchesMariaDB(t *testing.T) {
	lake, maria, _ := pairedDatabases(t, "loaddata")
	servertest.Exec(t, lake, "SET GLOBAL local_infile = 1")

	for i, c := range []struct {
		content, clauses string
	}{
		{"1\ta\\tb\t1.50\t2024-01-02\n2\t\\N\t\\N\t\\N\n3\tNULL\t-0.5\t2024-02-29\n4\tx\\\\y\\Nz\t1.005\t2024-12-31\n5\t\t0\t2024-01-01", ""},
		{"id,a,d,dt\r\n1,\"a,b\",1.00,2024-01-01\r\n2,\"say \"\"hi\"\"\",2.50,2024-01-02\r\n3,NULL,NULL,NULL\r\n4,\"NULL\",3,2024-01-03\r\n5,\"two\r\nlines\",4,2024-01-04\r\n6,a\"b,5,2024-01-05\r\n",
			`FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\r\n' IGNORE 1 LINES`},
		{"junk>>2024-01-05\t7\t9.99\tq\n>>2024-01-06\t8\t0.01\tr\n", `LINES STARTING BY '>>' (dt, id, d, a)`},
	} {
		name := filepath.Join(t.TempDir(), "in.txt")
		if err := os.WriteFile(name, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		table := "t" + string(rune('0'+i))
		var answers [][]string
		for _, conn := range []*gosql.DB{lake, maria} {
			servertest.Exec(t, conn, "CREATE TABLE "+table+" (id INT NOT NULL, a VARCHAR(20), d DECIMAL(10,2), dt DATE, PRIMARY KEY (id))",
				"LOAD DATA LOCAL INFILE '"+name+"' INTO TABLE "+table+" "+c.clauses)
			answers = append(answers, servertest.Column[string](t, conn, "SELECT CONCAT_WS('|', id, COALESCE(a, 'NULL'), "+
				"COALESCE(HEX(a), 'NULL'), COALESCE(d, 'NULL'), COALESCE(dt, 'NULL')) FROM "+table+" ORDER BY id"))
		}
		if !slices.Equal(answers[0], answers[1]) || len(answers[0]) == 0 {
			t.Errorf("LOAD DATA %s of %q:\nlakesql %q\nMariaDB %q", c.clauses, c.content, answers[0], answers[1])
		}
	}
}
