package orbit

import (
	"fmt"
	"math"
	"testing"
)

const km = 1e3

// TestPeriod checks Kepler's third law against published periods.
func TestPeriod(t *testing.T) {
	tests := []struct {
		name string
		h    float64
		want float64 // s
		tol  float64 // s
		src  string
	}{
		// A geostationary orbit turns once per sidereal day, 86164.0905 s
		// (IERS Conventions 2010). 35,786 km is a rounded altitude and J2 is
		// ignored, so 1 s.
		{"geo", AltitudeGEO, 86164.0905, 1, "sidereal day"},
		// GPS satellites make two revolutions per sidereal day, 11 h 58 min
		// (43,082 s; IS-GPS-200 nominal). 20,200 km is rounded to 100 km,
		// which moves the period by about 40 s: 60 s.
		{"gps", AltitudeGPS, 43082, 60, "half a sidereal day"},
		// Iridium: about 100 minutes per orbit at 780 km (Iridium's own
		// figure, rounded to the minute): 1 min.
		{"iridium", AltitudeIridium, 100 * 60, 60, "Iridium, 100 min"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Period(tt.h); math.Abs(got-tt.want) > tt.tol {
				t.Errorf("Period(%g km) = %.1f s, want %.1f s ± %g (%s)", tt.h/km, got, tt.want, tt.tol, tt.src)
			}
		})
	}
}

// TestSlantRange checks the ground-to-satellite distance.
func TestSlantRange(t *testing.T) {
	tests := []struct {
		name   string
		h, deg float64
		want   float64 // m
		tol    float64 // m
	}{
		// At the zenith the station is directly below: d = h, to rounding.
		{"geo zenith", AltitudeGEO, 90, AltitudeGEO, 1e-6},
		{"leo zenith", AltitudeStarlink, 90, AltitudeStarlink, 1e-6},
		{"o3b zenith", AltitudeO3b, 90, AltitudeO3b, 1e-6},
		// At the horizon the distance to a geostationary satellite is the
		// widely quoted 41,679 km (e.g. Pratt, Bostian and Allnutt,
		// Satellite Communications, ch. 2; it is sqrt(42164^2 - 6378^2)):
		// printed to 1 km.
		{"geo horizon", AltitudeGEO, 0, 41679 * km, 1 * km},
		// For any orbit the horizon distance is the tangent sqrt(r^2-Re^2):
		// 550 km: sqrt(6928.137^2 - 6378.137^2) = 2705.3 km by hand.
		{"leo horizon", AltitudeStarlink, 0, 2705.3 * km, 0.1 * km},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SlantRange(tt.h, Radians(tt.deg)); math.Abs(got-tt.want) > tt.tol {
				t.Errorf("SlantRange(%g km, %g°) = %.3f km, want %.3f km", tt.h/km, tt.deg, got/km, tt.want/km)
			}
		})
	}
}

// TestSlantRangeIsDistance checks the two formulas against each other: a
// station at elevation e is CoverageAngle(h, e) from the sub-satellite
// point, and the law of cosines from there must give the slant range.
func TestSlantRangeIsDistance(t *testing.T) {
	for _, h := range []float64{AltitudeStarlink, AltitudeO3b, AltitudeGEO} {
		for _, deg := range []float64{0, 5, 10, 30, 60, 89, 90} {
			e := Radians(deg)
			s := SlantRange(h, e)
			d := Distance(0, h, CoverageAngle(h, e))
			if math.Abs(s-d) > 1e-6*s {
				t.Errorf("h %g km, e %g°: SlantRange = %.6f km, Distance via CoverageAngle = %.6f km", h/km, deg, s/km, d/km)
			}
			if g := GrazingHeight(0, h, CoverageAngle(h, e)); math.Abs(g) > 1e-6 {
				t.Errorf("GrazingHeight(station, %g km at %g°) = %g m, want 0: the station is the lowest point", h/km, deg, g)
			}
		}
	}
}

