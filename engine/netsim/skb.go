package netsim

import "github.com/crosslink-sim/crosslink/engine/des"

// Owner is the sending socket a packet is charged to, the sk of an skb
// whose sk_wmem_alloc TCP Small Queues reads (Linux
// net/ipv4/tcp_output.c, tcp_small_queue_check). Release is called once
// per packet, when the charge ends: when the packet is freed (delivered,
// dropped) or when a netem qdisc that delays it orphans it first.
type Owner interface {
	Release(now des.Time, p *Packet)
}

// orphan ends p's charge to its owner, if it has one.
func (n *Network) orphan(p *Packet) {
	if p.owned {
		o := p.owner
		p.owner, p.owned = nil, false
		o.Release(n.sched.Now(), p)
	}
}

// skbFate is what a netem limit decided for the last skb of a flow it
// saw: the segments of one GSO aggregate arrive together and share it.
type skbFate struct {
	id   uint64
	drop DropReason // the reason the skb was dropped, valid if dropped
	lost bool
}

// netemAdmit applies a netem limit and loss to p on arrival, as
// net/sched/sch_netem.c's netem_enqueue does, and reports whether p
// enters the link. netem works on skbs, not segments: a GSO aggregate
// (TCP's TSO autosizing hands the stack up to 64 KB at once, and veth
// and Open vSwitch pass it on unsegmented) is one skb, so the limit
// (sch->q.qlen >= sch->limit) counts it once and the loss (loss_event)
// drops it whole. The segments of one aggregate share their Skb and
// arrive back to back from their flow; the first decides for all.
// Packets without an Skb are skbs of their own. A netem with a delay
// orphans what it admits (skb_orphan_partial when q->latency is set), so
// the sending socket's TCP Small Queues no longer counts it.
func (l *Link) netemAdmit(now des.Time, p *Packet) bool {
	var f *skbFate
	if p.Skb != 0 && p.Flow >= 0 {
		for int(p.Flow) >= len(l.fates) {
			l.fates = append(l.fates, skbFate{})
		}
		f = &l.fates[p.Flow]
		if f.id == p.Skb {
			if f.lost {
				l.Drop(now, p, f.drop)
				return false
			}
			l.netemOrphan(p)
			return true // a later segment of an admitted skb
		}
		*f = skbFate{id: p.Skb}
	}
	reason, lost := DropReason(0), false
	switch {
	case l.loss != nil && l.loss.Lose(p, l.rng):
		reason, lost = DropCorrupt, true
	case l.netemHeld(now) >= l.netemLimit:
		reason, lost = DropOverflow, true
	}
	if lost {
		if f != nil {
			f.drop, f.lost = reason, true
		}
		l.Drop(now, p, reason)
		return false
	}
	p.skbHead = true
	l.netemSkbs++
	l.netemOrphan(p)
	return true
}

// netemOrphan releases p from its socket if this netem delays it.
func (l *Link) netemOrphan(p *Packet) {
	if l.delay > 0 {
		l.net.orphan(p)
	}
}

// netemLeave stops counting p's skb when p, its first segment, leaves the
// link (delivered or dropped).
func (l *Link) netemLeave(p *Packet) {
	if p.skbHead {
		p.skbHead = false
		l.netemSkbs--
	}
}

// netemHeld is the number of skbs netem would hold now (see
// LinkConfig.NetemLimit): those whose first segment is queued, being
// transmitted or propagating, less the ones whose first segment's
// transmission started Delay or more ago, which the shaper has taken.
// Those are the oldest in flight, at most a few.
func (l *Link) netemHeld(now des.Time) int {
	held := l.netemSkbs
	for p := l.flight.head; p != nil && p.txAt.Add(l.delay) <= now; p = p.next {
		if p.skbHead {
			held--
		}
	}
	if l.earlyBusy(now) && l.early.skbHead {
		held++ // still being sent, though on the wire already (early.go)
	}
	return held
}

// peeker is a queue that can show its next packet without removing it.
type peeker interface {
	peek() *Packet
}

// skbBatch takes the rest of p's skb from the queue into the link's batch,
// to be serialised with p and delivered with it: an HTB class dequeues a
// GSO aggregate whole (htb_dequeue charges its full length, going into
// debt if it must) and veth and Open vSwitch pass it on at once, so its
// segments never interleave with other packets downstream. Only a FIFO
// whose head can be seen (DropTail) batches.
func (l *Link) skbBatch(now des.Time, p *Packet) {
	if p.Skb == 0 {
		return
	}
	pk, ok := l.queue.(peeker)
	if !ok {
		return
	}
	for h := pk.peek(); h != nil && h.Skb == p.Skb; h = pk.peek() {
		b := l.queue.Dequeue(now, l)
		l.dequeued(now, b)
		l.batch.push(b)
	}
}
