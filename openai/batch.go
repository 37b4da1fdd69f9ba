package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"time"

	"github.com/toolgrade/toolgrade"
)

// Defaults of [BatchOptions].
const (
	DefaultPollInterval = 30 * time.Second
	DefaultMaxPolls     = 120
)

// cancelPolls bounds the polls that wait for a cancelled batch to settle,
// so that its finished requests are not lost.
const cancelPolls = 10

// BatchOptions configure [Client.Batch].
type BatchOptions struct {
	// PollInterval is the wait between status checks (default 30s).
	PollInterval time.Duration
	// MaxPolls bounds the status checks (default 120). A batch still
	// running then is cancelled.
	MaxPolls int
	// Log, if set, receives one line per step (upload, creation, each
	// poll, the outcome).
	Log func(msg string)
}

// A BatchReport says what [Client.Batch] did.
type BatchReport struct {
	ID       string // the batch id; "" when the cache answered everything
	Status   string // the batch's last status
	Resumed  bool   // the batch was started by an earlier run
	Requests int    // requests in the batch
	Answered int    // replies written to the cache
	// Usage counts the tokens of the replies (Requests = Answered).
	Usage toolgrade.Usage
}

// Batch sends the requests the cache cannot answer through the Batch API
// and writes each reply to the cache, so that [Client.Complete] then
// answers them without a request. It needs a cache.
//
// The requests go as JSONL (one {"custom_id", "method", "url", "body"}
// per request, the custom_id being the cache key) in a file uploaded with
// purpose "batch"; a batch is created for /v1/chat/completions with a 24h
// window, and its status is checked every PollInterval, at most MaxPolls
// times. The output file is then read and each reply mapped back by its
// custom_id.
//
// The batch id is kept in the cache under a key of the request set, so a
// run that was interrupted (or failed) while the batch ran resumes the
// same batch instead of paying for a second one. A batch that ends
// expired, failed or cancelled, or that is cancelled after MaxPolls,
// leaves its unanswered requests uncached: Complete then sends them one by
// one, and Log says how many.
func (c *Client) Batch(ctx context.Context, reqs []ChatRequest, o BatchOptions) (BatchReport, error) {
	if c.opts.Cache == nil {
		return BatchReport{}, errors.New("batch: needs a cache (the batch's replies are read from it)")
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.MaxPolls <= 0 {
		o.MaxPolls = DefaultMaxPolls
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			o.Log(c.redact(fmt.Sprintf(format, args...)))
		}
	}

	input, keys, err := c.batchInput(reqs)
	if err != nil || len(keys) == 0 {
		return BatchReport{}, err
	}
	rep := BatchReport{Requests: len(keys)}
	stateKey := c.stateKey(keys)

	b, err := c.resumeBatch(ctx, stateKey)
	if err != nil {
		return rep, err
	}
	if b != nil {
		rep.Resumed = true
		logf("batch %s: resuming (%s)", b.ID, b.Status)
	} else {
		if b, err = c.startBatch(ctx, input, stateKey); err != nil {
			return rep, err
		}
		logf("batch %s: created for %d requests", b.ID, len(keys))
	}
	rep.ID = b.ID

	for polls := 0; !batchDone(b.Status); {
		if polls >= o.MaxPolls {
			logf("batch %s: still %s after %d polls; cancelling it", b.ID, b.Status, polls)
			if b, err = c.batchCall(ctx, http.MethodPost, batchPath(rep.ID)+"/cancel", nil); err != nil {
				return rep, fmt.Errorf("batch %s: cancel: %w", rep.ID, err)
			}
			for i := 0; i < cancelPolls && !batchDone(b.Status); i++ {
				if b, err = c.pollBatch(ctx, rep.ID, o.PollInterval); err != nil {
					return rep, err
				}
			}
			break
		}
		if b, err = c.pollBatch(ctx, rep.ID, o.PollInterval); err != nil {
			return rep, err
		}
		polls++
		logf("batch %s: %s, %d of %d done, %d failed (poll %d/%d)", b.ID, b.Status,
			b.RequestCounts.Completed, b.RequestCounts.Total, b.RequestCounts.Failed, polls, o.MaxPolls)
	}
	rep.Status = b.Status

	if b.OutputFileID != "" {
		if err := c.readBatchFile(ctx, b.OutputFileID, func(l *batchLine) {
			if !keys[l.CustomID] || l.Response == nil || l.Response.StatusCode != http.StatusOK {
				return
			}
			body := c.opts.Secrets.Bytes(l.Response.Body)
			comp, err := decodeCompletion(body)
			if err != nil {
				return
			}
			c.store(l.CustomID, body)
			delete(keys, l.CustomID)
			rep.Answered++
			rep.Usage.Add(comp.Usage)
		}); err != nil {
			return rep, fmt.Errorf("batch %s: output: %w", b.ID, err)
		}
	}
	if len(keys) > 0 {
		why := ""
		if b.ErrorFileID != "" {
			c.readBatchFile(ctx, b.ErrorFileID, func(l *batchLine) {
				if why == "" && keys[l.CustomID] {
					why = l.describe()
				}
			})
		}
		if why == "" && len(b.Errors.Data) > 0 {
			why = b.Errors.Data[0].Code + ": " + b.Errors.Data[0].Message
		}
		if why != "" {
			why = " (first error: " + shorten(why, 300) + ")"
		}
		logf("batch %s: %s with %d of %d requests unanswered%s; they are sent one by one", b.ID, b.Status, len(keys), rep.Requests, why)
	}
	if batchDone(b.Status) {
		c.forget(stateKey)
	}
	return rep, nil
}

