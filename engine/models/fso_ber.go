package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/vocab"
)

// FSOBER is the "fso-ber" model: the bit and packet error rates of a
// free-space optical inter-satellite link as a function of distance, bit
// rate and detection scheme (Fig. 6, Fig. 3 and Table 2 of document 000,
// Rodriguez-Colina et al. 2013). It is closed form and ignores its seed.
//
// With Table 1's parameters, BER reaches 1e-9 at 17,600 km for direct
// detection at 1 Gbps and at 51,700 km for coherent detection (CODATA
// constants; 18,100 and 53,200 km with the printed ones), in line with the
// document's advice of direct detection below about 20,000 km. The PER
// column of its Table 3 (1e-12, 1e-8, 1e-4, 1e-3 at 16,000, 25,000,
// 50,000 and 80,000 km) does not follow from its Eqs. 1-8 with either
// constant set, and is the same for 1 and 4 Gbps although the document
// says BER is higher at 4 Gbps; specs that reproduce Table 3 set PER
// directly rather than through this model.
type FSOBER struct {
	schema *vocab.Schema
}

// The positions of the parameters in the schema, so that Run reads them
// without a name lookup.
const (
	fbDistance = iota
	fbBitRate
	fbDetection
	fbPower
	fbWavelength
	fbApertureTx
	fbApertureRx
	fbEfficiencyTx
	fbEfficiencyRx
	fbQuantumEfficiency
	fbTemperature
	fbLoadResistance
	fbMTU
	fbBandwidthFactor
	fbConstants
	fbBERFormula
	fbParams // count
)

// The positions of the metrics in the schema.
const (
	fbReceivedPower = iota
	fbReceivedPowerDBm
	fbResponsivity
	fbNoiseEquivalentPower
	fbElectricalBandwidth
	fbSNR
	fbSNRdB
	fbBER
	fbBEREq7
	fbBERQ
	fbWireSize
	fbPERWorst
	fbPERExact
	fbOneWayDelay
	fbTransmissionTime
	fbMetrics // count
)

// NewFSOBER returns the fso-ber model.
func NewFSOBER() *FSOBER {
	return &FSOBER{schema: fsoBERSchema()}
}

