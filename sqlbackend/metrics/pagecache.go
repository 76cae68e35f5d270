package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lakesql/lakesql/storage/table"
)

// ObservePageCache exports the counters and the occupancy of the server's
// page cache (page_cache_mb); a nil m or pages exports nothing.
func (m *Metrics) ObservePageCache(pages *table.PageCache) {
	if m == nil || pages == nil {
		return
	}
	stat := func(f func(table.PageCacheStats) int64) func() float64 {
		return func() float64 { return float64(f(pages.Stats())) }
	}
	m.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "lakesql_page_cache_hits_total",
			Help: "Reads of a column chunk's row range that found its decoded pages in the page cache."},
			stat(func(s table.PageCacheStats) int64 { return s.Hits })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "lakesql_page_cache_misses_total",
			Help: "Reads of a column chunk's row range that decoded its pages and put them in the page cache."},
			stat(func(s table.PageCacheStats) int64 { return s.Misses })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "lakesql_page_cache_bytes",
			Help: "Memory of the decoded pages the page cache holds, against page_cache_mb."},
			stat(func(s table.PageCacheStats) int64 { return s.Bytes })),
	)
}
