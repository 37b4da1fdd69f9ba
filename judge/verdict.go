package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
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
// keys, a score written as a string ("0.75"). The first JSON object in the
// text with a "score" key is the verdict. A reply without one, or with a
// score that is not a number in [0, 1], is an error: a failed judgment is
// never read as some default score.
func ParseVerdict(text string) (Verdict, error) {
	tries := 0
	for i := strings.IndexByte(text, '{'); i >= 0 && tries < maxObjectTries; tries++ {
		var obj map[string]json.RawMessage
		if json.Unmarshal(firstValue(text[i:]), &obj) == nil {
			if raw, ok := obj["score"]; ok {
				return verdictFrom(raw, obj["reason"])
			}
		}
		next := strings.IndexByte(text[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
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
