package orbit

import "math"

// WGS-72 constants of SGP4 (Hoots and Roehrich, "Spacetrack Report No.
// 3", 1980, section 12; Vallado et al. 2006, AIAA 2006-6753, table 1), in
// Earth radii and minutes as the model is written.
const (
	sgpRadius = 6378.135            // km
	sgpJ2     = 0.001082616         // J2
	sgpJ3     = -0.00000253881      // J3
	sgpJ4     = -0.00000165597      // J4
	sgpCK2    = 0.5 * sgpJ2         // k2
	sgpCK4    = -0.375 * sgpJ4      // k4
	sgpA3OVK2 = -sgpJ3 / sgpCK2     // A3,0 / k2
	sgpTwoPi  = 2 * math.Pi         //
	sgpMinDay = 1440.0              // minutes per day
	sgpXKE    = 0.07436691613317342 // 60/sqrt(Re^3/mu) with mu = 398600.8 km^3/s^2: er^1.5/min
)

// sgp4 is the near-Earth SGP4 model of one satellite without drag (B* =
// 0): the secular effects of J2 and J4 on the node, perigee and mean
// anomaly, the long-period J3 terms and the short-period J2 terms
// (Spacetrack Report No. 3, section 6). It is the propagator Hypatia's
// satellites move by (satgenpy writes two-line element sets that PyEphem
// propagates), so that the routes compared with Hypatia's see the same
// periodic wobble of a few kilometres that circular orbits leave out.
type sgp4 struct {
	xmo, omegao, xnodeo, eo, xincl float64
	aodp, xnodp                    float64
	xmdot, omgdot, xnodot          float64
	cosio, sinio, x3thm1, x1mth2   float64
	x7thm1, xlcof, aycof           float64
	// libastro selects PyEphem's version of the model (libastro's
	// sgp4.c, the Spacetrack Report No. 3 code that Hypatia's satellites
	// move by): the report's semi-major axis ao/(1-delo), no eccentricity
	// floor, and Earth radii turned into metres with libastro's ERAD.
	libastro bool
	scale    float64 // m per Earth radius of the result
	twoPi    float64 // the period Kepler's equation is reduced by

	// Atmospheric drag, set by setDrag for element sets with a non-zero
	// B* (Spacetrack Report No. 3, section 6; the coefficient names are
	// the report's).
	bstar                         float64
	isimp                         bool // perigee below 220 km: the report's simplified drag
	eta, c1, c4, c5, delmo, sinmo float64
	omgcof, xmcof, xnodcf, t2cof  float64
	d2, d3, d4                    float64
	t3cof, t4cof, t5cof           float64
}

