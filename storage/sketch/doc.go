// Package sketch unions the serialized Apache DataSketches that Paimon's
// hll_sketch and theta_sketch aggregators merge, producing the bytes Java
// produces.
//
// Paimon (paimon-common's ThetaSketch and HllSketchUtil, used by
// FieldThetaSketchAgg and FieldHllSketchAgg) bundles datasketches-java
// 4.2.0, shaded, in paimon-bundle 1.3.1 and 1.4.2. Java and lakesql read and
// compact the same tables, and a SELECT returns the stored bytes, so a union
// here is not merely an equivalent sketch: it is the exact byte image
// datasketches-java 4.2.0 serializes, including the parts that depend on
// the order Java inserted hashes in (the theta gadget's rebuilds, the HLL
// coupon hash set and auxiliary exception table layouts) and the floating
// point accumulators of the HLL preamble, computed with the same operations
// in the same order.
//
// Only what the aggregators need is here: the union of two serialized
// sketches. Malformed images are refused with lakeerr.ErrCorruption where
// Java would read past the array (its Memory reads are unchecked there) or
// throw; image versions older than the open-source format (theta
// serialization versions 1 and 2, from before 2015) are refused with
// lakeerr.ErrUnsupported.
//
// Reference: datasketches-java 4.2.0 (org.apache.datasketches.theta.UnionImpl,
// HeapQuickSelectSketch, CompactOperations; org.apache.datasketches.hll.Union,
// HllSketch, CouponList, CouponHashSet, Hll4Array, Conversions,
// HeapAuxHashMap, ToByteArrayImpl), read from its Maven Central sources jar.
package sketch
