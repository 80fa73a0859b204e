package orbit

import (
	"math"
	"strconv"
)

// Hypatia's satgenpy does not place satellites and stations itself: it
// asks PyEphem, whose C library libastro (earthsat.c, sgp4.c) has its own
// conventions, and measures an ISL through two observed ranges. Motion.PyEphem
// and the PyEphem surface reproduce them, so that link lengths agree with
// Hypatia's to micrometres rather than tens of metres, and a satellite
// crosses Hypatia's ground link range limit at the same 100 ms step on
// both sides (TestHypatiaRTT, TestHypatiaLinks).
const (
	// libastroERAD is libastro's Earth equatorial radius (astro.h ERAD,
	// 6.37816e6 m): it scales SGP4's result from Earth radii to metres
	// and is the radius of earthsat.c's observer ellipsoid.
	libastroERAD = 6378160.0
	// libastroFlat is earthsat.c's Earth flattening (EarthFlat, 1/298.25).
	libastroFlat = 1 / 298.25
	// libastroSidereal is earthsat.c's ratio of sidereal to solar time
	// (SiderealSolar); the Earth turns 2 pi times it per day.
	libastroSidereal = 1.0027379093
)

// GMSTNewcomb returns the Greenwich sidereal angle, rad, that libastro's
// earthsat.c uses d days after J2000.0 (2000-01-01 12:00 UT): Newcomb's
// sidereal time at the preceding 0 h UT,
//
//	(6.6460656 h + 2400.051262 h T + 0.00002581 h T^2) mod 24 h,
//	T in Julian centuries from 1900 January 0.5,
//
// advanced at 1.0027379093 sidereal days per day (earthsat.c,
// InitOrbitRoutines and GetSitPosition). At 2000-01-01 00:00 UT it is
// 1.14 arcseconds, 35 m at the equator, short of the IAU 1982 angle of
// GMSTAt.
func GMSTNewcomb(d float64) float64 {
	day := d + 0.5 - math.Floor(d+0.5)     // fraction of the UT day
	T := (d - day + 0.5 + 36524.5) / 36525 // 0 h UT, centuries from 1900 Jan 0.5
	ref := (6.6460656 + 2400.051262*T + 0.00002581*T*T) / 24
	ref -= math.Floor(ref)
	return 2 * math.Pi * (ref + day*libastroSidereal - math.Floor(ref+day*libastroSidereal))
}

// libastroElement returns an angle of a two-line element set as PyEphem
// holds it: written in degrees with four decimals (satgenpy's
// "%3.4f"), read into a float, converted to radians and stored as a
// float again (earthsat.c esat_prop: se_XINCL = (float)degrad(es_inc)).
// The float rounding alone moves a satellite by up to 3 m along its orbit.
func libastroElement(deg float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(deg, 'f', 4, 64), 64)
	return float64(float32(float64(float32(v)) * math.Pi / 180))
}

// libastroPosition is earthsat.c's observer position (GetSitPosition) in
// the Earth-fixed frame, m: a latitude taken through
// atan(tan(lat) / (1 - f^2)) and the radii N = ERAD / sqrt(1 - e^2 sin^2)
// and N (1 - f)^2 of that latitude. The routine's transform is not the
// standard geodetic one (which uses lat itself); with its radius it puts
// a station about 43 m from its WGS-72 place at mid latitudes.
func libastroPosition(s Station) Vec {
	const f = libastroFlat
	lat := math.Atan(math.Tan(s.Lat) / (1 - f*f))
	sl, cl := math.Sincos(lat)
	so, co := math.Sincos(s.Lon)
	g1 := libastroERAD / math.Sqrt(1-(2*f-f*f)*sl*sl)
	g2 := g1*(1-f)*(1-f) + s.Height
	g1 += s.Height
	return Vec{g1 * cl * co, g1 * cl * so, g2 * sl}
}

// pyephemISL is the length of the link between satellites at a and b
// (Earth-fixed, m) as satgenpy measures it (distance_tools,
// distance_m_between_satellites): both are seen from a PyEphem observer
// at 0 N 0 E, height 0; the length follows by the law of cosines from
// the two ranges and the angle between the two lines of sight. PyEphem
// keeps the ranges and the azimuths as float32 (earthsat.c: s_range,
// s_az) and the elevations as doubles, so the measure is up to a few
// metres off the straight distance on links thousands of km long, seen
// from up to 10,000 km away.
func pyephemISL(a, b Vec) float64 {
	o := Vec{libastroERAD, 0, 0} // libastroPosition at 0 N 0 E
	ra, aza, ela := pyephemSight(a.Sub(o))
	rb, azb, elb := pyephemSight(b.Sub(o))
	// PyEphem turns each line of sight into hour angle and declination
	// and takes the angle between them (separation); the rotation does
	// not change it.
	sea, cea := math.Sincos(ela)
	seb, ceb := math.Sincos(elb)
	cosine := sea*seb + cea*ceb*math.Cos(aza-azb)
	if cosine >= 1 {
		cosine = 1
	}
	return math.Sqrt(ra*ra + rb*rb - 2*ra*rb*math.Cos(math.Acos(cosine)))
}

// pyephemSight returns range, azimuth and elevation of d, the line of
// sight from the observer at 0 N 0 E, as PyEphem keeps them: the
// topocentric frame of earthsat.c's GetTopocentric (x south, y east, z
// up), azimuth pi - atan2(y, x) and range rounded to float32.
func pyephemSight(d Vec) (r, az, el float64) {
	x, y, z := -d[2], d[1], d[0]
	el = math.Atan(z / math.Sqrt(x*x+y*y))
	az = float64(float32(math.Pi - math.Atan2(y, x)))
	return float64(float32(d.Norm())), az, el
}
