package orbit_test

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/orbit"
)

// A ground station reaching a satellite at the zenith and at 30° elevation.
// A transparent ("bent-pipe") satellite link crosses the slant range twice
// each way, so a round trip between two stations is four slant ranges:
// about 477-515 ms through GEO (document 004's "500 ms plus") and 108-135 ms
// through O3b (its "around 120 ms"), before any terrestrial or queueing
// delay.
func Example_groundStation() {
	for _, name := range []string{"o3b", "geo"} {
		o, _ := orbit.Lookup(name)
		for _, deg := range []float64{90, 30} {
			d := orbit.SlantRange(o.Altitude, orbit.Radians(deg))
			oneWay := orbit.Delay(d, orbit.LightSpeed)
			fmt.Printf("%s at %2.0f°: slant %6.0f km, link %5.1f ms, station-to-station RTT %5.1f ms\n",
				name, deg, d/1e3, oneWay*1e3, 4*oneWay*1e3)
		}
	}
	// Output:
	// o3b at 90°: slant   8062 km, link  26.9 ms, station-to-station RTT 107.6 ms
	// o3b at 30°: slant  10153 km, link  33.9 ms, station-to-station RTT 135.5 ms
	// geo at 90°: slant  35786 km, link 119.4 ms, station-to-station RTT 477.5 ms
	// geo at 30°: slant  38612 km, link 128.8 ms, station-to-station RTT 515.2 ms
}

// Crosslinks between geostationary satellites: Clarke's three satellites
// 120° apart, and the longest link that still clears 80 km of atmosphere,
// which bounds document 000's Table 2 at 80,000 km.
func Example_geoCrosslink() {
	h := orbit.AltitudeGEO
	fmt.Printf("period %.0f s\n", orbit.Period(h))
	d := orbit.Chord(h, orbit.Radians(120))
	fmt.Printf("120° apart: %.0f km, grazing %.0f km, one way %.4f s\n",
		d/1e3, orbit.GrazingHeight(h, h, orbit.Radians(120))/1e3, orbit.Delay(d, orbit.PaperLightSpeed))
	longest := orbit.MaxRange(h, h, 80e3)
	fmt.Printf("longest in sight: %.0f km, %.1f° apart\n", longest/1e3, orbit.Degrees(orbit.MaxSeparation(h, h, 80e3)))
	n, _ := orbit.RingSatellites(h, 80000e3)
	fmt.Printf("satellites for 80,000 km hops: %d\n", n)
	// Output:
	// period 86164 s
	// 120° apart: 73030 km, grazing 14704 km, one way 0.2434 s
	// longest in sight: 83333 km, 162.4° apart
	// satellites for 80,000 km hops: 3
}

// Kuiper's first shell as Hypatia simulates it: its size, its period (of
// the argument of latitude, which J2 makes 0.1 min shorter than the
// 97.3 min of 14.80 revolutions a day) and the shortest path from Manila
// to Dalian at the shell's epoch, over satellites that move by SGP4
// (Hypatia's satgenpy finds the same path and 29.423 ms).
func Example_constellation() {
	sh, _ := orbit.ShellNamed("kuiper-k1")
	c, _ := orbit.NewConstellation(sh, orbit.Motion{GMST0: orbit.GMSTAt(-0.5), SGP4: true})
	fmt.Printf("%d satellites, %d ISLs, period %.1f min\n", c.Len(), len(c.GridISLs()), c.Period()/60)
	a, _ := orbit.City("manila")
	b, _ := orbit.City("dalian")
	r, _ := orbit.NewRouter(c, orbit.WGS72, a, b, sh.Rule(true))
	var p orbit.Path
	r.Route(0, &p)
	fmt.Printf("Manila-Dalian: satellites %v, RTT %.2f ms\n", p.Sats, 2*p.Length/orbit.LightSpeed*1e3)
	// Output:
	// 1156 satellites, 2312 ISLs, period 97.2 min
	// Manila-Dalian: satellites [184 183 217], RTT 29.42 ms
}
