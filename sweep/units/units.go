package units

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/crosslink-sim/crosslink/vocab"
)

// dimension groups the units that convert into each other by a factor.
// Power and power level (dBm) are two dimensions joined by a logarithm.
type dimension uint8

const (
	plain dimension = iota // dimensionless: a bare number or a percentage
	length
	duration
	bitRate
	dataSize
	power
	powerLevel
	decibels
	frequency
	temperature
	resistance
	responsivity
	packets
	perSecond
	attenuation
	nonlinearity
	dispersion
)

var nouns = [...]string{
	plain:        "plain number",
	length:       "length",
	duration:     "time",
	bitRate:      "bit rate",
	dataSize:     "data size",
	power:        "power",
	powerLevel:   "power level",
	decibels:     "ratio in decibels",
	frequency:    "frequency",
	temperature:  "temperature",
	resistance:   "resistance",
	responsivity: "responsivity",
	packets:      "packet count",
	perSecond:    "rate per second",
	attenuation:  "attenuation",
	nonlinearity: "nonlinear coefficient",
	dispersion:   "dispersion",
}

func (d dimension) String() string { return nouns[d] }

// symbol is one spelling of a unit. One symbol equals 10^dec * mul of its
// dimension's reference unit (metre, second, bit/s, bit, watt, dBm, ...).
// Powers of ten are kept apart from mul so that Parse can shift the decimal
// exponent in the text: "53.3ms" reads exactly as "53.3e-3", the same double
// as "0.0533s", and therefore names the same scenario.
type symbol struct {
	name   string
	dim    dimension
	dec    int
	mul    float64
	offset float64 // added after scaling: dBW is dBm + 30
}

// info is how an vocab.Unit sits in its dimension, and an example for
// messages.
type info struct {
	dim     dimension
	dec     int
	mul     float64
	example string
	display []string // symbols Format may choose, smallest first
}

var unitInfo = map[vocab.Unit]info{
	vocab.Dimensionless: {plain, 0, 1, "0.5", nil},
	vocab.Fraction:      {plain, 0, 1, "0.5%", []string{"%"}},
	vocab.Meter:         {length, 0, 1, "16000km", []string{"nm", "um", "mm", "m", "km"}},
	vocab.Second:        {duration, 0, 1, "53.3ms", []string{"ps", "ns", "us", "ms", "s"}},
	vocab.BitPerSecond:  {bitRate, 0, 1, "1Gbps", []string{"bps", "kbps", "Mbps", "Gbps", "Tbps"}},
	vocab.Byte:          {dataSize, 0, 8, "1500B", []string{"B", "kB", "MB", "GB", "TB"}},
	vocab.Bit:           {dataSize, 0, 1, "12000bit", []string{"bit", "kbit", "Mbit", "Gbit", "Tbit"}},
	vocab.Watt:          {power, 0, 1, "0.9W", []string{"pW", "nW", "uW", "mW", "W", "kW"}},
	vocab.DBm:           {powerLevel, 0, 1, "3dBm", []string{"dBm"}},
	vocab.Decibel:       {decibels, 0, 1, "19.45dB", []string{"dB"}},
	vocab.Hertz:         {frequency, 0, 1, "50GHz", []string{"Hz", "kHz", "MHz", "GHz", "THz"}},
	vocab.Kelvin:        {temperature, 0, 1, "500K", []string{"K"}},
	vocab.Ohm:           {resistance, 0, 1, "50kohm", []string{"ohm", "kohm", "Mohm"}},
	vocab.AmperePerWatt: {responsivity, 0, 1, "0.8A/W", []string{"A/W"}},
	vocab.Packet:        {packets, 0, 1, "100pkt", []string{"pkt"}},
	vocab.PerSecond:     {perSecond, 0, 1, "100/s", []string{"/s"}},
	vocab.DBPerKm:       {attenuation, 0, 1, "0.2dB/km", []string{"dB/km"}},
	vocab.PerWattPerKm:  {nonlinearity, 0, 1, "1.3/(W km)", []string{"/(W km)"}},
	vocab.PsPerNmKm:     {dispersion, 0, 1, "17ps/(nm km)", []string{"ps/(nm km)"}},
}

