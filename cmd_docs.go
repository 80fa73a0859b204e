package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/datadoc"
	"github.com/crosslink-sim/crosslink/sweep/specdoc"
	"github.com/crosslink-sim/crosslink/vocab"
)

// writeOut writes b to path, or to stdout when path is "" or "-".
func writeOut(e *env, path string, b []byte, force bool) error {
	if path == "" || path == "-" {
		_, err := e.stdout.Write(b)
		return err
	}
	if !force {
		if _, err := os.Stat(path); err == nil {
			return usageError{fmt.Errorf("%s exists; pass --force to overwrite it", path)}
		}
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s\n", path)
	return nil
}

// docsCmd writes docs/datasets.md from the model registry.
func docsCmd(reg *vocab.Registry, e *env) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "docs",
		Short: "Write the dataset reference (docs/datasets.md) from the model registry",
		Args:  args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			var b bytes.Buffer
			if err := datadoc.Write(&b, reg); err != nil {
				return err
			}
			return writeOut(e, out, b.Bytes(), true)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "docs/datasets.md", "file to write, - for standard output")
	return c
}

// schemaCmd writes the JSON Schema of the spec format.
func schemaCmd(reg *vocab.Registry, e *env) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of sweep specs, with every model's parameters",
		Long: "schema prints a JSON Schema (draft 2020-12) of the spec format with every model's\n" +
			"parameters, units and ranges. Point a YAML-aware editor at it (for example a first line\n" +
			"'# yaml-language-server: $schema=spec.schema.json') to complete and check specs.",
		Args: args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			b, err := specdoc.JSONSchema(reg)
			if err != nil {
				return err
			}
			return writeOut(e, out, b, true)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "-", "file to write, - for standard output")
	return c
}

// initCmd writes a commented starter spec for a model.
func initCmd(reg *vocab.Registry, e *env) *cobra.Command {
	var out, name string
	var force bool
	c := &cobra.Command{
		Use:   "init MODEL",
		Short: "Write a commented starter spec for MODEL that runs as it is",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, a []string) error {
			m, ok := reg.Lookup(a[0])
			if !ok {
				return usageError{fmt.Errorf("init: no model %q%s (crosslink models lists them)", a[0], sweep.Suggest(a[0], reg.Names()))}
			}
			if name == "" {
				name = "my-" + m.Schema().Name
				if out != "" && out != "-" {
					name = strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
				}
			}
			var b bytes.Buffer
			if err := specdoc.Starter(&b, m.Schema(), name); err != nil {
				return err
			}
			err := writeOut(e, out, b.Bytes(), force)
			var usage usageError
			if err != nil && !errors.As(err, &usage) {
				return fmt.Errorf("init: %w", err)
			}
			return err
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "-", "file to write (its base name names the spec), - for standard output")
	c.Flags().StringVar(&name, "name", "", "spec name (default: from --out, or my-MODEL)")
	c.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return c
}
