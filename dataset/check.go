package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
)

// caseFields are the field names of the case format, aliases included:
// an unknown field near one of them is taken for a misspelling.
var caseFields = func() []string {
	names := []string{"id", "trial", "turns", "process", "expected_state", "final_state", "state_rules"}
	for _, keys := range [][]string{inputKeys, actualOutputKeys, expectedOutputKeys, calledKeys, expectedKeys,
		trajectoryKeys, expectedTrajectories, schema.CaseKeys()} {
		names = append(names, keys...)
	}
	return names
}()

// peerFields are fields that profiles and the runner read from a case as
// it was written (BFCL entries, ADK eval cases, DeepFabric samples, run
// files, chat messages to send), and that toolgrade's commands write
// (snapshots). They are known, but not suggested.
var peerFields = []string{
	"question", "function", "possible_answer", "ground_truth", "bfcl_id", // BFCL
	"invocations",               // ADK
	"samples", "final_response", // DeepFabric
	"messages", "run", // toolgrade run
	"snapshot",                 // toolgrade snapshot: where the case came from, its notes
	"output", "input_messages", // Mastra's run output and input
	"value", "trace", // promptfoo's assertion value and trace
}

// gradeFields are the fields that give a metric something to grade:
// calls, trajectories, or a peer's own form of them. A case with none of
// them set would pass with "no calls expected and none made".
var gradeFields = func() []string {
	names := slices.Concat(calledKeys, expectedKeys, trajectoryKeys, expectedTrajectories)
	return append(names, "invocations", "samples", "possible_answer", "ground_truth", "question", "turns", "expected_state", "final_state",
		"output", "trace", "value")
}()

// synonyms are names people give the call lists that are too far from the
// format's names for the edit distance to find.
var synonyms = map[string]string{
	"tool_calls":          "tools_called",
	"toolCalls":           "tools_called",
	"calls":               "tools_called",
	"called_tools":        "tools_called",
	"actual_tools":        "tools_called",
	"actual_tool_calls":   "tools_called",
	"predicted_tools":     "tools_called",
	"expected_tool_calls": "expected_tools",
	"expected_calls":      "expected_tools",
	"reference_tools":     "expected_tools",
	"gold_tools":          "expected_tools",
	"ground_truth_tools":  "expected_tools",
}

// Known reports whether name is a field of the case format or one a
// profile reads.
func Known(name string) bool { return caseKey(name).known() }

// A keyInfo says what a key of a case is, so that one lookup answers what
// decoding and checking a case ask of each of its keys. It is packed in
// one word, which a call returns in one register: as five fields it cost
// its callers a store and a load of each.
type keyInfo uint32

// The bits of a keyInfo.
const (
	keyKnown keyInfo = 1 << iota // in caseFields or peerFields
	keyGrade                     // in gradeFields

	// field is 1 + the field the key is an alias of (see fields), and
	// rank its rank among the field's aliases; 0 for no field.
	fieldShift = 2 // 4 bits
	rankShift  = 6 // 2 bits
	// tools is 1 + the key's index in toolKeys; 0 for none.
	toolsShift = 8 // 2 bits
	// id is a known key's own number, from 1 (0 for an unknown key): a
	// set of keys is a mask of them (see Checker.Check).
	idShift = 10 // 6 bits
)

// The keys readCase looks for by their id.
const (
	keyID    = keyKnown | 9<<idShift
	keyTrial = keyKnown | 16<<idShift
)

func (k keyInfo) known() bool { return k&keyKnown != 0 }
func (k keyInfo) grade() bool { return k&keyGrade != 0 }
func (k keyInfo) field() int8 { return int8(k >> fieldShift & 15) }
func (k keyInfo) rank() int8  { return int8(k >> rankShift & 3) }
func (k keyInfo) tools() int8 { return int8(k >> toolsShift & 3) }
func (k keyInfo) id() uint    { return uint(k >> idShift & 63) }

