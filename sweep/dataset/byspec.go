package dataset

import "strconv"

// SpecGroup is the main parts of a dataset whose metadata records one spec
// text.
type SpecGroup struct {
	SHA256  string // of the spec text (KeySpecSHA256)
	Name    string // the spec's name (KeySpecName)
	Spec    string // the text (KeySpec)
	Model   string // the model that wrote the parts (KeyModel)
	Version int    // and its version (KeyModelVersion)
	Parts   []string
}

// BySpec groups the main parts of the dataset dir by the spec text, model
// and model version they record, in the order of each group's first part
// (see Parts). Parts that
// record none (or whose footer does not read: Repair's business) are left
// out. Only footers are read.
func BySpec(dir string) ([]SpecGroup, error) {
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	var out []SpecGroup
	at := map[string]int{}
	for _, p := range paths {
		kv, err := fileMeta(p)
		if err != nil {
			continue
		}
		var g SpecGroup
		for _, e := range kv {
			switch e[0] {
			case KeySpecSHA256:
				g.SHA256 = e[1]
			case KeySpecName:
				g.Name = e[1]
			case KeySpec:
				g.Spec = e[1]
			case KeyModel:
				g.Model = e[1]
			case KeyModelVersion:
				g.Version, _ = strconv.Atoi(e[1])
			}
		}
		if g.SHA256 == "" {
			continue
		}
		key := g.SHA256 + "\x00" + g.Model + "\x00" + strconv.Itoa(g.Version)
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, g)
		}
		out[i].Parts = append(out[i].Parts, p)
	}
	return out, nil
}
