package models

import (
	"context"
	"errors"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/vocab"
)

// OpticalOSNR is the "optical-osnr" model: the generalised OSNR of a
// channel over an amplified fibre line (ASE of every amplifier plus the
// nonlinear interference of the closed-form incoherent GN model,
// Poggiolini 2012), its optimum launch power, and the SNR, BER and packet
// loss a coherent receiver sees at that gOSNR. It is closed form and
// ignores its seed.
//
// In mode "link" the gOSNR follows from the line (spans, fibre,
// amplifiers, WDM comb, launch power); in mode "gosnr" it is given
// directly (given_gosnr), so that sweeps over gOSNR (document 002's axis) need no line.
//
// Calibration to document 002. Its gOSNR 19.45 / 19.15 / 18.95 dB give
// about 0.2 / 0.5 / 0.8 % loss of 1500-byte packets, none at 20 dB. The
// defaults reproduce this with a 32 GBd DP-QPSK receiver, gOSNR read in
// 0.1 nm (SNR = gOSNR x 12.5/32), and an implementation penalty of
// 1.19 dB, the least-squares fit on log loss (phy.FitPenalty; 1.193 dB
// unrounded). The default penalty gives
//
//	gOSNR      document   model      error
//	19.45 dB   0.2 %      0.194 %    -3 %
//	19.15 dB   0.5 %      0.478 %    -4 %
//	18.95 dB   0.8 %      0.844 %    +6 %
//	20.00 dB   none       0.031 %
//	21.00 dB              0.0006 %
//
// so the loss rises fourfold over 0.5 dB, the steepness the document
// points at. The default line (20 spans of 80 km SSMF, 5.5 dB noise
// figure, 90 x 32 GBd on 50 GHz, 0 dBm per channel) has gOSNR 18.95 dB,
// 0.9 dB below its peak of 19.82 dB at -1.87 dBm.
//
// Mininet-Optical, the emulator of document 002, counts ASE in the 32 GHz
// signal bandwidth, so its "gOSNR" reads 4.08 dB below the 0.1 nm value;
// set gosnr_reference to "signal" to read document values that way (the
// fitted DP-QPSK penalty is then 5.28 dB).
type OpticalOSNR struct {
	schema *vocab.Schema
}

const (
	ooMode = iota
	ooGOSNR
	ooGOSNRReference
	ooSpans
	ooSpanLength
	ooAttenuation
	ooNoiseFigure
	ooGain
	ooLaunchPower
	ooChannels
	ooChannelSpacing
	ooSymbolRate
	ooGamma
	ooDispersion
	ooWavelength
	ooModulation
	ooPenalty
	ooMTU
	ooLineCode
	ooParams
)

const (
	ooASEPower = iota
	ooNLIPower
	ooGOSNRdB
	ooGOSNRSignal
	ooOSNRASE
	ooSNR
	ooBER
	ooPER
	ooOptimumLaunchPower
	ooPeakGOSNR
	ooMetrics
)

// NewOpticalOSNR returns the optical-osnr model.
func NewOpticalOSNR() *OpticalOSNR {
	return &OpticalOSNR{schema: opticalOSNRSchema()}
}

