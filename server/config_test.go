package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseConfigOverDefaults(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{
		"listen": "0.0.0.0:3307",
		"max_connections": 20,
		"shutdown_timeout": "5s",
		"log": {"level": "debug", "format": "json"},
		"users": [{"name": "admin", "password": "pw"}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "0.0.0.0:3307" || cfg.MaxConnections != 20 || time.Duration(cfg.ShutdownTimeout) != 5*time.Second {
		t.Errorf("parsed %+v", cfg)
	}
	if cfg.Warehouse != DefaultWarehouse || cfg.ReadTimeout != 0 {
		t.Errorf("unset keys lost their defaults: warehouse %q, read_timeout %v", cfg.Warehouse, cfg.ReadTimeout)
	}
	if cfg.Log != (LogConfig{Level: "debug", Format: "json"}) {
		t.Errorf("log %+v", cfg.Log)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("valid config refused: %v", err)
	}
}

func TestConfigWrittenOutLoadsBack(t *testing.T) {
	want := DefaultConfig()
	want.Warehouse, want.Compaction = "/data/lake", CompactionBackground
	want.ReadTimeout, want.ShutdownTimeout = Duration(90*time.Second), Duration(1500*time.Millisecond)
	want.Users = []User{{Name: "admin", Host: "%", Password: "pw"}}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseConfig(data)
	if err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded back\n%+v\nwant\n%+v", got, want)
	}
}

func TestParseS3Config(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{
		"warehouse": "s3://lake/prod",
		"s3": {"endpoint": "http://127.0.0.1:7070", "region": "eu-west-1", "path_style": true, "max_attempts": 3}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.S3.Endpoint != "http://127.0.0.1:7070" || cfg.S3.Region != "eu-west-1" || !cfg.S3.PathStyle || cfg.S3.MaxAttempts != 3 {
		t.Errorf("s3 section parsed as %+v", cfg.S3)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("valid s3 config refused: %v", err)
	}
	if _, err := ParseConfig([]byte(`{"s3": {"path-style": true}}`)); err == nil {
		t.Error("a misspelt s3 key parsed")
	}
}

func TestParseConfigRejects(t *testing.T) {
	for name, text := range map[string]string{
		"unknown key":        `{"listen": "127.0.0.1:3306", "max_conections": 5}`,
		"unknown nested key": `{"tls": {"cert": "a.pem"}}`,
		"duration as number": `{"read_timeout": 30}`,
		"bad duration":       `{"read_timeout": "thirty"}`,
		"trailing data":      `{} {}`,
	} {
		if _, err := ParseConfig([]byte(text)); err == nil {
			t.Errorf("%s: %s parsed", name, text)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(*Config)
		want string
	}{
		"no port":             {func(c *Config) { c.Listen = "127.0.0.1" }, "listen address"},
		"negative max":        {func(c *Config) { c.MaxConnections = -1 }, "negative"},
		"negative buffer":     {func(c *Config) { c.WriteBufferMB = -1 }, "write_buffer_mb must not be negative"},
		"compaction":          {func(c *Config) { c.Compaction = "lazy" }, `compaction "lazy": want "inline" or "background"`},
		"log level":           {func(c *Config) { c.Log.Level = "loud" }, "log level"},
		"log format":          {func(c *Config) { c.Log.Format = "xml" }, "log format"},
		"cert without key":    {func(c *Config) { c.TLS.CertFile = "c.pem" }, "both cert_file and key_file"},
		"require without tls": {func(c *Config) { c.TLS.RequireSecureTransport = true }, "require_secure_transport"},
		"unnamed user":        {func(c *Config) { c.Users = []User{{Password: "x"}} }, "no name"},
		"duplicate user": {func(c *Config) {
			c.Users = []User{{Name: "a", Password: "x"}, {Name: "a", Host: "%", Password: "y"}}
		}, "configured twice"},
		"s3 without bucket": {func(c *Config) { c.Warehouse = "s3:///warehouse" }, "bucket/prefix URL"},
		"remote without password": {func(c *Config) {
			c.Listen = "10.0.0.1:3306"
			c.Users = []User{{Name: "a"}}
		}, "'a'@'%' has no password"},
	} {
		cfg := DefaultConfig()
		tc.edit(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, tc.want)
		}
	}
}

func TestLoopbackOnly(t *testing.T) {
	for listen, want := range map[string]bool{
		"127.0.0.1:3306": true, "127.1.2.3:0": true, "[::1]:3306": true, "localhost:3306": true,
		"0.0.0.0:3306": false, ":3306": false, "[::]:3306": false, "10.0.0.1:3306": false, "db.example.com:3306": false,
	} {
		if got := (Config{Listen: listen}).loopbackOnly(); got != want {
			t.Errorf("loopbackOnly(%s) = %v, want %v", listen, got, want)
		}
	}
}
