package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
)

// linkPhysics is what the physical layer gives a tcp-bulk scenario: the
// data direction's BER and PERs, for the metrics.
type linkPhysics struct {
	ber, perData, perAck float64
}

// fsoDirectBelow is the distance under which document 000 advises direct
// detection and above which coherent (sections 3 and 6.1: "direct
// detection for distances below 20,000 km and coherent detection for
// distances above 20,000 km").
const fsoDirectBelow = 20000e3

// bulkPhysics applies distance and loss_model to c: the one-way delay from
// the distance, and with loss_model fso a BER per channel from the FSO
// link budget of document 000 (phy.Table1 with the chosen detection and
// constants, electrical bandwidth 2 x the channel's rate, Table 1) and a
// PER per packet size from it (phy.PER: 64B/66B coded bits, Eq. 8 or
// exact), in both directions.
func bulkPhysics(c *tcpRun, f fsoConfig) (linkPhysics, error) {
	k, err := phy.ConstantsNamed(f.constants)
	if err != nil {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: %w", err)
	}
	z := f.distance
	if z > 0 {
		c.link.delay = des.FromSeconds(phy.PropagationDelay(z, k))
	}
	if !f.fso {
		ph := linkPhysics{ber: c.link.ber, perData: c.link.per}
		if c.link.ber > 0 {
			ph.perData = phy.PER(c.link.ber, int(c.link.host.mss)+tcp.HeaderBytes, c.link.worst)
		}
		return ph, nil
	}
	if z <= 0 {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: loss_model fso needs a distance")
	}
	if c.link.ber > 0 || c.link.per > 0 {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: loss_model fso computes the BER; leave ber and per at 0")
	}
	link := phy.Table1()
	link.Constants = k
	switch f.detection {
	case "auto":
		link.Detection = phy.Coherent
		if z < fsoDirectBelow {
			link.Detection = phy.Direct
		}
	default:
		if link.Detection, err = phy.ParseDetection(f.detection); err != nil {
			return linkPhysics{}, fmt.Errorf("models: tcp-bulk: %w", err)
		}
	}
	berOf := phy.BEREq7
	if f.berFormula == "q" {
		berOf = phy.BERQ
	}
	return fsoChannels(c, link, berOf, z, f.spacing), nil
}

// fsoChannels sets the loss of each channel and of the ACK direction from
// the budget of link at distance z, each channel on its own wavelength
// spacing apart around the budget's.
func fsoChannels(c *tcpRun, link phy.Link, berOf func(snr float64) float64, z, spacing float64) linkPhysics {
	// Be = 2 x bit rate for OOK (Table 1: 2e9 Hz at 1 Gbps, 8e9 at 4 Gbps).
	be := 2 * c.link.rate.BitsPerSecond()
	n := max(c.channels, 1)
	mss, worst := int(c.link.host.mss), c.link.worst
	center := link.Wavelength
	var ph linkPhysics
	c.chanLoss = make([]netsim.LossModel, n)
	for i := range n {
		l := link
		if n > 1 {
			l.Wavelength = center + (float64(i)-float64(n-1)/2)*spacing
		}
		ber := berOf(l.Budget(z, be).SNR)
		c.chanLoss[i] = perLoss(ber, worst)
		ph.ber += ber / float64(n)
		ph.perData += phy.PER(ber, mss+tcp.HeaderBytes, worst) / float64(n)
	}
	// ACKs go back over the first wavelength's budget (the reverse link
	// runs at the same rate).
	back := link
	if n > 1 {
		back.Wavelength = center - float64(n-1)/2*spacing
	}
	rber := berOf(back.Budget(z, be).SNR)
	c.revLoss = perLoss(rber, worst)
	ph.perAck = phy.PER(rber, tcp.HeaderBytes, worst)
	return ph
}

// perLoss draws each packet's loss from its size on the wire at BER ber,
// or is nil when the channel is error-free to float precision.
func perLoss(ber float64, worst bool) netsim.LossModel {
	if ber <= 0 {
		return nil
	}
	return netsim.PER{Func: func(size int) float64 { return phy.PER(ber, size, worst) }}
}
