package plots

import (
	"context"
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// rc13DetectionSwitch is where document 000 (Sect. 6.1) moves from direct
// to coherent detection: "direct detection is suggested for distances
// below 20,000 km and coherent detection for distances above".
const rc13DetectionSwitch = 20000e3 // m

// rc13Fig8Physics is Fig. 8's configuration through the FSO link budget:
// the generic line figure of its spec with the document's detection switch
// drawn as a dotted vertical line, so a reader sees which curve the
// document's choice follows on each side.
func rc13Fig8Physics() Figure {
	return Figure{
		ID:      "rc13-fig8-physics",
		Caption: "Document 000, Fig. 8's configuration with the BER of the Table 1 link budget (what the physics gives)",
		Draw:    drawRC13Fig8Physics,
	}
}

func drawRC13Fig8Physics(ctx context.Context, in Input) (*Output, error) {
	ld, err := in.curves(ctx)
	if err != nil {
		return nil, err
	}
	p, legend, styles, err := linePlot(in.Def, ld, in.Theme)
	if err != nil {
		return nil, err
	}
	xf, err := factor(in.Scale, in.Def.XUnit, ld.X.Unit)
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: %w", in.Def.ID, err)
	}
	x := rc13DetectionSwitch / xf
	ymax := p.Y.Max
	mark, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: ymax}})
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: switch mark: %w", in.Def.ID, err)
	}
	mark.Color = color.Gray{Y: 0x55}
	mark.Width = in.Theme.Line
	mark.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	p.Add(mark)
	legend.Add("document: direct | coherent", mark)
	notes := append(ld.Notes, fmt.Sprintf("the dotted line at %s %s is where document 000 switches from direct to coherent detection (Sect. 6.1)",
		formatNumber(x), in.Def.XUnit))
	return &Output{Art: withLegend(in.Def, ld, p, legend, styles), Data: lineTable(in.Def, ld), Notes: notes,
		Problems: append(outsideAxes(in.Def, ld), ld.problems...)}, nil
}
