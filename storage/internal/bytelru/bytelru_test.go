package bytelru

import "testing"

func byteLen(b []byte) int64 { return int64(len(b)) }

func TestEvictsLeastRecentlyUsedToStayWithinBound(t *testing.T) {
	c := New[string](10, byteLen)
	c.Put("a", make([]byte, 4))
	c.Put("b", make([]byte, 4))
	if _, ok := c.Get("a"); !ok { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.Put("c", make([]byte, 4)) // 12 > 10: b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b kept, want it evicted as least recently used")
	}
	for _, p := range []string{"a", "c"} {
		if _, ok := c.Get(p); !ok {
			t.Errorf("%s evicted", p)
		}
	}
	if c.Bytes() != 8 || c.Len() != 2 {
		t.Errorf("bytes %d, len %d; want 8, 2", c.Bytes(), c.Len())
	}
}

func TestPutReplacesAndRefusesOversizedValues(t *testing.T) {
	c := New[string](10, byteLen)
	c.Put("a", []byte("1234"))
	c.Put("a", []byte("123456"))
	if v, _ := c.Get("a"); string(v) != "123456" || c.Bytes() != 6 {
		t.Errorf("a = %q with %d bytes cached, want the replacement alone", v, c.Bytes())
	}
	c.Put("big", make([]byte, 11))
	if _, ok := c.Get("big"); ok || c.Bytes() != 6 {
		t.Errorf("a value over the bound was cached (%d bytes)", c.Bytes())
	}
	c.Remove("a")
	if _, ok := c.Get("a"); ok || c.Bytes() != 0 || c.Len() != 0 {
		t.Errorf("after Remove: %d bytes, %d values", c.Bytes(), c.Len())
	}
}
