package orbit

import (
	"math"
	"strconv"
)

// Hypatia's satgenpy does not place satellites and stations itself: it
// asks PyEphem, whose C library libastro (earthsat.c, sgp4.c) has its own
// conventions. Motion.PyEphem and the PyEphem surface reproduce them, so
// that link lengths agree with Hypatia's to a few centimetres rather than
// a few hundred metres, and a satellite crosses Hypatia's ground link
// range limit at the same 100 ms step on both sides.
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
