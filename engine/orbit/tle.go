package orbit

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// TLE is one satellite's two-line element set: the mean elements SGP4
// propagates (Hoots and Roehrich, Spacetrack Report No. 3, 1980; the
// format as CelesTrak documents it, "NORAD Two-Line Element Set Format").
type TLE struct {
	Name    string // the title line of a three-line set, else ""
	Catalog int    // NORAD catalogue number, columns 3-7
	// Epoch in days since J2000.0 (2000-01-01 12:00 UT), from the
	// two-digit year (57-99: 19xx, 00-56: 20xx) and the day of the year.
	Epoch        float64
	BStar        float64 // drag term, inverse Earth radii
	Inclination  float64 // rad
	RAAN         float64 // right ascension of the ascending node, rad
	Eccentricity float64
	ArgPerigee   float64 // rad
	MeanAnomaly  float64 // rad
	MeanMotion   float64 // revolutions per day (Kozai)
}

// Period returns the nominal period of the element set, s.
func (e TLE) Period() float64 { return 86400 / e.MeanMotion }

// sgp4 returns the near-Earth SGP4 model of the element set, with drag.
func (e TLE) sgp4() (*sgp4, error) {
	m := newSGP4(e.Inclination, e.RAAN, e.Eccentricity, e.ArgPerigee, e.MeanAnomaly, e.MeanMotion, false)
	// SGP4 covers periods under 225 minutes; longer ones need SDP4's
	// lunar-solar terms (Spacetrack Report No. 3, section 1).
	if p := 2 * math.Pi / m.xnodp; p >= 225 {
		return nil, fmt.Errorf("orbit: element set %d (%s): period %.1f min is deep space (225 min or more), which needs SDP4", e.Catalog, e.Name, p)
	}
	m.setDrag(e.BStar)
	return m, nil
}

// TLEError is a problem at a line and column (both from 1) of a text
// input: an element-set file (ParseTLEs), or a station list
// (ParseStations).
type TLEError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *TLEError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// TLEErrors is every problem found in one file, in file order.
type TLEErrors []*TLEError

func (l TLEErrors) Error() string {
	if len(l) == 1 {
		return l[0].Error()
	}
	msgs := make([]string, 0, len(l))
	for _, e := range l {
		msgs = append(msgs, e.Error())
	}
	return fmt.Sprintf("%s (and %d more)\n%s", l[0].Error(), len(l)-1, strings.Join(msgs[1:], "\n"))
}

// maxTLEErrors stops a file that is not element sets at all from
// producing one error per line.
const maxTLEErrors = 10

