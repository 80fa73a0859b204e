package units

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// dec parses decimal text the way strconv does: the reference for values
// that must equal the nearest double to a decimal number.
func dec(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return x
}

func TestParse(t *testing.T) {
	// Decimal-prefixed values must be bit-identical to the decimal literal in
	// base units (exact, tolerance 0), so "53.3ms" and "0.0533s" give the
	// same scenario id. The dBm values follow P[W] = 1 mW * 10^(dBm/10)
	// (the definition of dBm); tolerance 1e-15 relative.
	tests := []struct {
		in   string
		unit vocab.Unit
		want float64
	}{
		{"1Gbps", vocab.BitPerSecond, 1e9},
		{"1 Gbit/s", vocab.BitPerSecond, 1e9},
		{"6.176Mbps", vocab.BitPerSecond, dec("6176000")},
		{"128kbps", vocab.BitPerSecond, 128000},
		{"1MB/s", vocab.BitPerSecond, 8e6},
		{"53.3ms", vocab.Second, dec("0.0533")},
		{"10us", vocab.Second, dec("1e-5")},
		{"10µs", vocab.Second, dec("1e-5")},
		{"2min", vocab.Second, 120},
		{"1h", vocab.Second, 3600},
		{"16000km", vocab.Meter, 1.6e7},
		{"1550nm", vocab.Meter, dec("1.55e-6")},
		{"0.15m", vocab.Meter, dec("0.15")},
		{"1.5e3 km", vocab.Meter, 1.5e6},
		{"-3mm", vocab.Meter, dec("-0.003")},
		{"1500B", vocab.Byte, 1500},
		{"64KiB", vocab.Byte, 65536},
		{"16MB", vocab.Byte, 16e6},
		{"2kB", vocab.Byte, 2000},
		{"12000bit", vocab.Byte, 1500},
		{"1500B", vocab.Bit, 12000},
		{"0.9W", vocab.Watt, dec("0.9")},
		{"10mW", vocab.Watt, dec("0.01")},
		{"0dBW", vocab.Watt, 1},
		{"30dBm", vocab.Watt, 1},
		{"3dBm", vocab.Watt, 1e-3 * math.Pow(10, 0.3)},
		{"3dBm", vocab.DBm, 3},
		{"0dBW", vocab.DBm, 30},
		{"2mW", vocab.DBm, 10 * math.Log10(2e-3/1e-3)},
		{"19.45dB", vocab.Decibel, dec("19.45")},
		{"50GHz", vocab.Hertz, 5e10},
		{"500K", vocab.Kelvin, 500},
		{"50kohm", vocab.Ohm, 50000},
		{"50kΩ", vocab.Ohm, 50000},
		{"0.5%", vocab.Fraction, 0.005},
		{"0.2%", vocab.Fraction, 0.002},
		{"0.5%", vocab.Dimensionless, dec("0.005")},
		{"0.25", vocab.Dimensionless, 0.25},
		{"1e-9", vocab.Dimensionless, 1e-9},
		{"100pkt", vocab.Packet, 100},
		{"0.2dB/km", vocab.DBPerKm, dec("0.2")},
		{"1.3/(W km)", vocab.PerWattPerKm, dec("1.3")},
		{"17ps/(nm km)", vocab.PsPerNmKm, 17},
		{"0.8A/W", vocab.AmperePerWatt, dec("0.8")},
		{"100/s", vocab.PerSecond, 100},
	}
	for _, tt := range tests {
		t.Run(tt.in+"/"+string(tt.unit), func(t *testing.T) {
			got, err := Parse(tt.in, tt.unit)
			if err != nil {
				t.Fatalf("Parse(%q, %q) error: %v", tt.in, tt.unit, err)
			}
			if !close(got, tt.want, 1e-15) {
				t.Errorf("Parse(%q, %q) = %v, want %v", tt.in, tt.unit, got, tt.want)
			}
			if !strings.Contains(tt.in, "dB") && tt.unit != vocab.DBm && got != tt.want {
				t.Errorf("Parse(%q, %q) = %v, want exactly %v", tt.in, tt.unit, got, tt.want)
			}
		})
	}
}

