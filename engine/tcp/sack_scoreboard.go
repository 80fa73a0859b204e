package tcp

import "github.com/crosslink-sim/crosslink/engine/tcp/seqnum"

// block is a half-open range [start, end) of sequence space.
type block struct{ start, end seqnum.Value }

// Scoreboard records the bytes above the cumulative ACK that the receiver
// has reported in SACK blocks (RFC 6675 section 3's scoreboard). Blocks are
// kept sorted, disjoint and non-adjacent, so queries work on the blocks
// rather than on the window's bytes: positions are found by binary search,
// and counts of SACKed bytes below a point come from prefix sums rebuilt
// after a change (a heavily lossy window has dozens of blocks, and the
// sender asks for pipe once per segment it sends).
type Scoreboard struct {
	blocks []block
	sacked seqnum.Size // total bytes in blocks
	// prefix[i] is the SACKed bytes in blocks[:i]; valid unless dirty.
	prefix []seqnum.Size
	dirty  bool
}

// NewScoreboard returns an empty scoreboard with room for n blocks.
func NewScoreboard(n int) *Scoreboard { return &Scoreboard{blocks: make([]block, 0, n)} }

// Reset empties the scoreboard.
func (s *Scoreboard) Reset() { s.blocks = s.blocks[:0]; s.sacked = 0; s.dirty = true }

