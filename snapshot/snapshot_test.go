package snapshot_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/snapshot"
)

// val parses JSON text in tests.
func val(t testing.TB, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// call builds a call that succeeded with the given output ("" for none).
func call(t testing.TB, name, args, output string) toolgrade.Call {
	c := toolgrade.Call{Name: name, Args: val(t, args), Output: val(t, output)}
	if output != "" {
		c.Status = toolgrade.StatusOK
	}
	return c
}

func failed(c toolgrade.Call) toolgrade.Call {
	c.Status = toolgrade.StatusError
	return c
}

// rulesOf returns each expected call's rules as JSON text ("" for none).
func rulesOf(t *testing.T, s *snapshot.Snapshot) []string {
	t.Helper()
	exp, _ := s.Case.Get("expected_tools")
	var out []string
	for _, c := range exp.([]any) {
		r, ok := c.(jsonvalue.Object).Get("rules")
		if !ok {
			out = append(out, "")
			continue
		}
		out = append(out, string(jsonvalue.Append(nil, r)))
	}
	return out
}

func notesOf(s *snapshot.Snapshot) string {
	var b strings.Builder
	for _, n := range s.Notes {
		b.WriteString(n.String() + "\n")
	}
	return b.String()
}

func TestTake(t *testing.T) {
	const order = `{"order": {"id": "W8127731", "total": 1299.5}}`
	for _, tt := range []struct {
		name  string
		input string
		calls []toolgrade.Call
		rules []string // per expected call
		notes []string // each in the notes
	}{
		{"an id an earlier call returned is a from rule", `Cancel my latest order`,
			[]toolgrade.Call{call(t, "find_order", `{"latest": true}`, order), call(t, "cancel_order", `{"order_id": "W8127731"}`, `{"ok": true}`)},
			[]string{"", `{"order_id":{"from":"find_order.output.order.id"}}`},
			[]string{"#1 cancel_order order_id: from find_order.output.order.id: returned by find_order (#0) at output.order.id"}},
		{"the earliest source, the others noted", `go`,
			[]toolgrade.Call{call(t, "a", `{}`, `{"id": "AB1234"}`), call(t, "b", `{}`, `{"ref": "AB1234", "copy": "AB1234"}`), call(t, "c", `{"x": "AB1234"}`, "")},
			[]string{"", "", `{"x":{"from":"a.output.id"}}`},
			[]string{"also by b (#1) at output.ref, b (#1) at output.copy"}},
		{"a value the user gave stays", `Please cancel order W8127731`,
			[]toolgrade.Call{call(t, "find_order", `{"id": "W8127731"}`, order), call(t, "cancel_order", `{"order_id": "W8127731"}`, "")},
			[]string{"", ""},
			[]string{"#1 cancel_order order_id: kept: in the user's input (also returned by find_order (#0) at output.order.id)"}},
		{"small numbers and booleans are no data flow", `go`,
			[]toolgrade.Call{call(t, "count", `{}`, `{"n": 2, "more": true, "city": "Paris"}`), call(t, "use", `{"n": 2, "more": true, "city": "Paris"}`, "")},
			[]string{"", ""}, nil},
		{"a number of 4 digits is", `go`,
			[]toolgrade.Call{call(t, "quote", `{}`, `{"total": 1299.50}`), call(t, "pay", `{"amount": 1299.5}`, "")},
			[]string{"", `{"amount":{"from":"quote.output.total"}}`}, nil},
		{"another type is no source", `go`,
			[]toolgrade.Call{call(t, "find", `{}`, `{"id": 123456}`), call(t, "use", `{"id": "123456"}`, "")},
			[]string{"", ""},
			[]string{"#1 use id: kept: found in the output of find (#0), but inside a string or as another type"}},
		{"a value inside text is no source", `go`,
			[]toolgrade.Call{call(t, "find", `{}`, `"Order W8127731 ships tomorrow"`), call(t, "use", `{"id": "W8127731"}`, "")},
			[]string{"", ""},
			[]string{"inside a string or as another type"}},
		{"an output given as JSON text is read as JSON", `go`,
			[]toolgrade.Call{call(t, "find", `{}`, `"{\"order\": {\"id\": \"W8127731\"}}"`), call(t, "use", `{"id": "W8127731"}`, "")},
			[]string{"", `{"id":{"from":"find.output.order.id"}}`}, nil},
		{"an MCP result's text part", `go`,
			[]toolgrade.Call{call(t, "find", `{}`, `{"content": [{"type": "text", "text": "{\"id\": \"W8127731\"}"}], "isError": false}`), call(t, "use", `{"id": "W8127731"}`, "")},
			[]string{"", `{"id":{"from":"find.output.content[0].text.id"}}`}, nil},
		{"list indexes in brackets", `go`,
			[]toolgrade.Call{call(t, "list", `{}`, `[{"id": "AB1234"}, {"id": "CD5678"}]`), call(t, "use", `{"id": "CD5678"}`, "")},
			[]string{"", `{"id":{"from":"list.output[1].id"}}`}, nil},
		{"by index when a call of the same tool comes between", `go`,
			[]toolgrade.Call{call(t, "get", `{"n": 1}`, `{"id": "AB1234"}`), call(t, "get", `{"n": 2}`, `{"id": "CD5678"}`), call(t, "use", `{"a": "AB1234", "b": "CD5678"}`, "")},
			[]string{"", "", `{"a":{"from":"#0.output.id"},"b":{"from":"get.output.id"}}`}, nil},
		{"volatile values found nowhere earlier are ignored", `Book a table`,
			[]toolgrade.Call{call(t, "book", `{"at": "2025-03-06T14:30:12Z", "local": "2025-03-06 14:30", "basic": "20250306T143012Z", "day": "2025-03-06",
				"uid": "8f1c2b9e-77a0-4a52-9f0e-3c1d5b2a6e41", "Idempotency-Key": "k1", "nonce": 77, "created_at": 1741269012, "ts": "1741269012000",
				"clock": "14:30", "people": 4, "not_a_date": "2025-13-06", "seats": 1741269012}`, "")},
			[]string{`{"at":{"ignore":true},"local":{"ignore":true},"basic":{"ignore":true},"day":{"ignore":true},"uid":{"ignore":true},"Idempotency-Key":{"ignore":true},"nonce":{"ignore":true},"created_at":{"ignore":true},"ts":{"ignore":true}}`},
			[]string{`#0 book at: ignore: an ISO 8601 date-time found nowhere earlier (recorded "2025-03-06T14:30:12Z")`, "#0 book day: ignore: an ISO 8601 date found", "#0 book uid: ignore: a UUID", "#0 book Idempotency-Key: ignore: an idempotency key", "#0 book nonce: ignore: a nonce", "#0 book created_at: ignore: a Unix time"}},
		{"a volatile value the user gave stays", `Book for 2025-03-06`,
			[]toolgrade.Call{call(t, "book", `{"day": "2025-03-06"}`, "")},
			[]string{""}, nil},
		{"a volatile value met earlier inside text stays", `go`,
			[]toolgrade.Call{call(t, "slots", `{}`, `"free at 2025-03-06T14:30:00Z only"`), call(t, "book", `{"at": "2025-03-06T14:30:00Z"}`, "")},
			[]string{"", ""},
			[]string{"#1 book at: kept: found in the output of slots (#0)"}},
		{"a volatile value returned earlier is a from rule", `go`,
			[]toolgrade.Call{call(t, "slots", `{}`, `{"slots": ["2025-03-06T14:30:00Z", "2025-03-06T15:00:00Z"]}`), call(t, "book", `{"at": "2025-03-06T15:00:00Z"}`, "")},
			[]string{"", `{"at":{"from":"slots.output.slots[1]"}}`}, nil},
		{"a retried failure is expected, and the retry is the source", `go`,
			[]toolgrade.Call{failed(call(t, "get", `{}`, `"timeout"`)), call(t, "get", `{}`, `{"id": "AB1234"}`), call(t, "use", `{"x": "AB1234"}`, "")},
			[]string{"", "", `{"x":{"from":"get.output.id"}}`},
			[]string{`#0 get: failed and was retried by #1: expected with status "error"`, "#2 use x: from get.output.id: returned by get (#1)"}},
		{"a failure not retried is expected, and noted", `go`,
			[]toolgrade.Call{failed(call(t, "get", `{}`, `"timeout"`)), call(t, "other", `{}`, "")},
			[]string{"", ""},
			[]string{`#0 get: failed, and no later call of the tool succeeded: expected with status "error"`}},
		{"a failed call's output is no source", `go`,
			[]toolgrade.Call{failed(call(t, "get", `{}`, `{"id": "AB1234", "error": "partial"}`)), call(t, "use", `{"x": "AB1234"}`, "")},
			[]string{"", ""},
			[]string{"#1 use x: kept: found in the output of get (#0), which failed: a failed call is no source"}},
		{"a source before a failed call of its tool is named by index", `go`,
			[]toolgrade.Call{call(t, "get", `{}`, `{"id": "AB1234"}`), failed(call(t, "get", `{}`, `"timeout"`)), call(t, "use", `{"x": "AB1234"}`, "")},
			[]string{"", "", `{"x":{"from":"#0.output.id"}}`}, nil},
		{"a list element cannot have a rule", `go`,
			[]toolgrade.Call{call(t, "list", `{}`, `{"ids": ["AB1234"]}`), call(t, "use", `{"ids": ["AB1234", "CD5678"]}`, "")},
			[]string{"", ""},
			[]string{"#1 use ids.0: kept: returned by list (#0) at output.ids[0], but it is an element of a list"}},
		{"a volatile list element ignores the list", `go`,
			[]toolgrade.Call{call(t, "use", `{"when": ["2025-03-06", "soon"]}`, "")},
			[]string{`{"when":{"ignore":true}}`},
			[]string{"#0 use when: ignore: its element when.0 is an ISO 8601 date found nowhere earlier"}},
		{"an ignored list keeps no rules inside it", `go`,
			[]toolgrade.Call{call(t, "use", `{"when": [{"at": "2025-03-07T10:00:00Z"}, "2025-03-06"]}`, "")},
			[]string{`{"when":{"ignore":true}}`}, nil},
		{"a whole object returned earlier", `go`,
			[]toolgrade.Call{call(t, "profile", `{}`, `{"address": {"street": "1 Main St", "zip": "94107"}}`), call(t, "ship", `{"to": {"street": "1 Main St", "zip": "94107"}}`, "")},
			[]string{"", `{"to":{"from":"profile.output.address"}}`}, nil},
		{"members of objects in lists", `go`,
			[]toolgrade.Call{call(t, "search", `{}`, `{"flights": [{"no": "HAT001", "date": "2025-05-20"}]}`), call(t, "book", `{"flights": [{"no": "HAT001", "date": "2025-05-20", "at": "2025-05-01T10:00:00Z"}]}`, "")},
			[]string{"", `{"flights.0.no":{"from":"search.output.flights[0].no"},"flights.0.date":{"from":"search.output.flights[0].date"},"flights.0.at":{"ignore":true}}`}, nil},
		{"arguments that are not JSON", `go`,
			[]toolgrade.Call{{Name: "f", ArgsRaw: "{oops", Invalid: true}},
			[]string{""},
			[]string{"#0 f: the arguments are not valid JSON"}},
		{"no calls", `Hello`, nil, nil, []string{"the run made no calls: the case expects none"}},
		{"no input", ``, []toolgrade.Call{call(t, "f", `{}`, "")}, []string{""}, []string{"the run holds no user message"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &snapshot.Run{ID: "c", Source: "c.json", Format: "openai_chat", Calls: tt.calls}
			if tt.input != "" {
				r.Input, r.Inputs = tt.input, []any{tt.input}
			}
			s := snapshot.Take(r)
			if diff := cmp.Diff(tt.rules, rulesOf(t, s)); diff != "" {
				t.Errorf("rules (-want +got):\n%s\nnotes:\n%s", diff, notesOf(s))
			}
			for _, n := range tt.notes {
				if !strings.Contains(notesOf(s), n) {
					t.Errorf("notes lack %q:\n%s", n, notesOf(s))
				}
			}
			checkCase(t, s)
		})
	}
}

// checkCase checks that a snapshot is a case toolgrade reads, with one
// note per rule.
func checkCase(t *testing.T, s *snapshot.Snapshot) {
	t.Helper()
	line := s.AppendJSON(nil)
	cs, err := snapshot.ReadCases("cases.jsonl", append(line, '\n'))
	if err != nil {
		t.Fatalf("the snapshot is no case: %v\n%s", err, line)
	}
	recs := 0
	for rec := range cs.Records([]*snapshot.Run{s.Run}) {
		recs++
		if _, err := rec.Decode(); err != nil {
			t.Errorf("the case does not decode: %v\n%s", err, line)
		}
	}
	if recs != 1 {
		t.Errorf("%d records, want 1", recs)
	}
	rules := 0
	for _, r := range rulesOf(t, s) {
		if r != "" {
			v, _ := jsonvalue.ParseString(r)
			rules += len(v.(jsonvalue.Object))
		}
	}
	noted := 0
	for _, n := range s.Notes {
		if n.Rule != "" {
			noted++
		}
	}
	if rules != noted {
		t.Errorf("%d rules, %d noted:\n%s", rules, noted, notesOf(s))
	}
}

// A multi-turn run pins its expected calls to their turns; a one-turn run
// does not, so that it grades as a flat list.
func TestTakeTurns(t *testing.T) {
	calls := []toolgrade.Call{call(t, "a", `{}`, ""), call(t, "b", `{}`, "")}
	calls[0].Turn, calls[1].Turn = 1, 2
	s := snapshot.Take(&snapshot.Run{ID: "c", Source: "c.json", Input: "hi", Inputs: []any{"hi", "and then"}, Calls: calls})
	if got := string(s.AppendJSON(nil)); !strings.Contains(got, `{"name":"a","args":{},"turn":1}`) || !strings.Contains(got, `{"name":"b","args":{},"turn":2}`) {
		t.Errorf("turns not kept: %s", got)
	}
	calls[1].Turn = 1
	s = snapshot.Take(&snapshot.Run{ID: "c", Source: "c.json", Input: "hi", Inputs: []any{"hi"}, Calls: calls})
	if got := string(s.AppendJSON(nil)); strings.Contains(got, `"turn"`) {
		t.Errorf("one turn pinned: %s", got)
	}
	checkCase(t, s)
}

// A failed call and its retry are both expected, as recorded, the
// failure with status "error"; the snapshot keeps nothing aside.
func TestTakeRetried(t *testing.T) {
	s := snapshot.Take(&snapshot.Run{ID: "c", Source: "c.json", Input: "q", Calls: []toolgrade.Call{
		failed(call(t, "get", `{"id": "AB1234"}`, `"timeout"`)), call(t, "get", `{"id": "AB1234"}`, `{"ok": true}`)}})
	exp, _ := s.Case.Get("expected_tools")
	want := `[{"name":"get","args":{"id":"AB1234"},"status":"error"},{"name":"get","args":{"id":"AB1234"},"status":"ok"}]`
	if got := string(jsonvalue.Append(nil, exp)); got != want {
		t.Errorf("expected_tools = %s, want %s", got, want)
	}
	meta, _ := s.Case.Get("snapshot")
	if _, ok := meta.(jsonvalue.Object).Get("retried"); ok {
		t.Errorf("snapshot.retried written: %s", jsonvalue.Append(nil, meta))
	}
}

// What of the trace was not understood stays with the case.
func TestTakeWarnings(t *testing.T) {
	s := snapshot.Take(&snapshot.Run{ID: "c", Source: "c.json", Input: "q", Warnings: []string{"skipped content block of type \"x\" at messages[1]"}})
	if got := string(s.AppendJSON(nil)); !strings.Contains(got, `"warnings":["skipped content block of type \"x\" at messages[1]"]`) {
		t.Errorf("warnings lost: %s", got)
	}
}