func opticalOSNRSchema() *vocab.Schema {
	p := make([]vocab.Param, ooParams)
	p[ooMode] = vocab.Param{Name: "mode", Kind: vocab.String,
		Default: vocab.S("link"), Choices: []string{"link", "gosnr"},
		Doc: "link: gOSNR from the amplified line; gosnr: gOSNR given by given_gosnr (line parameters unused)"}
	p[ooGOSNR] = vocab.Param{Name: "given_gosnr", Kind: vocab.Float, Unit: vocab.Decibel,
		Default: vocab.F(19.45), Min: -20, Max: 80,
		Doc: "generalised OSNR in mode gosnr, read in the bandwidth gosnr_reference names (document 002: 18.95-20 dB)"}
	p[ooGOSNRReference] = vocab.Param{Name: "gosnr_reference", Kind: vocab.String,
		Default: vocab.S("0.1nm"), Choices: []string{"0.1nm", "signal"},
		Doc: "noise bandwidth of given_gosnr: 0.1nm (12.5 GHz, the OSNR convention) or signal (symbol_rate, Mininet-Optical's convention)"}
	p[ooSpans] = vocab.Param{Name: "spans", Kind: vocab.Int,
		Default: vocab.I(20), Min: 1, Max: 10000,
		Doc: "number of fibre spans, each followed by an amplifier"}
	p[ooSpanLength] = vocab.Param{Name: "span_length", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(80e3), Min: 100, Max: 500e3,
		Doc: "length of each span"}
	p[ooAttenuation] = vocab.Param{Name: "attenuation", Kind: vocab.Float, Unit: vocab.DBPerKm,
		Default: vocab.F(0.2), Min: 0.01, Max: 5,
		Doc: "fibre power attenuation (SSMF at 1550 nm: 0.2 dB/km)"}
	p[ooNoiseFigure] = vocab.Param{Name: "noise_figure", Kind: vocab.Float, Unit: vocab.Decibel,
		Default: vocab.F(5.5), Min: 0, Max: 30,
		Doc: "amplifier noise figure NF; ASE per amplifier NF h nu G B (high-gain form of 2 n_sp h nu (G-1) B)"}
	p[ooGain] = vocab.Param{Name: "gain", Kind: vocab.Float, Unit: vocab.Decibel,
		Default: vocab.F(0), Min: 0, Max: 60,
		Doc: "amplifier gain; 0 means equal to the span loss (transparent spans), other values make the channel power drift span by span"}
	p[ooLaunchPower] = vocab.Param{Name: "launch_power", Kind: vocab.Float, Unit: vocab.DBm,
		Default: vocab.F(0), Min: -40, Max: 30,
		Doc: "optical power per channel into the first span"}
	p[ooChannels] = vocab.Param{Name: "channels", Kind: vocab.Int,
		Default: vocab.I(90), Min: 1, Max: 10000,
		Doc: "channels of the WDM comb; the model reports its centre (worst) channel"}
	p[ooChannelSpacing] = vocab.Param{Name: "channel_spacing", Kind: vocab.Float, Unit: vocab.Hertz,
		Default: vocab.F(50e9), Min: 1e8, Max: 10e12,
		Doc: "WDM grid spacing; equal to symbol_rate for Nyquist WDM"}
	p[ooSymbolRate] = vocab.Param{Name: "symbol_rate", Kind: vocab.Float, Unit: vocab.Hertz,
		Default: vocab.F(32e9), Min: 1e8, Max: 10e12,
		Doc: "symbol rate R_s in baud, also the channel's noise bandwidth; at most channel_spacing"}
	p[ooGamma] = vocab.Param{Name: "gamma", Kind: vocab.Float, Unit: vocab.PerWattPerKm,
		Default: vocab.F(1.27), Min: 1e-3, Max: 100,
		Doc: "fibre nonlinear coefficient (SSMF: 1.27 1/(W km))"}
	p[ooDispersion] = vocab.Param{Name: "dispersion", Kind: vocab.Float, Unit: vocab.PsPerNmKm,
		Default: vocab.F(16.7), Min: 0.1, Max: 100,
		Doc: "chromatic dispersion D, converted to beta2 = -D lambda^2/(2 pi c) (SSMF: 16.7 ps/(nm km))"}
	p[ooWavelength] = vocab.Param{Name: "wavelength", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(1550e-9), Min: 1200e-9, Max: 1700e-9,
		Doc: "centre wavelength of the comb"}
	p[ooModulation] = vocab.Param{Name: "modulation", Kind: vocab.String,
		Default: vocab.S("dp-qpsk"), Choices: []string{"ook", "dp-qpsk", "dp-16qam"},
		Doc: "ook: Q(sqrt(SNR)), one polarisation; dp-qpsk: erfc(sqrt(SNR/2))/2; dp-16qam: 3/8 erfc(sqrt(SNR/10)) (Gray coding)"}
	p[ooPenalty] = vocab.Param{Name: "penalty", Kind: vocab.Float, Unit: vocab.Decibel,
		Default: vocab.F(phy.Document002Penalty), Min: -20, Max: 40,
		Doc: "implementation penalty taken off the SNR; 1.19 dB fits document 002's loss points for 32 GBd DP-QPSK"}
	p[ooMTU] = vocab.Param{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte,
		Default: vocab.I(1500), Min: 1, Max: 1 << 24,
		Doc: "packet size in bytes for the packet loss"}
	p[ooLineCode] = vocab.Param{Name: "line_code", Kind: vocab.String,
		Default: vocab.S("64b66b"), Choices: []string{"64b66b", "none"},
		Doc: "64b66b: 66 line bits per 64 data bits (12375 bits for 1500 B); none: 8 bits per byte"}

	m := make([]vocab.Metric, ooMetrics)
	m[ooASEPower] = vocab.Metric{Name: "ase_power", Kind: vocab.Float, Unit: vocab.Watt,
		Doc: "ASE accumulated over all amplifiers in 0.1 nm (12.5 GHz), referred to the launch; null in mode gosnr (not applicable)"}
	m[ooNLIPower] = vocab.Metric{Name: "nli_power", Kind: vocab.Float, Unit: vocab.Watt,
		Doc: "GN-model NLI accumulated incoherently over the spans in 0.1 nm, referred to the launch; null in mode gosnr (not applicable)"}
	m[ooGOSNRdB] = vocab.Metric{Name: "gosnr", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "generalised OSNR P_ch/(P_ASE + P_NLI) in 0.1 nm"}
	m[ooGOSNRSignal] = vocab.Metric{Name: "gosnr_signal_bw", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "gOSNR with noise in the signal bandwidth (symbol_rate): gosnr + 10 log10(12.5 GHz/R_s)"}
	m[ooOSNRASE] = vocab.Metric{Name: "osnr_ase_only", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "OSNR in 0.1 nm with ASE alone (the linear regime); null in mode gosnr (not applicable)"}
	m[ooSNR] = vocab.Metric{Name: "snr", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "per-symbol SNR the receiver decides on: (2/pol) gOSNR 12.5 GHz/R_s, less the penalty"}
	m[ooBER] = vocab.Metric{Name: "ber", Kind: vocab.Float,
		Doc: "bit error rate of the modulation at snr"}
	m[ooPER] = vocab.Metric{Name: "per", Kind: vocab.Float,
		Doc: "packet loss 1-(1-ber)^bits for one mtu-sized packet on the wire"}
	m[ooOptimumLaunchPower] = vocab.Metric{Name: "optimum_launch_power", Kind: vocab.Float, Unit: vocab.DBm,
		Doc: "launch power per channel that maximises gOSNR, (P_ASE/(2 eta N))^(1/3); null in mode gosnr (not applicable)"}
	m[ooPeakGOSNR] = vocab.Metric{Name: "peak_gosnr", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "gOSNR in 0.1 nm at the optimum launch power; null in mode gosnr (not applicable)"}

	return &vocab.Schema{
		Name:    "optical-osnr",
		Version: 2, // 2: not-applicable metrics are null, not NaN
		Doc: "Generalised OSNR of an amplified fibre line (ASE plus closed-form incoherent GN-model NLI, " +
			"Poggiolini 2012), optimum launch power, and the SNR, BER (OOK, DP-QPSK, DP-16QAM) and packet loss " +
			"at that gOSNR, or at a gOSNR given directly; defaults calibrated to document 002's loss at " +
			"19.45/19.15/18.95 dB. Closed form; the seed is unused.",
		Params:  p,
		Metrics: m,
	}
}

