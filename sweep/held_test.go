package sweep

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestLoadHeldAlikeProfiles: of a base spec and a profile with the same
// scenarios (quick: {}), LoadHeld names the one the dataset's parts
// record, so plot says "profile quick" for a quick run, as status does.
func TestLoadHeldAlikeProfiles(t *testing.T) {
	reg, err := vocab.NewRegistry(newInverseSquare(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, profile := range []string{"quick", ""} {
		t.Run("run at profile "+profile, func(t *testing.T) {
			dir, out := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "alike.yaml")
			text := "name: alike\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m]\nprofiles:\n  quick: {}\n"
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			j, err := Load(path, reg, profile, false, out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := RunJobs(context.Background(), []*Job{j}, Options{Workers: 1, Warn: io.Discard}); err != nil {
				t.Fatal(err)
			}
			h, held, err := LoadHeld(path, reg, out)
			if err != nil || held != 2 || h.Profile != profile {
				t.Errorf("LoadHeld: profile %q, %d held, %v; want %q and 2", h.Profile, held, err, profile)
			}
		})
	}
}
