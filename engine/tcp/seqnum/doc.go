// Package seqnum implements TCP sequence-number arithmetic modulo 2^32
// (RFC 9293 section 3.4): comparisons that stay correct when the sequence
// space wraps, sizes of ranges and window checks.
package seqnum
