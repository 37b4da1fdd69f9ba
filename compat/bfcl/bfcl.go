package bfcl

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Options configure the bfcl profile. The JSON names are the keys of a
// metric entry, as in BFCL's conformance data:
//
//	metrics:
//	  - profile: bfcl
//	    category: live_parallel_multiple
//	    language: python
type Options struct {
	// Category is BFCL's test category ("simple_python", "multiple",
	// "live_parallel", ...); the checker dispatches on it: a name with
	// "parallel" gets the unordered parallel check, else one with
	// "multiple" the multiple check, else the simple check. When set it
	// must be one of BFCL's AST categories (v4's, or v3's simple, java and
	// javascript), so that a misspelling is not graded with the wrong
	// check. When empty it comes from each case's BFCL id (bfcl_id, else
	// the case id without a "#k" suffix), as BFCL derives it.
	Category string `json:"category,omitempty"`
	// Language is "python", "java" or "javascript"; when empty it comes
	// from the category, as in BFCL.
	Language string `json:"language,omitempty"`
}

// Metric reproduces the AST checker of the Berkeley Function Calling
// Leaderboard (BFCL v4) for its single-turn AST categories. It gives a
// verdict only: score 1 and success when the checker finds the output
// valid, score 0 otherwise, with BFCL's error_type at the start of the
// reason ("simple_function_checker:missing_required: ...").
//
// A case gives the model's calls as tools_called (order matters, and so
// does the order of each call's arguments: BFCL reports the first failing
// argument), the entry's function docs as available_tools (or BFCL's own
// field, function) and its ground truth as possible_answer (or
// ground_truth): a list of {function: {param: [acceptable values]}}, where
// "" among the values marks a parameter that may be left out.
//
// Calls whose arguments were not JSON make the entry invalid with BFCL's
// decoder error type ast_decoder:decoder_failed, and arguments that are not
// an object ast_decoder:decoder_wrong_output_format; a call that records no
// arguments is checked as one with {}. Where BFCL's checker would raise an
// exception (a doc type it has no mapping for, a ground truth that is not
// a list), the result is an error, not a verdict.
//
// The checker's semantics (Python values, string normalization, the
// variable mode, dict and list rules, the Java and JavaScript literal
// converters) are described in ../shared/conformance/README.md, section
// bfcl, and in [Check].
type Metric struct {
	opts Options
}

// New checks the options and returns the profile.
func New(opts Options) (*Metric, error) {
	switch opts.Language {
	case "", "python", "java", "javascript":
	default:
		return nil, &toolgrade.OptionError{Option: "language", Value: opts.Language, Allowed: []string{"python", "java", "javascript"}}
	}
	if opts.Category != "" {
		if !slices.Contains(astCategories, opts.Category) {
			return nil, &toolgrade.OptionError{Option: "category", Value: opts.Category, Allowed: slices.Clone(astCategories)}
		}
	}
	return &Metric{opts: opts}, nil
}

// astCategories are the categories of BFCL's score table the AST checker
// grades, in the table's order, each v4 name followed by v3's name for
// it where there is one.
var astCategories = []string{
	"simple_python", "simple", "simple_java", "java", "simple_javascript", "javascript",
	"multiple", "parallel", "parallel_multiple",
	"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "bfcl".
func (m *Metric) Profile() string { return "bfcl" }

// CaseFields returns the fields the metric reads: the calls, the BFCL
// entry's possible answer and function docs, and its id (for the
// category).
func (m *Metric) CaseFields() []string {
	return []string{"id", "bfcl_id", "tools_called", "possible_answer", "ground_truth", "available_tools", "function"}
}

// Grade checks the case's calls as BFCL's AST checker does.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := newResult()
	category := m.opts.Category
	if category == "" {
		category = Category(entryID(c))
		if category == "" {
			r.Error = "bfcl: no category: set the category option, or give the case its BFCL id (bfcl_id)"
			return r
		}
	}
	language := m.opts.Language
	if language == "" {
		language = Language(category)
	}
	answer, ok := c.Raw.Get("possible_answer")
	if !ok {
		if answer, ok = c.Raw.Get("ground_truth"); !ok {
			r.Error = "bfcl: the case has no possible_answer"
			return r
		}
	}
	docs := schema.Definitions(c)
	if docs == nil {
		docs, _ = c.Raw.Get("function")
	}
	return Result(Check(category, language, docs, answer, c.Called))
}

