package spec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// queueModel has one limit in two forms, a count and a fraction, of which
// a scenario may set one (vocab.Schema.Exclusive), the fraction's default
// non-zero as tcp-compete's queue_bdp is.
type queueModel struct{ schema *vocab.Schema }

func (m queueModel) Schema() *vocab.Schema { return m.schema }
func (m queueModel) Run(context.Context, vocab.Params, uint64) (vocab.Result, error) {
	return vocab.Result{Metrics: []vocab.Value{vocab.F(1)}}, nil
}

func newQueueModel() queueModel {
	return queueModel{&vocab.Schema{
		Name: "queue-forms", Version: 1,
		Params: []vocab.Param{
			{Name: "queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(0), Min: 0, Max: 1e6},
			{Name: "queue_bdp", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(1), Min: 0, Max: 10},
			{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e6), Min: 1, Max: 1e12},
		},
		Metrics:   []vocab.Metric{{Name: "x", Kind: vocab.Float}},
		Exclusive: [][]string{{"queue", "queue_bdp"}},
	}}
}

// loadChecked parses the spec at path, resolves it at profile and checks
// its exclusive groups, as sweep.Load does.
func loadChecked(path string, reg *vocab.Registry, profile string) error {
	s, err := ParseFile(path, reg)
	if err != nil {
		return err
	}
	r, err := s.Resolve(profile)
	if err != nil {
		return err
	}
	m, _ := reg.Lookup(r.Model)
	return CheckExclusive(r, m.Schema())
}

// TestCheckExclusive loads specs that set the two forms of the limit in
// each way a spec can (base value, grid axis, case, profile, the model's
// default): a spec that lets any scenario set both is refused when it
// loads, at the line of the form it sets, with the fix; the others load.
func TestCheckExclusive(t *testing.T) {
	reg, err := vocab.NewRegistry(newQueueModel())
	if err != nil {
		t.Fatal(err)
	}
	head := "name: q\nmodel: queue-forms\nseed: 1\nreplicates: 1\n"
	for _, tc := range []struct {
		name, body, profile string
		want                []string // in the error; none: loads
	}{
		{"fraction by default", "", "", nil},
		{"packets with the fraction at 0", "params:\n  queue: 50pkt\n  queue_bdp: 0%\n", "", nil},
		{"packets against the default fraction", "params:\n  queue: 50pkt\n", "",
			[]string{"q.yaml:6:3: ", "queue 50", "line 6", "queue_bdp 100%", "the model's default", "queue_bdp: 0"}},
		{"both on the grid", "grid:\n  queue: [0pkt, 20pkt]\n  queue_bdp: [0%, 50%]\n", "",
			[]string{"queue 20", "line 6", "queue_bdp 50%", "line 7"}},
		{"a grid of zeros", "params:\n  queue_bdp: 0%\ngrid:\n  queue: [10pkt, 20pkt]\n", "", nil},
		{"one case of two sets both", "cases:\n  - {queue: 10pkt, queue_bdp: 0%}\n  - {queue: 20pkt}\n", "",
			[]string{"queue 20", "queue_bdp 100%"}},
		{"a profile sets the second form", "params:\n  queue: 10pkt\n  queue_bdp: 0%\nprofiles:\n  quick:\n    params:\n      queue_bdp: 30%\n", "quick",
			[]string{"queue 10", "queue_bdp 30%", "line 11"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.yaml")
			if err := os.WriteFile(path, []byte(head+tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			err := loadChecked(path, reg, tc.profile)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("CheckExclusive: %v, want the spec to load", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckExclusive accepted a spec that sets both forms:\n%s", head+tc.body)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
