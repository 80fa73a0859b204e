package linuxpeer

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Snapshot is the guest's record of its senders at one time.
type Snapshot struct {
	// T is the time since the senders started, in seconds.
	T float64
	// Senders maps a sending host (h10..h19) to its data connection.
	Senders map[string]Sender
}

// Sender is what `ss -tinm` shows of one data connection.
type Sender struct {
	CCA        string
	BytesAcked int64 // tcpi_bytes_acked
	Retrans    int64 // tcpi_total_retrans: segments retransmitted
	Cwnd       int64 // segments
}

var (
	// The controller's name is the details' first word, after skmem's
	// counters when ss prints them.
	ccaField     = regexp.MustCompile(`^\s*(?:skmem:\([^)]*\)\s+)?([a-z0-9_]+)\s`)
	acked        = regexp.MustCompile(`\bbytes_acked:(\d+)`)
	totalRetrans = regexp.MustCompile(`\bretrans:\d+/(\d+)`)
	cwndField    = regexp.MustCompile(`\bcwnd:(\d+)`)
)

// ParseSnapshots reads the guest's snapshots.txt: a "T seconds" line per
// snapshot, an "H host" line per sender, and that sender's `ss -tinmH`
// output, one line per socket and a tab-indented line of its details.
// A host's data connection is the one that acknowledged the most bytes:
// iperf3's control connection would carry almost none.
func ParseSnapshots(r io.Reader) ([]Snapshot, error) {
	var out []Snapshot
	host := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		switch {
		case strings.HasPrefix(text, "T "):
			t, err := strconv.ParseFloat(strings.TrimSpace(text[2:]), 64)
			if err != nil {
				return nil, fmt.Errorf("linuxpeer: snapshots line %d: %w", line, err)
			}
			out = append(out, Snapshot{T: t, Senders: map[string]Sender{}})
			host = ""
		case strings.HasPrefix(text, "H "):
			if len(out) == 0 {
				return nil, fmt.Errorf("linuxpeer: snapshots line %d: host before the first time", line)
			}
			host = strings.TrimSpace(text[2:])
		case strings.HasPrefix(text, "\t") || strings.HasPrefix(text, " "):
			if host == "" {
				return nil, fmt.Errorf("linuxpeer: snapshots line %d: socket details outside a host", line)
			}
			s, err := parseSender(text)
			if err != nil {
				return nil, fmt.Errorf("linuxpeer: snapshots line %d: %w", line, err)
			}
			cur := out[len(out)-1].Senders
			if old, ok := cur[host]; !ok || s.BytesAcked > old.BytesAcked {
				cur[host] = s
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("linuxpeer: snapshots: %w", err)
	}
	return out, nil
}

func parseSender(text string) (Sender, error) {
	m := ccaField.FindStringSubmatch(text)
	if m == nil {
		return Sender{}, fmt.Errorf("no congestion control in %q", text)
	}
	s := Sender{CCA: m[1]}
	// bytes_acked and retrans are absent until the first ACK and the
	// first retransmission.
	for _, f := range []struct {
		re  *regexp.Regexp
		dst *int64
	}{{acked, &s.BytesAcked}, {totalRetrans, &s.Retrans}, {cwndField, &s.Cwnd}} {
		if m := f.re.FindStringSubmatch(text); m != nil {
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return Sender{}, err
			}
			*f.dst = v
		}
	}
	return s, nil
}

// Measured is one run's result, as the crosslink side reports it.
type Measured struct {
	// Goodput is each sender's acknowledged bytes per second over the
	// window from the first snapshot to the last, in bit/s, by host.
	Goodput map[string]float64
	CCA     map[string]string
	// RetransRate is all senders' retransmitted segments per second over
	// the whole run (iperf3's Retr over its time).
	RetransRate float64
}

// Measure reads a run's snapshots: the first and the last bound the
// window, and every sender must appear in both.
func Measure(snaps []Snapshot, senders int) (Measured, error) {
	if len(snaps) < 2 {
		return Measured{}, fmt.Errorf("linuxpeer: %d snapshots, want at least 2", len(snaps))
	}
	a, b := snaps[0], snaps[len(snaps)-1]
	if b.T <= a.T {
		return Measured{}, fmt.Errorf("linuxpeer: last snapshot at %g s is not after the first at %g s", b.T, a.T)
	}
	if len(a.Senders) != senders || len(b.Senders) != senders {
		return Measured{}, fmt.Errorf("linuxpeer: %d and %d senders in the first and last snapshots, want %d", len(a.Senders), len(b.Senders), senders)
	}
	m := Measured{Goodput: map[string]float64{}, CCA: map[string]string{}}
	var retrans int64
	for h, end := range b.Senders {
		start, ok := a.Senders[h]
		if !ok {
			return Measured{}, fmt.Errorf("linuxpeer: sender %s missing from the first snapshot", h)
		}
		m.Goodput[h] = float64(end.BytesAcked-start.BytesAcked) * 8 / (b.T - a.T)
		m.CCA[h] = end.CCA
		retrans += end.Retrans
	}
	m.RetransRate = float64(retrans) / b.T
	return m, nil
}
