package lsm

import (
	"bytes"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const aggRBM32 = "rbm32"

// rbm32Agg mirrors FieldRoaringBitmap32Agg: VARBINARY values holding
// serialized 32-bit RoaringBitmaps (the portable format, which Java's
// RoaringBitmap.serialize and roaring's ToBytes share) are unioned and
// written back after runOptimize, as RoaringBitmap32.serialize does.
// Retraction is refused, as FieldAggregator's default does.
type rbm32Agg struct {
	retractRefusal
	stateless
}

func newRBM32Agg(col spec.DataField, refuse retractRefusal) (aggregatorFactory, error) {
	if col.Type.Root != spec.VarBinary {
		return nil, fmt.Errorf("%w: data type for roaring bitmap column %s must be VARBINARY", ErrInvalidOptions, col.Name)
	}
	agg := rbm32Agg{retractRefusal: refuse}
	return func() fieldAggregator { return agg }, nil
}

func (rbm32Agg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := operands[[]byte](acc, in)
	if err != nil {
		return nil, err
	}
	union, err := readBitmap32(a)
	if err != nil {
		return nil, err
	}
	other, err := readBitmap32(b)
	if err != nil {
		return nil, err
	}
	union.Or(other)
	union.RunOptimize()
	return union.ToBytes()
}

func readBitmap32(b []byte) (*roaring.Bitmap, error) {
	bm := roaring.New()
	if _, err := bm.ReadFrom(bytes.NewReader(b)); err != nil {
		return nil, fmt.Errorf("%w: rbm32 value is not a serialized RoaringBitmap: %v", lakeerr.ErrCorruption, err)
	}
	return bm, nil
}