func close(got, want, rel float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(got), math.Abs(want))
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		unit vocab.Unit
		want string // the Error's Msg
	}{
		{"16000", vocab.Meter, "needs a unit of length, e.g. 16000km"},
		{"9000", vocab.Byte, "needs a unit of data size, e.g. 1500B"},
		// A bare number for a fraction reads either way: both are offered.
		{"0.5", vocab.Fraction, "needs a percent sign: write 50% if 0.5 is a fraction, or 0.5% if it is in percent"},
		{"1.5", vocab.Fraction, "needs a percent sign: write 150% if 1.5 is a fraction, or 1.5% if it is in percent"},
		{"0.07", vocab.Fraction, "needs a percent sign: write 7% if 0.07 is a fraction, or 0.07% if it is in percent"},
		{"1e308", vocab.Fraction, "needs a percent sign, e.g. 0.5%"}, // 100 times it is no number
		// A prefix alone, or K (kelvin) for kilo: not steered to bytes.
		{"64k", vocab.Byte, `"k" is a prefix without a unit; a data size takes B, kB, MB, GB, TB, e.g. 1500B`},
		{"2G", vocab.BitPerSecond, `"G" is a prefix without a unit; a bit rate takes bps, kbps, Mbps, Gbps, Tbps, e.g. 1Gbps`},
		{"64Ki", vocab.Byte, `"Ki" is a prefix without a unit; a data size takes B, kB, MB, GB, TB, e.g. 1500B`},
		{"64K", vocab.Byte, `"64K" is a temperature (K is kelvin), but a data size is wanted: write the unit after the prefix, e.g. 64kB or 64KiB`},
		{"16000kn", vocab.Meter, `unknown unit "kn"; did you mean "km"?`},
		// A comma: thousands separators, a decimal comma, or one group of
		// three digits that reads either way.
		{"16,000km", vocab.Meter, `"16,000km" has a comma: write 16000km, or 16.000km if the comma is a decimal comma`},
		{"1,000,000 km", vocab.Meter, `"1,000,000 km" has thousands separators; write 1000000 km`},
		{"2,500.5 MHz", vocab.Hertz, `"2,500.5 MHz" has thousands separators; write 2500.5 MHz`},
		{"0,5%", vocab.Fraction, `"0,5%" has a decimal comma; write 0.5%`},
		{"1,25W", vocab.Watt, `"1,25W" has a decimal comma; write 1.25W`},
		{"4Gbs", vocab.BitPerSecond, `unit "Gbs" is ambiguous: write "Gbps" or "Gbit/s" for bits per second, "GB/s" for bytes per second`},
		{"4Gpbs", vocab.BitPerSecond, `unknown unit "Gpbs"; did you mean "Gbps"?`},
		{"1Gb", vocab.BitPerSecond, `unit "Gb" is ambiguous: write "Gbps" or "Gbit/s" for bits per second, "GB/s" for bytes per second`},
		{"10Mb", vocab.BitPerSecond, `unit "Mb" is ambiguous: write "Mbps" or "Mbit/s" for bits per second, "MB/s" for bytes per second`},
		{"10Mb", vocab.Byte, `unit "Mb" is ambiguous: write "MB" for bytes or "Mbit" for bits`},
		{"1500b", vocab.Byte, `unit "b" is ambiguous: write "B" for bytes or "bit" for bits`},
		{"64KB", vocab.Byte, `unit "KB" is ambiguous: write "kB" for 1000 bytes or "KiB" for 1024 bytes`},
		{"53.3ms", vocab.Meter, `"53.3ms" is a time, but a length is wanted, e.g. 16000km`},
		{"1Gbps", vocab.Byte, `"1Gbps" is a bit rate, but a data size is wanted, e.g. 1500B`},
		{"5km", vocab.Dimensionless, `"5km" is a length, but a plain number is wanted, e.g. 0.5`},
		{"fast", vocab.BitPerSecond, `"fast" is not a quantity; want a number and a unit of bit rate, e.g. 1Gbps`},
		{"x", vocab.Dimensionless, `"x" is not a number`},
		{"3zz", vocab.Second, `unknown unit "zz"; a time takes ps, ns, us, ms, s, e.g. 53.3ms`},
		{"1e999m", vocab.Meter, `"1e999m" is out of range`},
		{"-1mW", vocab.DBm, `"-1mW" is not a positive power, so it has no level in dBm`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in, tt.unit)
			var ue *Error
			if !errors.As(err, &ue) {
				t.Fatalf("Parse(%q, %q) = %v, %v; want error %q", tt.in, tt.unit, got, err, tt.want)
			}
			if ue.Msg != tt.want {
				t.Errorf("Parse(%q, %q) error = %q, want %q", tt.in, tt.unit, ue.Msg, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "units: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		x    float64
		unit vocab.Unit
		want string
	}{
		{1.6e7, vocab.Meter, "16000km"},
		{0.15, vocab.Meter, "150mm"},
		{1.55e-6, vocab.Meter, "1.55um"},
		{0, vocab.Meter, "0m"},
		{0.0533, vocab.Second, "53.3ms"},
		{120, vocab.Second, "120s"},
		{1e9, vocab.BitPerSecond, "1Gbps"},
		{6.176e6, vocab.BitPerSecond, "6.176Mbps"},
		{1500, vocab.Byte, "1500 B"},
		{1460, vocab.Byte, "1460 B"},
		{512, vocab.Byte, "512 B"},
		{65535, vocab.Byte, "65535 B"},
		{65536, vocab.Byte, "64 KiB"},
		{4 << 20, vocab.Byte, "4 MiB"},
		{80e6, vocab.Byte, "80 MB"},
		{1 << 40, vocab.Byte, "1 TiB"},
		{1000, vocab.Byte, "1 kB"},
		{0, vocab.Byte, "0 B"},
		{-2048, vocab.Byte, "-2 KiB"},
		{0.5, vocab.Byte, "0.5B"},
		{0.9, vocab.Watt, "900mW"},
		{19.45, vocab.Decibel, "19.45dB"},
		{0.005, vocab.Fraction, "0.5%"},
		{0.002, vocab.Fraction, "0.2%"},
		{0, vocab.Fraction, "0%"},
		{1, vocab.Fraction, "100%"},
		{1e-9, vocab.Dimensionless, "1e-09"},
		{-2.5e-4, vocab.Second, "-250us"},
		{1e30, vocab.Meter, "1e27km"},
	}
	for _, tt := range tests {
		if got := Format(tt.x, tt.unit); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.x, tt.unit, got, tt.want)
		}
		if back, err := Parse(tt.want, tt.unit); err != nil || back != tt.x {
			t.Errorf("Parse(%q, %q) = %v, %v; want %v back", tt.want, tt.unit, back, err, tt.x)
		}
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		display string
		unit    vocab.Unit
		want    float64
	}{
		{"km", vocab.Meter, 1000},
		{"", vocab.Meter, 1},
		{"ms", vocab.Second, 1e-3},
		{"Mbps", vocab.BitPerSecond, 1e6},
		{"KiB", vocab.Byte, 1024},
		{"kbit", vocab.Byte, 125},
		{"%", vocab.Dimensionless, 0.01},
		{"mW", vocab.Watt, 1e-3},
	}
	for _, tt := range tests {
		got, err := Scale(tt.display, tt.unit)
		if err != nil || got != tt.want {
			t.Errorf("Scale(%q, %q) = %v, %v; want %v", tt.display, tt.unit, got, err, tt.want)
		}
	}
	for _, bad := range []struct {
		display string
		unit    vocab.Unit
	}{{"ms", vocab.Meter}, {"dBm", vocab.Watt}, {"dBW", vocab.DBm}, {"kn", vocab.Meter}} {
		if got, err := Scale(bad.display, bad.unit); err == nil {
			t.Errorf("Scale(%q, %q) = %v, want an error", bad.display, bad.unit, got)
		}
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"distance", "bit_rate", "detection", "power"}
	tests := []struct{ word, want string }{
		{"distnce", "distance"},
		{"bitrate", "bit_rate"},
		{"detcetion", "detection"},
		{"wavelength", ""},
		{"pwr", ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.word, cands); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	// Units: a spelling that differs in case alone is the suggestion,
	// though another candidate is as few edits away (mbps is one edit
	// from Gbps too, S from h).
	units := []string{"bps", "kbps", "Mbps", "Gbps", "Tbps", "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "ns", "us", "ms", "s", "min", "h", "Ms"}
	for _, tt := range []struct{ word, want string }{
		{"mbps", "Mbps"},
		{"Kbps", "kbps"},
		{"mbit/s", "Mbit/s"},
		{"S", "s"},
		{"MS", "ms"}, // ms and Ms: the fewer capitals
		{"Mbs", "Mbps"},
	} {
		if got := Nearest(tt.word, units); got != tt.want {
			t.Errorf("Nearest(%q, units) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

var fuzzUnits = []vocab.Unit{
	vocab.Dimensionless, vocab.Fraction, vocab.Meter, vocab.Second, vocab.BitPerSecond,
	vocab.Byte, vocab.Bit, vocab.Watt, vocab.DBm, vocab.Decibel, vocab.Hertz,
	vocab.Kelvin, vocab.Ohm, vocab.Packet, vocab.DBPerKm, vocab.PsPerNmKm,
}

// FuzzParse checks that Parse never panics and that Parse(Format(x)) gives
// x back within 1e-12 relative for every finite x and unit.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1Gbps", "53.3ms", "16000kn", "64KiB", "3dBm", "1e-9", "-0.5%", "1.e5 km", "+.5e-3Mbit/s"} {
		f.Add(s, 1.6e7, uint8(2))
	}
	f.Add("", 5e-324, uint8(5))
	f.Add("x", -1.7976931348623157e308, uint8(7))
	f.Fuzz(func(t *testing.T, s string, x float64, ui uint8) {
		u := fuzzUnits[int(ui)%len(fuzzUnits)]
		if _, err := Parse(s, u); err != nil {
			var ue *Error
			if !errors.As(err, &ue) {
				t.Fatalf("Parse(%q, %q) error %v is not a *Error", s, u, err)
			}
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		text := Format(x, u)
		got, err := Parse(text, u)
		if err != nil {
			t.Fatalf("Parse(Format(%v, %q) = %q) error: %v", x, u, text, err)
		}
		if !close(got, x, 1e-12) {
			t.Fatalf("Parse(Format(%v, %q) = %q) = %v, want %v", x, u, text, got, x)
		}
	})
}

// TestDidYouMean: a typo gets its nearest name; a stem too far from each
// of its longer names for a typo (jain, fso) gets them all, sorted; no
// near or longer name, or too many longer ones, gets nothing.
func TestDidYouMean(t *testing.T) {
	names := []string{"jain_flows", "jain_algorithms", "goodput", "fso-ber", "fso-bert", "tcp-a", "tcp-b", "tcp-c", "tcp-d", "tcp-e", "tcp-f", "tcp-g"}
	for _, c := range []struct{ word, want string }{
		{"goodptu", `; did you mean "goodput"?`},
		{"jain", `; did you mean "jain_algorithms" or "jain_flows"?`},
		{"fso", `; did you mean "fso-ber" or "fso-bert"?`},
		{"tcp", ""}, // seven longer names: a list, not a suggestion
		{"latency", ""},
		{"", ""},
	} {
		if got := DidYouMean(c.word, names); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

// TestKnown: a display unit of any dimension is known, the empty one is
// the base unit, and an unknown one is answered with the nearest known.
func TestKnown(t *testing.T) {
	for _, tt := range []struct{ display, want string }{
		{"km", ""}, {"Mbps", ""}, {"dBm", ""}, {"%", ""}, {"", ""},
		{"kmm", `units: unknown unit "kmm"; did you mean "km"?`},
		{"Mbpss", `units: unknown unit "Mbpss"; did you mean "Mbps"?`},
	} {
		got := ""
		if err := Known(tt.display); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Known(%q) = %q, want %q", tt.display, got, tt.want)
		}
	}
}
