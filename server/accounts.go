package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// The accounts and grants made with CREATE USER, GRANT, … are kept in the
// warehouse as numbered versions, _lakesql/privileges-<n>.bin, each the
// whole of go-mysql-server's serialized account tables. Several servers
// may share a warehouse: a change is published as the next version with
// put-if-absent, so of two servers changing accounts at once one wins the
// number and the other merges its change into the winner's version and
// takes the next one. No change is lost, as none was with one server.
//
// Catalog databases are "<db>.db" directories, so _lakesql is never
// mistaken for one.
const (
	// PrivilegesFile is the single accounts file of warehouses written
	// before versions, read while no version exists (the first change
	// then publishes version 1). Since then it is a copy of the newest
	// version, rewritten after each one, for older lakesql releases and
	// tools; it is never read once a version exists.
	PrivilegesFile = "_lakesql/privileges.bin"
	// privilegesHint holds the number of a recent version. Servers
	// normally know their version and look for the next one; the hint is
	// for a server that fell so far behind that its version was removed.
	privilegesHint = "_lakesql/privileges-LATEST"
	// keptPrivilegeVersions is how many versions cleanup leaves behind
	// the newest: a server that is fewer versions behind finds the next
	// one after its own.
	keptPrivilegeVersions = 10
	// maxPublishAttempts bounds how often one change is merged into
	// another server's newer version before it gives up.
	maxPublishAttempts = 50
)

// accountStore keeps the account tables of one server and the versions
// in the warehouse in step. go-mysql-server calls Persist after every
// account change, holding its tables' write lock; refresh, run when a
// client authenticates, brings in the versions other servers published.
type accountStore struct {
	fio  fileio.FileIO
	root string
	mdb  *mysql_db.MySQLDb
	// shadowed are the configured and implicit accounts, which replace
	// saved accounts of the same name and host in memory only: the saved
	// ones stay in the versions as they are.
	shadowed map[mysql_db.UserPrimaryKey]bool

	mu sync.Mutex
	// version is the newest version this server knows, 0 before the
	// first; newest is its content (or PrivilegesFile's, or nil).
	version int64
	newest  []byte
	// inMemory is the saved part of the in-memory tables as of the last
	// Persist or refresh: a change is what a Persist differs from it by.
	inMemory []byte
}

var _ mysql_db.MySQLDbPersistence = (*accountStore)(nil)

func newAccountStore(fio fileio.FileIO, warehouse string, mdb *mysql_db.MySQLDb) *accountStore {
	return &accountStore{fio: fio, root: warehouse, mdb: mdb, shadowed: map[mysql_db.UserPrimaryKey]bool{}}
}

func (a *accountStore) path(rel string) string { return path.Join(a.root, rel) }

func (a *accountStore) versionPath(n int64) string {
	return a.path(fmt.Sprintf("_lakesql/privileges-%d.bin", n))
}

// setUpAccounts turns authentication on and installs the accounts: the
// saved ones, then the configured administrators (which replace a saved
// account of the same name and host), then — on a loopback listener only —
// a passwordless root@localhost, unless the config has a root user or a
// root@localhost exists. Configured and implicit accounts are ephemeral:
// GMS never persists them, so a passwordless root made on a laptop cannot
// reappear on a server.
func setUpAccounts(ctx *sql.Context, mdb *mysql_db.MySQLDb, fio fileio.FileIO, warehouse string, cfg Config) (*accountStore, error) {
	a := newAccountStore(fio, warehouse, mdb)
	if err := a.load(ctx); err != nil {
		return nil, err
	}
	if err := mdb.LoadData(ctx, a.newest); err != nil {
		return nil, fmt.Errorf("%w: accounts file %s: %v", lakeerr.ErrCorruption, a.newestPath(), err)
	}
	mdb.SetPersister(a)
	// With no account at all GMS would leave authentication off and let
	// anyone in, so it is switched on explicitly.
	mdb.SetEnabled(true)

	ed := mdb.Editor()
	defer ed.Close()
	for _, u := range cfg.Users {
		ed.RemoveUser(mysql_db.UserPrimaryKey{User: u.Name, Host: u.host()})
		mdb.AddEphemeralSuperUser(ed, u.Name, u.host(), u.Password)
	}
	if cfg.loopbackOnly() && !cfg.hasUser("root") {
		mdb.AddEphemeralSuperUser(ed, "root", "localhost", "")
	}
	ed.VisitUsers(func(u *mysql_db.User) {
		if u.IsEphemeral {
			a.shadowed[mysql_db.UserPrimaryKey{User: u.User, Host: u.Host}] = true
		}
	})
	if cfg.loopbackOnly() {
		return a, nil
	}
	return a, checkRemoteAccounts(ed, cfg.Listen)
}

