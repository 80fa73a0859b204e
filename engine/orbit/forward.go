package orbit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// RouteMode is the routing algorithm of a Forwarding.
type RouteMode int

const (
	// OverISLs is Hypatia's free_one_only_over_isls (satgenpy,
	// fstate_calculation.calculate_fstate_shortest_path_without_gs_relaying,
	// which algorithm_free_gs_one_sat_many_only_over_isls shares): every
	// path is station, satellites over inter-satellite links, station; a
	// station is never a relay.
	OverISLs RouteMode = iota
	// GroundRelays is satgenpy's calculate_fstate_shortest_path_with_gs_relaying,
	// the routing of algorithm_free_one_only_gs_relays: shortest paths
	// over one graph of satellites and stations, so that a path may go
	// down to a station and up again. Satgenpy runs it only without
	// inter-satellite links; here the links stay in the graph if the
	// fleet has them.
	GroundRelays
)

func (m RouteMode) String() string {
	switch m {
	case OverISLs:
		return "over-isls"
	case GroundRelays:
		return "ground-relays"
	}
	return fmt.Sprintf("RouteMode(%d)", int(m))
}

// Outage takes a satellite or an inter-satellite link down during
// [From, To) seconds of fleet time. A satellite that is down has no
// links at all.
type Outage struct {
	From, To float64
	// Sat is the fleet number of the satellite, or -1 for a link.
	Sat int
	// Link names the inter-satellite link by its two satellites (either
	// order) when Sat is -1.
	Link [2]int
}

// Forwarding is the forwarding state of a whole fleet toward every ground
// station, recomputed at each step: for each node (satellites 0..N-1,
// then stations N..N+G-1, as satgenpy numbers them) and each destination
// station, the next node, and the length of the shortest path.
//
// Over ISLs (satgenpy's free_one_only_over_isls), a satellite's path to
// station d descends through the satellite b of d's view that minimises
// (shortest ISL path to b) + (b's ground link); satgenpy finds it with a
// Floyd-Warshall over the satellites (N^3 per step), here one Dijkstra
// pass per destination started from every satellite d sees at the length
// of its ground link (a multi-source pass; with Dial's buckets, about N
// per destination). The next hop of a satellite is the first neighbour,
// in the order of the fleet's ISL list as satgenpy's networkx graph holds
// them, with the least (link + neighbour's distance) among the neighbours
// that descend through the same satellite; a source station takes the
// satellite it sees with the least (ground link + that satellite's
// distance), the lower satellite number on a tie, as satgenpy sorts
// (distance, satellite) pairs. Two paths of the same length to the last
// bit descend through the lower-numbered satellite (a tie rule in the
// relaxation), as satgenpy's sort does; satgenpy adds the same lengths in
// another order, so a tie at the last bit could still resolve apart (at
// the 26 steps compared, TestHypatiaForwarding, none did).
//
// With GroundRelays the graph holds satellites and stations; one
// Dijkstra pass from each destination station, then every node's next
// hop is its first neighbour (satellites: ISLs in list order, then
// stations ascending; stations: satellites ascending) with the least
// (link + neighbour's distance), as satgenpy's
// calculate_fstate_shortest_path_with_gs_relaying scans them.
//
// A Forwarding allocates nothing per step once its buffers have grown to
// the largest number of ground links seen. It is not safe for concurrent
// use.
type Forwarding struct {
	fleet    *Fleet
	mode     RouteMode
	n, g     int // satellites, stations
	stations []Vec
	ups      []Vec
	f32      bool
	outages  []outage

	isls []([2]int)
	off  []int32 // ISL adjacency (CSR) in ISL-list order
	nbr  []int32
	edge []int32
	// adjLen[k] is islLen[edge[k]], laid out as nbr is: set once a step,
	// read by every destination's search without the indirection.
	adjLen []float64
	nIf    []int32 // ISLs per satellite (satgenpy's num_isls_per_sat)
	ifOf   []int32 // per adjacency entry: satgenpy's interface number

	pos     []Vec
	islLen  []float64 // +Inf when down
	satDown []bool
	islDown []bool

	// Ground links at the step: station s sees gSat[gOff[s]:gOff[s+1]]
	// at lengths gLen, satellites ascending; satellite k sees stations
	// sGS[sOff[k]:sOff[k+1]] ascending.
	gOff, sOff []int32
	gSat, sGS  []int32
	gLen, sLen []float64
	cnt        []int32

	dist []float64 // [d*(n+g)+node]
	next []int32   // [d*(n+g)+node]
	root []int32   // scratch: descent satellite of each node's path
	done []bool
	heap *indexHeap
	dial dialQueue
	// minEdge is the shortest link of the step, the bucket width of the
	// Dial queue; under dialMinEdge (or with forceHeap) the heap is used.
	minEdge   float64
	forceHeap bool
	maxR2     []float64 // per satellite: its rule's range limit squared, or +Inf
	// band is the half-width, m, of the slab of z a station's
	// satellites lie in: over the largest range limit, or +Inf when a
	// satellite has none; byZ the satellites in order of z at the step,
	// zs their z, cand a station's candidates.
	band float64
	byZ  []int32
	zs   []float64
	cand []int32
	t    float64
}