// caseKey says what a key of a case is. It is a switch, which the
// compiler makes a jump on the length and a few byte compares, about a
// tenth of the cost of a map lookup; TestCaseKey checks it against the
// lists of keys above (caseFields, peerFields, gradeFields, fieldKeys,
// toolKeys), and that each known key has an id of its own.
func caseKey(k string) keyInfo {
	switch k {
	case "actual_output":
		return keyKnown | (1+fieldActualOutput)<<fieldShift | 1<<idShift
	case "actual_response":
		return keyKnown | (1+fieldActualOutput)<<fieldShift | 2<<rankShift | 2<<idShift
	case "agent_trajectory":
		return keyKnown | keyGrade | (1+fieldTrajectory)<<fieldShift | 1<<rankShift | 3<<idShift
	case "availableTools":
		return keyKnown | 2<<toolsShift | 4<<idShift
	case "available_tools":
		return keyKnown | 1<<toolsShift | 5<<idShift
	case "bfcl_id":
		return keyKnown | 6<<idShift
	case "final_response":
		return keyKnown | 7<<idShift
	case "function":
		return keyKnown | 8<<idShift
	case "id":
		return keyID
	case "input_messages":
		return keyKnown | 10<<idShift
	case "messages":
		return keyKnown | 11<<idShift
	case "process":
		return keyKnown | 12<<idShift
	case "run":
		return keyKnown | 13<<idShift
	case "snapshot":
		return keyKnown | 14<<idShift
	case "state_rules":
		return keyKnown | 15<<idShift
	case "trial":
		return keyTrial
	case "expectedTools":
		return keyKnown | keyGrade | (1+fieldExpected)<<fieldShift | 1<<rankShift | 17<<idShift
	case "expected_agent_trajectory":
		return keyKnown | keyGrade | (1+fieldExpectedTrajectory)<<fieldShift | 1<<rankShift | 18<<idShift
	case "expected_output":
		return keyKnown | (1+fieldExpectedOutput)<<fieldShift | 19<<idShift
	case "expected_response":
		return keyKnown | (1+fieldExpectedOutput)<<fieldShift | 1<<rankShift | 20<<idShift
	case "expected_state":
		return keyKnown | keyGrade | 21<<idShift
	case "final_state":
		return keyKnown | keyGrade | 22<<idShift
	case "ground_truth":
		return keyKnown | keyGrade | 23<<idShift
	case "output":
		return keyKnown | keyGrade | 24<<idShift
	case "possible_answer":
		return keyKnown | keyGrade | 25<<idShift
	case "question":
		return keyKnown | keyGrade | 26<<idShift
	case "samples":
		return keyKnown | keyGrade | 27<<idShift
	case "trace":
		return keyKnown | keyGrade | 28<<idShift
	case "value":
		return keyKnown | keyGrade | 29<<idShift
	case "expected_tools":
		return keyKnown | keyGrade | (1+fieldExpected)<<fieldShift | 30<<idShift
	case "expected_trajectory":
		return keyKnown | keyGrade | (1+fieldExpectedTrajectory)<<fieldShift | 31<<idShift
	case "generated_response":
		return keyKnown | (1+fieldActualOutput)<<fieldShift | 1<<rankShift | 32<<idShift
	case "input":
		return keyKnown | (1+fieldInput)<<fieldShift | 33<<idShift
	case "invocations":
		return keyKnown | keyGrade | (1+fieldInvocations)<<fieldShift | 34<<idShift
	case "query":
		return keyKnown | (1+fieldInput)<<fieldShift | 1<<rankShift | 35<<idShift
	case "reference":
		return keyKnown | (1+fieldExpectedOutput)<<fieldShift | 2<<rankShift | 36<<idShift
	case "reference_tool_calls":
		return keyKnown | keyGrade | (1+fieldExpected)<<fieldShift | 2<<rankShift | 37<<idShift
	case "response":
		return keyKnown | (1+fieldActualOutput)<<fieldShift | 3<<rankShift | 38<<idShift
	case "tools":
		return keyKnown | 3<<toolsShift | 39<<idShift
	case "toolsCalled":
		return keyKnown | keyGrade | (1+fieldCalled)<<fieldShift | 1<<rankShift | 40<<idShift
	case "tools_called":
		return keyKnown | keyGrade | (1+fieldCalled)<<fieldShift | 41<<idShift
	case "trajectory":
		return keyKnown | keyGrade | (1+fieldTrajectory)<<fieldShift | 42<<idShift
	case "turns":
		return keyKnown | keyGrade | (1+fieldTurns)<<fieldShift | 43<<idShift
	case "user_input":
		return keyKnown | keyGrade | (1+fieldTrajectory)<<fieldShift | 2<<rankShift | 44<<idShift
	}
	return 0
}

