package plots

import "github.com/crosslink-sim/crosslink/sweep/units"

// This file lists the figures of the four source documents, one file set
// per document above the drawing core: rc13*.go (document 000), zh_*.go
// (001), os_*.go (002), sp_*.go (004) and leo.go (the LEO constellation
// figures). The core never uses a name of these files (TestCoreUsesNoFigure).

// builtin lists the figures of the source documents. A new figure is one
// file with its constructor plus one line here.
func builtin() []Figure {
	return []Figure{
		rc13Fig3(),
		rc13Fig6(),
		rc13Tab2(),
		spFig1(),
		spLoss(),
		spQueue(),
		spPEP(),
		spCoding(),
		spCodingGoodput(),
		spFQCoDel(),
		spFQCoDelLoss(),
		osTestbedAblation(),
		rc13Fig2(), rc13Fig4(), rc13Fig5(), rc13Fig7(), rc13Fig8(), rc13Fig8Physics(), rc13Tab3(),
		osFig2(), osFig3(), osFig4(), osFig5(), osFig6(), osFig7(), osFig8(), osFig9(),
		osNetFig2(), osNetFig3(), osNetFig4(), osNetFig5(), osNetFig6(), osNetFig7(), osNetFig8(), osNetFig9(),
		osLossGOSNR(),
		zhThr6176(), zhThr1544(), zhRT384M(), zhRT384K(), zhVariants6176(), zhVariants384(),
		zhMBoneLoss(), zhMBoneJitter(), zhMBoneBW(), zhMBoneFPS(), zhMBoneTab(),
		leoRTT(), leoTCP(), leoTCPDelivered(), leoTCPPath(), leoBER(), leoCCA(),
		leoNetworkGoodput(), leoNetworkUtilisation(), leoNetworkRTT(), leoNetworkPathChanges(), leoNetworkAdaptive(), leoNetworkAdaptiveLoss(),
	}
}

// NewRegistry returns a registry of every built-in figure, drawn in the
// default theme, with display units scaled by units.Scale.
func NewRegistry() *Registry {
	r := &Registry{Theme: DefaultTheme(), Scale: units.Scale, figs: map[string]Figure{}}
	for _, f := range builtin() {
		if err := r.Add(f); err != nil {
			panic("plots: bug: " + err.Error())
		}
	}
	return r
}
