package plots

// The figures of document 000 (Rodriguez-Colina et al., "A bit error rate
// analysis for TCP traffic over parallel free space photonics",
// Telecommunication Systems, 2013) that are drawn generically from their
// spec's plots entry: only their captions live here.

func rc13Fig3() Figure {
	return Figure{
		ID:      "rc13-fig3",
		Caption: "Document 000, Fig. 3: Worst case scenario where each 1 bit-error causes a packet-error (drawn as PER vs BER, worst-case Eq. 8 vs exact, for several MTUs)",
	}
}

func rc13Fig6() Figure {
	return Figure{
		ID:      "rc13-fig6",
		Caption: "Document 000, Fig. 6: BER vs distance, direct and coherent detection for 1 Gbps and 4 Gbps",
	}
}
