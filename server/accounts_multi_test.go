package server_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Several servers on one warehouse share its accounts: a change made on
// one is never lost to a change made on another at the same time, and a
// client connecting to any server sees every change made before.

// twoServers starts two servers on one fresh warehouse; opts[i], if
// given, are the options of server i.
func twoServers(t *testing.T, opts ...server.Options) (server.Config, [2]*servertest.Server) {
	t.Helper()
	cfg := testConfig(t)
	var rs [2]*servertest.Server
	for i := range rs {
		o := server.Options{}
		if i < len(opts) {
			o = opts[i]
		}
		rs[i] = servertest.Start(t, cfg, o)
	}
	return cfg, rs
}

// canLogIn reports whether a new connection authenticates. A wrong
// password and an unknown account are both refused with 1045.
func canLogIn(t *testing.T, s *servertest.Server, user, password string) bool {
	t.Helper()
	err := s.Connect(t, user, password).Ping()
	if n := servertest.ErrorNumber(err); err != nil && n != 1045 {
		t.Fatalf("%s: %v", user, err)
	}
	return err == nil
}

// versions lists the numbers of the accounts versions in the warehouse.
func versions(t *testing.T, cfg server.Config) []int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(cfg.Warehouse, "_lakesql"))
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		var n int
		if _, err := fmt.Sscanf(e.Name(), "privileges-%d.bin", &n); err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// TestConcurrentAccountChangesOnTwoServers: clients of two servers create
// users at the same time. Every user exists afterwards, each server
// authenticates the users created on the other, the versions are numbered
// one per change, and cleanup leaves only the newest ones.
func TestConcurrentAccountChangesOnTwoServers(t *testing.T) {
	const perServer = 12
	cfg, rs := twoServers(t)
	var wg sync.WaitGroup
	for i, r := range rs {
		root := r.Connect(t, "root", "")
		for j := range perServer {
			wg.Go(func() {
				stmt := fmt.Sprintf("CREATE USER 'u%d_%d'@'%%' IDENTIFIED BY 'pw%d'", i, j, j)
				if _, err := root.Exec(stmt); err != nil {
					t.Errorf("%s: %v", stmt, err)
				}
			})
		}
	}
	wg.Wait()
	for i, r := range rs {
		for creator := range rs {
			for j := range perServer {
				user := fmt.Sprintf("u%d_%d", creator, j)
				if !canLogIn(t, r, user, fmt.Sprintf("pw%d", j)) {
					t.Errorf("server %d does not authenticate %s, created on server %d", i, user, creator)
				}
			}
		}
		if canLogIn(t, r, "u0_0", "wrong") {
			t.Errorf("server %d authenticates u0_0 with a wrong password", i)
		}
	}
	got := versions(t, cfg)
	if len(got) == 0 || got[len(got)-1] != 2*perServer || len(got) > 11 {
		t.Errorf("versions %v; want one per CREATE USER, up to %d, and only the newest 11 kept", got, 2*perServer)
	}
}

// TestAccountChangeMergedIntoNewerVersion: a server changes accounts on
// a connection opened before another server's changes, so it publishes on
// top of a version it has not read. Its change is merged in: both
// servers' grants to one user survive, a revoke removes only what it
// revoked, and a user dropped on the other server stays dropped.
func TestAccountChangeMergedIntoNewerVersion(t *testing.T) {
	_, rs := twoServers(t)
	a, b := rs[0].Connect(t, "root", ""), rs[1].Connect(t, "root", "")
	servertest.Exec(t, a,
		"CREATE USER 'analyst'@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON sales.* TO 'analyst'@'%'",
		"CREATE USER 'leaver'@'%' IDENTIFIED BY 'pw'")
	stale, err := a.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	servertest.Exec(t, stale, "SELECT 1") // authenticated before server b's changes
	servertest.Exec(t, b,
		"GRANT INSERT ON ops.* TO 'analyst'@'%'",
		"CREATE USER 'from_b'@'%' IDENTIFIED BY 'pw'",
		"DROP USER 'leaver'@'%'")
	servertest.Exec(t, stale,
		"GRANT UPDATE ON ops.* TO 'analyst'@'%'",
		"REVOKE SELECT ON sales.* FROM 'analyst'@'%'",
		"CREATE USER 'from_a'@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON sales.* TO 'leaver'@'%'")

	for i, r := range rs {
		grants := servertest.Grants(t, r.Connect(t, "root", ""), "'analyst'@'%'")
		if want := "GRANT INSERT, UPDATE ON `ops`.* TO `analyst`@`%`"; !slices.Contains(grants, want) || slices.ContainsFunc(grants, func(g string) bool { return strings.Contains(g, "sales") }) {
			t.Errorf("server %d: grants of analyst %q; want %q and nothing on sales", i, grants, want)
		}
		for _, user := range []string{"from_a", "from_b"} {
			if !canLogIn(t, r, user, "pw") {
				t.Errorf("server %d does not authenticate %s", i, user)
			}
		}
		if canLogIn(t, r, "leaver", "pw") {
			t.Errorf("server %d authenticates leaver, dropped on server 1", i)
		}
	}
}

// beforeVersionPut runs a function just before the first put of an
// accounts version through it.
type beforeVersionPut struct {
	fileio.FileIO
	once   sync.Once
	before func()
}

func (f *beforeVersionPut) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.Contains(p, "privileges-") {
		f.once.Do(f.before)
	}
	return f.FileIO.PutIfAbsent(ctx, p, data)
}

