package write

import (
	"unsafe"

	"github.com/lakesql/lakesql/storage/spec"
)

// Memory accounting. Java measures its write buffer exactly because records
// live in binary pages; here records are Go values, so their size is
// estimated, erring high: every slot, header and boxed payload is counted,
// rounded up to the allocator's 8-byte granularity, plus a share for the
// buffer slice's growth slack.
const (
	interfaceBytes   = int64(unsafe.Sizeof(any(nil)))
	sliceHeaderBytes = int64(unsafe.Sizeof([]any(nil)))
	stringHeaderSize = int64(unsafe.Sizeof(""))
	// recordOverhead is one buffered lsm.KeyValue (two slice headers, the
	// sequence number and kind) with 50% slack for append growth.
	recordOverhead = int64(unsafe.Sizeof(struct {
		a, b []any
		c    int64
		d    int64
	}{})) * 3 / 2
)

// estimateRecordBytes is the memory a buffered record with this value row
// and numKeys key slots holds.
func estimateRecordBytes(value []any, numKeys int) int64 {
	size := recordOverhead + int64(len(value)+numKeys)*interfaceBytes
	for _, v := range value {
		size += estimateValueBytes(v)
	}
	return size
}

// estimateValueBytes is the heap memory behind one interface value.
func estimateValueBytes(v any) int64 {
	switch x := v.(type) {
	case nil, bool, int8:
		return 0
	case int16, int32, int64, float32, float64, spec.DateValue, spec.TimeValue:
		return 8
	case string:
		return stringHeaderSize + roundUp8(int64(len(x)))
	case []byte:
		return sliceHeaderBytes + roundUp8(int64(cap(x)))
	case spec.DecimalValue:
		return decimalBytes(x)
	case spec.TimestampValue:
		return 16
	case []any:
		return estimateSliceBytes(x)
	case spec.MapValue:
		return 2*sliceHeaderBytes + estimateSliceBytes(x.Keys) + estimateSliceBytes(x.Values)
	}
	return 64
}

func decimalBytes(d spec.DecimalValue) int64 {
	const compact = 32
	if _, small := d.UnscaledInt64(); small {
		return compact
	}
	return compact + 32 + roundUp8(int64(len(d.Unscaled().Bits())*8))
}

func estimateSliceBytes(values []any) int64 {
	size := sliceHeaderBytes + int64(len(values))*interfaceBytes
	for _, v := range values {
		size += estimateValueBytes(v)
	}
	return size
}

func roundUp8(n int64) int64 { return (n + 7) &^ 7 }