// Prefix sets. Bytes and bits take only multiplying prefixes (a millibyte is
// a typo); bytes also take binary prefixes.
var (
	siPrefixes = map[string]int{"p": -12, "n": -9, "u": -6, "µ": -6, "μ": -6, "m": -3, "c": -2, "k": 3, "M": 6, "G": 9, "T": 12}
	bigPrefix  = map[string]int{"k": 3, "M": 6, "G": 9, "T": 12}
	binPrefix  = map[string]float64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40}
)

// symbols maps every accepted spelling, prefixes expanded, to its meaning.
var symbols = buildSymbols()

func buildSymbols() map[string]symbol {
	type base struct {
		name   string
		dim    dimension
		dec    int
		mul    float64
		offset float64
		si     bool // SI prefixes
		big    bool // k M G T only
		binary bool // Ki Mi Gi Ti
	}
	bases := []base{
		{name: "%", dim: plain, dec: -2, mul: 1},
		{name: "m", dim: length, mul: 1, si: true},
		{name: "s", dim: duration, mul: 1, si: true},
		{name: "min", dim: duration, mul: 60},
		{name: "h", dim: duration, mul: 3600},
		{name: "bps", dim: bitRate, mul: 1, big: true},
		{name: "bit/s", dim: bitRate, mul: 1, big: true},
		{name: "B/s", dim: bitRate, mul: 8, big: true, binary: true},
		{name: "bit", dim: dataSize, mul: 1, big: true},
		{name: "B", dim: dataSize, mul: 8, big: true, binary: true},
		{name: "W", dim: power, mul: 1, si: true},
		{name: "dBm", dim: powerLevel, mul: 1},
		{name: "dBW", dim: powerLevel, mul: 1, offset: 30},
		{name: "dB", dim: decibels, mul: 1},
		{name: "Hz", dim: frequency, mul: 1, si: true},
		{name: "K", dim: temperature, mul: 1},
		{name: "mK", dim: temperature, dec: -3, mul: 1},
		{name: "ohm", dim: resistance, mul: 1, si: true},
		{name: "Ω", dim: resistance, mul: 1, si: true},
		{name: "A/W", dim: responsivity, mul: 1},
		{name: "mA/mW", dim: responsivity, mul: 1},
		{name: "pkt", dim: packets, mul: 1},
		{name: "pkts", dim: packets, mul: 1},
		{name: "packets", dim: packets, mul: 1},
		{name: "/s", dim: perSecond, mul: 1},
		{name: "1/s", dim: perSecond, mul: 1},
		{name: "dB/km", dim: attenuation, mul: 1},
		{name: "dB/m", dim: attenuation, dec: 3, mul: 1},
		{name: "/(W km)", dim: nonlinearity, mul: 1},
		{name: "1/(W km)", dim: nonlinearity, mul: 1},
		{name: "/W/km", dim: nonlinearity, mul: 1},
		{name: "1/W/km", dim: nonlinearity, mul: 1},
		{name: "ps/(nm km)", dim: dispersion, mul: 1},
		{name: "ps/nm/km", dim: dispersion, mul: 1},
	}
	m := map[string]symbol{}
	add := func(s symbol) {
		if prev, dup := m[s.name]; dup && prev != s {
			panic(fmt.Sprintf("units: bug: symbol %q means two things", s.name))
		}
		m[s.name] = s
	}
	for _, b := range bases {
		add(symbol{b.name, b.dim, b.dec, b.mul, b.offset})
		if b.si {
			for p, d := range siPrefixes {
				add(symbol{p + b.name, b.dim, b.dec + d, b.mul, b.offset})
			}
		}
		if b.big {
			for p, d := range bigPrefix {
				add(symbol{p + b.name, b.dim, b.dec + d, b.mul, b.offset})
			}
		}
		if b.binary {
			for p, f := range binPrefix {
				add(symbol{p + b.name, b.dim, b.dec, b.mul * f, b.offset})
			}
		}
	}
	return m
}

