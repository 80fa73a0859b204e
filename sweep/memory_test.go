package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
)

// TestLoadRefusesMemory: a leo-network spec whose scenario would need
// more memory than the model allows one scenario (every ordered pair of
// Hypatia's 100 cities with 64 TCP flows each, 633,600 flows) is refused
// when it loads, at the line and column of the parameter the estimate
// names, with the estimate and the limit; the load of the model's
// benchmark (100 flows among the 100 cities over Kuiper K1 for 200 s)
// loads, and so does one pair sampled every 100 ms for 200 s. A grid
// point only (the last value of an axis) may be too big: the refusal
// names the axis.
func TestLoadRefusesMemory(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	const head = "name: mem\nmodel: leo-network\nseed: 1\nparams:\n  shells: kuiper-k1\n  stations: hypatia-100\n"
	cases := []struct {
		name, body string
		want       []string // in the error; none: the spec loads
	}{
		{"benchmark load", "  traffic: \"random:100\"\n  tcp_flows: 1\n  duration: 200s\n", nil},
		{"one pair sampled every routing step (specs/leo-network-rtt.yaml)", "  traffic: \"manila>dalian\"\n  duration: 200s\n  sample_interval: 100ms\n", nil},
		{"all pairs, 64 flows", "  traffic: all\n  tcp_flows: 64\n  duration: 200s\n",
			[]string{"mem.yaml:7:3: traffic (set in params)", "GiB", "more than the model's limit, 4.0 GiB", "flows"}},
		{"a grid point too big", "  duration: 20s\ngrid:\n  traffic: [\"random:10\", \"all\"]\n  tcp_flows: [1, 64]\n",
			[]string{"mem.yaml:9:3: traffic (a grid axis)", "GiB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mem.yaml")
			if err := os.WriteFile(path, []byte(head+c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, reg, "", false, t.TempDir())
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded, want a refusal with the estimate")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			t.Log(err)
		})
	}
}
