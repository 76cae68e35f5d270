package spec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func mfAddSeeds(f *testing.F, kind mfKind) {
	for _, fx := range mfFixtures(f) {
		if fx.kind == kind {
			f.Add(fx.data)
		}
	}
}

// mfCheckDecode asserts the decoder's contract on arbitrary input: no panic,
// every error classified, and whatever decodes re-encodes stably. (The first
// encoding may normalise: a null _NULL_COUNTS is written as an empty array.)
func mfCheckDecode[T any](t *testing.T, data []byte, decode func([]byte) ([]T, error), encode func([]T) ([]byte, error)) {
	got, err := decode(data)
	if err != nil {
		if !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Fatalf("unclassified error: %v", err)
		}
		return
	}
	once := mfReencodeOrFail(t, got, decode, encode)
	twice := mfReencodeOrFail(t, once, decode, encode)
	if !reflect.DeepEqual(once, twice) {
		t.Fatalf("unstable round trip:\nonce:  %+v\ntwice: %+v", once, twice)
	}
}

func mfReencodeOrFail[T any](t *testing.T, records []T, decode func([]byte) ([]T, error), encode func([]T) ([]byte, error)) []T {
	encoded, err := encode(records)
	if err != nil {
		t.Fatalf("decoded records do not encode: %v", err)
	}
	again, err := decode(encoded)
	if err != nil {
		t.Fatalf("our own encoding does not decode: %v", err)
	}
	return again
}

func FuzzDecodeManifestEntries(f *testing.F) {
	mfAddSeeds(f, mfKindEntries)
	f.Fuzz(func(t *testing.T, data []byte) {
		mfCheckDecode(t, data, DecodeManifestEntries, EncodeManifestEntries)
	})
}

func FuzzDecodeManifestList(f *testing.F) {
	mfAddSeeds(f, mfKindList)
	f.Fuzz(func(t *testing.T, data []byte) {
		mfCheckDecode(t, data, DecodeManifestList, EncodeManifestList)
	})
}

func FuzzDecodeIndexManifest(f *testing.F) {
	mfAddSeeds(f, mfKindIndex)
	f.Fuzz(func(t *testing.T, data []byte) {
		mfCheckDecode(t, data, DecodeIndexManifest, EncodeIndexManifest)
	})
}
