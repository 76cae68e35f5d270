package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/server"
)

// runServe serves the warehouse over the MySQL protocol until ctx ends
// (SIGINT or SIGTERM), then shuts down gracefully.
func runServe(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := parseServeArgs(args)
	if err != nil {
		return err
	}
	if err := server.ConfigureLogging(cfg.Log, os.Stderr); err != nil {
		return err
	}
	srv, err := server.New(cfg, server.Options{})
	if err != nil {
		return err
	}
	// The one line on stdout: scripts and tests read the port from it
	// when they asked for port 0.
	if _, err := fmt.Fprintf(out, "lakesql listening on %s\n", srv.Addr()); err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logrus.Infof("shutting down: waiting up to %s for running statements", time.Duration(cfg.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.ShutdownTimeout))
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		logrus.Warn(err)
	}
	if err := <-served; err != nil {
		return err
	}
	logrus.Info("shut down")
	return nil
}

// parseServeArgs reads the config file, if any, then applies the flags
// given explicitly on top of it.
func parseServeArgs(args []string) (server.Config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", server.DefaultListen, "HOST:PORT to listen on")
	warehouse := fs.String("warehouse", server.DefaultWarehouse, "warehouse directory or s3://BUCKET/PREFIX")
	configPath := fs.String("config", "", "JSON config file (docs/server.md); flags given override it")
	metricsListen := fs.String("metrics-listen", "", "HOST:PORT serving Prometheus /metrics")
	catalogFlags := catalogOptions{}
	fs.Var(catalogFlags, "catalog-option", "Paimon catalog option KEY=VALUE (repeatable), e.g. metastore=jdbc")
	if err := fs.Parse(args); err != nil {
		if help := flagHelp(fs, "usage:\n"+serveSynopsis, err); help != err {
			return server.Config{}, help
		}
		return server.Config{}, usageError("serve: " + err.Error())
	}
	if fs.NArg() > 0 {
		return server.Config{}, usageError("serve: unexpected argument " + fs.Arg(0))
	}
	cfg := server.DefaultConfig()
	if *configPath != "" {
		var err error
		if cfg, err = server.LoadConfig(*configPath); err != nil {
			return server.Config{}, err
		}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "listen":
			cfg.Listen = *listen
		case "warehouse":
			cfg.Warehouse = *warehouse
		case "metrics-listen":
			cfg.MetricsListen = *metricsListen
		}
	})
	cfg.Catalog = catalogFlags.applyTo(cfg.Catalog)
	return cfg, nil
}
