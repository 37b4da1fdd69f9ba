package report

import (
	"slices"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
)

// RunInfo says when and how a run was made, for the reports to show
// beside its figures: the HTML page and the Markdown summary in a section
// of their own, JUnit as properties. A field left zero is not shown.
type RunInfo struct {
	Started time.Time // when the run began
	Version string    // toolgrade's version
	// Command is the command line, program name first. Reports quote
	// each argument as a shell would need it; the caller leaves out
	// what must not be shown (secrets).
	Command []string
	Config  string // the config file, if any
	// Metrics are the metrics as configured, in the order they run.
	Metrics []RunMetric
}

// A RunMetric is one metric as the run configured it.
type RunMetric struct {
	Label    string // as [Label] names it
	Settings string // its options as given, such as compact JSON
}

// runField is one line of a run's description: "date", "2025-01-02 ...".
type runField struct{ name, value string }

// fields describes the run in lines, in the order reports show them;
// the metrics' settings are apart.
func (ri *RunInfo) fields() []runField {
	var out []runField
	if !ri.Started.IsZero() {
		out = append(out, runField{"date", ri.Started.Format("2006-01-02 15:04:05 -07:00")})
	}
	if ri.Version != "" {
		out = append(out, runField{"toolgrade", ri.Version})
	}
	if len(ri.Command) > 0 {
		out = append(out, runField{"command", commandLine(ri.Command)})
	}
	if ri.Config != "" {
		out = append(out, runField{"config", ri.Config})
	}
	return out
}

// commandLine writes args as one line a POSIX shell reads back as
// args: an argument holding anything but letters, digits and -_./:=@%+,
// is single-quoted.
func commandLine(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.IndexFunc(a, func(r rune) bool { return !shellSafe(r) }) < 0 {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

func shellSafe(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)
}

// A threshold is one metric's threshold as its results gave it.
type threshold struct {
	name, profile string // copies
	// seenName and seenProfile are the name and profile as a result last
	// gave them, not copied: a run's results share their metric's
	// strings, which compare equal by their pointers, without reading
	// them.
	seenName, seenProfile string
	value                 *float64 // nil: no threshold (no verdict)
	varies                bool     // results gave different thresholds
}

// addThresholds notes the thresholds of r's metrics.
func (s *Stats) addThresholds(r *toolgrade.Result) {
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Error != "" {
			continue // an erred metric has no say
		}
		k := s.thresholdIndex(m)
		if k < 0 {
			t := threshold{name: strings.Clone(m.Name), profile: strings.Clone(m.Profile), seenName: m.Name, seenProfile: m.Profile}
			if m.Threshold != nil {
				t.value = toolgrade.Float(*m.Threshold)
			}
			s.thresholds = append(s.thresholds, t)
			continue
		}
		t := &s.thresholds[k]
		t.seenName, t.seenProfile = m.Name, m.Profile
		if (t.value == nil) != (m.Threshold == nil) || t.value != nil && *t.value != *m.Threshold {
			t.varies = true
		}
	}
}

// thresholdIndex is the index of m's metric in s.thresholds, -1 for
// none. (A closure given each threshold, as slices.IndexFunc wants, was
// given a copy of it.)
func (s *Stats) thresholdIndex(m *toolgrade.MetricResult) int {
	for i := range s.thresholds {
		if t := &s.thresholds[i]; t.seenName == m.Name && t.seenProfile == m.Profile {
			return i
		}
	}
	return -1
}

// thresholdText is a metric's threshold as the reports show it: "0.500",
// "-" without one, "varies" when its results gave several.
func (s *Stats) thresholdText(name, profile string) string {
	k := slices.IndexFunc(s.thresholds, func(t threshold) bool { return t.name == name && t.profile == profile })
	switch {
	case k < 0:
		return "-"
	case s.thresholds[k].varies:
		return "varies"
	case s.thresholds[k].value == nil:
		return "-"
	}
	return score(*s.thresholds[k].value)
}
