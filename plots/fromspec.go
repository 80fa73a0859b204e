package plots

import "github.com/crosslink-sim/crosslink/sweep/spec"

// DefOf converts a spec's plots entry to the Def figures are drawn from.
func DefOf(p spec.Plot) Def {
	d := Def{
		ID: p.ID, Title: p.Title, Caption: p.Caption, Kind: p.Kind, Table: p.Table,
		X: p.X, Y: append([]string(nil), p.Y...), Series: append([]string(nil), p.Series...),
		XUnit: p.XUnit, YUnit: p.YUnit, XLabel: p.XLabel, YLabel: p.YLabel,
		LogX: p.LogX, LogY: p.LogY,
		XLim: p.XLim, YLim: p.YLim, Labels: p.Labels,
	}
	for _, w := range p.Where {
		d.Where = append(d.Where, Where{Name: w.Name, Value: w.Value})
	}
	return d
}

// DefsOf converts every plots entry of a spec.
func DefsOf(ps []spec.Plot) []Def {
	ds := make([]Def, len(ps))
	for i, p := range ps {
		ds[i] = DefOf(p)
	}
	return ds
}
