package spec

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/internal/golden"
	"github.com/crosslink-sim/crosslink/vocab"
)

var update = flag.Bool("update", false, "rewrite testdata/bad/*.golden from the current messages")

// fakeModel is a small model with one parameter of each kind and unit the
// parser treats differently. It stands in for engine/models, which is
// written separately; its Run is a real (trivial) function so the registry
// holds a working model.
type fakeModel struct{ schema *vocab.Schema }

func (m fakeModel) Schema() *vocab.Schema { return m.schema }

func (m fakeModel) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	d := p.Float("distance")
	return vocab.Result{Metrics: []vocab.Value{
		vocab.F(math.Exp(-d / 1e7)), vocab.F(1e-6), vocab.F(-30), vocab.F(d / 299792458),
	}}, nil
}

func newFake() fakeModel {
	return fakeModel{&vocab.Schema{
		Name:    "fso-ber",
		Version: 1,
		Params: []vocab.Param{
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(16e6), Min: 1e3, Max: 1e9},
			{Name: "bit_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e9), Min: 1e3, Max: 1e12},
			{Name: "detection", Kind: vocab.String, Default: vocab.S("direct"), Choices: []string{"direct", "coherent"}},
			{Name: "power", Kind: vocab.Float, Unit: vocab.Watt, Default: vocab.F(0.9), Min: 1e-12, Max: 100},
			{Name: "wavelength", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(1550e-9), Min: 1e-7, Max: 1e-5},
			{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1500), Min: 64, Max: 65536},
			{Name: "constants", Kind: vocab.String, Default: vocab.S("codata"), Choices: []string{"codata", "paper"}},
			{Name: "scaling", Kind: vocab.Bool, Default: vocab.B(false)},
			{Name: "loss", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(0), Min: 0, Max: 1},
			{Name: "gain", Kind: vocab.Float, Unit: vocab.Decibel, Default: vocab.F(0)},
			{Name: "flows", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 1000},
		},
		Metrics: []vocab.Metric{
			{Name: "ber", Kind: vocab.Float},
			{Name: "received_power", Kind: vocab.Float, Unit: vocab.Watt},
			{Name: "received_power", Kind: vocab.Float, Unit: vocab.DBm},
			{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second},
		},
		Tables: []vocab.Table{{Name: "flows", Columns: []vocab.Metric{
			{Name: "flow", Kind: vocab.Int},
			{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond},
		}}},
	}}
}

func registry(t testing.TB) *vocab.Registry {
	t.Helper()
	reg, err := vocab.NewRegistry(newFake())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestBad checks each malformed spec against its golden messages. Every
// message must carry file:line:col.
func TestBad(t *testing.T) {
	reg := registry(t)
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d malformed specs in testdata/bad, want at least 20", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse("bad/"+name+".yaml", data, reg)
			if err == nil {
				t.Fatalf("Parse(%s) = %+v, want errors", f, s)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Parse(%s) error %T, want ErrorList", f, err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Column < 1 || e.Pos.File == "" {
					t.Errorf("error %q has no position", e.Msg)
				}
			}
			goldenErrors(t, "Parse", f, err)
		})
	}
}

// goldenErrors compares the errors parse (Parse or ParseFile) gave for the
// spec file f with f's .golden file, or rewrites it with -update.
func goldenErrors(t *testing.T, parse, f string, err error) {
	t.Helper()
	t.Logf("%s(%s)", parse, f)
	golden.Check(t, strings.TrimSuffix(f, ".yaml")+".golden", []byte(err.Error()+"\n"), *update)
}

func TestGood(t *testing.T) {
	reg := registry(t)
	files, err := filepath.Glob("testdata/good/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := ParseFile(f, reg)
			if err != nil {
				t.Fatalf("ParseFile(%s):\n%v", f, err)
			}
			for _, pr := range append([]string{""}, profileNames(s)...) {
				if _, err := s.Resolve(pr); err != nil {
					t.Errorf("Resolve(%q) error: %v", pr, err)
				}
			}
		})
	}
}

func profileNames(s *Spec) []string {
	var out []string
	for _, p := range s.Profiles {
		out = append(out, p.Name)
	}
	return out
}

