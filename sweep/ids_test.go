package sweep

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestIDsPinned holds scenario ids, point ids and seeds to the dataset
// contract: the same spec names the same scenarios from one crosslink to
// the next (DESIGN.md, Contracts), however the plan computes them. The
// values are those that crosslink run wrote for this spec at commit
// 5318b1a (fso-ber version 1), before the plan derived the point id with
// the scenario id and restored hash states; a spec with a case, a grid
// axis and replicates, whose key text before the first axis holds a whole
// SHA-256 block.
func TestIDsPinned(t *testing.T) {
	const text = "name: pin\nmodel: fso-ber\nseed: 7\nreplicates: 2\ncases: [{detection: coherent, distance: 25000km}]\ngrid: {bit_rate: [1Gbps, 4Gbps]}\n"
	want := []struct {
		replicate int
		bitRate   float64
		id, point string
		seed      uint64
	}{
		{0, 1e9, "fb9d5ed6f915a25f1bbe2039f69b9304", "3523df2e4343910801c9307af4958405", 1383105820276643116},
		{0, 4e9, "4b7875eebaf3ea09df5e18b46fb7c215", "c139d2862a72d614c07ffaeb69ccb0ce", 10117834694328375729},
		{1, 1e9, "d52df88f5ad1f08f84733c1f42387b13", "3523df2e4343910801c9307af4958405", 16077333521133871110},
		{1, 4e9, "32f389948aafca45657eed51cf4e891e", "c139d2862a72d614c07ffaeb69ccb0ce", 5246510002942481668},
	}
	m := models.NewFSOBER()
	if v := m.Schema().Version; v != 1 {
		// A new version names new scenarios by design (plan.ID).
		t.Fatalf("fso-ber is at version %d and these ids are version 1's: pin the ids, point ids and seeds that crosslink run of this spec writes at the new version, with a crosslink whose id code is unchanged", v)
	}
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("pin.yaml", []byte(text), reg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.New(s, m)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != len(want) {
		t.Fatalf("%d scenarios, want %d", p.Len(), len(want))
	}
	for i, w := range want {
		sc := p.At(i)
		if sc.Replicate != w.replicate || sc.Params.Float("bit_rate") != w.bitRate {
			t.Fatalf("scenario %d is replicate %d at %g bit/s, want %d at %g", i, sc.Replicate, sc.Params.Float("bit_rate"), w.replicate, w.bitRate)
		}
		if sc.ID != w.id || sc.PointID != w.point || sc.Seed != w.seed {
			t.Errorf("scenario %d: id %s, point %s, seed %d; want %s, %s, %d", i, sc.ID, sc.PointID, sc.Seed, w.id, w.point, w.seed)
		}
		if got := plan.PointID(m.Schema(), sc.Params.Values()); got != w.point {
			t.Errorf("scenario %d: plan.PointID %s, want %s", i, got, w.point)
		}
	}
}
