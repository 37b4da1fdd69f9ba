package reliability

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
)

func TestFisherLess(t *testing.T) {
	// 5/5 then 0/5: only that table, 1/C(10,5).
	if p := fisherLess(5, 5, 0, 5); !near(p, 1.0/252) {
		t.Errorf("p = %v, want 1/252", p)
	}
	if p := fisherLess(3, 5, 3, 5); p < 0.5 {
		t.Errorf("no change: p = %v, want ≥ 0.5", p)
	}
}

// synthetic writes a run of cases × trials, case i passing with
// probability p(i), scores 1 or 0.
func synthetic(rng *rand.Rand, cases, trials int, p func(int) float64) []toolgrade.Result {
	th := 0.5
	var out []toolgrade.Result
	for i := range cases {
		for range trials {
			pass := rng.Float64() < p(i)
			s := 0.0
			if pass {
				s = 1
			}
			out = append(out, toolgrade.Result{ID: "case-" + strconv.Itoa(i), Success: pass,
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Score: s, Success: pass, Threshold: &th}}})
		}
	}
	return out
}

func compareRuns(base, new []toolgrade.Result, seed uint64) *Comparison {
	c := &Comparison{Seed: seed, Resamples: 400}
	for i := range base {
		c.AddBase(&base[i])
	}
	for i := range new {
		c.AddNew(&new[i])
	}
	return c
}

func TestCompareTrials(t *testing.T) {
	// Cases of varied difficulty, as real suites have.
	p := func(i int) float64 { return []float64{0.95, 0.8, 0.6, 0.9, 0.5}[i%5] }
	t.Run("injected regression is flagged", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		base := synthetic(rng, 40, 8, p)
		// The first 12 cases break: they now pass one time in ten.
		new := synthetic(rng, 40, 8, func(i int) float64 {
			if i < 12 {
				return 0.1
			}
			return p(i)
		})
		c := compareRuns(base, new, 1)
		if !c.Trials() || !c.Regression() {
			t.Fatalf("regression not flagged: %+v", c.Noise().Metrics)
		}
		worse := 0
		for _, d := range c.Noise().Cases {
			n, _ := strconv.Atoi(d.Case[len("case-"):])
			if d.Regressed && n >= 12 {
				t.Errorf("unchanged case %s regressed after correction (p=%v)", d.Case, d.P)
			}
			if d.Significant && n < 12 {
				worse++
			}
		}
		if worse == 0 {
			t.Errorf("no broken case named among %+v", c.Noise().Cases)
		}
	})
	t.Run("pure noise is rarely flagged", func(t *testing.T) {
		const reps = 100
		flagged := 0
		for r := range reps {
			rng := rand.New(rand.NewPCG(uint64(r), 99))
			base := synthetic(rng, 30, 5, p)
			new := synthetic(rng, 30, 5, p)
			if compareRuns(base, new, uint64(r)).Regression() {
				flagged++
			}
		}
		if flagged > 8 { // 5% expected; allow for the bootstrap's small-sample slack
			t.Errorf("noise flagged as a regression in %d of %d repetitions", flagged, reps)
		}
		t.Logf("noise flagged in %d of %d repetitions", flagged, reps)
	})
}

// TestCompareTrialsFigures: the noise figures WriteText and Regression
// share follow the results added and the settings after they were
// first computed.
func TestCompareTrialsFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := func(int) float64 { return 0.9 }
	base, new := synthetic(rng, 10, 4, p), synthetic(rng, 10, 4, p)
	c := compareRuns(base, new, 1)
	if c.Regression() {
		t.Fatal("no change flagged as a regression")
	}
	before := c.Noise().Metrics[0]
	c.Seed = 2
	if d := c.Noise().Metrics[0]; d.DeltaLo == before.DeltaLo && d.DeltaHi == before.DeltaHi {
		t.Errorf("another seed, the same interval [%v, %v]", d.DeltaLo, d.DeltaHi)
	}
	// Every case now fails every new trial once more, many times over.
	for i := range 10 {
		for range 20 {
			r := toolgrade.Result{ID: "case-" + strconv.Itoa(i),
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Threshold: toolgrade.Float(0.5)}}}
			c.AddNew(&r)
		}
	}
	if !c.Regression() {
		t.Errorf("results added after the figures were computed are not counted: %+v", c.Noise().Metrics)
	}
}
