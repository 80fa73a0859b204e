package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkMerge merges datasets of 16 parts and growing size, reporting
// rows/s and the peak Go heap during the merge: a streaming merge holds a
// row group, so the peak must not grow with the row count (the former
// merge, which read the whole table, held about 1.2 kB per row).
//
//	go test -run '^$' -bench Merge -benchtime 1x ./sweep/dataset/
func BenchmarkMerge(b *testing.B) {
	for _, rows := range []int{50_000, 200_000, 800_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			tmpl := b.TempDir()
			writeMainRows(b, tmpl, rows, rows/16)
			var peak uint64
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
				copyTree(b, tmpl, dir)
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() { // sample the heap while the merge runs
					defer wg.Done()
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						if ms.HeapAlloc > base.HeapAlloc {
							peak = max(peak, ms.HeapAlloc-base.HeapAlloc)
						}
						select {
						case <-stop:
							return
						case <-time.After(2 * time.Millisecond):
						}
					}
				}()
				b.StartTimer()
				if err := Merge(dir, nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				close(stop)
				wg.Wait()
				if ps, _ := Parts(dir); len(ps) != 1 {
					b.Fatalf("%d parts after Merge", len(ps))
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/float64(rows), "peak-heap-B/row")
		})
	}
}

// copyTree copies the dataset at src to dst (files and directories only).
func copyTree(b *testing.B, src, dst string) {
	b.Helper()
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// writeMainRows writes rows test rows, main table only, into the dataset
// dir in parts of at most maxRows rows: the dataset a benchmark reads.
func writeMainRows(b *testing.B, dir string, rows, maxRows int) {
	b.Helper()
	all := testRows(rows)
	for i := range all {
		all[i].Tables = nil // main table only
	}
	w, err := NewWriter(dir, testSchema(), Options{MaxRows: maxRows, Meta: testMeta()})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.AppendRows(all); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
