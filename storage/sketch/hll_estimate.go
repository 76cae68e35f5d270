package sketch

// couponX and couponY are CouponMapping.xArr and yArr of datasketches-java
// 4.2.0: coupon counts and the cardinalities they estimate, computed by
// DataSketches for coupon lgK 26. Data, not code: the HIP accumulator a
// union starts from when its coupons become an HLL array is interpolated
// from them, so the image needs these exact doubles.
var couponX = [...]float64{
	0.0, 1.0, 20.0, 400.0,
	8000.0, 160000.0, 300000.0, 600000.0,
	900000.0, 1200000.0, 1500000.0, 1800000.0,
	2100000.0, 2400000.0, 2700000.0, 3000000.0,
	3300000.0, 3600000.0, 3900000.0, 4200000.0,
	4500000.0, 4800000.0, 5100000.0, 5400000.0,
	5700000.0, 6000000.0, 6300000.0, 6600000.0,
	6900000.0, 7200000.0, 7500000.0, 7800000.0,
	8100000.0, 8400000.0, 8700000.0, 9000000.0,
	9300000.0, 9600000.0, 9900000.0, 10200000.0,
}

var couponY = [...]float64{
	0.0000000000000000, 1.0000000000000000, 20.0000009437402611, 400.0003963713384110,
	8000.1589294602090376, 160063.6067763759638183, 300223.7071597663452849, 600895.5933856170158833,
	902016.8065120954997838, 1203588.4983199508860707, 1505611.8245524743106216, 1808087.9449319066479802,
	2111018.0231759352609515, 2414403.2270142501220107, 2718244.7282051891088486, 3022543.7025524540804327,
	3327301.3299219091422856, 3632518.7942584538832307, 3938197.2836029687896371, 4244337.9901093561202288,
	4550942.1100616492331028, 4858010.8438911894336343, 5165545.3961938973516226, 5473546.9757476449012756,
	5782016.7955296505242586, 6090956.0727340159937739, 6400366.0287892958149314, 6710247.8893762007355690,
	7020602.8844453142955899, 7331432.2482349723577499, 7642737.2192891482263803, 7954519.0404754765331745,
	8266778.9590033423155546, 8579518.2264420464634895, 8892738.0987390466034412, 9206439.8362383283674717,
	9520624.7036988288164139, 9835293.9703129194676876, 10150448.9097250290215015, 10466090.8000503256917000,
}

// couponEstimate mirrors AbstractCoupons.getEstimate: the cubic
// (Lagrange) interpolation through the four table points around the count
// (CubicInterpolation.usingXAndYTables), never below the count itself.
// The operations are Java's, in Java's order, so the double is the same.
func couponEstimate(count int) float64 {
	x := float64(count)
	last := len(couponX) - 1
	var est float64
	if x == couponX[last] {
		est = couponY[last]
	} else {
		// findStraddle: the largest offset with couponX[offset] <= x,
		// found by Java's bisection (same answer on a sorted table).
		lo, hi := 0, last
		for lo+1 < hi {
			mid := lo + (hi-lo)/2
			if couponX[mid] <= x {
				lo = mid
			} else {
				hi = mid
			}
		}
		switch lo {
		case 0:
		case last - 1:
			lo -= 2
		default:
			lo--
		}
		est = cubicInterpolate(couponX[lo:lo+4], couponY[lo:lo+4], x)
	}
	return max(est, x)
}

// cubicInterpolate is CubicInterpolation.cubicInterpolate, with Java's
// operations in Java's order (no product here feeds an addition, so no
// architecture fuses one).
func cubicInterpolate(xs, ys []float64, x float64) float64 {
	x0, x1, x2, x3 := xs[0], xs[1], xs[2], xs[3]
	l0Numer := (x - x1) * (x - x2) * (x - x3)
	l1Numer := (x - x0) * (x - x2) * (x - x3)
	l2Numer := (x - x0) * (x - x1) * (x - x3)
	l3Numer := (x - x0) * (x - x1) * (x - x2)
	l0Denom := (x0 - x1) * (x0 - x2) * (x0 - x3)
	l1Denom := (x1 - x0) * (x1 - x2) * (x1 - x3)
	l2Denom := (x2 - x0) * (x2 - x1) * (x2 - x3)
	l3Denom := (x3 - x0) * (x3 - x1) * (x3 - x2)
	term0 := ys[0] * l0Numer / l0Denom
	term1 := ys[1] * l1Numer / l1Denom
	term2 := ys[2] * l2Numer / l2Denom
	term3 := ys[3] * l3Numer / l3Denom
	return term0 + term1 + term2 + term3
}