// load reads the newest version, or PrivilegesFile while there is none.
func (a *accountStore) load(ctx context.Context) error {
	v, err := a.newestVersion(ctx, 0)
	if err != nil {
		return err
	}
	a.version = v
	a.newest, err = a.read(ctx, a.newestPath())
	if errors.Is(err, fileio.ErrNotExist) && v == 0 {
		a.newest, err = nil, nil
	}
	if err != nil {
		return err
	}
	a.inMemory = a.newest
	return nil
}

// newestPath is the file the newest accounts are in.
func (a *accountStore) newestPath() string {
	if a.version == 0 {
		return a.path(PrivilegesFile)
	}
	return a.versionPath(a.version)
}

func (a *accountStore) read(ctx context.Context, p string) ([]byte, error) {
	data, err := a.fio.ReadFile(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("read accounts from %s: %w", p, err)
	}
	return data, nil
}

// Persist implements mysql_db.MySQLDbPersistence: data is the whole of the
// saved account tables after a change. The change (what data differs from
// inMemory by) is published as the next version, merged into whatever
// other servers published since this one last looked.
func (a *accountStore) Persist(ctx *sql.Context, data []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	change, err := diffAccounts(ctx, a.inMemory, data, a.shadowed)
	// The in-memory tables hold data whatever happens next; refresh puts
	// them back in step with the versions if the change is not saved.
	a.inMemory = data
	if err != nil || change.empty() {
		return err
	}
	for range maxPublishAttempts {
		if err := a.catchUp(ctx); err != nil {
			return err
		}
		merged, err := change.applyTo(ctx, a.newest)
		if err != nil {
			return err
		}
		next := a.version + 1
		err = a.fio.PutIfAbsent(ctx, a.versionPath(next), merged)
		if errors.Is(err, fileio.ErrExist) {
			continue // another server took the number: merge into its version
		}
		if err != nil {
			return fmt.Errorf("save accounts to %s: %w", a.versionPath(next), err)
		}
		a.version, a.newest = next, merged
		a.afterPublish(ctx)
		return nil
	}
	return fmt.Errorf("%w: saving accounts lost to other servers' account changes %d times; run the statement again",
		lakeerr.ErrRetryableConflict, maxPublishAttempts)
}

// catchUp makes version and newest the newest version in the warehouse.
func (a *accountStore) catchUp(ctx context.Context) error {
	v, err := a.newestVersion(ctx, a.version)
	if err != nil || v == a.version {
		return err
	}
	data, err := a.read(ctx, a.versionPath(v))
	if err != nil {
		return err
	}
	a.version, a.newest = v, data
	return nil
}

// afterPublish writes the copy in PrivilegesFile and the hint, and
// removes old versions. The version is saved already, so failures here
// are only logged. The hint is written durably, and cleanup runs only
// once it is (see existingVersion); the copy may be lost in a crash.
func (a *accountStore) afterPublish(ctx context.Context) {
	log := logrus.WithField("version", a.versionPath(a.version))
	if err := fileio.OverwriteHint(ctx, a.fio, a.path(PrivilegesFile), a.newest); err != nil {
		log.WithError(err).Warn("accounts saved; writing their copy for older releases failed")
	}
	if err := a.fio.Overwrite(ctx, a.path(privilegesHint), []byte(strconv.FormatInt(a.version, 10))); err != nil {
		log.WithError(err).Warn("accounts saved; writing their version hint failed")
		return
	}
	a.removeOldVersions(ctx)
}

// removeOldVersions deletes the versions keptPrivilegeVersions and more
// behind the newest, oldest first and stopping at the first failure, so
// that the versions left are always consecutive. It goes back as far
// again, to finish what a failed cleanup left.
func (a *accountStore) removeOldVersions(ctx context.Context) {
	last := a.version - keptPrivilegeVersions
	for n := max(1, last-keptPrivilegeVersions); n <= last; n++ {
		if err := a.fio.Delete(ctx, a.versionPath(n)); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			logrus.WithError(err).WithField("version", a.versionPath(n)).Warn("removing an old accounts version failed")
			return
		}
	}
}

// newestVersion finds the newest version, starting from known, a version
// this server read or wrote (0 for none): the versions present are
// consecutive, so it probes the ones after a version that exists.
func (a *accountStore) newestVersion(ctx context.Context, known int64) (int64, error) {
	v, err := a.existingVersion(ctx, known)
	if err != nil {
		return 0, err
	}
	for {
		next, err := fileio.Exists(ctx, a.fio, a.versionPath(v+1))
		if err != nil {
			return 0, fmt.Errorf("look for accounts version %d: %w", v+1, err)
		}
		if !next {
			return v, nil
		}
		v++
	}
}

