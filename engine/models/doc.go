// Package models holds crosslink's sweepable models. Each model declares
// its parameters (name, kind, unit, default, range, doc) and metrics in an
// vocab.Schema and maps a parameter set and seed to one row of metrics;
// All lists them and Registry builds the registry the command line and the
// sweep look models up in.
//
// Models are thin: the physics lives in engine/phy, the packet-level
// machinery in engine/netsim and engine/tcp. A model's job is to read its
// parameters, call those packages and lay the results out in its schema's
// order, cheaply enough that a closed-form model runs hundreds of thousands
// of scenarios a second.
//
// Each model decodes its parameters once, by name, into a typed config
// (unit.Bytes, unit.BitRate, des.Duration where a unit applies) in its
// _params.go file, beside its schema; the rest of the model reads only
// that config. The packet-level models keep their topology and run in
// <model>.go and the layout of their rows in <model>_metrics.go. Every
// TCP endpoint's tcp.Config comes from one tcpHost (tcp_host.go), decoded
// from the host parameters every TCP model takes with one name, unit and
// meaning.
package models