func fsoBERSchema() *vocab.Schema {
	params := make([]vocab.Param, fbParams)
	params[fbDistance] = vocab.Param{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(16000e3), Min: 1e3, Max: 1e9,
		Doc: "distance z between the two satellites (Eq. 3); Table 2 uses 16,000 to 80,000 km"}
	params[fbBitRate] = vocab.Param{Name: "bit_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond,
		Default: vocab.F(1e9), Min: 1e3, Max: 1e13,
		Doc: "line bit rate of the OOK signal; the document uses 1 and 4 Gbps"}
	params[fbDetection] = vocab.Param{Name: "detection", Kind: vocab.String,
		Default: vocab.S("direct"), Choices: []string{"direct", "coherent"},
		Doc: "direct: thermal noise only (Eq. 5); coherent: shot noise only (Eq. 6)"}
	params[fbPower] = vocab.Param{Name: "power", Kind: vocab.Float, Unit: vocab.Watt,
		Default: vocab.F(0.9), Min: 1e-9, Max: 1e4,
		Doc: "transmitted optical power PT (Table 1: 0.9 W)"}
	params[fbWavelength] = vocab.Param{Name: "wavelength", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(1550e-9), Min: 100e-9, Max: 100e-6,
		Doc: "optical wavelength lambda (Table 1: 1550 nm)"}
	params[fbApertureTx] = vocab.Param{Name: "aperture_tx", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(0.15), Min: 1e-3, Max: 10,
		Doc: "transmitter telescope diameter D, gain (pi D/lambda)^2 (Eq. 4; Table 1: 0.15 m)"}
	params[fbApertureRx] = vocab.Param{Name: "aperture_rx", Kind: vocab.Float, Unit: vocab.Meter,
		Default: vocab.F(0.15), Min: 1e-3, Max: 10,
		Doc: "receiver telescope diameter D (Eq. 4; Table 1: 0.15 m)"}
	params[fbEfficiencyTx] = vocab.Param{Name: "optics_efficiency_tx", Kind: vocab.Float,
		Default: vocab.F(0.75), Min: 0, Max: 1,
		Doc: "transmitter optics efficiency etaT as a fraction (Table 1 prints 0.75 %; 0.75 is meant)"}
	params[fbEfficiencyRx] = vocab.Param{Name: "optics_efficiency_rx", Kind: vocab.Float,
		Default: vocab.F(0.75), Min: 0, Max: 1,
		Doc: "receiver optics efficiency etaR as a fraction (Table 1 prints 0.75 %; 0.75 is meant)"}
	params[fbQuantumEfficiency] = vocab.Param{Name: "quantum_efficiency", Kind: vocab.Float,
		Default: vocab.F(0.75), Min: 0, Max: 1,
		Doc: "quantum efficiency eta of the p-i-n photodetector (Eq. 2; Table 1: 0.75)"}
	params[fbTemperature] = vocab.Param{Name: "temperature", Kind: vocab.Float, Unit: vocab.Kelvin,
		Default: vocab.F(500), Min: 0.1, Max: 1e4,
		Doc: "detector operating temperature T for thermal noise (Eq. 5; Table 1: 500 K)"}
	params[fbLoadResistance] = vocab.Param{Name: "load_resistance", Kind: vocab.Float, Unit: vocab.Ohm,
		Default: vocab.F(50e3), Min: 1, Max: 1e12,
		Doc: "load resistor R of the receiver electronics (Eq. 5; Table 1: 50 kOhm)"}
	params[fbMTU] = vocab.Param{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte,
		Default: vocab.I(1500), Min: 1, Max: 1 << 24,
		Doc: "packet size in bytes before 64B/66B coding, for PER (Eq. 8) and transmission time"}
	params[fbBandwidthFactor] = vocab.Param{Name: "bandwidth_factor", Kind: vocab.Float,
		Default: vocab.F(2), Min: 0.1, Max: 100,
		Doc: "electrical bandwidth Be as a multiple of the bit rate (OOK: 2, Table 1)"}
	params[fbConstants] = vocab.Param{Name: "constants", Kind: vocab.String,
		Default: vocab.S("codata"), Choices: []string{"codata", "paper"},
		Doc: "codata: CODATA 2018 h, kB, c, q_e; paper: Table 1's printed values (h = 6.26e-34, kB = 1.386504e-23, c = 3e8, q_e = 1.6e-19)"}
	params[fbBERFormula] = vocab.Param{Name: "ber_formula", Kind: vocab.String,
		Default: vocab.S("eq7"), Choices: []string{"eq7", "q"},
		Doc: "BER behind the ber and per metrics: eq7 = exp(-SNR/2)/sqrt(2 pi SNR) (Eq. 7), q = Q(sqrt(SNR)) (exact OOK)"}

	metrics := make([]vocab.Metric, fbMetrics)
	metrics[fbReceivedPower] = vocab.Metric{Name: "received_power", Kind: vocab.Float, Unit: vocab.Watt,
		Doc: "received optical power PR (Eq. 3)"}
	metrics[fbReceivedPowerDBm] = vocab.Metric{Name: "received_power", Kind: vocab.Float, Unit: vocab.DBm,
		Doc: "received optical power PR in dBm"}
	metrics[fbResponsivity] = vocab.Metric{Name: "responsivity", Kind: vocab.Float, Unit: vocab.AmperePerWatt,
		Doc: "photodetector responsivity Res (Eq. 2)"}
	metrics[fbNoiseEquivalentPower] = vocab.Metric{Name: "noise_equivalent_power", Kind: vocab.Float, Unit: vocab.Watt,
		Doc: "optical power whose photocurrent equals the RMS noise current (Eq. 5 or 6), sqrt(i_n^2)/Res, so snr = (PR/NEP)^2"}
	metrics[fbElectricalBandwidth] = vocab.Metric{Name: "electrical_bandwidth", Kind: vocab.Float, Unit: vocab.Hertz,
		Doc: "receiver electrical bandwidth Be = bandwidth_factor x bit_rate"}
	metrics[fbSNR] = vocab.Metric{Name: "snr", Kind: vocab.Float,
		Doc: "electrical signal-to-noise ratio (Res PR)^2/i_n^2 (Eq. 1), linear"}
	metrics[fbSNRdB] = vocab.Metric{Name: "snr", Kind: vocab.Float, Unit: vocab.Decibel,
		Doc: "the SNR in decibels, 10 log10(snr)"}
	metrics[fbBER] = vocab.Metric{Name: "ber", Kind: vocab.Float,
		Doc: "bit error rate by ber_formula: ber_eq7 or ber_q"}
	metrics[fbBEREq7] = vocab.Metric{Name: "ber_eq7", Kind: vocab.Float,
		Doc: "Eq. 7, exp(-SNR/2)/sqrt(2 pi SNR), capped at 0.5 (it exceeds 0.5 below SNR 0.42)"}
	metrics[fbBERQ] = vocab.Metric{Name: "ber_q", Kind: vocab.Float,
		Doc: "Q(sqrt(SNR)), the exact OOK BER whose large-SNR asymptote is Eq. 7"}
	metrics[fbWireSize] = vocab.Metric{Name: "wire_size", Kind: vocab.Float, Unit: vocab.Bit,
		Doc: "bits on the wire of one mtu-sized packet under 64B/66B coding, 8 mtu 66/64 (Eq. 8)"}
	metrics[fbPERWorst] = vocab.Metric{Name: "per_worst", Kind: vocab.Float,
		Doc: "worst-case packet error rate ber x wire_size (Eq. 8), clamped at 1"}
	metrics[fbPERExact] = vocab.Metric{Name: "per_exact", Kind: vocab.Float,
		Doc: "packet error rate with independent bit errors, 1 - (1-ber)^wire_size"}
	metrics[fbOneWayDelay] = vocab.Metric{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "propagation time z/c with the chosen constants' c (Table 2)"}
	metrics[fbTransmissionTime] = vocab.Metric{Name: "transmission_time", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "time to send one mtu-sized packet, 8 mtu / bit_rate (uncoded bits at the line rate; Fig. 5)"}

	return &vocab.Schema{
		Name:    "fso-ber",
		Version: 1,
		Doc: "Link budget, SNR, BER and PER of a free-space optical inter-satellite link with " +
			"direct or coherent detection, from Rodriguez-Colina et al. 2013, section 4 (Eqs. 1-8, Table 1); " +
			"also the one-way delay of Table 2 and the packet transmission time of Fig. 5. Closed form; the seed is unused.",
		Params:  params,
		Metrics: metrics,
	}
}