// Result is the bfcl profile's result for a check: score 1 and success
// when the verdict is valid, else score 0 with BFCL's error type and
// message as the reason; err, where the checker raised, makes it an error
// result. Result(Check(...)) is what [Metric.Grade] gives.
func Result(v Verdict, err error) toolgrade.MetricResult {
	r := newResult()
	switch {
	case err != nil:
		r.Fail(fmt.Errorf("bfcl: %w", err))
	case v.Valid:
		r.Score, r.Success, r.Reason = 1, true, "valid"
	default:
		r.Reason = v.ErrorType + ": " + v.Message
	}
	return r
}

// newResult is a result of the bfcl profile, before its verdict.
func newResult() toolgrade.MetricResult {
	return toolgrade.MetricResult{Name: "tool_correctness", Profile: "bfcl", Threshold: toolgrade.Float(1)}
}

// entryID is the BFCL id of a case: bfcl_id, else the case id up to a
// "#" (the conformance data's candidate suffix).
func entryID(c *toolgrade.Case) string {
	if id, ok := c.Raw.Get("bfcl_id"); ok {
		if s, ok := id.(string); ok {
			return s
		}
	}
	id, _, _ := strings.Cut(c.ID, "#")
	return id
}

// Category is the test category of a BFCL entry id, as BFCL derives
// it: everything before the last underscore ("live_multiple_862-181-3" →
// "live_multiple"). It is "" for an id without an underscore.
func Category(id string) string {
	i := strings.LastIndexByte(id, '_')
	if i < 0 {
		return ""
	}
	return id[:i]
}

// Language is the language of a BFCL category: javascript for a name
// containing "javascript", else java for one containing "java", else
// python.
func Language(category string) string {
	switch {
	case strings.Contains(category, "javascript"):
		return "javascript"
	case strings.Contains(category, "java"):
		return "java"
	}
	return "python"
}

// A Verdict is the AST checker's verdict on one entry.
type Verdict struct {
	Valid bool
	// ErrorType is BFCL's error_type ("value_error:string",
	// "parallel_function_checker_no_order:cannot_find_match", ...); empty
	// when valid.
	ErrorType string
	// Message says what failed, in words.
	Message string
}

// Check runs BFCL's AST checker on one entry: the category and
// language, the entry's function docs, its ground truth (possible answer)
// and the model's calls in order. The error reports input on which BFCL's
// own checker would raise instead of giving a verdict.
//
// Dispatch: a category containing "parallel" needs as many calls as the
// ground truth and matches each ground-truth call, in order, to the first
// unused call that passes the single-call check (greedy, not a best
// assignment); else one containing "multiple" needs exactly as many calls
// as the ground truth and checks the first against the ground-truth
// function; else exactly one call, checked against the first doc.
func Check(category, language string, docs, possibleAnswer any, calls []toolgrade.Call) (Verdict, error) {
	return check(category, language, docs, possibleAnswer, calls, false)
}

// CheckFunctionCalling is [Check] for a function-calling model's calls,
// whose tool names BFCL sent with "." replaced by "_": a call naming a
// dotted function in that form is read as that function.
func CheckFunctionCalling(category, language string, docs, possibleAnswer any, calls []toolgrade.Call) (Verdict, error) {
	return check(category, language, docs, possibleAnswer, calls, true)
}

