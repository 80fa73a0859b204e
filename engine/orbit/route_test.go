package orbit

import (
	"math"
	"testing"
)

// bruteForce returns the shortest station-to-station length by
// Bellman-Ford relaxation over every edge until nothing changes: an
// independent check of Router's Dijkstra.
func bruteForce(c *Constellation, pos []Vec, e Earth, a, b Station, rule GroundRule) float64 {
	n := len(pos)
	ga, gb := e.Position(a), e.Position(b)
	dist := make([]float64, n)
	for i, s := range pos {
		dist[i] = math.Inf(1)
		if d := Dist(s, ga); rule.admits(ga, e.Up(a), s, d) {
			dist[i] = d
		}
	}
	isls := c.GridISLs()
	for changed := true; changed; {
		changed = false
		for _, l := range isls {
			d := Dist(pos[l[0]], pos[l[1]])
			if dist[l[0]]+d < dist[l[1]] {
				dist[l[1]], changed = dist[l[0]]+d, true
			}
			if dist[l[1]]+d < dist[l[0]] {
				dist[l[0]], changed = dist[l[1]]+d, true
			}
		}
	}
	best := math.Inf(1)
	for i, s := range pos {
		if d := Dist(s, gb); rule.admits(gb, e.Up(b), s, d) {
			best = math.Min(best, dist[i]+d)
		}
	}
	return best
}

// TestRouterShortest compares the router's path length with Bellman-Ford
// over the same graph at several times, and checks the path is made of
// the links it claims: consecutive satellites joined by the ISLs listed,
// hop lengths that are the distances between the positions, and a length
// that is their sum.
func TestRouterShortest(t *testing.T) {
	for _, tt := range []struct {
		shell string
		a, b  string
		cone  bool
	}{
		{"kuiper-k1", "manila", "dalian", true},
		{"kuiper-k1", "rio-de-janeiro", "saint-petersburg", false},
		{"telesat-t1", "london", "new-york", false},
		{"starlink-s1", "istanbul", "nairobi", true},
	} {
		sh := mustShell(t, tt.shell)
		c, _ := NewConstellation(sh, Motion{GMST0: GMSTAt(-0.5)})
		a, _ := City(tt.a)
		b, _ := City(tt.b)
		rule := sh.Rule(tt.cone)
		r, err := NewRouter(c, WGS72, a, b, rule)
		if err != nil {
			t.Fatal(err)
		}
		var p Path
		for _, tm := range []float64{0, 33.3, 150, 1000} {
			ok := r.Route(tm, &p)
			want := bruteForce(c, r.Positions(), WGS72, a, b, rule)
			if !ok {
				if !math.IsInf(want, 1) {
					t.Errorf("%s %s-%s t=%g: no path, brute force finds %.0f m", tt.shell, tt.a, tt.b, tm, want)
				}
				continue
			}
			if relErr(p.Length, want) > 1e-12 {
				t.Errorf("%s %s-%s t=%g: length %.3f m, brute force %.3f m", tt.shell, tt.a, tt.b, tm, p.Length, want)
			}
			pos := r.Positions()
			sum := Dist(WGS72.Position(a), pos[p.Sats[0]]) + Dist(WGS72.Position(b), pos[p.Sats[len(p.Sats)-1]])
			if len(p.Hops) != len(p.Sats)+1 || len(p.ISLs) != len(p.Sats)-1 {
				t.Fatalf("path shape: %d sats, %d ISLs, %d hops", len(p.Sats), len(p.ISLs), len(p.Hops))
			}
			for i, k := range p.ISLs {
				l := r.ISLs()[k]
				u, v := p.Sats[i], p.Sats[i+1]
				if !(l[0] == u && l[1] == v || l[0] == v && l[1] == u) {
					t.Fatalf("hop %d: ISL %v does not join %d and %d", i, l, u, v)
				}
				if d := Dist(pos[u], pos[v]); relErr(p.Hops[i+1], d) > 1e-12 {
					t.Fatalf("hop %d length %.3f, positions say %.3f", i, p.Hops[i+1], d)
				}
				sum += p.Hops[i+1]
			}
			if relErr(sum, p.Length) > 1e-12 {
				t.Errorf("hops sum to %.3f m, Length %.3f m", sum, p.Length)
			}
		}
	}
}
