// Package differential runs the randomized differential test of
// internal/randsql: each seed's tables, data changes and queries run on
// lakesql with its planner rewrites on, on the same database with
// `SET lakesql_planner_rewrites = OFF`, and, when LAKESQL_MARIADB_DSN is
// set (.ci/mariadb start, .ci/differential), on MariaDB. Every
// disagreement fails the test; the first of each kind is minimized into a
// self-contained SQL script. The minimized scripts kept under
// testdata/regressions are replayed by every run, against lakesql's two
// modes and, when it is set up, MariaDB; those under
// testdata/regressions/open are the disagreements still to fix, replayed
// with -diff.open.
//
//	go test ./integration/differential/                      # the kept cases, lakesql on vs off
//	go test ./integration/differential/ -diff.seeds 4        # and 4 random seeds
//	eval "$(.ci/mariadb start)"; go test ./integration/differential/ -diff.seeds 300
//	go test ./integration/differential/ -run TestDifferential -diff.seed 17 -v
//	go test ./integration/differential/ -diff.long -timeout 0  # 10,000 seeds
//	go test ./integration/differential/ -diff.out /tmp/cases   # keep the minimized scripts
//	go test ./integration/differential/ -run TestRegressions -diff.open   # the open cases
//
// -diff.minimize and -diff.each bound how many findings are minimized (in
// all, and per signature), -diff.trials how many times one minimization
// sets the data up again. The warehouse is made in /dev/shm when it can be
// (-diff.warehouse): the suite checks answers, not durability.
//
// The package has no non-test code; this file only documents it.
package differential