func check(category, language string, docs, possibleAnswer any, calls []toolgrade.Call, fc bool) (Verdict, error) {
	out := make([]output, len(calls))
	for i, c := range calls {
		if c.Invalid {
			return fail("ast_decoder:decoder_failed", "call %d (%s): arguments are not valid JSON", i, c.Name), nil
		}
		args := c.Args
		if args == nil {
			args = jsonvalue.Object{}
		}
		obj, ok := args.(jsonvalue.Object)
		if !ok {
			return fail("ast_decoder:decoder_wrong_output_format", "call %d (%s): arguments are %s, not an object", i, c.Name, jsonvalue.Kind(args)), nil
		}
		out[i] = output{name: c.Name, args: obj}
	}
	if fc {
		mapNames(docs, out)
	}
	k := checker{language: language}
	switch language {
	case "python", "java", "javascript":
	default:
		return Verdict{}, fmt.Errorf("unsupported language %q", language)
	}
	answers, ok := possibleAnswer.([]any)
	if !ok {
		return Verdict{}, fmt.Errorf("possible answer: want a list of {function: {param: [values]}}, got %s", jsonvalue.Kind(possibleAnswer))
	}
	var v Verdict
	var err error
	switch {
	case strings.Contains(category, "parallel"):
		v, err = k.parallel(docs, out, answers)
	case strings.Contains(category, "multiple"):
		v, err = k.multiple(docs, out, answers)
	default:
		if len(out) != 1 {
			v = fail("simple_function_checker:wrong_count", "expected exactly 1 call, got %d", len(out))
			break
		}
		var doc any
		if doc, err = index(docs, 0, "function docs"); err == nil {
			var ans any
			if ans, err = index(answers, 0, "possible answer"); err == nil {
				v, err = k.single(doc, out[0], ans)
			}
		}
	}
	if err != nil {
		return Verdict{}, err
	}
	return v, nil
}

// An output is one model call: BFCL's {name: {param: value}}.
type output struct {
	name string
	args jsonvalue.Object
}

var passed = Verdict{Valid: true}

func fail(errType, format string, args ...any) Verdict {
	return Verdict{ErrorType: errType, Message: fmt.Sprintf(format, args...)}
}