// TestFig6 checks every field of the example spec of the format.
func TestFig6(t *testing.T) {
	s, err := ParseFile("testdata/good/rc13-fig6.yaml", registry(t))
	if err != nil {
		t.Fatal(err)
	}
	pos := func(line, col int) Position {
		return Position{File: "testdata/good/rc13-fig6.yaml", Line: line, Column: col}
	}
	want := &Spec{
		File:        "testdata/good/rc13-fig6.yaml",
		Name:        "rc13-fig6",
		Description: "BER vs distance",
		Model:       "fso-ber",
		Seed:        1,
		Replicates:  1,
		Params:      []Setting{{Name: "power", Value: vocab.F(0.9), Pos: pos(7, 3)}},
		Grid: []Axis{
			{Name: "distance", Values: fs(16e6, 25e6, 50e6, 80e6), Pos: pos(9, 3)},
			{Name: "bit_rate", Values: fs(1e9, 2e9, 3e9, 4e9), Pos: pos(10, 3)},
		},
		Cases: [][]Setting{
			{{Name: "detection", Value: vocab.S("direct"), Pos: pos(12, 6)}},
			{{Name: "detection", Value: vocab.S("coherent"), Pos: pos(13, 6)}, {Name: "wavelength", Value: vocab.F(1.55e-6), Pos: pos(13, 27)}},
		},
		Profiles: []Profile{
			{Name: "quick", Replicates: 1, Grid: []Axis{{Name: "distance", Values: linspace(1e7, 9e7, 41), Pos: pos(15, 33)}}, Pos: pos(15, 3)},
			{Name: "full", Replicates: 10, Pos: pos(16, 3)},
		},
		Plots: []Plot{{
			ID: "rc13-fig6", Title: "BER vs distance", Caption: "Document 000, Fig. 6", Kind: "line",
			X: "distance", Y: []string{"ber"}, Series: []string{"detection", "bit_rate"},
			Where: []Setting{{Name: "constants", Value: vocab.S("codata"), Pos: pos(24, 13)}},
			XUnit: "km", XLabel: "distance (km)", YLabel: "ber", LogY: true, Pos: pos(18, 5),
		}},
	}
	opts := []cmp.Option{cmp.Comparer(func(a, b vocab.Value) bool { return a.Equal(b) }), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".Text"
	}, cmp.Ignore())}
	if diff := cmp.Diff(want, s, opts...); diff != "" {
		t.Errorf("ParseFile(rc13-fig6.yaml) mismatch (-want +got):\n%s", diff)
	}
	if s.Size() != 32 {
		t.Errorf("Size() = %v, want 4 distances x 4 rates x 2 cases = 32", s.Size())
	}
	quick, err := s.Resolve("quick")
	if err != nil {
		t.Fatal(err)
	}
	if quick.Size() != 41*4*2 || quick.Profile != "quick" || len(s.Grid[0].Values) != 4 {
		t.Errorf("Resolve(quick): size %v (want 328), profile %q; base distance axis now %d values (want 4)", quick.Size(), quick.Profile, len(s.Grid[0].Values))
	}
	full, _ := s.Resolve("full")
	if full.Size() != 320 {
		t.Errorf("Resolve(full).Size() = %v, want 320", full.Size())
	}
	if _, err := s.Resolve("quik"); err == nil || !strings.Contains(err.Error(), `did you mean "quick"?`) {
		t.Errorf(`Resolve("quik") error = %v, want a suggestion of "quick"`, err)
	}
}

func fs(xs ...float64) []vocab.Value {
	out := make([]vocab.Value, len(xs))
	for i, x := range xs {
		out[i] = vocab.F(x)
	}
	return out
}

func linspace(a, b float64, n int) []vocab.Value {
	out := make([]vocab.Value, n)
	for i := range out {
		out[i] = vocab.F(round15(a + float64(i)*(b-a)/float64(n-1)))
	}
	out[n-1] = vocab.F(b)
	return out
}