// existingVersion returns known if it still exists, else a version that
// does: the hint's, or the newest listed when cleanup removed that too.
// Without a hint no cleanup has run (it waits for the hint), so the
// versions, if any, start at 1 and 0 is where to probe from.
func (a *accountStore) existingVersion(ctx context.Context, known int64) (int64, error) {
	if known > 0 {
		ok, err := fileio.Exists(ctx, a.fio, a.versionPath(known))
		if err != nil || ok {
			return known, err
		}
	}
	hint, err := a.fio.ReadFile(ctx, a.path(privilegesHint))
	if errors.Is(err, fileio.ErrNotExist) && known == 0 {
		return 0, nil
	}
	if err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return 0, fmt.Errorf("read %s: %w", a.path(privilegesHint), err)
	}
	if n, perr := strconv.ParseInt(string(hint), 10, 64); err == nil && perr == nil && n > 0 {
		ok, err := fileio.Exists(ctx, a.fio, a.versionPath(n))
		if err != nil || ok {
			return n, err
		}
	}
	return a.listNewest(ctx)
}

// listNewest returns the highest version in the _lakesql directory.
func (a *accountStore) listNewest(ctx context.Context) (int64, error) {
	dir := a.path("_lakesql")
	infos, err := a.fio.List(ctx, dir)
	if err != nil {
		return 0, fmt.Errorf("list accounts versions in %s: %w", dir, err)
	}
	var newest int64
	for _, fi := range infos {
		digits, ok := strings.CutPrefix(path.Base(fi.Path), "privileges-")
		digits, bin := strings.CutSuffix(digits, ".bin")
		if n, err := strconv.ParseInt(digits, 10, 64); ok && bin && err == nil && !fi.IsDir {
			newest = max(newest, n)
		}
	}
	return newest, nil
}

// refresh brings account changes other servers published into memory,
// and puts memory back in step after a change that was merged into
// another server's version or not saved. A client authenticating after a
// change on another server sees it. Reading the warehouse takes two small
// requests when nothing changed.
func (a *accountStore) refresh(ctx *sql.Context) error {
	a.mu.Lock()
	known, inStep := a.version, bytes.Equal(a.inMemory, a.newest)
	a.mu.Unlock()
	v, err := a.newestVersion(ctx, known)
	if err != nil || (v == known && inStep) {
		return err
	}
	var data []byte
	if v != known {
		if data, err = a.read(ctx, a.versionPath(v)); err != nil {
			return err
		}
	}
	ed := a.mdb.Editor()
	defer ed.Close()
	a.mu.Lock()
	defer a.mu.Unlock()
	if v > a.version {
		a.version, a.newest = v, data
	}
	if err := a.syncMemory(ctx, ed); err != nil {
		return err
	}
	a.inMemory = a.newest
	return nil
}

// syncMemory makes the saved accounts in memory those of newest, leaving
// the configured and implicit (ephemeral) ones as they are.
func (a *accountStore) syncMemory(ctx *sql.Context, ed *mysql_db.Editor) error {
	want, err := decodeAccounts(ctx, a.newest)
	if err != nil {
		return fmt.Errorf("%w: accounts file %s: %v", lakeerr.ErrCorruption, a.newestPath(), err)
	}
	var stale []mysql_db.UserPrimaryKey
	ed.VisitUsers(func(u *mysql_db.User) {
		if _, ok := want.users[userKey(u)]; !ok && !u.IsEphemeral {
			stale = append(stale, userKey(u))
		}
	})
	for _, k := range stale {
		ed.RemoveUser(k)
	}
	for k, u := range want.users {
		have, ok := ed.GetUser(k)
		switch {
		case !ok:
			ed.PutUser(u)
		case have.IsEphemeral || mysql_db.UserEquals(have, u):
		default:
			u.IsRole = have.IsRole // go-mysql-server does not save it
			replaceUser(ed, u)
		}
	}
	var edges []mysql_db.RoleEdge
	ed.VisitRoleEdges(func(e *mysql_db.RoleEdge) { edges = append(edges, *e) })
	for _, e := range edges {
		if !want.edges[e] {
			ed.RemoveRoleEdge(edgeKey(e))
		}
	}
	for e := range want.edges {
		replaceRoleEdge(ed, e)
	}
	return nil
}

