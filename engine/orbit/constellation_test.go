package orbit

import (
	"math"
	"testing"
)

// relTol is the acceptance tolerance of the geometry against its closed
// forms: 1e-6 relative (issue 16). The computations agree to about 1e-13;
// the margin is for the trigonometry of large angles.
const relTol = 1e-6

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// walker returns a shell with Walker phasing 0, so that every plane's slot
// 0 is at its ascending node at time 0.
func walker(planes, per int, h, incDeg float64) Shell {
	return Shell{Name: "test", Altitude: h, Inclination: Radians(incDeg), Planes: planes, PerPlane: per,
		MinElevation: Radians(30)}
}

// TestConstellationPeriod checks the orbital period against Kepler's third
// law, T = 2 pi sqrt(r^3/mu), and against the motion itself: a satellite
// leaving its ascending node reaches the highest latitude, z = r sin i, a
// quarter period later and the node again half a period later.
func TestConstellationPeriod(t *testing.T) {
	for _, tt := range []struct {
		name  string
		shell Shell
		want  float64 // s
	}{
		{"kepler 550 km", walker(72, 22, 550e3, 53), 2 * math.Pi * math.Sqrt(math.Pow(EarthRadius+550e3, 3)/EarthMu)},
		{"kepler 1015 km", walker(27, 13, 1015e3, 98.98), 2 * math.Pi * math.Sqrt(math.Pow(EarthRadius+1015e3, 3)/EarthMu)},
		// A mean motion of 14.80 revolutions per day is a period of
		// 86400/14.80 s by definition (Hypatia's Kuiper K1).
		{"mean motion kuiper", mustShell(t, "kuiper-k1"), 86400 / 14.80},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewConstellation(tt.shell, Motion{})
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(c.Period(), tt.want); e > relTol {
				t.Errorf("Period = %.6f s, want %.6f s (rel %.2g)", c.Period(), tt.want, e)
			}
			T := c.Period()
			r, sinI := c.Radius(), math.Sin(tt.shell.Inclination)
			// Slot 0 of plane 0 starts at its ascending node.
			z := c.Positions(T/4, nil)[0][2]
			if e := relErr(z, r*sinI); e > relTol {
				t.Errorf("z(T/4) = %.3f m, want r sin i = %.3f m (rel %.2g)", z, r*sinI, e)
			}
			if z := c.Positions(T/2, nil)[0][2]; math.Abs(z) > relTol*r {
				t.Errorf("z(T/2) = %.3f m, want 0 (back on the equator)", z)
			}
			for _, p := range c.Positions(123.4, nil) {
				if e := relErr(p.Norm(), r); e > relTol {
					t.Fatalf("|position| = %.3f m, want the orbit radius %.3f m", p.Norm(), r)
				}
			}
		})
	}
}

