package plots

import (
	"context"
	"fmt"
)

// The LEO constellation figures: drawn by the generic line figure from
// their specs (specs/leo-*.yaml); registered for their captions, and the
// path figures to draw a sample without a path as a gap.

func leoRTT() Figure {
	return Figure{ID: "leo-rtt",
		Caption: "Path RTT over 200 s for three city pairs on Kuiper K1, shortest-delay routing every 100 ms (after Hypatia, Kassing et al., IMC 2020, section 4)",
		Draw:    drawLEOPath}
}

func leoTCP() Figure {
	return Figure{ID: "leo-tcp",
		Caption: "Congestion window of one NewReno, CUBIC or BBR flow over a moving Kuiper K1 path (10 Mbit/s ground links)"}
}

func leoTCPDelivered() Figure {
	return Figure{ID: "leo-tcp-delivered", Caption: "Bytes delivered over time by the same flows (slope: goodput)"}
}

func leoTCPPath() Figure {
	return Figure{ID: "leo-tcp-path",
		Caption: "Path RTT and the sender's smoothed RTT of the same flows; path changes are the steps",
		Draw:    drawLEOPath}
}

func leoBER() Figure {
	return Figure{ID: "leo-ber",
		Caption: "Fraction of time Starlink's ISLs exceed PER 1e-6 against pointing jitter, 10 and 100 Gbit/s terminals (document 000 optics)"}
}

func leoCCA() Figure {
	return Figure{ID: "leo-cca",
		Caption: "Goodput of NewReno, CUBIC and BBR over the moving Kuiper K1 path and the same path frozen, against ISL pointing jitter"}
}

// The leo-network figures (specs/leo-network*.yaml).

func leoNetworkGoodput() Figure {
	return Figure{ID: "leo-network-goodput",
		Caption: "Mean goodput of a flow by congestion controller, three competing flows per city pair over Kuiper K1's network, against the ISL queue"}
}

func leoNetworkUtilisation() Figure {
	return Figure{ID: "leo-network-utilisation",
		Caption: "Mean utilisation of the busy ISLs and ground links by the latitude of their midpoint, same runs"}
}

func leoNetworkRTT() Figure {
	return Figure{ID: "leo-network-rtt",
		Caption: "Path RTT and smoothed RTT of one pair inside Kuiper K1's network; steps in the path RTT are path changes",
		Draw:    drawLEOPath}
}

func leoNetworkPathChanges() Figure {
	return Figure{ID: "leo-network-path-changes", Caption: "Path changes so far of the same pair"}
}

func leoNetworkAdaptive() Figure {
	return Figure{ID: "leo-network-adaptive",
		Caption: "Total TCP goodput with ISLs fixed at their top rate and with rate modes that follow each link's length (document 000 optics)"}
}

func leoNetworkAdaptiveLoss() Figure {
	return Figure{ID: "leo-network-adaptive-loss", Caption: "Packets lost to bit errors on the ISLs, same runs"}
}

// drawLEOPath draws a leo-path time series with the path RTT of samples
// without a path as a gap in the line: the leo-path model writes their
// RTT as 0, as Hypatia does (and the claims' means count it so), but no
// path has no RTT, and a 0 ms RTT would read as a path faster than light.
func drawLEOPath(ctx context.Context, in Input) (*Output, error) {
	ld, err := in.curves(ctx)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, c := range ld.Curves {
		if c.Y != "rtt" {
			continue
		}
		for k, p := range c.Points {
			if p.drawn() && p.Mean == 0 {
				c.Points[k].Note = gapNote
				n++
			}
		}
	}
	if n > 0 {
		ld.Notes = append(ld.Notes, fmt.Sprintf("%d samples have no path: drawn as gaps in the path RTT", n))
	}
	return lineOutput(in, ld)
}