// TestCoverage checks the footprint against Clarke (Wireless World, 1945):
// three geostationary satellites 120° apart cover the whole equator. At 0°
// elevation a GEO footprint has radius acos(Re/r) = 81.3° (hand value).
func TestCoverage(t *testing.T) {
	lambda := CoverageAngle(AltitudeGEO, 0)
	if got, want := Degrees(lambda), Degrees(math.Acos(EarthRadius/Radius(AltitudeGEO))); math.Abs(got-want) > 1e-9 {
		t.Errorf("CoverageAngle(geo, 0°) = %.6f°, want %.6f°", got, want)
	}
	if got := Degrees(lambda); math.Abs(got-81.3) > 0.05 {
		t.Errorf("CoverageAngle(geo, 0°) = %.3f°, want 81.3°", got)
	}
	if got := RingSize(2 * lambda); got != 3 {
		t.Errorf("GEO satellites to cover the equator at 0° = %d, want 3 (Clarke)", got)
	}
	// A GEO satellite sees 42.4 % of the Earth at 0° elevation:
	// (1 - 6378.137/42164.137)/2 = 0.42437 by hand.
	if got := CoverageFraction(AltitudeGEO, 0); math.Abs(got-0.42437) > 1e-5 {
		t.Errorf("CoverageFraction(geo, 0°) = %.5f, want 0.42437", got)
	}
}

// TestDelayTable2 reproduces document 000's Table 2 (ISL distance to
// one-way delay, printed to 4 decimals) with the paper's c = 3e8 m/s, and
// shows that the SI c does not: every row moves in the fourth digit.
func TestDelayTable2(t *testing.T) {
	tests := []struct {
		km      float64
		printed string // Table 2
		codata  string // with c = 299,792,458 m/s, by hand d/c
	}{
		{16000, "0.0533", "0.0534"},
		{25000, "0.0833", "0.0834"},
		{50000, "0.1667", "0.1668"},
		{80000, "0.2667", "0.2669"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.km), func(t *testing.T) {
			if got := fmt.Sprintf("%.4f", Delay(tt.km*km, PaperLightSpeed)); got != tt.printed {
				t.Errorf("Delay(%g km, 3e8) = %s s, want %s s (Table 2)", tt.km, got, tt.printed)
			}
			if got := fmt.Sprintf("%.4f", Delay(tt.km*km, LightSpeed)); got != tt.codata {
				t.Errorf("Delay(%g km, c) = %s s, want %s s", tt.km, got, tt.codata)
			}
		})
	}
	// Section 3 of document 000: ISL round trips "vary between 100 ms and
	// 533 ms"; the upper end is 2 x 80,000 km / 3e8.
	if got := fmt.Sprintf("%.0f", 2*Delay(80000*km, PaperLightSpeed)*1e3); got != "533" {
		t.Errorf("RTT(80000 km) = %s ms, want 533 ms", got)
	}
	if got, want := DelayNanos(16000*km, PaperLightSpeed), int64(53333333); got != want {
		t.Errorf("DelayNanos(16000 km, 3e8) = %d, want %d", got, want)
	}
}

