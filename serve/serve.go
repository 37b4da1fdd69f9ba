package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/secret"
)

// A Server answers requests; the zero value is ready. A Server serves one
// stream at a time.
type Server struct {
	// Workers is the number of cases graded at once within a request
	// (0: one per CPU).
	Workers int
	// Getenv reads the environment for a judge's key (nil: os.Getenv).
	Getenv func(string) string
	// Version is what the version op answers.
	Version string
	// MaxLine is the most bytes one request line may hold (0:
	// budget.DefaultLine, 64 MiB). A longer line is answered with an
	// error, unread, and the next line is served.
	MaxLine int64

	// What a request's judge may use of the host, which is the host's
	// choice and never a request's (see judge.go): JudgeKeyEnvs are the
	// environment variables a judge's key may be read from (nil:
	// OPENAI_API_KEY), JudgeBaseURLs the endpoints a judge may be sent to
	// (nil: OpenAI's API). A request's base_url must be one of them, or
	// below one (the same scheme, host and port, a path under its path).
	JudgeKeyEnvs  []string
	JudgeBaseURLs []string
	// CacheDir is the judges' reply cache ("": toolgrade in the user's
	// cache directory); NoCache turns it off. A request may turn it off,
	// not move it.
	CacheDir string
	NoCache  bool
	// Warn, if set, is told (once) when the cache cannot be written.
	Warn func(msg string)

	metrics map[string]servedConfig
	// secrets are the keys the judges read: every response is scrubbed
	// of them.
	secrets *secret.Set
}

// Serve answers the request lines of in on out until in ends (a nil
// error) or ctx is done. It returns the error of reading in or writing
// out; a request it cannot serve is answered with an error response.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	if s.secrets == nil {
		s.secrets = &secret.Set{}
	}
	limit := budget.Sizes{Line: s.MaxLine}.LineOr()
	lr := jsonvalue.NewLineReader(in)
	lr.Limit(int(limit))
	w := bufio.NewWriterSize(out, 1<<16)
	for n := 1; ; n++ {
		line, readErr := lr.Next()
		var resp []byte
		switch {
		case errors.Is(readErr, jsonvalue.ErrLineTooLong):
			resp = errorResponse(nil, &budget.Error{Name: "standard input", Line: n, What: "line", Limit: limit, Flag: budget.LineFlag})
		case readErr == io.EOF:
			return nil
		case readErr != nil:
			return readErr
		default:
			if t := bytes.TrimSpace([]byte(line)); len(t) > 0 {
				resp = s.secrets.Bytes(s.handle(ctx, t))
			}
		}
		if resp != nil {
			if _, err := w.Write(append(resp, '\n')); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// requestError is a request that could not be served; Field names the
// part of the request at fault.
type requestError struct {
	Field string
	Err   error
}

func (e *requestError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

func badField(field string, format string, args ...any) error {
	return &requestError{Field: field, Err: fmt.Errorf(format, args...)}
}

// handle answers one request line; it never panics.
func (s *Server) handle(ctx context.Context, line []byte) (resp []byte) {
	var id any
	defer func() {
		if p := recover(); p != nil {
			resp = errorResponse(id, fmt.Errorf("internal error: %v\n%s", p, debug.Stack()))
		}
	}()
	v, err := jsonvalue.Parse(line)
	if err != nil {
		return errorResponse(nil, fmt.Errorf("request is not valid JSON: %w", err))
	}
	req, ok := v.(jsonvalue.Object)
	if !ok {
		return errorResponse(nil, fmt.Errorf("want a request object, got %s", jsonvalue.Kind(v)))
	}
	id, _ = req.Get("id")
	op, _ := req.Get("op")
	if err := checkRequestKeys(req, op); err != nil {
		return errorResponse(id, err)
	}
	var body []byte
	switch op {
	case "evaluate":
		body, err = s.evaluate(ctx, req)
	case "extract":
		body, err = extract(req)
	case "config":
		body, err = readConfig(req)
	case "version":
		body = append([]byte(`"result":{"version":`), jsonvalue.AppendString(nil, s.Version)...)
		body = append(body, '}')
	default:
		err = badField("op", "want one of evaluate, extract, config, version, got %s", jsonvalue.Format(op))
	}
	if err != nil {
		return errorResponse(id, err)
	}
	b := []byte{'{'}
	if id != nil {
		b = append(b, `"id":`...)
		b = jsonvalue.Append(b, id)
		b = append(b, ',')
	}
	b = append(b, body...)
	return append(b, '}')
}

// requestKeys are the keys each op takes besides "op" and "id".
var requestKeys = map[string][]string{
	"evaluate": {"config", "cases", "offset"},
	"extract":  {"trace", "format"},
	"config":   {"path", "datasets"},
	"version":  nil,
}

// checkRequestKeys rejects a key the request's op does not take, so that
// a misspelled one is not ignored. An unknown op is left to handle.
func checkRequestKeys(req jsonvalue.Object, op any) error {
	name, _ := op.(string)
	keys, known := requestKeys[name]
	if !known {
		return nil
	}
	for _, m := range req {
		if m.Key == "op" || m.Key == "id" || slices.Contains(keys, m.Key) {
			continue
		}
		if near, ok := suggest.Nearest(m.Key, keys); ok {
			return badField(m.Key, "unknown key for op %s; did you mean %q?", name, near)
		}
		if len(keys) == 0 {
			return badField(m.Key, "unknown key: op %s takes only op and id", name)
		}
		return badField(m.Key, "unknown key for op %s (want %s, op, id)", name, strings.Join(keys, ", "))
	}
	return nil
}

func errorResponse(id any, err error) []byte {
	b := []byte{'{'}
	if id != nil {
		b = append(b, `"id":`...)
		b = jsonvalue.Append(b, id)
		b = append(b, ',')
	}
	b = append(b, `"error":`...)
	b = jsonvalue.AppendString(b, err.Error())
	field := ""
	var re *requestError
	var fe *toolgrade.FieldError
	switch {
	case errors.As(err, &re) && re.Field != "":
		field = re.Field
		if errors.As(re.Err, &fe) {
			field += "." + fe.Path
		}
	case errors.As(err, &fe):
		field = fe.Path
	}
	if field != "" {
		b = append(b, `,"field":`...)
		b = jsonvalue.AppendString(b, field)
	}
	return append(b, '}')
}