// raise is input on which BFCL's checker raises: errors, not verdicts.
func raise(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

type checker struct {
	language string
}

// The doc types each language's checker knows, and the Python type of a
// value of that type (after the literal converters for Java and
// JavaScript).
var (
	pythonTypes = map[string]kind{
		"string": kindStr, "integer": kindInt, "float": kindFloat, "boolean": kindBool,
		"array": kindList, "tuple": kindList, "dict": kindDict, "any": kindStr,
	}
	javaTypeNames = map[string]kind{
		"byte": kindInt, "short": kindInt, "integer": kindInt, "float": kindFloat, "double": kindFloat,
		"long": kindInt, "boolean": kindBool, "char": kindStr, "Array": kindList, "ArrayList": kindList,
		"Set": kindSet, "HashMap": kindDict, "Hashtable": kindDict, "Queue": kindList, "Stack": kindList,
		"String": kindStr, "any": kindStr,
	}
	jsTypeNames = map[string]kind{
		"String": kindStr, "integer": kindInt, "float": kindFloat, "Bigint": kindInt, "Boolean": kindBool,
		"dict": kindDict, "array": kindList, "any": kindStr,
	}
)

func (k *checker) types() map[string]kind {
	switch k.language {
	case "java":
		return javaTypeNames
	case "javascript":
		return jsTypeNames
	}
	return pythonTypes
}

// nested reports doc types whose elements are type-checked too.
func (k *checker) nested(docType string) bool {
	if k.language == "python" {
		return docType == "array" || docType == "tuple"
	}
	return docType == "Array" || docType == "ArrayList" || docType == "array"
}

// findDoc returns the doc of the named function, or nil (BFCL then fails
// on the missing doc).
func findDoc(docs any, name any) (any, error) {
	list, ok := docs.([]any)
	if !ok {
		return docs, nil // a single doc
	}
	for _, d := range list {
		dn, err := getKey(d, "name", "function doc")
		if err != nil {
			return nil, err
		}
		if python.Equal(dn, name) {
			return d, nil
		}
	}
	return nil, raise("no function doc named %s", jsonvalue.Format(name))
}

// firstKey returns the first key of a ground-truth entry {function:
// params}.
func firstKey(answer any) (jsonvalue.Member, error) {
	obj, ok := answer.(jsonvalue.Object)
	if !ok {
		return jsonvalue.Member{}, raise("possible answer entry: want {function: {param: [values]}}, got %s", jsonvalue.Kind(answer))
	}
	if len(obj) == 0 {
		return jsonvalue.Member{}, raise("possible answer entry is empty")
	}
	return obj[0], nil
}

func (k *checker) multiple(docs any, out []output, answers []any) (Verdict, error) {
	if len(out) != len(answers) {
		return fail("multiple_function_checker:wrong_count", "expected %d call(s), got %d", len(answers), len(out)), nil
	}
	if len(answers) == 0 {
		return Verdict{}, raise("possible answer is empty")
	}
	first, err := firstKey(answers[0])
	if err != nil {
		return Verdict{}, err
	}
	doc, err := findDoc(docs, first.Key)
	if err != nil {
		return Verdict{}, err
	}
	return k.single(doc, out[0], answers[0])
}

func (k *checker) parallel(docs any, out []output, answers []any) (Verdict, error) {
	if len(out) != len(answers) {
		return fail("parallel_function_checker_no_order:wrong_count", "expected %d calls, got %d", len(answers), len(out)), nil
	}
	used := make([]bool, len(out))
	for i, a := range answers {
		first, err := firstKey(a)
		if err != nil {
			return Verdict{}, err
		}
		doc, err := findDoc(docs, first.Key)
		if err != nil {
			return Verdict{}, err
		}
		var tried []string
		found := false
		for j := range out {
			if used[j] {
				continue
			}
			r, err := k.single(doc, out[j], a)
			if err != nil {
				return Verdict{}, err
			}
			if r.Valid {
				used[j], found = true, true
				break
			}
			tried = append(tried, fmt.Sprintf("call %d: %s: %s", j, r.ErrorType, r.Message))
		}
		if !found {
			return fail("parallel_function_checker_no_order:cannot_find_match",
				"no unmatched call fits expected call %d (%s): %s", i, first.Key, strings.Join(tried, "; ")), nil
		}
	}
	return passed, nil
}

// single is BFCL's simple_function_checker: one call against one doc and
// one ground-truth entry.
func (k *checker) single(doc any, out output, answer any) (Verdict, error) {
	entry, err := firstKey(answer)
	if err != nil {
		return Verdict{}, err
	}
	options, ok := entry.Value.(jsonvalue.Object)
	if !ok {
		return Verdict{}, raise("possible answer of %s: want {param: [values]}, got %s", entry.Key, jsonvalue.Kind(entry.Value))
	}
	name, err := getKey(doc, "name", "function doc")
	if err != nil {
		return Verdict{}, err
	}
	params, err := getKey(doc, "parameters", "function doc")
	if err != nil {
		return Verdict{}, err
	}
	props, err := getKey(params, "properties", "parameters")
	if err != nil {
		return Verdict{}, err
	}
	required, err := getKey(params, "required", "parameters")
	if err != nil {
		return Verdict{}, err
	}

	// 1. The name, compared exactly (no "." → "_" rewrite).
	if ns, ok := name.(string); !ok || ns != out.name {
		if !ok && !hashable(name) {
			return Verdict{}, raise("function doc name %s is not hashable", jsonvalue.Format(name))
		}
		return fail("simple_function_checker:wrong_func_name", "function %s not found in the output (called %q)", jsonvalue.Format(name), out.name), nil
	}
	// 2. Required parameters, in the doc's order.
	reqs, err := items(required)
	if err != nil {
		return Verdict{}, err
	}
	for _, p := range reqs {
		in, err := contains(out.args, p)
		if err != nil {
			return Verdict{}, err
		}
		if !in {
			return fail("simple_function_checker:missing_required", "missing required parameter %s", jsonvalue.Format(p)), nil
		}
	}
	// 3. Each argument in the call's order: known, then type, then value.
	for _, arg := range out.args {
		inDoc, err := contains(props, arg.Key)
		if err != nil {
			return Verdict{}, err
		}
		if !inDoc || !options.Has(arg.Key) {
			return fail("simple_function_checker:unexpected_param", "unexpected parameter %q", arg.Key), nil
		}
		r, err := k.param(arg.Key, arg.Value, props, options)
		if err != nil || !r.Valid {
			return r, err
		}
	}
	// 4. Ground-truth parameters that may not be left out.
	for _, o := range options {
		if out.args.Has(o.Key) {
			continue
		}
		optional, err := contains(o.Value, "")
		if err != nil {
			return Verdict{}, err
		}
		if !optional {
			return fail("simple_function_checker:missing_optional", "parameter %q is missing and the ground truth does not mark it optional", o.Key), nil
		}
	}
	return passed, nil
}

// param checks one argument's type and value.
func (k *checker) param(name string, value, props any, options jsonvalue.Object) (Verdict, error) {
	detail, err := getKey(props, name, "properties")
	if err != nil {
		return Verdict{}, err
	}
	typ, err := getKey(detail, "type", "parameter "+name)
	if err != nil {
		return Verdict{}, err
	}
	docType, ok := typ.(string)
	if !ok {
		return Verdict{}, raise("parameter %s: doc type %s is not a type name", name, jsonvalue.Format(typ))
	}
	expected, ok := k.types()[docType]
	if !ok {
		return Verdict{}, raise("parameter %s: BFCL's %s checker has no type %q", name, k.language, docType)
	}
	nested := kindNone
	if k.language != "python" {
		s, isString := value.(string)
		if !isString {
			errType := "type_error:java"
			if k.language == "javascript" {
				errType = "type_error:js"
			}
			return fail(errType, "parameter %q: expected the %s literal as a string, got %s", name, docType, typeName(value)), nil
		}
		itemType := ""
		if k.nested(docType) {
			if itemType, nested, err = k.itemType(name, detail); err != nil {
				return Verdict{}, err
			}
		}
		if k.language == "java" {
			value, err = javaValue(s, docType, itemType)
		} else {
			value, err = jsValue(s, docType, itemType)
		}
		if err != nil {
			return Verdict{}, fmt.Errorf("parameter %s: %w", name, err)
		}
	} else {
		if k.nested(docType) {
			if _, nested, err = k.itemType(name, detail); err != nil {
				return Verdict{}, err
			}
		}
		// Python converts an int to a float, at top level only.
		if docType == "float" && kindOf(value) == kindInt {
			n := string(value.(json.Number))
			if math.IsInf(jsonvalue.NumberFloat(json.Number(n)), 0) {
				return Verdict{}, raise("parameter %s: int too large to convert to float", name)
			}
			value = json.Number(n + ".0")
		}
	}

	opts, _ := options.Get(name)
	r, variable, err := typeCheck(name, value, opts, docType, expected, nested)
	if err != nil || !r.Valid {
		return r, err
	}
	if !variable {
		switch {
		case expected == kindDict:
			return dictCheck(name, value, opts)
		case expected == kindList && nested == kindDict:
			return listDictCheck(name, value, opts)
		case expected == kindStr:
			return stringCheck(name, value.(string), opts)
		case expected == kindList:
			return listCheck(name, value.([]any), opts)
		}
	}
	in, err := contains(opts, value)
	if err != nil {
		return Verdict{}, err
	}
	if !in {
		return fail("value_error:others", "parameter %q: %s is not one of %s", name, repr(value), repr(opts)), nil
	}
	return passed, nil
}

// itemType reads the doc's items type of an array parameter.
func (k *checker) itemType(name string, detail any) (string, kind, error) {
	items, err := getKey(detail, "items", "parameter "+name)
	if err != nil {
		return "", kindNone, err
	}
	t, err := getKey(items, "type", "parameter "+name+" items")
	if err != nil {
		return "", kindNone, err
	}
	ts, ok := t.(string)
	if !ok {
		return "", kindNone, raise("parameter %s: items type %s is not a type name", name, jsonvalue.Format(t))
	}
	kind, ok := k.types()[ts]
	if !ok {
		return "", kindNone, raise("parameter %s: BFCL's %s checker has no items type %q", name, k.language, ts)
	}
	return ts, kind, nil
}

// typeCheck is BFCL's type_checker. The first option that is not ""
// may have another type than the doc's (a variable): then a value of that
// option's type passes too, and is compared by plain membership.
func typeCheck(name string, value, options any, docType string, expected, nested kind) (r Verdict, variable bool, err error) {
	optType, hasOptType, err := optionType(options)
	if err != nil {
		return r, false, err
	}
	variable = hasOptType && optType != expected
	r = passed
	kind := kindOf(value)
	if kind == expected {
		if nested == kindNone {
			return passed, variable, nil
		}
		opts, err := items(options)
		if err != nil {
			return r, false, err
		}
		for _, opt := range opts {
			fits := true
			if list, ok := opt.([]any); ok {
				for _, item := range value.([]any) {
					ir, _, err := typeCheck(name, item, list, "", nested, kindNone)
					if err != nil {
						return r, false, err
					}
					if !ir.Valid {
						fits = false
						break
					}
				}
			}
			if fits {
				return passed, variable, nil
			}
		}
		r = fail("type_error:nested", "parameter %q: the elements of %s are not all of type %s", name, repr(value), nested)
	}
	if hasOptType && kind == optType {
		return r, true, nil // valid, or the nested failure above
	}
	return fail("type_error:simple", "parameter %q: expected type %s, got %s (%s)", name, docTypeName(docType, expected), kind, repr(value)), false, nil
}

func docTypeName(docType string, k kind) string {
	if docType != "" {
		return docType
	}
	return k.String()
}

// optionType is BFCL's get_possible_answer_type: the type of the first
// option that is not the empty string.
func optionType(options any) (kind, bool, error) {
	opts, err := items(options)
	if err != nil {
		return kindNone, false, err
	}
	for _, o := range opts {
		if o != "" {
			return kindOf(o), true, nil
		}
	}
	return kindNone, false, nil
}

// normalize is BFCL's standardize_string: delete ASCII space and
// , . / - _ * ^, lower-case (Python's str.lower), and turn ' into ".
func normalize(s string) string {
	// Byte by byte, not strings.Map: the deleted characters are ASCII,
	// and Map would turn the bytes of a lone surrogate into U+FFFD,
	// making every two surrogates equal.
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
		default:
			b = append(b, s[i])
		}
	}
	return strings.ReplaceAll(python.Lower(string(b)), "'", `"`)
}

