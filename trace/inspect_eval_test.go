package trace_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// evalArchive builds an Inspect AI .eval log: a zip of the named members,
// in order.
func evalArchive(t testing.TB, members ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.Create(m[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const evalHeader = `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}`

// TestInspectEvalLog reads .eval logs, Inspect's default log format: the
// samples in archive order, a record each, as the same log in the JSON
// format.
func TestInspectEvalLog(t *testing.T) {
	sample := func(id, call, result string) string {
		return `{"id": ` + id + `, "epoch": 1, "messages": [{"role": "user", "content": "go", "source": "input"},
			{"role": "assistant", "content": "", "tool_calls": [{"id": "` + call + `", "function": "bash", "arguments": {"cmd": "ls"}, "type": "function"}]},
			{"role": "tool", "content": "` + result + `", "tool_call_id": "` + call + `", "function": "bash"}]}`
	}
	tests := []struct {
		name    string
		members [][2]string
		want    string // the records, or the error's text
		empty   bool   // the error is ErrEmpty
	}{
		{"finished log", [][2]string{{"_journal/start.json", evalHeader}, {"samples/1_epoch_1.json", sample("1", "c1", "a")},
			{"samples/2_epoch_1.json", sample("2", "c2", "b")}, {"summaries.json", "[]"}, {"header.json", evalHeader}},
			`[{"id":"1","calls":[{"name":"bash","args":{"cmd":"ls"},"id":"c1","output":"a"}]},{"id":"2","calls":[{"name":"bash","args":{"cmd":"ls"},"id":"c2","output":"b"}]}]`, false},
		{"unfinished log (journal only)", [][2]string{{"_journal/start.json", evalHeader}, {"samples/1_epoch_1.json", sample("1", "c1", "a")}},
			`[{"id":"1","calls":[{"name":"bash","args":{"cmd":"ls"},"id":"c1","output":"a"}]}]`, false},
		{"no samples", [][2]string{{"header.json", evalHeader}}, "an Inspect AI .eval log without samples", true},
		{"another zip", [][2]string{{"word/document.xml", "<w/>"}}, "a zip archive that is not an Inspect AI .eval log", false},
		{"bad sample", [][2]string{{"header.json", evalHeader}, {"samples/1_epoch_1.json", `{"id": 1,`}}, "samples/1_epoch_1.json:", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := evalArchive(t, tt.members...)
			for _, force := range []string{"", "inspect_ai"} {
				tr, err := trace.Read(data, force)
				if strings.HasPrefix(tt.want, "[") {
					if err != nil {
						t.Fatalf("Read(%q): %v", force, err)
					}
					want, err := jsonvalue.Parse([]byte(`{"format": "inspect_ai", "records": ` + tt.want + `}`))
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, asValue(t, tr), semantic); diff != "" {
						t.Errorf("Read(%q) mismatch (-want +got):\n%s", force, diff)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, trace.ErrEmpty) != tt.empty {
					t.Errorf("Read(%q) error = %v, want one containing %q (empty: %v)", force, err, tt.want, tt.empty)
				}
			}
			if _, err := trace.Read(data, "claude_code"); err == nil {
				t.Error("--format claude_code read an .eval log")
			}
		})
	}
}

// TestInspectEvalLogOfRealMessages puts the real Inspect sample's messages
// into an .eval log: the calls are the sample's expected ones.
func TestInspectEvalLogOfRealMessages(t *testing.T) {
	dir := sharedFixtures("realworld", "inspect_ai")
	msgs, err := os.ReadFile(filepath.Join(dir, "browser_sample_messages.json"))
	if err != nil {
		t.Skip("the shared fixtures are not present")
	}
	expected, err := os.ReadFile(filepath.Join(dir, "browser_sample_messages.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	data := evalArchive(t, [2]string{"header.json", evalHeader},
		[2]string{"samples/1_epoch_1.json", `{"id": 1, "epoch": 1, "messages": ` + string(msgs) + `}`})
	tr, err := trace.Read(data, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := jsonvalue.Parse(expected)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 1 || tr.Records[0].ID != "1" {
		t.Fatalf("records %+v, want the sample's", tr.Records)
	}
	tr.Records = nil // the sample's calls, as the messages give them
	if diff := cmp.Diff(want, asValue(t, tr), semantic); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// A zip bomb as an .eval log is refused as its member passes the ratio
// budget, not decompressed whole; a member that compresses as well but is
// small is read.
func TestInspectEvalBomb(t *testing.T) {
	sample := func(spaces int) string {
		return `{"id": 1, "epoch": 1, "messages": [{"role": "user", "content": "go"}` + strings.Repeat(" ", spaces) + `]}`
	}
	bomb := evalArchive(t, [2]string{"header.json", evalHeader}, [2]string{"samples/1_epoch_1.json", sample(8 << 20)})
	_, err := trace.Read(bomb, "")
	if err == nil || !strings.Contains(err.Error(), "samples/1_epoch_1.json: decompresses to more than 100 times its") {
		t.Errorf("Read of a bomb: %v, want the ratio's error", err)
	}
	small := evalArchive(t, [2]string{"header.json", evalHeader}, [2]string{"samples/1_epoch_1.json", sample(512 << 10)})
	if _, err := trace.Read(small, ""); err != nil && !errors.Is(err, trace.ErrEmpty) {
		t.Errorf("Read of a small member that compresses well: %v", err)
	}
}
