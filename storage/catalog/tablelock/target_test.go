package tablelock

import "testing"

func TestPublishTarget(t *testing.T) {
	cases := []struct {
		root, file string
		want       Target
		ok         bool
	}{
		{"/wh", "/wh/pay.db/orders/snapshot/snapshot-12", Target{"pay", "orders"}, true},
		{"/wh/", "/wh/pay.db/orders/schema/schema-0", Target{"pay", "orders"}, true},
		{"wh", "./wh/pay.db/orders/snapshot/snapshot-3", Target{"pay", "orders"}, true},
		{".", "pay.db/orders/snapshot/snapshot-3", Target{"pay", "orders"}, true},
		{"./", "./pay.db/orders/snapshot/snapshot-3", Target{"pay", "orders"}, true},
		{"s3://bucket/wh", "s3://bucket/wh/pay.db/orders/snapshot/snapshot-7", Target{"pay", "orders"}, true},
		{"/wh", "/wh/pay.db/orders/branch/branch-fix/snapshot/snapshot-2", Target{"pay", "orders$branch_fix"}, true},
		{"/wh", "/wh/pay.db/orders/branch/branch-fix/schema/schema-1", Target{"pay", "orders$branch_fix"}, true},
		// Hints, tags, data, manifests and changelogs take no lock, as in Java.
		{"/wh", "/wh/pay.db/orders/snapshot/LATEST", Target{}, false},
		{"/wh", "/wh/pay.db/orders/snapshot/EARLIEST", Target{}, false},
		{"/wh", "/wh/pay.db/orders/tag/tag-daily", Target{}, false},
		{"/wh", "/wh/pay.db/orders/manifest/manifest-1-0", Target{}, false},
		{"/wh", "/wh/pay.db/orders/dt=2026-12-05/bucket-0/data-1.parquet", Target{}, false},
		{"/wh", "/wh/pay.db/orders/changelog/changelog-4", Target{}, false},
		{"/wh", "/wh/pay.db/orders/snapshot/snapshot-x", Target{}, false},
		{"/wh", "/wh/pay.db/orders/branch/branch-/snapshot/snapshot-1", Target{}, false},
		// Outside the warehouse, or not below a database directory.
		{"/wh", "/other/pay.db/orders/snapshot/snapshot-1", Target{}, false},
		{"/wh", "/wh2/pay.db/orders/snapshot/snapshot-1", Target{}, false},
		{"/wh", "/wh/pay/orders/snapshot/snapshot-1", Target{}, false},
		{"/wh", "/wh/.db/orders/snapshot/snapshot-1", Target{}, false},
		{"/wh", "/wh/pay.db/orders/x/snapshot/snapshot-1", Target{}, false},
		{".", "../pay.db/orders/snapshot/snapshot-1", Target{}, false},
	}
	for _, tc := range cases {
		got, ok := PublishTarget(tc.root, tc.file)
		if got != tc.want || ok != tc.ok {
			t.Errorf("PublishTarget(%q, %q) = %+v, %v; want %+v, %v", tc.root, tc.file, got, ok, tc.want, tc.ok)
		}
	}
}
