package orbit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Station is a ground station: geodetic latitude and longitude (rad) and
// height above the reference surface (m), and, where a source gives it,
// the population it serves.
type Station struct {
	Name     string
	Lat, Lon float64
	Height   float64
	// Population and Population2025 are the inhabitants of the station's
	// city: an estimate for 2015 and a projection for 2025 (Hypatia's
	// cities: the UN's World Urbanization Prospects 2014, File 12). 0 is
	// unknown.
	Population, Population2025 float64
}

// StationAt returns a station at the given latitude and longitude in
// degrees, at height 0.
func StationAt(name string, latDeg, lonDeg float64) (Station, error) {
	if math.IsNaN(latDeg) || latDeg < -90 || latDeg > 90 {
		return Station{}, fmt.Errorf("orbit: station %q: latitude %g outside -90..90 degrees", name, latDeg)
	}
	if math.IsNaN(lonDeg) || lonDeg < -180 || lonDeg > 360 {
		return Station{}, fmt.Errorf("orbit: station %q: longitude %g outside -180..360 degrees", name, lonDeg)
	}
	return Station{Name: name, Lat: Radians(latDeg), Lon: Radians(lonDeg)}, nil
}

// cities are major cities by short names, in degrees. Those in Hypatia's
// top-100 list take its coordinates exactly (hypatiaTop100: UN World
// Urbanization Prospects agglomeration points, TestCitiesAgreeWithHypatia);
// zurich and san-francisco, which it lacks, take GeoNames' city points.
// Until version 5 of leo-path nine of them (delhi, mumbai, mexico-city,
// cairo, new-york, karachi, buenos-aires, lagos, los-angeles) had GeoNames'
// city points, 0.3 to 8.8 km from Hypatia's.
var cities = []struct {
	name     string
	lat, lon float64
}{
	{"tokyo", 35.6895, 139.69171},
	{"delhi", 28.66667, 77.21667},
	{"shanghai", 31.22222, 121.45806},
	{"sao-paulo", -23.5475, -46.63611},
	{"mexico-city", 19.427318, -99.141869},
	{"cairo", 30.039173, 31.239411},
	{"mumbai", 19.073975, 72.880838},
	{"beijing", 39.9075, 116.39723},
	{"dhaka", 23.7104, 90.40744},
	{"new-york", 40.717042, -74.003663},
	{"karachi", 24.9056, 67.0822},
	{"buenos-aires", -34.605083, -58.400368},
	{"istanbul", 41.0138, 28.9497},
	{"lagos", 6.45306, 3.39583},
	{"manila", 14.6042, 120.9822},
	{"rio-de-janeiro", -22.90278, -43.2075},
	{"moscow", 55.754996, 37.621849},
	{"paris", 48.85341, 2.3488},
	{"london", 51.50853, -0.12574},
	{"los-angeles", 34.031656, -118.241716},
	{"nairobi", -1.28333, 36.81667},
	{"saint-petersburg", 59.929858, 30.326228},
	{"dalian", 38.913811, 121.602322},
	{"singapore", 1.28967, 103.85007},
	{"sydney", -33.86785, 151.20732},
	{"johannesburg", -26.20227, 28.04363},
	{"zurich", 47.36667, 8.55},
	{"san-francisco", 37.77493, -122.41942},
}

// Cities returns the built-in ground stations, at height 0.
func Cities() []Station {
	out := make([]Station, len(cities))
	for i, c := range cities {
		out[i] = Station{Name: c.name, Lat: Radians(c.lat), Lon: Radians(c.lon)}
	}
	return out
}

// City returns the built-in station called name (lower case, words joined
// by hyphens: "new-york", "rio-de-janeiro"), or else the station of
// Hypatia's top-100 list of that name, in any case ("Chicago",
// "Kinki-M.M.A.-(Osaka)").
func City(name string) (Station, error) {
	for _, s := range Cities() {
		if s.Name == name {
			return s, nil
		}
	}
	for _, s := range HypatiaCities() {
		if strings.EqualFold(s.Name, name) {
			return s, nil
		}
	}
	names := make([]string, len(cities))
	for i, c := range cities {
		names[i] = c.name
	}
	return Station{}, fmt.Errorf("orbit: unknown city %q (known: %s, or a name of Hypatia's top-100 list such as Kinki-M.M.A.-(Osaka))", name, strings.Join(names, ", "))
}

// Earth is a reference surface for ground stations: a sphere, or an
// ellipsoid of revolution with equatorial radius A and flattening F.
type Earth struct {
	Name string
	A, F float64
	// libastro places stations by PyEphem's observer transform instead
	// of the geodetic one (libastroPosition).
	libastro bool
}