// replaceUser puts u in place of the account of the same name and host:
// Editor.PutUser replaces only an equal account.
func replaceUser(ed *mysql_db.Editor, u *mysql_db.User) {
	ed.RemoveUser(userKey(u))
	ed.PutUser(u)
}

// replaceRoleEdge puts e in place of the grant of the same role to the
// same account, which Editor.PutRoleEdge also replaces only when equal.
func replaceRoleEdge(ed *mysql_db.Editor, e mysql_db.RoleEdge) {
	ed.RemoveRoleEdge(edgeKey(e))
	ed.PutRoleEdge(&e)
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

// accountTables are the saved account tables, decoded: accounts by name
// and host, and role grants.
type accountTables struct {
	users map[mysql_db.UserPrimaryKey]*mysql_db.User
	edges map[mysql_db.RoleEdge]bool
}

func userKey(u *mysql_db.User) mysql_db.UserPrimaryKey {
	return mysql_db.UserPrimaryKey{User: u.User, Host: u.Host}
}

func edgeKey(e mysql_db.RoleEdge) mysql_db.RoleEdgesPrimaryKey {
	return mysql_db.RoleEdgesPrimaryKey{FromHost: e.FromHost, FromUser: e.FromUser, ToHost: e.ToHost, ToUser: e.ToUser}
}

// decodeAccounts reads serialized account tables (nil is none) with
// go-mysql-server's own loader, into a scratch database.
func decodeAccounts(ctx *sql.Context, data []byte) (accountTables, error) {
	t := accountTables{users: map[mysql_db.UserPrimaryKey]*mysql_db.User{}, edges: map[mysql_db.RoleEdge]bool{}}
	scratch := mysql_db.CreateEmptyMySQLDb()
	if err := scratch.LoadData(ctx, data); err != nil {
		return t, err
	}
	rd := scratch.Reader()
	defer rd.Close()
	rd.VisitUsers(func(u *mysql_db.User) { t.users[userKey(u)] = u })
	rd.VisitRoleEdges(func(e *mysql_db.RoleEdge) { t.edges[*e] = true })
	return t, nil
}

// accountChange is what one server changed in the saved account tables,
// to be applied to the newest version another server published.
type accountChange struct {
	// changed holds the accounts created or altered, before and after
	// (before is nil for a created one).
	changed map[mysql_db.UserPrimaryKey][2]*mysql_db.User
	dropped []mysql_db.UserPrimaryKey
	// granted and revoked are role grants.
	granted, revoked []mysql_db.RoleEdge
}

func (c accountChange) empty() bool {
	return len(c.changed) == 0 && len(c.dropped) == 0 && len(c.granted) == 0 && len(c.revoked) == 0
}

// diffAccounts returns how after differs from before, leaving out the
// accounts shadowed in memory by configured ones.
func diffAccounts(ctx *sql.Context, before, after []byte, shadowed map[mysql_db.UserPrimaryKey]bool) (accountChange, error) {
	c := accountChange{changed: map[mysql_db.UserPrimaryKey][2]*mysql_db.User{}}
	old, err := decodeAccounts(ctx, before)
	if err != nil {
		return c, fmt.Errorf("%w: saved accounts: %v", lakeerr.ErrCorruption, err)
	}
	cur, err := decodeAccounts(ctx, after)
	if err != nil {
		return c, fmt.Errorf("accounts to save: %w", err)
	}
	for k, u := range cur.users {
		if was, ok := old.users[k]; !shadowed[k] && (!ok || !mysql_db.UserEquals(was, u)) {
			c.changed[k] = [2]*mysql_db.User{was, u}
		}
	}
	for k := range old.users {
		if _, ok := cur.users[k]; !ok && !shadowed[k] {
			c.dropped = append(c.dropped, k)
		}
	}
	for e := range cur.edges {
		if !old.edges[e] {
			c.granted = append(c.granted, e)
		}
	}
	for e := range old.edges {
		if !cur.edges[e] {
			c.revoked = append(c.revoked, e)
		}
	}
	return c, nil
}

// applyTo applies the change to the serialized tables newest and returns
// the result, serialized. An account both servers changed gets this
// server's settings (password, lock, …) if it changed them, and the
// privileges the other server granted or revoked as well as this one's.
// An account the other server dropped stays dropped.
func (c accountChange) applyTo(ctx *sql.Context, newest []byte) ([]byte, error) {
	scratch := mysql_db.CreateEmptyMySQLDb()
	if err := scratch.LoadData(ctx, newest); err != nil {
		return nil, fmt.Errorf("%w: newest accounts: %v", lakeerr.ErrCorruption, err)
	}
	out := &capturedAccounts{}
	scratch.SetPersister(out)
	ed := scratch.Editor()
	defer ed.Close()
	for _, k := range c.dropped {
		ed.RemoveUser(k)
	}
	for k, change := range c.changed {
		before, after := change[0], change[1]
		theirs, ok := ed.GetUser(k)
		switch {
		case ok:
			replaceUser(ed, mergeUser(before, after, theirs))
		case before == nil:
			ed.PutUser(after)
		}
	}
	for _, e := range c.revoked {
		ed.RemoveRoleEdge(edgeKey(e))
	}
	for _, e := range c.granted {
		replaceRoleEdge(ed, e)
	}
	if err := scratch.Persist(ctx, ed); err != nil {
		return nil, err
	}
	return out.data, nil
}

// capturedAccounts receives the serialized tables of a scratch database.
type capturedAccounts struct{ data []byte }

func (c *capturedAccounts) Persist(_ *sql.Context, data []byte) error {
	c.data = data
	return nil
}

// mergeUser merges this server's change of an account, before to after,
// into theirs, the account in the newest version: settings from after if
// this server changed them, else from theirs; privileges those of theirs
// plus what this server granted, less what it revoked.
func mergeUser(before, after, theirs *mysql_db.User) *mysql_db.User {
	merged := mysql_db.UserCopy(theirs)
	if before == nil || !sameSettings(before, after) {
		merged = mysql_db.UserCopy(after)
	}
	grants := privilegeAtoms(theirs.PrivilegeSet)
	was := map[privilegeAtom]bool{}
	if before != nil {
		was = privilegeAtoms(before.PrivilegeSet)
	}
	now := privilegeAtoms(after.PrivilegeSet)
	for p := range now {
		if !was[p] {
			grants[p] = true
		}
	}
	for p := range was {
		if !now[p] {
			delete(grants, p)
		}
	}
	merged.PrivilegeSet = privilegeSetOf(grants)
	return merged
}

// sameSettings compares everything of two accounts but their privileges.
func sameSettings(a, b *mysql_db.User) bool {
	x, y := *a, *b
	x.PrivilegeSet, y.PrivilegeSet = mysql_db.NewPrivilegeSet(), mysql_db.NewPrivilegeSet()
	return mysql_db.UserEquals(&x, &y)
}

// privilegeAtom is one privilege at one level: global (only priv or
// dynamic set), a database, a table, a column or a routine.
type privilegeAtom struct {
	db, table, column, routine string
	isProc                     bool
	priv                       sql.PrivilegeType
	dynamic                    string
	withGrantOption            bool
}

func privilegeAtoms(ps mysql_db.PrivilegeSet) map[privilegeAtom]bool {
	out := map[privilegeAtom]bool{}
	for _, p := range ps.ToSlice() {
		out[privilegeAtom{priv: p}] = true
	}
	for _, grant := range []bool{false, true} {
		for _, d := range ps.ToSliceDynamic(grant) {
			out[privilegeAtom{dynamic: d, withGrantOption: grant}] = true
		}
	}
	for _, db := range ps.GetDatabases() {
		for _, p := range db.ToSlice() {
			out[privilegeAtom{db: db.Name(), priv: p}] = true
		}
		for _, tbl := range db.GetTables() {
			for _, p := range tbl.ToSlice() {
				out[privilegeAtom{db: db.Name(), table: tbl.Name(), priv: p}] = true
			}
			for _, col := range tbl.GetColumns() {
				for _, p := range col.ToSlice() {
					out[privilegeAtom{db: db.Name(), table: tbl.Name(), column: col.Name(), priv: p}] = true
				}
			}
		}
		for _, r := range db.GetRoutines() {
			for _, p := range r.ToSlice() {
				out[privilegeAtom{db: db.Name(), routine: r.RoutineName(), isProc: r.RoutineType() == "PROCEDURE", priv: p}] = true
			}
		}
	}
	return out
}

func privilegeSetOf(atoms map[privilegeAtom]bool) mysql_db.PrivilegeSet {
	ps := mysql_db.NewPrivilegeSet()
	for p := range atoms {
		switch {
		case p.dynamic != "":
			ps.AddGlobalDynamic(p.withGrantOption, p.dynamic)
		case p.db == "":
			ps.AddGlobalStatic(p.priv)
		case p.routine != "":
			ps.AddRoutine(p.db, p.routine, p.isProc, p.priv)
		case p.column != "":
			ps.AddColumn(p.db, p.table, p.column, p.priv)
		case p.table != "":
			ps.AddTable(p.db, p.table, p.priv)
		default:
			ps.AddDatabase(p.db, p.priv)
		}
	}
	return ps
}
