package sqlbackend

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
)

// informationSchema is go-mysql-server's information_schema database with
// the collation MySQL gives it, utf8mb3_general_ci, that of its text
// columns. go-mysql-server lists it in INFORMATION_SCHEMA.SCHEMATA with
// the server's utf8mb4 default instead; MySQL Connector/J reads that
// default and puts it in the COLLATE clauses of its metadata queries
// (IS_NULLABLE COLLATE …), so every DatabaseMetaData.getColumns failed
// with "COLLATION 'utf8mb4_0900_bin' is not valid for CHARACTER SET
// 'utf8mb3'".
type informationSchema struct{ sql.Database }

var _ sql.CollatedDatabase = informationSchema{}

// GetCollation implements sql.CollatedDatabase.
func (informationSchema) GetCollation(*sql.Context) sql.CollationID {
	return sql.Collation_utf8mb3_general_ci
}

// SetCollation implements sql.CollatedDatabase: information_schema cannot
// be altered; MySQL refuses it as a database the user has no access to.
func (i informationSchema) SetCollation(ctx *sql.Context, _ sql.CollationID) error {
	c := ctx.Session.Client()
	return sql.ErrDatabaseAccessDeniedForUser.New(fmt.Sprintf("'%s'@'%s'", c.User, c.Address), i.Name())
}
