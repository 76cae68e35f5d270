package table

// ReadsOnCallersGoroutine reports whether the read is a point read, its
// one split read by Next itself instead of a worker.
func (rs *Rows) ReadsOnCallersGoroutine() bool { return rs.solo != nil }
