package maintenance

import (
	"reflect"
	"testing"
)

func TestPlanDeletion(t *testing.T) {
	candidates := refSet{
		"t/dt=1/bucket-0/data-a": FileKindData,
		"t/dt=1/bucket-0/data-b": FileKindData,
		"t/dt=1/bucket-0/cl-c":   FileKindChangelog,
		"t/manifest/m-1":         FileKindManifest,
		"t/manifest/m-2":         FileKindManifest,
		"t/manifest/list-1":      FileKindManifestList,
	}
	protected := refSet{
		"t/dt=1/bucket-0/data-b": FileKindData,
		// The same file reached through another partition formatting.
		"t/dt=01/bucket-0/data-a": FileKindData,
		"t/manifest/m-2":          FileKindManifest,
	}
	want := deletion{
		FileKindChangelog:    {"t/dt=1/bucket-0/cl-c"},
		FileKindManifest:     {"t/manifest/m-1"},
		FileKindManifestList: {"t/manifest/list-1"},
	}
	if got := planDeletion(candidates, protected); !reflect.DeepEqual(got, want) {
		t.Fatalf("plan %v, want %v", got, want)
	}
}
