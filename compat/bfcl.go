package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// BFCLOptions configure the bfcl profile. The JSON names are the keys of a
// metric entry, as in BFCL's conformance data:
//
//	metrics:
//	  - profile: bfcl
//	    category: live_parallel_multiple
//	    language: python
type BFCLOptions struct {
	// Category is BFCL's test category ("simple_python", "multiple",
	// "live_parallel", ...); the checker dispatches on it: a name with
	// "parallel" gets the unordered parallel check, else one with
	// "multiple" the multiple check, else the simple check. When empty it
	// comes from each case's BFCL id (bfcl_id, else the case id without a
	// "#k" suffix), as BFCL derives it.
	Category string `json:"category,omitempty"`
	// Language is "python", "java" or "javascript"; when empty it comes
	// from the category, as in BFCL.
	Language string `json:"language,omitempty"`
}

// BFCL reproduces the AST checker of the Berkeley Function Calling
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
// bfcl, and in [BFCLCheck].
type BFCL struct {
	opts BFCLOptions
}

// NewBFCL checks the options and returns the profile.
func NewBFCL(opts BFCLOptions) (*BFCL, error) {
	switch opts.Language {
	case "", "python", "java", "javascript":
	default:
		return nil, fmt.Errorf("language: unknown value %q (want python, java or javascript)", opts.Language)
	}
	return &BFCL{opts: opts}, nil
}

// Name returns "tool_correctness".
func (m *BFCL) Name() string { return "tool_correctness" }

// Profile returns "bfcl".
func (m *BFCL) Profile() string { return "bfcl" }

// Grade checks the case's calls as BFCL's AST checker does.
func (m *BFCL) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(1)}
	category := m.opts.Category
	if category == "" {
		category = BFCLCategory(bfclEntryID(c))
		if category == "" {
			r.Error = "bfcl: no category: set the category option, or give the case its BFCL id (bfcl_id)"
			return r
		}
	}
	language := m.opts.Language
	if language == "" {
		language = BFCLLanguage(category)
	}
	answer, ok := c.Raw.Get("possible_answer")
	if !ok {
		if answer, ok = c.Raw.Get("ground_truth"); !ok {
			r.Error = "bfcl: the case has no possible_answer"
			return r
		}
	}
	docs := c.AvailableTools
	if docs == nil {
		docs, _ = c.Raw.Get("function")
	}
	v, err := BFCLCheck(category, language, docs, answer, c.Called)
	if err != nil {
		r.Error = "bfcl: " + err.Error()
		return r
	}
	if v.Valid {
		r.Score, r.Success, r.Reason = 1, true, "valid"
		return r
	}
	r.Reason = v.ErrorType + ": " + v.Message
	return r
}

// bfclEntryID is the BFCL id of a case: bfcl_id, else the case id up to a
// "#" (the conformance data's candidate suffix).
func bfclEntryID(c *toolgrade.Case) string {
	if id, ok := c.Raw.Get("bfcl_id"); ok {
		if s, ok := id.(string); ok {
			return s
		}
	}
	id, _, _ := strings.Cut(c.ID, "#")
	return id
}

// BFCLCategory is the test category of a BFCL entry id, as BFCL derives
// it: everything before the last underscore ("live_multiple_862-181-3" →
// "live_multiple"). It is "" for an id without an underscore.
func BFCLCategory(id string) string {
	i := strings.LastIndexByte(id, '_')
	if i < 0 {
		return ""
	}
	return id[:i]
}

// BFCLLanguage is the language of a BFCL category: javascript for a name
// containing "javascript", else java for one containing "java", else
// python.
func BFCLLanguage(category string) string {
	switch {
	case strings.Contains(category, "javascript"):
		return "javascript"
	case strings.Contains(category, "java"):
		return "java"
	}
	return "python"
}

// A BFCLVerdict is the AST checker's verdict on one entry.
type BFCLVerdict struct {
	Valid bool
	// ErrorType is BFCL's error_type ("value_error:string",
	// "parallel_function_checker_no_order:cannot_find_match", ...); empty
	// when valid.
	ErrorType string
	// Message says what failed, in words.
	Message string
}

