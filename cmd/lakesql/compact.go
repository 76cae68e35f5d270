package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/open"
	"github.com/lakesql/lakesql/storage/fileio/s3io"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/table"
)

const compactUsage = `usage:
  lakesql compact --warehouse DIR|s3://BUCKET/PREFIX [--config FILE] [--table DB.TABLE [--partitions SPEC]] [--full]
  lakesql compact --warehouse DIR|s3://BUCKET/PREFIX [--config FILE] [--table DB.TABLE] --watch [--interval DURATION] [--metrics-listen HOST:PORT]
--catalog-option KEY=VALUE (repeatable) opens the warehouse's Paimon catalog, as serve does.
`

// compactConfig is what the compact command was asked to do.
type compactConfig struct {
	warehouse  string
	db, table  string // both empty: every table of the warehouse
	partitions []map[string]string
	mode       compact.Mode
	watch      bool
	interval   time.Duration
	// metricsListen, if set, is where the service serves Prometheus
	// /metrics while it watches.
	metricsListen string
	// s3 configures an s3:// warehouse: the "s3" section of the server's
	// config file.
	s3 s3io.Config
	// catalog holds the Paimon catalog options: the config file's
	// "catalog" section with the --catalog-option flags on top.
	catalog map[string]string
}

// runCompact is the dedicated compaction service: it compacts the tables of
// a warehouse once, or with --watch every --interval until ctx ends
// (SIGINT or SIGTERM), as Paimon recommends for tables written by several
// writers with write-only = true. Each round compacts the buckets whose
// sorted runs reached num-sorted-run.compaction-trigger (and the small
// files of append tables); --full compacts everything once.
func runCompact(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := parseCompactArgs(args)
	if err != nil {
		return err
	}
	fsys, root, err := open.CachedWarehouse(ctx, cfg.warehouse, cfg.s3)
	if err != nil {
		return err
	}
	cat, err := server.OpenCatalog(ctx, cfg.catalog, strings.HasPrefix(cfg.warehouse, s3io.Scheme), fsys, root)
	if err != nil {
		return err
	}
	defer cat.Close()
	cfg.warehouse = root
	svc := newCompactService(cfg, cat, out)
	if !cfg.watch {
		return svc.round(ctx)
	}
	if cfg.metricsListen != "" {
		stop, err := svc.serveMetrics(cfg.metricsListen)
		if err != nil {
			return err
		}
		defer stop()
	}
	for {
		// In watch mode a failing table is reported and retried next
		// round; only the end of ctx stops the service.
		_ = svc.round(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(cfg.interval):
		}
	}
}

func parseCompactArgs(args []string) (compactConfig, error) {
	cfg := compactConfig{}
	fs := flag.NewFlagSet("compact", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.warehouse, "warehouse", "", "warehouse directory or s3://bucket/prefix")
	configPath := fs.String("config", "", "the server's JSON config file, for its s3 section")
	tableName := fs.String("table", "", "DB.TABLE to compact; default every table")
	partitions := fs.String("partitions", "", "partitions to compact, k=v,k2=v2;k=v3")
	full := fs.Bool("full", false, "compact every bucket fully")
	fs.BoolVar(&cfg.watch, "watch", false, "compact in rounds until stopped")
	fs.DurationVar(&cfg.interval, "interval", time.Minute, "time between rounds with --watch")
	fs.StringVar(&cfg.metricsListen, "metrics-listen", "", "HOST:PORT serving Prometheus /metrics with --watch")
	catalogFlags := catalogOptions{}
	fs.Var(catalogFlags, "catalog-option", "Paimon catalog option KEY=VALUE (repeatable)")
	positional, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return cfg, flagHelp(fs, compactUsage, err)
	case err != nil:
		return cfg, compactUsageError(err.Error())
	case len(positional) > 0:
		return cfg, compactUsageError("compact takes no positional arguments")
	case cfg.warehouse == "":
		return cfg, compactUsageError("--warehouse is required")
	case *full && cfg.watch:
		return cfg, compactUsageError("--full compacts once; it cannot be combined with --watch")
	case cfg.interval <= 0:
		return cfg, compactUsageError("--interval must be positive")
	case cfg.metricsListen != "" && !cfg.watch:
		return cfg, compactUsageError("--metrics-listen needs --watch: a single run ends before anyone scrapes it")
	case *partitions != "" && *tableName == "":
		return cfg, compactUsageError("--partitions needs --table")
	}
	if *configPath != "" {
		serverCfg, err := server.LoadConfig(*configPath)
		if err != nil {
			return cfg, err
		}
		cfg.s3 = serverCfg.S3
		cfg.catalog = serverCfg.Catalog
	}
	cfg.catalog = catalogFlags.applyTo(cfg.catalog)
	if *full {
		cfg.mode = compact.Full
	}
	if *tableName != "" {
		var ok bool
		if cfg.db, cfg.table, ok = strings.Cut(*tableName, "."); !ok || cfg.db == "" || cfg.table == "" {
			return cfg, compactUsageError("--table must be DB.TABLE")
		}
	}
	if cfg.partitions, err = compact.ParsePartitions(*partitions); err != nil {
		return cfg, compactUsageError(err.Error())
	}
	return cfg, nil
}

