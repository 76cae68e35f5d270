package predicate

// Refuted reports whether p is proven FALSE or NULL for every row, given
// refutes, which proves it for single leaves: a constant that is not TRUE
// is refuted; an AND needs one refuted conjunct, an OR every disjunct.
// Indexes prove a filter away this way (data-file and global indexes).
func Refuted(p Predicate, refutes func(*LeafPredicate) (bool, error)) (bool, error) {
	switch x := p.(type) {
	case Constant:
		return Tri(x) != True, nil
	case *Compound:
		for _, child := range x.Children() {
			refuted, err := Refuted(child, refutes)
			if err != nil || refuted == x.and {
				return refuted, err
			}
		}
		return !x.and, nil
	case *LeafPredicate:
		return refutes(x)
	}
	return false, nil
}

// AnyLeaf reports whether a leaf of p satisfies f.
func AnyLeaf(p Predicate, f func(*LeafPredicate) bool) bool {
	switch x := p.(type) {
	case *LeafPredicate:
		return f(x)
	case *Compound:
		for _, c := range x.Children() {
			if AnyLeaf(c, f) {
				return true
			}
		}
	}
	return false
}
