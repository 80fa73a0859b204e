package models

import (
	"context"
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// OrbitGeometry is the "orbit-geometry" model: the length, propagation
// delay and line of sight of one satellite link, from circular-orbit
// geometry (package orbit). It draws document 000's Fig. 1 (example
// inter-satellite links and the round trips they imply) and its Table 2
// (ISL distance to one-way delay), and gives the ground-to-satellite delays
// behind documents 001 and 004. It is closed form and ignores its seed.
//
// The link parameter says which geometry applies:
//
//	ring    two satellites on orbit a (altitude), separation_deg apart
//	cross   one on orbit a, one on orbit b (altitude_b), separation_deg apart
//	chord   two satellites on orbit a, chord metres apart (separation follows)
//	ground  a station on the surface sees the satellite on orbit a at elevation_deg
//
// Parameters a link kind does not use are still written to every row (and
// enter the scenario id), so specs should leave them at their defaults.
// The engine has no angle unit, so angles are plain numbers in degrees
// whose names end in _deg.
type OrbitGeometry struct {
	schema *vocab.Schema
}

// The positions of the parameters in the schema.
const (
	ogLink = iota
	ogAltitude
	ogAltitudeB
	ogSeparation
	ogChord
	ogElevation
	ogAtmosphere
	ogLightSpeed
	ogParams // count
)

// The positions of the metrics in the schema.
const (
	ogDistance = iota
	ogOneWayDelay
	ogRTT
	ogCentralAngle
	ogLineOfSight
	ogGrazingHeight
	ogMaxDistance
	ogRingSatellites
	ogPeriod
	ogMetrics // count
)

// NewOrbitGeometry returns the orbit-geometry model.
func NewOrbitGeometry() *OrbitGeometry {
	const maxAltitude = 400000e3 // the Moon's distance: beyond it "orbit" stops meaning Earth orbit
	params := make([]vocab.Param, ogParams)
	params[ogLink] = vocab.Param{Name: "link", Kind: vocab.String,
		Default: vocab.S("ring"), Choices: []string{"ring", "cross", "chord", "ground"},
		Doc: "ring: two satellites on orbit a, separation_deg apart; cross: orbit a to orbit b (altitude_b), " +
			"separation_deg apart; chord: two satellites on orbit a, chord apart; ground: a surface station " +
			"seeing orbit a at elevation_deg"}
	params[ogAltitude] = vocab.Param{Name: "altitude", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(orbit.AltitudeGEO), Min: 0, Max: maxAltitude,
		Doc: "altitude of orbit a above the WGS-84 equatorial radius (LEO 550 km, Iridium 780 km, O3b 8062 km, " +
			"GPS 20200 km, GEO 35786 km)"}
	params[ogAltitudeB] = vocab.Param{Name: "altitude_b", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(orbit.AltitudeGEO), Min: 0, Max: maxAltitude,
		Doc: "altitude of orbit b; only link cross uses it (ring and chord put both satellites on orbit a)"}
	params[ogSeparation] = vocab.Param{Name: "separation_deg", Kind: vocab.Float,
		Default: vocab.F(120), Min: 0, Max: 180,
		Doc: "central angle between the two satellites in degrees, for ring and cross " +
			"(120: Clarke's three geostationary satellites)"}
	params[ogChord] = vocab.Param{Name: "chord", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(80000e3), Min: 1, Max: 2 * (orbit.EarthRadius + maxAltitude),
		Doc: "distance between two satellites on orbit a, for chord (document 000 Table 2: 16000, 25000, " +
			"50000, 80000 km); longer than the orbit's diameter is an error"}
	params[ogElevation] = vocab.Param{Name: "elevation_deg", Kind: vocab.Float,
		Default: vocab.F(90), Min: 0, Max: 90,
		Doc: "elevation of the satellite seen from the ground station in degrees, for ground (90: zenith)"}
	params[ogAtmosphere] = vocab.Param{Name: "atmosphere", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(80e3), Min: 0, Max: 1000e3,
		Doc: "height above the surface a crosslink must clear to count as in sight (80 km: about the mesopause)"}
	params[ogLightSpeed] = vocab.Param{Name: "light_speed", Kind: vocab.String,
		Default: vocab.S("codata"), Choices: []string{"codata", "paper"},
		Doc: "codata: c = 299792458 m/s; paper: c = 3e8 m/s, with which document 000's Table 2 comes out to its printed digits"}

	metrics := make([]vocab.Metric, ogMetrics)
	metrics[ogDistance] = vocab.Metric{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter,
		Doc: "length of the link: the chord or law-of-cosines distance between the satellites, or the slant range from the station"}
	metrics[ogOneWayDelay] = vocab.Metric{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "propagation time distance/c (Table 2 of document 000)"}
	metrics[ogRTT] = vocab.Metric{Name: "rtt", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "round trip over this one link, 2 distance/c; a bent-pipe station-to-station round trip crosses a ground link four times"}
	metrics[ogCentralAngle] = vocab.Metric{Name: "central_angle_deg", Kind: vocab.Float,
		Doc: "angle at the Earth's centre between the two ends in degrees: separation_deg, or the one a chord implies, " +
			"or for ground the footprint radius at elevation_deg"}
	metrics[ogLineOfSight] = vocab.Metric{Name: "line_of_sight", Kind: vocab.Bool,
		Doc: "whether the link clears the Earth by atmosphere (ground links are in sight at any elevation >= 0)"}
	metrics[ogGrazingHeight] = vocab.Metric{Name: "grazing_height", Kind: vocab.Float, Unit: vocab.Meter,
		Doc: "lowest height of the straight link above the surface, negative through the Earth (0 for ground: the station)"}
	metrics[ogMaxDistance] = vocab.Metric{Name: "max_distance", Kind: vocab.Float, Unit: vocab.Meter,
		Doc: "longest link of this kind in sight: tangents to the Earth plus atmosphere between the two orbits " +
			"(83,333 km GEO to GEO with 80 km), or for ground the slant range at the horizon"}
	metrics[ogRingSatellites] = vocab.Metric{Name: "ring_satellites", Kind: vocab.Int,
		Doc: "fewest equally spaced satellites on orbit a no more than central_angle_deg apart (for ground: " +
			"no more than twice it, so footprints cover the whole ground track); 0 when the angle is 0, an error past 2^53"}
	metrics[ogPeriod] = vocab.Metric{Name: "period", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "period of orbit a, 2 pi sqrt(r^3/mu) (GEO: one sidereal day)"}

	return &OrbitGeometry{schema: &vocab.Schema{
		Name:    "orbit-geometry",
		Version: 2, // 2: an error instead of an overflowed ring_satellites below 4e-14 degrees
		Doc: "Length, one-way delay, round trip and line of sight of a satellite link between circular orbits " +
			"(spherical WGS-84 Earth): inter-satellite links on one orbit or between two, given by angle or length, " +
			"and ground-to-satellite slant ranges at an elevation. Document 000's Fig. 1 and Table 2; the GEO and " +
			"MEO delays of documents 001 and 004. Closed form; the seed is unused.",
		Params:  params,
		Metrics: metrics,
	}}
}

// Schema returns the model's schema.
func (m *OrbitGeometry) Schema() *vocab.Schema { return m.schema }

// Cost returns a constant: every scenario is a handful of trigonometric
// functions.
func (m *OrbitGeometry) Cost(vocab.Params) float64 { return 1 }

// geometryConfig is orbit-geometry's parameters, decoded.
type geometryConfig struct {
	light         float64 // speed of light in the medium, m/s
	altitude      float64 // m
	altitudeB     float64 // m, link cross
	atmosphere    float64 // m
	link          string
	elevationDeg  float64
	separationDeg float64
	chord         float64 // m
}

// decodeGeometry reads orbit-geometry's parameters.
func decodeGeometry(p vocab.Params) (geometryConfig, error) {
	c, err := orbit.LightSpeedNamed(p.Str("light_speed"))
	if err != nil {
		return geometryConfig{}, fmt.Errorf("models: orbit-geometry: %w", err)
	}
	return geometryConfig{
		light: c, altitude: p.Float("altitude"), altitudeB: p.Float("altitude_b"), atmosphere: p.Float("atmosphere"),
		link: p.Str("link"), elevationDeg: p.Float("elevation_deg"), separationDeg: p.Float("separation_deg"), chord: p.Float("chord"),
	}, nil
}

// Run computes one scenario.
func (m *OrbitGeometry) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	g, err := decodeGeometry(p)
	if err != nil {
		return vocab.Result{}, err
	}
	c := g.light
	ha := g.altitude
	hb := ha
	margin := g.atmosphere
	out := make([]vocab.Value, ogMetrics)

	var d, theta, graze, longest float64
	var inSight bool
	var ring int
	switch link := g.link; link {
	case "ground":
		e := orbit.Radians(g.elevationDeg)
		d = orbit.SlantRange(ha, e)
		theta = orbit.CoverageAngle(ha, e)
		graze = 0 // the station, on the surface, is the lowest point when e >= 0
		inSight = e >= 0
		longest = orbit.SlantRange(ha, 0)
		if ring, err = ringSize(2 * theta); err != nil {
			return vocab.Result{}, err
		}
	case "ring", "cross", "chord":
		switch link {
		case "cross":
			hb = g.altitudeB
			fallthrough
		case "ring":
			theta = orbit.Radians(g.separationDeg)
		case "chord":
			if theta, err = orbit.Separation(ha, g.chord); err != nil {
				return vocab.Result{}, fmt.Errorf("models: orbit-geometry: %w", err)
			}
		}
		d = orbit.Distance(ha, hb, theta)
		graze = orbit.GrazingHeight(ha, hb, theta)
		inSight = graze >= margin
		longest = orbit.MaxRange(ha, hb, margin)
		if ring, err = ringSize(theta); err != nil {
			return vocab.Result{}, err
		}
	default:
		return vocab.Result{}, fmt.Errorf("models: orbit-geometry: unknown link %q (want ring, cross, chord or ground)", link)
	}
	if math.IsNaN(d) {
		panic("models: orbit-geometry: bug: NaN distance")
	}

	out[ogDistance] = vocab.F(d)
	out[ogOneWayDelay] = vocab.F(orbit.Delay(d, c))
	out[ogRTT] = vocab.F(2 * orbit.Delay(d, c))
	out[ogCentralAngle] = vocab.F(orbit.Degrees(theta))
	out[ogLineOfSight] = vocab.B(inSight)
	out[ogGrazingHeight] = vocab.F(graze)
	out[ogMaxDistance] = vocab.F(longest)
	out[ogRingSatellites] = vocab.I(int64(ring))
	out[ogPeriod] = vocab.F(orbit.Period(ha))
	return vocab.Result{Metrics: out}, nil
}

// ringSize is orbit.RingSize for the ring_satellites metric: 0 for a zero
// angle, and an error for an angle so small (separation_deg is any
// float down to 0) that 2 pi/theta satellites pass 2^53, where the count
// is no longer exact and soon overflows an int64.
func ringSize(theta float64) (int, error) {
	if theta <= 0 {
		return 0, nil
	}
	if 2*math.Pi/theta > 1<<53 {
		return 0, fmt.Errorf("models: orbit-geometry: a central angle of %g degrees needs more than 2^53 satellites in a ring", orbit.Degrees(theta))
	}
	return orbit.RingSize(theta), nil
}
