package validation

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/engine/des"
)

func BenchmarkZZProbe(b *testing.B) {
	reg, _ := models.Registry()
	for _, s := range Scenarios() {
		if s.Name != "probe-cubic" {
			continue
		}
		m, _ := reg.Lookup(s.Model)
		p, err := s.Params(m)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := m.Run(context.Background(), p, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestZZCount(t *testing.T) {
	reg, _ := models.Registry()
	for _, s := range Scenarios() {
		if s.Name != "probe-cubic" {
			continue
		}
		m, _ := reg.Lookup(s.Model)
		p, _ := s.Params(m)
		m.Run(context.Background(), p, 1)
		for k, v := range des.ZZCount {
			t.Log(k, v)
		}
	}
}
