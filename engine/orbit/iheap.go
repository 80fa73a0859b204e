package orbit

// indexHeap is a 4-ary min-heap of nodes keyed by distance, with
// decrease-key: each node is in it at most once, so a Dijkstra pass pops
// every node once instead of skipping stale entries (the lazy distHeap of
// Router pushes a node again on every improvement). Keys are kept beside
// the nodes in the heap's array, so a sift touches one array. Ties in
// distance go to the lower node number, so that the order is the same on
// every run.
type indexHeap struct {
	at   []int32 // per node: its place in item, -1 if absent
	item []heapItem
}

func newIndexHeap(n int) *indexHeap {
	h := &indexHeap{at: make([]int32, n), item: make([]heapItem, 0, n)}
	for i := range h.at {
		h.at[i] = -1
	}
	return h
}

// set inserts node v with key k, or lowers its key to k.
func (h *indexHeap) set(v int32, k float64) {
	i := h.at[v]
	if i < 0 {
		i = int32(len(h.item))
		h.item = append(h.item, heapItem{})
	}
	x := heapItem{k, v}
	for i > 0 {
		p := (i - 1) / 4
		u := h.item[p]
		if !x.less(u) {
			break
		}
		h.item[i], h.at[u.n] = u, i
		i = p
	}
	h.item[i], h.at[v] = x, i
}

// pop removes and returns the node of least key.
func (h *indexHeap) pop() int32 {
	top := h.item[0].n
	h.at[top] = -1
	last := int32(len(h.item) - 1)
	x := h.item[last]
	h.item = h.item[:last]
	if last == 0 {
		return top
	}
	// Sift x down from the root.
	i := int32(0)
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m := c
		end := min(c+4, last)
		for j := c + 1; j < end; j++ {
			if h.item[j].less(h.item[m]) {
				m = j
			}
		}
		if !h.item[m].less(x) {
			break
		}
		h.item[i], h.at[h.item[m].n] = h.item[m], i
		i = m
	}
	h.item[i], h.at[x.n] = x, i
	return top
}

func (h *indexHeap) empty() bool { return len(h.item) == 0 }

// dialQueue is Dial's bucket queue (Dial 1969, "Algorithm 360: shortest
// path forest with topological ordering", CACM 12(11)) for real
// distances: bucket b holds the nodes whose tentative distance lies in
// [b w, (b+1) w), where w is no longer than the shortest edge. A node in
// the lowest non-empty bucket then has its final distance (any path
// through another node of the bucket is at least w longer), so a
// Dijkstra pass pops in O(1) instead of a heap's O(log n). Entries are
// lazy: a node whose distance fell is pushed again and its older entry
// is skipped by the caller (the node is then done).
type dialQueue struct {
	w       float64
	buckets [][]int32
	cur     int // lowest bucket that may hold a node
	at      int // next entry of bucket cur
	top     int // one past the highest bucket used
}

// reset empties the queue for edges no shorter than w.
func (q *dialQueue) reset(w float64) {
	for b := 0; b < q.top; b++ {
		q.buckets[b] = q.buckets[b][:0]
	}
	q.w, q.cur, q.at, q.top = w, 0, 0, 0
}

func (q *dialQueue) push(v int32, k float64) {
	b := int(k / q.w)
	for b >= len(q.buckets) {
		q.buckets = append(q.buckets, make([]int32, 0, 64))
	}
	if b < q.cur {
		// Only rounding at a bucket's edge can place a key below the
		// bucket being emptied; it belongs to the current one.
		b = q.cur
	}
	q.buckets[b] = append(q.buckets[b], v)
	q.top = max(q.top, b+1)
}

// pop returns the next entry, or false when the queue is empty.
func (q *dialQueue) pop() (int32, bool) {
	for q.cur < q.top {
		if q.at < len(q.buckets[q.cur]) {
			v := q.buckets[q.cur][q.at]
			q.at++
			return v, true
		}
		q.cur++
		q.at = 0
	}
	return 0, false
}
