package plots

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Sidecar is what a drawn figure tells the reproduction report beyond its
// images: which spec made it and from which rows, its caption, the notes
// of its drawing (rows left out and why) and which of its files hold
// tables. Draw writes it to <id>.json beside the images; its bytes depend
// only on the figure and its dataset's rows.
type Sidecar struct {
	ID   string `json:"id"`
	Spec string `json:"spec"`
	// Dataset is the DatasetDigest of the main table the figure was
	// drawn from, so that the report can tell a figure drawn before its
	// dataset was run again; "" for a source that is not a dataset.
	Dataset string   `json:"dataset,omitempty"`
	Caption string   `json:"caption,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	// Problems are the figure's drawing defects (Output.Problems).
	Problems []string `json:"problems,omitempty"`
	// Files are the names written for the figure, in a fixed order:
	// images, then data (csv), then Markdown tables.
	Files []string `json:"files"`
	// Table names <id>.md when the figure is a table; Comparison names
	// <id>.compare.md when the figure set the document's numbers beside
	// ours.
	Table      string `json:"table,omitempty"`
	Comparison string `json:"comparison,omitempty"`
}

// ReadSidecar reads <dir>/<id>.json.
func ReadSidecar(dir, id string) (*Sidecar, error) {
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	var s Sidecar
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("plots: %s.json: %w", id, err)
	}
	return &s, nil
}

func writeSidecar(dir, id, spec, digest, caption string, out *Output) error {
	s := Sidecar{ID: id, Spec: spec, Dataset: digest, Caption: caption, Notes: out.Notes, Problems: out.Problems}
	for _, f := range formats {
		s.Files = append(s.Files, id+"."+f)
	}
	if out.Data != nil {
		s.Files = append(s.Files, id+".csv")
		if out.Markdown {
			s.Table = id + ".md"
			s.Files = append(s.Files, s.Table)
		}
	}
	if out.Comparison != nil {
		s.Comparison = id + ".compare.md"
		s.Files = append(s.Files, id+".compare.csv", s.Comparison)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("plots: %s.json: %w", id, err)
	}
	return WriteFile(filepath.Join(dir, id+".json"), append(b, '\n'))
}
