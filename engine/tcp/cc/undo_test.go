package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// UndoCwnd restores what Linux's undo_cwnd hooks do: tcp_reno_undo_cwnd,
// max(cwnd, prior cwnd), for Reno and, through it, CUBIC and BIC
// (tcp_cubic.c and tcp_bic.c name it as their .undo_cwnd); BBR's
// bbr_undo_cwnd keeps cwnd and restarts STARTUP's full-pipe test; BBRv2's
// restores the short-term bounds (bw_lo, inflight_lo, inflight_hi) and the
// window saved when the episode began.
func TestUndoCwnd(t *testing.T) {
	const smss = 1000
	tests := []struct {
		name        string
		c           Controller
		cwnd, prior unit.Bytes
		want        unit.Bytes
	}{
		{"reno below prior", NewReno(ABCOff), 5 * smss, 20 * smss, 20 * smss},
		{"reno above prior", NewReno(ABCOff), 30 * smss, 20 * smss, 30 * smss},
		{"cubic", NewCubic(false, ABCOff), 7 * smss, 20 * smss, 20 * smss},
		{"bic", NewBIC(ABCOff), 7 * smss, 20 * smss, 20 * smss},
		{"bbr keeps cwnd", NewBBR(1), 7 * smss, 20 * smss, 7 * smss},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &State{Cwnd: 10 * smss, SMSS: smss}
			tt.c.Init(s)
			s.Cwnd = tt.cwnd
			if got := UndoCwnd(tt.c, s, tt.prior); got != tt.want {
				t.Errorf("UndoCwnd(cwnd %d, prior %d) = %d, want %d", tt.cwnd, tt.prior, got, tt.want)
			}
		})
	}
	b2 := NewBBR2(1)
	st := &State{Cwnd: 10 * smss, SMSS: smss}
	b2.Init(st)
	st.Cwnd = 40 * smss
	b2.inflightLo, b2.inflightHi, b2.bwLo = 30*smss, 50*smss, 2e6
	b2.OnCongestionEvent(0, st, 40*smss) // saves the model and the window
	b2.inflightLo, b2.inflightHi, b2.bwLo, b2.lossInRound = 20*smss, 35*smss, 1e6, true
	if got := UndoCwnd(b2, st, 40*smss); got != 40*smss || b2.inflightLo != 30*smss || b2.inflightHi != 50*smss || b2.bwLo != 2e6 || b2.lossInRound {
		t.Errorf("BBR2 undo: cwnd %d, inflight_lo %v, inflight_hi %v, bw_lo %v, loss in round %v, want 40000, 30000, 50000, 2e6, false",
			got, b2.inflightLo, b2.inflightHi, b2.bwLo, b2.lossInRound)
	}
	b := NewBBR(1)
	b.Init(&State{Cwnd: 10 * smss, SMSS: smss})
	b.full.bw, b.full.count = 1e6, 2
	b.UndoCwnd(&State{Cwnd: 10 * smss, SMSS: smss}, 20*smss)
	if b.full.bw != 0 || b.full.count != 0 {
		t.Errorf("after BBR's undo the full-pipe test holds bw %v, count %d, want 0, 0", b.full.bw, b.full.count)
	}
}