func mustShell(t testing.TB, name string) Shell {
	t.Helper()
	s, err := ShellNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestISLLengths checks the +Grid link lengths against closed forms: every
// intra-plane link is the chord 2 r sin(pi/S) at all times; a cross-plane
// link between two satellites in the same slot of neighbouring planes is
// 2 r sin(pi/P) when both cross the equator and 2 r cos(i) sin(pi/P) at
// the highest latitude (the nodes are 2 pi/P apart; at argument of
// latitude u = pi/2 both positions lie on the circle of radius r cos i).
// The J2 drift moves every node alike, so it changes none of these.
func TestISLLengths(t *testing.T) {
	for _, j2 := range []bool{false, true} {
		for _, sh := range []Shell{walker(72, 22, 550e3, 53), walker(34, 34, 630e3, 51.9), walker(27, 13, 1015e3, 98.98)} {
			c, err := NewConstellation(sh, Motion{J2: j2, GMST0: 1.234})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Radius()
			intra := 2 * r * math.Sin(math.Pi/float64(sh.PerPlane))
			for _, tm := range []float64{0, 17.3, 600, 5000} {
				pos := c.Positions(tm, nil)
				for _, l := range c.GridISLs() {
					if !c.IntraPlane(l[0], l[1]) {
						continue
					}
					if d := Dist(pos[l[0]], pos[l[1]]); relErr(d, intra) > relTol {
						t.Fatalf("J2 %v, %dx%d, t=%g: intra-plane %v = %.3f m, want %.3f m", j2, sh.Planes, sh.PerPlane, tm, l, d, intra)
					}
				}
			}
			// Slot 0 is at the node (u = 0) at t = 0 and at u = pi/2 a
			// quarter period later (with J2 the period is that of u).
			dp := math.Pi / float64(sh.Planes)
			for _, at := range []struct {
				name string
				t    float64
				want float64
			}{
				{"equator", 0, 2 * r * math.Sin(dp)},
				{"highest latitude", c.Period() / 4, 2 * r * math.Abs(math.Cos(sh.Inclination)) * math.Sin(dp)},
			} {
				pos := c.Positions(at.t, nil)
				for p := 0; p < sh.Planes; p++ {
					d := Dist(pos[c.Index(p, 0)], pos[c.Index(p+1, 0)])
					if e := relErr(d, at.want); e > relTol {
						t.Errorf("J2 %v, %dx%d at %s: cross-plane %d-%d = %.3f m, want %.3f m (rel %.2g)",
							j2, sh.Planes, sh.PerPlane, at.name, p, p+1, d, at.want, e)
					}
				}
			}
		}
	}
}

// TestSlantRangeAtMinElevation places a satellite at the footprint edge of
// a station (central angle CoverageAngle) and checks the 3-D distance
// against the closed-form slant range at that elevation, the elevation
// computed from the vectors, and that the ground rule admits it at that
// elevation and not above.
func TestSlantRangeAtMinElevation(t *testing.T) {
	for _, tt := range []struct {
		h, e float64 // m, deg
	}{{550e3, 25}, {630e3, 30}, {1015e3, 10}, {35786e3, 5}} {
		e := Radians(tt.e)
		st, _ := StationAt("x", 10, 20)
		g, up := Sphere.Position(st), Sphere.Up(st)
		lambda := CoverageAngle(tt.h, e)
		// Rotate the station's direction by lambda towards the north,
		// in the plane of its meridian.
		r := Radius(tt.h)
		lat := st.Lat + lambda
		sat := Vec{r * math.Cos(lat) * math.Cos(st.Lon), r * math.Cos(lat) * math.Sin(st.Lon), r * math.Sin(lat)}
		d := Dist(g, sat)
		if err := relErr(d, SlantRange(tt.h, e)); err > relTol {
			t.Errorf("h %g km, e %g: distance %.3f m, want SlantRange %.3f m", tt.h/1e3, tt.e, d, SlantRange(tt.h, e))
		}
		if got := Elevation(g, up, sat); relErr(got, e) > relTol {
			t.Errorf("h %g km: Elevation = %.9f deg, want %g", tt.h/1e3, Degrees(got), tt.e)
		}
		if !(GroundRule{MinElevation: e - 1e-9}).admits(g, up, sat, d) {
			t.Errorf("h %g km: rule at %g deg rejects a satellite at %g deg", tt.h/1e3, tt.e, tt.e)
		}
		if (GroundRule{MinElevation: e + 1e-6}).admits(g, up, sat, d) {
			t.Errorf("h %g km: rule just above %g deg admits a satellite at %g deg", tt.h/1e3, tt.e, tt.e)
		}
	}
	// Hypatia's cone: the longest ground link is sqrt(c^2 + h^2), which
	// for c = h / tan(e) is h / sin(e): 1260 km for Kuiper at 30 deg.
	k := mustShell(t, "kuiper-k1")
	if got, want := k.MaxGroundRange(), 630e3/math.Sin(Radians(30)); relErr(got, want) > relTol {
		t.Errorf("kuiper-k1 MaxGroundRange = %.3f m, want %.3f m", got, want)
	}
}

// TestGMST checks the sidereal angle at 2000-01-01 00:00 UT1 against the
// Astronomical Almanac for 2000 (page B8: GMST 6 h 39 min 52.2707 s =
// 99.96779 deg; the almanac prints it to 0.0001 s, so 1e-6 relative is
// well inside).
func TestGMST(t *testing.T) {
	want := Radians((6 + 39/60.0 + 52.2707/3600) * 15)
	if got := GMSTAt(-0.5); relErr(got, want) > relTol {
		t.Errorf("GMSTAt(-0.5) = %.8f deg, want %.8f", Degrees(got), Degrees(want))
	}
}

// TestPresets checks the Hypatia shells' sizes and the +Grid degree.
func TestPresets(t *testing.T) {
	for _, tt := range []struct {
		name       string
		n          int
		minElevDeg float64
	}{{"starlink-s1", 1584, 25}, {"kuiper-k1", 1156, 30}, {"telesat-t1", 351, 10}} {
		s := mustShell(t, tt.name)
		c, err := NewConstellation(s, Motion{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Len() != tt.n {
			t.Errorf("%s: %d satellites, want %d", tt.name, c.Len(), tt.n)
		}
		if got := Degrees(s.MinElevation); math.Abs(got-tt.minElevDeg) > 1e-9 {
			t.Errorf("%s: minimum elevation %g, want %g", tt.name, got, tt.minElevDeg)
		}
		isls := c.GridISLs()
		if len(isls) != 2*tt.n {
			t.Errorf("%s: %d ISLs, want 2 per satellite = %d", tt.name, len(isls), 2*tt.n)
		}
		deg := make([]int, tt.n)
		for _, l := range isls {
			deg[l[0]]++
			deg[l[1]]++
		}
		for i, d := range deg {
			if d != 4 {
				t.Fatalf("%s: satellite %d has %d ISLs, want 4", tt.name, i, d)
			}
		}
	}
}

// TestShellValidate checks the errors a user can act on.
func TestShellValidate(t *testing.T) {
	for _, s := range []Shell{
		{Name: "a", Altitude: 550e3, Planes: 0, PerPlane: 10},
		{Name: "b", Altitude: -7000e3, Planes: 2, PerPlane: 10},
		{Name: "c", Altitude: 550e3, Planes: 2, PerPlane: 10, Phasing: 2},
		{Name: "d", Altitude: 550e3, Planes: 2, PerPlane: 10, MinElevation: 2},
	} {
		if _, err := NewConstellation(s, Motion{}); err == nil {
			t.Errorf("shell %q: no error", s.Name)
		}
	}
	if _, err := ShellNamed("oneweb"); err == nil {
		t.Error("ShellNamed(oneweb): no error")
	}
	if _, err := City("atlantis"); err == nil {
		t.Error("City(atlantis): no error")
	}
}

// TestPresetRadii: the presets fly where their mean motion puts them
// (Kepler's third law with WGS-72's mu, worked by hand to the metre), not
// at Hypatia's nominal altitudes; the leo-path shell parameter's doc
// quotes these heights (509, 629 and 1014 km).
func TestPresetRadii(t *testing.T) {
	for _, tc := range []struct {
		name      string
		heightKm  float64 // above the WGS-84 equatorial radius
		nominalKm float64
	}{
		{"starlink-s1", 508.864, 550},
		{"kuiper-k1", 629.326, 630},
		{"telesat-t1", 1013.969, 1015},
	} {
		s, err := ShellNamed(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := (s.Radius() - EarthRadius) / 1e3; math.Abs(got-tc.heightKm) > 0.001 {
			t.Errorf("%s: orbit %.3f km up, want %.3f km (mean motion %.2f rev/day)", tc.name, got, tc.heightKm, s.MeanMotion)
		}
		if s.Altitude != tc.nominalKm*1e3 {
			t.Errorf("%s: nominal altitude %.0f m, want %.0f km", tc.name, s.Altitude, tc.nominalKm)
		}
	}
}