// setDrag adds the drag terms of B* (in inverse Earth radii, as an element
// set gives it) to a model made by newSGP4 (Spacetrack Report No. 3,
// section 6, SGP4 initialisation; Vallado et al. 2006, sgp4init, for the
// eccentricity guards). A model with B* = 0 moves exactly as before.
func (s *sgp4) setDrag(bstar float64) {
	if bstar == 0 {
		return
	}
	s.bstar = bstar
	eo := s.eo
	betao2 := 1 - eo*eo
	// The atmosphere's density parameters s and (q0 - s)^4 in Earth
	// radii: s = 78 km above the surface unless the perigee is lower
	// than 156 km (then perigee - 78 km, at least 20 km).
	const xkmper = sgpRadius
	perigee := (s.aodp*(1-eo) - 1) * xkmper
	s4 := 78.0
	qzms24 := math.Pow((120-78)/xkmper, 4)
	if perigee < 156 {
		s4 = perigee - 78
		if perigee < 98 {
			s4 = 20
		}
		qzms24 = math.Pow((120-s4)/xkmper, 4)
	}
	s4 = s4/xkmper + 1
	s.isimp = s.aodp*(1-eo) < 220/xkmper+1
	pinvsq := 1 / (s.aodp * s.aodp * betao2 * betao2)
	tsi := 1 / (s.aodp - s4)
	s.eta = s.aodp * eo * tsi
	etasq := s.eta * s.eta
	eeta := eo * s.eta
	psisq := math.Abs(1 - etasq)
	coef := qzms24 * math.Pow(tsi, 4)
	coef1 := coef / math.Pow(psisq, 3.5)
	c2 := coef1 * s.xnodp * (s.aodp*(1+1.5*etasq+eeta*(4+etasq)) +
		0.75*sgpCK2*tsi/psisq*s.x3thm1*(8+3*etasq*(8+etasq)))
	s.c1 = bstar * c2
	c3 := 0.0
	if eo > 1e-4 {
		c3 = coef * tsi * sgpA3OVK2 * s.xnodp * s.sinio / eo
	}
	s.c4 = 2 * s.xnodp * coef1 * s.aodp * betao2 * (s.eta*(2+0.5*etasq) + eo*(0.5+2*etasq) -
		2*sgpCK2*tsi/(s.aodp*psisq)*(-3*s.x3thm1*(1-2*eeta+etasq*(1.5-0.5*eeta))+
			0.75*s.x1mth2*(2*etasq-eeta*(1+etasq))*math.Cos(2*s.omegao)))
	s.c5 = 2 * coef1 * s.aodp * betao2 * (1 + 2.75*(etasq+eeta) + eeta*etasq)
	temp1 := 3 * sgpCK2 * pinvsq * s.xnodp
	xhdot1 := -temp1 * s.cosio
	s.omgcof = bstar * c3 * math.Cos(s.omegao)
	if eo > 1e-4 {
		s.xmcof = -2.0 / 3.0 * coef * bstar / eeta
	}
	s.xnodcf = 3.5 * betao2 * xhdot1 * s.c1
	s.t2cof = 1.5 * s.c1
	s.delmo = math.Pow(1+s.eta*math.Cos(s.xmo), 3)
	s.sinmo = math.Sin(s.xmo)
	if !s.isimp {
		c1sq := s.c1 * s.c1
		s.d2 = 4 * s.aodp * tsi * c1sq
		temp := s.d2 * tsi * s.c1 / 3
		s.d3 = (17*s.aodp + s4) * temp
		s.d4 = 0.5 * temp * s.aodp * tsi * (221*s.aodp + 31*s4) * s.c1
		s.t3cof = s.d2 + 2*c1sq
		s.t4cof = 0.25 * (3*s.d3 + s.c1*(12*s.d2+10*c1sq))
		s.t5cof = 0.2 * (3*s.d4 + 12*s.c1*s.d3 + 6*s.d2*s.d2 + 15*c1sq*(2*s.d2+c1sq))
	}
}

// libastro's sgp4.c writes some constants to eight or nine digits: XKE
// .743669161E-1, TOTHRD .66666667 and TWOPI 6.2831853 (the last reduces
// the argument of Kepler's equation, so a satellite whose mean argument
// of latitude passes 2 pi is placed 7e-8 rad, half a metre, further on).
const (
	libastroXKE    = 0.0743669161
	libastroTothrd = 0.66666667
	libastroTwoPi  = 6.2831853
)

