package sysprocs

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
)

func TestAuthorize(t *testing.T) {
	orders := tableName{db: "sales", table: "orders"}
	selectOnly := mysql_db.NewPrivilegeSet()
	selectOnly.AddDatabase("sales", sql.PrivilegeType_Select, sql.PrivilegeType_Execute)
	writerOnTable := mysql_db.NewPrivilegeSet()
	writerOnTable.AddDatabase("sales", sql.PrivilegeType_Select)
	writerOnTable.AddTable("sales", "orders", sql.PrivilegeType_Insert, sql.PrivilegeType_Delete)
	insertOnly := mysql_db.NewPrivilegeSet()
	insertOnly.AddDatabase("sales", sql.PrivilegeType_Select, sql.PrivilegeType_Insert)
	global := mysql_db.NewPrivilegeSet()
	global.AddGlobalStatic(sql.PrivilegeType_Select, sql.PrivilegeType_Insert, sql.PrivilegeType_Delete)
	super := mysql_db.NewPrivilegeSet()
	super.AddGlobalStatic(sql.PrivilegeType_Super)
	otherDB := mysql_db.NewPrivilegeSet()
	otherDB.AddDatabase("hr", sql.PrivilegeType_Select, sql.PrivilegeType_Insert, sql.PrivilegeType_Delete)

	for _, tc := range []struct {
		name       string
		privileges sql.PrivilegeSet
		need       []sql.PrivilegeType
		// missing is the privileges the refusal names; "" means allowed.
		missing string
	}{
		{"no accounts", nil, needWrite, ""},
		{"select only, read", selectOnly, needRead, ""},
		{"select only, write", selectOnly, needWrite, "INSERT, DELETE command denied"},
		{"insert without delete", insertOnly, needWrite, "DELETE command denied"},
		{"write on the table", writerOnTable, needWrite, ""},
		{"global write", global, needWrite, ""},
		{"super", super, needWrite, ""},
		{"grants on another database", otherDB, needRead, "SELECT command denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := authorize(newContext("sales", tc.privileges), "compact", orders, tc.need)
			if tc.missing == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantError(t, err, erTableAccessDenied, "sys.compact", tc.missing, "'user'@'host'", "'sales.orders'")
		})
	}
}

// TestAuthorizeIgnoresCase: grants and table names match without regard
// to case, as MySQL's do with lower_case_table_names.
func TestAuthorizeIgnoresCase(t *testing.T) {
	set := mysql_db.NewPrivilegeSet()
	set.AddTable("Sales", "Orders", sql.PrivilegeType_Insert, sql.PrivilegeType_Delete)
	if err := authorize(newContext("", set), "compact", tableName{db: "sales", table: "ORDERS"}, needWrite); err != nil {
		t.Fatal(err)
	}
}

// TestWriteProceduresCheckTheTable: every procedure but wait_watermark
// refuses a SELECT-only caller before touching the table, and
// wait_watermark lets it through.
func TestWriteProceduresCheckTheTable(t *testing.T) {
	f := newFixture(t)
	f.insert(ptr(int64(100)), row("2026-04-16", 1, "a"))
	selectOnly := mysql_db.NewPrivilegeSet()
	selectOnly.AddDatabase("db", sql.PrivilegeType_Select, sql.PrivilegeType_Execute)
	ctx := newContext("db", selectOnly)
	for _, c := range []struct {
		name string
		args []any
	}{
		{"compact", []any{"db.orders"}},
		{"expire_snapshots", []any{"db.orders", int64(1), int64(1)}},
		{"create_tag", []any{"db.orders", "t1"}},
		{"delete_tag", []any{"db.orders", "t1"}},
		{"expire_tags", []any{"db.orders"}},
		{"rollback_to", []any{"db.orders", "1"}},
		{"remove_orphan_files", []any{"orders", "", true}},
		{"expire_partitions", []any{"db.orders", "1 d", "yyyy-MM-dd"}},
	} {
		_, err := f.call(ctx, c.name, c.args...)
		wantError(t, err, erTableAccessDenied, "sys."+c.name, "INSERT, DELETE command denied", "'db.orders'")
	}
	if tags, err := f.snapshots().TagNames(ctx); err != nil || len(tags) != 0 {
		t.Errorf("tags after refused calls: %v, %v", tags, err)
	}
	rows := f.mustCall(ctx, "wait_watermark", "db.orders", "100")
	if rows[0][1] != int64(1) {
		t.Errorf("wait_watermark as a SELECT user: %v, want snapshot 1", rows)
	}
}
