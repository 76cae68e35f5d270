package sqlbackend

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

func TestCreateShowAlterDropTable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE shop", "USE shop")
	c.mustExec(`CREATE TABLE orders (
		dt VARCHAR(10) NOT NULL,
		order_id BIGINT NOT NULL,
		amount DECIMAL(12,2),
		paid BOOLEAN,
		note TEXT COMMENT 'free text',
		PRIMARY KEY (dt, order_id)
	) COMMENT 'paimon:{"merge-engine":"partial-update"} orders by day'
	PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (order_id) SUBPARTITIONS 4`)
	tb, err := h.backend.OpenTable(context.Background(), "shop", "orders")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tb.LatestSchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.PartitionKeys, ","); got != "dt" {
		t.Errorf("partition keys %q", got)
	}
	if s.Options["bucket"] != "4" || s.Options["bucket-key"] != "order_id" || s.Options["merge-engine"] != "partial-update" {
		t.Errorf("options %v", s.Options)
	}
	show := c.mustQuery("SHOW CREATE TABLE orders")[0][1].(string)
	for _, want := range []string{"PARTITION BY LIST COLUMNS", "SUBPARTITIONS 4", "partial-update", "orders by day"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, show)
		}
	}
	// The shown DDL recreates the same table.
	c.mustExec("CREATE DATABASE shop2", "USE shop2", show)
	again := c.mustQuery("SHOW CREATE TABLE orders")[0][1].(string)
	if again != show {
		t.Errorf("recreated table shows\n%s\nwant\n%s", again, show)
	}
	c.mustExec("USE shop",
		"INSERT INTO orders (dt, order_id, amount, paid) VALUES ('2026-04-16', 1, 5.00, true)",
		"ALTER TABLE orders ADD COLUMN channel VARCHAR(20)",
		"ALTER TABLE orders RENAME COLUMN note TO remark",
		"ALTER TABLE orders DROP COLUMN paid")
	wantRows(t, c, "SELECT order_id, amount, remark, channel FROM orders", "[1 5.00 <nil> <nil>]")
	c.mustExec("DROP TABLE orders")
	if _, err := c.query("SELECT * FROM orders"); err == nil {
		t.Fatal("dropped table still readable")
	}
}

func TestCreateTableRejectsWhatPaimonCannotHold(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d")
	cases := map[string]string{
		"CREATE TABLE `a$b` (x INT)": "$",
		"CREATE TABLE r (x INT) PARTITION BY RANGE (x) (PARTITION p0 VALUES LESS THAN (10))": "RANGE",
		"CREATE TABLE e (x ENUM('a','b'))":                                                   "enum",
		"CREATE TABLE k (x INT PRIMARY KEY, dt DATE) PARTITION BY LIST COLUMNS (dt)":         "partition",
	}
	for q, want := range cases {
		_, err := c.query(q)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			t.Errorf("%s: %v, want an error mentioning %q", q, err, want)
		}
	}
	if names := c.mustQuery("SHOW TABLES"); len(names) != 0 {
		t.Errorf("failed CREATE TABLEs left tables behind: %v", names)
	}
}

func TestAlterTableOptions(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE shop", "USE shop",
		"CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20)) COMMENT 'catalog items'")
	c.mustExec(`ALTER TABLE items COMMENT 'paimon:{"snapshot.num-retained.max":"50"} item master'`)
	tb, err := h.backend.OpenTable(context.Background(), "shop", "items")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tb.LatestSchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != 1 || s.Options["snapshot.num-retained.max"] != "50" || s.Comment == nil || *s.Comment != "item master" {
		t.Fatalf("after ALTER … COMMENT: schema %d options %v comment %v", s.ID, s.Options, s.Comment)
	}
	if _, err := c.query("ALTER TABLE items COMMENT 'x', ADD COLUMN y INT"); err == nil {
		t.Error("mixing table options and column changes succeeded")
	}
}