// Schema returns the model's schema.
func (m *OpticalOSNR) Schema() *vocab.Schema { return m.schema }

// Cost returns a constant: a scenario is a few dozen floating-point
// operations whatever its parameters.
func (m *OpticalOSNR) Cost(vocab.Params) float64 { return 1 }

var errSymbolRate = errors.New("models: optical-osnr: symbol_rate exceeds channel_spacing (channels would overlap)")

// Run computes one scenario. It allocates only the metrics slice.
func (m *OpticalOSNR) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	v := p.Values()
	if p.Schema() != m.schema {
		var err error
		if v, err = alignParams(m.schema, p); err != nil {
			return vocab.Result{}, fmt.Errorf("models: optical-osnr: %w", err)
		}
	}
	mod, err := phy.ParseModulation(v[ooModulation].Str())
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: optical-osnr: %w", err)
	}
	var code bool
	switch c := v[ooLineCode].Str(); c {
	case "64b66b":
		code = true
	case "none":
	default:
		return vocab.Result{}, fmt.Errorf("models: optical-osnr: unknown line_code %q (want 64b66b or none)", c)
	}
	rs := v[ooSymbolRate].Float()
	out := make([]vocab.Value, ooMetrics)

	var gosnr float64 // linear, 0.1 nm
	switch mode := v[ooMode].Str(); mode {
	case "gosnr":
		gosnr = phy.FromDB(v[ooGOSNR].Float())
		switch ref := v[ooGOSNRReference].Str(); ref {
		case "0.1nm":
		case "signal":
			gosnr *= rs / phy.RefBandwidth
		default:
			return vocab.Result{}, fmt.Errorf("models: optical-osnr: unknown gosnr_reference %q (want 0.1nm or signal)", ref)
		}
		for _, i := range []int{ooASEPower, ooNLIPower, ooOSNRASE, ooOptimumLaunchPower, ooPeakGOSNR} {
			out[i] = vocab.Value{} // null: not applicable when the gOSNR is given
		}
	case "link":
		if rs > v[ooChannelSpacing].Float() {
			return vocab.Result{}, errSymbolRate
		}
		l := phy.AmplifiedLink{
			Spans: int(v[ooSpans].Int()),
			Fibre: phy.Fibre{
				Length:      v[ooSpanLength].Float(),
				Attenuation: v[ooAttenuation].Float(),
				Dispersion:  v[ooDispersion].Float(),
				Gamma:       v[ooGamma].Float(),
				Wavelength:  v[ooWavelength].Float(),
			},
			NoiseFigure: v[ooNoiseFigure].Float(),
			Gain:        v[ooGain].Float(),
			Comb: phy.Comb{
				Channels:   int(v[ooChannels].Int()),
				SymbolRate: rs,
				Spacing:    v[ooChannelSpacing].Float(),
			},
			Constants: phy.CODATA(),
		}
		o := l.OSNR(1e-3 * phy.FromDB(v[ooLaunchPower].Float()))
		gosnr = o.GOSNR
		out[ooASEPower] = vocab.F(o.ASE)
		out[ooNLIPower] = vocab.F(o.NLI)
		out[ooOSNRASE] = vocab.F(phy.DB(o.OSNRASE))
		out[ooOptimumLaunchPower] = vocab.F(phy.DBm(o.OptimumLaunchPower))
		out[ooPeakGOSNR] = vocab.F(phy.DB(o.PeakGOSNR))
	default:
		return vocab.Result{}, fmt.Errorf("models: optical-osnr: unknown mode %q (want link or gosnr)", mode)
	}

	rx := phy.Receiver{Modulation: mod, SymbolRate: rs, Penalty: v[ooPenalty].Float()}
	snr := rx.SNR(gosnr, phy.RefBandwidth)
	ber := mod.BER(snr)
	out[ooGOSNRdB] = vocab.F(phy.DB(gosnr))
	out[ooGOSNRSignal] = vocab.F(phy.DB(gosnr * phy.RefBandwidth / rs))
	out[ooSNR] = vocab.F(phy.DB(snr))
	out[ooBER] = vocab.F(ber)
	out[ooPER] = vocab.F(phy.PERExact(ber, phy.LineBits(v[ooMTU].Float(), code)))
	return vocab.Result{Metrics: out}, nil
}

// alignParams reads p by parameter name into the order of s, for
// parameter sets bound to another copy of the schema.
func alignParams(s *vocab.Schema, p vocab.Params) ([]vocab.Value, error) {
	ps := p.Schema()
	if ps == nil || ps.Name != s.Name {
		return nil, errors.New("parameters of another model")
	}
	v := make([]vocab.Value, len(s.Params))
	for i, par := range s.Params {
		j := ps.ParamIndex(par.Name)
		if j < 0 {
			return nil, fmt.Errorf("no parameter %q", par.Name)
		}
		v[i] = p.Values()[j]
		if v[i].Kind() != par.Kind {
			return nil, fmt.Errorf("%s is a %s, want a %s", par.Name, v[i].Kind(), par.Kind)
		}
	}
	return v, nil
}
