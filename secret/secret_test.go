package secret_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/secret"
	"pgregory.net/rapid"
)

const key = "sk-test-4f9Qz7Lm2Xc8Vb1N"

func TestString(t *testing.T) {
	t.Parallel()
	odd := `p@ss"w<o>rd&more+stuff/x y_z`
	var s secret.Set
	s.Add(key, "  "+odd+"\n", "tok1", "ab", "")
	jsonOdd, _ := json.Marshal(odd)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"whole", "key " + key + " end", "key [redacted] end"},
		{"quoted prefix", `first 8: "` + key[:8] + `"`, `first 8: "[redacted]"`},
		{"prefix of 7 kept", `"` + key[:7] + `"`, `"` + key[:7] + `"`},
		{"suffix", "...ends in " + key[len(key)-10:], "...ends in [redacted]"},
		{"middle", "x" + key[5:15] + "x", "x[redacted]x"},
		{"masked", key[:9] + "****" + key[len(key)-9:], "[redacted]****[redacted]"},
		{"twice", key + key, "[redacted][redacted]"},
		{"json escaped", `{"echo":` + string(jsonOdd) + `}`, `{"echo":"[redacted]/[redacted] [redacted]"}`}, // markup kept
		{"json twice", mustJSON(mustJSON(odd)), `"\"[redacted]/[redacted] [redacted]\""`},
		{"html", "<td>" + html.EscapeString(odd) + "</td>", "<td>[redacted]/[redacted] [redacted]</td>"},
		{"html/template", template.HTMLEscapeString(odd), "[redacted]/[redacted] [redacted]"},
		{"url query", "?q=" + url.QueryEscape(odd), "?q=[redacted]"},
		{"url path", "/" + url.PathEscape(odd), "/[redacted]"},
		{"markdown", `| p@ss"w&lt;o&gt;rd&amp;more+stuff/x y\_z |`, `| [redacted]"[redacted]/[redacted] [redacted] |`},
		{"short whole", "token tok1 here", "token [redacted] here"},
		{"too short to keep", "ab cd", "ab cd"},
		{"nothing", "plain text", "plain text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.String(tc.in); got != tc.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if got := string(s.Bytes([]byte(tc.in))); got != tc.want {
				t.Errorf("Bytes(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestNilAndEmpty(t *testing.T) {
	t.Parallel()
	var nilSet *secret.Set
	nilSet.Add(key)
	if !nilSet.Empty() || nilSet.String(key) != key || nilSet.Error(nil) != nil {
		t.Error("a nil set scrubs")
	}
	var buf bytes.Buffer
	w := nilSet.Writer(&buf)
	fmt.Fprint(w, key)
	if buf.String() != key {
		t.Errorf("nil set's writer: %q", buf.String())
	}
}

// A long secret is kept in pieces, and still redacted whole.
func TestLongSecret(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789abcdef", 300) + "!tail-end"
	var s secret.Set
	s.Add(long)
	if got := s.String("<" + long + ">"); got != "<[redacted]>" {
		t.Errorf("%.80q...", got)
	}
	if got := s.String(long[1000:1040]); got != secret.Redacted {
		t.Errorf("a run across pieces: %q", got)
	}
}

// A value of several lines is a secret per line, so that a writer never
// holds back a line's end.
func TestLines(t *testing.T) {
	t.Parallel()
	var s secret.Set
	s.Add("-----BEGIN KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB\n-----END KEY-----\n")
	if got := s.String("line MIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB end"); got != "line [redacted]\n[redacted] end" {
		t.Errorf("%q", got)
	}
	var buf bytes.Buffer
	w := s.Writer(&buf)
	fmt.Fprint(w, "a result line\n")
	if buf.String() != "a result line\n" {
		t.Errorf("held %q", buf.String())
	}
}

func TestGetenv(t *testing.T) {
	t.Parallel()
	var s secret.Set
	get := s.Getenv(func(k string) string { return map[string]string{"K": key}[k] })
	if get("K") != key || get("UNSET") != "" {
		t.Fatal("Getenv changes values")
	}
	if s.String(key) != secret.Redacted {
		t.Error("a value read is not a secret")
	}
}

func TestError(t *testing.T) {
	t.Parallel()
	var s secret.Set
	s.Add(key)
	base := errors.New("401: Incorrect API key provided: " + key)
	err := s.Error(base)
	if strings.Contains(err.Error(), key[:8]) || !errors.Is(err, base) {
		t.Errorf("Error: %v (unwraps: %v)", err, errors.Is(err, base))
	}
	plain := errors.New("plain")
	if s.Error(plain) != plain {
		t.Error("an error with nothing to redact is replaced")
	}
}

// TestWriter splits a text with secrets at every point: the writer's
// output is always that of scrubbing the whole.
func TestWriter(t *testing.T) {
	t.Parallel()
	var s secret.Set
	s.Add(key, "tok1")
	text := "a " + key + " b " + key[:8] + " c tok1 d " + key[3:] + key[:9] + "\n"
	want := s.String(text)
	for i := range len(text) {
		for j := i; j <= len(text); j += 3 {
			var buf bytes.Buffer
			w := s.Writer(&buf)
			for _, part := range []string{text[:i], text[i:j], text[j:]} {
				if _, err := w.Write([]byte(part)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != want {
				t.Fatalf("split at %d, %d:\n got %q\nwant %q", i, j, buf.String(), want)
			}
		}
	}
}

// TestWriterHoldsLittle: a line that cannot begin a secret is written at
// once, not held for the next write.
func TestWriterHoldsLittle(t *testing.T) {
	t.Parallel()
	var s secret.Set
	s.Add(key)
	var buf bytes.Buffer
	w := s.Writer(&buf)
	fmt.Fprint(w, "a result line\n")
	if buf.String() != "a result line\n" {
		t.Errorf("held: %q", buf.String())
	}
	fmt.Fprint(w, "then sk-t")
	if buf.String() != "a result line\nthen " {
		t.Errorf("want the start of the key held: %q", buf.String())
	}
	fmt.Fprint(w, "est-4f9Q!")
	if got := buf.String(); got != "a result line\nthen [redacted]!" {
		t.Errorf("%q", got)
	}
}

// echoText draws a secret of the alphabet's characters, and a text of
// noise and echoes of parts of the secret.
func echoText(t *rapid.T, chars string) (secretText, text string) {
	alphabet := rapid.SampledFrom([]rune(chars))
	secretText = string(rapid.SliceOfN(alphabet, secret.MinEcho, 24).Draw(t, "secret"))
	var b strings.Builder
	for range rapid.IntRange(0, 6).Draw(t, "pieces") {
		if rapid.Bool().Draw(t, "echo") {
			from := rapid.IntRange(0, len(secretText)-1).Draw(t, "from")
			to := rapid.IntRange(from+1, len(secretText)).Draw(t, "to")
			b.WriteString(secretText[from:to])
		} else {
			b.WriteString(string(rapid.SliceOfN(alphabet, 0, 10).Draw(t, "noise")))
		}
	}
	return secretText, b.String()
}

// TestWriterProperty: any text, any secret, any splitting: the writer
// writes what scrubbing the whole text gives, and no run of MinEcho bytes
// of the secret is left but the markup it holds.
func TestWriterProperty(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		secretText, in := echoText(t, `ab"<&\_ +/sk-%#;u0`)
		var s secret.Set
		s.Add(secretText)
		want := s.String(in)
		var buf bytes.Buffer
		w := s.Writer(&buf)
		rest := in
		for len(rest) > 0 {
			n := rapid.IntRange(1, len(rest)).Draw(t, "chunk")
			w.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		w.Flush()
		if buf.String() != want {
			t.Fatalf("streamed %q\nwhole    %q", buf.String(), want)
		}
		clean := strings.TrimSpace(secretText)
		for i := 0; i+secret.MinEcho <= len(clean); i++ {
			if run := clean[i : i+secret.MinEcho]; strings.Trim(run, `"<>/ `) != "" && strings.Contains(want, run) {
				t.Fatalf("%q left in %q", run, want)
			}
		}
	})
}

// TestOutputStaysValid: scrubbing JSON (once or twice encoded, by
// toolgrade's encoder or the standard one) and XML that hold echoes of a
// secret made of escapable characters leaves them valid: no span begins
// or ends inside an escape, and markup is kept.
func TestOutputStaysValid(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		secretText, value := echoText(t, `ab"<>&\\_+/%#;u0\n`)
		var s secret.Set
		s.Add(secretText)
		encoded := string(jsonvalue.AppendString(nil, value))
		if rapid.Bool().Draw(t, "std") {
			encoded = mustJSON(value)
		}
		if rapid.Bool().Draw(t, "twice") {
			encoded = string(jsonvalue.AppendString(nil, encoded))
		}
		doc := `{"reason":` + encoded + `}`
		if out := s.String(doc); !json.Valid([]byte(out)) {
			t.Fatalf("scrubbed JSON is invalid:\n in %s\nout %s", doc, out)
		}
		var x strings.Builder
		xml.EscapeText(&x, []byte(value))
		xdoc := "<x>" + x.String() + "</x>"
		if out := s.String(xdoc); xml.Unmarshal([]byte(out), new(struct{})) != nil {
			t.Fatalf("scrubbed XML is invalid:\n in %s\nout %s", xdoc, out)
		}
	})
}

