package orbit

import (
	"fmt"
	"math"
)

// Vec is a position in metres in an Earth-centred frame.
type Vec [3]float64

// Sub returns a - b.
func (a Vec) Sub(b Vec) Vec { return Vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Dot returns a . b.
func (a Vec) Dot(b Vec) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Norm returns |a|.
func (a Vec) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Dist returns |a - b|.
func Dist(a, b Vec) float64 { return a.Sub(b).Norm() }

// Earth rotation and oblateness.
const (
	// EarthRotation is the WGS-84 angular velocity of the Earth, rad/s
	// (NIMA TR8350.2 table 3.1).
	EarthRotation = 7.292115e-5
	// EarthJ2 is the second zonal harmonic of WGS-84 (EGM96 C20 =
	// -4.84166e-4 normalised; J2 = -sqrt(5) C20), used by the optional
	// secular J2 drift.
	EarthJ2 = 1.08262982e-3
	// MuWGS72 is the gravitational parameter of WGS-72, the value SGP4
	// and Hypatia's satellite generator use (Vallado et al. 2006,
	// "Revisiting Spacetrack Report #3", AIAA 2006-6753, table 1).
	MuWGS72 = 3.986008e14
)

// Shell is one Walker-delta shell: Planes circular orbits at the same
// altitude and inclination, their ascending nodes spread evenly over 360
// degrees, each carrying PerPlane equally spaced satellites.
//
// Satellite s of plane p has right ascension of the ascending node
// 2 pi p / Planes and argument of latitude at time 0
// 2 pi s / PerPlane + 2 pi Phasing p / (Planes PerPlane), Walker's i:t/p/f
// notation with t = Planes PerPlane (Walker 1984, "Satellite
// constellations", J. British Interplanetary Society 37, 559-572).
// OddPlaneShift replaces the Walker phasing with the one Hypatia's
// generator uses (satgenpy, generate_tles_from_scratch: odd planes half a
// slot ahead, even planes not shifted).
type Shell struct {
	Name        string
	Altitude    float64 // m above EarthRadius; sets the radius unless MeanMotion does
	Inclination float64 // rad
	Planes      int
	PerPlane    int
	Phasing     int // Walker's f, 0 .. Planes-1
	// OddPlaneShift selects Hypatia's phasing instead of Phasing.
	OddPlaneShift bool
	// MeanMotion in revolutions per day, when positive, sets the orbit
	// radius by Kepler's third law with MuWGS72, as a two-line element
	// set does (Hypatia gives its shells this way: Kuiper K1 14.80).
	MeanMotion float64
	// MinElevation is the lowest elevation at which a ground station uses
	// a satellite, rad.
	MinElevation float64
	// ConeRadius, when positive, is Hypatia's ground link rule: a
	// station uses a satellite no farther than sqrt(ConeRadius^2 +
	// Altitude^2), a flat-Earth cone of ground radius ConeRadius under
	// the satellite (satgenpy's max_gsl_length_m). Zero uses the true
	// elevation instead.
	ConeRadius float64
}

// Size returns the number of satellites.
func (s Shell) Size() int { return s.Planes * s.PerPlane }

// Radius returns the orbit radius: from the mean motion if given, else
// EarthRadius + Altitude.
func (s Shell) Radius() float64 {
	if s.MeanMotion > 0 {
		n := s.MeanMotion * 2 * math.Pi / 86400
		return math.Cbrt(MuWGS72 / (n * n))
	}
	return Radius(s.Altitude)
}

// MaxGroundRange returns the longest ground-to-satellite link the shell
// allows: Hypatia's cone rule if ConeRadius is set, else the slant range
// at MinElevation over the sphere of EarthRadius.
func (s Shell) MaxGroundRange() float64 {
	if s.ConeRadius > 0 {
		return math.Hypot(s.ConeRadius, s.Altitude)
	}
	return SlantRange(s.Radius()-EarthRadius, s.MinElevation)
}

// Validate reports a shell that cannot be built.
func (s Shell) Validate() error {
	switch {
	case s.Planes < 1 || s.PerPlane < 1:
		return fmt.Errorf("orbit: shell %q: %d planes of %d satellites (want at least 1 of 1)", s.Name, s.Planes, s.PerPlane)
	case s.Planes*s.PerPlane > 1<<20:
		return fmt.Errorf("orbit: shell %q: %d satellites is more than 2^20", s.Name, s.Planes*s.PerPlane)
	case s.Phasing < 0 || (s.Phasing >= s.Planes && s.Planes > 0):
		return fmt.Errorf("orbit: shell %q: phasing %d outside 0..%d", s.Name, s.Phasing, s.Planes-1)
	case s.Radius() <= EarthRadius:
		return fmt.Errorf("orbit: shell %q: orbit radius %.0f m is inside the Earth", s.Name, s.Radius())
	case s.Inclination < 0 || s.Inclination > math.Pi:
		return fmt.Errorf("orbit: shell %q: inclination %g rad outside 0..pi", s.Name, s.Inclination)
	case s.MinElevation < 0 || s.MinElevation >= math.Pi/2:
		return fmt.Errorf("orbit: shell %q: minimum elevation %g rad outside [0, pi/2)", s.Name, s.MinElevation)
	}
	return nil
}

// The three shells Hypatia simulates (Kassing et al., "Exploring the
// 'Internet from space' with Hypatia", IMC 2020, table 1; the numbers are
// those of its paper/satellite_networks_state/main_*.py): planes,
// satellites per plane, altitude, inclination, mean motion, the minimum
// elevation of the operators' filings and Hypatia's ground cone radius.
// The mean motion sets the orbit, as in the TLEs Hypatia generates, and
// it is not the nominal altitude's: Starlink's 15.19 rev/day is an orbit
// 509 km up, not 550 km (Kuiper's 629 km, Telesat's 1014 km are within
// 1.1 km of theirs). The nominal altitude sets only the ground cone's
// range (MaxGroundRange), as in satgenpy.
func ShellPresets() []Shell {
	return []Shell{
		{Name: "starlink-s1", Altitude: 550e3, Inclination: Radians(53), Planes: 72, PerPlane: 22,
			OddPlaneShift: true, MeanMotion: 15.19, MinElevation: Radians(25), ConeRadius: 940.7e3},
		{Name: "kuiper-k1", Altitude: 630e3, Inclination: Radians(51.9), Planes: 34, PerPlane: 34,
			OddPlaneShift: true, MeanMotion: 14.80, MinElevation: Radians(30),
			ConeRadius: 630e3 / math.Tan(Radians(30))},
		{Name: "telesat-t1", Altitude: 1015e3, Inclination: Radians(98.98), Planes: 27, PerPlane: 13,
			OddPlaneShift: true, MeanMotion: 13.66, MinElevation: Radians(10),
			ConeRadius: 1015e3 / math.Tan(Radians(10))},
	}
}

// ShellNamed returns the preset called name.
func ShellNamed(name string) (Shell, error) {
	for _, s := range ShellPresets() {
		if s.Name == name {
			return s, nil
		}
	}
	return Shell{}, fmt.Errorf("orbit: unknown shell %q (want starlink-s1, kuiper-k1 or telesat-t1)", name)
}

// Motion options of a constellation.
type Motion struct {
	// J2 adds the secular drift of the ascending node and of the argument
	// of latitude caused by the Earth's oblateness (Vallado, Fundamentals
	// of Astrodynamics and Applications, 4th ed., eq. 9-41 and 9-42 for
	// e = 0). Off, the orbits are Keplerian circles fixed in inertial space.
	J2 bool
	// GMST0 is the Greenwich sidereal angle at time 0, rad: the angle from
	// the inertial x axis to the prime meridian. GMSTAt gives it for a date.
	GMST0 float64
	// SGP4 moves each satellite by the near-Earth SGP4 model without drag
	// instead (secular J2 and J4, long-period J3, short-period J2 terms),
	// from mean elements with the shell's mean motion and eccentricity
	// 1e-7, as Hypatia's element sets do; the shell needs a MeanMotion.
	SGP4 bool
	// PyEphem, with SGP4, moves the satellites as PyEphem's libastro does
	// for Hypatia's satgenpy: element sets as satgenpy writes them (angles
	// to four decimals of a degree) and as libastro stores them (floats),
	// Spacetrack Report No. 3's semi-major axis without Vallado's
	// eccentricity floor, libastro's Earth radius of 6378.16 km for the
	// result, and the Earth turning at 1.0027379093 sidereal days per day
	// from GMST0 (GMSTNewcomb gives libastro's angle), with time kept as
	// libastro's dates from the shells' epoch 2000-01-01 00:00 UT.
	// Stations go with the PyEphem surface.
	PyEphem bool
}

// Constellation is a shell in motion: satellite positions in the
// Earth-fixed frame at any time.
type Constellation struct {
	shell      Shell
	r          float64
	uRate      float64   // argument of latitude rate, rad/s
	raanRate   float64   // node drift, rad/s (0 without J2)
	gmst0      float64   // rad
	raan       []float64 // per plane, rad
	u0         []float64 // per satellite, rad
	cosI, sinI float64
	sgp        []*sgp4 // with Motion.SGP4
	spin       float64 // Earth rotation rate, rad/s
	libastro   bool    // Motion.PyEphem
}

// NewConstellation puts shell s in motion.
func NewConstellation(s Shell, m Motion) (*Constellation, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	r := s.Radius()
	mu := EarthMu
	if s.MeanMotion > 0 {
		mu = MuWGS72
	}
	n := math.Sqrt(mu / (r * r * r))
	c := &Constellation{shell: s, r: r, uRate: n, gmst0: m.GMST0, spin: EarthRotation,
		cosI: math.Cos(s.Inclination), sinI: math.Sin(s.Inclination)}
	if m.J2 {
		k := 1.5 * EarthJ2 * (EarthRadius / r) * (EarthRadius / r) * n
		c.raanRate = -k * c.cosI
		// du/dt = dM/dt + dw/dt with, for e = 0, dM/dt - n =
		// k/2 (3 cos^2 i - 1) and dw/dt = k/2 (5 cos^2 i - 1).
		c2 := c.cosI * c.cosI
		c.uRate = n + k/2*(3*c2-1) + k/2*(5*c2-1)
	}
	P, S := s.Planes, s.PerPlane
	c.raan = make([]float64, P)
	c.u0 = make([]float64, P*S)
	for p := 0; p < P; p++ {
		c.raan[p] = 2 * math.Pi * float64(p) / float64(P)
		shift := 2 * math.Pi * float64(s.Phasing*p) / float64(P*S)
		if s.OddPlaneShift {
			shift = 0
			if p%2 == 1 {
				shift = math.Pi / float64(S)
			}
		}
		for j := 0; j < S; j++ {
			c.u0[p*S+j] = 2*math.Pi*float64(j)/float64(S) + shift
		}
	}
	if m.SGP4 {
		if s.MeanMotion <= 0 {
			return nil, fmt.Errorf("orbit: shell %q: SGP4 needs a mean motion", s.Name)
		}
		c.sgp = make([]*sgp4, len(c.u0))
		for k, u := range c.u0 {
			c.sgp[k] = newSGP4(s.Inclination, c.raan[k/S], 1e-7, 0, u, s.MeanMotion, false)
		}
		if m.PyEphem {
			c.spin = 2 * math.Pi * libastroSidereal / 86400
			c.libastro = true
			incl := libastroElement(Degrees(s.Inclination))
			ecc := float64(float32(1e-7))
			for k := range c.sgp {
				p, j := k/S, k%S
				// satgenpy's degrees: plane p's node at p 360/P, slot j
				// at j 360/S plus half a slot on odd planes.
				node := float64(p) * 360 / float64(P)
				mean := float64(j*360) / float64(S)
				if s.OddPlaneShift && p%2 == 1 {
					mean = 360/(float64(S)*2) + mean
				}
				c.sgp[k] = newSGP4(incl, libastroElement(node), ecc, 0, libastroElement(mean), s.MeanMotion, true)
			}
		}
		c.uRate = (c.sgp[0].xmdot + c.sgp[0].omgdot) / 60
	}
	return c, nil
}

// Shell returns the constellation's shell.
func (c *Constellation) Shell() Shell { return c.shell }

// Len returns the number of satellites.
func (c *Constellation) Len() int { return len(c.u0) }

// Radius returns the orbit radius, m.
func (c *Constellation) Radius() float64 { return c.r }

// Period returns the time of one revolution in argument of latitude, s.
func (c *Constellation) Period() float64 { return 2 * math.Pi / c.uRate }

// Index returns the satellite number of slot j of plane p (both taken
// modulo their counts), plane-major as Hypatia numbers them.
func (c *Constellation) Index(p, j int) int {
	P, S := c.shell.Planes, c.shell.PerPlane
	p, j = ((p%P)+P)%P, ((j%S)+S)%S
	return p*S + j
}

// Positions writes the Earth-fixed position of every satellite at time t
// (s) into dst, growing it as needed, and returns it.
//
// In the inertial frame a satellite with node Omega and argument of
// latitude u is at r (cos O cos u - sin O sin u cos i, sin O cos u +
// cos O sin u cos i, sin u sin i); the Earth-fixed frame is that rotated
// by -theta, theta = GMST0 + EarthRotation t (libastro's rate with
// Motion.PyEphem).
func (c *Constellation) Positions(t float64, dst []Vec) []Vec {
	n := len(c.u0)
	if cap(dst) < n {
		dst = make([]Vec, n)
	}
	dst = dst[:n]
	theta := c.gmst0 + c.spin*t
	if c.libastro {
		// libastro's day fraction: a date in days since 1899-12-31
		// 12:00 plus half a day, less the day (earthsat.c,
		// GetSitPosition), which rounds t to a third of a microsecond.
		theta = c.gmst0 + 2*math.Pi*libastroSidereal*((36524.5+t/86400+0.5)-36525)
	}
	if c.sgp != nil {
		st, ct := math.Sincos(theta)
		for k, m := range c.sgp {
			v := m.position(t)
			dst[k] = Vec{ct*v[0] + st*v[1], -st*v[0] + ct*v[1], v[2]}
		}
		return dst
	}
	S := c.shell.PerPlane
	du := c.uRate * t
	for p, raan := range c.raan {
		// The node's longitude in the Earth-fixed frame.
		sO, cO := math.Sincos(raan + c.raanRate*t - theta)
		for j := 0; j < S; j++ {
			k := p*S + j
			su, cu := math.Sincos(c.u0[k] + du)
			x := cu
			y := su * c.cosI
			dst[k] = Vec{c.r * (cO*x - sO*y), c.r * (sO*x + cO*y), c.r * su * c.sinI}
		}
	}
	return dst
}

// GridISLs returns the +Grid inter-satellite links, each once as a pair
// (a, b) with a < b: every satellite links to the next one in its plane
// and to the one in the same slot of the next plane, so each has two
// intra-plane and two cross-plane neighbours (the wrap-around plane
// included, as in Hypatia's generate_plus_grid_isls with isl_shift 0).
// Planes or rings of fewer than three satellites would repeat a pair; it
// is listed once.
func (c *Constellation) GridISLs() [][2]int {
	P, S := c.shell.Planes, c.shell.PerPlane
	seen := make(map[[2]int]bool, 2*P*S)
	out := make([][2]int, 0, 2*P*S)
	add := func(a, b int) {
		if a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		k := [2]int{a, b}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for p := 0; p < P; p++ {
		for j := 0; j < S; j++ {
			a := c.Index(p, j)
			add(a, c.Index(p, j+1))
			add(a, c.Index(p+1, j))
		}
	}
	return out
}

// IntraPlane reports whether ISL (a, b) joins two satellites of the same
// plane.
func (c *Constellation) IntraPlane(a, b int) bool {
	return a/c.shell.PerPlane == b/c.shell.PerPlane
}

// GMSTAt returns the Greenwich mean sidereal angle, rad, at a UT1 instant
// given as days since J2000.0 (2000-01-01 12:00 UT1), by the IAU 1982
// formula (Aoki et al. 1982; Vallado eq. 3-47):
//
//	GMST = 67310.54841 s + (876600 h + 8640184.812866 s) T
//	       + 0.093104 s T^2 - 6.2e-6 s T^3,  T in Julian centuries.
//
// At 2000-01-01 00:00 UT1 (d = -0.5), the epoch of Hypatia's generated
// elements, it is 99.97 degrees.
func GMSTAt(d float64) float64 {
	T := d / 36525
	sec := 67310.54841 + (876600*3600+8640184.812866)*T + 0.093104*T*T - 6.2e-6*T*T*T
	a := math.Mod(sec/86400*2*math.Pi, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}