// after returns the index of the first block ending after seq (len(blocks)
// if none): the block holding seq, or the first one above it.
func (s *Scoreboard) after(seq seqnum.Value) int {
	lo, hi := 0, len(s.blocks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.blocks[m].end.LessThanEq(seq) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// sackedBelow returns the SACKed bytes before seq.
func (s *Scoreboard) sackedBelow(seq seqnum.Value) seqnum.Size {
	// The ends first: SetPipe asks about SND.UNA and HighData, which lie
	// at or outside the blocks (the sender clips every block to
	// [SND.UNA, HighData)), so most questions need neither the search
	// nor the prefix sums, which a changed scoreboard would rebuild.
	nb := len(s.blocks)
	if nb == 0 || seq.LessThanEq(s.blocks[0].start) {
		return 0
	}
	if s.blocks[nb-1].end.LessThanEq(seq) {
		return s.sacked
	}
	if s.dirty || len(s.prefix) != len(s.blocks)+1 {
		s.prefix = append(s.prefix[:0], 0)
		var sum seqnum.Size
		for _, b := range s.blocks {
			sum += b.start.Size(b.end)
			s.prefix = append(s.prefix, sum)
		}
		s.dirty = false
	}
	i := s.after(seq)
	n := s.prefix[i]
	if i < len(s.blocks) && s.blocks[i].start.LessThan(seq) {
		n += s.blocks[i].start.Size(seq)
	}
	return n
}

// Empty reports whether no bytes are SACKed.
func (s *Scoreboard) Empty() bool { return len(s.blocks) == 0 }

// Sacked returns the number of SACKed bytes.
func (s *Scoreboard) Sacked() seqnum.Size { return s.sacked }

// Blocks returns the number of discontiguous SACKed ranges.
func (s *Scoreboard) Blocks() int { return len(s.blocks) }

// HighestSacked returns the end of the highest SACKed range (one past its
// last byte); ok is false when nothing is SACKed.
func (s *Scoreboard) HighestSacked() (end seqnum.Value, ok bool) {
	if len(s.blocks) == 0 {
		return 0, false
	}
	return s.blocks[len(s.blocks)-1].end, true
}

// Insert records [start, end) as SACKed (RFC 6675 section 5 "Update()").
// It returns the number of bytes newly SACKed.
func (s *Scoreboard) Insert(start, end seqnum.Value) seqnum.Size {
	if !start.LessThan(end) {
		return 0
	}
	// Find the first block that ends at or after start (may merge).
	i := s.after(start)
	if i > 0 && s.blocks[i-1].end == start {
		i--
	}
	// Merge every block that touches [start, end).
	j := i
	ns, ne := start, end
	var removed seqnum.Size
	for j < len(s.blocks) && s.blocks[j].start.LessThanEq(end) {
		ns = seqnum.Min(ns, s.blocks[j].start)
		ne = seqnum.Max(ne, s.blocks[j].end)
		removed += s.blocks[j].start.Size(s.blocks[j].end)
		j++
	}
	added := ns.Size(ne) - removed
	if added == 0 {
		return 0
	}
	s.sacked += added
	s.dirty = true
	switch {
	case j == i: // insert a new block at i
		s.blocks = append(s.blocks, block{})
		copy(s.blocks[i+1:], s.blocks[i:])
		s.blocks[i] = block{ns, ne}
	default: // replace blocks i..j-1 by one
		s.blocks[i] = block{ns, ne}
		n := copy(s.blocks[i+1:], s.blocks[j:])
		s.blocks = s.blocks[:i+1+n]
	}
	return added
}

// Ack drops everything below the cumulative acknowledgement una (RFC 6675
// section 5: the scoreboard only describes bytes above HighACK).
func (s *Scoreboard) Ack(una seqnum.Value) {
	k := 0
	for k < len(s.blocks) && s.blocks[k].end.LessThanEq(una) {
		s.sacked -= s.blocks[k].start.Size(s.blocks[k].end)
		k++
	}
	if k > 0 {
		n := copy(s.blocks, s.blocks[k:])
		s.blocks = s.blocks[:n]
	}
	if len(s.blocks) > 0 && s.blocks[0].start.LessThan(una) {
		s.sacked -= s.blocks[0].start.Size(una)
		s.blocks[0].start = una
		k++
	}
	if k > 0 {
		s.dirty = true
	}
}

// IsSacked reports whether byte seq is SACKed.
func (s *Scoreboard) IsSacked(seq seqnum.Value) bool {
	i := s.after(seq)
	return i < len(s.blocks) && s.blocks[i].start.LessThanEq(seq)
}

// sackedIn returns the SACKed bytes in [a, b).
func (s *Scoreboard) sackedIn(a, b seqnum.Value) seqnum.Size {
	if !a.LessThan(b) || len(s.blocks) == 0 {
		// Nothing SACKed (most ACKs outside recovery): no prefix sums
		// to consult.
		return 0
	}
	return s.sackedBelow(b) - s.sackedBelow(a)
}

// lostBelow returns L such that an unSACKed byte seq is lost by RFC 6675
// section 4's IsLost exactly when seq < L: "DupThresh discontiguous SACKed
// sequences have arrived above SeqNum or more than (DupThresh - 1) * SMSS
// bytes with sequence numbers greater than SeqNum have been SACKed". For an
// unSACKed byte, the SACKed bytes and ranges above it are those of the
// blocks starting above it, so both conditions switch at a block start.
// ok is false when no byte is lost.
func (s *Scoreboard) lostBelow(dupThresh int, smss seqnum.Size) (l seqnum.Value, ok bool) {
	var bytes seqnum.Size
	count := 0
	for i := len(s.blocks) - 1; i >= 0; i-- {
		b := s.blocks[i]
		bytes += b.start.Size(b.end)
		count++
		if count >= dupThresh || bytes > seqnum.Size(dupThresh-1)*smss {
			return b.start, true
		}
	}
	return 0, false
}

// IsLost is RFC 6675 section 4's IsLost(SeqNum).
func (s *Scoreboard) IsLost(seq seqnum.Value, dupThresh int, smss seqnum.Size) bool {
	if s.IsSacked(seq) {
		return false
	}
	l, ok := s.lostBelow(dupThresh, smss)
	return ok && seq.LessThan(l)
}

// Pipe is RFC 6675 section 4's SetPipe: over the unSACKed bytes in
// [highACK, highData), count one for each byte not lost and one more for
// each byte retransmitted (below rxtNext, which is HighRxt+1).
func (s *Scoreboard) Pipe(highACK, highData, rxtNext seqnum.Value, dupThresh int, smss seqnum.Size) seqnum.Size {
	l, ok := s.lostBelow(dupThresh, smss)
	return s.pipe(highACK, highData, rxtNext, l, ok)
}

// pipe is SetPipe when the unSACKed bytes below lost (if hasLost) are the
// lost ones: RFC 6675's IsLost, or after a timeout everything then
// outstanding.
//
// The sender asks for it on every ACK and every send, mostly with
// nothing SACKed: the SACKed bytes of the two ranges are subtracted
// only when there are any.
func (s *Scoreboard) pipe(highACK, highData, rxtNext, lost seqnum.Value, hasLost bool) seqnum.Size {
	from := highACK
	if hasLost {
		from = seqnum.Min(seqnum.Max(lost, highACK), highData)
	}
	rxtEnd := seqnum.Min(rxtNext, highData)
	var pipe seqnum.Size
	// The bytes of [from, HighData), not lost: each counts once...
	if from.LessThan(highData) {
		pipe = from.Size(highData)
	}
	// ... and those of [HighACK, HighRxt+1), retransmitted, once more.
	if highACK.LessThan(rxtEnd) {
		pipe += highACK.Size(rxtEnd)
	}
	// Less the SACKed ones of both (sackedIn is 0 on an empty range).
	if len(s.blocks) > 0 {
		pipe -= s.sackedIn(from, highData) + s.sackedIn(highACK, rxtEnd)
	}
	return pipe
}

// NextHole returns the first unSACKed byte at or after from and the end of
// the hole it begins (the start of the next SACKed range, or limit).
func (s *Scoreboard) NextHole(from, limit seqnum.Value) (start, end seqnum.Value) {
	start = from
	i := s.after(start)
	if i == len(s.blocks) {
		return start, limit
	}
	if b := s.blocks[i]; b.start.LessThanEq(start) {
		// start is inside b: the hole begins at its end, and blocks are
		// not adjacent, so the next block (if any) starts above it.
		start = b.end
		i++
		if i == len(s.blocks) {
			return start, limit
		}
	}
	return start, seqnum.Min(s.blocks[i].start, limit)
}

// NextSeg is RFC 6675 section 4's NextSeg() for retransmissions: rule (1),
// the first unSACKed byte S2 at or above rxtNext, below the highest SACKed
// byte, with IsLost(S2); failing that, when rescue is set, rule (3) drops
// the IsLost condition. It returns the hole [start, end) to retransmit from;
// ok is false when neither rule applies (rule (2), new data, is the
// sender's).
func (s *Scoreboard) NextSeg(rxtNext seqnum.Value, dupThresh int, smss seqnum.Size, rescue bool) (start, end seqnum.Value, ok bool) {
	if l, lost := s.lostBelow(dupThresh, smss); lost {
		if start, end, ok := s.nextLost(rxtNext, l); ok {
			return start, end, true
		}
	}
	if rescue {
		return s.nextUnsacked(rxtNext)
	}
	return 0, 0, false
}

// nextLost is rule (1) of NextSeg when the unSACKed bytes below lost are
// the lost ones: the first hole at or above rxtNext, cut at lost.
func (s *Scoreboard) nextLost(rxtNext, lost seqnum.Value) (start, end seqnum.Value, ok bool) {
	if !rxtNext.LessThan(lost) {
		return 0, 0, false
	}
	start, end = s.NextHole(rxtNext, lost)
	return start, end, start.LessThan(lost)
}

// nextUnsacked is rule (3) of NextSeg: the first hole at or above rxtNext
// below the highest SACKed byte, lost or not.
func (s *Scoreboard) nextUnsacked(rxtNext seqnum.Value) (start, end seqnum.Value, ok bool) {
	high, any := s.HighestSacked()
	if !any || !rxtNext.LessThan(high) {
		return 0, 0, false
	}
	start, end = s.NextHole(rxtNext, high)
	return start, end, start.LessThan(high)
}
