package spec

import (
	"errors"
	"fmt"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Decoding: avroScanBlocks reads the container framing, avroPlanFor parses
// and checks the writer schema (once per schema text, as Java writes a
// handful), and hamba decodes each block's records into a wire struct whose
// avro tags name Java's fields. hamba matches them by name against the
// writer schema, so reordered fields are found and missing ones stay nil;
// pointer and slice fields hold what may be null. The records must use up
// their block exactly, as Java requires.

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
	// api decodes the records; its decoder cache lives as long as the plan.
	api    avro.API
	writer avro.Schema
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

// avroPlanFor returns the plan for files of format whose writer schema is
// text.
func avroPlanFor(format *avroFormat, text []byte) *avroPlan {
	avroDecoding.Lock()
	defer avroDecoding.Unlock()
	if p, ok := avroDecoding.plans[avroPlanKey{format, string(text)}]; ok {
		return p
	}
	if avroDecoding.api == nil || len(avroDecoding.plans) >= avroMaxPlans {
		avroDecoding.api = avroConfig.Freeze()
		avroDecoding.plans = map[avroPlanKey]*avroPlan{}
	}
	key := avroPlanKey{format, string(text)}
	p := newAvroPlan(avroDecoding.api, format, key.text)
	avroDecoding.plans[key] = p
	return p
}

func newAvroPlan(api avro.API, format *avroFormat, text string) *avroPlan {
	writer, fitted, err := avroFitWriterSchema(format, text)
	if err != nil {
		// hamba's parse errors can quote the whole schema.
		return &avroPlan{err: fmt.Errorf("avro writer schema: %.300s: %w", err, lakeerr.ErrCorruption)}
	}
	return &avroPlan{api: api, writer: writer, fitted: fitted}
}

// avroFitWriterSchema parses, checks and fits a writer schema. fitted is
// nil if records decode with the writer schema as it is.
func avroFitWriterSchema(format *avroFormat, text string) (writer, fitted avro.Schema, err error) {
	writer, err = avro.ParseWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, nil, err
	}
	if err := avroCheckSchema(writer); err != nil {
		return nil, nil, err
	}
	var f avroFitter
	fitted, err = f.fit(writer, format.schema)
	if err != nil || !f.changed {
		return writer, nil, err
	}
	return writer, fitted, nil
}

// avroMinRecordInput caps the records allocated ahead of decoding at one
// per this many input bytes, so that a forged block count cannot make the
// decoder allocate far more than the input justifies; past it the result
// simply grows. Real manifests take tens of bytes per record.
const avroMinRecordInput = 8

// avroDecode decodes every record of the container file data, written in
// the given format, into the wire struct W and converts it with conv.
// Records are decoded into one W, which reset readies for the next record
// and conv must copy out of. hamba can panic on hostile input; a panic is
// reported as corruption.
func avroDecode[W, T any](data []byte, format *avroFormat, conv func(*W) (T, error), reset func(*W)) (out []T, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("avro: %v: %w", r, lakeerr.ErrCorruption)
		}
	}()
	file, err := avroScanBlocks(data)
	if err != nil {
		return nil, err
	}
	plan := avroPlanFor(format, file.schema)
	if plan.err != nil {
		return nil, plan.err
	}
	d := avroRecords[W, T]{
		plan: plan, r: avro.NewReader(nil, 0, avro.WithReaderConfig(plan.api)), rec: new(*W), conv: conv, reset: reset,
	}
	inflater := avroInflaters.Get().(*avroInflater)
	out, err = d.blocks(file, inflater, make([]T, 0, min(file.records, len(data)/avroMinRecordInput)))
	inflater.release() // not deferred: see avroInflaters
	return out, err
}

// avroRecords decodes the records of one file.
type avroRecords[W, T any] struct {
	plan  *avroPlan
	r     *avro.Reader
	rec   **W // the record hamba decodes into, nil until the first
	conv  func(*W) (T, error)
	reset func(*W)
}

// blocks appends the records of every block of file to out.
func (d *avroRecords[W, T]) blocks(file avroFile, inflater *avroInflater, out []T) ([]T, error) {
	for _, b := range file.blocks {
		plain, err := inflater.inflate(file.codec, b.data)
		if err != nil {
			return nil, fmt.Errorf("avro block: %w: %w", err, lakeerr.ErrCorruption)
		}
		if out, err = d.block(plain, b.count, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// block appends the count records of one decompressed block to out.
func (d *avroRecords[W, T]) block(plain []byte, count int64, out []T) ([]T, error) {
	d.r.Reset(plain)
	d.r.Error = nil
	for range count {
		v, err := d.record()
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out), err)
		}
		out = append(out, v)
	}
	if d.r.Peek(); d.r.Error == nil {
		return nil, fmt.Errorf("avro block: bytes after its %d records: %w", count, lakeerr.ErrCorruption)
	}
	return out, nil
}

// record decodes the next record and converts it. If the writer schema
// does not fit the wire struct as it is, the record is decoded generically
// and transcoded to the fitted schema first: hamba would skip unknown
// fields with a loop that runs once per claimed array item even past the
// end of the data, whereas its generic decoding bounds arrays and stops at
// the first error.
func (d *avroRecords[W, T]) record() (T, error) {
	var zero T
	if *d.rec != nil {
		d.reset(*d.rec)
	}
	var err error
	if d.plan.fitted == nil {
		d.r.ReadVal(d.plan.writer, d.rec)
		err = d.r.Error
	} else {
		err = d.transcode()
	}
	switch {
	case err != nil:
		// Any error, even one wrapping io.EOF, means the record ran past
		// the end of its block.
		return zero, avroCorrupt(err)
	case *d.rec == nil:
		return zero, errAvroNull // Paimon <= 0.8 wrote records as ["null", record]
	}
	return d.conv(*d.rec)
}

func (d *avroRecords[W, T]) transcode() error {
	var generic any
	if d.r.ReadVal(d.plan.writer, &generic); d.r.Error != nil {
		return d.r.Error
	}
	data, err := d.plan.api.Marshal(d.plan.fitted, generic)
	if err != nil {
		return err
	}
	return d.plan.api.Unmarshal(d.plan.fitted, data, d.rec)
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
