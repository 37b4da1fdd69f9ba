package reliability_test

import (
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
)

// A case run five times passed three: the chance that one of k tries
// passes, and that all k do.
func ExamplePassAtKs() {
	fmt.Printf("pass@k %.2f\n", reliability.PassAtKs(5, 3))
	fmt.Printf("pass^k %.2f\n", reliability.PassHatKs(5, 3))
	// Output:
	// pass@k [0.60 0.90 1.00 1.00 1.00]
	// pass^k [0.60 0.30 0.10 0.00 0.00]
}

// Group trials by case id and read the figures of the suite and of a case.
func ExampleTrials() {
	var trials reliability.Trials
	for _, pass := range []bool{true, true, false, true} {
		score := 0.0
		if pass {
			score = 1
		}
		trials.Add(&toolgrade.Result{ID: "weather", Success: pass, Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Score: score, Success: pass, Threshold: toolgrade.Float(0.5)}}})
		trials.Add(&toolgrade.Result{ID: "email", Success: true, Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Score: 1, Success: true, Threshold: toolgrade.Float(0.5)}}})
	}
	// A case passes only if two tries drawn from its trials both pass
	// at least 60% of the time.
	gates := map[string]reliability.PassK{"tool_correctness": {K: 2, Min: 0.6}}
	suite := trials.Suite(0.95, gates)
	m := suite.Metrics[0]
	fmt.Printf("%d cases, %d passed the gate; pass rate %.3f [%.3f, %.3f]\n", suite.Cases, suite.Passed, m.PassRate, m.PassLo, m.PassHi)
	weather, _ := trials.Case("weather", 0.95, gates)
	fmt.Printf("%s: %d/%d passed, flip rate %.2f, pass^2 %.2f\n", weather.ID, weather.Passed, weather.Trials, weather.FlipRate, weather.Metrics[0].PassHatK[1])
	// Output:
	// 2 cases, 1 passed the gate; pass rate 0.875 [0.264, 0.993]
	// weather: 3/4 passed, flip rate 0.50, pass^2 0.50
}

// Compare two runs of five trials per case: the new run fails one case
// every time.
func ExampleComparison() {
	result := func(id string, pass bool) *toolgrade.Result {
		score := 0.0
		if pass {
			score = 1
		}
		return &toolgrade.Result{ID: id, Success: pass, Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Score: score, Success: pass, Threshold: toolgrade.Float(0.5)}}}
	}
	c := &reliability.Comparison{Seed: 1}
	for _, id := range []string{"a", "b", "c", "d"} {
		for range 5 {
			c.AddBase(result(id, true))
		}
	}
	for _, id := range []string{"a", "b", "c", "d"} {
		for range 5 {
			c.AddNew(result(id, id != "d"))
		}
	}
	noise := c.Noise()
	d := noise.Metrics[0]
	fmt.Printf("pass rate %+.2f [%+.2f, %+.2f]\n", d.PassDelta, d.PassLo, d.PassHi)
	for _, cd := range noise.Cases {
		fmt.Printf("%s: %d/%d → %d/%d, p=%.4f, regressed %v\n", cd.Case, cd.BasePassed, cd.BaseTrials, cd.NewPassed, cd.NewTrials, cd.P, cd.Regressed)
	}
	fmt.Println("regression:", c.Regression())
	// Output:
	// pass rate -0.25 [-0.75, +0.00]
	// d: 5/5 → 0/5, p=0.0040, regressed true
	// regression: true
}