type outage struct {
	from, to float64
	sat, isl int // one of them -1
}

// ForwardingBytes estimates the memory of a Forwarding's tables for n
// satellites, g stations and l inter-satellite links: a distance (8
// bytes) and a next hop (4) for every (node, station) pair, the
// adjacency (12 bytes per link end) and per-node scratch. It is what
// NewForwarding refuses above MaxForwardingBytes.
func ForwardingBytes(n, g, l int) int64 {
	nodes := int64(n) + int64(g)
	return nodes*int64(g)*12 + int64(l)*2*12 + nodes*64
}

// MaxForwardingBytes is the largest forwarding state NewForwarding
// builds, 4 GiB: beyond it a scenario would not fit beside the others of
// a sweep on a workstation.
const MaxForwardingBytes = 4 << 30

// NewForwarding prepares the forwarding state of fleet f toward stations
// on earth e. On the PyEphem surface (with Motion.PyEphem) ground ranges
// are float32 and ISL lengths those satgenpy measures, as Router does.
func NewForwarding(f *Fleet, e Earth, stations []Station, mode RouteMode, outages []Outage) (*Forwarding, error) {
	if len(stations) == 0 {
		return nil, fmt.Errorf("orbit: forwarding needs at least one ground station")
	}
	if mode != OverISLs && mode != GroundRelays {
		return nil, fmt.Errorf("orbit: unknown route mode %d", int(mode))
	}
	n, g := f.Len(), len(stations)
	if b := ForwardingBytes(n, g, len(f.ISLs())); b > MaxForwardingBytes {
		return nil, fmt.Errorf("orbit: the forwarding state of %d satellites toward %d stations needs about %.1f GiB, more than the %d GiB allowed: use fewer stations or satellites",
			n, g, float64(b)/(1<<30), MaxForwardingBytes>>30)
	}
	r := &Forwarding{fleet: f, mode: mode, n: n, g: g, f32: e.libastro && f.f32, isls: f.ISLs()}
	for _, s := range stations {
		r.stations = append(r.stations, e.Position(s))
		r.ups = append(r.ups, e.Up(s))
	}
	index := make(map[[2]int]int, len(r.isls))
	for k, l := range r.isls {
		index[l] = k
	}
	for i, o := range outages {
		if !(o.To > o.From) {
			return nil, fmt.Errorf("orbit: outage %d: interval [%g, %g) s is empty", i, o.From, o.To)
		}
		if o.Sat >= 0 {
			if o.Sat >= n {
				return nil, fmt.Errorf("orbit: outage %d: satellite %d, the fleet has 0..%d", i, o.Sat, n-1)
			}
			r.outages = append(r.outages, outage{o.From, o.To, o.Sat, -1})
			continue
		}
		k, ok := index[[2]int{min(o.Link[0], o.Link[1]), max(o.Link[0], o.Link[1])}]
		if !ok {
			return nil, fmt.Errorf("orbit: outage %d: satellites %d and %d have no inter-satellite link", i, o.Link[0], o.Link[1])
		}
		r.outages = append(r.outages, outage{o.From, o.To, -1, k})
	}
	// Adjacency in ISL-list order: networkx keeps a node's neighbours in
	// the order its edges were added, which is the order satgenpy's
	// next-hop loop visits them, and a satellite's interface number is
	// the count of its links listed before (satgenpy's sat_neighbor_to_if).
	r.nIf = make([]int32, n)
	for _, l := range r.isls {
		r.nIf[l[0]]++
		r.nIf[l[1]]++
	}
	r.off = make([]int32, n+1)
	for i := 0; i < n; i++ {
		r.off[i+1] = r.off[i] + r.nIf[i]
	}
	r.nbr = make([]int32, 2*len(r.isls))
	r.edge = make([]int32, 2*len(r.isls))
	r.adjLen = make([]float64, 2*len(r.isls))
	r.ifOf = make([]int32, 2*len(r.isls))
	fill := append([]int32(nil), r.off[:n]...)
	for k, l := range r.isls {
		a, b := l[0], l[1]
		r.nbr[fill[a]], r.edge[fill[a]] = int32(b), int32(k)
		r.ifOf[fill[a]] = fill[a] - r.off[a]
		fill[a]++
		r.nbr[fill[b]], r.edge[fill[b]] = int32(a), int32(k)
		r.ifOf[fill[b]] = fill[b] - r.off[b]
		fill[b]++
	}
	r.islLen = make([]float64, len(r.isls))
	r.islDown = make([]bool, len(r.isls))
	r.satDown = make([]bool, n)
	r.gOff = make([]int32, g+1)
	// Room for 32 ground links per station, more than a preset shell
	// gives (Starlink S1 under 20 at 25 deg); more grows the buffers.
	r.gSat, r.gLen = make([]int32, 0, 32*g), make([]float64, 0, 32*g)
	r.sOff = make([]int32, n+1)
	r.cnt = make([]int32, n)
	r.dist = make([]float64, g*(n+g))
	r.next = make([]int32, g*(n+g))
	r.root = make([]int32, n+g)
	r.done = make([]bool, n+g)
	r.heap = newIndexHeap(n + g)
	r.maxR2 = make([]float64, n)
	for k := range r.maxR2 {
		r.maxR2[k] = math.Inf(1)
		if m := f.Rule(k).MaxRange; m > 0 {
			// A little over the limit: the exact test below decides.
			r.maxR2[k] = m * m * (1 + 1e-9)
		}
	}
	// A satellite farther in z alone than every range limit is out of
	// every station's range: d^2 = dx^2 + dy^2 + dz^2 >= dz^2 in floating
	// point too (a sum of non-negative terms rounds no lower than any of
	// them), so the slab, a little wider than the limit, keeps every
	// satellite the exact test below could admit.
	r.band = 0
	for _, m2 := range r.maxR2 {
		r.band = math.Max(r.band, m2)
	}
	r.band = math.Sqrt(r.band)*(1+1e-9) + 1
	r.byZ = make([]int32, n)
	r.zs = make([]float64, n)
	return r, nil
}

