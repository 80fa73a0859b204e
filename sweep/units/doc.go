// Package units reads and writes quantities with units, such as "16000km",
// "1Gbps", "53.3ms" or "1500B", as they appear in sweep specs, and converts
// them to the SI base unit an vocab.Unit names. (The engine's quantity
// types, Bytes and BitRate, are engine/unit's; this package only reads and
// prints the text of specs, figures and messages.)
//
// The rules, chosen to make a typo an error rather than a silent factor of 8
// or 1000:
//
//   - A parameter with a dimension needs a unit: "16000" for a distance is an
//     error that shows an example ("needs a unit of length, e.g. 16000km").
//     Only dimensionless parameters take a bare number; they also accept a
//     percentage ("0.5%" is 0.005).
//   - B is a byte and bit is a bit; a lone "b" (or "kb", "Gb/s") is an error
//     that asks for B or bit. Bit rates are written bps or bit/s ("1Gbps",
//     "1 Gbit/s"); "B/s" is bytes per second and converts to bit/s.
//   - Bytes take the decimal prefixes k M G T (kB = 1000 B) and the binary
//     prefixes Ki Mi Gi Ti (KiB = 1024 B). "KB" is ambiguous and rejected.
//   - Other units take the SI prefixes p n u (or µ) m c k M G T. "min" and "h"
//     are minutes and hours.
//   - Power converts between linear and logarithmic forms: a Watt parameter
//     accepts "3dBm" (1.995 mW) and "0dBW", a dBm parameter accepts "2mW".
//   - A Fraction parameter needs "%" (a bare 0.5 could mean either): "0.5%"
//     stores 0.005, and Format writes it back as "0.5%".
//
// An unknown unit suggests the nearest known one of the expected dimension by
// edit distance ("16000kn": did you mean "km"?); a unit of the wrong dimension
// names both dimensions.
//
// Format prints a value with a readable prefix that Parse reads back, and
// Scale gives the factor plots divide by to show values in a display unit.
package units
