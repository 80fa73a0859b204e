package plan

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// fakeModel stands in for engine/models (written separately): parameters
// of each kind the plan handles, and a trivial but real Run.
type fakeModel struct{ schema *vocab.Schema }

func (m fakeModel) Schema() *vocab.Schema { return m.schema }

func (m fakeModel) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	return vocab.Result{Metrics: []vocab.Value{vocab.F(p.Float("distance") / 299792458)}}, nil
}

var model = fakeModel{&vocab.Schema{
	Name:    "fso-ber",
	Version: 1,
	Params: []vocab.Param{
		{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(16e6), Min: 1, Max: 1e12},
		{Name: "bit_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e9), Min: 1, Max: 1e13},
		{Name: "detection", Kind: vocab.String, Default: vocab.S("direct"), Choices: []string{"direct", "coherent"}},
		{Name: "power", Kind: vocab.Float, Unit: vocab.Watt, Default: vocab.F(0.9), Min: 1e-12, Max: 100},
		{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1500), Min: 64, Max: 65536},
		{Name: "scaling", Kind: vocab.Bool, Default: vocab.B(false)},
	},
	Metrics: []vocab.Metric{{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second}},
}}

func parse(t testing.TB, text string) *spec.Spec {
	t.Helper()
	reg, err := vocab.NewRegistry(model)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("t.yaml", []byte(text), reg)
	if err != nil {
		t.Fatalf("spec.Parse:\n%v\nin:\n%s", err, text)
	}
	return s
}