func TestCatalogStatements(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay")
	if got := format(c.mustQuery("SHOW DATABASES")); !slices.Contains(got, "[pay]") {
		t.Errorf("SHOW DATABASES: %v", got)
	}
	wantRows(t, c, "SHOW TABLES", "[payments]")
	desc := format(c.mustQuery("DESCRIBE payments"))
	if len(desc) != 4 || !strings.HasPrefix(desc[0], "[dt longtext NO PRI") || !strings.HasPrefix(desc[2], "[amount decimal(18,2) YES") {
		t.Errorf("DESCRIBE payments: %v", desc)
	}
	index := format(c.mustQuery("SHOW INDEX FROM payments"))
	if len(index) != 2 || !strings.Contains(index[0], "PRIMARY") || !strings.Contains(index[1], "pay_id") {
		t.Errorf("SHOW INDEX: %v", index)
	}
	wantRows(t, c, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'pay' AND table_name = 'payments' ORDER BY ordinal_position",
		"[dt longtext]", "[pay_id bigint]", "[amount decimal]", "[status longtext]")
	wantRows(t, c, "SELECT table_name, table_rows FROM information_schema.tables WHERE table_schema = 'pay'", "[payments 0]")
}

// The sys database holds only the procedures the provider answers: any
// other name is MySQL's 1305, and sys takes no procedures of its own.
func TestUnknownSysProcedure(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	for _, q := range []string{"CALL sys.nosuch()", "CALL SYS.nosuch('db.t', 1)"} {
		_, err := c.query(q)
		if sent := sql.CastSQLError(err); err == nil || sent.Num != mysql.ERSPDoesNotExist || sent.State != mysql.SSClientError ||
			sent.Message != "PROCEDURE sys.nosuch does not exist" {
			t.Errorf("%s: %v, want error 1305 (42000) PROCEDURE sys.nosuch does not exist", q, err)
		}
	}
	c.mustExec("DROP PROCEDURE IF EXISTS sys.nosuch")
	if _, err := c.query("CREATE PROCEDURE sys.p() SELECT 1"); err == nil || sql.CastSQLError(err).Num != mysql.ERNotSupportedYet {
		t.Errorf("CREATE PROCEDURE in sys: %v, want error 1235", err)
	}
}

// What a Paimon file index cannot be (UNIQUE, FULLTEXT), CHECK
// constraints, and index clauses mixed with other ALTER clauses are
// refused with 1235 before anything of the statement runs: GMS creates
// indexes and checks after the table, which used to leave the table
// behind, and applies ALTER clauses one schema change at a time.
func TestSecondaryIndexesAreRefused(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d", "CREATE TABLE p (id INT PRIMARY KEY, v INT)")
	refused := map[string]string{
		"CREATE TABLE a (id INT PRIMARY KEY, v INT, UNIQUE KEY uv (v))":                    "UNIQUE indexes",
		"CREATE TABLE a (id INT PRIMARY KEY, v INT UNIQUE)":                                "UNIQUE indexes",
		"CREATE TABLE a (id INT PRIMARY KEY, v INT, FULLTEXT KEY ft (v))":                  "FULLTEXT",
		"CREATE TABLE a (id INT PRIMARY KEY, v INT, CHECK (v > 0))":                        "CHECK constraints are not supported yet",
		"CREATE TABLE a (id INT PRIMARY KEY, v INT, KEY kv (v, id)) COMMENT 'two columns'": "several columns",
		"CREATE UNIQUE INDEX pv ON p (v)":                                                  "UNIQUE indexes",
		"ALTER TABLE p ADD CONSTRAINT u UNIQUE (v)":                                        "UNIQUE indexes",
		"ALTER TABLE p ADD COLUMN w INT, ADD INDEX pw (w)":                                 "cannot be combined",
		"ALTER TABLE p ADD INDEX pv (v), ADD COLUMN w INT":                                 "cannot be combined",
	}
	for q, want := range refused {
		_, err := c.query(q)
		if sent := sql.CastSQLError(err); err == nil || sent.Num != mysql.ERNotSupportedYet || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want 1235 %q", q, err, want)
		}
	}
	wantRows(t, c, "SHOW TABLES", "[p]")
	wantRows(t, c, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'p' ORDER BY ORDINAL_POSITION", "[id]", "[v]")
	wantRows(t, c, "SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_NAME = 'p'", "[PRIMARY]")
	if _, err := c.query("DROP INDEX pv ON p"); err == nil || sql.CastSQLError(err).Num != mysql.ERCantDropFieldOrKey {
		t.Errorf("DROP INDEX of no index: %v, want 1091", err)
	}
	// The refused names are free: nothing of the refused statements was made.
	c.mustExec("CREATE TABLE a (id INT PRIMARY KEY, v INT)", "ALTER TABLE p ADD COLUMN w INT")
}