// Time returns the fleet time, s, of the last step.
func (r *Forwarding) Time() float64 { return r.t }

// Nodes returns the number of nodes: satellites, then stations.
func (r *Forwarding) Nodes() int { return r.n + r.g }

// Satellites returns the number of satellites.
func (r *Forwarding) Satellites() int { return r.n }

// Stations returns the number of stations.
func (r *Forwarding) Stations() int { return r.g }

// NextHop returns the node to which node forwards a packet for station
// dst (0..G-1) at the last step, or -1 if it has no path (or node is that
// station).
func (r *Forwarding) NextHop(node, dst int) int { return int(r.next[dst*(r.n+r.g)+node]) }

// Dist returns the length, m, of node's shortest path to station dst at
// the last step (+Inf without one). Over ISLs a station's distance to
// another station is its path's; a station's distance to itself is 0.
func (r *Forwarding) Dist(node, dst int) float64 { return r.dist[dst*(r.n+r.g)+node] }

// Path appends to dst the nodes of the path from node src to station dst
// at the last step, following the next hops (src first, the station
// last), and returns it; it returns dst unchanged if src has no path.
// The walk is bounded by the number of nodes, so a broken table cannot
// loop forever (it panics then, as a bug).
func (r *Forwarding) Path(src, dstStation int, dst []int) []int {
	if r.NextHop(src, dstStation) < 0 {
		return dst
	}
	end := r.n + dstStation
	at := src
	for hops := 0; ; hops++ {
		if hops > r.n+r.g {
			panic("orbit: bug: forwarding loop")
		}
		dst = append(dst, at)
		if at == end {
			return dst
		}
		at = r.NextHop(at, dstStation)
	}
}

// Positions returns the satellites' positions of the last step.
func (r *Forwarding) Positions() []Vec { return r.pos }

