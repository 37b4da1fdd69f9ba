package trace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/trace"
)

// A sample is one trace file of a known format: a shared fixture
// (../shared/fixtures/traces, ../shared/fixtures/realworld) or one of the
// project's samples (testdata/<format>).
type sample struct {
	format, path string
	data         []byte
}

// allSamples reads every sample, each folder named after its format.
func allSamples(t *testing.T) []sample {
	t.Helper()
	roots := []string{shared.Path(t, "fixtures", "traces"), shared.Path(t, "fixtures", "realworld"), "testdata"}
	var samples []sample
	for _, root := range roots {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, f := range files {
			format := filepath.Base(filepath.Dir(f))
			if strings.HasSuffix(f, ".expected.json") || strings.HasSuffix(f, ".md") || format == "fuzz" {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, sample{format, f, data})
		}
	}
	if len(samples) == 0 {
		t.Fatal("no samples")
	}
	return samples
}

// TestAuditFindsNothingMissed: on every sample, read as detected and as
// its own format, every call-shaped object is accounted for.
func TestAuditFindsNothingMissed(t *testing.T) {
	for _, s := range allSamples(t) {
		for _, forced := range []string{"", s.format} {
			tr, err := trace.Read(s.data, forced)
			if errors.Is(err, trace.ErrMissed) || len(tr.Missed) > 0 {
				t.Errorf("%s (format %q): %v", s.path, forced, err)
			}
		}
	}
}

// TestForcedFormats: a format forced on another format's sample fails,
// reports what it skipped, or reads calls of its own, every call-shaped
// object accounted for; it never returns an empty list silently.
func TestForcedFormats(t *testing.T) {
	samples := allSamples(t)
	for _, forced := range trace.Formats() {
		t.Run(forced, func(t *testing.T) {
			for _, s := range samples {
				if s.format == forced {
					continue
				}
				tr, err := trace.Read(s.data, forced)
				if err == nil && len(tr.Calls) == 0 && len(tr.Skipped) == 0 {
					t.Errorf("on %s: no calls, nothing skipped, no error", s.path)
				}
			}
		})
	}
}
