package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/orcio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// Format is the file format of a table's manifest lists, manifests and
// index manifests. Paimon 1.x writes all three in the format its
// manifest.format option names (AbstractFileStore builds ManifestList,
// ManifestFile and IndexManifestFile with FileFormat.manifestFormat):
// Avro by default, Parquet or ORC on request. Paimon 2.0 removed the
// option and writes Avro only.
type Format int

const (
	FormatAvro Format = iota
	FormatParquet
)

func (f Format) String() string {
	if f == FormatParquet {
		return "parquet"
	}
	return "avro"
}

// FormatOf is the format new manifests of a table with options o are
// written in, as Java 1.x writes them: Java reads every manifest of a
// table in the current manifest.format, so a writer must follow it. ORC,
// which lakesql cannot write, and unknown values are refused.
func FormatOf(o spec.CoreOptions) (Format, error) {
	switch v := o.ManifestFormat(); v {
	case "avro":
		return FormatAvro, nil
	case "parquet":
		return FormatParquet, nil
	default:
		return 0, fmt.Errorf("%s=%s: lakesql writes avro and parquet manifests: %w", spec.OptionManifestFormat, v, lakeerr.ErrUnsupported)
	}
}

// parquetMagic starts every Parquet file; Avro container files start with
// "Obj\x01". Files are told apart by it, not by the table's option, so a
// table whose manifest.format changed, holding both, reads.
var parquetMagic = []byte("PAR1")

func isParquet(data []byte) bool { return bytes.HasPrefix(data, parquetMagic) }

// orcMagic starts every ORC file, which Paimon 1.x writes with
// manifest.format = orc.
var orcMagic = []byte("ORC")

func isORC(data []byte) bool { return bytes.HasPrefix(data, orcMagic) }

// DecodeList decodes a manifest list of any format. Errors wrap
// lakeerr.ErrCorruption for damaged files.
func DecodeList(data []byte) ([]spec.ManifestFileMeta, error) {
	if isORC(data) {
		return decodeORC("manifest list", data, spec.ManifestListFields(), spec.ManifestFileMetaFromRow)
	}
	if !isParquet(data) {
		return spec.DecodeManifestList(data)
	}
	return decodeParquet("manifest list", data, spec.ManifestListFields(), spec.ManifestFileMetaFromRow)
}

// DecodeEntries decodes a manifest of any format, with the errors of
// DecodeList.
func DecodeEntries(data []byte) ([]spec.ManifestEntry, error) {
	if isORC(data) {
		return decodeORC("manifest", data, spec.ManifestEntryFields(true), spec.ManifestEntryFromRow)
	}
	if !isParquet(data) {
		return spec.DecodeManifestEntries(data)
	}
	return decodeParquet("manifest", data, spec.ManifestEntryFields(true), spec.ManifestEntryFromRow)
}

// DecodeIndex decodes an index manifest of any format, with the
// errors of DecodeList.
func DecodeIndex(data []byte) ([]spec.IndexManifestEntry, error) {
	if isORC(data) {
		return decodeORC("index manifest", data, spec.IndexManifestFields(true), spec.IndexManifestEntryFromRow)
	}
	if !isParquet(data) {
		return spec.DecodeIndexManifest(data)
	}
	return decodeParquet("index manifest", data, spec.IndexManifestFields(true), spec.IndexManifestEntryFromRow)
}

// EncodeList encodes a manifest list in format f, as Java writes it.
func EncodeList(f Format, metas []spec.ManifestFileMeta) ([]byte, error) {
	if f == FormatAvro {
		return spec.EncodeManifestList(metas)
	}
	return encodeParquet("manifest list", spec.ManifestListFields(), len(metas), func(i int) ([]any, error) {
		return spec.ManifestFileMetaRow(&metas[i]), nil
	})
}

// EncodeEntries encodes a manifest in format f, as Java writes it. It
// rejects kinds and file sources Java cannot read.
func EncodeEntries(f Format, entries []spec.ManifestEntry) ([]byte, error) {
	if f == FormatAvro {
		return spec.EncodeManifestEntries(entries)
	}
	withSequences := false
	for i := range entries {
		withSequences = withSequences || entries[i].File.WriteColsSequences != nil
	}
	return encodeParquet("manifest", spec.ManifestEntryFields(withSequences), len(entries), func(i int) ([]any, error) {
		return spec.ManifestEntryRow(&entries[i], withSequences)
	})
}

// EncodeIndex encodes an index manifest in format f, as Java writes it.
func EncodeIndex(f Format, entries []spec.IndexManifestEntry) ([]byte, error) {
	if f == FormatAvro {
		return spec.EncodeIndexManifest(entries)
	}
	withSourceMeta := false
	for i := range entries {
		g := entries[i].IndexFile.GlobalIndex
		withSourceMeta = withSourceMeta || g != nil && g.SourceMeta != nil
	}
	return encodeParquet("index manifest", spec.IndexManifestFields(withSourceMeta), len(entries), func(i int) ([]any, error) {
		return spec.IndexManifestEntryRow(&entries[i], withSourceMeta)
	})
}

// maxPreallocatedRows bounds the records allocated up front from a
// file's footer, which a damaged file can overstate.
const maxPreallocatedRows = 1 << 14

// decodeParquet reads every row of a Parquet metadata file with Java's
// field list, matching columns by name as Java's Parquet reader does, and
// converts each with fromRow. Fields an older writer did not have read as
// NULL.
func decodeParquet[T any](kind string, data []byte, fields []spec.DataField, fromRow func([]any) (T, error)) ([]T, error) {
	r, err := parquetio.Open(bytes.NewReader(data), "parquet "+kind)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	columns := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		columns[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	it, err := r.NewRowIterator(columns)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer it.Close()
	out := make([]T, 0, min(r.NumRows(), maxPreallocatedRows))
	for {
		row, err := it.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("manifest: %w", err)
		}
		v, err := fromRow(row)
		if err != nil {
			return nil, fmt.Errorf("manifest: parquet %s, record %d: %w", kind, len(out), err)
		}
		out = append(out, v)
	}
}

// decodeORC reads every row of an ORC metadata file as decodeParquet
// reads a Parquet one.
func decodeORC[T any](kind string, data []byte, fields []spec.DataField, fromRow func([]any) (T, error)) ([]T, error) {
	f, err := orcio.Open(bytes.NewReader(data), int64(len(data)), "orc "+kind)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	rows, err := f.ReadRows(fields)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	out := make([]T, len(rows))
	for i, row := range rows {
		if out[i], err = fromRow(row); err != nil {
			return nil, fmt.Errorf("manifest: orc %s, record %d: %w", kind, i, err)
		}
	}
	return out, nil
}

// encodeParquet writes n rows of fields as Java's Parquet writer lays
// out a file: zstd (manifest.compression, which lakesql requires to be
// zstd) at level 1, PLAIN values, one row group per 128 MiB.
func encodeParquet(kind string, fields []spec.DataField, n int, row func(i int) ([]any, error)) ([]byte, error) {
	var out bytes.Buffer
	w, err := parquetio.NewWriter(&out, fields, parquetio.WriterOptions{})
	if err != nil {
		return nil, fmt.Errorf("manifest: parquet %s: %w", kind, err)
	}
	for i := range n {
		values, err := row(i)
		if err == nil {
			err = w.Write(values)
		}
		if err != nil {
			return nil, fmt.Errorf("manifest: parquet %s, record %d: %w", kind, i, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("manifest: parquet %s: %w", kind, err)
	}
	return out.Bytes(), nil
}
