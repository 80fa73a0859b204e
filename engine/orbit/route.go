package orbit

import (
	"fmt"
	"math"
)

// GroundRule says which satellites a ground station may use.
type GroundRule struct {
	// MaxRange, when positive, admits every satellite no farther than it
	// (Hypatia's rule, Shell.MaxGroundRange with a cone radius).
	MaxRange float64
	// MinElevation is used when MaxRange is 0: satellites at or above this
	// elevation over the station's local vertical, rad.
	MinElevation float64
}

// Rule returns the ground rule of shell s: Hypatia's range limit when the
// shell has a cone radius and useCone is set, else the true elevation.
func (s Shell) Rule(useCone bool) GroundRule {
	if useCone && s.ConeRadius > 0 {
		return GroundRule{MaxRange: s.MaxGroundRange()}
	}
	return GroundRule{MinElevation: s.MinElevation}
}

// admits reports whether a station at g (vertical up) may use a satellite
// at sat, d metres away.
func (r GroundRule) admits(g, up, sat Vec, d float64) bool {
	if r.MaxRange > 0 {
		return d <= r.MaxRange
	}
	return sat.Sub(g).Dot(up) >= d*math.Sin(r.MinElevation)
}

// Path is a route between two ground stations through the constellation:
// up to the first satellite, over inter-satellite links, down from the
// last.
type Path struct {
	Sats []int     // satellites in order from the source station
	ISLs []int     // index into Router.ISLs of each inter-satellite hop
	Hops []float64 // hop lengths, m: the up link, each ISL, the down link
	// Length is the sum of Hops, m.
	Length float64
}

// Same reports whether p and q visit the same satellites.
func (p *Path) Same(q *Path) bool {
	if len(p.Sats) != len(q.Sats) {
		return false
	}
	for i, s := range p.Sats {
		if q.Sats[i] != s {
			return false
		}
	}
	return true
}

// CopyFrom makes p a copy of q, reusing p's slices.
func (p *Path) CopyFrom(q *Path) {
	p.Sats = append(p.Sats[:0], q.Sats...)
	p.ISLs = append(p.ISLs[:0], q.ISLs...)
	p.Hops = append(p.Hops[:0], q.Hops...)
	p.Length = q.Length
}

// Router finds the shortest path by propagation delay (equivalently, by
// length) between two ground stations over a constellation's +Grid ISLs,
// recomputed from the geometry at each time asked. Paths go station,
// satellites, station: no ground relays, as Hypatia's
// algorithm_free_one_only_over_isls. A Router reuses its buffers and is
// not safe for concurrent use.
type Router struct {
	c        *Constellation
	isls     [][2]int
	off      []int32 // adjacency (CSR): neighbours of sat i are nbr[off[i]:off[i+1]]
	nbr      []int32
	edge     []int32 // ISL index of each adjacency entry
	rule     GroundRule
	src, dst Vec
	srcUp    Vec
	dstUp    Vec
	f32      bool // link lengths measured as satgenpy does through PyEphem

	pos    []Vec
	islLen []float64
	downTo []float64 // per satellite: length of the link to dst, or -1
	dist   []float64
	prev   []int32 // previous satellite, -1 from the source station
	prevE  []int32 // ISL index used to reach it
	done   []bool
	heap   distHeap
}