// newSGP4 initialises the model from mean elements: inclination, node,
// eccentricity, argument of perigee and mean anomaly (rad), and the
// (Kozai) mean motion in revolutions per day.
func newSGP4(incl, node, ecc, argp, mean, revPerDay float64, libastro bool) *sgp4 {
	s := &sgp4{xmo: mean, omegao: argp, xnodeo: node, eo: ecc, xincl: incl,
		libastro: libastro, scale: sgpRadius * 1e3, twoPi: sgpTwoPi}
	xke, tothrd := sgpXKE, 2.0/3.0
	if libastro {
		xke, tothrd, s.twoPi = libastroXKE, libastroTothrd, libastroTwoPi
	}
	n0 := revPerDay * sgpTwoPi / sgpMinDay // rad/min
	// Recover the original mean motion and semi-major axis from the
	// Kozai mean motion of the element set.
	a1 := math.Pow(xke/n0, tothrd)
	s.cosio, s.sinio = math.Cos(incl), math.Sin(incl)
	theta2 := s.cosio * s.cosio
	s.x3thm1 = 3*theta2 - 1
	eosq := ecc * ecc
	betao2 := 1 - eosq
	betao := math.Sqrt(betao2)
	del1 := 1.5 * sgpCK2 * s.x3thm1 / (a1 * a1 * betao * betao2)
	ao := a1 * (1 - del1*(0.5*tothrd+del1*(1+134.0/81.0*del1)))
	delo := 1.5 * sgpCK2 * s.x3thm1 / (ao * ao * betao * betao2)
	s.xnodp = n0 / (1 + delo)
	// The semi-major axis of the recovered mean motion, as Vallado's
	// revision computes it ((xke/n'')^(2/3)); Spacetrack Report No. 3's
	// ao/(1-delo) differs from it at second order in J2, 1e-6 relative.
	s.aodp = math.Pow(sgpXKE/s.xnodp, 2.0/3.0)
	if libastro {
		// libastro keeps the report's form, and scales the result, in
		// Earth radii, by its own equatorial radius ERAD = 6378.16 km
		// (astro.h) where the model's constants assume 6378.135 km: 25 m
		// farther out at 630 km altitude.
		s.aodp = ao / (1 - delo)
		s.scale = libastroERAD
	}
	// Secular rates.
	theta4 := theta2 * theta2
	pinvsq := 1 / (s.aodp * s.aodp * betao2 * betao2)
	temp1 := 3 * sgpCK2 * pinvsq * s.xnodp
	temp2 := temp1 * sgpCK2 * pinvsq
	temp3 := 1.25 * sgpCK4 * pinvsq * pinvsq * s.xnodp
	x1m5th := 1 - 5*theta2
	s.xmdot = s.xnodp + 0.5*temp1*betao*s.x3thm1 + 0.0625*temp2*betao*(13-78*theta2+137*theta4)
	s.omgdot = -0.5*temp1*x1m5th + 0.0625*temp2*(7-114*theta2+395*theta4) + temp3*(3-36*theta2+49*theta4)
	xhdot1 := -temp1 * s.cosio
	s.xnodot = xhdot1 + (0.5*temp2*(4-19*theta2)+2*temp3*(3-7*theta2))*s.cosio
	// Long-period (J3) and short-period (J2) coefficients.
	s.xlcof = 0.125 * sgpA3OVK2 * s.sinio * (3 + 5*s.cosio) / (1 + s.cosio)
	s.aycof = 0.25 * sgpA3OVK2 * s.sinio
	s.x7thm1 = 7*theta2 - 1
	s.x1mth2 = 1 - theta2
	return s
}