// normalizeAll normalizes the string elements of a sequence (BFCL
// indexes options with range(len(x)), so a string option is its
// characters).
func normalizeAll(v any) ([]any, error) {
	elems, err := indexable(v)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(elems))
	for i, e := range elems {
		if s, ok := e.(string); ok {
			out[i] = normalize(s)
		} else {
			out[i] = e
		}
	}
	return out, nil
}

func stringCheck(name, value string, options any) (Verdict, error) {
	opts, err := indexable(options)
	if err != nil {
		return Verdict{}, err
	}
	got := normalize(value)
	for _, o := range opts {
		if s, ok := o.(string); ok && normalize(s) == got {
			return passed, nil
		}
	}
	return fail("value_error:string", "parameter %q: %s is not one of %s (compared after normalization)", name, repr(value), repr(options)), nil
}

func listCheck(name string, value []any, options any) (Verdict, error) {
	got, err := normalizeAll(value)
	if err != nil {
		return Verdict{}, err
	}
	opts, err := indexable(options)
	if err != nil {
		return Verdict{}, err
	}
	want := make([]any, len(opts))
	for i, o := range opts {
		l, err := normalizeAll(o)
		if err != nil {
			return Verdict{}, err
		}
		want[i] = l
	}
	for _, w := range want {
		if python.Equal(any(got), w) {
			return passed, nil
		}
	}
	return fail("value_error:list/tuple", "parameter %q: %s is not one of %s", name, repr(value), repr(options)), nil
}