// NewRouter returns a router between stations a and b on earth e.
func NewRouter(c *Constellation, e Earth, a, b Station, rule GroundRule) (*Router, error) {
	if rule.MaxRange <= 0 && (rule.MinElevation < 0 || rule.MinElevation >= math.Pi/2) {
		return nil, fmt.Errorf("orbit: minimum elevation %g rad outside [0, pi/2)", rule.MinElevation)
	}
	n := c.Len()
	r := &Router{c: c, isls: c.GridISLs(), rule: rule,
		src: e.Position(a), dst: e.Position(b), srcUp: e.Up(a), dstUp: e.Up(b), f32: e.libastro,
		downTo: make([]float64, n), dist: make([]float64, n+1), prev: make([]int32, n+1),
		prevE: make([]int32, n+1), done: make([]bool, n+1)}
	deg := make([]int32, n+1)
	for _, l := range r.isls {
		deg[l[0]+1]++
		deg[l[1]+1]++
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	r.off = deg
	r.nbr = make([]int32, 2*len(r.isls))
	r.edge = make([]int32, 2*len(r.isls))
	fill := append([]int32(nil), deg[:n]...)
	for k, l := range r.isls {
		a, b := l[0], l[1]
		r.nbr[fill[a]], r.edge[fill[a]] = int32(b), int32(k)
		fill[a]++
		r.nbr[fill[b]], r.edge[fill[b]] = int32(a), int32(k)
		fill[b]++
	}
	r.islLen = make([]float64, len(r.isls))
	return r, nil
}

// ISLs returns the router's inter-satellite links (Constellation.GridISLs).
func (r *Router) ISLs() [][2]int { return r.isls }

// ISLLength returns the length of ISL k at the time of the last Route.
func (r *Router) ISLLength(k int) float64 { return r.islLen[k] }

// Positions returns the satellite positions of the last Route.
func (r *Router) Positions() []Vec { return r.pos }

// ground returns the length of the link between a satellite at s and a
// station at g. On the PyEphem surface it is rounded to a float32, as
// libastro stores a range (earthsat.c: s_range = (float)(Range*1000)),
// which is what Hypatia compares with its range limit.
func (r *Router) ground(s, g Vec) float64 {
	d := Dist(s, g)
	if r.f32 {
		return float64(float32(d))
	}
	return d
}

// Route computes the geometry at time t (s) and the shortest path from the
// first station to the second into p. It reports false, leaving p empty,
// when no path exists (a station sees no satellite).
//
// Dijkstra's algorithm over the satellites, started from every satellite
// the source sees (at the length of its up link) and ended when the
// destination station, reached from every satellite it sees, is the
// nearest unsettled node.
func (r *Router) Route(t float64, p *Path) bool {
	r.pos = r.c.Positions(t, r.pos)
	n := len(r.pos)
	for k, l := range r.isls {
		if r.f32 {
			r.islLen[k] = pyephemISL(r.pos[l[0]], r.pos[l[1]])
			continue
		}
		r.islLen[k] = Dist(r.pos[l[0]], r.pos[l[1]])
	}
	inf := math.Inf(1)
	for i := range r.dist {
		r.dist[i], r.prev[i], r.prevE[i], r.done[i] = inf, -1, -1, false
	}
	r.heap = r.heap[:0]
	for i, s := range r.pos {
		r.downTo[i] = -1
		if d := r.ground(s, r.dst); r.rule.admits(r.dst, r.dstUp, s, d) {
			r.downTo[i] = d
		}
		if d := r.ground(s, r.src); r.rule.admits(r.src, r.srcUp, s, d) {
			r.dist[i] = d
			r.heap.push(d, int32(i))
		}
	}
	dst := int32(n)
	for len(r.heap) > 0 {
		d, u := r.heap.pop()
		if r.done[u] || d > r.dist[u] {
			continue
		}
		r.done[u] = true
		if u == dst {
			break
		}
		if down := r.downTo[u]; down >= 0 && d+down < r.dist[dst] {
			r.dist[dst], r.prev[dst] = d+down, u
			r.heap.push(d+down, dst)
		}
		for k := r.off[u]; k < r.off[u+1]; k++ {
			v, e := r.nbr[k], r.edge[k]
			if nd := d + r.islLen[e]; nd < r.dist[v] {
				r.dist[v], r.prev[v], r.prevE[v] = nd, u, e
				r.heap.push(nd, v)
			}
		}
	}
	p.Sats, p.ISLs, p.Hops, p.Length = p.Sats[:0], p.ISLs[:0], p.Hops[:0], 0
	if math.IsInf(r.dist[dst], 1) {
		return false
	}
	// Walk back from the destination, then reverse.
	last := r.prev[dst]
	p.Hops = append(p.Hops, r.downTo[last])
	for u := last; u >= 0; u = r.prev[u] {
		p.Sats = append(p.Sats, int(u))
		if e := r.prevE[u]; e >= 0 {
			p.ISLs = append(p.ISLs, int(e))
			p.Hops = append(p.Hops, r.islLen[e])
		} else {
			p.Hops = append(p.Hops, r.dist[u]) // the up link
		}
	}
	reverseInts(p.Sats)
	reverseInts(p.ISLs)
	for i, j := 0, len(p.Hops)-1; i < j; i, j = i+1, j-1 {
		p.Hops[i], p.Hops[j] = p.Hops[j], p.Hops[i]
	}
	p.Length = r.dist[dst]
	return true
}

func reverseInts(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// distHeap is a binary min-heap of (distance, node) with lazy deletion:
// a node may be pushed again with a smaller distance, and stale entries
// are skipped when popped.
type distHeap []heapItem

type heapItem struct {
	d float64
	n int32
}

func (h *distHeap) push(d float64, n int32) {
	*h = append(*h, heapItem{d, n})
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *distHeap) pop() (float64, int32) {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top.d, top.n
}

// less orders by distance, then by node number, so that ties resolve the
// same way on every run.
func (a heapItem) less(b heapItem) bool {
	return a.d < b.d || (a.d == b.d && a.n < b.n)
}
