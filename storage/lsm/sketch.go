package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/sketch"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	aggHLLSketch   = "hll_sketch"
	aggThetaSketch = "theta_sketch"
)

// sketchAgg mirrors FieldHllSketchAgg and FieldThetaSketchAgg: VARBINARY
// values holding serialized DataSketches are unioned into the bytes Java
// writes (HllSketchUtil.union, ThetaSketch.union; see package sketch). A
// null side returns the other unparsed, as Java does; retraction is
// refused, as FieldAggregator's default does.
type sketchAgg struct {
	retractRefusal
	stateless
	union func(acc, in []byte) ([]byte, error)
}

func newSketchAgg(col spec.DataField, name string, refuse retractRefusal) (aggregatorFactory, error) {
	agg := sketchAgg{retractRefusal: refuse, union: sketch.ThetaUnion}
	kind := "theta"
	if name == aggHLLSketch {
		agg.union, kind = sketch.HLLUnion, "hll"
	}
	if col.Type.Root != spec.VarBinary {
		return nil, fmt.Errorf("%w: data type for %s sketch column %s must be VARBINARY", ErrInvalidOptions, kind, col.Name)
	}
	return func() fieldAggregator { return agg }, nil
}

func (s sketchAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := operands[[]byte](acc, in)
	if err != nil {
		return nil, err
	}
	out, err := s.union(a, b)
	if err != nil {
		return nil, fmt.Errorf("aggregate function %s: %w", s.function, err)
	}
	return out, nil
}
