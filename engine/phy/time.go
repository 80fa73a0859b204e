package phy

// PropagationDelay returns the one-way propagation time z/c in seconds
// over distance z in metres (Table 2 of document 000 uses c = 3e8 m/s).
func PropagationDelay(z float64, k Constants) float64 { return z / k.LightSpeed }

// TransmissionTime returns the time in seconds to put n bytes on a link of
// the given bit rate, 8 n / rate: the width of the bars of Fig. 5 of
// document 000. It counts payload bits at the line rate, not the 64B/66B
// coded bits.
func TransmissionTime(n, rate float64) float64 { return 8 * n / rate }
