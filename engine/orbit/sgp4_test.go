package orbit

import (
	"math"
	"testing"
)

// TestSGP4 checks the near-Earth SGP4 propagator against python-sgp4 2.27
// (Vallado's SGP4, WGS-72 constants; Vallado et al. 2006, AIAA 2006-6753)
// for three satellites of the element sets Hypatia generates for Kuiper
// K1: eccentricity 1e-7, argument of perigee 0, mean motion 14.80
// rev/day, B* 0, the node and mean anomaly as printed (degrees, four
// decimals). The reference positions are TEME, km, from
// Satrec.twoline2rv(line1, line2, WGS72).sgp4 at 0, 100, 1,000 and 6,000 s
// after the epoch. The tolerance, 1 m, is well below what the routes
// need (0.5 ms of round trip is 75 km) and above the two codes' different
// Kepler iteration stops.
func TestSGP4(t *testing.T) {
	sats := map[int][2]float64{ // node, mean anomaly (deg)
		0:    {0, 0},
		600:  {180, 238.2353},
		1155: {349.4118, 354.7059},
	}
	for _, tt := range []struct {
		sat     int
		t       float64 // s
		x, y, z float64 // km, TEME
	}{
		{0, 0, 7008.200861, -7.267052, -9.261783},
		{0, 100, 6968.237000, 457.211446, 583.504913},
		{0, 1000, 3326.841140, 3801.076910, 4848.221281},
		{0, 6000, 6901.829409, 723.856301, 969.699369},
		{600, 0, 3685.614739, 3682.179641, -4692.900710},
		{600, 100, 3024.562650, 3904.878338, -4977.072402},
		{600, 1000, -3490.676342, 3755.822106, -4782.779631},
		{600, 6000, 2591.728567, 4013.372792, -5132.640651},
		{1155, 0, 6784.245143, -1681.684031, -518.019749},
		{1155, 100, 6898.869967, -1230.328562, 75.075169},
		{1155, 1000, 4476.538405, 2820.446665, 4586.188629},
		{1155, 6000, 6925.799909, -961.811584, 464.703772},
	} {
		el := sats[tt.sat]
		m := newSGP4(Radians(51.9), Radians(el[0]), 1e-7, 0, Radians(el[1]), 14.80, false)
		got := m.position(tt.t)
		want := Vec{tt.x * 1e3, tt.y * 1e3, tt.z * 1e3}
		if d := Dist(got, want); d > 1 || math.IsNaN(d) {
			t.Errorf("satellite %d at %g s: %.3f km off (%.3f, %.3f, %.3f km, want %.3f, %.3f, %.3f)",
				tt.sat, tt.t, d/1e3, got[0]/1e3, got[1]/1e3, got[2]/1e3, tt.x, tt.y, tt.z)
		}
	}
}
