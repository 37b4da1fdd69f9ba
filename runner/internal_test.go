package runner

import (
	"github.com/toolgrade/toolgrade/trace"
	"regexp"
	"testing"

	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

var openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestAPINames checks that every tool gets a name OpenAI accepts, that
// the names lead back to the tools' own, and that different tools never
// share one.
func TestAPINames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		own := rapid.SliceOfN(rapid.OneOf(
			rapid.StringMatching(`[a-z_.]{0,6}`),
			rapid.StringMatching(`[a-z]{60,70}`),
			rapid.String(),
		), 0, 12).Draw(t, "names")
		tools := make([]toolgrade.Tool, len(own))
		for i, n := range own {
			tools[i].Name = n
		}
		sent, back := apiNames(tools)
		for i, s := range sent {
			if !openAIName.MatchString(s) {
				t.Fatalf("%q sent as %q, which OpenAI rejects", own[i], s)
			}
			if back[s] != own[i] {
				t.Fatalf("%q sent as %q, which leads back to %q", own[i], s, back[s])
			}
			for j := range i {
				if sent[j] == s && own[j] != own[i] {
					t.Fatalf("%q and %q both sent as %q", own[j], own[i], s)
				}
			}
		}
	})
}

func TestAPINamesExamples(t *testing.T) {
	sent, _ := apiNames([]toolgrade.Tool{{Name: "math.factorial"}, {Name: "get_weather"}, {Name: "math_factorial"}, {Name: "ns/tool name"}})
	want := []string{"math_factorial", "get_weather", "math_factorial_2", "ns_tool_name"}
	for i := range want {
		if sent[i] != want[i] {
			t.Errorf("sent %q, want %q", sent, want)
			break
		}
	}
}

// FuzzReadReply checks that no response body panics the reader, that an
// error leaves no calls, and that calls read from a body are named.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}}],"usage":{"prompt_tokens":3}}`,
		`{"choices":[{"message":{"role":"assistant","content":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>"}}]}`,
		`{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"[f(a=1)]"}],"refusal":"no"}}]}`,
		`{"choices":[{"message":{"tool_calls":{"bad":1},"function_call":{"name":"g"}}}]}`,
		`{"choices":[]}`, `{"choices":"x"}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "hermes")
		f.Add([]byte(s), "pythonic")
	}
	f.Fuzz(func(t *testing.T, body []byte, protocol string) {
		switch protocol {
		case "", "hermes", "json", "pythonic":
		default:
			protocol = ""
		}
		r, err := readReply(body, trace.Protocol(protocol))
		if err != nil {
			if err.Error() == "" {
				t.Error("empty error")
			}
			return
		}
		if r.parsed && protocol == "" {
			t.Error("calls parsed from text without a protocol")
		}
		for _, c := range r.calls {
			if c.Invalid && c.Args != nil {
				t.Errorf("invalid call with arguments: %+v", c)
			}
		}
	})
}
