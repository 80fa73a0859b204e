package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// The sender resends only what the network lost. One bulk flow for 20 s
// over 20 Mbit/s with 10 ms one way and a 2000-packet buffer (no overflow
// with these windows), SACK recovery:
//   - without random loss nothing is dropped and nothing is resent (no
//     spurious retransmission by RACK, the timer or the recovery loop);
//   - with Bernoulli loss of 1 % on the data direction every lost packet is
//     resent (but for up to two lost in the last round trip, which the run
//     stops before repairing) and spurious retransmissions stay under 1 %
//     of the losses plus two (a retransmission timeout may resend a
//     segment whose ACK was still on the way; a lost retransmission is a
//     loss of its own). Measured: exact for all four but one loss of the
//     last round trip.
//
// RACK-TLP is checked with the loss-based controllers. With BBR and BBRv2
// at 1 % loss it meets one timeout in startup, where the queue BBR builds
// raises the RTT from 20 to 240 ms within 200 ms, past the RTO (RFC 6298
// with the 200 ms floor; Linux's RTO is SRTT + at least 200 ms), and the
// timeout resends about 100 segments still in flight: a property of the
// RTO, not of RACK, left out of this bound. BBRv2 as the alpha kernel
// runs it (no cwnd cut in fast recovery) meets the same spurious timeout
// in startup under RFC 6298's timer (1 RTO, 75 segments resent); it runs
// here with Linux's RTO, SRTT + max(4 RTTVAR, 200 ms), the host's
// default, which rides out the queue's growth: no timeout.
func TestRetransmissionsMatchLosses(t *testing.T) {
	tests := []struct {
		name string
		ctrl func() cc.Controller
		loss float64
		ld   LossDetection
		// linuxRTO bounds only RTTVAR's term by the 200 ms minimum, RTO =
		// SRTT + max(4 RTTVAR, 200 ms), as Linux's tcp_rtt_estimator.
		linuxRTO bool
	}{
		{"newreno lossless", func() cc.Controller { return cc.NewReno(cc.ABCOff) }, 0, LossDupThresh, false},
		{"bbr lossless", func() cc.Controller { return cc.NewBBR(1) }, 0, LossDupThresh, false},
		{"newreno 1%", func() cc.Controller { return cc.NewReno(cc.ABCOff) }, 0.01, LossDupThresh, false},
		{"cubic 1%", func() cc.Controller { return cc.NewCubic(false, cc.ABCOff) }, 0.01, LossDupThresh, false},
		{"bbr 1%", func() cc.Controller { return cc.NewBBR(1) }, 0.01, LossDupThresh, false},
		{"bbr2 1%", func() cc.Controller { return cc.NewBBR2(1) }, 0.01, LossDupThresh, true},
		{"rack-tlp newreno lossless", func() cc.Controller { return cc.NewReno(cc.ABCOff) }, 0, LossRACKTLP, false},
		{"rack-tlp bbr lossless", func() cc.Controller { return cc.NewBBR(1) }, 0, LossRACKTLP, false},
		{"rack-tlp newreno 1%", func() cc.Controller { return cc.NewReno(cc.ABCOff) }, 0.01, LossRACKTLP, false},
		{"rack-tlp cubic 1%", func() cc.Controller { return cc.NewCubic(false, cc.ABCOff) }, 0.01, LossRACKTLP, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := des.New()
			net := netsim.New(s, 5)
			fwd := netsim.LinkConfig{Rate: 20e6, Delay: 10 * des.Millisecond, Queue: netsim.DropTail{Packets: 2000}}
			if tt.loss > 0 {
				fwd.Loss = netsim.Bernoulli{P: tt.loss}
			}
			p, err := netsim.NewPath(net, []netsim.Hop{{Forward: fwd, Reverse: netsim.LinkConfig{Rate: 20e6, Delay: 10 * des.Millisecond}}})
			if err != nil {
				t.Fatal(err)
			}
			// The window (1 MiB, 3 times the 20 Mbit/s x 20 ms BDP plus the
			// buffer's 2000 packets) keeps loss-based flows from overflowing
			// the buffer.
			cfg := Config{MSS: 1460, RcvBuf: 1 << 20, SndBuf: 1 << 20, WindowScaling: true, SACK: true,
				Recovery: RecoverySACK, InitialWindow: 10, LimitedTransmit: true, MinRTO: 200 * des.Millisecond, LossDetection: tt.ld,
				RTOVarFloor: tt.linuxRTO}
			client, err := New(s, cfg, tt.ctrl(), NodePort{net, p.Sender}, &sinkApp{}, 1, p.Sender.ID(), p.Receiver.ID(), 77)
			if err != nil {
				t.Fatal(err)
			}
			app := &sinkApp{}
			server, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{net, p.Receiver}, app, 1, p.Receiver.ID(), p.Sender.ID(), 99)
			if err != nil {
				t.Fatal(err)
			}
			p.Sender.Attach(1, client)
			p.Receiver.Attach(1, server)
			server.Listen()
			client.Write(0, 1<<50)
			client.Connect(0)
			if err := s.Run(t.Context(), des.Time(20*des.Second)); err != nil {
				t.Fatal(err)
			}
			ls := p.Forward[0].Stats()
			lost := ls.Drops[netsim.DropCorrupt]
			st := client.Stats
			t.Logf("goodput %.2f Mbit/s, lost %d (overflow %d), retransmitted %d, RTOs %d, fast recoveries %d, lost retransmissions %d, probes %d",
				float64(app.got)*8/20/1e6, lost, ls.Drops[netsim.DropOverflow], st.RetransSegs, st.RTOs, st.FastRecoveries, st.LostRetrans, st.TLPProbes)
			if ls.Drops[netsim.DropOverflow] != 0 {
				t.Fatalf("%d overflow drops; the set-up wants none", ls.Drops[netsim.DropOverflow])
			}
			if st.RetransSegs < lost-2 {
				t.Errorf("retransmissions = %d, want >= %d losses - 2", st.RetransSegs, lost)
			}
			if extra := st.RetransSegs - lost; float64(extra) > 0.01*float64(lost)+2 {
				t.Errorf("retransmissions = %d for %d losses, want at most 1 %% + 2 more", st.RetransSegs, lost)
			}
		})
	}
}
