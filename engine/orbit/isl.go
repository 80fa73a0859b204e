package orbit

import (
	"fmt"
	"math"
)

// Chord returns the distance between two satellites on the same circular
// orbit at altitude h separated by the central angle theta: 2 r sin(theta/2).
func Chord(h, theta float64) float64 {
	return 2 * Radius(h) * math.Sin(theta/2)
}

// Distance returns the distance between a satellite at altitude ha and one
// at hb whose position vectors are theta apart (law of cosines). With ha =
// hb it is Chord; with ha = 0 the first point is on the surface, and
// Distance(0, h, CoverageAngle(h, e)) equals SlantRange(h, e).
func Distance(ha, hb, theta float64) float64 {
	ra, rb := Radius(ha), Radius(hb)
	// ra^2 + rb^2 - 2 ra rb cos(theta) written as (ra-rb)^2 + 4 ra rb
	// sin^2(theta/2) so that short links between close orbits do not lose
	// their digits to cancellation.
	s := math.Sin(theta / 2)
	return math.Sqrt((ra-rb)*(ra-rb) + 4*ra*rb*s*s)
}

// GrazingHeight returns the lowest height above the Earth's surface of the
// straight segment between a point at altitude ha and one at hb, theta
// apart. If the foot of the perpendicular from the Earth's centre to the
// line falls between the two points, the closest approach is the triangle's
// height ra rb sin(theta)/d; otherwise it is the lower endpoint. The result
// is negative when the segment passes through the Earth.
func GrazingHeight(ha, hb, theta float64) float64 {
	ra, rb := Radius(ha), Radius(hb)
	lo := math.Min(ra, rb)
	theta = math.Abs(math.Remainder(theta, 2*math.Pi))
	d := Distance(ha, hb, theta)
	if d == 0 {
		return lo - EarthRadius
	}
	// The foot lies inside the segment when both base angles are acute,
	// that is when neither endpoint is the closer one along the line:
	// ra cos(theta) < rb and rb cos(theta) < ra.
	c := math.Cos(theta)
	if ra*c < rb && rb*c < ra {
		return ra*rb*math.Sin(theta)/d - EarthRadius
	}
	return lo - EarthRadius
}

// InSight reports whether two satellites at ha and hb, theta apart, see
// each other over the Earth with the segment between them staying at least
// margin above the surface.
func InSight(ha, hb, theta, margin float64) bool {
	return GrazingHeight(ha, hb, theta) >= margin
}

// MaxSeparation returns the largest central angle at which satellites at ha
// and hb still see each other with the given margin: the sum of the angles
// at which each one's line of sight is tangent to the sphere of radius
// EarthRadius+margin, acos(R/ra) + acos(R/rb). It is 0 if either satellite
// is below the margin.
func MaxSeparation(ha, hb, margin float64) float64 {
	R := EarthRadius + margin
	ra, rb := Radius(ha), Radius(hb)
	if ra < R || rb < R {
		return 0
	}
	return math.Acos(R/ra) + math.Acos(R/rb)
}

// MaxRange returns the longest line-of-sight distance between satellites at
// ha and hb with the given margin: the two tangents to the sphere of radius
// EarthRadius+margin, sqrt(ra^2-R^2) + sqrt(rb^2-R^2). Between two
// geostationary satellites with an 80 km margin it is 83,333 km.
func MaxRange(ha, hb, margin float64) float64 {
	R := EarthRadius + margin
	ra, rb := Radius(ha), Radius(hb)
	if ra < R || rb < R {
		return 0
	}
	return math.Sqrt(ra*ra-R*R) + math.Sqrt(rb*rb-R*R)
}

// Separation returns the central angle between two satellites on the orbit
// at altitude h that are d apart, the inverse of Chord. It fails if d is
// negative or longer than the orbit's diameter.
func Separation(h, d float64) (float64, error) {
	r := Radius(h)
	if d < 0 || d > 2*r {
		return 0, fmt.Errorf("orbit: a chord of %g m does not fit an orbit of diameter %g m", d, 2*r)
	}
	return 2 * math.Asin(d/(2*r)), nil
}

// RingSize returns the fewest satellites that, equally spaced on one orbit,
// are no more than theta apart: ceil(2 pi / theta). A spacing that divides
// the circle up to rounding (360/11 degrees for Iridium's 11 per plane)
// counts as exact.
func RingSize(theta float64) int {
	if theta <= 0 {
		panic("orbit: bug: RingSize of a non-positive angle")
	}
	n := 2 * math.Pi / theta
	return int(math.Ceil(n - 1e-9*n))
}

// RingSatellites returns the fewest satellites that, equally spaced on the
// orbit at altitude h, have each neighbour no more than d away: RingSize of
// the central angle of a chord d. It is 2 when d spans the diameter.
func RingSatellites(h, d float64) (int, error) {
	if d <= 0 {
		return 0, fmt.Errorf("orbit: a ring needs a positive neighbour distance, not %g m", d)
	}
	theta, err := Separation(h, math.Min(d, 2*Radius(h)))
	if err != nil {
		return 0, err
	}
	return RingSize(theta), nil
}
