package spec

import "fmt"

// Consumer is the content of consumer/consumer-<id>: the next snapshot a
// streaming consumer will read, which snapshot expiration must keep.
// Mirrors org.apache.paimon.consumer.Consumer.
type Consumer struct {
	NextSnapshot int64
}

// DecodeConsumer reads a consumer file, {"nextSnapshot" : N}; unknown keys
// are ignored.
func DecodeConsumer(data []byte) (*Consumer, error) {
	obj, err := parseJSONObject(data)
	if err != nil {
		return nil, fmt.Errorf("decode consumer: %w", err)
	}
	r := objectReader{obj: obj}
	c := &Consumer{NextSnapshot: r.int64("nextSnapshot")}
	if r.err != nil {
		return nil, fmt.Errorf("decode consumer: %w", r.err)
	}
	return c, nil
}

// EncodeConsumer writes c as Java does.
func EncodeConsumer(c *Consumer) []byte {
	obj := newJSONObject()
	obj.set("nextSnapshot", c.NextSnapshot)
	return printJackson(obj)
}
