package orbit

import (
	"strings"
	"testing"
)

// TestFleetShells puts two shells in one fleet: satellites are numbered
// shell after shell, each shell's positions are its own constellation's,
// its +Grid links are shifted by its first number, and ground rules go by
// shell.
func TestFleetShells(t *testing.T) {
	k1 := mustShell(t, "kuiper-k1")
	t1 := mustShell(t, "telesat-t1")
	m := Motion{SGP4: true, GMST0: GMSTAt(-0.5)}
	f, err := NewFleet(FleetConfig{Shells: []Shell{k1, t1}, Motion: m, UseCone: true, ExtraISLs: [][2]int{{0, 1156}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Len(), 1156+351; got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
	if f.First(1) != 1156 {
		t.Errorf("First(1) = %d, want 1156", f.First(1))
	}
	ck, _ := NewConstellation(k1, m)
	ct, _ := NewConstellation(t1, m)
	pos := f.Positions(123.4, nil)
	pk, pt := ck.Positions(123.4, nil), ct.Positions(123.4, nil)
	for i, p := range pk {
		if pos[i] != p {
			t.Fatalf("satellite %d at %v, its shell's %v", i, pos[i], p)
		}
	}
	for i, p := range pt {
		if pos[1156+i] != p {
			t.Fatalf("satellite %d at %v, its shell's %v", 1156+i, pos[1156+i], p)
		}
	}
	isls := f.ISLs()
	if got, want := len(isls), 2*1156+2*351+1; got != want {
		t.Fatalf("%d ISLs, want %d", got, want)
	}
	if isls[2*1156] != [2]int{1156, 1157} || isls[len(isls)-1] != [2]int{0, 1156} {
		t.Errorf("ISLs %v ... %v, want Telesat's from [1156 1157] and the extra [0 1156] last", isls[2*1156], isls[len(isls)-1])
	}
	if f.Rule(0) != k1.Rule(true) || f.Rule(1200) != t1.Rule(true) {
		t.Errorf("rules %v, %v; want each shell's", f.Rule(0), f.Rule(1200))
	}
	if a := testing.AllocsPerRun(10, func() { f.Positions(1, pos) }); a != 0 {
		t.Errorf("Positions allocates %g times", a)
	}
}

// satgenpyKuiperTLEs are three of the element sets satgenpy's
// generate_tles_from_scratch_manual writes for Kuiper K1 (satellites 0, 1
// and 34, as in testdata/hypatia's tles.txt, with satgenpy's checksums).
const satgenpyKuiperTLEs = `Kuiper-630 0
1 00001U 00000ABC 00001.00000000  .00000000  00000-0  00000+0 0    04
2 00001  51.9000   0.0000 0000001   0.0000   0.0000 14.80000000    02
Kuiper-630 1
1 00002U 00000ABC 00001.00000000  .00000000  00000-0  00000+0 0    05
2 00002  51.9000   0.0000 0000001   0.0000  10.5882 14.80000000    07
Kuiper-630 34
1 00035U 00000ABC 00001.00000000  .00000000  00000-0  00000+0 0    01
2 00035  51.9000  10.5882 0000001   0.0000   5.2941 14.80000000    04
`

// TestFleetTLEs propagates satgenpy's element sets of three Kuiper
// satellites through a fleet and compares them with the generated shell
// moved by the same SGP4: within 10 m, the element sets' rounding of
// angles to 1e-4 degree (up to 6 m along the orbit at 7,008 km radius,
// and as much across it); the two Earth angles (IAU 1982 at the date,
// against GMST0 plus the WGS-84 rate) differ by under a millimetre here.
func TestFleetTLEs(t *testing.T) {
	sets, err := ParseTLEs("kuiper.tle", satgenpyKuiperTLEs)
	if err != nil {
		t.Fatal(err)
	}
	if sets[2].Name != "Kuiper-630 34" || sets[0].Epoch != -0.5 {
		t.Fatalf("name %q epoch %v, want Kuiper-630 34 and -0.5 (2000-01-01 00:00 UT)", sets[2].Name, sets[0].Epoch)
	}
	f, err := NewFleet(FleetConfig{TLEs: sets, TLERule: GroundRule{MinElevation: Radians(30)}, Epoch: -0.5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewConstellation(mustShell(t, "kuiper-k1"), Motion{SGP4: true, GMST0: GMSTAt(-0.5)})
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, tm := range []float64{0, 100, 1000, 5400} {
		pf, pc := f.Positions(tm, nil), c.Positions(tm, nil)
		for i, k := range []int{0, 1, 34} {
			d := Dist(pf[i], pc[k])
			worst = max(worst, d)
			if d > 10 {
				t.Errorf("t=%g s: satellite %d from its element set is %.2f m from the shell's (tolerance 10 m)", tm, k, d)
			}
		}
	}
	t.Logf("worst %.3f m", worst)
}

func TestFleetErrors(t *testing.T) {
	k1 := mustShell(t, "kuiper-k1")
	bad := k1
	bad.Planes = 0
	// A geostationary set: one revolution per sidereal day.
	geo := sum68("1 00000U          00001.00000000  .00000000  00000-0  00000+0 0    0") + "\n" +
		sum68("2 00000   0.0000   0.0000 0000001   0.0000   0.0000  1.00270000    0")
	geoSets, err := ParseTLEs("geo.tle", geo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  FleetConfig
		msg  string
	}{
		{"empty", FleetConfig{}, "at least one shell"},
		{"zero planes", FleetConfig{Shells: []Shell{bad}}, "0 planes"},
		{"extra link out of range", FleetConfig{Shells: []Shell{k1}, ExtraISLs: [][2]int{{0, 1156}}}, "satellites 0..1155"},
		{"extra link repeated", FleetConfig{Shells: []Shell{k1}, ExtraISLs: [][2]int{{1, 0}}}, "already a link"},
		{"extra self link", FleetConfig{Shells: []Shell{k1}, ExtraISLs: [][2]int{{3, 3}}}, "to itself"},
		{"deep space", FleetConfig{TLEs: geoSets, TLERule: GroundRule{MinElevation: 0.1}}, "deep space"},
	} {
		_, err := NewFleet(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: NewFleet error %v, want one saying %q", c.name, err, c.msg)
		}
	}
}

// TestCitiesAgreeWithHypatia: every built-in city that Hypatia's top-100
// list has stands exactly where the list puts it (tolerance 0: the same
// decimal degrees), and the list is Hypatia's 100 in its order.
func TestCitiesAgreeWithHypatia(t *testing.T) {
	h := HypatiaCities()
	if len(h) != 100 || h[0].Name != "Tokyo" || h[9].Name != "New-York-Newark" || h[99].Name != "Kunming" {
		t.Fatalf("Hypatia's list: %d cities, %q, %q, %q", len(h), h[0].Name, h[9].Name, h[99].Name)
	}
	in := map[string]string{"new-york": "New-York-Newark", "karachi": "Karachi", "delhi": "Delhi",
		"mexico-city": "Ciudad-de-México-(Mexico-City)", "cairo": "Al-Qahirah-(Cairo)", "mumbai": "Mumbai-(Bombay)",
		"buenos-aires": "Buenos-Aires", "lagos": "Lagos", "los-angeles": "Los-Angeles-Long-Beach-Santa-Ana",
		"tokyo": "Tokyo", "moscow": "Moskva-(Moscow)", "saint-petersburg": "Sankt-Peterburg-(Saint-Petersburg)",
		"manila": "Manila", "dalian": "Dalian", "istanbul": "Istanbul", "nairobi": "Nairobi", "rio-de-janeiro": "Rio-de-Janeiro"}
	byName := map[string]Station{}
	for _, s := range h {
		byName[s.Name] = s
	}
	shared := 0
	for _, c := range Cities() {
		want, ok := byName[in[c.Name]]
		if !ok {
			continue
		}
		shared++
		if c.Lat != want.Lat || c.Lon != want.Lon {
			d := Dist(WGS84.Position(c), WGS84.Position(want))
			t.Errorf("%s is %.2f km from Hypatia's %s", c.Name, d/1e3, want.Name)
		}
	}
	if shared != len(in) {
		t.Errorf("%d built-in cities matched, want %d", shared, len(in))
	}
	for _, name := range []string{"Chicago", "kinki-m.m.a.-(osaka)", "new-york"} {
		if _, err := City(name); err != nil {
			t.Errorf("City(%q): %v", name, err)
		}
	}
	if _, err := City("atlantis"); err == nil || !strings.Contains(err.Error(), `unknown city "atlantis"`) {
		t.Errorf("City(atlantis) error %v", err)
	}
}

func TestParseStations(t *testing.T) {
	// Hypatia's first three lines, as its basic.txt writes them.
	st, err := ParseStations("gs.txt", "0,Tokyo,35.6895,139.69171,0\n1,Delhi,28.66667,77.21667,0\n\n# comment\n2,Shanghai,31.22222,121.45806,12.5\n")
	if err != nil {
		t.Fatal(err)
	}
	h := HypatiaCities()
	for i := 0; i < 3; i++ {
		if st[i].Name != h[i].Name || st[i].Lat != h[i].Lat || st[i].Lon != h[i].Lon {
			t.Errorf("station %d = %+v, Hypatia's %+v", i, st[i], h[i])
		}
	}
	if st[2].Height != 12.5 {
		t.Errorf("height %g, want 12.5", st[2].Height)
	}
	st, err = ParseStations("ll.txt", "48.85341, 2.3488\nzurich,47.36667,8.55\n")
	if err != nil || len(st) != 2 || st[0].Name != "station-0" || st[1].Name != "zurich" || st[1].Lat != Radians(47.36667) {
		t.Errorf("lat,lon list: %+v, %v", st, err)
	}
	for _, c := range []struct{ in, want string }{
		{"48.8,2.3\n95,10\n", "ll.txt:2:1: "},
		{"48.8,2.3\nparis,48.x,2.3\n", `ll.txt:2:7: latitude "48.x" is not a number`},
		{"0,Tokyo,35.6895,139.69171,0\n2,Delhi,28.66667,77.21667,0\n", `ll.txt:2:1: gid "2", want 1`},
		{"1,2,3,4\n", "ll.txt:1:1: 4 fields"},
		{"\n# nothing\n", "no ground stations"},
	} {
		_, err := ParseStations("ll.txt", c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseStations(%q) error %v, want %q", c.in, err, c.want)
		}
	}
}
