package vocab

// Unit is the SI base unit (or the dimensionless scale) a parameter or metric
// is stored in. The sweep spec parser accepts prefixed forms of it ("16000km",
// "1Gbps", "53.3ms"); the engine only ever sees base units.
type Unit string

// The units crosslink stores values in. Each has a column suffix (Suffix).
const (
	Dimensionless Unit = ""
	Meter         Unit = "m"
	Second        Unit = "s"
	BitPerSecond  Unit = "bit/s"
	Byte          Unit = "B"
	Bit           Unit = "bit"
	Watt          Unit = "W"
	DBm           Unit = "dBm"
	Decibel       Unit = "dB"
	Hertz         Unit = "Hz"
	Kelvin        Unit = "K"
	Ohm           Unit = "ohm"
	AmperePerWatt Unit = "A/W"
	Packet        Unit = "pkt"
	// Fraction is a share of a whole stored as a plain number (0.002),
	// written and shown in percent ("0.2%"); the column says _frac so that
	// nobody reading the data divides by 100 twice.
	Fraction     Unit = "fraction"
	PerSecond    Unit = "1/s"
	DBPerKm      Unit = "dB/km"
	PerWattPerKm Unit = "1/(W km)"
	PsPerNmKm    Unit = "ps/(nm km)"
)

// Suffix returns the column-name suffix for u, without the underscore:
// "m" for Meter, "bps" for BitPerSecond. It is "" for Dimensionless.
func (u Unit) Suffix() string {
	switch u {
	case Dimensionless:
		return ""
	case BitPerSecond:
		return "bps"
	case Byte:
		return "bytes"
	case Bit:
		return "bits"
	case Watt:
		return "w"
	case DBm:
		return "dbm"
	case Decibel:
		return "db"
	case Hertz:
		return "hz"
	case Kelvin:
		return "k"
	case AmperePerWatt:
		return "a_per_w"
	case Packet:
		return "pkts"
	case Fraction:
		return "frac"
	case PerSecond:
		return "per_s"
	case DBPerKm:
		return "db_per_km"
	case PerWattPerKm:
		return "per_w_km"
	case PsPerNmKm:
		return "ps_per_nm_km"
	}
	return string(u)
}

// ColumnName returns the Parquet column name of a quantity called name stored in
// unit u: "distance" and Meter give "distance_m"; a dimensionless "ber"
// stays "ber".
func ColumnName(name string, u Unit) string {
	if s := u.Suffix(); s != "" {
		return name + "_" + s
	}
	return name
}
