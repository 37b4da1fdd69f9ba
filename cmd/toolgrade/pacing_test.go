package main

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func TestPaceGC(t *testing.T) {
	percent0, limit0 := gcSettings()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}

	t.Run("paced", func(t *testing.T) {
		restore := paceGC(env(nil))
		if p, l := gcSettings(); p != gcTargetHeap/(4<<20)*100 || l != gcMemoryLimit {
			t.Errorf("GOGC %d, limit %d; want %d and %d before the first collection", p, l, gcTargetHeap/(4<<20)*100, gcMemoryLimit)
		}
		// After a collection GOGC follows the live heap (gcPace, tested
		// below; other tests of the package running at the same time make
		// it vary); the limit stays at least gcMemoryLimit.
		first, _ := gcSettings()
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
			if p, _ := gcSettings(); p != first || time.Now().After(deadline) {
				break
			}
		}
		if p, l := gcSettings(); p == first || p < 1 || l < gcMemoryLimit {
			t.Errorf("after collections GOGC %d, limit %d; want GOGC re-tuned (not %d, positive) and limit at least %d", p, l, first, gcMemoryLimit)
		}
		restore()
		if p, l := gcSettings(); p != percent0 || l != limit0 {
			t.Errorf("after restore GOGC %d, limit %d; want %d and %d", p, l, percent0, limit0)
		}
		runtime.GC() // a pending re-tune must not undo the restore
		time.Sleep(10 * time.Millisecond)
		if p, _ := gcSettings(); p != percent0 {
			t.Errorf("a collection after restore set GOGC to %d, want %d", p, percent0)
		}
	})

	t.Run("GOGC set", func(t *testing.T) {
		restore := paceGC(env(map[string]string{"GOGC": "100"}))
		if p, l := gcSettings(); p != percent0 || l != limit0 {
			t.Errorf("GOGC %d, limit %d; want them left at %d and %d", p, l, percent0, limit0)
		}
		restore()
	})

	t.Run("GOMEMLIMIT set", func(t *testing.T) {
		restore := paceGC(env(map[string]string{"GOMEMLIMIT": "1GiB"}))
		if _, l := gcSettings(); l != limit0 {
			t.Errorf("limit %d; want it left at %d", l, limit0)
		}
		restore()
	})
}

func TestGCPace(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name        string
		live, scan  uint64
		wantPercent int
		wantLimit   uint64
	}{
		{"little alive: collect at 48 MB", 4 * mb, 4 * mb, 1100, 56 * mb},
		{"16 MB alive", 16 * mb, 16 * mb, 200, 56 * mb},
		{"more alive without pointers: still 48 MB", 24 * mb, 4 * mb, 100, 53 * mb},
		{"much alive without pointers: grow by 12 MB", 64 * mb, 4 * mb, 18, 81 * mb},
		{"much alive to scan: double", 64 * mb, 32 * mb, 100, 133 * mb},
		{"a scannable quarter: double", 64 * mb, 16 * mb, 100, 133 * mb},
		{"a scannable quarter of a middling heap: double, the limit capped", 37 * mb, 10 * mb, 100, 80 * mb},
		{"a scannable quarter of a small heap: room for idle pages", 20 * mb, 5 * mb, 100, 72 * mb},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, l := gcPace(tc.live, tc.scan)
			if p != tc.wantPercent || l != tc.wantLimit {
				t.Errorf("gcPace(%d MB, %d MB) = %d%%, %d MB; want %d%%, %d MB", tc.live/mb, tc.scan/mb, p, l/mb, tc.wantPercent, tc.wantLimit/mb)
			}
		})
	}
}