// TestLostVersionRaceIsMerged: the other server publishes the version
// number this one is about to put. The put fails, the change is merged
// into the other version and published as the next one, and the
// statement succeeds.
func TestLostVersionRaceIsMerged(t *testing.T) {
	cfg := testConfig(t)
	b := servertest.Start(t, cfg, server.Options{})
	bRoot := b.Connect(t, "root", "")
	racer := &beforeVersionPut{FileIO: localio.New(), before: func() {
		if _, err := bRoot.Exec("CREATE USER 'from_b'@'%' IDENTIFIED BY 'pw'"); err != nil {
			t.Errorf("server 1: %v", err)
		}
	}}
	a := servertest.Start(t, cfg, server.Options{FileIO: racer})
	servertest.Exec(t, a.Connect(t, "root", ""), "CREATE USER 'from_a'@'%' IDENTIFIED BY 'pw'")
	if got := versions(t, cfg); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("versions %v; want 1 (server 1's) and 2 (server 0's, merged)", got)
	}
	for i, r := range []*servertest.Server{a, b} {
		for _, user := range []string{"from_a", "from_b"} {
			if !canLogIn(t, r, user, "pw") {
				t.Errorf("server %d does not authenticate %s", i, user)
			}
		}
	}
}

// TestServerFarBehindCatchesUp: while one server is idle, the other makes
// so many changes that cleanup removes the version the idle one knows.
// Its next client still sees every change.
func TestServerFarBehindCatchesUp(t *testing.T) {
	cfg, rs := twoServers(t)
	servertest.Exec(t, rs[0].Connect(t, "root", ""), "SELECT 1")
	b := rs[1].Connect(t, "root", "")
	for i := range 25 {
		servertest.Exec(t, b, fmt.Sprintf("CREATE USER 'u%d'@'%%' IDENTIFIED BY 'pw'", i))
	}
	servertest.Exec(t, b, "DROP USER 'u0'@'%'")
	if got := versions(t, cfg); got[0] <= 1 {
		t.Fatalf("versions %v: cleanup removed none", got)
	}
	if !canLogIn(t, rs[0], "u24", "pw") || canLogIn(t, rs[0], "u0", "pw") {
		t.Error("the idle server does not see the changes made while it was idle")
	}
}

// TestSingleAccountsFileIsMigrated: a warehouse from before versions has
// only PrivilegesFile. Its accounts are in force, and the first change
// publishes version 1 with them and the change.
func TestSingleAccountsFileIsMigrated(t *testing.T) {
	cfg := testConfig(t)
	old := servertest.Start(t, cfg, server.Options{})
	servertest.Exec(t, old.Connect(t, "root", ""), "CREATE USER 'veteran'@'%' IDENTIFIED BY 'pw'")
	old.Stop(t)
	// What an older release leaves: the single file, no versions.
	for _, name := range []string{"privileges-1.bin", "privileges-LATEST"} {
		if err := os.Remove(filepath.Join(cfg.Warehouse, "_lakesql", name)); err != nil {
			t.Fatal(err)
		}
	}

	r := servertest.Start(t, cfg, server.Options{})
	if !canLogIn(t, r, "veteran", "pw") {
		t.Fatal("the account of the single accounts file is not in force")
	}
	servertest.Exec(t, r.Connect(t, "root", ""), "CREATE USER 'rookie'@'%' IDENTIFIED BY 'pw'")
	r.Stop(t)
	if err := os.Remove(filepath.Join(cfg.Warehouse, filepath.FromSlash(server.PrivilegesFile))); err != nil {
		t.Fatal(err)
	}
	r = servertest.Start(t, cfg, server.Options{})
	if !canLogIn(t, r, "veteran", "pw") || !canLogIn(t, r, "rookie", "pw") {
		t.Errorf("version 1 lacks the migrated or the new account; versions %v", versions(t, cfg))
	}
}

// TestConfiguredUserKeepsSavedAccount: a configured user replaces a saved
// account of the same name in memory only; other account changes do not
// drop the saved one from the warehouse.
func TestConfiguredUserKeepsSavedAccount(t *testing.T) {
	cfg := testConfig(t)
	r := servertest.Start(t, cfg, server.Options{})
	servertest.Exec(t, r.Connect(t, "root", ""), "CREATE USER 'ops'@'%' IDENTIFIED BY 'saved'")
	r.Stop(t)

	withOps := cfg
	withOps.Users = []server.User{{Name: "ops", Password: "configured"}}
	r = servertest.Start(t, withOps, server.Options{})
	servertest.Exec(t, r.Connect(t, "ops", "configured"), "CREATE USER 'other'@'%' IDENTIFIED BY 'pw'")
	r.Stop(t)

	r = servertest.Start(t, cfg, server.Options{})
	if !canLogIn(t, r, "ops", "saved") || !canLogIn(t, r, "other", "pw") {
		t.Error("the saved ops account or the account made while ops was configured is gone")
	}
}

func TestCorruptAccountsVersionRefusesToStart(t *testing.T) {
	cfg := testConfig(t)
	r := servertest.Start(t, cfg, server.Options{})
	servertest.Exec(t, r.Connect(t, "root", ""), "CREATE USER 'u'@'%' IDENTIFIED BY 'pw'")
	r.Stop(t)
	path := filepath.Join(cfg.Warehouse, "_lakesql", "privileges-1.bin")
	if err := os.WriteFile(path, []byte("not an accounts file"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := server.New(cfg, server.Options{})
	if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(fmt.Sprint(err), "privileges-1.bin") {
		t.Errorf("corrupt accounts version: %v, want ErrCorruption naming the file", err)
	}
}
