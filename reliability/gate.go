package reliability

// DefaultConfidence is the confidence level of the intervals when none
// is given.
const DefaultConfidence = 0.95

// scoreEpsilon absorbs floating-point noise in score differences and in
// a gate's comparison.
const scoreEpsilon = 1e-9

// A PassK is a reliability gate (a metric entry's pass_k: {k: 3, min:
// 0.8}): a case passes the metric only when pass^K over its trials (the
// chance that K trials drawn from them all pass) is at least Min. A case
// with fewer than K trials fails the gate.
type PassK struct {
	K   int
	Min float64
}

// Passes reports whether a case with this many trials, of which passed
// passed, passes the gate.
func (g PassK) Passes(trials, passed int) bool {
	return trials >= g.K && PassHatK(trials, passed, g.K) >= g.Min-scoreEpsilon
}

// Label names a metric: its name, with the profile when that is not the
// default one. Figures, gates and comparisons know a metric by its label.
func Label(name, profile string) string {
	if profile == "" || profile == "default" {
		return name
	}
	return name + " (" + profile + ")"
}
