package workload

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// RFC 3550 appendix A.8 jitter against a sequence computed by hand.
// Packets sent every 20 ms (timestamps 0, 20, 40, 60, 80 ms) arrive after
// transits of 100, 110, 105, 105, 145 ms. D = 10, 5, 0, 40 ms, and
// J_i = J_{i-1} + (|D| - J_{i-1})/16 gives, in ms,
//
//	J1 = 10/16                     = 0.625
//	J2 = 0.625 + (5 - 0.625)/16    = 0.898437 5
//	J3 = 0.8984375 - 0.8984375/16  = 0.842285 156 25
//	J4 = 0.84228515625 + (40 - 0.84228515625)/16 = 3.289642 333 984 375
//
// Tolerance: 1 ns, the rounding of Jitter to integer nanoseconds.
func TestJitterByHand(t *testing.T) {
	ms := func(x float64) des.Time { return des.Time(des.FromSeconds(x / 1000)) }
	r := &VideoReceiver{}
	transits := []float64{100, 110, 105, 105, 145}
	want := []float64{0, 0.625, 0.8984375, 0.84228515625, 3.289642333984375}
	for i, tr := range transits {
		ts := ms(20 * float64(i))
		r.update(ts+ms(tr), ts)
		got := float64(r.Jitter()) / 1e6
		if math.Abs(got-want[i]) > 1e-6 {
			t.Errorf("jitter after packet %d = %.9f ms, want %.9f ms", i, got, want[i])
		}
	}
}

func TestVideoFormat(t *testing.T) {
	// Document 001: 128 kbit/s at 8 frames/s is 2000 bytes a frame.
	tests := []struct {
		f          VideoFormat
		frame, per int
		last       int
	}{
		{VideoFormat{Rate: 128e3, FPS: 8, Payload: 1000}, 2000, 2, 1000},
		{VideoFormat{Rate: 128e3, FPS: 8, Payload: 512}, 2000, 4, 2000 - 3*512},
		{VideoFormat{Rate: 128e3, FPS: 8, Payload: 3000}, 2000, 1, 2000},
	}
	for _, tt := range tests {
		if got := tt.f.FrameBytes(); got != tt.frame {
			t.Errorf("%+v.FrameBytes() = %d, want %d", tt.f, got, tt.frame)
		}
		if got := tt.f.PacketsPerFrame(); got != tt.per {
			t.Errorf("%+v.PacketsPerFrame() = %d, want %d", tt.f, got, tt.per)
		}
		if got := tt.f.payloadOf(tt.per - 1); got != tt.last {
			t.Errorf("%+v.payloadOf(last) = %d, want %d", tt.f, got, tt.last)
		}
	}
}

// A video over one idle 2 Mbit/s link of 250 ms: no loss, 128 kbit/s and
// 8 frames/s in every interval after the first quarter second, and
// jitter from the back-to-back packets of a frame only. Each frame's two
// 1040-byte packets leave 4.16 ms apart (8 x 1040 / 2e6 s), so |D|
// alternates between 4.16 ms and 4.16 ms (the transit of the second
// packet exceeds the first's by one serialisation, then drops back), and
// J converges to 4.16 ms.
func TestVideoOverIdleLink(t *testing.T) {
	s := des.New()
	net := netsim.New(s, 1)
	l := netsim.LinkConfig{Rate: 2e6, Delay: 250 * des.Millisecond}
	path, err := netsim.NewPath(net, []netsim.Hop{{Forward: l, Reverse: l}})
	if err != nil {
		t.Fatal(err)
	}
	f := VideoFormat{Rate: 128e3, FPS: 8, Payload: 1000}
	rcv := &VideoReceiver{Format: f, Net: net}
	if err := path.Receiver.Attach(1, rcv); err != nil {
		t.Fatal(err)
	}
	v := &Video{Format: f, Net: net, Node: path.Sender, Dst: path.Receiver.ID(), Flow: 1}
	end := des.Time(10 * des.Second)
	if err := v.Start(s, 0, end); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(t.Context(), end.Add(des.Second)); err != nil {
		t.Fatal(err)
	}
	if v.Sent != 160 || rcv.Received() != 160 {
		t.Fatalf("sent %d, received %d, want 160 and 160", v.Sent, rcv.Received())
	}
	ser := 8 * 1040 / 2e6
	if got := rcv.Jitter().Seconds(); math.Abs(got-ser) > 0.05*ser {
		t.Errorf("jitter = %.6f s, want %.6f s (one serialisation, within 5 %%: J converges geometrically)", got, ser)
	}
	series := rcv.Series(v.SentAt, v.Sent, des.Second, end)
	var got [][3]float64
	for _, x := range series[1:] {
		got = append(got, [3]float64{x.Loss, x.Bandwidth, x.FrameRate})
	}
	want := make([][3]float64, 9)
	for i := range want {
		want[i] = [3]float64{0, 128e3, 8}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("series after the first second (-want +got):\n%s", diff)
	}
}

// Frame counts worked by hand: 8 frames of 2 packets each within one
// second, packet 2 (the first of frame 1) and packet 11 (the last of
// frame 5, its marker) lost. Every frame intra-coded (GOP 0 or 1): frames
// 1 and 5 are incomplete, 6 shown. GOP 4 (frames 0 and 4 intra): frame 1
// is lost and 2, 3 are predicted from it; frame 5 is lost and 6, 7 from
// it: 2 shown. vic's count needs only each frame's marker packet: all
// but frame 5's, 7, whatever the GOP. Exact: the counts are integers.
func TestFrameCounts(t *testing.T) {
	tests := []struct {
		gop         int
		shown, mark float64
	}{{0, 6, 7}, {1, 6, 7}, {4, 2, 7}, {8, 1, 7}}
	for _, tt := range tests {
		f := VideoFormat{Rate: 128e3, FPS: 8, Payload: 1000, GOP: tt.gop}
		r := &VideoReceiver{Format: f}
		for seq := range 16 {
			at := des.Time(des.FromSeconds(float64(seq/2)/8 + 0.01))
			if seq == 2 || seq == 11 {
				at = -1
			}
			r.arrived = append(r.arrived, at)
		}
		sentAt := func(seq int64) des.Time { return des.Time(des.FromSeconds(float64(seq/2) / 8)) }
		s := r.Series(sentAt, 16, des.Second, des.Time(des.Second))
		if got := [2]float64{s[0].FrameRate, s[0].MarkerRate}; got != [2]float64{tt.shown, tt.mark} {
			t.Errorf("GOP %d: frame rate, vic's frame rate = %v, want [%g %g]", tt.gop, got, tt.shown, tt.mark)
		}
	}
}
