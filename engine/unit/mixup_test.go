package unit_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engine maps the engine packages the snippets import to their source
// directories, relative to this package.
var engine = map[string]string{
	"github.com/crosslink-sim/crosslink/engine/des":    "../des",
	"github.com/crosslink-sim/crosslink/engine/unit":   ".",
	"github.com/crosslink-sim/crosslink/engine/tcp/cc": "../tcp/cc",
}

// srcImporter type-checks the engine packages from their source (without
// tests) and takes the standard library from the default importer.
type srcImporter struct {
	fset *token.FileSet
	std  types.Importer
	pkgs map[string]*types.Package
}

func (im *srcImporter) Import(path string) (*types.Package, error) {
	if p, ok := im.pkgs[path]; ok {
		return p, nil
	}
	dir, ok := engine[path]
	if !ok {
		return im.std.Import(path)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(im.fset, n, src, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: im}
	p, err := conf.Check(path, im.fset, files, nil)
	if err != nil {
		return nil, err
	}
	im.pkgs[path] = p
	return p, nil
}

// check type-checks body inside a function of a package that imports des,
// unit and cc, and returns the first error, or nil.
func check(t *testing.T, im *srcImporter, body string) error {
	t.Helper()
	src := `package p

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

var (
	_    = cc.Names
	cwnd unit.Bytes    = 14600
	rtt  des.Duration  = 25 * des.Millisecond
	now  des.Time      = 1e9
	rate unit.BitRate  = 10 * unit.Mbps
	s    cc.State
	ctrl cc.Controller = cc.NewCubic(false, cc.ABCOff)
)

func f() {
	_, _, _, _, _, _ = cwnd, rtt, now, rate, s, ctrl
` + body + `
}
`
	f, err := parser.ParseFile(im.fset, "p.go", src, 0)
	if err != nil {
		t.Fatalf("snippet %q does not parse: %v", body, err)
	}
	var first error
	conf := types.Config{Importer: im, Error: func(err error) {
		if first == nil {
			first = err
		}
	}}
	conf.Check("p", im.fset, []*ast.File{f}, nil)
	return first
}

// Unit mix-ups do not compile: each snippet below is type-checked against
// the engine's own des, unit and cc packages and must fail with the error
// named, while its correct form (the control) compiles, so the test fails
// if the types were ever merged back into plain integers.
func TestMixUpsDoNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the engine packages from source")
	}
	fset := token.NewFileSet()
	im := &srcImporter{fset: fset, std: importer.ForCompiler(fset, "source", nil), pkgs: map[string]*types.Package{}}
	for _, tc := range []struct {
		name, wrong, right, want string
	}{
		{"bytes plus a duration", `_ = cwnd + rtt`, `_ = cwnd + cwnd`, "mismatched types"},
		{"an instant plus a span", `_ = now + rtt`, `_ = now.Add(rtt)`, "mismatched types"},
		{"a duration as an instant", `var t des.Time = rtt; _ = t`, `var t des.Time = now.Add(rtt); _ = t`, "cannot use"},
		{"bytes as a rate", `var r unit.BitRate = cwnd; _ = r`, `var r unit.BitRate = unit.RateOf(cwnd, rtt); _ = r`, "cannot use"},
		{"a rate as bytes per second", `s.PacingRate = 1.25e6 * float64(cwnd)`, `s.PacingRate = unit.BytesPerSecond(1.25e6)`, "cannot use"},
		{"cwnd from a duration", `s.Cwnd = rtt`, `s.Cwnd = cwnd`, "cannot use"},
		{"a hook given a span for now", `ctrl.OnPacketSent(rtt, &s, cwnd, cwnd, false)`, `ctrl.OnPacketSent(now, &s, cwnd, cwnd, false)`, "cannot use"},
		{"a hook given a time for bytes", `ctrl.OnCongestionEvent(now, &s, rtt)`, `ctrl.OnCongestionEvent(now, &s, cwnd)`, "cannot use"},
		{"an RTT sample in bytes", `_ = cc.Ack{Now: now, RTT: cwnd}`, `_ = cc.Ack{Now: now, RTT: rtt, Acked: cwnd}`, "cannot use"},
		{"a transmission time from bit/s and a duration", `_ = rate.TxTime(rtt)`, `_ = rate.TxTime(cwnd)`, "cannot use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := check(t, im, tc.right); err != nil {
				t.Fatalf("control %q does not compile: %v", tc.right, err)
			}
			err := check(t, im, tc.wrong)
			if err == nil {
				t.Fatalf("%q compiles, want a type error", tc.wrong)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: error %q, want one containing %q", tc.wrong, err, tc.want)
			}
		})
	}
}
