package trace_test

import (
	"errors"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// The errors a caller may branch on are sentinels, found with errors.Is
// through the message that says more.
func TestErrorsAreInspectable(t *testing.T) {
	for _, tt := range []struct {
		name   string
		data   string
		format string
		want   error
	}{
		{"unknown shape", `{"foo": 1}`, "", trace.ErrUnknownFormat},
		{"unknown text", "hello there", "", trace.ErrUnknownFormat},
		{"no such format", `[]`, "no_such_format", trace.ErrNoSuchFormat},
		{"forced format, foreign input", `{"candidates": [{"content": {"parts": [{"text": "hi"}]}}]}`, "openai_chat", trace.ErrNotThisFormat},
		{"empty", "  ", "", trace.ErrEmpty},
		{"empty list", " [ ] ", "", trace.ErrEmpty},
		{"empty list, forced", "[]", "anthropic_messages", trace.ErrEmpty},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trace.Read([]byte(tt.data), tt.format)
			if !errors.Is(err, tt.want) {
				t.Errorf("Read(%q, %q) error %v, want errors.Is %v", tt.data, tt.format, err, tt.want)
			}
		})
	}
}
