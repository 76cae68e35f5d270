package spec

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/klauspost/compress/zstd"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Decoding: hamba's ocf reads the container and decodes each record into a
// wire struct whose avro tags name Java's fields. hamba matches them by name
// against the file's own writer schema, so reordered fields are found and
// missing ones stay nil; pointer and slice fields hold what may be null.
// Before that, avroScanBlocks checks the framing and avroPlanFor the writer
// schema, so that hamba only ever sees input it handles safely.
//
// One thing is not checked: Java rejects a block whose records end before
// its data does, while ocf ignores the rest of the last block (and reads the
// rest of an earlier one as the start of the next, which then fails).

// avroMaxArrayItems bounds the items of one decoded array, and so what a
// forged item count allocates. Arrays in manifests have one item per
// column or per data file of a bucket.
const avroMaxArrayItems = 1 << 20

// avroConfig is how hamba reads and writes our files. The last two settings
// make arrays one block of items without a byte size, as Java writes them.
var avroConfig = avro.Config{
	MaxByteSliceSize:       avroMaxBlockSize,
	MaxSliceAllocSize:      avroMaxArrayItems,
	DisableBlockSizeHeader: true,
	BlockLength:            1 << 30,
}

var errAvroNull = fmt.Errorf("avro: null in a required field: %w", lakeerr.ErrCorruption)

// avroPlan is how files with one writer schema are read.
type avroPlan struct {
	err error
	// fitted is the schema records are transcoded to, or nil if hamba
	// decodes the writer schema straight into the wire struct.
	fitted avro.Schema
}

// avroMaxPlans bounds the writer schemas remembered; real tables have a
// handful. hamba caches a decoder per schema for the life of its API, so the
// API is replaced along with the plans: hostile files must not grow memory
// without bound.
const avroMaxPlans = 64

type avroPlanKey struct {
	format *avroFormat
	text   string
}

var avroDecoding struct {
	sync.Mutex
	api   avro.API
	plans map[avroPlanKey]*avroPlan
}

// avroPlanFor returns the API to decode with and the plan for files of
// format whose writer schema is text.
func avroPlanFor(format *avroFormat, text string) (avro.API, *avroPlan) {
	key := avroPlanKey{format, text}
	avroDecoding.Lock()
	defer avroDecoding.Unlock()
	if p, ok := avroDecoding.plans[key]; ok {
		return avroDecoding.api, p
	}
	if avroDecoding.api == nil || len(avroDecoding.plans) >= avroMaxPlans {
		avroDecoding.api = avroConfig.Freeze()
		avroDecoding.plans = map[avroPlanKey]*avroPlan{}
	}
	p := newAvroPlan(format, text)
	avroDecoding.plans[key] = p
	return avroDecoding.api, p
}

func newAvroPlan(format *avroFormat, text string) *avroPlan {
	fitted, err := avroFitWriterSchema(format, text)
	if err != nil {
		// hamba's parse errors can quote the whole schema.
		return &avroPlan{err: fmt.Errorf("avro writer schema: %.300s: %w", err, lakeerr.ErrCorruption)}
	}
	return &avroPlan{fitted: fitted}
}

// avroFitWriterSchema parses, checks and fits a writer schema. It returns
// nil if records decode with the writer schema as it is.
func avroFitWriterSchema(format *avroFormat, text string) (avro.Schema, error) {
	writer, err := avro.ParseWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, err
	}
	if err := avroCheckSchema(writer); err != nil {
		return nil, err
	}
	var f avroFitter
	fitted, err := f.fit(writer, format.schema)
	if err != nil || !f.changed {
		return nil, err
	}
	return fitted, nil
}

// avroZstdDecoders are reused across files but never shared: ocf resets its
// zstd decoder after every block, which must not race with another file.
var avroZstdDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(avroMaxBlockSize))
	if err != nil {
		panic(fmt.Sprintf("spec: zstd decoder options: %v", err))
	}
	return d
}}

