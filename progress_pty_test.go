package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ptySpec is two leo-path scenarios of a few seconds each: long enough for
// the bar to be seen between completions.
const ptySpec = `name: slow
model: leo-path
params:
  src: tokyo
  dst: sydney
  isl_errors: false
  isl_rate: 10Mbps
  duration: 200s
grid:
  cca: [cubic, reno]
`

// TestProgressBarInTerminal runs crosslink under a pseudo-terminal
// (util-linux's script(1)), as a user at a terminal sees it, and reads the
// frames the bar drew: the first frame shows no rate (none has completed),
// every frame shows the failures, the bar redraws while nothing completes
// (its elapsed time takes about as many values as the run lasted seconds,
// where it once stayed at 0s between completions), and once a scenario has
// completed the frames show a rate and an ETA for the one left.
func TestProgressBarInTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two scenarios of several seconds")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		missingTool(t, "script(1) (util-linux, Debian's bsdutils) is needed to run crosslink in a pseudo-terminal")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	spec := filepath.Join(dir, "slow.yaml")
	if err := os.WriteFile(spec, []byte(ptySpec), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command(script, "-qec", bin+" run -j 1 -o "+filepath.Join(dir, "out")+" "+spec, "/dev/null")
	raw, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		t.Fatalf("script: %v\n%s", err, raw)
	}
	frame := regexp.MustCompile(`slow: (\d)/2 scenarios, (\d+) failed, (?:([0-9.]+)/s, )?elapsed (\d+)s, ETA (\S+)`)
	var frames [][]string
	for _, l := range strings.Split(strings.ReplaceAll(string(raw), "\r", "\n"), "\n") {
		if m := frame.FindStringSubmatch(l); m != nil {
			frames = append(frames, m)
		}
	}
	if len(frames) == 0 {
		t.Fatalf("no progress frame in the terminal's output:\n%q", raw)
	}
	if f := frames[0]; f[1] != "0" || f[3] != "" || f[5] != "unknown" {
		t.Errorf("first frame %q: want 0 done, no rate and an unknown ETA", f[0])
	}
	elapsed := map[string]bool{}
	for _, f := range frames {
		elapsed[f[4]] = true
		if f[2] != "0" {
			t.Errorf("frame %q: want 0 failed", f[0])
		}
		if f[1] == "1" && (f[3] == "" || f[5] == "unknown") {
			t.Errorf("frame %q after a completion: want a rate and an ETA", f[0])
		}
	}
	// One redraw a second: at least one value of elapsed per whole second
	// the run lasted, less one for the second cut short at each end.
	if want := int(wall.Seconds()) - 1; len(elapsed) < want {
		t.Errorf("the run lasted %.1f s but the bar showed %d values of elapsed (want at least %d): it does not redraw between completions",
			wall.Seconds(), len(elapsed), want)
	}
	t.Logf("%d frames over %.1f s, %d values of elapsed", len(frames), wall.Seconds(), len(elapsed))
}
