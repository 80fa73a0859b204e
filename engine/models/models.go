package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine"
)

// All returns one instance of every model, in no particular order (the
// registry sorts names). To add a model, append its constructor.
func All() []engine.Model {
	return []engine.Model{
		NewFSOBER(),
		NewBERPER(),
		NewOpticalOSNR(),
		NewTCPBulk(),
		NewTCPTransfer(),
		NewTCPCompete(),
		NewOrbitGeometry(),
		NewSatIsland(),
		NewMulticastVideo(),
		NewLEOPath(),
	}
}

// Registry returns a registry of every model in All.
func Registry() (*engine.Registry, error) {
	r, err := engine.NewRegistry(All()...)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	return r, nil
}
