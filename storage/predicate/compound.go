package predicate

import "slices"

// Compound is an AND or an OR of two or more predicates. Its children are
// never compounds of the same kind (they are flattened) nor constants that
// fold away.
type Compound struct {
	and      bool
	children []Predicate
}

// IsAnd reports whether c is an AND (otherwise it is an OR).
func (c *Compound) IsAnd() bool { return c.and }

// Children returns the operands (a copy).
func (c *Compound) Children() []Predicate { return slices.Clone(c.children) }

// And returns the conjunction of ps (none may be nil); with none it is TRUE.
func And(ps ...Predicate) Predicate { return junction(true, ps) }

// Or returns the disjunction of ps (none may be nil); with none it is FALSE.
func Or(ps ...Predicate) Predicate { return junction(false, ps) }

// Not returns the exact three-valued negation of p, pushed down to the
// leaves.
func Not(p Predicate) Predicate { return p.negate() }

// junction flattens nested compounds of the same kind and folds constants:
// TRUE is the identity of AND and FALSE absorbs it, and the other way round
// for OR. An UNKNOWN constant is kept, since it decides between FALSE and
// UNKNOWN.
func junction(and bool, ps []Predicate) Predicate {
	identity, absorbing := Constant(True), Constant(False)
	if !and {
		identity, absorbing = absorbing, identity
	}
	children := make([]Predicate, 0, len(ps))
	for _, p := range ps {
		switch {
		case p == identity:
		case p == absorbing:
			return absorbing
		case isCompound(p, and):
			children = append(children, p.(*Compound).children...)
		default:
			children = append(children, p)
		}
	}
	switch len(children) {
	case 0:
		return identity
	case 1:
		return children[0]
	}
	return &Compound{and: and, children: children}
}

func isCompound(p Predicate, and bool) bool {
	c, ok := p.(*Compound)
	return ok && c.and == and
}

// Eval is the minimum (AND) or maximum (OR) of the children's values; it
// stops at the first FALSE (AND) or TRUE (OR).
func (c *Compound) Eval(row []any) Tri {
	if c.and {
		result := True
		for _, child := range c.children {
			if result = min(result, child.Eval(row)); result == False {
				break
			}
		}
		return result
	}
	result := False
	for _, child := range c.children {
		if result = max(result, child.Eval(row)); result == True {
			break
		}
	}
	return result
}

// Test is Cannot for an AND when any child cannot be TRUE (all must be TRUE
// on the same row), and for an OR when no child can.
func (c *Compound) Test(stats Stats) Maybe {
	for _, child := range c.children {
		cannot := child.Test(stats) == Cannot
		if c.and && cannot {
			return Cannot
		}
		if !c.and && !cannot {
			return Might
		}
	}
	if c.and {
		return Might
	}
	return Cannot
}

func (c *Compound) negate() Predicate {
	negated := make([]Predicate, len(c.children))
	for i, child := range c.children {
		negated[i] = child.negate()
	}
	return junction(!c.and, negated)
}

func (c *Compound) appendColumns(dst []int) []int {
	for _, child := range c.children {
		dst = child.appendColumns(dst)
	}
	return dst
}

func (c *Compound) remap(to []int) (Predicate, bool) {
	children := make([]Predicate, len(c.children))
	for i, child := range c.children {
		mapped, ok := child.remap(to)
		if !ok {
			return nil, false
		}
		children[i] = mapped
	}
	return &Compound{and: c.and, children: children}, true
}
