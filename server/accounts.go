package server

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// PrivilegesFile is where the accounts and grants made with CREATE USER and
// GRANT are kept, relative to the warehouse. Catalog databases are "<db>.db"
// directories, so this directory is never mistaken for one.
const PrivilegesFile = "_lakesql/privileges.bin"

// privilegeStore keeps go-mysql-server's serialized account tables in the
// warehouse. GMS calls Persist after every CREATE USER, GRANT, REVOKE, …
// with the whole table set, so one atomic Overwrite keeps the file whole.
type privilegeStore struct {
	fio  fileio.FileIO
	path string
}

var _ mysql_db.MySQLDbPersistence = privilegeStore{}

func newPrivilegeStore(fio fileio.FileIO, warehouse string) privilegeStore {
	return privilegeStore{fio: fio, path: path.Join(warehouse, PrivilegesFile)}
}

// Persist implements mysql_db.MySQLDbPersistence.
func (p privilegeStore) Persist(ctx *sql.Context, data []byte) error {
	if err := p.fio.Overwrite(ctx, p.path, data); err != nil {
		return fmt.Errorf("save accounts to %s: %w", p.path, err)
	}
	return nil
}

// load returns the saved bytes, or nil before the first CREATE USER.
func (p privilegeStore) load(ctx context.Context) ([]byte, error) {
	data, err := p.fio.ReadFile(ctx, p.path)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read accounts from %s: %w", p.path, err)
	}
	return data, nil
}

// setUpAccounts turns authentication on and installs the accounts: the
// saved ones, then the configured administrators (which replace a saved
// account of the same name and host), then — on a loopback listener only —
// a passwordless root@localhost, unless the config has a root user or a
// root@localhost exists. Configured and implicit accounts are ephemeral:
// GMS never persists them, so a passwordless root made on a laptop cannot
// reappear on a server.
func setUpAccounts(ctx *sql.Context, mdb *mysql_db.MySQLDb, store privilegeStore, cfg Config) error {
	mdb.SetPersister(store)
	saved, err := store.load(ctx)
	if err != nil {
		return err
	}
	if err := mdb.LoadData(ctx, saved); err != nil {
		return fmt.Errorf("%w: accounts file %s: %v", lakeerr.ErrCorruption, store.path, err)
	}
	// With no account at all GMS would leave authentication off and let
	// anyone in, so it is switched on explicitly.
	mdb.SetEnabled(true)

	ed := mdb.Editor()
	defer ed.Close()
	for _, u := range cfg.Users {
		ed.RemoveUser(mysql_db.UserPrimaryKey{User: u.Name, Host: u.host()})
		mdb.AddEphemeralSuperUser(ed, u.Name, u.host(), u.Password)
	}
	if cfg.loopbackOnly() {
		if !cfg.hasUser("root") {
			mdb.AddEphemeralSuperUser(ed, "root", "localhost", "")
		}
		return nil
	}
	return checkRemoteAccounts(ed, cfg.Listen)
}

// checkRemoteAccounts refuses to serve a non-loopback address while any
// account that can log in has no password, or while no account exists.
func checkRemoteAccounts(ed *mysql_db.Editor, listen string) error {
	var open []string
	accounts := 0
	ed.VisitUsers(func(u *mysql_db.User) {
		if u.IsRole || u.Locked {
			return
		}
		accounts++
		if u.AuthString == "" {
			open = append(open, fmt.Sprintf("'%s'@'%s'", u.User, u.Host))
		}
	})
	if accounts == 0 {
		return fmt.Errorf("listening on %s, which is not a loopback address, needs at least one user with a password in the config file", listen)
	}
	if len(open) > 0 {
		sort.Strings(open)
		return fmt.Errorf("listening on %s, which is not a loopback address, needs a password for every account; without one: %s", listen, strings.Join(open, ", "))
	}
	return nil
}
