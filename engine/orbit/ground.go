package orbit

import "math"

// SlantRange returns the distance from a ground station on the surface to a
// satellite at altitude h seen at elevation e (radians, 0 = horizon, pi/2 =
// zenith). It is the law of cosines in the triangle Earth centre, station,
// satellite, solved for the side opposite the Earth centre:
//
//	d = sqrt(r^2 - (Re cos e)^2) - Re sin e
//
// At the zenith d = h; at the horizon d = sqrt(r^2 - Re^2), the tangent.
func SlantRange(h, e float64) float64 {
	r := Radius(h)
	c := EarthRadius * math.Cos(e)
	return math.Sqrt(r*r-c*c) - EarthRadius*math.Sin(e)
}

// NadirAngle returns the angle at the satellite between the Earth's centre
// and a station seeing it at elevation e: sin(eta) = (Re/r) cos(e).
func NadirAngle(h, e float64) float64 {
	return math.Asin(EarthRadius / Radius(h) * math.Cos(e))
}

// CoverageAngle returns the Earth central angle between the sub-satellite
// point and a station that sees the satellite at elevation e,
// lambda = pi/2 - e - eta. Every station within lambda of the sub-satellite
// point sees the satellite at e or higher: lambda at the minimum elevation
// is the radius of the footprint.
func CoverageAngle(h, e float64) float64 {
	return math.Pi/2 - e - NadirAngle(h, e)
}

// CoverageFraction returns the fraction of the Earth's surface that sees a
// satellite at altitude h at elevation e or higher, the spherical cap
// (1 - cos lambda)/2.
func CoverageFraction(h, e float64) float64 {
	return (1 - math.Cos(CoverageAngle(h, e))) / 2
}