// ISLs returns the inter-satellite links.
func (r *Forwarding) ISLs() [][2]int { return r.isls }

// ISLLength returns ISL k's length at the last step, +Inf while it is
// down.
func (r *Forwarding) ISLLength(k int) float64 { return r.islLen[k] }

// SatDown reports whether satellite k was down at the last step.
func (r *Forwarding) SatDown(k int) bool { return r.satDown[k] }

// GroundLinks returns the satellites station s saw at the last step,
// ascending, and the link lengths (m); both alias the Forwarding's
// buffers until the next step.
func (r *Forwarding) GroundLinks(s int) ([]int32, []float64) {
	a, b := r.gOff[s], r.gOff[s+1]
	return r.gSat[a:b], r.gLen[a:b]
}

// Interfaces returns satgenpy's interface numbers of a next hop (for
// fstate files): the sending node's outgoing interface and the next
// node's incoming one. Satellite interfaces number the ISLs in list
// order, then the one ground interface; a station has one interface, 0.
// It returns -1, -1 without a next hop.
func (r *Forwarding) Interfaces(node, nextHop int) (int, int) {
	switch {
	case nextHop < 0:
		return -1, -1
	case node >= r.n: // station up to a satellite
		return 0, int(r.nIf[nextHop])
	case nextHop >= r.n: // satellite down to a station
		return int(r.nIf[node]), 0
	}
	my, their := -1, -1
	for k := r.off[node]; k < r.off[node+1]; k++ {
		if int(r.nbr[k]) == nextHop {
			my = int(r.ifOf[k])
		}
	}
	for k := r.off[nextHop]; k < r.off[nextHop+1]; k++ {
		if int(r.nbr[k]) == node {
			their = int(r.ifOf[k])
		}
	}
	return my, their
}

// Step computes the geometry at fleet time t (s), applies the outages of
// that instant and computes the forwarding state toward every station.
func (r *Forwarding) Step(t float64) {
	r.t = t
	r.pos = r.fleet.Positions(t, r.pos)
	for i := range r.satDown {
		r.satDown[i] = false
	}
	for i := range r.islDown {
		r.islDown[i] = false
	}
	for _, o := range r.outages {
		if t >= o.from && t < o.to {
			if o.sat >= 0 {
				r.satDown[o.sat] = true
			} else {
				r.islDown[o.isl] = true
			}
		}
	}
	inf := math.Inf(1)
	for k, l := range r.isls {
		if r.islDown[k] || r.satDown[l[0]] || r.satDown[l[1]] {
			r.islLen[k] = inf
			continue
		}
		if r.f32 {
			r.islLen[k] = pyephemISL(r.pos[l[0]], r.pos[l[1]])
		} else {
			r.islLen[k] = Dist(r.pos[l[0]], r.pos[l[1]])
		}
	}
	for k, e := range r.edge {
		r.adjLen[k] = r.islLen[e]
	}
	r.groundLinks()
	r.minEdge = math.Inf(1)
	for _, l := range r.islLen {
		r.minEdge = math.Min(r.minEdge, l)
	}
	if r.mode == GroundRelays {
		for _, l := range r.gLen {
			r.minEdge = math.Min(r.minEdge, l)
		}
	}
	for d := 0; d < r.g; d++ {
		switch r.mode {
		case OverISLs:
			r.overISLs(d)
		case GroundRelays:
			r.withRelays(d)
		}
	}
}

