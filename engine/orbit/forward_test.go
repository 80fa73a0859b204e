package orbit

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// smallFleet is a 6 x 8 Walker shell at 1,000 km (53 deg, phasing 1,
// stations above 10 deg elevation): small enough for a Floyd-Warshall
// oracle at every step, with links that are not all of one length.
func smallFleet(t *testing.T, extra [][2]int) *Fleet {
	t.Helper()
	f, err := NewFleet(FleetConfig{
		Shells: []Shell{{Name: "w48", Altitude: 1000e3, Inclination: Radians(53), Planes: 6, PerPlane: 8,
			Phasing: 1, MinElevation: Radians(10)}},
		Motion: Motion{J2: true, GMST0: GMSTAt(-0.5)}, ExtraISLs: extra,
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// oracleTol is the agreement asked of Forwarding's distances with the
// Floyd-Warshall oracle: 1e-6 m. Both add the same link lengths of up to
// 1e7 m in different orders; the rounding of a sum of a few tens of such
// terms is some 1e-8 m.
const oracleTol = 1e-6

// floydWarshall returns all-pairs shortest distances over n nodes with
// symmetric edge weights w (Inf where there is no edge).
func floydWarshall(n int, w func(a, b int) float64) [][]float64 {
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = w(i, j)
		}
		d[i][i] = 0
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if x := d[i][k] + d[k][j]; x < d[i][j] {
					d[i][j] = x
				}
			}
		}
	}
	return d
}