// position returns the satellite's position in metres in the true-equator
// mean-equinox frame of SGP4, t seconds after the epoch.
func (s *sgp4) position(t float64) Vec {
	tsince := t / 60
	if s.libastro {
		// libastro's minutes since the epoch: the difference of two
		// dates in days since 1899-12-31 12:00 (esat_prop), which
		// rounds t to about a microsecond.
		tsince = ((36524.5 + t/86400) - 36524.5) * sgpMinDay
	}
	// Secular gravity.
	xmp := s.xmo + s.xmdot*tsince
	omega := s.omegao + s.omgdot*tsince
	xnode := s.xnodeo + s.xnodot*tsince
	a, e := s.aodp, s.eo
	xl := 0.0
	if s.bstar != 0 {
		// Secular drag (Spacetrack Report No. 3, section 6: the
		// semi-major axis and eccentricity decay, the mean longitude
		// gains t^2 to t^5 terms; the report's simplified form below
		// 220 km perigee keeps only the first).
		xmdf := xmp
		tsq := tsince * tsince
		xnode += s.xnodcf * tsq
		tempa := 1 - s.c1*tsince
		tempe := s.bstar * s.c4 * tsince
		templ := s.t2cof * tsq
		if !s.isimp {
			delomg := s.omgcof * tsince
			delm := s.xmcof * (math.Pow(1+s.eta*math.Cos(xmdf), 3) - s.delmo)
			temp := delomg + delm
			xmp = xmdf + temp
			omega -= temp
			tcube := tsq * tsince
			tfour := tsince * tcube
			tempa += -s.d2*tsq - s.d3*tcube - s.d4*tfour
			tempe += s.bstar * s.c5 * (math.Sin(xmp) - s.sinmo)
			templ += s.t3cof*tcube + tfour*(s.t4cof+tsince*s.t5cof)
		}
		a = s.aodp * tempa * tempa
		e = s.eo - tempe
		xl = s.xnodp * templ
	}
	// Vallado's revision floors the eccentricity at 1e-6 before the
	// periodics (sgp4.cpp, "if (em < 1.0e-6) em = 1.0e-6"); the element
	// sets of a circular shell carry 1e-7, so this moves them by 6 m.
	if !s.libastro {
		e = math.Max(e, 1e-6)
	}
	xl += xmp + omega + xnode
	beta := math.Sqrt(1 - e*e)
	// Long-period periodics.
	axn := e * math.Cos(omega)
	temp := 1 / (a * beta * beta)
	xll := temp * s.xlcof * axn
	aynl := temp * s.aycof
	xlt := xl + xll
	ayn := e*math.Sin(omega) + aynl
	// Kepler's equation for the modified eccentric longitude.
	capu := math.Mod(xlt-xnode, s.twoPi)
	epw := capu
	var sinepw, cosepw, temp3, temp4, temp5, temp6 float64
	for i := 0; i < 10; i++ {
		sinepw, cosepw = math.Sincos(epw)
		temp3, temp4 = axn*sinepw, ayn*cosepw
		temp5, temp6 = axn*cosepw, ayn*sinepw
		next := (capu-temp4+temp3-epw)/(1-temp5-temp6) + epw
		if math.Abs(next-epw) <= 1e-12 {
			epw = next
			sinepw, cosepw = math.Sincos(epw)
			temp3, temp4 = axn*sinepw, ayn*cosepw
			temp5, temp6 = axn*cosepw, ayn*sinepw
			break
		}
		epw = next
	}
	// Short-period preliminaries.
	ecose := temp5 + temp6
	esine := temp3 - temp4
	elsq := axn*axn + ayn*ayn
	pl := a * (1 - elsq)
	r := a * (1 - ecose)
	t2 := a / r
	betal := math.Sqrt(1 - elsq)
	t3 := 1 / (1 + betal)
	cosu := t2 * (cosepw - axn + ayn*esine*t3)
	sinu := t2 * (sinepw - ayn - axn*esine*t3)
	u := math.Atan2(sinu, cosu)
	sin2u := 2 * sinu * cosu
	cos2u := 2*cosu*cosu - 1
	tp := 1 / pl
	tk1 := sgpCK2 * tp
	tk2 := tk1 * tp
	// Short-period periodics of J2.
	rk := r*(1-1.5*tk2*betal*s.x3thm1) + 0.5*tk1*s.x1mth2*cos2u
	uk := u - 0.25*tk2*s.x7thm1*sin2u
	xnodek := xnode + 1.5*tk2*s.cosio*sin2u
	xinck := s.xincl + 1.5*tk2*s.cosio*s.sinio*cos2u
	sinuk, cosuk := math.Sincos(uk)
	sinik, cosik := math.Sincos(xinck)
	sinnok, cosnok := math.Sincos(xnodek)
	xmx := -sinnok * cosik
	xmy := cosnok * cosik
	k := rk * s.scale
	return Vec{k * (xmx*sinuk + cosnok*cosuk), k * (xmy*sinuk + sinnok*cosuk), k * sinik * sinuk}
}