// dictCheck is BFCL's dict_checker: each option dict in turn ("" is
// skipped); the error of the last option tried is reported.
func dictCheck(name string, value, options any) (Verdict, error) {
	opts, err := indexable(options)
	if err != nil {
		return Verdict{}, err
	}
	r := fail("dict_checker:unclear", "parameter %q: no dict option to compare with", name)
	for _, opt := range opts {
		if opt == "" {
			continue
		}
		obj, ok := value.(jsonvalue.Object)
		if !ok {
			return Verdict{}, raise("parameter %s: %s has no items", name, typeName(value))
		}
		r = fail("dict_checker:unclear", "parameter %q: no dict option to compare with", name)
		fits := true
		for _, m := range obj {
			in, err := contains(opt, m.Key)
			if err != nil {
				return Verdict{}, err
			}
			if !in {
				r = fail("value_error:dict_key", "parameter %q: unexpected key %q", name, m.Key)
				fits = false
				break
			}
			got := m.Value
			if s, ok := got.(string); ok {
				got = normalize(s)
			}
			keyOpts, err := getKey(opt, m.Key, "dict option")
			if err != nil {
				return Verdict{}, err
			}
			want, err := normalizeAll(keyOpts)
			if err != nil {
				return Verdict{}, err
			}
			if in, _ := contains(want, got); !in {
				r = fail("value_error:dict_value", "parameter %q: key %q: %s is not one of %s", name, m.Key, repr(m.Value), repr(keyOpts))
				fits = false
				break
			}
		}
		// BFCL checks the option's keys even when a key above failed, so
		// this error can replace that one.
		oo, ok := opt.(jsonvalue.Object)
		if !ok {
			return Verdict{}, raise("parameter %s: dict option %s has no items", name, repr(opt))
		}
		for _, om := range oo {
			if obj.Has(om.Key) {
				continue
			}
			optional, err := contains(om.Value, "")
			if err != nil {
				return Verdict{}, err
			}
			if !optional {
				r = fail("value_error:dict_key", "parameter %q: missing key %q", name, om.Key)
				fits = false
				break
			}
		}
		if fits {
			return passed, nil
		}
	}
	return r, nil
}