// BFCLCheck runs BFCL's AST checker on one entry: the category and
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
func BFCLCheck(category, language string, docs, possibleAnswer any, calls []toolgrade.Call) (BFCLVerdict, error) {
	out := make([]bfclOutput, len(calls))
	for i, c := range calls {
		if c.Invalid {
			return bfclFail("ast_decoder:decoder_failed", "call %d (%s): arguments are not valid JSON", i, c.Name), nil
		}
		args := c.Args
		if args == nil {
			args = jsonvalue.Object{}
		}
		obj, ok := args.(jsonvalue.Object)
		if !ok {
			return bfclFail("ast_decoder:decoder_wrong_output_format", "call %d (%s): arguments are %s, not an object", i, c.Name, jsonvalue.Kind(args)), nil
		}
		out[i] = bfclOutput{name: c.Name, args: obj}
	}
	k := bfclChecker{language: language}
	switch language {
	case "python", "java", "javascript":
	default:
		return BFCLVerdict{}, fmt.Errorf("unsupported language %q", language)
	}
	answers, ok := possibleAnswer.([]any)
	if !ok {
		return BFCLVerdict{}, fmt.Errorf("possible answer: want a list of {function: {param: [values]}}, got %s", jsonvalue.Kind(possibleAnswer))
	}
	var v BFCLVerdict
	var err error
	switch {
	case strings.Contains(category, "parallel"):
		v, err = k.parallel(docs, out, answers)
	case strings.Contains(category, "multiple"):
		v, err = k.multiple(docs, out, answers)
	default:
		if len(out) != 1 {
			v = bfclFail("simple_function_checker:wrong_count", "want exactly 1 call, got %d", len(out))
			break
		}
		var doc any
		if doc, err = bfclIndex(docs, 0, "function docs"); err == nil {
			var ans any
			if ans, err = bfclIndex(answers, 0, "possible answer"); err == nil {
				v, err = k.single(doc, out[0], ans)
			}
		}
	}
	if err != nil {
		return BFCLVerdict{}, err
	}
	return v, nil
}

// A bfclOutput is one model call: BFCL's {name: {param: value}}.
type bfclOutput struct {
	name string
	args jsonvalue.Object
}

var bfclOK = BFCLVerdict{Valid: true}

func bfclFail(errType, format string, args ...any) BFCLVerdict {
	return BFCLVerdict{ErrorType: errType, Message: fmt.Sprintf(format, args...)}
}

