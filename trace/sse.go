package trace

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// errNotLines says the input is not JSON Lines: it has one line, or its
// first line is not a JSON value by itself (a pretty-printed document).
var errNotLines = errors.New("not JSON Lines")

// jsonLines reads one JSON value per non-blank line.
func jsonLines(data []byte) ([]any, error) {
	var values []any
	lineNo := 0
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		v, err := jsonvalue.Parse(line)
		if err != nil {
			if len(values) == 0 {
				return nil, errNotLines
			}
			return nil, fmt.Errorf("line %d: %w", lineNo, err)
		}
		values = append(values, v)
	}
	if len(values) < 2 {
		return nil, errNotLines
	}
	return values, nil
}

// sseEvents reads a text/event-stream body: the JSON data of each event,
// in order, up to "data: [DONE]". ok is false when data is not an event
// stream (its first line is not an SSE field).
func sseEvents(data []byte) (events []any, ok bool, err error) {
	var payload []byte
	dataLines := 0
	lineNo, eventLine := 0, 0
	dispatch := func() error {
		defer func() { payload, dataLines = payload[:0], 0 }()
		if dataLines == 0 {
			return nil
		}
		p := bytes.TrimSpace(payload)
		if len(p) == 0 {
			return nil
		}
		v, err := jsonvalue.Parse(p)
		if err == nil {
			events = append(events, v)
			return nil
		}
		if dataLines > 1 {
			// data: lines with no blank line between them, as logs often
			// keep streams: one JSON value per line.
			if lines, lerr := jsonLines(p); lerr == nil {
				events = append(events, lines...)
				return nil
			}
		}
		return fmt.Errorf("event at line %d: %w", eventLine, err)
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		lineNo++
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			if err := dispatch(); err != nil {
				return nil, true, err
			}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if bytes.Equal(bytes.TrimSpace(value), []byte("[DONE]")) {
				if rest := bytes.TrimLeft(data, " \t\r\n"); len(rest) > 0 {
					// Another stream, or a trace of another kind,
					// after the end: its calls would go unread.
					at := lineNo + 1 + bytes.Count(data[:len(data)-len(rest)], []byte("\n"))
					return nil, true, fmt.Errorf("line %d: more after the stream's end (data: [DONE] at line %d): %q", at, lineNo, shorten(string(rest)))
				}
				return events, true, dispatch()
			}
			if dataLines == 0 {
				eventLine = lineNo
			} else {
				payload = append(payload, '\n')
			}
			payload = append(payload, value...)
			dataLines++
		case "", "event", "id", "retry":
			// A comment (": ...") or a field that carries no data.
		default:
			if lineNo == 1 {
				return nil, false, nil
			}
			return nil, true, fmt.Errorf("line %d: want an event-stream field (data:, event:, id:, retry:), got %q", lineNo, shorten(string(line)))
		}
	}
	if lineNo == 0 {
		return nil, false, nil
	}
	return events, true, dispatch()
}

func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}
