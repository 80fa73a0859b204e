package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
)

// TestValueFromFile: leo-network's element sets and stations given as
// {file: PATH} relative to the spec's directory. The spec loads with the
// file's text as the value (so the scenario id hashes the text); a wrong
// checksum in the file is reported at the file's line and column (the
// checksum digit, column 69 of line 2: the title is line 1), a bad station
// field at its own; a missing file at the spec's line of the path; and the
// inline text still works. The element set is CelesTrak's ISS example
// (the one TestLEONetworkBadInput uses).
func TestValueFromFile(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	const iss = "ISS (ZARYA)\n1 25544U 98067A   08264.51782528 -.00002182  00000-0 -11606-4 0  2927\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"
	bad := strings.Replace(iss, "0  2927", "0  2928", 1)
	stations := "0,Tokyo,35.6895,139.69171,0\n1,Delhi,28.66667,77.21667,0\n2,Shanghai,31.22222,121.45806,0\n"
	badStations := strings.Replace(stations, "28.66667", "28.6x667", 1)
	const head = "name: f\nmodel: leo-network\nseed: 1\nparams:\n  shells: \"\"\n  routing: ground-relays\n"
	cases := []struct {
		name  string
		files map[string]string
		body  string
		want  []string // errors; none: loads
		value map[string]string
	}{
		{"element sets and stations from files", map[string]string{"data/iss.tle": iss, "data/gs.txt": stations},
			"  tles: {file: data/iss.tle}\n  stations: {file: data/gs.txt}\n", nil, map[string]string{"tles": iss, "stations": stations}},
		{"a wrong checksum", map[string]string{"iss.tle": bad},
			"  tles: {file: iss.tle}\n", []string{"iss.tle:2:69: tles: ", "checksum"}, nil},
		{"a station field that is not a number", map[string]string{"gs.txt": badStations, "iss.tle": iss},
			"  tles: {file: iss.tle}\n  stations: {file: gs.txt}\n", []string{"gs.txt:2:", "stations: latitude \"28.6x667\" is not a number"}, nil},
		{"a missing file", nil, "  tles: {file: nowhere.tle}\n", []string{"f.yaml:7:16: tles: ", "nowhere.tle does not exist"}, nil},
		{"inline text", nil, "  tles: |\n" + indent(iss), nil, map[string]string{"tles": iss}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			spec := filepath.Join(dir, "f.yaml")
			if err := os.WriteFile(spec, []byte(head+c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := ParseFile(spec, reg)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				for name, want := range c.value {
					got := ""
					for _, st := range s.Params {
						if st.Name == name {
							got = st.Value.Str()
						}
					}
					if got != want {
						t.Errorf("%s = %q, want the file's text %q", name, got, want)
					}
				}
				return
			}
			if err == nil {
				t.Fatal("loaded, want an error")
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

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}
