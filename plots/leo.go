package plots

// The LEO constellation figures (issue 16): drawn by the generic line
// figure from their specs (specs/leo-*.yaml); registered for their
// captions.

func leoRTT() Figure {
	return Figure{ID: "leo-rtt",
		Caption: "Path RTT over 200 s for three city pairs on Kuiper K1, shortest-delay routing every 100 ms (after Hypatia, Kassing et al., IMC 2020, section 4)"}
}

func leoTCP() Figure {
	return Figure{ID: "leo-tcp",
		Caption: "Congestion window of one NewReno, CUBIC or BBR flow over a moving Kuiper K1 path (10 Mbit/s ground links)"}
}

func leoTCPDelivered() Figure {
	return Figure{ID: "leo-tcp-delivered", Caption: "Bytes delivered over time by the same flows (slope: goodput)"}
}

func leoTCPPath() Figure {
	return Figure{ID: "leo-tcp-path", Caption: "Path RTT and the sender's smoothed RTT of the same flows; path changes are the steps"}
}

func leoBER() Figure {
	return Figure{ID: "leo-ber",
		Caption: "Fraction of time Starlink's ISLs exceed PER 1e-6 against pointing jitter, 10 and 100 Gbit/s terminals (document 000 optics)"}
}

func leoCCA() Figure {
	return Figure{ID: "leo-cca",
		Caption: "Goodput of NewReno, CUBIC and BBR over the moving Kuiper K1 path and the same path frozen, against ISL pointing jitter"}
}
