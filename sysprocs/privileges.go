package sysprocs

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// What the procedures need on the table they act on. Writing procedures
// change what the table reads or which history it keeps, as INSERT,
// DELETE and INSERT OVERWRITE do, so they need what those statements need
// together; the watermark gate only reads.
var (
	needRead  = []sql.PrivilegeType{sql.PrivilegeType_Select}
	needWrite = []sql.PrivilegeType{sql.PrivilegeType_Insert, sql.PrivilegeType_Delete}
)

// authorize checks that the caller holds every privilege in need on the
// table, at the global, database or table level.
//
// go-mysql-server checks only EXECUTE on the database qualifying the CALL,
// which says nothing about the table argument. Procedures cannot reach the
// account tables, but go-mysql-server computes the caller's active
// privilege set when it plans each statement (the CALL included) and keeps
// it in the session, which is what is read here. A session that never had
// one belongs to an engine without accounts, where go-mysql-server allows
// everything too.
func authorize(ctx *sql.Context, proc string, t tableName, need []sql.PrivilegeType) error {
	set, counter := ctx.Session.GetPrivilegeSet()
	if counter == 0 || set == nil || set.Has(sql.PrivilegeType_Super) {
		return nil
	}
	var missing []string
	for _, priv := range need {
		db := set.Database(t.db)
		if !set.Has(priv) && !db.Has(priv) && !db.Table(t.table).Has(priv) {
			missing = append(missing, priv.String())
		}
	}
	if len(missing) == 0 {
		return nil
	}
	client := ctx.Session.Client()
	return mysql.NewSQLError(erTableAccessDenied, mysql.SSClientError,
		"sys.%s: %s command denied to user '%s'@'%s' for table '%s.%s'",
		proc, strings.Join(missing, ", "), client.User, client.Address, t.db, t.table)
}
