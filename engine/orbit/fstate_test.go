package orbit

import (
	"fmt"
)

// fstateLines returns the forwarding state of the last step as the lines
// satgenpy writes to an fstate file ("node,destination,next,if,if" with
// destinations as node numbers), for the pairs it writes: over ISLs every
// satellite toward every station and every station toward every other;
// with ground relays every node toward every station but itself.
func fstateLines(r *Forwarding, dst []string) []string {
	dst = dst[:0]
	n, g := r.Satellites(), r.Stations()
	line := func(c, d int) {
		nh := r.NextHop(c, d)
		a, b := r.Interfaces(c, nh)
		dst = append(dst, fmt.Sprintf("%d,%d,%d,%d,%d", c, n+d, nh, a, b))
	}
	for c := 0; c < n+g; c++ {
		for d := 0; d < g; d++ {
			if c != n+d {
				line(c, d)
			}
		}
	}
	return dst
}
