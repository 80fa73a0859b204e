package orbit

import (
	"fmt"
	"math"
)

// Earth and light. The Earth values are those of WGS-84 (NIMA TR8350.2,
// table 3.1 and 3.4); the speed of light is exact by the definition of the
// metre.
const (
	EarthRadius     = 6378.137e3     // equatorial radius a, m
	EarthMu         = 3.986004418e14 // GM including the atmosphere, m^3/s^2
	LightSpeed      = 299792458.0    // c in vacuum, m/s
	PaperLightSpeed = 3e8            // c as document 000 rounds it (Table 1, Table 2)
)

// Altitudes of well-known circular orbits, in metres above EarthRadius.
const (
	AltitudeStarlink = 550e3   // Starlink's first shells
	AltitudeIridium  = 780e3   // Iridium: 66 satellites, 6 planes of 11
	AltitudeO3b      = 8062e3  // O3b (SES) equatorial MEO
	AltitudeGPS      = 20200e3 // GPS, rounded: the nominal semi-major axis gives half a sidereal day
	AltitudeGEO      = 35786e3 // geostationary: a period of one sidereal day
)

// Orbit is a named circular orbit.
type Orbit struct {
	Name     string
	Altitude float64 // m above EarthRadius
}

// Named returns the well-known orbits, lowest first.
func Named() []Orbit {
	return []Orbit{
		{"leo-550", AltitudeStarlink},
		{"iridium", AltitudeIridium},
		{"o3b", AltitudeO3b},
		{"gps", AltitudeGPS},
		{"geo", AltitudeGEO},
	}
}

// Lookup returns the named orbit called name ("geo", "o3b", ...).
func Lookup(name string) (Orbit, error) {
	for _, o := range Named() {
		if o.Name == name {
			return o, nil
		}
	}
	return Orbit{}, fmt.Errorf("orbit: unknown orbit %q", name)
}

// LightSpeedNamed returns the speed of light of a constant set: "codata"
// (the SI value) or "paper" (3e8 m/s, document 000).
func LightSpeedNamed(name string) (float64, error) {
	switch name {
	case "codata":
		return LightSpeed, nil
	case "paper":
		return PaperLightSpeed, nil
	}
	return 0, fmt.Errorf("orbit: unknown light speed %q (want codata or paper)", name)
}

// Radius returns the orbit radius of altitude h: EarthRadius + h.
func Radius(h float64) float64 { return EarthRadius + h }

// Period returns the period of a circular orbit at altitude h, Kepler's
// third law T = 2 pi sqrt(r^3/mu), ignoring the Earth's oblateness (J2).
func Period(h float64) float64 {
	r := Radius(h)
	return 2 * math.Pi * math.Sqrt(r*r*r/EarthMu)
}

// Speed returns the orbital speed sqrt(mu/r) of a circular orbit at h.
func Speed(h float64) float64 { return math.Sqrt(EarthMu / Radius(h)) }

// Radians converts degrees to radians.
func Radians(deg float64) float64 { return deg * math.Pi / 180 }

// Degrees converts radians to degrees.
func Degrees(rad float64) float64 { return rad * 180 / math.Pi }
