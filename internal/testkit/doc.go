// Package testkit is the home of the test support the packages of this
// repository share; it holds no code itself. Its packages set up what
// tests need and would otherwise copy from one another:
//
//   - clocktest: a clock only the test moves;
//   - filetest: FileIO wrappers that age files by that clock and count
//     reads, and the conformance run of FileIO wrappers;
//   - fixtures: the Java-written tables under testdata, their expected
//     rows and copies to change;
//   - leasetest: lease registries with names alike in every run;
//   - scantest: tables of any layout, written file by file and committed;
//   - tabletest: tables created through the catalog, committed and read
//     with a clock and uuids the test shares;
//   - writetest: rows written through storage/write into a tabletest table;
//   - servertest, mariadbtest: a lakesql server in the test's process, its
//     accounts and statements, and the MariaDB reference.
//
// # Dependency direction
//
// Test support sits above every layer of the repository: it imports what
// it sets up, from storage/fileio to server, and only tests and other test
// support import it (internal/archtest enforces both). A test reaches
// above its own package's layer only through it, and a helper that writes
// tables can no longer live inside a package that the code it calls
// imports, as storage/scan/scantest did.
//
// Go refuses an import cycle between a package's own (non-external) tests
// and the test support that imports that package, so the helpers are cut
// along the stack: tabletest does not import storage/write, whose tests
// use it, and writetest adds the writer on top; scantest writes without
// storage/table, whose tests use it; leasetest serves the packages that
// take leases, while storage/lease's own tests use clocktest and filetest.
package testkit
