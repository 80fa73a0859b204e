// Package report writes the reproduction report of crosslink's figures:
// out/figures/index.html (a gallery) and out/figures/REPORT.md (the same as
// text).
//
// The report lists every figure and table of the source documents, from a
// catalog kept in this package (catalog.go, copied from the list of
// figures to regenerate), whether or not a spec declares it yet: a figure
// no spec declares, or that was not drawn, is listed as missing rather
// than left out. For each drawn figure it shows the images and links to
// PNG, SVG, PDF and CSV, the caption, the source document and figure
// number, the spec and profile that made it, its scenario, replicate and
// row counts, the CPU time of its scenarios (the sum of the wall_s column
// over the spec's rows, in seconds), the notes its drawing produced, and the catalog's explanation of
// how and why ours differs from the document.
//
// Where the document prints numbers, the figure sets them beside ours: a
// table figure's own Markdown (<id>.md, e.g. rc13-tab2's document / ours /
// difference columns) or a comparison table any figure may return in
// plots.Output.Comparison (<id>.compare.md). Draw records both in the
// figure's sidecar (<id>.json), which is all the report reads of the
// drawing; catalog entries whose document prints numbers but whose figure
// gives no comparison yet say so.
//
// A claim about a point the profile did not run (its rows are not in the
// figure's data, as a q the quick grid skips) is "not computed": neither
// holding nor failing, counted apart in the figure's "claims holding"
// column, in both headlines and in verdicts.json (not_computed); a figure
// all of whose claims are so has the verdict "not computed". A claim
// naming a column the figure's data lacks fails. The command line refuses
// such a claim of a generic figure when its spec loads (plots.CheckClaims);
// the report finds those of a figure drawn by a Draw of its own, and the
// reference columns of a relative_plot in another spec.
// WriteVerdictsMarkdown writes every figure's verdict and claim counts,
// naming the commit and the profile, as a file meant to be committed
// (crosslink report --verdicts-md).
//
// Both headlines count the verdicts ("11 reproduced, 15 partly, 2 not
// reproduced") and the claims ("412 hold, 170 fail"); both have a table of contents and a link back to the top
// after each figure; the gallery colours each verdict's word. Control
// characters a spec's caption or claims hold (a NUL or an ESC written as
// a YAML escape) are written out as \xNN text in both.
package report