// listDictCheck is BFCL's list_dict_checker: the list must have an
// option's length and each element must fit the option's element at the
// same position.
func listDictCheck(name string, value, options any) (Verdict, error) {
	list := value.([]any)
	opts, err := indexable(options)
	if err != nil {
		return Verdict{}, err
	}
	r := fail("list_dict_checker:unclear", "parameter %q: no option to compare with", name)
	for _, opt := range opts {
		n, err := length(opt)
		if err != nil {
			return Verdict{}, err
		}
		if len(list) != n {
			r = fail("value_error:list_dict_count", "parameter %q: expected %[3]d dicts, got %[2]d", name, len(list), n)
			continue
		}
		elems, err := indexable(opt)
		if err != nil {
			return Verdict{}, err
		}
		fits := true
		for i := range list {
			if r, err = dictCheck(name, list[i], []any{elems[i]}); err != nil {
				return Verdict{}, err
			}
			if !r.Valid {
				fits = false
				break
			}
		}
		if fits {
			return passed, nil
		}
	}
	return r, nil
}

// Python values, as BFCL's checker sees the JSON-decoded output.

type kind int

const (
	kindNone kind = iota // NoneType; also "no type"
	kindBool
	kindInt
	kindFloat
	kindStr
	kindList
	kindDict
	kindSet // only as a Java doc type; no value has it
)

func (k kind) String() string {
	return [...]string{"NoneType", "bool", "int", "float", "str", "list", "dict", "set"}[k]
}

// nan is how the literal converters write a NaN (Python's float('nan'))
// in the value model, which has no NaN; it equals nothing, as in Python.
const nan = json.Number("NaN")

// kindOf is Python's type() of a value decoded by json.loads: a number
// with ".", "e" or "E" is a float, any other number an int.
func kindOf(v any) kind {
	switch v := v.(type) {
	case nil:
		return kindNone
	case bool:
		return kindBool
	case json.Number:
		if v == nan || !jsonvalue.IsIntegerLiteral(string(v)) {
			return kindFloat
		}
		return kindInt
	case string:
		return kindStr
	case []any:
		return kindList
	case jsonvalue.Object:
		return kindDict
	}
	return kindNone
}

func typeName(v any) string { return kindOf(v).String() }

// hashable reports whether Python could use v as a dict key.
func hashable(v any) bool {
	switch v.(type) {
	case []any, jsonvalue.Object:
		return false
	}
	return true
}

