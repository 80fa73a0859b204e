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
package orbit
