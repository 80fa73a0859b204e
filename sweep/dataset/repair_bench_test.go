package dataset

import (
	"testing"
)

// BenchmarkRepair checks a 200,000-row dataset of 4 parts as crosslink
// run does before every resume (hash, footer, every page decoded, ids
// read), reporting rows/s.
//
//	go test -run '^$' -bench Repair -benchtime 3x ./sweep/dataset/
func BenchmarkRepair(b *testing.B) {
	const rows = 200_000
	dir := b.TempDir()
	writeMainRows(b, dir, rows, rows/4)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		done, moved, err := Repair(dir)
		if err != nil || len(moved) != 0 || done.Len() != rows {
			b.Fatalf("Repair = %d ids, %v moved, %v", done.Len(), moved, err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
