package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// maxObjectTries bounds how many "{" ParseVerdict tries, so that a long
// reply full of braces costs linear time, not quadratic.
const maxObjectTries = 64

// ParseVerdict reads a judge's reply: a JSON object
//
//	{"score": <number in [0, 1]>, "reason": "<why>"}
//
// It tolerates what models wrap around the object when an endpoint cannot
// enforce a format: Markdown code fences, prose before or after, other
// keys, a score written as a string ("0.75"). The JSON object in the text
// with a "score" key is the verdict. A reply without one, with a score
// that is not a number in [0, 1], with two verdicts that differ (a draft
// and a final one: which is meant?) or a verdict that gives a key twice,
// is an error: a failed judgment is never read as some default score, nor
// as one of two.
func ParseVerdict(text string) (Verdict, error) {
	var found *Verdict
	var foundRaw []byte
	tries := 0
	for i := strings.IndexByte(text, '{'); i >= 0; tries++ {
		if tries == maxObjectTries {
			if found == nil {
				break
			}
			// Too many braces after the verdict to look at each: another
			// verdict would have to name its score.
			if rest := text[i:]; strings.Contains(rest, "score") || strings.Contains(rest, `\u`) {
				return Verdict{}, fmt.Errorf("judge reply has a verdict and too much JSON after it to tell whether it gives another: %s", quoteShort(text, 200))
			}
			break
		}
		next := i + 1
		raw := firstValue(text[i:])
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) == nil {
			if rawScore, ok := obj["score"]; ok {
				if _, err := jsonvalue.Parse(raw); err != nil {
					return Verdict{}, fmt.Errorf("judge reply's verdict %s is not one JSON object: %v", quoteShort(string(raw), 80), err)
				}
				v, err := verdictFrom(rawScore, obj["reason"])
				switch {
				case found == nil && err != nil:
					return Verdict{}, err
				case found == nil:
					found, foundRaw = &v, raw
				case err != nil || v.Score != found.Score || v.Reason != found.Reason:
					return Verdict{}, fmt.Errorf("judge reply has two verdicts, %s and %s: a reply gives one", quoteShort(string(foundRaw), 80), quoteShort(string(raw), 80))
				}
				next = i + len(raw) // past the verdict, braces in its reason too
			}
		}
		j := strings.IndexByte(text[next:], '{')
		if j < 0 {
			break
		}
		i = next + j
	}
	if found != nil {
		return *found, nil
	}
	return Verdict{}, fmt.Errorf("judge reply has no JSON verdict {\"score\": ..., \"reason\": ...}: %s", quoteShort(text, 200))
}

// firstValue returns the JSON value at the start of s, up to where a
// decoder stops, ignoring what follows it.
func firstValue(s string) []byte {
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return nil
	}
	return raw
}

func verdictFrom(rawScore, rawReason json.RawMessage) (Verdict, error) {
	// Not json.Unmarshal into a float64: it reads null as 0 without error.
	var x any
	dec := json.NewDecoder(bytes.NewReader(rawScore))
	dec.UseNumber()
	dec.Decode(&x)
	var num string
	switch x := x.(type) {
	case json.Number:
		num = string(x)
	case string:
		num = strings.TrimSpace(x)
	}
	score, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return Verdict{}, fmt.Errorf("judge score %s is not a number", quoteShort(string(rawScore), 40))
	}
	if math.IsNaN(score) || score < 0 || score > 1 {
		return Verdict{}, fmt.Errorf("judge score %s is outside [0, 1]", quoteShort(string(rawScore), 40))
	}
	v := Verdict{Score: score}
	if len(rawReason) > 0 && json.Unmarshal(rawReason, &v.Reason) != nil {
		v.Reason = string(rawReason) // not a string: keep its JSON text
	}
	return v, nil
}

// quoteShort quotes s for an error message, cut to about n bytes.
func quoteShort(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