// TestForwardingOracle checks every next hop and distance of both modes,
// with and without outages, against Floyd-Warshall over the same
// instant's graph built independently (positions from the fleet, links
// from the ISL list, ground links by the elevation function).
func TestForwardingOracle(t *testing.T) {
	stations := []Station{}
	for _, name := range []string{"london", "new-york", "paris", "tokyo", "sydney", "nairobi", "moscow"} {
		s, err := City(name)
		if err != nil {
			t.Fatal(err)
		}
		stations = append(stations, s)
	}
	outages := []Outage{
		{From: 0, To: 600, Sat: 5},
		{From: 300, To: 900, Sat: -1, Link: [2]int{9, 8}},
		{From: 0, To: 1e9, Sat: -1, Link: [2]int{0, 1}},
	}
	inf := math.Inf(1)
	// The small shell with one extra link, and the same with three of
	// satgenpy's Kuiper element sets (satellites 48-50, at 630 km) joined
	// to it and to each other by extra links: several groups in one fleet.
	sets, err := ParseTLEs("kuiper.tle", satgenpyKuiperTLEs)
	if err != nil {
		t.Fatal(err)
	}
	fleets := []func() *Fleet{
		func() *Fleet { return smallFleet(t, [][2]int{{2, 30}}) },
		func() *Fleet {
			f, err := NewFleet(FleetConfig{
				Shells: []Shell{{Name: "w48", Altitude: 1000e3, Inclination: Radians(53), Planes: 6, PerPlane: 8,
					Phasing: 1, MinElevation: Radians(10)}},
				Motion: Motion{J2: true, GMST0: GMSTAt(-0.5)}, TLEs: sets, TLERule: GroundRule{MinElevation: Radians(10)},
				Epoch: -0.5, ExtraISLs: [][2]int{{2, 30}, {48, 0}, {49, 48}, {50, 12}, {50, 49}},
			})
			if err != nil {
				t.Fatal(err)
			}
			return f
		},
	}
	for _, mkFleet := range fleets {
		for _, mode := range []RouteMode{OverISLs, GroundRelays} {
			for _, withOutages := range []bool{false, true} {
				for _, heap := range []bool{false, true} {
					f := mkFleet()
					var outs []Outage
					if withOutages {
						outs = outages
					}
					r, err := NewForwarding(f, WGS84, stations, mode, outs)
					if err != nil {
						t.Fatal(err)
					}
					// Both queues: Dial's buckets (the links here are 1,000 km
					// and more) and the heap.
					r.forceHeap = heap
					n, g := f.Len(), len(stations)
					checked := 0
					for _, tm := range []float64{0, 317, 650, 1234.5} {
						r.Step(tm)
						pos := f.Positions(tm, nil)
						satDown := map[int]bool{}
						linkDown := map[[2]int]bool{}
						for _, o := range outs {
							if tm >= o.From && tm < o.To {
								if o.Sat >= 0 {
									satDown[o.Sat] = true
								} else {
									linkDown[[2]int{min(o.Link[0], o.Link[1]), max(o.Link[0], o.Link[1])}] = true
								}
							}
						}
						isl := map[[2]int]bool{}
						for _, l := range f.ISLs() {
							if !linkDown[l] && !satDown[l[0]] && !satDown[l[1]] {
								isl[l] = true
							}
						}
						gsl := func(s, k int) float64 {
							if satDown[k] {
								return inf
							}
							gp := WGS84.Position(stations[s])
							if Elevation(gp, WGS84.Up(stations[s]), pos[k]) >= Radians(10) {
								return Dist(gp, pos[k])
							}
							return inf
						}
						w := func(a, b int) float64 {
							switch {
							case a < n && b < n:
								if isl[[2]int{min(a, b), max(a, b)}] {
									return Dist(pos[a], pos[b])
								}
							case a < n && b >= n:
								return gsl(b-n, a)
							case a >= n && b < n:
								return gsl(a-n, b)
							}
							return inf
						}
						var want func(u, d int) float64
						if mode == OverISLs {
							fw := floydWarshall(n, w)
							want = func(u, d int) float64 {
								best := inf
								if u >= n {
									for k := 0; k < n; k++ {
										best = math.Min(best, gsl(u-n, k)+want(k, d))
									}
									return best
								}
								for b := 0; b < n; b++ {
									best = math.Min(best, fw[u][b]+gsl(d, b))
								}
								return best
							}
						} else {
							fw := floydWarshall(n+g, w)
							want = func(u, d int) float64 { return fw[u][n+d] }
						}
						for d := 0; d < g; d++ {
							for u := 0; u < n+g; u++ {
								if u == n+d {
									continue
								}
								wd, got, nh := want(u, d), r.Dist(u, d), r.NextHop(u, d)
								if math.IsInf(wd, 1) {
									if nh != -1 || !math.IsInf(got, 1) {
										t.Errorf("%v outages %v t=%g: node %d to station %d: next %d dist %g, want none", mode, withOutages, tm, u, d, nh, got)
									}
									continue
								}
								if math.Abs(got-wd) > oracleTol {
									t.Errorf("%v outages %v t=%g: node %d to station %d: dist %.9f, Floyd-Warshall %.9f", mode, withOutages, tm, u, d, got, wd)
								}
								// The next hop lies on a shortest path: its link
								// plus its own distance is the node's.
								var via float64
								switch {
								case nh == n+d:
									via = w(u, nh)
								case nh >= 0 && mode == OverISLs && u >= n:
									via = w(u, nh) + want(nh, d)
								case nh >= 0:
									via = w(u, nh) + want(nh, d)
								default:
									via = inf
								}
								if math.Abs(via-wd) > oracleTol {
									t.Errorf("%v outages %v t=%g: node %d to station %d: next %d gives %.9f, shortest %.9f", mode, withOutages, tm, u, d, nh, via, wd)
								}
								if mode == OverISLs && nh >= n && nh != n+d {
									t.Errorf("over ISLs: node %d relays through station %d", u, nh-n)
								}
								if nh >= 0 && satDown[nh] {
									t.Errorf("t=%g: node %d forwards to satellite %d, which is down", tm, u, nh)
								}
								checked++
							}
						}
					}
					if withOutages && checked == 0 {
						t.Fatalf("%v: nothing checked", mode)
					}
					if r.useDial() == heap {
						t.Errorf("%v heap %v: the Dial queue is used: %v", mode, heap, r.useDial())
					}
				}
			}
		}
	}
}