// misspelled returns the case field that name most likely meant, if name
// is unknown and near one.
func misspelled(name string) (string, bool) {
	if Known(name) {
		return "", false
	}
	if s, ok := synonyms[name]; ok {
		return s, true
	}
	return suggest.Nearest(name, caseFields)
}

// An UnknownFieldError is a case field that is not part of the case format
// and looks like a misspelling of one that is.
type UnknownFieldError struct {
	Field, Suggestion string
}

func (e *UnknownFieldError) Error() string {
	if e.Suggestion == "" {
		return fmt.Sprintf("unknown field `%s` (not part of the case format; see docs/cases.md)", e.Field)
	}
	return fmt.Sprintf("unknown field `%s`; did you mean `%s`?", e.Field, e.Suggestion)
}

// checkMisspelled returns an error for the first field of obj that looks
// like a misspelled case field. (A call's fields are checked as it is
// decoded: every key of a call is read, or an error.)
func checkMisspelled(obj jsonvalue.Object) error {
	for _, m := range obj {
		if s, ok := misspelled(m.Key); ok {
			if obj.Has(s) {
				continue // both spellings: the other is metadata
			}
			return &UnknownFieldError{Field: m.Key, Suggestion: s}
		}
	}
	return nil
}

// misspelledError is decoding's check of a case's field names: a field
// that looks like a misspelled case field is an error, unless the record
// is a trace rather than a case (an assistant message's tool_calls), which
// the error then says.
func misspelledError(obj jsonvalue.Object) error {
	err := checkMisspelled(obj)
	if err == nil || Gradeable(obj) {
		return err
	}
	if traceFormat(obj) != "" {
		return nothingToGrade(obj)
	}
	return err
}

// ErrNothingToGrade is what a case with no calls, trajectory or peer data
// to grade is, to errors.Is.
var ErrNothingToGrade = errors.New("nothing to grade")

// Gradeable reports whether a case written as obj gives a metric something
// to grade: expected or called calls, a trajectory, or a peer's own data
// (BFCL's possible_answer, ADK's invocations, DeepFabric's samples), set
// to something other than null. An empty list counts: it says "no calls".
func Gradeable(obj jsonvalue.Object) bool {
	for i := range obj {
		if gradeable(&obj[i], caseKey(obj[i].Key)) {
			return true
		}
	}
	return false
}

// gradeable reports whether a member of a case, whose key is k, gives a
// metric something to grade.
func gradeable(m *jsonvalue.Member, k keyInfo) bool {
	// A raw output may be null: a provider that returned nothing is
	// promptfoo's to grade.
	if m.Value == nil && m.Key != "output" || !k.grade() {
		return false
	}
	if m.Key == "user_input" {
		if _, ok := m.Value.([]any); !ok {
			return false // Ragas' single-turn query
		}
	}
	return true
}

