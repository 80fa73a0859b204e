package des

import (
	"context"
	"testing"
)

// hold keeps a fixed number of events in the queue, each rescheduling
// itself a pseudo-random delay ahead (the classic "hold" benchmark of event
// queues).
type hold struct {
	s *Scheduler
	x uint64
}

func (h *hold) Handle(now Time, kind int, arg uint64) {
	h.x = h.x*6364136223846793005 + 1442695040888963407
	h.s.Schedule(now+Time(h.x>>54), h, kind, arg)
}

func benchHold(b *testing.B, n int) {
	s := New()
	h := &hold{s: s, x: 1}
	for i := range n {
		s.Schedule(Time(i), h, 0, uint64(i))
	}
	s.MaxEvents = uint64(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	err := s.Run(context.Background(), Forever)
	b.StopTimer()
	if err == nil {
		b.Fatal("run ended without reaching the event budget")
	}
	b.ReportMetric(float64(s.Processed())/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkHold(b *testing.B) {
	for _, n := range []int{16, 1024, 65536} {
		b.Run("pending="+itoa(n), func(b *testing.B) { benchHold(b, n) })
	}
}

// tick re-arms its timer, the pattern of a retransmission timer reset on
// every acknowledgement.
type tick struct {
	s   *Scheduler
	rto Timer
}

func (t *tick) Handle(now Time, kind int, arg uint64) {
	if kind == 0 {
		t.rto.Reset(now + 1000)
		t.s.Schedule(now+1, t, 0, 0)
	}
}

func BenchmarkTimerReset(b *testing.B) {
	s := New()
	t := &tick{s: s}
	t.rto.Init(s, t, 1, 0)
	s.Schedule(0, t, 0, 0)
	s.MaxEvents = uint64(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	_ = s.Run(context.Background(), Forever)
	b.ReportMetric(float64(s.Processed())/b.Elapsed().Seconds(), "events/s")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
