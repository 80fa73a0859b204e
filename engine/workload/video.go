package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// VideoHeaderBytes is the header each video packet carries on the wire:
// IPv4 20 (RFC 791), UDP 8 (RFC 768) and the fixed RTP header 12 (RFC
// 3550 section 5.1).
const VideoHeaderBytes = 40

// VideoFormat is a constant-bit-rate video stream of the kind vic sends
// over the MBone: Rate bit/s of video at FPS frames per second, each frame
// split into packets of at most Payload video bytes, all sent when the
// frame is captured (vic hands a frame's packets to the socket back to
// back). Document 001's experiment: 128 kbit/s at 8 frames/s.
//
// GOP is the group of pictures: frame k is intra-coded when k is a
// multiple of GOP and otherwise predicted from frame k-1, so it decodes
// only when frame k-1 did (H.261's INTER mode: a predicted block is a
// difference from the previous picture, so a lost packet spoils the
// frames after it until the next intra frame). 0 or 1 codes every frame
// intra, as vic's intra-H.261 coder does (McCanne and Jacobson, vic, ACM
// Multimedia 1995, document 001's reference [9]); RFC 2032's payload
// header says so with its I flag ("the stream contains only INTRA-frame
// coded blocks"), from which vic's H.261 decoder picks its intra-only
// decoder.
type VideoFormat struct {
	Rate    float64 // video bit/s (payload, headers excluded)
	FPS     float64 // frames per second
	Payload int     // video bytes per packet at most
	GOP     int     // frames per group of pictures; 0 or 1: every frame intra-coded
}

// intra reports whether frame k is intra-coded.
func (f VideoFormat) intra(k int64) bool { return f.GOP <= 1 || k%int64(f.GOP) == 0 }

// FrameBytes returns the video bytes of one frame: Rate/8/FPS, rounded to
// the nearest byte.
func (f VideoFormat) FrameBytes() int { return int(math.Round(f.Rate / 8 / f.FPS)) }

// PacketsPerFrame returns how many packets carry one frame.
func (f VideoFormat) PacketsPerFrame() int { return (f.FrameBytes() + f.Payload - 1) / f.Payload }

// payloadOf returns the video bytes of packet i (0-based) of a frame: full
// packets, and the remainder in the last.
func (f VideoFormat) payloadOf(i int) int {
	fb, per := f.FrameBytes(), f.PacketsPerFrame()
	if i < per-1 {
		return f.Payload
	}
	return fb - (per-1)*f.Payload
}

// Validate reports a format that cannot be sent.
func (f VideoFormat) Validate() error {
	if !(f.Rate > 0) || !(f.FPS > 0) || f.Payload <= 0 || f.FrameBytes() <= 0 {
		return fmt.Errorf("workload: video: rate %g bit/s, %g frames/s and %d-byte packets give no frame", f.Rate, f.FPS, f.Payload)
	}
	if f.GOP < 0 {
		return fmt.Errorf("workload: video: group of pictures %d, want 0 or more frames", f.GOP)
	}
	return nil
}

// Video is the sending application of a video stream: from Start until
// Stop it captures a frame every 1/FPS s and sends its packets. Packet
// Seq is the RTP sequence number (RFC 3550 section 5.1), counted from 0;
// the RTP timestamp is the capture time, which Node.Send stamps on the
// packet as SentAt (every packet of a frame shares it, as in RTP).
type Video struct {
	Format VideoFormat
	Net    *netsim.Network
	Node   *netsim.Node
	Dst    netsim.NodeID
	Flow   netsim.FlowID

	Frames int64 // frames sent so far
	Sent   int64 // packets sent so far
	start  des.Time
	stop   des.Time
}

// Start schedules the first frame at start and the last before stop.
func (v *Video) Start(s *des.Scheduler, start, stop des.Time) error {
	if err := v.Format.Validate(); err != nil {
		return err
	}
	v.start, v.stop = start, stop
	s.Schedule(start, v, 0, 0)
	return nil
}

