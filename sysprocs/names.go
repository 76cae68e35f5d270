package sysprocs

import (
	"context"
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/storage/catalog"
)

// tableRef is a resolved table: its names as stored, and its directory.
type tableRef struct {
	db, table string
	dir       string
}

func (t tableRef) String() string { return t.db + "." + t.table }

// tableName is a table as a procedure argument names it, before it is
// resolved; db is the current database when the argument names none.
type tableName struct {
	db, table string
}

// parseTableName reads 'db.t', 't', or either part backquoted as MySQL
// quotes identifiers (a doubled backquote inside stands for one), so that
// a name holding a dot can be given.
func parseTableName(proc, arg, currentDB string) (tableName, error) {
	parts, ok := splitIdentifiers(arg)
	if !ok || len(parts) == 0 || len(parts) > 2 {
		return tableName{}, badArgument(proc, "table %q is not a table name; write 'db.table', 'table' or `db`.`table`", arg)
	}
	if len(parts) == 2 {
		return tableName{db: parts[0], table: parts[1]}, nil
	}
	if currentDB == "" {
		return tableName{}, mysql.NewSQLError(mysql.ERNoDb, mysql.SSNoDB,
			"sys.%s: no database selected; name the table as 'db.%s'", proc, parts[0])
	}
	return tableName{db: currentDB, table: parts[0]}, nil
}

// splitIdentifiers splits s at the dots outside backquotes. Unquoted parts
// are trimmed; an empty part, or text around a quoted one, is malformed.
func splitIdentifiers(s string) ([]string, bool) {
	var parts []string
	rest := strings.TrimSpace(s)
	for {
		var part string
		if strings.HasPrefix(rest, "`") {
			var ok bool
			if part, rest, ok = cutQuoted(rest[1:]); !ok {
				return nil, false
			}
			rest = strings.TrimSpace(rest)
		} else {
			end := strings.IndexAny(rest, ".`")
			if end < 0 {
				end = len(rest)
			}
			if rest[end:] != "" && rest[end] == '`' {
				return nil, false
			}
			part, rest = strings.TrimSpace(rest[:end]), rest[end:]
		}
		if part == "" {
			return nil, false
		}
		parts = append(parts, part)
		if rest == "" {
			return parts, true
		}
		if rest[0] != '.' {
			return nil, false
		}
		rest = strings.TrimSpace(rest[1:])
	}
}

// cutQuoted reads a backquoted identifier whose opening quote is already
// consumed, returning it unescaped and the text after the closing quote.
func cutQuoted(s string) (ident, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '`' {
			b.WriteByte('`')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}

// resolve finds the table as the SQL layer does: the exact name first,
// then one that differs only in case.
func (p *Procedures) resolve(ctx context.Context, proc string, n tableName) (tableRef, error) {
	dbs, err := p.opts.Catalog.ListDatabases(ctx)
	if err != nil {
		return tableRef{}, mysqlError(proc, err)
	}
	db, ok := matchName(dbs, n.db)
	if !ok {
		return tableRef{}, mysql.NewSQLError(mysql.ERBadDb, mysql.SSClientError, "sys.%s: unknown database '%s'", proc, n.db)
	}
	tables, err := p.opts.Catalog.ListTables(ctx, db)
	if errors.Is(err, catalog.ErrDatabaseNotFound) {
		return tableRef{}, mysql.NewSQLError(mysql.ERBadDb, mysql.SSClientError, "sys.%s: unknown database '%s'", proc, n.db)
	}
	if err != nil {
		return tableRef{}, mysqlError(proc, err)
	}
	table, ok := matchName(tables, n.table)
	if !ok {
		return tableRef{}, mysql.NewSQLError(mysql.ERNoSuchTable, mysql.SSUnknownTable,
			"sys.%s: table '%s.%s' doesn't exist", proc, db, n.table)
	}
	dir, err := p.opts.Catalog.TablePath(db, table)
	if err != nil {
		return tableRef{}, mysqlError(proc, err)
	}
	return tableRef{db: db, table: table, dir: dir}, nil
}

func matchName(names []string, want string) (string, bool) {
	for _, n := range names {
		if n == want {
			return n, true
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, want) {
			return n, true
		}
	}
	return "", false
}

// prepare reads, authorizes and resolves the table argument of a call.
// Privileges are checked on the name as given, before looking the table
// up, so that a caller cannot learn which tables exist where it may not
// act.
func (p *Procedures) prepare(ctx *sql.Context, proc, arg string, need []sql.PrivilegeType) (tableRef, error) {
	n, err := parseTableName(proc, arg, ctx.GetCurrentDatabase())
	if err != nil {
		return tableRef{}, err
	}
	if err := authorize(ctx, proc, n, need); err != nil {
		return tableRef{}, err
	}
	return p.resolve(ctx, proc, n)
}