// TestDistance checks the law of cosines, the chord and its inverse.
func TestDistance(t *testing.T) {
	rGEO := Radius(AltitudeGEO)
	tests := []struct {
		name       string
		ha, hb, th float64 // m, m, degrees
		want       float64 // m
	}{
		// 60° on one orbit is an equilateral triangle: d = r.
		{"geo 60°", AltitudeGEO, AltitudeGEO, 60, rGEO},
		// 120° (Clarke's three satellites): d = r sqrt(3) = 73,030.4 km.
		{"geo 120°", AltitudeGEO, AltitudeGEO, 120, rGEO * math.Sqrt(3)},
		// 180°: the diameter.
		{"geo 180°", AltitudeGEO, AltitudeGEO, 180, 2 * rGEO},
		// Zero angle between two orbits: the difference of the altitudes.
		{"o3b under geo", AltitudeO3b, AltitudeGEO, 0, AltitudeGEO - AltitudeO3b},
		// 90° between orbits: Pythagoras, sqrt(ra^2 + rb^2).
		{"o3b geo 90°", AltitudeO3b, AltitudeGEO, 90, math.Hypot(Radius(AltitudeO3b), rGEO)},
		// Iridium: 11 satellites per plane, 360/11° apart; 2 x 7158.137 km x
		// sin(180/11 °) = 4033.36 km by hand, the "about 4,000 km" of the
		// Iridium intra-plane crosslinks.
		{"iridium neighbours", AltitudeIridium, AltitudeIridium, 360.0 / 11, 4033.36 * km},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Distance(tt.ha, tt.hb, Radians(tt.th))
			if math.Abs(got-tt.want) > 10 { // 10 m: the hand values are to 10 m
				t.Errorf("Distance(%g km, %g km, %g°) = %.3f km, want %.3f km", tt.ha/km, tt.hb/km, tt.th, got/km, tt.want/km)
			}
			if tt.ha == tt.hb {
				if c := Chord(tt.ha, Radians(tt.th)); math.Abs(c-got) > 1e-6 {
					t.Errorf("Chord(%g km, %g°) = %.6f km, Distance = %.6f km", tt.ha/km, tt.th, c/km, got/km)
				}
				back, err := Separation(tt.ha, got)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(Degrees(back)-tt.th) > 1e-6 {
					t.Errorf("Separation(%g km, %.3f km) = %.9f°, want %g°", tt.ha/km, got/km, Degrees(back), tt.th)
				}
			}
		})
	}
	if _, err := Separation(AltitudeGEO, 2*rGEO+1); err == nil {
		t.Errorf("Separation(geo, longer than the diameter) succeeded, want an error")
	}
}

// TestLineOfSight checks the grazing height and the longest GEO crosslink.
func TestLineOfSight(t *testing.T) {
	rGEO := Radius(AltitudeGEO)
	tests := []struct {
		name       string
		ha, hb, th float64 // m, m, degrees
		graze      float64 // m
		inSight    bool    // with an 80 km margin
	}{
		// Clarke's 120°: the chord's midpoint is r cos 60° = r/2 from the
		// centre, 14,703.9 km above the surface.
		{"geo 120°", AltitudeGEO, AltitudeGEO, 120, rGEO/2 - EarthRadius, true},
		// 180° goes through the centre: grazing height -Re.
		{"geo 180°", AltitudeGEO, AltitudeGEO, 180, -EarthRadius, false},
		// Straight up: the lower satellite is the lowest point.
		{"o3b under geo", AltitudeO3b, AltitudeGEO, 0, AltitudeO3b, true},
		// Obtuse at the lower end (its base angle exceeds 90°): again the
		// lower satellite, here 550 km.
		{"leo to geo 30°", AltitudeStarlink, AltitudeGEO, 30, AltitudeStarlink, true},
		// LEO neighbours 40° apart: r cos 20° - Re = 6928.137 x 0.9396926 -
		// 6378.137 = 132.2 km by hand.
		{"leo 40°", AltitudeStarlink, AltitudeStarlink, 40, 132.2e3, true},
		// 45° apart: r cos 22.5° - Re = 22.6 km, inside the atmosphere.
		{"leo 45°", AltitudeStarlink, AltitudeStarlink, 45, 22.6e3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := GrazingHeight(tt.ha, tt.hb, Radians(tt.th))
			if math.Abs(g-tt.graze) > 100 { // 100 m: hand values to 0.1 km
				t.Errorf("GrazingHeight(%g km, %g km, %g°) = %.3f km, want %.3f km", tt.ha/km, tt.hb/km, tt.th, g/km, tt.graze/km)
			}
			if got := InSight(tt.ha, tt.hb, Radians(tt.th), 80e3); got != tt.inSight {
				t.Errorf("InSight(%g km, %g km, %g°, 80 km) = %t, want %t", tt.ha/km, tt.hb/km, tt.th, got, tt.inSight)
			}
		})
	}

	// The longest GEO-GEO crosslink: with no margin it is the two tangents
	// to the Earth, twice the 41,679 km horizon slant range (see
	// TestSlantRange), 83,358 km; with 80 km of atmosphere,
	// 2 sqrt(42164.137^2 - 6458.137^2) = 83,333.2 km by hand. Both exceed
	// Table 2's longest case, 80,000 km; 83,340 km is out of sight, and
	// 85,000 km (Table 1's upper distance) is longer than the GEO diameter,
	// 84,328 km, so no two GEO satellites are that far apart.
	if got := MaxRange(AltitudeGEO, AltitudeGEO, 0); math.Abs(got-2*41679*km) > 2*km {
		t.Errorf("MaxRange(geo, geo, 0) = %.1f km, want 83,358 km", got/km)
	}
	if got := MaxRange(AltitudeGEO, AltitudeGEO, 80e3); math.Abs(got-83333.2*km) > 0.1*km {
		t.Errorf("MaxRange(geo, geo, 80 km) = %.1f km, want 83,333.2 km", got/km)
	}
	theta := MaxSeparation(AltitudeGEO, AltitudeGEO, 80e3)
	if got := GrazingHeight(AltitudeGEO, AltitudeGEO, theta); math.Abs(got-80e3) > 1e-3 {
		t.Errorf("GrazingHeight at MaxSeparation = %.6f km, want 80 km", got/km)
	}
	if got, want := Chord(AltitudeGEO, theta), MaxRange(AltitudeGEO, AltitudeGEO, 80e3); math.Abs(got-want) > 1e-3 {
		t.Errorf("Chord(geo, MaxSeparation) = %.6f km, want MaxRange %.6f km", got/km, want/km)
	}
	for _, d := range []float64{80000 * km, 83340 * km} {
		th, err := Separation(AltitudeGEO, d)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := InSight(AltitudeGEO, AltitudeGEO, th, 80e3), d < 83333*km; got != want {
			t.Errorf("InSight(geo chord %g km) = %t, want %t", d/km, got, want)
		}
	}
	if _, err := Separation(AltitudeGEO, 85000*km); err == nil {
		t.Errorf("Separation(geo, 85000 km) succeeded, want an error: the GEO diameter is 84,328 km")
	}
}