// frameTime returns the capture time of frame k after start t0: k/FPS
// rounded to the nanosecond, computed from k so rounding never drifts.
func (v *Video) frameTime(t0 des.Time, k int64) des.Time {
	return t0.Add(des.FromSeconds(float64(k) / v.Format.FPS))
}

// Handle implements des.Handler: capture frame arg, send its packets and
// schedule the next frame.
func (v *Video) Handle(now des.Time, kind int, arg uint64) {
	if now >= v.stop {
		return
	}
	per := v.Format.PacketsPerFrame()
	for i := range per {
		p := v.Net.NewPacket()
		p.Flow = v.Flow
		p.Dst = v.Dst
		p.Seq = uint32(v.Sent)
		p.Payload = unit.Bytes(v.Format.payloadOf(i))
		p.Size = p.Payload + VideoHeaderBytes
		v.Node.Send(p)
		v.Sent++
	}
	v.Frames++
	v.Net.Scheduler().Schedule(v.frameTime(v.start, v.Frames), v, 0, 0)
}

// SentAt returns the capture time of packet seq (its frame's).
func (v *Video) SentAt(seq int64) des.Time {
	return v.frameTime(v.start, seq/int64(v.Format.PacketsPerFrame()))
}

// VideoReceiver is the receiving application of a video stream: it
// records every packet's arrival and keeps the interarrival jitter of RFC
// 3550 section 6.4.1 (computed as in appendix A.8).
type VideoReceiver struct {
	Format VideoFormat
	Net    *netsim.Network

	// Per packet by sequence number: capture time and arrival (-1: not
	// arrived).
	sentAt, arrived []des.Time
	// RFC 3550 A.8 state: transit of the previous packet, jitter in ns.
	transit  int64
	jitter   float64
	started  bool
	jit      []jitterSample
	received int64
}

// jitterSample is the jitter estimate just after an arrival.
type jitterSample struct {
	at des.Time
	j  float64 // ns
}

// Receive implements netsim.Receiver.
func (r *VideoReceiver) Receive(now des.Time, p *netsim.Packet) {
	seq := int(p.Seq)
	for len(r.arrived) <= seq {
		r.arrived = append(r.arrived, -1)
		r.sentAt = append(r.sentAt, -1)
	}
	if r.arrived[seq] < 0 {
		r.arrived[seq] = now
		r.sentAt[seq] = p.SentAt
		r.received++
		r.update(now, p.SentAt)
	}
	r.Net.Free(p)
}

// update is RFC 3550 appendix A.8: transit = arrival - timestamp; D is
// the difference of two successive transits; J += (|D| - J)/16.
func (r *VideoReceiver) update(arrival, timestamp des.Time) {
	transit := int64(arrival.Sub(timestamp))
	if r.started {
		d := transit - r.transit
		if d < 0 {
			d = -d
		}
		r.jitter += (float64(d) - r.jitter) / 16
	}
	r.transit = transit
	r.started = true
	r.jit = append(r.jit, jitterSample{at: arrival, j: r.jitter})
}

// Jitter returns the current interarrival jitter estimate.
func (r *VideoReceiver) Jitter() des.Duration { return des.Duration(math.Round(r.jitter)) }

// Received returns the number of distinct packets received.
func (r *VideoReceiver) Received() int64 { return r.received }

// VideoSample is the quality of a stream over one interval [Start,
// Start+interval): what an RTCP receiver report (RFC 3550 section 6.4.1)
// and vic's statistics show.
type VideoSample struct {
	Start des.Time
	// Sent and Lost count the packets captured in the interval and those
	// of them that never arrived; Loss is Lost/Sent (0 with none sent).
	Sent, Lost int64
	Loss       float64
	// Jitter is the RFC 3550 estimate after the last arrival before the
	// interval's end (the value a receiver report would carry).
	Jitter des.Duration
	// Bandwidth is the video bits (payload) received in the interval per
	// second. FrameRate is the frames a decoder can show, per second:
	// every packet of the frame arrived and, for a predicted frame, the
	// frame it is predicted from could be shown (VideoFormat.GOP); each
	// counts when the last of its packets arrived. MarkerRate is the
	// frame rate vic reports: vic counts a frame for every packet that
	// arrives with the RTP marker bit set (its session manager's demux),
	// and the marker marks the last packet of a frame (RFC 3550 section
	// 5.1, and RFC 2032's use of the RTP header), so a frame counts when its last packet
	// arrives, whatever became of the others.
	Bandwidth  float64
	FrameRate  float64
	MarkerRate float64
}

