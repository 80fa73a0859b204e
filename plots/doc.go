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
// A "table" entry needs a registered figure that lays it out (rc13-tab2);
// Comparison gives such tables "document / ours / difference" columns.
// A new figure is one file with its Figure constructor and one line in
// builtin.
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
// Golden tests compare SVGs with testdata/*.golden.svg; run
// go test ./plots -update to rewrite them after an intended change.
package plots