// bfclRaise is input on which BFCL's checker raises: errors, not verdicts.
func bfclRaise(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

type bfclChecker struct {
	language string
}

// The doc types each language's checker knows, and the Python type of a
// value of that type (after the literal converters for Java and
// JavaScript).
var (
	bfclPythonTypes = map[string]bfclKind{
		"string": bfclStr, "integer": bfclInt, "float": bfclFloat, "boolean": bfclBool,
		"array": bfclList, "tuple": bfclList, "dict": bfclDict, "any": bfclStr,
	}
	bfclJavaTypes = map[string]bfclKind{
		"byte": bfclInt, "short": bfclInt, "integer": bfclInt, "float": bfclFloat, "double": bfclFloat,
		"long": bfclInt, "boolean": bfclBool, "char": bfclStr, "Array": bfclList, "ArrayList": bfclList,
		"Set": bfclSet, "HashMap": bfclDict, "Hashtable": bfclDict, "Queue": bfclList, "Stack": bfclList,
		"String": bfclStr, "any": bfclStr,
	}
	bfclJSTypes = map[string]bfclKind{
		"String": bfclStr, "integer": bfclInt, "float": bfclFloat, "Bigint": bfclInt, "Boolean": bfclBool,
		"dict": bfclDict, "array": bfclList, "any": bfclStr,
	}
)

func (k *bfclChecker) types() map[string]bfclKind {
	switch k.language {
	case "java":
		return bfclJavaTypes
	case "javascript":
		return bfclJSTypes
	}
	return bfclPythonTypes
}

// nested reports doc types whose elements are type-checked too.
func (k *bfclChecker) nested(docType string) bool {
	if k.language == "python" {
		return docType == "array" || docType == "tuple"
	}
	return docType == "Array" || docType == "ArrayList" || docType == "array"
}

// bfclFindDoc returns the doc of the named function, or nil (BFCL then fails
// on the missing doc).
func bfclFindDoc(docs any, name any) (any, error) {
	list, ok := docs.([]any)
	if !ok {
		return docs, nil // a single doc
	}
	for _, d := range list {
		dn, err := bfclGetKey(d, "name", "function doc")
		if err != nil {
			return nil, err
		}
		if pyEqual(dn, name) {
			return d, nil
		}
	}
	return nil, bfclRaise("no function doc named %s", jsonvalue.Format(name))
}

// bfclFirstKey returns the first key of a ground-truth entry {function:
// params}.
func bfclFirstKey(answer any) (jsonvalue.Member, error) {
	obj, ok := answer.(jsonvalue.Object)
	if !ok {
		return jsonvalue.Member{}, bfclRaise("possible answer entry: want {function: {param: [values]}}, got %s", jsonvalue.Kind(answer))
	}
	if len(obj) == 0 {
		return jsonvalue.Member{}, bfclRaise("possible answer entry is empty")
	}
	return obj[0], nil
}

func (k *bfclChecker) multiple(docs any, out []bfclOutput, answers []any) (BFCLVerdict, error) {
	if len(out) != len(answers) {
		return bfclFail("multiple_function_checker:wrong_count", "want %d call(s), got %d", len(answers), len(out)), nil
	}
	if len(answers) == 0 {
		return BFCLVerdict{}, bfclRaise("possible answer is empty")
	}
	first, err := bfclFirstKey(answers[0])
	if err != nil {
		return BFCLVerdict{}, err
	}
	doc, err := bfclFindDoc(docs, first.Key)
	if err != nil {
		return BFCLVerdict{}, err
	}
	return k.single(doc, out[0], answers[0])
}

func (k *bfclChecker) parallel(docs any, out []bfclOutput, answers []any) (BFCLVerdict, error) {
	if len(out) != len(answers) {
		return bfclFail("parallel_function_checker_no_order:wrong_count", "want %d calls, got %d", len(answers), len(out)), nil
	}
	used := make([]bool, len(out))
	for i, a := range answers {
		first, err := bfclFirstKey(a)
		if err != nil {
			return BFCLVerdict{}, err
		}
		doc, err := bfclFindDoc(docs, first.Key)
		if err != nil {
			return BFCLVerdict{}, err
		}
		var tried []string
		found := false
		for j := range out {
			if used[j] {
				continue
			}
			r, err := k.single(doc, out[j], a)
			if err != nil {
				return BFCLVerdict{}, err
			}
			if r.Valid {
				used[j], found = true, true
				break
			}
			tried = append(tried, fmt.Sprintf("call %d: %s: %s", j, r.ErrorType, r.Message))
		}
		if !found {
			return bfclFail("parallel_function_checker_no_order:cannot_find_match",
				"no unmatched call fits expected call %d (%s): %s", i, first.Key, strings.Join(tried, "; ")), nil
		}
	}
	return bfclOK, nil
}

// single is BFCL's simple_function_checker: one call against one doc and
// one ground-truth entry.
func (k *bfclChecker) single(doc any, out bfclOutput, answer any) (BFCLVerdict, error) {
	entry, err := bfclFirstKey(answer)
	if err != nil {
		return BFCLVerdict{}, err
	}
	options, ok := entry.Value.(jsonvalue.Object)
	if !ok {
		return BFCLVerdict{}, bfclRaise("possible answer of %s: want {param: [values]}, got %s", entry.Key, jsonvalue.Kind(entry.Value))
	}
	name, err := bfclGetKey(doc, "name", "function doc")
	if err != nil {
		return BFCLVerdict{}, err
	}
	params, err := bfclGetKey(doc, "parameters", "function doc")
	if err != nil {
		return BFCLVerdict{}, err
	}
	props, err := bfclGetKey(params, "properties", "parameters")
	if err != nil {
		return BFCLVerdict{}, err
	}
	required, err := bfclGetKey(params, "required", "parameters")
	if err != nil {
		return BFCLVerdict{}, err
	}

	// 1. The name, compared exactly (no "." → "_" rewrite).
	if ns, ok := name.(string); !ok || ns != out.name {
		if !ok && !bfclHashable(name) {
			return BFCLVerdict{}, bfclRaise("function doc name %s is not hashable", jsonvalue.Format(name))
		}
		return bfclFail("simple_function_checker:wrong_func_name", "function %s not found in the output (called %q)", jsonvalue.Format(name), out.name), nil
	}
	// 2. Required parameters, in the doc's order.
	reqs, err := bfclIter(required)
	if err != nil {
		return BFCLVerdict{}, err
	}
	for _, p := range reqs {
		in, err := bfclContains(out.args, p)
		if err != nil {
			return BFCLVerdict{}, err
		}
		if !in {
			return bfclFail("simple_function_checker:missing_required", "missing required parameter %s", jsonvalue.Format(p)), nil
		}
	}
	// 3. Each argument in the call's order: known, then type, then value.
	for _, arg := range out.args {
		inDoc, err := bfclContains(props, arg.Key)
		if err != nil {
			return BFCLVerdict{}, err
		}
		if !inDoc || !options.Has(arg.Key) {
			return bfclFail("simple_function_checker:unexpected_param", "unexpected parameter %q", arg.Key), nil
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
		optional, err := bfclContains(o.Value, "")
		if err != nil {
			return BFCLVerdict{}, err
		}
		if !optional {
			return bfclFail("simple_function_checker:missing_optional", "parameter %q is missing and the ground truth does not mark it optional", o.Key), nil
		}
	}
	return bfclOK, nil
}

// param checks one argument's type and value.
func (k *bfclChecker) param(name string, value, props any, options jsonvalue.Object) (BFCLVerdict, error) {
	detail, err := bfclGetKey(props, name, "properties")
	if err != nil {
		return BFCLVerdict{}, err
	}
	typ, err := bfclGetKey(detail, "type", "parameter "+name)
	if err != nil {
		return BFCLVerdict{}, err
	}
	docType, ok := typ.(string)
	if !ok {
		return BFCLVerdict{}, bfclRaise("parameter %s: doc type %s is not a type name", name, jsonvalue.Format(typ))
	}
	expected, ok := k.types()[docType]
	if !ok {
		return BFCLVerdict{}, bfclRaise("parameter %s: BFCL's %s checker has no type %q", name, k.language, docType)
	}
	nested := bfclNone
	if k.language != "python" {
		s, isString := value.(string)
		if !isString {
			errType := "type_error:java"
			if k.language == "javascript" {
				errType = "type_error:js"
			}
			return bfclFail(errType, "parameter %q: want the %s literal as a string, got %s", name, docType, bfclTypeName(value)), nil
		}
		itemType := ""
		if k.nested(docType) {
			if itemType, nested, err = k.itemType(name, detail); err != nil {
				return BFCLVerdict{}, err
			}
		}
		if k.language == "java" {
			value, err = bfclJava(s, docType, itemType)
		} else {
			value, err = bfclJS(s, docType, itemType)
		}
		if err != nil {
			return BFCLVerdict{}, fmt.Errorf("parameter %s: %w", name, err)
		}
	} else {
		if k.nested(docType) {
			if _, nested, err = k.itemType(name, detail); err != nil {
				return BFCLVerdict{}, err
			}
		}
		// Python converts an int to a float, at top level only.
		if docType == "float" && bfclKindOf(value) == bfclInt {
			n := string(value.(json.Number))
			if math.IsInf(jsonvalue.NumberFloat(json.Number(n)), 0) {
				return BFCLVerdict{}, bfclRaise("parameter %s: int too large to convert to float", name)
			}
			value = json.Number(n + ".0")
		}
	}

	opts, _ := options.Get(name)
	r, variable, err := bfclTypeCheck(name, value, opts, docType, expected, nested)
	if err != nil || !r.Valid {
		return r, err
	}
	if !variable {
		switch {
		case expected == bfclDict:
			return bfclDictCheck(name, value, opts)
		case expected == bfclList && nested == bfclDict:
			return bfclListDictCheck(name, value, opts)
		case expected == bfclStr:
			return bfclStringCheck(name, value.(string), opts)
		case expected == bfclList:
			return bfclListCheck(name, value.([]any), opts)
		}
	}
	in, err := bfclContains(opts, value)
	if err != nil {
		return BFCLVerdict{}, err
	}
	if !in {
		return bfclFail("value_error:others", "parameter %q: %s is not one of %s", name, bfclRepr(value), bfclRepr(opts)), nil
	}
	return bfclOK, nil
}

// itemType reads the doc's items type of an array parameter.
func (k *bfclChecker) itemType(name string, detail any) (string, bfclKind, error) {
	items, err := bfclGetKey(detail, "items", "parameter "+name)
	if err != nil {
		return "", bfclNone, err
	}
	t, err := bfclGetKey(items, "type", "parameter "+name+" items")
	if err != nil {
		return "", bfclNone, err
	}
	ts, ok := t.(string)
	if !ok {
		return "", bfclNone, bfclRaise("parameter %s: items type %s is not a type name", name, jsonvalue.Format(t))
	}
	kind, ok := k.types()[ts]
	if !ok {
		return "", bfclNone, bfclRaise("parameter %s: BFCL's %s checker has no items type %q", name, k.language, ts)
	}
	return ts, kind, nil
}

// bfclTypeCheck is BFCL's type_checker. The first option that is not ""
// may have another type than the doc's (a variable): then a value of that
// option's type passes too, and is compared by plain membership.
func bfclTypeCheck(name string, value, options any, docType string, expected, nested bfclKind) (r BFCLVerdict, variable bool, err error) {
	optType, hasOptType, err := bfclOptionType(options)
	if err != nil {
		return r, false, err
	}
	variable = hasOptType && optType != expected
	r = bfclOK
	kind := bfclKindOf(value)
	if kind == expected {
		if nested == bfclNone {
			return bfclOK, variable, nil
		}
		opts, err := bfclIter(options)
		if err != nil {
			return r, false, err
		}
		for _, opt := range opts {
			fits := true
			if list, ok := opt.([]any); ok {
				for _, item := range value.([]any) {
					ir, _, err := bfclTypeCheck(name, item, list, "", nested, bfclNone)
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
				return bfclOK, variable, nil
			}
		}
		r = bfclFail("type_error:nested", "parameter %q: the elements of %s are not all of type %s", name, bfclRepr(value), nested)
	}
	if hasOptType && kind == optType {
		return r, true, nil // valid, or the nested failure above
	}
	return bfclFail("type_error:simple", "parameter %q: want type %s, got %s (%s)", name, bfclDocTypeName(docType, expected), kind, bfclRepr(value)), false, nil
}

func bfclDocTypeName(docType string, k bfclKind) string {
	if docType != "" {
		return docType
	}
	return k.String()
}

// bfclOptionType is BFCL's get_possible_answer_type: the type of the first
// option that is not the empty string.
func bfclOptionType(options any) (bfclKind, bool, error) {
	opts, err := bfclIter(options)
	if err != nil {
		return bfclNone, false, err
	}
	for _, o := range opts {
		if o != "" {
			return bfclKindOf(o), true, nil
		}
	}
	return bfclNone, false, nil
}

// bfclNormalize is BFCL's standardize_string: delete ASCII space and
// , . / - _ * ^, lower-case (Python's str.lower), and turn ' into ".
func bfclNormalize(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(pyLower(s), "'", `"`)
}

// bfclNormalizeAll normalizes the string elements of a sequence (BFCL
// indexes options with range(len(x)), so a string option is its
// characters).
func bfclNormalizeAll(v any) ([]any, error) {
	elems, err := bfclIndexable(v)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(elems))
	for i, e := range elems {
		if s, ok := e.(string); ok {
			out[i] = bfclNormalize(s)
		} else {
			out[i] = e
		}
	}
	return out, nil
}

func bfclStringCheck(name, value string, options any) (BFCLVerdict, error) {
	opts, err := bfclIndexable(options)
	if err != nil {
		return BFCLVerdict{}, err
	}
	got := bfclNormalize(value)
	for _, o := range opts {
		if s, ok := o.(string); ok && bfclNormalize(s) == got {
			return bfclOK, nil
		}
	}
	return bfclFail("value_error:string", "parameter %q: %s is not one of %s (compared after normalization)", name, bfclRepr(value), bfclRepr(options)), nil
}

func bfclListCheck(name string, value []any, options any) (BFCLVerdict, error) {
	got, err := bfclNormalizeAll(value)
	if err != nil {
		return BFCLVerdict{}, err
	}
	opts, err := bfclIndexable(options)
	if err != nil {
		return BFCLVerdict{}, err
	}
	want := make([]any, len(opts))
	for i, o := range opts {
		l, err := bfclNormalizeAll(o)
		if err != nil {
			return BFCLVerdict{}, err
		}
		want[i] = l
	}
	for _, w := range want {
		if pyEqual(any(got), w) {
			return bfclOK, nil
		}
	}
	return bfclFail("value_error:list/tuple", "parameter %q: %s is not one of %s", name, bfclRepr(value), bfclRepr(options)), nil
}

// bfclDictCheck is BFCL's dict_checker: each option dict in turn ("" is
// skipped); the error of the last option tried is reported.
func bfclDictCheck(name string, value, options any) (BFCLVerdict, error) {
	opts, err := bfclIndexable(options)
	if err != nil {
		return BFCLVerdict{}, err
	}
	r := bfclFail("dict_checker:unclear", "parameter %q: no dict option to compare with", name)
	for _, opt := range opts {
		if opt == "" {
			continue
		}
		obj, ok := value.(jsonvalue.Object)
		if !ok {
			return BFCLVerdict{}, bfclRaise("parameter %s: %s has no items", name, bfclTypeName(value))
		}
		r = bfclFail("dict_checker:unclear", "parameter %q: no dict option to compare with", name)
		fits := true
		for _, m := range obj {
			in, err := bfclContains(opt, m.Key)
			if err != nil {
				return BFCLVerdict{}, err
			}
			if !in {
				r = bfclFail("value_error:dict_key", "parameter %q: unexpected key %q", name, m.Key)
				fits = false
				break
			}
			got := m.Value
			if s, ok := got.(string); ok {
				got = bfclNormalize(s)
			}
			keyOpts, err := bfclGetKey(opt, m.Key, "dict option")
			if err != nil {
				return BFCLVerdict{}, err
			}
			want, err := bfclNormalizeAll(keyOpts)
			if err != nil {
				return BFCLVerdict{}, err
			}
			if in, _ := bfclContains(want, got); !in {
				r = bfclFail("value_error:dict_value", "parameter %q: key %q: %s is not one of %s", name, m.Key, bfclRepr(m.Value), bfclRepr(keyOpts))
				fits = false
				break
			}
		}
		// BFCL checks the option's keys even when a key above failed, so
		// this error can replace that one.
		oo, ok := opt.(jsonvalue.Object)
		if !ok {
			return BFCLVerdict{}, bfclRaise("parameter %s: dict option %s has no items", name, bfclRepr(opt))
		}
		for _, om := range oo {
			if obj.Has(om.Key) {
				continue
			}
			optional, err := bfclContains(om.Value, "")
			if err != nil {
				return BFCLVerdict{}, err
			}
			if !optional {
				r = bfclFail("value_error:dict_key", "parameter %q: missing key %q", name, om.Key)
				fits = false
				break
			}
		}
		if fits {
			return bfclOK, nil
		}
	}
	return r, nil
}

// bfclListDictCheck is BFCL's list_dict_checker: the list must have an
// option's length and each element must fit the option's element at the
// same position.
func bfclListDictCheck(name string, value, options any) (BFCLVerdict, error) {
	list := value.([]any)
	opts, err := bfclIndexable(options)
	if err != nil {
		return BFCLVerdict{}, err
	}
	r := bfclFail("list_dict_checker:unclear", "parameter %q: no option to compare with", name)
	for _, opt := range opts {
		n, err := bfclLen(opt)
		if err != nil {
			return BFCLVerdict{}, err
		}
		if len(list) != n {
			r = bfclFail("value_error:list_dict_count", "parameter %q: %d dicts, want %d", name, len(list), n)
			continue
		}
		elems, err := bfclIndexable(opt)
		if err != nil {
			return BFCLVerdict{}, err
		}
		fits := true
		for i := range list {
			if r, err = bfclDictCheck(name, list[i], []any{elems[i]}); err != nil {
				return BFCLVerdict{}, err
			}
			if !r.Valid {
				fits = false
				break
			}
		}
		if fits {
			return bfclOK, nil
		}
	}
	return r, nil
}

// Python values, as BFCL's checker sees the JSON-decoded output.

type bfclKind int

const (
	bfclNone bfclKind = iota // NoneType; also "no type"
	bfclBool
	bfclInt
	bfclFloat
	bfclStr
	bfclList
	bfclDict
	bfclSet // only as a Java doc type; no value has it
)

func (k bfclKind) String() string {
	return [...]string{"NoneType", "bool", "int", "float", "str", "list", "dict", "set"}[k]
}

// bfclNaN is how the literal converters write a NaN (Python's float('nan'))
// in the value model, which has no NaN; it equals nothing, as in Python.
const bfclNaN = json.Number("NaN")

// bfclKindOf is Python's type() of a value decoded by json.loads: a number
// with ".", "e" or "E" is a float, any other number an int.
func bfclKindOf(v any) bfclKind {
	switch v := v.(type) {
	case nil:
		return bfclNone
	case bool:
		return bfclBool
	case json.Number:
		if v == bfclNaN || !jsonvalue.IsIntegerLiteral(string(v)) {
			return bfclFloat
		}
		return bfclInt
	case string:
		return bfclStr
	case []any:
		return bfclList
	case jsonvalue.Object:
		return bfclDict
	}
	return bfclNone
}

func bfclTypeName(v any) string { return bfclKindOf(v).String() }

// bfclHashable reports whether Python could use v as a dict key.
func bfclHashable(v any) bool {
	switch v.(type) {
	case []any, jsonvalue.Object:
		return false
	}
	return true
}

// bfclContains is Python's "item in container" for the containers JSON
// gives: a list (==), a string (substring; the item must be a string) or a
// dict (its keys; the item must be hashable).
func bfclContains(container, item any) (bool, error) {
	switch c := container.(type) {
	case []any:
		for _, e := range c {
			if pyEqual(e, item) {
				return true, nil
			}
		}
		return false, nil
	case string:
		s, ok := item.(string)
		if !ok {
			return false, bfclRaise("'in <string>' requires string as left operand, not %s", bfclTypeName(item))
		}
		return strings.Contains(c, s), nil
	case jsonvalue.Object:
		if !bfclHashable(item) {
			return false, bfclRaise("unhashable type: %s", bfclTypeName(item))
		}
		s, ok := item.(string)
		return ok && c.Has(s), nil
	}
	return false, bfclRaise("argument of type %s is not iterable", bfclTypeName(container))
}

// bfclIter is Python's "for x in v": a list's elements, a string's
// characters, a dict's keys.
func bfclIter(v any) ([]any, error) {
	switch v := v.(type) {
	case []any:
		return v, nil
	case string:
		return bfclChars(v), nil
	case jsonvalue.Object:
		keys := make([]any, len(v))
		for i, m := range v {
			keys[i] = m.Key
		}
		return keys, nil
	}
	return nil, bfclRaise("%s object is not iterable", bfclTypeName(v))
}

// bfclIndexable is "v[i] for i in range(len(v))": a list's elements, a
// string's characters; a non-empty dict raises (its keys are not 0, 1, ...).
func bfclIndexable(v any) ([]any, error) {
	switch v := v.(type) {
	case []any:
		return v, nil
	case string:
		return bfclChars(v), nil
	case jsonvalue.Object:
		if len(v) == 0 {
			return nil, nil
		}
		return nil, bfclRaise("KeyError: 0")
	}
	return nil, bfclRaise("object of type %s has no len()", bfclTypeName(v))
}

func bfclChars(s string) []any {
	out := make([]any, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// bfclLen is Python's len() for JSON values.
func bfclLen(v any) (int, error) {
	switch v := v.(type) {
	case []any:
		return len(v), nil
	case string:
		return len(bfclChars(v)), nil
	case jsonvalue.Object:
		return len(v), nil
	}
	return 0, bfclRaise("object of type %s has no len()", bfclTypeName(v))
}

// bfclIndex is v[i] for a list.
func bfclIndex(v any, i int, what string) (any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, bfclRaise("%s: want a list, got %s", what, jsonvalue.Kind(v))
	}
	if i >= len(l) {
		return nil, bfclRaise("%s: list index out of range", what)
	}
	return l[i], nil
}

// bfclGetKey is v[key] for a dict.
func bfclGetKey(v any, key, what string) (any, error) {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, bfclRaise("%s: want an object, got %s", what, jsonvalue.Kind(v))
	}
	val, ok := o.Get(key)
	if !ok {
		return nil, bfclRaise("%s: no key %q", what, key)
	}
	return val, nil
}

// bfclRepr writes a value for messages.
func bfclRepr(v any) string { return jsonvalue.Format(v) }
