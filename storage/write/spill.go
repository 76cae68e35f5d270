package write

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// spillDir is the private local directory holding one TableWriter's spill
// files. It is created on the first spill and removed by Close and Abort;
// the files are never part of the table.
type spillDir struct {
	parent string // "" is os.TempDir()
	dir    string
	count  int
}

func (d *spillDir) create() (*os.File, error) {
	if d.dir == "" {
		dir, err := os.MkdirTemp(d.parent, "lakesql-write-")
		if err != nil {
			return nil, fmt.Errorf("create spill directory: %w", err)
		}
		d.dir = dir
	}
	d.count++
	return os.OpenFile(filepath.Join(d.dir, fmt.Sprintf("run-%d.spill", d.count)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// remove deletes the directory and every spill file in it.
func (d *spillDir) remove() error {
	if d.dir == "" {
		return nil
	}
	err := os.RemoveAll(d.dir)
	d.dir = ""
	return err
}

// A spill file is one sorted run of records, each framed as
//
//	uvarint(body length) | uvarint(sequence number) | value BinaryRow
//
// The value row is Paimon's BinaryRow encoding of the full value, whose
// header byte carries the row kind; the key is re-projected from the value
// on read, since key columns are value columns.
type spillRun struct {
	path string
}

// writeSpillRun writes sorted records to a new spill file.
func writeSpillRun(dir *spillDir, valueTypes []spec.DataType, records lsm.RecordIterator) (run *spillRun, err error) {
	f, err := dir.create()
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	var frame []byte
	for {
		kv, ok, err := records.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if frame, err = encodeSpillRecord(frame[:0], valueTypes, &kv); err != nil {
			return nil, err
		}
		if _, err = w.Write(frame); err != nil {
			return nil, fmt.Errorf("write spill file: %w", err)
		}
	}
	if err = w.Flush(); err != nil {
		return nil, fmt.Errorf("write spill file: %w", err)
	}
	return &spillRun{path: f.Name()}, nil
}

func encodeSpillRecord(dst []byte, valueTypes []spec.DataType, kv *lsm.KeyValue) ([]byte, error) {
	row, err := spec.EncodeBinaryRow(valueTypes, kv.Value, kv.Kind)
	if err != nil {
		return nil, err
	}
	var seq [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(seq[:], uint64(kv.Seq))
	dst = binary.AppendUvarint(dst, uint64(n+len(row)))
	dst = append(dst, seq[:n]...)
	return append(dst, row...), nil
}

// spillReader streams a spill run back as records.
type spillReader struct {
	file       *os.File
	in         *bufio.Reader
	valueTypes []spec.DataType
	key        columnSet
	body       []byte
}

func openSpillRun(run *spillRun, valueTypes []spec.DataType, key columnSet) (*spillReader, error) {
	f, err := os.Open(run.path)
	if err != nil {
		return nil, fmt.Errorf("open spill file: %w", err)
	}
	return &spillReader{file: f, in: bufio.NewReaderSize(f, 1<<16), valueTypes: valueTypes, key: key}, nil
}

// Next implements lsm.RecordIterator; every record has fresh slices.
func (r *spillReader) Next() (lsm.KeyValue, bool, error) {
	size, err := binary.ReadUvarint(r.in)
	if errors.Is(err, io.EOF) {
		return lsm.KeyValue{}, false, nil
	}
	if err != nil {
		return lsm.KeyValue{}, false, spillCorrupt(err)
	}
	if uint64(cap(r.body)) < size {
		r.body = make([]byte, size)
	}
	body := r.body[:size]
	if _, err := io.ReadFull(r.in, body); err != nil {
		return lsm.KeyValue{}, false, spillCorrupt(err)
	}
	seq, n := binary.Uvarint(body)
	if n <= 0 {
		return lsm.KeyValue{}, false, spillCorrupt(errors.New("bad sequence number"))
	}
	value, kind, err := spec.DecodeBinaryRow(r.valueTypes, body[n:])
	if err != nil {
		return lsm.KeyValue{}, false, spillCorrupt(err)
	}
	return lsm.KeyValue{Key: r.key.project(value, nil), Seq: int64(seq), Kind: kind, Value: value}, true, nil
}

func (r *spillReader) Close() error { return r.file.Close() }

func spillCorrupt(err error) error {
	return fmt.Errorf("%w: read spill file: %v", lakeerr.ErrCorruption, err)
}
