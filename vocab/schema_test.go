package vocab

import (
	"context"
	"strings"
	"testing"
)

type fakeModel struct{ s *Schema }

func (m fakeModel) Schema() *Schema { return m.s }
func (m fakeModel) Run(context.Context, Params, uint64) (Result, error) {
	return Result{}, nil
}

func testSchema() *Schema {
	return &Schema{
		Name:    "fake",
		Version: 1,
		Params: []Param{
			{Name: "distance", Kind: Float, Unit: Meter, Default: F(1e3), Min: 1, Max: 1e9},
			{Name: "mtu", Kind: Int, Unit: Byte, Default: I(1500), Min: 64, Max: 9000},
			{Name: "mode", Kind: String, Default: S("a"), Choices: []string{"a", "b"}},
			{Name: "sack", Kind: Bool, Default: B(true)},
		},
		Metrics: []Metric{{Name: "rate", Kind: Float, Unit: BitPerSecond}},
	}
}

func TestColumnName(t *testing.T) {
	tests := []struct {
		name string
		unit Unit
		want string
	}{
		{"distance", Meter, "distance_m"},
		{"delay", Second, "delay_s"},
		{"rate", BitPerSecond, "rate_bps"},
		{"mtu", Byte, "mtu_bytes"},
		{"power", DBm, "power_dbm"},
		{"ber", Dimensionless, "ber"},
	}
	for _, tt := range tests {
		if got := ColumnName(tt.name, tt.unit); got != tt.want {
			t.Errorf("ColumnName(%q, %q) = %q, want %q", tt.name, tt.unit, got, tt.want)
		}
	}
}

func TestParamCheck(t *testing.T) {
	s := testSchema()
	tests := []struct {
		param   int
		v       Value
		wantErr string
	}{
		{0, F(5e3), ""},
		{0, F(0.5), "out of range"},
		{0, I(5), "must be a float"},
		{1, I(9000), ""}, // bounds are inclusive
		{1, I(9001), "out of range"},
		{2, S("b"), ""},
		{2, S("c"), "is not one of"},
		{3, B(false), ""},
	}
	for _, tt := range tests {
		err := s.Params[tt.param].Check(tt.v)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("Check(%s = %v) = %v, want nil", s.Params[tt.param].Name, tt.v, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("Check(%s = %v) = %v, want an error containing %q", s.Params[tt.param].Name, tt.v, err, tt.wantErr)
		}
	}
}

func TestParams(t *testing.T) {
	s := testSchema()
	p := s.Defaults().With("distance", F(2e3))
	if got := p.Float("distance"); got != 2e3 {
		t.Errorf("Float(distance) = %v, want 2000", got)
	}
	if got := s.Defaults().Float("distance"); got != 1e3 {
		t.Errorf("With changed the defaults: Float(distance) = %v, want 1000", got)
	}
	if got := p.Int("mtu"); got != 1500 {
		t.Errorf("Int(mtu) = %v, want 1500", got)
	}
	if got := p.Str("mode"); got != "a" {
		t.Errorf("Str(mode) = %q, want a", got)
	}
	if !p.Bool("sack") {
		t.Errorf("Bool(sack) = false, want true")
	}
	if s.ParamIndex("nope") != -1 {
		t.Errorf("ParamIndex(nope) = %d, want -1", s.ParamIndex("nope"))
	}
	for i, m := range s.Metrics {
		if got := s.MetricIndex(m.Name); got != i {
			t.Errorf("MetricIndex(%s) = %d, want %d", m.Name, got, i)
		}
	}
	if s.MetricIndex("nope") != -1 {
		t.Errorf("MetricIndex(nope) = %d, want -1", s.MetricIndex("nope"))
	}
}

func TestRegistryRejectsBadSchemas(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Schema)
		wantErr string
	}{
		{"reserved column", func(s *Schema) { s.Metrics = append(s.Metrics, Metric{Name: "status", Kind: String}) }, "clashes"},
		{"param and metric clash", func(s *Schema) { s.Metrics = append(s.Metrics, Metric{Name: "distance", Kind: Float, Unit: Meter}) }, "clashes"},
		{"default out of range", func(s *Schema) { s.Params[0].Default = F(0) }, "default"},
		{"no version", func(s *Schema) { s.Version = 0 }, "positive version"},
		{"metric without kind", func(s *Schema) { s.Metrics[0].Kind = Invalid }, "no kind"},
		{"exclusive group of one", func(s *Schema) { s.Exclusive = [][]string{{"distance"}} }, "two parameters"},
		{"exclusive group with a stranger", func(s *Schema) { s.Exclusive = [][]string{{"distance", "queue"}} }, "not a parameter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSchema()
			tt.edit(s)
			_, err := NewRegistry(fakeModel{s})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("NewRegistry = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
	if _, err := NewRegistry(fakeModel{testSchema()}, fakeModel{testSchema()}); err == nil {
		t.Errorf("NewRegistry with two models called fake = nil error, want a duplicate error")
	}
	r, err := NewRegistry(fakeModel{testSchema()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup("fake"); !ok || len(r.Names()) != 1 {
		t.Errorf("Lookup(fake) = %v, Names() = %v; want found and [fake]", ok, r.Names())
	}
}
