package orbit

import (
	"sort"
	"testing"
)

// hypatiaSame2025 is how many of Hypatia's 100 stations the 2025
// projection ranks, among the 100, at their gid (counted when the columns
// were added).
const hypatiaSame2025 = 14

// TestHypatiaOrderIsPop2015 checks the population columns against the
// one thing about them Hypatia publishes independently of the UN file
// they were read from: the order of its list. Hypatia's stations are
// sorted by population, so the column that ranks them must give its order
// exactly (no tolerance: a rank is a whole number). The 2015 estimate does,
// for all 100; the 2025 projection, which the file name of Hypatia's list
// suggests, does not (13 of 100 positions, WUP 2014 File 12), and the test
// keeps that finding from being quietly reversed.
func TestHypatiaOrderIsPop2015(t *testing.T) {
	cs := HypatiaCities()
	if len(cs) != 100 {
		t.Fatalf("%d cities, want 100", len(cs))
	}
	for i := 1; i < len(cs); i++ {
		if !(cs[i].Population < cs[i-1].Population) {
			t.Errorf("gid %d %s has 2015 population %.0f, not below gid %d %s's %.0f: Hypatia's order is not the 2015 estimate's",
				i, cs[i].Name, cs[i].Population, i-1, cs[i-1].Name, cs[i-1].Population)
		}
	}
	byProj := make([]int, len(cs))
	for i := range byProj {
		byProj[i] = i
	}
	sort.SliceStable(byProj, func(a, b int) bool { return cs[byProj[a]].Population2025 > cs[byProj[b]].Population2025 })
	same := 0
	for pos, gid := range byProj {
		if pos == gid {
			same++
		}
	}
	// Among these 100 alone (the file has 1,692) the 2025 ranks agree
	// at hypatiaSame2025 positions; 100 would mean the columns were
	// swapped.
	if same != hypatiaSame2025 {
		t.Errorf("the 2025 projection ranks %d of Hypatia's 100 at their gid, want %d", same, hypatiaSame2025)
	}
	// Spot values of WUP 2014 File 12 (thousands, to the printed
	// digit): the first and last of the list and one in between.
	for _, c := range []struct {
		gid      int
		pop, p25 float64
	}{
		{0, 38001018, 37875951},  // Tokyo
		{27, 10313307, 11206553}, // London
		{99, 3779558, 4539523},   // Kunming
	} {
		if got := cs[c.gid]; got.Population != c.pop || got.Population2025 != c.p25 {
			t.Errorf("gid %d %s: populations %.0f, %.0f, want %.0f, %.0f (WUP 2014 File 12, 2015 and 2025)",
				c.gid, got.Name, got.Population, got.Population2025, c.pop, c.p25)
		}
	}
}
