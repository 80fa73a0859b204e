package orbit

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"fmt"
)

func TestScratchFstate(t *testing.T) {
	dir := os.Getenv("FSDIR")
	if dir == "" { t.Skip() }
	sh := mustShell(t, "kuiper-k1")
	pye := os.Getenv("DEF") == ""
	m := Motion{GMST0: GMSTNewcomb(-0.5), SGP4: true, PyEphem: true}
	e := PyEphem
	if !pye { m = Motion{GMST0: GMSTAt(-0.5), SGP4: true}; e = WGS72 }
	f, err := NewFleet(FleetConfig{Shells: []Shell{sh}, Motion: m, UseCone: true})
	if err != nil { t.Fatal(err) }
	r, err := NewForwarding(f, e, HypatiaCities(), OverISLs, nil)
	if err != nil { t.Fatal(err) }
	for _, ns := range []int64{0, 9700000000, 48500000000, 97000000000} {
		r.Step(float64(ns) / 1e9)
		ours := map[string]string{}
		for _, l := range fstateLines(r, nil) { p := strings.SplitN(l, ",", 3); ours[p[0]+","+p[1]] = p[2] }
		fh, err := os.Open(fmt.Sprintf("%s/fstate_%d.txt", dir, ns))
		if err != nil { t.Fatal(err) }
		sc := bufio.NewScanner(fh)
		same, diff := 0, 0
		for sc.Scan() {
			p := strings.SplitN(sc.Text(), ",", 3)
			if ours[p[0]+","+p[1]] == p[2] { same++ } else { diff++; if diff < 5 { t.Logf("%d: %s,%s theirs %s ours %s", ns, p[0], p[1], p[2], ours[p[0]+","+p[1]]) } }
		}
		fh.Close()
		t.Logf("t=%d same %d differ %d (ours %d)", ns, same, diff, len(ours))
	}
}