// avroMinRecordInput caps the records allocated ahead of decoding at one
// per this many input bytes, so that a forged block count cannot make the
// decoder allocate far more than the input justifies; past it the result
// simply grows. Real manifests take tens of bytes per record.
const avroMinRecordInput = 8

// avroDecode decodes every record of the container file data, written in
// the given format, into the wire struct W and converts it with conv.
// hamba can panic on hostile input; a panic is reported as corruption.
func avroDecode[W, T any](data []byte, format *avroFormat, conv func(*W) (T, error)) (out []T, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("avro: %v: %w", r, lakeerr.ErrCorruption)
		}
	}()
	scan, err := avroScanBlocks(data)
	if err != nil {
		return nil, err
	}
	api, plan := avroPlanFor(format, scan.schema)
	if plan.err != nil {
		return nil, plan.err
	}
	zd := avroZstdDecoders.Get().(*zstd.Decoder)
	defer avroZstdDecoders.Put(zd)
	dec, err := ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderConfig(api),
		ocf.WithDecoderSchemaCache(&avro.SchemaCache{}), ocf.WithZStandardDecoder(zd))
	if err != nil {
		return nil, avroCorrupt(err)
	}
	out = make([]T, 0, min(scan.records, len(data)/avroMinRecordInput))
	return avroReadRecords(dec, api, plan.fitted, out, conv)
}

// avroReadRecords appends the records dec reads to out.
func avroReadRecords[W, T any](dec *ocf.Decoder, api avro.API, fitted avro.Schema, out []T, conv func(*W) (T, error)) ([]T, error) {
	for dec.HasNext() {
		v, err := avroReadRecord(dec, api, fitted, conv)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out), err)
		}
		out = append(out, v)
	}
	if err := dec.Error(); err != nil {
		return nil, avroCorrupt(err)
	}
	return out, nil
}

// avroReadRecord decodes the next record and converts it. If the writer
// schema does not fit the wire struct as it is, the record is decoded
// generically and transcoded to the fitted schema first: hamba would skip
// unknown fields with a loop that runs once per claimed array item even
// past the end of the data, whereas its generic decoding bounds arrays and
// stops at the first error.
func avroReadRecord[W, T any](dec *ocf.Decoder, api avro.API, fitted avro.Schema, conv func(*W) (T, error)) (T, error) {
	var zero T
	var rec *W
	var err error
	if fitted == nil {
		err = dec.Decode(&rec)
	} else {
		err = avroTranscode(dec, api, fitted, &rec)
	}
	switch {
	case err != nil:
		return zero, avroCorrupt(err)
	case rec == nil:
		return zero, errAvroNull // Paimon <= 0.8 wrote records as ["null", record]
	}
	return conv(rec)
}

func avroTranscode(dec *ocf.Decoder, api avro.API, fitted avro.Schema, rec any) error {
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return err
	}
	data, err := api.Marshal(fitted, generic)
	if err != nil {
		return err
	}
	return api.Unmarshal(fitted, data, rec)
}

// avroCorrupt classifies an error from hamba as corruption.
func avroCorrupt(err error) error {
	if errors.Is(err, lakeerr.ErrCorruption) || errors.Is(err, lakeerr.ErrUnsupported) {
		return err
	}
	return fmt.Errorf("avro: %w: %w", err, lakeerr.ErrCorruption)
}

// avroCheckVersion checks the _VERSION every Paimon manifest record starts
// with (VersionedObjectSerializer / ManifestSchemaUtils).
func avroCheckVersion(got, want int32) error {
	if got != want {
		return fmt.Errorf("unsupported _VERSION %d (want %d): %w", got, want, lakeerr.ErrCorruption)
	}
	return nil
}

// avroRequired dereferences a record that Paimon <= 0.8 wrote as nullable.
func avroRequired[V any](p *V) (V, error) {
	if p == nil {
		var zero V
		return zero, errAvroNull
	}
	return *p, nil
}
