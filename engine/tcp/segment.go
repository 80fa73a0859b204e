package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/netsim"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// HeaderBytes is the size of the IPv4 and TCP headers without options
// (RFC 791, RFC 9293 section 3.1).
const HeaderBytes = 40

// ccOptionBytes is RFC 1644's CC option as T/TCP implementations send
// it: kind 11, length 6, after two NOPs that align it to 4 bytes.
const ccOptionBytes = 8

// optionBytes returns the TCP option space a packet uses, padded to a
// multiple of 4 bytes (RFC 9293 section 3.1): MSS 4 bytes (section 3.2),
// window scale 3 (RFC 7323 section 2.2), SACK-permitted 2 and SACK 2+8n
// (RFC 2018 sections 2 and 3), timestamps 10 (RFC 7323 section 3.2).
func optionBytes(p *netsim.Packet) unit.Bytes {
	var n unit.Bytes
	if p.MSS != 0 {
		n += 4
	}
	if p.WScale >= 0 {
		n += 3
	}
	if p.SACKPermitted {
		n += 2
	}
	if p.NSACK > 0 {
		n += 2 + 8*unit.Bytes(p.NSACK) // NSACK blocks of 8 bytes
	}
	if p.HasTS {
		n += 10
	}
	return (n + 3) &^ 3
}
