// Package orbit is the geometry behind crosslink's satellite links: circular
// orbits about a spherical Earth, the slant range from a ground station, the
// length of an inter-satellite link (ISL) and whether it clears the Earth,
// and the propagation delay those lengths imply.
//
// Everything is closed form. Lengths are in metres, times in seconds and
// angles in radians, as in package math; Radians and Degrees convert. The
// Earth is a sphere of the WGS-84 equatorial radius (6378.137 km) with the
// gravitational parameter of WGS-84 (3.986004418e14 m^3/s^2). Heights are
// measured from that sphere, so an altitude h is an orbit radius
// EarthRadius+h, and "the angle between two satellites" is the central
// angle at the Earth's centre between their position vectors.
//
// The formulas are the plane triangle Earth centre / point A / point B:
//
//	ground station to satellite:  d = sqrt(r^2 - (Re cos e)^2) - Re sin e   (elevation e)
//	two satellites:               d = sqrt(ra^2 + rb^2 - 2 ra rb cos theta) (law of cosines)
//	same orbit:                   d = 2 r sin(theta/2)                      (chord)
//	period:                       T = 2 pi sqrt(r^3 / mu)                    (Kepler's third law)
//
// A crosslink is usable only if the straight segment between the two
// satellites stays above the atmosphere. GrazingHeight gives the lowest
// height of that segment; InSight compares it with a margin (80 km is a
// common choice, the top of the mesosphere). With that margin two
// geostationary satellites see each other up to about 83,333 km apart
// (83,358 km with no margin: twice the 41,679 km slant range to the
// horizon), which is why the longest case of document 000's Table 2 is
// 80,000 km.
//
// Document 000 computes its Table 2 delays with c = 3e8 m/s; PaperLightSpeed
// reproduces those four digits exactly, LightSpeed is the SI value.
//
// # Constellations
//
// A Shell is a Walker-delta shell (planes, satellites per plane,
// altitude or mean motion, inclination, phasing); ShellPresets are the
// three shells Hypatia simulates (Starlink shell 1, Kuiper K1, Telesat
// T1). A Constellation moves a shell on circular orbits, optionally with
// the secular J2 drift, and gives every satellite's Earth-fixed position
// at a time (constellation.go). Ground stations are built-in cities or
// coordinates on a sphere or an ellipsoid (station.go). The +Grid
// inter-satellite links join each satellite to its two neighbours in the
// plane and the two in the same slot of the adjacent planes; a Router
// (route.go) finds the shortest path by propagation delay between two
// stations over them, with ground links admitted by minimum elevation or
// by Hypatia's range limit.
//
// # A whole constellation
//
// A Fleet (fleet.go) is every satellite of a scenario: one or more shells
// and two-line element sets (tle.go: the standard format with its
// checksums, errors at file:line:col; SGP4 with drag for the near-Earth
// sets), numbered shell after shell, with each shell's +Grid links and
// optional extra links (between shells, or among element-set
// satellites). HypatiaCities are Hypatia's 100 ground stations. A
// Forwarding (forward.go) is the forwarding state toward every ground
// station at each step, as Hypatia's satgenpy computes it
// (free_one_only_over_isls, and the ground-relay routing), with
// satellites and links taken down by a schedule of outages: one Dijkstra
// pass per destination station over a Dial bucket queue, no allocation
// per step. It is checked against satgenpy's whole forwarding state for
// Kuiper K1 and the 100 cities (identical with the PyEphem geometry), and
// against a Floyd-Warshall oracle with outages.
//
// The geometry is checked against closed forms (period, the constant
// intra-plane link 2 r sin(pi/S), the cross-plane link at the equator and
// at the highest latitude, the slant range at the minimum elevation) and
// the path round trips and single link lengths against Hypatia's
// satgenpy for the same shell, stations and times (testdata/hypatia).
// Hypatia measures every length through PyEphem, whose libastro has its
// own constants, sidereal time, observer ellipsoid and float32 storage;
// Motion.PyEphem with the PyEphem surface (pyephem.go) follows them, so
// that a satellite crosses Hypatia's ground-link range limit at the same
// 100 ms step.
package orbit
