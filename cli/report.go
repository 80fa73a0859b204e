package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/plots/report"
	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// reportCmd writes the reproduction report of the figures already drawn.
func reportCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var specs, profile, out, verdictsMD string
	var strict bool
	c := &cobra.Command{
		Use:   "report",
		Short: "Write the reproduction report: OUT/figures/index.html and REPORT.md",
		Long: "report lists every figure and table of the source documents with its source, the spec\n" +
			"and profile that made it, its scenario and replicate counts, its run time, the\n" +
			"document's printed numbers beside ours and how ours deviates; figures no spec\n" +
			"declares yet, or not drawn yet, are listed as missing (specs that declare none of\n" +
			"them, a study of your own, get a report of their figures alone, with none missing).\n" +
			"Run it after figures (or run and plot): it stops when a figure was drawn from other\n" +
			"rows than its dataset holds now, naming the figures to draw again.",
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkOutRoot(out); err != nil {
				return err
			}
			paths, err := specFiles(specs)
			if err != nil {
				return usageError{err}
			}
			jobs, err := loadDrawn(c, paths, reg, profile, out, e)
			if err != nil {
				return usageError{err}
			}
			dir, err := figuresDir(out)
			if err != nil {
				return err
			}
			r, err := report.Build(jobs, profile, dir)
			if err != nil {
				return err
			}
			ownSpecs(r)
			r.Revision = dataset.ReadBuild().Revision
			if !c.Flags().Changed("profile") {
				r.Profile = heldProfile(jobs)
			}
			if err := report.Write(dir, r); err != nil {
				return err
			}
			if verdictsMD != "" {
				if err := writeVerdictsMD(verdictsMD, r, c.Flags().Changed("profile"), profile); err != nil {
					return err
				}
			}
			drawn, total := r.Count() // an own study's: its specs' figures
			fmt.Fprintf(e.Stderr, "report written to %s and %s: %d of %d figures drawn (%s; %s)\n",
				filepath.Join(dir, "index.html"), filepath.Join(dir, "REPORT.md"), drawn, total, r.Tally(), r.ClaimTally())
			if miss := r.Missing(); len(miss) > 0 {
				fmt.Fprintf(e.Stderr, "missing: %s\n", strings.Join(miss, " "))
				if strict {
					return fmt.Errorf("report: %d figures missing", len(miss))
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&specs, "specs", "specs", "directory of the specs that declare the figures")
	c.Flags().StringVarP(&profile, "profile", "p", "", "profile the figures were drawn at (specs without it: their base); default: the one each dataset holds")
	c.Flags().StringVarP(&out, "out", "o", "out", "output root: datasets in OUT/<spec>/, figures and report in OUT/figures/")
	c.Flags().BoolVar(&strict, "strict", false, "exit 1 when a figure of the documents is missing")
	c.Flags().StringVar(&verdictsMD, "verdicts-md", "", "also write every figure's verdict and claim counts, naming the commit and profile, to this Markdown file (for example docs/verdicts-full.md with -p full)")
	return c
}

// ownSpecs drops the documents' catalog from a report on specs that
// declare none of its figures (a user's own study): they are not missing,
// they were never asked for.
func ownSpecs(r *report.Report) {
	for _, f := range r.Figures {
		if f.Declared {
			return
		}
	}
	r.Figures = nil
}

// heldProfile names the profile of the report's header when each spec was
// loaded at the profile its dataset holds: theirs when they agree, else
// a pointer to the per-figure column.
func heldProfile(jobs []*sweep.Job) string {
	seen := map[string]bool{}
	for _, j := range jobs {
		seen[j.Profile] = true
	}
	if len(seen) == 1 {
		for p := range seen {
			return p
		}
	}
	return "as each dataset holds (see each figure)"
}

// writeVerdictsMD writes the report's verdicts as the generated Markdown
// file path, naming the revision of this binary (its vcs.revision, or the
// one make build links in) and the command that wrote it.
func writeVerdictsMD(path string, r *report.Report, profileSet bool, profile string) error {
	rev := dataset.ReadBuild().Revision
	if rev == "" {
		rev = "unknown (the binary carries no version control information: build it with make build)"
	}
	cmd := "`crosslink report"
	if profileSet {
		cmd += " -p " + profile
	}
	cmd += " --verdicts-md " + filepath.ToSlash(path) + "`"
	var b bytes.Buffer
	if err := r.WriteVerdictsMarkdown(&b, report.Provenance{Commit: rev, Command: cmd}); err != nil {
		return err
	}
	if err := plots.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("report: --verdicts-md: %w", err)
	}
	return nil
}
