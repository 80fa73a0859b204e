package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/vocab"
)

// listModels writes one line per model: name, version and the first
// sentence of its documentation.
func listModels(w io.Writer, reg *vocab.Registry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tVERSION\tWHAT IT COMPUTES")
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		s := m.Schema()
		fmt.Fprintf(tw, "%s\t%d\t%s\n", s.Name, s.Version, firstSentence(s.Doc))
	}
	return tw.Flush()
}

// describe writes a model's parameters (type, unit, default, range, doc),
// its metrics and its second tables, as a user needs them to write a spec
// or read the dataset.
func describe(w io.Writer, s *vocab.Schema) error {
	fmt.Fprintf(w, "%s (version %d)\n\n%s\n\nPARAMETERS (spec key, Parquet column)\n", s.Name, s.Version, wrap(s.Doc, 78))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCOLUMN\tTYPE\tUNIT\tDEFAULT\tRANGE\tDOC")
	for _, p := range s.Params {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Column(), p.Kind, unitName(p.Unit),
			sweep.FormatValue(p.Default, p.Unit), paramRange(p), p.Doc)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeColumns(w, "\nMETRICS (one row per scenario)\n", s.Metrics)
	for _, t := range s.Tables {
		writeColumns(w, fmt.Sprintf("\nTABLE %s (%s): scenario_id, replicate and\n", t.Name, firstSentence(t.Doc)), t.Columns)
	}
	fmt.Fprintf(w, "\nThe main table (one row per scenario) also has the columns %s.\n", strings.Join(vocab.ReservedColumns(), ", "))
	return nil
}

func writeColumns(w io.Writer, title string, cols []vocab.Metric) {
	io.WriteString(w, title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCOLUMN\tTYPE\tUNIT\tDOC")
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Name, c.Column(), c.Kind, unitName(c.Unit), c.Doc)
	}
	tw.Flush()
}

func paramRange(p vocab.Param) string {
	switch {
	case len(p.Choices) > 0:
		return strings.Join(p.Choices, "|")
	case p.Bounded():
		return sweep.FormatValue(vocab.F(p.Min), p.Unit) + " .. " + sweep.FormatValue(vocab.F(p.Max), p.Unit)
	case p.Kind == vocab.Bool:
		return "true|false"
	}
	return "any"
}

func unitName(u vocab.Unit) string {
	if u == vocab.Dimensionless {
		return "-"
	}
	return string(u)
}

// firstSentence returns s up to the first full stop that ends a sentence:
// followed by a space and a capital, and not closing an abbreviation such
// as "Eq." or "et al.".
func firstSentence(s string) string {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '.' || s[i+1] != ' ' || s[i+2] < 'A' || s[i+2] > 'Z' {
			continue
		}
		word := s[strings.LastIndexAny(s[:i], " (")+1 : i]
		switch word {
		case "Eq", "Eqs", "Fig", "Figs", "al", "e.g", "i.e", "vs", "Sec", "Ref":
			continue
		}
		return s[:i+1]
	}
	return s
}

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(word) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// expand writes the job's scenario table: index, id, replicate, seed and
// the value of every parameter the spec varies (grid axes and case
// settings), then the count. limit > 0 prints only the first limit rows.
func expand(w io.Writer, j *sweep.Job, limit int) error {
	s := j.Plan.Schema()
	var varied []int
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			if i := s.ParamIndex(name); i >= 0 {
				varied = append(varied, i)
			}
		}
	}
	for _, a := range j.Spec.Grid {
		add(a.Name)
	}
	for _, c := range j.Spec.Cases {
		for _, set := range c {
			add(set.Name)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "#\tSCENARIO_ID\tREPLICATE\tSEED")
	for _, i := range varied {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(s.Params[i].Name))
	}
	fmt.Fprintln(tw)
	n := j.Plan.Len()
	shown := n
	if limit > 0 && limit < n {
		shown = limit
	}
	for k := range shown {
		sc := j.Plan.At(k)
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d", k, sc.ID, sc.Replicate, sc.Seed)
		vals := sc.Params.Values()
		for _, i := range varied {
			fmt.Fprintf(tw, "\t%s", sweep.FormatValue(vals[i], s.Params[i].Unit))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	profile := j.Profile
	if profile == "" {
		profile = "base"
	}
	if shown < n {
		fmt.Fprintf(w, "... %d more\n", n-shown)
	}
	if a := j.Spec.Adaptive; a != nil {
		_, err := fmt.Fprintf(w, "%s (%s profile, model %s): %d points x %d..%d replicates (adaptive: until the 95 %% interval of %s is within %g of the mean): %d..%d scenarios\n",
			j.Spec.Name, profile, j.Model.Schema().Name, j.Plan.Points(), a.Min, a.Max, a.Metric, a.CI95Rel, j.Plan.Points()*a.Min, n)
		return err
	}
	_, err := fmt.Fprintf(w, "%s (%s profile, model %s): %d scenarios\n", j.Spec.Name, profile, j.Model.Schema().Name, n)
	return err
}