// Reference surfaces. Satellites are placed by their orbit radius from the
// centre whatever the surface; the surface only places stations and gives
// their local vertical.
var (
	// Sphere is the sphere of the WGS-84 equatorial radius, the Earth of
	// the rest of this package.
	Sphere = Earth{Name: "sphere", A: EarthRadius}
	// WGS72 is the ellipsoid of Hypatia's ground stations (satgenpy's
	// geodetic2cartesian: a = 6378135 m, f = 1/298.26).
	WGS72 = Earth{Name: "wgs72", A: 6378135, F: 1 / 298.26}
	// WGS84 is the WGS-84 ellipsoid (NIMA TR8350.2 table 3.1).
	WGS84 = Earth{Name: "wgs84", A: EarthRadius, F: 1 / 298.257223563}
	// PyEphem is the Earth on which Hypatia's ground links are measured:
	// PyEphem's observers (libastro earthsat.c: a = 6378.16 km,
	// f = 1/298.25, its own latitude transform, libastroPosition), with
	// ranges kept as float32 metres as libastro stores them. Hypatia's
	// WGS-72 station coordinates are written to its files but not used
	// for the link lengths.
	PyEphem = Earth{Name: "pyephem", A: libastroERAD, F: libastroFlat, libastro: true}
)

// EarthNamed returns the surface called name: sphere, wgs72 or wgs84.
func EarthNamed(name string) (Earth, error) {
	for _, e := range []Earth{Sphere, WGS72, WGS84, PyEphem} {
		if e.Name == name {
			return e, nil
		}
	}
	return Earth{}, fmt.Errorf("orbit: unknown earth %q (want sphere, wgs72, wgs84 or pyephem)", name)
}

// Position returns the Earth-fixed position of s: the standard geodetic
// to Cartesian conversion with the prime-vertical radius
// N = A / sqrt(1 - e^2 sin^2 lat), e^2 = F (2 - F).
func (e Earth) Position(s Station) Vec {
	if e.libastro {
		return libastroPosition(s)
	}
	e2 := e.F * (2 - e.F)
	sl, cl := math.Sincos(s.Lat)
	so, co := math.Sincos(s.Lon)
	n := e.A / math.Sqrt(1-e2*sl*sl)
	return Vec{(n + s.Height) * cl * co, (n + s.Height) * cl * so, (n*(1-e2) + s.Height) * sl}
}

// Up returns the unit normal of the surface at s (the local vertical from
// which elevation is measured).
func (e Earth) Up(s Station) Vec {
	sl, cl := math.Sincos(s.Lat)
	so, co := math.Sincos(s.Lon)
	return Vec{cl * co, cl * so, sl}
}

// Elevation returns the elevation (rad) of a point at sat seen from a
// station at g with local vertical up: asin of the component of the unit
// line of sight along up.
func Elevation(g, up, sat Vec) float64 {
	d := sat.Sub(g)
	return math.Asin(math.Max(-1, math.Min(1, d.Dot(up)/d.Norm())))
}

// ParseStations reads ground stations from text, one per line: either
// Hypatia's basic format "gid,name,latitude,longitude,elevation" (the
// gids 0, 1, 2, ... in order; elevation in metres) or "latitude,longitude"
// or "name,latitude,longitude", in degrees. Blank lines and lines starting
// with # are skipped. file names the input in errors (*TLEError), which
// give the line and column of the field at fault.
func ParseStations(file, text string) ([]Station, error) {
	var out []Station
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if s := strings.TrimSpace(line); s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fields := strings.Split(line, ",")
		cols := make([]int, len(fields)) // 1-based column of each field
		c := 1
		for k, f := range fields {
			cols[k] = c
			c += len(f) + 1
		}
		num := func(k int, what string) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(fields[k]), 64)
			if err != nil {
				return 0, &TLEError{File: file, Line: i + 1, Col: cols[k], Msg: fmt.Sprintf("%s %q is not a number", what, strings.TrimSpace(fields[k]))}
			}
			return v, nil
		}
		var name string
		var lat, lon, height float64
		var err error
		switch len(fields) {
		case 2, 3:
			k := len(fields) - 2
			name = fmt.Sprintf("station-%d", len(out))
			if k == 1 {
				name = strings.TrimSpace(fields[0])
			}
			if lat, err = num(k, "latitude"); err != nil {
				return nil, err
			}
			if lon, err = num(k+1, "longitude"); err != nil {
				return nil, err
			}
		case 5:
			gid, err := strconv.Atoi(strings.TrimSpace(fields[0]))
			if err != nil || gid != len(out) {
				return nil, &TLEError{File: file, Line: i + 1, Col: 1, Msg: fmt.Sprintf("gid %q, want %d (Hypatia numbers its stations 0, 1, 2, ... in order)", strings.TrimSpace(fields[0]), len(out))}
			}
			name = strings.TrimSpace(fields[1])
			if lat, err = num(2, "latitude"); err != nil {
				return nil, err
			}
			if lon, err = num(3, "longitude"); err != nil {
				return nil, err
			}
			if height, err = num(4, "elevation"); err != nil {
				return nil, err
			}
		default:
			return nil, &TLEError{File: file, Line: i + 1, Col: 1, Msg: fmt.Sprintf("%d fields, want lat,lon or name,lat,lon or Hypatia's gid,name,lat,lon,elevation", len(fields))}
		}
		s, err := StationAt(name, lat, lon)
		if err != nil {
			col := cols[len(fields)-2]
			if len(fields) == 5 {
				col = cols[2]
			}
			return nil, &TLEError{File: file, Line: i + 1, Col: col, Msg: err.Error()}
		}
		s.Height = height
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("orbit: %s: no ground stations", file)
	}
	return out, nil
}