// TestForwardingWalk follows the next hops from every node: each walk
// reaches its station without a loop, over links that exist, and its
// length is the node's distance.
func TestForwardingWalk(t *testing.T) {
	f := smallFleet(t, nil)
	st := HypatiaCities()[:40]
	for _, mode := range []RouteMode{OverISLs, GroundRelays} {
		r, err := NewForwarding(f, WGS72, st, mode, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Step(777)
		n, g := r.Satellites(), r.Stations()
		reached := 0
		var path []int
		for d := 0; d < g; d++ {
			for u := 0; u < n+g; u++ {
				if u == n+d || r.NextHop(u, d) < 0 {
					continue
				}
				path = r.Path(u, d, path[:0])
				if path[0] != u || path[len(path)-1] != n+d {
					t.Fatalf("%v: path %v from %d to station %d", mode, path, u, d)
				}
				length := 0.0
				for i := 1; i < len(path); i++ {
					if mode == OverISLs && i < len(path)-1 && path[i] >= n {
						t.Errorf("over ISLs: the path %v relays through a station", path)
					}
					length += r.linkLength(path[i-1], path[i])
				}
				if math.Abs(length-r.Dist(u, d)) > oracleTol {
					t.Errorf("%v: walk from %d to station %d is %.9f m, Dist %.9f", mode, u, d, length, r.Dist(u, d))
				}
				reached++
			}
		}
		if reached == 0 {
			t.Fatalf("%v: no node reaches any station", mode)
		}
	}
}

// linkLength is the length of the link from node a to node b at the last
// step (test helper: panics if there is none).
func (r *Forwarding) linkLength(a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	if b >= r.n && a >= r.n {
		panic("station to station")
	}
	if b >= r.n {
		sats, lens := r.GroundLinks(b - r.n)
		for i, k := range sats {
			if int(k) == a {
				return lens[i]
			}
		}
		panic("no ground link")
	}
	for k := r.off[a]; k < r.off[a+1]; k++ {
		if int(r.nbr[k]) == b {
			return r.islLen[r.edge[k]]
		}
	}
	panic("no ISL")
}

func TestForwardingStepAllocs(t *testing.T) {
	sh := mustShell(t, "kuiper-k1")
	f, err := NewFleet(FleetConfig{Shells: []Shell{sh}, Motion: Motion{SGP4: true, GMST0: GMSTAt(-0.5)}, UseCone: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []RouteMode{OverISLs, GroundRelays} {
		r, err := NewForwarding(f, WGS72, HypatiaCities(), mode, []Outage{{From: 0, To: 1, Sat: 3}})
		if err != nil {
			t.Fatal(err)
		}
		// Warm-up: ten seconds of steps grow the buffers (ground links,
		// Dial buckets) past what later steps need.
		for i := 0; i < 100; i++ {
			r.Step(float64(i) * 0.1)
		}
		tm := 0.0
		if a := testing.AllocsPerRun(20, func() { tm += 0.1; r.Step(tm) }); a != 0 {
			t.Errorf("%v: %g allocations per step after warm-up, want 0", mode, a)
		}
	}
}

func TestForwardingErrors(t *testing.T) {
	f := smallFleet(t, nil)
	st := Cities()[:3]
	for _, c := range []struct {
		name string
		st   []Station
		outs []Outage
	}{
		{"no stations", nil, nil},
		{"satellite out of range", st, []Outage{{From: 0, To: 1, Sat: 48}}},
		{"no such link", st, []Outage{{From: 0, To: 1, Sat: -1, Link: [2]int{0, 2}}}},
		{"empty interval", st, []Outage{{From: 5, To: 5, Sat: 1}}},
	} {
		if _, err := NewForwarding(f, WGS72, c.st, OverISLs, c.outs); err == nil {
			t.Errorf("%s: NewForwarding succeeded", c.name)
		}
	}
}

func TestForwardingTooLarge(t *testing.T) {
	// 100 shells of 30,000 satellites toward 2,000 stations: some 67 GiB.
	if b := ForwardingBytes(3e6, 2000, 6e6); b < 60<<30 || b > 80<<30 {
		t.Errorf("ForwardingBytes = %d, want about 67 GiB (3,002,000 x 2,000 x 12 bytes)", b)
	}
	// Kuiper K1 toward 19,000 stations: 20,156 x 19,000 x 12 bytes.
	f, err := NewFleet(FleetConfig{Shells: []Shell{mustShell(t, "kuiper-k1")}})
	if err != nil {
		t.Fatal(err)
	}
	st := make([]Station, 19000)
	_, err = NewForwarding(f, Sphere, st, OverISLs, nil)
	if err == nil || !strings.Contains(err.Error(), "needs about 4.3 GiB") {
		t.Errorf("NewForwarding of Kuiper K1 toward 19,000 stations: %v, want a refusal with the estimate", err)
	}
}

// TestForwardingAgreesWithRouter: the distance between two stations in
// the forwarding state is the length of Router's shortest path (the
// one-pair router that leo-path uses, itself checked against Hypatia),
// for the three presets, both ground rules and both geometries; within
// oracleTol, as both add the same lengths in different orders.
func TestForwardingAgreesWithRouter(t *testing.T) {
	pairs := [][2]string{{"manila", "dalian"}, {"istanbul", "nairobi"}, {"rio-de-janeiro", "saint-petersburg"}, {"london", "new-york"}, {"sydney", "tokyo"}}
	var st []Station
	for _, p := range pairs {
		for _, name := range p {
			s, err := City(name)
			if err != nil {
				t.Fatal(err)
			}
			st = append(st, s)
		}
	}
	for _, shell := range []string{"kuiper-k1", "starlink-s1", "telesat-t1"} {
		for _, cone := range []bool{true, false} {
			for _, pyephem := range []bool{false, true} {
				sh := mustShell(t, shell)
				m, e := Motion{SGP4: true, GMST0: GMSTAt(-0.5)}, WGS72
				if pyephem {
					m, e = Motion{SGP4: true, PyEphem: true, GMST0: GMSTNewcomb(-0.5)}, PyEphem
				}
				f, err := NewFleet(FleetConfig{Shells: []Shell{sh}, Motion: m, UseCone: cone})
				if err != nil {
					t.Fatal(err)
				}
				fw, err := NewForwarding(f, e, st, OverISLs, nil)
				if err != nil {
					t.Fatal(err)
				}
				c := f.Shells()[0]
				found := 0
				for _, tm := range []float64{0, 61.3, 1500} {
					fw.Step(tm)
					for i := range pairs {
						rt, err := NewRouter(c, e, st[2*i], st[2*i+1], sh.Rule(cone))
						if err != nil {
							t.Fatal(err)
						}
						var p Path
						ok := rt.Route(tm, &p)
						got := fw.Dist(fw.Satellites()+2*i, 2*i+1)
						if !ok {
							if !math.IsInf(got, 1) {
								t.Errorf("%s cone %v pyephem %v t=%g %v: Router finds no path, Forwarding %.3f m", shell, cone, pyephem, tm, pairs[i], got)
							}
							continue
						}
						found++
						if math.Abs(got-p.Length) > oracleTol {
							t.Errorf("%s cone %v pyephem %v t=%g %v: Forwarding %.9f m, Router %.9f m", shell, cone, pyephem, tm, pairs[i], got, p.Length)
						}
					}
				}
				if found == 0 {
					t.Errorf("%s cone %v: no pair has a path", shell, cone)
				}
			}
		}
	}
}

// TestGroundLinksSlab: the ground links found by bisecting the
// satellites' z (the slab of the largest range limit) are those of
// testing every satellite, in the same order and at the same lengths to
// the bit, for Hypatia's 100 cities over three shells (Telesat T1's wide
// cone included) at 12 steps over 300 s, under SGP4 and PyEphem's float
// ranges. Exact: the slab only skips satellites the range test rejects.
func TestGroundLinksSlab(t *testing.T) {
	for _, name := range []string{"kuiper-k1", "starlink-s1", "telesat-t1"} {
		for _, motion := range []Motion{{SGP4: true, GMST0: GMSTAt(-0.5)}, {SGP4: true, PyEphem: true, GMST0: GMSTNewcomb(-0.5)}} {
			sh := mustShell(t, name)
			f, err := NewFleet(FleetConfig{Shells: []Shell{sh}, Motion: motion, UseCone: true})
			if err != nil {
				t.Fatal(err)
			}
			earth := WGS72
			if motion.PyEphem {
				earth = PyEphem
			}
			a, errA := NewForwarding(f, earth, HypatiaCities(), OverISLs, nil)
			b, errB := NewForwarding(f, earth, HypatiaCities(), OverISLs, nil)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if math.IsInf(a.band, 1) {
				t.Fatalf("%s: no slab: a satellite without a range limit", name)
			}
			b.band = math.Inf(1) // test every satellite
			links := 0
			for i := 0; i < 12; i++ {
				tm := float64(i) * 25
				a.Step(tm)
				b.Step(tm)
				if !slices.Equal(a.gOff, b.gOff) || !slices.Equal(a.gSat, b.gSat) || !slices.Equal(a.gLen, b.gLen) {
					t.Fatalf("%s, PyEphem %v, t = %g s: ground links differ from testing every satellite", name, motion.PyEphem, tm)
				}
				links += len(a.gSat)
			}
			if links == 0 {
				t.Fatalf("%s: no ground link at all: the comparison is empty", name)
			}
		}
	}
}