// Error is a quantity that could not be read. Msg says what is wrong and
// how to write it instead; it does not repeat the parameter name, so
// callers can prefix it ("bit_rate: " + Msg).
type Error struct {
	Text string // the input
	Msg  string
}

func (e *Error) Error() string { return "units: " + e.Msg }

func errorf(text, format string, args ...any) error {
	return &Error{Text: text, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads a number with an optional unit and returns it in the base
// unit want names (metres for vocab.Meter, bit/s for vocab.BitPerSecond,
// bytes for vocab.Byte, a fraction for vocab.Fraction: "0.5%" is 0.005, ...). See the package
// documentation for the accepted forms.
func Parse(text string, want vocab.Unit) (float64, error) {
	w, ok := unitInfo[want]
	if !ok {
		return 0, errorf(text, "no parser for unit %q", string(want))
	}
	s := strings.TrimSpace(text)
	mant, exp, rest, ok := splitNumber(s)
	if !ok {
		if w.dim == plain && want == vocab.Dimensionless {
			return 0, errorf(text, "%q is not a number", text)
		}
		return 0, errorf(text, "%q is not a quantity; want a number and a unit of %s, e.g. %s", text, w.dim, w.example)
	}
	name := strings.TrimSpace(rest)
	if name == "" {
		if want == vocab.Fraction {
			return 0, percentNeeded(text, s, w)
		}
		if w.dim != plain {
			return 0, errorf(text, "needs a unit of %s, e.g. %s", w.dim, w.example)
		}
		return number(text, mant, exp, 0, 1)
	}
	sym, ok := symbols[name]
	if !ok {
		if len(rest) > 1 && rest[0] == ',' && isDigit(rest[1]) && !strings.ContainsAny(mant, ".eE") {
			return 0, comma(text, s, mant, rest)
		}
		return 0, unknown(text, name, w)
	}
	switch {
	case sym.dim == w.dim:
		x, err := number(text, mant, exp, sym.dec-w.dec, sym.mul/w.mul)
		return x + sym.offset, err
	case sym.dim == powerLevel && w.dim == power:
		dBm, err := number(text, mant, exp, 0, 1)
		if err != nil {
			return 0, err
		}
		dBm += sym.offset
		return checkFinite(text, math.Pow(10, (dBm-30)/10)/w.mul*math.Pow10(-w.dec))
	case sym.dim == power && w.dim == powerLevel:
		watts, err := number(text, mant, exp, sym.dec, sym.mul)
		if err != nil {
			return 0, err
		}
		if watts <= 0 {
			return 0, errorf(text, "%q is not a positive power, so it has no level in dBm", text)
		}
		return 10*math.Log10(watts) + 30, nil
	}
	if w.dim == plain {
		return 0, errorf(text, "%q is a %s, but a plain number is wanted, e.g. %s", text, sym.dim, w.example)
	}
	if name == "K" && w.dim == dataSize {
		// 64K meant as kilobytes: kelvins are no size.
		n := strings.TrimSuffix(strings.TrimSpace(text), "K")
		return 0, errorf(text, "%q is a temperature (K is kelvin), but a data size is wanted: write the unit after the prefix, e.g. %skB or %sKiB", text, n, n)
	}
	return 0, errorf(text, "%q is a %s, but a %s is wanted, e.g. %s", text, sym.dim, w.dim, w.example)
}

// number parses mant×10^(exp+shift) exactly as decimal text, then applies
// the non-decimal factor mul.
func number(text, mant string, exp, shift int, mul float64) (float64, error) {
	e := exp + shift
	if e > 9999 || e < -9999 {
		return 0, errorf(text, "%q is out of range", text)
	}
	x, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(e), 64)
	if err != nil {
		return 0, errorf(text, "%q is out of range", text)
	}
	if mul != 1 {
		x *= mul
	}
	return checkFinite(text, x)
}

func checkFinite(text string, x float64) (float64, error) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, errorf(text, "%q is out of range", text)
	}
	return x, nil
}

