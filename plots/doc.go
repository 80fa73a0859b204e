// Package plots draws crosslink's figures and tables with gonum/plot.
//
// A Registry (NewRegistry) knows every figure of the source documents by
// id ("rc13-fig6", "rc13-tab2") with its source caption and, when the
// figure needs a layout of its own, a DrawFunc. A spec's plots entries
// (Def) say which figures its data feeds; a "line" entry is drawn
// generically by Line unless its id is registered with a DrawFunc: x
// against one or more y, one curve per combination of the series
// parameters, replicates reduced to their mean with a 95 % Student-t
// confidence band (or error bars when a curve has fewer than three
// points), log axes, and axis labels in the display units the entry names.
// A value that is missing (NaN, or null: a value that does not apply)
// leaves a gap: the curve's line breaks at that x instead of joining the
// points either side, and the plotted numbers keep the x with a note.
// A "table" entry needs a registered figure that lays it out (rc13-tab2);
// Comparison gives such tables "document / ours / difference" columns.
// A new figure is one file with its Figure constructor and one line in
// builtin (figures.go).
//
// Draw is the entry point the command calls: for each figure it loads the
// rows of the declaring spec's dataset (restricted to the scenarios of the
// spec's plan, see KeepScenarios) and writes out/figures/<id>.png, .svg
// and .pdf, the plotted numbers as <id>.csv, and tables also as <id>.md.
//
// Output is reproducible byte for byte: one typeface (gonum/plot's
// bundled Liberation Serif, embedded in SVG and PDF), no map iteration
// order in what is drawn, and the PDF creation date fixed. Colours follow
// the Okabe-Ito colour-blind-safe palette, and each curve also has its own
// marker and dash pattern. Legends sit beside the data area, never on it.
//
// The package is two layers. The drawing core (def.go, frame.go,
// dataset.go, curves.go, line.go, axes.go, ticks.go, theme.go, stats.go,
// table.go, format.go, render.go, draw.go, sidecar.go, registry.go,
// check.go and claims.go) resolves entries, groups rows into curves, draws
// lines, axes and tables, checks the drawing, and checks the columns a
// spec's claims name against those of a generic figure's data before
// anything runs (CheckClaims). Above it sit the documents' figures,
// one file set per document: rc13*.go (document 000), zh_*.go (001),
// os_*.go (002), sp_*.go (004) and leo.go (the LEO figures), listed in
// figures.go. The core never uses a name the figures declare
// (TestCoreUsesNoFigure); a figure composing plots its own way tells the
// drawing check about them through small interfaces (paneled,
// legendStyled).
//
// The drawing check (check.go, axes.go) is what Draw adds to a figure's
// problems: an axis with too few or unround labels, points outside fixed
// axes, a legend over or squeezing the data area, two legend entries
// drawn alike, a curve hidden under another, a marker on every point of
// a dense curve, a missing value drawn as zero.
//
// Golden tests compare SVGs with testdata/*.golden.svg; run
// go test ./plots -update to rewrite them after an intended change.
package plots