// nothingToGrade explains a case with nothing to grade, naming the trace
// format when the record is a trace.
func nothingToGrade(obj jsonvalue.Object) error {
	keys := make([]string, 0, len(obj))
	for _, m := range obj {
		keys = append(keys, m.Key)
	}
	has := "no fields"
	if len(keys) > 0 {
		has = "fields " + quoteList(keys, 5)
	}
	var nulls []string
	for _, m := range obj {
		if m.Value == nil && m.Key != "output" && slices.Contains(gradeFields, m.Key) {
			nulls = append(nulls, m.Key)
		}
	}
	if len(nulls) > 0 {
		return fmt.Errorf("%w: %s %s null; give a list of calls, [] for none", errorString(ErrNothingToGrade.Error()), quoteList(nulls, 5), plural(len(nulls), "is", "are"))
	}
	if format := traceFormat(obj); format != "" {
		return fmt.Errorf("%w: a trace (%s format), not a case; grade it as a case's \"agent_trajectory\", or print its calls with toolgrade extract (%s)", errorString(ErrNothingToGrade.Error()), format, has)
	}
	return fmt.Errorf("%w: no expected_tools, tools_called or trajectory (%s); a case gives what the agent called (tools_called or agent_trajectory) and what it should have called (expected_tools), see docs/cases.md", errorString(ErrNothingToGrade.Error()), has)
}

// traceFormat names the trace format of a record that is a trace, or
// returns "". A record of a case file is a line of JSON Lines, and a
// line of a session log (Claude Code's, Codex's) says its format only
// among the lines of its file, as toolgrade extract reads them: so the
// record is read as such a file of one line first, and alone after
// (where a Claude Code entry, with its message, would read as a chat
// message).
func traceFormat(obj jsonvalue.Object) string {
	for _, v := range []any{[]any{obj}, obj} {
		if t, err := trace.Extract(v, ""); (err == nil || errors.Is(err, trace.ErrMissed)) && t.Format != "" {
			return t.Format
		}
	}
	return ""
}

// errorString is an error whose text is given and which is
// ErrNothingToGrade to errors.Is.
type errorString string

func (e errorString) Error() string        { return string(e) }
func (e errorString) Is(target error) bool { return target == ErrNothingToGrade }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func quoteList(keys []string, max int) string {
	var b strings.Builder
	for i, k := range keys {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(keys)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + k + "`")
	}
	return b.String()
}

// A Checker checks the cases of a graded run beyond what decoding does:
// that each gives something to grade, and which fields it carries that no
// part of toolgrade reads. Unknown fields (datasets carry metadata) are
// kept and counted, or, with StrictFields, make the case an error result.
// A Checker is safe for use by Evaluate's workers at once.
type Checker struct {
	// StrictFields makes any unknown field an error.
	StrictFields bool
	// NotGraded maps case fields that no metric of the run reads to what
	// would read them: a case that sets one gets a warning saying so,
	// instead of passing as if the field had been checked. It is read
	// once, at the first Check.
	NotGraded map[string]string

	mu      sync.Mutex
	ignored map[string]int

	notGradedOnce sync.Once
	// The keys of NotGraded: the ids of those that are known (see
	// keyInfo), and the keyBit of the others.
	notGradedIDs, notGradedOthers uint64
}

// keyBit sets one of 64 bits for a key, cheaply: keys share bits, so a
// mask of keys tells only which keys are not among them.
func keyBit(k string) uint64 {
	h := uint(len(k))
	if len(k) > 0 {
		h += uint(k[0])*7 + uint(k[len(k)-1])*3 + uint(k[len(k)/2])*5
	}
	return 1 << (h & 63)
}

// A FieldCount is a field and the number of cases that had it.
type FieldCount struct {
	Field string
	Cases int
}

// Ignored returns the unknown fields met, each with the number of cases
// that had it, most frequent first.
func (ch *Checker) Ignored() []FieldCount {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	out := make([]FieldCount, 0, len(ch.ignored))
	for f, n := range ch.ignored {
		out = append(out, FieldCount{f, n})
	}
	sorting.Sort(out, func(a, b FieldCount) int {
		if a.Cases != b.Cases {
			return b.Cases - a.Cases
		}
		return strings.Compare(a.Field, b.Field)
	})
	return out
}

