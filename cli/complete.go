package cli

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Shell completion (crosslink completion bash|zsh|fish|powershell) of
// what the commands take: model names, spec files, profiles and figure
// ids. A completion reads specs but never fails: a spec with mistakes
// offers what it can.

// completeModels offers the registry's model names.
func completeModels(reg *vocab.Registry) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return matching(reg.Names(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSpecFiles offers *.yaml and *.yml files.
func completeSpecFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeProfiles offers the profiles of the specs named on the command
// line, or of the specs in the --specs directory.
func completeProfiles(reg *vocab.Registry) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		seen := map[string]bool{}
		for _, s := range specsFor(c, args, reg) {
			for _, p := range s.Profiles {
				seen[p.Name] = true
			}
		}
		return matching(keys(seen), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFigures offers the plot ids of the specs in --specs.
func completeFigures(reg *vocab.Registry) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		seen := map[string]bool{}
		for _, s := range specsFor(c, nil, reg) {
			for _, p := range s.Plots {
				seen[p.ID] = true
			}
		}
		for _, a := range args {
			delete(seen, a)
		}
		return matching(keys(seen), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// specsFor parses the spec files among args, or else those of the
// command's --specs directory (default specs), skipping any that fail.
func specsFor(c *cobra.Command, args []string, reg *vocab.Registry) []*spec.Spec {
	paths := make([]string, 0, len(args))
	for _, a := range args {
		if strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") {
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		dir := "specs"
		if f := c.Flags().Lookup("specs"); f != nil {
			dir = f.Value.String()
		}
		paths, _ = sweep.SpecFiles(dir)
	}
	var out []*spec.Spec
	for _, p := range paths {
		if s, err := spec.ParseFile(p, reg); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func matching(names []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// registerCompletions wires the completion functions to the commands of
// root, by command and flag name.
func registerCompletions(root *cobra.Command, reg *vocab.Registry) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "run", "expand", "slurm", "status":
			c.ValidArgsFunction = completeSpecFiles
		case "describe", "init":
			c.ValidArgsFunction = completeModels(reg)
		case "plot":
			c.ValidArgsFunction = completeFigures(reg)
		}
		if c.Flags().Lookup("profile") != nil {
			_ = c.RegisterFlagCompletionFunc("profile", completeProfiles(reg))
		}
		if c.Flags().Lookup("specs") != nil {
			_ = c.RegisterFlagCompletionFunc("specs", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			})
		}
	}
}
