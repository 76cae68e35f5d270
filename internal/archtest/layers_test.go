package archtest

// layers are the ranks of the repository, bottom first:
//
//	server -> sqlbackend,sysprocs -> sqlbackend/* -> planner
//	-> storage/write,compact,maintenance -> storage/table,catalog,commit
//	-> storage/* -> storage/spec -> storage/fileio
//
// A package may import packages of its own layer and of the layers below,
// never of a layer above; its tests may also import test support
// (testSupport), which is how a test reaches above its own layer for its
// set-up. Every package is listed; a package in the directory of a listed
// one and not listed itself takes that one's layer, as scantest did when it
// lived in storage/scan.
var layers = []layer{
	{"fileio", []string{
		"storage/fileio",
		"storage/fileio/cacheio",
		"storage/fileio/errorio",
		"storage/fileio/fileiotest",
		"storage/fileio/footercache",
		"storage/internal/bytelru",
		"storage/fileio/localio",
		"storage/fileio/memio",
		"storage/fileio/open",
		"storage/fileio/s3io",
		// The failure classes every layer shares; s3io and footercache
		// classify their own failures with them.
		"storage/lakeerr",
		// Random ids, for localio's temporary files among others.
		"storage/internal/ids",
	}},
	{"spec", []string{
		"storage/spec",
		// Renders rows of spec values as JSON for cmd/lakesql and the
		// fixture tests; it needs nothing but spec.
		"internal/jsonrow",
	}},
	{"storage", []string{
		// Leases need only fileio; they sit here with the machinery the
		// table layer is built of, since commit, write, compact and
		// maintenance take them.
		"storage/avroio",
		"storage/blobio",
		// Data-file indexes: the writer builds them, reads evaluate them.
		"storage/fileindex",
		// Opens a data file with the reader of its format, for reads
		// and compactions alike.
		"storage/fileformat",
		// Btree global index files, which reads use to skip rows.
		"storage/globalindex",
		"storage/lease",
		"storage/lsm",
		"storage/manifest",
		"storage/orcio",
		"storage/parquetio",
		"storage/predicate",
		"storage/scan",
		"storage/schema",
		"storage/sketch",
		"storage/snapshot",
		"storage/vector",
	}},
	{"table", []string{
		"storage/catalog",
		// Commit sits above storage/scan, which plans its conflict checks:
		// a package in the scan layer that commits (scantest did) reaches
		// up the stack.
		"storage/commit",
		"storage/table",
	}},
	{"table operations", []string{
		// The writer opens the table to restore its sequence numbers from
		// the live files, and hands its files to commit.
		"storage/write",
		// Compaction rewrites with the writer.
		"storage/compact",
		"storage/compact/pick",
		"storage/maintenance",
		// Row-level DELETE and UPDATE of append tables read positions
		// through the table and rewrite with the writer.
		"storage/rowdelete",
		// Only tests: the model-based test of the write and commit paths.
		"storage/metamorphic",
	}},
	{"planner", []string{
		"planner",
		// DDL translates to storage/catalog's table definitions.
		"planner/ddl",
		"planner/rewrite",
		"planner/sqltypes",
	}},
	// The parts of the SQL backend that need none of its tables, pins or
	// transactions: sqlbackend imports them, and they never import it.
	{"sql parts", []string{
		// Corrections of go-mysql-server's plans, types and execution:
		// they read GMS's nodes, never lakesql's tables.
		"sqlbackend/gmsfix",
		// The vectorized executor: the plan translator, and the DuckDB
		// runner (built with the duckdb_arrow tag only).
		"sqlbackend/duckplan",
		"sqlbackend/duckexec",
		"sqlbackend/metrics",
		// The MySQL errors every part of the backend sends.
		"sqlbackend/mysqlerr",
		// The metadata system tables, over a table and the snapshot the
		// backend hands them.
		"sqlbackend/systables",
	}},
	{"sql", []string{
		"sqlbackend",
		"sysprocs",
	}},
	{"server", []string{
		"server",
	}},
	{"cmd", []string{
		"cmd/lakesql",
	}},
	// Tests and the packages only tests import: above everything they
	// exercise.
	{"tests", []string{
		"integration",
		"integration/differential",
		"integration/interop",
		"integration/sqllogictest",
		"internal/archtest",
		"internal/randsql",
		"internal/sqllogictest",
		"internal/testkit",
		"internal/testkit/clocktest",
		"internal/testkit/compacttest",
		"internal/testkit/filetest",
		// GMS over memory tables with lakesql's corrections, for the
		// plan translator's tests.
		"internal/testkit/gmsplan",
		"internal/testkit/fixtures",
		"internal/testkit/leasetest",
		"internal/testkit/mariadbtest",
		"internal/testkit/scantest",
		"internal/testkit/servertest",
		"internal/testkit/tabletest",
		"internal/testkit/writetest",
		// The DuckDB benchmark, a module of its own, and the benchmark of
		// the server with its executor against DuckDB.
		"bench/duckdb",
		"bench/wire",
	}},
}

// testSupport are the packages (and the packages in their directories)
// that only tests and other test support import: they write tables,
// start servers and build fixtures for tests of every layer, so they
// import from all of them.
var testSupport = []string{
	"internal/testkit",
	// The FileIO conformance suite, which every FileIO's tests run.
	"storage/fileio/fileiotest",
	// The drivers of integration's differential and sqllogictest suites.
	"internal/randsql",
	"internal/sqllogictest",
}

// repo is the architecture of this repository.
var repo = arch{layers: layers, testSupport: testSupport}
