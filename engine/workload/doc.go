// Package workload holds the applications that drive TCP endpoints: a bulk
// transfer (timed or by size, like iperf3) and a fixed-size transfer whose
// response time runs from the first SYN to the last byte delivered to the
// receiving application.
//
// The receiving application (Sink) checks the byte stream: packets carry
// sizes, not bytes, so it checks by stream offset that every delivery
// continues exactly where the previous one ended and that the total equals
// what the sender wrote.
package workload
