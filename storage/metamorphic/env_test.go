package metamorphic

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	// partitionTypes are the types of the partition row (dt).
	partitionTypes = []spec.DataType{stringType}
)

// env is one table in a memio warehouse.
type env struct {
	cfg      config
	mem      *memio.FS
	dir      string
	spillDir string
	core     spec.CoreOptions
	// fields are the table's columns, for the filters of incr reads.
	fields []spec.DataField
}

// tableOptions make the workload interesting and bounded: short retry
// waits (concurrent writers lose races often, and a test must not sleep
// for seconds) with room for many retries, and manifest merges after a
// few commits, so that base manifest lists are rewritten under contention.
func tableOptions(cfg config) map[string]string {
	o := map[string]string{
		"bucket":                   fmt.Sprint(cfg.buckets),
		"commit.min-retry-wait":    "1 ms",
		"commit.max-retry-wait":    "20 ms",
		"commit.max-retries":       "100",
		"manifest.merge-min-count": "4",
	}
	if cfg.sharedKeys {
		o["sequence.field"] = "seq"
	}
	if cfg.maxRetries != 0 {
		o["commit.max-retries"] = fmt.Sprint(cfg.maxRetries)
	}
	return o
}

func newEnv(cfg config, spillDir string) (*env, error) {
	ctx := context.Background()
	mem := memio.New()
	cat := catalog.New(mem, "wh", nil)
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: stringType}, {Name: "pk", Type: bigintType},
			{Name: "v", Type: bigintType}, {Name: "seq", Type: bigintType},
		},
		PartitionKeys: []string{"dt"},
		Options:       tableOptions(cfg),
	}
	if cfg.pk {
		def.PrimaryKeys = []string{"dt", "pk"}
	}
	if err := cat.CreateDatabase(ctx, "db", true); err != nil {
		return nil, err
	}
	if err := cat.CreateTable(ctx, "db", "t", def, false); err != nil {
		return nil, err
	}
	dir, err := cat.TablePath("db", "t")
	if err != nil {
		return nil, err
	}
	// The Committers read the options the catalog stored, defaults
	// included, as a server would.
	tbl, err := table.Open(ctx, mem, dir)
	if err != nil {
		return nil, err
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	e := &env{cfg: cfg, mem: mem, dir: dir, spillDir: spillDir, core: s.CoreOptions(), fields: s.Fields}
	return e, nil
}

func decodeDT(partition []byte) string {
	values, err := spec.DeserializeBinaryRow(partitionTypes, partition)
	if err != nil || len(values) != 1 {
		return fmt.Sprintf("<bad partition %x>", partition)
	}
	if s, ok := values[0].(string); ok {
		return s
	}
	return "<null>"
}
