// Package netsim simulates packet networks on top of des: pooled packets,
// point-to-point links (rate, propagation delay, a queue, a per-packet loss
// process), nodes with static routes, and small topologies (a path of
// hops, a dumbbell, parallel channels for WDM).
//
// # Using it from a transport protocol
//
// Build a network on a scheduler, attach an endpoint to a host node for a
// flow, and send pooled packets:
//
//	s := des.New()
//	net := netsim.New(s, seed)
//	p, err := netsim.NewPath(net, []netsim.Hop{{Forward: fwd, Reverse: rev}})
//	p.Receiver.Attach(flow, rcvEndpoint) // Receiver gets Receive(now, pkt)
//	p.Sender.Attach(flow, sndEndpoint)   // ACKs come back the same way
//
//	pkt := net.NewPacket()               // zeroed, with a fresh ID
//	pkt.Flow, pkt.Dst = flow, p.Receiver.ID()
//	pkt.Size, pkt.Payload, pkt.Seq = 1500, 1460, seq
//	p.Sender.Send(pkt)                   // sets Src and SentAt; the network owns pkt now
//	err = s.Run(ctx, des.Time(60*des.Second))
//
// A Receiver owns each packet delivered to it and must return it with
// net.Free(pkt) (or reuse it, for example as the ACK it sends back). Links
// free the packets they drop. Timers (retransmission, delayed ACK) are
// des.Timer values embedded in the endpoint, driven by the same scheduler.
//
// # Links
//
// A packet offered to a link waits in its Queue (DropTail, limited in
// packets and/or bytes), is serialised at the link's rate with exact
// integer-nanosecond timing, passes the loss process (none, Bernoulli,
// PER from the physical layer as a function of size, Gilbert-Elliott
// bursts, a drop list for tests) and arrives after the propagation delay.
// Packets in flight form a FIFO with a single scheduler event for the head;
// a link without delay (or jitter) delivers each packet in the event that
// ends its transmission, so the far node has it before the events already
// queued for that instant.
// Behind a DropTail queue (with a netem limit or without) a link also does
// without the end-of-transmission event of each packet: it ends the
// transmissions that are over, each at its own time, when it is next
// touched, with the same results and the same order of simultaneous
// events, except where it cannot work out which of two events at one
// instant an eager link would have run first: it counts those ties and
// takes one order (lazy.go). Network.Events counts the events an eager
// link would have had. A link without delay but with jitter (a host's
// link) cannot be lazy; it draws each packet's jitter and arrival when
// the transmission starts and has an end event only when a packet waits
// behind it (early.go). Its arrival event, scheduled when the
// transmission starts rather than when it ends, runs before the events
// due at the same nanosecond that were scheduled while the transmission
// lasted, which an eager link's arrival would follow; such ties are not
// counted (TestEarlyArrivalTieOrder shows one). Either order of
// simultaneous events is a valid run, but the other order can send
// competing flows on another course (a drop falls on another flow), so
// the differential tests that require the eager results run set-ups
// where no such tie arises.
// A link that ends a transmission at the very instant the link
// feeding it delivers the next packet (links of one rate, back to back)
// has its end run by that arrival event, straight after it, in the place
// a queued event would have had (follow.go, des.Follower).
// With LinkConfig.EndsFirst a transmission ends before anything
// else at its instant, an order a lazy link reproduces however its feeders
// line up, and it stays lazy when its delay changes (a satellite link).
// Every drop is counted by reason; LinkStats also gives queue occupancy
// (time-weighted), queueing delay and utilisation.
//
// A link with LinkConfig.NetemLimit is Linux's netem delay line in front of
// a rate shaper, as Mininet's TCLink builds it: the limit counts the
// packets being delayed as well as those waiting, and the loss process
// acts when a packet is offered, before the limit. Packets that share a
// Packet.Skb are one GSO aggregate: a netem limit counts them once and
// loses them together, a link sends and delivers them as one unit, and a
// netem with a delay releases them from their sending socket
// (Packet.SetOwner), which is what TCP Small Queues counts (skb.go).
// With LinkConfig.Shaper the rate is that shaper's token bucket, as HTB
// runs it in front of a veth: a packet leaves whole when the bucket is in
// credit and arrives the delay later, rather than after its serialisation
// (shaper.go); such a link is always eager.
//
// Each link draws from its own random stream, named after the link, so
// adding a link or a flow leaves every other link's loss pattern unchanged.
//
// # Queues
//
// LinkConfig.Queue takes a QueueModel: DropTail, RED (Floyd and Jacobson
// 1993, with gentle and byte modes), CoDel (RFC 8289) or FQCoDel (RFC
// 8290). Drops by the discipline's algorithm count as DropAQM, drops at a
// hard limit as DropOverflow. A queue that needs its link's rate or a
// random stream implements Attacher; its stream is "queue/<link name>",
// distinct from the loss stream. BDPLimit sizes a queue as a fraction of
// a path's bandwidth-delay product.
package netsim