// contains is Python's "item in container" for the containers JSON
// gives: a list (==), a string (substring; the item must be a string) or a
// dict (its keys; the item must be hashable).
func contains(container, item any) (bool, error) {
	switch c := container.(type) {
	case []any:
		for _, e := range c {
			if python.Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	case string:
		s, ok := item.(string)
		if !ok {
			return false, raise("'in <string>' requires string as left operand, not %s", typeName(item))
		}
		return strings.Contains(c, s), nil
	case jsonvalue.Object:
		if !hashable(item) {
			return false, raise("unhashable type: %s", typeName(item))
		}
		s, ok := item.(string)
		return ok && c.Has(s), nil
	}
	return false, raise("argument of type %s is not iterable", typeName(container))
}

// items is Python's "for x in v": a list's elements, a string's
// characters, a dict's keys.
func items(v any) ([]any, error) {
	switch v := v.(type) {
	case []any:
		return v, nil
	case string:
		return chars(v), nil
	case jsonvalue.Object:
		keys := make([]any, len(v))
		for i, m := range v {
			keys[i] = m.Key
		}
		return keys, nil
	}
	return nil, raise("%s object is not iterable", typeName(v))
}

// indexable is "v[i] for i in range(len(v))": a list's elements, a
// string's characters; a non-empty dict raises (its keys are not 0, 1, ...).
func indexable(v any) ([]any, error) {
	switch v := v.(type) {
	case []any:
		return v, nil
	case string:
		return chars(v), nil
	case jsonvalue.Object:
		if len(v) == 0 {
			return nil, nil
		}
		return nil, raise("KeyError: 0")
	}
	return nil, raise("object of type %s has no len()", typeName(v))
}

func chars(s string) []any {
	out := make([]any, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// length is Python's len() for JSON values.
func length(v any) (int, error) {
	switch v := v.(type) {
	case []any:
		return len(v), nil
	case string:
		return utf8.RuneCountInString(v), nil
	case jsonvalue.Object:
		return len(v), nil
	}
	return 0, raise("object of type %s has no len()", typeName(v))
}

// index is v[i] for a list.
func index(v any, i int, what string) (any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, raise("%s: want a list, got %s", what, jsonvalue.Kind(v))
	}
	if i >= len(l) {
		return nil, raise("%s: list index out of range", what)
	}
	return l[i], nil
}

// getKey is v[key] for a dict.
func getKey(v any, key, what string) (any, error) {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, raise("%s: want an object, got %s", what, jsonvalue.Kind(v))
	}
	val, ok := o.Get(key)
	if !ok {
		return nil, raise("%s: no key %q", what, key)
	}
	return val, nil
}

// repr writes a value for messages.
func repr(v any) string { return jsonvalue.Format(v) }

// mapNames maps function-calling models' tool names back to the docs'
// names. BFCL sends such a model the functions with every "." in their
// names replaced by "_" (provider APIs allow no dots) and compares the
// model's calls with the names so converted; a call that names no
// function as documented but names exactly one dotted function in its
// converted form is that function.
func mapNames(docs any, out []output) {
	names := docNames(docs)
	for i := range out {
		if slices.Contains(names, out[i].name) {
			continue
		}
		if n, ok := dottedName(names, out[i].name); ok {
			out[i].name = n
		}
	}
}

// dottedName returns the one documented dotted name whose "_" form is
// name, as BFCL sends dotted names to function-calling models; none when
// no name or several do.
func dottedName(names []string, name string) (string, bool) {
	match := ""
	for _, n := range names {
		if strings.Contains(n, ".") && strings.ReplaceAll(n, ".", "_") == name {
			if match != "" {
				return "", false
			}
			match = n
		}
	}
	return match, match != ""
}

// FunctionName is the documented function a function-calling model's
// call names (see [CheckFunctionCalling]): called itself when the docs
// have a function of that name, else the one dotted function whose "_"
// form called is. ok is false when there is none, or several.
func FunctionName(docs any, called string) (documented string, ok bool) {
	names := docNames(docs)
	if slices.Contains(names, called) {
		return called, true
	}
	return dottedName(names, called)
}

// docNames returns the names of the function docs: a list of docs, or
// one doc.
func docNames(docs any) []string {
	list, ok := docs.([]any)
	if !ok {
		list = []any{docs}
	}
	var names []string
	for _, d := range list {
		if n, ok := docName(d); ok {
			names = append(names, n)
		}
	}
	return names
}

func docName(doc any) (string, bool) {
	o, ok := doc.(jsonvalue.Object)
	if !ok {
		return "", false
	}
	v, _ := o.Get("name")
	n, ok := v.(string)
	return n, ok
}