func expand(t testing.TB, text string) *Plan {
	t.Helper()
	p, err := New(parse(t, text), model)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// row is what a scenario contributes to a dataset, keyed by id.
type row struct {
	Replicate int
	Seed      uint64
	Values    string
}

func rows(p Source) map[string]row {
	out := map[string]row{}
	for i := range p.Len() {
		s := p.At(i)
		var vals string
		for _, v := range s.Params.Values() {
			vals += v.Canonical() + " "
		}
		out[s.ID] = row{s.Replicate, s.Seed, vals}
	}
	return out
}

// oracleID and oracleSeed restate the id and seed formulas of ID and Seed
// from their documentation, written independently (streaming hash, no
// shared helpers), so a change to the key text shows up here.
func oracleID(s *vocab.Schema, vals []vocab.Value, rep int) string {
	type kv struct{ k, v string }
	var kvs []kv
	for i, p := range s.Params {
		kvs = append(kvs, kv{p.Name, vals[i].Canonical()})
	}
	sort.Slice(kvs, func(a, b int) bool { return kvs[a].k < kvs[b].k })
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", s.Name, s.Version)
	for _, x := range kvs {
		fmt.Fprintf(h, "%s=%s\x00", x.k, x.v)
	}
	fmt.Fprintf(h, "replicate=%d", rep)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func oracleSeed(specSeed uint64, id string) uint64 {
	h := sha256.New()
	binary.Write(h, binary.LittleEndian, specSeed)
	h.Write([]byte(id))
	return binary.LittleEndian.Uint64(h.Sum(nil)[:8])
}

const fig6 = `
name: fig6
model: fso-ber
seed: 7
replicates: 2
params: {power: 0.5W}
grid:
  distance: [16000km, 25000km, 50000km]
  bit_rate: [1Gbps, 4Gbps]
cases:
  - {detection: direct}
  - {detection: coherent, mtu: 9000B}
`

func TestAt(t *testing.T) {
	p := expand(t, fig6)
	if got, want := p.Len(), 3*2*2*2; got != want {
		t.Fatalf("Len() = %d, want %d", got, want)
	}
	ids := map[string]bool{}
	for i := range p.Len() {
		s := p.At(i)
		vals := s.Params.Values()
		if want := oracleID(model.schema, vals, s.Replicate); s.ID != want {
			t.Errorf("At(%d).ID = %s, want %s", i, s.ID, want)
		}
		if want := ID(model.schema, vals, s.Replicate); s.ID != want {
			t.Errorf("At(%d).ID = %s, ID() = %s", i, s.ID, want)
		}
		if want := oracleSeed(7, s.ID); s.Seed != want {
			t.Errorf("At(%d).Seed = %d, want %d", i, s.Seed, want)
		}
		if ids[s.ID] {
			t.Errorf("At(%d).ID = %s repeats", i, s.ID)
		}
		ids[s.ID] = true
		if got := s.Params.Float("power"); got != 0.5 {
			t.Errorf("At(%d) power = %v, want 0.5 from params", i, got)
		}
		wantMTU := int64(1500)
		if s.Params.Str("detection") == "coherent" {
			wantMTU = 9000
		}
		if got := s.Params.Int("mtu"); got != wantMTU {
			t.Errorf("At(%d) mtu = %d with %s, want %d", i, got, s.Params.Str("detection"), wantMTU)
		}
	}
	// The documented order: replicate outermost, then case, then distance,
	// then bit_rate fastest.
	order := []struct {
		i         int
		rep       int
		detection string
		distance  float64
		bitRate   float64
	}{
		{0, 0, "direct", 16e6, 1e9},
		{1, 0, "direct", 16e6, 4e9},
		{2, 0, "direct", 25e6, 1e9},
		{6, 0, "coherent", 16e6, 1e9},
		{12, 1, "direct", 16e6, 1e9},
		{23, 1, "coherent", 50e6, 4e9},
	}
	for _, o := range order {
		s := p.At(o.i)
		got := fmt.Sprint(s.Replicate, s.Params.Str("detection"), s.Params.Float("distance"), s.Params.Float("bit_rate"))
		want := fmt.Sprint(o.rep, o.detection, o.distance, o.bitRate)
		if got != want {
			t.Errorf("At(%d) = %s, want %s", o.i, got, want)
		}
	}
}

func TestAxisOrder(t *testing.T) {
	a := expand(t, fig6)
	b := expand(t, `
name: fig6
model: fso-ber
seed: 7
replicates: 2
params: {power: 0.5W}
cases:
  - {mtu: 9000B, detection: coherent}
  - {detection: direct}
grid:
  bit_rate: [4Gbps, 1Gbps]
  distance: [50000km, 16000km, 25000km]
`)
	if diff := cmp.Diff(rows(a), rows(b)); diff != "" {
		t.Errorf("rows depend on axis and case order (-a +b):\n%s", diff)
	}
}

func TestAddValue(t *testing.T) {
	old := rows(expand(t, fig6))
	grown := rows(expand(t, `
name: fig6-more
model: fso-ber
seed: 7
replicates: 3
params: {power: 0.5W}
grid:
  distance: [16000km, 25000km, 50000km, 80000km]
  bit_rate: [1Gbps, 2Gbps, 4Gbps]
cases:
  - {detection: direct}
  - {detection: coherent, mtu: 9000B}
`))
	if len(grown) != 4*3*2*3 {
		t.Fatalf("grown plan has %d rows, want 72", len(grown))
	}
	for id, r := range old {
		g, ok := grown[id]
		if !ok {
			t.Errorf("scenario %s %+v is gone after adding values", id, r)
			continue
		}
		if g != r {
			t.Errorf("scenario %s changed: %+v, was %+v", id, g, r)
		}
	}
}

func TestSameParamsSameID(t *testing.T) {
	specs := map[string]string{
		"params":   "name: a\nmodel: fso-ber\nparams: {distance: 25000km, detection: coherent}\n",
		"grid":     "name: b\nmodel: fso-ber\ngrid: {distance: [25000km], detection: [coherent]}\n",
		"cases":    "name: c\nmodel: fso-ber\ncases: [{distance: 25000km, detection: coherent}]\n",
		"mixed":    "name: d\nmodel: fso-ber\nparams: {detection: coherent}\ngrid: {distance: [25000000m]}\n",
		"defaults": "name: e\nmodel: fso-ber\nparams: {distance: 2.5e4km, detection: coherent, power: 900mW, mtu: 1500B}\n",
	}
	want := ""
	for name, text := range specs {
		p := expand(t, text)
		if p.Len() != 1 {
			t.Fatalf("%s: Len() = %d, want 1", name, p.Len())
		}
		id := p.At(0).ID
		if want == "" {
			want = id
		}
		if id != want {
			t.Errorf("%s: id %s, want %s as the other forms", name, id, want)
		}
	}
}

func TestSeeds(t *testing.T) {
	base := "name: s\nmodel: fso-ber\nreplicates: 3\ngrid: {distance: [16000km, 25000km]}\n"
	a := rows(expand(t, base))
	b := rows(expand(t, base+"seed: 2\n"))
	seeds := map[uint64]bool{}
	for id, r := range a {
		if seeds[r.Seed] {
			t.Errorf("seed %d repeats across scenarios", r.Seed)
		}
		seeds[r.Seed] = true
		rb, ok := b[id]
		if !ok {
			t.Fatalf("scenario %s missing with another spec seed: ids must not depend on it", id)
		}
		if rb.Seed == r.Seed {
			t.Errorf("scenario %s has seed %d with spec seeds 1 and 2", id, r.Seed)
		}
	}
}

func TestMillion(t *testing.T) {
	p := expand(t, `
name: big
model: fso-ber
grid:
  distance: {from: 1000km, to: 100000km, points: 1000}
  bit_rate: {from: 1Mbps, to: 10Gbps, points: 1000, scale: log}
`)
	if p.Len() != 1_000_000 {
		t.Fatalf("Len() = %d, want 1000000", p.Len())
	}
	last := p.At(p.Len() - 1)
	if last.Params.Float("distance") != 1e8 || last.Params.Float("bit_rate") != 1e10 {
		t.Errorf("At(last) = %v, %v; want the last values of both axes", last.Params.Float("distance"), last.Params.Float("bit_rate"))
	}
	// Two allocations whatever the grid size: the value slice and the
	// string of the ids.
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		p.At(i * 9973 % p.Len())
		i++
	})
	if allocs != 2 {
		t.Errorf("At allocates %v times, want 2 (values, ids)", allocs)
	}
}