// Series returns the samples of [0, end) every interval for a stream
// whose sender sent sent packets.
func (r *VideoReceiver) Series(sentAt func(seq int64) des.Time, sent int64, interval des.Duration, end des.Time) []VideoSample {
	if interval <= 0 {
		panic("bug: workload: video series interval must be positive")
	}
	n := int((int64(end) + int64(interval) - 1) / int64(interval))
	out := make([]VideoSample, n)
	for i := range out {
		out[i].Start = des.Time(int64(i) * int64(interval))
	}
	bin := func(t des.Time) int {
		if t < 0 || t >= end {
			return -1
		}
		return int(int64(t) / int64(interval))
	}
	per := int64(r.Format.PacketsPerFrame())
	for seq := int64(0); seq < sent; seq++ {
		b := bin(sentAt(seq))
		ok := seq < int64(len(r.arrived)) && r.arrived[seq] >= 0
		if b >= 0 {
			out[b].Sent++
			if !ok {
				out[b].Lost++
			}
		}
		if ok {
			if ab := bin(r.arrived[seq]); ab >= 0 {
				out[ab].Bandwidth += float64(8 * r.Format.payloadOf(int(seq%per)))
			}
		}
	}
	// A frame is complete when all its packets arrived, and shown when
	// it is complete and intra-coded or predicted from a shown frame; it
	// counts when its last packet arrived. vic's count needs only the
	// frame's last (marker) packet.
	arrivedAt := func(seq int64) des.Time {
		if seq >= int64(len(r.arrived)) {
			return -1
		}
		return r.arrived[seq]
	}
	shown := false // the previous frame was shown
	for f := int64(0); (f+1)*per <= sent; f++ {
		last := des.Time(-1)
		complete := true
		for seq := f * per; seq < (f+1)*per; seq++ {
			a := arrivedAt(seq)
			if a < 0 {
				complete = false
				break
			}
			last = max(last, a)
		}
		shown = complete && (shown || r.Format.intra(f))
		if shown {
			if b := bin(last); b >= 0 {
				out[b].FrameRate++
			}
		}
		if a := arrivedAt((f+1)*per - 1); a >= 0 {
			if b := bin(a); b >= 0 {
				out[b].MarkerRate++
			}
		}
	}
	k := 0
	j := 0.0
	sec := interval.Seconds()
	for i := range out {
		endT := out[i].Start.Add(interval)
		for k < len(r.jit) && r.jit[k].at < endT {
			j = r.jit[k].j
			k++
		}
		out[i].Jitter = des.Duration(math.Round(j))
		if out[i].Sent > 0 {
			out[i].Loss = float64(out[i].Lost) / float64(out[i].Sent)
		}
		out[i].Bandwidth /= sec
		out[i].FrameRate /= sec
		out[i].MarkerRate /= sec
	}
	return out
}

// MaxJitter returns the largest jitter estimate over the stream.
func (r *VideoReceiver) MaxJitter() des.Duration {
	m := 0.0
	for _, s := range r.jit {
		m = math.Max(m, s.j)
	}
	return des.Duration(math.Round(m))
}

// Delays returns the mean and maximum one-way delay of the packets that
// arrived.
func (r *VideoReceiver) Delays() (mean, maxD des.Duration) {
	var sum, n int64
	for i, a := range r.arrived {
		if a < 0 {
			continue
		}
		d := int64(a.Sub(r.sentAt[i]))
		sum += d
		n++
		maxD = max(maxD, des.Duration(d))
	}
	if n > 0 {
		mean = des.Duration(sum / n)
	}
	return mean, maxD
}