// Schema returns the model's schema.
func (m *FSOBER) Schema() *vocab.Schema { return m.schema }

// Cost returns a constant: every scenario is the same few dozen
// floating-point operations.
func (m *FSOBER) Cost(vocab.Params) float64 { return 1 }

// Run computes one scenario. It allocates only the metrics slice.
func (m *FSOBER) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	v := p.Values()
	if p.Schema() != m.schema {
		var err error
		if v, err = m.align(p); err != nil {
			return vocab.Result{}, err
		}
	}
	det, err := phy.ParseDetection(v[fbDetection].Str())
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: fso-ber: %w", err)
	}
	k, err := phy.ConstantsNamed(v[fbConstants].Str())
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: fso-ber: %w", err)
	}
	var berOf func(float64) float64
	switch f := v[fbBERFormula].Str(); f {
	case "eq7":
		berOf = phy.BEREq7
	case "q":
		berOf = phy.BERQ
	default:
		return vocab.Result{}, fmt.Errorf("models: fso-ber: unknown ber_formula %q (want eq7 or q)", f)
	}

	link := phy.Link{
		Power:             v[fbPower].Float(),
		Wavelength:        v[fbWavelength].Float(),
		ApertureTx:        v[fbApertureTx].Float(),
		ApertureRx:        v[fbApertureRx].Float(),
		EfficiencyTx:      v[fbEfficiencyTx].Float(),
		EfficiencyRx:      v[fbEfficiencyRx].Float(),
		QuantumEfficiency: v[fbQuantumEfficiency].Float(),
		Temperature:       v[fbTemperature].Float(),
		LoadResistance:    v[fbLoadResistance].Float(),
		Detection:         det,
		Constants:         k,
	}
	z, rate, mtu := v[fbDistance].Float(), v[fbBitRate].Float(), v[fbMTU].Float()
	be := v[fbBandwidthFactor].Float() * rate
	b := link.Budget(z, be)
	ber7, berQ := phy.BEREq7(b.SNR), phy.BERQ(b.SNR)
	ber := berOf(b.SNR)
	bits := phy.WireBits(mtu)

	out := make([]vocab.Value, fbMetrics)
	out[fbReceivedPower] = vocab.F(b.ReceivedPower)
	out[fbReceivedPowerDBm] = vocab.F(phy.DBm(b.ReceivedPower))
	out[fbResponsivity] = vocab.F(b.Responsivity)
	out[fbNoiseEquivalentPower] = vocab.F(b.NoiseEquivalentPower())
	out[fbElectricalBandwidth] = vocab.F(be)
	out[fbSNR] = vocab.F(b.SNR)
	out[fbSNRdB] = vocab.F(phy.DB(b.SNR))
	out[fbBER] = vocab.F(ber)
	out[fbBEREq7] = vocab.F(ber7)
	out[fbBERQ] = vocab.F(berQ)
	out[fbWireSize] = vocab.F(bits)
	out[fbPERWorst] = vocab.F(phy.PERWorst(ber, bits))
	out[fbPERExact] = vocab.F(phy.PERExact(ber, bits))
	out[fbOneWayDelay] = vocab.F(phy.PropagationDelay(z, k))
	out[fbTransmissionTime] = vocab.F(phy.TransmissionTime(mtu, rate))
	return vocab.Result{Metrics: out}, nil
}

// align reads p by parameter name into this model's order, for parameter
// sets bound to another copy of the schema.
func (m *FSOBER) align(p vocab.Params) ([]vocab.Value, error) {
	s := p.Schema()
	if s == nil || s.Name != m.schema.Name {
		return nil, fmt.Errorf("models: fso-ber: parameters of another model")
	}
	v := make([]vocab.Value, fbParams)
	for i, par := range m.schema.Params {
		j := s.ParamIndex(par.Name)
		if j < 0 {
			return nil, fmt.Errorf("models: fso-ber: no parameter %q", par.Name)
		}
		v[i] = p.Values()[j]
		if v[i].Kind() != par.Kind {
			return nil, fmt.Errorf("models: fso-ber: %s is a %s, want a %s", par.Name, v[i].Kind(), par.Kind)
		}
	}
	return v, nil
}