// TestRing checks how many equally spaced satellites a ring needs.
func TestRing(t *testing.T) {
	tests := []struct {
		name string
		h, d float64
		want int
	}{
		// Iridium's 11 per plane are 4033.36 km apart (TestDistance).
		{"iridium", AltitudeIridium, 4033.4 * km, 11},
		{"iridium, 1 km short", AltitudeIridium, 4032.4 * km, 12},
		// Clarke: three GEO satellites are r sqrt 3 = 73,030.4 km apart.
		{"clarke", AltitudeGEO, 73030.5 * km, 3},
		// The longest GEO crosslink with 80 km of atmosphere (83,333 km)
		// still needs three: two would face each other through the Earth.
		{"geo max range", AltitudeGEO, MaxRange(AltitudeGEO, AltitudeGEO, 80e3), 3},
		// Table 2's 16,000 km between GEO satellites: 21.87° apart by hand,
		// 360/21.87 = 16.5, so 17.
		{"geo 16000 km", AltitudeGEO, 16000 * km, 17},
		// Anything reaching across the diameter: two.
		{"diameter", AltitudeGEO, 1e9, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RingSatellites(tt.h, tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RingSatellites(%g km, %.1f km) = %d, want %d", tt.h/km, tt.d/km, got, tt.want)
			}
		})
	}
	if got := RingSize(Radians(360.0 / 11)); got != 11 {
		t.Errorf("RingSize(360/11°) = %d, want 11", got)
	}
	if _, err := RingSatellites(AltitudeGEO, 0); err == nil {
		t.Errorf("RingSatellites(geo, 0) succeeded, want an error")
	}
}

func TestLookup(t *testing.T) {
	o, err := Lookup("o3b")
	if err != nil || o.Altitude != 8062e3 {
		t.Errorf("Lookup(o3b) = %v, %v, want 8062 km", o, err)
	}
	if _, err := Lookup("molniya"); err == nil {
		t.Errorf("Lookup(molniya) succeeded, want an error")
	}
	if c, err := LightSpeedNamed("paper"); err != nil || c != 3e8 {
		t.Errorf("LightSpeedNamed(paper) = %g, %v, want 3e8", c, err)
	}
	if _, err := LightSpeedNamed("vacuum"); err == nil {
		t.Errorf("LightSpeedNamed(vacuum) succeeded, want an error")
	}
}