// TestRangeMatchesList: a stepped range gives the very values of the list a
// person would type, so both name the same scenarios.
func TestRangeMatchesList(t *testing.T) {
	reg := registry(t)
	a, err := Parse("a.yaml", []byte("name: a\nmodel: fso-ber\ngrid:\n  loss: {from: 0.1%, to: 0.9%, step: 0.1%}\n"), reg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.yaml", []byte("name: b\nmodel: fso-ber\ngrid:\n  loss: [0.1%, 0.2%, 0.3%, 0.4%, 0.5%, 0.6%, 0.7%, 0.8%, 0.9%]\n"), reg)
	if err != nil {
		t.Fatal(err)
	}
	eq := cmp.Comparer(func(x, y vocab.Value) bool { return x.Canonical() == y.Canonical() })
	if diff := cmp.Diff(b.Grid[0].Values, a.Grid[0].Values, eq); diff != "" {
		t.Errorf("range values differ from the list (-list +range):\n%s", diff)
	}
}

// TestLogRangeMatchesList: a log range names the scenarios of the list a
// person would type. Every point a whole number of decades from the start
// (3e-7 from 3e-9) is the start shifted by them exactly, so that 3e-7
// selects it in a query, over every whole-decade span the power parameter
// allows, with one to ten points a decade or one every two or three
// decades. The points between are the true value rounded to the 15 digits
// a range keeps, give or take four units in the last place: 10^(k/3) and
// 10^(k/10), written here to 40 digits by Python's decimal module (a true
// value as close to a rounding boundary as 10^(9/10), whose 16th digit is
// a 5 followed by 0206, rounds either way).
func TestLogRangeMatchesList(t *testing.T) {
	reg := registry(t)
	// A step of 1/perDecade decade (perDecade > 0) or of -perDecade
	// decades.
	for a := -12; a <= 0; a++ {
		for b := a + 1; b <= 1; b++ {
			for _, perDecade := range []int{1, 2, 5, 10, -2, -3} {
				n := (b-a)*perDecade + 1
				if perDecade < 0 {
					if (b-a)%-perDecade != 0 {
						continue
					}
					n = (b-a)/-perDecade + 1
				}
				text := fmt.Sprintf("name: a\nmodel: fso-ber\ngrid:\n  power: {from: 3e%dW, to: 3e%dW, points: %d, scale: log}\n", a, b, n)
				s, err := Parse("a.yaml", []byte(text), reg)
				if err != nil {
					t.Fatalf("%s: %v", text, err)
				}
				for k, v := range s.Grid[0].Values {
					decades := k * -perDecade
					if perDecade > 0 {
						if k%perDecade != 0 {
							continue
						}
						decades = k / perDecade
					}
					want, _ := strconv.ParseFloat(fmt.Sprintf("3e%d", a+decades), 64)
					if v.Float() != want {
						t.Errorf("3e%d W to 3e%d W in %d points: point %d is %v, want %v as typed", a, b, n, k, v.Float(), want)
					}
				}
			}
		}
	}
	tests := []struct {
		text string
		want []string
	}{
		{"power: {from: 1W, to: 10W, points: 4, scale: log}", []string{"1",
			"2.154434690031883721759293566519350495259", "4.641588833612778892410076350919446576552", "10"}},
		{"power: {from: 1mW, to: 10mW, points: 11, scale: log}", []string{"1e-3",
			"1.258925411794167210423954106395800606094e-3", "1.584893192461113485202101373391507013269e-3",
			"1.995262314968879601352455396739535557986e-3", "2.511886431509580111085032067799327394159e-3",
			"3.162277660168379331998893544432718533720e-3", "3.981071705534972507702523050877520434877e-3",
			"5.011872336272722850015541868849457680605e-3", "6.309573444801932494343601366223438646729e-3",
			"7.943282347242815020659182828363879325890e-3", "1e-2"}},
		{"distance: {from: 1000km, to: 1000000km, points: 4, scale: log}", []string{"1e6", "1e7", "1e8", "1e9"}},
		{"power: {from: 1e-9W, to: 1e-3W, points: 4, scale: log}", []string{"1e-9", "1e-7", "1e-5", "1e-3"}},
		{"bit_rate: {from: 1Mbps, to: 10Gbps, points: 5, scale: log}", []string{"1e6", "1e7", "1e8", "1e9", "1e10"}},
		{"loss: {from: 0.0001%, to: 10%, points: 6, scale: log}", []string{"1e-6", "1e-5", "1e-4", "1e-3", "1e-2", "1e-1"}},
	}
	for _, tt := range tests {
		s, err := Parse("a.yaml", []byte("name: a\nmodel: fso-ber\ngrid:\n  "+tt.text+"\n"), reg)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		got := s.Grid[0].Values
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d values, want %d", tt.text, len(got), len(tt.want))
		}
		for k, w := range tt.want {
			want, _ := strconv.ParseFloat(w, 64)
			// Half a unit in the 15th digit (the rounding the range
			// keeps) and four units in the last place (the computation).
			tol := 0.5*math.Pow10(int(math.Floor(math.Log10(want)))-14) + 4*(math.Nextafter(want, math.Inf(1))-want)
			if x := got[k].Float(); math.Abs(x-want) > tol {
				t.Errorf("%s: point %d is %v, want %s within %.2g", tt.text, k, x, w, tol)
			}
		}
	}
}

