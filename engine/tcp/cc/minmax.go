package cc

// sample is one (time, value) entry of a windowed filter.
type sample[V ~float64] struct {
	t int64
	v V
}

// MaxFilter is Kathleen Nichols' windowed running maximum, the filter BBR
// uses for BtlBw (draft-cardwell-iccrg-bbr-congestion-control-00 section
// 4.1.1.1; the same three-sample scheme as Linux lib/win_minmax.c). It keeps
// the best, second-best and third-best samples of successive sub-windows,
// so it needs constant space and time per update. Time is whatever unit the
// caller counts the window in (round trips for BBR's BtlBw); V is the
// sample's type (unit.BitRate for BtlBw).
//
// The estimate is never larger than the largest sample of the last Window
// time units and never smaller than the newest sample.
type MaxFilter[V ~float64] struct {
	s [3]sample[V]
}

// Reset forgets every sample and starts over from (t, v).
func (f *MaxFilter[V]) Reset(t int64, v V) {
	f.s = [3]sample[V]{{t, v}, {t, v}, {t, v}}
}

// Get returns the current estimate.
func (f *MaxFilter[V]) Get() V { return f.s[0].v }

// Update adds the sample v taken at time t (t never decreases) and returns
// the maximum over a window of win time units.
func (f *MaxFilter[V]) Update(win, t int64, v V) V {
	val := sample[V]{t, v}
	// A new overall maximum, or nothing left in the window: start over.
	if v >= f.s[0].v || t-f.s[2].t > win {
		f.Reset(t, v)
		return v
	}
	if v >= f.s[1].v {
		f.s[1], f.s[2] = val, val
	} else if v >= f.s[2].v {
		f.s[2] = val
	}
	f.subwin(win, val)
	return f.s[0].v
}

// subwin ages the three samples: once the best is older than the window,
// the second and third move up; the second and third are refreshed after a
// quarter and a half window so that they stand for later sub-windows.
func (f *MaxFilter[V]) subwin(win int64, val sample[V]) {
	dt := val.t - f.s[0].t
	switch {
	case dt > win:
		f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], val
		if val.t-f.s[0].t > win {
			f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], val
		}
	case f.s[1].t == f.s[0].t && dt > win/4:
		f.s[1], f.s[2] = val, val
	case f.s[2].t == f.s[1].t && dt > win/2:
		f.s[2] = val
	}
}

// MinFilter is the windowed running minimum (BBR's RTprop filter, section
// 4.1.2.1), the MaxFilter of negated values.
type MinFilter[V ~float64] struct{ m MaxFilter[V] }

// Reset forgets every sample and starts over from (t, v).
func (f *MinFilter[V]) Reset(t int64, v V) { f.m.Reset(t, -v) }

// Get returns the current estimate.
func (f *MinFilter[V]) Get() V { return -f.m.Get() }

// Update adds the sample v taken at time t and returns the minimum over a
// window of win time units.
func (f *MinFilter[V]) Update(win, t int64, v V) V { return -f.m.Update(win, t, -v) }
