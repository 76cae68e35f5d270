package lsm

import (
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestAggregateSketches runs the hll_sketch and theta_sketch aggregators
// through the aggregation engine. The unions themselves are checked
// against Java's bytes in package sketch; these pairs are from the same
// golden files: the HLL input's coupons come before the accumulator's
// (Java folds the accumulator into a union of the input), and a
// compressed estimation-mode theta sketch comes out in the compact
// ordered form.
func TestAggregateSketches(t *testing.T) {
	hllAcc, hllIn := unhex(t, "02010704030801001e595c05"), unhex(t, "02010707030801000e30090e")
	thetaAcc := unhex(t, "02040339011acc930000000014ae470102849e488944a5fe0ea5b43b26913100")
	thetaEmpty := unhex(t, "01030300001e0000")
	junk := []byte("not a sketch, but long enough")
	binary := spec.DataType{Root: spec.Binary, Length: 8, Nullable: true}
	cases := []aggCase{
		{name: "hll union", fn: aggHLLSketch, typ: bytesType, inputs: []aggInput{add(hllAcc), add(hllIn)},
			want: unhex(t, "02010707030802000e30090e1e595c05")},
		{name: "theta union", fn: aggThetaSketch, typ: bytesType, inputs: []aggInput{add(thetaAcc), add(thetaEmpty)},
			want: unhex(t, "03030300001acc93020000000000803f0000000014ae4701fc4b8912913c0901c09023ff61d34301")},
		{name: "hll null input keeps", fn: aggHLLSketch, typ: bytesType, inputs: []aggInput{add(junk), add(nil)}, want: junk},
		{name: "theta first kept as is", fn: aggThetaSketch, typ: bytesType, inputs: []aggInput{add(nil), add(junk)}, want: junk},
		{name: "hll not a sketch", fn: aggHLLSketch, typ: bytesType, inputs: []aggInput{add(junk), add(hllIn)}, wantErr: lakeerr.ErrCorruption},
		{name: "theta not a sketch", fn: aggThetaSketch, typ: bytesType, inputs: []aggInput{add(thetaAcc), add(junk)}, wantErr: lakeerr.ErrCorruption},
		{name: "hll retract refused", fn: aggHLLSketch, typ: bytesType, inputs: []aggInput{add(hllAcc), retract(hllIn)}, wantErr: ErrRejectedRecord},
		{name: "theta retract refused", fn: aggThetaSketch, typ: bytesType, inputs: []aggInput{add(thetaAcc), retract(thetaAcc)}, wantErr: ErrRejectedRecord},
		{name: "hll retract ignored", fn: aggHLLSketch, typ: bytesType, options: map[string]string{"fields.v.ignore-retract": "true"},
			inputs: []aggInput{add(hllAcc), retract(hllIn)}, want: hllAcc},
		{name: "hll not varbinary", fn: aggHLLSketch, typ: binary, wantErr: ErrInvalidOptions},
		{name: "theta not varbinary", fn: aggThetaSketch, typ: binary, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}
