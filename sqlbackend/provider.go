package sqlbackend

import (
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
)

// SysDatabase is the database `CALL sys.<procedure>(…)` resolves through:
// GMS resolves a CALL's qualifier as a database (go-mysql-server.md §5).
const SysDatabase = "sys"

// Provider is the GMS database provider of a warehouse.
type Provider struct {
	backend *Backend
	// builtins are the backend's own procedures; procedures (may be nil)
	// are the sys procedures the server adds.
	builtins   *sql.ExternalStoredProcedureRegistry
	procedures sql.ExternalStoredProcedureProvider
}

var (
	_ sql.MutableDatabaseProvider         = (*Provider)(nil)
	_ sql.ExternalStoredProcedureProvider = (*Provider)(nil)
)

// NewProvider returns the provider of the backend's warehouse; procedures
// (may be nil) answers CALL statements.
func NewProvider(b *Backend, procedures sql.ExternalStoredProcedureProvider) *Provider {
	return &Provider{backend: b, builtins: builtinProcedures(), procedures: procedures}
}

// Backend is the warehouse the provider serves.
func (p *Provider) Backend() *Backend { return p.backend }

// Database implements sql.DatabaseProvider. Names match exactly first,
// then case-insensitively, as MySQL with lower_case_table_names=2 does.
func (p *Provider) Database(ctx *sql.Context, name string) (sql.Database, error) {
	if strings.EqualFold(name, SysDatabase) {
		return &sysDatabase{}, nil
	}
	stored, err := p.backend.databaseName(ctx, name)
	if err != nil {
		return nil, err
	}
	return &Database{backend: p.backend, name: stored}, nil
}

// databaseName finds the stored name of a database: exact match first,
// then case-insensitive.
func (b *Backend) databaseName(ctx *sql.Context, name string) (string, error) {
	// GMS resolves the current database for every statement: an exact
	// name is one stat, not a listing of the warehouse.
	if exists, err := b.catalog.DatabaseExists(ctx, name); err == nil && exists {
		return name, nil
	}
	names, err := b.catalog.ListDatabases(ctx)
	if err != nil {
		return "", mysqlerr.From(err)
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n, nil
		}
	}
	return "", sql.ErrDatabaseNotFound.New(name)
}

// HasDatabase implements sql.DatabaseProvider.
func (p *Provider) HasDatabase(ctx *sql.Context, name string) bool {
	_, err := p.Database(ctx, name)
	return err == nil
}

// AllDatabases implements sql.DatabaseProvider.
func (p *Provider) AllDatabases(ctx *sql.Context) []sql.Database {
	names, err := p.backend.catalog.ListDatabases(ctx)
	if err != nil {
		ctx.GetLogger().Warnf("listing databases: %v", err)
		return nil
	}
	dbs := make([]sql.Database, 0, len(names))
	for _, n := range names {
		dbs = append(dbs, &Database{backend: p.backend, name: n})
	}
	return dbs
}

// CreateDatabase implements sql.MutableDatabaseProvider.
func (p *Provider) CreateDatabase(ctx *sql.Context, name string) error {
	if strings.EqualFold(name, SysDatabase) {
		return sql.ErrDatabaseExists.New(name)
	}
	// MySQL's limit, which go-mysql-server checks for table and column
	// names only.
	if len(name) > sql.MaxIdentifierLength {
		return sql.ErrInvalidIdentifier.New(name)
	}
	err := p.backend.catalog.CreateDatabase(ctx, name, false)
	if errors.Is(err, catalog.ErrDatabaseExists) {
		return sql.ErrDatabaseExists.New(name)
	}
	return mysqlerr.From(err)
}

// DropDatabase implements sql.MutableDatabaseProvider. Like MySQL's, it
// drops the tables in the database too.
func (p *Provider) DropDatabase(ctx *sql.Context, name string) error {
	stored, err := p.backend.databaseName(ctx, name)
	if err != nil {
		return err
	}
	tables, _ := p.backend.catalog.ListTables(ctx, stored)
	if err := p.backend.catalog.DropDatabase(ctx, stored, false, true); err != nil {
		return mysqlerr.From(err)
	}
	for _, t := range tables {
		p.backend.forget(stored, t)
	}
	return nil
}

// ExternalStoredProcedure implements sql.ExternalStoredProcedureProvider.
func (p *Provider) ExternalStoredProcedure(ctx *sql.Context, name string, numOfParams int) (*sql.ExternalStoredProcedureDetails, error) {
	if d, err := p.builtins.LookupByNameAndParamCount(name, numOfParams); d != nil || err != nil || p.procedures == nil {
		return d, err
	}
	return p.procedures.ExternalStoredProcedure(ctx, name, numOfParams)
}

// ExternalStoredProcedures implements sql.ExternalStoredProcedureProvider.
func (p *Provider) ExternalStoredProcedures(ctx *sql.Context, name string) ([]sql.ExternalStoredProcedureDetails, error) {
	found, err := p.builtins.LookupByName(name)
	if err != nil || p.procedures == nil {
		return found, err
	}
	more, err := p.procedures.ExternalStoredProcedures(ctx, name)
	return append(found, more...), err
}

// sysDatabase holds no tables; it exists so that `CALL sys.name(…)`
// resolves its qualifier. Its procedures are the external ones the
// provider answers: GMS asks the database only for a name that is none of
// them, which is then MySQL's "PROCEDURE … does not exist" rather than
// GMS's "database doesn't support stored procedures".
type sysDatabase struct{}

var _ sql.StoredProcedureDatabase = (*sysDatabase)(nil)

// GetStoredProcedure implements sql.StoredProcedureDatabase.
func (*sysDatabase) GetStoredProcedure(_ *sql.Context, name string) (sql.StoredProcedureDetails, bool, error) {
	return sql.StoredProcedureDetails{}, false, procedureNotFound(name)
}

// GetStoredProcedures implements sql.StoredProcedureDatabase: sys holds no
// user-defined procedures.
func (*sysDatabase) GetStoredProcedures(*sql.Context) ([]sql.StoredProcedureDetails, error) {
	return nil, nil
}

// SaveStoredProcedure implements sql.StoredProcedureDatabase.
func (*sysDatabase) SaveStoredProcedure(_ *sql.Context, spd sql.StoredProcedureDetails) error {
	return unsupportedf("CREATE PROCEDURE %s.%s: the %s database holds only lakesql's own procedures", SysDatabase, spd.Name, SysDatabase)
}

// DropStoredProcedure implements sql.StoredProcedureDatabase. DROP
// PROCEDURE IF EXISTS of such a name is a no-op, as GMS recognises its
// own not-found error kind.
func (*sysDatabase) DropStoredProcedure(_ *sql.Context, name string) error {
	return sql.ErrStoredProcedureDoesNotExist.New(name)
}

// procedureNotFound is MySQL's ER_SP_DOES_NOT_EXIST for a sys procedure.
func procedureNotFound(name string) error {
	return mysql.NewSQLError(mysql.ERSPDoesNotExist, mysql.SSClientError, "PROCEDURE %s.%s does not exist", SysDatabase, name)
}

func (*sysDatabase) Name() string { return SysDatabase }

func (*sysDatabase) GetTableInsensitive(*sql.Context, string) (sql.Table, bool, error) {
	return nil, false, nil
}

func (*sysDatabase) GetTableNames(*sql.Context) ([]string, error) { return nil, nil }