func TestConcurrentAt(t *testing.T) {
	p := expand(t, fig6)
	// The ids of each scenario, hashed in one goroutine; At's hash states
	// come from a pool that the goroutines below share.
	want := make([]string, p.Len())
	for i := range want {
		sc := p.At(i)
		want[i] = sc.ID + " " + sc.PointID
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*p.Len())
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range p.Len() {
				j := (i + w*5) % p.Len()
				if sc := p.At(j); sc.ID+" "+sc.PointID != want[j] {
					got := sc.ID + " " + sc.PointID
					errs <- fmt.Sprintf("At(%d) ids %s, want %s", j, got, want[j])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestNewErrors(t *testing.T) {
	s := parse(t, fig6)
	other := fakeModel{&vocab.Schema{Name: "other", Version: 1}}
	if _, err := New(s, other); err == nil {
		t.Error("New(spec of fso-ber, model other) succeeded, want an error")
	}
	s.Params = append(s.Params, spec.Setting{Name: "nope", Value: vocab.F(1)})
	if _, err := New(s, model); err == nil {
		t.Error("New with an unknown parameter succeeded, want an error")
	}
}

func BenchmarkAt(b *testing.B) {
	p := expand(b, `
name: big
model: fso-ber
grid:
  distance: {from: 1000km, to: 100000km, points: 1000}
  bit_rate: {from: 1Mbps, to: 10Gbps, points: 1000, scale: log}
  detection: [direct, coherent]
`)
	b.ReportAllocs()
	n := p.Len()
	i := 0
	for b.Loop() {
		p.At(i % n)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}

// TestPointID: the replicates of a point share its point id, other points
// and the scenario ids differ from it.
func TestPointID(t *testing.T) {
	p := expand(t, "name: s\nmodel: fso-ber\nreplicates: 3\ngrid: {distance: [16000km, 25000km]}\n")
	s := model.Schema()
	ids := map[string]int{}
	for i := range p.Len() {
		sc := p.At(i)
		id := PointID(s, sc.Params.Values())
		if len(id) != 32 || id == sc.ID {
			t.Errorf("scenario %s: point id %q, want 32 hex digits other than the scenario id", sc.ID, id)
		}
		ids[id]++
	}
	if len(ids) != 2 {
		t.Errorf("point ids %v, want 2 points with 3 replicates each", ids)
	}
	for id, n := range ids {
		if n != 3 {
			t.Errorf("point %s has %d replicates, want 3", id, n)
		}
	}
}

// TestScenarioPointID: the point id that At derives with the scenario id,
// from the key it builds piecewise, and the one NewScenario derives, are
// PointID's of the scenario's values, and the scenario id is ID's; for
// replicates, cases, a long axis (its key part formatted in At), strings,
// keys whose text before the first axis holds a whole SHA-256 block (its
// state restored, see prefix) or not, and every axis position of a small
// plan.
func TestScenarioPointID(t *testing.T) {
	tests := []struct {
		name, text string
		prefix     int // bytes of the key hashed once per case
	}{
		{"replicates", "name: s\nmodel: fso-ber\nreplicates: 3\ngrid: {distance: [16000km, 25000km], detection: [direct, coherent]}\n", 0},
		{"cases", "name: c\nmodel: fso-ber\nseed: 9\ncases: [{distance: 25000km, detection: coherent}, {bit_rate: 4Gbps}]\ngrid: {power: [0.5W, 1W]}\n", 64},
		{"long axis", fmt.Sprintf("name: l\nmodel: fso-ber\ngrid:\n  distance: {from: 1km, to: 100000km, points: %d}\n  detection: [direct, coherent]\n", maxPrecomputed+3), 0},
		{"no grid", "name: n\nmodel: fso-ber\nreplicates: 2\nparams: {power: 2W}\n", 64},
	}
	s := model.Schema()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := expand(t, tt.text)
			if n := p.cases[0].pre.n; n != tt.prefix {
				t.Errorf("%d bytes of the key hashed once, want %d", n, tt.prefix)
			}
			step := max(1, p.Len()/500)
			for i := 0; i < p.Len(); i += step {
				sc := p.At(i)
				vals := sc.Params.Values()
				if want := PointID(s, vals); sc.PointID != want {
					t.Fatalf("scenario %d: At's point id %s, PointID %s", i, sc.PointID, want)
				}
				if want := ID(s, vals, sc.Replicate); sc.ID != want {
					t.Fatalf("scenario %d: At's id %s, ID %s", i, sc.ID, want)
				}
				if n := NewScenario(s, vals, sc.Replicate, p.specSeed); n.ID != sc.ID || n.PointID != sc.PointID || n.Seed != sc.Seed {
					t.Fatalf("scenario %d: NewScenario ids %s %s seed %d, At's %s %s %d", i, n.ID, n.PointID, n.Seed, sc.ID, sc.PointID, sc.Seed)
				}
			}
		})
	}
}

// TestLongAxisIDs checks the axis longer than maxPrecomputed, whose key
// parts are formatted in At: each scenario's id equals the id of the same
// point in a one-value plan, whose part is precomputed.
func TestLongAxisIDs(t *testing.T) {
	long := expand(t, fmt.Sprintf("name: t\nmodel: fso-ber\ngrid:\n  distance: {from: 1km, to: 100000km, points: %d}\n  detection: [direct, coherent]\n", maxPrecomputed+7))
	if long.axes[0].parts != nil || long.axes[1].parts == nil {
		t.Fatalf("parts precomputed for axes of %d and %d values, want only the short one", len(long.axes[0].vals), len(long.axes[1].vals))
	}
	for _, i := range []int{0, 1, 2 * 12345, 2*(maxPrecomputed+7) - 1} {
		sc := long.At(i)
		d := sc.Params.Float("distance")
		one := expand(t, fmt.Sprintf("name: t\nmodel: fso-ber\nparams:\n  distance: %sm\n  detection: %s\n", strconv.FormatFloat(d, 'g', -1, 64), sc.Params.Str("detection")))
		if got, want := sc.ID, one.At(0).ID; got != want {
			t.Errorf("long axis scenario %d (distance %v) id %s, want %s as in a one-point plan", i, d, got, want)
		}
	}
}

// TestLazyRanges: a spec read with spec.Limits.LazyRanges holds its range
// axes as generators, and its plan names the same scenarios, with the same
// values, ids and seeds, as the plan of the values made up front; a short
// and a long axis (key parts precomputed or not), linear, log and integer.
func TestLazyRanges(t *testing.T) {
	text := fmt.Sprintf(`
name: lazy
model: fso-ber
replicates: 2
grid:
  distance: {from: 1km, to: 100000km, points: %d}
  bit_rate: {from: 1Mbps, to: 10Gbps, points: 7, scale: log}
  mtu: {from: 64B, to: 8064B, step: 1000B} # 9 values
  detection: [direct, coherent]
`, maxPrecomputed+3)
	reg, err := vocab.NewRegistry(model)
	if err != nil {
		t.Fatal(err)
	}
	lazySpec, err := spec.ParseLimited("t.yaml", []byte(text), reg, spec.Limits{LazyRanges: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range lazySpec.Grid[:3] {
		if a.Values != nil || a.Range == nil {
			t.Errorf("lazy axis %s: %d values held, range %v; want none held and a range", a.Name, len(a.Values), a.Range)
		}
	}
	lazy, err := New(lazySpec, model)
	if err != nil {
		t.Fatal(err)
	}
	eager := expand(t, text)
	if lazy.Len() != eager.Len() || lazy.Len() != 2*(maxPrecomputed+3)*7*9*2 {
		t.Fatalf("lazy Len() = %d, eager %d, want %d", lazy.Len(), eager.Len(), 2*(maxPrecomputed+3)*7*9*2)
	}
	for i := 0; i < eager.Len(); i += 997 {
		if diff := cmp.Diff(eager.At(i), lazy.At(i), cmp.Comparer(func(a, b vocab.Params) bool {
			return fmt.Sprint(a.Values()) == fmt.Sprint(b.Values())
		})); diff != "" {
			t.Fatalf("scenario %d (-eager +lazy):\n%s", i, diff)
		}
	}
	for i := range model.schema.Params {
		if got, want := lazy.Distinct(i), eager.Distinct(i); got != want {
			t.Errorf("Distinct(%s) = %d lazy, %d eager", model.schema.Params[i].Name, got, want)
		}
	}
}