// groundLinks lists, for every station, the satellites its rule admits,
// and the transpose for every satellite.
func (r *Forwarding) groundLinks() {
	r.gSat, r.gLen = r.gSat[:0], r.gLen[:0]
	slab := !math.IsInf(r.band, 1)
	if slab {
		// The satellites in order of z, to find each station's slab by
		// bisection rather than test all of them.
		for k := range r.byZ {
			r.byZ[k] = int32(k)
		}
		slices.SortFunc(r.byZ, func(a, b int32) int { return cmp.Compare(r.pos[a][2], r.pos[b][2]) })
		for i, k := range r.byZ {
			r.zs[i] = r.pos[k][2]
			if math.IsNaN(r.zs[i]) {
				slab = false // no order to bisect: test them all
			}
		}
	}
	for s, gp := range r.stations {
		r.gOff[s] = int32(len(r.gSat))
		up := r.ups[s]
		cand := r.cand[:0]
		if slab {
			lo, _ := slices.BinarySearch(r.zs, gp[2]-r.band)
			for i := lo; i < len(r.zs) && r.zs[i] <= gp[2]+r.band; i++ {
				cand = append(cand, r.byZ[i])
			}
			// In ascending satellite number, as the list is kept.
			slices.Sort(cand)
		} else {
			for k := range r.pos {
				cand = append(cand, int32(k))
			}
		}
		r.cand = cand
		for _, k32 := range cand {
			k := int(k32)
			p := r.pos[k]
			if r.satDown[k] {
				continue
			}
			// Cheap rejection first, by the squared range for a range
			// limit. (Not by the horizon: Hypatia's limit admits
			// satellites below it where the cone is wide, as Telesat
			// T1's 5,845 km at 1,015 km altitude, whose horizon is
			// 3,740 km away.)
			v := p.Sub(gp)
			d2 := v.Dot(v)
			if d2 > r.maxR2[k] {
				continue
			}
			d := math.Sqrt(d2)
			if r.f32 {
				// libastro stores a range as a float (earthsat.c:
				// s_range), which Hypatia compares with its limit.
				d = float64(float32(d))
			}
			if r.fleet.Rule(k).admits(gp, up, p, d) {
				r.gSat = append(r.gSat, int32(k))
				r.gLen = append(r.gLen, d)
			}
		}
	}
	r.gOff[r.g] = int32(len(r.gSat))
	if r.mode != GroundRelays {
		return
	}
	// Transpose: per satellite, the stations that see it, ascending.
	for k := range r.cnt {
		r.cnt[k] = 0
	}
	for _, k := range r.gSat {
		r.cnt[k]++
	}
	r.sOff[0] = 0
	for k := 0; k < r.n; k++ {
		r.sOff[k+1] = r.sOff[k] + r.cnt[k]
		r.cnt[k] = r.sOff[k]
	}
	m := len(r.gSat)
	if cap(r.sGS) < m {
		r.sGS = make([]int32, m, cap(r.gSat))
		r.sLen = make([]float64, m, cap(r.gSat))
	}
	r.sGS, r.sLen = r.sGS[:m], r.sLen[:m]
	for s := 0; s < r.g; s++ {
		for i := r.gOff[s]; i < r.gOff[s+1]; i++ {
			k := r.gSat[i]
			r.sGS[r.cnt[k]], r.sLen[r.cnt[k]] = int32(s), r.gLen[i]
			r.cnt[k]++
		}
	}
}

// dialMinEdge is the shortest edge for which the Dial queue is used: with
// paths of up to some 1e8 m (two and a half times round the Earth at
// 1,000 km) it keeps the buckets under 1e5.
const dialMinEdge = 1e3 // m

// The Dijkstra passes take their queue through start, push and settle: the
// Dial queue when every link of the step is at least dialMinEdge long
// (+Grid ISLs of the presets are 700 km or more, ground links 550 km or
// more), the heap otherwise. Both give the same distances; ties are
// resolved by the rules of the passes, not by the queue's order.
func (r *Forwarding) useDial() bool {
	return !r.forceHeap && r.minEdge >= dialMinEdge && !math.IsInf(r.minEdge, 1)
}

func (r *Forwarding) start() {
	if r.useDial() {
		r.dial.reset(r.minEdge)
	}
}

func (r *Forwarding) push(v int32, k float64) {
	if r.useDial() {
		r.dial.push(v, k)
		return
	}
	r.heap.set(v, k)
}

// settle returns the next node to settle, skipping the Dial queue's stale
// entries, or false when every reachable node is settled.
func (r *Forwarding) settle() (int32, bool) {
	if !r.useDial() {
		if r.heap.empty() {
			return 0, false
		}
		return r.heap.pop(), true
	}
	for {
		u, ok := r.dial.pop()
		if !ok || !r.done[u] {
			return u, ok
		}
	}
}