func compactUsageError(msg string) error { return fmt.Errorf("%s\n%s", msg, compactUsage) }

// compactService compacts tables in rounds. Each table keeps one commit
// user for the life of the process, so its commits are easy to attribute.
type compactService struct {
	cfg     compactConfig
	io      fileio.FileIO
	catalog *catalog.Catalog
	out     *lockedWriter
	// identities holds each table's commit identity; skipped the tables
	// already reported as not compactable, so a watch does not repeat it.
	identities map[string]*compact.Identity
	skipped    map[string]bool
	// metrics counts compactions and the sorted runs they leave, served
	// with --metrics-listen; nil counts nothing.
	metrics *metrics.Metrics
}

func newCompactService(cfg compactConfig, cat server.Catalog, out io.Writer) *compactService {
	return &compactService{cfg: cfg, io: cat.FileIO, catalog: catalog.NewWithMetastore(cat.FileIO, cfg.warehouse, time.Now, cat.Metastore),
		out: &lockedWriter{w: out}, identities: map[string]*compact.Identity{}, skipped: map[string]bool{}}
}

// round compacts every selected table once. A table that fails does not
// stop the others; the error names every table that failed.
func (s *compactService) round(ctx context.Context) error {
	tables, err := s.tables(ctx)
	if err != nil {
		s.out.printf("compact: %v\n", err)
		return err
	}
	var failed []string
	for _, name := range tables {
		if ctx.Err() != nil {
			return nil
		}
		if err := s.compactTable(ctx, name); err != nil {
			failed = append(failed, name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("compaction failed for %s", strings.Join(failed, ", "))
	}
	return nil
}

// tables lists the tables to compact as db.table names.
func (s *compactService) tables(ctx context.Context) ([]string, error) {
	if s.cfg.table != "" {
		ok, err := s.catalog.TableExists(ctx, s.cfg.db, s.cfg.table)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: table %s.%s does not exist", lakeerr.ErrNotFound, s.cfg.db, s.cfg.table)
		}
		return []string{s.cfg.db + "." + s.cfg.table}, nil
	}
	dbs, err := s.catalog.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, db := range dbs {
		names, err := s.catalog.ListTables(ctx, db)
		if err != nil {
			return nil, err
		}
		for _, t := range names {
			out = append(out, db+"."+t)
		}
	}
	return out, nil
}

// compactTable compacts one table and reports what happened. A table
// lakesql cannot compact is reported once and skipped from then on.
func (s *compactService) compactTable(ctx context.Context, name string) error {
	if s.skipped[name] {
		return nil
	}
	db, tbl, _ := strings.Cut(name, ".")
	dir, err := s.catalog.TablePath(db, tbl)
	if err != nil {
		return s.report(name, err)
	}
	id, ok := s.identities[name]
	if !ok {
		id = compact.NewCompactionIdentity(nil)
		s.identities[name] = id
	}
	res, err := compact.Table(ctx, compact.Options{FileIO: s.io, TableDir: dir, Mode: s.cfg.mode,
		Partitions: s.cfg.partitions, Identity: id, Logf: s.out.logf(name)})
	if ctx.Err() == nil {
		s.record(ctx, db, tbl, dir, res, err)
	}
	switch {
	case ctx.Err() != nil:
		return nil
	case errors.Is(err, lakeerr.ErrUnsupported):
		s.skipped[name] = true
		s.out.printf("%s: skipped: %v\n", name, err)
		return nil
	case err != nil:
		return s.report(name, err)
	case res.Snapshot != 0:
		s.out.printf("%s: compacted: %s\n", name, res)
	case !s.cfg.watch:
		s.out.printf("%s: %s\n", name, res)
	}
	return nil
}

// record counts a compaction and, after one that succeeded, the sorted
// runs of the table's latest snapshot, before the round reports it.
func (s *compactService) record(ctx context.Context, db, tbl, dir string, res compact.Result, err error) {
	if s.metrics == nil {
		return
	}
	s.metrics.Compacted(db, tbl, res, err)
	if err != nil {
		return
	}
	t, err := table.Open(ctx, s.io, dir)
	var backlog table.Backlog
	if err == nil {
		backlog, err = t.LatestBacklog(ctx)
	}
	if err != nil {
		s.out.printf("%s.%s: cannot count the sorted runs left: %s\n", db, tbl, oneLine(err.Error()))
		return
	}
	s.metrics.CompactionBacklog(db, tbl, backlog)
}

// serveMetrics serves the service's metrics on addr until stop.
func (s *compactService) serveMetrics(addr string) (stop func(), err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	s.metrics = metrics.New()
	mux := http.NewServeMux()
	mux.Handle("/metrics", s.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }() // returns ErrServerClosed at Close
	s.out.printf("metrics: serving http://%s/metrics\n", l.Addr())
	return func() { _ = srv.Close() }, nil
}

func (s *compactService) report(name string, err error) error {
	s.out.printf("%s: error: %s\n", name, oneLine(err.Error()))
	return err
}

// lockedWriter serializes lines written by concurrent compaction workers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format, args...)
}

// logf returns the progress logger of one table.
func (l *lockedWriter) logf(name string) func(string, ...any) {
	return func(format string, args ...any) {
		l.printf("%s: %s\n", name, oneLine(fmt.Sprintf(format, args...)))
	}
}