// TestLogRangeKeepsOtherValues: a log range that does not span whole
// decades gives the values, and so names the scenarios, it always gave.
func TestLogRangeKeepsOtherValues(t *testing.T) {
	s, err := Parse("a.yaml", []byte("name: a\nmodel: fso-ber\ngrid:\n  bit_rate: {from: 2Gbps, to: 30Gbps, points: 5, scale: log}\n"), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	want := fs(2e9, 3935979342.53087, 7745966692.41484, 15243982444.6385, 30e9)
	if diff := cmp.Diff(want, s.Grid[0].Values, cmp.Comparer(func(a, b vocab.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("2 Gbit/s to 30 Gbit/s in 5 points (-want +got):\n%s", diff)
	}
}

// TestLazyRangesChecked: with Limits.LazyRanges a range's values are
// still checked one by one (here two that round to the same whole
// number), with the message of the values made up front.
func TestLazyRangesChecked(t *testing.T) {
	reg := registry(t)
	_, eager := ParseFile("testdata/bad/bad-range-log.yaml", reg)
	_, lazy := ParseFileLimited("testdata/bad/bad-range-log.yaml", reg, Limits{LazyRanges: true})
	if eager == nil || lazy == nil || lazy.Error() != eager.Error() {
		t.Errorf("lazy ranges: error %v, want %v as without", lazy, eager)
	}
	if lazy == nil || !strings.Contains(lazy.Error(), "twice once rounded to whole numbers") {
		t.Errorf("lazy ranges: error %v, want the repeated whole number", lazy)
	}
}

// TestLevelRangeStep: the step of a range of levels in dBm is their
// difference, a ratio in dB ("2dB"; "2dBm" reads the same), and a power
// (1mW, which is 0 dBm) is refused with that advice rather than as a zero
// step.
func TestLevelRangeStep(t *testing.T) {
	m := newFake()
	m.schema.Params = append(m.schema.Params, vocab.Param{Name: "launch_power", Kind: vocab.Float, Unit: vocab.DBm, Default: vocab.F(0), Min: -20, Max: 20})
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		step string
		want []float64 // nil: refused
		err  string
	}{
		{"2dB", []float64{-4, -2, 0, 2, 4}, ""},
		{"2dBm", []float64{-4, -2, 0, 2, 4}, ""},
		{"1mW", nil, `difference in dB, e.g. 2dB, not "1mW"`},
		{"-2dB", nil, "step must be above zero"},
	} {
		s, err := Parse("l.yaml", []byte("name: l\nmodel: fso-ber\ngrid:\n  launch_power: {from: -4dBm, to: 4dBm, step: "+c.step+"}\n"), reg)
		if c.want == nil {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("step %s: %v, want an error saying %q", c.step, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("step %s: %v", c.step, err)
			continue
		}
		var got []float64
		for _, v := range s.Grid[0].Values {
			got = append(got, v.Float())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("step %s: %v, want %v", c.step, got, c.want)
		}
	}
}
