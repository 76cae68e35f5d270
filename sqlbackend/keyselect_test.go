package sqlbackend

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

func shapeOf(t *testing.T, query string) (keyShape, bool) {
	t.Helper()
	stmt, err := sql.GlobalParser.ParseSimple(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return keyShapeOf(stmt, "shop", nil)
}

// Only SELECTs of columns from one table under a WHERE of comparisons of
// columns with literals, maybe ordered by columns and limited, have a
// shape.
func TestKeyShapes(t *testing.T) {
	accepted := []string{
		"SELECT * FROM pay WHERE dt = '2024-01-01' AND pay_id = 1",
		"SELECT p.* FROM shop.pay p WHERE p.pay_id = -5",
		"SELECT pay_id AS id, `amount` FROM pay WHERE 7 = pay_id LIMIT 1",
		"SELECT note FROM orders WHERE region = 'eu' AND order_id = 18446744073709551615",
		"SELECT * FROM pay WHERE dt = '2024-01-01' AND pay_id BETWEEN 1 AND 100 ORDER BY pay_id",
		"SELECT * FROM pay WHERE pay_id >= 1 AND 5 > pay_id ORDER BY dt DESC, pay.pay_id LIMIT 3",
	}
	for _, q := range accepted {
		if _, ok := shapeOf(t, q); !ok {
			t.Errorf("no shape: %s", q)
		}
	}
	refused := []string{
		"SELECT pay_id + 1 FROM pay WHERE pay_id = 1",
		"SELECT COUNT(*) FROM pay WHERE pay_id = 1",
		"SELECT DISTINCT pay_id FROM pay WHERE pay_id = 1",
		"SELECT * FROM pay WHERE pay_id = 1 OR pay_id = 2",
		"SELECT * FROM pay WHERE pay_id NOT BETWEEN 1 AND 2",
		"SELECT * FROM pay WHERE pay_id <> 1",
		"SELECT * FROM pay WHERE pay_id <=> 1",
		"SELECT * FROM pay WHERE pay_id BETWEEN amount AND 2",
		"SELECT * FROM pay WHERE pay_id = 1 ORDER BY 1",
		"SELECT * FROM pay WHERE pay_id = 1 ORDER BY pay_id + 1",
		"SELECT * FROM pay WHERE pay_id = 1.5",
		"SELECT * FROM pay WHERE pay_id = NULL",
		"SELECT * FROM pay WHERE pay_id = x'01'",
		"SELECT * FROM pay WHERE status = _latin1'paid'",
		"SELECT * FROM pay WHERE pay_id = amount",
		"SELECT * FROM pay WHERE other.pay_id = 1",
		"SELECT * FROM pay p WHERE pay.pay_id = 1",
		"SELECT * FROM pay WHERE pay_id = 1 FOR UPDATE",
		"SELECT * FROM pay, orders WHERE pay_id = 1",
		"SELECT * FROM pay AS OF '2024-01-01' WHERE pay_id = 1",
		"SELECT * FROM `pay$snapshots` WHERE snapshot_id = 1",
		"SELECT * FROM pay WHERE pay_id = (SELECT 1)",
		"SELECT * FROM pay WHERE pay_id IN (1)",
		"SELECT * FROM pay",
		"SELECT SQL_CALC_FOUND_ROWS * FROM pay WHERE pay_id = 1",
		"SELECT * FROM pay WHERE pay_id = 1 LIMIT 1 OFFSET 1",
	}
	for _, q := range refused {
		if _, ok := shapeOf(t, q); ok {
			t.Errorf("has a shape: %s", q)
		}
	}
}

// Statements share a shape exactly when they differ only in their
// literals' values.
func TestKeyShapeKeys(t *testing.T) {
	same := [][2]string{
		{"SELECT * FROM pay WHERE dt = '2024-01-01' AND pay_id = 1", "SELECT * FROM pay WHERE dt = '2025-12-31' AND pay_id = -99"},
		{"SELECT a AS c0 FROM t WHERE k = 1", "select a as c0 from t where k = 2"},
		{"SELECT * FROM t WHERE k > 1 ORDER BY k", "SELECT * FROM t WHERE 7 < k ORDER BY k"},
	}
	for _, p := range same {
		if key(t, p[0]) != key(t, p[1]) {
			t.Errorf("different shapes:\n%s\n%s", p[0], p[1])
		}
	}
	different := [][2]string{
		{"SELECT a AS c0 FROM t WHERE k = 1", "SELECT b AS c0 FROM t WHERE k = 1"},
		{"SELECT a FROM t WHERE k = 1", "SELECT A FROM t WHERE k = 1"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM t WHERE k = '1'"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM u WHERE k = 1"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM other.t WHERE k = 1"},
		{"SELECT * FROM t WHERE k = 1 AND j = 2", "SELECT * FROM t WHERE j = 2 AND k = 1"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM t WHERE k = 1 LIMIT 1"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM t x WHERE k = 1"},
		{"SELECT * FROM t WHERE k = 1", "SELECT * FROM t WHERE k >= 1"},
		{"SELECT * FROM t WHERE k < 1", "SELECT * FROM t WHERE 1 < k"},
		{"SELECT * FROM t WHERE k BETWEEN 1 AND 2", "SELECT * FROM t WHERE k BETWEEN 1 AND '2'"},
		{"SELECT * FROM t WHERE k = 1 ORDER BY k", "SELECT * FROM t WHERE k = 1 ORDER BY k DESC"},
		{"SELECT * FROM t WHERE k = 1 ORDER BY k", "SELECT * FROM t WHERE k = 1"},
	}
	for _, p := range different {
		if key(t, p[0]) == key(t, p[1]) {
			t.Errorf("one shape:\n%s\n%s", p[0], p[1])
		}
	}
}

func key(t *testing.T, query string) string {
	t.Helper()
	s, ok := shapeOf(t, query)
	if !ok {
		t.Fatalf("no shape: %s", query)
	}
	return s.key("")
}

// A prepared statement's parameters take the literals bound to them, and
// its shapes are kept apart from those of texts.
func TestPreparedKeyShapes(t *testing.T) {
	stmt, err := sql.GlobalParser.ParseSimple("SELECT * FROM pay WHERE dt = ? AND pay_id = ?")
	if err != nil {
		t.Fatal(err)
	}
	bound := map[string]ast.Expr{":v1": ast.NewStrVal([]byte("2024-01-01")), ":v2": ast.NewIntVal([]byte("7"))}
	bind := func(name string) (ast.Expr, bool) { e, ok := bound[name]; return e, ok }
	shape, ok := keyShapeOf(stmt, "shop", bind)
	if !ok || shape.conditions[0].literals[0] != (keyLiteral{text: "2024-01-01"}) || shape.conditions[1].literals[0] != (keyLiteral{integer: true, text: "7"}) {
		t.Fatalf("bound shape %v, %+v", ok, shape.conditions)
	}
	if _, ok := keyShapeOf(stmt, "shop", nil); ok {
		t.Error("parameters without values have a shape")
	}
	if text := key(t, "SELECT * FROM pay WHERE dt = '2024-01-01' AND pay_id = 7"); text == shape.key("") {
		t.Error("a prepared statement shares its shape with a text")
	}
	bound[":v2"] = &ast.NullVal{}
	if _, ok := keyShapeOf(stmt, "shop", bind); ok {
		t.Error("a NULL parameter has a shape")
	}
}