// Check checks one decoded case, adding a warning for each field set that
// is in NotGraded.
func (ch *Checker) Check(c *toolgrade.Case) error {
	var keys caseKeys
	for i := range c.Raw {
		m := &c.Raw[i]
		keys.add(m, caseKey(m.Key))
	}
	return ch.check(c, keys)
}

// caseKeys is what checking a case asks of its keys, gathered in one pass
// over them, each looked up once: Check's, or decoding's when the case is
// checked as it decodes (see [Source.Checked]).
type caseKeys struct {
	// ids is the set of the keys' ids (bit 0: an unknown key), which says
	// which NotGraded names.
	ids    uint64
	graded bool // some key gives a metric something to grade
}

// add takes a member of the case, whose key is k.
func (s *caseKeys) add(m *jsonvalue.Member, k keyInfo) {
	s.ids |= 1 << k.id()
	if k.grade() && !s.graded {
		s.graded = gradeable(m, k)
	}
}

// check is Check for a case whose keys are summed up in keys.
func (ch *Checker) check(c *toolgrade.Case, keys caseKeys) error {
	obj := c.Raw
	if obj == nil {
		return nil
	}
	ch.notGradedOnce.Do(func() {
		for k := range ch.NotGraded {
			if info := caseKey(k); info.known() {
				ch.notGradedIDs |= 1 << info.id()
			} else {
				ch.notGradedOthers |= keyBit(k)
			}
		}
	})
	// An unknown key (rare) is looked for by its bit in a pass of its own.
	unknown := keys.ids&1 != 0
	notGraded := keys.ids&ch.notGradedIDs != 0 || unknown && ch.notGradedOthers != 0 && ch.othersSet(obj)
	if !keys.graded {
		return nothingToGrade(obj)
	}
	if unknown {
		if err := ch.unknown(obj); err != nil {
			return err
		}
	}
	if !notGraded {
		return nil
	}
	for _, m := range obj {
		if why, ok := ch.NotGraded[m.Key]; ok && m.Value != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("field %s is not graded: %s", m.Key, why))
		}
	}
	return nil
}

// othersSet reports whether obj may have an unknown key of NotGraded: one
// whose keyBit is among theirs.
func (ch *Checker) othersSet(obj jsonvalue.Object) bool {
	for i := range obj {
		if k := obj[i].Key; !caseKey(k).known() && ch.notGradedOthers&keyBit(k) != 0 {
			return true
		}
	}
	return false
}

// unknown counts the fields of obj that are not part of the case format,
// each once, or, with StrictFields, returns the error of the first.
func (ch *Checker) unknown(obj jsonvalue.Object) error {
	var unknown []string
	for _, m := range obj {
		if !caseKey(m.Key).known() && !slices.Contains(unknown, m.Key) {
			unknown = append(unknown, m.Key)
		}
	}
	if ch.StrictFields {
		return fmt.Errorf("unknown field `%s` (not part of the case format, and --strict-fields is set): remove it, or drop --strict-fields to keep it as metadata", unknown[0])
	}
	ch.mu.Lock()
	if ch.ignored == nil {
		ch.ignored = map[string]int{}
	}
	for _, k := range unknown {
		ch.ignored[k]++
	}
	ch.mu.Unlock()
	return nil
}

// CheckCase is [Checker.Check] for a case read from a file, whose error
// then names the file and the line the case starts on; given to
// [toolgrade.CheckCases], it checks every case of a run.
func (ch *Checker) CheckCase(c *toolgrade.Case) error { return inFile(c, ch.Check(c)) }

// inFile is err, the error of checking c, naming the file and the line c
// starts on when c was read from a file.
func inFile(c *toolgrade.Case, err error) error {
	if err != nil && c.Source != "" {
		return fmt.Errorf("%s:%d: %w", c.Source, c.Line, err)
	}
	return err
}
