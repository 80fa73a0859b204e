package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/vocab"
)

// All returns one instance of every model, in no particular order (the
// registry sorts names). To add a model, append its constructor.
func All() []vocab.Model {
	return []vocab.Model{
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
		NewLEONetwork(),
	}
}

// Registry returns a registry of every model in All.
func Registry() (*vocab.Registry, error) {
	r, err := vocab.NewRegistry(All()...)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	return r, nil
}