// overISLs computes the state toward station d without ground relays.
func (r *Forwarding) overISLs(d int) {
	N := r.n + r.g
	dist := r.dist[d*N : (d+1)*N]
	next := r.next[d*N : (d+1)*N]
	inf := math.Inf(1)
	for i := range dist {
		dist[i], next[i] = inf, -1
	}
	for i := 0; i < r.n; i++ {
		r.root[i], r.done[i] = -1, false
	}
	r.start()
	// Every satellite d sees starts at its ground link's length.
	for i := r.gOff[d]; i < r.gOff[d+1]; i++ {
		k := r.gSat[i]
		dist[k], r.root[k] = r.gLen[i], k
		r.push(k, r.gLen[i])
	}
	for {
		u, ok := r.settle()
		if !ok {
			break
		}
		du := dist[u]
		r.done[u] = true
		for k := r.off[u]; k < r.off[u+1]; k++ {
			v := r.nbr[k]
			if r.done[v] {
				continue
			}
			nd := du + r.adjLen[k]
			// On an exact tie keep the lower descent satellite, as
			// satgenpy's sorted (distance, satellite) candidates do.
			if nd < dist[v] {
				dist[v], r.root[v] = nd, r.root[u]
				r.push(v, nd)
			} else if nd == dist[v] && r.root[u] < r.root[v] {
				r.root[v] = r.root[u]
			}
		}
	}
	// Next hops of the satellites.
	for u := 0; u < r.n; u++ {
		if math.IsInf(dist[u], 1) {
			continue
		}
		if r.root[u] == int32(u) {
			next[u] = int32(r.n + d)
			continue
		}
		best, hop := math.Inf(1), int32(-1)
		for k := r.off[u]; k < r.off[u+1]; k++ {
			v := r.nbr[k]
			if r.root[v] != r.root[u] {
				continue
			}
			if x := r.adjLen[k] + dist[v]; x < best {
				best, hop = x, v
			}
		}
		next[u] = hop
	}
	// Stations: up to the satellite with the least total, the lower
	// number on a tie (the links are listed in ascending order).
	for s := 0; s < r.g; s++ {
		if s == d {
			dist[r.n+s] = 0
			continue
		}
		best, hop := math.Inf(1), int32(-1)
		for i := r.gOff[s]; i < r.gOff[s+1]; i++ {
			k := r.gSat[i]
			if x := r.gLen[i] + dist[k]; x < best {
				best, hop = x, k
			}
		}
		dist[r.n+s], next[r.n+s] = best, hop
	}
}

// withRelays computes the state toward station d over the graph of
// satellites and stations: Dijkstra from d, then every node's next hop is
// its first neighbour with the least (link + neighbour's distance), the
// neighbours in satgenpy's order (a satellite's ISLs in list order, then
// the stations that see it, ascending; a station's satellites,
// ascending).
func (r *Forwarding) withRelays(d int) {
	N := r.n + r.g
	dist := r.dist[d*N : (d+1)*N]
	next := r.next[d*N : (d+1)*N]
	inf := math.Inf(1)
	for i := range dist {
		dist[i], next[i], r.done[i] = inf, -1, false
	}
	r.start()
	src := int32(r.n + d)
	dist[src] = 0
	r.push(src, 0)
	relax := func(v int32, nd float64) {
		if !r.done[v] && nd < dist[v] {
			dist[v] = nd
			r.push(v, nd)
		}
	}
	for {
		u, ok := r.settle()
		if !ok {
			break
		}
		du := dist[u]
		r.done[u] = true
		if int(u) >= r.n {
			s := int(u) - r.n
			for i := r.gOff[s]; i < r.gOff[s+1]; i++ {
				relax(r.gSat[i], du+r.gLen[i])
			}
			continue
		}
		for k := r.off[u]; k < r.off[u+1]; k++ {
			relax(r.nbr[k], du+r.adjLen[k])
		}
		for i := r.sOff[u]; i < r.sOff[u+1]; i++ {
			relax(int32(r.n)+r.sGS[i], du+r.sLen[i])
		}
	}
	for u := 0; u < N; u++ {
		if int32(u) == src || math.IsInf(dist[u], 1) {
			continue
		}
		best, hop := math.Inf(1), int32(-1)
		try := func(v int32, w float64) {
			if x := w + dist[v]; !math.IsInf(dist[v], 1) && x < best {
				best, hop = x, v
			}
		}
		if u >= r.n {
			s := u - r.n
			for i := r.gOff[s]; i < r.gOff[s+1]; i++ {
				try(r.gSat[i], r.gLen[i])
			}
		} else {
			for k := r.off[u]; k < r.off[u+1]; k++ {
				try(r.nbr[k], r.adjLen[k])
			}
			for i := r.sOff[u]; i < r.sOff[u+1]; i++ {
				try(int32(r.n)+r.sGS[i], r.sLen[i])
			}
		}
		next[u] = hop
	}
}
