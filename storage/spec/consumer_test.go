package spec

import (
	"errors"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestConsumerRoundTrip(t *testing.T) {
	javaBytes := "{\n  \"nextSnapshot\" : 12\n}"
	c, err := DecodeConsumer([]byte(javaBytes))
	if err != nil || c.NextSnapshot != 12 {
		t.Fatalf("DecodeConsumer = %+v, %v", c, err)
	}
	if got := string(EncodeConsumer(c)); got != javaBytes {
		t.Errorf("EncodeConsumer = %s, want %s", got, javaBytes)
	}
	c, err = DecodeConsumer([]byte(`{"nextSnapshot":3,"futureKey":true}`))
	if err != nil || c.NextSnapshot != 3 {
		t.Errorf("unknown key: %+v, %v", c, err)
	}
}

func TestDecodeConsumerErrors(t *testing.T) {
	for _, in := range []string{`{}`, `{"nextSnapshot":"3"}`, `{"nextSnapshot":`, `[]`} {
		if _, err := DecodeConsumer([]byte(in)); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("DecodeConsumer(%s) err = %v, want corruption", in, err)
		}
	}
}
