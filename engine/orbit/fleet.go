package orbit

import (
	"fmt"
	"math"
)

// FleetConfig describes every satellite of a scenario: Walker shells and
// two-line element sets, numbered in that order (the first shell's
// satellites first, plane-major as Hypatia numbers them, then the element
// sets in their file order).
type FleetConfig struct {
	// Shells move by Motion, each as a Constellation.
	Shells []Shell
	Motion Motion
	// NoGridISLs leaves out the shells' +Grid links (Hypatia's
	// isls_none, the setting of its ground-relay routing).
	NoGridISLs bool
	// UseCone selects each shell's ground rule: Hypatia's range limit
	// (Shell.Rule(true)) or its minimum elevation.
	UseCone bool
	// TLEs are satellites given by element sets, propagated by SGP4 and
	// turned with the Earth by the IAU 1982 sidereal angle (GMSTAt) from
	// Epoch. They have no inter-satellite links unless ExtraISLs names
	// them.
	TLEs []TLE
	// TLERule is the ground rule of the element-set satellites (at least
	// a minimum elevation or a range limit must be chosen).
	TLERule GroundRule
	// Epoch is time 0 of the fleet for the element sets, in days since
	// J2000.0 (2000-01-01 12:00 UT); -0.5 is 2000-01-01 00:00 UT, the
	// epoch of Hypatia's generated shells.
	Epoch float64
	// ExtraISLs are inter-satellite links beyond each shell's +Grid, by
	// fleet satellite number: links between shells, or among element-set
	// satellites. Off (empty) by default.
	ExtraISLs [][2]int
}

// Fleet is a set of satellites in motion: several shells and element sets
// sharing one clock, one Earth and one list of inter-satellite links.
type Fleet struct {
	shells []*Constellation
	first  []int // fleet number of each shell's first satellite
	tles   []*sgp4
	tleOff []float64 // s from each element set's epoch to the fleet's time 0
	tle0   int       // fleet number of the first element-set satellite
	epoch  float64
	n      int
	isls   [][2]int
	rules  []GroundRule // per group: shells, then the element sets
	group  []int32      // per satellite
	f32    bool         // Motion.PyEphem: lengths as satgenpy measures them
}

// NewFleet builds the fleet of cfg. It refuses an empty fleet, a shell that
// cannot be built, a deep-space element set (SGP4 only covers periods
// under 225 minutes) and an extra link that names a satellite the fleet
// does not have or repeats a link.
func NewFleet(cfg FleetConfig) (*Fleet, error) {
	f := &Fleet{epoch: cfg.Epoch, f32: cfg.Motion.PyEphem}
	if len(cfg.Shells) == 0 && len(cfg.TLEs) == 0 {
		return nil, fmt.Errorf("orbit: a fleet needs at least one shell or element set")
	}
	if cfg.Motion.PyEphem && len(cfg.TLEs) > 0 {
		return nil, fmt.Errorf("orbit: PyEphem motion covers generated shells only, not element sets")
	}
	for _, s := range cfg.Shells {
		c, err := NewConstellation(s, cfg.Motion)
		if err != nil {
			return nil, err
		}
		f.first = append(f.first, f.n)
		f.shells = append(f.shells, c)
		if !cfg.NoGridISLs {
			for _, l := range c.GridISLs() {
				f.isls = append(f.isls, [2]int{l[0] + f.n, l[1] + f.n})
			}
		}
		f.rules = append(f.rules, s.Rule(cfg.UseCone))
		for range c.Len() {
			f.group = append(f.group, int32(len(f.rules)-1))
		}
		f.n += c.Len()
	}
	f.tle0 = f.n
	if len(cfg.TLEs) > 0 {
		r := cfg.TLERule
		if r.MaxRange <= 0 && (r.MinElevation < 0 || r.MinElevation >= math.Pi/2) {
			return nil, fmt.Errorf("orbit: element sets' minimum elevation %g rad outside [0, pi/2)", r.MinElevation)
		}
		f.rules = append(f.rules, r)
	}
	for _, e := range cfg.TLEs {
		m, err := e.sgp4()
		if err != nil {
			return nil, err
		}
		f.tles = append(f.tles, m)
		// Seconds from the element set's epoch to the fleet's time 0.
		f.tleOff = append(f.tleOff, (cfg.Epoch-e.Epoch)*86400)
		f.group = append(f.group, int32(len(f.rules)-1))
		f.n++
	}
	seen := make(map[[2]int]bool, len(f.isls)+len(cfg.ExtraISLs))
	for _, l := range f.isls {
		seen[l] = true
	}
	for _, l := range cfg.ExtraISLs {
		a, b := min(l[0], l[1]), max(l[0], l[1])
		switch {
		case a < 0 || b >= f.n:
			return nil, fmt.Errorf("orbit: extra link %d-%d: the fleet has satellites 0..%d", l[0], l[1], f.n-1)
		case a == b:
			return nil, fmt.Errorf("orbit: extra link %d-%d joins a satellite to itself", l[0], l[1])
		case seen[[2]int{a, b}]:
			return nil, fmt.Errorf("orbit: extra link %d-%d is already a link", l[0], l[1])
		}
		seen[[2]int{a, b}] = true
		f.isls = append(f.isls, [2]int{a, b})
	}
	return f, nil
}

// Len returns the number of satellites.
func (f *Fleet) Len() int { return f.n }

// ISLs returns the inter-satellite links: each shell's +Grid in shell
// order (Constellation.GridISLs, Hypatia's order), then the extra links.
func (f *Fleet) ISLs() [][2]int { return f.isls }

// Shells returns the constellations of the shells, in order.
func (f *Fleet) Shells() []*Constellation { return f.shells }

// First returns the fleet number of shell i's first satellite.
func (f *Fleet) First(i int) int { return f.first[i] }

// Rule returns the ground rule of satellite k.
func (f *Fleet) Rule(k int) GroundRule { return f.rules[f.group[k]] }

// Positions writes the Earth-fixed position of every satellite at time t
// (s since the fleet's time 0) into dst, growing it as needed, and
// returns it. It allocates nothing once dst is large enough.
func (f *Fleet) Positions(t float64, dst []Vec) []Vec {
	if cap(dst) < f.n {
		dst = make([]Vec, f.n)
	}
	dst = dst[:f.n]
	for i, c := range f.shells {
		c.Positions(t, dst[f.first[i]:f.first[i]+c.Len()])
	}
	if len(f.tles) > 0 {
		// SGP4 gives positions in its true-equator, mean-equinox (TEME)
		// frame; the Earth-fixed frame is that turned by the Greenwich
		// mean sidereal angle (Vallado et al. 2006, AIAA 2006-6753,
		// section on TEME, with polar motion neglected: under 20 m).
		st, ct := math.Sincos(GMSTAt(f.epoch + t/86400))
		for k, m := range f.tles {
			v := m.position(t + f.tleOff[k])
			dst[f.tle0+k] = Vec{ct*v[0] + st*v[1], -st*v[0] + ct*v[1], v[2]}
		}
	}
	return dst
}