func BenchmarkWriter(b *testing.B) {
	var s secret.Set
	s.Add(key)
	line := []byte(strings.Repeat(`{"id":"c1","success":true,"metrics":[{"name":"tool_correctness","score":1,"reason":"all 3 expected calls made"}]}`, 4) + "\n")
	w := s.Writer(discard{})
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		w.Write(line)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func ExampleSet() {
	var secrets secret.Set
	getenv := secrets.Getenv(func(string) string { return "sk-live-0123456789abcdef" })
	_ = getenv("OPENAI_API_KEY") // read as a credential: now a secret
	fmt.Println(secrets.String(`401: Incorrect API key provided: "sk-live-0123"`))
	// Output: 401: Incorrect API key provided: "[redacted]"
}

// FuzzScrub: any secret, any text, split anywhere: no panic, the writer
// writes what scrubbing the whole gives, and what is left of the secret
// is its markup.
func FuzzScrub(f *testing.F) {
	f.Add(key, "you sent "+key+" and \""+key[:8]+"\"", 5)
	f.Add(`a"b\c<d>&e%f`, `{"r":"a\"b\\c\u003cd\u003e\u0026e%f"}`, 3)
	f.Add("tok1", "tok1tok1", 2)
	f.Fuzz(func(t *testing.T, secretText, text string, split int) {
		if len(text) > 16<<10 {
			return // past what a Writer holds back, streaming may differ
		}
		var s secret.Set
		s.Add(secretText)
		want := s.String(text)
		var buf bytes.Buffer
		w := s.Writer(&buf)
		at := min(max(split, 0), len(text))
		w.Write([]byte(text[:at]))
		w.Write([]byte(text[at:]))
		w.Flush()
		if buf.String() != want {
			t.Fatalf("streamed %q\nwhole    %q", buf.String(), want)
		}
		for line := range strings.Lines(secretText) {
			clean := strings.TrimSpace(line)
			for i := 0; i+secret.MinEcho <= len(clean); i++ {
				run := clean[i : i+secret.MinEcho]
				if strings.Trim(run, "\"'<>{}[],:|/= \t") != "" && strings.Contains(want, run) {
					t.Fatalf("%q left in %q", run, want)
				}
			}
		}
	})
}