// splitNumber splits "53.3e-1 ms" into the mantissa "53.3", the exponent
// -1 and the rest " ms". An 'e' counts as an exponent only when digits
// follow it.
func splitNumber(s string) (mant string, exp int, rest string, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return "", 0, "", false
	}
	mant = s[:i]
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j {
			if k-j > 6 {
				return "", 0, "", false
			}
			n, err := strconv.Atoi(s[i+1 : k])
			if err != nil {
				return "", 0, "", false
			}
			exp = n
			i = k
		}
	}
	return mant, exp, s[i:], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// groups is what follows the first digits of a number written with
// thousands separators: ",000" or ",000,000.5".
var groups = regexp.MustCompile(`^(,[0-9]{3})+(\.[0-9]+)?`)

// comma explains a number written with a comma, s = mant + rest: thousands
// separators ("1,000,000pkt", "2,500.5 MHz"), a decimal comma ("0,5%",
// "1,25W") or, for one group of three digits ("16,000km"), either.
func comma(text, s, mant, rest string) error {
	decimal := mant + "." + rest[1:]
	g := groups.FindString(rest)
	switch {
	case g == "":
		return errorf(text, "%q has a decimal comma; write %s", s, decimal)
	case len(g) == 4:
		return errorf(text, "%q has a comma: write %s, or %s if the comma is a decimal comma", s, strings.ReplaceAll(s, ",", ""), decimal)
	}
	return errorf(text, "%q has thousands separators; write %s", s, strings.ReplaceAll(s, ",", ""))
}

// percentNeeded explains a fraction written as a bare number, which could
// be meant either way: "1.5" as the fraction 1.5 (150%) or as 1.5%.
func percentNeeded(text, number string, w info) error {
	x, err := strconv.ParseFloat(number, 64)
	if err != nil || math.IsInf(x*100, 0) || math.IsNaN(x) {
		return errorf(text, "needs a percent sign, e.g. %s", w.example)
	}
	pct := strconv.FormatFloat(x*100, 'g', 12, 64)
	return errorf(text, "needs a percent sign: write %s%% if %s is a fraction, or %s%% if it is in percent", pct, number, number)
}

// unknown explains an unknown unit name and suggests a known one.
func unknown(text, name string, w info) error {
	if hint := ambiguous(name, w.dim); hint != "" {
		return errorf(text, "unit %q is ambiguous: %s", name, hint)
	}
	if _, si := siPrefixes[name]; (si || binPrefix[name] != 0) && w.dim != plain {
		return errorf(text, "%q is a prefix without a unit; a %s takes %s, e.g. %s", name, w.dim, strings.Join(w.display, ", "), w.example)
	}
	var cands []string
	for n, s := range symbols {
		if s.dim == w.dim || (w.dim == power && s.dim == powerLevel) || (w.dim == powerLevel && s.dim == power) {
			cands = append(cands, n)
		}
	}
	if w.dim == plain {
		return errorf(text, "unknown unit %q; a plain number takes no unit (or %%), e.g. %s", name, w.example)
	}
	if best := Nearest(name, cands); best != "" {
		return errorf(text, "unknown unit %q; did you mean %q?", name, best)
	}
	return errorf(text, "unknown unit %q; a %s takes %s, e.g. %s", name, w.dim, strings.Join(w.display, ", "), w.example)
}

