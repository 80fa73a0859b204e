package units

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine"
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
		unit engine.Unit
		want float64
	}{
		{"1Gbps", engine.BitPerSecond, 1e9},
		{"1 Gbit/s", engine.BitPerSecond, 1e9},
		{"6.176Mbps", engine.BitPerSecond, dec("6176000")},
		{"128kbps", engine.BitPerSecond, 128000},
		{"1MB/s", engine.BitPerSecond, 8e6},
		{"53.3ms", engine.Second, dec("0.0533")},
		{"10us", engine.Second, dec("1e-5")},
		{"10µs", engine.Second, dec("1e-5")},
		{"2min", engine.Second, 120},
		{"1h", engine.Second, 3600},
		{"16000km", engine.Meter, 1.6e7},
		{"1550nm", engine.Meter, dec("1.55e-6")},
		{"0.15m", engine.Meter, dec("0.15")},
		{"1.5e3 km", engine.Meter, 1.5e6},
		{"-3mm", engine.Meter, dec("-0.003")},
		{"1500B", engine.Byte, 1500},
		{"64KiB", engine.Byte, 65536},
		{"16MB", engine.Byte, 16e6},
		{"2kB", engine.Byte, 2000},
		{"12000bit", engine.Byte, 1500},
		{"1500B", engine.Bit, 12000},
		{"0.9W", engine.Watt, dec("0.9")},
		{"10mW", engine.Watt, dec("0.01")},
		{"0dBW", engine.Watt, 1},
		{"30dBm", engine.Watt, 1},
		{"3dBm", engine.Watt, 1e-3 * math.Pow(10, 0.3)},
		{"3dBm", engine.DBm, 3},
		{"0dBW", engine.DBm, 30},
		{"2mW", engine.DBm, 10 * math.Log10(2e-3/1e-3)},
		{"19.45dB", engine.Decibel, dec("19.45")},
		{"50GHz", engine.Hertz, 5e10},
		{"500K", engine.Kelvin, 500},
		{"50kohm", engine.Ohm, 50000},
		{"50kΩ", engine.Ohm, 50000},
		{"0.5%", engine.Percent, 0.5},
		{"0.5%", engine.Dimensionless, dec("0.005")},
		{"0.25", engine.Dimensionless, 0.25},
		{"1e-9", engine.Dimensionless, 1e-9},
		{"100pkt", engine.Packet, 100},
		{"0.2dB/km", engine.DBPerKm, dec("0.2")},
		{"1.3/(W km)", engine.PerWattPerKm, dec("1.3")},
		{"17ps/(nm km)", engine.PsPerNmKm, 17},
		{"0.8A/W", engine.AmperePerWatt, dec("0.8")},
		{"100/s", engine.PerSecond, 100},
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
			if !strings.Contains(tt.in, "dB") && tt.unit != engine.DBm && got != tt.want {
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
		unit engine.Unit
		want string // the Error's Msg
	}{
		{"16000", engine.Meter, "needs a unit of length, e.g. 16000km"},
		{"9000", engine.Byte, "needs a unit of data size, e.g. 1500B"},
		{"0.5", engine.Percent, "needs a percent sign, e.g. 0.5%"},
		{"16000kn", engine.Meter, `unknown unit "kn"; did you mean "km"?`},
		{"4Gbs", engine.BitPerSecond, `unit "Gbs" is ambiguous: write "Gbps" or "Gbit/s" for bits per second, "GB/s" for bytes per second`},
		{"4Gpbs", engine.BitPerSecond, `unknown unit "Gpbs"; did you mean "Gbps"?`},
		{"1Gb", engine.BitPerSecond, `unit "Gb" is ambiguous: write "GB" for bytes or "Gbit" for bits`},
		{"1500b", engine.Byte, `unit "b" is ambiguous: write "B" for bytes or "bit" for bits`},
		{"64KB", engine.Byte, `unit "KB" is ambiguous: write "kB" for 1000 bytes or "KiB" for 1024 bytes`},
		{"53.3ms", engine.Meter, `"53.3ms" is a time, but a length is wanted, e.g. 16000km`},
		{"1Gbps", engine.Byte, `"1Gbps" is a bit rate, but a data size is wanted, e.g. 1500B`},
		{"5km", engine.Dimensionless, `"5km" is a length, but a plain number is wanted, e.g. 0.5`},
		{"fast", engine.BitPerSecond, `"fast" is not a quantity; want a number and a unit of bit rate, e.g. 1Gbps`},
		{"x", engine.Dimensionless, `"x" is not a number`},
		{"3zz", engine.Second, `unknown unit "zz"; a time takes ps, ns, us, ms, s, e.g. 53.3ms`},
		{"1e999m", engine.Meter, `"1e999m" is out of range`},
		{"-1mW", engine.DBm, `"-1mW" is not a positive power, so it has no level in dBm`},
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
		unit engine.Unit
		want string
	}{
		{1.6e7, engine.Meter, "16000km"},
		{0.15, engine.Meter, "150mm"},
		{1.55e-6, engine.Meter, "1.55um"},
		{0, engine.Meter, "0m"},
		{0.0533, engine.Second, "53.3ms"},
		{120, engine.Second, "120s"},
		{1e9, engine.BitPerSecond, "1Gbps"},
		{6.176e6, engine.BitPerSecond, "6.176Mbps"},
		{1500, engine.Byte, "1.5kB"},
		{512, engine.Byte, "512B"},
		{0.9, engine.Watt, "900mW"},
		{19.45, engine.Decibel, "19.45dB"},
		{0.5, engine.Percent, "0.5%"},
		{1e-9, engine.Dimensionless, "1e-09"},
		{-2.5e-4, engine.Second, "-250us"},
		{1e30, engine.Meter, "1e27km"},
	}
	for _, tt := range tests {
		if got := Format(tt.x, tt.unit); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.x, tt.unit, got, tt.want)
		}
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		display string
		unit    engine.Unit
		want    float64
	}{
		{"km", engine.Meter, 1000},
		{"", engine.Meter, 1},
		{"ms", engine.Second, 1e-3},
		{"Mbps", engine.BitPerSecond, 1e6},
		{"KiB", engine.Byte, 1024},
		{"kbit", engine.Byte, 125},
		{"%", engine.Dimensionless, 0.01},
		{"mW", engine.Watt, 1e-3},
	}
	for _, tt := range tests {
		got, err := Scale(tt.display, tt.unit)
		if err != nil || got != tt.want {
			t.Errorf("Scale(%q, %q) = %v, %v; want %v", tt.display, tt.unit, got, err, tt.want)
		}
	}
	for _, bad := range []struct {
		display string
		unit    engine.Unit
	}{{"ms", engine.Meter}, {"dBm", engine.Watt}, {"dBW", engine.DBm}, {"kn", engine.Meter}} {
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
}

var fuzzUnits = []engine.Unit{
	engine.Dimensionless, engine.Percent, engine.Meter, engine.Second, engine.BitPerSecond,
	engine.Byte, engine.Bit, engine.Watt, engine.DBm, engine.Decibel, engine.Hertz,
	engine.Kelvin, engine.Ohm, engine.Packet, engine.DBPerKm, engine.PsPerNmKm,
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
