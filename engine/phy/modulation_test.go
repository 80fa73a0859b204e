package phy

import (
	"math"
	"testing"
)

// TestModulationBER checks the BER formulas at the textbook operating
// points, worked by hand from the inverse normal tail:
//
//	QPSK (Gray): BER = Q(sqrt(SNR)); Q^-1(1e-3) = 3.090232, so BER = 1e-3
//	  at SNR = 9.549536 = 9.7998 dB, i.e. Eb/N0 = 6.79 dB, the figure of
//	  every BPSK/QPSK table (Proakis and Salehi, Digital Communications,
//	  5th ed., antipodal signalling); Q^-1(1e-5) = 4.264891, BER = 1e-5 at
//	  SNR = 18.18929 (Eb/N0 = 9.59 dB, the familiar 9.6 dB).
//	16-QAM (Gray): BER = 3/8 erfc(sqrt(SNR/10)) = 1e-3 needs
//	  Q(sqrt(SNR/5)) = 1.333333e-3, Q^-1 = 3.003697, SNR = 45.11283 =
//	  16.543 dB, Eb/N0 = 10.52 dB (the textbook 10.5 dB).
//	OOK: BER = Q(sqrt(SNR)) as QPSK per symbol.
//
// Tolerance 1e-5 relative on BER (the SNRs carry 7 digits, and
// dBER/BER = -SNR/2 dSNR/SNR amplifies their rounding 5-25 times).
func TestModulationBER(t *testing.T) {
	tests := []struct {
		m        Modulation
		snr, ber float64
	}{
		{DPQPSK, 9.549536, 1e-3},
		{DPQPSK, 18.18929, 1e-5},
		{OOK, 9.549536, 1e-3},
		{DP16QAM, 45.11283, 1e-3},
	}
	for _, tt := range tests {
		if got := tt.m.BER(tt.snr); relErr(got, tt.ber) > 1e-5 {
			t.Errorf("%v.BER(%v) = %.7g, want %g", tt.m, tt.snr, got, tt.ber)
		}
	}
	if got := DB(9.549536); math.Abs(got-9.7998) > 1e-4 {
		t.Errorf("DB(9.549536) = %v, want 9.7998", got)
	}
	for _, m := range []Modulation{OOK, DPQPSK, DP16QAM} {
		if got := m.BER(0); got != MaxBER {
			t.Errorf("%v.BER(0) = %v, want %v", m, got, MaxBER)
		}
		prev := MaxBER
		for db := -10.0; db <= 25; db += 0.5 {
			b := m.BER(FromDB(db))
			if !(b < prev) && b > 0 {
				t.Errorf("%v.BER(%v dB) = %v, want below %v", m, db, b, prev)
			}
			prev = b
		}
	}
}

// TestSNRFromOSNR checks the OSNR to SNR conversion (Essiambre et al.
// 2010): a dual-polarisation 32 GBd signal has SNR = OSNR x 12.5/32,
// 4.0824 dB below its OSNR in 0.1 nm; a single-polarisation one sees
// half the noise, +3.0103 dB; referred to its own bandwidth a
// dual-polarisation signal's OSNR is its SNR.
func TestSNRFromOSNR(t *testing.T) {
	tests := []struct {
		bRef, rs float64
		pol      int
		wantDB   float64
	}{
		{RefBandwidth, 32e9, 2, -4.0824},
		{RefBandwidth, 32e9, 1, -4.0824 + 3.0103},
		{32e9, 32e9, 2, 0},
		{RefBandwidth, 12.5e9, 2, 0},
	}
	for _, tt := range tests {
		got := DB(SNRFromOSNR(100, tt.bRef, tt.rs, tt.pol)) - 20
		if math.Abs(got-tt.wantDB) > 1e-4 {
			t.Errorf("SNRFromOSNR(20 dB, %g, %g, %d) = OSNR %+.4f dB, want %+.4f", tt.bRef, tt.rs, tt.pol, got, tt.wantDB)
		}
	}
}

func TestParseModulation(t *testing.T) {
	for _, m := range []Modulation{OOK, DPQPSK, DP16QAM} {
		got, err := ParseModulation(m.String())
		if err != nil || got != m {
			t.Errorf("ParseModulation(%q) = %v, %v, want %v", m.String(), got, err, m)
		}
	}
	if _, err := ParseModulation("8psk"); err == nil {
		t.Errorf("ParseModulation(8psk) succeeded, want an error")
	}
	if got := DP16QAM.BitsPerSymbol(); got != 8 {
		t.Errorf("DP16QAM.BitsPerSymbol() = %d, want 8", got)
	}
	if got := LineBits(1500, false); got != 12000 {
		t.Errorf("LineBits(1500, plain) = %v, want 12000", got)
	}
	if got := LineBits(1500, true); got != 12375 {
		t.Errorf("LineBits(1500, 64b66b) = %v, want 12375", got)
	}
}
