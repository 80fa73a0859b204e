#!/bin/bash
# testbed.sh runs inside the User-Mode Linux guest as its init. It builds
# document 002's Case 01 Mininet testbed (scripts/Case 01/tcp_cc_mn_iperf4.py
# of nerds-ufes/IP_TCPoDWDM_IMOC2025) out of network namespaces:
#
#   h10..h19 - s3 - s1 =(backbone, 10 ms)= s2 - s4 - h20..h29
#
# every link a veth pair whose two ends carry what a Mininet TCLink
# configures (mininet/link.py, TCIntf.bwCmds and delayCmds): an HTB root
# with one 100 Mbit/s class, burst 15k, and a netem leaf with the link's
# delay, loss and limit. The switches are Linux bridges (Mininet's are Open
# vSwitch bridges; in this line both only forward). Ten bulk senders, one
# per host, each send to a receiver on a host of its own, h1x to h2x as the
# scripts' iperf3 clients do (-c h2x), with the socket options of the
# scripts' iperf3 -w 16m -M 1460 -N -C <cca>.
#
# The kernel command line passes its parameters (comma-separated lists):
#   OUTDIR  host directory (hostfs) the snapshots go to
#   BULK    host path of the static bulk sender/receiver
#   Q LOSS  queue_bdp in percent and netem loss (e.g. 0.5%)
#   DUR     seconds each sender sends
#   CCAS    the ten senders' congestion control, in start order
#   SAMPLES seconds after the start at which every sender's ss -tinm is
#           recorded
#   GSO     off makes the senders' TCP send one segment per skb
#   SPACING seconds between the starts of consecutive senders (optional;
#           without it all start at one instant: time travel runs the
#           loop that starts them in no time)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
set -u
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmpfs /run
mkdir -p /run/netns
mount -t hostfs none /mnt -o "$OUTDIR"
OUT=/mnt
exec 2>"$OUT/guest.err"
fail() { echo "testbed: $*" >&2; echo "FAILED $*" >"$OUT/status"; halt -f; }

# tc sizes an HTB class's cburst (and burst, when not given) from the clock
# resolution /proc/net/psched reports (iproute2's get_hz: rate / hz + mtu).
# A Mininet host runs with high-resolution timers (hz 10^9 there: cburst
# 1600 bytes); this kernel switches to them at its first tick after init
# starts, and before that reports hz 250 (cburst 51600 bytes, so "burst
# 15k" would bind). The qdisc watchdogs and TCP's pacing timer need them
# as well.
for i in $(seq 100); do
  grep -q ' 3b9aca00$' /proc/net/psched && break
  sleep 0.01
done
grep -q ' 3b9aca00$' /proc/net/psched || fail "no high-resolution timers: $(cat /proc/net/psched)"

SPACING=${SPACING:-0}
CCAS=${CCAS//,/ }
SAMPLES=${SAMPLES//,/ }
# Mininet's fixLimits (mininet/util.py), run when a Mininet network is
# built: 16 MiB socket buffer limits, so iperf3's -w 16m is granted and
# doubled (net/core/sock.c, sock_setsockopt).
sysctl -qw net.core.wmem_max=16777216 net.core.rmem_max=16777216 \
  net.ipv4.tcp_rmem="10240 87380 16777216" net.ipv4.tcp_wmem="10240 87380 16777216" \
  net.core.netdev_max_backlog=5000 || fail "sysctl"
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"

for n in s1 s2 s3 s4 h10 h11 h12 h13 h14 h15 h16 h17 h18 h19 h20 h21 h22 h23 h24 h25 h26 h27 h28 h29; do
  ip netns add $n && ip -n $n link set lo up || fail "netns $n"
done
for s in s1 s2 s3 s4; do
  ip -n $s link add br0 type bridge stp_state 0 && ip -n $s link set br0 up || fail "bridge $s"
done

# tclink NS DEV DELAY LIMIT LOSS: one interface of a Mininet TCLink.
tclink() {
  local lossarg=""
  [ "$5" != 0 ] && lossarg="loss $5"
  ip netns exec $1 tc qdisc add dev $2 root handle 5:0 htb default 1 &&
    ip netns exec $1 tc class add dev $2 parent 5:0 classid 5:1 htb rate 100Mbit burst 15k &&
    ip netns exec $1 tc qdisc add dev $2 parent 5:1 handle 10: netem delay $3 $lossarg limit $4 ||
    fail "tc on $1 $2"
}
# link NSA DEVA NSB DEVB DELAY LIMIT LOSS: a TCLink, both ends configured.
link() {
  local a=$1 da=$2 b=$3 db=$4 d=$5 lim=$6 l=$7
  ip link add tmpa type veth peer name tmpb &&
    ip link set tmpa netns $a && ip link set tmpb netns $b &&
    ip -n $a link set tmpa name $da && ip -n $b link set tmpb name $db &&
    ip -n $a link set $da up && ip -n $b link set $db up || fail "veth $da-$db"
  tclink $a $da $d $lim $l
  tclink $b $db $d $lim $l
  case $a in s*) ip -n $a link set $da master br0 || fail "port $da" ;; esac
  case $b in s*) ip -n $b link set $db master br0 || fail "port $db" ;; esac
}

