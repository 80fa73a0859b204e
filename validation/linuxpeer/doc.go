// Package linuxpeer runs document 002's Mininet testbed on a real Linux
// kernel and compares it with crosslink's emulation of the same testbed
// (tcp-compete, backbone mininet).
//
// The kernel is Linux 6.1 (Debian's linux-source-6.1) built as User-Mode
// Linux with time travel (kernel/build.sh, kernel/uml.config). Booted with
// time-travel=inf-cpu, its clock moves only while it is idle: processing
// takes no simulated time, as on an idle testbed machine, and a run's
// result does not depend on how busy the host is. guest/testbed.sh is the
// guest's init: it builds the testbed out of network namespaces, veth
// pairs carrying Mininet TCLink's HTB and netem, and Linux bridges; starts
// ten bulk senders (guest/bulk.c, iperf3's socket options) in the scripts'
// order; and records every sender's `ss -tinm` at fixed times. The host's
// root file system is the guest's (hostfs, read-only), so the guest runs
// the host's ip, tc, ss and bash.
//
// What differs from the document's runs, and is said in the report: the
// kernel is 6.1, not the BBRv2 alpha tree (based on 5.13), so the two
// BBRv2 flows run BBR v1, in both the kernel and crosslink; the switches
// are Linux bridges, not Open vSwitch; the senders are bulk, not iperf3.
//
// cmd/linuxpeer runs every scenario of Scenarios on both sides, writes the
// samples (validation.Sample, side linux and crosslink) to results.csv and
// renders docs/linux-peer.md; the tests check that the committed report is
// the rendering of the committed samples. It is not part of `make test`:
// the kernel takes minutes to build and each run about a minute.
package linuxpeer