// ambiguous returns advice for the spellings that mix up bits and bytes,
// for a quantity of dimension want: a bare "Mb" where a rate is wanted is
// answered with rates, not with the data sizes it would be elsewhere.
func ambiguous(name string, want dimension) string {
	if name == "KB" {
		return `write "kB" for 1000 bytes or "KiB" for 1024 bytes`
	}
	p, rest := "", name
	for _, q := range []string{"Ki", "Mi", "Gi", "Ti", "k", "K", "M", "G", "T"} {
		if strings.HasPrefix(name, q) && len(name) > len(q) {
			p, rest = q, name[len(q):]
			break
		}
	}
	if p == "K" {
		p = "k"
	}
	switch {
	case rest == "b" && want != bitRate:
		return fmt.Sprintf("write %q for bytes or %q for bits", p+"B", p+"bit")
	case rest == "b" || rest == "b/s" || rest == "bs":
		// "10Mb" for a rate is a rate with the "/s" left out.
		return fmt.Sprintf("write %q or %q for bits per second, %q for bytes per second", p+"bps", p+"bit/s", p+"B/s")
	}
	return ""
}

// Format prints x (in the base unit u) with the prefix that keeps the
// number readable: Format(1.6e7, vocab.Meter) is "16000km", Format(0.0533,
// vocab.Second) is "53.3ms". Parse reads the text back to x within one
// rounding of a decimal shift (exactly for decimal prefixes).
func Format(x float64, u vocab.Unit) string {
	w, ok := unitInfo[u]
	if !ok {
		return strconv.FormatFloat(x, 'g', -1, 64) + " " + string(u)
	}
	if u == vocab.Dimensionless {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64) + string(u)
	}
	if u == vocab.Byte {
		if s, ok := formatBytes(x); ok {
			return s
		}
	}
	name := w.display[0]
	if len(w.display) > 1 {
		// The largest prefix not above |x|; the base unit for zero.
		name = ""
		ax := math.Abs(x)
		for _, d := range w.display {
			s := symbols[d]
			if ax == 0 && s.dec == w.dec {
				name = d
			}
			if ax != 0 && ax*w.mul >= math.Pow10(s.dec)*s.mul {
				name = d
			}
		}
		if name == "" {
			name = w.display[0]
		}
	}
	s := symbols[name]
	return shift(x, s.dec-w.dec) + name
}

