package dataset

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xitongsys/parquet-go-source/local"
	"github.com/xitongsys/parquet-go/reader"
)

// TestReadWithParquetGo reads a part written here with an independent
// Parquet implementation, github.com/xitongsys/parquet-go, and expects the
// same values and key-value metadata. parquet-go returns the physical
// values: the uint64 seed arrives as the int64 of the same 64 bits.
func TestReadWithParquetGo(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(17)
	w := writeRows(t, dir, rows, Options{Meta: testMeta()})
	if len(w.Files()) != 1 {
		t.Fatalf("wrote %d parts, want 1", len(w.Files()))
	}
	fr, err := local.NewLocalFileReader(filepath.Join(MainDir(dir), w.Files()[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	pr, err := reader.NewParquetColumnReader(fr, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.ReadStop()
	if got := pr.GetNumRows(); got != int64(len(rows)) {
		t.Fatalf("parquet-go NumRows = %d, want %d", got, len(rows))
	}

	want := wantValues(rows)
	got := make([][]any, len(rows))
	for i := range got {
		got[i] = make([]any, len(want[0]))
	}
	for c := range want[0] {
		vals, _, _, err := pr.ReadColumnByIndex(int64(c), int64(len(rows)))
		if err != nil {
			t.Fatalf("column %d: %v", c, err)
		}
		if len(vals) != len(rows) {
			t.Fatalf("column %d: %d values, want %d", c, len(vals), len(rows))
		}
		for r, v := range vals {
			got[r][c] = v
		}
	}
	for r := range want {
		want[r][3] = int64(rows[r].Seed) // physical INT64, same bits
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parquet-go values (-want +got):\n%s", diff)
	}

	kv := map[string]string{}
	for _, p := range pr.Footer.KeyValueMetadata {
		if p.Key != "ARROW:schema" && p.Value != nil {
			kv[p.Key] = *p.Value
		}
	}
	md, err := ReadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(md, kv); diff != "" {
		t.Errorf("parquet-go key-value metadata (-arrow-go +parquet-go):\n%s", diff)
	}
	if kv[KeySpec] != testMeta().Spec {
		t.Errorf("parquet-go spec metadata = %q, want %q", kv[KeySpec], testMeta().Spec)
	}
	if got, want := pr.Footer.GetCreatedBy(), "crosslink 0.0.1-test"; got != want {
		t.Errorf("created_by = %q, want %q", got, want)
	}
}
