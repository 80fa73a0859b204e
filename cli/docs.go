package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/datadoc"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/sweep/specdoc"
	"github.com/crosslink-sim/crosslink/vocab"
)

// writeOut writes b to stdout when dir is "", or else to dir/file. -o is
// a directory for every command (the output root of run, plot and report;
// where init, schema and docs put their files), so a file name given to
// -o is refused with the command that does what was meant.
func writeOut(e *Env, dir, file string, b []byte, force bool) error {
	if dir == "" {
		_, err := e.Stdout.Write(b)
		return err
	}
	if err := checkOutDir(dir); err != nil {
		return err
	}
	path := filepath.Join(dir, file)
	if !force {
		if _, err := os.Stat(path); err == nil {
			return usageError{fmt.Errorf("%s exists; pass --force to overwrite it", path)}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "wrote %s\n", path)
	return nil
}

// checkOutDir refuses an -o that names a file rather than a directory.
func checkOutDir(dir string) error {
	switch filepath.Ext(dir) {
	case ".yaml", ".yml", ".json", ".md":
		return usageError{fmt.Errorf("-o %s: -o names a directory for every crosslink command; the file name comes from the command (init: --name)", dir)}
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usageError{fmt.Errorf("-o %s: not a directory", dir)}
	}
	return nil
}

// docsCmd writes the dataset reference from the model registry.
func docsCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "docs",
		Short: "Print the dataset reference (every model's columns) from the model registry; -o docs regenerates docs/datasets.md",
		Args:  args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			var b bytes.Buffer
			if err := datadoc.Write(&b, reg); err != nil {
				return err
			}
			return writeOut(e, out, "datasets.md", b.Bytes(), true)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "directory to write datasets.md into (default: standard output)")
	return c
}

// schemaCmd writes the JSON Schema of the spec format.
func schemaCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of sweep specs, with every model's parameters",
		Long: "schema prints a JSON Schema (draft 2020-12) of the spec format with every model's\n" +
			"parameters, units and ranges; with -o DIR it writes DIR/" + schemaFile + ". A YAML-aware\n" +
			"editor then completes and checks the specs of DIR that start with\n" +
			"'# yaml-language-server: $schema=" + schemaFile + "' (crosslink init writes both).",
		Args: args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			b, err := specdoc.JSONSchema(reg)
			if err != nil {
				return err
			}
			return writeOut(e, out, schemaFile, b, true)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "directory to write "+schemaFile+" into (default: standard output)")
	return c
}

// schemaFile is the file name of the JSON Schema beside a user's specs;
// the starter specs of init refer to it.
const schemaFile = specdoc.SchemaFile

// initCmd writes a commented starter spec for a model.
func initCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var out, name string
	var force bool
	c := &cobra.Command{
		Use:   "init MODEL",
		Short: "Write a commented starter spec for MODEL that runs as it is",
		Long: "init prints a starter spec for MODEL; with -o DIR it writes DIR/NAME.yaml and, beside it,\n" +
			"the JSON Schema (" + schemaFile + ") its first line points YAML-aware editors to.",
		Args: args(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, a []string) error {
			m, ok := reg.Lookup(a[0])
			if !ok {
				return usageError{fmt.Errorf("init: no model %q%s (crosslink models lists them)", a[0], sweep.Suggest(a[0], reg.Names()))}
			}
			if name == "" {
				name = "my-" + m.Schema().Name
			}
			if err := spec.CheckSpecName(name); err != nil {
				return usageError{fmt.Errorf("init: --name: %w", err)}
			}
			var b bytes.Buffer
			if err := specdoc.Starter(&b, m.Schema(), name); err != nil {
				return err
			}
			err := writeOut(e, out, name+".yaml", b.Bytes(), force)
			var usage usageError
			if err != nil && !errors.As(err, &usage) {
				return fmt.Errorf("init: %w", err)
			}
			if err != nil || out == "" {
				return err
			}
			schema, err := specdoc.JSONSchema(reg)
			if err != nil {
				return err
			}
			return writeOut(e, out, schemaFile, schema, true)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "directory to write NAME.yaml and "+schemaFile+" into (default: the spec on standard output)")
	c.Flags().StringVar(&name, "name", "", "spec name, and file name with -o (default: my-MODEL)")
	c.Flags().BoolVar(&force, "force", false, "overwrite an existing spec file")
	return c
}
