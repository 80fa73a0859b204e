package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// oracle is the scoreboard as RFC 6675 defines it: one flag per byte,
// relative to a base placed just below the 2^32 wrap.
type oracle struct {
	base  seqnum.Value
	una   int
	bytes []bool
}

func (o *oracle) seq(i int) seqnum.Value { return o.base.Add(seqnum.Size(i)) }

// above returns the SACKed bytes and discontiguous ranges above offset i.
func (o *oracle) above(i int) (n, ranges int) {
	for j := i + 1; j < len(o.bytes); j++ {
		if o.bytes[j] {
			n++
			if j == i+1 || !o.bytes[j-1] {
				ranges++
			}
		}
	}
	return n, ranges
}

func (o *oracle) isLost(i, dupThresh, smss int) bool {
	if o.bytes[i] {
		return false
	}
	n, r := o.above(i)
	return r >= dupThresh || n > (dupThresh-1)*smss
}

// checkScoreboard runs a sequence of operations (SACK a range, advance the
// cumulative ACK) on both and compares every query.
func checkScoreboard(t *testing.T, ops []byte) {
	const size, smss, dt = 256, 8, 3
	o := &oracle{base: 0xffffff80, bytes: make([]bool, size)}
	s := NewScoreboard(4)
	for k := 0; k+2 < len(ops); k += 3 {
		a, b := int(ops[k+1])%size, int(ops[k+2])%size
		if ops[k]%4 == 0 {
			if a > o.una {
				o.una = a
				for i := 0; i < a; i++ {
					o.bytes[i] = false
				}
				s.Ack(o.seq(a))
			}
		} else {
			a = max(a, o.una)
			if a > b {
				a, b = b, a
			}
			if a < o.una {
				continue
			}
			want := 0
			for i := a; i < b; i++ {
				if !o.bytes[i] {
					want++
				}
				o.bytes[i] = true
			}
			if got := s.Insert(o.seq(a), o.seq(b)); int(got) != want {
				t.Fatalf("op %d: Insert(%d, %d) = %d new bytes, want %d", k/3, a, b, got, want)
			}
		}
		total, ranges := o.above(o.una - 1)
		if int(s.Sacked()) != total || s.Blocks() != ranges {
			t.Fatalf("op %d: Sacked, Blocks = %d, %d, want %d, %d", k/3, s.Sacked(), s.Blocks(), total, ranges)
		}
		highData := size
		rxt := o.una + int(ops[k+1])%(size-o.una+1)
		wantPipe := 0
		for i := o.una; i < size; i++ {
			if got, want := s.IsSacked(o.seq(i)), o.bytes[i]; got != want {
				t.Fatalf("op %d: IsSacked(%d) = %v, want %v", k/3, i, got, want)
			}
			lost := o.isLost(i, dt, smss)
			if got := s.IsLost(o.seq(i), dt, smss); got != lost {
				t.Fatalf("op %d: IsLost(%d) = %v, want %v", k/3, i, got, lost)
			}
			// RFC 6675 section 4 SetPipe, octet by octet.
			if !o.bytes[i] {
				if !lost {
					wantPipe++
				}
				if i < rxt {
					wantPipe++
				}
			}
		}
		if got := s.Pipe(o.seq(o.una), o.seq(highData), o.seq(rxt), dt, smss); int(got) != wantPipe {
			t.Fatalf("op %d: Pipe(una %d, rxt %d) = %d, want %d", k/3, o.una, rxt, got, wantPipe)
		}
		// SetPipe after a timeout: every unSACKed byte below the
		// timeout's HighData (here lossHigh, from the ops) is lost.
		lossHigh := o.una + int(ops[k+2])%(size-o.una+1)
		wantPipe = 0
		for i := o.una; i < size; i++ {
			if !o.bytes[i] {
				if i >= lossHigh {
					wantPipe++
				}
				if i < rxt {
					wantPipe++
				}
			}
		}
		if got := s.pipe(o.seq(o.una), o.seq(highData), o.seq(rxt), o.seq(lossHigh), true); int(got) != wantPipe {
			t.Fatalf("op %d: pipe(una %d, rxt %d, lost below %d) = %d, want %d", k/3, o.una, rxt, lossHigh, got, wantPipe)
		}
		// SACKed bytes of ranges that begin or end below, inside or
		// above the blocks (sackedBelow answers the outer ends without
		// its prefix sums).
		for _, r := range [][2]int{{o.una, highData}, {o.una, rxt}, {rxt, highData}, {min(a, b), max(a, b)}, {lossHigh, rxt}} {
			want := 0
			for i := r[0]; i < r[1]; i++ {
				if o.bytes[i] {
					want++
				}
			}
			if got := s.sackedIn(o.seq(r[0]), o.seq(r[1])); int(got) != want {
				t.Fatalf("op %d: sackedIn(%d, %d) = %d, want %d", k/3, r[0], r[1], got, want)
			}
		}
		// NextSeg rule (1): first unSACKed, lost byte at or above rxt,
		// below the highest SACKed byte.
		high := -1
		for i := size - 1; i >= 0; i-- {
			if o.bytes[i] {
				high = i + 1
				break
			}
		}
		want := -1
		for i := rxt; i < high; i++ {
			if !o.bytes[i] {
				if o.isLost(i, dt, smss) {
					want = i
				}
				// IsLost is monotone (a lower byte has at least as much
				// SACKed above it), so only the first hole can qualify.
				break
			}
		}
		start, _, ok := s.NextSeg(o.seq(rxt), dt, smss, false)
		if ok != (want >= 0) || ok && start != o.seq(want) {
			t.Fatalf("op %d: NextSeg(rxt %d) = %d, %v, want offset %d", k/3, rxt, int(start-o.base), ok, want)
		}
	}
}