// formatBytes writes a whole number of bytes exactly, as a person writes
// buffer and segment sizes: with the binary or decimal prefix whose
// mantissa is a whole number with the fewest digits, binary first on a
// tie, else in bytes ("1460 B", "64 KiB", "80 MB", "65535 B"). ok is false
// for a fraction of a byte or beyond 2^53, which Format writes as other
// quantities.
func formatBytes(x float64) (string, bool) {
	if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return "", false
	}
	n := int64(x)
	best, bestDigits := strconv.FormatInt(n, 10)+" B", len(strconv.FormatInt(abs64(n), 10))
	if n == 0 {
		return best, true
	}
	for _, p := range []struct {
		size int64
		name string
	}{
		{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"},
		{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"},
	} {
		if n%p.size != 0 {
			continue
		}
		m := strconv.FormatInt(n/p.size, 10)
		if d := len(strconv.FormatInt(abs64(n/p.size), 10)); d < bestDigits {
			best, bestDigits = m+" "+p.name, d
		}
	}
	return best, true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// shift writes x×10^-dec as decimal text without rounding, by moving the
// exponent of x's shortest decimal representation.
func shift(x float64, dec int) string {
	if x == 0 {
		return "0" // no digit to move: 0 % is "0%", not "000%"
	}
	t := strconv.FormatFloat(x, 'e', -1, 64) // -d.ddde±XX
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	ePos := strings.IndexByte(t, 'e')
	e, _ := strconv.Atoi(t[ePos+1:])
	digits := strings.Replace(t[:ePos], ".", "", 1)
	e -= dec // the value is 0.d1d2... × 10^(e+1)
	var out string
	switch point := e + 1; {
	case point > 21 || point < -6:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		out += "e" + strconv.Itoa(e)
	case point <= 0:
		out = "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		out = digits + strings.Repeat("0", point-len(digits))
	default:
		out = digits[:point] + "." + digits[point:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// Scale returns how many base units of dim one display unit is, for plots
// that divide by it: Scale("km", vocab.Meter) is 1000, Scale("Mbps",
// vocab.BitPerSecond) is 1e6. The empty display unit is the base unit.
// Logarithmic conversions (dBm for a Watt quantity) have no scale and are
// an error.
func Scale(display string, dim vocab.Unit) (float64, error) {
	w, ok := unitInfo[dim]
	if !ok {
		if display == "" || display == string(dim) {
			return 1, nil
		}
		return 0, fmt.Errorf("units: no display units for %q", string(dim))
	}
	if display == "" {
		return 1, nil
	}
	s, ok := symbols[display]
	if !ok {
		return 0, unknown(display, display, w)
	}
	if s.dim != w.dim {
		return 0, errorf(display, "display unit %q is a %s, not a %s", display, s.dim, w.dim)
	}
	if s.offset != 0 {
		return 0, errorf(display, "display unit %q is not a multiple of %q", display, string(dim))
	}
	return math.Pow10(s.dec-w.dec) * s.mul / w.mul, nil
}

// Known checks that display is a unit crosslink knows, of any dimension,
// for a display unit whose quantity is itself unknown (a plot's misspelt
// x): so that its mistake is reported in the same round as the
// quantity's, not once the quantity is right. Scale checks it against its
// quantity.
func Known(display string) error {
	if _, ok := symbols[display]; ok || display == "" {
		return nil
	}
	names := make([]string, 0, len(symbols))
	for n := range symbols {
		names = append(names, n)
	}
	if best := Nearest(display, names); best != "" {
		return errorf(display, "unknown unit %q; did you mean %q?", display, best)
	}
	return errorf(display, "unknown unit %q", display)
}

// DidYouMean returns the suggestion a message appends for word, an
// unknown name: "; did you mean "x"?" with the Nearest candidate, else
// with the candidates word is a stem of (jain for jain_flows and
// jain_algorithms, fso for fso-ber: too far for a typo, plainly meant as
// one of them; at most six), else "".
func DidYouMean(word string, candidates []string) string {
	if best := Nearest(word, candidates); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	var longer []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word+"_") || strings.HasPrefix(c, word+"-") {
			longer = append(longer, strconv.Quote(c))
		}
	}
	if word == "" || len(longer) == 0 || len(longer) > 6 {
		return ""
	}
	sort.Strings(longer)
	return "; did you mean " + strings.Join(longer, " or ") + "?"
}

// Nearest returns the candidate closest to word by edit distance
// (insertions, deletions, substitutions and swaps of neighbours), or ""
// when none is close enough to be a likely typo: at most one edit for words
// of up to three letters, two for longer ones. Ties go to the alphabetically
// first candidate, so the suggestion is deterministic.
//
// A candidate that differs from word in case alone comes first, whatever
// the distances: mbps is Mbps, not Gbps, and S is s, not h. Of several
// (MS: ms and Ms), the one with the fewest capitals.
func Nearest(word string, candidates []string) string {
	best := ""
	for _, c := range candidates {
		if strings.EqualFold(word, c) && (best == "" || capitals(c) < capitals(best) || capitals(c) == capitals(best) && c < best) {
			best = c
		}
	}
	if best != "" {
		return best
	}
	limit := 1
	if len([]rune(word)) > 3 {
		limit = 2
	}
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	bestD := limit + 1
	for _, c := range sorted {
		if d := distance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// capitals counts the upper-case letters of s.
func capitals(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n
}

// distance is the optimal string alignment distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return math.MaxInt32
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