// ParseTLEs reads element sets in the two-line format, each optionally
// preceded by a title line (the three-line format of CelesTrak). Blank
// lines are skipped. file names the input in errors, which give the line
// and column of every problem found (up to ten): a line of the wrong
// length, a wrong line number, a checksum that does not match, a field
// that is not a number, two lines of one set with different catalogue
// numbers, or an element out of its range.
func ParseTLEs(file string, data string) ([]TLE, error) {
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	var out []TLE
	var errs TLEErrors
	add := func(line, col int, format string, args ...any) {
		errs = append(errs, &TLEError{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
	}
	i := 0
	next := func() (int, string, bool) {
		for i < len(lines) {
			i++
			if s := strings.TrimRight(lines[i-1], " \t"); s != "" {
				return i, lines[i-1], true
			}
		}
		return 0, "", false
	}
	for len(errs) < maxTLEErrors {
		n, l, ok := next()
		if !ok {
			break
		}
		name := ""
		if !strings.HasPrefix(l, "1 ") {
			name = strings.TrimSpace(strings.TrimPrefix(l, "0 "))
			if n, l, ok = next(); !ok {
				add(n+1, 1, "title line %q is not followed by an element set", name)
				break
			}
		}
		n2, l2, ok := next()
		if !ok {
			add(n, 1, "line 1 of an element set without its line 2")
			break
		}
		before := len(errs)
		e := parseTLE(name, n, strings.TrimRight(l, " \t"), n2, strings.TrimRight(l2, " \t"), add)
		if len(errs) == before {
			out = append(out, e)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(a, b int) bool {
			return errs[a].Line < errs[b].Line || (errs[a].Line == errs[b].Line && errs[a].Col < errs[b].Col)
		})
		return nil, errs
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("orbit: %s: no element sets", file)
	}
	return out, nil
}

// parseTLE decodes one set from its two lines (at line numbers n1, n2),
// reporting problems through add.
func parseTLE(name string, n1 int, l1 string, n2 int, l2 string, add func(line, col int, format string, args ...any)) TLE {
	e := TLE{Name: name}
	ok := true
	check := func(n int, l string, want byte) {
		if len(l) != 69 {
			add(n, min(len(l), 69)+1, "line %c of an element set has %d characters, want 69", want, len(l))
			ok = false
			return
		}
		if l[0] != want || l[1] != ' ' {
			add(n, 1, "want line %c of an element set, found %q", want, l[:2])
			ok = false
			return
		}
		if got, sum := l[68], tleChecksum(l[:68]); got != '0'+byte(sum) {
			add(n, 69, "checksum %c, but the line's digits (minus signs 1) sum to %d mod 10", got, sum)
			ok = false
		}
	}
	check(n1, l1, '1')
	check(n2, l2, '2')
	if !ok {
		return e
	}
	// field parses columns a..b (1-based, inclusive) of line l.
	field := func(n int, l string, a, b int, what string) float64 {
		s := strings.TrimSpace(l[a-1 : b])
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			add(n, a, "%s %q is not a number", what, s)
		}
		return v
	}
	// implied parses an assumed-decimal field with an exponent, as
	// " 28098-4" = 0.28098e-4 (columns a..b).
	implied := func(n int, l string, a, b int, what string) float64 {
		s := strings.TrimSpace(l[a-1 : b])
		if s == "" || s == "0" || s == "00000-0" || s == "00000+0" {
			return 0
		}
		sign := 1.0
		if s[0] == '-' || s[0] == '+' {
			if s[0] == '-' {
				sign = -1
			}
			s = s[1:]
		}
		k := strings.LastIndexAny(s, "+-")
		if k < 1 {
			add(n, a, "%s %q lacks its exponent (as 28098-4)", what, l[a-1:b])
			return 0
		}
		m, err1 := strconv.ParseFloat("0."+strings.TrimSpace(s[:k]), 64)
		x, err2 := strconv.Atoi(s[k:])
		if err1 != nil || err2 != nil {
			add(n, a, "%s %q is not a number", what, l[a-1:b])
			return 0
		}
		return sign * m * math.Pow(10, float64(x))
	}
	cat1 := field(n1, l1, 3, 7, "catalogue number")
	cat2 := field(n2, l2, 3, 7, "catalogue number")
	if cat1 != cat2 {
		add(n2, 3, "catalogue number %v differs from line 1's %v", cat2, cat1)
	}
	e.Catalog = int(cat1)
	yy := field(n1, l1, 19, 20, "epoch year")
	day := field(n1, l1, 21, 32, "epoch day")
	if day < 1 || day >= 367 {
		add(n1, 21, "epoch day %v outside 1..366", day)
	}
	year := 2000 + int(yy)
	if yy >= 57 {
		year = 1900 + int(yy)
	}
	// Days from J2000.0 to 0 h UT on 1 January of the year, then the
	// day of the year (1.0 is 1 January, 0 h).
	jan1 := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	j2000 := time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)
	e.Epoch = jan1.Sub(j2000).Hours()/24 + day - 1
	e.BStar = implied(n1, l1, 54, 61, "B*")
	e.Inclination = Radians(field(n2, l2, 9, 16, "inclination"))
	e.RAAN = Radians(field(n2, l2, 18, 25, "right ascension of the node"))
	ecc := strings.TrimSpace(l2[26:33])
	if v, err := strconv.ParseFloat("0."+ecc, 64); err != nil || strings.ContainsAny(ecc, "+-. ") {
		add(n2, 27, "eccentricity %q is not seven digits", l2[26:33])
	} else {
		e.Eccentricity = v
	}
	e.ArgPerigee = Radians(field(n2, l2, 35, 42, "argument of perigee"))
	e.MeanAnomaly = Radians(field(n2, l2, 44, 51, "mean anomaly"))
	e.MeanMotion = field(n2, l2, 53, 63, "mean motion")
	if e.Inclination < 0 || e.Inclination > math.Pi {
		add(n2, 9, "inclination %g degrees outside 0..180", Degrees(e.Inclination))
	}
	if e.MeanMotion <= 0 {
		add(n2, 53, "mean motion %g rev/day is not positive", e.MeanMotion)
	}
	return e
}

// tleChecksum is the element-set checksum of a line's first 68 columns:
// the sum of its digits, each minus sign counting 1, modulo 10.
func tleChecksum(s string) int {
	sum := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			sum += int(c - '0')
		case c == '-':
			sum++
		}
	}
	return sum % 10
}
