package dataset

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestMayBeADK: mayBeADK is strings.Contains(data, `"eval`), on text made
// of the needle's bytes and others, and on every line of the examples and
// samples.
func TestMayBeADK(t *testing.T) {
	for _, data := range []string{"", `"eval`, `x"eval`, `"evalx`, `"eva`, `eval"`, `""eval`, `"ev"eval`, `"evv"eval`, `v"eval`, `vv`, `"ev`, `{"evalCases":[]}`} {
		if got, want := mayBeADK(data), strings.Contains(data, `"eval`); got != want {
			t.Errorf("mayBeADK(%q) = %v, want %v", data, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom([]string{`"eval`, `"ev`, `"`, "e", "v", "a", "l", "x", "vv", "\x00"}), 0, 20).Draw(t, "pieces")
		data := strings.Join(pieces, "")
		if got, want := mayBeADK(data), strings.Contains(data, `"eval`); got != want {
			t.Fatalf("mayBeADK(%q) = %v, want %v", data, got, want)
		}
	})
	files, _ := filepath.Glob("../examples/*/*.json*")
	more, _ := filepath.Glob("../testdata/shared/conformance/*.jsonl")
	for _, name := range append(files, more...) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if line := sc.Text(); mayBeADK(line) != strings.Contains(line, `"eval`) {
				t.Errorf("%s: mayBeADK(%.80q...) = %v", name, line, !strings.Contains(line, `"eval`))
			}
		}
		f.Close()
	}
}

// BenchmarkMayBeADK asks of a small generated case's line what the
// reader asks of every record.
func BenchmarkMayBeADK(b *testing.B) {
	line := `{"id":"case-0","input":"Case 0: please invoice budget table invoice budget","tools_called":[{"name":"book_flight","args":{"from":"weather weather report","to":"north","passengers":4,"nonstop":false,"max_price":null}},{"name":"send_email","args":{"to":["fatima@example.com","goran@example.com"],"subject":"budget quarterly","body":"north london london weather notes table london draft paris"}},{"name":"lookup_user","args":{"user_id":676893,"fields":["name","email","plan"]}}],"expected_tools":[{"name":"book_flight","args":{"from":"team","to":"north","passengers":4,"nonstop":false,"max_price":null}},{"name":"send_email","args":{"to":["fatima@example.com","goran@example.com"],"subject":"budget quarterly","body":"north london london weather notes table london draft paris"}}]}`
	b.Run("Contains", func(b *testing.B) {
		for b.Loop() {
			if strings.Contains(line, `"eval`) {
				b.Fatal("found")
			}
		}
	})
	b.Run("mayBeADK", func(b *testing.B) {
		for b.Loop() {
			if mayBeADK(line) {
				b.Fatal("found")
			}
		}
	})
}