// batchInput writes the JSONL input file for the requests the cache cannot
// answer, and returns their keys.
func (c *Client) batchInput(reqs []ChatRequest) ([]byte, map[string]bool, error) {
	var buf bytes.Buffer
	keys := map[string]bool{}
	for _, req := range reqs {
		key, err := c.Key(req)
		if err != nil {
			return nil, nil, err
		}
		if keys[key] {
			continue
		}
		if _, ok := c.cached(key); ok {
			continue
		}
		keys[key] = true
		body, err := req.body(c.plain.Load())
		if err != nil {
			return nil, nil, err
		}
		line, err := json.Marshal(struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}{key, http.MethodPost, "/v1/chat/completions", body})
		if err != nil {
			return nil, nil, fmt.Errorf("encoding the request: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), keys, nil
}

// stateKey is the cache key under which the batch for a request set
// keeps its id.
func (c *Client) stateKey(keys map[string]bool) string {
	sorted := slices.Sorted(maps.Keys(keys))
	return CacheKey(append([]string{"batch-state/v1", c.base}, sorted...)...)
}

type batchState struct {
	BatchID string `json:"batch_id"`
}

// resumeBatch returns the batch an earlier run started for this request
// set, or nil.
func (c *Client) resumeBatch(ctx context.Context, stateKey string) (*batchObject, error) {
	data, ok := c.load(stateKey)
	if !ok {
		return nil, nil
	}
	var st batchState
	if json.Unmarshal(data, &st) != nil || st.BatchID == "" {
		c.forget(stateKey)
		return nil, nil
	}
	b, err := c.batchCall(ctx, http.MethodGet, batchPath(st.BatchID), nil)
	if err != nil {
		if he := (*HTTPError)(nil); errors.As(err, &he) && he.Status == http.StatusNotFound {
			c.forget(stateKey) // gone: start afresh
			return nil, nil
		}
		return nil, fmt.Errorf("batch %s: %w", st.BatchID, err)
	}
	return b, nil
}

// startBatch uploads the input, creates the batch and records its id.
func (c *Client) startBatch(ctx context.Context, input []byte, stateKey string) (*batchObject, error) {
	fileID, err := c.upload(ctx, input)
	if err != nil {
		return nil, fmt.Errorf("batch: uploading the requests: %w", err)
	}
	create, err := json.Marshal(batchCreate{
		InputFileID:      fileID,
		Endpoint:         "/v1/chat/completions",
		CompletionWindow: "24h",
		Metadata:         map[string]string{"created_by": "toolgrade"},
	})
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	b, err := c.batchCall(ctx, http.MethodPost, "batches", create)
	if err != nil {
		return nil, fmt.Errorf("batch: creating it: %w", err)
	}
	state, _ := json.Marshal(batchState{BatchID: b.ID})
	c.store(stateKey, state)
	return b, nil
}

// upload sends a batch's input file (purpose "batch", as multipart form
// data) and returns the file's id.
func (c *Client) upload(ctx context.Context, input []byte) (string, error) {
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	err := mw.WriteField("purpose", "batch")
	if err == nil {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="toolgrade-batch.jsonl"`)
		h.Set("Content-Type", "application/jsonl")
		var part io.Writer
		if part, err = mw.CreatePart(h); err == nil {
			_, err = part.Write(input)
		}
	}
	if err := errors.Join(err, mw.Close()); err != nil {
		return "", err
	}
	var file struct {
		ID string `json:"id"`
	}
	err = c.retry(ctx, -1, func(ctx context.Context) (*httpSnapshot, error) {
		snap, data, err := c.send(ctx, http.MethodPost, "files", mw.FormDataContentType(), form.Bytes(), maxReplyBytes)
		if err == nil {
			err = decodeObject(data, &file.ID, &file)
		}
		return snap, err
	})
	return file.ID, err
}

// batchCreate is the body that creates a batch.
type batchCreate struct {
	InputFileID      string            `json:"input_file_id"`
	Endpoint         string            `json:"endpoint"`
	CompletionWindow string            `json:"completion_window"`
	Metadata         map[string]string `json:"metadata"`
}

// A batchObject is a batch as the Batch API describes it: the fields
// toolgrade reads.
type batchObject struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	OutputFileID  string `json:"output_file_id"`
	ErrorFileID   string `json:"error_file_id"`
	RequestCounts struct {
		Total     int64 `json:"total"`
		Completed int64 `json:"completed"`
		Failed    int64 `json:"failed"`
	} `json:"request_counts"`
	Errors struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"data"`
	} `json:"errors"`
}

func batchPath(id string) string { return "batches/" + url.PathEscape(id) }

// batchCall runs one Batch API call (body nil: none) with retries and
// returns the batch it describes.
func (c *Client) batchCall(ctx context.Context, method, path string, body []byte) (*batchObject, error) {
	var b *batchObject
	err := c.retry(ctx, -1, func(ctx context.Context) (*httpSnapshot, error) {
		snap, data, err := c.send(ctx, method, path, "application/json", body, maxReplyBytes)
		if err == nil {
			b = &batchObject{}
			err = decodeObject(data, &b.ID, b)
		}
		return snap, err
	})
	return b, err
}

// decodeObject reads an API object into v, whose id is *id: an object
// without one is an error.
func decodeObject(data []byte, id *string, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if *id == "" {
		return errors.New(`the reply has no "id"`)
	}
	return nil
}

func (c *Client) pollBatch(ctx context.Context, id string, wait time.Duration) (*batchObject, error) {
	if err := c.sleep(ctx, wait); err != nil {
		return nil, err
	}
	b, err := c.batchCall(ctx, http.MethodGet, batchPath(id), nil)
	if err != nil {
		return nil, fmt.Errorf("batch %s: status: %w", id, err)
	}
	return b, nil
}

// batchDone reports whether a batch status is final.
func batchDone(status string) bool {
	switch status {
	case "completed", "failed", "expired", "cancelled":
		return true
	}
	return false
}

// A batchLine is one line of a batch's output or error file.
type batchLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (l *batchLine) describe() string {
	switch {
	case l.Error != nil:
		return l.Error.Code + ": " + l.Error.Message
	case l.Response != nil:
		return fmt.Sprintf("HTTP %d: %s", l.Response.StatusCode, errorDetail(l.Response.Body))
	}
	return "no response"
}

// readBatchFile downloads a batch file and calls each for its lines;
// lines that do not parse are skipped (their requests stay unanswered).
func (c *Client) readBatchFile(ctx context.Context, id string, each func(*batchLine)) error {
	var data []byte
	err := c.retry(ctx, -1, func(ctx context.Context) (*httpSnapshot, error) {
		snap, body, err := c.send(ctx, http.MethodGet, "files/"+url.PathEscape(id)+"/content", "", nil, maxFileBytes)
		data = body
		return snap, err
	})
	if err != nil {
		return fmt.Errorf("file %s: %w", id, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		var l batchLine
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			each(&l)
		}
	}
	return nil
}