# The scripts' max_queue_size: 100 x d for the hosts' links, 21 x d x 20/100
# for the access-backbone links and 8.33 x q/100 x d for the backbone, with
# d = 10 (ms), written by Mininet as tc's "limit %d" (truncated).
N=$(awk -v q="$Q" 'BEGIN { printf "%d", 8.33 * q / 100 * 10 }')
for i in 10 11 12 13 14 15 16 17 18 19; do
  link h$i h$i-eth0 s3 s3-eth$i 0ms 1000 0
  ip -n h$i addr add 10.0.0.$i/8 dev h$i-eth0 || fail "address h$i"
  if [ "${GSO:-on}" = off ]; then
    # TCP sizes its skbs by the route's gso_max_segs (sk_setup_caps,
    # tcp_tso_segs); turning the device's gso or tso off (ethtool) would
    # leave TCP building GSO skbs that the device splits after the qdisc.
    ip -n h$i link set dev h$i-eth0 gso_max_segs 1 || fail "gso_max_segs on h$i"
  fi
done
link s3 s3-eth1 s1 s1-eth1 0ms 42 0
link s1 s1-eth2 s2 s2-eth1 10ms "$N" "$LOSS"
link s2 s2-eth2 s4 s4-eth1 0ms 42 0
for i in 20 21 22 23 24 25 26 27 28 29; do
  link h$i h$i-eth0 s4 s4-eth$i 0ms 1000 0
  ip -n h$i addr add 10.0.0.$i/8 dev h$i-eth0 || fail "address h$i"
done
# Mininet's pingAll, which the scripts run before any iperf3, leaves every
# host with the others' ARP entries, stale by the time the ten-flow run
# starts (after base_reachable_time, 30 s, and the scripts' 50 s capacity
# tests); a stale entry is used at once. Without them each first SYN waits
# a round trip for ARP, and the handshake's RTT sample, which seeds srtt
# and BBR's first pacing rate, is twice the path's.
mac() { ip -n "$1" -o link show "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }
for i in 10 11 12 13 14 15 16 17 18 19; do
  r=$((i + 10))
  ip -n h$i neigh replace 10.0.0.$r lladdr "$(mac h$r h$r-eth0)" dev h$i-eth0 nud stale &&
    ip -n h$r neigh replace 10.0.0.$i lladdr "$(mac h$i h$i-eth0)" dev h$r-eth0 nud stale ||
    fail "ARP entries of h$i and h$r"
done
{ echo "kernel $(uname -r)"; echo "backbone limit $N loss $LOSS"; ip netns exec s1 tc qdisc show dev s1-eth2; ip netns exec s1 tc class show dev s1-eth2; ip -n h10 neigh show; } >"$OUT/setup.txt"

for i in 0 1 2 3 4 5 6 7 8 9; do
  ip netns exec h$((20 + i)) "$BULK" -s $((5201 + i)) 16777216 || fail "receiver $i"
done
# The samples' times count from the first sender's start. The senders
# are started in the background, so that a sample due before the last
# one starts (SPACING) is taken on time; that shell waits for them.
start=$(date +%s.%N)
(
  i=0
  for cca in $CCAS; do
    if [ "$i" -gt 0 ] && [ "$SPACING" != 0 ]; then
      sleep "$SPACING"
    fi
    ip netns exec h$((10 + i)) "$BULK" -c 10.0.0.$((20 + i)) $((5201 + i)) 16777216 $cca 1460 "$DUR" >"$OUT/sender$i.err" 2>&1 &
    i=$((i + 1))
  done
  wait
) &
for t in $SAMPLES; do
  sleep "$(awk -v s="$start" -v n="$(date +%s.%N)" -v t="$t" 'BEGIN { d = s + t - n; printf "%.6f", (d > 0 ? d : 0) }')"
  echo "T $(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.6f", n - s }')" >>"$OUT/snapshots.txt"
  for i in 10 11 12 13 14 15 16 17 18 19; do
    echo "H h$i" >>"$OUT/snapshots.txt"
    ip netns exec h$i ss -tinmH dst 10.0.0.$((i + 10)) >>"$OUT/snapshots.txt"
  done
done
wait
# Each sender's TCP counters (its namespace's /proc/net/netstat): which
# of HyStart's detectors ended its slow start and at what cwnd
# (TCPHystartTrainDetect, TCPHystartDelayDetect, ...), and the like.
for i in 10 11 12 13 14 15 16 17 18 19; do
  echo "H h$i"
  ip netns exec h$i cat /proc/net/netstat
done >"$OUT/netstat.txt"
ip netns exec s1 tc -s qdisc show dev s1-eth2 >"$OUT/backbone-qdisc.txt"
ip netns exec s3 tc -s qdisc show dev s3-eth1 >"$OUT/access-qdisc.txt"
echo OK >"$OUT/status"
halt -f
