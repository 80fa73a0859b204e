// Package leonet is the packet-level network of a whole constellation on
// netsim: a node per satellite and ground station, a link with its own
// queue for each direction of every inter-satellite link and of every
// ground link in use, and at each routing step (100 ms by default in
// Hypatia) the forwarding state of orbit.Forwarding toward every station,
// the links' propagation delays from their current lengths
// (netsim.Link.SetDelay) and every node's routes switched at once.
//
// It is the substrate of the leo-network model (engine/models): traffic,
// TCP hosts and tables are the model's, and so are each ISL's error rate
// and capacity, which the model sets after every step (Config.AfterStep,
// Config.ISLLoss, netsim.Link.SetRate). An optional handover gap
// (Config.HandoverGap) leaves a route that moves to a new ground link
// without a next hop while the terminal acquires the satellite. Checked: a lone packet between two stations
// takes the forwarding state's path length over c plus its serialisation
// on each hop, at every step of a moving Kuiper shell; and every packet
// offered is delivered, dropped (by reason) or still queued or on a wire.
//
// Its links end a transmission before anything else at that instant
// (netsim.LinkConfig.EndsFirst), so that they run without their
// end-of-transmission events (netsim's lazy links), their delays changing
// at every step, with exactly the results of links that have them.
package leonet
