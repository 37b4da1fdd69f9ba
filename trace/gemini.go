package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "gemini",
		keys: []string{"candidates", "contents", "parts", "role"},
		read: readGemini,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("candidates") || o.Has("contents"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			switch {
			case o.Has("candidates"):
				return decisive
			case o.Has("parts"):
				if partsOf(list(o, "parts")) == "gemini" {
					return decisive
				}
			}
			return when(str(o, "role") == "model", weak)
		}),
	})
}

// partsOf tells the parts of a Gemini content from the parts of a GenAI
// (OpenTelemetry) message: the first part that is an object with a type
// is GenAI's ("otel_genai"), the first with a Gemini key Gemini's.
func partsOf(parts []any) string {
	for _, p := range parts {
		po, ok := p.(jsonvalue.Object)
		switch {
		case !ok:
		case po.Has("type"):
			return "otel_genai"
		case hasAny(po, "functionCall", "functionResponse", "function_call", "function_response", "text", "inlineData", "executableCode"):
			return "gemini"
		}
	}
	return ""
}

// readGemini reads Gemini / Vertex AI generateContent: a response body
// {"candidates"}, a request body {"contents"}, a list of contents, or
// streamed chunks (a list of responses, as an alt=sse body or a
// streamGenerateContent array gives them). Keys may be camelCase or
// snake_case (SDK dumps).
//
// Gemini 3 streams a call's arguments when asked to: a functionCall
// {"name", "willContinue": true} opens the call, functionCall parts
// {"partialArgs": [{"jsonPath", "stringValue" | "numberValue" | "boolValue"
// | "nullValue", "willContinue"}], "willContinue": true} give its arguments
// piece by piece (a string value continued over several pieces is joined),
// and an empty functionCall {} (or one without willContinue) closes it.
//
// functionCall parts are calls and functionResponse parts their results
// (the response object as given), linked by id when both have one, else by
// name and order; a response holding "error" (Gemini's key for a failed
// call's details) is a failed result. executableCode parts are built-in
// code_execution calls answered by codeExecutionResult parts, failed when
// the outcome is not OUTCOME_OK. Other parts (text, thought signatures)
// are not calls. A user content (role "user", or none in a request) with
// parts other than functionResponse opens a turn.
func readGemini(b *builder, v any) error {
	gs := &geminiStream{open: -1}
	defer gs.close(b)
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			if !has(e, "candidates") && !has(e, "contents") && !has(e, "parts") {
				return wantError("a generateContent response chunk or a content {\"role\", \"parts\"} at "+index("", i), e)
			}
			if err := geminiValue(b, gs, e, index("", i)); err != nil {
				return err
			}
		}
		return nil
	case jsonvalue.Object:
		if v.Has("candidates") || v.Has("contents") || v.Has("parts") {
			return geminiValue(b, gs, v, "")
		}
	}
	return wantError("a generateContent request, response, content list or stream chunks", v)
}

// geminiValue reads a response, a request or one content.
func geminiValue(b *builder, gs *geminiStream, v any, path string) error {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return fieldError(path, "want an object, got %s", jsonvalue.Kind(v))
	}
	if cands, ok := o.Get("candidates"); ok {
		l, _ := cands.([]any)
		for i, c := range l {
			p := join(index(join(path, "candidates"), i), "content")
			if err := geminiParts(b, gs, list(get(c, "content"), "parts"), join(p, "parts")); err != nil {
				return err
			}
		}
		return nil
	}
	if contents, ok := o.Get("contents"); ok {
		l, ok := contents.([]any)
		if !ok {
			return fieldError(join(path, "contents"), "want a list, got %s", jsonvalue.Kind(contents))
		}
		for i, c := range l {
			p := index(join(path, "contents"), i)
			if r := str(c, "role"); (r == "user" || r == "") && ownContent(list(c, "parts"), geminiResult) {
				b.userTurn(get(c, "parts"))
			}
			if err := geminiParts(b, gs, list(c, "parts"), join(p, "parts")); err != nil {
				return err
			}
		}
		return nil
	}
	return geminiParts(b, gs, list(o, "parts"), join(path, "parts"))
}

func geminiParts(b *builder, gs *geminiStream, parts []any, path string) error {
	b.saw()
	for i, p := range parts {
		part, ok := p.(jsonvalue.Object)
		if !ok {
			continue
		}
		pp := index(path, i)
		if fc, ok := first(part, "functionCall", "function_call"); ok {
			if handled, err := gs.part(b, fc, join(pp, "functionCall")); handled || err != nil {
				return err
			}
			n, err := name(fc, "name", join(pp, "functionCall"))
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n, ID: id(get(fc, "id"))}
			args(&c, fc, "args")
			b.add(fc, c)
			continue
		}
		if fr, ok := first(part, "functionResponse", "function_response"); ok {
			// Gemini's convention: "error" holds a failed call's details.
			resp := get(fr, "response")
			b.link(join(pp, "functionResponse"), id(get(fr, "id")), str(fr, "name"), resp, get(resp, "error") != nil)
			continue
		}
		if code, ok := first(part, "executableCode", "executable_code"); ok {
			b.add(part, toolgrade.Call{Name: "code_execution", Type: "code_execution", Args: code})
			continue
		}
		if res, ok := first(part, "codeExecutionResult", "code_execution_result"); ok {
			o := str(res, "outcome") // OUTCOME_FAILED, OUTCOME_DEADLINE_EXCEEDED fail
			b.link(pp, "", "code_execution", res, o != "" && o != "OUTCOME_OK")
			continue
		}
		if !hasAny(part, geminiPlainParts...) {
			b.skip(part, pp, "part with keys %s", quoteKeys(part))
		}
	}
	return nil
}

// geminiResult reports a functionResponse part (see [ownContent]).
func geminiResult(part any) bool {
	o, ok := part.(jsonvalue.Object)
	return ok && hasAny(o, "functionResponse", "function_response")
}

// geminiPlainParts are the keys of parts that hold no call or result.
var geminiPlainParts = []string{"text", "inlineData", "inline_data", "fileData", "file_data",
	"thought", "thoughtSignature", "thought_signature", "videoMetadata", "video_metadata"}