func FuzzScoreboard(f *testing.F) {
	f.Add([]byte{1, 10, 20, 1, 30, 40, 1, 50, 60, 1, 70, 90, 0, 15, 0, 1, 5, 200})
	f.Add([]byte{1, 100, 120, 1, 120, 130, 1, 90, 101, 0, 125, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 300 {
			ops = ops[:300]
		}
		checkScoreboard(t, ops)
	})
}

// A hand-worked case: SMSS 100, segments 0..9 sent, 1, 3, 5 and 6 SACKed.
// IsLost (DupThresh 3): segment 0 has 4 SACKed segments (>2*SMSS) above it;
// 2 has 3 ranges... 5,6 (one range) and 3 above: 2 ranges, 300 bytes > 200,
// lost; 4 has 200 bytes, one range above: not lost.
func TestScoreboardExample(t *testing.T) {
	s := NewScoreboard(4)
	for _, seg := range []seqnum.Value{1, 3, 5, 6} {
		s.Insert(seg*100, seg*100+100)
	}
	for _, tt := range []struct {
		seg  seqnum.Value
		lost bool
	}{{0, true}, {1, false}, {2, true}, {4, false}, {7, false}} {
		if got := s.IsLost(tt.seg*100, 3, 100); got != tt.lost {
			t.Errorf("IsLost(segment %d) = %v, want %v", tt.seg, got, tt.lost)
		}
	}
	// Pipe with nothing retransmitted: segments 4, 7, 8, 9 are neither
	// SACKed nor lost: 400 bytes.
	if got := s.Pipe(0, 1000, 0, 3, 100); got != 400 {
		t.Errorf("Pipe = %d, want 400", got)
	}
	start, end, ok := s.NextSeg(0, 3, 100, false)
	if !ok || start != 0 || end != 100 {
		t.Errorf("NextSeg = [%d, %d) %v, want [0, 100)", start, end, ok)
	}
	start, _, ok = s.NextSeg(100, 3, 100, false)
	if !ok || start != 200 {
		t.Errorf("NextSeg(after 0) = %d %v, want 200", start, ok)
	}
	if _, _, ok = s.NextSeg(300, 3, 100, false); ok {
		t.Errorf("NextSeg(after 2) found a lost segment, want none (4 is not lost)")
	}
	if start, _, ok = s.NextSeg(300, 3, 100, true); !ok || start != 400 {
		t.Errorf("NextSeg rescue (rule 3) = %d %v, want 400", start, ok)
	}
}

