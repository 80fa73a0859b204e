package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// FlowSizes is a distribution of flow sizes in bytes.
type FlowSizes interface {
	// Sample draws one size (at least 1 byte) from r.
	Sample(r *rand.Rand) unit.Bytes
	// Mean is the distribution's mean in bytes.
	Mean() float64
	// CDF is P(size <= x).
	CDF(x float64) float64
}

// BoundedPareto is the Pareto distribution truncated to [Min, Max] with
// shape Alpha: P(X <= x) = (1 - (Min/x)^Alpha) / (1 - (Min/Max)^Alpha).
// Web and Internet transfer sizes have Pareto tails with Alpha between
// about 1 and 1.3 (Crovella and Bestavros, "Self-similarity in World Wide
// Web traffic", IEEE/ACM ToN 5(6), 1997); truncating at Max keeps the mean
// finite and a closed-loop channel from being stuck on one flow for the
// whole run.
type BoundedPareto struct {
	Alpha    float64
	Min, Max float64 // bytes
}

// Validate reports a malformed distribution.
func (b BoundedPareto) Validate() error {
	if !(b.Alpha > 0) || !(b.Min >= 1) || !(b.Max > b.Min) || math.IsInf(b.Max, 0) {
		return fmt.Errorf("workload: bounded pareto needs alpha > 0 and 1 <= min < max, got %g, %g, %g", b.Alpha, b.Min, b.Max)
	}
	return nil
}

// CDF implements FlowSizes.
func (b BoundedPareto) CDF(x float64) float64 {
	switch {
	case x < b.Min:
		return 0
	case x >= b.Max:
		return 1
	}
	return (1 - math.Pow(b.Min/x, b.Alpha)) / (1 - math.Pow(b.Min/b.Max, b.Alpha))
}

// Mean implements FlowSizes: for Alpha != 1,
// Alpha Min/(Alpha-1) (1 - (Min/Max)^(Alpha-1)) / (1 - (Min/Max)^Alpha);
// for Alpha = 1, Min ln(Max/Min) / (1 - Min/Max).
func (b BoundedPareto) Mean() float64 {
	r := b.Min / b.Max
	if b.Alpha == 1 {
		return b.Min * math.Log(b.Max/b.Min) / (1 - r)
	}
	return b.Alpha * b.Min / (b.Alpha - 1) * (1 - math.Pow(r, b.Alpha-1)) / (1 - math.Pow(r, b.Alpha))
}

// Sample implements FlowSizes by inverting the CDF:
// x = Min (1 - u (1 - (Min/Max)^Alpha))^(-1/Alpha).
func (b BoundedPareto) Sample(r *rand.Rand) unit.Bytes {
	u := r.Float64()
	x := b.Min * math.Pow(1-u*(1-math.Pow(b.Min/b.Max, b.Alpha)), -1/b.Alpha)
	return max(1, unit.Bytes(math.Round(min(x, b.Max))))
}

// Empirical is a flow-size distribution given as a CDF table: P(size <=
// Size[i]) = P[i], with sizes and probabilities increasing and the last
// probability 1. Between two points the size is interpolated linearly in
// the probability (the form of the traffic generators of pFabric and
// Homa, and of ns-3's EmpiricalRandomVariable); below the first point the
// size is Size[0].
type Empirical struct {
	Size []float64
	P    []float64
}

// ParseCDF reads a CDF table written as "size:probability" pairs separated
// by spaces, commas, semicolons or new lines ("1460:0.5 14600:0.9
// 1e7:1"); sizes are bytes. Lines starting with # are comments, so a file
// of one pair per line with a commented source works too.
func ParseCDF(text string) (*Empirical, error) {
	var e Empirical
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' || r == '\r' }) {
			sz, pr, ok := strings.Cut(f, ":")
			if !ok {
				return nil, fmt.Errorf("workload: cdf point %q is not size:probability", f)
			}
			s, err := strconv.ParseFloat(sz, 64)
			if err != nil {
				return nil, fmt.Errorf("workload: cdf point %q: %w", f, err)
			}
			p, err := strconv.ParseFloat(pr, 64)
			if err != nil {
				return nil, fmt.Errorf("workload: cdf point %q: %w", f, err)
			}
			e.Size = append(e.Size, s)
			e.P = append(e.P, p)
		}
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return &e, nil
}

// Validate checks the table.
func (e *Empirical) Validate() error {
	n := len(e.Size)
	if n == 0 || n != len(e.P) {
		return fmt.Errorf("workload: cdf needs at least one point, got %d sizes and %d probabilities", n, len(e.P))
	}
	for i := range n {
		if !(e.Size[i] >= 1) || math.IsInf(e.Size[i], 0) || !(e.P[i] >= 0 && e.P[i] <= 1) {
			return fmt.Errorf("workload: cdf point %d (%g:%g): need size >= 1 and 0 <= p <= 1", i, e.Size[i], e.P[i])
		}
		if i > 0 && (e.Size[i] <= e.Size[i-1] || e.P[i] < e.P[i-1]) {
			return fmt.Errorf("workload: cdf point %d (%g:%g) does not increase", i, e.Size[i], e.P[i])
		}
	}
	if e.P[n-1] != 1 {
		return fmt.Errorf("workload: cdf must end at probability 1, ends at %g", e.P[n-1])
	}
	return nil
}

// quantile is the inverse CDF at u.
func (e *Empirical) quantile(u float64) float64 {
	i := sort.SearchFloat64s(e.P, u) // first P[i] >= u
	if i == 0 {
		return e.Size[0]
	}
	if i >= len(e.P) {
		i = len(e.P) - 1
	}
	p0, p1 := e.P[i-1], e.P[i]
	if p1 == p0 {
		return e.Size[i]
	}
	return e.Size[i-1] + (u-p0)/(p1-p0)*(e.Size[i]-e.Size[i-1])
}

// Sample implements FlowSizes.
func (e *Empirical) Sample(r *rand.Rand) unit.Bytes {
	return max(1, unit.Bytes(math.Round(e.quantile(r.Float64()))))
}

// Mean implements FlowSizes: the point mass at Size[0] plus the mean of
// each linear segment.
func (e *Empirical) Mean() float64 {
	m := e.P[0] * e.Size[0]
	for i := 1; i < len(e.P); i++ {
		m += (e.P[i] - e.P[i-1]) * (e.Size[i] + e.Size[i-1]) / 2
	}
	return m
}

// CDF implements FlowSizes.
func (e *Empirical) CDF(x float64) float64 {
	if x < e.Size[0] {
		return 0
	}
	i := sort.SearchFloat64s(e.Size, x)
	if i >= len(e.Size) {
		return 1
	}
	if e.Size[i] == x {
		return e.P[i]
	}
	s0, s1 := e.Size[i-1], e.Size[i]
	return e.P[i-1] + (x-s0)/(s1-s0)*(e.P[i]-e.P[i-1])
}
