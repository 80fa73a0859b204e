package slurm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// injections are values a careless or hostile user could pass: line
// breaks that start a shell command, command substitutions, quotes.
var injections = []string{
	"1:00:00\ntouch INJECTED",
	"short\ntouch INJECTED",
	"$(touch INJECTED)",
	"`touch INJECTED`",
	"a; touch INJECTED",
	"a' ; touch INJECTED; '",
	`a" ; touch INJECTED; "`,
	"a\rtouch INJECTED",
	"a b",
	"a%j",
}

// TestInjectionRefused checks that every value written into an #SBATCH
// line is refused when it is not a plain word of its kind.
func TestInjectionRefused(t *testing.T) {
	for _, v := range injections {
		for _, set := range []struct {
			flag string
			f    func(*Options)
		}{
			{"--time", func(o *Options) { o.Time = v }},
			{"--partition", func(o *Options) { o.Partition = v }},
			{"--profile", func(o *Options) { o.Profile = v }},
			{"--mem", func(o *Options) { o.Mem = v }},
			{"--account", func(o *Options) { o.Account = v }},
			{"--qos", func(o *Options) { o.QOS = v }},
			{"name", func(o *Options) { o.Name = v }},
		} {
			o := opts()
			set.f(&o)
			if list, err := Scripts(o); err == nil {
				t.Errorf("Scripts with %s %q = a script, want an error:\n%s", set.flag, v, list[0].Text)
			}
		}
	}
	for _, v := range []string{"1:00:00", "90", "2-12", "2-12:30:00", "UNLIMITED"} {
		o := opts()
		o.Time = v
		if _, err := Scripts(o); err != nil {
			t.Errorf("Scripts with --time %q: %v, want it accepted", v, err)
		}
	}
	for _, v := range []string{"512", "512M", "2G", "1T", "64000K", "4g"} {
		o := opts()
		o.Mem = v
		if _, err := Scripts(o); err != nil {
			t.Errorf("Scripts with --mem %q: %v, want it accepted", v, err)
		}
	}
	for _, v := range []string{"2.5G", "2GB", "-1", "G"} {
		o := opts()
		o.Mem = v
		if _, err := Scripts(o); err == nil {
			t.Errorf("Scripts with --mem %q succeeded, want an error: sbatch --mem takes a whole number and one unit letter", v)
		}
	}
}

// TestScriptUnderBash writes scripts whose paths hold every injection
// string that a path can hold, checks them with bash -n, then runs them
// with bash and a stand-in binary that prints its arguments: each path
// must arrive as one argument, unchanged, and no injected command may run.
func TestScriptUnderBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	for _, v := range injections {
		if strings.ContainsAny(v, "\n\r") {
			continue // control characters in paths are refused: TestControlInPath
		}
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin "+v)
		if err := os.WriteFile(bin, []byte("#!/bin/sh\nfor a in \"$@\"; do printf '<%s>\\n' \"$a\"; done\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		o := Options{Binary: bin, Spec: filepath.Join(dir, "spec "+v+".yaml"), Name: "s", Units: 10,
			Out: filepath.Join(dir, "out "+v), Dir: filepath.Join(dir, "scripts"), Profile: "quick", Tasks: 2,
			Run: []string{"--timeout", v}}
		list, err := Scripts(o)
		if err != nil {
			t.Fatalf("Scripts(%q): %v", v, err)
		}
		path := filepath.Join(dir, "s.sbatch")
		if err := os.WriteFile(path, []byte(list[0].Text), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bash, "-n", path).CombinedOutput(); err != nil {
			t.Errorf("bash -n on the script for %q: %v\n%s\n%s", v, err, out, list[0].Text)
			continue
		}
		cmd := exec.Command(bash, path)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SLURM_CPUS_PER_TASK=3")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("bash on the script for %q: %v\n%s", v, err, out)
			continue
		}
		want := "<run>\n<" + o.Spec + ">\n<--shard>\n<auto>\n<--out>\n<" + o.Out + ">\n<--workers>\n<3>\n<--profile>\n<quick>\n<--timeout>\n<" + v + ">\n"
		if string(out) != want {
			t.Errorf("the script for %q ran the binary with\n%s\nwant\n%s", v, out, want)
		}
		if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
			t.Errorf("the script for %q ran an injected command", v)
		}
	}
}

// TestControlInPath checks that paths with line breaks are refused, and
// that the scripts directory, the one path on an #SBATCH line, holds
// nothing sbatch would read as a pattern or a quote.
func TestControlInPath(t *testing.T) {
	for _, set := range []func(*Options){
		func(o *Options) { o.Spec = "/a\ntouch INJECTED/s.yaml" },
		func(o *Options) { o.Out = "/a\rb" },
		func(o *Options) { o.Binary = "/bin/x\x00y" },
		func(o *Options) { o.Dir = "/a\nb" },
		func(o *Options) { o.Dir = `/a"b` },
		func(o *Options) { o.Dir = "/a%jb" },
		func(o *Options) { o.Run = []string{"--timeout", "1s\nrm -rf /"} },
	} {
		o := opts()
		set(&o)
		if _, err := Scripts(o); err == nil {
			t.Errorf("Scripts(%+v) = a script, want an error", o)
		}
	}
	o := opts()
	o.Dir = "/scratch/my runs/slurm"
	list, err := Scripts(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := `#SBATCH --output="/scratch/my runs/slurm/s-%A_%a.log"` + "\n"; !strings.Contains(list[0].Text, want) {
		t.Errorf("script lacks %q:\n%s", want, list[0].Text)
	}
}