// TestSACKRecoveryPipe checks the sender's SetPipe (sackRecovery.pipe,
// whose common case, nothing SACKed outside a timeout's recovery, takes
// a short path) against RFC 6675 section 4's definition counted octet by
// octet over [HighACK, HighData): an octet not SACKed counts once if not
// lost (IsLost, or below the timeout's HighData in a timeout's recovery)
// and once more if retransmitted (below HighRxt+1); the retransmissions
// RACK found lost (relostBytes) are taken off. The sequence space starts
// just below the 2^32 wrap. Exact: both count whole octets.
func TestSACKRecoveryPipe(t *testing.T) {
	const size, smss, dt = 256, 8, 3
	type block struct{ a, b int }
	for _, tc := range []struct {
		name          string
		una, max, rxt int
		sacked        []block
		inLoss        bool
		lossHigh      int
		dupThresh     bool // RFC 6675's IsLost marks losses (off: RACK-TLP)
		relost        int
		// wantShortPathTaken: the case is one of pipe's short path, so
		// that the table covers both.
		wantShortPathTaken bool
	}{
		{name: "nothing outstanding", una: 40, max: 40, rxt: 40, wantShortPathTaken: true},
		{name: "flight only", una: 40, max: 200, rxt: 40, wantShortPathTaken: true},
		{name: "flight across the wrap", una: 100, max: 250, rxt: 100, dupThresh: true, wantShortPathTaken: true},
		{name: "RACK relost bytes", una: 40, max: 200, rxt: 40, relost: 16, wantShortPathTaken: true},
		{name: "retransmitted above SND.UNA", una: 40, max: 200, rxt: 72},
		{name: "HighRxt beyond HighData", una: 40, max: 200, rxt: 230},
		{name: "timeout's recovery", una: 40, max: 200, rxt: 56, inLoss: true, lossHigh: 160},
		{name: "SACKed, RACK-TLP", una: 40, max: 200, rxt: 48, sacked: []block{{64, 80}, {96, 104}, {120, 150}}, relost: 8},
		{name: "SACKed, IsLost", una: 40, max: 200, rxt: 48, sacked: []block{{64, 80}, {96, 104}, {120, 150}}, dupThresh: true},
		{name: "SACKed, timeout's recovery", una: 40, max: 200, rxt: 40, sacked: []block{{64, 80}, {180, 190}}, inLoss: true, lossHigh: 170, dupThresh: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &oracle{base: 0xffffff80, una: tc.una, bytes: make([]bool, size)}
			s := &sender{c: &Conn{cfg: Config{DupThresh: dt}}, sb: NewScoreboard(4), smss: smss}
			s.una, s.max, s.rxtNext = o.seq(tc.una), o.seq(tc.max), o.seq(tc.rxt)
			s.inLoss, s.lossHigh, s.relostBytes = tc.inLoss, o.seq(tc.lossHigh), unit.Bytes(tc.relost)
			for _, b := range tc.sacked {
				s.sb.Insert(o.seq(b.a), o.seq(b.b))
				for i := b.a; i < b.b; i++ {
					o.bytes[i] = true
				}
			}
			r := &sackRecovery{s: s, dupThresh: tc.dupThresh}
			want := -tc.relost
			for i := tc.una; i < tc.max; i++ {
				if o.bytes[i] {
					continue
				}
				lost := tc.dupThresh && o.isLost(i, dt, smss) || tc.inLoss && i < tc.lossHigh
				if !lost {
					want++
				}
				if i < tc.rxt {
					want++
				}
			}
			if got := r.pipe(); int(got) != want {
				t.Errorf("pipe = %d, want %d (RFC 6675 SetPipe octet by octet)", got, want)
			}
			if short := !s.inLoss && s.sb.Empty() && !s.una.LessThan(s.rxtNext); short != tc.wantShortPathTaken {
				t.Errorf("case takes the short path: %v, want %v", short, tc.wantShortPathTaken)
			}
		})
	}
}
