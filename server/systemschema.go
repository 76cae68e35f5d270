package server

import (
	"regexp"
	"slices"
	"strings"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// mysqlLogTables are MySQL 8.0's definitions of mysql.general_log and
// mysql.slow_log, the CSV tables the server logs to when log_output
// is TABLE. go-mysql-server's mysql database has neither, but mysqldump
// --all-databases asks for both when it dumps the mysql database (SHOW
// CREATE TABLE, whatever SHOW TABLES said), and its output creates them
// (CREATE TABLE IF NOT EXISTS) when it is loaded: without them the dump
// stopped with 1146 and the reload failed. lakesql logs nowhere in
// tables, so both are always empty.
var mysqlLogTables = map[string]string{
	"general_log": "CREATE TABLE `general_log` (\n" +
		"  `event_time` timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),\n" +
		"  `user_host` mediumtext NOT NULL,\n" +
		"  `thread_id` bigint unsigned NOT NULL,\n" +
		"  `server_id` int unsigned NOT NULL,\n" +
		"  `command_type` varchar(64) NOT NULL,\n" +
		"  `argument` mediumblob NOT NULL\n" +
		") ENGINE=CSV DEFAULT CHARSET=utf8mb3 COMMENT='General log'",
	"slow_log": "CREATE TABLE `slow_log` (\n" +
		"  `start_time` timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),\n" +
		"  `user_host` mediumtext NOT NULL,\n" +
		"  `query_time` time(6) NOT NULL,\n" +
		"  `lock_time` time(6) NOT NULL,\n" +
		"  `rows_sent` int NOT NULL,\n" +
		"  `rows_examined` int NOT NULL,\n" +
		"  `db` varchar(512) NOT NULL,\n" +
		"  `last_insert_id` int NOT NULL,\n" +
		"  `insert_id` int NOT NULL,\n" +
		"  `server_id` int unsigned NOT NULL,\n" +
		"  `sql_text` mediumblob NOT NULL,\n" +
		"  `thread_id` bigint unsigned NOT NULL\n" +
		") ENGINE=CSV DEFAULT CHARSET=utf8mb3 COMMENT='Slow log'",
}

// grantTables are the tables of go-mysql-server v0.20.0's mysql
// database (mysql_db.MySQLDb), which lakesql keeps itself.
var grantTables = []string{"user", "db", "tables_priv", "procs_priv", "role_edges", "slave_master_info",
	"help_topic", "help_keyword", "help_category", "help_relation"}

var (
	// showCreateLogTable is SHOW CREATE TABLE of a log table, named
	// alone (in the mysql database) or as mysql.name.
	showCreateLogTable = regexp.MustCompile("(?is)^\\s*SHOW\\s+CREATE\\s+TABLE\\s+(`?mysql`?\\s*\\.\\s*)?`?(general_log|slow_log)`?\\s*;?\\s*$")
	// restoreSystemTable is what mysqldump --all-databases writes for each
	// table of the mysql database: DROP TABLE IF EXISTS and CREATE TABLE
	// (IF NOT EXISTS for the log tables).
	restoreSystemTable = regexp.MustCompile("(?is)^\\s*(?:DROP\\s+TABLE\\s+IF\\s+EXISTS|CREATE\\s+TABLE(?:\\s+IF\\s+NOT\\s+EXISTS)?)\\s+(`?mysql`?\\s*\\.\\s*)?`?(\\w+)`?\\s*(?:\\(|;?\\s*$)")
)

// systemSchemaResult answers the statements mysqldump --all-databases
// sends and writes about the mysql database, when query is one and
// database (the session's) or its qualifier is mysql:
//   - SHOW CREATE TABLE of a log table gets MySQL's definition;
//   - the dump's DROP TABLE IF EXISTS and CREATE TABLE of a grant or log
//     table, replayed on load, do nothing: those tables are lakesql's own
//     (accounts are restored with CREATE USER and GRANT, as the dump's
//     --system=users option writes them).
func systemSchemaResult(database, query string) (*sqltypes.Result, bool) {
	if m := showCreateLogTable.FindStringSubmatch(query); m != nil && inMySQLSchema(database, m[1]) {
		name := strings.ToLower(m[2])
		return &sqltypes.Result{
			Fields: []*querypb.Field{{Name: "Table", Type: querypb.Type_VARCHAR}, {Name: "Create Table", Type: querypb.Type_VARCHAR}},
			Rows:   [][]sqltypes.Value{{sqltypes.NewVarChar(name), sqltypes.NewVarChar(mysqlLogTables[name])}},
		}, true
	}
	if m := restoreSystemTable.FindStringSubmatch(query); m != nil && inMySQLSchema(database, m[1]) {
		name := strings.ToLower(m[2])
		if _, log := mysqlLogTables[name]; log || slices.Contains(grantTables, name) {
			return &sqltypes.Result{}, true
		}
	}
	return nil, false
}

// inMySQLSchema reports whether a statement's table is in the mysql
// database: qualified so, or unqualified in a session using it.
func inMySQLSchema(database, qualifier string) bool {
	return qualifier != "" || strings.EqualFold(database, "mysql")
}
