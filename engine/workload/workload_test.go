package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// The sink must reject a stream with a gap, a repeat or a short total.
func TestSinkCheck(t *testing.T) {
	tests := []struct {
		name   string
		deliv  [][2]unit.Bytes // offset, length
		want   unit.Bytes
		closed bool
		ok     bool
	}{
		{"contiguous", [][2]unit.Bytes{{0, 100}, {100, 50}}, 150, true, true},
		{"gap", [][2]unit.Bytes{{0, 100}, {150, 50}}, 200, true, false},
		{"repeat", [][2]unit.Bytes{{0, 100}, {50, 50}}, 150, true, false},
		{"short", [][2]unit.Bytes{{0, 100}}, 150, true, false},
		{"open, partial", [][2]unit.Bytes{{0, 100}}, 150, false, true},
		{"too much", [][2]unit.Bytes{{0, 200}}, 150, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Sink
			for i, d := range tt.deliv {
				s.Delivered(des.Time(i), d[0], d[1])
			}
			if err := s.Check(tt.want, tt.closed); (err == nil) != tt.ok {
				t.Errorf("Check(%d, %v) = %v, want ok %v", tt.want, tt.closed, err, tt.ok)
			}
		})
	}
}
