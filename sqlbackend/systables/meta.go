package systables

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// The metadata system tables: $snapshots, $schemas, $options, $tags and
// $consumers. They list what exists now; a snapshot or tag that expiry
// deletes between the listing and the read is left out, as if listed a
// moment later.

// snapshotsFields mirrors SnapshotsTable.TABLE_TYPE.
var snapshotsFields = columns(
	column("snapshot_id", bigintType(false)),
	column("schema_id", bigintType(false)),
	column("commit_user", stringType(false)),
	column("commit_identifier", bigintType(false)),
	column("commit_kind", stringType(false)),
	column("commit_time", timestampMillisType(false)),
	column("base_manifest_list", stringType(false)),
	column("delta_manifest_list", stringType(false)),
	column("changelog_manifest_list", stringType(true)),
	column("total_record_count", bigintType(true)),
	column("delta_record_count", bigintType(true)),
	column("changelog_record_count", bigintType(true)),
	column("watermark", bigintType(true)),
	column("next_row_id", bigintType(true)),
	column("operation", stringType(true)),
	column("writer_version", stringType(true)),
)

func snapshotsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	ids, err := src.t.Snapshots().IDs(ctx)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, id := range ids {
		s, err := src.t.Snapshots().Snapshot(ctx, id)
		if errors.Is(err, lakeerr.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, []any{
			s.ID, s.SchemaID, s.CommitUser, s.CommitIdentifier, string(s.CommitKind),
			src.wallClock(s.TimeMillis),
			s.BaseManifestList, s.DeltaManifestList, optional(s.ChangelogManifestList),
			optional(s.TotalRecordCount), optional(s.DeltaRecordCount), optional(s.ChangelogRecordCount),
			optional(s.Watermark), optional(s.NextRowID), optional(s.Operation), optional(s.WriterVersion),
		})
	}
	return rows, nil
}

// schemasFields mirrors SchemasTable.TABLE_TYPE.
var schemasFields = columns(
	column("schema_id", bigintType(false)),
	column("fields", stringType(false)),
	column("partition_keys", stringType(false)),
	column("primary_keys", stringType(false)),
	column("options", stringType(false)),
	column("comment", stringType(true)),
	column("update_time", timestampMillisType(false)),
)

func schemasRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	ids, err := src.t.Schemas().IDs(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, 0, len(ids))
	for _, id := range ids {
		s, err := src.t.Schemas().Schema(ctx, id)
		if err != nil {
			return nil, err
		}
		parts, err := flatSchemaJSON(s, "fields", "partitionKeys", "primaryKeys", "options")
		if err != nil {
			return nil, err
		}
		rows = append(rows, []any{s.ID, parts[0], parts[1], parts[2], parts[3], optional(s.Comment), src.wallClock(s.TimeMillis)})
	}
	return rows, nil
}

// flatSchemaJSON returns members of the schema file's JSON on one line,
// as Java's JsonSerdeUtil.toFlatJson shows them: taking them from the
// encoded schema keeps Paimon's serialization of fields and types.
func flatSchemaJSON(s *spec.TableSchema, keys ...string) ([]string, error) {
	encoded, err := spec.EncodeSchema(s)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(encoded, &members); err != nil {
		return nil, fmt.Errorf("schema %d: %w", s.ID, err)
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		var flat bytes.Buffer
		if err := json.Compact(&flat, members[k]); err != nil {
			return nil, fmt.Errorf("schema %d: %s: %w", s.ID, k, err)
		}
		out[i] = flat.String()
	}
	return out, nil
}

// optionsFields mirrors OptionsTable.TABLE_TYPE.
var optionsFields = columns(
	column("key", stringType(false)),
	column("value", stringType(false)),
)

// optionsRows lists the latest schema's options, sorted by key.
func optionsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	s, err := src.t.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rows := make([][]any, len(keys))
	for i, k := range keys {
		rows[i] = []any{k, s.Options[k]}
	}
	return rows, nil
}

// tagsFields mirrors TagsTable.TABLE_TYPE.
var tagsFields = columns(
	column("tag_name", stringType(false)),
	column("snapshot_id", bigintType(false)),
	column("schema_id", bigintType(false)),
	column("commit_time", timestampMillisType(false)),
	column("record_count", bigintType(true)),
	column("create_time", timestampMillisType(true)),
	column("time_retained", stringType(true)),
)

func tagsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	names, err := src.t.Snapshots().TagNames(ctx)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, name := range names {
		tag, err := src.t.Snapshots().Tag(ctx, name)
		if errors.Is(err, lakeerr.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var created, retained any
		if tag.CreateTime != nil {
			// tagCreateTime is a Java LocalDateTime, decoded as UTC: its
			// wall clock is shown as written.
			created = spec.TimestampFromTime(*tag.CreateTime)
		}
		if tag.TimeRetained != nil {
			retained = javaDurationString(*tag.TimeRetained)
		}
		rows = append(rows, []any{
			name, tag.ID, tag.SchemaID, src.wallClock(tag.TimeMillis), optional(tag.TotalRecordCount), created, retained,
		})
	}
	return rows, nil
}

// consumersFields mirrors ConsumersTable.TABLE_TYPE.
var consumersFields = columns(
	column("consumer_id", stringType(false)),
	column("next_snapshot_id", bigintType(false)),
)

// consumerPrefix names consumer files, consumer/consumer-<id>
// (ConsumerManager).
const consumerPrefix = "consumer-"

func consumersRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	infos, err := src.io.List(ctx, path.Join(src.t.Snapshots().BranchDir(), "consumer"))
	if err != nil {
		return nil, fmt.Errorf("list consumers: %w", err)
	}
	var rows [][]any
	for _, fi := range infos {
		name := path.Base(fi.Path)
		if fi.IsDir || !strings.HasPrefix(name, consumerPrefix) || fileio.IsTempName(name) {
			continue
		}
		data, err := src.io.ReadFile(ctx, fi.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read consumer %s: %w", fi.Path, err)
		}
		c, err := spec.DecodeConsumer(data)
		if err != nil {
			return nil, fmt.Errorf("consumer %s: %w", fi.Path, err)
		}
		rows = append(rows, []any{strings.TrimPrefix(name, consumerPrefix), c.NextSnapshot})
	}
	return rows, nil
}
